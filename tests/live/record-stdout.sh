#!/usr/bin/env bash
# record-stdout.sh - iorec -o - writes a complete recording to a pipe, both
# with a duration and with a command (whose own output must not mix in).
. "$(dirname "$0")/lib.sh"
need_root_tracefs

# check_file FILE WHAT: complete and decodable.
check_file() {
	info_to "$1" "$1.info" "the file of $2"
	assert_complete "$1.info"
	local n
	n=$("$IOREPORT" dump "$1" 2>"$1.err" | wc -l) || { cat "$1.err" >&2; fail "$2: ioreport dump failed"; }
	[ "$n" -gt 0 ] || fail "$2: no events"
	log "$2: complete, $n events, $(stat -c %s "$1") bytes"
}

run_iorec -q -o - -d 2 2>"$T/d.err" | cat >"$T/d.iorec"
rcs=("${PIPESTATUS[@]}")
[ "${rcs[0]}" = 0 ] || { cat "$T/d.err" >&2; fail "iorec -o - -d 2 exited ${rcs[0]}"; }
check_file "$T/d.iorec" "iorec -o - -d 2 | cat"

rc=0
run_iorec -q -o - -- dd if=/dev/zero of="$T/w" bs=64k count=64 conv=fsync status=none \
	2>"$T/c.err" | cat >"$T/c.iorec" || rc=$?
[ "$rc" = 0 ] || { cat "$T/c.err" >&2; fail "iorec -o - -- dd | cat failed ($rc)"; }
check_file "$T/c.iorec" "iorec -o - -- dd | cat"

# A command that prints to its stdout: with -o - that output must not end
# up inside the recording (iorec should send it to stderr).
rc=0
run_iorec -q -o - -- sh -c 'echo hello from the command' \
	2>"$T/e.err" | cat >"$T/e.iorec" || rc=$?
[ "$rc" = 0 ] || { cat "$T/e.err" >&2; fail "iorec -o - -- sh -c 'echo ...' | cat failed ($rc)"; }
check_file "$T/e.iorec" "iorec -o - -- sh -c 'echo hello' | cat"

finish
