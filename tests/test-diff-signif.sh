#!/bin/sh
# test-diff-signif.sh - what 'ioreport diff' may call significant, on the
# story000 pair: no latency change under 10 us (0.001 -> 0.002 ms was
# starred), and no I2D of a device the devices view calls "not
# measurable" (the loop devices, without an I/O scheduler) is compared.
# docs/diff-significance.md.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
IOREPORT=${IOREPORT:-$top_builddir/ioreport}
S=$top_srcdir/samples
command -v python3 >/dev/null || { echo "SKIP: needs python3"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/test-diff-signif.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() { echo "test-diff-signif: FAIL: $*" >&2; exit 1; }

"$IOREPORT" diff --json "$S/story000-sqlite-before.iorec" "$S/story000-sqlite-after.iorec" \
	>"$T/d.json" 2>/dev/null || fail "ioreport diff --json"
"$IOREPORT" devices "$S/story000-sqlite-before.iorec" >"$T/dev.txt" 2>/dev/null || fail "ioreport devices"
python3 - "$T/d.json" "$T/dev.txt" <<'PY' || fail "significance"
import json, re, sys
d = json.load(open(sys.argv[1]))
unmeasured = set(re.findall(r"^  (\S+): no I/O scheduler", open(sys.argv[2]).read(), re.M))
if not unmeasured:
	print("the devices view names no device without a scheduler", file=sys.stderr)
	sys.exit(1)
bad = 0
for sec, rows in d["sections"].items():
	if not isinstance(rows, list):
		continue
	for r in rows:
		for k, m in r["metrics"].items():
			if not isinstance(m, dict):
				continue
			if k.endswith("_ns") and m.get("significant") and m.get("delta") is not None and abs(m["delta"]) < 10000:
				bad += 1
				print("%s %s %s: %s starred" % (sec, r["key"], k, m), file=sys.stderr)
			if sec == "devices" and k == "i2d_p50_ns" and r["key"].split()[0] in unmeasured and \
			   (m.get("before") is not None or m.get("after") is not None):
				bad += 1
				print("%s %s: I2D compared where not measurable: %s" % (sec, r["key"], m), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
echo "test-diff-signif: PASS"
