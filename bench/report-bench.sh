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
#                    (ioreport convert -V 6: trace-cmd reads it back), and
#                    on the large trace.dat through libtracecmd
#                    (IOREPORT_TRACEDAT=libtracecmd)
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
#                    zstd-compressed: libtracecmd reads it into memory, for
#                    both readers; 6 is uncompressed, but trace-cmd 3.1.6
#                    writes v6 files here that it cannot read back)
#   -s, -l BLOCKS    512-byte blocks the dd workload copies (default
#                    150000 and 1500000: about 1 M and 9 M events)
#   -k               keep the recordings (their directory is printed)

set -euo pipefail
export LC_ALL=C

ROUNDS=3
SMALL=150000
LARGE=1500000
KEEP=0
TCVER=7

usage() {
	sed -n 's/^# usage: //p; s/^#  \{29,\}/  /p; s/^#   -/  -/p' "$0" >&2
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
: "${IOREPORT:=$here/../ioreport}"
TRACEFS=/sys/kernel/tracing

die() { echo "report-bench: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "needs root to trace (run it with sudo)"
for c in trace-cmd:trace-cmd /usr/bin/time:time dd:coreutils; do
	command -v "${c%%:*}" >/dev/null 2>&1 ||
		die "missing ${c%%:*}: apt-get install ${c#*:}"
done
[ -x "$IOREC" ] && [ -x "$IOREPORT" ] ||
	die "$IOREC or $IOREPORT not built (run make)"
if [ ! -e "$TRACEFS/tracing_on" ]; then
	mount -t tracefs nodev "$TRACEFS" ||
		die "cannot mount tracefs at $TRACEFS"
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/report-bench.XXXXXX")
TRACING_ON0=$(cat "$TRACEFS/tracing_on")
BUFKB0=$(cat "$TRACEFS/buffer_size_kb")
# the top-level buffer is shared with the tests' trace-cmd and blk tracer
# runs: hold their lock while this script uses it
exec 9>/run/iorec-test-toplevel.lock
flock -w 600 9 || die "another run holds /run/iorec-test-toplevel.lock"
REC_PID=
cleanup() {
	if [ -n "$REC_PID" ] && kill -0 "$REC_PID" 2>/dev/null; then
		kill -INT "$REC_PID" 2>/dev/null || true
		wait "$REC_PID" 2>/dev/null || true
	fi
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

# The workload: BLOCKS 512-byte read+write pairs, then 24 MB of direct
# 64 KiB writes and a sync (block requests with queue and device time).
workload() {
	cat > "$T/work.sh" <<EOF
dd if=/dev/zero of=/dev/null bs=512 count=$1 2>/dev/null
dd if=/dev/zero of=$T/blk bs=64k count=384 oflag=direct conv=fsync 2>/dev/null
rm -f $T/blk
sync
EOF
	echo "$T/work.sh"
}

# events of a recording, from ioreport info
events_of() {
	"$IOREPORT" info "$1" | sed -n 's/^events: .*, \([0-9]*\) events.*/\1/p'
}

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
# trace-cmd record -d exits 1 after writing a complete file here, and
# leaves tracing_on at 0: put back (the lock is held)
for size in small large; do
	blocks=$SMALL
	[ "$size" = large ] && blocks=$LARGE
	(cd "$T" && trace-cmd record -q -d --no-filter -b 16384 \
		--file-version "$TCVER" -o "$T/$size.dat" \
		"${TC_EV[@]}" sh "$(workload "$blocks")" >"$T/tc.log" 2>&1) || true
	echo "$TRACING_ON0" > "$TRACEFS/tracing_on"
	[ -s "$T/$size.dat" ] || die "trace-cmd record wrote no file (see $T/tc.log)"
done

# the same large recording as a version 6 trace.dat (uncompressed), which
# trace-cmd 3.1.6 reads back (it cannot read the v6 files it writes here)
"$IOREPORT" convert --to trace.dat -V 6 -o "$T/large6.dat" "$T/large.iorec" 2>"$T/conv.log" ||
	die "ioreport convert -V 6 failed: $(tail -n 3 "$T/conv.log")"

EV_SMALL=$(events_of "$T/small.iorec")
EV_LARGE=$(events_of "$T/large.iorec")
EV_DAT=$(events_of "$T/large.dat")
EV_SDAT=$(events_of "$T/small.dat")
EV_DAT6=$(events_of "$T/large6.dat")
echo "events: small.iorec $EV_SMALL, large.iorec $EV_LARGE, small.dat $EV_SDAT, large.dat $EV_DAT" >&2

# ---------------------------------------------------------------- measure

# measure NAME EVENTS CMD...: best wall, largest RSS of ROUNDS runs
declare -A WALL RSS
measure() {
	local name=$1 ev=$2 i w r best= rss=0
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
		printf "  %-34s %10d events %8.3f s %12.0f events/s %8d KB\n",
		       n, e, w, (w > 0 ? e / w : 0), r }'
}

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
measure "ioreport report (large.dat, ltc)" "$EV_DAT" env IOREPORT_TRACEDAT=libtracecmd "$IOREPORT" report "$T/large.dat"
measure "ioreport report (large.iorec)" "$EV_LARGE" "$IOREPORT" report "$T/large.iorec"
measure "ioreport report (small.iorec)" "$EV_SMALL" "$IOREPORT" report "$T/small.iorec"
measure "ioreport slow (large.iorec)" "$EV_LARGE" "$IOREPORT" slow "$T/large.iorec"
measure "ioreport devices (large.iorec)" "$EV_LARGE" "$IOREPORT" devices "$T/large.iorec"

rate() { awk -v e="$1" -v w="$2" 'BEGIN { print (w > 0 ? e / w : 0) }'; }
TC=$(rate "$EV_DAT" "${WALL[trace-cmd report (large.dat)]}")
TCS=$(rate "$EV_SDAT" "${WALL[trace-cmd report (small.dat)]}")
TC6=$(rate "$EV_DAT6" "${WALL[trace-cmd report (large6.dat)]}")
echo
echo "ratios to trace-cmd report (events/s over events/s; a trace.dat against"
echo "trace-cmd report on the same file, an .iorec against large.dat):"
for n in "ioreport report (small.dat)" "ioreport report (large.dat)" \
	 "ioreport report (large6.dat)" \
	 "ioreport report (large.dat, ltc)" "ioreport report (large.iorec)" \
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
echo "peak RSS of ioreport report: ${RSS[ioreport report (small.dat)]} KB at $EV_SDAT events, ${RSS[ioreport report (large.dat)]} KB at $EV_DAT events (trace.dat; libtracecmd: ${RSS[ioreport report (large.dat, ltc)]} KB)"
echo "peak RSS of ioreport report: ${RSS[ioreport report (large6.dat)]} KB at $EV_DAT6 events (the large .iorec converted to a version 6 trace.dat)"
echo "peak RSS of ioreport info (the trace.dat input alone, every event read): ${RSS[ioreport info (small.dat)]} KB at $EV_SDAT events, ${RSS[ioreport info (large.dat)]} KB at $EV_DAT events"
echo "peak RSS of trace-cmd report: ${RSS[trace-cmd report (small.dat)]} KB, ${RSS[trace-cmd report (large.dat)]} KB"
