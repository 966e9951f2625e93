#!/usr/bin/env bash
# make-arm-samples.sh - regenerate the ARM sample recordings: runs the qemu
# test (tests/arm/qemu-arm.sh: Debian 12's armhf and arm64 kernels, the
# writer of tests/arm/writer.c on a virtio disk) and keeps two of its
# recordings, with the writer's own report of its calls next to each:
#   arm-armhf.iorec             armhf kernel, armhf userland and iorec (case a32)
#   arm-arm64-armhf.iorec       arm64 kernel, armhf userland and iorec (case c32)
# Run as root from a built tree: sudo samples/make-arm-samples.sh
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${top_builddir:-$top}
keep=$(mktemp -d "${TMPDIR:-/tmp}/arm-samples.XXXXXX")
trap 'rm -rf "$keep"' EXIT
[ -x "$build/ioreport" ] || { echo "make-arm-samples: build first (no $build/ioreport)" >&2; exit 1; }
[ -x "$build/tests/arm/iorec-chunks" ] || make -C "$build" -s tests/arm/iorec-chunks
top_srcdir=$top top_builddir=$build IOREPORT=$build/ioreport IOREC=$build/iorec \
	IOREC_ARM_KEEP=$keep bash "$top/tests/arm/qemu-arm.sh"
cp "$keep/out-armhf/rec/a32.iorec" "$top/samples/arm-armhf.iorec"
cp "$keep/out-armhf/rec/a32.out" "$top/samples/arm-armhf.writer"
cp "$keep/out-arm64/rec/c32.iorec" "$top/samples/arm-arm64-armhf.iorec"
cp "$keep/out-arm64/rec/c32.out" "$top/samples/arm-arm64-armhf.writer"
ls -l "$top"/samples/
