#!/usr/bin/env bash
# test.sh - the whole test suite: `make distcheck` (the release tarball
# built with -Werror from a read-only copy, `make check` run in it, then
# install, uninstall and clean checked) and an ASan+UBSan build running
# `make check` (unit, golden, corrupt-input, fuzz-replay and live tests),
# then a short libFuzzer run of each fuzz target, the Debian packages
# built, installed, used and purged (tests/debian/packages.sh) and the
# recorder's package cross-built for armhf (cross-deb.sh).
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

# make distcheck: the -Werror build, from the tarball.  Its per-test lines
# come from the harness's output; the tree is kept only when it fails.
run_distcheck() {
	local dir="$top/build-distcheck" failed_before=$fail mrc line res t log
	rm -rf "$dir"
	echo "=== distcheck: make distcheck (-Werror, whole suite)"
	copy_tree "$dir"
	if ! (cd "$dir" && autoreconf -fi >/dev/null 2>&1 && ./configure -q); then
		echo "=== distcheck: configure FAILED"
		fail=$((fail + 1)); rc=1
		return
	fi
	(cd "$dir" && make -j2 distcheck >"$dir/make-distcheck.out" 2>&1)
	mrc=$?
	while IFS= read -r line; do
		res=${line%%: *} t=${line#*: }
		echo "distcheck: $res $t"
		case $res in
		PASS|XFAIL) pass=$((pass + 1)) ;;
		SKIP) skip=$((skip + 1)) ;;
		*) fail=$((fail + 1))
		   # automake's log of tests/x.sh is tests/x.log
		   log=$(find "$dir" \( -path "*/_build/sub/${t%.sh}.log" -o -path "*/_build/sub/$t.log" \) 2>/dev/null | head -1)
		   [ -z "$log" ] || { echo "---- $t.log"; tail -40 "$log"; } ;;
		esac
	done < <(sed -n 's/^\(PASS\|FAIL\|SKIP\|XFAIL\|XPASS\|ERROR\): \([^ ]*\).*/\1: \2/p' \
		"$dir/make-distcheck.out")
	if [ $mrc != 0 ]; then
		rc=1
		if [ $fail = "$failed_before" ]; then
			# distcheck failed outside any test (dist, build, install, clean)
			echo "distcheck: FAIL make distcheck"; tail -30 "$dir/make-distcheck.out"
			fail=$((fail + 1))
		fi
	else
		grep -E '^=+$|archives ready for distribution' -A2 "$dir/make-distcheck.out" | grep '\.tar' | sed 's/^/distcheck: /'
	fi
}

run_distcheck
# the ARM guests (minutes of emulation) ran in distcheck's build
IOREC_TEST_ONCE_DONE=distcheck run_suite asan --enable-werror --enable-sanitizers

# The fuzz targets as libFuzzer binaries, two minutes each (skipped
# without clang); make check already replays their corpora and
# reproducers in both builds.
echo "=== fuzz smoke: tests/fuzz/smoke.sh"
bash tests/fuzz/smoke.sh > "$top/build-fuzz-smoke.log" 2>&1
case $? in
0)  pass=$((pass + 1)); echo "fuzz: PASS tests/fuzz/smoke.sh"; grep '^ok ' "$top/build-fuzz-smoke.log" ;;
77) skip=$((skip + 1)); echo "fuzz: SKIP tests/fuzz/smoke.sh ($(tail -1 "$top/build-fuzz-smoke.log"))" ;;
*)  fail=$((fail + 1)); rc=1; echo "fuzz: FAIL tests/fuzz/smoke.sh"; tail -20 "$top/build-fuzz-smoke.log" ;;
esac
# The Debian packages: dpkg-buildpackage, lintian, installed, used, purged.
echo "=== packages: tests/debian/packages.sh"
bash tests/debian/packages.sh > "$top/build-packages.log" 2>&1
case $? in
0)  pass=$((pass + 1)); echo "packages: PASS tests/debian/packages.sh"
    grep -E '^(dpkg-buildpackage|built|lintian|iorec Depends):' "$top/build-packages.log" ;;
77) skip=$((skip + 1)); echo "packages: SKIP tests/debian/packages.sh ($(tail -1 "$top/build-packages.log"))" ;;
*)  fail=$((fail + 1)); rc=1; echo "packages: FAIL tests/debian/packages.sh"; tail -30 "$top/build-packages.log" ;;
esac
# The recorder's package cross-built for armhf (the Raspberry Pi's
# userland; IOREC_CROSS_ARCHS="armhf arm64" for both).
echo "=== cross packages: tests/debian/cross-deb.sh ${IOREC_CROSS_ARCHS:-armhf}"
# shellcheck disable=SC2086
bash tests/debian/cross-deb.sh ${IOREC_CROSS_ARCHS:-armhf} > "$top/build-cross-deb.log" 2>&1
case $? in
0)  pass=$((pass + 1)); echo "cross packages: PASS tests/debian/cross-deb.sh"
    grep '^iorec_' "$top/build-cross-deb.log" ;;
77) skip=$((skip + 1)); echo "cross packages: SKIP tests/debian/cross-deb.sh ($(tail -1 "$top/build-cross-deb.log"))" ;;
*)  fail=$((fail + 1)); rc=1; echo "cross packages: FAIL tests/debian/cross-deb.sh"; tail -30 "$top/build-cross-deb.log" ;;
esac
[ $fail = 0 ] || rc=1
echo "$pass passed, $fail failed, $skip skipped"
exit $rc
