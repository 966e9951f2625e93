#!/usr/bin/env bash
# test-golden.sh - run every ioreport view (text and JSON) on every sample
# recording and compare with the expected outputs in tests/golden/.
#
# `make golden-update` (GOLDEN_UPDATE=1) rewrites the expected files after
# an intended change; review the diff before committing it.
set -u
cd "$top_srcdir" || exit 1
export LC_ALL=C TZ=UTC
gold=tests/golden
fail=0 n=0
shopt -s nullglob
samples=(samples/*.iorec samples/*.dat)
[ ${#samples[@]} -gt 0 ] || { echo "SKIP: no samples"; exit 77; }
while read -r view; do
	case $view in '#'*|'') continue ;; esac
	for s in "${samples[@]}"; do
		name=$(basename "$s")
		exp="$gold/$name.${view// /_}"
		# shellcheck disable=SC2086
		out=$("$IOREPORT" $view "$s" 2>&1); rc=$?
		out="$out
exit $rc"
		if [ "${GOLDEN_UPDATE:-0}" = 1 ]; then
			printf '%s\n' "$out" > "$exp"
			continue
		fi
		n=$((n + 1))
		if [ ! -f "$exp" ]; then
			echo "FAIL: $exp missing (run make golden-update)"; fail=1; continue
		fi
		if ! diff -u "$exp" - <<<"$out" > /tmp/golden.$$.diff; then
			echo "FAIL: ioreport $view $s differs from $exp:"
			head -40 /tmp/golden.$$.diff
			fail=1
		fi
		rm -f /tmp/golden.$$.diff
	done
done < "$gold/VIEWS"
[ "${GOLDEN_UPDATE:-0}" = 1 ] && { echo "golden files rewritten"; exit 0; }
echo "compared $n outputs"
exit $fail
