SELECT r.rec_id,
       (SELECT value FROM sysctls s WHERE s.rec_id = r.rec_id AND s.phase = 'start'
        AND s.name = 'vm.dirty_background_bytes') AS dirty_bg_bytes,
       (SELECT value FROM sysctls s WHERE s.rec_id = r.rec_id AND s.phase = 'start'
        AND s.name = 'vm.dirty_bytes') AS dirty_bytes,
       count(*) AS dd_runs, sum(p.write_bytes) AS bytes, sum(p.throttles) AS throttles,
       round(sum(p.throttle_ns) / 1e6, 1) AS throttled_ms,
       round(sum(p.fsync_ns) / 1e6, 1) AS fsync_ms,
       round(sum(p.write_bytes) / (sum(coalesce(p.exit_ts, r.last_ts)
             - coalesce(p.start_ts, r.first_ts)) / 1e9) / 1e6, 1) AS mb_per_s
FROM processes p JOIN recordings r USING (rec_id)
WHERE p.comm = 'dd' AND p.write_bytes > 0 AND r.path LIKE '%story002%'
GROUP BY r.rec_id;
