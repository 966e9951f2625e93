#!/usr/bin/env bash
# report-findings.sh - the findings and the noise-aware diff on live
# recordings whose cause is known: the same SQLite commit loop on
# journaled ext4 on an emulated SD card (make_card_ext4: the flushes cost
# what the throttled device makes them cost, not what the host's disk
# does) recorded twice with barriers (A/A) and once more after a remount
# with barrier=0 (B).  With barriers `ioreport findings` must
# name sqlite3's fsyncs and the flushes on the test's device with its
# mount and the barrier option; without them no flush finding is left
# for that device.  `ioreport diff` must judge the A/A pair noise for
# sqlite3's fsync latency and the device's flushes, and the A/B pair
# significant for both (docs/diff-significance.md).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

need_root_tracefs
need_cmd sqlite3 python3 mkfs.ext4
need_event block:block_rq_complete ext4:ext4_sync_file_enter

# 150 commits (600 fsyncs a run): enough for the barrier effect (p below
# 1e-30 here), few enough that two runs under other load are not told
# apart by the sheer number of samples (docs/diff-significance.md)
COMMITS=${FINDINGS_COMMITS:-150}

py() {	# FILE EXPR: EXPR over the JSON object j of FILE
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

make_card_ext4 "${FINDINGS_IOPS:-400}" 64
sqlite3 "$MNT/db" 'create table t(x integer, y text);'
sync

commit_loop() {	# OUT
	run_iorec -q -o "$1" -- bash -c "for i in \$(seq $COMMITS); do
		echo \"insert into t values(\$i, 'row \$i');\"; done | sqlite3 '$MNT/db'" ||
		fail "iorec -- sqlite3 commit loop failed"
	sync
}

commit_loop "$T/a1.iorec"
commit_loop "$T/a2.iorec"
mount -o remount,barrier=0 "$MNT" || fail "remount barrier=0 failed"
sync
commit_loop "$T/b.iorec"

for r in a1 b; do
	"$IOREPORT" findings --json "$T/$r.iorec" >"$T/$r.json" ||
		fail "ioreport findings --json $r failed"
	"$IOREPORT" findings "$T/$r.iorec" >"$T/$r.txt" ||
		fail "ioreport findings $r failed"
done
# the views of both recordings agree with each other (the oracle)
check_views "$T/a1.iorec" "$T/b.iorec"

# with barriers: sqlite3's fsyncs, on the test's device
fsync=$(py "$T/a1.json" "[f['sentence'] for f in j['findings'] if f['rule'] == 'fsync' and f['entities'][0]['name'] == 'sqlite3'][0]") ||
	{ cat "$T/a1.txt" >&2; fail "no fsync finding for sqlite3"; }
log "fsync: $fsync"
case $fsync in *"$MNT"*" on $LOOPNAME;"*) ;;
*) fail "the fsync finding names neither a file on $MNT nor $LOOPNAME: $fsync" ;; esac
# the flushes on the loop device, from its mount with barriers on
flush=$(py "$T/a1.json" "[f for f in j['findings'] if f['rule'] == 'flushes' and f['entities'][0]['name'] == '$LOOPNAME'][0]") ||
	{ cat "$T/a1.txt" >&2; fail "no flush finding for $LOOPNAME"; }
n=$(py "$T/a1.json" "int([f for f in j['findings'] if f['rule'] == 'flushes' and f['entities'][0]['name'] == '$LOOPNAME'][0]['evidence']['flushes'])")
log "flushes on $LOOPNAME: $n for $COMMITS commits"
[ "$n" -ge "$COMMITS" ] || fail "the flush finding counts $n flushes for $COMMITS commits"
case $flush in *"$MNT (ext4) is mounted with barriers on"*) ;;
*) fail "the flush finding does not name the mount and its barriers: $flush" ;; esac
# without barriers: no flush finding on the device
py "$T/b.json" "[f for f in j['findings'] if f['rule'] == 'flushes' and f['entities'][0]['name'] == '$LOOPNAME']" |
	grep -qx '\[\]' || { cat "$T/b.txt" >&2; fail "a flush finding for $LOOPNAME without barriers"; }

# the diffs: A/A noise, A/B significant (every row: other processes of a
# busy machine can push sqlite3 out of the top 10 of an A/A diff)
"$IOREPORT" diff --json --top 1000 "$T/a1.iorec" "$T/a2.iorec" >"$T/aa.json" || fail "diff A/A failed"
"$IOREPORT" diff --json --top 1000 "$T/a1.iorec" "$T/b.iorec" >"$T/ab.json" || fail "diff A/B failed"
"$IOREPORT" diff "$T/a1.iorec" "$T/b.iorec" >"$T/ab.txt" || fail "diff A/B (text) failed"
sig() {	# FILE SECTION KEY METRIC: "significant p before after [after_larger]"
	py "$1" "(lambda m: '%s %.3g %s %s %s' % (m['significant'], m['p'], m['before'], m['after'], m['after_larger']))([r for r in j['sections']['$2'] if r['key'] == '$3'][0]['metrics']['$4'])"
}
for pair in aa ab; do
	f=$(sig "$T/$pair.json" fsync sqlite3 p50_ns) || fail "$pair: no fsync row of sqlite3"
	l=$(sig "$T/$pair.json" write_amplification "$LOOPNAME" flushes) ||
		fail "$pair: no write amplification row of $LOOPNAME"
	log "$pair: sqlite3 fsync p50: significant p before after P(after larger): $f; flushes on $LOOPNAME: $l"
	if [ $pair = aa ]; then
		[ "${f%% *}" = False ] || fail "A/A: sqlite3's fsync latency judged significant ($f)"
		[ "${l%% *}" = False ] || fail "A/A: the flushes on $LOOPNAME judged significant ($l)"
	else
		[ "${f%% *}" = True ] || fail "A/B: sqlite3's fsync latency judged noise ($f)"
		[ "${l%% *}" = True ] || fail "A/B: the flushes on $LOOPNAME judged noise ($l)"
	fi
done
assert_grep "^    flushes .*  \*$" "$T/ab.txt" "the A/B diff's significant flushes"
assert_grep "^what changed" "$T/ab.txt" "the A/B diff's findings"
finish
