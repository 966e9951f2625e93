#!/usr/bin/env bash
# test-libiorec.sh - libiorec as a user gets it: `make install` of the
# library, its header and iorec.pc into a staging root (DESTDIR), then the
# example program docs/examples/list-chunks.c built with pkg-config against
# what was installed, shared and static, run on the samples and on a cut
# copy; its chunk lists must be those of an independent reading of the
# bytes (by docs/iorec.5), and the shared library must export exactly the
# functions iorec/format.h declares.
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
CC=${CC:-cc}
command -v python3 >/dev/null || { echo "SKIP: python3 is missing (apt-get install python3)"; exit 77; }
command -v pkg-config >/dev/null || { echo "SKIP: pkg-config is missing (apt-get install pkg-config)"; exit 77; }
[ -f "$top_builddir/formats/libiorec.la" ] || { echo "SKIP: libiorec not built (run make)"; exit 77; }
ls "$top_srcdir"/samples/*.iorec >/dev/null 2>&1 || { echo "FAIL: no samples/*.iorec"; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/test-libiorec.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0

# the install, by the Makefile's own rules, into $T/root
unset MAKEFLAGS MFLAGS MAKELEVEL
make -s -C "$top_builddir" DESTDIR="$T/root" install-libLTLIBRARIES \
	install-iorecincludeHEADERS install-pkgconfigDATA install-dist_docexamplesDATA \
	>"$T/install.log" 2>&1 || { cat "$T/install.log"; echo "FAIL: make install of libiorec"; exit 1; }
pc=$(find "$T/root" -name iorec.pc)
[ -n "$pc" ] || { echo "FAIL: iorec.pc not installed"; exit 1; }
example=$(find "$T/root" -path '*/examples/list-chunks.c')
[ -n "$example" ] || { echo "FAIL: docs/examples/list-chunks.c not installed in the docdir"; exit 1; }
export PKG_CONFIG_PATH=${pc%/*} PKG_CONFIG_SYSROOT_DIR=$T/root
pkg-config --exists iorec || { echo "FAIL: pkg-config does not find the installed iorec.pc"; exit 1; }
staged() {	# VARIABLE: its value in the staging root (pkgconf adds the
		# sysroot to variables, pkg-config 0.29 does not)
	local v
	v=$(pkg-config --variable="$1" iorec)
	case $v in "$T/root"/*) echo "$v" ;; *) echo "$T/root$v" ;; esac
}
libdir=$(staged libdir)
incdir=$(staged includedir)
[ -f "$incdir/iorec/format.h" ] || { echo "FAIL: iorec/format.h not in $incdir"; exit 1; }
so=$(find "$libdir" -name 'libiorec.so.0*' -type f | head -1)
[ -n "$so" ] || { echo "FAIL: libiorec.so.0 not installed in $libdir"; exit 1; }
[ -f "$libdir/libiorec.a" ] || { echo "FAIL: libiorec.a not installed in $libdir"; exit 1; }
soname=$(objdump -p "$so" | awk '$1 == "SONAME" { print $2 }')
[ "$soname" = libiorec.so.0 ] || { echo "FAIL: soname '$soname', not libiorec.so.0"; fail=1; }

# the exported symbols are the header's IOREC_API functions
python3 - "$incdir/iorec/format.h" >"$T/api" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
for m in re.finditer(r'^IOREC_API\b[^;(]*?\b(\w+)\s*\(', text, re.M):
    print(m.group(1))
PY
sort -u -o "$T/api" "$T/api"
nm -D --defined-only "$so" | awk '$2 == "T" { print $3 }' | sort -u >"$T/exported"
if ! cmp -s "$T/api" "$T/exported"; then
	echo "FAIL: libiorec exports other symbols than iorec/format.h declares (< header, > library):"
	diff "$T/api" "$T/exported"
	fail=1
fi
[ "$(wc -l <"$T/api")" -ge 20 ] || { echo "FAIL: only $(wc -l <"$T/api") functions found in the header"; fail=1; }
# and the Debian symbols file lists each of them (dpkg-gensymbols would
# only warn of one it lacks)
if [ -f "$top_srcdir/debian/libiorec0.symbols" ]; then
	awk '/^ [a-z_0-9]+@Base/ { sub(/@.*/, "", $1); print $1 }' \
		"$top_srcdir/debian/libiorec0.symbols" | sort -u >"$T/symbols"
	if ! cmp -s "$T/exported" "$T/symbols"; then
		echo "FAIL: debian/libiorec0.symbols differs from the exports (< library, > symbols file):"
		diff "$T/exported" "$T/symbols"
		fail=1
	fi
fi
# every function has its kernel-doc comment, "/**" then " * name - ..."
while read -r f; do
	grep -qE "^ \* $f - " "$incdir/iorec/format.h" ||
		{ echo "FAIL: $f has no kernel-doc comment in iorec/format.h"; fail=1; }
done <"$T/api"

# the header stands alone, strict C99 and C11
for std in c99 c11; do
	echo '#include <iorec/format.h>' | $CC -std=$std -Wall -Wextra -Werror -pedantic \
		$(pkg-config --cflags iorec) -x c -c -o /dev/null - ||
		{ echo "FAIL: iorec/format.h does not compile alone with -std=$std -pedantic"; fail=1; }
done

# the example, against the installed library: shared, then static
# shellcheck disable=SC2046
$CC -Wall -Wextra -Werror -o "$T/list-chunks" "$example" $(pkg-config --cflags --libs iorec) ||
	{ echo "FAIL: the example does not build with pkg-config --cflags --libs iorec"; exit 1; }
LD_LIBRARY_PATH=$libdir ldd "$T/list-chunks" | grep -q "libiorec.so.0 => $libdir/" ||
	{ echo "FAIL: the example does not load the installed libiorec.so.0"; fail=1; }
# shellcheck disable=SC2046
$CC -Wall -Wextra -Werror -o "$T/list-chunks-static" "$example" $(pkg-config --cflags iorec) \
	"$libdir/libiorec.a" $(pkg-config --libs libzstd) ||
	{ echo "FAIL: the example does not build with libiorec.a"; exit 1; }
! ldd "$T/list-chunks-static" | grep -q libiorec ||
	{ echo "FAIL: the static example still needs libiorec.so"; fail=1; }

# the truth: the chunk headers read from the bytes by docs/iorec.5
cat >"$T/chunks.py" <<'PY'
import struct, sys
names = {1: "HEADER", 2: "HEADER_PAGE", 3: "HEADER_EVENT", 4: "EVENT_FORMAT",
         5: "SNAPSHOT", 6: "SYSCALLS", 7: "CMDLINES", 8: "DATA", 9: "STATS",
         10: "END", 11: "PRINTK", 12: "NOTE", 13: "COMPAT_SYSCALLS",
         14: "EXEC_ABI"}
path = sys.argv[1]
data = open(path, "rb").read()
major, minor = struct.unpack_from("<HH", data, 8)
print("# %s: format %d.%d" % (path, major, minor))
off, n, end = 16, 0, False
while off + 32 <= len(data):
    magic, typ, flags, seq, stored, raw = struct.unpack_from("<IHHIII", data, off)
    assert magic == 0x4b43524f, "bad chunk magic at %d" % off
    if off + 32 + stored > len(data):
        break
    line = "%d\t%d\t%s\t%d\t%d" % (off, seq, names.get(typ, "unknown"), stored, raw)
    if typ == 8:
        cpu, npages, sb, fl, t0, t1 = struct.unpack_from("<IIIIQQ", data, off + 32)
        line += "\tcpu=%d pages=%d ts=%d..%d" % (cpu, npages, t0, t1)
    print(line)
    n += 1
    end = typ == 10
    off += 32 + stored
if off == len(data):
    print("# %d chunks, %s" % (n, "complete" if end else "cut (no END chunk)"))
else:
    print("# %d chunks, stopped at offset %d: file ends inside a chunk" % (n, off))
PY
nfiles=0 nchunks=0
for f in "$top_srcdir"/samples/*.iorec; do
	for prog in list-chunks list-chunks-static; do
		LD_LIBRARY_PATH=$libdir "$T/$prog" "$f" >"$T/got" 2>"$T/err"
		rc=$?
		[ $rc = 0 ] || { echo "FAIL: $prog $f exits $rc: $(cat "$T/err")"; fail=1; }
		python3 "$T/chunks.py" "$f" >"$T/want"
		diff -u "$T/want" "$T/got" >"$T/diff" ||
			{ echo "FAIL: $prog $f lists other chunks:"; head -20 "$T/diff"; fail=1; }
	done
	nfiles=$((nfiles + 1))
	nchunks=$((nchunks + $(grep -vc '^#' "$T/want")))
done
# a recording cut in the middle of a chunk: it stops there and says so
f=$top_srcdir/samples/story001-barrier.iorec
head -c $(( $(stat -c %s "$f") / 2 )) "$f" >"$T/cut.iorec"
LD_LIBRARY_PATH=$libdir "$T/list-chunks" "$T/cut.iorec" >"$T/got" 2>&1
rc=$?
[ $rc = 1 ] || { echo "FAIL: list-chunks of a cut file exits $rc, not 1"; fail=1; }
python3 "$T/chunks.py" "$T/cut.iorec" >"$T/want"
diff -u "$T/want" "$T/got" >"$T/diff" ||
	{ echo "FAIL: list-chunks of a cut file:"; head -20 "$T/diff"; fail=1; }
grep -q 'stopped at offset' "$T/got" || { echo "FAIL: the cut is not reported"; fail=1; }

echo "libiorec: $(wc -l <"$T/api") functions exported; list-chunks read $nchunks chunks of $nfiles samples as the bytes say, shared and static"
exit $fail
