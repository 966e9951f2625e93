#!/usr/bin/env bash
# record-blackbox-d2c.sh - the black box's d2c trigger: on an emulated SD
# card of 20 IOPS, direct writes of 64 KiB (each one request that waits
# for the card) take more than the 30 ms of 'd2c>30ms@CARD' (the card
# only: a request of the loop device below it, or of the machine's own
# disk, that is slow now and then, must not fire), and the first request
# of the card (every one is that slow) fires a snapshot
# (-d2c.iorec) whose header names that
# request (device, sector, size, issue time, device time), held to the
# views of the snapshot:
#   - the pass finds the request (same device, sector and completion) and
#     its device time is the recorder's, to the nanosecond;
#   - ioreport slow --json lists it, issued at the recorder's time, with
#     that D2C and size;
#   - the device time is over the threshold, the request is on the card;
#   - a second black box, 'd2c>30ms@' a loop device nothing uses, takes
#     no snapshot meanwhile.
# The recorder takes a request's issue and completion, read from two CPUs'
# pages in no common order, in time order (one ordering for every pair).
. "$(dirname "$0")/lib.sh"
need_root_tracefs
need_cmd python3
"$IOREC" -h 2>&1 | grep -- 'd2c>' >/dev/null || skip "iorec has no d2c trigger"

make_card_ext4 20 64
CARD_DEVT=$LOOP_DEVT
COND="d2c>30ms@$LOOPNAME"
# a device nothing uses: a second black box watching it alone must take
# no snapshot while every request of the card is slow
make_loop_raw 8
QUIET=$LOOPNAME
command -v udevadm >/dev/null && udevadm settle -t 10 2>/dev/null || true

# a device that does not exist: one line naming it, exit 2
rc=0
"$IOREC" --snapshot-dir "$T" --trigger 'd2c>30ms@nosuchdev' -q >"$T/bad.out" 2>&1 || rc=$?
assert_eq "exit status with d2c>30ms@nosuchdev" 2 "$rc"
[ "$(wc -l <"$T/bad.out")" = 1 ] && grep -q "invalid trigger 'd2c>30ms@nosuchdev'.*/sys/class/block" "$T/bad.out" ||
	{ cat "$T/bad.out" >&2; fail "d2c>30ms@nosuchdev: not one line naming the trigger and where devices are"; }
SNAPS=$T/snaps
mkdir "$SNAPS"
mkdir -p "$T/bin2"
cp "$(command -v dd)" "$T/bin2/bbdirect"

env --default-signal=INT "$IOREC" --snapshot-dir "$SNAPS" --pid-file "$T/pid" \
	-F 64M --trigger "$COND" --post 1 --cooldown 0 --keep 20 -q \
	2>"$T/bb.err" &
BB=$!
track_pid "$BB"
wait_instance "$BB" 20 || { cat "$T/bb.err" >&2; fail "the black box did not start"; }
mkdir "$T/quiet"
env --default-signal=INT "$IOREC" --snapshot-dir "$T/quiet" --pid-file "$T/qpid" \
	-F 16M --trigger "d2c>30ms@$QUIET" --post 1 --cooldown 0 -q 2>"$T/qb.err" &
QB=$!
track_pid "$QB"
wait_instance "$QB" 20 || { cat "$T/qb.err" >&2; fail "the quiet device's black box did not start"; }
for ((i = 0; i < 100; i++)); do [ -s "$T/pid" ] && break; sleep 0.05; done
sleep 1

t0=$(date +%s%N)
"$T/bin2/bbdirect" if=/dev/zero of="$MNT/w" bs=64k count=20 oflag=direct status=none &
wpid=$!
wait "$wpid" || fail "dd to the card failed"
w_ns=$(( $(date +%s%N) - t0 ))
log "the writer: pid $wpid, 20 direct writes in $((w_ns / 1000000)) ms"
[ "$w_ns" -gt 600000000 ] || skip "the card was too fast here: 20 writes in $((w_ns / 1000000)) ms"

snap=
for ((i = 0; i < 300; i++)); do
	for f in "$SNAPS"/iorec-*-d2c.iorec; do
		[ -f "$f" ] || continue
		"$IOREPORT" info --json "$f" >"$T/i.json" 2>/dev/null || continue
		snap=$f
		break
	done
	[ -n "$snap" ] && break
	sleep 0.1
done
[ -n "$snap" ] || { ls -la "$SNAPS" >&2; cat "$T/bb.err" >&2; fail "no d2c snapshot 30 s after the slow writes"; }
kill -0 "$BB" || fail "the black box stopped after its snapshot"
cp "$snap" "$T/s.iorec"

info_to "$T/s.iorec" "$T/s.info"
assert_complete "$T/s.info"
assert_grep "^ *trigger: +$COND\$" "$T/s.info" "ioreport info of the snapshot"
"$IOREPORT" findings --json "$T/s.iorec" >"$T/findings.json" || fail "ioreport findings --json failed"
"$IOREPORT" slow --json --top 100000 "$T/s.iorec" >"$T/slow.json" || fail "ioreport slow --json failed"
"$IOREPORT" info --json "$T/s.iorec" >"$T/info.json" || fail "ioreport info --json failed"
python3 - "$T/findings.json" "$T/slow.json" "$T/info.json" "$CARD_DEVT" "$wpid" "$COND" <<'EOF' || fail "the d2c trigger's request disagrees with the views"
import json, sys
fj, sj, ij = (json.load(open(f)) for f in sys.argv[1:4])
card, wpid, cond = sys.argv[4], int(sys.argv[5]), sys.argv[6]
t, h = fj["trigger"], ij["header"]
assert t and t["condition"] == cond, t
assert t["dev"] == card, "the trigger's request is on %s, the card is %s" % (t["dev"], card)
assert t["found"], "the pass did not find the trigger's request (sector %s)" % t["sector"]
assert t["value_ns"] == t["recorded_value_ns"] == int(h["trigger_value_ns"]), t
assert t["value_ns"] > 30e6, t
assert t["start_ns"] == int(h["trigger_ts"]), (t["start_ns"], h["trigger_ts"])
assert t["sector"] == int(h["trigger_sector"]), (t["sector"], h["trigger_sector"])
rows = [r for r in sj["slow_requests"] if r["dev"] == card and r["sector"] == t["sector"]
        and r["issue_ns"] == t["start_ns"]]
assert rows, "slow --json has no request of %s at sector %d issued at %d" % (card, t["sector"], t["start_ns"])
r = rows[0]
assert r["d2c_ns"] == t["value_ns"], (r["d2c_ns"], t["value_ns"])
assert r["bytes"] == t["bytes"], (r["bytes"], t["bytes"])
# every request of the card is slow: the first after the black box
# started fires, the writer's or the file system's own
print("d2c: %s sector %d, %d bytes %s by %s (%s), %.1f ms on the device = slow's %.1f ms" %
      (card, t["sector"], r["bytes"], r["op"], r.get("comm"), r.get("pid"),
       t["value_ns"] / 1e6, r["d2c_ns"] / 1e6), file=sys.stderr)
EOF

kill -INT "$BB"
wait_exit "$BB" 20
assert_eq "exit status of the black box" 0 "$RC"
kill -INT "$QB"
wait_exit "$QB" 20
assert_eq "exit status of the quiet device's black box" 0 "$RC"
quiet=$(find "$T/quiet" -name '*-d2c.iorec' | wc -l)
assert_eq "d2c snapshots of the black box watching $QUIET only, while the card was slow" 0 "$quiet"
finish
