# tests/tracedat/td-lib.sh - helpers for the trace.dat tests that record
# with trace-cmd (sourced).
# shellcheck shell=bash
#
# They build on the accuracy tests' helpers (tests/accuracy/acc-lib.sh:
# the live tests' cleanup stack and asserts, the top-level buffer lock,
# tc_record for trace-cmd record):
#
#   TD_BIN                   the test programs (iorec2dat, tdat-walk, tdat-libtracecmd)
#   same_as_libtracecmd WALK LTC WHAT
#                            fail unless tdat-walk's and tdat-libtracecmd's
#                            outputs agree per CPU (events, records with
#                            missed events, missed counts, record hash)

_td_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${top_srcdir:=$(cd "$_td_dir/../.." && pwd)}"
# shellcheck source-path=SCRIPTDIR source=../accuracy/acc-lib.sh
. "$top_srcdir/tests/accuracy/acc-lib.sh"

TD_BIN=$top_builddir/tests/tracedat
for _p in iorec2dat tdat-walk tdat-libtracecmd; do
	[ -x "$TD_BIN/$_p" ] || fail "$TD_BIN/$_p not built (run make check)"
done

# same_as_libtracecmd WALK LTC WHAT
same_as_libtracecmd() {
	diff <(awk '$1 == "cpu" && $6 > 0 { print $2, $6, $14, $16, $18 }' "$1") \
	     <(awk '$1 == "cpu" && $4 > 0 { print $2, $4, $6, $8, $10 }' "$2") >"$1.d" ||
		fail "$3: the reader and libtracecmd differ (cpu events lost lost_events hash; reader <, libtracecmd >): $(head -n 6 "$1.d")"
	[ "$(awk '$1 == "events" { print $2 }' "$1")" = "$(awk '$1 == "events" { print $2 }' "$2")" ] ||
		fail "$3: total events differ"
}
