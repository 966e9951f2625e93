SELECT rec_id, substr(path, -30) AS recording, round(duration_ns / 1e9, 3) AS secs,
       events, lost_events, integrity, syscall_source
FROM recordings;
