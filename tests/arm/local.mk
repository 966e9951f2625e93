# tests/arm/: iorec on Debian's ARM kernels under qemu (qemu-arm.sh: armhf
# and arm64 kernels, 32-bit programs on the arm64 one), and 32-bit (i386)
# programs on this machine's 64-bit kernel (compat-i386.sh).  Both check
# the recordings with check-arm.py; iorec-chunks prints what iorec stored.
check_PROGRAMS += tests/arm/iorec-chunks
tests_arm_iorec_chunks_SOURCES = tests/arm/iorec-chunks.c
tests_arm_iorec_chunks_LDADD = formats/libiorecfmt.a $(ZSTD_LIBS) $(ZLIB_LIBS)

ARM_TESTS = tests/arm/qemu-arm.sh tests/arm/compat-i386.sh
TESTS += $(ARM_TESTS)
EXTRA_DIST += $(ARM_TESTS) tests/arm/guest-init.sh tests/arm/writer.c \
	tests/arm/check-arm.py scripts/cross-sysroot.sh

check_PROGRAMS += tests/arm/systab-dump
tests_arm_systab_dump_SOURCES = tests/arm/systab-dump.c record/abi.c
tests_arm_systab_dump_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/record
tests_arm_systab_dump_LDADD = lib/libiorecutil.a
TESTS += tests/arm/test-systab.sh
EXTRA_DIST += tests/arm/test-systab.sh
