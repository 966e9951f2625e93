#!/usr/bin/env bash
# memory.sh - the formats/ trace.dat reader and writer in bounded memory,
# on files of a few million events; size assertions, not timing ones (the
# times are logged):
#  1. the reader walks a large trace.dat from 'trace-cmd record' (version
#     7 with zstd, the file libtracecmd reads into memory): the peak RSS of
#     'tdat-walk -m' (all metadata, kallsyms included, then every page of
#     both CPUs, merged in time order, through kbuffer) stays under 64 MiB,
#     as /usr/bin/time -v measures it.  libtracecmd's time and RSS on the
#     same file (tdat-libtracecmd) are logged; both count the same events;
#  2. the writer converts a large iorec recording to versions 6 and 7 with
#     zstd, written to a pipe: iorec2dat's peak RSS stays under 64 MiB, and
#     the reader gets back every page written (count and hash per CPU).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/tracedat/td-lib.sh"
need_root_tracefs
need_cmd trace-cmd taskset dd /usr/bin/time
need_event syscalls:sys_enter_write syscalls:sys_enter_read

LIMIT_KB=$((64 * 1024))
BLOCKS=${TD_MEMORY_BLOCKS:-400000}	# per CPU; 4 events each
f=$T/large.dat
tc_record "$f" -b 16384 -e syscalls:sys_enter_read -e syscalls:sys_exit_read \
	-e syscalls:sys_enter_write -e syscalls:sys_exit_write -- \
	sh -c "for c in 0 1; do taskset -c \$c dd if=/dev/zero of=/dev/null bs=1 count=$BLOCKS 2>/dev/null & done; wait"
grep -q 'compression zstd' <("$TD_BIN/tdat-walk" -m -s "$f" | head -n 1) ||
	fail "trace-cmd did not write a zstd trace.dat"

# run NAME CMD...: sets RSS_KB and WALL from /usr/bin/time -v
run() {
	local name=$1
	shift
	/usr/bin/time -v "$@" >"$T/$name.out" 2>"$T/$name.time" ||
		fail "$name failed: $(grep -v '^\s' "$T/$name.time" | tail -n 3)"
	RSS_KB=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$T/$name.time")
	WALL=$(awk -F': ' '/Elapsed \(wall clock\)/ { print $2 }' "$T/$name.time")
	[ -n "$RSS_KB" ] || fail "no RSS in /usr/bin/time -v output of $name"
}

run walk "$TD_BIN/tdat-walk" -m -M "$f"
walk_rss=$RSS_KB walk_wall=$WALL
events=$(awk '$1 == "events" { print $2 }' "$T/walk.out")
peak=$(awk '$1 == "reader_peak_bytes" { print $2 }' "$T/walk.out")
[ "${events:-0}" -ge 1000000 ] || fail "only ${events:-0} events recorded: not a large file"
run ltc "$TD_BIN/tdat-libtracecmd" "$f"
[ "$(awk '$1 == "events" { print $2 }' "$T/ltc.out")" = "$events" ] ||
	fail "libtracecmd counts $(awk '$1 == "events" { print $2 }' "$T/ltc.out") events, the reader $events"
log "$(stat -c %s "$f") bytes, $events events: reader walk ${walk_rss} KB peak RSS (reader's own buffers: $peak bytes), $walk_wall; libtracecmd ${RSS_KB} KB, $WALL"
[ "$walk_rss" -lt "$LIMIT_KB" ] ||
	fail "the reader's walk peaked at $walk_rss KB, over $LIMIT_KB KB"
rm -f "$f"

# 2. the writer
r=$T/large.iorec
run_iorec -q -b 16384 -o "$r" -- \
	sh -c "for c in 0 1; do taskset -c \$c dd if=/dev/zero of=/dev/null bs=1 count=$BLOCKS 2>/dev/null & done; wait" \
	2>"$r.err" || fail "iorec failed: $(tail -n 3 "$r.err")"
for v in 6 7z; do
	d=$T/large.v$v.dat
	args=(-V "${v%z}")
	[ "$v" = 7z ] && args+=(-z)
	/usr/bin/time -v -o "$d.time" "$TD_BIN/iorec2dat" "${args[@]}" -H "$d.hash" -o - "$r" \
		2>"$d.err" | cat >"$d" || fail "iorec2dat ${args[*]}: $(cat "$d.err")"
	[ -s "$d.err" ] && fail "iorec2dat ${args[*]}: $(cat "$d.err")"
	rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$d.time")
	wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { print $2 }' "$d.time")
	"$TD_BIN/tdat-walk" -p "$d" >"$d.pages" 2>"$d.err" || fail "tdat-walk -p $d: $(cat "$d.err")"
	diff <(awk '$4 > 0 { print $2, $4, $6 }' "$d.hash") \
	     <(awk '$1 == "cpu" && $4 > 0 { print $2, $4, $20 }' "$d.pages") >"$d.d" ||
		fail "v$v: the pages read differ from the pages written: $(head -n 4 "$d.d")"
	log "$(stat -c %s "$r")-byte recording to a $(stat -c %s "$d")-byte v$v trace.dat through a pipe: writer ${rss} KB peak RSS, $wall; $(awk '$1 == "cpu" { n += $4 } END { print n }' "$d.pages") pages read back = written"
	[ "${rss:-999999}" -lt "$LIMIT_KB" ] || fail "the writer peaked at $rss KB, over $LIMIT_KB KB"
	rm -f "$d"
done
log "PASS"
