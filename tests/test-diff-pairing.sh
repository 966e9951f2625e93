#!/bin/sh
# test-diff-pairing.sh - 'ioreport diff' on the story pairs says what it
# pairs and how it judges the paired findings (issue 25 item 7, issue
# 26): story 001 moved its database from one mount to another (the same
# loop device), so the diff must say that it compares AFTER's mount as
# BEFORE's, because of the same files below it, and name AFTER's files
# as BEFORE's; the kernel's workers are one row (their numbers change
# from run to run); every paired finding carries the severity it has in
# its own recording (ioreport findings --json of each) and, where a test
# applies, the significance the diff's own section row gives the same
# metric; a device AFTER still flushes is not "gone"; the JSON lists
# every change, the text says how many it leaves out.
# tests/live/report-diff-moved.sh does the same with the old
# mount still mounted.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
IOREPORT=${IOREPORT:-$top_builddir/ioreport}
S=$top_srcdir/samples
command -v python3 >/dev/null || { echo "SKIP: needs python3"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/test-diff-pairing.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() { echo "test-diff-pairing: FAIL: $*" >&2; exit 1; }

for pair in "story000-sqlite-before story000-sqlite-after" "story001-barrier story001-nobarrier" \
	    "story002-dirty-default story002-dirty-tuned"; do
	set -- $pair
	"$IOREPORT" diff --json --top 100000 "$S/$1.iorec" "$S/$2.iorec" >"$T/d.json" 2>/dev/null ||
		fail "ioreport diff --json $1 $2"
	"$IOREPORT" diff "$S/$1.iorec" "$S/$2.iorec" >"$T/d.txt" 2>/dev/null || fail "ioreport diff $1 $2"
	"$IOREPORT" findings --json "$S/$1.iorec" >"$T/b.json" 2>/dev/null || fail "findings $1"
	"$IOREPORT" findings --json "$S/$2.iorec" >"$T/a.json" 2>/dev/null || fail "findings $2"
	"$IOREPORT" fsync --json "$S/$2.iorec" >"$T/af.json" 2>/dev/null || fail "fsync $2"
	python3 - "$T/d.json" "$T/b.json" "$T/a.json" "$T/d.txt" "$1" "$T/af.json" <<'PY' || fail "$1 vs $2"
import json, re, sys
d = json.load(open(sys.argv[1]))
fb = json.load(open(sys.argv[2]))["findings"]
fa = json.load(open(sys.argv[3]))["findings"]
text = open(sys.argv[4]).read()
name = sys.argv[5]
bad = []
def sev(f):
	return "caveat" if f["caveat"] else f["severity"]
by_sentence = [dict((f["sentence"], sev(f)) for f in fs) for fs in (fb, fa)]
rows = dict(((s, r["key"]), r) for s, v in d["sections"].items() if isinstance(v, list) for r in v)
if not d["findings"]:
	bad.append("no paired findings")
for c in d["findings"]:
	for side, k in ((0, "before"), (1, "after")):
		want = by_sentence[side].get(c[k]) if c[k] is not None else None
		# under its rule's thresholds on one side: a sentence of no finding
		quiet = (c["change"] == "under-threshold" and k == "after") or \
			(c["change"] == "new" and k == "before")
		if c[k] is not None and want is None and not quiet:
			bad.append("%s sentence of #%d is no finding of that recording" % (k, c["rank"]))
		if c["severity_" + k] != want:
			bad.append("#%d severity %s %s, the recording's finding says %s" % (c["rank"], k, c["severity_" + k], want))
	s = c["significance"]
	if s is None:
		if c["significant"] is not None:
			bad.append("#%d significant without a test" % c["rank"])
		continue
	r = rows.get((s["section"], s["key"]))
	if r is None:
		bad.append("#%d tested on %s %s, a row the diff does not have" % (c["rank"], s["section"], s["key"]))
		continue
	m = r["metrics"][s["metric"]]
	if (m["significant"], m["p"], m["test"]) != (c["significant"], s["p"], s["test"]):
		bad.append("#%d significance %s/%s/%s, its row %s %s says %s/%s/%s" % (c["rank"],
			c["significant"], s["p"], s["test"], s["key"], s["metric"], m["significant"], m["p"], m["test"]))
# the text says the same: severity BEFORE -> AFTER and the test of each
for c in d["findings"][:5]:
	rule = c["rule"] if c["rule_before"] in (None, c["rule"]) or c["rule_after"] is None \
		else "%s -> %s" % (c["rule_before"], c["rule_after"])
	lead = re.compile(r"(?:^| )%d\. %s %s \(time lost [^;]* -> [^;]*; %s -> %s; " % (c["rank"], c["change"], re.escape(rule),
		re.escape(c["severity_before"] or "-"), re.escape(c["severity_after"] or "-")))
	if not lead.search(" ".join(text.split())):	# a long lead wraps
		bad.append("the text lacks %r" % lead)
# "gone" is gone: a device AFTER still flushes is under the threshold, not
# gone (its flushes from AFTER's fsync view)
fl = dict((x["device"], x["flushes"] + x["preflush"] + x["fua"])
	  for x in json.load(open(sys.argv[6]))["devices"])
for c in d["findings"]:
	if c["change"] == "gone" and c["rule"] == "flushes":
		dev = c["before"].split(" ")[0]
		if fl.get(dev):
			bad.append("#%d flushes of %s gone, AFTER's fsync view has %d" % (c["rank"], dev, fl[dev]))
# every finding of either recording is in a change of the JSON
for side, k, fs in ((0, "before", fb), (1, "after", fa)):
	said = set(c[k] for c in d["findings"])
	for f in fs:
		if f["sentence"] not in said:
			bad.append("%s's finding %s (%s) is in no change" % (k.upper(), f["rule"], f["sentence"][:40]))
# the JSON lists every change, the text the first five and how many more
shown = len(re.findall(r"^ +\d+\. (?:changed|gone|new|under-threshold) ", text, re.M))
more = re.search(r"^  (\d+) more, smaller changes", text, re.M)
if shown + (int(more.group(1)) if more else 0) != len(d["findings"]):
	bad.append("the text shows %d changes and %s more, the JSON %d" % (shown, more.group(1) if more else 0, len(d["findings"])))
# kernel workers: one row, under one name
for (s, k) in rows:
	if k.startswith("kworker/") and k != "kworker/*":
		bad.append("a kworker row by its number: %s %s" % (s, k))
if name == "story001-barrier":
	p = [(x["what"], x["before"], x["after"], x["why"]) for x in d["pairing"]]
	want = [x for x in p if x[0] == "mount" and x[1].endswith("/s1-barrier") and x[2].endswith("/s1-nobarrier")]
	if not want or "the same files" not in want[0][3]:
		bad.append("the mount of story 001 is not said paired by its files: %s" % p)
	para = " ".join(re.search(r"^paired .*?\n\n", text, re.M | re.S).group(0).split()) if "\npaired " in text else ""
	if not re.search(r"mount \S+/s1-nobarrier \(AFTER\) as \S+/s1-barrier: the same files", para):
		bad.append("the text does not say the mounts' pairing: %r" % para)
	db = [k for (s, k) in rows if s == "files" and k.endswith("/bcfg2.sqlite")]
	if len(db) != 1 or not db[0].endswith("/s1-barrier/bcfg2.sqlite") or \
	   not (rows[("files", db[0])]["in_before"] and rows[("files", db[0])]["in_after"]):
		bad.append("the database is not one row of both: %s" % db)
for b in bad:
	print("%s: %s" % (name, b), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
done
echo "test-diff-pairing: PASS"
