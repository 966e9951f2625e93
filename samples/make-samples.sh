#!/usr/bin/env bash
# make-samples.sh - regenerate the sample recordings in samples/ (root, tracefs).
#
# Each sample reproduces one of the stories that started the project, on
# loop devices made here and removed on every exit path; sysctls changed
# here are restored on every exit path too.
#
#   story000-sqlite-before.iorec  Home-Assistant-like SQLite recorder on an
#   story000-sqlite-after.iorec   emulated SD card, large database / after
#                                 cleanup + VACUUM
#   story001-barrier.iorec        SQLite commit loop on journaled ext4 with
#   story001-nobarrier.iorec      barriers / with barrier=0
#   story002-dirty-default.iorec  buffered 100 MB dd on the emulated card with
#   story002-dirty-tuned.iorec    dirty thresholds of 10/20 % and 15/20 % of a
#                                 512 MB board (story 002's values), given as
#                                 vm.dirty_background_bytes / vm.dirty_bytes
#   rawsyscalls.iorec             a small dd recorded with --raw-syscalls
#   tracecmd.dat                  trace-cmd record of the SQLite commit loop
#
# The emulated SD card: an ext4 image on a loop device (the traced device)
# whose backing file lives on a second loop device throttled with the
# cgroup v1 blkio controller.  The traced loop device uses direct I/O on its
# backing file, so the throttling lands inside its own request service
# time: its device time (issue->complete) is milliseconds per write, like a
# card's, not just its queue time.
#
# usage: samples/make-samples.sh [SAMPLE...]   (default: all)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
IOREC=${IOREC:-$top/iorec}
wl=$here/workloads
T=/sys/kernel/tracing
BLKIO=/sys/fs/cgroup/blkio

[ "$(id -u)" = 0 ] || { echo "make-samples: needs root (sudo $0)" >&2; exit 1; }
[ -x "$IOREC" ] || { echo "make-samples: $IOREC not built: run make first" >&2; exit 1; }
mountpoint -q $T || mount -t tracefs nodev $T

work=$(mktemp -d /tmp/iorec-samples.XXXXXX)
cleanups=()
on_exit() { cleanups+=("$1"); }
run_cleanups() {
	local i
	for ((i = ${#cleanups[@]} - 1; i >= 0; i--)); do
		eval "${cleanups[$i]}" >/dev/null 2>&1 || true
	done
	cleanups=()
}
trap 'run_cleanups; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM HUP

majmin() { lsblk -dno MAJ:MIN "$1" | tr -d ' '; }

# loop_ext4 IMG SIZE_MB MNT [mkfs opts] [-- mount opts]: sets DEV
loop_ext4() {
	local img=$1 size=$2 mnt=$3 mkfs=${4:-} mopt=${5:-}
	truncate -s "${size}M" "$img"
	DEV=$(losetup -f --show ${LOOP_DIO:+--direct-io=on} "$img")
	on_exit "losetup -d $DEV"
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 $mkfs "$DEV"
	mkdir -p "$mnt"
	mount ${mopt:+-o $mopt} "$DEV" "$mnt"
	on_exit "umount $mnt"
}

# sdcard MNT WRITE_IOPS READ_IOPS: an emulated SD card mounted at MNT; sets DEV
sdcard() {
	local mnt=$1 wiops=$2 riops=$3 lower
	LOOP_DIO= loop_ext4 "$work/lower.img" 600 "$work/lower"
	lower=$(majmin "$DEV")
	echo "$lower $wiops" > $BLKIO/blkio.throttle.write_iops_device
	echo "$lower $riops" > $BLKIO/blkio.throttle.read_iops_device
	on_exit "echo '$lower 0' > $BLKIO/blkio.throttle.write_iops_device; echo '$lower 0' > $BLKIO/blkio.throttle.read_iops_device"
	LOOP_DIO=1 loop_ext4 "$work/lower/card.img" 400 "$mnt"
}

# The Home Assistant recorder: a states table written by many small
# committed transactions, as HA's recorder does every second.


drop_caches() { sync; echo 3 > /proc/sys/vm/drop_caches; }

story000() {
	sdcard "$work/card" 300 600
	local db=$work/card/home-assistant_v2.db
	python3 "$wl/ha-fill.py" "$db" 150000
	drop_caches
	"$IOREC" -q -o "$here/story000-sqlite-before.iorec" -- \
		python3 "$wl/ha-recorder.py" "$db" 4 >/dev/null
	# the cleanup of story 000, then the same recorder again
	python3 - "$db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
with c:
    c.execute("delete from states where last_updated < 149000")
c.execute("vacuum")
PY
	drop_caches
	"$IOREC" -q -o "$here/story000-sqlite-after.iorec" -- \
		python3 "$wl/ha-recorder.py" "$db" 4 >/dev/null
	run_cleanups
}


story001() {
	local opt
	for opt in barrier nobarrier; do
		local mopt=barrier=1
		[ $opt = nobarrier ] && mopt=barrier=0
		loop_ext4 "$work/s1-$opt.img" 128 "$work/s1-$opt" "" "$mopt"
		"$IOREC" -q -o "$here/story001-$opt.iorec" -- \
			python3 "$wl/commit-loop.py" "$work/s1-$opt/bcfg2.sqlite" 300 >/dev/null
		run_cleanups
	done
}

story002() {
	# The Pi of story 002 has 1 GB; this machine has far more, so the
	# ratios are given as the byte thresholds they mean on a 512 MB board
	# (vm.dirty_*_bytes override the ratios): 10 %/20 % and then 15 %/20 %.
	# Restore each threshold in the form it had: writing a ratio zeroes
	# its _bytes twin and the other way round, and dirty_bytes refuses 0.
	local restore="sysctl -q -w vm.swappiness=$(sysctl -n vm.swappiness)"
	restore+=" vm.vfs_cache_pressure=$(sysctl -n vm.vfs_cache_pressure)"
	local kind
	for kind in dirty_background dirty; do
		if [ "$(sysctl -n vm.${kind}_bytes)" != 0 ]; then
			restore+=" vm.${kind}_bytes=$(sysctl -n vm.${kind}_bytes)"
		else
			restore+=" vm.${kind}_ratio=$(sysctl -n vm.${kind}_ratio)"
		fi
	done
	on_exit "$restore"
	sdcard "$work/s2" 400 800
	sysctl -q -w vm.swappiness=60 vm.vfs_cache_pressure=100 \
		vm.dirty_background_bytes=$((51 << 20)) vm.dirty_bytes=$((102 << 20))
	drop_caches
	"$IOREC" -q -o "$here/story002-dirty-default.iorec" -- \
		dd if=/dev/zero of="$work/s2/test.img" bs=1M count=100 conv=fsync status=none
	rm -f "$work/s2/test.img"
	sysctl -q -w vm.swappiness=15 vm.vfs_cache_pressure=50 \
		vm.dirty_background_bytes=$((77 << 20)) vm.dirty_bytes=$((102 << 20))
	drop_caches
	"$IOREC" -q -o "$here/story002-dirty-tuned.iorec" -- \
		dd if=/dev/zero of="$work/s2/test.img" bs=1M count=100 conv=fsync status=none
	run_cleanups
}

rawsyscalls() {
	loop_ext4 "$work/raw.img" 64 "$work/raw"
	"$IOREC" -q --raw-syscalls -o "$here/rawsyscalls.iorec" -- \
		dd if=/dev/zero of="$work/raw/f" bs=64k count=64 oflag=direct status=none
	run_cleanups
}

tracecmd() {
	command -v trace-cmd >/dev/null || { echo "make-samples: trace-cmd missing: apt-get install trace-cmd" >&2; return 1; }
	loop_ext4 "$work/tc.img" 64 "$work/tc"
	local on; on=$(cat $T/tracing_on)
	on_exit "echo $on > $T/tracing_on"
	# the top-level buffer is shared with the tests' blk tracer captures
	exec 9>/run/iorec-test-toplevel.lock
	flock 9
	(cd "$work" && trace-cmd record -q -d --no-filter -o "$here/tracecmd.dat" \
		-e block:block_rq_insert -e block:block_rq_issue -e block:block_rq_complete \
		-e syscalls:sys_enter_pwrite64 -e syscalls:sys_exit_pwrite64 \
		-e syscalls:sys_enter_write -e syscalls:sys_exit_write \
		-e syscalls:sys_enter_fsync -e syscalls:sys_exit_fsync \
		-e syscalls:sys_enter_fdatasync -e syscalls:sys_exit_fdatasync \
		-e syscalls:sys_enter_openat -e syscalls:sys_exit_openat \
		-e sched:sched_process_exec -e sched:sched_process_exit \
		python3 "$wl/commit-loop.py" "$work/tc/bcfg2.sqlite" 100 >/dev/null 2>&1) || true
	echo "$on" > $T/tracing_on
	flock -u 9
	[ -s "$here/tracecmd.dat" ] || { echo "make-samples: trace-cmd wrote nothing" >&2; return 1; }
	run_cleanups
}

all=(story000 story001 story002 rawsyscalls tracecmd)
[ $# -gt 0 ] && all=("$@")
for s in "${all[@]}"; do
	echo "make-samples: $s" >&2
	"$s"
done
ls -l "$here"/*.iorec "$here"/*.dat 2>/dev/null
