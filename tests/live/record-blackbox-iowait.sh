#!/usr/bin/env bash
# record-blackbox-iowait.sh - the black box's iowait trigger: a process
# waiting on an emulated SD card (O_DIRECT writes, each waited for in D
# state) for longer than 1.5 s of a 5 s window fires a snapshot
# (-iowait.iorec) whose header names that process, and whose views agree
# with the recorder:
#   - ioreport info and findings start from the trigger: "pid P (bbwait)
#     waited T in D state ... in the 5 s before", T the pass's own sum of
#     the process's D-state waits over those 5 s, over 1.5 s and at most 5 s;
#   - the recorder's sum (to a 16th of the window; it takes the two CPUs'
#     events in time order) is within a 16th of the window of the pass's;
#   - the process's D-STATE-SUM of ioreport processes --json (the whole
#     snapshot) is at least T;
#   - the profile iowait was added by the trigger (the header says so).
# The trigger watches every process: another test's slow writer may fire
# too; the snapshot of this test's writer is the one looked for.
. "$(dirname "$0")/lib.sh"
need_root_tracefs
need_cmd python3
need_event sched:sched_switch
"$IOREC" -h 2>&1 | grep -- 'iowait>' >/dev/null || skip "iorec has no iowait trigger"

make_card_ext4 40 64
SNAPS=$T/snaps
mkdir "$SNAPS"
mkdir -p "$T/bin2"
cp "$(command -v dd)" "$T/bin2/bbwait"

env --default-signal=INT "$IOREC" --snapshot-dir "$SNAPS" --pid-file "$T/pid" \
	-F 64M --trigger 'iowait>1500ms/5s' --post 1 --cooldown 0 --keep 20 -q \
	2>"$T/bb.err" &
BB=$!
track_pid "$BB"
wait_instance "$BB" 20 || { cat "$T/bb.err" >&2; fail "the black box did not start"; }
for ((i = 0; i < 100; i++)); do [ -s "$T/pid" ] && break; sleep 0.05; done
sleep 1

# 200 direct writes of 64 KiB to a card of 40 IOPS: about 5 s in D state
t0=$(date +%s%N)
"$T/bin2/bbwait" if=/dev/zero of="$MNT/w" bs=64k count=200 oflag=direct status=none &
wpid=$!
wait "$wpid" || fail "dd to the card failed"
w_ns=$(( $(date +%s%N) - t0 ))
log "the writer: pid $wpid, ran $((w_ns / 1000000)) ms"
[ "$w_ns" -gt 2500000000 ] || skip "the card was too fast here: the writer ran $((w_ns / 1000000)) ms"

snap=
for ((i = 0; i < 300; i++)); do
	[ -z "$snap" ] || break
	for f in "$SNAPS"/iorec-*-iowait.iorec; do
		[ -f "$f" ] || continue
		"$IOREPORT" info --json "$f" >"$T/i.json" 2>/dev/null || continue
		[ "$(json_get "$T/i.json" "j['header'].get('trigger_pid')")" = "$wpid" ] && snap=$f && break
	done
	[ -n "$snap" ] || sleep 0.1
done
[ -n "$snap" ] || { ls -la "$SNAPS" >&2; cat "$T/bb.err" >&2; fail "no iowait snapshot of the writer (pid $wpid) 30 s after it waited"; }
kill -0 "$BB" || fail "the black box stopped after its snapshot"
cp "$snap" "$T/w.iorec"

info_to "$T/w.iorec" "$T/w.info"
assert_complete "$T/w.info"
assert_grep '^ *trigger: +iowait>1500ms/5s$' "$T/w.info" "ioreport info of the snapshot"
assert_grep "^snapshot: +triggered by iowait>1500ms/5s at [0-9.]+ .*: pid $wpid \\(bbwait\\) waited [0-9.]+ ms in D state \\(uninterruptible, on I/O\\) in the 5 s before" "$T/w.info" "ioreport info's first lines (the recorder's)"
"$IOREPORT" findings "$T/w.iorec" >"$T/findings" 2>"$T/err" || { cat "$T/err" >&2; fail "ioreport findings failed"; }
# the sentence as one line (the text wraps it)
tr '\n' ' ' <"$T/findings" | sed 's/  */ /g' >"$T/findings1"
assert_grep "snapshot triggered by iowait>1500ms/5s at [0-9.]+ s .*: pid $wpid \\(bbwait\\) waited [0-9.]+ m?s in D state \\(uninterruptible, on I/O\\) in the 5(\\.0+)? s before(, of which the recording holds [0-9.]+ s)?; the window holds" "$T/findings1" "ioreport findings"
"$IOREPORT" findings --json "$T/w.iorec" >"$T/findings.json" || fail "ioreport findings --json failed"
"$IOREPORT" processes --json --top 1000000 "$T/w.iorec" >"$T/procs.json" || fail "ioreport processes --json failed"
"$IOREPORT" info --json "$T/w.iorec" >"$T/info.json" || fail "ioreport info --json failed"
python3 - "$T/findings.json" "$T/procs.json" "$T/info.json" "$wpid" "$T/findings1" <<'EOF' || fail "the iowait trigger's numbers disagree"
import json, re, sys
fj, pj, ij = (json.load(open(f)) for f in sys.argv[1:4])
pid = int(sys.argv[4])
t, h = fj["trigger"], ij["header"]
assert t and t["condition"] == "iowait>1500ms/5s" and t["pid"] == pid, t
assert t["found"], "the pass found no D state of the writer in the window"
v, rec = t["value_ns"], t["recorded_value_ns"]
assert rec == int(h["trigger_value_ns"]) and rec > 1.5e9, (rec, h["trigger_value_ns"])
assert t["end_ns"] == int(h["trigger_ts"]) and t["end_ns"] - t["start_ns"] == 5e9, t
whole = ij["first_ts_ns"] <= t["start_ns"]
# the recorder counts the waits whose both ends it has read (the CPUs'
# pages come in no common order) in 16ths of the window: at most a 16th
# over the pass's, which counts every wait; the pass's holds the
# condition when the recording holds the whole window
assert v <= rec + 5e9 / 16 + 20e6, "the recorder's %d ns, the pass's %d: the recorder missed waits" % (rec, v)
assert rec <= v + 5e9 / 16 + 20e6 or not whole, "the recorder's %d ns against the pass's %d" % (rec, v)
assert v <= 5e9 and (v > 1.5e9 or not whole), "the pass's D state over the window: %d ns (whole window: %r)" % (v, whole)
p = [x for x in pj["processes"] if x["pid"] == pid]
assert p, "the writer is not in processes"
d = p[0]["dstate_ns"] if "dstate_ns" in p[0] else p[0]["wait"]["dstate_ns"]
assert d >= v, "processes' D state of the writer %d ns < the trigger's %d" % (d, v)
assert "iowait" in h.get("profile", ""), "the trigger did not add the profile iowait: %r" % h.get("profile")
# the sentence's number is the JSON's value
m = re.search(r"waited ([0-9.]+) (m?s) in D state", open(sys.argv[5]).read())
s = float(m.group(1)) * (1e6 if m.group(2) == "ms" else 1e9)
assert abs(s - v) <= 0.051 * v, "findings says %s %s, the JSON %d ns" % (m.group(1), m.group(2), v)
print("iowait: pid %d waited %.3f s in the 5 s before (recorder: %.3f s), D-STATE-SUM %.3f s"
      % (pid, v / 1e9, rec / 1e9, d / 1e9), file=sys.stderr)
EOF

kill -INT "$BB"
wait_exit "$BB" 20
assert_eq "exit status of the black box" 0 "$RC"
finish
