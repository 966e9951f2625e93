#!/usr/bin/env bash
# test-golden.sh - run every ioreport view (text and JSON) on every sample
# recording and compare with the expected outputs in tests/golden/: a
# folder per sample (SAMPLE/VIEW_OPTIONS) and diff/ (BEFORE.AFTER[.OPTIONS]).
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
# compare NAME OUTPUT: against $gold/NAME, or write it in update mode
compare() {
	local exp="$gold/$1" out=$2
	if [ "${GOLDEN_UPDATE:-0}" = 1 ]; then
		mkdir -p "$(dirname "$exp")"
		printf '%s\n' "$out" > "$exp"
		return
	fi
	n=$((n + 1))
	if [ ! -f "$exp" ]; then
		echo "FAIL: $exp missing (run make golden-update)"; fail=1; return
	fi
	if ! diff -u "$exp" - <<<"$out" > "$tmp"; then
		echo "FAIL: output differs from $exp:"
		head -40 "$tmp"
		fail=1
	fi
}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

# VIEWS: "COMMAND [OPTIONS]" or "COMMAND [OPTIONS] |N" (keep N lines)
while read -r line; do
	case $line in '#'*|'') continue ;; esac
	view=${line%%|*}; view=${view% }
	keep=; [ "$line" != "$view" ] && keep=${line##*|}
	for s in "${samples[@]}"; do
		# shellcheck disable=SC2086
		out=$("$IOREPORT" $view "$s" 2>&1); rc=$?
		[ -n "$keep" ] && out=$(head -n "$keep" <<<"$out")
		compare "$(basename "$s")/${view// /_}" "$out
exit $rc"
	done
done < "$gold/VIEWS"

# DIFFS: "BEFORE AFTER [OPTIONS]" pairs of samples for ioreport diff
while read -r before after opts; do
	case $before in '#'*|'') continue ;; esac
	[ -f "samples/$before" ] && [ -f "samples/$after" ] || continue
	# shellcheck disable=SC2086
	out=$("$IOREPORT" diff $opts "samples/$before" "samples/$after" 2>&1); rc=$?
	compare "diff/${before%.iorec}.${after%.iorec}${opts:+.${opts// /_}}" "$out
exit $rc"
done < "$gold/DIFFS"
[ "${GOLDEN_UPDATE:-0}" = 1 ] && { echo "golden files rewritten"; exit 0; }
echo "compared $n outputs"
exit $fail
