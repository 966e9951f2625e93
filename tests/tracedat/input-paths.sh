#!/usr/bin/env bash
# input-paths.sh - ioreport's two trace.dat inputs agree event for event:
# the formats/ reader (the default) and libtracecmd (IOREPORT_TRACEDAT=
# libtracecmd), walked through the input layer by tests/tracedat/src-walk
# (per CPU: events, records that carry lost events, their counts, and a
# hash of every record's timestamp, size and bytes; the event types that
# have events).  On samples/*.dat, and on every sample recording converted
# by 'ioreport convert' to version 6 and to version 7 with zstd, where the
# truth is the .iorec itself: its walk through the .iorec input gives the
# same per-CPU lines, and 'ioreport dump' of the trace.dat prints what
# 'ioreport dump' of the .iorec prints, line for line.  A recording with
# lost events is checked the same way by lost-events.sh.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/live/lib.sh"
WALK=$top_builddir/tests/tracedat/src-walk
[ -x "$WALK" ] || fail "$WALK not built (run make check)"
[ -x "$IOREPORT" ] || fail "$IOREPORT not built"

# walk FILE OUT [ENV...]: src-walk's lines; OUT.cpu the per-CPU ones
# The libtracecmd path runs without the leak check in the sanitizer build:
# libtracecmd 3.1 leaks a version 6 file's clock name (not ours; see
# tests/tracedat/tdat-libtracecmd.c).
walk() {
	local f=$1 out=$2
	shift 2
	env "$@" "$WALK" "$f" >"$out" 2>"$out.err" || fail "src-walk $* $f: $(head -n 3 "$out.err")"
	[ -s "$out.err" ] && fail "src-walk $* $f warned: $(head -n 3 "$out.err")"
	grep -E '^(cpu|events) ' "$out" >"$out.cpu"
	# libtracecmd adds a format of its own (ftrace:blktrace), without events
	awk '$1 == "type" && $4 > 0' "$out" >"$out.types"
}
# same A B WHAT: per-CPU lines (and types, when both are trace.dat walks)
same() {
	diff "$1.cpu" "$2.cpu" >"$1.d" || fail "$3: $(head -n 6 "$1.d")"
}

n=0
for d in "$top_srcdir"/samples/*.dat; do
	b=$(basename "$d")
	walk "$d" "$T/$b.r"
	walk "$d" "$T/$b.l" IOREPORT_TRACEDAT=libtracecmd ASAN_OPTIONS=detect_leaks=0
	same "$T/$b.r" "$T/$b.l" "$b: the reader (<) and libtracecmd (>) differ"
	diff "$T/$b.r.types" "$T/$b.l.types" >"$T/$b.d" ||
		fail "$b: event types differ (reader <, libtracecmd >): $(head -n 6 "$T/$b.d")"
	log "ok: $b: reader = libtracecmd: $(tr '\n' ';' <"$T/$b.r.cpu")"
	n=$((n + 1))
done
[ "$n" -ge 1 ] || fail "no trace.dat sample in samples/"

for s in "$top_srcdir"/samples/*.iorec; do
	b=$(basename "$s" .iorec)
	walk "$s" "$T/$b.i"
	"$IOREPORT" dump "$s" >"$T/$b.dump" 2>"$T/$b.err" || fail "ioreport dump $s: $(head -n 3 "$T/$b.err")"
	for v in 6 7z; do
		f=$T/$b.v$v.dat
		args=(--dat-version "${v%z}")
		[ "$v" = 7z ] && args+=(--zstd)
		"$IOREPORT" convert --to trace.dat "${args[@]}" -o "$f" "$s" ||
			fail "ioreport convert ${args[*]} $s failed"
		walk "$f" "$f.r"
		walk "$f" "$f.l" IOREPORT_TRACEDAT=libtracecmd ASAN_OPTIONS=detect_leaks=0
		same "$f.r" "$T/$b.i" "$b v$v: the reader (<) and the .iorec (>) differ"
		same "$f.l" "$T/$b.i" "$b v$v: libtracecmd (<) and the .iorec (>) differ"
		diff "$f.r.types" "$f.l.types" >"$f.d" ||
			fail "$b v$v: event types differ (reader <, libtracecmd >): $(head -n 6 "$f.d")"
		"$IOREPORT" dump "$f" >"$f.dump" 2>"$f.err" || fail "ioreport dump $f: $(head -n 3 "$f.err")"
		diff "$f.dump" "$T/$b.dump" >"$f.d" ||
			fail "$b v$v: ioreport dump of the trace.dat (<) and of the .iorec (>) differ: $(head -n 6 "$f.d")"
		log "ok: $b v$v: reader = libtracecmd = .iorec, $(awk '$1 == "events" { print $2 }' "$f.r") events; ioreport dump of both the same"
		n=$((n + 1))
	done
done
[ "$n" -ge 19 ] || fail "only $n files checked"
log "PASS"
