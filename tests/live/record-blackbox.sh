#!/usr/bin/env bash
# record-blackbox.sh - the black box (iorec --snapshot-dir) on an emulated
# SD card, its snapshot directory on that card:
#   - while nothing fires, not one sector is written to the card
#     (/proc/diskstats), though fast fsyncs run elsewhere;
#   - an fsync on the card slower than the trigger leaves one snapshot
#     (-fsync.iorec) that holds that fsync (ioreport fsync --json: its
#     pid and a latency over the threshold, at most dd's whole run), the seconds before it (a marker dd run 2 s earlier)
#     and --post seconds after; its header names the trigger and pid;
#   - 'iorec --snapshot' (SIGUSR1 through the pid file) snapshots while
#     recording goes on: a second one holds a marker run after the first,
#     which the first does not;
#   - --keep 2 leaves the two newest snapshots.
# Other tests may run at the same time and fsync slowly: the recording
# keeps only the system calls of this test's bb* programs (--comm), so
# that theirs fire nothing here.
. "$(dirname "$0")/lib.sh"
need_root_tracefs
need_cmd python3
"$IOREC" -h 2>&1 | grep -- '--snapshot-dir' >/dev/null || skip "iorec has no --snapshot-dir"

make_card_ext4 40 64
CARD=$LOOPNAME
SNAPS=$MNT/snaps
mkdir "$SNAPS"
sync

mkdir -p "$T/bin2"
cp "$(command -v dd)" "$T/bin2/marker1"
cp "$(command -v dd)" "$T/bin2/marker2"
cp "$(command -v dd)" "$T/bin2/before"
cp "$(command -v dd)" "$T/bin2/bbfast"
cp "$(command -v dd)" "$T/bin2/bbslow"

env --default-signal=INT "$IOREC" --snapshot-dir "$SNAPS" --pid-file "$T/pid" \
	--comm 'bb*' -F 8M --trigger 'fsync>300ms' --post 2 --cooldown 2 --keep 2 -q \
	2>"$T/bb.err" &
BB=$!
track_pid "$BB"
wait_instance "$BB" 20 || { cat "$T/bb.err" >&2; fail "the black box did not start"; }
for ((i = 0; i < 100; i++)); do [ -s "$T/pid" ] && break; sleep 0.05; done
assert_eq "pid file" "$BB" "$(head -n 1 "$T/pid")"
sleep 1

# 1. Nothing fires: fast fsyncs on another device, no byte to the card.
w0=$(diskstats_sectors "$CARD") || fail "no $CARD in /proc/diskstats"
for ((i = 0; i < 20; i++)); do
	"$T/bin2/bbfast" if=/dev/zero of="$T/fast" bs=4k count=1 conv=fsync status=none
	sleep 0.2
done
w1=$(diskstats_sectors "$CARD")
log "quiet period: $((w1 - w0)) sectors written to the card ($CARD) in 4 s"
assert_eq "sectors written to the card while no trigger fired" 0 $((w1 - w0))
n=$(find "$SNAPS" -name '*.iorec' | wc -l)
assert_eq "snapshots while no trigger fired" 0 "$n"

# 2. A slow fsync on the card fires; the 'before' marker runs 2 s earlier.
"$T/bin2/before" if=/dev/zero of="$T/before" bs=4k count=1 status=none
sleep 2
# dd's whole run bounds its fsync from above
t0=$(date +%s%N)
"$T/bin2/bbslow" if=/dev/zero of="$MNT/slow" bs=8M count=1 conv=fsync status=none &
slow_pid=$!
wait "$slow_pid" || fail "dd to the card failed"
slow_ns=$(( $(date +%s%N) - t0 ))
log "the slow fsync: pid $slow_pid, dd ran $((slow_ns / 1000000)) ms"
[ "$slow_ns" -gt 300000000 ] || skip "the card was too fast here: the fsync took $((slow_ns / 1000000)) ms, not over 300 ms"
for ((i = 0; i < 300; i++)); do
	snap=$(find "$SNAPS" -name 'iorec-*-fsync.iorec' | head -n 1)
	[ -n "$snap" ] && break
	sleep 0.1
done
[ -n "$snap" ] || { cat "$T/bb.err" >&2; fail "no fsync snapshot 30 s after the slow fsync"; }
ls -la "$SNAPS" >&2
find "$SNAPS" -name '.*' | grep -q . && fail "a temporary file is left in $SNAPS"
kill -0 "$BB" || fail "the black box stopped after its snapshot"
cp "$snap" "$T/fsync.iorec"

info_to "$T/fsync.iorec" "$T/fsync.info"
assert_complete "$T/fsync.info"
assert_grep '^ *trigger: +fsync>300ms$' "$T/fsync.info" "ioreport info of the snapshot"
assert_eq "trigger pid" "$slow_pid" "$(info_value "$T/fsync.info" 'trigger pid')"
assert_grep "^snapshot: +triggered by fsync>300ms at [0-9.]+ .*: pid $slow_pid .*fsync\\(fd [0-9]+\\) took [0-9.]+ ms$" "$T/fsync.info" "ioreport info's first lines"
"$IOREPORT" fsync --json "$T/fsync.iorec" >"$T/fsync.json" 2>"$T/fsync.err" ||
	{ cat "$T/fsync.err" >&2; fail "ioreport fsync --json of the snapshot failed"; }
"$IOREPORT" info --json "$T/fsync.iorec" >"$T/info.json"
"$IOREPORT" dump "$T/fsync.iorec" >"$T/dump" 2>/dev/null
python3 - "$T/fsync.json" "$T/info.json" "$slow_pid" "$slow_ns" <<'EOF' || fail "the snapshot does not hold the slow fsync and the seconds around it"
import json, sys
fs = json.load(open(sys.argv[1]))
info = json.load(open(sys.argv[2]))
pid, own_ns = int(sys.argv[3]), int(sys.argv[4])
procs = [p for p in fs["processes"] if p["pid"] == pid]
assert procs, "no fsync of pid %d in the snapshot" % pid
mx = procs[0]["latency"]["max_ns"]
assert 300e6 < mx <= own_ns, "its fsync lasted %d ns (the trigger 300 ms, dd's whole run %d ns)" % (mx, own_ns)
h = info["header"]
ts, val = int(h["trigger_ts"]), int(h["trigger_value_ns"])
assert abs(val - mx) < 1000, "the trigger's %d ns are not the view's %d" % (val, mx)
first, last = info["first_ts_ns"], info["last_ts_ns"]
assert first <= ts - 2e9, "the window starts %.3f s before the fsync, want 2 s" % ((ts - first) / 1e9)
assert last >= ts + val + 1.5e9, "the window ends %.3f s after it, want --post 2 s" % ((last - ts - val) / 1e9)
print("fsync %.1f ms (dd's run %.1f), window %.1f s before, %.1f s after" %
      (mx / 1e6, own_ns / 1e6, (ts - first) / 1e9, (last - ts - val) / 1e9))
EOF
grep -q "filename=$T/bin2/before " "$T/dump" || fail "the snapshot lacks the marker run 2 s before the fsync"
# its first line, wrapped: joined again
"$IOREPORT" findings "$T/fsync.iorec" 2>/dev/null | awk 'NR >= 3 && /^$/ { done = 1 } NR >= 3 && !done' | tr -s '\n ' ' ' >"$T/findings"
echo >>"$T/findings"
assert_grep "^snapshot triggered by fsync>300ms at [0-9.]+ s .*: pid $slow_pid \\(bbslow\\) fsync\\(fd [0-9]+\\) of $MNT/slow took [0-9.]+ m?s; the window holds [0-9.]+ s before it and [0-9.]+ s after" "$T/findings" "ioreport findings"

# findings --json and the HTML page start from the trigger, with the
# views' numbers: the fsync slow --json lists (start, latency, path) and
# info's trigger keys
"$IOREPORT" findings --json "$T/fsync.iorec" >"$T/findings.json" 2>/dev/null ||
	fail "ioreport findings --json of the snapshot failed"
"$IOREPORT" slow --json --all-fds "$T/fsync.iorec" >"$T/slow.json" 2>/dev/null ||
	fail "ioreport slow --json of the snapshot failed"
"$IOREPORT" html -o "$T/page.html" "$T/fsync.iorec" 2>/dev/null ||
	fail "ioreport html of the snapshot failed"
python3 - "$T/findings.json" "$T/slow.json" "$T/info.json" "$T/page.html" "$slow_pid" "$MNT/slow" "$T/findings" <<'EOF2' || fail "findings' trigger is not the views' fsync"
import json, re, sys, html
fj = json.load(open(sys.argv[1])); sl = json.load(open(sys.argv[2]))
info = json.load(open(sys.argv[3])); page = open(sys.argv[4]).read()
pid, path, text = int(sys.argv[5]), sys.argv[6], open(sys.argv[7]).read()
t = fj["trigger"]; h = info["header"]
assert t and t["snapshot"] == "trigger" and t["condition"] == "fsync>300ms", t
assert t["found"], "the pass did not find the trigger's fsync"
assert t["pid"] == pid and t["syscall"] in ("fsync", "fdatasync"), t
assert t["start_ns"] == int(h["trigger_ts"]), (t["start_ns"], h["trigger_ts"])
assert t["recorded_value_ns"] == int(h["trigger_value_ns"])
assert t["fd"] == int(h["trigger_fd"]) and t["syscall"] == h["trigger_call"]
rows = [r for r in sl["slow_syscalls"] if r["tid"] == pid and r["start_ns"] == t["start_ns"]]
assert rows, "slow --json has no call of pid %d starting at %d" % (pid, t["start_ns"])
r = rows[0]
assert r["latency_ns"] == t["value_ns"] and r["end_ns"] == t["end_ns"], (r, t)
assert abs(t["value_ns"] - t["recorded_value_ns"]) < 1000, t
assert r["path"] == t["path"] == path, (r["path"], t["path"], path)
assert r["fd"] == t["fd"], (r["fd"], t["fd"])
# the time the text states is the views' seconds from the first event
secs = (t["start_ns"] - fj.get("first_ts_ns", info["first_ts_ns"])) / 1e9
m = re.search(r"at ([0-9.]+) s", text)
assert m and abs(float(m.group(1)) - secs) < 1e-6, (m and m.group(1), secs)
assert ("of %s took" % path) in text, text
assert t["before_ns"] == t["start_ns"] - info["first_ts_ns"]
assert t["after_ns"] == info["last_ts_ns"] - t["end_ns"]
m = re.search(r'<p class="trigger">(.*?)</p>', page, re.S)
assert m and html.unescape(m.group(1)) == t["sentence"], "the page does not start from the trigger"
assert page.index('class="trigger"') < page.index('<ol class="findings"') if '<ol class="findings"' in page else True
print("trigger: pid %d %s fd %d of %s, %.1f ms = slow's %.1f ms, at %.6f s" %
      (pid, t["syscall"], t["fd"], t["path"], t["value_ns"] / 1e6, r["latency_ns"] / 1e6, secs))
EOF2

# 3. Snapshots on request while recording goes on.
sleep 2.5	# past the cool-down
"$IOREC" --snapshot --pid-file "$T/pid" >"$T/req1" 2>&1 || { cat "$T/req1" >&2; fail "iorec --snapshot failed"; }
req1=$(cat "$T/req1")
[ -f "$req1" ] || fail "iorec --snapshot printed '$req1', not a file"
"$T/bin2/marker2" if=/dev/zero of="$T/m2" bs=4k count=1 status=none
sleep 1
"$IOREC" --snapshot --pid-file "$T/pid" >"$T/req2" 2>&1 || { cat "$T/req2" >&2; fail "the second iorec --snapshot failed"; }
req2=$(cat "$T/req2")
[ "$req1" != "$req2" ] || fail "the second snapshot is the first's file"
kill -0 "$BB" || fail "the black box stopped after the snapshots"
for f in "$req1" "$req2"; do
	info_to "$f" "$T/req.info"
	assert_complete "$T/req.info"
done
"$IOREPORT" dump "$req1" 2>/dev/null | grep -c "filename=$T/bin2/marker2 " >"$T/c1" || true
"$IOREPORT" dump "$req2" 2>/dev/null | grep -c "filename=$T/bin2/marker2 " >"$T/c2" || true
assert_eq "marker runs after the first snapshot, in the first" 0 "$(cat "$T/c1")"
assert_eq "marker runs after the first snapshot, in the second" 1 "$(cat "$T/c2")"

# 4. --keep 2: the fsync snapshot, the oldest of three, is gone.
left=$(find "$SNAPS" -name 'iorec-*.iorec' | sort | tr '\n' ' ')
assert_eq "snapshots kept (--keep 2)" "$req1 $req2 " "$left"

kill -INT "$BB"
wait_exit "$BB" 20
assert_eq "exit status of the black box" 0 "$RC"
[ -e "$T/pid" ] && fail "the pid file is left after the black box stopped"
finish
