#!/usr/bin/env bash
# corrupt.sh - damaged trace.dat files: the formats/ reader names what is
# wrong and where, and never crashes.
#
# Files: samples/tracecmd.dat (trace-cmd record, version 7, zstd) and a
# sample recording converted to versions 6 and 7 with zstd (the unit tests
# cut small files of every variant at every offset).  For each:
#  - cut at 120 offsets spread over the file and at each of its first 48:
#    'tdat-walk -m -s' (the metadata but kallsyms, every page of every
#    CPU) must fail with exactly one line "tdat-walk: FILE: ERROR at
#    offset N", ERROR one of the reader's file errors (tracedat.h) or the
#    walker's own "an event runs past its page" (kbuffer does not check
#    event lengths against the page: every consumer of the pages must),
#    and N at most the cut;
#  - one byte changed at 120 offsets: the walk ends cleanly or with such
#    a line (N inside the file), never by a signal or a sanitizer report;
#  - the fuzz target's replay (tests/fuzz-tracedat-reader) of the same
#    files: 256 cuts and 128 changed bytes each, in one process, with the
#    reader's memory limit checked.
# In the ASan/UBSan build every run is checked by the sanitizers too.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/live/lib.sh"

BIN=$top_builddir/tests/tracedat
FUZZ=$top_builddir/tests/fuzz-tracedat-reader
for p in "$BIN/iorec2dat" "$BIN/tdat-walk" "$FUZZ"; do
	[ -x "$p" ] || fail "$p not built (run make check)"
done

# the reader's errors that name a problem of the file
sed -n 's/^.*_TRACEDAT_E([A-Z_]*,[[:space:]]*"\([^"]*\)").*$/\1/p' "$top_srcdir/formats/tracedat.h" |
	grep -vxE 'success|out of memory|invalid argument|call out of order|read or write failed' \
	>"$T/errors"
# and the walker's own check of each event against its page (kbuffer's
# lengths are not checked by kbuffer)
echo "an event runs past its page" >>"$T/errors"
[ "$(wc -l <"$T/errors")" -ge 15 ] || fail "could not read the error strings of formats/tracedat.h"

files=("$top_srcdir/samples/tracecmd.dat")
for v in 6 7z; do
	args=(-V "${v%z}")
	[ "$v" = 7z ] && args+=(-z)
	"$BIN/iorec2dat" "${args[@]}" -o "$T/arm.v$v.dat" "$top_srcdir/samples/arm-armhf.iorec" ||
		fail "iorec2dat ${args[*]} failed"
	files+=("$T/arm.v$v.dat")
done

# check_run FILE MAXOFF: tdat-walk's exit and stderr; sets RESULT ok|error
check_run() {
	local rc=0 msg err off
	"$BIN/tdat-walk" -m -s "$1" >/dev/null 2>"$T/err" || rc=$?
	if [ "$rc" = 0 ]; then
		[ -s "$T/err" ] && fail "$1: exit 0 but: $(head -n 2 "$T/err")"
		RESULT=ok
		return
	fi
	[ "$rc" = 1 ] || fail "$1: exit status $rc: $(head -n 3 "$T/err")"
	[ "$(wc -l <"$T/err")" = 1 ] || fail "$1: not one line: $(head -n 4 "$T/err")"
	msg=$(cat "$T/err")
	case $msg in
	"tdat-walk: $1: "*" at offset "*) ;;
	*) fail "$1: not 'FILE: ERROR at offset N': $msg" ;;
	esac
	err=${msg#"tdat-walk: $1: "}
	off=${err##* at offset }
	err=${err% at offset *}
	grep -qxF -- "$err" "$T/errors" || fail "$1: '$err' is not one of the reader's file errors"
	[ "$off" -le "$2" ] || fail "$1: error offset $off beyond $2: $msg"
	RESULT=error
}

for f in "${files[@]}"; do
	len=$(stat -c %s "$f")
	b=$(basename "$f")
	check_run "$f" "$len"
	[ "$RESULT" = ok ] || fail "$f does not read cleanly to start with"
	ncut=0 nflip=0 nflip_err=0
	cuts=$( (seq 0 47; for ((i = 0; i < 120; i++)); do echo $((len * i / 120)); done) | sort -nu)
	for cut in $cuts; do
		[ "$cut" -lt "$len" ] || continue
		head -c "$cut" "$f" >"$T/cut.$b"
		check_run "$T/cut.$b" "$cut"
		[ "$RESULT" = error ] || fail "$b cut at $cut of $len: read without an error"
		ncut=$((ncut + 1))
	done
	for ((i = 0; i < 120; i++)); do
		at=$((len * i / 120 + i % 7))
		[ "$at" -lt "$len" ] || continue
		cp "$f" "$T/flip.$b"
		# shellcheck disable=SC2059 # the format is the byte to write
		printf "\\x$(printf %02x $(((i * 53 + 1) % 256)))" |
			dd of="$T/flip.$b" bs=1 seek="$at" conv=notrunc status=none
		check_run "$T/flip.$b" "$len"
		nflip=$((nflip + 1))
		[ "$RESULT" = error ] && nflip_err=$((nflip_err + 1))
	done
	log "ok: $b ($len bytes): $ncut cuts, each a named error at or before the cut; $nflip changed bytes, $nflip_err named errors, the rest read"
done
rm -f "$T"/cut.* "$T"/flip.*

"$FUZZ" "${files[@]}" >"$T/fuzz.out" 2>&1 || fail "fuzz-tracedat-reader: $(tail -n 5 "$T/fuzz.out")"
[ "$(grep -c '^ok ' "$T/fuzz.out")" = "${#files[@]}" ] || fail "fuzz-tracedat-reader: $(cat "$T/fuzz.out")"
log "ok: the fuzz target's replay of ${#files[@]} files"
log "PASS"
