#!/usr/bin/env bash
# test-view-options.sh - every view command takes exactly the options its
# --help lists, of --json, --top, --rows and --no-hist: a listed one runs
# (exit 0), an unlisted one is a usage error naming it (exit 2), and a
# bad count is a usage error naming the range.
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
IOREPORT=${IOREPORT:-$top_srcdir/ioreport}
S=$top_srcdir/samples/story001-barrier.iorec
[ -x "$IOREPORT" ] || { echo "SKIP: $IOREPORT not built"; exit 77; }
[ -f "$S" ] || { echo "SKIP: sample $S missing"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/test-view-options.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0
checked=0

arg_of() { case $1 in --top|--rows) echo 3 ;; esac; }

for c in report summary devices slow snoop processes files wa fsync dirty diff; do
	help=$("$IOREPORT" "$c" --help) || { echo "FAIL: $c --help"; fail=1; continue; }
	files=("$S")
	[ "$c" = diff ] && files=("$S" "$S")
	for o in --json --top --rows --no-hist; do
		a=$(arg_of "$o")
		rc=0
		"$IOREPORT" "$c" "$o" ${a:+"$a"} "${files[@]}" >"$T/out" 2>"$T/err" || rc=$?
		if grep -qe "$o" <<<"$help"; then
			[ "$rc" = 0 ] || { echo "FAIL: $c $o: exit $rc: $(head -1 "$T/err")"; fail=1; }
		else
			[ "$rc" = 2 ] && grep -q "$c has no option $o" "$T/err" ||
				{ echo "FAIL: $c $o (not in its --help): exit $rc: $(head -1 "$T/err")"; fail=1; }
		fi
		checked=$((checked + 1))
	done
	if grep -qe --top <<<"$help"; then
		rc=0
		"$IOREPORT" "$c" --top x "${files[@]}" >/dev/null 2>"$T/err" || rc=$?
		[ "$rc" = 2 ] && grep -q -- "--top wants a number" "$T/err" ||
			{ echo "FAIL: $c --top x: exit $rc: $(head -1 "$T/err")"; fail=1; }
	fi
done
echo "checked $checked view/option pairs"
exit $fail
