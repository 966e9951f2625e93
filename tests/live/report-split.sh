#!/usr/bin/env bash
# report-split.sh - split requests keep their owner: on a loop ext4 whose
# queue takes at most 16 KiB per request (max_sectors_kb), a writer's
# 256 KiB O_DIRECT writes and buffered writes + fsync are split by the
# block layer (block:block_split), the remainder of each split reaching
# the device as a request no block_bio_queue event announced.  The
# attribution must give the writer its bytes: at least every byte it
# wrote, seen at the device as its own, and at most 0.5% of the loop
# device's bytes unattributed.
. "$(dirname "$0")/lib.sh"
need_root_tracefs
need_event block:block_split block:block_bio_queue block:block_rq_issue \
	block:block_rq_complete
need_cmd python3

make_loop_ext4 96
q=/sys/block/$LOOPNAME/queue/max_sectors_kb
[ -w "$q" ] || skip "$q is not writable"
# the limit outlives the loop device's detach: the next user of this loop
# device would get 16 KiB requests, so it is put back first
q0=$(cat "$q")
on_exit "echo $q0 >$q"
echo 16 >"$q" || skip "cannot set $q to 16"
unique_dd

rc=0
run_iorec -q -o "$T/rec.iorec" -- sh -c "
	'$DD' if=/dev/zero of='$MNT/direct' bs=256k count=16 oflag=direct 2>/dev/null &&
	'$DD' if=/dev/zero of='$MNT/buffered' bs=64k count=16 conv=fsync 2>/dev/null" \
	2>"$T/rec.err" || rc=$?
[ "$rc" = 0 ] || { cat "$T/rec.err" >&2; fail "iorec -- dd exited $rc"; }

splits=$("$IOREPORT" dump --events block:block_split "$T/rec.iorec" | grep -c block_split || true)
log "block_split events: $splits"
[ "$splits" -gt 0 ] || fail "no block_split event with max_sectors_kb=16 (the test needs splits)"

"$IOREPORT" processes --json "$T/rec.iorec" >"$T/procs.json" ||
	fail "ioreport processes failed"
"$IOREPORT" files --json "$T/rec.iorec" >"$T/files.json" ||
	fail "ioreport files failed"
"$IOREPORT" snoop --wide "$T/rec.iorec" >"$T/snoop" || fail "ioreport snoop failed"
python3 - "$T" "$LOOPNAME" "$DD" <<'PY' || fail "split requests lost their owner (see above)"
import json, os, sys
t, dev, dd = sys.argv[1:4]
procs = json.load(open(os.path.join(t, 'procs.json')))['processes']
files = json.load(open(os.path.join(t, 'files.json')))
# the device's bytes and its unattributed bytes, from snoop's lines
tot = un = 0
for line in open(os.path.join(t, 'snoop')):
    f = line.split()
    if len(f) < 11 or f[5] != dev or f[4] in ('F', 'FN') or not f[7].isdigit():
        continue
    tot += int(f[7])
    if f[-1] == '-':
        un += int(f[7])
want = 16 * 256 * 1024 + 16 * 64 * 1024
got = sum(p.get('block', {}).get('write_bytes', 0) for p in procs
          if os.path.basename(dd) in p.get('comms', p.get('comm', '')))
share = 100.0 * un / tot if tot else 100.0
print(f'report-split: {dev}: {tot} bytes written, {un} unattributed ({share:.2f}%); dd given {got} of the {want} it wrote')
ok = tot >= want and got >= want and share <= 0.5
sys.exit(0 if ok else 1)
PY
finish
