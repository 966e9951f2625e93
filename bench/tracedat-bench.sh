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

set -euo pipefail
export LC_ALL=C

ROUNDS=3
SMALL=120000
LARGE=480000
KEEP=0
TCVER=7

usage() {
	sed -n 's/^# usage: //p; s/^#  \{31,\}/  /p; s/^#   -/  -/p' "$0" >&2
	exit 2
}
while getopts "n:s:l:V:kh" opt; do
	case $opt in
	n) ROUNDS=$OPTARG ;;
	s) SMALL=$OPTARG ;;
	l) LARGE=$OPTARG ;;
	V) TCVER=$OPTARG ;;
	k) KEEP=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 0 ] || usage

here=$(cd "$(dirname "$0")" && pwd)
: "${IOREC:=$here/../iorec}"
: "${TDBIN:=$here/../tests/tracedat}"
TRACEFS=/sys/kernel/tracing

die() { echo "tracedat-bench: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "needs root to trace (run it with sudo)"
for c in trace-cmd:trace-cmd /usr/bin/time:time dd:coreutils; do
	command -v "${c%%:*}" >/dev/null 2>&1 ||
		die "missing ${c%%:*}: apt-get install ${c#*:}"
done
[ -x "$IOREC" ] || die "$IOREC not built (run make)"
for p in tdat-walk tdat-libtracecmd; do
	[ -x "$TDBIN/$p" ] || die "$TDBIN/$p not built (run make check, or make $TDBIN/$p)"
done
if [ ! -e "$TRACEFS/tracing_on" ]; then
	mount -t tracefs nodev "$TRACEFS" || die "cannot mount tracefs at $TRACEFS"
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/tracedat-bench.XXXXXX")
TRACING_ON0=$(cat "$TRACEFS/tracing_on")
BUFKB0=$(cat "$TRACEFS/buffer_size_kb")
# the top-level buffer is shared with the tests' trace-cmd and blk tracer
# runs: hold their lock while this script uses it
exec 9>/run/iorec-test-toplevel.lock
flock -w 600 9 || die "another run holds /run/iorec-test-toplevel.lock"
cleanup() {
	echo "$TRACING_ON0" > "$TRACEFS/tracing_on" 2>/dev/null || true
	# trace-cmd -b leaves the top-level buffer at its size: put it back
	echo "${BUFKB0%% *}" > "$TRACEFS/buffer_size_kb" 2>/dev/null || true
	if [ "$KEEP" = 1 ]; then
		echo "recordings kept in $T"
	else
		rm -rf "$T"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# the workload of report-bench.sh
workload() {
	cat > "$T/work.sh" <<EOF
dd if=/dev/zero of=/dev/null bs=512 count=$1 2>/dev/null
dd if=/dev/zero of=$T/blk bs=64k count=384 oflag=direct conv=fsync 2>/dev/null
rm -f $T/blk
sync
EOF
	echo "$T/work.sh"
}

# the io profile's events that tracefs has (uprobes are iorec's own)
EV=()
while read -r e; do
	[ -d "$TRACEFS/events/${e%%:*}/${e#*:}" ] && EV+=(-e "$e")
done < <("$IOREC" --check -v 2>&1 |
	 awk '$1 == "ok" && $2 ~ /^[a-z_0-9]+:[a-z_0-9]+$/ { print $2 }')
[ ${#EV[@]} -gt 0 ] || die "no events listed by 'iorec --check -v'"

record() {		# OUT BLOCKS
	# trace-cmd record -d exits 1 after writing a complete file here
	(cd "$T" && trace-cmd record -q -d --no-filter -b 16384 \
		--file-version "$TCVER" -o "$1" "${EV[@]}" sh "$(workload "$2")" \
		>"$1.log" 2>&1) || true
	echo "$TRACING_ON0" > "$TRACEFS/tracing_on"
	[ -s "$1" ] || die "trace-cmd record wrote no file (see $1.log)"
}

echo "recording (small: $SMALL blocks, large: $LARGE blocks, version $TCVER) in $T ..." >&2
record "$T/small.dat" "$SMALL"
record "$T/large.dat" "$LARGE"
flock -u 9

events_of() {
	"$TDBIN/tdat-walk" "$1" | awk '$1 == "events" { print $2 }'
}

# measure NAME EVENTS CMD...: best wall, largest RSS of ROUNDS runs
declare -A WALL RSS
measure() {
	local name=$1 ev=$2 i w r best='' rss=0
	shift 2
	for ((i = 0; i < ROUNDS; i++)); do
		/usr/bin/time -f "%e %M" -o "$T/time" "$@" >/dev/null 2>"$T/err" ||
			die "$name failed: $(tail -n 3 "$T/err")"
		read -r w r < "$T/time"
		if [ -z "$best" ] || awk "BEGIN { exit !($w < $best) }"; then
			best=$w
		fi
		[ "$r" -gt "$rss" ] && rss=$r
	done
	WALL[$name]=$best
	RSS[$name]=$rss
	awk -v n="$name" -v e="$ev" -v w="$best" -v r="$rss" 'BEGIN {
		printf "  %-28s %9d events %8.3f s %12.0f events/s %8d KB\n",
		       n, e, w, (w > 0 ? e / w : 0), r }'
}

rate() { awk -v e="$1" -v w="$2" 'BEGIN { print (w > 0 ? e / w : 0) }'; }

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
