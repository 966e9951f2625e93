#!/usr/bin/env bash
# test.sh - the whole test suite: a -Werror build and an ASan+UBSan build,
# each running `make check` (unit, golden, corrupt-input, fuzz-replay and
# live tests), then a short libFuzzer run of each fuzz target.
# The last line printed is "N passed, N failed, N skipped".
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
scripts/install-deps.sh || exit 1
if ! mountpoint -q /sys/kernel/tracing 2>/dev/null && [ "$(id -u)" = 0 ]; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
fi

# Each build runs on its own copy of the sources, so that an in-tree build
# (the quick start's) and the two test builds never collide.
copy_tree() {		# DEST
	mkdir -p "$1"
	if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
		git -C "$top" ls-files -z --cached --others --exclude-standard |
			(cd "$top" && xargs -0 tar cf - --no-recursion 2>/dev/null) |
			tar xf - -C "$1"
	else
		tar cf - --exclude='./build-*' -C "$top" . | tar xf - -C "$1"
	fi
}

pass=0 fail=0 skip=0 rc=0
run_suite() {		# NAME CONFIGURE-OPTIONS...
	local name=$1; shift
	local dir="$top/build-$name"
	rm -rf "$dir"
	echo "=== $name build: configure $*"
	copy_tree "$dir"
	if ! (cd "$dir" && autoreconf -fi >/dev/null 2>&1 && ./configure -q "$@" &&
	      make -s -j"$(nproc)" >/dev/null); then
		echo "=== $name: build FAILED"
		fail=$((fail + 1)); rc=1
		return
	fi
	local mrc failed_before=$fail
	(cd "$dir" && make -s -j2 check >"$dir/make-check.out" 2>&1)
	mrc=$?
	# one line per test, from automake's .trs files
	local trs res
	while IFS= read -r trs; do
		res=$(sed -n 's/^:test-result: //p' "$trs" | head -1)
		echo "$name: $res ${trs#$dir/}" | sed 's/\.trs$//'
		case $res in
		PASS|XFAIL) pass=$((pass + 1)) ;;
		SKIP) skip=$((skip + 1)) ;;
		*) fail=$((fail + 1))
		   echo "---- ${trs%.trs}.log"; tail -40 "${trs%.trs}.log" ;;
		esac
	done < <(find "$dir" -name '*.trs' | sort)
	if [ $mrc != 0 ]; then
		rc=1
		if [ $fail = "$failed_before" ]; then
			# make check failed outside any test (a build or harness error)
			echo "$name: FAIL make check"; tail -20 "$dir/make-check.out"
			fail=$((fail + 1))
		fi
	fi
}

run_suite check --enable-werror
run_suite asan --enable-werror --enable-sanitizers

# The fuzz targets as libFuzzer binaries, a short run each (skipped
# without clang); make check already replays their corpora and
# reproducers in both builds.
echo "=== fuzz smoke: tests/fuzz/smoke.sh"
bash tests/fuzz/smoke.sh > "$top/build-fuzz-smoke.log" 2>&1
case $? in
0)  pass=$((pass + 1)); echo "fuzz: PASS tests/fuzz/smoke.sh"; grep '^ok ' "$top/build-fuzz-smoke.log" ;;
77) skip=$((skip + 1)); echo "fuzz: SKIP tests/fuzz/smoke.sh ($(tail -1 "$top/build-fuzz-smoke.log"))" ;;
*)  fail=$((fail + 1)); rc=1; echo "fuzz: FAIL tests/fuzz/smoke.sh"; tail -20 "$top/build-fuzz-smoke.log" ;;
esac
[ $fail = 0 ] || rc=1
echo "$pass passed, $fail failed, $skip skipped"
exit $rc
