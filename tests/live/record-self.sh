#!/usr/bin/env bash
# record-self.sh - the recorder's own system calls are never the machine's
# workload.  The kernel filter leaves out only the thread that sets it;
# iorec's reader threads (-T 2) and its snapshot thread make system calls
# the recording holds.  ioreport leaves out every call of the process the
# start snapshot names as the recorder: no view shows iorec as a process
# with calls, and dd's own calls and bytes stay exact.
. "$(dirname "$0")/lib.sh"
need_root_tracefs

n=500
run_iorec -q -T 2 -o "$T/r.iorec" -- \
	dd if=/dev/zero of="$T/w" bs=4k count=$n status=none 2>"$T/rec.err" ||
	{ cat "$T/rec.err" >&2; fail "iorec -T 2 -- dd failed"; }
self=$("$IOREPORT" info "$T/r.iorec" | sed -n 's/^  recorder pid: *//p')
[ -n "$self" ] || fail "ioreport info names no recorder pid"

# The recording holds syscall events of iorec's threads other than the
# one the kernel filter names (else this test proves nothing): the threads
# of the snapshots' thread lines of its pid, and those its task_newtask
# events with CLONE_THREAD (0x10000) created.
chunks=${top_builddir:-$(dirname "$0")/../..}/tests/arm/iorec-chunks
[ -x "$chunks" ] || fail "$chunks not built (make check builds it)"
"$chunks" "$T/r.iorec" snapshot >"$T/snap.txt" || fail "iorec-chunks cannot read the snapshots"
"$IOREPORT" dump -e task:task_newtask,syscalls "$T/r.iorec" >"$T/all.dump" 2>"$T/dump.err" ||
	{ cat "$T/dump.err" >&2; fail "ioreport dump failed"; }
others=$(python3 - "$T/all.dump" "$self" "$T/snap.txt" <<'PY'
import sys
mine, n = {sys.argv[2]}, 0
for line in open(sys.argv[3]):
    f = line.split("\t")
    if f[0] == "thread" and len(f) > 2 and f[2] == sys.argv[2]:
        mine.add(f[1])
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) < 5:
        continue
    tid = f[0].rsplit("-", 1)[-1]
    if f[3] == "task_newtask:" and tid in mine:
        flags = int(line.split("clone_flags=")[1].split()[0], 16)
        if flags & 0x10000:		# CLONE_THREAD
            mine.add(f[4].split("=")[1])
    elif f[3].startswith("sys_") and tid in mine and tid != sys.argv[2]:
        n += 1
print(n)
PY
)
log "recorder pid $self: $others syscall events of its other threads in the recording"
[ "$others" -gt 0 ] || fail "no syscall event of iorec's reader or snapshot threads in the recording: nothing to leave out"

# No view counts them: the processes view has no calls for the recorder.
"$IOREPORT" processes --csv --top 100000 "$T/r.iorec" >"$T/procs.csv" ||
	fail "ioreport processes failed"
read -r selfcalls ddcalls ddw < <(python3 - "$T/procs.csv" "$self" <<'PY'
import csv, sys
s = d = w = 0
for r in csv.DictReader(open(sys.argv[1])):
    if r["pid"] == sys.argv[2]:
        s += int(r["calls"])
    if r["comm"] == "dd" and r["ppid"] == sys.argv[2]:
        d += int(r["calls"])
        w += int(r["write_bytes"])
print(s, d, w)
PY
)
[ -n "$ddw" ] || fail "cannot read the processes view's CSV"
log "processes view: recorder $selfcalls calls; dd $ddcalls calls, $ddw bytes written"
[ "$selfcalls" = 0 ] || fail "the processes view counts $selfcalls calls of the recorder (pid $self)"
[ "$ddw" = $((n * 4096)) ] || fail "dd wrote $((n * 4096)) bytes, the processes view says $ddw"

# The report's processes table agrees
"$IOREPORT" report --top 100000 "$T/r.iorec" >"$T/report.txt" || fail "ioreport report failed"
awk -v self="$self" '$1 == self && $2 == "iorec" && $3 > 0 { bad = 1 } END { exit bad }' "$T/report.txt" ||
	fail "the report lists the recorder (pid $self) with calls: $(grep -E "^ *$self " "$T/report.txt")"
finish
