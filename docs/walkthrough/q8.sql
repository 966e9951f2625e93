SELECT r.rec_id, substr(r.path, -26) AS recording,
       (SELECT count(*) FROM requests q JOIN ops o USING (rec_id, op)
        WHERE q.rec_id = r.rec_id AND q.dev = d.dev
          AND (o.name = 'flush' OR q.flags & 1)) AS flushes,
       (SELECT sum(fsyncs) FROM processes p
        WHERE p.rec_id = r.rec_id AND p.comm = 'bcfg2-server') AS fsyncs,
       (SELECT round(sum(fsync_ns) / 1e6 / sum(fsyncs), 3) FROM processes p
        WHERE p.rec_id = r.rec_id AND p.comm = 'bcfg2-server') AS avg_fsync_ms,
       (SELECT super_options FROM mounts m WHERE m.rec_id = r.rec_id
        AND m.phase = 'start' AND m.source = '/dev/loop0') AS mount_options
FROM recordings r JOIN devices d ON d.rec_id = r.rec_id AND d.name = 'loop0'
WHERE r.path LIKE '%story001%';
