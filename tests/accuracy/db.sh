#!/usr/bin/env bash
# test-db-live.sh - record a known workload and check with SQL that
# `ioreport db` stored the truth: a python writer with its own comm writes
# exactly N bytes in K writes with F fsyncs to a file on a fresh loop ext4;
# the database's processes, files, syscalls and requests say so, and
# agree with `ioreport processes --json` and `files --json`.  A second
# recording (other sizes) goes into the same database and one query
# compares the two.
#
# Needs root and tracefs (skips otherwise, exit 77).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/live/lib.sh"
need_root_tracefs
need_cmd python3 losetup mkfs.ext4
need_event sched:sched_process_exec syscalls:sys_enter_write block:block_rq_complete

PY=$(python3 -c "import sys; print(sys.executable)")
NAME=dbw$$
make_loop_ext4 64

cat >"$T/work.py" <<'EOF'
import ctypes, os, sys
name, path, chunk, count, every = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
ctypes.CDLL(None).prctl(15, name.encode(), 0, 0, 0)	# PR_SET_NAME
fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
buf = b"y" * chunk
for i in range(count):
	os.write(fd, buf)
	if i % every == every - 1:
		os.fsync(fd)
os.close(fd)
EOF

DB=$T/io.sqlite
q() { python3 -c 'import sqlite3, sys
for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]): print("|".join(map(str, r)))' "$DB" "$1"; }

# run TAG CHUNK COUNT EVERY: record the writer, load it, check the truth.
run() {
	local tag=$1 chunk=$2 count=$3 every=$4 n f rec rc=0
	n=$((chunk * count))
	f=$((count / every))
	"$IOREC" -q -o "$T/$tag.iorec" -- "$PY" -S -B "$T/work.py" "$NAME" \
		"$MNT/$tag.dat" "$chunk" "$count" "$every" 2>"$T/rec.err" || rc=$?
	[ "$rc" = 0 ] || { cat "$T/rec.err" >&2; fail "$tag: iorec exited $rc"; }
	"$IOREPORT" db "$DB" "$T/$tag.iorec" >"$T/$tag.out" 2>"$T/$tag.err" ||
		{ cat "$T/$tag.err" >&2; fail "$tag: ioreport db failed"; }
	rec=$(sed -n 's/.*: recording \([0-9]*\).*/\1/p' "$T/$tag.out")
	[ -n "$rec" ] || fail "$tag: no recording id in: $(cat "$T/$tag.out")"
	"$IOREPORT" processes --json "$T/$tag.iorec" >"$T/$tag.p.json"
	"$IOREPORT" files --json "$T/$tag.iorec" >"$T/$tag.f.json"
	python3 - "$DB" "$rec" "$NAME" "$n" "$count" "$f" "$MNT/$tag.dat" \
		"$LOOP_DEVT" "$T/$tag.p.json" "$T/$tag.f.json" >"$T/$tag.res" <<'EOF' || fail "$tag: database differs from the truth or the views"
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rec, name, n, writes, fsyncs, path, devt = int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]), sys.argv[7], sys.argv[8]
P, F = json.load(open(sys.argv[9])), json.load(open(sys.argv[10]))
def fail(msg):
	print("FAIL: " + msg, file=sys.stderr)
	sys.exit(1)
def one(sql, *args):
	return db.execute(sql, args).fetchone()

# the process, by its comm history (python3 then NAME)
procs = db.execute("""SELECT proc_id, pid, comm, write_bytes, fsyncs, syscalls FROM processes
	WHERE rec_id = ? AND proc_id IN (SELECT proc_id FROM comm_history WHERE rec_id = ? AND comm = ?)""",
	(rec, rec, name)).fetchall()
if len(procs) != 1:
	fail("expected one process named %s, got %r" % (name, procs))
proc_id, pid, comm, wb, fs, calls = procs[0]
if comm != name or wb != n or fs != fsyncs:
	fail("process row %r, expected write_bytes %d fsyncs %d" % (procs[0], n, fsyncs))
# the per-call rows: exactly the writes and fsyncs of the workload
w = one("""SELECT count(*), sum(bytes), min(duration_ns) > 0 FROM syscall_v
	WHERE rec_id = ? AND proc_id = ? AND kind = 'write'""", rec, proc_id)
if w != (writes, n, 1):
	fail("write syscalls %r, expected (%d, %d, 1)" % (w, writes, n))
s = one("""SELECT count(*), count(DISTINCT file_id) FROM syscall_v
	WHERE rec_id = ? AND proc_id = ? AND kind = 'fsync'""", rec, proc_id)
if s != (fsyncs, 1):
	fail("fsync syscalls %r, expected (%d, 1)" % (s, fsyncs))
# one file got all of it
fr = db.execute("""SELECT f.file_id, f.name, f.write_bytes, f.writes, f.fsyncs FROM files f
	WHERE f.rec_id = ? AND f.file_id IN (SELECT file_id FROM syscalls s JOIN syscall_kinds k USING (rec_id, kind)
	WHERE s.rec_id = ? AND s.proc_id = ? AND k.is_write)""", (rec, rec, proc_id)).fetchall()
if len(fr) != 1 or fr[0][2:] != (n, writes, fsyncs):
	fail("file rows %r, expected write_bytes %d writes %d fsyncs %d" % (fr, n, writes, fsyncs))
file_id, fname = fr[0][0], fr[0][1]
if fname != path and "unknown fd" not in fname:
	fail("file named %r" % fname)
# the same as the views
pj = [p for p in P["processes"] if p["pid"] == pid and p["comm"] == name]
if len(pj) != 1 or (pj[0]["write_bytes"], pj[0]["fsyncs"], pj[0]["calls"]) != (wb, fs, calls):
	fail("processes view %r vs database %r" % (pj, procs[0]))
if (pj[0]["block"]["write_bytes"], pj[0]["block"]["requests"]) != one(
	"SELECT blk_write_bytes, blk_requests FROM processes WHERE rec_id = ? AND proc_id = ?", rec, proc_id):
	fail("processes view block I/O differs")
ident = one("SELECT ident FROM files WHERE rec_id = ? AND file_id = ?", rec, file_id)[0]
ft = one("""SELECT write_bytes, writes, fsyncs, blk_write_bytes FROM file_totals
	WHERE rec_id = ? AND ident = ?""", rec, ident)
fj = [x for x in F["files"] if x["name"] == fname and x["write_bytes"] == ft[0]]
if len(fj) != 1 or (fj[0]["write_bytes"], fj[0]["writes"], fj[0]["fsync"]["count"], fj[0]["block"]["write_bytes"]) != ft:
	fail("files view %r vs database %r" % (fj, ft))
# the data reached the loop device: write requests there carry at least n bytes
maj, mi = map(int, devt.split(":"))
dev = maj << 20 | mi
rq = one("""SELECT count(*), coalesce(sum(bytes), 0), count(*) FILTER (WHERE device_ns > 0)
	FROM requests r JOIN ops o USING (rec_id, op) WHERE r.rec_id = ? AND r.dev = ? AND o.name = 'write'""", rec, dev)
if rq[0] == 0 or rq[1] < n or rq[2] != rq[0]:
	fail("write requests on %s: %r, expected >= %d bytes with device times" % (devt, rq, n))
print("%d %d %d %d" % (wb, fs, w[0], rq[1]))
EOF
	log "$tag: recording $rec: write bytes, fsyncs, writes, device write bytes: $(cat "$T/$tag.res")"
}

run a 4096 16 4
run b 8192 12 3

# Across recordings: one query gives both writers' bytes and fsyncs.
got=$(q "SELECT group_concat(write_bytes || '/' || fsyncs, ' ') FROM (SELECT p.write_bytes, p.fsyncs FROM processes p JOIN recordings r USING (rec_id) WHERE p.comm = '$NAME' ORDER BY r.rec_id)")
assert_eq "bytes/fsyncs across the two recordings" "65536/4 98304/4" "$got"
assert_eq "recordings" 2 "$(q 'SELECT count(*) FROM recordings')"
finish
