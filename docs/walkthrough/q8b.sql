SELECT rec_id, comm, kind, calls, round(lat_p50_ns / 1e3, 1) AS p50_us,
       round(lat_p99_ns / 1e3, 1) AS p99_us, round(lat_max_ns / 1e3, 1) AS max_us
FROM process_latency
WHERE rec_id IN (4, 5) AND comm = 'bcfg2-server' AND kind = 'fdatasync';
