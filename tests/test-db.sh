#!/usr/bin/env bash
# test-db.sh - `ioreport db` on the recordings of samples/: the stored
# numbers equal the `processes`, `files` and `devices` JSON views; two recordings in
# one database and a query across them; re-loading replaces instead of
# doubling; a load killed midway (kill -9) or failing leaves the previous
# database; a database of another schema version is refused; a load
# with the view filters stores what the filtered views keep.
#
# Needs python3 (its sqlite3 module) and the samples (skips otherwise).
set -euo pipefail
export LC_ALL=C
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
IOREPORT=${IOREPORT:-$top_builddir/ioreport}
S=$top_srcdir/samples
A=$S/story001-barrier.iorec
B=$S/story001-nobarrier.iorec
C=$S/rawsyscalls.iorec

fail() { echo "test-db: FAIL: $*" >&2; exit 1; }
log() { echo "test-db: $*" >&2; }
command -v python3 >/dev/null || { echo "SKIP: needs python3"; exit 77; }
for f in "$A" "$B" "$C"; do
	[ -f "$f" ] || { echo "SKIP: sample $f missing (samples/make-samples.sh)"; exit 77; }
done

T=$(mktemp -d "${TMPDIR:-/tmp}/test-db.XXXXXX")
trap 'rm -rf "$T"' EXIT
DB=$T/io.sqlite

q() { python3 -c 'import sqlite3, sys
for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]): print("|".join(map(str, r)))' "$DB" "$1"; }

# 1. One recording: the numbers equal the views.
"$IOREPORT" db "$DB" "$A" >"$T/out" || fail "ioreport db failed"
grep -q 'rows/s' "$T/out" || fail "no rate line: $(cat "$T/out")"
VER=$(sed -n 's/^#define DB_SCHEMA_VERSION[[:space:]]*\([0-9]*\).*/\1/p' "$top_srcdir/analyze/sink/sqlite.h")
[ -n "$VER" ] || fail "no DB_SCHEMA_VERSION in analyze/sink/sqlite.h"
[ "$(q 'PRAGMA user_version')" = "$VER" ] || fail "schema version not stored"
[ "$(q "SELECT value FROM db_info WHERE key = 'schema_version'")" = "$VER" ] ||
	fail "db_info schema_version is not $VER"
# the content id of a recording is what finds it again in a database of an
# earlier version: it never changes (this one since the first release)
[ "$(q 'SELECT content_id FROM recordings WHERE rec_id = 1')" = a148011dc60c78d2 ] ||
	fail "the content id of $A changed: $(q 'SELECT content_id FROM recordings')"
"$IOREPORT" processes --json "$A" >"$T/p.json"
"$IOREPORT" files --json "$A" >"$T/f.json"
python3 - "$DB" "$T/f.json" "$T/p.json" <<'EOF' || fail "database differs from the views"
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
F, P = json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
bad = 0
rows = {}
for r in db.execute("""SELECT name, write_bytes, read_bytes, writes, reads, fsyncs, opens,
		blk_write_bytes, blk_requests FROM file_totals WHERE rec_id = 1 AND
		(opens OR reads OR writes OR fsyncs OR blk_read_bytes OR blk_write_bytes OR journal_bytes)"""):
	rows.setdefault(r[0], []).append(tuple(r[1:]))
for f in F["files"]:
	exp = (f["write_bytes"], f["read_bytes"], f["writes"], f["reads"], f["fsync"]["count"],
	       f["opens"], f["block"]["write_bytes"], f["block"]["requests"])
	if exp not in rows.get(f["name"], []):
		bad += 1
		print("file", f["name"], rows.get(f["name"]), exp, file=sys.stderr)
if sum(len(v) for v in rows.values()) != len(F["files"]):
	bad += 1
	print("file rows", sum(len(v) for v in rows.values()), len(F["files"]), file=sys.stderr)
for p in P["processes"]:
	exp = (p["write_bytes"], p["read_bytes"], p["fsyncs"], p["calls"],
	       p["block"]["write_bytes"], p["block"]["requests"])
	got = db.execute("""SELECT write_bytes, read_bytes, fsyncs, syscalls, blk_write_bytes,
		blk_requests FROM processes WHERE rec_id = 1 AND pid = ? AND comm = ?""",
		(p["pid"], p["comm"])).fetchall()
	# the per-call rows add up to the same numbers
	det = db.execute("""SELECT coalesce(sum(s.bytes) FILTER (WHERE k.is_write), 0),
		count(*) FILTER (WHERE k.is_fsync), count(*) FROM syscalls s
		JOIN syscall_kinds k USING (rec_id, kind) JOIN processes q USING (rec_id, proc_id)
		WHERE s.rec_id = 1 AND q.pid = ? AND q.comm = ? AND q.syscalls = ?""",
		(p["pid"], p["comm"], p["calls"])).fetchone()
	if exp not in got or det != (p["write_bytes"], p["fsyncs"], p["calls"]):
		bad += 1
		print("process", p["pid"], p["comm"], got, det, exp, file=sys.stderr)
print("files %d, processes %d, mismatches %d" % (len(F["files"]), len(P["processes"]), bad), file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
log "one recording: equal to the processes and files views"

# Block requests: per device and op, the rows and the stored histograms
# give the `devices --json` view's counts, bytes, percentiles and buckets.
"$IOREPORT" devices --json "$A" >"$T/d.json"
python3 - "$DB" "$T/d.json" <<'EOF' || fail "database differs from the devices view"
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
D = json.load(open(sys.argv[2]))
bad = 0
for d in D["devices"]:
	ma, mi = map(int, d["dev"].split(":"))
	dev = ma << 20 | mi
	got = db.execute("""SELECT count(*), coalesce(sum(bytes), 0), count(*) FILTER (WHERE flags & 2),
		count(*) FILTER (WHERE flags & 1), count(*) FILTER (WHERE error != 0)
		FROM requests r JOIN ops o USING (rec_id, op) WHERE r.rec_id = 1 AND r.dev = ? AND o.name = ?""",
		(dev, d["op"])).fetchone()
	exp = (d["requests"], d["bytes"], d["fua"], d["preflush"], d["errors"])
	if got != exp:
		bad += 1
		print("device", d["dev"], d["op"], got, exp, file=sys.stderr)
	for metric, key in (("queue", "i2d"), ("device", "d2c"), ("total", "total")):
		h = d[key]
		row = db.execute("""SELECT hist_id, count, sum_ns, min_ns, max_ns, p50_ns, p90_ns, p99_ns, p999_ns
			FROM histograms h JOIN ops o USING (rec_id, op) WHERE h.rec_id = 1 AND subject = 'device'
			AND dev = ? AND o.name = ? AND metric = ?""", (dev, d["op"], metric)).fetchone()
		if not h["count"]:
			bad += row is not None
			continue
		exp = (h["count"], h["sum_ns"], h["min_ns"], h["max_ns"], h["p50_ns"], h["p90_ns"], h["p99_ns"], h["p999_ns"])
		bk = [list(b) for b in db.execute("SELECT lo_ns, hi_ns, count FROM hist_buckets WHERE rec_id = 1 AND hist_id = ? ORDER BY lo_ns", (row[0],))] if row else None
		if not row or row[1:] != exp or bk != h["buckets"]:
			bad += 1
			print("histogram", d["dev"], d["op"], metric, row, exp, file=sys.stderr)
print("device rows %d, mismatches %d" % (len(D["devices"]), bad), file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
log "devices: equal to the devices view (counts, bytes, percentiles, buckets)"

[ "$(q "SELECT count(*) FROM histograms h WHERE subject = 'device' AND metric = 'device' AND count != (SELECT count(*) FROM requests r WHERE r.rec_id = h.rec_id AND r.dev = h.dev AND r.op = h.op)")" = 0 ] ||
	fail "request rows differ from the device histograms"
[ "$(q "SELECT count(*) FROM histograms h WHERE count != (SELECT sum(count) FROM hist_buckets b WHERE b.rec_id = h.rec_id AND b.hist_id = h.hist_id)")" = 0 ] ||
	fail "histogram buckets do not add up to their counts"
# files_match_requests: in $DB, the request rows carry the same file
# attribution as the files view, those tied to a file by inode only at the
# end of the recording included; a lower device's requests for a device
# stacked on it (attrib 'stacked') carry the upper request's file, whose
# bytes count them once, up there
files_match_requests() {
	[ "$(q "SELECT count(*) FROM files f WHERE blk_write_bytes != (SELECT coalesce(sum(bytes), 0) FROM requests r JOIN ops o USING (rec_id, op) WHERE r.rec_id = f.rec_id AND r.file_id = f.file_id AND o.name = 'write' AND r.attrib IS NOT 'stacked') OR blk_read_bytes != (SELECT coalesce(sum(bytes), 0) FROM requests r JOIN ops o USING (rec_id, op) WHERE r.rec_id = f.rec_id AND r.file_id = f.file_id AND o.name = 'read' AND r.attrib IS NOT 'stacked')")" = 0 ] ||
		fail "request rows attributed to a file differ from its blk bytes ($1)"
}
files_match_requests "$A"
# a query on one process's requests goes through the origin index (the
# load samples the planner statistics), not through every request
q "EXPLAIN QUERY PLAN SELECT * FROM requests WHERE rec_id = 1 AND proc_id = 1" >"$T/plan"
grep -q 'request_rows_origin' "$T/plan" ||
	fail "the requests of one process are read without the index: $(cat "$T/plan")"

# Every request, field by field, equals `snoop --json` (completion
# order): the story-000 recording spans 5 s with sparse requests, so its
# rows cross id blocks split by count and by time (their times are
# stored relative to each block's base).  Syscall times: tests/test-slow.sh.
L=$S/story000-sqlite-before.iorec
if [ -f "$L" ]; then
	"$IOREPORT" db -q "$T/long.sqlite" "$L" || fail "loading $L failed"
	DB=$T/long.sqlite files_match_requests "$L"
	[ "$(DB=$T/long.sqlite q "SELECT count(*) FROM files WHERE path IS NULL AND dev IS NOT NULL AND blk_requests > 0")" -gt 0 ] ||
		fail "no file known by inode only got block I/O: the check above tests nothing of the late attribution"
	"$IOREPORT" snoop --json "$L" >"$T/snoop.json"
	python3 - "$T/long.sqlite" "$T/snoop.json" <<'EOF' || fail "request rows differ from snoop --json"
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
R = json.load(open(sys.argv[2]))["requests"]
rows = db.execute("""SELECT coalesce(insert_ts, issue_ts), issue_ts, complete_ts,
	(dev >> 20) || ':' || (dev & 1048575), o.name, sector, bytes, queue_ns,
	device_ns, total_ns, coalesce(insert_pid, issue_pid), error, attrib
	FROM requests r JOIN ops o USING (rec_id, op) ORDER BY req_id""").fetchall()
blocks = db.execute("SELECT count(*) FROM id_blocks").fetchone()[0]
bad = 0
if len(rows) != len(R):
	print("rows", len(rows), "snoop", len(R), file=sys.stderr)
	sys.exit(1)
for got, r in zip(rows, R):
	exp = (r["start_ns"], r["issue_ns"], r["complete_ns"], r["dev"], r["op"],
	       r["sector"], r["bytes"], r["i2d_ns"], r["d2c_ns"],
	       r["total_ns"], r["pid"], r["error"], r["owner"]["kind"] if r["owner"] else None)
	if got != exp:
		bad += 1
		if bad < 5:
			print("request", got, exp, file=sys.stderr)
print("requests %d, id blocks %d, mismatches %d" % (len(rows), blocks, bad), file=sys.stderr)
sys.exit(1 if bad or blocks < 4 else 0)
EOF
	log "every request of a 5 s recording equals snoop --json"
fi

# 2. Two recordings in one database, and a query across them: the
# barrier recording has flushes, the nobarrier one none (story 001).
"$IOREPORT" db -q "$DB" "$B" || fail "loading a second recording failed"
[ "$(q 'SELECT count(*) FROM recordings')" = 2 ] || fail "expected 2 recordings"
q "SELECT r.rec_id, count(*) FILTER (WHERE q.flags & 1 OR o.name = 'flush') FROM recordings r
   JOIN requests q USING (rec_id) JOIN ops o USING (rec_id, op) GROUP BY r.rec_id ORDER BY r.rec_id" >"$T/flush"
f1=$(sed -n '1s/.*|//p' "$T/flush")
f2=$(sed -n '2s/.*|//p' "$T/flush")
[ "$f1" -gt 0 ] && [ "$f1" -gt "$f2" ] || fail "flushes barrier $f1 vs nobarrier $f2"
log "two recordings: flushes with barriers $f1, without $f2"

# 3. Re-loading replaces: nothing doubles, ids are kept.
counts() { q "SELECT (SELECT count(*) FROM recordings), (SELECT count(*) FROM requests), (SELECT count(*) FROM syscalls), (SELECT count(*) FROM processes), (SELECT count(*) FROM files), (SELECT count(*) FROM hist_buckets), (SELECT group_concat(rec_id || ':' || content_id) FROM recordings)"; }
before=$(counts)
"$IOREPORT" db "$DB" "$A" >"$T/out" || fail "re-load failed"
grep -q '(replaced)' "$T/out" || fail "re-load did not say replaced: $(cat "$T/out")"
after=$(counts)
assert() { [ "$2" = "$3" ] || fail "$1: expected '$2', got '$3'"; }
assert "counts after re-load" "$before" "$after"
log "re-load: $after"

# 4. A load killed midway leaves the previous database: the second
# recording is standard input, a FIFO kept open without data, so the load
# waits inside its transaction with the first recording's rows inserted.
cp "$DB" "$T/before.sqlite"
mkfifo "$T/fifo"
"$IOREPORT" db "$DB" "$C" - <"$T/fifo" >"$T/kill.out" 2>&1 &
pid=$!
exec 8>"$T/fifo"
for ((i = 0; i < 300; i++)); do
	grep -q 'rows$' "$T/kill.out" 2>/dev/null && break
	sleep 0.1
done
grep -q 'rows$' "$T/kill.out" || { kill -9 $pid; fail "the load did not store its first recording: $(cat "$T/kill.out")"; }
kill -9 $pid
wait $pid 2>/dev/null || true
exec 8>&-
[ "$(q 'PRAGMA integrity_check')" = ok ] || fail "integrity_check after kill -9"
assert "counts after kill -9" "$before" "$(counts)"
log "kill -9 inside the transaction: previous content kept"

# A failed load (one of the files is not a recording) changes nothing.
echo "not a recording" >"$T/bad.iorec"
rc=0
"$IOREPORT" db "$DB" "$C" "$T/bad.iorec" >"$T/out" 2>"$T/err" || rc=$?
assert "exit code of a failed load" 1 "$rc"
grep -q 'previous content' "$T/err" || fail "no 'previous content' message: $(cat "$T/err")"
assert "counts after a failed load" "$before" "$(counts)"

# 5. Schema versions: older and newer are refused with a one-line message.
cp "$DB" "$T/old.sqlite"
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("PRAGMA user_version = %d" % (int(sys.argv[2]) - 1)); c.commit()' "$T/old.sqlite" "$VER"
rc=0
"$IOREPORT" db "$T/old.sqlite" "$C" 2>"$T/err" >/dev/null || rc=$?
assert "exit code on an older schema" 1 "$rc"
grep -q 'older' "$T/err" || fail "older schema message: $(cat "$T/err")"
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("PRAGMA user_version = 99"); c.commit()' "$T/old.sqlite"
rc=0
"$IOREPORT" db "$T/old.sqlite" "$C" 2>"$T/err" >/dev/null || rc=$?
assert "exit code on a newer schema" 1 "$rc"
grep -q 'newer' "$T/err" || fail "newer schema message: $(cat "$T/err")"
[ "$(grep -c . "$T/err")" = 1 ] || fail "expected a one-line error: $(cat "$T/err")"
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("CREATE TABLE t (x)"); c.commit()' "$T/other.sqlite"
rc=0
"$IOREPORT" db "$T/other.sqlite" "$C" 2>"$T/err" >/dev/null || rc=$?
assert "exit code on a foreign database" 1 "$rc"
grep -q 'not one of ioreport' "$T/err" || fail "foreign database message: $(cat "$T/err")"
log "schema versions: older, newer and foreign databases refused"

# 6. Usage errors exit 2; "--db" is no command (the command is "db").
rc=0
"$IOREPORT" db "$DB" >/dev/null 2>&1 || rc=$?
assert "exit code without a recording" 2 "$rc"
rc=0
"$IOREPORT" --db "$T/alias.sqlite" "$C" >/dev/null 2>"$T/err" || rc=$?
assert "exit code of 'ioreport --db'" 2 "$rc"
[ ! -e "$T/alias.sqlite" ] || fail "'ioreport --db' created a database"

# 7. The database argument checked first: arguments swapped, a device
# node (no journal file created beside it), a file of something else.
rc=0
"$IOREPORT" db "$C" "$T/swapped.sqlite" >/dev/null 2>"$T/err" || rc=$?
assert "exit code with the arguments swapped" 1 "$rc"
grep -q 'is a recording, not a database: the database comes first' "$T/err" ||
	fail "swapped arguments: $(cat "$T/err")"
[ ! -e "$T/swapped.sqlite" ] || fail "swapped arguments: a database was created"
rc=0
"$IOREPORT" db "$DB" "$DB" >/dev/null 2>"$T/err" || rc=$?
assert "exit code with a database as a recording" 1 "$rc"
grep -q 'is an SQLite database, not a recording' "$T/err" || fail "database as recording: $(cat "$T/err")"
had=0; [ -e /dev/null-journal ] && had=1
rc=0
"$IOREPORT" db /dev/null "$C" >/dev/null 2>"$T/err" || rc=$?
assert "exit code on /dev/null" 1 "$rc"
grep -q '/dev/null is not a regular file' "$T/err" || fail "/dev/null: $(cat "$T/err")"
[ $had = 1 ] || [ ! -e /dev/null-journal ] || fail "ioreport db /dev/null left /dev/null-journal"
echo "not a database" > "$T/text.sqlite"
rc=0
"$IOREPORT" db "$T/text.sqlite" "$C" >/dev/null 2>"$T/err" || rc=$?
assert "exit code on a text file" 1 "$rc"
grep -q 'is not an SQLite database' "$T/err" || fail "text file: $(cat "$T/err")"
log "database argument: swapped, device node, foreign file refused in one line"

# 8. The view filters: a filtered load stores what the filtered views
# count (the syscalls and requests they keep, their processes), and says
# what it kept in recording_meta
FDB=$T/filtered.sqlite
"$IOREPORT" db -c python3 --since 0.5 "$FDB" "$S/story000-sqlite-before.iorec" >"$T/out" 2>"$T/err" ||
	fail "db with filters: $(cat "$T/err")"
grep -q '^filter: comm python3, from 0.500 s of the recording; kept' "$T/out" || fail "db with filters said: $(cat "$T/out")"
"$IOREPORT" processes --json --top 100000 -c python3 --since 0.5 "$S/story000-sqlite-before.iorec" >"$T/fp.json"
python3 - "$FDB" "$T/fp.json" <<'EOF' || fail "filtered database differs from the filtered view"
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
v = json.load(open(sys.argv[2]))
f = v['filter']
meta = dict(db.execute("SELECT key, value FROM recording_meta WHERE section = 'filter'"))
want = {'syscalls_kept': f['syscalls_kept'], 'requests_kept': f['requests_kept'],
        'syscalls': f['syscalls'], 'requests': f['requests']}
got = {k: int(meta[k]) for k in want}
assert got == want, 'recording_meta filter %s, the view kept %s' % (got, want)
assert meta['filter'] == 'comm python3, from 0.500 s of the recording', meta['filter']
n = db.execute('SELECT count(*) FROM syscalls').fetchone()[0]
assert n == f['syscalls_kept'], '%d syscall rows, the view kept %d' % (n, f['syscalls_kept'])
n = db.execute('SELECT count(*) FROM requests').fetchone()[0]
assert n == f['requests_kept'], '%d request rows, the view kept %d' % (n, f['requests_kept'])
w = sum(p['write_bytes'] for p in v['processes'])
d = db.execute('SELECT sum(write_bytes) FROM processes').fetchone()[0]
assert d == w, 'processes write %s bytes in the database, %s in the view' % (d, w)
print('%d syscalls, %d requests, %d bytes written: as the filtered view' % (f['syscalls_kept'], f['requests_kept'], w))
EOF
log "filters: the filtered load stores what the filtered view keeps"
log PASS
