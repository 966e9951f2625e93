WITH RECURSIVE slot(lo) AS (SELECT 1 UNION ALL SELECT lo * 2 FROM slot WHERE lo < 1 << 20),
b AS (SELECT h.rec_id, bk.lo_ns, bk.hi_ns, bk.count
      FROM histograms h JOIN hist_buckets bk USING (rec_id, hist_id)
      JOIN devices d ON d.rec_id = h.rec_id AND d.dev = h.dev
      JOIN ops o ON o.rec_id = h.rec_id AND o.op = h.op
      WHERE h.rec_id IN (2, 3) AND h.subject = 'device' AND h.metric = 'total'
        AND d.name = 'loop1' AND o.name = 'write')
SELECT slot.lo / 2 AS ms_lo, slot.lo AS ms_hi,
       sum(CASE WHEN b.rec_id = 3 THEN b.count ELSE 0 END) AS before,
       sum(CASE WHEN b.rec_id = 2 THEN b.count ELSE 0 END) AS after
FROM b JOIN slot ON max((b.lo_ns + b.hi_ns) / 2e6, 0) < slot.lo
                AND max((b.lo_ns + b.hi_ns) / 2e6, 0) >= slot.lo / 2
GROUP BY slot.lo ORDER BY slot.lo;
