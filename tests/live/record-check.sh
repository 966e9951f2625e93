#!/usr/bin/env bash
# record-check.sh - iorec --check prints the plan (clock, events) without
# recording; a missing event is named with its cost; usage errors exit 2;
# a non-root user gets one line that says to run as root.
. "$(dirname "$0")/lib.sh"
need_root_tracefs
need_cmd setpriv

rc=0
run_iorec --check >"$T/check" 2>&1 || rc=$?
cat "$T/check" >&2
assert_eq "iorec --check exit status" 0 "$rc"
grep -qiE 'clock' "$T/check" || fail "iorec --check does not name the clock"
grep -qiE 'events' "$T/check" || fail "iorec --check does not mention the events"
# The full event list (with -v when plain --check gives only counts).
run_iorec --check -v >"$T/check-v" 2>&1 || fail "iorec --check -v failed"
for e in block:block_rq_issue block:block_rq_complete sched:sched_process_exec; do
	grep -q "$e" "$T/check-v" || fail "iorec --check -v does not list $e"
done
if [ -d "$TRACEFS/events/syscalls" ]; then
	grep -q 'syscalls:sys_enter_write' "$T/check-v" || fail "iorec --check -v does not list syscalls:sys_enter_write"
fi

rc=0
run_iorec --check -e nosuch:event >"$T/missing" 2>&1 || rc=$?
cat "$T/missing" >&2
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "iorec --check -e nosuch:event exited $rc"
grep -q 'nosuch:event' "$T/missing" || fail "iorec --check -e nosuch:event does not name the missing event"
# ... and with what it costs (a reason on the line naming it).
line=$(grep 'nosuch:event' "$T/missing" | head -n 1)
[ "$(printf '%s' "$line" | wc -w)" -ge 4 ] ||
	fail "the line naming nosuch:event says nothing about its cost: '$line'"

for args in "--no-such-option" "-z" "-d notaduration -o $T/x.iorec"; do
	rc=0
	# shellcheck disable=SC2086
	run_iorec $args >"$T/usage" 2>&1 || rc=$?
	assert_eq "exit status of 'iorec $args'" 2 "$rc"
done

# Not root: one line, exit 1, says root or sudo.  (The binary must be
# reachable by nobody: skip that part when the build tree is private.)
if setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$IOREC" 2>/dev/null; then
	rc=0
	(cd / && setpriv --reuid=65534 --regid=65534 --clear-groups "$IOREC" -d 1 -o - >/dev/null 2>"$T/nonroot") || rc=$?
	cat "$T/nonroot" >&2
	assert_eq "non-root iorec exit status" 1 "$rc"
	assert_eq "lines printed by non-root iorec" 1 "$(wc -l <"$T/nonroot")"
	grep -qiE 'root|sudo' "$T/nonroot" || fail "the non-root error does not mention root or sudo"
else
	log "skipping the non-root check: $IOREC is not executable by uid 65534"
fi

finish
