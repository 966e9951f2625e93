#!/usr/bin/env bash
# test-consistency.sh - the consistency oracle (tests/consistency/
# check-views.py) over every sample: the views of a recording agree with
# each other (device bytes and their parts, files within processes, each
# finding's evidence and the view it cites, shares, filters keeping
# subsets, one quantity read the same in two text views).
set -u
cd "$top_srcdir" || exit 1
export LC_ALL=C
command -v python3 >/dev/null || { echo "SKIP: python3 needed"; exit 77; }
python3 tests/consistency/check-views.py --ioreport "$IOREPORT" -v \
	samples/*.iorec samples/*.dat
