#!/usr/bin/env bash
# report-bench.sh - how fast ioreport analyzes a recording, against
# trace-cmd report on the same events, in the same run.  Not a test.
#
# Records a syscall-heavy workload (dd of 512-byte blocks from /dev/zero
# to /dev/null, plus some direct block writes to a temporary file) twice
# with iorec (io profile, -b 16384): a small recording (about 1 M events)
# and a large one (5 M events or more); and both workloads once more
# under trace-cmd record with the same events.  Then prints, best of
# ROUNDS runs each:
#   ioreport report  (all text views) on the large .iorec and on both
#                    trace.dat files (ioreport's own trace.dat reader), on
#                    the large .iorec converted to a version 6 trace.dat
#                    (ioreport convert -V 6: trace-cmd reads it back)
#   ioreport slow    the one-pass analysis alone (block + syscall replay +
#                    attribution), on the large .iorec
#   ioreport devices the block replay alone
#   ioreport info    the trace.dat input alone (every event read and
#                    counted, no analysis), on both trace.dat files
#   trace-cmd report > /dev/null on the three trace.dat files
# as wall seconds, events/s and the ratio to trace-cmd report on the same
# file, and the peak RSS of ioreport report and of ioreport info on the
# small and the large recording and trace.dat (the input's should be flat).
#
# How each number is measured:
#   events    'ioreport info' of each file (all CPUs, all event types)
#   wall      elapsed time of /usr/bin/time, best of ROUNDS
#   rss       "Maximum resident set size" of /usr/bin/time, largest of ROUNDS
# trace-cmd runs with -d --no-filter (the only way it records here), so it
# also records its own syscalls: its file may hold more events; every rate
# is computed on the events of the file it read.
#
# usage: bench/report-bench.sh [-n ROUNDS] [-s SMALL_BLOCKS] [-l LARGE_BLOCKS]
#                              [-V 6|7] [-k]
#   -n ROUNDS        timing rounds per measure (default 3)
#   -V VERSION       trace.dat file version trace-cmd writes (default 7,
#                    zstd-compressed; 6 is uncompressed, but trace-cmd 3.1.6
#                    writes v6 files here that it cannot read back)
#   -s, -l BLOCKS    512-byte blocks the dd workload copies (default
#                    150000 and 1500000: about 1 M and 9 M events)
#   -k               keep the recordings (their directory is printed)

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
sizes_options 150000 1500000 "$@"

need_tracing trace-cmd:trace-cmd /usr/bin/time:time dd:coreutils "$IOREC" "$IOREPORT"
make_tmp recordings
borrow_toplevel

# ---------------------------------------------------------------- record

echo "recording (small: $SMALL blocks, large: $LARGE blocks) in $T ..." >&2
"$IOREC" -q -b 16384 -o "$T/small.iorec" -- sh "$(workload "$SMALL")" ||
	die "iorec failed on the small workload"
"$IOREC" -q -b 16384 -o "$T/large.iorec" -- sh "$(workload "$LARGE")" ||
	die "iorec failed on the large workload"

# trace-cmd with the events of the iorec file (its uprobe events aside)
TC_EV=()
while read -r e; do
	TC_EV+=(-e "$e")
done < <("$IOREPORT" info -n "$T/large.iorec" |
	 awk '/^events:/ { on = 1; next } on && /^  [a-z0-9_]+:[a-z0-9_]+$/ { print $1; next } on && !/^  / { exit }' |
	 grep -v '^iorec_')
[ ${#TC_EV[@]} -gt 0 ] || die "no events listed by 'ioreport info -n'"
tc_record "$T/small.dat" "$SMALL" "${TC_EV[@]}"
tc_record "$T/large.dat" "$LARGE" "${TC_EV[@]}"

# the same large recording as a version 6 trace.dat (uncompressed), which
# trace-cmd 3.1.6 reads back (it cannot read the v6 files it writes here)
"$IOREPORT" convert --to trace.dat -V 6 -o "$T/large6.dat" "$T/large.iorec" 2>"$T/conv.log" ||
	die "ioreport convert -V 6 failed: $(tail -n 3 "$T/conv.log")"

EV_SMALL=$(info_events "$T/small.iorec")
EV_LARGE=$(info_events "$T/large.iorec")
EV_DAT=$(info_events "$T/large.dat")
EV_SDAT=$(info_events "$T/small.dat")
EV_DAT6=$(info_events "$T/large6.dat")
echo "events: small.iorec $EV_SMALL, large.iorec $EV_LARGE, small.dat $EV_SDAT, large.dat $EV_DAT" >&2

# ---------------------------------------------------------------- measure

echo
echo "report-bench: best of $ROUNDS runs (trace.dat version $TCVER)"
measure "trace-cmd report (small.dat)" "$EV_SDAT" trace-cmd report "$T/small.dat"
measure "trace-cmd report (large.dat)" "$EV_DAT" trace-cmd report "$T/large.dat"
measure "ioreport report (small.dat)" "$EV_SDAT" "$IOREPORT" report "$T/small.dat"
measure "ioreport report (large.dat)" "$EV_DAT" "$IOREPORT" report "$T/large.dat"
measure "ioreport info (small.dat)" "$EV_SDAT" "$IOREPORT" info "$T/small.dat"
measure "ioreport info (large.dat)" "$EV_DAT" "$IOREPORT" info "$T/large.dat"
measure "trace-cmd report (large6.dat)" "$EV_DAT6" trace-cmd report "$T/large6.dat"
measure "ioreport report (large6.dat)" "$EV_DAT6" "$IOREPORT" report "$T/large6.dat"
measure "ioreport report (large.iorec)" "$EV_LARGE" "$IOREPORT" report "$T/large.iorec"
measure "ioreport report (small.iorec)" "$EV_SMALL" "$IOREPORT" report "$T/small.iorec"
measure "ioreport slow (large.iorec)" "$EV_LARGE" "$IOREPORT" slow "$T/large.iorec"
measure "ioreport devices (large.iorec)" "$EV_LARGE" "$IOREPORT" devices "$T/large.iorec"

TC=$(rate "$EV_DAT" "${WALL[trace-cmd report (large.dat)]}")
TCS=$(rate "$EV_SDAT" "${WALL[trace-cmd report (small.dat)]}")
TC6=$(rate "$EV_DAT6" "${WALL[trace-cmd report (large6.dat)]}")
echo
echo "ratios to trace-cmd report (events/s over events/s; a trace.dat against"
echo "trace-cmd report on the same file, an .iorec against large.dat):"
for n in "ioreport report (small.dat)" "ioreport report (large.dat)" \
	 "ioreport report (large6.dat)" \
	 "ioreport report (large.iorec)" \
	 "ioreport slow (large.iorec)" "ioreport devices (large.iorec)"; do
	t=$TC
	case $n in
	*small.dat*) ev=$EV_SDAT; t=$TCS ;;
	*large6.dat*) ev=$EV_DAT6; t=$TC6 ;;
	*large.dat*) ev=$EV_DAT ;;
	*) ev=$EV_LARGE ;;
	esac
	awk -v n="$n" -v r="$(rate "$ev" "${WALL[$n]}")" -v t="$t" \
		'BEGIN { printf "  %-34s %6.1fx\n", n, (t > 0 ? r / t : 0) }'
done
echo
echo "peak RSS of ioreport report: ${RSS[ioreport report (small.iorec)]} KB at $EV_SMALL events, ${RSS[ioreport report (large.iorec)]} KB at $EV_LARGE events (.iorec)"
echo "peak RSS of ioreport report: ${RSS[ioreport report (small.dat)]} KB at $EV_SDAT events, ${RSS[ioreport report (large.dat)]} KB at $EV_DAT events (trace.dat)"
echo "peak RSS of ioreport report: ${RSS[ioreport report (large6.dat)]} KB at $EV_DAT6 events (the large .iorec converted to a version 6 trace.dat)"
echo "peak RSS of ioreport info (the trace.dat input alone, every event read): ${RSS[ioreport info (small.dat)]} KB at $EV_SDAT events, ${RSS[ioreport info (large.dat)]} KB at $EV_DAT events"
echo "peak RSS of trace-cmd report: ${RSS[trace-cmd report (small.dat)]} KB, ${RSS[trace-cmd report (large.dat)]} KB"
