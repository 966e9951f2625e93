#!/usr/bin/env bash
# test-redact.sh - ioreport redact on the samples (recordings of known
# workloads): no name of the original survives in any view, in dump or in
# the decompressed chunk bytes, every number of every view is the
# original's (tests/redact/check-redact.py), a before/after pair redacted
# with one mapping diffs as the originals do, and the options and failures
# behave as documented.
set -u
cd "$top_srcdir" || exit 1
export LC_ALL=C TZ=UTC
command -v python3 >/dev/null || { echo "SKIP: python3 missing (scripts/install-deps.sh installs it)"; exit 77; }
command -v zstd >/dev/null || { echo "SKIP: zstd missing (scripts/install-deps.sh installs it)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
check=tests/redact/check-redact.py

# names, numbers, info: on samples of each kind (syscalls, barriers,
# dirty throttling, a 32-bit ARM recording)
for s in samples/story000-sqlite-before.iorec samples/story001-barrier.iorec \
	 samples/story002-dirty-default.iorec samples/arm-armhf.iorec; do
	[ -f "$s" ] || { bad "sample $s missing"; continue; }
	out=$tmp/red.iorec
	"$IOREPORT" redact -m "$tmp/map" "$s" "$out" || { bad "redact $s failed"; continue; }
	python3 "$check" "$IOREPORT" "$s" "$out" || fail=1
	rm -f "$tmp/map"
done

# raw sys_enter registers: a call's own arguments kept, the registers it
# does not take (left over by the program: text, pointers) zeroed; the
# x86_64 arities: read, write 3, close 1, pread64 4, dup2 2, openat 4
raw=samples/rawsyscalls.iorec
"$IOREPORT" redact "$raw" "$tmp/raw.iorec" || bad "redact $raw failed"
"$IOREPORT" dump "$raw" >"$tmp/raw-a.dump" 2>/dev/null &&
"$IOREPORT" dump "$tmp/raw.iorec" >"$tmp/raw-b.dump" 2>/dev/null || bad "dump of $raw failed"
python3 - "$tmp/raw-a.dump" "$tmp/raw-b.dump" <<'EOF2' || bad "raw sys_enter registers after redact"
import re, sys
arity = {0: 3, 1: 3, 3: 1, 17: 4, 33: 2, 257: 4}
ex = re.compile(r"sys_enter: +NR (-?[0-9]+) \(([^)]*)\)")
a, b = ([(int(m.group(1)), [int(x, 16) for x in m.group(2).split(",")])
         for m in ex.finditer(open(f).read())] for f in sys.argv[1:3])
assert a and len(a) == len(b), "%d and %d raw sys_enter events" % (len(a), len(b))
zeroed = 0
for (nr, ra), (nr2, rb) in zip(a, b):
    assert nr == nr2 and nr in arity, "NR %d / %d" % (nr, nr2)
    k = arity[nr]
    assert rb[:k] == ra[:k], "NR %d: arguments %s, not %s" % (nr, rb[:k], ra[:k])
    assert not any(rb[k:]), "NR %d: registers past its %d arguments kept: %s" % (nr, k, rb)
    zeroed += sum(1 for x in ra[k:] if x)
assert zeroed, "the sample has no register to zero"
print("%d raw sys_enter events, %d registers zeroed" % (len(a), zeroed))
EOF2

# a pair with one mapping: the diff has the originals' numbers
b=samples/story000-sqlite-before.iorec a=samples/story000-sqlite-after.iorec
"$IOREPORT" redact -m "$tmp/pair.map" "$b" "$tmp/b.iorec" &&
"$IOREPORT" redact -m "$tmp/pair.map" "$a" "$tmp/a.iorec" || bad "redact of the pair failed"
num() { grep -oE '(^|[^A-Za-z0-9_./~-])-?[0-9]+(\.[0-9]+)?' | grep -oE -- '-?[0-9]+(\.[0-9]+)?$' | sort; }
for o in "" --json; do
	# shellcheck disable=SC2086
	x=$("$IOREPORT" diff $o "$b" "$a" | grep -v '^BEFORE\|^AFTER\|"file"' | num)
	# shellcheck disable=SC2086
	y=$("$IOREPORT" diff $o "$tmp/b.iorec" "$tmp/a.iorec" | grep -v '^BEFORE\|^AFTER\|"file"' | num)
	[ -n "$x" ] && [ "$x" = "$y" ] || bad "diff $o of the redacted pair has other numbers"
done
# the second file reused the first one's pseudonyms: its files are named alike
grep -q $'path\thome-assistant_v2.db\t' "$tmp/pair.map" || bad "the mapping lacks the database"
[ "$(grep -c $'^path\thome-assistant_v2.db\t' "$tmp/pair.map")" = 1 ] || bad "a name has two pseudonyms in one mapping"
db=$(awk -F'\t' '$2 == "home-assistant_v2.db" { print $3 }' "$tmp/pair.map")
case $db in *.db) ;; *) bad "the extension of home-assistant_v2.db is not kept: '$db'" ;; esac
"$IOREPORT" files "$tmp/a.iorec" | grep -q "/$db" || bad "the after file does not name $db"

# a mapping of many names (the table grows past its first buckets): a
# name takes its pseudonym from the line of its own kind, names met anew
# are numbered after those read, and each (kind, name) stays one line
python3 - "$tmp/big.map" <<'EOF2'
import sys
with open(sys.argv[1], "w") as f:
    for i in range(6000):
        f.write("path\tname%05d\tdir-%d\n" % (i, i + 1))
        if i == 4321:
            f.write("word\thome-assistant_v2.db\targ-77\n")
            f.write("path\thome-assistant_v2.db\tfile-4321.db\n")
    # a name with a tab, a newline and a backslash, escaped
    f.write("path\ta\\tb\\nc\\\\d\tname-6001\n")
EOF2
"$IOREPORT" redact -m "$tmp/big.map" "$b" "$tmp/big.iorec" || bad "redact with a large mapping failed"
"$IOREPORT" files "$tmp/big.iorec" | grep -q '/file-4321\.db$' || bad "a name of a large mapping lost its pseudonym"
[ "$(cut -f1,2 "$tmp/big.map" | sort | uniq -d | wc -l)" = 0 ] || bad "a (kind, name) has two lines after a large mapping"
[ "$(grep -c $'^path\tname0' "$tmp/big.map")" = 6000 ] || bad "the names read are not all written back"
grep -qxF $'path\ta\\tb\\nc\\\\d\tname-6001' "$tmp/big.map" || bad "an escaped name is not written back as read"
python3 - "$tmp/big.map" <<'EOF2' || bad "a new name was numbered among those read"
import re, sys
lines = open(sys.argv[1]).read().splitlines()
lines = lines[lines.index("path\ta\\tb\\nc\\\\d\tname-6001") + 1:]
# name-N and nNN are numbered; zN (base 62) count the names that need one
nums = [int(m.group(1)) for l in lines
        if l.startswith("path\t") and (m := re.match(r"(?:name-|n)([0-9]+)$", l.split("\t")[2]))]
assert nums and min(nums) > 6002, "new path names numbered %s" % nums[:5]
EOF2

# --keep-basenames keeps file names, --keep-prefix a tree, -E extensions go
"$IOREPORT" redact -b "$b" "$tmp/kb.iorec" || bad "redact -b failed"
"$IOREPORT" files "$tmp/kb.iorec" | grep -q '/home-assistant_v2.db$' || bad "-b did not keep the basename"
"$IOREPORT" files "$tmp/kb.iorec" | grep -q 'iorec-samples' && bad "-b kept a directory"
"$IOREPORT" redact -k /usr/lib "$b" "$tmp/kp.iorec" || bad "redact -k failed"
"$IOREPORT" dump "$tmp/kp.iorec" | grep -q 'path="/usr/lib/locale/' || bad "-k /usr/lib did not keep /usr/lib/..."
"$IOREPORT" dump "$tmp/kp.iorec" | grep -q 'path="/usr/share' && bad "-k /usr/lib kept /usr/share"
"$IOREPORT" redact -E -m "$tmp/e.map" "$b" "$tmp/e.iorec" || bad "redact -E failed"
grep -q $'\thome-assistant_v2.db\t[^.]*$' "$tmp/e.map" || bad "-E kept an extension"
# --drop-devices, --drop-kernel
"$IOREPORT" redact --drop-devices --drop-kernel "$b" "$tmp/d.iorec" || bad "redact --drop-* failed"
i=$("$IOREPORT" info "$tmp/d.iorec")
grep -q '6.18' <<<"$i" && bad "--drop-kernel kept the kernel release"
"$IOREPORT" devices "$tmp/d.iorec" | grep -q 'loop0' && bad "--drop-devices kept loop0"
"$IOREPORT" devices "$b" | grep -q 'loop0' || bad "the original has no loop0: the check above proves nothing"

# failures: one line, exit 1, no OUT left behind
out=$("$IOREPORT" redact samples/tracecmd.dat "$tmp/t.iorec" 2>&1); rc=$?
[ $rc = 1 ] && [ ! -e "$tmp/t.iorec" ] && [ "$(wc -l <<<"$out")" = 1 ] || bad "trace.dat: rc $rc, '$out'"
head -c 100000 "$b" > "$tmp/cut.iorec"
out=$("$IOREPORT" redact "$tmp/cut.iorec" "$tmp/cutr.iorec" 2>&1) || bad "a truncated recording: $out"
grep -q 'ends inside a chunk' <<<"$out" || bad "no warning for a truncated recording: $out"
"$IOREPORT" summary "$tmp/cutr.iorec" >/dev/null || bad "the redacted part of a truncated recording does not read"
printf 'nonsense\n' > "$tmp/badmap"
out=$("$IOREPORT" redact -m "$tmp/badmap" "$b" "$tmp/x.iorec" 2>&1); rc=$?
[ $rc = 1 ] && grep -q 'badmap:1:' <<<"$out" || bad "a bad mapping: rc $rc, '$out'"
"$IOREPORT" redact "$b" 2>/dev/null; [ $? = 2 ] || bad "redact with one file is not a usage error"

# one pseudonym scheme: every path pseudonym of the samples' mappings is
# name-N, nNN or zN and a kept file-type suffix; no part of a name (split at
# . - _ and blanks, 3 characters or more) survives in its pseudonym but
# that suffix ("iorec-samples.PDv0kK" once became "f9.PDv0kK");
# home-assistant_v2.db, -wal and -journal keep one stem
for s in samples/story000-sqlite-before.iorec samples/story001-barrier.iorec; do
	rm -f "$tmp/scheme.map"
	"$IOREPORT" redact -m "$tmp/scheme.map" "$s" "$tmp/scheme.iorec" || { bad "redact $s"; continue; }
	python3 - "$tmp/scheme.map" <<'EOF2' || bad "$s: the pseudonyms of the mapping"
import re, sys
m = {}
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    f = line.rstrip("\n").split("\t")
    if len(f) == 3 and f[0] == "path":
        m[f[1]] = f[2]
assert m, "no path in the mapping"
scheme = re.compile(r"^(name-[0-9]+|n[0-9][0-9]+|z[0-9A-Za-z]+|[a-z0-9]+~[0-9]+|[a-z0-9]+\^[0-9A-Za-z]+)((\.[A-Za-z0-9]+)*(-wal|-shm|-journal)?)$")
for name, p in m.items():
    if name == p:
        continue        # kept: two characters, a kernel thread
    g = scheme.match(p)
    assert g, "%r became %r, outside the scheme" % (name, p)
    assert name.endswith(g.group(2)), "%r became %r: a suffix it has not" % (name, p)
    rest = name[:len(name) - len(g.group(2))] if g.group(2) else name
    for part in re.split(r"[-._ ]+", rest):
        # (name: the scheme's own word)
        assert len(part) < 3 or part == "name" or part not in p, \
            "%r became %r: %r survives" % (name, p, part)
fam = [n for n in m if re.search(r"\.db(-wal|-journal)?$", n)]
stems = {}
for n in fam:
    base = re.sub(r"\.db(-wal|-journal)?$", "", n)
    stems.setdefault(base, set()).add(re.sub(r"\.db(-wal|-journal)?$", "", m[n]))
assert all(len(v) == 1 for v in stems.values()), "one stem, several pseudonyms: %s" % stems
print("%d path pseudonyms of one scheme; database families: %s" % (len(m), {k: sorted(v) for k, v in stems.items()}))
EOF2
done
# the scheme is said in the same words in redact --help, ioreport(1) and
# the README
python3 - "$IOREPORT" docs/ioreport.1 README.md <<'EOF2' || bad "the pseudonym scheme is not documented identically"
import re, subprocess, sys
def para(text):
    t = " ".join(text.split())
    i = t.find("Pseudonyms: ")
    j = t.find(" are kept.", i)
    assert i >= 0 and j > i, "no 'Pseudonyms: ...' paragraph"
    return t[i:j]
h = para(subprocess.run([sys.argv[1], "redact", "--help"], capture_output=True, text=True).stdout)
man = para(re.sub(r"\\f[BIRP]", "", open(sys.argv[2]).read().replace("\\-", "-")))
readme = para(open(sys.argv[3]).read())
assert h == man == readme, "help: %s\nman: %s\nREADME: %s" % (h, man, readme)
EOF2
exit $fail
