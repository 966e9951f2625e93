#!/usr/bin/env bash
# record-rawsyscalls.sh - with --raw-syscalls (the fallback for kernels
# without syscalls:* events) the recording says so in its header, and dd's
# write() calls appear as raw sys_enter/sys_exit with the write number.
. "$(dirname "$0")/lib.sh"
need_root_tracefs
need_event raw_syscalls:sys_enter raw_syscalls:sys_exit sched:sched_process_exec

case $(uname -m) in
x86_64) NR_WRITE=1 ;;
aarch64) NR_WRITE=64 ;;
*) skip "write syscall number unknown for $(uname -m)" ;;
esac

unique_dd
rc=0
run_iorec -q --raw-syscalls -o "$T/raw.iorec" -- "$DD" if=/dev/zero of="$T/out" \
	bs=1M count=16 status=none 2>"$T/rec.err" || rc=$?
[ "$rc" = 0 ] || { cat "$T/rec.err" >&2; fail "iorec --raw-syscalls -- dd exited $rc"; }

info_to "$T/raw.iorec" "$T/info"
assert_complete "$T/info"
grep -qiE 'raw[_ ]syscalls' "$T/info" || { cat "$T/info" >&2; fail "ioreport info does not show the raw_syscalls flag"; }

"$IOREPORT" dump "$T/raw.iorec" >"$T/dump" 2>"$T/dump.err" ||
	{ cat "$T/dump.err" >&2; fail "ioreport dump failed"; }
grep -q 'sys_enter_write:' "$T/dump" && fail "syscalls:sys_enter_write recorded despite --raw-syscalls"

pid=$(exec_pid "$T/dump" "$DD")
[ -n "$pid" ] || fail "no sched_process_exec event for $DD"
# Count dd's raw write syscalls after its exec (before it, the same pid was
# still the forked recorder child).  Lines: "COMM-PID [CPU] SECS: sys_enter: NR 1 (...)"
# and "... sys_exit: NR 1 = 1048576".
read -r n_enter n_exit < <(awk -v pid="$pid" -v nr="$NR_WRITE" -v dd="$DD" '
	function ts(   i) { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) return substr($i, 1, length($i) - 1) + 0; return -1 }
	function ours(   i) { for (i = 1; i <= NF; i++) if ($i ~ /^\[[0-9]+\]$/) return ($(i - 1) ~ ("-" pid "$")); return 0 }
	/sched_process_exec:/ && index($0, "filename=" dd " ") { t0 = ts() }
	t0 != "" && ours() && ts() >= t0 {
		for (i = 1; i < NF; i++) {
			if ($i == "sys_enter:" && $(i + 1) == "NR" && $(i + 2) == nr) ne++
			if ($i == "sys_exit:" && $(i + 1) == "NR" && $(i + 2) == nr && $NF == 1048576) nx++
		}
	}
	END { print ne + 0, nx + 0 }' "$T/dump")
log "dd pid $pid: $n_enter raw sys_enter NR $NR_WRITE, $n_exit sys_exit NR $NR_WRITE = 1048576"
assert_eq "raw sys_enter NR $NR_WRITE from dd-$pid (dd bs=1M count=16 status=none)" 16 "$n_enter"
assert_eq "raw sys_exit NR $NR_WRITE returning 1 MiB from dd-$pid" 16 "$n_exit"

finish
