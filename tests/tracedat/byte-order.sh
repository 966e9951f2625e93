#!/usr/bin/env bash
# byte-order.sh - trace.dat files of both byte orders and both kernel long
# sizes, from the formats/ writer, read by trace-cmd and libtracecmd.
#
# tdat-synth builds the pages of known events byte by byte, as a
# little- or big-endian kernel with a 4- or 8-byte long lays them out, and
# writes them as version 6, 7 and 7 with zstd; it prints the lines trace-cmd
# report must print (every event's COMM-PID, CPU, time, x, and the
# dropped events before CPU 0's second page).  For each of the 12 files:
# 'trace-cmd report -N' prints exactly those lines (spaces squeezed), and
# the formats/ reader with kbuffer (tdat-walk) agrees with libtracecmd
# record for record.  A big-endian file is read here as a workstation
# reads the file of a big-endian board.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/live/lib.sh"
need_cmd trace-cmd

BIN=$top_builddir/tests/tracedat
for p in tdat-synth tdat-walk tdat-libtracecmd; do
	[ -x "$BIN/$p" ] || fail "$BIN/$p not built (run make check)"
done

n=0
for order in little big; do
	for lsize in 8 4; do
		for v in 6 7 7z; do
			f=$T/synth-$order-$lsize-v$v.dat
			args=(-V "${v%z}" -l "$lsize")
			[ "$v" = 7z ] && args+=(-z)
			[ "$order" = big ] && args+=(-b)
			"$BIN/tdat-synth" "${args[@]}" -o "$f" >"$f.want" 2>"$f.err" ||
				fail "tdat-synth ${args[*]}: $(cat "$f.err")"
			trace-cmd report -N "$f" 2>"$f.err" | tail -n +2 |
				sed -E 's/^ +//; s/ +/ /g' >"$f.got"
			[ -s "$f.err" ] && fail "$order $lsize v$v: trace-cmd report said: $(head -n 3 "$f.err")"
			diff "$f.got" "$f.want" >"$f.d" ||
				fail "$order-endian, long $lsize, v$v: trace-cmd report (<) is not what was written (>): $(head -n 6 "$f.d")"
			"$BIN/tdat-walk" "$f" >"$f.walk" 2>"$f.err" || fail "tdat-walk: $(cat "$f.err")"
			"$BIN/tdat-libtracecmd" "$f" >"$f.ltc" 2>"$f.err" || fail "tdat-libtracecmd: $(cat "$f.err")"
			diff <(awk '$1 == "cpu" { print $2, $6, $14, $16, $18 }' "$f.walk") \
			     <(awk '$1 == "cpu" { print $2, $4, $6, $8, $10 }' "$f.ltc") >"$f.d" ||
				fail "$order-endian, long $lsize, v$v: the reader and libtracecmd differ: $(cat "$f.d")"
			grep -q '^cpu 0 pages 3 events 15 lost_pages 1 lost_events 3 ' "$f.walk" ||
				fail "$order-endian, long $lsize, v$v: the reader read $(grep '^cpu 0' "$f.walk")"
			n=$((n + 1))
		done
		log "ok: $order-endian, long $lsize: versions 6, 7, 7 zstd read by trace-cmd report as written; reader = libtracecmd"
	done
done
[ "$n" = 12 ] || fail "$n files checked, not 12"
log "PASS"
