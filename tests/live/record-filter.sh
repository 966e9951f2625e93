#!/usr/bin/env bash
# record-filter.sh - -P PID and --comm NAME keep only those processes'
# system calls, and only those: two writers run during a 2-second
# recording; with -P of the first, every syscalls:* event is the first
# writer's and it made some; with --comm of the second's name, every one is
# the second's.  Block events stay system-wide in both (the writers' files
# reach the disk through the flusher), and the header says what was kept
# (syscall_filter), as ioreport summary does.  A pid that does not exist
# is one error line and exit 1.
. "$(dirname "$0")/lib.sh"
need_root_tracefs
need_event syscalls:sys_enter_write block:block_rq_issue

make_loop_ext4 64
mkdir -p "$T/bin"
cp "$(command -v dd)" "$T/bin/wone"
cp "$(command -v dd)" "$T/bin/wtwo"
writer() {	# NAME: a writer of 512-byte writes with fsyncs, until killed;
		# the pid of each of its runs goes to $T/NAME.pids
	( while :; do
		"$T/bin/$1" if=/dev/zero of="$MNT/$1.out" bs=512 count=2000 conv=fsync status=none &
		echo $! >>"$T/$1.pids"
		wait $!
	done ) &
	on_exit "kill $! 2>/dev/null || true"
}
"$T/bin/wone" if=/dev/zero of="$MNT/wone.out" bs=512 count=100000000 oflag=sync status=none &
one=$!
on_exit "kill $one 2>/dev/null || true"
writer wtwo
sleep 0.3

# syscall_pids FILE: "PID COMM" of every syscalls:* enter event
syscall_pids() {
	"$IOREPORT" dump "$1" 2>/dev/null |
		awk '/ sys_enter_[a-z0-9_]+: / { for (i = 1; i <= NF; i++) if ($i ~ /^\[[0-9]+\]$/) { print $(i - 1); break } }' |
		sort | uniq -c
}
rc=0
run_iorec -q -P "$one" -d 2 -o "$T/pid.iorec" 2>"$T/pid.err" || rc=$?
[ "$rc" = 0 ] || { cat "$T/pid.err" >&2; fail "iorec -P $one exited $rc"; }
syscall_pids "$T/pid.iorec" >"$T/pid.calls"
log "-P $one: $(tr '\n' ' ' <"$T/pid.calls")"
[ -s "$T/pid.calls" ] || fail "-P $one: no system call recorded"
grep -v -- "-$one\$" "$T/pid.calls" && fail "-P $one: system calls of other processes recorded"
"$IOREPORT" dump "$T/pid.iorec" >"$T/pid.dump" 2>/dev/null
grep -q ' block_rq_issue: ' "$T/pid.dump" ||
	fail "-P $one: no block event recorded"
"$IOREPORT" summary "$T/pid.iorec" >"$T/pid.sum" 2>/dev/null
assert_grep "syscalls only +pid $one " "$T/pid.sum" "ioreport summary of the -P recording"

rc=0
run_iorec -q --comm wtwo -d 2 -o "$T/comm.iorec" 2>"$T/comm.err" || rc=$?
[ "$rc" = 0 ] || { cat "$T/comm.err" >&2; fail "iorec --comm wtwo exited $rc"; }
syscall_pids "$T/comm.iorec" >"$T/comm.calls"
log "--comm wtwo: $(tr '\n' ' ' <"$T/comm.calls")"
[ -s "$T/comm.calls" ] || fail "--comm wtwo: no system call recorded"
# a process is the second writer's when its pid is one of the writer's runs
# (the kernel may not have kept the name of a short-lived one: "<...>-PID"),
# and its name, when the recording kept one, is wtwo
awk '{ n = split($2, a, "-"); print a[n], $2 }' "$T/comm.calls" |
	while read -r pid who; do
		grep -qx "$pid" "$T/wtwo.pids" || echo "$who"
		case $who in wtwo-*|"<...>-"*) ;; *) echo "$who" ;; esac
	done >"$T/comm.others"
[ -s "$T/comm.others" ] && { cat "$T/comm.others" >&2; fail "--comm wtwo: system calls of other processes recorded"; }
"$IOREPORT" dump "$T/comm.iorec" >"$T/comm.dump" 2>/dev/null
grep -q ' block_rq_issue: ' "$T/comm.dump" ||
	fail "--comm wtwo: no block event recorded"

rc=0
"$IOREC" -q -P 2147483646 -d 1 -o "$T/none.iorec" 2>"$T/none.err" || rc=$?
assert_eq "exit status of -P with no such process" 1 "$rc"
assert_eq "lines of the error" 1 "$(wc -l <"$T/none.err")"
finish
