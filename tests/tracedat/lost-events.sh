#!/usr/bin/env bash
# lost-events.sh - events lost in the kernel ring buffer, accounted for the
# same way by the formats/ reader, libtracecmd and trace-cmd report.
#
# 1. trace-cmd record with a 4 KiB per-CPU buffer and a burst of syscall
#    events (a dd of 1-byte blocks on each CPU) loses events.  Per CPU:
#    the records that carry missed events and their counts, from the
#    reader's pages through kbuffer (tdat-walk), equal libtracecmd's
#    record->missed_events (tdat-libtracecmd) and trace-cmd report's
#    "CPU:N [M EVENTS DROPPED]" / "CPU:N [EVENTS DROPPED]" lines; the
#    reader's own count of pages with the missed-events flag is at least
#    that (kbuffer reports a page's loss only on a first record at the
#    start of the page); the CPUSTAT options the reader gives are the
#    ones 'trace-cmd report --stat' prints, with an overrun; ioreport's
#    trace.dat input (src-walk) and libtracecmd (tdat-libtracecmd -w) agree
#    record for record, losses included.
# 2. iorec with a 4 KiB buffer and the same burst: its recording, converted
#    by 'ioreport convert' to trace.dat (versions 6 and 7 with zstd), keeps
#    every loss where it was: trace-cmd report -N prints its DROPPED lines
#    where 'ioreport dump' of the .iorec prints "CPU N: [LOST M EVENTS]",
#    line for line among the events, COMMs included (cmp-report.py); the
#    reader's accounting equals libtracecmd's, and its count of flagged
#    pages and of their lost events per CPU equals 'ioreport info's of
#    the .iorec; ioreport's trace.dat input (src-walk), libtracecmd and
#    ioreport's .iorec input yield the same records and losses per CPU; 'trace-cmd report --stat' shows each CPU's overrun and
#    dropped events as the recording's STATS chunk has them.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/tracedat/td-lib.sh"
need_root_tracefs
need_cmd trace-cmd taskset dd
need_event syscalls:sys_enter_write syscalls:sys_enter_read

EV=(-e syscalls:sys_enter_read -e syscalls:sys_exit_read
    -e syscalls:sys_enter_write -e syscalls:sys_exit_write)
burst() {
	echo "for c in 0 1; do taskset -c \$c dd if=/dev/zero of=/dev/null bs=1 count=$1 2>/dev/null & done; wait"
}

# dropped TCREPORT: "CPU LINES EVENTS" per CPU from trace-cmd's DROPPED lines
dropped() {
	awk '/^CPU:[0-9]+ \[([0-9]+ )?EVENTS DROPPED\]$/ {
		c = substr($1, 5) + 0; n[c]++
		if ($2 ~ /^\[[0-9]+$/) e[c] += substr($2, 2) }
	     END { for (c in n) print c, n[c], e[c] + 0 }' "$1" | sort -n
}

# 1. trace-cmd's own file
f=$T/lost.dat
for count in 100000 400000; do
	tc_record "$f" -b 4 "${EV[@]}" -- sh -c "$(burst "$count")"
	"$TD_BIN/tdat-walk" -S "$f" >"$f.walk" 2>"$f.err" || fail "tdat-walk: $(cat "$f.err")"
	[ "$(awk '$1 == "cpu" { n += $14 } END { print n + 0 }' "$f.walk")" -gt 0 ] && break
	log "no loss with a burst of $count: again with a larger one"
done
"$TD_BIN/tdat-libtracecmd" "$f" >"$f.ltc" 2>"$f.err" || fail "tdat-libtracecmd: $(cat "$f.err")"
same_as_libtracecmd "$f.walk" "$f.ltc" "trace-cmd record -b 4"
trace-cmd report "$f" >"$f.tc" 2>/dev/null || fail "trace-cmd report $f failed"
dropped "$f.tc" >"$f.drops"
[ -s "$f.drops" ] || fail "trace-cmd report shows no dropped events: the burst lost nothing"
diff <(awk '$1 == "cpu" && $14 > 0 { print $2, $14, $16 }' "$f.walk") "$f.drops" >"$f.d" ||
	fail "the reader's lost records differ from trace-cmd report's DROPPED lines (cpu lines events; reader <, report >): $(cat "$f.d")"
awk '$1 == "cpu" && ($8 < $14 || $10 < $16) { exit 1 }' "$f.walk" ||
	fail "fewer pages with the missed-events flag than records reporting them: $(grep ^cpu "$f.walk")"
trace-cmd report --stat "$f" 2>/dev/null |
	awk '/^CPU: [0-9]+$/ { on = 1 } on && /^$/ { on = 0 } on' >"$f.stat"
diff <(grep -v '^$' "$f.walk" | awk '/^CPU: / { on = 1 } /^cpu / { on = 0 } on') "$f.stat" >"$f.d" ||
	fail "the reader's CPUSTAT differs from trace-cmd report --stat: $(head -n 6 "$f.d")"
awk '/^overrun: [1-9]/ { found = 1 } END { exit !found }' "$f.stat" ||
	fail "no CPU reports an overrun in its stats"
# ioreport's trace.dat input (the formats/ reader through the input layer)
# and libtracecmd, the oracle, agree event for event, lost events included
# (libtracecmd without the leak check: libtracecmd 3.1 leaks a version 6
# file's clock name, see tests/tracedat/tdat-libtracecmd.c)
srcwalk() {	# FILE OUT
	"$top_builddir/tests/tracedat/src-walk" "$1" >"$2" 2>"$2.err" ||
		fail "src-walk $1: $(head -n 3 "$2.err")"
	grep -E '^(cpu|events) ' "$2" >"$2.cpu"
}
ltcwalk() {	# FILE OUT: the same lines from libtracecmd
	ASAN_OPTIONS=detect_leaks=0 "$TD_BIN/tdat-libtracecmd" -w "$1" >"$2" 2>"$2.err" ||
		fail "tdat-libtracecmd -w $1: $(head -n 3 "$2.err")"
	grep -E '^(cpu|events) ' "$2" >"$2.cpu"
}
srcwalk "$f" "$f.sr"
ltcwalk "$f" "$f.sl"
diff "$f.sr.cpu" "$f.sl.cpu" >"$f.d" ||
	fail "trace-cmd record -b 4: ioreport's input (<) and libtracecmd (>) differ: $(head -n 6 "$f.d")"
awk '$1 == "cpu" { n += $6 } END { exit !(n > 0) }' "$f.sr.cpu" ||
	fail "ioreport's trace.dat input saw no lost events: $(cat "$f.sr.cpu")"
log "ok: trace-cmd record -b 4: ioreport's trace.dat input = libtracecmd: $(tr '\n' ';' <"$f.sr.cpu")"
log "ok: trace-cmd record -b 4: $(awk '{ printf "cpu %s: %s records after %s lost events; ", $1, $2, $3 }' "$f.drops")reader = libtracecmd = trace-cmd report; pages flagged: $(awk '$1 == "cpu" { printf "%s ", $8 }' "$f.walk"); overruns: $(awk '/^overrun:/ { printf "%s ", $2 }' "$f.stat")"

# 2. iorec's recording, converted
r=$T/lost.iorec
for count in 100000 400000; do
	run_iorec -q -b 4 -o "$r" -- sh -c "$(burst "$count")" 2>"$r.err" ||
		fail "iorec -b 4 failed: $(tail -n 3 "$r.err")"
	"$IOREPORT" dump --trace-clock "$r" >"$r.dump" 2>"$r.err" || fail "ioreport dump: $(cat "$r.err")"
	grep -qE '^CPU [0-9]+: \[LOST ' "$r.dump" && break
	log "iorec lost nothing with a burst of $count: again with a larger one"
done
grep -qE '^CPU [0-9]+: \[LOST ' "$r.dump" || fail "the iorec recording lost no events"
"$IOREPORT" info --json "$r" >"$r.json" 2>"$r.err" || fail "ioreport info --json: $(cat "$r.err")"
# "cpu lost_pages lost_events" and "cpu overrun dropped" of the recording
python3 - "$r.json" "$r.pages" "$r.stats" <<'EOF2' || fail "cannot read $r.json"
import json, sys
d = json.load(open(sys.argv[1]))
with open(sys.argv[2], "w") as f:
	for c in d["cpu"]:
		if c["pages"]:
			print(c["cpu"], c["lost_pages"], c["lost_events"], file=f)
with open(sys.argv[3], "w") as f:
	for c in d["kernel_lost"]:
		print(c["cpu"], c["overrun"], c["dropped"], file=f)
EOF2
for v in 6 7z; do
	d=$T/lost.v$v.dat
	args=(--dat-version "${v%z}")
	[ "$v" = 7z ] && args+=(--zstd)
	"$IOREPORT" convert --to trace.dat "${args[@]}" -o "$d" "$r" 2>"$d.err" ||
		fail "ioreport convert ${args[*]}: $(cat "$d.err")"
	"$TD_BIN/tdat-walk" "$d" >"$d.walk" 2>"$d.err" || fail "tdat-walk $d: $(cat "$d.err")"
	"$TD_BIN/tdat-libtracecmd" "$d" >"$d.ltc" 2>"$d.err" || fail "tdat-libtracecmd $d: $(cat "$d.err")"
	same_as_libtracecmd "$d.walk" "$d.ltc" "converted v$v"
	trace-cmd report -N "$d" >"$d.tc" 2>"$d.err"
	[ -s "$d.err" ] && fail "trace-cmd report -N $d: $(head -n 3 "$d.err")"
	python3 "$top_srcdir/tests/tracedat/cmp-report.py" "$d.tc" "$r.dump" >"$d.cmp" 2>"$d.d" ||
		fail "converted v$v: trace-cmd report and ioreport dump differ: $(head -n 7 "$d.d")"
	srcwalk "$d" "$d.sr"
	ltcwalk "$d" "$d.sl"
	[ -s "$r.sw.cpu" ] || srcwalk "$r" "$r.sw"
	diff "$d.sr.cpu" "$r.sw.cpu" >"$d.d" ||
		fail "converted v$v: ioreport's reader input (<) and its .iorec input (>) differ: $(head -n 6 "$d.d")"
	diff "$d.sl.cpu" "$r.sw.cpu" >"$d.d" ||
		fail "converted v$v: libtracecmd (<) and ioreport's .iorec input (>) differ: $(head -n 6 "$d.d")"
	diff <(awk '$1 == "cpu" { print $2, $8, $10 }' "$d.walk") "$r.pages" >"$d.d" ||
		fail "converted v$v: pages flagged and their lost events differ from ioreport info's (reader <, ioreport >): $(cat "$d.d")"
	trace-cmd report --stat "$d" 2>/dev/null |
		awk '/^CPU: [0-9]+$/ { c = $2 } /^overrun: / { o[c] = $2 }
		     /^dropped events: / { print c, o[c], $3 }' >"$d.stat"
	diff "$d.stat" "$r.stats" >"$d.d" ||
		fail "converted v$v: trace-cmd report --stat's overrun and dropped events differ from the recording's (report <, STATS >): $(cat "$d.d")"
	log "ok: iorec -b 4, ioreport convert to v$v: $(grep -c DROPPED "$d.tc") losses where ioreport dump has them; $(awk '$1 == "cpu" { printf "cpu %s: %s records after %s lost events; ", $2, $14, $16 }' "$d.walk")reader = libtracecmd = ioreport info; overrun and dropped per CPU in --stat: $(tr '\n' ';' <"$d.stat")"
done
log "PASS"
