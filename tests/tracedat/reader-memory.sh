#!/usr/bin/env bash
# reader-memory.sh - the formats/ reader walks a large trace.dat (a few
# million events from 'trace-cmd record', version 7 with zstd, the file
# libtracecmd reads into memory) in bounded memory: the peak RSS of
# 'tdat-walk -m' (all metadata, kallsyms included, then every page of both
# CPUs, merged in time order, through kbuffer) stays under 64 MiB, as
# /usr/bin/time -v measures it.  A size assertion, not a timing one: the
# walk's time, and libtracecmd's time and RSS on the same file
# (tdat-libtracecmd), are logged for comparison.  Both must count the
# same events.
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
log "PASS"
