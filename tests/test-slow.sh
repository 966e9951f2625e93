#!/usr/bin/env bash
# test-slow.sh - the N slowest syscalls and block requests of `ioreport
# slow` (fixed-size heaps) are exactly the N longest durations among all
# the syscalls and requests that `ioreport db` stores, on every sample.
set -u
cd "$top_srcdir" || exit 1
command -v sqlite3 >/dev/null || { echo "SKIP: sqlite3 missing (apt-get install sqlite3)"; exit 77; }
shopt -s nullglob
db=$(mktemp -u).sqlite
trap 'rm -f "$db"' EXIT
fail=0 n=0
for s in samples/*.iorec; do
	for top in 1 10 25; do
		rm -f "$db"
		"$IOREPORT" db "$db" "$s" >/dev/null 2>&1 || { echo "FAIL: ioreport db $s"; fail=1; continue; }
		want=$(sqlite3 "$db" "select duration_ns from syscalls where duration_ns is not null order by duration_ns desc limit $top" | tr '\n' ' ')
		got=$("$IOREPORT" slow --all-fds --json --top "$top" "$s" |
			python3 -c 'import json,sys; print(" ".join(str(x["latency_ns"]) for x in json.load(sys.stdin)["slow_syscalls"]))')
		n=$((n + 1))
		[ "$want" = "$got " ] || { echo "FAIL: $s --top $top: slow gives [$got], the database [$want]"; fail=1; }
		want=$(sqlite3 "$db" "select total_ns from requests order by total_ns desc limit $top" | tr '\n' ' ')
		got=$("$IOREPORT" slow --json --top "$top" "$s" |
			python3 -c 'import json,sys; print(" ".join(str(x["total_ns"]) for x in json.load(sys.stdin)["slow_requests"]))')
		n=$((n + 1))
		[ "$want" = "$got " ] || { echo "FAIL: $s --top $top: slow requests [$got], the database [$want]"; fail=1; }
	done
done
[ $n -gt 0 ] || { echo "SKIP: no samples"; exit 77; }
echo "checked $n top-N lists"
exit $fail
