#!/usr/bin/env bash
# compat-i386.sh - a 32-bit (i386) program on this machine's 64-bit kernel:
# the kernel's syscalls:* events skip it (ARCH_TRACE_IGNORE_COMPAT_SYSCALLS),
# so iorec records its calls through raw_syscalls filtered on the i386
# numbers, and stores its ABI.  The writer of the ARM tests (tests/arm/
# writer.c) is built with gcc -m32 and recorded on an ext4 loop device, in
# the default mode and with --raw-syscalls; check-arm.py asserts what the
# recording holds: the i386 ids of the writer's calls, no syscalls:* event
# from it, a syscalls:* twin for every raw event of the native tasks, the
# exec ABI record and the snapshot's abi lines, the header's ABI keys, and
# device bytes equal to the loop device's diskstats.
. "$(dirname "$0")/../live/lib.sh"
need_root_tracefs
need_event raw_syscalls:sys_enter raw_syscalls:sys_exit
top=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
chunks=${top_builddir:-$top}/tests/arm/iorec-chunks
[ -x "$chunks" ] || fail "$chunks not built (run make check)"
[ "$(uname -m)" = x86_64 ] || skip "an i386 test: needs an x86_64 kernel"
"$IOREC" --check >"$T/check" 2>&1 || true
grep -q 'i386 programs on this x86_64 kernel' "$T/check" ||
	skip "this kernel runs no i386 programs ($(grep '32-bit' "$T/check"))"

# gcc -m32 needs the i386 C library; gcc-multilib would do, but Debian's
# conflicts with the cross compilers of tests/arm/qemu-arm.sh
need_packages libc6-dev-i386 lib32gcc-12-dev
mkdir -p "$T/inc"
ln -s /usr/include/x86_64-linux-gnu/asm "$T/inc/asm"	# what gcc-multilib adds
mkdir -p "$T/bin"
W=$T/bin/writer32
gcc -m32 -O2 -Wall -Wextra -I"$T/inc" -o "$W" "$top/tests/arm/writer.c" ||
	fail "gcc -m32 cannot build the writer"
# a kernel built with IA32_EMULATION may still refuse i386 programs (some
# virtual machines, ia32_emulation=0): exec fails with ENOEXEC
printf 'int main(void) { return 0; }\n' >"$T/true32.c"
gcc -m32 -o "$T/bin/true32" "$T/true32.c" || fail "gcc -m32 cannot build a program"
"$T/bin/true32" 2>"$T/true32.err" ||
	skip "this kernel does not execute i386 programs ($(head -c 200 "$T/true32.err"))"

make_loop_ext4 96
O=$T/out-x86
mkdir -p "$O"
record_case() {	# [IOREC-OPTION...]: case $name with ${args[@]}
	local rc=0
	rm -rf "$MNT/$name"
	mkdir -p "$MNT/$name"
	sync
	cp /proc/diskstats "$O/$name.ds0"
	run_iorec "${args[@]}" "$@" -o "$O/$name.iorec" -- \
		"$W" "$MNT/$name" "$name" >"$O/$name.out" 2>"$O/$name.err" || rc=$?
	echo "$rc" >"$O/$name.rc"
	cp /proc/diskstats "$O/$name.ds1"
}
for mode in default raw; do
	name=i32
	args=()
	[ "$mode" = raw ] && { name=i32r; args=(--raw-syscalls); }
	# a loaded machine can overrun the ring buffers (the twin checks need
	# every event): the case is then recorded again with larger ones
	record_whole "$O/$name.iorec" record_case
done
rc=0
python3 "$top/tests/arm/check-arm.py" --ioreport "$IOREPORT" --chunks "$chunks" \
	--out "$T" --cases i32,i32r --loopdev "$LOOPNAME" || rc=$?
if [ -n "${IOREC_ARM_KEEP:-}" ]; then
	mkdir -p "$IOREC_ARM_KEEP"
	cp -r "$O" "$IOREC_ARM_KEEP/"
	echo "$LOOPNAME" >"$IOREC_ARM_KEEP/out-x86/loopdev"
	log "recordings kept in $IOREC_ARM_KEEP"
fi
[ "$rc" = 0 ] || fail "checks failed (see above)"
finish
