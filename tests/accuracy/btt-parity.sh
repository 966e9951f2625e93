#!/usr/bin/env bash
# btt-parity.sh - ioreport's btt tables (devices: Q2Q, the share of Q2C per
# phase, D2D seek distances) against blktrace's btt on the same requests of
# the same run, and against a second computation from the recording's own
# events (tests/accuracy/btt-recompute.py over 'ioreport dump --json --raw').
#
# The device: loop device UPPER (direct I/O, mq-deadline, so requests are
# inserted and I2D exists) on loop device LOWER, whose reads and writes the
# cgroup v1 blkio controller throttles, so every request spends about a
# millisecond in the device.  The workload (fio, the only user of UPPER):
# 4 KiB sequential O_DIRECT writes submitted 8 at a time (plugged: bios
# merge, btt's M) beside 8 KiB random reads (seeks).
#
# The order matters.  iorec starts first, then blk-capture.sh (the in-kernel
# blk tracer read in binary as blktrace would), then fio: on each block
# tracepoint the probes run in the order they were registered, so iorec's
# event is stamped before the blk tracer's probe runs (which costs a few
# microseconds on a Q: with the capture started first, iorec's Q came a
# median 6.5 us, p90 15 us, after btt's, and its Q2I sums were a quarter of
# btt's).  btt's times then carry the cost of iorec's probe, under a us.
#
# Truths and tolerances:
#  - btt-recompute.py over the recording's events (a simulation of btt's
#    per-bio bookkeeping, not ioreport's pairing): every count and every
#    ns sum equal, exactly; the median distance within the histogram's
#    1/16.
#  - btt (blkparse + btt on the capture): counts equal (bios with Q and C,
#    merged bios, inserted, Q2Q intervals, D2D seeks; btt counts the first
#    request's distance from sector 0, so one more seek and its sector in
#    the sum), its seek sum that of the capture's events within btt's
#    printed rounding (a mean with one decimal) and 0.5%, its count of
#    distance 0 when that is its mode; the capture's seeks exactly those
#    of the recording's requests put in the capture's order, which may
#    differ from the recording's only between requests issued within 1 ms
#    (see below); the mean
#    times within 1% + 3 us (Q2Q: + 1 us), and each phase's share of Q2C
#    within 0.1 percentage point: what is left is the probe order above
#    and the two clocks (ktime_get vs the ring buffer's), which advance at
#    one rate (measured: means 0.01% apart, shares 0.01 point).  btt's
#    MEDIAN is not compared: it walks its tree of distances in pre-order,
#    not in order, and is no median (0 where the true one is 18,560).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/accuracy/acc-lib.sh"
need_root_tracefs
need_cmd python3 losetup fio blkparse btt
need_event block:block_rq_insert block:block_rq_issue block:block_rq_complete \
	block:block_bio_queue block:block_bio_backmerge
[ -w "$TRACEFS/current_tracer" ] || skip "$TRACEFS/current_tracer not writable"
grep -qw blk "$TRACEFS/available_tracers" || skip "kernel has no blk tracer (CONFIG_BLK_DEV_IO_TRACE)"
BLKIO=/sys/fs/cgroup/blkio
[ -w $BLKIO/blkio.throttle.write_iops_device ] || skip "no cgroup v1 blkio throttling at $BLKIO for a slow device"
find_blk_capture
RECOMPUTE=$ACC_DIR/btt-recompute.py
IOPS=1000

truncate -s 128M "$T/lower.img"
LOWER=$(losetup -f --show "$T/lower.img") || fail "losetup $T/lower.img failed"
_OUR_LOOPS+=("$LOWER")
on_exit "losetup -d '$LOWER'"
UPPER=$(losetup -f --show --direct-io=on "$LOWER") || fail "losetup --direct-io=on $LOWER failed"
_OUR_LOOPS+=("$UPPER")
on_exit "losetup -d '$UPPER'"
LOWER_DEVT=$(cat "/sys/block/${LOWER#/dev/}/dev")
NAME=${UPPER#/dev/}
DEVT=$(cat "/sys/block/$NAME/dev")
DEV_T=$(( ${DEVT%:*} << 20 | ${DEVT#*:} ))
for rw in write read; do
	echo "$LOWER_DEVT $IOPS" >$BLKIO/blkio.throttle.${rw}_iops_device ||
		fail "cannot throttle $LOWER ($BLKIO/blkio.throttle.${rw}_iops_device)"
	on_exit "echo '$LOWER_DEVT 0' >$BLKIO/blkio.throttle.${rw}_iops_device"
done
grep -qw mq-deadline "/sys/block/$NAME/queue/scheduler" || skip "no mq-deadline scheduler for $NAME"
echo mq-deadline >"/sys/block/$NAME/queue/scheduler" || fail "cannot set mq-deadline on $NAME"
udevadm settle 2>/dev/null || true

# iorec first (see above), the whole machine, until told to stop
env --default-signal=INT,TERM "$IOREC" -q -o "$T/rec.iorec" 2>"$T/rec.err" &
REC=$!
track_pid "$REC"
wait_instance "$REC" 20 || { cat "$T/rec.err" >&2; fail "iorec's instance never appeared"; }

toplevel_lock
on_exit "restore_toplevel_tracing_on"
# the capture's own buffer: 4 MiB per CPU, whatever the machine had
toplevel_buffer 4096
on_exit "echo 0 >'$TRACEFS/options/bin'; echo 1 >'$TRACEFS/options/context-info'; echo nop >'$TRACEFS/current_tracer'; echo >'$TRACEFS/trace'"
on_exit "echo 0 >'/sys/block/$NAME/trace/enable'"
for ((i = 0; i < 60; i++)); do
	[ -z "$(toplevel_readers)" ] && break
	[ "$i" = 0 ] && log "waiting for top-level trace readers to finish: $(toplevel_readers | tr '\n' ';')"
	sleep 0.5
done
mkdir "$T/blk"
bash "$BLK_CAPTURE" "$UPPER" "$T/blk" >"$T/capture.log" 2>&1 &
CAP=$!
_OUR_PIDS+=("$CAP")
on_exit "kill -TERM $CAP 2>/dev/null; wait $CAP"
for ((i = 0; i < 100; i++)); do
	[ "$(cat "$TRACEFS/current_tracer")" = blk ] &&
		[ "$(cat "$TRACEFS/tracing_on")" = 1 ] &&
		[ "$(cat "/sys/block/$NAME/trace/enable")" = 1 ] && break
	kill -0 "$CAP" 2>/dev/null || { cat "$T/capture.log" >&2; fail "blk-capture.sh died"; }
	sleep 0.1
done
[ "$i" -lt 100 ] || fail "blk-capture.sh did not start tracing within 10 s: current_tracer $(cat "$TRACEFS/current_tracer"), top-level trace_pipe readers: $(toplevel_readers "$CAP" | tr '\n' ';')"

rc=0
fio --filename="$UPPER" --direct=1 --ioengine=libaio --randrepeat=1 \
	--output-format=json --output="$T/fio.json" \
	--name=seq --rw=write --bs=4k --size=4M --iodepth=16 \
	--iodepth_batch_submit=8 --iodepth_batch_complete_min=8 \
	--name=rand --rw=randread --bs=8k --offset=64M --size=32M \
	--number_ios=800 --iodepth=4 >"$T/fio.log" 2>&1 || rc=$?
tracer=$(cat "$TRACEFS/current_tracer")
kill -TERM "$CAP"
wait "$CAP" || true
restore_toplevel_tracing_on
kill -INT "$REC"
wait_exit "$REC" 30
[ "$RC" = 0 ] || { cat "$T/rec.err" >&2; fail "iorec exited $RC"; }
[ "$rc" = 0 ] || { cat "$T/fio.log" >&2; fail "fio exited $rc"; }
[ "$tracer" = blk ] ||
	fail "the top-level current_tracer became '$tracer' during the capture (another user of the top-level tracer that does not take $TOPLEVEL_LOCK?)"
overrun=$(cat "$T/blk"/ftrace-stats.* 2>/dev/null | awk '$1 == "overrun:" { n += $2 } END { print n + 0 }')
[ "$overrun" = 0 ] || fail "the blk capture overran by $overrun events"
lost=$(lost_events "$T/rec.iorec")
[ "$lost" = 0 ] || fail "the recording lost $lost events"

# btt on the capture; the capture's events as text for the recomputation
blkparse -q -i "$NAME" -D "$T/blk" -d "$T/blk.bin" -O >"$T/blkparse.log" 2>&1 ||
	{ cat "$T/blkparse.log" >&2; fail "blkparse failed"; }
blkparse -q -i "$NAME" -D "$T/blk" -f '%a %T.%9t %S %n\n' >"$T/blk.txt" 2>&1 ||
	fail "blkparse -f failed"
(cd "$T" && btt -i "$T/blk.bin" -o "$T/btt") >"$T/btt.log" 2>&1 ||
	{ cat "$T/btt.log" >&2; fail "btt failed"; }
[ -n "${ACC_KEEP:-}" ] && { rm -rf "$ACC_KEEP"; cp -r "$T" "$ACC_KEEP"; }

# ioreport devices --json, the recording's events, the two recomputations
ioreport_to "$T/devices.json" devices --json -d "$NAME" "$T/rec.iorec"
ioreport_to "$T/dump.json" dump --json --raw -d "$NAME" -e block:block_bio_queue,block:block_bio_backmerge,block:block_bio_frontmerge,block:block_rq_insert,block:block_rq_issue,block:block_rq_complete "$T/rec.iorec"
python3 "$RECOMPUTE" --dump "$T/dump.json" --dev "$DEV_T" >"$T/events.json" ||
	fail "btt-recompute.py failed on the recording's events"
python3 "$RECOMPUTE" --blkparse "$T/blk.txt" >"$T/capture.json" ||
	fail "btt-recompute.py failed on the capture"

python3 - "$T" "$DEVT" "$TEST_NAME" "$RECOMPUTE" <<'PY' || fail "ioreport's btt numbers disagree (above)"
import collections, importlib.util, json, re, sys
T, devt, test, rc_path = sys.argv[1:5]
spec = importlib.util.spec_from_file_location("recompute", rc_path)
recompute = importlib.util.module_from_spec(spec)
spec.loader.exec_module(recompute)
bad = []

def log(msg):
    print("%s: %s" % (test, msg), file=sys.stderr)

def check(name, got, want, tol=0):
    ok = abs(got - want) <= tol
    log("%s: %s %s vs %s (diff %s, tolerance %s)" % (
        "ok" if ok else "FAIL", name, got, want,
        round(got - want, 6), round(tol, 6)))
    if not ok:
        bad.append(name)

j = json.load(open(T + "/devices.json"))
io = [b for b in j["btt"] if b["dev"] == devt]
if len(io) != 1:
    sys.exit("no btt member for %s in ioreport devices --json" % devt)
io = io[0]
ph, sk, qq = io["phases"], io["seek"], io["q2q"]
ev = json.load(open(T + "/events.json"))
cap = json.load(open(T + "/capture.json"))

# 1. the recording's own events, recomputed: exact
for k, v in (("bios", ph["bios"]), ("merged", ph["merged"]),
             ("inserted", ph["inserted"]), ("q2c_ns", ph["q2c_ns"]),
             ("q2i_ns", ph["q2i_ns"]), ("q2m_ns", ph["q2m_ns"]),
             ("i2d_ns", ph["i2d_ns"]), ("m2d_ns", ph["m2d_ns"]),
             ("d2c_ns", ph["d2c_ns"]), ("q2q_n", qq["count"]),
             ("q2q_sum_ns", qq["sum_ns"]), ("seeks", sk["seeks"]),
             ("seek_sum", sk["sum_sectors"]), ("seek_zero", sk["sequential"]),
             ("seek_fwd", sk["forward"]), ("seek_bwd", sk["backward"])):
    check("events: " + k, v, ev[k])
check("events: seek median", sk["median_sectors"], ev["seek_median"],
      ev["seek_median"] / 16.0)
if ph["merged"] == 0 or ph["inserted"] == 0 or sk["seeks"] < 100:
    bad.append("workload: %d merged bios, %d inserted, %d seeks: the workload "
               "did not exercise them" % (ph["merged"], ph["inserted"], sk["seeks"]))

# 2. btt: its All Devices averages, Device Overhead, D2D seeks
txt = open(T + "/btt.avg").read()
avg = {}
for m in re.finditer(r"^(Q2Q|Q2G|G2I|Q2M|I2D|M2D|D2C|Q2C)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(\d+)$", txt, re.M):
    avg[m.group(1)] = (float(m.group(3)) * 1e9, int(m.group(5)))
oh = re.search(r"^\s*\(\s*\d+,\s*\d+\)\s*\|\s*([\d.]+)%\s+([\d.]+)%\s+([\d.]+)%\s+([\d.]+)%\s+([\d.]+)%", txt, re.M)
seek = re.search(r"D2D Seek Information.*?^\s*\(\s*\d+,\s*\d+\)\s*\|\s*(\d+)\s+([\d.]+)\s+(\d+)\s*\|\s*(-?\d+)\((\d+)\)", txt, re.M | re.S)
if not oh or not seek or "Q2C" not in avg or "Q2Q" not in avg:
    sys.exit("cannot read btt's All Devices, Device Overhead or D2D Seek tables in btt.avg")
check("btt: Q2Q N", qq["count"], avg["Q2Q"][1])
check("btt: bios (Q2C N)", ph["bios"], avg["Q2C"][1])
check("btt: merged bios (Q2M N)", ph["merged"], avg.get("Q2M", (0, 0))[1])
check("btt: inserted (I2D N)", ph["inserted"], avg.get("I2D", (0, 0))[1])
check("btt: D2C N", ph["bios"], avg["D2C"][1])
check("btt: Q2Q mean ns", qq["sum_ns"] / qq["count"], avg["Q2Q"][0],
      1000 + 0.01 * avg["Q2Q"][0])
n = ph["bios"]
check("btt: Q2C mean ns", ph["q2c_ns"] / n, avg["Q2C"][0], 3000 + 0.01 * avg["Q2C"][0])
check("btt: D2C mean ns", ph["d2c_ns"] / n, avg["D2C"][0], 3000 + 0.01 * avg["D2C"][0])
q2g, g2i, q2m, i2d, d2c = (float(x) for x in oh.groups())
for name, got, want in (("Q2I (btt Q2G+G2I)", ph["q2i_share"], q2g + g2i),
                        ("Q2M", ph["q2m_share"], q2m), ("I2D", ph["i2d_share"], i2d),
                        ("D2C", ph["d2c_share"], d2c)):
    check("btt: %s %% of Q2C" % name, 100 * got, want, 0.1)
# btt measures the first request from sector 0: one seek more, its sector
nseeks, mean, median, mode, nmode = (int(seek.group(1)), float(seek.group(2)),
                                     int(seek.group(3)), int(seek.group(4)),
                                     int(seek.group(5)))
first = cap["first_d"] or 0
check("btt: D2D seeks", sk["seeks"] + 1, nseeks)
# btt and the capture recomputed: one order of the D events (blkparse's),
# so the sum within btt's rounding (a mean with one decimal) and 0.5%
check("btt: D2D seek sum (sectors)", cap["seek_sum"] + first, mean * nseeks,
      0.05 * nseeks + 0.005 * mean * nseeks)
if mode == 0:
    check("btt: D2D seeks of 0 (its mode)", cap["seek_zero"] + (first == 0), nmode)
# the capture's events by the same recomputation: the counts are the
# kernel's, exactly
for k in ("bios", "merged", "inserted", "seeks", "q2q_n"):
    check("capture recomputed: " + k, ev[k], cap[k])
# The seeks depend on the order of the D events, and two tracers stamping
# two CPUs' requests a few microseconds apart may put a pair the other way
# (one such pair of 8 KiB random reads 64 MiB apart moves the sum by
# 310,896 sectors).  So the recording's requests are put in the capture's
# order: every one of the capture's must be one of the recording's, the
# order may only differ between requests issued close together (a step
# back of at most 1 ms of the recording's time), and in that order the
# recording's requests must give the capture's seeks exactly.
pos = collections.defaultdict(collections.deque)
for t, s, e in ev["issued"]:
    pos[(s, e)].append(t)
reordered = []
for t, s, e in cap["issued"]:
    if not pos[(s, e)]:
        bad.append("capture: a request the recording has not (%d-%d)" % (s, e))
        break
    reordered.append((pos[(s, e)].popleft(), s, e))
check("capture: requests issued, as the recording's", len(reordered), len(ev["issued"]))
back = [a[0] - b[0] for a, b in zip(reordered, reordered[1:]) if a[0] > b[0]]
log("the capture's order differs from the recording's in %d places, the largest step back %d ns" %
    (len(back), max(back, default=0)))
check("capture's order: largest step back in the recording's time (ns)",
      max(back, default=0), 0, 1000000)
rsum, rzero = recompute.seeks([(s, e) for _, s, e in reordered])
check("capture recomputed: seek_sum = the recording's requests in the capture's order",
      cap["seek_sum"], rsum)
check("capture recomputed: seek_zero = the recording's requests in the capture's order",
      cap["seek_zero"], rzero)
if bad:
    sys.exit("%d disagreements: %s" % (len(bad), "; ".join(bad)))
PY
finish
