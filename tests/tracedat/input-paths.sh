#!/usr/bin/env bash
# input-paths.sh - ioreport's trace.dat input (the formats/ reader, its
# only one, walked through the input layer by tests/tracedat/src-walk:
# the event types with their counts, then per CPU the events, records
# that carry lost events, their counts, and a hash of every record's
# timestamp, size and bytes) agrees event for event with libtracecmd, the
# oracle (tests/tracedat/tdat-libtracecmd -w prints the same lines).  On
# samples/*.dat, and on every sample recording converted by 'ioreport
# convert' to version 6, version 7 with zstd and version 7 with zlib,
# where the truth is also the .iorec itself: its walk through the .iorec
# input gives the same per-CPU lines, and 'ioreport dump' of the
# trace.dat prints what 'ioreport dump' of the .iorec prints, line for
# line.  (Debian's libtracecmd reads no zlib: a zlib file is held to the
# .iorec and to its zstd twin, which libtracecmd reads.)  A recording
# with lost events is checked the same way by lost-events.sh.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/live/lib.sh"
WALK=$top_builddir/tests/tracedat/src-walk
LTC=$top_builddir/tests/tracedat/tdat-libtracecmd
[ -x "$WALK" ] || fail "$WALK not built (run make check)"
[ -x "$LTC" ] || fail "$LTC not built (run make check)"
[ -x "$IOREPORT" ] || fail "$IOREPORT not built"

# walk FILE OUT: src-walk's lines; OUT.cpu the per-CPU ones, OUT.types the
# types with events, sorted
walk() {
	"$WALK" "$1" >"$2" 2>"$2.err" || fail "src-walk $1: $(head -n 3 "$2.err")"
	[ -s "$2.err" ] && fail "src-walk $1 warned: $(head -n 3 "$2.err")"
	grep -E '^(cpu|events) ' "$2" >"$2.cpu"
	awk '$1 == "type" && $4 > 0' "$2" | sort >"$2.types"
}
# oracle FILE OUT: the same lines from libtracecmd (no leak check: the
# libtracecmd of Debian 12 leaks a version 6 file's clock name)
oracle() {
	ASAN_OPTIONS=detect_leaks=0 "$LTC" -w "$1" >"$2" 2>"$2.err" ||
		fail "libtracecmd cannot read $1: $(head -n 3 "$2.err")"
	grep -E '^(cpu|events) ' "$2" >"$2.cpu"
	# libtracecmd adds a format of its own (ftrace:blktrace), without events
	awk '$1 == "type"' "$2" | sort >"$2.types"
}
# same A B WHAT: per-CPU lines
same() {
	diff "$1.cpu" "$2.cpu" >"$1.d" || fail "$3: $(head -n 6 "$1.d")"
}
# same_types A B WHAT
same_types() {
	diff "$1.types" "$2.types" >"$1.d" || fail "$3: $(head -n 6 "$1.d")"
}

n=0
for d in "$top_srcdir"/samples/*.dat; do
	b=$(basename "$d")
	walk "$d" "$T/$b.r"
	oracle "$d" "$T/$b.l"
	same "$T/$b.r" "$T/$b.l" "$b: ioreport's reader (<) and libtracecmd (>) differ"
	same_types "$T/$b.r" "$T/$b.l" "$b: event types differ (reader <, libtracecmd >)"
	log "ok: $b: reader = libtracecmd: $(tr '\n' ';' <"$T/$b.r.cpu")"
	n=$((n + 1))
done
[ "$n" -ge 1 ] || fail "no trace.dat sample in samples/"

for s in "$top_srcdir"/samples/*.iorec; do
	b=$(basename "$s" .iorec)
	walk "$s" "$T/$b.i"
	"$IOREPORT" dump "$s" >"$T/$b.dump" 2>"$T/$b.err" || fail "ioreport dump $s: $(head -n 3 "$T/$b.err")"
	for v in 6 7z 7l; do
		f=$T/$b.v$v.dat
		args=(--dat-version "${v%[zl]}")
		[ "$v" = 7z ] && args+=(--zstd)
		[ "$v" = 7l ] && args+=(--zlib)
		"$IOREPORT" convert --to trace.dat "${args[@]}" -o "$f" "$s" ||
			fail "ioreport convert ${args[*]} $s failed"
		walk "$f" "$f.r"
		same "$f.r" "$T/$b.i" "$b v$v: the reader (<) and the .iorec (>) differ"
		if [ "$v" = 7l ]; then
			# the zlib file against its zstd twin, which libtracecmd read
			same "$f.r" "$T/$b.v7z.dat.r" "$b v7 zlib (<) and v7 zstd (>) differ"
			same_types "$f.r" "$T/$b.v7z.dat.r" "$b v7 zlib (<) and v7 zstd (>): event types differ"
		else
			oracle "$f" "$f.l"
			same "$f.r" "$f.l" "$b v$v: the reader (<) and libtracecmd (>) differ"
			same_types "$f.r" "$f.l" "$b v$v: event types differ (reader <, libtracecmd >)"
		fi
		"$IOREPORT" dump "$f" >"$f.dump" 2>"$f.err" || fail "ioreport dump $f: $(head -n 3 "$f.err")"
		diff "$f.dump" "$T/$b.dump" >"$f.d" ||
			fail "$b v$v: ioreport dump of the trace.dat (<) and of the .iorec (>) differ: $(head -n 6 "$f.d")"
		log "ok: $b v$v: reader = $( [ "$v" = 7l ] && echo 'the zstd twin' || echo libtracecmd) = .iorec, $(awk '$1 == "events" { print $2 }' "$f.r") events; ioreport dump of both the same"
		n=$((n + 1))
	done
done
[ "$n" -ge 28 ] || fail "only $n files checked"
log "PASS"
