#!/usr/bin/env bash
# cross-sysroot.sh - make a sysroot for cross-building iorec from Debian's
# own packages of another architecture, without installing any of them.
#
# Usage: scripts/cross-sysroot.sh [--remove-arch] ARCH DIR [EXTRA-PKG...]
#   ARCH  armhf or arm64 (any Debian architecture name works)
#   DIR   the sysroot to fill (created; existing files are overwritten)
#
# The packages of ARCH are fetched with 'apt-get download PKG:ARCH' and
# unpacked with 'dpkg-deb -x' into DIR: nothing of ARCH is installed, so the
# build machine's own -dev packages are never touched (an 'apt-get install'
# of a foreign -dev package can remove the amd64 ones).  When ARCH is not a
# dpkg architecture yet it is added and the package lists are updated once;
# with --remove-arch it is removed again at the end (with its lists).
#
# Then, for arm64 (armhf: arm-linux-gnueabihf and the armhf pkgconfig dir):
#   apt-get install gcc-12-aarch64-linux-gnu      # the cross compiler
#   ./configure --host=aarch64-linux-gnu --disable-ioreport \
#       CC=aarch64-linux-gnu-gcc-12 PKG_CONFIG=pkg-config \
#       CFLAGS="--sysroot=$DIR -O2" LDFLAGS="--sysroot=$DIR" \
#       PKG_CONFIG_LIBDIR=$DIR/usr/lib/aarch64-linux-gnu/pkgconfig:$DIR/usr/share/pkgconfig \
#       PKG_CONFIG_SYSROOT_DIR=$DIR
#   make iorec
# (README.md, "On a Raspberry Pi", has the whole recipe.)
set -euo pipefail

remove_arch=0
if [ "${1:-}" = --remove-arch ]; then
	remove_arch=1
	shift
fi
if [ $# -lt 2 ]; then
	echo "usage: $0 [--remove-arch] ARCH DIR [EXTRA-PKG...]" >&2
	exit 2
fi
arch=$1 dir=$2
shift 2
[ "$(id -u)" = 0 ] || { echo "cross-sysroot: needs root (dpkg --add-architecture, apt-get update)" >&2; exit 1; }
command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
	{ echo "cross-sysroot: needs apt-get and dpkg-deb (a Debian system)" >&2; exit 1; }

# What iorec links: libtracefs, libtraceevent, libzstd, and the C library.
pkgs=(libc6 libc6-dev linux-libc-dev libgcc-s1
	libtracefs1 libtracefs-dev libtraceevent1 libtraceevent-dev
	libzstd1 libzstd-dev "$@")

added=0
if ! dpkg --print-foreign-architectures | grep -qx "$arch" &&
   [ "$arch" != "$(dpkg --print-architecture)" ]; then
	dpkg --add-architecture "$arch"
	added=1
fi
cleanup() {
	if [ "$added" = 1 ] && [ "$remove_arch" = 1 ]; then
		dpkg --remove-architecture "$arch" 2>/dev/null || true
		rm -f /var/lib/apt/lists/*_binary-"${arch}"_Packages* 2>/dev/null || true
	fi
	[ -z "${work:-}" ] || rm -rf "$work"
}
trap cleanup EXIT

# The lists of ARCH are needed once (apt-get download finds nothing before).
if ! ls /var/lib/apt/lists/*_binary-"${arch}"_Packages* >/dev/null 2>&1 ||
   ! apt-cache show "libc6:$arch" >/dev/null 2>&1; then
	# A mirror caught mid-sync fails an index with a hash mismatch
	# ("Some index files failed to download"): a later try gets a
	# consistent set, so try three times, then go on if ARCH's C
	# library is known (apt-get download says what is missing).
	for try in 1 2 3; do
		echo "cross-sysroot: apt-get update (lists of $arch, try $try)" >&2
		apt-get update -q >/dev/null && break
		[ "$try" = 3 ] || sleep $((try * 20))
	done
	apt-cache show "libc6:$arch" >/dev/null 2>&1 ||
		{ echo "cross-sysroot: no package lists for $arch after 3 tries of apt-get update; check the apt sources and network, then run again" >&2; exit 1; }
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/cross-sysroot.XXXXXX")
mkdir -p "$dir"
qualified=()
for p in "${pkgs[@]}"; do
	qualified+=("$p:$arch")
done
(cd "$work" && apt-get download -q -o APT::Sandbox::User=root \
	"${qualified[@]}" >/dev/null) ||
	{ echo "cross-sysroot: apt-get download failed for: ${pkgs[*]} ($arch)" >&2; exit 1; }
for deb in "$work"/*.deb; do
	dpkg-deb -x "$deb" "$dir"
done

# A merged-/usr view, as on an installed Debian: /lib -> usr/lib is what the
# cross linker and ld.so expect of a Debian 12 root.
for d in lib bin sbin; do
	if [ -d "$dir/$d" ] && [ ! -L "$dir/$d" ]; then
		mkdir -p "$dir/usr/$d"
		cp -a "$dir/$d/." "$dir/usr/$d/"
		rm -rf "${dir:?}/$d"
		ln -s "usr/$d" "$dir/$d"
	fi
done
# Absolute symlinks (libm.so -> /lib/...) would point into the build
# machine's own root: make them relative, inside the sysroot.
find "$dir" -type l -lname '/*' | while IFS= read -r l; do
	t=$(readlink "$l")
	ln -sfn "$(realpath -m --relative-to="$(dirname "$l")" "$dir$t")" "$l"
done
echo "cross-sysroot: $arch sysroot in $dir (${#pkgs[@]} packages)" >&2
