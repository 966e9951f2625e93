# tests/smp/: iorec on a machine of 16 CPUs (qemu-smp.sh: Debian's amd64
# kernel under qemu with 16 virtual CPUs, the host's root shared read-only):
# the reader threads and buffers it chooses, counts exact, nothing lost.
SMP_TESTS = tests/smp/qemu-smp.sh
TESTS += $(SMP_TESTS)
EXTRA_DIST += $(SMP_TESTS)
