#!/usr/bin/env bash
# attrib-stacked.sh - stacked devices (docs/attribution.md, "Stacked
# devices"): two loop devices ("cards") whose backing files live on the
# ext4 of a third loop device (the lower one), one with direct I/O on its
# backing file, one buffered.  Known writers write and read known bytes
# on known files of each card:
#
#   stkD  writes W_MB MiB to cardD/w and fsyncs it, then reads R_MB MiB
#         of cardD/r (dropped from the caches first)      (direct I/O)
#   stkB  the same on cardB                                (buffered)
#
# What must hold:
#   - every byte the lower device did for a card is labelled "stacked",
#     for that card: at least the writers' W_MB + R_MB each went down
#     (their fsync flushes the card, the loop worker syncs its backing
#     file; the reads miss every cache);
#     none of the lower device's bytes is unattributed or given to a
#     kernel thread (the loop worker, the flusher)
#   - each byte is counted once: the writers' own block bytes are their
#     W_MB (+2% +64 KiB), as on the card, not twice; per-process bytes add
#     up to the attributed bytes and the rules add up to all bytes
#   - no kernel thread carries journal bytes "its fsync waited for"
#   - in snoop, the lower device's requests for a card carry the card
#     writer's name
#
# Needs root and tracefs (skips otherwise, exit 77).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/accuracy/acc-lib.sh"
need_root_tracefs
need_cmd python3 losetup
need_event sched:sched_process_exec syscalls:sys_enter_write \
	block:block_bio_queue writeback:writeback_dirty_folio \
	ext4:ext4_writepages ext4:ext4_sync_file_enter jbd2:jbd2_start_commit
PY=$(python3 -c "import sys; print(sys.executable)")

W_MB=4
R_MB=3
make_loop_ext4 160
LOWER_MNT=$MNT LOWER_DEVT=$LOOP_DEVT
truncate -s 48M "$LOWER_MNT/cardD.img" "$LOWER_MNT/cardB.img"
_loop_ext4 "$LOWER_MNT/cardD.img" "$LOWER_MNT.cardD" "" "" --direct-io=on
CARD_D=$MNT DEVT_D=$LOOP_DEVT
_loop_ext4 "$LOWER_MNT/cardB.img" "$LOWER_MNT.cardB" "" "" --direct-io=off
CARD_B=$MNT DEVT_B=$LOOP_DEVT
log "lower $LOWER_DEVT, cardD $DEVT_D (direct I/O), cardB $DEVT_B (buffered)"

cat >"$T/work.py" <<'EOF'
import ctypes, os, sys
name, card, w_mb, r_mb = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
ctypes.CDLL(None).prctl(15, name.encode(), 0, 0, 0)
MB = 1 << 20
fd = os.open(card + "/w", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
for i in range(w_mb):
	os.write(fd, bytes([65 + i % 26]) * MB)
os.fsync(fd)
os.close(fd)
fd = os.open(card + "/r", os.O_RDONLY)
n = 0
while True:
	b = os.read(fd, MB)
	if not b:
		break
	n += len(b)
os.close(fd)
assert n == r_mb * MB
EOF
for c in "$CARD_D" "$CARD_B"; do
	"$PY" -S -B -c "open('$c/r', 'wb').write(b'r' * ($R_MB << 20))"
done
sync
echo 3 >/proc/sys/vm/drop_caches

cat >"$T/run.sh" <<EOF
set -e
"$PY" -S -B "$T/work.py" stkD "$CARD_D" $W_MB $R_MB
"$PY" -S -B "$T/work.py" stkB "$CARD_B" $W_MB $R_MB
sync
EOF

rc=0
"$IOREC" -q -o "$T/x.iorec" -- bash "$T/run.sh" 2>"$T/rec.err" || rc=$?
[ "$rc" = 0 ] || { cat "$T/rec.err" >&2; fail "iorec -- workload exited $rc"; }
[ -z "${KEEP:-}" ] || cp "$T/x.iorec" "$KEEP"
ioreport_to "$T/p.json" processes --json "$T/x.iorec"
ioreport_to "$T/p.txt" processes "$T/x.iorec"
ioreport_to "$T/lower.json" processes --json -d "$LOWER_DEVT" "$T/x.iorec"
ioreport_to "$T/snoop.json" snoop --json -d "$LOWER_DEVT" "$T/x.iorec"
assert_grep "stacked: $LOWER_DEVT did [0-9]+ bytes for $DEVT_D above it" "$T/p.txt" processes
assert_grep "stacked: $LOWER_DEVT did [0-9]+ bytes for $DEVT_B above it" "$T/p.txt" processes

python3 - "$T/p.json" "$T/lower.json" "$T/snoop.json" "$LOWER_DEVT" "$DEVT_D" "$DEVT_B" $W_MB $R_MB <<'EOF' || fail "stacked attribution"
import json, sys
P, L, S = (json.load(open(f)) for f in sys.argv[1:4])
lower, devd, devb = sys.argv[4:7]
W, R = (int(x) << 20 for x in sys.argv[7:9])
bad = []
def check(what, got, lo, hi):
	ok = lo <= got <= hi
	print("%-52s %10d  [%d, %d] %s" % (what, got, lo, hi, "ok" if ok else "FAIL"),
	      file=sys.stderr)
	if not ok:
		bad.append(what)
tol = W // 50 + (64 << 10)
at, la = P["attribution"], L["attribution"]
st = {(x["dev"], x["upper"]): x["bytes"] for x in at["stacked"]}
for name, dev in (("stkD", devd), ("stkB", devb)):
	ps = [p for p in P["processes"] if p["comm"] == name]
	if len(ps) != 1:
		print("FAIL: %d processes %s" % (len(ps), name), file=sys.stderr)
		sys.exit(1)
	check(name + ": its block bytes written (once)", ps[0]["block"]["write_bytes"], W, W + tol)
	check(name + ": lower bytes done for its card", st.get((lower, dev), 0), W + R, 1 << 40)
kt = [p for p in P["processes"] if p["comm"].startswith(("kworker", "loop", "jbd2"))]
check("kernel threads' block bytes", sum(p["block"]["read_bytes"] + p["block"]["write_bytes"] for p in kt), 0, 0)
check("kernel threads' journal bytes of fsyncs", sum(p["block"]["journal_bytes"] for p in kt), 0, 0)
check("lower device: unattributed bytes", la["by_rule"]["unattributed"], 0, la["bytes"] // 100)
check("lower device: stacked + journal + metadata = all (x100)",
      100 * (la["by_rule"]["stacked"] + la["by_rule"]["journal"] + la["by_rule"]["metadata"]),
      99 * la["bytes"], 100 * la["bytes"])
check("rules add up to all bytes", sum(at["by_rule"].values()), at["bytes"], at["bytes"])
check("processes add up to the process bytes",
      sum(p["block"]["read_bytes"] + p["block"]["write_bytes"] for p in P["processes"]),
      at["process_bytes"], at["process_bytes"])
rows = S.get("requests") or S.get("rows") or []
mine = [r for r in rows if (r.get("owner") or {}).get("kind") == "stacked" and
	(r.get("owner") or {}).get("comm") in ("stkD", "stkB")]
check("snoop: lower requests carrying a card writer's name", len(mine), 1, 1 << 30)
sys.exit(1 if bad else 0)
EOF

finish
