#!/usr/bin/env bash
# db-bench.sh - how fast `ioreport db` loads, and how big the database is.
#
# Records ~1 M events (a dd of small writes, under iorec; root and tracefs
# needed) or takes the recording given as $1, then loads it three times
# into a fresh database and prints:
#   rows/s overall      rows / wall time of `ioreport db` (replay included)
#   rows/s inserting    rows / (time of `ioreport db` - time of the same
#                       replay without the database, `ioreport processes`)
#   size                database bytes, per million events, and the ratio
#                       to the compressed recording
# Best of three runs each.
#
# usage: bench/db-bench.sh [RECORDING]
#   env: IOREC, IOREPORT (default: the built programs), COUNT (dd writes,
#   default 400000: ~1.6 M events)
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
COUNT=${COUNT:-400000}

make_tmp files

if [ $# -ge 1 ]; then
	REC=$1
else
	[ "$(id -u)" = 0 ] || die "recording needs root (or give a recording)"
	REC=$T/big.iorec
	echo "recording: dd of $COUNT writes of 512 bytes under iorec..."
	"$IOREC" -q -o "$REC" -- dd if=/dev/zero of="$T/dd.out" bs=512 count="$COUNT" status=none
	rm -f "$T/dd.out"
fi

# best WALL_SECONDS of three runs of a command (output to $T/last)
best() {
	local b="" s e t
	for _ in 1 2 3; do
		rm -f "$T/db.sqlite" "$T/db.sqlite-journal"
		s=$(date +%s.%N)
		"$@" >"$T/last" 2>"$T/last.err" || { cat "$T/last.err" >&2; exit 1; }
		e=$(date +%s.%N)
		t=$(echo "$e - $s" | bc -l)
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc -l)" = 1 ]; then b=$t; fi
	done
	echo "$b"
}

t_replay=$(best "$IOREPORT" processes "$REC")
t_db=$(best "$IOREPORT" db "$T/db.sqlite" "$REC")
rows=$(sed -n 's/.*: \([0-9]*\) rows in .*/\1/p' "$T/last")
events=$(sed -n 's/.*, \([0-9]*\) events, .*/\1/p' "$T/last")
rec_bytes=$(stat -c %s "$REC")
db_bytes=$(stat -c %s "$T/db.sqlite")

awk -v rows="$rows" -v ev="$events" -v tr="$t_replay" -v td="$t_db" \
    -v rb="$rec_bytes" -v dbb="$db_bytes" -v rec="$REC" 'BEGIN {
	ins = td - tr
	# no ">" inside a print statement: awk reads it as a redirection
	rate = ins > 0 ? rows / ins : 0
	printf "recording          %s: %d bytes, %d events\n", rec, rb, ev
	printf "rows               %d (%.2f per event)\n", rows, rows / ev
	printf "replay only        %.3f s (ioreport processes)\n", tr
	printf "ioreport db        %.3f s\n", td
	printf "rows/s overall     %.0f\n", rows / td
	printf "rows/s inserting   %.0f\n", rate
	printf "database           %d bytes, %.1f MB per million events\n", dbb, dbb / ev
	printf "database/recording %.2fx\n", dbb / rb
}'
