#!/usr/bin/env bash
# install-deps.sh - install the Debian packages iorec needs to build and test,
# only those that are missing (apt-get update runs once, only if needed).
# --build-only: only what the build needs; --packaging: what the build and
# dpkg-buildpackage, lintian (debian/, tests/debian/packages.sh) need.
set -euo pipefail

build=(gcc make autoconf automake libtool pkg-config
	libtracefs-dev libtraceevent-dev libtracecmd-dev
	libsqlite3-dev libzstd-dev zlib1g-dev libcmocka-dev)
test=(trace-cmd fio sqlite3 e2fsprogs util-linux time python3 python3-jsonschema blktrace
	mount procps zstd chromium nodejs)

packaging=(debhelper dpkg-dev lintian python3 sqlite3)

want=("${build[@]}")
case ${1:-} in
--build-only) ;;
--packaging) want+=("${packaging[@]}") ;;
*) want+=("${test[@]}") ;;
esac

missing=()
for p in "${want[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
# npm (for the HTML test's headless browser driver): Debian's package,
# unless a nodejs that brings its own (nodesource's conflicts with it)
case ${1:-} in
--build-only|--packaging) ;;
*) command -v npm >/dev/null 2>&1 || missing+=(npm) ;;
esac
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing packages: ${missing[*]}; run as root or: sudo apt-get install ${missing[*]}" >&2
	exit 1
fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# a mirror caught mid-sync fails one index ("File has unexpected size ...
# Mirror sync in progress?") and apt-get update exits 1 with the rest
# fetched: the install below says whether what is needed was found
apt-get update -q >/dev/null ||
	echo "install-deps: apt-get update reported errors (above); installing from the lists it has" >&2
apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
