#!/usr/bin/env bash
# cross-deb.sh - the package iorec (the recorder alone) cross-built for a
# board: `dpkg-buildpackage -a ARCH -Ppkg.iorec.recorder-only,nocheck` on
# this x86-64 machine, with the cross compiler and a sysroot of Debian's own
# ARCH libraries (scripts/cross-sysroot.sh: downloaded and unpacked, nothing
# of ARCH installed).  Checks that iorec_VERSION_ARCH.deb holds an ARCH
# binary, depends on the libraries it links and nothing of the analyzer,
# and that lintian finds no error in it.
#
# Usage: tests/debian/cross-deb.sh [ARCH...]   (default: armhf arm64)
# Needs root (apt-get install of the cross compilers, dpkg architectures;
# those this script adds it removes again); skips (77) without it.
# IOREC_DEB_KEEP=DIR keeps the .debs in DIR.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root (apt-get, dpkg --add-architecture)"
[ "$(uname -m)" = x86_64 ] || skip "written for an x86_64 build machine"
command -v apt-get >/dev/null || skip "needs a Debian system"
archs=("$@")
[ ${#archs[@]} -gt 0 ] || archs=(armhf arm64)
triplet() { case $1 in armhf) echo arm-linux-gnueabihf ;; arm64) echo aarch64-linux-gnu ;; *) return 1 ;; esac; }

"$top/scripts/install-deps.sh" --packaging || fail "scripts/install-deps.sh --packaging failed"
need=(file)
for a in "${archs[@]}"; do
	t=$(triplet "$a") || fail "unknown architecture $a (armhf or arm64)"
	need+=("gcc-12-$t" "binutils-$t")
done
missing=()
for p in "${need[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	apt_locked env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		"${missing[@]}" >/dev/null 2>&1 ||
		skip "cannot install ${missing[*]} (no package mirror?)"
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/iorec-crossdeb.XXXXXX")
added=()
cleanup() {
	local a
	for a in "${added[@]}"; do
		apt_locked dpkg --remove-architecture "$a" 2>/dev/null
		rm -f /var/lib/apt/lists/*_binary-"$a"_Packages*
	done
	if [ -n "${IOREC_DEB_KEEP:-}" ]; then
		mkdir -p "$IOREC_DEB_KEEP"
		cp "$T"/*.deb "$IOREC_DEB_KEEP"/ 2>/dev/null
	fi
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
for a in "${archs[@]}"; do
	if ! dpkg --print-foreign-architectures | grep -qx "$a"; then
		apt_locked dpkg --add-architecture "$a"
		added+=("$a")
	fi
done

version=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
for a in "${archs[@]}"; do
	t=$(triplet "$a")
	s=$T/sr-$a
	apt_locked "$top/scripts/cross-sysroot.sh" "$a" "$s" >"$T/sysroot-$a.log" 2>&1 ||
		{ tail -5 "$T/sysroot-$a.log"; fail "scripts/cross-sysroot.sh $a failed"; }
	# the sources, and what the sysroot's libraries give as dependencies
	src=$T/src-$a/iorec-$version
	copy_sources "$src"
	: >"$src/debian/shlibs.local"
	# the dynamic loader counts as a library of libc6 too
	for lib in libc:6:libc6 ld-linux-armhf:3:libc6 ld-linux-aarch64:1:libc6 libtracefs:1:libtracefs1 libtraceevent:1:libtraceevent1 libzstd:1:libzstd1; do
		IFS=: read -r name so pkg <<<"$lib"
		v=$(apt-cache show --no-all-versions "$pkg:$a" 2>/dev/null | sed -n 's/^Version: //p' | head -1)
		[ -n "$v" ] || fail "no version of $pkg:$a in the package lists"
		echo "$name $so $pkg (>= ${v%%-*})" >>"$src/debian/shlibs.local"
	done
	start=$(date +%s)
	(cd "$src" && DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" \
		IOREC_SYSROOT="$s" CC="$t-gcc-12" PKG_CONFIG=pkg-config \
		PKG_CONFIG_LIBDIR="$s/usr/lib/$t/pkgconfig:$s/usr/share/pkgconfig" \
		PKG_CONFIG_SYSROOT_DIR="$s" \
		DEB_CFLAGS_APPEND="--sysroot=$s" DEB_LDFLAGS_APPEND="--sysroot=$s" \
		nice -n 10 dpkg-buildpackage -a "$a" -Ppkg.iorec.recorder-only,nocheck -d -us -uc -b) \
		>"$T/build-$a.log" 2>&1 ||
		{ tail -30 "$T/build-$a.log"; fail "dpkg-buildpackage -a $a failed"; }
	deb=$T/src-$a/iorec_${version}_$a.deb
	[ -f "$deb" ] || fail "no iorec_${version}_$a.deb built"
	ls "$T/src-$a"/ioreport_* >/dev/null 2>&1 && fail "the recorder-only build made an ioreport package"
	cp "$T/src-$a"/*.deb "$T"/
	mkdir -p "$T/x-$a"
	dpkg-deb -x "$deb" "$T/x-$a"
	desc=$(file -b "$T/x-$a/usr/bin/iorec")
	case $a in
	armhf) grep -q 'ELF 32-bit LSB.*ARM, EABI5' <<<"$desc" || fail "iorec of $a is: $desc" ;;
	arm64) grep -q 'ELF 64-bit LSB.*ARM aarch64' <<<"$desc" || fail "iorec of $a is: $desc" ;;
	esac
	deps=$(dpkg-deb -f "$deb" Depends)
	for lib in libc6 libtracefs1 libtraceevent1 libzstd1; do
		grep -q "$lib" <<<"$deps" || fail "iorec_$a depends on '$deps', not on $lib"
	done
	for lib in libtracecmd libsqlite3 libiorec; do
		! grep -q "$lib" <<<"$deps" || fail "iorec_$a depends on $lib"
	done
	lintian --fail-on error "$deb" >"$T/lintian-$a.txt" 2>&1 ||
		{ cat "$T/lintian-$a.txt"; fail "lintian reports errors in iorec_${version}_$a.deb"; }
	echo "iorec_${version}_$a.deb: $(stat -c %s "$deb") bytes, $(dpkg-deb -f "$deb" Installed-Size) KiB installed, $(( $(date +%s) - start )) s; Depends: $deps; lintian: $(grep -c '^E: ' "$T/lintian-$a.txt") errors, $(grep -c '^W: ' "$T/lintian-$a.txt") warnings"
done
echo "PASS: iorec cross-built as a package for ${archs[*]}"
