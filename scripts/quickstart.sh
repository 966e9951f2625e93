#!/usr/bin/env bash
# quickstart.sh - install what is missing, build, and analyze a bundled
# sample recording.  Run as root on Debian 12.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
scripts/install-deps.sh --build-only
[ -x configure ] || autoreconf -fi >/dev/null 2>&1
[ -f Makefile ] || ./configure -q
make -s -j"$(nproc)" >/dev/null
sample=samples/story000-sqlite-before.iorec
[ -f "$sample" ] || sample=$(ls samples/*.iorec | head -1)
./ioreport report "$sample"
