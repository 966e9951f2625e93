#!/usr/bin/env bash
# convert-samples.sh - every sample recording (samples/*.iorec,
# samples/arm-*.iorec among them) converted to trace.dat version 6, 7 and 7 with zstd
# by the formats/ writer (tests/tracedat/iorec2dat), then read back by
# trace-cmd, libtracecmd and the formats/ reader:
#
#  1. the reader (tdat-walk -p) yields, per CPU, exactly the pages the
#     writer was given: same count, same hash of the page bytes (the
#     truth: iorec2dat -H, computed from the .iorec's DATA chunks);
#  2. the reader + kbuffer (tdat-walk) and libtracecmd (tdat-libtracecmd)
#     agree per CPU on events, missed-event records and counts, and the
#     hash of every record's timestamp, size and bytes;
#  3. 'trace-cmd dump' reads the whole file, 'trace-cmd report -N' prints
#     it without a word on stderr;
#  4. trace-cmd report prints the events 'ioreport dump' prints on the
#     original, line for line: the same count per event type, and the
#     same lines once the COMM of "COMM-PID" is left aside.  The COMMs may
#     differ only where trace-cmd, which has the kernel's saved_cmdlines
#     (16-byte names), prints a kernel worker's name that ioreport, which
#     has the snapshot's /proc names, prints with its workqueue appended
#     ("kworker/u8:1" and "kworker/u8:1-ext4-rsv-conversion"); those lines
#     are counted and logged; events whose print format libtraceevent
#     cannot evaluate are compared by their fields (cmp-report.py).  -N: trace-cmd's plugins reformat some events
#     (its jbd2 plugin prints jbd2_run_stats, which libtraceevent alone
#     cannot); ioreport loads none;
#  5. 'ioreport dump' of the converted trace.dat (ioreport's libtracecmd
#     input) prints what 'ioreport dump' of the .iorec prints.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/live/lib.sh"
need_cmd trace-cmd python3

BIN=$top_builddir/tests/tracedat
for p in iorec2dat tdat-walk tdat-libtracecmd; do
	[ -x "$BIN/$p" ] || fail "$BIN/$p not built (run make check)"
done
[ -x "$IOREPORT" ] || fail "$IOREPORT not built"

# "PID [CPU] ..." from "COMM-PID [CPU] ...": the line without its COMM
strip_comm() { sed -E 's/^ *(.*)-([0-9]+) +\[/\2 [/'; }
# "COMM PID" of each line
comm_pid() { sed -E 's/^ *(.*)-([0-9]+) +\[.*/\1 \2/'; }
# the event name of each line, "EVENT:" after "SECONDS.USECS:"
event_names() { awk '{ for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { print $(i + 1); break } }'; }

n=0
for s in "$top_srcdir"/samples/*.iorec; do
	b=$(basename "$s" .iorec)
	"$IOREPORT" dump --trace-clock "$s" >"$T/$b.io" 2>"$T/$b.io.err" ||
		fail "ioreport dump $s failed: $(head -n 3 "$T/$b.io.err")"
	strip_comm <"$T/$b.io" >"$T/$b.io.nocomm"
	event_names <"$T/$b.io" | sort | uniq -c >"$T/$b.io.types"
	nev=$(wc -l <"$T/$b.io")
	for v in 6 7 7z; do
		f=$T/$b.v$v.dat
		args=(-V "${v%z}")
		[ "$v" = 7z ] && args+=(-z)
		"$BIN/iorec2dat" "${args[@]}" -H "$f.hash" -o "$f" "$s" 2>"$f.err" ||
			fail "iorec2dat ${args[*]} $s: $(cat "$f.err")"

		# 1. the pages
		"$BIN/tdat-walk" -p "$f" >"$f.pages" 2>"$f.err" ||
			fail "tdat-walk -p $f: $(cat "$f.err")"
		diff <(awk '$4 > 0 { print $2, $4, $6 }' "$f.hash") \
		     <(awk '$1 == "cpu" && $4 > 0 { print $2, $4, $20 }' "$f.pages") >"$f.d" ||
			fail "$b v$v: the reader's pages differ from the pages written (cpu pages hash): $(head -n 4 "$f.d")"

		# 2. reader + kbuffer against libtracecmd
		"$BIN/tdat-walk" "$f" >"$f.walk" 2>"$f.err" ||
			fail "tdat-walk $f: $(cat "$f.err")"
		"$BIN/tdat-libtracecmd" "$f" >"$f.ltc" 2>"$f.err" ||
			fail "tdat-libtracecmd $f: $(cat "$f.err")"
		diff <(awk '$1 == "cpu" && $6 > 0 { print $2, $6, $14, $16, $18 }' "$f.walk") \
		     <(awk '$1 == "cpu" && $4 > 0 { print $2, $4, $6, $8, $10 }' "$f.ltc") >"$f.d" ||
			fail "$b v$v: reader and libtracecmd differ (cpu events lost lost_events hash): $(head -n 4 "$f.d")"
		[ "$(awk '$1 == "events" { print $2 }' "$f.walk")" = "$nev" ] ||
			fail "$b v$v: the reader walked $(awk '$1 == "events" { print $2 }' "$f.walk") events, ioreport dump printed $nev"

		# 3. trace-cmd opens it
		trace-cmd dump --summary -i "$f" >"$f.dump" 2>"$f.err" ||
			fail "trace-cmd dump $f failed: $(head -n 3 "$f.err")"
		[ -s "$f.err" ] && fail "trace-cmd dump $f: $(head -n 3 "$f.err")"
		# the event lines: versions 6 and 7 with zstd (7 uncompressed
		# differs from 7 with zstd by its container only, checked above)
		if [ "$v" = 7 ]; then
			log "ok: $b v$v: $(stat -c %s "$f") bytes, $nev events, $(awk '$1 == "cpu" { n += $4 } END { print n + 0 }' "$f.pages") pages; reader = written pages = libtracecmd; trace-cmd dump reads it"
			n=$((n + 1))
			continue
		fi
		trace-cmd report -N "$f" >"$f.tc" 2>"$f.err" ||
			fail "trace-cmd report $f failed: $(head -n 3 "$f.err")"
		[ -s "$f.err" ] && fail "trace-cmd report $f said: $(head -n 3 "$f.err")"
		head -n 1 "$f.tc" | grep -qx 'cpus=[0-9]*' ||
			fail "trace-cmd report $f: first line '$(head -n 1 "$f.tc")', not cpus=N"
		tail -n +2 "$f.tc" >"$f.tc.ev"

		# 4. trace-cmd report against ioreport dump
		event_names <"$f.tc.ev" | sort | uniq -c >"$f.types"
		diff "$f.types" "$T/$b.io.types" >"$f.d" ||
			fail "$b v$v: events per type differ (trace-cmd report <, ioreport dump >): $(head -n 6 "$f.d")"
		python3 "$top_srcdir/tests/tracedat/cmp-report.py" --no-comm "$f.tc.ev" "$T/$b.io" >"$f.cmp" 2>"$f.d" ||
			fail "$b v$v: lines differ beyond COMM: $(head -n 7 "$f.d")"
		paste -d '|' <(comm_pid <"$f.tc.ev") <(comm_pid <"$T/$b.io") |
			awk -F'|' '$1 != $2' | sort | uniq -c >"$f.comms"
		bad=$(awk '{ sub(/^ *[0-9]+ /, ""); split($0, ab, "|"); split(ab[1], a, " "); split(ab[2], o, " ");
			     if (index(o[1], a[1] "-") != 1 || a[2] != o[2]) print }' "$f.comms")
		[ -z "$bad" ] || fail "$b v$v: COMMs differ other than by a worker's workqueue: $bad"
		ncomm=$(awk '{ s += $1 } END { print s + 0 }' "$f.comms")

		# 5. ioreport's own trace.dat input (libtracecmd), on one version
		if [ "$v" = 7z ]; then
			"$IOREPORT" dump --trace-clock "$f" 2>"$f.err" | strip_comm >"$f.iodat" ||
				fail "ioreport dump $f failed: $(head -n 3 "$f.err")"
			diff "$f.iodat" "$T/$b.io.nocomm" >"$f.d" ||
				fail "$b v$v: ioreport dump of the trace.dat differs from that of the .iorec: $(head -n 4 "$f.d")"
		fi

		log "ok: $b v$v: $(stat -c %s "$f") bytes, $nev events, $(awk '$1 == "cpu" { n += $4 } END { print n + 0 }' "$f.pages") pages; reader = written pages = libtracecmd; trace-cmd report = ioreport dump ($ncomm lines with a worker's COMM without its workqueue)"
		n=$((n + 1))
	done
done
[ "$n" -ge 27 ] || fail "only $n conversions checked (9 samples x 3 versions expected)"
log "ok: $n conversions"
log "PASS"
