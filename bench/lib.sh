# bench/lib.sh - what the benchmark scripts share (sourced, not run).
# shellcheck shell=bash disable=SC2034
#
# Each script sets here (its own folder) and sources this file first: the
# options and usage read from its header, the preconditions of tracing,
# the lock of the top-level tracefs buffer that the tests share, the
# dd workload, trace-cmd record of it, and the best-of-ROUNDS timing of a
# command.  Nothing here runs at source time but the settings below.
#
# Variables set here: BENCH (the script's name), IOREC, IOREPORT (unless
# set), TRACEFS, KEEP (0; -k sets it where the script takes -k).

set -euo pipefail
export LC_ALL=C

BENCH=$(basename "$0" .sh)
: "${IOREC:=$here/../iorec}"
: "${IOREPORT:=$here/../ioreport}"
TRACEFS=/sys/kernel/tracing
KEEP=0

die() { echo "$BENCH: $*" >&2; exit 1; }

# usage: the "# usage:" line of the script's header, the lines that go on
# with its operands ("#   ...   [" aligned under them) and the "#   -X"
# lines that say what each option does; exit 2.
usage() {
	sed -n 's/^# usage: //p; s/^# \{2,\}\[/  [/p; s/^#   -/  -/p' "$0" >&2
	exit 2
}

# bench_options SPEC... -- ARG...: getopts over the script's ARGs, each
# SPEC being X:VAR (-X takes a value, stored in VAR) or X=VAR (-X alone
# sets VAR to 1); -h or an unknown option prints the usage.  The operands
# are left in ARGS.
bench_options() {
	local specs=() letters='' s opt OPTIND=1
	while [ "$1" != -- ]; do
		specs+=("$1")
		shift
	done
	shift
	for s in "${specs[@]}"; do
		case $s in
		?:*) letters+="${s:0:1}:" ;;
		*) letters+="${s:0:1}" ;;
		esac
	done
	while getopts "${letters}h" opt; do
		for s in "${specs[@]}"; do
			[ "${s:0:1}" = "$opt" ] || continue
			case $s in
			?:*) printf -v "${s:2}" '%s' "$OPTARG" ;;
			*) printf -v "${s:2}" 1 ;;
			esac
			continue 2
		done
		usage
	done
	shift $((OPTIND - 1))
	ARGS=("$@")
}

# sizes_options SMALL LARGE ARG...: the options of the scripts that time
# readers of a small and a large recording of the workload, and their
# defaults (SMALL and LARGE blocks); they take no operands.
sizes_options() {
	ROUNDS=3 SMALL=$1 LARGE=$2 TCVER=7
	shift 2
	bench_options n:ROUNDS s:SMALL l:LARGE V:TCVER k=KEEP -- "$@"
	[ ${#ARGS[@]} = 0 ] || usage
}

# need WHAT...: die naming what is missing of WHAT, each a CMD:PACKAGE
# (a command, from that package) or a program of this build.
need() {
	local c missing=()
	for c in "$@"; do
		case $c in
		*:*) command -v "${c%%:*}" >/dev/null 2>&1 || missing+=("${c#*:}") ;;
		*) [ -x "$c" ] || die "$c not built (run make)" ;;
		esac
	done
	[ ${#missing[@]} = 0 ] || die "missing tools: apt-get install ${missing[*]}"
}

# need_tracing WHAT...: root, need WHAT, and tracefs (mounted when it is
# not: it is left mounted).
need_tracing() {
	[ "$(id -u)" = 0 ] || die "needs root to trace (run it with sudo)"
	need "$@"
	if [ ! -e "$TRACEFS/tracing_on" ]; then
		mount -t tracefs nodev "$TRACEFS" || die "cannot mount tracefs at $TRACEFS"
	fi
}

# borrow_toplevel: hold, for the rest of the run, the lock of the
# top-level buffer, which the tests' trace-cmd and blk tracer runs share,
# then note its tracing_on and buffer size for restore_toplevel.
borrow_toplevel() {
	exec 9>/run/iorec-test-toplevel.lock
	flock -w 600 9 || die "another run holds /run/iorec-test-toplevel.lock"
	TRACING_ON0=$(cat "$TRACEFS/tracing_on")
	BUFKB0=$(cat "$TRACEFS/buffer_size_kb")
}

# restore_toplevel: the top level's tracing_on and buffer size as
# borrow_toplevel found them.
restore_toplevel() {
	echo "$TRACING_ON0" > "$TRACEFS/tracing_on" 2>/dev/null || true
	# trace-cmd -b leaves the top-level buffer at its size: put it back
	echo "${BUFKB0%% *}" > "$TRACEFS/buffer_size_kb" 2>/dev/null || true
}

# return_toplevel: restore_toplevel, and let go of the lock (the exit then
# leaves the top level alone: another run may hold it).
return_toplevel() {
	restore_toplevel
	TRACING_ON0=
	flock -u 9
}

# make_tmp WHAT: T, a new temporary directory that the exit removes, or
# keeps and names with -k (WHAT says what it holds); the exit also puts
# back the top level when borrow_toplevel borrowed it.
make_tmp() {
	T=$(mktemp -d "${TMPDIR:-/tmp}/$BENCH.XXXXXX")
	KEPT=$1
	trap bench_exit EXIT
	trap 'exit 130' INT TERM HUP
}
bench_exit() {
	[ -z "${TRACING_ON0:-}" ] || restore_toplevel
	if [ "$KEEP" = 1 ]; then
		echo "$KEPT kept in $T"
	else
		rm -rf "$T"
	fi
}

# profile_events: the events iorec's io profile enables, as 'iorec --check
# -v' lists them ("ok SYSTEM:EVENT" lines); none when it fails.
profile_events() {
	"$IOREC" --check -v 2>&1 | awk '$1 == "ok" && $2 ~ /^[a-z0-9_]+:[a-z0-9_]+$/ { print $2 }'
	return 0
}

# info_events FILE: the events of a recording (.iorec or trace.dat), from
# ioreport info.
info_events() {
	"$IOREPORT" info "$1" | sed -n 's/^events: .*, \([0-9]*\) events.*/\1/p'
}

# workload BLOCKS [BS COUNT]: writes $T/work.sh and prints its name: BLOCKS
# 512-byte dd read+write pairs (syscalls), then COUNT direct writes of BS
# (default 384 of 64k: 24 MB) and a sync (block requests with queue and
# device time).
workload() {
	cat > "$T/work.sh" <<EOF
dd if=/dev/zero of=/dev/null bs=512 count=$1 2>/dev/null
dd if=/dev/zero of=$T/blk bs=${2:-64k} count=${3:-384} oflag=direct conv=fsync 2>/dev/null
rm -f $T/blk
sync
EOF
	echo "$T/work.sh"
}

# tc_record OUT BLOCKS -e EVENT...: the workload of BLOCKS under trace-cmd
# record (file version TCVER) into OUT, its output in OUT.log.  Needs
# borrow_toplevel.
tc_record() {
	local out=$1 blocks=$2
	shift 2
	# trace-cmd record -d exits 1 after writing a complete file here, and
	# leaves tracing_on at 0: put it back (the lock is held)
	(cd "$T" && trace-cmd record -q -d --no-filter -b 16384 \
		--file-version "$TCVER" -o "$out" "$@" sh "$(workload "$blocks")" \
		>"$out.log" 2>&1) || true
	echo "$TRACING_ON0" > "$TRACEFS/tracing_on"
	[ -s "$out" ] || die "trace-cmd record wrote no file (see $out.log)"
}

# time_best NAME CMD...: run CMD ROUNDS times under /usr/bin/time; its best
# wall seconds to WALL[NAME], its largest peak RSS (KB) to RSS[NAME].
declare -A WALL RSS
time_best() {
	local name=$1 i w r best='' rss=0
	shift
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
}

# measure NAME EVENTS CMD...: time_best, and a line of NAME, EVENTS, best
# wall, events/s and peak RSS, in columns of MEASURE_WIDTHS ("NAME EVENTS").
MEASURE_WIDTHS="34 10"
measure() {
	local name=$1 ev=$2
	shift 2
	time_best "$name" "$@"
	awk -v n="$name" -v e="$ev" -v w="${WALL[$name]}" -v r="${RSS[$name]}" \
	    -v cols="$MEASURE_WIDTHS" 'BEGIN {
		split(cols, c, " ")
		printf "  %-" c[1] "s %" c[2] "d events %8.3f s %12.0f events/s %8d KB\n",
		       n, e, w, (w > 0 ? e / w : 0), r }'
}

# rate EVENTS WALL: events a second (0 for no time).
rate() { awk -v e="$1" -v w="$2" 'BEGIN { printf "%.0f\n", (w > 0 ? e / w : 0) }'; }
