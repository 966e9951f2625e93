#!/usr/bin/env bash
# paths-uring.sh - io_uring writes land on their file and their process:
# fio's io_uring engine writes a known number of bytes to one file per
# job, direct and buffered, submitted inline (buffered writes run in
# iou-wrk workers), by an SQPOLL thread, and on registered (fixed)
# files.  Every file must show exactly its bytes written (and, direct,
# exactly those bytes at the device), one fio process each the same
# bytes as uring_write calls, and the io_uring anomaly counters what
# could not be followed.
#
# Needs root, tracefs, the io_uring events and fio (skips otherwise).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/live/lib.sh"
. "$top_srcdir/tests/live/paths-lib.sh"
need_root_tracefs
need_cmd python3 fio
need_event io_uring:io_uring_submit_req io_uring:io_uring_complete \
	io_uring:io_uring_file_get io_uring:io_uring_register

make_loop_ext4 128
SIZE=$((4 * 1024 * 1024))
# name: fio options (one job each, run one after the other)
JOBS=(
	"direct:--direct=1"
	"buffered:--direct=0 --end_fsync=1"
	"fixed:--direct=1 --registerfiles=1"
	"sqpoll:--direct=1 --sqthread_poll=1"
	"sqpollbuf:--direct=0 --sqthread_poll=1 --end_fsync=1"
)
args=()
for j in "${JOBS[@]}"; do
	n=${j%%:*}
	# shellcheck disable=SC2206
	args+=(--name="$n" --filename="$MNT/$n.dat" $'--stonewall' ${j#*:})
done
: >"$T/truth"
for j in "${JOBS[@]}"; do
	n=${j%%:*}
	echo "file $MNT/$n.dat $SIZE" >>"$T/truth"
	case $j in *direct=1*) echo "blk $MNT/$n.dat $SIZE" >>"$T/truth" ;; esac
done
# fio's own options come first, then every job's
paths_record "$T/uring.iorec" fio --ioengine=io_uring --rw=write --bs=64k \
	--size="$SIZE" --iodepth=4 --output="$T/fio.out" "${args[@]}"
for j in "${JOBS[@]}"; do
	n=${j%%:*}
	[ "$(stat -c %s "$MNT/$n.dat")" = "$SIZE" ] || fail "fio wrote $(stat -c %s "$MNT/$n.dat") bytes to $n.dat, not $SIZE"
done
paths_check "$T/uring.iorec" "$T/truth" uring

# the processes: one fio job process per file with exactly its bytes as
# uring_write calls, and nothing else written through io_uring
python3 - "$T/uring.procs.json" "$T/uring.files.json" "$SIZE" "${#JOBS[@]}" <<'PY' ||
import json, sys
P, F = (json.load(open(f)) for f in sys.argv[1:3])
size, jobs = int(sys.argv[3]), int(sys.argv[4])
uw = [p for p in P["processes"] if "uring_write" in p["syscalls"]]
got = sorted((p["syscalls"]["uring_write"]["bytes"], p["comm"]) for p in uw)
print("uring: uring_write per process %r" % got, file=sys.stderr)
bad = [g for g in got if g != (size, "fio")]
if len(got) != jobs or bad:
	sys.exit("expected %d fio processes with %d bytes of uring_write each" % (jobs, size))
for p in uw:
	lat = p["syscalls"]["uring_write"]["latency"]
	if lat["count"] != size // 65536 or lat["max_ns"] <= 0:
		sys.exit("uring_write latency of pid %d: %r" % (p["pid"], lat))
# the fixed files of the jobs with registerfiles or sqpoll are guessed
a = F["anomalies"]
print("uring: anomalies %r" % {k: v for k, v in a.items() if k.startswith("uring")}, file=sys.stderr)
if a.get("uring_fixed_file_guessed", 0) < 3 * (size // 65536):
	sys.exit("fixed-file requests not counted as guessed")
for k in ("uring_fixed_file", "uring_no_file", "uring_complete_unknown", "uring_open_at_end"):
	if a.get(k, -1) != 0:
		sys.exit("anomaly %s is %r, expected 0" % (k, a.get(k)))
PY
	fail "io_uring requests not on their processes"
finish
