#!/usr/bin/env bash
# test-procfiles-live.sh - record a python workload that writes exactly N
# bytes to a known file and fsyncs it K times, and check that
# 'ioreport processes' and 'ioreport files' show exactly those bytes and
# fsyncs for that process and file: with syscalls:* events, with the
# raw_syscalls fallback (same numbers), and for a file opened before the
# recording began (named from the start snapshot).
#
# Needs root and tracefs (skips otherwise, exit 77).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/accuracy/acc-lib.sh"
need_root_tracefs
need_cmd python3
need_event sched:sched_process_exec syscalls:sys_enter_write raw_syscalls:sys_enter


# The interpreter itself, not a wrapper script (pyenv shims write too).
PY=$(python3 -c "import sys; print(sys.executable)")
# A unique comm (task_rename) tells our workload from any other python.
NAME=pfl$$
N_CHUNK=4096
N_COUNT=10
K_FSYNC=5
N=$((N_CHUNK * N_COUNT))

cat >"$T/work.py" <<'EOF'
import ctypes, os, sys, time
name, path, chunk, count, every = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
ctypes.CDLL(None).prctl(15, name.encode(), 0, 0, 0)	# PR_SET_NAME
go = sys.argv[6] if len(sys.argv) > 6 else None
if go:						# opened before the recording
	fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
	open(go + ".ready", "w").close()
	while not os.path.exists(go):
		time.sleep(0.02)
else:
	fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
buf = b"x" * chunk
for i in range(count):
	os.write(fd, buf)
	if i % every == 0:
		os.fsync(fd)
os.close(fd)
if go:
	open(go + ".done", "w").close()
EOF

# check JSON_PROCS JSON_FILES PATH: our process and file hold exactly N
# bytes written and K fsyncs.  Prints "pid write_bytes fsyncs writes".
check() {
	python3 - "$1" "$2" "$3" "$NAME" "$N" "$K_FSYNC" "$N_COUNT" <<'EOF'
import json, sys
procs, files, path, name, n, k, writes = sys.argv[1:8]
n, k, writes = int(n), int(k), int(writes)
P = json.load(open(procs))
F = json.load(open(files))
def fail(msg):
	print("FAIL: " + msg, file=sys.stderr)
	sys.exit(1)
ours = [p for p in P["processes"] if name in p["comms"]]
if len(ours) != 1:
	fail("expected one process with comm %s, found %d" % (name, len(ours)))
p = ours[0]
if p["comm"] != name:
	fail("comm after rename is %r, not %r" % (p["comm"], name))
if p["write_bytes"] != n:
	fail("process write_bytes %d, expected %d" % (p["write_bytes"], n))
if p["fsyncs"] != k or p["syscalls"].get("fsync", {}).get("count") != k:
	fail("process fsyncs %d, expected %d" % (p["fsyncs"], k))
w = p["syscalls"]["write"]
if w["count"] != writes or w["bytes"] != n or w["errors"] != 0:
	fail("write syscalls %r" % w)
if w["latency"]["count"] != writes or w["latency"]["max_ns"] <= 0:
	fail("write latency %r" % w["latency"])
f = [x for x in F["files"] if x["path"] == path]
if not f:
	# Without uprobes a file opened during the recording has no name.
	f = [x for x in F["files"] if x["name"].endswith("of pid %d>" % p["pid"])
	     and x["write_bytes"] == n]
	if not f:
		fail("no file row for %s" % path)
	print("note: %s unnamed (no uprobe path)" % path, file=sys.stderr)
f = f[0]
if f["write_bytes"] != n or f["writes"] != writes:
	fail("file write_bytes %d writes %d, expected %d %d" % (f["write_bytes"], f["writes"], n, writes))
if f["fsync"]["count"] != k:
	fail("file fsyncs %d, expected %d" % (f["fsync"]["count"], k))
if f["fsync"]["max_ns"] <= 0 or f["fsync"]["sum_ns"] < f["fsync"]["max_ns"]:
	fail("file fsync times %r" % f["fsync"])
for key in ("exit_without_enter", "negative_time", "decode_errors"):
	if key not in P["anomalies"]:
		fail("anomaly %s missing" % key)
print(p["pid"], p["write_bytes"], p["fsyncs"], w["count"])
EOF
}

# report FILE TAG: processes/files as JSON and text; the text views must
# name our process and carry the anomalies line.
report() {
	ioreport_to "$T/$2.procs.json" processes --json "$1"
	ioreport_to "$T/$2.files.json" files --json "$1"
	ioreport_to "$T/$2.procs.txt" processes "$1"
	ioreport_to "$T/$2.files.txt" files --top 5 "$1"
	assert_grep "^ *[0-9]+  $NAME " "$T/$2.procs.txt" "$2 processes"
	assert_grep '^anomalies: ' "$T/$2.procs.txt" "$2 processes"
	assert_grep '^anomalies: ' "$T/$2.files.txt" "$2 files"
	assert_grep 'LAT|P50\(us\)' "$T/$2.procs.txt" "$2 processes"
	# the report prints the same lists from its one pass, from standard
	# input too, and every paired syscall competes for the slowest list
	"$IOREPORT" report --all-fds --json --top 1000000 - <"$1" >"$T/$2.report.json" \
		2>"$T/$2.err" ||
		{ cat "$T/$2.err" >&2; fail "$2: ioreport report --json - failed"; }
	python3 - "$T/$2.report.json" "$T/$2.procs.json" "$T/$2.files.json" <<'EOF' ||
import json, sys
R, P, F = (json.load(open(f)) for f in sys.argv[1:4])
bad = []
if R["processes"] != P["processes"]: bad.append("processes differ")
if R["files"] != F["files"]: bad.append("files differ")
if R["attribution"] != P["attribution"]: bad.append("attribution differs")
calls = R["slow_syscalls"]
lat = [c["latency_ns"] for c in calls]
if lat != sorted(lat, reverse=True): bad.append("slow_syscalls not slowest first")
paired = sum(k["latency"]["count"] for p in P["processes"] for k in p["syscalls"].values())
if len(calls) != paired: bad.append("slow_syscalls %d, paired calls %d" % (len(calls), paired))
top = max([k["latency"]["max_ns"] for p in P["processes"] for k in p["syscalls"].values()] or [0])
if lat and lat[0] != top: bad.append("slowest %d, max latency %d" % (lat[0], top))
keys = {"syscall", "start_ns", "end_ns", "latency_ns", "pid", "tid", "comm", "fd", "path", "bytes", "ret"}
if any(set(c) != keys for c in calls): bad.append("slow syscall keys")
print("; ".join(bad), file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
		fail "$2: report --json differs from the processes/files views"
}

# 1. syscalls:* events, the file opened during the recording.
rc=0
"$IOREC" -q -o "$T/a.iorec" -- "$PY" -S -B "$T/work.py" "$NAME" "$T/a.dat" \
	$N_CHUNK $N_COUNT 2 2>"$T/rec.err" || rc=$?
[ "$rc" = 0 ] || { cat "$T/rec.err" >&2; fail "iorec -- python3 exited $rc"; }
report "$T/a.iorec" a
A=$(check "$T/a.procs.json" "$T/a.files.json" "$T/a.dat") || fail "syscalls:* recording"
log "syscalls:*: pid/bytes/fsyncs/writes $A"

# 2. The raw_syscalls fallback gives the same numbers.
rc=0
"$IOREC" -q --raw-syscalls -o "$T/b.iorec" -- "$PY" -S -B "$T/work.py" "$NAME" \
	"$T/b.dat" $N_CHUNK $N_COUNT 2 2>"$T/rec.err" || rc=$?
[ "$rc" = 0 ] || { cat "$T/rec.err" >&2; fail "iorec --raw-syscalls -- python3 exited $rc"; }
report "$T/b.iorec" b
grep -q 'raw_syscalls' "$T/b.procs.txt" || fail "processes view does not say raw_syscalls"
B=$(check "$T/b.procs.json" "$T/b.files.json" "$T/b.dat") || fail "raw_syscalls recording"
log "raw_syscalls: pid/bytes/fsyncs/writes $B"
assert_eq "raw vs syscalls:* (bytes fsyncs writes)" "${A#* }" "${B#* }"

# 3. A file opened before the recording: named from the start snapshot.
"$PY" -S -B "$T/work.py" "$NAME" "$T/c.dat" $N_CHUNK $N_COUNT 2 "$T/go" &
track_pid $!
for ((i = 0; i < 200; i++)); do [ -e "$T/go.ready" ] && break; sleep 0.05; done
[ -e "$T/go.ready" ] || fail "workload did not start"
rc=0
"$IOREC" -q -o "$T/c.iorec" -- sh -c "touch '$T/go'; i=0; while [ ! -e '$T/go.done' ] && [ \$i -lt 200 ]; do sleep 0.05; i=\$((i+1)); done" \
	2>"$T/rec.err" || rc=$?
[ "$rc" = 0 ] || { cat "$T/rec.err" >&2; fail "iorec -- sh exited $rc"; }
wait
report "$T/c.iorec" c
C=$(check "$T/c.procs.json" "$T/c.files.json" "$T/c.dat") || fail "file opened before the recording"
python3 - "$T/c.files.json" "$T/c.dat" <<'EOF' || fail "pre-opened file has no dev:ino"
import json, sys
f = [x for x in json.load(open(sys.argv[1]))["files"] if x["path"] == sys.argv[2]]
sys.exit(0 if f and f[0]["ino"] and f[0]["opens"] == 0 else 1)
EOF
log "opened before: pid/bytes/fsyncs/writes $C"

finish
