#!/usr/bin/env bash
# test-manpages.sh - every long option that `iorec --help` and
# `ioreport --help` print appears in the program's man page, and every
# ioreport subcommand has a section there.
set -u
fail=0
check() {	# PROGRAM MANPAGE
	local prog=$1 man=$2 opts o text
	[ -x "$prog" ] || { echo "SKIP: $prog not built"; exit 77; }
	# man source with groff escapes for '-' undone
	text=$(sed 's/\\-/-/g; s/\\f[BIRP]//g' "$man")
	opts=$("$prog" --help 2>&1 | grep -oE -- '--[a-z][a-z0-9-]+' | sort -u)
	[ -n "$opts" ] || { echo "FAIL: $prog --help lists no options"; fail=1; }
	for o in $opts; do
		if ! grep -qF -- "$o" <<<"$text"; then
			echo "FAIL: $prog option $o is not in $man"
			fail=1
		fi
	done
	echo "checked $(wc -w <<<"$opts") options of $(basename "$prog") against $(basename "$man")"
}
check "$IOREC" "$top_srcdir/docs/iorec.1"
check "$IOREPORT" "$top_srcdir/docs/ioreport.1"
# subcommands listed in ioreport's usage
for c in $("$IOREPORT" --help 2>&1 | sed -n 's/^   *\([a-z][a-z-]*\)  .*/\1/p'); do
	if ! sed 's/\\-/-/g; s/\\f[BIRP]//g' "$top_srcdir/docs/ioreport.1" | grep -qw -- "$c"; then
		echo "FAIL: ioreport subcommand $c is not in docs/ioreport.1"
		fail=1
	fi
done
exit $fail
