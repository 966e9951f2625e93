#!/usr/bin/env bash
# perfetto.sh - `ioreport export --perfetto`: on the sample recordings with
# file syscalls (and samples/tracecmd.dat), every file syscall is a slice
# on its thread with the duration of its enter -> exit pair in the
# recording, every block request a slice on its device with its queue and
# device phases on the insert, issue and complete events of its sector,
# as many per device and operation as 'ioreport devices' counts, one
# dirty counter sample per 100 ms of global_dirty_state, names for every
# track, the wall clock in the metadata (tests/export/check-perfetto.py);
# with the view filters (--since/--until, -p), exactly the slices and
# counters of the whole export that they keep.
# Then, live (root, tracefs; skipped otherwise), a known workload on a
# loop ext4: a writer that makes 24 pwrites of 4096 bytes and an fsync
# after every 6 appears as exactly 24 pwrite64 slices of 4096 bytes and 4
# fsync slices on that file, on the writer's thread, and the loop
# device's track holds the requests the recording completed on it; and in
# the default compat mode, a recording that lost events under load has no
# syscall slice that does not start at a syscalls:* enter.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/live/lib.sh"
need_cmd python3
[ -x "$IOREPORT" ] || fail "$IOREPORT not built"
CHECK=$top_srcdir/tests/export/check-perfetto.py

check() {	# RECORDING NAME
	"$IOREPORT" export --perfetto "$T/$2.json" "$1" 2>"$T/$2.err" ||
		fail "export --perfetto $1: $(cat "$T/$2.err")"
	grep -q "syscall slices on" "$T/$2.err" || fail "export said: $(cat "$T/$2.err")"
	"$IOREPORT" dump --json --raw "$1" >"$T/$2.dump" 2>/dev/null || fail "dump --json $1 failed"
	"$IOREPORT" devices --json "$1" >"$T/$2.dev" 2>/dev/null || fail "devices --json $1 failed"
	python3 "$CHECK" "$T/$2.json" "$T/$2.dump" "$T/$2.dev" >"$T/$2.ok" 2>"$T/$2.fail" ||
		fail "$2: $(cat "$T/$2.fail")"
	log "ok: $2: $(cat "$T/$2.ok")"
}
for s in story000-sqlite-before story001-barrier story002-dirty-default; do
	check "$top_srcdir/samples/$s.iorec" "$s"
done
check "$top_srcdir/samples/tracecmd.dat" tracecmd.dat
"$IOREPORT" export --perfetto - "$top_srcdir/samples/story002-dirty-default.iorec" 2>/dev/null |
	cmp -s - "$T/story002-dirty-default.json" || fail "--perfetto - wrote other bytes than --perfetto FILE"
# the view filters: a time window and a process keep exactly the slices
# of the whole export that fall in them (syscalls by their start, requests
# by their completion, the counters by their time)
s0=$top_srcdir/samples/story000-sqlite-before.iorec
pid=$(python3 -c '
import collections, json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
c = collections.Counter(e["pid"] for e in ev if e.get("cat") == "syscall")
print(c.most_common(2)[1][0])' "$T/story000-sqlite-before.json")
"$IOREPORT" export --perfetto "$T/win.json" --since 1.5 --until 3.25 "$s0" 2>"$T/win.err" ||
	fail "export --perfetto --since --until: $(cat "$T/win.err")"
grep -q "^filter: from 1.500 s until 3.250 s of the recording; kept [0-9]* of [0-9]* requests, [0-9]* of [0-9]* syscalls$" "$T/win.err" ||
	fail "export --since/--until said: $(cat "$T/win.err")"
"$IOREPORT" export --perfetto "$T/pid.json" -p "$pid" "$s0" 2>"$T/pid.err" ||
	fail "export --perfetto -p: $(cat "$T/pid.err")"
python3 - "$T/story000-sqlite-before.json" "$T/win.json" "$T/pid.json" "$pid" >"$T/filt.ok" 2>&1 <<'EOF2' || fail "filtered export: $(cat "$T/filt.ok")"
import json, sys
full, win, one = (json.load(open(f)) for f in sys.argv[1:4])
pid = int(sys.argv[4])
base = full['metadata']['first_ts_ns']
def ns(us):
    return round(us * 1000)
def inwin(t):
    return 1500000000 <= t - base < 3250000000
def calls(t):
    return sorted((e['pid'], e['tid'], e['ts'], e['name']) for e in t['traceEvents']
                  if e['ph'] == 'X' and e.get('cat') == 'syscall')
def reqs(t):
    return sorted((e['pid'], e['ts'], e['dur'], e['name']) for e in t['traceEvents']
                  if e['ph'] == 'X' and e.get('cat') == 'block' and 'bytes' in e.get('args', {}))
def ctrs(t):
    return sorted((e['name'], e['ts']) for e in t['traceEvents'] if e['ph'] == 'C')
want = [c for c in calls(full) if inwin(ns(c[2]))]
assert want and len(want) < len(calls(full)), 'the window holds %d of %d calls: no test' % (len(want), len(calls(full)))
assert calls(win) == want, 'window: %d syscall slices, the whole export has %d in it' % (len(calls(win)), len(want))
wr = [r for r in reqs(full) if inwin(ns(r[1]) + ns(r[2]))]
got = reqs(win)
# a request's end is its ts + dur in the JSON's microseconds: one ns either way
assert len(got) == len(wr), 'window: %d requests, the whole export has %d ending in it' % (len(got), len(wr))
wc = [c for c in ctrs(full) if inwin(ns(c[1]))]
assert ctrs(win) == wc, 'window: counters %s, not %s' % (ctrs(win), wc)
wp = [c for c in calls(full) if c[0] == pid]
assert wp and calls(one) == wp, '-p %d: %d syscall slices, the whole export has %d of it' % (pid, len(calls(one)), len(wp))
print('window 1.5-3.25 s: %d of %d syscall slices, %d of %d requests, %d of %d counters; -p %d: its %d syscall slices'
      % (len(want), len(calls(full)), len(wr), len(reqs(full)), len(wc), len(ctrs(full)), pid, len(wp)))
EOF2
log "ok: filters: $(cat "$T/filt.ok")"
rc=0; "$IOREPORT" export "$top_srcdir/samples/story002-dirty-default.iorec" 2>"$T/u.err" || rc=$?
[ "$rc" = 2 ] && grep -q "export wants" "$T/u.err" || fail "export without an output: exit $rc: $(cat "$T/u.err")"
rc=0; "$IOREPORT" export --perfetto "$T/nodir/x.json" "$top_srcdir/samples/story002-dirty-default.iorec" 2>"$T/u.err" || rc=$?
[ "$rc" = 1 ] && grep -q "cannot create '$T/nodir/x.json'" "$T/u.err" || fail "unwritable output: exit $rc: $(cat "$T/u.err")"

# live: a known workload
[ "$(id -u)" = 0 ] || { log "PASS (samples only: the live part needs root)"; exit 0; }
need_root_tracefs
need_event syscalls:sys_enter_pwrite64 syscalls:sys_enter_fsync
make_loop_ext4 64
f=$MNT/slices.db	# not known.db: fio.sh, which may run beside, picks its writer by that name
# --no-compat: the check's truth is the dump's syscalls:* pairs, so the
# recording holds no raw_syscalls events for ioreport to name calls from
record_known() {	# [IOREC-OPTION...]
	rm -f "$f"
	run_iorec -q --no-compat "$@" -o "$T/known.iorec" -- python3 "$top_srcdir/tests/export/writer.py" "$f" 24 6 2>"$T/known.err" ||
		fail "iorec failed: $(tail -n 3 "$T/known.err")"
}
# a loaded machine can overrun the ring buffer: then recorded again with
# buffers 8 times as large
record_whole "$T/known.iorec" record_known
check "$T/known.iorec" known
python3 - "$T/known.json" "$f" "$LOOPNAME" >"$T/known.k" 2>&1 <<'EOF2' || fail "known workload: $(cat "$T/known.k")"
import json, sys
t = json.load(open(sys.argv[1]))
path, loop = sys.argv[2], sys.argv[3]
ev = t['traceEvents']
def calls(name):
    return [e for e in ev if e['ph'] == 'X' and e.get('cat') == 'syscall'
            and e['name'] == name and e['args'].get('file') == path]
pw, fs = calls('pwrite64'), calls('fsync')
assert len(pw) == 24, '%d pwrite64 slices on %s, not 24' % (len(pw), path)
assert all(e['args']['bytes'] == 4096 and e['args']['ret'] == 4096 for e in pw), 'a pwrite64 slice not of 4096 bytes'
assert len(fs) == 4, '%d fsync slices on %s, not 4' % (len(fs), path)
assert len({(e['pid'], e['tid']) for e in pw + fs}) == 1, 'the calls are on several tracks'
assert all(e['dur'] > 0 for e in pw + fs), 'a call without duration'
names = {e['pid']: e['args']['name'] for e in ev if e['ph'] == 'M' and e['name'] == 'process_name'}
dev = [p for p, n in names.items() if n == 'block device ' + loop]
assert dev, 'no track for %s: %s' % (loop, sorted(names.values()))
w = [e for e in ev if e['ph'] == 'X' and e['pid'] == dev[0] and e['name'] == 'write']
assert sum(e['args']['bytes'] for e in w) >= 24 * 4096, 'the writes on %s hold %d bytes, less than 24 x 4096' % (loop, sum(e['args']['bytes'] for e in w))
print('24 pwrite64 and 4 fsync slices on %s, %d write requests (%d bytes) on %s' % (path, len(w), sum(e['args']['bytes'] for e in w), loop))
EOF2
log "ok: known workload: $(cat "$T/known.k")"

# The default compat mode, shadow on a kernel with a 32-bit ABI: no
# native program's raw_syscalls event becomes a 32-bit call.  Small ring
# buffers under a load of short processes and of file syscalls lose
# events on purpose: a process whose fork was lost has no known ABI, and
# the twin of a raw event may be among the lost ones.  Every syscall
# slice must start at a syscalls:* enter of its thread (ioreport before
# the fix: 1 to 4 slices per recording named link, unlink or munmap, a
# native mmap, open or fchmod taken for i386's call of its number).
if grep -q 'native marker events' <<<"$("$IOREC" --check 2>/dev/null)"; then
	loads=()
	for i in 1 2 3; do
		start_workload sh -c 'cat /etc/hostname >/dev/null; ls / >/dev/null'
		loads+=("$WORKLOAD_PID")
		start_workload python3 -c '
import os
for i in range(20000):
    fd = os.open("/etc/hostname", os.O_RDONLY)
    os.fstat(fd); os.lseek(fd, 0, 0); os.read(fd, 10); os.close(fd); os.stat("/")'
		loads+=("$WORKLOAD_PID")
	done
	# --compat: shadow mode on, as where a 32-bit program runs (by default
	# it stays off on a machine without one)
	run_iorec -q --compat -d 1 -b 256 -o "$T/shadow.iorec" 2>"$T/shadow.err" ||
		fail "iorec failed: $(tail -n 3 "$T/shadow.err")"
	for p in "${loads[@]}"; do stop_workload "$p"; done
	lost=$(lost_events "$T/shadow.iorec") || fail "ioreport info --json failed"
	"$IOREPORT" export --perfetto "$T/shadow.json" "$T/shadow.iorec" 2>"$T/shadow.err" ||
		fail "export --perfetto: $(cat "$T/shadow.err")"
	"$IOREPORT" dump --json --raw -e syscalls "$T/shadow.iorec" >"$T/shadow.dump" 2>/dev/null ||
		fail "dump --json -e syscalls failed"
	python3 - "$T/shadow.json" "$T/shadow.dump" "$lost" >"$T/shadow.k" 2>&1 <<'EOF2' || fail "compat shadow mode: $(cat "$T/shadow.k")"
import collections, json, sys
def ns(v):	# "5298944977.733" microseconds -> ns, exactly
    whole, _, frac = str(v).partition('.')
    return int(whole) * 1000 + int((frac + '000')[:3])
t = json.load(open(sys.argv[1]), parse_float=str)
enters = collections.Counter((d['pid'], d['ts_ns']) for d in json.load(open(sys.argv[2]))['events']
                             if d.get('system') == 'syscalls' and d['event'].startswith('sys_enter_'))
n, extra = 0, collections.Counter()
for e in t['traceEvents']:
    if e['ph'] == 'X' and e.get('cat') == 'syscall':
        n += 1
        k = (e['tid'], ns(e['ts']))
        if enters[k]:
            enters[k] -= 1
        else:
            extra[e['name']] += 1
# (a gap of lost events on any CPU ends every waiting enter, so a lossy
# recording keeps fewer slices than it has enters)
if n < 2000:
    sys.exit('only %d syscall slices: no test' % n)
if extra:
    sys.exit('%d syscall slices without a syscalls:* enter: %s' % (sum(extra.values()), dict(extra)))
print('%d syscall slices, each at a syscalls:* enter of its thread (%s events lost)' % (n, sys.argv[3]))
EOF2
	log "ok: compat shadow mode: $(cat "$T/shadow.k")"
else
	log "no compat shadow mode on this kernel: its part skipped"
fi
log "PASS"
