#!/usr/bin/env bash
# redact-hostile.sh - ioreport redact on a recording of files with hostile
# names the test makes up, on a loop ext4: a directory with a dot
# (john.smith), one with spaces, one in UTF-8, a file name with a newline,
# names that contain other names, and an SQLite-like family X.db, X.db-wal,
# X.db-journal.  The original names them all (checked first); after
# redact no part of any of them (each part carries a random tag, so a
# match is a leak) appears in any view's text or JSON, in dump or in the
# chunk bytes; X.db, X.db-wal and X.db-journal become P.db, P.db-wal and
# P.db-journal with one pseudonym P; every path pseudonym in the mapping
# is of the one scheme (name-N or nN, then a kept file-type suffix); and
# every view keeps the original's numbers (tests/redact/check-redact.py).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

need_root_tracefs
need_cmd python3 zstd mkfs.ext4
need_event block:block_rq_complete

# eight random letters (a-p): no digit of a name reads as a number
tag=$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n' | tr 0-9 g-p)
make_loop_ext4 32 "" ""
cat > "$T/work.py" <<EOW
import os, sys
root, tag = sys.argv[1], sys.argv[2]
dirs = ["john%s.smith%s" % (tag, tag), "my secret%s dir" % tag,
        "\u00fcn\u00efc\u00f8d\u00e9%s" % tag, "wombat%s" % tag,
        "wombat%s/wombat%sinner" % (tag, tag)]
for d in dirs:
    os.makedirs(os.path.join(root, d), exist_ok=True)
files = [dirs[0] + "/notes%s.txt" % tag,
         dirs[1] + "/line%s\nbreak%s.log" % (tag, tag),
         dirs[2] + "/caf\u00e9%s.json" % tag,
         dirs[4] + "/wombat%s.wombat%s" % (tag, tag)]
db = dirs[0] + "/test%s.db" % tag
for p in files + [db, db + "-wal", db + "-journal"]:
    with open(os.path.join(root, p), "wb") as f:
        f.write(b"x" * 8192)
        os.fsync(f.fileno())
    with open(os.path.join(root, p), "rb") as f:
        f.read()
EOW
run_iorec -q -o "$T/orig.iorec" -- python3 "$T/work.py" "$MNT" "$tag" ||
	fail "iorec -- work.py failed"
# every part of every hostile name, each with the tag
parts=("john$tag" "smith$tag" "secret$tag" "$(printf '\303\274n\303\257c\303\270d\303\251')$tag"
       "wombat$tag" "wombat${tag}inner" "notes$tag" "line$tag" "break$tag"
       "caf$(printf '\303\251')$tag" "test$tag")
# (the name with a newline is in the events, the files view leaves it out)
files=$("$IOREPORT" files --wide --top 1000 "$T/orig.iorec"; "$IOREPORT" dump "$T/orig.iorec")
for p in "${parts[@]}"; do
	grep -aF -- "$p" <<<"$files" >/dev/null ||
		fail "the original recording does not name $p: no test"
done
"$IOREPORT" redact -m "$T/map" "$T/orig.iorec" "$T/red.iorec" || fail "ioreport redact failed"
# no part survives anywhere (the views, their JSON, dump, the chunk bytes)
for v in summary devices processes "files --wide --top 1000" slow snoop wa fsync report; do
	# shellcheck disable=SC2086
	"$IOREPORT" $v "$T/red.iorec" >>"$T/all.txt" 2>&1
	# shellcheck disable=SC2086
	"$IOREPORT" $v --json "$T/red.iorec" >>"$T/all.txt" 2>/dev/null
done
"$IOREPORT" dump "$T/red.iorec" >>"$T/all.txt" 2>&1
python3 "$top_srcdir/tests/redact/chunk-bytes.py" "$T/red.iorec" >>"$T/all.txt" ||
	fail "chunk-bytes.py failed"
for p in "${parts[@]}"; do
	if grep -aF -- "$p" "$T/all.txt" >/dev/null; then
		fail "'$p' survives redact: $(grep -aF -- "$p" "$T/all.txt" | head -2)"
	fi
done
# the mapping: one scheme, and the database family related
python3 - "$T/map" "$tag" <<'EOP' || fail "the mapping"
import re, sys
tag = sys.argv[2]
m = {}
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    f = line.rstrip("\n").split("\t")
    if len(f) == 3 and f[0] == "path":
        m[f[1]] = f[2]
# (the mapping writes a control character escaped: \n)
scheme = re.compile(r"^(name-[0-9]+|n[0-9]+)(\\[a-z0-9]+)?(\.[A-Za-z0-9]+)*(-wal|-shm|-journal)?$")
bad = [(k, v) for k, v in m.items() if tag in k and not scheme.match(v)]
assert not bad, "pseudonyms outside the scheme: %s" % bad[:3]
db = "test%s.db" % tag
fam = [m.get(db), m.get(db + "-wal"), m.get(db + "-journal")]
assert all(fam), "the database family is not in the mapping: %s" % fam
stem = fam[0][:-len(".db")]
assert fam == [stem + ".db", stem + ".db-wal", stem + ".db-journal"], \
    "X.db, X.db-wal, X.db-journal became %s" % fam
d = m.get("john%s.smith%s" % (tag, tag))
assert d and "." not in d, "the directory john.smith became %r" % d
print("redact-hostile: %s -> %s; john.smith -> %s" % (db, fam, d))
EOP
python3 "$top_srcdir/tests/redact/check-redact.py" "$IOREPORT" "$T/orig.iorec" "$T/red.iorec" \
	"${parts[@]}" || fail "redaction check failed"
finish
