#!/usr/bin/env bash
# test-manpages.sh - every long option that `iorec --help` and
# `ioreport --help` print appears in the program's man page, every
# ioreport subcommand has a section there, and groff renders every page
# without a warning.
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
# every page renders without a warning (a line that begins with a dot
# is a request to groff: ".iorec files" is an undefined macro, and
# lintian warns of it)
if command -v groff >/dev/null 2>&1; then
	for man in "$top_srcdir"/docs/*.[15]; do
		w=$(LC_ALL=C groff -man -Tutf8 -ww -z "$man" 2>&1)
		if [ -n "$w" ]; then
			echo "FAIL: groff warns on $(basename "$man"): $w"
			fail=1
		fi
	done
fi
exit $fail
