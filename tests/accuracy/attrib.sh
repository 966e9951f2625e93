#!/usr/bin/env bash
# test-attrib-live.sh - record workloads whose block I/O is known and check
# that 'ioreport processes' and 'ioreport files' attribute it (the rules of
# docs/attribution.md), on a fresh journaled ext4 on a loop device:
#
#   A  writes A_MB MiB buffered to file a, then fsyncs it    (fsync rule)
#   B  writes B_MB MiB with O_DIRECT to file b               (syscall rule)
#   C  reads file c (C_MB MiB) after drop_caches             (syscall rule)
#   journal bytes > 0, labelled journal, on the loop device  (journal rule)
#   S  an SQLite transaction loop (WAL, synchronous=FULL): >= 95% of the
#      bytes it wrote, by syscalls and at the device, are on its .db,
#      .db-wal and .db-shm files by name.
#
# Tolerances: A and B must be within 2% (+64 KiB) of their payload: the
# payload is all the data they write, ext4 metadata goes through the
# journal (rule 4), and a few KiB may go to writeback the recording did
# not see dirtied.  C reads its file once; readahead may not pass the end
# of the file, so the file's bytes read at the device are its size (+2%:
# an indirect/extent block read in the read call).  The process gets the
# same plus what its own page faults read (the context rule): +25%.
#
# Needs root and tracefs (skips otherwise, exit 77).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/accuracy/acc-lib.sh"
need_root_tracefs
need_cmd python3
need_event sched:sched_process_exec syscalls:sys_enter_write \
	block:block_bio_queue writeback:writeback_dirty_folio \
	ext4:ext4_writepages ext4:ext4_sync_file_enter jbd2:jbd2_start_commit

python3 -c 'import sqlite3' 2>/dev/null || skip "python3 has no sqlite3 module"
PY=$(python3 -c "import sys; print(sys.executable)")

A_MB=8
B_MB=6
C_MB=5
TX=200
make_loop_ext4 256
sync

cat >"$T/work.py" <<'EOF'
import ctypes, mmap, os, sqlite3, sys
role, path, mb = sys.argv[1], sys.argv[2], int(sys.argv[3])
ctypes.CDLL(None).prctl(15, (role + "-" + str(os.getppid())).encode()[:15], 0, 0, 0)
MB = 1 << 20
if role == "attA":			# buffered writes, then one fsync
	fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
	buf = b"a" * MB
	for i in range(mb):
		os.write(fd, buf)
	os.fsync(fd)
	os.close(fd)
elif role == "attB":			# O_DIRECT writes
	fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_DIRECT, 0o644)
	m = mmap.mmap(-1, MB)		# page-aligned buffer
	m.write(b"b" * MB)
	for i in range(mb):
		os.write(fd, m)
	os.close(fd)
elif role == "attC":			# cold read
	os.sync()
	with open("/proc/sys/vm/drop_caches", "w") as f:
		f.write("3\n")
	fd = os.open(path, os.O_RDONLY)
	n = 0
	while True:
		b = os.read(fd, MB)
		if not b:
			break
		n += len(b)
	os.close(fd)
	assert n == mb * MB
elif role == "attS":			# SQLite, WAL, synchronous=FULL
	db = sqlite3.connect(path, isolation_level=None)
	db.execute("PRAGMA journal_mode=WAL")
	db.execute("PRAGMA synchronous=FULL")
	db.execute("CREATE TABLE IF NOT EXISTS states (id INTEGER PRIMARY KEY, entity TEXT, state TEXT, ts REAL)")
	for i in range(mb):
		db.execute("BEGIN")
		db.execute("INSERT INTO states (entity, state, ts) VALUES (?, ?, ?)",
			   ("sensor.t%d" % (i % 17), "x" * 200, i * 1.5))
		db.execute("COMMIT")
	db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
	db.close()
EOF

"$PY" -S -B -c "open('$MNT/c', 'wb').write(b'c' * ($C_MB << 20))"
sync

cat >"$T/run.sh" <<EOF
set -e
"$PY" -S -B "$T/work.py" attA "$MNT/a" $A_MB
"$PY" -S -B "$T/work.py" attB "$MNT/b" $B_MB
"$PY" -S -B "$T/work.py" attC "$MNT/c" $C_MB
"$PY" -B "$T/work.py" attS "$MNT/home.db" $TX
sync
EOF

rc=0
"$IOREC" -q -p io,iowait -o "$T/x.iorec" -- bash "$T/run.sh" 2>"$T/rec.err" || rc=$?
[ "$rc" = 0 ] || { cat "$T/rec.err" >&2; fail "iorec -- workload exited $rc"; }

# KEEP=FILE keeps the recording (to look at a failure)
[ -z "${KEEP:-}" ] || cp "$T/x.iorec" "$KEEP"
ioreport_to "$T/p.json" processes --json "$T/x.iorec"
ioreport_to "$T/f.json" files --json "$T/x.iorec"
ioreport_to "$T/p.txt" processes --wide "$T/x.iorec"
ioreport_to "$T/f.txt" files --wide "$T/x.iorec"
assert_grep '^I/O attributed: [0-9.]+% of the device bytes to a process, [0-9.]+% to a named file; journal [0-9.]+%' "$T/p.txt" processes
assert_grep '^I/O attributed: ' "$T/f.txt" files
assert_grep 'BLK-WRITE\(B\)' "$T/p.txt" processes
assert_grep 'D-STATE-SUM\(ms\)' "$T/p.txt" processes

python3 - "$T/p.json" "$T/f.json" "$MNT" "$LOOP_DEVT" $A_MB $B_MB $C_MB <<'EOF' || fail "attribution"
import json, sys
P = json.load(open(sys.argv[1]))
F = json.load(open(sys.argv[2]))
mnt, devt = sys.argv[3], sys.argv[4]
A, B, C = (int(x) << 20 for x in sys.argv[5:8])
bad = []
def check(what, got, lo, hi):
	ok = lo <= got <= hi
	print("%-42s %10d  [%d, %d] %s" % (what, got, lo, hi, "ok" if ok else "FAIL"),
	      file=sys.stderr)
	if not ok:
		bad.append(what)
def proc(role):
	ps = [p for p in P["processes"] if p["comm"].startswith(role + "-")]
	if len(ps) != 1:
		print("FAIL: %d processes %s-*" % (len(ps), role), file=sys.stderr)
		sys.exit(1)
	return ps[0]
def file(name):
	fs = [f for f in F["files"] if f["path"] == mnt + "/" + name]
	if not fs:
		print("FAIL: no file row %s/%s" % (mnt, name), file=sys.stderr)
		sys.exit(1)
	return fs[0]
tol = lambda n: n // 50 + (64 << 10)
a, b, c, s = proc("attA"), proc("attB"), proc("attC"), proc("attS")
check("A: process bytes written at the device", a["block"]["write_bytes"], A, A + tol(A))
check("A: file a bytes written at the device", file("a")["block"]["write_bytes"], A, A + tol(A))
check("A: journal bytes its fsync waited for", a["block"]["journal_bytes"], 1, 1 << 30)
check("B: process bytes written at the device", b["block"]["write_bytes"], B, B + tol(B))
check("B: file b bytes written at the device", file("b")["block"]["write_bytes"], B, B + tol(B))
check("C: file c bytes read at the device", file("c")["block"]["read_bytes"], C, C + tol(C))
check("C: process bytes read at the device", c["block"]["read_bytes"], C, C + C // 4)
at = P["attribution"]
check("journal bytes (by rule)", at["by_rule"]["journal"], 1, 1 << 40)
j = [x for x in at["journal"] if x["dev"] == devt]
check("journal bytes on the loop device", j[0]["bytes"] if j else 0, 1, 1 << 40)
# SQLite: bytes written by syscalls and at the device on its files
names = ("home.db", "home.db-wal", "home.db-shm")
files = [f for f in F["files"] if f["path"] and f["path"].rsplit("/", 1)[-1] in names]
sys_on = sum(f["write_bytes"] for f in files)
dev_on = sum(f["block"]["write_bytes"] for f in files)
check("S: syscall bytes written", s["write_bytes"], 1, 1 << 40)
check("S: syscall bytes on .db/-wal/-shm (x100)", sys_on * 100, s["write_bytes"] * 95, s["write_bytes"] * 100)
check("S: device bytes written", s["block"]["write_bytes"], 4096, 1 << 40)
check("S: device bytes on .db/-wal/-shm (x100)", dev_on * 100, s["block"]["write_bytes"] * 95, 1 << 50)
wal = [f for f in files if f["path"].endswith("-wal")]
check("S: -wal file bytes written at the device", wal[0]["block"]["write_bytes"] if wal else 0, 4096, 1 << 40)
print("attribution: %.1f%% process, %.1f%% named file, journal %.1f%%, unattributed %.1f%%" % tuple(
	100.0 * at[k] / max(at["bytes"], 1) for k in ("process_bytes", "named_file_bytes", "journal_bytes", "unattributed_bytes")),
	file=sys.stderr)
sys.exit(1 if bad else 0)
EOF

finish
