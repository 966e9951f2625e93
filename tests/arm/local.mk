# tests/arm/: iorec on ARM kernels under qemu, and 32-bit programs on this
# machine's 64-bit kernel.
