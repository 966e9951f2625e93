#!/usr/bin/env bash
# record-rotate-set.sh - ioreport reads a rotated set (iorec -S SIZE --keep N:
# OUT-0001.iorec, OUT-0002.iorec, ...) as one recording when named by
# OUT.iorec.  A writer of known truth (a python3 process writing 120 times
# 64 KiB to a file, 25 ms apart, across several files of the rotation):
# the set's processes view holds exactly its 120 writes and 7.5 MiB, the
# same as the sum of the files read one by one, and its events are the
# files' events summed.  With a file of the middle taken away, every view
# warns of the missing file and its time, info says it, and the set's
# writes are the remaining files' sum.
. "$(dirname "$0")/lib.sh"
need_root_tracefs
need_event syscalls:sys_enter_write syscalls:sys_exit_write
"$IOREC" -h 2>&1 | grep -- '--keep' >/dev/null || skip "iorec has no --keep"

N=120 BS=65536
cat >"$T/writer.py" <<'PY'
import os, sys, time
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
buf = b'x' * int(sys.argv[3])
for _ in range(int(sys.argv[2])):
    assert os.write(fd, buf) == len(buf)
    time.sleep(0.025)
os.close(fd)
PY

# syscall traffic that fills the files of 512 KiB in well under a second
start_workload dd if=/dev/zero of=/dev/null bs=64 count=100000 status=none
# 16 MiB ring buffers: the whole machine is recorded, and on a busy one
# (tests running beside) the default can lose the writer's events
env --default-signal=INT "$IOREC" -q -S 512k --keep 1000 -o "$T/set.iorec" \
	2>"$T/rec.err" &
rec=$!
track_pid "$rec"
wait_instance "$rec" 20 || { cat "$T/rec.err" >&2; fail "iorec did not start"; }
sleep 0.5
# the interpreter itself (a wrapper script such as pyenv's writes too)
"$(python3 -c 'import sys; print(sys.executable)')" "$T/writer.py" "$T/out" "$N" "$BS" &
WPID=$!
wait "$WPID" || fail "the writer failed"
sleep 0.5
kill -INT "$rec"
wait_exit "$rec" 20
[ "$RC" = 0 ] || { cat "$T/rec.err" >&2; fail "iorec -S 512k --keep 1000 exited $RC"; }
stop_workload
[ "$(stat -c %s "$T/out")" = $((N * BS)) ] || fail "the writer did not write $((N * BS)) bytes"
mapfile -t files < <(find "$T" -maxdepth 1 -name 'set-*.iorec' | sort)
n=${#files[@]}
log "$n files"
[ "$n" -ge 3 ] || skip "workload too light here: only $n files"

writes() {	# FILE: "calls bytes unpaired" of the writer's write(2)s
	"$IOREPORT" processes --json "$1" 2>>"$T/warn" | python3 -c '
import json, sys
calls = byts = unp = 0
for p in json.load(sys.stdin)["processes"]:
    w = p.get("syscalls", {}).get("write")
    if p["pid"] == int(sys.argv[1]) and w:
        calls, byts, unp = w["count"], w["bytes"], w["unpaired"]
print(calls, byts, unp)' "$WPID"
}
events() {	# FILE: events of info --json
	"$IOREPORT" info --json "$1" 2>/dev/null | python3 -c '
import json, sys; print(json.load(sys.stdin)["events"])'
}

read -r calls bytes _ < <(writes "$T/set.iorec")
set_calls=$calls
log "the set: $calls writes of $bytes bytes"
lost=$("$IOREPORT" info --json "$T/set.iorec" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(sum(c["overrun"] + c["dropped"] + c["lost_pages"] for c in d["kernel_lost"]) +
      sum(c["lost_events"] + c["lost_pages"] for c in d["cpu"]))')
# a busy machine (the suite's other tests) makes the rotating recorder
# lose events, the writer's among them: its count is then at most the
# truth, and the set must still equal its files summed (below)
if [ "$lost" = 0 ]; then
	assert_eq "the writer's writes in the set" "$N $((N * BS))" "$calls $bytes"
else
	log "the set lost $lost events (the machine was busy): the writer's $calls writes checked against at most $N"
	[ "$calls" -le "$N" ] && [ "$bytes" = $((calls * BS)) ] ||
		fail "the writer's writes in the set: $calls of $bytes bytes, more than its $N or not of $BS bytes each"
fi
sum_c=0 sum_b=0 sum_u=0 sum_e=0 mid=0 midc=0
for ((i = 0; i < n; i++)); do
	f=${files[i]}
	read -r c b u < <(writes "$f")
	# the file of the middle with most of the writer's calls
	if ((i > 0 && i < n - 1 && c > midc)); then mid=$i midc=$c; fi
	sum_c=$((sum_c + c)) sum_b=$((sum_b + b)) sum_u=$((sum_u + u))
	sum_e=$((sum_e + $(events "$f")))
done
log "the files one by one: $sum_c writes of $sum_b bytes ($sum_u unpaired)"
# a call whose entry and exit fall in two files pairs only in the set
if [ "$sum_u" = 0 ]; then
	assert_eq "writes: the set against the files one by one" "$calls $bytes" "$sum_c $sum_b"
else
	[ $((sum_c + sum_u)) -ge "$calls" ] ||
		fail "the files one by one: $sum_c writes + $sum_u unpaired < the set's $calls"
fi
assert_eq "events: the set against the files one by one" "$sum_e" "$(events "$T/set.iorec")"
"$IOREPORT" info --json "$T/set.iorec" >"$T/info.json" 2>"$T/info.err"
assert_eq "info's rotation files" "$n" "$(python3 -c '
import json, sys; print(len(json.load(open(sys.argv[1]))["rotation"]))' "$T/info.json")"
info_to "$T/set.iorec" "$T/info"
assert_complete "$T/info"
assert_grep "^rotation: *$n files of iorec -S --keep 1000" "$T/info"
grep -qE '^  missing: ' "$T/info" && { cat "$T/info" >&2; fail "info of the whole set says something is missing"; }

# the inode names of the rotated files: each names the inodes of the
# one before (the recorder names each inode once, not the whole table at
# every rotation: that stalled its reading for 0.4 s a rotation, and a
# busy machine lost millions of events), with the same line unless the
# number went to a new file since (a reused line, another path: the
# compilers of the suite beside it do that), or it is among those the
# file says it did not name (its inodes line: past its 0.1 s); the
# writer's file, which a rotated file's events showed, is named in one
python3 - "$top_srcdir/tests" "$T/out" "${files[@]}" <<'PY' ||
import subprocess, sys
sys.path.insert(0, sys.argv[1])
import iorecfile
out, files = sys.argv[2], sys.argv[3:]
def inode_lines(path):
    buf = open(path, "rb").read()
    text, end = "", ""
    for off, typ, flags, seq, stored, raw in iorecfile.chunks(buf):
        if typ not in (iorecfile.SNAPSHOT, iorecfile.END):
            continue
        p = iorecfile.payload(buf, off)
        if flags & iorecfile.COMPRESSED:
            p = subprocess.run(["zstd", "-dc"], input=p, stdout=subprocess.PIPE, check=True).stdout
        if typ == iorecfile.END:
            end = p.decode(errors="replace")
        else:
            text += p.decode(errors="replace")
    lines = [l for l in text.splitlines() if l.startswith(("inode\t", "reused\t"))]
    counts = [l.split("\t") for l in text.splitlines() if l.startswith("inodes\t")]
    not_named = int(counts[-1][4]) if counts else 0
    return "reason=rotated" in end, lines, not_named
def key(l):
    return tuple(l.split("\t")[1:3])      # MAJ:MIN, INO
prev, named_out, bad, changed = None, 0, 0, 0
for f in files:
    rotated, lines, not_named = inode_lines(f)
    named_out += any(l.split("\t")[4] == out for l in lines)
    if not rotated:
        break                  # the last file: named afresh
    if prev is not None:
        now = {key(l): l for l in lines}
        missing = [l for l in prev if key(l) not in now]
        changed += sum(1 for l in prev if key(l) in now and now[key(l)] != l)
        if len(missing) > not_named:
            bad += 1
            print("record-rotate-set: %s lacks %d inodes of the file before, and says it did not name %d: e.g. %r"
                  % (f, len(missing), not_named, missing[:2]), file=sys.stderr)
    prev = lines
print("record-rotate-set: %d inode lines in the last rotated file (%d changed on the way); %s named in %d files"
      % (len(prev or []), changed, out, named_out), file=sys.stderr)
sys.exit(1 if bad or not named_out else 0)
PY
	fail "the rotated files' inode names (above)"

# a file of the middle missing: the one with most of the writer's calls
[ "$mid" -gt 0 ] || fail "no file of the middle holds one of the writer's calls"
mkdir "$T/part"
cp "${files[@]}" "$T/part/"
gone=${files[mid]##*/}
prev=${files[mid - 1]##*/} next=${files[mid + 1]##*/}
rm "$T/part/$gone"
idx=${gone#set-}
idx=${idx%.iorec}
"$IOREPORT" processes --json "$T/part/set.iorec" >/dev/null 2>"$T/part.err"
assert_grep "file $idx of the rotation is missing between $T/part/$prev and $T/part/$next: [0-9.]+ s of the recording are not read" "$T/part.err"
info_to "$T/part/set.iorec" "$T/part.info"
assert_grep "^  missing: +1 file before $T/part/$next: at least " "$T/part.info"
read -r calls _ < <(writes "$T/part/set.iorec")
log "without $gone ($midc of the writer's calls): the set has $calls"
assert_eq "the writer's calls without $gone" $((set_calls - midc)) "$calls"
finish
