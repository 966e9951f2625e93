#!/usr/bin/env bash
# test.sh - the whole test suite: a -Werror build and an ASan+UBSan build,
# each running `make check` (unit, golden, corrupt-input and live tests).
# The last line printed is "N passed, N failed, N skipped".
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
scripts/install-deps.sh || exit 1
if ! mountpoint -q /sys/kernel/tracing 2>/dev/null && [ "$(id -u)" = 0 ]; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
fi
autoreconf -fi >/dev/null 2>&1 || { echo "autoreconf failed"; exit 1; }

pass=0 fail=0 skip=0 rc=0
run_suite() {		# NAME CONFIGURE-OPTIONS...
	local name=$1; shift
	local dir="$top/build-$name"
	rm -rf "$dir"
	echo "=== $name build: configure $*"
	if ! scripts/build.sh "$dir" "$@"; then
		echo "=== $name: build FAILED"
		fail=$((fail + 1)); rc=1
		return
	fi
	(cd "$dir" && make -s -j2 check >/dev/null 2>&1)
	[ $? = 0 ] || rc=1
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
}

run_suite check --enable-werror
run_suite asan --enable-werror --enable-sanitizers
[ $fail = 0 ] || rc=1
echo "$pass passed, $fail failed, $skip skipped"
exit $rc
