#!/usr/bin/env bash
# test-dirty-live.sh - story 002 as a live A/B test: a buffered sequential
# writer (dd of 100 MB) on an ext4 loop file system, recorded with the
# dirty limits at the kernel defaults (vm.dirty_background_ratio=10,
# vm.dirty_ratio=20) and then with low limits.  On a machine with GBs of
# RAM no ratio keeps 100 MB from fitting under the limits, so the low
# setting is given in bytes (vm.dirty_background_bytes=4 MiB,
# vm.dirty_bytes=8 MiB: the same knobs, another unit).  `ioreport diff`
# must show the sysctl change, the writer throttled (balance_dirty_pages
# pauses) only with the low limits, and the writeback pattern changed:
# the bytes reach the device during the recording, spread over its time.  Every sysctl changed
# is restored on every exit path.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

need_root_tracefs
need_cmd python3 mkfs.ext4
need_event writeback:balance_dirty_pages writeback:global_dirty_state

MB=${DIRTY_MB:-100}

save_dirty_sysctls

make_loop_ext4 $((MB * 3)) "" ""
unique_dd

# writer OUT: dd MB MiB buffered (no fsync), recorded
writer() {
	rm -f "$MNT/big"
	sync
	sleep 1
	run_iorec -q -o "$1" -- "$DD" if=/dev/zero of="$MNT/big" bs=1M count="$MB" status=none ||
		fail "iorec -- dd failed"
}

echo 20 >$VM/dirty_ratio
echo 10 >$VM/dirty_background_ratio
writer "$T/default.iorec"
echo $((4 << 20)) >$VM/dirty_background_bytes
echo $((8 << 20)) >$VM/dirty_bytes
writer "$T/low.iorec"
restore_dirty_sysctls
[ "$(cat $VM/dirty_ratio)" = "$SAVED_R" ] || [ "$SAVED_B" != 0 ] ||
	fail "vm.dirty_ratio not restored"

"$IOREPORT" dirty "$T/low.iorec" >"$T/dirty.txt" || fail "ioreport dirty failed"
"$IOREPORT" dirty --json "$T/low.iorec" >"$T/dirty.json" || fail "ioreport dirty --json failed"
check_views "$T/default.iorec" "$T/low.iorec"
"$IOREPORT" diff "$T/default.iorec" "$T/low.iorec" >"$T/diff.txt" || fail "ioreport diff failed"
"$IOREPORT" diff --json "$T/default.iorec" "$T/low.iorec" >"$T/diff.json" ||
	fail "ioreport diff --json failed"

cfg() {	# KEY: "before -> after" of a sysctl in the diff
	json_get "$T/diff.json" "[c['before'] + ' -> ' + c['after'] for c in j['config'] if c['key'] == '$1'][0]"
}
c_b=$(cfg vm.dirty_bytes) || { cat "$T/diff.txt" >&2; fail "vm.dirty_bytes change not in the diff"; }
c_bb=$(cfg vm.dirty_background_bytes) || fail "vm.dirty_background_bytes change not in the diff"
c_r=$(cfg vm.dirty_ratio) || fail "vm.dirty_ratio change not in the diff"
log "config: vm.dirty_bytes $c_b, vm.dirty_background_bytes $c_bb, vm.dirty_ratio $c_r"
assert_eq "vm.dirty_bytes change" "0 -> $((8 << 20))" "$c_b"

d() {	# METRIC SIDE of the dirty section
	json_get "$T/diff.json" "j['sections']['dirty'][0]['metrics']['$1']['$2']"
}
p_b=$(d paused_ns before) p_a=$(d paused_ns after)
# device writes of the test's own loop device (other tests of a parallel
# run write to other devices meanwhile)
dw() {	# SIDE
	json_get "$T/diff.json" "sum(x['metrics']['bytes']['$1'] or 0 for x in j['sections']['devices'] if x['key'] == '$LOOPNAME write')"
}
w_b=$(dw before) w_a=$(dw after)
t_b=$(d dirty_thresh_bytes before) t_a=$(d dirty_thresh_bytes after)
s_b=$(d write_slots before) s_a=$(d write_slots after)
log "throttled: $p_b ns -> $p_a ns; device writes during the recording: $w_b -> $w_a B" \
    "in $s_b -> $s_a slots of 100 ms; dirty threshold $t_b -> $t_a B"
[ "$p_a" -gt 0 ] || { cat "$T/dirty.txt" >&2; fail "with low limits dd was never paused"; }
[ "$p_a" -gt "$p_b" ] || fail "throttling did not grow: $p_b -> $p_a ns"
[ "$t_a" != None ] && [ "$t_a" -le $((16 << 20)) ] || fail "low dirty threshold not seen: $t_a"
# on failure, the diff's device rows and the low recording's own say
# which device the writes were put on
dev_rows() {
	json_get "$T/diff.json" "'; '.join('%s %s->%s' % (x['key'], x['metrics']['bytes']['before'], x['metrics']['bytes']['after']) for x in j['sections']['devices'])"
	"$IOREPORT" devices "$T/low.iorec" 2>&1 | head -n 12 | tr -s ' \n' ' '
}
[ "$w_a" -ge $((MB * 1048576 / 2)) ] ||
	fail "with low limits, only $w_a B reached $LOOPNAME while dd ran; diff devices: $(dev_rows)"
# The pattern, not the total: a sync(2) by anything else on the machine
# during the default recording can push all of its bytes out at once, but
# only the low limits spread them over the time dd runs.
[ "$s_a" -gt "$s_b" ] ||
	fail "writeback pattern unchanged: $w_b -> $w_a B in $s_b -> $s_a slots of 100 ms during the recording"

# per process: dd paused; over time: rows
pid_paused=$(json_get "$T/dirty.json" "[p['paused_ns'] for p in j['processes'] if p['comm'] == 'dd'][0]") ||
	fail "ioreport dirty: dd not among the throttled processes"
[ "$pid_paused" -gt 0 ] || fail "ioreport dirty: dd paused 0 ns"
assert_grep "^over time" "$T/dirty.txt" "ioreport dirty"
finish
