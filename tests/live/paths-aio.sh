#!/usr/bin/env bash
# paths-aio.sh - libaio writes land on their file and their process: fio's
# libaio engine writes a known number of bytes to one file per job, direct
# and buffered.  Every file must show exactly its bytes written (and,
# direct, exactly those bytes at the device), one fio process each the
# same bytes as aio_write requests timed from submit to reap, and no
# request without its file.
#
# Needs root, tracefs, fio and libaio uprobes (skips otherwise).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/live/paths-lib.sh"
need_cmd fio
need_event syscalls:sys_enter_io_submit syscalls:sys_enter_io_getevents
# (--check's text whole first: grep -q leaving a pipe early would kill
# iorec with SIGPIPE, a failed pipeline under pipefail, and skip)
grep -q 'libaio_io_submit on libaio' <<<"$("$IOREC" --check 2>/dev/null)" ||
	skip "no uprobe on libaio's io_submit here (libaio or uprobes missing)"

make_loop_ext4 64
SIZE=$((4 * 1024 * 1024))
JOBS=("direct:--direct=1" "buffered:--direct=0 --end_fsync=1")
args=()
: >"$T/truth"
for j in "${JOBS[@]}"; do
	n=${j%%:*}
	# shellcheck disable=SC2206
	args+=(--name="$n" --filename="$MNT/$n.dat" --stonewall ${j#*:})
	echo "file $MNT/$n.dat $SIZE" >>"$T/truth"
	case $j in *direct=1*) echo "blk $MNT/$n.dat $SIZE" >>"$T/truth" ;; esac
done
paths_record "$T/aio.iorec" fio --ioengine=libaio --rw=write --bs=64k \
	--size="$SIZE" --iodepth=8 --output="$T/fio.out" "${args[@]}"
paths_check "$T/aio.iorec" "$T/truth" aio
paths_check_requests aio aio_write "$SIZE" "${#JOBS[@]}" 65536 \
	aio_unnamed aio_reaped_unknown aio_open_at_end aio_evicted
finish
