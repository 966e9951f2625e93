# tests/tracedat/td-lib.sh - helpers for the trace.dat tests that record
# with trace-cmd (sourced).
# shellcheck shell=bash
#
# They build on the accuracy tests' helpers (tests/accuracy/acc-lib.sh:
# the live tests' cleanup stack and asserts, the top-level buffer lock):
#
#   TD_BIN                   the test programs (iorec2dat, tdat-walk, tdat-libtracecmd)
#   tc_record OUT ARGS... -- CMD...
#                            'trace-cmd record -d --no-filter -o OUT ARGS CMD'
#                            on the top-level buffer, holding its lock, then
#                            tracing_on and buffer_size_kb put back
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

_TD_KB=
_TD_RESTORE_SET=
_td_restore() {
	restore_toplevel_tracing_on
	if [ -n "$_TD_KB" ] && [ "$(toplevel_kb)" != "$_TD_KB" ]; then
		echo "$_TD_KB" >"$TRACEFS/buffer_size_kb"
	fi
	return 0
}

# tc_record OUT [RECORD ARGS...] -- CMD...: trace-cmd exits 1 after writing
# a complete file on this kernel (it cannot open set_ftrace_filter), so
# its status is not trusted; the file is checked by reading it.
tc_record() {
	local out=$1 rc=0 args=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		args+=("$1")
		shift
	done
	[ "${1:-}" = -- ] && shift
	toplevel_lock
	_TD_KB=$(toplevel_kb) || _TD_KB=
	if [ -z "$_TD_RESTORE_SET" ]; then
		on_exit "_td_restore"
		_TD_RESTORE_SET=1
	fi
	# trace-cmd reads every event directory the kernel has; one that
	# another program removes meanwhile (the live tests' iorec uprobe
	# groups) makes it stop without a file: then it records again
	for try in 1 2 3; do
		rm -f "$out"
		rc=0
		(cd "$T" && trace-cmd record -q -d --no-filter -o "$out" "${args[@]}" "$@") \
			>"$out.log" 2>&1 || rc=$?
		_td_restore
		[ -s "$out" ] && break
		log "trace-cmd record wrote no $(basename "$out") (try $try, exit $rc): $(tail -n 1 "$out.log")"
	done
	flock -u 9
	_TOPLEVEL_HELD=
	[ -s "$out" ] || fail "trace-cmd record wrote no $out (exit $rc): $(tail -n 3 "$out.log")"
}

# same_as_libtracecmd WALK LTC WHAT
same_as_libtracecmd() {
	diff <(awk '$1 == "cpu" && $6 > 0 { print $2, $6, $14, $16, $18 }' "$1") \
	     <(awk '$1 == "cpu" && $4 > 0 { print $2, $4, $6, $8, $10 }' "$2") >"$1.d" ||
		fail "$3: the reader and libtracecmd differ (cpu events lost lost_events hash; reader <, libtracecmd >): $(head -n 6 "$1.d")"
	[ "$(awk '$1 == "events" { print $2 }' "$1")" = "$(awk '$1 == "events" { print $2 }' "$2")" ] ||
		fail "$3: total events differ"
}
