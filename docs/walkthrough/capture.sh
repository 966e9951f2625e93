#!/bin/bash
# Capture every ioreport/sqlite3 output that docs/walkthrough.md quotes,
# from the recordings in samples/, into docs/walkthrough/out/ (ignored by git).
#
# To refresh the walkthrough after the samples or ioreport changed, from the
# top of the built tree:
#
#	docs/walkthrough/capture.sh && python3 docs/walkthrough/render.py
#
# render.py fills the output blocks of docs/walkthrough/walkthrough.tmpl.md
# and writes docs/walkthrough.md (and the "What you get" section of
# README.md from docs/walkthrough/readme.tmpl.md).  Then read the prose
# again: its numbers are written by hand.
#
# The outputs of section 1 that show live recordings made on the
# development machine (iorec --check, iorec -o -, iorec -- dd, -p iowait)
# are not regenerated: they are static captures in docs/walkthrough/static/.
set -eu
export LC_ALL=C

TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP"
if [ ! -x ./ioreport ] || [ ! -d samples ]; then
	echo "capture.sh: run it in a built tree (no ./ioreport or samples/ in $TOP)" >&2
	exit 1
fi
if ! command -v sqlite3 > /dev/null; then
	echo "capture.sh: sqlite3 not found; install the sqlite3 command-line tool" >&2
	exit 1
fi

W=docs/walkthrough
O=$W/out
rm -rf "$O"
mkdir -p "$O"

R=./ioreport
S=samples
run() {	# run OUTFILE COMMAND...: capture stdout and stderr as the reader sees them
	local f=$1
	shift
	"$@" > "$O/$f" 2>&1 || echo "capture.sh: warning: exit $? from: $*" >&2
}

run s0-summary.txt	$R summary $S/story000-sqlite-before.iorec
run s0-devices.txt	$R devices $S/story000-sqlite-before.iorec
run s0-processes.txt	$R processes -n 5 $S/story000-sqlite-before.iorec
run s0-files.txt	$R files -n 6 $S/story000-sqlite-before.iorec
run s0-slow.txt		$R slow $S/story000-sqlite-before.iorec
run s0-diff.txt		$R diff $S/story000-sqlite-before.iorec $S/story000-sqlite-after.iorec
run s0-wa.txt		$R wa $S/story000-sqlite-before.iorec
run s1-fsync.txt	$R fsync $S/story001-barrier.iorec
run s1-fsync-nb.txt	$R fsync $S/story001-nobarrier.iorec
run s1-diff.txt		$R diff $S/story001-barrier.iorec $S/story001-nobarrier.iorec
run s1-wa.txt		$R wa $S/story001-barrier.iorec
run s2-dirty.txt	$R dirty $S/story002-dirty-default.iorec
run s2-dirty-tuned.txt	$R dirty $S/story002-dirty-tuned.iorec
run s2-diff.txt		$R diff $S/story002-dirty-default.iorec $S/story002-dirty-tuned.iorec
run raw-info.txt	$R info $S/rawsyscalls.iorec
run raw-processes.txt	$R processes $S/rawsyscalls.iorec
run report-full.txt	$R report $S/story000-sqlite-before.iorec

# ioreport db, run in out/ so that the paths print as in the doc
# (samples/..., results.sqlite); rec_id follows the order of samples/*.iorec
ln -s "$TOP/samples" "$O/samples"
(cd "$O" && "$TOP/ioreport" db results.sqlite samples/*.iorec > db.txt 2>&1) ||
	echo "capture.sh: warning: ioreport db failed, see $O/db.txt" >&2
for q in q1 q7 q8 q8b q9 q10 q11; do
	(cd "$O" && sqlite3 -header -column results.sqlite) \
		< "$W/$q.sql" > "$O/$q.out" 2>&1 ||
		echo "capture.sh: warning: query $q failed, see $O/$q.out" >&2
done

for f in "$O"/*.txt "$O"/*.out; do
	printf '%-24s %5d lines\n' "$(basename "$f")" "$(wc -l < "$f")"
done
