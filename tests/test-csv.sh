#!/usr/bin/env bash
# test-csv.sh - the row views as CSV (--csv) on every sample: every line
# has the header's number of fields (quoting holds), and the rows are
# those of --json: devices' bytes, snoop's requests in order, the slowest
# requests and syscalls, the processes and the files.
set -u
cd "$top_srcdir" || exit 1
shopt -s nullglob
samples=(samples/*.iorec samples/*.dat)
[ ${#samples[@]} -gt 0 ] || { echo "SKIP: no samples"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0 n=0
for s in "${samples[@]}"; do
	for v in devices slow snoop processes files; do
		"$IOREPORT" "$v" --csv "$s" > "$dir/out.csv" 2>/dev/null || continue
		"$IOREPORT" "$v" --json "$s" > "$dir/out.json" 2>/dev/null || { echo "FAIL: $v --json $s"; fail=1; continue; }
		n=$((n + 1))
		python3 - "$v" "$s" "$dir" <<'PY' || fail=1
import csv, json, sys
v, s, d = sys.argv[1:4]
rows = list(csv.reader(open(d + '/out.csv', newline='')))
j = json.load(open(d + '/out.json'))
head, rows = rows[0], rows[1:]
bad = []
if any(len(r) != len(head) for r in rows):
    bad.append('rows of other lengths than the header (%d)' % len(head))
col = {k: i for i, k in enumerate(head)}
if v == 'devices':
    got = [(r[col['device']], r[col['op']], int(r[col['bytes']])) for r in rows]
    want = [(x['device'], x['op'], x['bytes']) for x in j['devices']]
elif v == 'snoop':
    got = [(int(r[col['sector']]), int(r[col['bytes']]), r[col['path']] or None) for r in rows]
    want = [(x['sector'], x['bytes'], x['path']) for x in j['requests']]
elif v == 'slow':
    got = [r[col['what']] for r in rows]
    want = ['request'] * len(j['slow_requests']) + ['syscall'] * len(j['slow_syscalls'] or [])
elif v == 'processes':
    got = [int(r[col['PID']]) for r in rows]
    want = [x['pid'] for x in j['processes']]
else:
    got = [r[col['FILE']] for r in rows]
    want = [x['name'] for x in j['files']]
if got != want:
    bad.append('rows differ from --json: %s... vs %s...' % (got[:2], want[:2]))
for b in bad:
    print('FAIL: %s --csv %s: %s' % (v, s, b))
sys.exit(1 if bad else 0)
PY
	done
done
[ $fail = 0 ] && echo "$n CSV outputs match their JSON"
exit $fail
