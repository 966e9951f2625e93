#!/usr/bin/env bash
# test-usage-errors.sh - a mistyped option gets the same answer from every
# command of both programs: exit 2, nothing on standard output, and a
# first line "PROG: error: ..." naming the option as it was typed (a
# missing argument: "... wants an argument"; an unknown one: "unknown
# option '...'"), on one line that ends naming the --help to run, never
# getopt's own messages nor the whole help.  The options that take an
# argument are read from each command's --help, so a new one is checked
# without a change here.
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
IOREPORT=${IOREPORT:-$top_builddir/ioreport}
IOREC=${IOREC:-$top_builddir/iorec}
[ -x "$IOREPORT" ] || { echo "SKIP: $IOREPORT not built"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/test-usage-errors.XXXXXX")
trap 'rm -rf "$T"' EXIT
export LC_ALL=C
fail=0
checked=0
bad() { echo "FAIL: $*"; fail=1; }

# PROG ARGS... -- WANT: exit 2, no stdout, first stderr line "NAME: error:"
# holding WANT, no line of getopt's own
expect() {
	local prog=$1 name want rc=0
	shift
	name=$(basename "$prog")
	want=${*: -1}
	set -- "${@:1:$#-2}"
	"$prog" "$@" >"$T/out" 2>"$T/err" </dev/null || rc=$?
	checked=$((checked + 1))
	if [ "$rc" != 2 ] || [ -s "$T/out" ] ||
	   ! head -n 1 "$T/err" | grep -qF -- "$name: error: " ||
	   ! head -n 1 "$T/err" | grep -qF -- "$want" ||
	   [ "$(wc -l <"$T/err")" != 1 ] ||
	   ! grep -qF -- "--help' for the options)" "$T/err" ||
	   grep -qE 'unrecognized option|requires an argument|invalid option' "$T/err"; then
		bad "$name $*: exit $rc, stdout $(wc -c <"$T/out") bytes, stderr '$(head -n 2 "$T/err" | tr '\n' '|')' (wanted '$want')"
	fi
}

# the options of a --help text that take an argument: "-x" and "--long"
# of every line "  -x, --long ARG" or "      --long ARG" (not --long[=ARG])
arg_options() {
	sed -nE 's/^ +(-([A-Za-z]), )?--([a-z][a-z-]*) [A-Z][^ ]*( .*)?$/\2 \3/p' |
	while read -r a b; do
		if [ -n "$b" ]; then
			echo "-$a"
			echo "--$b"
		else
			echo "--$a"
		fi
	done
}

cmds=$("$IOREPORT" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z]*\) .*/\1/p')
[ "$(wc -w <<<"$cmds")" -ge 15 ] || bad "ioreport --help lists only: $cmds"
for c in $cmds; do
	help=$("$IOREPORT" "$c" --help 2>&1) || { bad "$c --help"; continue; }
	n=0
	for o in $(arg_options <<<"$help"); do
		expect "$IOREPORT" "$c" "$o" -- "$o"
		expect "$IOREPORT" "$c" "$o" -- "wants an argument"
		n=$((n + 1))
	done
	case $c in db|dump|html|redact|convert|slow|report)
		[ "$n" -gt 0 ] || bad "no option with an argument read from '$c --help'" ;;
	esac
	expect "$IOREPORT" "$c" --no-such-option x -- "unknown option '--no-such-option'"
	expect "$IOREPORT" "$c" --no-such-option=3 x -- "unknown option '--no-such-option'"
	expect "$IOREPORT" "$c" -Z x -- "unknown option '-Z'"
done

if [ -x "$IOREC" ]; then
	help=$("$IOREC" --help 2>&1)
	n=0
	for o in $(arg_options <<<"$help"); do
		expect "$IOREC" "$o" -- "option '$o' wants an argument"
		n=$((n + 1))
	done
	[ "$n" -ge 8 ] || bad "only $n options with an argument read from 'iorec --help'"
	expect "$IOREC" --no-such-option -- "unknown option '--no-such-option'"
	expect "$IOREC" -qZ -- "unknown option '-Z'"
fi
echo "checked $checked mistyped command lines"
exit $fail
