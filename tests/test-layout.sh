#!/usr/bin/env bash
# test-layout.sh - the analyzer keeps the dependency rule of analyze/README.md:
# each folder includes only the folders before it in the pipeline, only
# input/ includes the libtraceevent headers (and nothing libtracecmd), only the
# decode stage (and dump, which prints raw events) reads events, no sink
# includes the state machines, nothing in the analyzer can exit for
# want of memory, no source file grows past the size one can read, and
# every source of the tree includes config.h first.
set -u
cd "$top_srcdir/analyze" || exit 1
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# FOLDER: the "..." includes it may use (folder/ prefixes, or files)
rules=(
	"base:		base/ util.h sbuf.h"
	"input:		base/ input/ util.h sbuf.h iorec-format.h tracedat.h"
	"decode:	base/ input/ decode/ util.h sbuf.h"
	"replay:	base/ decode/ replay/ input/meta.h util.h sbuf.h cgname.h"
	"stats:		base/ decode/ replay/ stats/ input/meta.h util.h sbuf.h"
	"sink:		base/ stats/ sink/ input/meta.h input/source.h util.h sbuf.h iorec-format.h analyze/sink/schema-sql.h"
	"driver:	base/ input/ decode/ replay/ stats/ driver.h util.h sbuf.h"
	"cmd:		base/ stats/ sink/ input/meta.h input/source.h input/redact.h input/rnames.h driver.h cmd.h util.h sbuf.h iorec-format.h iorec-tracedat.h"
)
allowed() {	# INCLUDE PATTERNS...: whether INCLUDE is one of them
	local inc=$1 p
	shift
	[ "$inc" = config.h ] && return 0
	for p in "$@"; do
		case $p in
		*/) [[ $inc == "$p"* ]] && return 0 ;;
		*) [[ $inc == "$p" ]] && return 0 ;;
		esac
	done
	return 1
}
files_of() {	# RULE: the files it governs
	case $1 in
	driver) echo driver.c driver.h ;;
	cmd) echo cmd*.c cmd.h ioreport.c ;;
	*) echo "$1"/*.[ch] ;;
	esac
}
n=0
for r in "${rules[@]}"; do
	name=${r%%:*}
	read -r -a ok <<<"${r#*:}"
	for f in $(files_of "$name"); do
		[ -f "$f" ] || { bad "$f: no such file (rule $name)"; continue; }
		n=$((n + 1))
		while read -r inc; do
			allowed "$inc" "${ok[@]}" ||
				bad "$f includes \"$inc\": the $name files may include only ${ok[*]}"
		done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
	done
done
# every source file of the analyzer is under a rule
for f in $(find . -name '*.[ch]' | sed 's|^\./||'); do
	case $f in
	base/*|input/*|decode/*|replay/*|stats/*|sink/*|driver.[ch]|cmd*.[ch]|ioreport.c) ;;
	*) bad "$f is in no stage folder of analyze/README.md" ;;
	esac
done

# only input/ sees libtraceevent; nothing of ioreport sees libtracecmd
# (trace.dat is read by formats/' reader alone; libtracecmd is the tests')
grep -rlE '#include <(traceevent|trace-cmd|tracefs)/' --include='*.[ch]' . | sed 's|^\./||' |
	grep -v '^input/' | while read -r f; do
		echo "FAIL: $f includes a libtraceevent header: only input/ may"
	done | grep . && fail=1
grep -rlE '#include <trace-cmd/' --include='*.[ch]' . | sed 's|^\./||' | while read -r f; do
	echo "FAIL: $f includes libtracecmd: ioreport reads trace.dat with formats/' reader only"
done | grep . && fail=1
if [ -x "${IOREPORT:-}" ] && command -v ldd >/dev/null; then
	ldd "$IOREPORT" 2>/dev/null | grep -q 'libtracecmd' &&
		bad "ioreport links libtracecmd: trace.dat is read by formats/' reader only"
fi

# events are read by the decode stage; dump prints them raw
grep -rlE '\bsource_(next|field|field_[a-z0-9_]+|format_[a-z]+)\(' \
	--include='*.c' . | sed 's|^\./||' |
	grep -vE '^(input/|decode/|driver\.c$|cmd-dump\.c$)' | while read -r f; do
		echo "FAIL: $f reads events: only decode/ (and cmd-dump.c) may"
	done | grep . && fail=1

# state machines are replay/'s: the stats/ files that take decoded events
# take them only to add them up (analyze/README.md names each)
grep -lE 'const struct dec_ev \*' stats/*.c | sed 's|^stats/||' |
	grep -vxE 'attrib\.c|dirty\.c|wa\.c' | while read -r f; do
		echo "FAIL: stats/$f takes decoded events: a state machine goes in replay/, an aggregate fed events is named in analyze/README.md and here"
	done | grep . && fail=1

# nothing exits for memory: no exiting allocators, no exiting string
grep -rnE '\bx(malloc|calloc|realloc|strdup|strndup|asprintf)\(|\bSBUF_INIT_FATAL\b|\bxalloc_die\(|\bdie\(|\bexit\(' \
	--include='*.[ch]' . | grep -v '^\./ioreport\.c:' | while read -r l; do
		echo "FAIL: ${l#./}: the analyzer returns -AN_E_NOMEM (base/err.h, lib/sbuf.h), it never exits"
	done | grep . && fail=1

# a file one can read: the analyzer's, the recorder's, the format
# library's and the shared helpers'
for f in $(find . -name '*.[ch]') $(cd "$top_srcdir" && ls formats/*.[ch] formats/iorec/*.h lib/*.[ch] | sed "s|^|$top_srcdir/|"); do
	l=$(wc -l < "$f")
	[ "$l" -le 1200 ] || bad "${f#./} has $l lines (split it: at most 1200)"
done

# config.h first in every source of both programs and the library: it
# holds _FILE_OFFSET_BITS, without which a 32-bit build reads and writes
# with 32-bit file offsets
nsrc=0
for f in $(cd "$top_srcdir" && ls analyze/*.c analyze/*/*.c record/*.c formats/*.c lib/*.c); do
	nsrc=$((nsrc + 1))
	first=$(grep -m1 '^#include' "$top_srcdir/$f")
	[ "$first" = '#include "config.h"' ] || bad "$f: its first include is '$first', not \"config.h\""
done

[ "$nsrc" -gt 80 ] || bad "only $nsrc sources found for the config.h check"

# iorec opens its own files through open_raw(), opendir_raw() and
# fopen_raw() (lib/util.h): never through the C library's open
# functions, where its uprobes would make each open two traps
nopen=0
for f in $(cd "$top_srcdir" && ls record/*.c); do
	nopen=$((nopen + 1))
	grep -nE '(^|[^_a-z.>])(open|openat|fopen|opendir|creat)\([^)]' "$top_srcdir/$f" |
		grep -vE '^[0-9]+:[[:space:]]*(/?\*|//)' | while read -r l; do
		echo "FAIL: $f:$l: iorec opens a file through the C library (use open_raw, opendir_raw or fopen_raw)"
	done | grep . && fail=1
done
[ "$nopen" -gt 10 ] || bad "only $nopen recorder sources found for the open check"

# nothing of the recorder below main() exits (record/record.h): no
# exiting allocator or string; only the forked command's child may
# _exit() when its exec fails
(cd "$top_srcdir" && grep -nE '\bx(malloc|calloc|realloc|strdup|strndup|asprintf)\(|\bSBUF_INIT_FATAL\b|\bxalloc_die\(|(^|[^_a-z])exit\(|\babort\(' record/*.c record/*.h) |
	grep -vE '^record/[a-z-]+\.[ch]:[0-9]+:[[:space:]]*(/?\*|//)' | while read -r l; do
		echo "FAIL: $l: the recorder returns an error (record/record.h), it never exits below main()"
	done | grep . && fail=1

# the documents stand alone: none points to a folder outside the tree
# (the stories, design notes or tools the project was started from)
ndoc=0
for f in $(cd "$top_srcdir" && ls README.md docs/*.md docs/*.[0-9] samples/README.md analyze/README.md tests/README* tests/fuzz/README 2>/dev/null); do
	ndoc=$((ndoc + 1))
	grep -nE '(^|[^a-z_./-])(shared/|\.\./shared|stories/)' "$top_srcdir/$f" | while read -r l; do
		echo "FAIL: $f:$l: a document points outside the project's tree"
	done | grep . && fail=1
done
[ "$ndoc" -gt 8 ] || bad "only $ndoc documents found for the outside-reference check"
echo "checked the includes of $n files against ${#rules[@]} rules, config.h in $nsrc sources, $ndoc documents"
exit $fail
