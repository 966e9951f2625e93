#!/usr/bin/env bash
# paths-names.sh - names that change: a file written under a temporary
# name and renamed over the real one (the atomic save), two files swapped
# by renameat2(RENAME_EXCHANGE), a file written after its name was
# unlinked, and a file written through a second hard link.  Each row must
# carry its final name with the earlier ones (text, JSON and the
# database), exactly the bytes written to it under every name, and the
# process all of them.
#
# Needs root, tracefs and libc uprobes for the names (skips otherwise).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/live/paths-lib.sh"
need_event syscalls:sys_enter_renameat2 syscalls:sys_enter_unlink syscalls:sys_enter_link
# (--check's text whole first: see paths-aio.sh)
grep -qE '^ *[0-9]+\. uprobe +yes' <<<"$("$IOREC" --check 2>/dev/null)" ||
	skip "no libc uprobes on this machine: renames are not named"

make_loop_ext4 64
echo old >"$MNT/cfg.json"	# the file the save replaces, before the recording
sync

cat >"$T/names.py" <<'PYEOF'
import ctypes, os, sys
d, truth = sys.argv[1], sys.argv[2]
libc = ctypes.CDLL(None, use_errno=True)
lines, total = [], 0
def w(name, n, flags=os.O_TRUNC):
	global total
	fd = os.open(d + "/" + name, os.O_WRONLY | os.O_CREAT | flags, 0o644)
	os.write(fd, b"x" * n)
	os.fsync(fd)
	os.close(fd)
	total += n
# the atomic save: write cfg.json.tmp, rename it over cfg.json
w("cfg.json.tmp", 5000)
os.rename(d + "/cfg.json.tmp", d + "/cfg.json")
lines.append(("file", "cfg.json", 5000))
lines.append(("names", "cfg.json", "written as %s/cfg.json.tmp" % d))
# swap two files
w("a.x", 3000)
w("b.x", 7000)
assert libc.renameat2(-100, (d + "/a.x").encode(), -100, (d + "/b.x").encode(), 2) == 0
lines.append(("file", "a.x", 7000))
lines.append(("names", "a.x", "written as %s/b.x" % d))
lines.append(("file", "b.x", 3000))
lines.append(("names", "b.x", "written as %s/a.x" % d))
# written after its name is gone
fd = os.open(d + "/gone.log", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
os.unlink(d + "/gone.log")
os.write(fd, b"g" * 9000)
os.close(fd)
total += 9000
lines.append(("file", "gone.log", 9000))
lines.append(("unlinked", "gone.log", 1))
# one file, two names
w("orig.l", 1000)
os.link(d + "/orig.l", d + "/alias.l")
w("alias.l", 500, os.O_APPEND)
lines.append(("file", "orig.l", 1500))
lines.append(("names", "orig.l", "linked as %s/alias.l" % d))
with open(truth, "w") as t:
	for what, name, v in lines:
		t.write("%s %s/%s %s\n" % (what, d, name, v))
	t.write("proc+truth %d %d\n" % (os.getpid(), total))
PYEOF

paths_workload "$T/names.iorec" "$T/names.py"
grep -E '^(file|proc)' "$T/truth" >"$T/truth.bytes"
PATHS_TRUTH_WRITTEN=$T/truth paths_check "$T/names.iorec" "$T/truth.bytes" names
# the names, in JSON and in the text view
"$IOREPORT" files --wide --top 1000000 "$T/names.iorec" >"$T/names.files.txt" 2>"$T/err" ||
	{ cat "$T/err" >&2; fail "ioreport files failed"; }
python3 - "$T/names.files.json" "$T/truth" "$T/names.files.txt" <<'PY' ||
import json, sys
F = json.load(open(sys.argv[1]))
text = open(sys.argv[3]).read().splitlines()
rows = {f["path"]: f for f in F["files"] if f["path"]}
bad = 0
for line in open(sys.argv[2]):
	what, path, rest = line.rstrip("\n").split(" ", 2)
	if what == "names":
		got = rows.get(path, {}).get("other_names")
		shown = any(l.endswith("  %s  (%s)" % (path, rest)) for l in text)
		ok = got == rest and shown
	elif what == "unlinked":
		got = rows.get(path, {}).get("unlinked")
		ok = got is True and any(l.endswith("  %s  (unlinked)" % path) for l in text)
	else:
		continue
	print("names: %-9s %s: %r%s" % (what, path, got, "" if ok else "   <-- WRONG"), file=sys.stderr)
	bad += not ok
sys.exit(1 if bad else 0)
PY
	fail "names: a file's final and earlier names are not on its row"
# and in the database: the file rows of the final names carry them too
"$IOREPORT" db "$T/names.sqlite" "$T/names.iorec" >/dev/null 2>"$T/err" ||
	{ cat "$T/err" >&2; fail "ioreport db failed"; }
python3 - "$T/names.sqlite" "$T/truth" <<'PY' ||
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
bad = 0
for line in open(sys.argv[2]):
	what, path, rest = line.rstrip("\n").split(" ", 2)
	if what == "names":
		q = "SELECT count(*) FROM files WHERE path = ? AND other_names = ?"
		args = (path, rest)
	elif what == "unlinked":
		q = "SELECT count(*) FROM files WHERE path = ? AND unlinked = 1"
		args = (path,)
	else:
		continue
	n = db.execute(q, args).fetchone()[0]
	print("names: db %-9s %s: %d row(s)%s" % (what, path, n, "" if n == 1 else "   <-- WRONG"), file=sys.stderr)
	bad += n != 1
sys.exit(1 if bad else 0)
PY
	fail "names: the database's file rows lack the names"
finish
