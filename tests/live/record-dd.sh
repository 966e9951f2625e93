#!/usr/bin/env bash
# record-dd.sh - record a known direct-I/O write workload on a loop ext4 and
# check that the recording holds exactly that I/O: the block requests of the
# loop device add up to the 16 MiB dd wrote, and dd's 16 write syscalls are
# there with their return values.
. "$(dirname "$0")/lib.sh"
need_root_tracefs
need_event block:block_rq_issue block:block_rq_complete \
	syscalls:sys_enter_write syscalls:sys_exit_write sched:sched_process_exec

make_loop_ext4 64
unique_dd

# Exit status of the command passes through.
rc=0
run_iorec -q -o "$T/st.iorec" -- sh -c 'exit 3' 2>"$T/st.err" || rc=$?
assert_eq "exit status of 'iorec -- sh -c \"exit 3\"'" 3 "$rc"

rc=0
run_iorec -q -o "$T/rec.iorec" -- "$DD" if=/dev/zero of="$MNT/f" bs=1M count=16 \
	oflag=direct 2>"$T/rec.err" || rc=$?
[ "$rc" = 0 ] || { cat "$T/rec.err" >&2; fail "iorec -- dd exited $rc"; }
[ "$(stat -c %s "$MNT/f")" = 16777216 ] || fail "dd did not write 16 MiB"

info_to "$T/rec.iorec" "$T/info"
assert_complete "$T/info"

"$IOREPORT" dump "$T/rec.iorec" >"$T/dump" 2>"$T/dump.err" ||
	{ cat "$T/dump.err" >&2; fail "ioreport dump failed"; }

# Block layer: the loop device's requests.  Events print the device as
# "MAJ,MIN RWBS (CMD) SECTOR + NSECTORS [ERR]".
n_issue=$(awk -v dev="$LOOP_MAJMIN" '{
	for (i = 1; i < NF; i++) if ($i == "block_rq_issue:" && $(i + 1) == dev) { n++; break } }
	END { print n + 0 }' "$T/dump")
[ "$n_issue" -gt 0 ] || fail "no block_rq_issue for $LOOP_MAJMIN in the dump"

wsect=$(awk -v dev="$LOOP_MAJMIN" '{
	for (i = 1; i < NF; i++) if ($i == "block_rq_complete:" && $(i + 1) == dev) {
		if ($(i + 2) ~ /W/)
			for (j = i + 3; j < NF; j++) if ($j == "+") { s += $(j + 1); break }
		break
	} }
	END { print s + 0 }' "$T/dump")
# dd wrote 16 MiB = 32768 sectors with O_DIRECT, so all of it reaches the
# device during the recording.  On top of it ext4 may write a little
# metadata inside the window (a jbd2 commit: descriptor, inode, bitmaps,
# group descriptor, extent block, commit block - a few dozen KiB); the
# inode tables were initialised by mkfs, so no lazy-init writes.  Allow 1 MiB.
min=32768 max=$((32768 + 2048))
log "loop $LOOP_MAJMIN: $n_issue issues, $wsect write sectors completed (expect $min..$max)"
[ "$wsect" -ge "$min" ] || fail "write sectors completed on $LOOP_MAJMIN: $wsect < $min (16 MiB)"
[ "$wsect" -le "$max" ] || fail "write sectors completed on $LOOP_MAJMIN: $wsect > $max (16 MiB + 1 MiB metadata)"

# Syscalls: find our dd by its exec event (a private copy, so no other dd on
# the machine can be mistaken for it), then count its writes.
pid=$(exec_pid "$T/dump" "$DD")
[ -n "$pid" ] || fail "no sched_process_exec event for $DD"
n_enter=$(grep -cE "^ *[^ ].*-$pid +\[[0-9]+\] .* sys_enter_write:" "$T/dump" || true)
n_exit=$(grep -E "^ *[^ ].*-$pid +\[[0-9]+\] .* sys_exit_write:" "$T/dump" | grep -cE '(0x100000|1048576)$' || true)
log "dd pid $pid: $n_enter sys_enter_write, $n_exit sys_exit_write returning 1 MiB"
# (named from the kernel's saved_cmdlines, which on a busy machine may
# have dropped a short-lived process by the end: "<...>-PID" then)
grep -qE "^ *(dd|<\.\.\.>)-$pid +\[[0-9]+\] .* sys_enter_write:" "$T/dump" ||
	fail "no sys_enter_write line from dd-$pid"
[ "$n_enter" -ge 16 ] || fail "dd-$pid: $n_enter sys_enter_write, expected >= 16"
assert_eq "dd-$pid sys_exit_write with ret 0x100000" 16 "$n_exit"

finish
