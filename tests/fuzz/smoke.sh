#!/usr/bin/env bash
# smoke.sh - build the fuzz targets with clang and libFuzzer (configure
# --enable-fuzzing) in a temporary directory and give each a short run
# (FUZZ_SMOKE_SECONDS, 120 by default: about 12 minutes in all with the
# build) from its committed seeds and reproducers.  Any crash, leak,
# timeout or out-of-memory fails it, and the input is kept in
# FUZZ_SMOKE_KEEP (default: build-fuzz-smoke/findings/ in the tree).
# Exits 77 (skip) when clang or libFuzzer is missing.
#
#   tests/fuzz/smoke.sh              # from the top of the tree
#   FUZZ_SMOKE_SECONDS=3600 tests/fuzz/smoke.sh fuzz-iorec   # one target, longer
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=${FUZZ_SMOKE_SECONDS:-120}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz-reader fuzz-iorec fuzz-tracedat fuzz-formats fuzz-db)
command -v clang >/dev/null || { echo "SKIP: no clang (apt-get install clang) for the fuzz smoke run"; exit 77; }
b=$top/build-fuzz-smoke
keep=${FUZZ_SMOKE_KEEP:-$b/findings}
rm -rf "$b"
mkdir -p "$b/src" "$keep"
# its own copy of the tree, as scripts/test.sh does for its builds
(cd "$top" && git ls-files -z --cached --others --exclude-standard 2>/dev/null |
	xargs -0 tar cf - --no-recursion 2>/dev/null) | tar xf - -C "$b/src"
if ! (cd "$b/src" && autoreconf -fi >/dev/null 2>&1 &&
      ./configure -q CC=clang --enable-fuzzing >"$b/configure.log" 2>&1); then
	if grep -q "libFuzzer" "$b/configure.log"; then
		echo "SKIP: clang without libFuzzer (apt-get install libclang-rt-dev)"; exit 77
	fi
	echo "FAIL: configure --enable-fuzzing"; tail -5 "$b/configure.log"; exit 1
fi
if ! (cd "$b/src" && make -s -j"$(nproc)" $(printf 'tests/fuzz/%s ' "${targets[@]}") >"$b/make.log" 2>&1); then
	echo "FAIL: building the fuzz targets"; tail -20 "$b/make.log"; exit 1
fi
seeds() {	# TARGET: the seed directories of a target
	local c=$top/tests/fuzz/corpus r=$top/tests/fuzz/repro
	case $1 in
	fuzz-reader) echo "$c/reader" ;;
	fuzz-iorec|fuzz-db) echo "$c/iorec $r/iorec" ;;
	fuzz-tracedat) echo "$c/tracedat $r/tracedat" ;;
	fuzz-formats) echo "$c/formats" ;;
	esac
}
fail=0
for t in "${targets[@]}"; do
	corpus=$b/corpus-$t
	mkdir -p "$corpus"
	for d in $(seeds "$t"); do cp "$d"/* "$corpus"/ 2>/dev/null; done
	# -fork=1: one finding does not end the run; leaks count
	(cd "$b" && nice -n 19 "$b/src/tests/fuzz/$t" -fork=1 -ignore_crashes=1 \
		-ignore_timeouts=1 -ignore_ooms=1 -max_total_time="$secs" \
		-timeout=25 -rss_limit_mb=2048 -close_fd_mask=3 \
		-dict="$top/tests/fuzz/iorec.dict" \
		-artifact_prefix="$keep/$t-" "$corpus" >"$b/$t.log" 2>&1)
	stats=$(grep -E '^#[0-9]+' "$b/$t.log" | tail -1)
	# a slow unit (over 10 s, kept by libFuzzer) is no finding: a
	# timeout (25 s), crash, leak or out-of-memory is
	found=$(ls "$keep" | grep "^$t-" | grep -vc -- "^$t-slow-unit-" || true)
	if [ "$found" != 0 ]; then
		echo "FAIL: $t: $found findings in $keep ($stats)"
		grep -m3 -E 'SUMMARY|ERROR: libFuzzer' "$b/$t.log"
		fail=1
	else
		echo "ok $t: ${secs}s, $stats"
	fi
done
[ $fail = 0 ] && rm -rf "$b"
exit $fail
