#!/usr/bin/env bash
# test-inode-names.sh - the end snapshot's inode lines (iorec(5)), added
# to a sample recorded before they existed: an inode the views list as
# "<dev M:m ino N>" takes its line's path with exactly the bytes it had,
# a "gone" line leaves its inode unnamed and unlinked, a line kind no
# reader knows is skipped, and every other row is as it was.
set -euo pipefail
export LC_ALL=C
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
IOREPORT=${IOREPORT:-$top_builddir/ioreport}
S=$top_srcdir/samples/story000-sqlite-before.iorec
fail() { echo "test-inode-names: FAIL: $*" >&2; exit 1; }
[ -x "$IOREPORT" ] || { echo "SKIP: $IOREPORT not built"; exit 77; }
[ -f "$S" ] || { echo "SKIP: sample $S missing"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3"; exit 77; }
command -v zstd >/dev/null || { echo "SKIP: needs the zstd command"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/test-inode-names.XXXXXX")
trap 'rm -rf "$T"' EXIT

"$IOREPORT" files --json --top 1000000 "$S" >"$T/before.json" || fail "ioreport files failed"
# two inodes known only by inode, with block I/O: one named, one gone
python3 - "$T/before.json" >"$T/pick" <<'PY' || fail "the sample has no two files known only by inode"
import json, sys
F = json.load(open(sys.argv[1]))["files"]
v = [f for f in F if not f["path"] and f["dev"] and f["block"]["read_bytes"] + f["block"]["write_bytes"]]
assert len(v) >= 2
for f in v[:2]:
	print(f["dev"], f["ino"])
PY
read -r dev1 ino1 dev2 ino2 <<<"$(tr '\n' ' ' <"$T/pick")"
python3 - "$S" "$T/hinted.iorec" "$top_srcdir/tests" "$dev1" "$ino1" "$dev2" "$ino2" <<'PY' ||
import subprocess, sys
sys.path.insert(0, sys.argv[3])
import iorecfile
src, dst = sys.argv[1], sys.argv[2]
dev1, ino1, dev2, ino2 = sys.argv[4:8]
buf = open(src, "rb").read()
major, minor = int.from_bytes(buf[8:10], "little"), int.from_bytes(buf[10:12], "little")
cs = []
for off, typ, flags, _, stored, raw in iorecfile.chunks(buf):
	p = iorecfile.payload(buf, off)
	if typ == iorecfile.SNAPSHOT:
		if flags & iorecfile.COMPRESSED:
			p = subprocess.run(["zstd", "-dcq"], input=p, check=True, capture_output=True).stdout
			flags &= ~iorecfile.COMPRESSED
		if int.from_bytes(p[:4], "little") == 1:
			p += ("inode\t%s\t%s\thandle\t/srv/named by\\tinode.db\t\n"
			      "inode\t%s\t%s\thandle\t\tgone\n"
			      "inodes\t2\t1\t1\t0\t0\n"
			      "zzz-future\tkind\tno reader knows\n" % (dev1, ino1, dev2, ino2)).encode()
		raw = len(p)
	cs.append((typ, flags, p, raw))
open(dst, "wb").write(iorecfile.encode(cs, major, minor))
PY
	fail "cannot add inode lines to the sample"
"$IOREPORT" files --json --top 1000000 "$T/hinted.iorec" >"$T/after.json" ||
	fail "ioreport files of the sample with inode lines failed"
python3 - "$T/before.json" "$T/after.json" "$dev1" "$ino1" "$dev2" "$ino2" <<'PY' ||
import json, sys
B, A = (json.load(open(f))["files"] for f in sys.argv[1:3])
dev1, ino1, dev2, ino2 = sys.argv[3], int(sys.argv[4]), sys.argv[5], int(sys.argv[6])
def key(f):
	return (f["dev"], f["ino"]) if f["dev"] else (f["name"],)
def strip(f):
	return {k: v for k, v in f.items() if k not in ("path", "name", "unlinked")}
b = {key(f): f for f in B}
a = {key(f): f for f in A}
bad = 0
one = a.get((dev1, ino1))
ok = one and one["path"] == "/srv/named by\tinode.db" and strip(one) == strip(b[(dev1, ino1)])
print("inode-names: %s:%d named %r%s" % (dev1, ino1, one and one["path"], "" if ok else "   <-- WRONG"), file=sys.stderr)
bad += not ok
two = a.get((dev2, ino2))
ok = two and two["path"] is None and two.get("unlinked") is True and strip(two) == strip(b[(dev2, ino2)])
print("inode-names: %s:%d gone: path %r unlinked %r%s" % (dev2, ino2, two and two["path"], two and two.get("unlinked"), "" if ok else "   <-- WRONG"), file=sys.stderr)
bad += not ok
same = sum(1 for k in b if k not in ((dev1, ino1), (dev2, ino2)) and a.get(k) == b[k])
print("inode-names: %d of %d other rows unchanged" % (same, len(b) - 2), file=sys.stderr)
bad += same != len(b) - 2 or len(a) != len(b)
sys.exit(1 if bad else 0)
PY
	fail "the inode lines did not name exactly their inodes"
echo "test-inode-names: ok"
