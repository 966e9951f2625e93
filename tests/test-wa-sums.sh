#!/bin/sh
# test-wa-sums.sh - write amplification that adds up: on every sample, per
# device in 'ioreport wa --json', data + journal + metadata + other bytes
# are the device's write bytes, and, since every write request of a
# recording with bio events has an owner, other is 0 on the samples (the
# writes a lower device does for a loop device stacked on it are that
# device's backing-file data, docs/attribution.md); in 'ioreport diff
# --json' of the story pairs, every row of the write-amplification
# section, the "overall" row included, adds up the same way on both sides
# (the overall row sums the devices its device writes count, the ones
# with application writes).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
IOREPORT=${IOREPORT:-$top_builddir/ioreport}
S=$top_srcdir/samples
command -v python3 >/dev/null || { echo "SKIP: needs python3"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/test-wa-sums.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() { echo "test-wa-sums: FAIL: $*" >&2; exit 1; }

for f in "$S"/*.iorec; do
	"$IOREPORT" wa --json "$f" >"$T/wa.json" 2>/dev/null || fail "ioreport wa --json $f"
	python3 - "$T/wa.json" "$f" <<'PY' || fail "wa parts of $f"
import json, sys
d = json.load(open(sys.argv[1]))
bad = 0
for x in d["devices"]:
	parts = x["data_bytes"] + x["journal_bytes"] + x["metadata_bytes"] + x["other_bytes"]
	if parts != x["write_bytes"] or x["other_bytes"]:
		bad += 1
		print("%s %s: data %d + journal %d + metadata %d + other %d != writes %d" % (
			sys.argv[2], x["device"], x["data_bytes"], x["journal_bytes"],
			x["metadata_bytes"], x["other_bytes"], x["write_bytes"]), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
done
for p in story000-sqlite-before:story000-sqlite-after story001-barrier:story001-nobarrier \
	story002-dirty-default:story002-dirty-tuned; do
	a=$S/${p%%:*}.iorec b=$S/${p#*:}.iorec
	"$IOREPORT" diff --json "$a" "$b" >"$T/diff.json" 2>/dev/null || fail "ioreport diff --json $a $b"
	python3 - "$T/diff.json" "$p" <<'PY' || fail "diff write amplification of $p"
import json, sys
d = json.load(open(sys.argv[1]))
bad = 0
rows = d["sections"]["write_amplification"]
if not any(r["key"] == "overall" for r in rows):
	print("no overall row", file=sys.stderr)
	sys.exit(1)
for r in rows:
	m = r["metrics"]
	for side in ("before", "after"):
		v = lambda k: (m.get(k) or {}).get(side) or 0
		parts = v("data_bytes") + v("journal_bytes") + v("metadata_bytes") + v("other_bytes")
		if parts != v("write_bytes"):
			bad += 1
			print("%s %s %s: parts %d != device writes %d" % (sys.argv[2], r["key"], side,
				parts, v("write_bytes")), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
done
echo "test-wa-sums: PASS"
