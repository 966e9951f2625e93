#!/usr/bin/env bash
# test-hist-units.sh - the devices view's latency histograms, on every
# sample: each is drawn in the unit its own samples call for (usecs while
# its p99 is below 4096 us, msecs below 4096 ms, else secs: the p99 read
# from the JSON of the same view, not from the text), and with --interval
# every interval has the histograms of its requests (iolatency's form):
# in JSON the interval histograms of each device and operation add up,
# bucket by bucket, to the whole recording's (and their iostat busy time
# to the whole's, device by device), and in text each interval
# with requests prints one histogram per device and operation that had
# a device time.
set -u
cd "$top_srcdir" || exit 1
shopt -s nullglob
samples=(samples/*.iorec samples/*.dat)
[ ${#samples[@]} -gt 0 ] || { echo "SKIP: no samples"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
n=0
for s in "${samples[@]}"; do
	"$IOREPORT" devices "$s" >"$dir/text" 2>/dev/null &&
	"$IOREPORT" devices --json "$s" >"$dir/json" 2>/dev/null &&
	"$IOREPORT" devices --interval 0.25 --json "$s" >"$dir/ivl.json" 2>/dev/null &&
	"$IOREPORT" devices --interval 0.25 "$s" >"$dir/ivl.text" 2>/dev/null ||
		{ echo "FAIL: ioreport devices failed on $s"; exit 1; }
	python3 - "$s" "$dir" <<'PY' || exit 1
import json, re, sys
from collections import Counter
name, d = sys.argv[1], sys.argv[2]
whole = json.load(open(d + "/json"))
rows = {(r["device"], r["op"]): r for r in whole.get("devices", [])}
# the units of the text histograms
text = open(d + "/text").read().splitlines()
seen = 0
for i, line in enumerate(text):
	m = re.match(r"^(\S+) (\S+): device time \(issue -> complete\)$", line)
	if not m:
		continue
	r = rows[(m.group(1), m.group(2))]
	p99 = r["d2c"]["p99_ns"]
	want = "usecs" if p99 < 4096e3 else "msecs" if p99 < 4096e6 else "secs"
	got = text[i + 1].split()[0] if i + 1 < len(text) else None
	if r["d2c"]["count"] and got != want:
		sys.exit("FAIL: %s: %s %s: histogram in %s, its p99 %d ns wants %s"
			 % (name, m.group(1), m.group(2), got, p99, want))
	seen += 1
if rows and not seen:
	sys.exit("FAIL: %s: no device time histogram in the text" % name)
# the intervals' histograms add up to the whole
ivl = json.load(open(d + "/ivl.json"))
sums = {}
slots_with = 0
for s in ivl["intervals"]:
	for r in s.get("devices", []):
		if "d2c" not in r:
			sys.exit("FAIL: %s: interval %d: %s %s has no d2c histogram"
				 % (name, s["index"], r["device"], r["op"]))
		c = sums.setdefault((r["device"], r["op"]), Counter())
		for lo, hi, k in r["d2c"]["buckets"]:
			c[(lo, hi)] += k
		slots_with += r["d2c"]["count"] > 0
for k, r in rows.items():
	want = Counter({(lo, hi): c for lo, hi, c in r["d2c"]["buckets"]})
	got = +sums.get(k, Counter())
	if got != want:
		sys.exit("FAIL: %s: %s %s: the intervals' d2c buckets %s != the whole %s"
			 % (name, k[0], k[1], sorted(got.items())[:4], sorted(want.items())[:4]))
# the intervals' busy time (iostat's %util numerator) adds up to the
# whole recording's, device by device: a request in flight across an
# interval's end counts where it completes, the part before the end too
busy = Counter()
for s in ivl["intervals"]:
	for r in s.get("iostat", []):
		busy[r["dev"]] += r["busy_ns"]
for r in whole.get("iostat", []):
	if busy[r["dev"]] != r["busy_ns"]:
		sys.exit("FAIL: %s: %s: the intervals' busy_ns add up to %d, the whole's %d"
			 % (name, r["dev"], busy[r["dev"]], r["busy_ns"]))
# the text: as many interval histograms as device and operation rows
# with a device time
n = sum(1 for l in open(d + "/ivl.text")
	if re.match(r"^  \S+ \S+: device time \(issue -> complete\)$", l))
if n != slots_with:
	sys.exit("FAIL: %s: %d interval histograms in the text, %d in JSON"
		 % (name, n, slots_with))
print("%s: %d histograms, %d in intervals" % (name, seen, n))
PY
	n=$((n + 1))
done
echo "ok: $n samples"
