#!/usr/bin/env bash
# test-damage.sh - two flipped bytes, one lying length and one bad zstd
# frame, each in one chunk in the middle of a real sample: ioreport reads
# on after the damage (at least 90 % of the events, every event of the
# other CPU), info lists the one region with its offset, CPU and time
# span (the lost chunk's own descriptor is the truth), and no request or
# syscall is paired across the gap: every pair of the damaged file is a
# pair of the intact one.
set -u
src=$top_srcdir/samples/story001-barrier.iorec
[ -f "$src" ] || { echo "SKIP: no sample $src"; exit 77; }
command -v sqlite3 >/dev/null || { echo "SKIP: no sqlite3 (apt-get install sqlite3)"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

python3 "$top_srcdir/tests/corrupt/make-damage.py" "$src" "$dir" || exit 1

info_json() { "$IOREPORT" info --json "$1" 2>/dev/null; }
snoop_json() { "$IOREPORT" snoop --json "$1" 2>/dev/null; }
calls() {	# FILE: "tid start end" of every paired syscall
	rm -f "$dir/db.sqlite"
	"$IOREPORT" db -q "$dir/db.sqlite" "$1" 2>/dev/null || return 1
	sqlite3 "$dir/db.sqlite" "SELECT tid, start_ts, end_ts FROM syscalls WHERE duration_ns IS NOT NULL" | sort
}
info_json "$src" > "$dir/orig.info" || exit 1
snoop_json "$src" > "$dir/orig.snoop" || exit 1
calls "$src" > "$dir/orig.calls" || exit 1

fail=0
for name in flipped lying-length bad-frame; do
	f=$dir/$name.iorec
	out=$("$IOREPORT" info "$f" 2>&1); rc=$?
	if [ $rc != 0 ]; then
		echo "FAIL: $name: ioreport info exited $rc"; echo "$out" | tail -3; fail=1; continue
	fi
	read -r off len cpu first last reason < "$dir/$name.expect"
	if ! grep -qF "damaged: 1 region, 1 chunk" <<<"$out" ||
	   ! grep -qF "skipped at offset $off: $reason" <<<"$out"; then
		echo "FAIL: $name: info does not list the region at offset $off ($reason):"
		echo "$out" | grep -iE "damage|integrity|offset"; fail=1
	fi
	info_json "$f" > "$dir/$name.info" && snoop_json "$f" > "$dir/$name.snoop" &&
		calls "$f" > "$dir/$name.calls" || { echo "FAIL: $name: a view failed"; fail=1; continue; }
	python3 - "$dir" "$name" "$off" "$len" "$cpu" "$first" "$last" <<'EOF' || fail=1
import json, sys
d, name = sys.argv[1], sys.argv[2]
off, length, cpu, first, last = map(int, sys.argv[3:8])
o, n = json.load(open(d + '/orig.info')), json.load(open(d + '/%s.info' % name))
bad = []
if n['events'] < 0.9 * o['events']:
    bad.append('%d events read of %d' % (n['events'], o['events']))
for c0, c1 in zip(o['cpu'], n['cpu']):
    if c0['cpu'] != cpu and c1['events'] != c0['events']:
        bad.append('cpu %d: %d events, not %d' % (c0['cpu'], c1['events'], c0['events']))
r = n['damaged']
want = {'offset': off, 'length': length, 'chunks': 1, 'cpu': cpu,
        'first_ts_ns': first, 'last_ts_ns': last}
if len(r) != 1 or any(r[0].get(k) != v for k, v in want.items()):
    bad.append('region %s, not %s' % (r, want))
if n['integrity']['status'] != 'corrupt':
    bad.append('integrity %s' % n['integrity']['status'])
def pairs(f):
    return {(q['start_ns'], q['complete_ns'], q['sector'], q['dev'])
            for q in json.load(open(f))['requests']}
extra = pairs(d + '/%s.snoop' % name) - pairs(d + '/orig.snoop')
if extra:
    bad.append('%d requests paired across the gap, e.g. %s' % (len(extra), sorted(extra)[0]))
oc = set(open(d + '/orig.calls').read().split('\n'))
nc = set(open(d + '/%s.calls' % name).read().split('\n'))
if nc - oc:
    bad.append('%d syscalls paired across the gap, e.g. %s' % (len(nc - oc), sorted(nc - oc)[0]))
for b in bad:
    print('FAIL: %s: %s' % (name, b))
print('%s: %d of %d events, %d requests, %d syscalls paired' %
      (name, n['events'], o['events'], len(pairs(d + '/%s.snoop' % name)), len(nc)))
sys.exit(1 if bad else 0)
EOF
	# the replays saw the gap as lost events
	if ! "$IOREPORT" report --json "$f" 2>/dev/null |
	     python3 -c 'import json,sys; a=json.load(sys.stdin)["anomalies"]; sys.exit(0 if a["lost_event_gaps"] >= 1 else 1)'; then
		echo "FAIL: $name: no lost-event gap in the replay's anomalies"; fail=1
	fi
done
exit $fail
