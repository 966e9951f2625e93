#!/usr/bin/env bash
# test-completion.sh - the bash completions of docs/completion/ offer every
# option `iorec --help` and `ioreport COMMAND --help` print, every command
# of `ioreport --help`, the values of --profile, the command after --, and
# recordings as files.
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
IOREC=${IOREC:-$top_srcdir/iorec}
IOREPORT=${IOREPORT:-$top_srcdir/ioreport}
[ -x "$IOREC" ] || { echo "SKIP: $IOREC not built"; exit 77; }
[ -x "$IOREPORT" ] || { echo "SKIP: $IOREPORT not built"; exit 77; }
fail=0
shopt -s extglob

# shellcheck source=/dev/null
. "$top_srcdir/docs/completion/iorec"
# shellcheck source=/dev/null
. "$top_srcdir/docs/completion/ioreport"

complete_words() {	# FUNCTION WORD... (the last word is the one completed)
	local f=$1; shift
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMPREPLY=()
	"$f"
	printf '%s\n' "${COMPREPLY[@]}" | sort -u
}
expect() {	# WHAT EXPECTED-WORDS GOT-WORDS: every expected word is offered
	local w
	for w in $2; do
		grep -qxF -- "$w" <<<"$3" || { echo "FAIL: $1: $w not offered"; fail=1; }
	done
}

# iorec: the long options of --help (the same list test-manpages.sh checks)
want=$("$IOREC" --help 2>&1 | grep -oE -- '--[a-z][a-z0-9-]+' | sort -u)
[ "$(wc -w <<<"$want")" -ge 15 ] || { echo "FAIL: iorec --help lists few options"; fail=1; }
got=$(complete_words _iorec "$IOREC" --)
expect "iorec --" "$want" "$got"
got=$(complete_words _iorec "$IOREC" -)
expect "iorec -" "-o -d -q -c" "$got"
got=$(complete_words _iorec "$IOREC" --prof)
[ "$got" = --profile ] || { echo "FAIL: iorec --prof completes to '$got'"; fail=1; }
got=$(complete_words _iorec "$IOREC" -p io)
expect "iorec -p" "io iowait" "$got"
got=$(complete_words _iorec "$IOREC" -- bas)
expect "iorec -- COMMAND" "bash" "$got"

# ioreport: the commands of --help
cmds=$("$IOREPORT" --help 2>&1 | sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p' | sort -u)
[ "$(wc -w <<<"$cmds")" -ge 10 ] || { echo "FAIL: ioreport --help lists few commands"; fail=1; }
got=$(complete_words _ioreport "$IOREPORT" "")
expect "ioreport COMMAND" "$cmds" "$got"
got=$(complete_words _ioreport "$IOREPORT" di)
expect "ioreport di" "diff dirty" "$got"
# each command's options
nopts=0
for c in $cmds; do
	want=$("$IOREPORT" "$c" --help 2>&1 | grep -E '^[[:space:]]+-' |
		grep -oE -- '--[a-z][a-z0-9-]+' | sort -u)
	got=$(complete_words _ioreport "$IOREPORT" "$c" --)
	expect "ioreport $c --" "$want" "$got"
	nopts=$((nopts + $(wc -w <<<"$want")))
done
# recordings as files, from the samples
cd "$top_srcdir" || exit 1
got=$(complete_words _ioreport "$IOREPORT" devices samples/story001-)
expect "ioreport devices FILE" "samples/story001-barrier.iorec samples/story001-nobarrier.iorec" "$got"
got=$(complete_words _ioreport "$IOREPORT" samples/trace)
expect "ioreport FILE" "samples/tracecmd.dat" "$got"

echo "checked $(wc -w <<<"$cmds") ioreport commands and $nopts of their options"
exit $fail
