#!/usr/bin/env bash
# record-compat-auto.sh - 32-bit (compat) programs' syscalls cost
# raw_syscalls events on every system call of every program, so by default
# iorec records them only from the first 32-bit program's exec when none
# runs at the start: with no 32-bit program, the recording holds no
# raw_syscalls event at all, its header says compat_start=exec and a
# limit_ key says what a 32-bit program's first moments may miss; --compat
# records them from the start (raw events of native tasks' twinned calls
# appear: the machine's own fstat/close), --no-compat never (compat_syscalls
# off).  Without -q the console says nothing of 32-bit programs then, and
# no warning twice.  The exec watcher's instance (iorecx-PID) goes with iorec.
. "$(dirname "$0")/lib.sh"
need_root_tracefs
need_event raw_syscalls:sys_enter raw_syscalls:sys_exit sched:sched_process_exec

"$IOREC" --check >"$T/check" 2>&1 || { cat "$T/check" >&2; fail "iorec --check failed"; }
grep -qE '^  32-bit +[a-z0-9_]+ programs on this' "$T/check" ||
	skip "this kernel records no 32-bit programs in shadow mode ($(grep '32-bit' "$T/check" | head -1))"
# a 32-bit program running now (ELF class byte 1) turns it on: not our case
for e in /proc/[0-9]*/exe; do
	[ "$(od -An -tx1 -j4 -N1 "$e" 2>/dev/null | tr -d ' ')" = 01 ] &&
		skip "a 32-bit program runs on this machine ($(readlink "$e"))"
done
assert_grep 'OFF until a 32-bit program starts' "$T/check" "iorec --check"

unique_dd
# raw_enters FILE: the raw_syscalls:sys_enter events of a recording
raw_enters() {
	"$IOREPORT" dump "$1" >"$T/dump" 2>"$T/dump.err" ||
		{ cat "$T/dump.err" >&2; fail "ioreport dump $1 failed"; }
	grep -c ' sys_enter: ' "$T/dump" || true
}
record() {	# NAME [IOREC-OPTION...]
	local name=$1 rc=0
	shift
	run_iorec -q "$@" -o "$T/$name.iorec" -- "$DD" if=/dev/zero of="$T/out" \
		bs=512 count=4000 status=none 2>"$T/$name.err" || rc=$?
	[ "$rc" = 0 ] || { cat "$T/$name.err" >&2; fail "iorec $* -- dd exited $rc"; }
	"$IOREPORT" info --json "$T/$name.iorec" >"$T/$name.json" ||
		fail "ioreport info $name failed"
}
hdr() {	# NAME KEY: a header key of the recording
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["header"].get(sys.argv[2], ""))' \
		"$T/$1.json" "$2"
}

record auto
n=$(raw_enters "$T/auto.iorec")
log "default, no 32-bit program: $n raw sys_enter events"
assert_eq "raw_syscalls:sys_enter events without a 32-bit program" 0 "$n"
assert_eq "header compat_syscalls" shadow "$(hdr auto compat_syscalls)"
assert_eq "header compat_start" exec "$(hdr auto compat_start)"
python3 -c 'import json,sys; h=json.load(open(sys.argv[1]))["header"]
sys.exit(0 if any("from the first one" in h.get("limit_%d" % i, "") for i in (1, 2, 3, 4)) else 1)' \
	"$T/auto.json" || fail "no limit_ key says what a 32-bit program's first moments miss"
n=$(grep -c 'sys_enter_write: ' "$T/dump" || true)
[ "$n" -ge 4000 ] || fail "dd's 4000 writes: only $n syscalls:sys_enter_write events"

# what iorec says on the console with no 32-bit program: nothing of 32-bit
# programs (the header keeps it, --check says it), and no line twice
rc=0
run_iorec -o "$T/loud.iorec" -- "$DD" if=/dev/zero of="$T/out" bs=512 count=400 \
	status=none 2>"$T/loud.err" || rc=$?
[ "$rc" = 0 ] || { cat "$T/loud.err" >&2; fail "iorec -- dd exited $rc"; }
log "console of a recording without -q: $(tr '\n' '|' <"$T/loud.err")"
grep -i '32-bit' "$T/loud.err" && fail "iorec speaks of 32-bit programs where none ran"
sed 's/^iorec: warning: limit of this recording: /iorec: warning: /' "$T/loud.err" |
	sort | uniq -d | grep . && fail "iorec printed a line twice"
grep -q '^iorec: recorded ' "$T/loud.err" || fail "no 'recorded' line on the console"
# nor do ioreport's views, the recording having ended with none; info
# still lists the recording's limits
"$IOREPORT" processes "$T/loud.iorec" 2>"$T/view.err" >/dev/null ||
	fail "ioreport processes failed"
grep -i '32-bit' "$T/view.err" && fail "ioreport processes speaks of 32-bit programs where none ran"
"$IOREPORT" info "$T/loud.iorec" >"$T/info" 2>/dev/null
assert_grep 'limit: .*32-bit' "$T/info" "ioreport info of a recording armed for 32-bit programs"

record forced --compat
n=$(raw_enters "$T/forced.iorec")
log "--compat: $n raw sys_enter events (native twins and markers)"
[ "$n" -gt 0 ] || fail "--compat recorded no raw_syscalls:sys_enter event"
assert_eq "header compat_start with --compat" start "$(hdr forced compat_start)"

record off --no-compat
assert_eq "header compat_syscalls with --no-compat" off "$(hdr off compat_syscalls)"
n=$(raw_enters "$T/off.iorec")
assert_eq "raw_syscalls:sys_enter events with --no-compat" 0 "$n"
finish
