#!/usr/bin/env bash
# qemu-arm.sh - iorec on ARM, for real: Debian 12's own armhf and arm64
# kernels booted under qemu with a small initramfs (busybox-static of the
# architecture, a cross-built iorec and its libraries, a cross-compiled
# writer with known bytes), recordings made on a virtio disk, pulled out
# with debugfs, and checked on this machine with its own ioreport
# (tests/arm/check-arm.py).
#
# Cases (each in the default mode and with --raw-syscalls):
#   a32      armhf kernel, armhf userland, armhf iorec
#   a64      arm64 kernel, arm64 userland, arm64 iorec
#   c64      arm64 kernel, armhf userland, arm64 iorec (static)
#   c32      arm64 kernel, armhf userland, armhf iorec
# plus the other file-name sources (eprobes, libc uprobes from a static
# iorec) and iorec --check of each iorec on each kernel.
#
# Everything is downloaded and installed here (qemu, the cross compilers,
# the kernels, busybox, the sysroots: scripts/cross-sysroot.sh), nothing of
# a foreign architecture is installed, and the dpkg architectures this test
# added are removed at the end.  IOREC_ARM_KEEP=DIR keeps the recordings
# and logs in DIR (python3 tests/arm/check-arm.py --out DIR ... checks them
# again without booting).
. "$(dirname "$0")/../live/lib.sh"

top=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
[ "$(id -u)" = 0 ] || skip "needs root (apt-get, dpkg --add-architecture)"
# scripts/test.sh runs it in one of its two builds only (it takes minutes)
[ -z "${IOREC_TEST_ONCE_DONE:-}" ] ||
	skip "the ARM guests ran in the $IOREC_TEST_ONCE_DONE build of this run"
[ "$(uname -m)" = x86_64 ] || skip "written for an x86_64 host (cross compilers, qemu)"
command -v apt-get >/dev/null || skip "needs apt-get (a Debian host)"
[ -x "$IOREPORT" ] || fail "$IOREPORT not built (run make)"
start=$(date +%s)
elapsed() { echo "$(( $(date +%s) - start ))s"; }

# ---------------------------------------------------------------- host tools

need_packages qemu-system-arm gcc-12-aarch64-linux-gnu gcc-12-arm-linux-gnueabihf \
	e2fsprogs cpio kmod python3 pkg-config make autoconf automake file util-linux
command -v qemu-system-aarch64 >/dev/null || skip "qemu-system-aarch64 missing after install"

# Foreign architectures: added for apt-get download, removed at the end.
for arch in armhf arm64; do
	if ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
		apt_locked dpkg --add-architecture "$arch"
		on_exit "flock -w 600 /run/iorec-test-apt.lock dpkg --remove-architecture $arch; rm -f /var/lib/apt/lists/*_binary-${arch}_Packages*"
	fi
done
if ! apt-cache show libc6:armhf >/dev/null 2>&1 || ! apt-cache show libc6:arm64 >/dev/null 2>&1; then
	log "apt-get update (armhf and arm64 lists)"
	# an index that fails (a mirror mid-sync: bookworm-security's armhf
	# Packages of an unexpected size) leaves the others fetched: what
	# this test needs is judged by what apt-cache then has
	apt_locked apt-get update -q >"$T/update.log" 2>&1 ||
		log "apt-get update: $(grep -m1 '^[EW]:' "$T/update.log"); going on with the lists it fetched"
	for a in armhf arm64; do
		apt-cache show "libc6:$a" >/dev/null 2>&1 ||
			skip "no $a package lists after apt-get update: $(grep -m1 '^E:' "$T/update.log")"
	done
fi

# ---------------------------------------------------------------- downloads

kver_n=$(apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-arm64-unsigned$' |
	sed -n 's/^linux-image-6\.1\.0-\([0-9]*\)-arm64-unsigned .*/\1/p' | sort -n | tail -1)
[ -n "$kver_n" ] || skip "no linux-image-6.1.0-*-arm64-unsigned in the package lists"
mkdir -p "$T/deb"
(cd "$T/deb" && apt-get download -q -o APT::Sandbox::User=root \
	"linux-image-6.1.0-$kver_n-arm64-unsigned:arm64" \
	"linux-image-6.1.0-$kver_n-armmp:armhf" \
	busybox-static:arm64 busybox-static:armhf >/dev/null 2>"$T/download.err") ||
	{ cat "$T/download.err" >&2; fail "apt-get download of the kernels and busybox failed"; }
for arch in armhf arm64; do
	apt_locked "$top/scripts/cross-sysroot.sh" "$arch" "$T/sr-$arch" 2>"$T/sysroot-$arch.err" ||
		{ cat "$T/sysroot-$arch.err" >&2; fail "scripts/cross-sysroot.sh $arch failed"; }
done
log "downloads done ($(elapsed))"

# ---------------------------------------------------------------- cross builds

triplet() { case $1 in armhf) echo arm-linux-gnueabihf ;; arm64) echo aarch64-linux-gnu ;; esac; }

# A source tree of our own: the one under test may be configured in place,
# and configure refuses to build out of a configured tree.
src=$T/src
mkdir -p "$src"
rc=0
tar -C "$top" --exclude=./config.status --exclude='*.o' --exclude='*.a' \
	--exclude=./build-check --exclude=./build-asan --exclude=./samples --exclude=./.git \
	--exclude='*.log' --exclude='*.trs' --exclude=./tests/golden \
	--warning=no-file-changed -cf - . |
	tar -C "$src" -xf - || rc=$?
# tar exits 1 when a file changed while it was read: other tests of a
# parallel run write their scratch files next to ours; that is harmless.
[ "$rc" -le 1 ] || fail "copying the source tree failed (tar exit $rc)"
[ -x "$src/configure" ] || (cd "$src" && autoreconf -fi >/dev/null 2>&1) ||
	fail "autoreconf failed"

# build_iorec ARCH: bin-ARCH/iorec (dynamic) and bin-ARCH/iorec-static.
build_iorec() {
	local arch=$1 t s b
	t=$(triplet "$arch")
	s=$T/sr-$arch
	b=$T/build-$arch
	mkdir -p "$b" "$T/bin-$arch"
	(cd "$b" && "$src/configure" -q --host="$t" --disable-ioreport --enable-werror \
		CC="$t-gcc-12" PKG_CONFIG=pkg-config \
		CFLAGS="--sysroot=$s -O2" LDFLAGS="--sysroot=$s" \
		PKG_CONFIG_LIBDIR="$s/usr/lib/$t/pkgconfig:$s/usr/share/pkgconfig" \
		PKG_CONFIG_SYSROOT_DIR="$s" >"$b/configure.out" 2>&1 &&
	 make -s -j2 iorec >"$b/make.out" 2>&1 &&
	 cp iorec "$T/bin-$arch/iorec" &&
	 rm iorec &&
	 make -s iorec IOREC_STATIC_LDFLAGS=-static >"$b/make-static.out" 2>&1 &&
	 cp iorec "$T/bin-$arch/iorec-static") ||
		{ tail -n 20 "$b"/*.out "$b/config.log" >&2; fail "cross-build of iorec for $arch failed"; }
	"$t-gcc-12" --sysroot="$s" -O2 -Wall -Wextra -o "$T/bin-$arch/writer" \
		"$top/tests/arm/writer.c" || fail "cross-compiling the writer for $arch failed"
}
build_iorec armhf &
pid_armhf=$!
build_iorec arm64
wait "$pid_armhf" || fail "cross-build for armhf failed"
file "$T/bin-arm64/iorec-static" | grep -q 'statically linked' || fail "bin-arm64/iorec-static is not static"
log "cross builds done ($(elapsed)); static arm64 iorec $(stat -c %s "$T/bin-arm64/iorec-static") bytes, armhf $(stat -c %s "$T/bin-armhf/iorec-static") bytes"
# 32-bit ARM: every file function with 64-bit offsets (_FILE_OFFSET_BITS
# from config.h), or a recording past 2 GiB fails (EOVERFLOW) or wraps
lfs=$(arm-linux-gnueabihf-nm -D --undefined-only "$T/bin-armhf/iorec" | awk '{ sub(/@.*/, "", $2); print $2 }' |
	{ grep -xE 'open|openat|creat|fopen|freopen|pread|pwrite|preadv|pwritev|lseek|fstat|stat|lstat|fstatat|ftruncate|truncate|mmap|readdir|fseeko|ftello|statfs|fstatfs|fallocate|posix_fallocate|sendfile' || :; } |
	sort -u | tr '\n' ' ')
[ -z "$lfs" ] || fail "armhf iorec calls the 32-bit offset forms of: $lfs"

# iorec's arm and aarch64 syscall numbers against these kernel headers
for a in arm:armhf aarch64:arm64; do
	top_builddir=${top_builddir:-$top} bash "$top/tests/arm/test-systab.sh" "${a%%:*}" \
		"$(triplet "${a#*:}")-gcc-12" --sysroot="$T/sr-${a#*:}" >"$T/systab-${a%%:*}" 2>&1 ||
		{ cat "$T/systab-${a%%:*}" >&2; fail "iorec's ${a%%:*} syscall table differs from the kernel headers"; }
	log "$(tail -1 "$T/systab-${a%%:*}") (${a%%:*})"
done

# ---------------------------------------------------------------- guests

# kernel ARCH: unpack the kernel image and the modules the guest needs.
# Sets KVER, KROOT, VMLINUZ.
kernel() {
	local arch=$1 flavour deb
	case $arch in armhf) flavour=armmp ;; arm64) flavour=arm64 ;; esac
	KVER=6.1.0-$kver_n-$flavour
	KROOT=$T/k-$arch
	deb=$(ls "$T"/deb/linux-image-6.1.0-"$kver_n"-*_"$arch".deb)
	mkdir -p "$KROOT"
	dpkg-deb --fsys-tarfile "$deb" | tar x -C "$KROOT" --wildcards \
		'./boot/vmlinuz-*' './boot/config-*' './lib/modules/*/modules.*' \
		'./lib/modules/*/kernel/drivers/virtio/*' \
		'./lib/modules/*/kernel/drivers/block/virtio_blk.ko' \
		'./lib/modules/*/kernel/fs/*' './lib/modules/*/kernel/lib/*' \
		'./lib/modules/*/kernel/crypto/*' './lib/modules/*/kernel/arch/*' 2>/dev/null
	VMLINUZ=$KROOT/boot/vmlinuz-$KVER
	[ -f "$VMLINUZ" ] || fail "no $VMLINUZ in $deb"
	# the package carries no modules.dep: make one
	depmod -b "$KROOT" "$KVER" || fail "depmod -b $KROOT $KVER failed"
}

# copy_libs SYSROOT TRIPLET DEST BINARY...: the shared libraries they need.
copy_libs() {
	local s=$1 t=$2 d=$3 f lib
	shift 3
	mkdir -p "$d/lib/$t"
	for f in "$@"; do
		for lib in $("$t-readelf" -d "$f" 2>/dev/null | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p') \
			   libc.so.6; do
			cp -L "$s/lib/$t/$lib" "$d/lib/$t/" 2>/dev/null ||
				cp -L "$s/usr/lib/$t/$lib" "$d/lib/$t/"
		done
	done
	case $t in
	arm-linux-gnueabihf) cp -L "$s/lib/ld-linux-armhf.so.3" "$d/lib/" ;;
	aarch64-linux-gnu) cp -L "$s/lib/ld-linux-aarch64.so.1" "$d/lib/" ;;
	esac
}

# busybox ARCH DEST: the static busybox of ARCH at DEST.
busybox_of() {
	local x
	x=$(mktemp -d "$T/bb.XXXXXX")
	dpkg-deb -x "$T"/deb/busybox-static_*_"$1".deb "$x"
	cp "$x/bin/busybox" "$2"
}

# initramfs ARCH CASES-FILE: $T/initrd-ARCH.cpio for the kernel of ARCH.
initramfs() {
	local arch=$1 r=$T/root-$1 m
	mkdir -p "$r/bin" "$r/armhf" "$r/arm64" "$r/lib"
	busybox_of "$arch" "$r/bin/busybox"
	cp "$top/tests/arm/guest-init.sh" "$r/init"
	chmod +x "$r/init"
	cp "$2" "$r/cases"
	for m in virtio_mmio virtio_blk ext4; do
		modprobe -d "$KROOT" -S "$KVER" --show-depends "$m" ||
			fail "modprobe --show-depends $m ($KVER) failed"
	done | sed -n 's/^insmod //p' | awk '!seen[$1]++ { print $1 }' >"$T/mods-$arch"
	grep -q '/ext4\.ko' "$T/mods-$arch" || fail "no ext4 module for $KVER"
	: >"$r/modules.order"
	while read -r m; do
		mkdir -p "$r$(dirname "${m#"$KROOT"}")"
		cp "$m" "$r${m#"$KROOT"}"
		echo "${m#"$KROOT"}" >>"$r/modules.order"
	done <"$T/mods-$arch"
	for a in armhf arm64; do
		[ "$arch" = armhf ] && [ "$a" = arm64 ] && continue
		cp "$T/bin-$a/iorec" "$T/bin-$a/iorec-static" "$T/bin-$a/writer" "$r/$a/"
		busybox_of "$a" "$r/$a/busybox"
		copy_libs "$T/sr-$a" "$(triplet "$a")" "$r" "$r/$a/iorec" "$r/$a/writer"
	done
	(cd "$r" && find . | cpio -o -H newc --quiet) >"$T/initrd-$arch.cpio"
}

# disk FILE MB: a fresh ext4 (inode tables initialised now, not lazily in the guest)
disk() {
	truncate -s "${2}M" "$1"
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 -O ^metadata_csum "$1" ||
		fail "mkfs.ext4 $1 failed"
}

# boot ARCH: run the guest until it powers off; pull vdb:/rec into out-ARCH.
boot() {
	local arch=$1 qemu cpu console
	case $arch in
	armhf) qemu=qemu-system-arm cpu=cortex-a15 ;;
	arm64) qemu=qemu-system-aarch64 cpu=cortex-a72 ;;
	esac
	disk "$T/work-$arch.img" 96
	disk "$T/out-$arch.img" 128
	console=$T/console-$arch.log
	log "booting the $arch kernel $KVER"
	timeout 600 nice -n 10 "$qemu" -M virt -cpu "$cpu" -smp 2 -m 1024 \
		-kernel "$VMLINUZ" -initrd "$T/initrd-$arch.cpio" \
		-append 'console=ttyAMA0 rdinit=/init panic=1 loglevel=4' \
		-drive "if=none,file=$T/work-$arch.img,format=raw,id=d0" \
		-device virtio-blk-device,drive=d0 \
		-drive "if=none,file=$T/out-$arch.img,format=raw,id=d1" \
		-device virtio-blk-device,drive=d1 \
		-nic none -nographic -no-reboot </dev/null >"$console" 2>&1 ||
		{ tail -30 "$console" >&2; fail "qemu ($arch) failed or timed out"; }
	grep -q IOREC-GUEST-DONE "$console" ||
		{ tail -30 "$console" >&2; fail "the $arch guest did not finish its cases"; }
	mkdir -p "$T/out-$arch"
	debugfs -R "rdump /rec $T/out-$arch" "$T/out-$arch.img" >/dev/null 2>&1
	[ -s "$T/out-$arch/rec/workdev" ] ||
		fail "debugfs rdump of the $arch output disk found no recordings"
	grep '^guest:' "$console" | sed 's/^/  /' >&2
}

# The cases.  armhf guest: armhf everything.
cat >"$T/cases-armhf" <<'EOF'
check a32.chk /armhf/iorec
check a32.chk-raw /armhf/iorec --raw-syscalls
rec a32 /armhf/iorec /armhf/busybox\ sh /armhf/writer
rec a32r /armhf/iorec /armhf/busybox\ sh /armhf/writer --raw-syscalls
rec a32e /armhf/iorec /armhf/busybox\ sh /armhf/writer --names eprobe
rec a32u /armhf/iorec /armhf/busybox\ sh /armhf/writer --names uprobe
EOF
# arm64 guest: arm64 userland, then armhf userland with both iorecs.
cat >"$T/cases-arm64" <<'EOF'
check a64.chk /arm64/iorec
check c64.chk /arm64/iorec-static
check c32.chk /armhf/iorec
check c32.chk-raw /armhf/iorec --raw-syscalls
rec a64 /arm64/iorec /arm64/busybox\ sh /arm64/writer
rec a64r /arm64/iorec /arm64/busybox\ sh /arm64/writer --raw-syscalls
rec a64e /arm64/iorec /arm64/busybox\ sh /arm64/writer --names eprobe
rec a64u /arm64/iorec-static /arm64/busybox\ sh /arm64/writer --names uprobe
rec c64 /arm64/iorec-static /armhf/busybox\ sh /armhf/writer
rec c64r /arm64/iorec-static /armhf/busybox\ sh /armhf/writer --raw-syscalls
rec c32 /armhf/iorec /armhf/busybox\ sh /armhf/writer
rec c32r /armhf/iorec /armhf/busybox\ sh /armhf/writer --raw-syscalls
EOF
# "a\ b" keeps the shell and its argument one field for the guest's read
sed -i 's/\\ /\x1f/g' "$T/cases-armhf" "$T/cases-arm64"

for arch in armhf arm64; do
	kernel "$arch"
	initramfs "$arch" "$T/cases-$arch"
	boot "$arch"
	log "$arch guest done ($(elapsed))"
done

# ---------------------------------------------------------------- checks

chunks=${top_builddir:-$top}/tests/arm/iorec-chunks
[ -x "$chunks" ] || fail "$chunks not built (run make check)"
rc=0
cases=$(awk '$1 == "rec" { printf "%s%s", sep, $2; sep = "," }' "$T/cases-armhf" "$T/cases-arm64")
python3 "$top/tests/arm/check-arm.py" --ioreport "$IOREPORT" --chunks "$chunks" \
	--out "$T" --cases "$cases" --headers "$T/sr-armhf,$T/sr-arm64" || rc=$?
if [ -n "${IOREC_ARM_KEEP:-}" ]; then
	mkdir -p "$IOREC_ARM_KEEP"
	cp -r "$T"/out-armhf "$T"/out-arm64 "$T"/console-*.log "$IOREC_ARM_KEEP/"
	log "recordings kept in $IOREC_ARM_KEEP"
fi
[ "$rc" = 0 ] || fail "checks failed (see above)"
log "whole ARM test: $(elapsed)"
finish
