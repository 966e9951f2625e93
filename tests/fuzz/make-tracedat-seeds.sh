#!/usr/bin/env bash
# make-tracedat-seeds.sh - derive the small trace.dat seeds of the
# fuzz-tracedat target from samples/tracecmd.dat with trace-cmd itself:
# two pages per CPU (trace-cmd split), then a version 6 file without
# kallsyms and with only the event formats those pages use
# (shrink-tracedat.py), converted back to version 7, plain and zstd.
# Run from the top of the tree; writes tests/fuzz/corpus/tracedat/.
set -euo pipefail
out=tests/fuzz/corpus/tracedat
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trace-cmd split -i samples/tracecmd.dat -o "$tmp/split.dat" -p 2 -c >/dev/null
trace-cmd convert -i "$tmp/split.dat.1" --file-version 6 --compression none \
	-o "$tmp/v6-big.dat" >/dev/null
python3 tests/fuzz/shrink-tracedat.py "$tmp/v6-big.dat" "$out/v6.dat"
trace-cmd convert -i "$out/v6.dat" --file-version 7 --compression none \
	-o "$out/v7.dat" >/dev/null
trace-cmd convert -i "$out/v6.dat" --file-version 7 --compression zstd \
	-o "$out/v7-zstd.dat" >/dev/null
ls -l "$out"
