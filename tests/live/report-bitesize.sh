#!/usr/bin/env bash
# report-bitesize.sh - request sizes (bitesize), the sequential/random
# share (biopattern) and btt's merges (Q2M) against known truths.
#
# 1. A writer opens a loop device with O_DIRECT and writes 16 sequential
#    64 KiB blocks, then 8 blocks of 4 KiB at scattered offsets none of
#    which starts where the previous write ended.  Each O_DIRECT write is
#    one request on the loop device unless the kernel splits it: then
#    the device's write row has exactly 16 requests in the 64..127 KiB
#    slot, 8 in the 4..7 KiB slot, 15 sequential (the first of the run is
#    not: nothing ended where it starts) and 9 random, no bio merged; the
#    writer's own process row has the same, although its fsync makes the
#    loop write its backing file below during the recording (requests of
#    the root device attributed to the writer as stacked, which count
#    once, on the loop device: at least one must be there).  Should the
#    kernel split or merge them, the truth is what the recording's own
#    block_rq_complete events say (ioreport dump), and the test says so.  When 1:1, each
#    write's Q2C (its bio queued -> its completion, from the recording's
#    events) sums and peaks exactly as the view's Q2C histogram.  The
#    device runs mq-deadline, so its requests are inserted: each write's
#    Q2I (bio queued -> request inserted) sums and peaks as the view's.
# 2. 200 small files created on an ext4 (on a second loop device), then
#    sync: the journal commit submits its blocks one bio each, which the
#    block layer merges into few requests.  The devices view's bios
#    queued, bios merged, merged bytes and share must equal the counts of
#    the recording's block_bio_queue and block_bio_backmerge/frontmerge
#    events of the device (ioreport dump), with some merge seen, and
#    each merge's Q2M (the merged bio queued -> merged) sums and peaks as
#    the view's Q2M histogram.
. "$(dirname "$0")/lib.sh"
need_root_tracefs
need_event block:block_rq_issue block:block_rq_complete block:block_bio_queue \
	block:block_bio_backmerge
need_cmd python3 losetup

make_loop_raw 64
# a 64 KiB request must fit the queue (another test may have left less)
q=/sys/block/$LOOPNAME/queue/max_sectors_kb
q0=$(cat "$q")
if [ "$q0" -lt 128 ]; then
	on_exit "echo $q0 >$q"
	echo 128 >"$q" 2>/dev/null || log "cannot raise $q from $q0: the kernel will split"
fi
# an I/O scheduler, so that the requests are inserted (Q2I, I2D measured);
# the device is ours and goes at the end
sched=/sys/block/$LOOPNAME/queue/scheduler
grep -qw mq-deadline "$sched" && echo mq-deadline >"$sched" 2>/dev/null
grep -q '\[mq-deadline\]' "$sched" || log "no mq-deadline for $LOOPNAME ($(cat "$sched")): Q2I not checked"
# udev's probe of the new device reads it: let it finish first
command -v udevadm >/dev/null && udevadm settle -t 10 2>/dev/null || true

cat >"$T/writer.py" <<'PY'
import mmap, os, sys
dev, mode, pidfile = sys.argv[1], sys.argv[2], sys.argv[3]
open(pidfile, 'w').write(f'{os.getpid()}\n')
K = 1024
if mode == 'direct':
    fd = os.open(dev, os.O_WRONLY | os.O_DIRECT)
    buf = mmap.mmap(-1, 64 * K)
    buf.write(b'\xa5' * (64 * K))
    for i in range(16):			# 1 MiB .. 2 MiB, in order
        assert os.pwritev(fd, [memoryview(buf)], 1024 * K + i * 64 * K) == 64 * K
    small = memoryview(buf)[:4 * K]
    for off in (40, 8, 30, 20, 50, 12, 44, 4):	# MiB + 12 KiB: scattered
        assert os.pwritev(fd, [small], off * 1024 * K + 12 * K) == 4 * K
    # the loop writes its backing file through the page cache: flushed
    # now, its writes below are in the recording, stacked requests of
    # the writer that its request shape must not count again
    os.fsync(fd)
    os.close(fd)
else:
    for i in range(200):
        with open(os.path.join(dev, f'f{i}'), 'wb') as f:
            f.write(b'\x5a' * K)
    os.sync()
PY

RAWDEV=$LOOPDEV RAWNAME=$LOOPNAME RAWDEVT=$LOOP_DEVT
# the writer's pid file on tmpfs: written under $T it is a small write of
# the writer that writeback may send to the root device during the
# recording, and the writer's request counts then hold one 4 KiB more
PIDDIR=$(mktemp -d /dev/shm/iorec-bitesize.XXXXXX) || fail "mktemp in /dev/shm failed"
on_exit "rm -rf '$PIDDIR'"
make_loop_ext4 32
# writer MODE [IOREC-OPTIONS]: record the writer in MODE
writer() {
	local mode=$1 rc=0 target=$RAWDEV
	shift
	[ "$mode" = files ] && target=$MNT
	PYTHONDONTWRITEBYTECODE=1 run_iorec -q "$@" -o "$T/$mode.iorec" -- python3 "$T/writer.py" "$target" "$mode" "$PIDDIR/$mode.pid" \
		2>"$T/$mode.err" || rc=$?
	[ "$rc" = 0 ] || { cat "$T/$mode.err" >&2; fail "iorec -- writer $mode exited $rc"; }
}
for mode in direct files; do
	# every event is needed: a recording that lost some is made again
	record_whole "$T/$mode.iorec" writer "$mode"
	cp "$PIDDIR/$mode.pid" "$T/$mode.pid"
	"$IOREPORT" devices --json "$T/$mode.iorec" >"$T/$mode.dev.json" ||
		fail "ioreport devices --json $mode failed"
	"$IOREPORT" devices "$T/$mode.iorec" >"$T/$mode.dev.txt" ||
		fail "ioreport devices $mode failed"
	"$IOREPORT" dump --json --events block "$T/$mode.iorec" >"$T/$mode.dump.json" ||
		fail "ioreport dump $mode failed"
done
"$IOREPORT" processes --json "$T/direct.iorec" >"$T/direct.proc.json" ||
	fail "ioreport processes --json failed"
"$IOREPORT" processes "$T/direct.iorec" >"$T/direct.proc.txt" ||
	fail "ioreport processes failed"
"$IOREPORT" snoop --csv "$T/direct.iorec" >"$T/direct.snoop.csv" ||
	fail "ioreport snoop --csv failed"
"$IOREPORT" db "$T/direct.sqlite" "$T/direct.iorec" >/dev/null 2>"$T/db.err" ||
	{ cat "$T/db.err" >&2; fail "ioreport db failed"; }

python3 - "$T" "$RAWDEVT" "$RAWNAME" "$LOOP_DEVT" "$LOOPNAME" <<'PY' || fail "sizes, pattern or merges wrong (see above)"
import json, os, re, sys
t, devt, name, fsdevt, fsname = sys.argv[1:6]
ok = True

def check(what, want, got):
    global ok
    print(f'report-bitesize: {what}: expected {want}, got {got}')
    if want != got:
        print(f'report-bitesize: FAIL: {what}')
        ok = False

def events(mode, kinds, devt, ts=False):
    """The device's events of kinds, as (event, rwbs, sector, nr[, ts_ns]);
    block_rq_insert and _issue have the bytes before the sector."""
    major, minor = devt.split(':')
    out = []
    for line in open(os.path.join(t, mode + '.dump.json')):
        line = line.strip().rstrip(',')
        if not line.startswith('{"ts_ns"'):
            continue
        e = json.loads(line)
        if e.get('event') not in kinds:	# a lost-events mark has none
            continue
        m = re.match(r'(\d+),(\d+) (\S+) (?:\d+ )?(?:\(.*?\) )?(\d+) \+ (\d+)', e['fields'])
        if m and (m[1], m[2]) == (major, minor):
            out.append((e['event'], m[3], int(m[4]), int(m[5])) +
                       ((e['ts_ns'],) if ts else ()))
    return out

def since_queued(mode, kinds, devt):
    """For each write event of kinds of the device, the time since the
    last block_bio_queue at its sector (btt's Q2C, Q2I or Q2M), in ns."""
    qc, out = {}, []
    for ev, rwbs, sec, n, ts in events(mode, {'block_bio_queue'} | kinds, devt, ts=True):
        if 'W' not in rwbs or not n:
            continue
        if ev == 'block_bio_queue':
            qc[sec] = ts
        elif sec in qc:
            out.append(ts - qc.pop(sec))
    return out

def check_hist(what, want, h):
    """want: the samples; h: the view's JSON histogram."""
    check(what + ': count, sum and max (ns)', (len(want), sum(want), max(want) if want else None),
          (h['count'], h['sum_ns'], h['max_ns']))

def row(mode, op, devt):
    d = json.load(open(os.path.join(t, mode + '.dev.json')))
    for r in d['devices']:
        if r['dev'] == devt and r['op'] == op:
            return r
    sys.exit(f'report-bitesize: no {op} row of {devt} in devices --json ({mode})')

def slots(sizes):
    return {(b[0], b[1]): b[2] for b in sizes['buckets']}

# --- 1: the known pattern
writes = [(s, n) for ev, rwbs, s, n in events('direct', {'block_rq_complete'}, devt)
          if 'W' in rwbs and n]
pattern = [(2048 + 128 * i, 128) for i in range(16)] + \
    [((off * 1024 + 12) * 2, 8) for off in (40, 8, 30, 20, 50, 12, 44, 4)]
if writes == pattern:
    print('report-bitesize: the device completed the 24 writes 1:1 (no split, no merge)')
    want_slots = {(65536, 131071): 16, (4096, 8191): 8}
    want_seq, want_rand = 15, 9
else:
    # the kernel split or merged them: the recording's completions are the truth
    print(f'report-bitesize: the kernel did not complete the writes 1:1 '
          f'({len(writes)} write completions): checking against them')
    want_slots = {}
    for s, n in writes:
        b = n * 512
        k = 0
        kib = b // 1024
        while kib > 1 and k < 15:
            kib >>= 1
            k += 1
        lo = 1024 << k if k else 0
        want_slots[(lo, (2048 << k) - 1)] = want_slots.get((lo, (2048 << k) - 1), 0) + 1
    want_seq = sum(1 for i in range(1, len(writes))
                   if writes[i][0] == writes[i - 1][0] + writes[i - 1][1])
    want_rand = len(writes) - want_seq
r = row('direct', 'write', devt)
check('write requests by size slot', want_slots, slots(r['sizes']))
check('sequential writes', want_seq, r['sequential'])
check('random writes', want_rand, r['random'])
check('bytes of the sized requests', sum(n for _, n in writes) * 512, r['sizes']['bytes'])
if writes == pattern:
    check('bios merged (O_DIRECT, one write at a time)', 0, r['bios_merged'])
    check('bios queued', 24, r['bios_queued'])
    # Q2C: each write's bio queued -> its completion, from the events
    qd = since_queued('direct', {'block_rq_complete'}, devt)
    check('Q2C: requests', 24, len(qd))
    check_hist('Q2C', qd, r['q2c'])
    # Q2I: each write's bio queued -> its request inserted
    if '[mq-deadline]' in open(f'/sys/block/{name}/queue/scheduler').read():
        qi = since_queued('direct', {'block_rq_insert'}, devt)
        check('Q2I: requests', 24, len(qi))
        check_hist('Q2I', qi, r['q2i'])
        check('measurable: i2d (mq-deadline)', True, r['measurable']['i2d'])
# the text says the same
txt = open(os.path.join(t, 'direct.dev.txt')).read()
txt = txt[txt.index('\nrequest sizes, pattern'):]
m = re.search(r'^  ' + re.escape(name[:10]) + r'\s+write\s+(\d+)\s+\S+\s+([\d.]+)\s+([\d.]+)', txt, re.M)
check('text: requests, SEQ%, RAND%', (len(writes), f'{100 * want_seq / len(writes):.1f}',
      f'{100 * want_rand / len(writes):.1f}'),
      (int(m[1]), m[2], m[3]) if m else None)
# the database's requests give the same (docs/schema.md, query 14)
import sqlite3
db = sqlite3.connect(os.path.join(t, 'direct.sqlite'))
q = db.execute("""
  SELECT q.bytes, q.sector = lag(q.sector + q.nr_sector) OVER
         (PARTITION BY q.dev, q.op ORDER BY q.complete_ts, q.req_id)
  FROM requests q JOIN ops o ON o.rec_id = q.rec_id AND o.op = q.op
  WHERE q.dev = ? AND o.name = 'write' AND q.nr_sector > 0
  ORDER BY q.complete_ts, q.req_id""",
  (int(devt.split(':')[0]) << 20 | int(devt.split(':')[1]),)).fetchall()
check('database: write requests, sequential',
      (len(writes), want_seq), (len(q), sum(1 for _, sq in q if sq)))
# the writer's own requests (its pid: other programs may write meanwhile)
procs = json.load(open(os.path.join(t, 'direct.proc.json')))['processes']
wpid = int(open(os.path.join(t, 'direct.pid')).read())
w = [p['request_shape']['write'] for p in procs if p['pid'] == wpid]
check('writer process found', 1, len(w))
if w:
    check('writer: writes by size slot', want_slots, slots(w[0]['sizes']))
    check('writer: sequential writes', want_seq, w[0]['sequential'])
    check('writer: random writes', want_rand, w[0]['random'])
# the loop's backing-file writes below (flushed by the writer's fsync),
# stacked requests of the writer, are in the recording: the shape above
# held without counting them again
import csv
stacked = [r for r in csv.DictReader(open(os.path.join(t, 'direct.snoop.csv')))
           if r['owner.kind'] == 'stacked' and r['owner.pid'] == str(wpid)]
print(f'report-bitesize: the writer\'s stacked requests below its loop device: {len(stacked)}')
check('the writer has stacked requests (its loop\'s backing writes)', True, len(stacked) > 0)

# --- 2: merges against the recording's own bio events
ev = events('files', {'block_bio_queue', 'block_bio_backmerge', 'block_bio_frontmerge'},
            fsdevt)
q = [e for e in ev if e[0] == 'block_bio_queue' and 'W' in e[1] and e[3]]
mg = [e for e in ev if e[0] != 'block_bio_queue' and 'W' in e[1] and e[3]]
r = row('files', 'write', fsdevt)
print(f'report-bitesize: 200 files + sync on ext4: {len(q)} bios queued, {len(mg)} merged, '
      f'{r["requests"]} write requests')
check('bios queued', len(q), r['bios_queued'])
check('bios merged', len(mg), r['bios_merged'])
check('merged bytes', sum(e[3] for e in mg) * 512, r['merged_bytes'])
check('merged share', round(len(mg) / len(q), 6) if q else None,
      round(r['merged_share'], 6) if r['merged_share'] is not None else None)
if not mg:
    print('report-bitesize: FAIL: no merge in a journal commit (the test needs one)')
    ok = False
# Q2M: each merged bio's own queueing (the last one at its sector) -> its merge
qm = since_queued('files', {'block_bio_backmerge', 'block_bio_frontmerge'}, fsdevt)
check('Q2M: merges', len(mg), len(qm))
check_hist('Q2M', qm, r['q2m'])
# a loop device has no I/O scheduler: the view says what is not measurable
sched = open(f'/sys/block/{fsname}/queue/scheduler').read()
print(f'report-bitesize: {fsname} scheduler: {sched.strip()}')
if '[none]' in sched or sched.strip() == 'none':
    check('measurable: i2d', False, r['measurable']['i2d'])
    check('measurable: total', 'D2C', r['measurable']['total'])
    line = [l for l in open(os.path.join(t, 'files.dev.txt'))
            if l.startswith(f'  {fsname}: ') and 'not measurable' in l]
    check('one "not measurable" line for the device', 1, len(line))
    check('the line is the JSON note', [f'  {fsname}: {r["measurable"]["note"]}\n'], line)
sys.exit(0 if ok else 1)
PY
finish
