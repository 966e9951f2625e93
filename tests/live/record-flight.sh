#!/usr/bin/env bash
# record-flight.sh - flight-recorder mode (-F SIZE) keeps only the last
# SIZE of data: a busy run that would write several MiB leaves a file of
# about SIZE plus metadata, marked as a flight recording.
. "$(dirname "$0")/lib.sh"
need_root_tracefs

# (the help whole first: grep -q leaving the pipe early would kill iorec
# with SIGPIPE, a failed pipeline under pipefail, and skip this test)
help=$("$IOREC" -h 2>&1)
grep -qE '(^|[^a-zA-Z])-F' <<<"$help" || fail "iorec -h does not list -F (flight recorder)"

# Metadata alone: a short recording of an idle system (a little data too,
# which only makes the bound below more generous).
run_iorec -q -d 0.3 -o "$T/meta.iorec" 2>"$T/meta.err" || { cat "$T/meta.err" >&2; fail "iorec -d 0.3 failed"; }
meta=$(stat -c %s "$T/meta.iorec")

busy() {
	start_workload dd if=/dev/zero of=/dev/null bs=64 count=100000 status=none
}

# Without -F, the same workload writes well over the flight size.
busy
run_iorec -q -d 4 -o "$T/full.iorec" 2>"$T/full.err" || { cat "$T/full.err" >&2; fail "iorec -d 4 failed"; }
stop_workload
full=$(stat -c %s "$T/full.iorec")

busy
run_iorec -q -F 1M -d 4 -o "$T/flight.iorec" 2>"$T/flight.err" || { cat "$T/flight.err" >&2; fail "iorec -F 1M -d 4 failed"; }
stop_workload
flight=$(stat -c %s "$T/flight.iorec")

limit=$(( (1048576 + meta) * 11 / 10 ))
log "metadata-only $meta B, full run $full B, flight run $flight B (limit $limit B)"
[ "$full" -gt $((3 * 1048576)) ] || skip "workload too light here: a 4 s run wrote only $full bytes"
[ "$flight" -le "$limit" ] || fail "-F 1M file is $flight bytes, more than 1 MiB + metadata ($meta) + 10%"

info_to "$T/flight.iorec" "$T/info"
assert_complete "$T/info"
grep -qi 'flight' "$T/info" || { cat "$T/info" >&2; fail "ioreport info does not show flight mode"; }
n=$("$IOREPORT" dump "$T/flight.iorec" 2>/dev/null | wc -l) || fail "ioreport dump of the flight file failed"
[ "$n" -gt 0 ] || fail "flight file has no events"
log "flight file: $n events"

finish
