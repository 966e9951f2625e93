#!/usr/bin/env bash
# test-fsync-live.sh - story 001 as a live A/B test: the same SQLite commit
# loop on journaled ext4, mounted with barriers and then remounted with
# barrier=0 (nobarrier), each recorded with iorec.  `ioreport diff` must
# name the mount option as the config difference, show the flush requests
# on the device dropping to ~0 and sqlite3's fsync latency falling; and
# `ioreport fsync` must join flushes to sqlite3's fsyncs with barriers.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

need_root_tracefs
need_cmd sqlite3 python3 mkfs.ext4
need_event block:block_rq_complete ext4:ext4_sync_file_enter

COMMITS=${FSYNC_COMMITS:-300}

make_loop_ext4 64 "" ""
sqlite3 "$MNT/db" 'create table t(x integer, y text);'
sync

# commit_loop OUT: COMMITS autocommitted inserts (each one fsyncs)
commit_loop() {
	run_iorec -q -o "$1" -- bash -c "for i in \$(seq $COMMITS); do
		echo \"insert into t values(\$i, 'row \$i');\"; done | sqlite3 '$MNT/db'" ||
		fail "iorec -- sqlite3 commit loop failed"
}

commit_loop "$T/barrier.iorec"
mount -o remount,barrier=0 "$MNT" || fail "remount barrier=0 failed"
grep -E " $MNT ext4 .*nobarrier" /proc/mounts >/dev/null ||
	fail "remount did not turn barriers off: $(grep " $MNT " /proc/mounts)"
sync
commit_loop "$T/nobarrier.iorec"

"$IOREPORT" fsync "$T/barrier.iorec" >"$T/fsync.txt" || fail "ioreport fsync failed"
"$IOREPORT" diff "$T/barrier.iorec" "$T/nobarrier.iorec" >"$T/diff.txt" ||
	fail "ioreport diff failed"
"$IOREPORT" diff --json "$T/barrier.iorec" "$T/nobarrier.iorec" >"$T/diff.json" ||
	fail "ioreport diff --json failed"

# the config difference: the option of the test's own mount, read as
# barriers off (other mounts may change too on a shared machine: other
# tests mount and unmount their file systems during the recordings)
note=$(json_get "$T/diff.json" "[c['note'] for c in j['config'] if c['what'] == 'mount' and c['key'] == '$MNT'][0]") ||
	{ sed -n '/^config changes/,/^$/p' "$T/diff.txt" >&2
	  fail "no change of the mount $MNT in the diff's config"; }
case $note in
*nobarrier*"barrier on -> off"*) ;;
*) sed -n '/^config changes/,/^$/p' "$T/diff.txt" >&2
   fail "mount change note does not say barriers went off: $note" ;;
esac
log "mount change: $note"

wa() {	# METRIC SIDE: of the loop device in the write_amplification section
	json_get "$T/diff.json" "[r for r in j['sections']['write_amplification'] if r['key'] == '$LOOPNAME'][0]['metrics']['$1']['$2']"
}
fl_b=$(wa flushes before)
fl_a=$(wa flushes after)
pf_b=$(wa preflush before)
pf_a=$(wa preflush after)
log "flush requests on $LOOPNAME: $fl_b -> $fl_a, PREFLUSH writes: $pf_b -> $pf_a"
[ $((fl_b + pf_b)) -ge "$COMMITS" ] ||
	fail "with barriers: only $fl_b flushes and $pf_b preflush writes for $COMMITS commits"
[ $((fl_a + pf_a)) -le $(((fl_b + pf_b) / 20)) ] ||
	fail "with barrier=0: flushes did not drop to ~0 ($fl_b+$pf_b -> $fl_a+$pf_a)"

fs() {	# METRIC SIDE of sqlite3 in the fsync section
	json_get "$T/diff.json" "[r for r in j['sections']['fsync'] if r['key'] == 'sqlite3'][0]['metrics']['$1']['$2']"
}
p50_b=$(fs p50_ns before)
p50_a=$(fs p50_ns after)
n_b=$(fs ext4_fsyncs before)
log "sqlite3 fsync p50: $p50_b ns -> $p50_a ns ($n_b fsyncs before)"
[ "$n_b" -ge "$COMMITS" ] || fail "sqlite3: $n_b ext4 fsyncs for $COMMITS commits"
# the p50 itself is a latency on a shared machine (a loop device over a
# file, where a flush costs microseconds): it is logged above, not
# asserted (once 262 -> 359 us with the flushes gone); the flushes are

# fsync: flushes joined to sqlite3's fsyncs with barriers
assert_grep "^ +[0-9]+ sqlite3 " "$T/fsync.txt" "ioreport fsync"
awk '$2 == "sqlite3" && $(NF-2) + 0 > 0 { ok = 1 } END { exit !ok }' "$T/fsync.txt" ||
	{ cat "$T/fsync.txt" >&2; fail "ioreport fsync: no flushes joined to sqlite3's fsyncs"; }
# sqlite3's fsync and fdatasync calls, each kind under its own column,
# are those of the files on the test's file system, at least one per
# commit (the recording is system-wide: other processes sync too)
"$IOREPORT" fsync --json --top 100000 "$T/barrier.iorec" >"$T/fsync.json" ||
	fail "ioreport fsync --json failed"
split=$(json_get "$T/fsync.json" "'%d %d %d %d' % (sum(r['fsync'] for r in j['processes'] if r['comm'] == 'sqlite3'), sum(r['fdatasync'] for r in j['processes'] if r['comm'] == 'sqlite3'), sum(r['fsync'] for r in j['files'] if (r['path'] or '').startswith('$MNT')), sum(r['fdatasync'] for r in j['files'] if (r['path'] or '').startswith('$MNT')))")
log "fsync/fdatasync calls: sqlite3 $(cut -d' ' -f1,2 <<<"$split"), files on $MNT $(cut -d' ' -f3,4 <<<"$split")"
read -r p_fs p_fds f_fs f_fds <<<"$split"
# with events lost (a busy machine), an open may be among them: the calls
# on that descriptor count under sqlite3 and under a file without a path
# (the CI run here lost 4 of 1,200 calls, and the files showed one fewer)
gaps=$(json_get "$T/fsync.json" "sum(r['lost_event_gaps'] for r in j['integrity']['recordings'])")
if [ "$gaps" = 0 ]; then
	[ "$p_fs" = "$f_fs" ] && [ "$p_fds" = "$f_fds" ] ||
		fail "fsync view: sqlite3 made $p_fs fsync + $p_fds fdatasync calls, its files show $f_fs + $f_fds"
else
	log "the recording lost events in $gaps gaps: the files' calls held to at most sqlite3's"
	[ "$f_fs" -le "$p_fs" ] && [ "$f_fds" -le "$p_fds" ] ||
		fail "fsync view: sqlite3 made $p_fs fsync + $p_fds fdatasync calls, its files show more: $f_fs + $f_fds"
fi
[ $((p_fs + p_fds)) -ge "$COMMITS" ] || fail "fsync view: $((p_fs + p_fds)) calls for $COMMITS commits"
assert_grep "latency \(I2C\), BEFORE and AFTER" "$T/diff.txt" "ioreport diff"
finish
