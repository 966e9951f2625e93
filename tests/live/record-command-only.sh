#!/usr/bin/env bash
# record-command-only.sh - the sqlite3 truth test: an SQLite commit loop
# (WAL, synchronous=FULL, one transaction per INSERT) recorded with
# iorec --command-only while the machine is busy (a CPU burner per CPU and
# a storm of 512-byte writes, both started before iorec) has exactly the
# system calls that strace -f counts for the same workload on a fresh
# database: per call (read, write, pread64, pwrite64, openat, close,
# fsync, fdatasync), the count ioreport processes gives sqlite3's process.
# The storm's own calls are not recorded (its pid is below the command's)
# and block events stay system-wide (the storm's writeback is there).
. "$(dirname "$0")/lib.sh"
need_root_tracefs
need_cmd sqlite3
need_cmd strace
need_event syscalls:sys_enter_pwrite64 block:block_rq_issue

CALLS="read write pread64 pwrite64 openat close fsync fdatasync"
{
	echo "PRAGMA journal_mode=WAL;"
	echo "PRAGMA synchronous=FULL;"
	echo "CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT);"
	for i in $(seq 300); do
		echo "INSERT INTO t(b) VALUES('row $i of the truth workload');"
	done
} >"$T/work.sql"
mkdir -p "$T/db"

# the truth: strace -f on a fresh database
strace -f -qq -o "$T/strace" -e trace="${CALLS// /,}" \
	sqlite3 "$T/db/t.db" <"$T/work.sql" >/dev/null ||
	fail "sqlite3 under strace failed"
truth() {	# CALL: strace's count of it (resumed halves are not calls)
	grep -cE "^[0-9]+ +$1\(" "$T/strace" || true
}
rm -f "$T"/db/t.db*

# the load: one CPU burner per CPU and a 512-byte write storm
ncpu=$(nproc)
for ((i = 0; i < ncpu; i++)); do
	sh -c 'while :; do :; done' &
	on_exit "kill $! 2>/dev/null || true"
done
dd if=/dev/zero of="$T/storm" bs=512 count=200000000 status=none &
storm=$!
on_exit "kill $storm 2>/dev/null || true"
sleep 0.5
rc=0
run_iorec -q --command-only -o "$T/cmd.iorec" -- \
	sqlite3 "$T/db/t.db" <"$T/work.sql" >/dev/null 2>"$T/rec.err" || rc=$?
[ "$rc" = 0 ] || { cat "$T/rec.err" >&2; fail "iorec --command-only -- sqlite3 exited $rc"; }
kill "$storm" 2>/dev/null || true

"$IOREPORT" info --json "$T/cmd.iorec" >"$T/info.json" || fail "ioreport info failed"
"$IOREPORT" processes --json "$T/cmd.iorec" >"$T/procs.json" 2>/dev/null ||
	fail "ioreport processes failed"
python3 - "$T/info.json" "$T/procs.json" "$storm" >"$T/got" <<'PY' || fail "cannot read the recording's JSON"
import json, sys
info = json.load(open(sys.argv[1]))
procs = json.load(open(sys.argv[2]))
storm = int(sys.argv[3])
print('filter', info['header'].get('syscall_filter', ''))
print('lost', info.get('lost_events', (info.get('end') or {}).get('lost_events', 'unknown')))
# the command's pid, as the header's filter says ("pid N (the command ...")
words = info['header'].get('syscall_filter', '').split()
cmd = int(words[1]) if len(words) > 1 and words[1].isdigit() else -1
sq = [p for p in procs['processes'] if p.get('pid') == cmd and p.get('comm') == 'sqlite3']
print('sqlite3_processes', len(sq))
calls = sq[0].get('syscalls', {}) if sq else {}
for c in calls:
    print('call', c, calls[c]['count'], calls[c].get('unpaired', 0))
print('storm_calls', sum(p.get('calls', 0) for p in procs['processes'] if p.get('pid') == storm))
PY
grep -q '^filter pid [0-9]* (the command sqlite3)' "$T/got" ||
	fail "the header does not state the filter: $(grep '^filter' "$T/got")"
assert_eq "sqlite3 processes of the command's pid in the recording" 1 "$(awk '/^sqlite3_processes/ { print $2 }' "$T/got")"
assert_eq "system calls of the write storm (started before iorec)" 0 \
	"$(awk '/^storm_calls/ { print $2 }' "$T/got")"
bad=0
for c in $CALLS; do
	want=$(truth "$c")
	got=$(awk -v c="$c" '$1 == "call" && $2 == c { print $3 }' "$T/got")
	log "$c: strace $want, iorec ${got:-0}"
	[ "$want" = "${got:-0}" ] || bad=1
done
[ "$bad" = 0 ] || { cat "$T/rec.err" >&2; fail "system call counts differ from strace's (lost: $(awk '/^lost/ { print $2 }' "$T/got"))"; }
finish
