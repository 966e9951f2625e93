#!/usr/bin/env bash
# report-diff-moved.sh - `ioreport diff` pairs a workload whose files
# moved to another mount on another device while the old mount stays
# mounted (issue 25 item 7): the same SQLite commit loop (story 001's
# workload) recorded on ext4 on loop device A, then on ext4 on loop
# device B with A still mounted and idle: an A/A pair.  The diff must
# compare B's files, device and loop workers as A's (by what stays the
# same: process name, the path below the mount point, the device's
# role), say that pairing in text and JSON, and rank no flush finding
# as gone or new; run against the analyzer before the pairing, it
# compared A's mount with its idle self and ranked "gone flushes" on A
# and "new flushes" on B as the top changes.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

need_root_tracefs
need_cmd python3 mkfs.ext4
need_event block:block_rq_complete ext4:ext4_sync_file_enter

COMMITS=${MOVED_COMMITS:-150}
WL=$top_srcdir/samples/workloads/commit-loop.py

py() {	# FILE EXPR: EXPR over the JSON object j of FILE
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

make_loop_ext4 64
MNT_A=$MNT LOOP_A=$LOOPNAME
make_loop_ext4 64
MNT_B=$MNT LOOP_B=$LOOPNAME
log "A: $LOOP_A on $MNT_A; B: $LOOP_B on $MNT_B (A stays mounted)"

for side in A B; do
	eval "mnt=\$MNT_$side"
	run_iorec -q -o "$T/$side.iorec" -- python3 "$WL" "$mnt/bcfg2.sqlite" "$COMMITS" ||
		fail "iorec -- commit loop on $side failed"
	sync
done

"$IOREPORT" diff --json --top 100000 "$T/A.iorec" "$T/B.iorec" >"$T/d.json" || fail "diff --json failed"
"$IOREPORT" diff "$T/A.iorec" "$T/B.iorec" >"$T/d.txt" || fail "diff failed"

# the database's files: B's named as A's, in both recordings
for f in bcfg2.sqlite bcfg2.sqlite-journal; do
	r=$(py "$T/d.json" "[(r['in_before'], r['in_after']) for r in j['sections']['files'] if r['key'] == '$MNT_A/$f']") ||
		fail "files section unreadable"
	[ "$r" = "[(True, True)]" ] || { cat "$T/d.txt" >&2; fail "$f not paired: $r"; }
done
# the device: B's loop device compared as A's, AFTER's rows never named
# as B (BEFORE's own rows of B may be: something may read it then).
# Files of the pseudo file systems are not the test's: udev and the like
# read /sys/block/loopN/... of a new loop device during the recording,
# and the diff pairs devices and mounts, not their sysfs files.
r=$(py "$T/d.json" "[(r['in_before'], r['in_after']) for r in j['sections']['write_amplification'] if r['key'] == '$LOOP_A']")
[ "$r" = "[(True, True)]" ] || { cat "$T/d.txt" >&2; fail "$LOOP_B not compared as $LOOP_A: $r"; }
n=$(py "$T/d.json" "[r['key'] for s in j['sections'].values() for r in s if r['in_after'] and ('$LOOP_B' in r['key'] or '$MNT_B' in r['key']) and not r['key'].startswith(('/sys/', '/proc/', '/dev/'))]")
[ "$n" = "[]" ] || { cat "$T/d.txt" >&2; fail "AFTER's rows still named as B ($LOOP_B, $MNT_B): $n"; }
# the loop workers that flush A's backing file: compared by role, not number
n=$(py "$T/d.json" "sum(1 for r in j['sections']['fsync'] if r['key'].startswith('kworker') and not (r['in_before'] and r['in_after']))")
log "unpaired kworker fsync rows: $n"
[ "$n" = 0 ] || { grep -A3 kworker "$T/d.txt" >&2; fail "$n kworker fsync rows of one side only"; }
# no flush finding gone or new: the flushes are the same on both
bad=$(py "$T/d.json" "[(f['change'], f['rule']) for f in j['findings'] if f['rule'] == 'flushes' and f['change'] != 'changed' and ('$LOOP_A' in (f['before'] or '') or '$LOOP_B' in (f['after'] or ''))]")
[ "$bad" = "[]" ] || { sed -n '/^what changed/,/^$/p' "$T/d.txt" >&2; fail "flush findings unpaired: $bad"; }
# the pairing is said, in JSON and in text
r=$(py "$T/d.json" "[(p['what'], p['before'], p['after']) for p in j['pairing']]") || fail "no pairing in the JSON"
log "pairing: $r"
case $r in *"('mount', '$MNT_A', '$MNT_B')"*) ;; *) fail "the JSON does not say $MNT_B is compared as $MNT_A: $r" ;; esac
case $r in *"('device', '$LOOP_A', '$LOOP_B')"*) ;; *) fail "the JSON does not say $LOOP_B is compared as $LOOP_A: $r" ;; esac
# (the text wraps long lines: the paired block read as one line)
sed -n '/^paired/,/^$/p' "$T/d.txt" | tr -s ' \n' '  ' >"$T/paired.txt"
assert_grep " mount $MNT_B \\(AFTER\\) as $MNT_A: " "$T/paired.txt" "the text's pairing of the mounts"
assert_grep " device $LOOP_B \\(AFTER\\) as $LOOP_A: " "$T/paired.txt" "the text's pairing of the devices"
finish
