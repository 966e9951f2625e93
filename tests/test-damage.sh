#!/usr/bin/env bash
# test-damage.sh - one flipped byte, one lying length and one bad zstd
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

python3 - "$src" "$dir" <<'EOF' || exit 1
import struct, sys
src, out = open(sys.argv[1], 'rb').read(), sys.argv[2]

T = []
for i in range(256):
    c = i
    for _ in range(8):
        c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
    T.append(c)
def crc(b):
    c = 0xffffffff
    for x in b:
        c = T[(c ^ x) & 0xff] ^ (c >> 8)
    return c ^ 0xffffffff

data = []          # (offset, stored, flags, cpu, first_ts, last_ts)
off = 16
while off + 32 <= len(src):
    _, typ, flags, _, stored, _, _, _, _ = struct.unpack_from('<IHHIIIIII', src, off)
    if typ == 8:
        cpu, _, _, _, f, l = struct.unpack_from('<IIIIQQ', src, off + 32)
        data.append((off, stored, flags, cpu, f, l))
    off += 32 + stored
# small chunks in the middle: the 4th (one CPU) and the 6th (the other)
a, b = data[3], data[5]
assert a[3] != b[3] and b[2] & 1

def write(name, buf, c, reason):
    open('%s/%s.iorec' % (out, name), 'wb').write(bytes(buf))
    open('%s/%s.expect' % (out, name), 'w').write(
        '%d %d %d %d %d %s\n' % (c[0], 32 + c[1], c[3], c[4], c[5], reason))

buf = bytearray(src); buf[a[0] + 32 + a[1] // 2] ^= 0x10
write('flipped', buf, a, 'chunk payload checksum mismatch')

buf = bytearray(src)
struct.pack_into('<I', buf, a[0] + 12, a[1] + 100000)
struct.pack_into('<I', buf, a[0] + 28, crc(bytes(buf[a[0]:a[0] + 28])))
write('lying-length', buf, a, 'chunk length out of range')

buf = bytearray(src)
o = b[0] + 32 + 32 + 4		# the zstd frame header, after its magic
buf[o:o + 16] = b'\xa5' * 16
struct.pack_into('<I', buf, b[0] + 20, crc(bytes(buf[b[0] + 32:b[0] + 32 + b[1]])))
struct.pack_into('<I', buf, b[0] + 28, crc(bytes(buf[b[0]:b[0] + 28])))
write('bad-frame', buf, b, 'chunk payload does not decompress')
EOF

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
if n['integrity'] != 'corrupt':
    bad.append('integrity %s' % n['integrity'])
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
