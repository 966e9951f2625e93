#!/usr/bin/env bash
# tracedat-bench.sh - how fast the formats/ trace.dat reader walks a
# trace-cmd recording, against trace-cmd report and libtracecmd on the
# same file, in the same run.  Not a test.
#
# Records the same syscall-heavy workload as report-bench.sh (dd of
# 512-byte blocks from /dev/zero to /dev/null, then direct 64 KiB writes
# to a temporary file and a sync) twice with 'trace-cmd record' and the
# events of iorec's io profile ('iorec --check -v'): a small file (about
# 1 M events) and a large one (about 4 M).  Then, on each file, best of
# ROUNDS runs:
#   reader       tests/tracedat/tdat-walk -m: the formats/ reader (all the
#                metadata, kallsyms included, then every page of every
#                CPU, merged in timestamp order) and a minimal kbuffer walk
#                of every event (its timestamp, size and bytes hashed) -
#                what ioreport's trace.dat input will do before decoding
#   libtracecmd  tests/tracedat/tdat-libtracecmd -i: tracecmd_open and
#                tracecmd_iterate_events over the same events, the same
#                hash - ioreport's trace.dat input today, before decoding
#   trace-cmd    trace-cmd report > /dev/null
# and prints wall seconds, events/s, peak RSS, and the ratios of the
# reader's events/s to the other two's.
#
# How each number is measured:
#   events    tdat-walk's count (all CPUs of the top buffer)
#   wall      elapsed time of /usr/bin/time, best of ROUNDS
#   rss       "Maximum resident set size" of /usr/bin/time, largest of ROUNDS
# trace-cmd record runs with -d --no-filter (the only way it records here).
#
# usage: bench/tracedat-bench.sh [-n ROUNDS] [-s SMALL_BLOCKS] [-l LARGE_BLOCKS]
#                                [-V 6|7] [-k]
#   -n ROUNDS        timing rounds per measure (default 3)
#   -V VERSION       trace.dat version trace-cmd writes (default 7, zstd)
#   -s, -l BLOCKS    512-byte blocks the dd workload copies (default 120000
#                    and 480000: about 1 M and 4 M events)
#   -k               keep the recordings (their directory is printed)

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
: "${TDBIN:=$here/../tests/tracedat}"
sizes_options 120000 480000 "$@"

need_tracing trace-cmd:trace-cmd /usr/bin/time:time dd:coreutils "$IOREC"
for p in tdat-walk tdat-libtracecmd; do
	[ -x "$TDBIN/$p" ] || die "$TDBIN/$p not built (run make check, or make $TDBIN/$p)"
done
make_tmp recordings
borrow_toplevel

# the io profile's events that tracefs has (uprobes are iorec's own)
EV=()
while read -r e; do
	[ -d "$TRACEFS/events/${e%%:*}/${e#*:}" ] && EV+=(-e "$e")
done < <(profile_events)
[ ${#EV[@]} -gt 0 ] || die "no events listed by 'iorec --check -v'"

echo "recording (small: $SMALL blocks, large: $LARGE blocks, version $TCVER) in $T ..." >&2
tc_record "$T/small.dat" "$SMALL" "${EV[@]}"
tc_record "$T/large.dat" "$LARGE" "${EV[@]}"
# reading the files needs no tracing: the tests may have the top level
return_toplevel

events_of() {
	"$TDBIN/tdat-walk" "$1" | awk '$1 == "events" { print $2 }'
}

# (names shorter than report-bench.sh's, files of fewer events)
MEASURE_WIDTHS="28 9"
echo
echo "tracedat-bench: best of $ROUNDS runs (trace.dat version $TCVER)"
for size in small large; do
	f=$T/$size.dat
	ev=$(events_of "$f")
	echo "$size.dat: $(stat -c %s "$f") bytes, $ev events"
	measure "reader ($size)" "$ev" "$TDBIN/tdat-walk" -m "$f"
	measure "libtracecmd ($size)" "$ev" "$TDBIN/tdat-libtracecmd" -i "$f"
	measure "trace-cmd report ($size)" "$ev" trace-cmd report "$f"
	r=$(rate "$ev" "${WALL[reader ($size)]}")
	awk -v s="$size" -v r="$r" -v l="$(rate "$ev" "${WALL[libtracecmd ($size)]}")" \
	    -v t="$(rate "$ev" "${WALL[trace-cmd report ($size)]}")" 'BEGIN {
		printf "  ratios (%s): reader / trace-cmd report %.1fx, reader / libtracecmd %.1fx\n",
		       s, (t > 0 ? r / t : 0), (l > 0 ? r / l : 0) }'
done
echo
echo "peak RSS: reader ${RSS[reader (small)]} KB (small), ${RSS[reader (large)]} KB (large);" \
     "libtracecmd ${RSS[libtracecmd (small)]} KB, ${RSS[libtracecmd (large)]} KB;" \
     "trace-cmd report ${RSS[trace-cmd report (small)]} KB, ${RSS[trace-cmd report (large)]} KB"
