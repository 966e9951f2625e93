# tests/debian/lib.sh - what the Debian package tests share (sourced, not run).
# shellcheck shell=bash
#
# Sets top (the source tree); skip and fail end the test as automake
# reads it (77: skipped).

set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

# apt_locked CMD...: apt and dpkg one at a time with the other tests that
# install packages
apt_locked() { flock -w 600 /run/iorec-test-apt.lock "$@"; }

# copy_sources DIR: the sources into DIR (made): what git tracks and what
# it does not ignore, or the unpacked tarball; nothing built
copy_sources() {
	mkdir -p "$1"
	if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
		git -C "$top" ls-files -z --cached --others --exclude-standard |
			(cd "$top" && xargs -0 tar cf - --no-recursion 2>/dev/null) | tar xf - -C "$1"
	else
		tar cf - --exclude='./build-*' --exclude='./_build' -C "$top" . | tar xf - -C "$1"
	fi
}
