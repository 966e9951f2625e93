#!/usr/bin/env bash
# report-fsync-many.sh - a package install's pattern: thousands of files
# fsynced once each.  Writer A writes a byte to each of N files and
# fsyncs it; writer B does the same to the first M of them.  The fsync
# view keeps one row per file and per process, each with the ext4 fsyncs
# the writers made (N and M by process; 2 on the first M files, 1 on the
# others; no file twice), the findings count A's calls and name it as
# the process that synced the most to the loop device (flash-wear), and the diff of the recording with itself pairs every file
# row with its own.  These are the rows the analyzer finds by hash (an
# fsync interval's row, a file's diff row); each once scanned them all,
# seconds per view on 40,000 files.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

need_root_tracefs
need_cmd python3 mkfs.ext4
need_event ext4:ext4_sync_file_enter ext4:ext4_sync_file_exit

N=${FSYNC_MANY_FILES:-3000}
M=$((N / 10))
make_loop_ext4 64 "" ""
mkdir "$MNT/d"
cat >"$T/w.py" <<'EOF'
import os, sys
d, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    fd = os.open(os.path.join(d, "f%d" % i), os.O_WRONLY | os.O_CREAT, 0o644)
    os.write(fd, b"x")
    os.fsync(fd)
    os.close(fd)
EOF
run_iorec -q -b 16384 -o "$T/rec.iorec" -- bash -c \
	"python3 '$T/w.py' '$MNT/d' $N && exec python3 '$T/w.py' '$MNT/d' $M" ||
	fail "iorec -- the writers failed"
"$IOREPORT" fsync --json --top 100000 "$T/rec.iorec" >"$T/fsync.json" ||
	fail "ioreport fsync failed"
"$IOREPORT" findings --json "$T/rec.iorec" >"$T/findings.json" ||
	fail "ioreport findings failed"
"$IOREPORT" diff --json --top 100000 "$T/rec.iorec" "$T/rec.iorec" >"$T/diff.json" ||
	fail "ioreport diff failed"
python3 - "$T" "$MNT/d" "$N" "$M" "$LOOPNAME" <<'EOF' || fail "the fsync rows are not the writers'"
import collections, json, sys
t, d, n, m = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
F = json.load(open(t + "/fsync.json"))
bad = []
# by process: the two writers' ext4 fsyncs
mine = sorted(p["ext4_fsyncs"] for p in F["processes"] if p["comm"] == "python3")
if mine != [m, n]:
    bad.append("python3 processes' ext4 fsyncs %s, not %s" % (mine, [m, n]))
# by file: every file once, with its count
rows = [f for f in F["files"] if f["path"] and f["path"].startswith(d + "/")]
seen = collections.Counter(f["path"] for f in rows)
dup = [p for p, c in seen.items() if c > 1]
if dup:
    bad.append("%d files have several rows: %s" % (len(dup), dup[:3]))
want = {"%s/f%d" % (d, i): 2 if i < m else 1 for i in range(n)}
got = {f["path"]: f["ext4_fsyncs"] for f in rows}
wrong = [(p, got.get(p), c) for p, c in want.items() if got.get(p) != c]
if wrong:
    bad.append("%d of %d files have other ext4 fsyncs than written (path, got, wrote): %s"
               % (len(wrong), n, wrong[:3]))
# the diff of the recording with itself: every file paired, none alone
D = json.load(open(t + "/diff.json"))
frows = [r for r in D["sections"]["files"] if r["key"].startswith(d + "/")]
alone = [r["key"] for r in frows if not (r["in_before"] and r["in_after"])]
if len(frows) != n or alone:
    bad.append("the diff's files section: %d rows of the %d files, %d of one side only"
               % (len(frows), n, len(alone)))
# the findings: the process that synced the most is the first writer
X = json.load(open(t + "/findings.json"))
fs = [x for x in X["findings"] if x["rule"] == "fsync"]
if not fs or not any(str(n) in x["sentence"] for x in fs):
    bad.append("no fsync finding counts the first writer's %d calls: %s"
               % (n, [x["sentence"][:120] for x in fs]))
# the process that synced the most to the device: the first writer
pa = [p["pid"] for p in F["processes"] if p["comm"] == "python3" and p["ext4_fsyncs"] == n]
wear = [x for x in X["findings"] if x["rule"] == "flash-wear" and
        {"kind": "device", "name": sys.argv[5]} in
        [{"kind": e["kind"], "name": e["name"]} for e in x["entities"]]]
who = [e["id"] for x in wear for e in x["entities"] if e["kind"] == "process"]
if not wear or who != pa[:1]:
    bad.append("the flash-wear finding names process %s, not the first writer %s: %s"
               % (who, pa, [x["sentence"] for x in wear]))
for b in bad:
    print("report-fsync-many: " + b, file=sys.stderr)
print("report-fsync-many: %d files, %d rows by file, writers' ext4 fsyncs %s, %d diff rows"
      % (n, len(rows), mine, len(frows)), file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
finish
