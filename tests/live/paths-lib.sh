# tests/live/paths-lib.sh - helpers for the live tests of the ways a program
# writes a file (sourced, not run; it sources lib.sh).
# shellcheck shell=bash
#
# Every such test needs what lib.sh's need_root_tracefs checks, and
# python3, which compares the truth with ioreport's JSON: sourcing this
# file skips the test without them.
#
# A test records a workload with iorec on a fresh journaled ext4 loop file
# system; the workload writes a truth file of lines
#
#   file PATH BYTES   the file PATH was written BYTES bytes by syscalls
#   proc PID BYTES    process PID wrote BYTES bytes in all
#   read PATH BYTES   the file PATH was read BYTES bytes by syscalls
#   blk PATH BYTES    BYTES of PATH's data reached the device (after sync)
#   blk+ PATH BYTES   as blk, but the fsync rule may add up to 16 KiB of the
#                     file system's own blocks written in the file's fsync
#   pblk+ PID BYTES   BYTES (up to 64 KiB more) at the device charged to PID
#   proc+truth PID BYTES  process PID wrote BYTES and the truth file itself
#                     ($PATHS_TRUTH_WRITTEN when the truth given is a part)
#
# and paths_check compares them with 'ioreport files/processes --json'.

# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_root_tracefs
need_cmd python3

# The python3 workloads (scripts in $T) run as PY SCRIPT MNT TRUTH ARG...
# and import what they share from $T/pathswork.py, next to them.
PY=$(python3 -c "import sys; print(sys.executable)")
cat >"$T/pathswork.py" <<'PYEOF'
"""What the workloads of the paths tests share."""
import ctypes, os

def syncfs(d):
	"""The writeback of the file system at d alone (a sync would charge
	the process with every dirty page of the machine)."""
	fd = os.open(d, os.O_RDONLY)
	assert ctypes.CDLL(None, use_errno=True).syncfs(fd) == 0
	os.close(fd)
PYEOF

# paths_record OUT CMD...: record CMD with iorec into OUT, on this machine
# (syscalls:* events unless the caller adds flags in PATHS_IOREC_FLAGS),
# with 16 MiB ring buffers: the whole machine is recorded, and on a busy
# one (tests running beside) the default loses the workload's events.
# A recording that lost events anyway fails with that reason.
paths_record() {
	local out=$1 lost
	shift
	# shellcheck disable=SC2086
	run_iorec -q -b 16384 ${PATHS_IOREC_FLAGS:-} -o "$out" -- "$@" 2>"$T/iorec.err" ||
		{ cat "$T/iorec.err" >&2; fail "iorec -- $* failed"; }
	"$IOREPORT" info --json "$out" >"$T/info.json" 2>"$T/iorec.err" ||
		{ cat "$T/iorec.err" >&2; fail "ioreport info $out failed"; }
	lost=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(sum(c["overrun"] + c["dropped"] + c["lost_pages"] for c in d["kernel_lost"]) +
      sum(c["lost_events"] + c["lost_pages"] for c in d["cpu"]))' "$T/info.json")
	[ "$lost" = 0 ] || fail "the recording lost $lost events (the machine was too busy): its truths cannot be checked"
}

# paths_workload OUT SCRIPT ARG...: paths_record of the python3 SCRIPT
# writing on MNT the truth $T/truth.  -B: no byte code written, which
# would be bytes of the process that the truth does not count.
paths_workload() {
	local out=$1
	shift
	paths_record "$out" "$PY" -B "$1" "$MNT" "$T/truth" "${@:2}"
}

# paths_check REC TRUTH [TAG]: every truth line holds in REC's views.
paths_check() {
	local rec=$1 truth=$2 tag=${3:-rec}
	"$IOREPORT" files --json --top 1000000 "$rec" >"$T/$tag.files.json" 2>"$T/$tag.err" ||
		{ cat "$T/$tag.err" >&2; fail "ioreport files --json $rec failed"; }
	"$IOREPORT" processes --json --top 1000000 "$rec" >"$T/$tag.procs.json" 2>"$T/$tag.err" ||
		{ cat "$T/$tag.err" >&2; fail "ioreport processes --json $rec failed"; }
	python3 - "$T/$tag.files.json" "$T/$tag.procs.json" "$truth" "$tag" <<'PY' ||
import json, os, sys
F, P = (json.load(open(f)) for f in sys.argv[1:3])
tag = sys.argv[4]
bad = []
files = {}
for f in F["files"]:
	if f["path"]:
		files.setdefault(f["path"], []).append(f)
procs = {p["pid"]: p for p in P["processes"]}
for line in open(sys.argv[3]):
	what, key, n = line.split()
	n = int(n)
	if what == "proc+truth":
		n += os.path.getsize(os.environ.get("PATHS_TRUTH_WRITTEN", sys.argv[3]))
	slack = {"blk+": 16384, "pblk+": 65536}.get(what, 0)
	if what == "pblk+":
		p = procs.get(int(key))
		got = p["block"]["write_bytes"] if p else None
	elif what.startswith("proc"):
		p = procs.get(int(key))
		got = p["write_bytes"] if p else None
	else:
		rows = files.get(key, [])
		if what == "file":
			got = sum(r["write_bytes"] for r in rows) if rows else None
		elif what == "read":
			got = sum(r["read_bytes"] for r in rows) if rows else None
		else:
			got = sum(r["block"]["write_bytes"] for r in rows) if rows else None
	ok = got == n or (slack and got is not None and n <= got <= n + slack)
	print("%s: %-4s %-40s expected %10d got %s%s" % (tag, what, key, n, got,
	      "" if ok else "   <-- WRONG"), file=sys.stderr)
	if not ok:
		bad.append(line.strip())
if bad:
	print("%s: anomalies %r" % (tag, F["anomalies"]), file=sys.stderr)
	for f in [f for f in F["files"] if not f["path"] and f["write_bytes"]][:12]:
		print("%s: unnamed: %s dev %s ino %s, %d bytes written%s" % (tag, f["name"], f["dev"],
		      f["ino"], f["write_bytes"], ", unlinked" if f.get("unlinked") else ""), file=sys.stderr)
	sys.exit(1)
PY
	fail "$tag: the bytes on files or processes differ from the truth"
}

# paths_check_requests TAG KIND SIZE JOBS BS ANOMALY...: after paths_check
# TAG, the processes of a fio run of JOBS jobs: exactly JOBS fio processes
# with SIZE bytes of KIND requests (uring_write, aio_write) each, SIZE/BS
# of them timed, and each ANOMALY counter 0.
paths_check_requests() {
	local tag=$1 kind=$2 size=$3 jobs=$4 bs=$5
	shift 5
	python3 - "$T/$tag.procs.json" "$T/$tag.files.json" "$tag" "$kind" "$size" "$jobs" "$bs" "$@" <<'PY' ||
import json, sys
P, F = (json.load(open(f)) for f in sys.argv[1:3])
tag, kind = sys.argv[3], sys.argv[4]
size, jobs, bs = (int(x) for x in sys.argv[5:8])
ps = [p for p in P["processes"] if kind in p["syscalls"]]
got = sorted((p["syscalls"][kind]["bytes"], p["comm"]) for p in ps)
print("%s: %s per process %r" % (tag, kind, got), file=sys.stderr)
if len(got) != jobs or any(g != (size, "fio") for g in got):
	sys.exit("expected %d fio processes with %d bytes of %s each" % (jobs, size, kind))
for p in ps:
	lat = p["syscalls"][kind]["latency"]
	if lat["count"] != size // bs or lat["max_ns"] <= 0:
		sys.exit("%s latency of pid %d: %r" % (kind, p["pid"], lat))
a = F["anomalies"]
for k in sys.argv[8:]:
	if a.get(k, -1) != 0:
		sys.exit("anomaly %s is %r, expected 0" % (k, a.get(k)))
PY
	fail "$tag: the $kind requests are not on their processes"
}
