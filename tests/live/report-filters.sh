#!/usr/bin/env bash
# report-filters.sh - the view filters against a known truth: two named
# writers (private copies of dd, "wra" and "wrb") write 4 MiB and 2 MiB
# with O_DIRECT and one fsync to two journaled loop ext4 file systems, one
# after the other with a pause between them.  Each filter keeps exactly its part: -c and -p the
# writer's bytes, -f its file, -d its device's requests, --since/--until
# the half of the recording it wrote in; the parts add up to the whole;
# the window also as times of day; combined filters keep what both say
# (wra on wrb's device: nothing); --min-ms keeps only what took that
# long; diff filters each recording by itself; --interval blocks add up
# to the whole view.  wa, fsync, dirty, findings and html filter the same
# way: each writer's application bytes on its device and its one fsync,
# the time halves' journal commits and fsyncs adding up to the whole.
. "$(dirname "$0")/lib.sh"
need_root_tracefs
need_event block:block_rq_issue block:block_rq_complete \
	syscalls:sys_enter_pwrite64 syscalls:sys_enter_write sched:sched_process_exec \
	syscalls:sys_enter_fsync ext4:ext4_sync_file_enter jbd2:jbd2_run_stats
need_cmd python3

make_loop_ext4 64
A_DEV=$LOOPNAME A_MNT=$MNT
make_loop_ext4 64
B_DEV=$LOOPNAME B_MNT=$MNT
mkdir -p "$T/bin"
cp "$(command -v dd)" "$T/bin/wra"
cp "$(command -v dd)" "$T/bin/wrb"

# recorded in a zone 5:30 east of UTC (a POSIX TZ, no tzdata needed): the
# views print, and the filters read, times of day of the recording machine
record() {	# [IOREC-OPTION...]
	local rc=0
	rm -f "$A_MNT/a" "$B_MNT/b"
	TZ=XYZ-5:30 run_iorec -q "$@" -o "$T/rec.iorec" -- sh -c "
		'$T/bin/wra' if=/dev/zero of='$A_MNT/a' bs=64k count=64 oflag=direct conv=fsync status=none &&
		sleep 1 &&
		'$T/bin/wrb' if=/dev/zero of='$B_MNT/b' bs=64k count=32 oflag=direct conv=fsync status=none" \
		2>"$T/rec.err" || rc=$?
	[ "$rc" = 0 ] || { cat "$T/rec.err" >&2; fail "iorec -- the writers exited $rc"; }
}
record_whole "$T/rec.iorec" record
[ "$(stat -c %s "$A_MNT/a")" = 4194304 ] && [ "$(stat -c %s "$B_MNT/b")" = 2097152 ] ||
	fail "the writers did not write 4 MiB and 2 MiB"
info_to "$T/rec.iorec" "$T/info"
assert_complete "$T/info"

# j NAME VIEW ARGS...: the view's JSON into $T/NAME.json
j() {
	local name=$1
	shift
	"$IOREPORT" "$@" --json "$T/rec.iorec" >"$T/$name.json" 2>"$T/$name.err" ||
		{ cat "$T/$name.err" >&2; fail "ioreport $* --json failed"; }
}
j all processes
j snoop snoop
j devs devices
# the pause between the writers: after wra's last request, before wrb's
# first (the journal commits of A may come later)
mid=$(python3 - "$T" "$A_DEV" "$B_DEV" <<'EOF'
import json, sys
d, a, b = sys.argv[1:4]
s = json.load(open(d + '/snoop.json'))
base = json.load(open(d + '/devs.json'))['first_ts_ns']
def of(r, comm):
    return r['comm'] == comm or (r['owner'] or {}).get('comm') == comm
ra = [r for r in s['requests'] if r['device'] == a and of(r, 'wra')]
rb = [r for r in s['requests'] if r['device'] == b and of(r, 'wrb')]
ta = max(r['complete_ns'] for r in ra)
tb = min(r['start_ns'] for r in rb)
if tb - ta < 500000000:
    sys.exit('the writers are %.3f s apart, not the 1 s pause' % ((tb - ta) / 1e9))
print('%.6f' % (((ta + tb) / 2 - base) / 1e9))
EOF
) || fail "cannot place the pause between the writers"
log "the pause between the writers is around $mid s"

pid_a=$(python3 -c 'import json,sys; print([p["pid"] for p in json.load(open(sys.argv[1]))["processes"] if "wra" in p["comms"]][0])' "$T/all.json") ||
	fail "no process wra in ioreport processes"
j ca processes -c wra
j cb processes -c wrb
j cab processes -c wra,wrb
j pa processes -p "$pid_a"
j fa files -f "$A_MNT/*"
j fb files -f "$B_MNT/*"
j da devices -d "$A_DEV"
j db devices -d "$B_DEV"
j dab devices -d "$A_DEV,$B_DEV"
j early processes --until "$mid"
j late processes --since "$mid"
j early_d devices --until "$mid"
j late_d devices --since "$mid"
# the same pause as a time of day of the recording machine: the wall
# clock of the header in its zone, which summary prints with its offset
j sum summary
wall=$(python3 -c '
import datetime, json, sys
s = json.load(open(sys.argv[1]))["summary"]["started"]
rt = int(sys.argv[3])
assert s.endswith(" +05:30 XYZ"), "started %r is not in the recording zone +05:30 XYZ" % s
t = datetime.datetime.strptime(s[:26], "%Y-%m-%d %H:%M:%S.%f")
# the local time is the header'"'"'s start_realtime_ns + 5:30 (to the us of the first event)
utc = datetime.datetime.fromtimestamp(rt / 1e9, datetime.timezone.utc).replace(tzinfo=None)
d = (t - utc - datetime.timedelta(hours=5, minutes=30)).total_seconds()
# (the first event may come a little before the clock reading of the header,
# events of the instance being on before iorec reads the clock)
assert -1 < d < 5, "started %s is %.6f s from the recording start + 5:30" % (s, d)
t += datetime.timedelta(seconds=float(sys.argv[2]))
print(t.strftime("%H:%M:%S.%f"))' "$T/sum.json" "$mid" \
	"$("$IOREPORT" info --json "$T/rec.iorec" | python3 -c 'import json, sys; print(json.load(sys.stdin)["header"]["start_realtime_ns"])')") ||
	fail "no wall clock of the recording zone in summary --json"
log "the pause as a time of day: $wall (+05:30)"
"$IOREPORT" info "$T/rec.iorec" >"$T/info" 2>&1 || fail "info failed: $(tail -n 3 "$T/info")"
grep -q '^  started: *[0-9-]* [0-9:.]* +05:30 XYZ$' "$T/info" ||
	fail "info does not print the start in the recording's zone: $(grep started "$T/info")"
j early_w processes --until "$wall"
j late_w processes --since "$wall"
j cross processes -c wra -d "$B_DEV"
j pda processes -d "$A_DEV"
j slow5 slow --min-ms 0.5 --top 1000 -d "$A_DEV"

# wa, fsync and dirty: the writers' bytes, fsyncs and journal commits
for v in wa fsync dirty; do
	j "$v" "$v"
	j "${v}_ca" "$v" -c wra
	j "${v}_cb" "$v" -c wrb
	j "${v}_early" "$v" --until "$mid"
	j "${v}_late" "$v" --since "$mid"
	j "${v}_da" "$v" -d "$A_DEV"
	j "${v}_fb" "$v" -f "$B_MNT/*"
done
j devs_cb devices -c wrb
python3 - "$T" "$A_DEV" "$B_DEV" "$A_MNT/a" "$B_MNT/b" "$pid_a" "$mid" <<'EOF' || fail "a filter did not keep exactly its part"
import json, sys
d, adev, bdev, apath, bpath, pid_a, mid = sys.argv[1:8]
J = lambda n: json.load(open('%s/%s.json' % (d, n)))
MiB = 1 << 20
bad = []
def want(what, exp, got):
    print('  %-58s %s' % (what, got), file=sys.stderr)
    if exp != got:
        bad.append('%s: %r, not %r' % (what, got, exp))
def procs(doc):
    return {c: p['write_bytes'] for p in doc['processes'] for c in p['comms'] if c in ('wra', 'wrb')}
def dev_bytes(doc, dev):
    return sum(r['bytes'] for r in doc['devices'] if r['device'] == dev)

want('-c wra: its processes', {'wra': 4 * MiB}, procs(J('ca')))
want('-c wrb', {'wrb': 2 * MiB}, procs(J('cb')))
want('-c wra,wrb', {'wra': 4 * MiB, 'wrb': 2 * MiB}, procs(J('cab')))
want('-c wra: kept syscalls + -c wrb = -c wra,wrb',
     J('cab')['filter']['syscalls_kept'],
     J('ca')['filter']['syscalls_kept'] + J('cb')['filter']['syscalls_kept'])
want('-p PID of wra', procs(J('ca')), procs(J('pa')))
want('-p: the only process listed', [int(pid_a)], [p['pid'] for p in J('pa')['processes']])
fa = {f['path']: f['write_bytes'] for f in J('fa')['files']}
want('-f A/*: its files', {apath: 4 * MiB}, fa)
want('-f B/*', {bpath: 2 * MiB}, {f['path']: f['write_bytes'] for f in J('fb')['files']})
want('-d A: only A', {adev}, {r['device'] for r in J('da')['devices']})
want('-d A: as much as unfiltered', dev_bytes(J('devs'), adev), dev_bytes(J('da'), adev))
want('-d A: at least what wra wrote', True, dev_bytes(J('da'), adev) >= 4 * MiB)
want('-d B: at least what wrb wrote', True, dev_bytes(J('db'), bdev) >= 2 * MiB)
want('-d A + -d B = -d A,B (requests kept)', J('dab')['filter']['requests_kept'],
     J('da')['filter']['requests_kept'] + J('db')['filter']['requests_kept'])
want('--until mid: wra only', {'wra': 4 * MiB}, procs(J('early')))
want('--since mid: wrb only', {'wrb': 2 * MiB}, procs(J('late')))
e, l = J('early_d')['filter'], J('late_d')['filter']
want('--until HH:MM:SS: wra only', {'wra': 4 * MiB}, procs(J('early_w')))
want('--since HH:MM:SS: wrb only', {'wrb': 2 * MiB}, procs(J('late_w')))
want('--until + --since = all requests', e['requests'], e['requests_kept'] + l['requests_kept'])
want('--until + --since = all syscalls', J('early')['filter']['syscalls'],
     J('early')['filter']['syscalls_kept'] + J('late')['filter']['syscalls_kept'])
want('--until mid: B got no wrb write', True, dev_bytes(J('early_d'), bdev) < 2 * MiB)
want('-c wra -d B: nothing of wra', {}, procs(J('cross')))
want('processes -d A: wra\'s writes to its new file on A', {'wra': 4 * MiB}, procs(J('pda')))
s = J('slow5')
want('--min-ms 0.5 -d A: every request >= 0.5 ms on A', True,
     all(r['total_ns'] >= 500000 and r['device'] == adev for r in s['slow_requests']))
want('--min-ms 0.5: kept = listed', s['filter']['requests_kept'], len(s['slow_requests']))
# wa, fsync and dirty: the writers' bytes, fsyncs and journal commits
def app(doc):   # application bytes on the two loop devices
    return {r['device']: r['app_write_bytes'] for r in doc['devices']
            if r['device'] in (adev, bdev) and r['app_write_bytes']}
def commits(doc, dev):
    return sum(r['jbd2']['commits'] for r in doc['devices'] if r['device'] == dev)
def syncs(doc):  # the writers' fsync calls and ext4 fsyncs
    return {p['comm']: (p['fsync'] + p['fdatasync'], p['ext4_fsyncs'])
            for p in doc['processes'] if p['comm'] in ('wra', 'wrb')}
def files(doc):
    return {f['path']: f['fsync'] for f in doc['files'] if f['fsync']}
want('wa: application bytes on A and B', {adev: 4 * MiB, bdev: 2 * MiB}, app(J('wa')))
want('wa -c wra: only wra\'s, on A', {adev: 4 * MiB}, app(J('wa_ca')))
want('wa -c wrb: only wrb\'s, on B', {bdev: 2 * MiB}, app(J('wa_cb')))
want('wa -c wra: its process row', [('wra', 4 * MiB)],
     [(p['comm'], p['app_write_bytes']) for p in J('wa_ca')['processes']])
want('wa -c: journal and diskstats left out', (True, True),
     (J('wa_ca')['jbd2_left_out'], J('wa_ca')['diskstats_left_out']))
want('wa --until mid: wra\'s bytes', {adev: 4 * MiB}, app(J('wa_early')))
want('wa --since mid: wrb\'s bytes', {bdev: 2 * MiB}, app(J('wa_late')))
want('wa --since: journal kept, diskstats left out', (False, True),
     (J('wa_late')['jbd2_left_out'], J('wa_late')['diskstats_left_out']))
for dev, early in ((adev, True), (bdev, False)):
    e, l, a = commits(J('wa_early'), dev), commits(J('wa_late'), dev), commits(J('wa'), dev)
    want('wa: %s commits before + after the pause = all' % dev, a, e + l)
    want('wa: %s has its writer\'s fsync commit %s the pause' % (dev, 'before' if early else 'after'),
         True, (e if early else l) >= 1)
want('wa -d A: only A, with its diskstats', ([adev], False),
     (sorted(r['device'] for r in J('wa_da')['devices']), J('wa_da')['diskstats_left_out']))
want('wa -d A: A\'s application bytes', {adev: 4 * MiB}, app(J('wa_da')))
want('wa -f B/*: wrb\'s bytes', {bdev: 2 * MiB}, app(J('wa_fb')))
want('fsync: one fsync each, seen by ext4', {'wra': (1, 1), 'wrb': (1, 1)}, syncs(J('fsync')))
want('fsync -c wra', {'wra': (1, 1)}, syncs(J('fsync_ca')))
want('fsync -c wra: the only process', ['wra'], [p['comm'] for p in J('fsync_ca')['processes']])
want('fsync -c wrb: its file', {bpath: 1}, files(J('fsync_cb')))
want('fsync --until mid', {'wra': (1, 1)}, syncs(J('fsync_early')))
want('fsync --since mid', {'wrb': (1, 1)}, syncs(J('fsync_late')))
want('fsync -d A: wra\'s', {'wra': (1, 1)}, syncs(J('fsync_da')))
want('fsync -f B/*: its file only', {bpath: 1}, files(J('fsync_fb')))
want('fsync -f B/*: its process', {'wrb': (1, 1)}, syncs(J('fsync_fb')))
want('fsync --until + --since: every fsync', J('fsync')['fsync_latency']['count'],
     J('fsync_early')['fsync_latency']['count'] + J('fsync_late')['fsync_latency']['count'])
def wbytes(doc):
    return sum(r['bytes'] for r in doc['devices'] if r['op'] == 'write')
for n, dv, v in (('--until mid', 'early_d', 'early'), ('--since mid', 'late_d', 'late'),
                 ('-c wrb', 'devs_cb', 'cb')):
    want('dirty %s: bytes written = devices %s' % (n, n), wbytes(J(dv)),
         J('dirty_' + v)['device_write_bytes'])
e, l, a = J('dirty_early'), J('dirty_late'), J('dirty')
want('dirty: the halves\' bytes add up', a['device_write_bytes'],
     e['device_write_bytes'] + l['device_write_bytes'])
# the time rows start at --since, not at the first event after it (in the
# quiet pause, that can be much later): both runs end at the same row and
# begin on 100 ms boundaries, so they differ by mid's rows, within one
rows_after = len(a['slots']) - float(mid) * 1e9 / a['slot_ns']
want('dirty --since mid: the rows after mid (within 1)', True,
     abs(len(l['slots']) - rows_after) <= 1)
for b in bad:
    print('FAIL:', b, file=sys.stderr)
sys.exit(1 if bad else 0)
EOF

# the text view says what it kept
"$IOREPORT" processes -c wra "$T/rec.iorec" >"$T/text" 2>&1 || fail "processes -c wra failed"
assert_grep "^filter: comm wra; kept [0-9]+ of [0-9]+ requests, [0-9]+ of [0-9]+ syscalls" "$T/text"
# a time of day is the recording machine's, and its line says which zone
"$IOREPORT" processes --since "$wall" "$T/rec.iorec" >"$T/text" 2>&1 || fail "processes --since $wall failed"
assert_grep "^filter: from [0-9]{2}:[0-9]{2}:[0-9.]{6} \+05:30 XYZ; kept " "$T/text"

# diff takes the filters too, each recording filtered by itself: the
# recording against itself, -c wrb: only wrb, its 2 MiB on both sides
"$IOREPORT" diff --json -c wrb "$T/rec.iorec" "$T/rec.iorec" >"$T/diff.json" 2>"$T/diff.err" ||
	fail "diff -c wrb failed: $(cat "$T/diff.err")"
python3 - "$T/diff.json" >"$T/diff.ok" 2>&1 <<'EOF' || fail "diff -c wrb: $(cat "$T/diff.ok")"
import json, sys
d = json.load(open(sys.argv[1]))
p = d['sections']['processes']
assert [r['key'] for r in p] == ['wrb'], 'processes %s, not only wrb' % [r['key'] for r in p]
w = p[0]['metrics']['write_bytes']
assert w['before'] == w['after'] == 2 * 1024 * 1024, 'wrb wrote %s / %s, not 2 MiB on each side' % (w['before'], w['after'])
f, a = d['filter'], d['filter_after']
assert f['comms'] == a['comms'] == ['wrb'] and f['syscalls_kept'] == a['syscalls_kept'] > 0, 'filter objects %s %s' % (f, a)
print('only wrb, 2 MiB before and after; %d of %d syscalls kept on each side' % (f['syscalls_kept'], f['syscalls']))
EOF
log "ok: diff -c wrb: $(cat "$T/diff.ok")"
# --interval: the intervals add up to the whole view, and the writers'
# bytes fall on their side of the pause
"$IOREPORT" devices --json --interval 0.25 "$T/rec.iorec" >"$T/ivd.json" 2>/dev/null || fail "devices --interval failed"
"$IOREPORT" processes --json --interval 0.25 "$T/rec.iorec" >"$T/ivp.json" 2>/dev/null || fail "processes --interval failed"
python3 - "$T/ivd.json" "$T/ivp.json" "$A_DEV" "$B_DEV" "$mid" >"$T/iv.ok" 2>&1 <<'EOF' || fail "--interval: $(cat "$T/iv.ok")"
import collections, json, sys
d, p = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
adev, bdev, mid = sys.argv[3], sys.argv[4], float(sys.argv[5]) * 1e9
W = 250000000
assert d['interval_ns'] == W and p['interval_ns'] == W
idx = [iv['index'] for iv in d['intervals']]
assert idx == sorted(idx) and all(iv['end_ns'] - iv['start_ns'] == W * iv['count'] for iv in d['intervals']), 'intervals not in order or not 0.25 s'
sums = collections.Counter()
for iv in d['intervals']:
    for r in iv['devices']:
        sums[(r['device'], r['op'], 'requests')] += r['requests']
        sums[(r['device'], r['op'], 'bytes')] += r['bytes']
        assert iv['count'] == 1
for r in d['devices']:
    for k in ('requests', 'bytes'):
        assert sums[(r['device'], r['op'], k)] == r[k], '%s %s %s: intervals %d, view %d' % (r['device'], r['op'], k, sums[(r['device'], r['op'], k)], r[k])
def dev_writes(dev, before):
    return sum(r['bytes'] for iv in d['intervals'] for r in iv['devices']
               if r['device'] == dev and r['op'] == 'write' and (iv['end_ns'] <= mid) == before)
assert dev_writes(adev, True) >= 4 * 1024 * 1024 and dev_writes(bdev, False) >= 2 * 1024 * 1024, 'the writers are not on their side of the pause'
assert dev_writes(bdev, True) < 2 * 1024 * 1024, 'wrb wrote before the pause'
ps = collections.Counter()
for iv in p['intervals']:
    for r in iv['processes']:
        ps[(r['pid'], 'write_bytes')] += r['write_bytes']
        ps[(r['pid'], 'calls')] += r['calls']
for r in p['processes']:
    if r['comm'] in ('wra', 'wrb'):
        assert ps[(r['pid'], 'write_bytes')] == r['write_bytes'] == {'wra': 4, 'wrb': 2}[r['comm']] * 1024 * 1024, '%s: intervals %d, view %d' % (r['comm'], ps[(r['pid'], 'write_bytes')], r['write_bytes'])
        assert ps[(r['pid'], 'calls')] == r['calls'], '%s calls: intervals %d, view %d' % (r['comm'], ps[(r['pid'], 'calls')], r['calls'])
print('%d intervals of 0.25 s add up to the devices and processes views; wra 4 MiB before the pause, wrb 2 MiB after' % len(idx))
EOF
log "ok: --interval: $(cat "$T/iv.ok")"
"$IOREPORT" diff -c wrb "$T/rec.iorec" "$T/rec.iorec" >"$T/text" 2>&1 || fail "diff -c wrb (text) failed"
assert_grep "^filter: comm wrb; kept .* \(before\); kept .* \(after\)$" "$T/text"


# findings suggest the views with the same filters; the html page says
# what its filters kept
"$IOREPORT" findings --json -c wrb --since "$mid" "$T/rec.iorec" >"$T/fnd.json" 2>"$T/fnd.err" || fail "findings -c wrb failed: $(cat "$T/fnd.err")"
python3 - "$T/fnd.json" "$mid" >"$T/fnd.ok" 2>&1 <<'EOF' || fail "findings -c wrb: $(cat "$T/fnd.ok")"
import json, sys
f = json.load(open(sys.argv[1]))
assert f['filter']['comms'] == ['wrb'], f['filter']
m = [x['more'] for x in f['findings'] if not x['more'].startswith('ioreport info ')]
assert m and all((' -c wrb --since %s ' % sys.argv[2].rstrip('0').rstrip('.')) in c for c in m), m
print('%d findings, each "more" with -c wrb --since' % len(m))
EOF
log "ok: findings: $(cat "$T/fnd.ok")"
"$IOREPORT" html -c wra -o "$T/p.html" "$T/rec.iorec" 2>"$T/html.err" || fail "html -c wra failed: $(cat "$T/html.err")"
assert_grep "<tr><td>filter</td><td>comm wra; kept [0-9]+ of [0-9]+ requests, [0-9]+ of [0-9]+ syscalls</td></tr>" "$T/p.html"
finish
