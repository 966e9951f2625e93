#!/usr/bin/env bash
# ioreport-convert.sh - `ioreport convert --to trace.dat`: for every sample
# recording (samples/*.iorec), converted to trace.dat
# version 6 and version 7 with zstd, 'trace-cmd report -N' prints the
# event lines 'ioreport dump' prints on the original, line for line, COMMs
# included (the converted saved cmdlines hold the kernel's names, then the
# snapshots'), lost events where ioreport shows them, and without a word
# on stderr; events whose print format libtraceevent cannot evaluate are
# compared field by field (tests/tracedat/cmp-report.py).  Also: version
# 7 uncompressed opens in 'trace-cmd dump'; '-o -' writes the bytes '-o
# FILE' writes; the default output is IN.dat; a recording cut in the
# middle converts the events before the cut (the ones 'ioreport dump'
# shows of it) with a warning naming the offset; usage errors exit 2,
# a trace.dat input and an unwritable output exit 1 with one line.
# -N: trace-cmd's plugins reformat some events (jbd2); ioreport loads none.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/live/lib.sh"
need_cmd trace-cmd python3
[ -x "$IOREPORT" ] || fail "$IOREPORT not built"
CMP=$top_srcdir/tests/tracedat/cmp-report.py

# same_lines DAT DUMP WHAT: trace-cmd report of DAT = DUMP
same_lines() {
	trace-cmd report -N "$1" >"$1.tc" 2>"$1.err" ||
		fail "$3: trace-cmd report failed: $(head -n 3 "$1.err")"
	[ -s "$1.err" ] && fail "$3: trace-cmd report said: $(head -n 3 "$1.err")"
	python3 "$CMP" "$1.tc" "$2" >"$1.cmp" 2>"$1.cmpd" ||
		fail "$3: $(cat "$1.cmpd")"
}

n=0
for s in "$top_srcdir"/samples/*.iorec; do
	b=$(basename "$s" .iorec)
	"$IOREPORT" dump --trace-clock "$s" >"$T/$b.io" 2>"$T/$b.io.err" ||
		fail "ioreport dump $s failed: $(head -n 3 "$T/$b.io.err")"
	nev=$(grep -vc '^CPU [0-9]*: \[LOST' "$T/$b.io" || true)
	[ "$nev" -gt 0 ] || fail "ioreport dump $s printed no event"
	for v in 6 7z; do
		f=$T/$b.v$v.dat
		args=(--dat-version "${v%z}")
		[ "$v" = 7z ] && args+=(--zstd)
		"$IOREPORT" convert --to trace.dat "${args[@]}" -o "$f" "$s" 2>"$f.cerr" ||
			fail "ioreport convert ${args[*]} $s: $(cat "$f.cerr")"
		[ -s "$f.cerr" ] && fail "ioreport convert ${args[*]} $s said: $(cat "$f.cerr")"
		same_lines "$f" "$T/$b.io" "$b v$v"
		log "ok: $b v$v: $(stat -c %s "$f") bytes; trace-cmd report = ioreport dump: $(cat "$f.cmp")"
		n=$((n + 1))
	done
done
[ "$n" -ge 18 ] || fail "only $n conversions checked (9 samples x 2 versions expected)"

s=$top_srcdir/samples/story002-dirty-default.iorec
# version 7 without compression; standard output; the default name
"$IOREPORT" convert --to trace.dat -o "$T/v7.dat" "$s" || fail "convert v7 failed"
trace-cmd dump --summary -i "$T/v7.dat" >"$T/v7.dump" 2>"$T/v7.err" ||
	fail "trace-cmd dump of version 7 failed: $(head -n 3 "$T/v7.err")"
grep -qE '^[[:space:]]+7[[:space:]]+\[Version\]$' "$T/v7.dump" ||
	fail "trace-cmd dump shows no version 7: $(head -n 4 "$T/v7.dump")"
grep -qE '^[[:space:]]+none[[:space:]]+\[Compression algorithm\]$' "$T/v7.dump" ||
	fail "trace-cmd dump shows a compression: $(head -n 8 "$T/v7.dump")"
"$IOREPORT" convert --to trace.dat -o - "$s" >"$T/stdout.dat" || fail "convert -o - failed"
cmp -s "$T/v7.dat" "$T/stdout.dat" || fail "convert -o - wrote other bytes than -o FILE"
cp "$s" "$T/copy.iorec"
"$IOREPORT" convert --to trace.dat "$T/copy.iorec" || fail "convert with the default output failed"
cmp -s "$T/v7.dat" "$T/copy.dat" || fail "the default output is not IN.dat with the same bytes"
log "ok: version 7 opens in trace-cmd dump; -o - and IN.dat hold the same bytes"

# a recording cut in the middle: the events before the cut
c=$top_srcdir/samples/story000-sqlite-after.iorec
size=$(stat -c %s "$c")
head -c $((size * 6 / 10)) "$c" >"$T/cut.iorec"
"$IOREPORT" dump --trace-clock "$T/cut.iorec" >"$T/cut.io" 2>/dev/null || fail "ioreport dump of the cut recording failed"
[ "$(wc -l <"$T/cut.io")" -gt 1000 ] || fail "the cut recording holds only $(wc -l <"$T/cut.io") events"
"$IOREPORT" convert --to trace.dat --dat-version 6 -o "$T/cut.dat" "$T/cut.iorec" 2>"$T/cut.err" ||
	fail "convert of a cut recording failed: $(cat "$T/cut.err")"
grep -q "warning: .*cut.iorec: .* at offset [0-9]*; converted the [0-9]* chunks before it" "$T/cut.err" ||
	fail "convert of a cut recording gave no warning with the offset: $(cat "$T/cut.err")"
same_lines "$T/cut.dat" "$T/cut.io" "cut at $((size * 6 / 10)) of $size bytes"
log "ok: cut at $((size * 6 / 10)) of $size bytes: $(cat "$T/cut.dat.cmp"), as ioreport dump of the cut file; $(cat "$T/cut.err")"

# failures
expect() {	# CODE PATTERN ARGS...: convert exits CODE, saying PATTERN
	local code=$1 pat=$2 rc=0
	shift 2
	"$IOREPORT" convert "$@" >"$T/e.out" 2>"$T/e.err" || rc=$?
	[ "$rc" = "$code" ] || fail "convert $*: exit $rc, not $code: $(cat "$T/e.err")"
	grep -q -- "$pat" "$T/e.err" || fail "convert $*: no '$pat' in: $(cat "$T/e.err")"
	[ -e "$T/e.dat" ] && fail "convert $*: left an output file"
	return 0
}
expect 2 "--to trace.dat" -o "$T/e.dat" "$s"
expect 2 "not 'csv'" --to csv -o "$T/e.dat" "$s"
expect 2 "--zstd needs --dat-version 7" --to trace.dat --dat-version 6 --zstd -o "$T/e.dat" "$s"
expect 2 "--zlib needs --dat-version 7" --to trace.dat --dat-version 6 --zlib -o "$T/e.dat" "$s"
expect 2 "exclude each other" --to trace.dat --zstd --zlib -o "$T/e.dat" "$s"
expect 2 "zlib wants" --to trace.dat --zlib=12 -o "$T/e.dat" "$s"
expect 2 "dat-version wants" --to trace.dat --dat-version 8 -o "$T/e.dat" "$s"
expect 1 "already a trace.dat" --to trace.dat -o "$T/e.dat" "$T/v7.dat"
expect 1 "cannot create '$T/nodir/x.dat" --to trace.dat -o "$T/nodir/x.dat" "$s"
[ "$(ls "$T" | grep -c tmp-)" = 0 ] || fail "convert left a temporary file: $(ls "$T" | grep tmp-)"
log "ok: usage errors exit 2, a trace.dat input and an unwritable output exit 1, one line each"
log "PASS"
