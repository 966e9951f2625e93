SELECT coalesce(comm, '-') AS who, attrib, substr(coalesce(file, '?'), -30) AS file,
       count(*) AS requests, sum(bytes) AS bytes,
       round(avg(device_ns) / 1e6, 3) AS avg_device_ms,
       round(max(total_ns) / 1e6, 3) AS max_total_ms
FROM request_v WHERE rec_id = 3 AND device = 'loop1' AND op = 'write'
GROUP BY 1, 2, 3 ORDER BY sum(device_ns) DESC LIMIT 6;
