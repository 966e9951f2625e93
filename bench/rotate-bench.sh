#!/usr/bin/env bash
# rotate-bench.sh - what rotation costs in events: the same workload
# (FILES small files written and read back, a sync each thousand, then a
# storm of small reads) recorded by iorec -S SIZE --keep 1000 and by
# iorec into one file, alternating for ROUNDS rounds, caches dropped
# before each.  Prints per round and mode the files written and the
# events lost (the kernel's overruns and the recorder's lost pages, as
# ioreport info --json counts them), then the medians.  A second iorec
# (-b, e.g. an older build) runs the rotation beside it.
#
# usage: rotate-bench.sh [-n ROUNDS] [-f FILES] [-s SIZE] [-b IOREC2] [-k]
#   -n ROUNDS   rounds (default 3)
#   -f FILES    small files the workload writes (default 30000)
#   -s SIZE     iorec -S (default 512k)
#   -b IOREC2   also record the rotation with this iorec binary
#   -k          keep the recordings
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ROUNDS=3 NFILES=30000 SIZE=512k IOREC2=''
bench_options n:ROUNDS f:NFILES s:SIZE b:IOREC2 k=KEEP -- "$@"
need_tracing
make_tmp "the recordings"

work() {	# the workload, in $T/w
	rm -rf "$T/w"; mkdir "$T/w"
	python3 - "$T/w" "$NFILES" <<'PY'
import os, sys
d, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    with open(os.path.join(d, "f%d" % i), "wb") as f:
        f.write(b"z" * 3000)
    if i % 1000 == 999:
        os.sync()
for i in range(n):
    with open(os.path.join(d, "f%d" % i), "rb") as f:
        f.read()
PY
	dd if=/dev/zero of=/dev/null bs=64 count=2000000 status=none
	rm -rf "$T/w"
}
lost_of() {	# FILE...: the events lost in the last file
	"$IOREPORT" info --json "${@: -1}" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(sum(c["overrun"] + c["dropped"] + c["lost_pages"] for c in d["kernel_lost"]) +
      sum(c["lost_events"] + c["lost_pages"] for c in d["cpu"]))'
}
run() {	# MODE BINARY ARGS...: one recording of the workload
	local mode=$1 bin=$2 out="$T/$1-$r"
	shift 2
	mkdir -p "$out"
	sync; echo 3 >/proc/sys/vm/drop_caches
	"$bin" -q "$@" -o "$out/rec.iorec" 2>"$out/err" &
	local pid=$!
	sleep 1
	work
	kill -INT "$pid"; wait "$pid" || true
	local files=("$out"/rec*.iorec)
	printf '%-10s round %d: %3d files, %9d events lost\n' "$mode" "$r" \
		"${#files[@]}" "$(lost_of "${files[@]}")" | tee -a "$T/results"
}
for ((r = 1; r <= ROUNDS; r++)); do
	run rotate "$IOREC" -S "$SIZE" --keep 1000
	[ -z "$IOREC2" ] || run rotate-b "$IOREC2" -S "$SIZE" --keep 1000
	run one-file "$IOREC"
done
echo "medians of $ROUNDS rounds (events lost):"
for m in rotate rotate-b one-file; do
	awk -v m="$m" '$1 == m { print $(NF-2) }' "$T/results" | sort -n |
		awk -v m="$m" '{ v[NR] = $1 } END { if (NR) printf "  %-10s %d\n", m, v[int((NR + 1) / 2)] }'
done
