#!/usr/bin/env bash
# record-kill9.sh - a recording cut by kill -9 reads back up to its last
# complete chunk, and the next iorec run removes the stale instance and
# probes, and no instance whose name holds no possible pid.
. "$(dirname "$0")/lib.sh"
need_root_tracefs

# A busy workload: many small syscalls, so that data chunks are written
# well before the kill.
start_workload dd if=/dev/zero of="$T/work" bs=4k count=2000 status=none

f=$T/killed.iorec
# Small per-CPU buffer and low watermark: pages are read and chunks are
# written early and often.
"$IOREC" -q -b 256 -w 10 -o "$f" 2>"$T/rec.err" &
pid=$!
track_pid "$pid"
wait_instance "$pid" 10 || { cat "$T/rec.err" >&2; fail "instance iorec-$pid never appeared"; }
sleep 3
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
[ -d "$TRACEFS/instances/iorec-$pid" ] || fail "kill -9 left no instance: cannot test stale cleanup"
size=$(stat -c %s "$f")
log "killed iorec $pid after 3 s; file has $size bytes"
[ "$size" -gt 16 ] || fail "nothing was written in 3 s of a busy workload"

info_to "$f" "$T/info" "a killed recording"
line=$(info_integrity "$T/info")
log "integrity: $line"
case $line in
*truncated* | *"no end"* | *"without end"* | *"missing end"* | *incomplete*) ;;
*complete*) fail "a recording killed with -9 reads as complete: $line" ;;
*) cat "$T/info" >&2; fail "integrity line does not say the file was cut: '$line'" ;;
esac
# Chunks were read, data chunks among them (the CHUNKS column of the
# per-CPU table): then there are events.
chunks=$(sed -n 's/^ *file: *\([0-9][0-9]*\) chunks.*/\1/p' "$T/info")
data=$(awk '/^cpus:/ { c = 1; next } /^[^ ]/ { c = 0 } c && $1 ~ /^[0-9]+$/ { s += $2 } END { print s + 0 }' "$T/info")
log "chunks read: ${chunks:-?}, data chunks: $data"
[ "${chunks:-0}" -gt 0 ] || { cat "$T/info" >&2; fail "ioreport info shows no chunks read"; }
[ "$data" -gt 0 ] || fail "no data chunk in 3 s of a busy recording with -b 256 -w 10"
n=$("$IOREPORT" dump "$f" 2>"$T/dump.err" | wc -l) || {
	# dump may report the cut as an error; it must still print what it read
	cat "$T/dump.err" >&2
	n=$("$IOREPORT" dump "$f" 2>/dev/null | wc -l || true)
}
log "dump: $n events"
[ "$n" -gt 0 ] || fail "ioreport dump yields no events from a 3 s busy recording"

# its probe groups (uprobes in the C library, where names come from them)
probes=$(grep -c ":iorec_$pid/" "$TRACEFS/dynamic_events" 2>/dev/null || true)
log "probes of the killed iorec left: ${probes:-0}"
# an instance named like ours but for a pid no process can have: not ours
# to remove (on a 32-bit build strtol() saturated it to a pid that is gone)
decoy=$TRACEFS/instances/iorec-4294967297
mkdir "$decoy" || fail "cannot make the instance $decoy"
on_exit "rmdir '$decoy' 2>/dev/null"

# The next run cleans the stale instance and probes of the killed process.
run_iorec -v -d 1 -o "$T/next.iorec" 2>"$T/next.err" || { cat "$T/next.err" >&2; fail "iorec -d 1 after kill -9 failed"; }
log "next run: $(tr "\n" " " <"$T/next.err")"
# (Another iorec on the machine may be removing it at the same moment: give
# a concurrent rmdir a moment to finish.)
for ((i = 0; i < 40; i++)); do
	[ -d "$TRACEFS/instances/iorec-$pid" ] || break
	sleep 0.05
done
[ ! -d "$TRACEFS/instances/iorec-$pid" ] || fail "stale instance iorec-$pid not removed by the next run"
[ "${probes:-0}" = 0 ] || ! grep -q ":iorec_$pid/" "$TRACEFS/dynamic_events" ||
	fail "stale probes of iorec_$pid not removed by the next run"
[ -d "$decoy" ] || fail "the next run removed iorec-4294967297, which no process owns"
rmdir "$decoy" || fail "cannot remove $decoy"

finish
