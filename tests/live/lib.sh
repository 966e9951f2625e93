# tests/live/lib.sh - shared helpers for the live tests (sourced, not run).
# shellcheck shell=bash disable=SC2034
#
# Every live test records real kernel events with iorec, so it needs root and
# tracefs; without them it skips (exit 77, automake's skip code).  Everything
# a test creates (temp dirs, loop devices, mounts, background processes) is
# registered with on_exit and torn down in reverse order on every exit path.
#
# Variables set here: T (private temp dir), TRACEFS, IOREC, IOREPORT, VM
# (/proc/sys/vm).
# Variables set by make_loop_ext4: LOOPDEV, LOOPNAME, MNT, LOOP_MAJMIN
# ("7,0": the MAJ,MIN form that block events print), LOOP_DEVT ("7:0").

set -euo pipefail
export LC_ALL=C

TEST_NAME=$(basename "$0" .sh)
TRACEFS=/sys/kernel/tracing

# Binaries: the test harness exports absolute paths; when a test is run by
# hand from the source tree, fall back to the built programs next to it
# (and to that tree for top_srcdir).
_lib_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${top_builddir:=$(cd "$_lib_dir/../.." && pwd)}"
: "${top_srcdir:=$(cd "$_lib_dir/../.." && pwd)}"
: "${IOREC:=$top_builddir/iorec}"
: "${IOREPORT:=$top_builddir/ioreport}"

log() { printf '%s: %s\n' "$TEST_NAME" "$*" >&2; }
# fail MSG: the test failed.  With KEEP_FAILED=DIR in the environment,
# the files at the top of the test's directory (its recordings, the views'
# JSON and text) are kept in DIR/TEST_NAME first, to read the failure.
fail() {
	printf '%s: FAIL: %s\n' "$TEST_NAME" "$*" >&2
	if [ -n "${KEEP_FAILED:-}" ] && [ -d "${T:-}" ] &&
	   mkdir -p "$KEEP_FAILED/$TEST_NAME"; then
		find "$T" -maxdepth 1 -type f -exec cp {} "$KEEP_FAILED/$TEST_NAME/" \; 2>/dev/null
		printf '%s: its files are kept in %s\n' "$TEST_NAME" "$KEEP_FAILED/$TEST_NAME" >&2
	fi
	exit 1
}
skip() { printf 'SKIP: %s\n' "$*"; exit 77; }

# ---------------------------------------------------------------- cleanup stack

_CLEANUPS=()
_CLEANING=0

# on_exit CMD: run CMD (with eval) at exit, last registered first.
on_exit() { _CLEANUPS+=("$1"); }

# _stop_our_iorecs: ask every iorec this test started that still runs to
# stop (SIGTERM: it removes its instance), SIGKILL after 5 s.  Only pids
# that are still this iorec binary are touched (never a reused pid).
_stop_our_iorecs() {
	local p exe i left
	[ -s "$T/.pids" ] || return 0
	exe=$(readlink -f "$IOREC")
	left=()
	# shellcheck disable=SC2013
	for p in $(sort -u "$T/.pids"); do
		[ "$(readlink "/proc/$p/exe" 2>/dev/null)" = "$exe" ] || continue
		kill -TERM "$p" 2>/dev/null && left+=("$p")
	done
	for ((i = 0; i < 100 && ${#left[@]} > 0; i++)); do
		sleep 0.05
		for p in "${!left[@]}"; do
			kill -0 "${left[$p]}" 2>/dev/null || unset "left[$p]"
		done
	done
	for p in "${left[@]}"; do
		kill -KILL "$p" 2>/dev/null
	done
	# An instance of ours whose process is gone (a test interrupted right
	# after a kill -9): remove it, so that nothing is left behind.  The
	# check that iorec itself removes stale instances runs before this.
	# shellcheck disable=SC2013
	for p in $(sort -u "$T/.pids"); do
		[ -d "$TRACEFS/instances/iorec-$p" ] || continue
		for ((i = 0; i < 40; i++)); do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.05
		done
		kill -0 "$p" 2>/dev/null || rmdir "$TRACEFS/instances/iorec-$p" 2>/dev/null
	done
	return 0
}

_run_cleanups() {
	local i
	[ "$_CLEANING" = 1 ] && return 0
	_CLEANING=1
	set +e
	cd / || true	# a cwd inside a mount would keep it busy
	_stop_our_iorecs
	for ((i = ${#_CLEANUPS[@]} - 1; i >= 0; i--)); do
		eval "${_CLEANUPS[$i]}" >/dev/null 2>&1
	done
	_CLEANUPS=()
}

_on_exit_trap() {
	local rc=$?
	_run_cleanups
	exit "$rc"
}
_on_signal_trap() {
	local sig=$1
	log "interrupted by SIG$sig, cleaning up"
	trap - EXIT
	_run_cleanups
	trap - "$sig"
	kill -s "$sig" $$
	exit 1
}
trap _on_exit_trap EXIT
trap '_on_signal_trap INT' INT
trap '_on_signal_trap TERM' TERM
trap '_on_signal_trap HUP' HUP

T=$(mktemp -d "${TMPDIR:-/tmp}/iorec-live-$TEST_NAME.XXXXXX")
on_exit "rm -rf '$T'"

# ---------------------------------------------------------------- preconditions

_TRACING_ON_AT_START=
_OUR_LOOPS=()

# need_root_tracefs: skip unless root with a usable tracefs (mounting it if
# needed; it is left mounted), and check that the binaries were built.
# apt_locked CMD...: apt and dpkg one at a time with the other tests that
# install packages
apt_locked() { flock -w 600 /run/iorec-test-apt.lock "$@"; }

# need_packages PKG...: install the Debian packages not installed yet (an
# apt-get update first if the lists lack them); skip when that fails
need_packages() {
	local p missing=()
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -gt 0 ] || return 0
	log "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt_locked apt-get install -y -q --no-install-recommends "${missing[@]}" >"$T/apt.log" 2>&1 ||
		{ apt_locked apt-get update -q >/dev/null 2>&1 &&
		  apt_locked apt-get install -y -q --no-install-recommends "${missing[@]}" >"$T/apt.log" 2>&1; } ||
		{ tail -5 "$T/apt.log" >&2; skip "cannot install ${missing[*]} (no package mirror?)"; }
}

need_root_tracefs() {
	[ "$(id -u)" = 0 ] || skip "needs root (run 'sudo make check')"
	if [ ! -e "$TRACEFS/tracing_on" ]; then
		mount -t tracefs nodev "$TRACEFS" 2>/dev/null ||
			skip "tracefs is not mounted at $TRACEFS and cannot be mounted (kernel without CONFIG_FTRACE?)"
	fi
	[ -w "$TRACEFS/tracing_on" ] || skip "$TRACEFS/tracing_on is not writable"
	[ -d "$TRACEFS/instances" ] || skip "tracefs has no instances/ directory"
	[ -x "$IOREC" ] || fail "$IOREC not built (run make)"
	[ -x "$IOREPORT" ] || fail "$IOREPORT not built (run make)"
	_TRACING_ON_AT_START=$(toplevel_shared cat "$TRACEFS/tracing_on")
	machine_settings_shared
}

# ---------------------------------------------------------------- machine-wide settings

# Live tests run in parallel (make -jN check, and several checkouts on one
# machine), and a few change what every process on the machine sees
# (vm.dirty_*).  Such a test holds /run/iorec-test-machine.lock exclusively
# from the first change until its settings are restored; every other live
# test holds it shared for its whole run, so no test ever records under
# another's settings and no two tests save and restore each other's values.
# The lock is on fd 7, held until the test's shell exits (after its cleanup
# stack has run, so the values are back first).
_MACHINE_LOCK=/run/iorec-test-machine.lock
_MACHINE_HELD=

# machine_settings_shared: hold the lock shared (need_root_tracefs does).
machine_settings_shared() {
	[ -n "$_MACHINE_HELD" ] && return 0
	command -v flock >/dev/null || return 0
	exec 7>>"$_MACHINE_LOCK"
	flock -s -w 1800 7 || fail "waited 30 min for $_MACHINE_LOCK (a test changing machine-wide settings hangs?)"
	_MACHINE_HELD=shared
}

# machine_settings_exclusive: hold the lock exclusively, before changing a
# machine-wide setting.  A shared hold is converted (flock drops it first,
# so two tests converting at once do not wait for each other forever).
machine_settings_exclusive() {
	[ "$_MACHINE_HELD" = exclusive ] && return 0
	command -v flock >/dev/null || return 0
	[ -n "$_MACHINE_HELD" ] || exec 7>>"$_MACHINE_LOCK"
	flock -x -w 1800 7 || fail "waited 30 min for $_MACHINE_LOCK held by another live test"
	_MACHINE_HELD=exclusive
}

# toplevel_shared CMD...: run CMD under a shared hold of the lock that tests
# using the top-level buffer (trace-cmd, the blk tracer) hold exclusively
# while they run and until they have restored tracing_on, so that reading
# the top level's state never sees one of them half-way.  A test holding
# the lock itself (toplevel_lock sets _TOPLEVEL_HELD) just runs CMD.
toplevel_shared() {
	if [ -n "${_TOPLEVEL_HELD:-}" ] || ! command -v flock >/dev/null; then
		"$@"
		return
	fi
	( flock -s -w 300 8 || true; "$@" ) 8>/run/iorec-test-toplevel.lock
}

# need_cmd CMD...: skip when a tool the test uses is missing.
need_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || skip "needs '$c' (apt-get install the package providing it)"
	done
}

# need_event SYS:EVENT...: skip when the kernel lacks an event.
need_event() {
	local e
	for e in "$@"; do
		[ -d "$TRACEFS/events/${e%%:*}/${e#*:}" ] || skip "kernel has no event $e"
	done
}

# ---------------------------------------------------------------- processes

# track_pid PID: an iorec (or workload) started by this test; it is killed at
# exit if still alive, and its instance must be gone at the end.
track_pid() {
	echo "$1" >>"$T/.pids"
	on_exit "kill -9 $1 2>/dev/null; wait $1 2>/dev/null"
}

# run_iorec [--timeout S] ARGS...: run $IOREC ARGS like a foreground command
# (same stdin, default SIGINT/SIGQUIT), noting its pid so that the leftover
# check knows its instance; works inside pipelines too.  With --timeout, it
# is killed with SIGKILL after S seconds (exit status 137).
run_iorec() {
	local tmo=0 pid rc=0 dog=
	if [ "$1" = --timeout ]; then
		tmo=$2
		shift 2
	fi
	env --default-signal=INT,QUIT "$IOREC" "$@" <&0 &
	pid=$!
	echo "$pid" >>"$T/.pids"
	if [ "$tmo" != 0 ]; then
		(sleep "$tmo"; kill -9 "$pid") >/dev/null 2>&1 &
		dog=$!
	fi
	wait "$pid" || rc=$?
	if [ -n "$dog" ]; then
		kill "$dog" 2>/dev/null || true
		wait "$dog" 2>/dev/null || true
	fi
	return "$rc"
}

# wait_exit PID TIMEOUT_S: wait for a background PID to exit; sets RC.
# Fails when it is still running after TIMEOUT_S.
wait_exit() {
	local pid=$1 i
	for ((i = 0; i < $2 * 20; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	kill -0 "$pid" 2>/dev/null && fail "pid $pid still running $2 s after it was told to stop"
	RC=0
	wait "$pid" || RC=$?
}

# start_workload CMD...: run CMD over and over in the background until
# stop_workload or the end of the test.  SIGTERM ends the loop after the
# current CMD, so nothing runs once the cleanup removes its files.
start_workload() {
	(
		trap 'exit 0' TERM
		while :; do "$@" || sleep 0.1; done
	) &
	WORKLOAD_PID=$!
	on_exit "stop_workload $WORKLOAD_PID"
}

# stop_workload [PID]: stop the workload loop (default: the last started).
# shellcheck disable=SC2120
stop_workload() {
	local pid=${1:-$WORKLOAD_PID}
	kill -TERM "$pid" 2>/dev/null || return 0
	wait "$pid" 2>/dev/null || true
}

# iorec_instances: names of iorec instances present now.
iorec_instances() {
	local d
	for d in "$TRACEFS"/instances/iorec-* "$TRACEFS"/instances/iorecx-*; do
		[ -d "$d" ] && basename "$d"
	done
	return 0
}

# wait_instance PID [TIMEOUT_S]: wait until iorec PID records: its
# instance instances/iorec-PID exists with its events enabled and tracing
# on.  A new instance is on before iorec turns it off to set it up, with
# no event yet; iorec turns it on again last.  (On a busy machine setting
# up takes longer than half a second: a workload started on the
# instance's mere existence lost its first calls.)
wait_instance() {
	local pid=$1 tmo=${2:-10} i d
	d=$TRACEFS/instances/iorec-$pid
	for ((i = 0; i < tmo * 20; i++)); do
		[ -d "$d" ] && [ "$(cat "$d/tracing_on" 2>/dev/null)" = 1 ] &&
			[ -n "$(head -c 1 "$d/set_event" 2>/dev/null)" ] && return 0
		kill -0 "$pid" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}

# ---------------------------------------------------------------- loop devices

# make_loop_ext4 SIZE_MB [MKFS_OPTS] [MOUNT_OPTS]: a fresh ext4 on a loop
# device, mounted on a new dir.  The inode tables and journal are initialised
# by mkfs (not lazily after mount) so that no background ext4lazyinit writes
# pollute the device's I/O during a recording.
make_loop_ext4() {
	local size=$1 mkfs_opts=${2:-} mount_opts=${3:-} dir
	need_cmd losetup mkfs.ext4
	dir=$(mktemp -d "$T/loop.XXXXXX")
	truncate -s "${size}M" "$dir/disk.img"
	_loop_ext4 "$dir/disk.img" "$dir/mnt" "$mkfs_opts" "$mount_opts"
}

# make_loop_raw SIZE_MB [LOSETUP_OPTS...]: a loop device on a new sparse
# file, no file system; sets LOOPDEV, LOOPNAME and LOOP_DEVT ("maj:min");
# detached on exit.
make_loop_raw() {
	local img
	need_cmd losetup
	img=$(mktemp "$T/raw.XXXXXX")
	truncate -s "${1}M" "$img"
	shift
	LOOPDEV=$(losetup -f --show "$@" "$img") || fail "losetup -f --show $* $img failed"
	_OUR_LOOPS+=("$LOOPDEV")
	on_exit "losetup -d '$LOOPDEV'"
	LOOPNAME=$(basename "$LOOPDEV")
	LOOP_DEVT=$(cat "/sys/block/$LOOPNAME/dev")
}

# _loop_ext4 IMG MNT MKFS_OPTS MOUNT_OPTS [LOSETUP_OPTS...]: IMG on a new loop
# device, a fresh ext4 on it mounted on MNT; sets what make_loop_ext4 sets.
_loop_ext4() {
	local img=$1 mkfs_opts=$3 mount_opts=$4
	MNT=$2
	shift 4
	LOOPDEV=$(losetup -f --show "$@" "$img") || fail "losetup -f --show $* $img failed"
	_OUR_LOOPS+=("$LOOPDEV")
	on_exit "losetup -d '$LOOPDEV'"
	LOOPNAME=$(basename "$LOOPDEV")
	# shellcheck disable=SC2086
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 $mkfs_opts "$LOOPDEV" ||
		fail "mkfs.ext4 $LOOPDEV failed"
	mkdir "$MNT"
	mount -t ext4 ${mount_opts:+-o "$mount_opts"} "$LOOPDEV" "$MNT" ||
		fail "mount $LOOPDEV failed"
	on_exit "umount '$MNT' || umount -l '$MNT'"
	LOOP_DEVT=$(cat "/sys/block/$LOOPNAME/dev")
	LOOP_MAJMIN=${LOOP_DEVT/:/,}
	sync
}

# make_card_ext4 IOPS SIZE_MB [MKFS_OPTS] [MOUNT_OPTS]: an emulated SD card,
# as samples/make-samples.sh makes it: ext4 on a loop device with direct I/O
# whose backing file lives on a second loop device (make_loop_ext4, 3 x
# SIZE_MB) whose reads and writes the cgroup v1 blkio controller throttles
# to IOPS a second.  Sets LOWER_MNT and LOWER_DEVT for the lower device and,
# for the card, what make_loop_ext4 sets.  The throttles are removed before
# the lower device is detached, on every exit path.  Skips without blkio
# throttling.
BLKIO=/sys/fs/cgroup/blkio
make_card_ext4() {
	local iops=$1 size=$2 mkfs_opts=${3:-} mount_opts=${4:-} rw
	[ -w $BLKIO/blkio.throttle.write_iops_device ] ||
		skip "no cgroup v1 blkio throttling at $BLKIO"
	make_loop_ext4 $((3 * size)) "" ""
	LOWER_MNT=$MNT LOWER_DEVT=$LOOP_DEVT
	for rw in write read; do
		echo "$LOWER_DEVT $iops" >$BLKIO/blkio.throttle.${rw}_iops_device ||
			fail "cannot throttle $LOWER_DEVT ($BLKIO/blkio.throttle.${rw}_iops_device)"
		on_exit "echo '$LOWER_DEVT 0' > $BLKIO/blkio.throttle.${rw}_iops_device"
	done
	truncate -s "${size}M" "$LOWER_MNT/card.img"
	_loop_ext4 "$LOWER_MNT/card.img" "$LOWER_MNT.card" "$mkfs_opts" "$mount_opts" --direct-io=on
}

# diskstats_sectors DEV [r|w]: sectors read or written (default w) so far.
diskstats_sectors() {
	local dev=${1#/dev/} what=${2:-w}
	awk -v d="$dev" -v w="$what" '$3 == d { print (w == "r") ? $6 : $10; f = 1 }
		END { if (!f) exit 1 }' /proc/diskstats
}

# json_get FILE EXPR: print the Python expression EXPR over the JSON document
# of FILE, bound to j (json_get "$T/wa.json" "j['overall']['ratio']").
json_get() {
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# ---------------------------------------------------------------- vm.dirty_*

VM=/proc/sys/vm

# save_dirty_sysctls: skip unless the vm.dirty_* limits are writable; note
# them (SAVED_R, SAVED_BR, SAVED_B, SAVED_BB) and put them back at exit.
save_dirty_sysctls() {
	local k
	for k in dirty_ratio dirty_background_ratio dirty_bytes dirty_background_bytes; do
		[ -w "$VM/$k" ] || skip "$VM/$k is not writable"
	done
	machine_settings_exclusive
	SAVED_R=$(cat $VM/dirty_ratio) SAVED_BR=$(cat $VM/dirty_background_ratio)
	SAVED_B=$(cat $VM/dirty_bytes) SAVED_BB=$(cat $VM/dirty_background_bytes)
	on_exit restore_dirty_sysctls
}

# restore_dirty_sysctls: the limits save_dirty_sysctls noted.  A ratio and
# its bytes twin exclude each other (writing one zeroes the other), so
# write back whichever was in force.
restore_dirty_sysctls() {
	if [ "$SAVED_B" != 0 ]; then echo "$SAVED_B" >$VM/dirty_bytes; else echo "$SAVED_R" >$VM/dirty_ratio; fi
	if [ "$SAVED_BB" != 0 ]; then echo "$SAVED_BB" >$VM/dirty_background_bytes; else echo "$SAVED_BR" >$VM/dirty_background_ratio; fi
}

# ---------------------------------------------------------------- assertions

# assert_no_instances: no instance of an iorec this test ran (run_iorec,
# track_pid) is left.  Instances of other iorec processes (another test
# running in parallel, a stale one another test leaves on purpose) are not
# ours.  Must run before the cleanup, which removes stale instances.
assert_no_instances() {
	local inst pid
	for inst in $(iorec_instances); do
		pid=${inst#iorec-}
		pid=${pid#iorecx-}
		grep -qx "$pid" "$T/.pids" 2>/dev/null || continue
		kill -0 "$pid" 2>/dev/null && fail "our iorec $pid is still running at the end of the test"
		fail "instance $inst of our iorec left behind"
	done
	return 0
}

# assert_no_leftovers: no loop device of ours still attached, top-level
# tracing_on as it was at the start.
assert_no_leftovers() {
	local l i
	# losetup -d of a device another process has open (udev probing it
	# after the unmount, a parallel test's blkid) only marks it to go when
	# that process closes it: give that 5 s
	for l in "${_OUR_LOOPS[@]}"; do
		for ((i = 0; i < 100; i++)); do
			losetup "$l" 2>/dev/null | grep -q "$T/" || break
			sleep 0.05
		done
		[ "$i" -lt 100 ] || fail "loop device $l still attached 5 s after losetup -d"
	done
	[ -n "$_TRACING_ON_AT_START" ] || return 0
	# Other tools may use the top level meanwhile (trace-cmd record leaves
	# tracing_on at 0 until its caller restores it): give them a moment,
	# and do not blame iorec while a trace-cmd is running.
	for ((l = 0; l < 60; l++)); do
		[ "$(toplevel_shared cat "$TRACEFS/tracing_on")" = "$_TRACING_ON_AT_START" ] && return 0
		sleep 0.05
	done
	if pgrep -x trace-cmd >/dev/null 2>&1; then
		log "warning: top-level tracing_on is $(cat "$TRACEFS/tracing_on") (was $_TRACING_ON_AT_START) while trace-cmd runs: not ours"
		return 0
	fi
	fail "top-level tracing_on changed from $_TRACING_ON_AT_START to $(cat "$TRACEFS/tracing_on")"
}

# finish: check that no instance is left, tear down (loop devices, mounts,
# temp files), check that nothing else is left, and pass.
finish() {
	assert_no_instances
	_run_cleanups
	_CLEANING=0
	assert_no_leftovers
	log "PASS"
	exit 0
}

# check_views FILE...: the consistency oracle (tests/consistency/
# check-views.py, as tests/test-consistency.sh runs it on the samples) on
# what a live test recorded: the views of each FILE agree with each other.
check_views() {
	local out
	out=$(python3 "$top_srcdir/tests/consistency/check-views.py" \
		--ioreport "$IOREPORT" "$@" 2>&1) ||
		{ printf '%s\n' "$out" >&2; fail "the views of $* disagree (check-views.py)"; }
}

# info_to FILE INFO [WHAT]: 'ioreport info' of FILE into INFO; it must exit
# 0 on whatever iorec left, cut files too (else fail, showing its output;
# WHAT names FILE in the message).
info_to() {
	local rc=0
	"$IOREPORT" info "$1" >"$2" 2>&1 || rc=$?
	[ "$rc" = 0 ] || { cat "$2" >&2; fail "ioreport info on ${3:-$1} exited $rc, expected 0"; }
}

# info_integrity FILE: the integrity line of 'ioreport info' output.
info_integrity() {
	grep -iE '^ *integrity' "$1" | head -n 1
}

# assert_complete INFO: 'ioreport info' output says the file is complete.
assert_complete() {
	local line
	line=$(info_integrity "$1")
	[ -n "$line" ] || { cat "$1" >&2; fail "no integrity line in ioreport info output"; }
	case $line in
	*truncated* | *corrupt* | *incomplete*) fail "integrity: $line" ;;
	*complete*) ;;
	*) fail "integrity does not say complete: $line" ;;
	esac
}

# lost_events FILE: the events the recording says it lost (its CPUs' lost
# events, the kernel's overruns and drops), 0 for a whole recording.  A
# loaded machine can overrun the ring buffers of a whole-system recording:
# a test whose truth needs every event records again with larger buffers.
lost_events() {
	"$IOREPORT" info --json "$1" | python3 -c '
import json, sys
i = json.load(sys.stdin)
print(sum(c["lost_events"] for c in i["cpu"]) +
      sum(k["overrun"] + k["dropped"] for k in i["kernel_lost"]) +
      i["integrity"]["recordings"][0]["lost_events_known"])'
}

# record_whole FILE CMD...: run CMD (which records FILE), and once more
# as CMD -b 16384 when the recording lost events; says so in the log.
record_whole() {
	local file=$1 lost
	shift
	"$@"
	lost=$(lost_events "$file") || fail "ioreport info --json $file failed"
	[ "$lost" = 0 ] && return 0
	log "$(basename "$file"): the recording lost $lost events (a loaded machine); recording again with -b 16384"
	"$@" -b 16384
	lost=$(lost_events "$file") || fail "ioreport info --json $file failed"
	[ "$lost" = 0 ] || log "$(basename "$file"): it lost $lost events again: a failure below may be theirs"
}

# end_reason INFO: the "reason:" of the "end:" section of 'ioreport info'.
end_reason() {
	awk '/^end:/ { e = 1; next } /^[^ ]/ { e = 0 }
		e && $1 == "reason:" { sub(/^ *reason: */, ""); print; exit }' "$1"
}

# info_value INFO KEY: the value of a "KEY: value" line of 'ioreport info'.
info_value() {
	sed -n "s/^ *$2 *[:=] *//p" "$1" | head -n 1
}

# assert_eq WHAT EXPECTED ACTUAL
assert_eq() {
	[ "$2" = "$3" ] || fail "$1: expected '$2', got '$3'"
}

# assert_grep PATTERN FILE [WHAT]: extended regexp must match a line of FILE.
assert_grep() {
	grep -qE -- "$1" "$2" || fail "${3:-$2}: no line matches /$1/"
}

# unique_dd: a private copy of dd at $T/bin/dd, so that its exec event
# (sched_process_exec filename=$T/bin/dd) tells our dd from any other.
unique_dd() {
	mkdir -p "$T/bin"
	cp "$(command -v dd)" "$T/bin/dd"
	DD=$T/bin/dd
}

# exec_pid DUMP PATH: pid of the process that exec'd PATH, from the dump.
exec_pid() {
	awk -v f="filename=$2" '/sched_process_exec:/ && index($0, f " ") {
		for (i = 1; i <= NF; i++) if ($i ~ /^pid=/) { sub(/^pid=/, "", $i); print $i; exit } }' "$1"
}
