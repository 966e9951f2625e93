#!/usr/bin/env bash
# record-cut.sh - a real recording cut at arbitrary offsets (power loss, a
# truncated upload) reads back up to its last complete chunk: ioreport info
# never crashes, says "truncated at offset N" with N at or before the cut,
# and the events dump grows with the cut and never exceeds the whole file's.
. "$(dirname "$0")/lib.sh"
need_root_tracefs

# Many data chunks: a busy workload, small buffers, early wake-ups.
start_workload dd if=/dev/zero of=/dev/null bs=64 count=20000 status=none
run_iorec -q -b 256 -w 10 -d 1 -o "$T/whole.iorec" 2>"$T/rec.err" ||
	{ cat "$T/rec.err" >&2; fail "iorec -d 1 failed"; }
stop_workload
size=$(stat -c %s "$T/whole.iorec")
"$IOREPORT" info "$T/whole.iorec" >"$T/whole.info" 2>&1 || fail "ioreport info failed on the whole file"
assert_complete "$T/whole.info"
total=$("$IOREPORT" dump "$T/whole.iorec" 2>/dev/null | wc -l)
log "whole file: $size bytes, $total events"
[ "$total" -gt 0 ] || fail "the whole file has no events"

prev=0
for pct in 1 5 20 40 60 80 95 99; do
	cut=$((size * pct / 100))
	head -c "$cut" "$T/whole.iorec" >"$T/cut.iorec"
	rc=0
	"$IOREPORT" info "$T/cut.iorec" >"$T/cut.info" 2>&1 || rc=$?
	[ "$rc" -lt 2 ] || { cat "$T/cut.info" >&2; fail "ioreport info on the file cut at $cut crashed or misused ($rc)"; }
	line=$(grep -E 'truncated at offset [0-9]+' "$T/cut.info" | head -n 1 || true)
	[ -n "$line" ] || { cat "$T/cut.info" >&2; fail "cut at $cut: no 'truncated at offset N'"; }
	off=$(sed -E 's/.*truncated at offset ([0-9]+).*/\1/' <<<"$line")
	[ "$off" -le "$cut" ] || fail "cut at $cut: says truncated at offset $off, past the end"
	rc=0
	n=$("$IOREPORT" dump "$T/cut.iorec" 2>/dev/null | wc -l) || rc=$?
	[ "$rc" -lt 2 ] || fail "ioreport dump on the file cut at $cut exited $rc"
	[ "$n" -ge "$prev" ] || fail "cut at $cut: $n events, fewer than the $prev of a shorter cut"
	[ "$n" -le "$total" ] || fail "cut at $cut: $n events, more than the whole file's $total"
	prev=$n
	log "cut at $cut ($pct%): truncated at $off, $n events"
done
[ "$prev" -gt 0 ] || fail "no events read back from a file cut at 99%"

finish
