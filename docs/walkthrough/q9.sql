SELECT a.kind, a.name, a.attr, a.value AS rec6, b.value AS rec7
FROM config a JOIN config b ON b.rec_id = 7 AND b.phase = a.phase
     AND b.kind = a.kind AND b.name = a.name AND b.attr = a.attr
WHERE a.rec_id = 6 AND a.phase = 'start'
  AND a.kind IN ('sysctl', 'mount', 'blockdev') AND a.value IS NOT b.value;
