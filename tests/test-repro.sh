#!/usr/bin/env bash
# test-repro.sh - every reproducer of tests/fuzz/repro/EXPECT (a defect
# found by fuzzing or crafted from a seed) is read by ioreport info,
# report, dump and dump --raw (and db, for .iorec files) with a clean exit (0 or 1),
# no signal, no sanitizer report, within 120 s and a 4 GiB address space
# (ulimit -v; not in the ASan build, whose shadow memory needs more), and
# info names the problem as EXPECT says.  A trace.dat is read by the
# formats/ reader, ioreport's only trace.dat input.
set -u
r=$top_srcdir/tests/fuzz/repro
[ -f "$r/EXPECT" ] || { echo "FAIL: no $r/EXPECT"; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
limit=4194304
if nm "$IOREPORT" 2>/dev/null | grep -q __asan_init; then
	limit=unlimited
fi
run() {		# OUT CMD...: exit status of ioreport CMD... (stdout+stderr in OUT)
	local out=$1; shift
	( ulimit -v $limit; timeout 120 "$IOREPORT" "$@" ) > "$out" 2>&1
}
fail=0 n=0
while IFS=$'\t' read -r file defect fix msg; do
	case $file in '#'*|'') continue ;; esac
	n=$((n + 1))
	f=$r/$file
	[ -f "$f" ] || { echo "FAIL: $file missing"; fail=1; continue; }
	cmds=(info report dump dump-raw)
	case $f in
	*.iorec) cmds+=(db) ;;
	esac
	for c in "${cmds[@]}"; do
		out=$dir/$c.out
		case $c in
		db) rm -f "$dir/db.sqlite"; run "$out" db -q "$dir/db.sqlite" "$f" ;;
		dump-raw) run "$out" dump --raw "$f" ;;
		*) run "$out" "$c" "$f" ;;
		esac
		rc=$?
		if [ $rc -gt 1 ]; then
			echo "FAIL: $file: ioreport $c exited $rc ($defect)"
			tail -3 "$out"; fail=1
		fi
		if grep -qE 'AddressSanitizer|LeakSanitizer|runtime error:' "$out"; then
			echo "FAIL: $file: ioreport $c: sanitizer report ($defect)"
			grep -m3 -E 'ERROR|SUMMARY|runtime error' "$out"; fail=1
		fi
		[ $c = info ] && cp "$out" "$dir/info.txt"
	done
	if [ "$msg" != - ] && ! grep -qF -- "$msg" "$dir/info.txt"; then
		echo "FAIL: $file: info does not say '$msg':"
		grep -E 'error|warning|damaged|replaced' "$dir/info.txt" | head -3
		fail=1
	fi
done < "$r/EXPECT"
[ $n -ge 25 ] || { echo "FAIL: only $n reproducers"; fail=1; }
echo "checked $n reproducers"
exit $fail
