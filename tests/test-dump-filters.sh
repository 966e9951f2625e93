#!/usr/bin/env bash
# test-dump-filters.sh - the view filters of `ioreport dump` on a sample
# against the unfiltered dump: --comm, -p, -d MAJ:MIN and --since/--until
# each keep exactly the event lines of the whole dump that they name
# (their comm-pid, their dev field, their time), and combine.
set -euo pipefail
export LC_ALL=C
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
IOREPORT=${IOREPORT:-$top_builddir/ioreport}
S=$top_srcdir/samples/story001-barrier.iorec
fail() { echo "test-dump-filters: FAIL: $*" >&2; exit 1; }
[ -x "$IOREPORT" ] || { echo "SKIP: $IOREPORT not built"; exit 77; }
[ -f "$S" ] || { echo "SKIP: sample $S missing"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/test-dump-filters.XXXXXX")
trap 'rm -rf "$T"' EXIT

"$IOREPORT" dump --raw "$S" | grep -v '^CPU [0-9]*: \[LOST' >"$T/all" || fail "dump failed"
# the same lines, picked from the whole dump
pick() {	# FILTER ARGS... -> lines of the filtered dump, then the check
	local name=$1 want=$2
	shift 2
	"$IOREPORT" dump --raw "$@" "$S" | grep -v '^CPU [0-9]*: \[LOST' >"$T/got" ||
		fail "dump $* failed"
	eval "$want" <"$T/all" >"$T/want"
	[ -s "$T/want" ] || fail "$name: the whole dump has no such event: no test"
	cmp -s "$T/want" "$T/got" ||
		fail "$name: $(wc -l <"$T/got") lines, the whole dump has $(wc -l <"$T/want") of them"
	echo "test-dump-filters: ok: $name: $(wc -l <"$T/got") of $(wc -l <"$T/all") events"
}
pick "--comm bcfg2-server" "awk '\$1 ~ /^bcfg2-server-[0-9]+\$/'" --comm bcfg2-server
pick "-p 16616" "awk '\$1 ~ /-16616\$/'" -p 16616
pick "-d 7:0" "grep -E '(^| )dev=(7340032|0x700000)( |\$)'" -d 7:0
first=$("$IOREPORT" info "$S" | sed -n 's/^ *first event: *//p')
pick "--since 0.5 --until 0.75" "awk -v a=$first '{ t = \$3; sub(/:\$/, \"\", t); if (t - a >= 0.5 && t - a < 0.75) print }'" --since 0.5 --until 0.75
pick "-p 16616 -d 7:0" "awk '\$1 ~ /-16616\$/' | grep -E '(^| )dev=(7340032|0x700000)( |\$)'" -p 16616 -d 7:0
echo "test-dump-filters: PASS"
