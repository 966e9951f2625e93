#!/usr/bin/env bash
# test-fuzz-replay.sh - every fuzz target, built as a replay program (no
# libFuzzer), runs on its committed seed corpus and on every committed
# reproducer (tests/fuzz/repro/): no crash, no sanitizer report (in the
# ASan build), no hang; the reader also on every prefix of its inputs.
set -u
fz=$top_builddir/tests/fuzz
c=$top_srcdir/tests/fuzz/corpus
r=$top_srcdir/tests/fuzz/repro
fail=0
if nm "$fz/fuzz-reader" 2>/dev/null | grep -q LLVMFuzzerRunDriver; then
	echo "SKIP: a --enable-fuzzing build: tests/fuzz/smoke.sh runs the libFuzzer targets"
	exit 77
fi
run() {		# TARGET ARGS... (paths that do not exist are left out)
	local t=$1 a args=(); shift
	for a; do [ "$a" = --cuts ] || [ -e "$a" ] && args+=("$a"); done
	set -- "${args[@]}"
	if [ ! -x "$fz/$t" ]; then
		echo "FAIL: $fz/$t not built"; fail=1; return
	fi
	local out rc
	out=$(timeout 600 "$fz/$t" "$@" 2>&1); rc=$?
	if [ $rc != 0 ] || grep -qE 'ERROR: AddressSanitizer|runtime error|LeakSanitizer' <<<"$out"; then
		echo "FAIL: $t exited $rc"; echo "$out" | tail -30; fail=1
	else
		tail -1 <<<"$out"
	fi
}
shopt -s nullglob
run fuzz-reader --cuts "$c/reader" "$c/iorec" "$top_srcdir"/samples/*.iorec $r/reader
run fuzz-iorec "$c/iorec" $r/iorec
run fuzz-db "$c/iorec" $r/iorec
run fuzz-formats "$c/formats" $r/formats
run fuzz-tracedat "$c/tracedat" $r/tracedat
exit $fail
