#!/usr/bin/env bash
# diskstats.sh - 'ioreport devices' against /proc/diskstats: on a loop ext4
# of our own, record a mixed workload (O_DIRECT writes, buffered writes +
# sync, cold buffered reads after drop_caches, O_DIRECT reads) with
# 'iorec -- workload' and check that the requests and bytes per operation
# that ioreport rebuilds from the block events equal the deltas of the
# device's /proc/diskstats counters read just before and just after.
#
# Why they can be compared: both count the same requests at the same place.
# diskstats' sectors are accounted as a request's data completes
# (blk_account_io_completion, beside the block_rq_complete tracepoint) and
# its "reads/writes completed" when the request ends (blk_account_io_done);
# merged bios are one request for both.  The window is clean: the file
# system is synced, caches dropped and the device quiet before the window
# opens, the workload ends with sync inside the recording, and the tracing
# starts before the command runs and stops after it exits, so no request is
# in flight at either edge.
#
# Other processes: any of them may call sync(2) or syncfs(2), and on ext4
# with barriers each sync flushes every mounted device, ours too, even when
# nothing is dirty (one data-less preflush write and one flush).  So the
# workload reads the counters itself, as its first and last step inside
# the recording (a window around iorec's start and end, seconds under ASan
# on a loaded machine, once caught a flush that the recording could not
# see), and the flushes the recording holds beyond diskstats' may be at
# most the sync calls of other processes that it shows; the workload's own
# syncs run as 'wsync', to tell them apart.
#
# Tolerance: read and write bytes, read requests and flush requests must be
# equal.  Write requests differ by a known, bounded amount: a data-less
# PREFLUSH write (sync(2), fsync on a write-back cache: blkdev_issue_flush)
# reaches the device as one flush request (op "flush" for ioreport, the
# flush fields 16-17 of diskstats since Linux 5.5), but when the original
# empty request ends diskstats also counts it as one write of 0 sectors,
# while ioreport does not count an empty completion as a write.  So
#     ioreport writes <= diskstats writes <= ioreport writes + flushes.
#
# iostat -x: a second loop device without a file system (no journal, no
# flush, no metadata) gets parallel O_DIRECT writers, then readers, in the
# same recording, its counters read before and after by the workload.
# There iostat's formulas over the deltas, with the span ioreport divides
# by, must give what ioreport prints within 1%:
#     %util   = delta io_ticks / span       (field 10, ms)
#     aqu-sz  = delta time_in_queue / span  (field 11, ms: the sum of the
#               requests' read/write/discard/flush ticks since Linux 5.0)
#     r_await = delta read_ticks / delta reads, w_await likewise
# read_ticks/write_ticks/time_in_queue are ns sums printed in ms (1 ms
# granularity on the whole sum).  io_ticks counts jiffies, from the jiffy a
# busy period starts to the jiffy it ends: each busy period is off by up to
# one jiffy either way (4 ms at HZ=250), without bias, so over N periods
# the difference from the exact busy time has a standard deviation of
# jiffy * sqrt(N / 6).  Eight parallel streams keep the device busy in few
# long periods; %util is held to 1% or, when the machine is loaded enough
# to break the work into many periods, to three such deviations (the
# periods are ioreport's busy_periods; HZ from the kernel's config).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/accuracy/acc-lib.sh"
need_root_tracefs
need_cmd python3 dd
need_event block:block_rq_issue block:block_rq_complete

# the raw device of the iostat window
# (direct I/O to its backing file: a request lasts as long as the disk
# under it takes, so parallel streams keep it busy in long periods)
make_loop_raw 512 --direct-io=on
RAWDEV=$LOOPDEV RAWNAME=$LOOPNAME RAW_DEVT=$LOOP_DEVT

# noatime: the cold reads must not dirty inodes (a later atime write-back
# would land outside the window's sync).
make_loop_ext4 128 "" noatime

# A file that exists before the recording, for cold reads inside it.
dd if=/dev/urandom of="$MNT/pre" bs=1M count=8 status=none
drop_caches
diskstats_quiet "$LOOPNAME"

dd if=/dev/urandom of="$RAWDEV" bs=1M count=64 oflag=direct status=none
diskstats_quiet "$RAWNAME"

cat >"$T/work.sh" <<EOF
set -e
awk '\$3 == "$LOOPNAME"' /proc/diskstats >'$T/before'
dd if=/dev/zero of='$MNT/direct' bs=64k count=64 oflag=direct status=none
dd if=/dev/urandom of='$MNT/buffered' bs=1M count=6 status=none
'$T/wsync'
echo 3 >/proc/sys/vm/drop_caches
dd if='$MNT/pre' of=/dev/null bs=1M status=none
dd if='$MNT/direct' of=/dev/null bs=16k iflag=direct status=none
'$T/wsync'
awk '\$3 == "$LOOPNAME"' /proc/diskstats >'$T/after'
awk '\$3 == "$RAWNAME"' /proc/diskstats >'$T/rbefore'
for i in 0 1 2 3 4 5 6 7; do
	for p in 1 2 3; do
		dd if=/dev/zero of='$RAWDEV' bs=1M count=32 seek=\$((i * 32)) oflag=direct status=none
	done &
done
wait
for i in 0 1 2 3 4 5 6 7; do
	for p in 1 2 3; do
		dd if='$RAWDEV' of=/dev/null bs=1M count=32 skip=\$((i * 32)) iflag=direct status=none
	done &
done
wait
awk '\$3 == "$RAWNAME"' /proc/diskstats >'$T/rafter'
EOF

cp "$(command -v sync)" "$T/wsync"
rc=0
"$IOREC" -q -o "$T/rec.iorec" -- bash "$T/work.sh" 2>"$T/rec.err" || rc=$?
[ "$rc" = 0 ] || { cat "$T/rec.err" >&2; fail "iorec -- workload exited $rc"; }
before=$(awk '{ $1 = $2 = $3 = ""; print }' "$T/before")
after=$(awk '{ $1 = $2 = $3 = ""; print }' "$T/after")
[ -n "$before" ] && [ -n "$after" ] ||
	fail "the workload did not read $LOOPNAME's line of /proc/diskstats"

"$IOREPORT" info "$T/rec.iorec" >"$T/info" 2>&1 || { cat "$T/info" >&2; fail "ioreport info failed"; }
assert_complete "$T/info"
device_report "$T/rec.iorec" "$LOOPNAME" "$LOOP_DEVT" "$LOOP_MAJMIN"

read -ra b <<<"$before"
read -ra a <<<"$after"
d_reads=$((a[0] - b[0]))
d_rbytes=$(((a[2] - b[2]) * 512))
d_writes=$((a[4] - b[4]))
d_wbytes=$(((a[6] - b[6]) * 512))
d_flushes=-
[ "${#a[@]}" -ge 16 ] && d_flushes=$((a[15] - b[15]))
log "diskstats delta: reads $d_reads ($d_rbytes B), writes $d_writes ($d_wbytes B), flushes $d_flushes"

get() { awk -v op="$1" -v col="$2" '$1 == op { print $col; f = 1 } END { if (!f) print 0 }' "$T/stats"; }
r_reqs=$(get read 2) r_bytes=$(get read 3)
w_reqs=$(get write 2) w_bytes=$(get write 3)

# The workload really did what we think: at least its own bytes.
[ "$d_wbytes" -ge $((4 * 1048576 + 6 * 1048576)) ] ||
	fail "diskstats: only $d_wbytes bytes written, the workload writes 10 MiB"
[ "$d_rbytes" -ge $((8 * 1048576 + 4 * 1048576)) ] ||
	fail "diskstats: only $d_rbytes bytes read, the workload reads 12 MiB"

f_reqs=$(get flush 2)
within "read bytes (ioreport vs diskstats)" "$r_bytes" "$d_rbytes" 0 0
within "write bytes (ioreport vs diskstats)" "$w_bytes" "$d_wbytes" 0 0
within "read requests (ioreport vs diskstats)" "$r_reqs" "$d_reads" 0 0
if [ "$d_flushes" != - ]; then
	# sync(2) and syncfs(2) of every process but the workload's wsync
	# (the workload's by the pids its execs of $T/wsync had: a dump line's
	# name comes from the kernel's saved_cmdlines, which on a busy
	# machine may have dropped a short-lived process by the end)
	"$IOREPORT" dump -e sched:sched_process_exec,syscalls:sys_enter_sync,syscalls:sys_enter_syncfs \
		"$T/rec.iorec" >"$T/syncs.all" 2>"$T/syncs.err" ||
		{ cat "$T/syncs.err" >&2; fail "ioreport dump of the sync calls failed"; }
	wpids=$(awk -v f="filename=$T/wsync" '/sched_process_exec:/ && index($0, f " ") {
		for (i = 1; i <= NF; i++) if ($i ~ /^pid=/) { sub(/^pid=/, "", $i); print $i } }' "$T/syncs.all")
	grep -v 'sched_process_exec:' "$T/syncs.all" >"$T/syncs" || true
	own=0
	for p in $wpids; do
		own=$((own + $(grep -cE -- "-$p +\[" "$T/syncs" || true)))
	done
	others=$(($(wc -l <"$T/syncs") - own))
	[ "$own" -ge 2 ] || fail "the recording holds $own of the workload's 2 syncs"
	log "sync calls in the recording: the workload's $own, other processes' $others"
	[ "$f_reqs" -ge "$d_flushes" ] && [ "$f_reqs" -le $((d_flushes + others)) ] ||
		fail_acc "flush requests: ioreport $f_reqs, diskstats $d_flushes: expected diskstats <= ioreport <= diskstats + $others syncs of other processes"
	log "ok: flush requests: ioreport $f_reqs, diskstats $d_flushes (+$others syncs of other processes)"
fi
# The summary view's per-device totals are the same numbers.
if grep -q -- --json <<<"$("$IOREPORT" summary --help 2>&1)"; then
	"$IOREPORT" summary --json "$T/rec.iorec" >"$T/summary.json" 2>"$T/summary.err" ||
		{ cat "$T/summary.err" >&2; fail "ioreport summary --json failed"; }
	python3 - "$T/summary.json" "$LOOP_DEVT" "$r_reqs" "$r_bytes" "$w_reqs" "$w_bytes" "$f_reqs" <<'EOF' ||
import json, sys
doc = json.load(open(sys.argv[1]))
want = dict(zip(("read_requests", "read_bytes", "write_requests", "write_bytes",
		 "flush_requests"), (int(x) for x in sys.argv[3:8])))
d = [x for x in doc["summary"]["devices"] if x["dev"] == sys.argv[2]]
if len(d) != 1:
	sys.exit("summary: device %s not found" % sys.argv[2])
bad = ["%s %s != %s" % (k, d[0].get(k), v) for k, v in want.items() if d[0].get(k) != v]
if bad:
	sys.exit("summary differs from devices: " + ", ".join(bad))
EOF
		fail "ioreport summary and ioreport devices disagree on $LOOPNAME"
	log "ok: ioreport summary has the same per-op totals for $LOOPNAME"
fi
if [ "$w_reqs" -gt "$d_writes" ] || [ "$d_writes" -gt $((w_reqs + f_reqs)) ]; then
	fail_acc "write requests: ioreport $w_reqs, diskstats $d_writes: expected ioreport <= diskstats <= ioreport + $f_reqs flushes"
fi
log "ok: write requests: ioreport $w_reqs, diskstats $d_writes (<= +$f_reqs data-less preflush writes)"

hz=$({ zcat /proc/config.gz 2>/dev/null || cat "/boot/config-$(uname -r)" 2>/dev/null; } |
	sed -n 's/^CONFIG_HZ=//p') || true
[ -n "$hz" ] || hz=100	# unknown: the coarsest jiffy
# iostat -x of the raw device: diskstats' deltas through iostat's formulas
# over the span ioreport divides by, against ioreport's numbers
python3 - "$T/devices.json" "$RAW_DEVT" "$T/rbefore" "$T/rafter" "$hz" <<'EOF' >"$T/iostat" ||
import json, sys
doc = json.load(open(sys.argv[1]))
rows = [r for r in doc.get("iostat", []) if r["dev"] == sys.argv[2]]
if len(rows) != 1:
	sys.exit("devices --json: no iostat row of %s" % sys.argv[2])
r = rows[0]
b = [int(x) for x in open(sys.argv[3]).read().split()[3:]]
a = [int(x) for x in open(sys.argv[4]).read().split()[3:]]
d = [y - x for x, y in zip(b, a)]
ms = 1e6
span = r["span_ns"]
# diskstats fields (0-based after the name): 0 reads, 2 sectors read,
# 3 read_ticks, 4 writes, 6 sectors written, 7 write_ticks, 9 io_ticks,
# 10 time_in_queue
want = {
	"util_pct": 100.0 * d[9] * ms / span,
	"aqu_sz": d[10] * ms / span,
	"r_await_ns": d[3] * ms / d[0] if d[0] else None,
	"w_await_ns": d[7] * ms / d[4] if d[4] else None,
	"r_per_s": d[0] * 1e9 / span,
	"w_per_s": d[4] * 1e9 / span,
	"r_bytes_per_s": d[2] * 512 * 1e9 / span,
	"w_bytes_per_s": d[6] * 512 * 1e9 / span,
}
for k, v in want.items():
	# scaled so that within() sees 1e-6 steps
	print(k, "%.0f %.0f" % (r[k] * 1e6 if r[k] is not None else -1,
				 v * 1e6 if v is not None else -1))
print("busy_ms %.0f %.0f" % (r["busy_ns"] / ms, d[9]))
print("busy_periods %d %d" % (r["busy_periods"], r["busy_periods"]))
# three standard deviations of io_ticks' jiffy rounding, in ms and as
# %util x1e6
tol_ms = 3 * 1000 / int(sys.argv[5]) * (r["busy_periods"] / 6) ** 0.5
print("tolerance %.3f %.0f" % (tol_ms, tol_ms * ms / span * 100 * 1e6))
print("in_queue_ms %.0f %.0f" % (r["in_queue_ns"] / ms, d[10]))
EOF
	fail "cannot compare the iostat row of $RAWNAME"
log "iostat of $RAWNAME (ioreport, diskstats): $(tr '\n' ';' <"$T/iostat")"
periods=$(awk '$1 == "busy_periods" { print $2 }' "$T/iostat")
read -r jiffy_tol_ms util_tol <<<"$(awk '$1 == "tolerance" { print $2, $3 }' "$T/iostat")"
log "busy periods of $RAWNAME: $periods, HZ=$hz: io_ticks rounding within $jiffy_tol_ms ms"
while read -r k got want; do
	case $k in
	busy_ms | in_queue_ms | busy_periods | tolerance) continue ;;
	esac
	[ "$want" -gt 0 ] || fail "diskstats: no $k on $RAWNAME (the workload did not run?)"
	abs=0
	[ "$k" = util_pct ] && abs=$util_tol
	within "iostat $k x1e6 (ioreport vs diskstats)" "$got" "$want" "$abs" 0.01
done <"$T/iostat"

# --interval: the intervals' busy and in-flight times of the raw device add
# up to diskstats' io_ticks and time_in_queue (a request counts its time in
# flight where it completes, as diskstats does; its busy time inside its
# interval and the ones not yet printed)
ioreport_to "$T/ivl.json" devices --json --interval 0.5 "$T/rec.iorec"
python3 - "$T/ivl.json" "$RAW_DEVT" <<'EOF' >"$T/ivl" ||
import json, sys
doc = json.load(open(sys.argv[1]))
busy = inq = n = 0
for s in doc["intervals"]:
	for r in s.get("iostat", []):
		if r["dev"] == sys.argv[2]:
			busy += r["busy_ns"]
			inq += r["in_queue_ns"]
			n += 1
if not n:
	sys.exit("devices --interval --json: no iostat row of %s" % sys.argv[2])
print("%.0f %.0f %d" % (busy / 1e6, inq / 1e6, n))
EOF
	fail "cannot read the intervals of $RAWNAME"
read -r ibusy iinq islots <"$T/ivl"
read -r _ dbusy <<<"$(awk '$1 == "busy_ms" { print $2, $3 }' "$T/iostat")"
read -r _ dinq <<<"$(awk '$1 == "in_queue_ms" { print $2, $3 }' "$T/iostat")"
log "--interval 0.5: $RAWNAME in $islots intervals"
within "busy ms summed over the intervals (ioreport vs io_ticks)" "$ibusy" "$dbusy" "$jiffy_tol_ms" 0.01
within "in-flight ms summed over the intervals (ioreport vs time_in_queue)" "$iinq" "$dinq" 0 0.01

finish
