#!/usr/bin/env bash
# redact-live.sh - ioreport redact on a recording of a workload whose names
# the test makes up: a program copied to a unique name, run from a unique
# directory with unique arguments, writing, fsyncing and reading a file of
# a unique name on a loop ext4 mounted at a unique mount point.  The
# original names them (the test proves it first: comm, path, command
# line, mount point); after redact none of the made-up words appears in
# any view's text or JSON, in dump or in the chunk bytes, and every view
# has the original's numbers (tests/redact/check-redact.py, with the
# made-up words as extra names); the database keeps its extension.  The
# workload names 1,100 files first and then opens 120 of three and four
# letters by their names alone: their pseudonyms (past the hundredth and
# the thousandth) must still fit in the events' strings, or two files
# would become one (they did, in a CI run's busy recording).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

need_root_tracefs
need_cmd python3 zstd mkfs.ext4
need_event block:block_rq_complete

# eight random letters (a-p): no digit of a name reads as a number
tag=$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n' | tr 0-9 g-p)
prog=quokka$tag dir=wombatdir$tag file=numbatfile$tag arg=platypusarg$tag
make_loop_ext4 32 "" ""
mkdir "$MNT/$dir"
cp "$(python3 -c 'import os, sys; print(os.path.realpath(sys.executable))')" "$T/$prog"
cat > "$T/work.py" <<EOW
import os, sys
# names enough that three- and four-letter ones come after the hundredth
# and the thousandth pseudonym (a busy machine's recording once cut
# their pseudonyms to fit the events, and two files became one): 1,100
# made-up names of six letters, then 60 files of three and 60 of four
d = os.path.join(sys.argv[1], "many")
os.mkdir(d)
for i in range(1100):
    os.close(os.open(os.path.join(d, "q" + "".join(chr(97 + i // 26 ** k % 26) for k in range(5))), os.O_CREAT | os.O_WRONLY))
# opened by their names alone (the event's string has no room to spare)
top = os.getcwd()
os.chdir(d)
for i in range(120):
    # three letters, then four (no digits: a view's numbers stay numbers)
    n = "k" + chr(97 + i // 26 % 26) + chr(97 + i % 26) + ("" if i % 2 else "w")
    with open(n, "wb") as f:
        f.write(b"y" * (512 * (i + 1)))
os.chdir(top)
p = os.path.join(sys.argv[1], "$file.db")
with open(p, "wb") as f:
    for i in range(64):
        f.write(b"x" * 4096)
        f.flush()
        os.fsync(f.fileno())
with open(p, "rb") as f:
    f.read()
EOW
run_iorec -q -o "$T/orig.iorec" -- "$T/$prog" "$T/work.py" "$MNT/$dir" "--$arg" ||
	fail "iorec -- $prog failed"
# the original has every made-up name (grep reads to the end: pipefail)
"$IOREPORT" files --wide --top 1000 "$T/orig.iorec" | grep "$dir/$file.db" >/dev/null ||
	fail "the original recording does not name $file.db"
"$IOREPORT" processes --wide --top 1000 "$T/orig.iorec" | grep "$prog" >/dev/null ||
	fail "the original recording does not name $prog"
"$IOREPORT" info "$T/orig.iorec" | grep -- "--$arg" >/dev/null ||
	fail "the original recording lacks the argument --$arg"
"$IOREPORT" redact -m "$T/map" "$T/orig.iorec" "$T/red.iorec" || fail "ioreport redact failed"
python3 "$top_srcdir/tests/redact/check-redact.py" "$IOREPORT" "$T/orig.iorec" "$T/red.iorec" \
	"$prog" "$dir" "$file" "$file.db" "$arg" || fail "redaction check failed"
# what the mapping says the database became: its extension kept, its
# pseudonym in the files view with the original's byte counts
db=$(awk -F'\t' -v f="$file.db" '$2 == f { print $3 }' "$T/map")
case $db in *.db) ;; *) fail "the database became '$db', not *.db" ;; esac
a=$("$IOREPORT" files --wide --top 1000 "$T/orig.iorec" | grep "/$file.db\$" | awk '{ print $4, $8 }')
b=$("$IOREPORT" files --wide --top 1000 "$T/red.iorec" | grep "/$db\$" | awk '{ print $4, $8 }')
[ -n "$a" ] && [ "$a" = "$b" ] || fail "the database's bytes: '$a' before, '$b' after redact"
log "$file.db -> $db, bytes read/written $b"
finish
