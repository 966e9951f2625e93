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
. "$top_srcdir/tests/live/paths-lib.sh"
need_cmd fio
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
# uring_write calls; the fixed files of the jobs with registerfiles or
# sqpoll are guessed (three jobs)
paths_check_requests uring uring_write "$SIZE" "${#JOBS[@]}" 65536 \
	uring_fixed_file uring_no_file uring_complete_unknown uring_open_at_end
guessed=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["anomalies"]["uring_fixed_file_guessed"])' "$T/uring.files.json")
[ "$guessed" -ge $((3 * SIZE / 65536)) ] ||
	fail "uring: $guessed fixed-file requests guessed, expected at least $((3 * SIZE / 65536))"
finish
