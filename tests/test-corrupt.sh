#!/usr/bin/env bash
# test-corrupt.sh - a corpus of damaged recordings, derived from a real
# sample by tests/corrupt/make-corrupt.py (bad magic, unknown version, cuts,
# flipped bytes, lying lengths, sequence gaps, bad zstd frames, ...), is
# rejected or read up to the damage by `ioreport info` and `ioreport dump`
# with the named error and the offset where reading stopped, never a crash.
set -u
src=${CORRUPT_SOURCE:-$top_srcdir/samples/rawsyscalls.iorec}
[ -f "$src" ] || { echo "SKIP: no sample $src to damage"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 "$top_srcdir/tests/corrupt/make-corrupt.py" "$src" "$dir" || exit 1
fail=0 n=0
while IFS=$'\t' read -r file status msg offset; do
	case $file in '#'*|'') continue ;; esac
	n=$((n + 1))
	out=$("$IOREPORT" info "$dir/$file" 2>&1); rc=$?
	if [ "$rc" -gt 1 ]; then
		echo "FAIL: $file: ioreport info exited $rc (crash?)"; echo "$out" | tail -5; fail=1; continue
	fi
	if [ "$rc" != "$status" ]; then
		echo "FAIL: $file: exit status $rc, expected $status"; echo "$out" | tail -5; fail=1
	fi
	if ! grep -qF -- "$msg" <<<"$out"; then
		echo "FAIL: $file: message '$msg' not in output:"; echo "$out" | tail -5; fail=1
	fi
	if [ -n "$offset" ] && ! grep -qE -- "offset $offset([^0-9]|$)" <<<"$out"; then
		echo "FAIL: $file: offset $offset not named:"; echo "$out" | grep -i offset; fail=1
	fi
	# dump reads the same file up to the damage, without crashing
	"$IOREPORT" dump "$dir/$file" >/dev/null 2>&1; rc=$?
	if [ "$rc" -gt 1 ]; then
		echo "FAIL: $file: ioreport dump exited $rc"; fail=1
	fi
done < "$dir/EXPECT"
[ $n -gt 10 ] || { echo "FAIL: only $n corrupt files"; fail=1; }
# the reader alone, on every corrupt file, every sample, and their cuts
shopt -s nullglob
"$top_builddir/tests/fuzz/fuzz-reader" --cuts "$dir"/*.iorec "$top_srcdir"/samples/*.iorec >/dev/null || fail=1
echo "checked $n corrupt files"
exit $fail
