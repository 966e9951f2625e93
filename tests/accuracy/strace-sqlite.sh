#!/usr/bin/env bash
# strace-sqlite.sh - ioreport's syscall counts, bytes and fsyncs of an
# sqlite3 workload against 'strace -f' of the same run.
#
# sqlite3 (the shell) creates a database on a loop ext4 and inserts rows,
# one transaction each (journal_mode=DELETE: a journal file written,
# fsynced and unlinked per transaction), then reads them back after
# dropping the caches.  'iorec -- strace -f -y sqlite3 ...' records it
# while strace writes every call with its fd's path (-y) and its return
# value.  The truth per syscall kind, on the files of the mount (the
# database and its journal, strace's <path> under the mount): the number
# of calls and the bytes the read/write kinds returned, and the fsync and
# fdatasync calls.  'ioreport processes --json -c sqlite3 -f MNT/*' must
# give the same, exactly.  strace's -T times are not a truth for the
# latencies (each call stops twice for ptrace); fio-oracle.sh checks those.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/accuracy/acc-lib.sh"
need_root_tracefs
need_cmd python3 sqlite3 strace mkfs.ext4
ROWS=${STRACE_SQLITE_ROWS:-150}

make_loop_ext4 64
DB=$MNT/oracle.db
{
	echo "PRAGMA journal_mode=DELETE;"
	echo "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT);"
	for ((i = 0; i < ROWS; i++)); do
		echo "INSERT INTO t(v) VALUES (printf('%0500d', $i));"
	done
} >"$T/write.sql"
echo "SELECT count(*), sum(length(v)) FROM t;" >"$T/read.sql"

run_sql() {
	local name=$1 sql=$2 rc=0
	run_iorec -q -o "$T/$name.iorec" -- strace -f -qq -y -o "$T/$name.strace" \
		sqlite3 "$DB" <"$sql" >"$T/$name.out" 2>"$T/$name.err" || rc=$?
	[ "$rc" = 0 ] || { cat "$T/$name.err" >&2; fail "$name: iorec -- strace sqlite3 exited $rc"; }
	lost=$(lost_events "$T/$name.iorec")
	[ "$lost" = 0 ] || fail "$name: the recording lost $lost events"
	ioreport_to "$T/$name.json" processes --json -c sqlite3 -f "$MNT/*" "$T/$name.iorec"
	[ -n "${ACC_KEEP:-}" ] && { mkdir -p "$ACC_KEEP"; cp "$T/$name".* "$ACC_KEEP/"; }
	python3 - "$name" "$T/$name.strace" "$T/$name.json" "$MNT" "$TEST_NAME" <<'PY' || fail "$name: ioreport disagrees with strace (above)"
import json, re, sys
name, st_path, io_path, mnt, test = sys.argv[1:6]
# "PID call(FD</path>, ...) = RET" (strace -f -y); resumed calls are
# joined by strace itself only with -qq and no other thread: keep both
line = re.compile(r'^(\d+)\s+(\w+)\((\d+)<([^>]*)>.*\)\s+=\s+(-?\d+)')
calls, data = {}, {}
MOVE = {"read", "write", "pread64", "pwrite64", "readv", "writev",
        "preadv", "pwritev", "preadv2", "pwritev2"}
for ln in open(st_path):
    m = line.match(ln)
    if not m or not m.group(4).startswith(mnt + "/"):
        continue
    call, ret = m.group(2), int(m.group(5))
    calls[call] = calls.get(call, 0) + 1
    if call in MOVE and ret > 0:
        data[call] = data.get(call, 0) + ret
procs = json.load(open(io_path))["processes"]
sc = {}
for p in procs:
    for k, v in p["syscalls"].items():
        s = sc.setdefault(k, {"count": 0, "bytes": 0})
        s["count"] += v["count"]
        s["bytes"] += v["bytes"] or 0
bad = []
for call in sorted(set(calls) | {k for k in sc if k in MOVE or k in ("fsync", "fdatasync")}):
    if call not in MOVE and call not in ("fsync", "fdatasync", "fstat",
                                         "lseek", "ftruncate", "fcntl",
                                         "close"):
        continue
    got = sc.get(call, {"count": 0, "bytes": 0})
    want_n, want_b = calls.get(call, 0), data.get(call, 0)
    ok = got["count"] == want_n and (call not in MOVE or got["bytes"] == want_b)
    print("%s: %s: %s: %s calls %d vs strace %d%s" % (
        test, name, "ok" if ok else "FAIL", call, got["count"], want_n,
        ", bytes %d vs %d" % (got["bytes"], want_b) if call in MOVE else ""),
        file=sys.stderr)
    if not ok:
        bad.append(call)
if sum(calls.get(c, 0) for c in ("fsync", "fdatasync")) == 0 and name == "write":
    bad.append("no fsync in the write workload")
if bad:
    sys.exit("disagreements: " + ", ".join(bad))
PY
}

run_sql write "$T/write.sql"
drop_caches
run_sql read "$T/read.sql"
grep -q "^$ROWS|$((ROWS * 500))\$" "$T/read.out" ||
	fail "sqlite3 read back '$(cat "$T/read.out")', not $ROWS rows of 500 bytes"
finish
