#!/usr/bin/env bash
# test-view-filters.sh - the view filters mean what they say, on the
# story 000 sample (hass, pid 16477, was `bash` until it exec'ed hass):
#  -c NAME keeps the processes that had NAME at any time: `slow --all-fds
#    -c hass` keeps hass's 235 ms read made while it was still `bash`, and
#    `processes -c hass` shows pid 16477's row as the unfiltered view does;
#  the times slow prints (seconds from the first event, or with
#    --trace-clock of the trace clock) pasted into --since keep the
#    request they were printed for; a --since after the end is an error;
#  --min-ms: the "kept" count is the number of syscalls that long, counted
#    from the unfiltered view's slowest syscalls;
#  -f GLOB keeps the file's OPENS.
set -euo pipefail
export LC_ALL=C
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
IOREPORT=${IOREPORT:-$top_builddir/ioreport}
S=$top_srcdir/samples/story000-sqlite-before.iorec
fail() { echo "test-view-filters: FAIL: $*" >&2; exit 1; }
[ -x "$IOREPORT" ] || { echo "SKIP: $IOREPORT not built"; exit 77; }
[ -f "$S" ] || { echo "SKIP: sample $S missing"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/test-view-filters.XXXXXX")
trap 'rm -rf "$T"' EXIT
q() {	# FILE PYTHON-EXPR(d) -> its value
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}

# -c: the process, not the events made under the name
"$IOREPORT" slow --json --all-fds --top 50 "$S" >"$T/all.json"
"$IOREPORT" slow --json --all-fds --top 50 -c hass "$S" >"$T/hass.json"
want=$(q "$T/all.json" "sum(1 for c in d['slow_syscalls'] if c['pid'] == 16477 and c['comm'] != 'hass')")
[ "$want" -ge 1 ] || fail "the sample has no call of pid 16477 made before its exec: no test"
got=$(python3 -c "
import json, sys
a, h = (json.load(open(f))['slow_syscalls'] for f in sys.argv[1:])
kept = {c['start_ns'] for c in h}
print(sum(1 for c in a if c['pid'] == 16477 and c['comm'] != 'hass' and c['start_ns'] in kept))" "$T/all.json" "$T/hass.json")
[ "$got" = "$want" ] ||
	fail "slow -c hass keeps $got of the $want slowest calls hass (pid 16477) made before its exec"
"$IOREPORT" processes --json "$S" >"$T/p-all.json"
"$IOREPORT" processes --json -c hass "$S" >"$T/p-hass.json"
for k in calls read_bytes write_bytes fsyncs; do
	a=$(q "$T/p-all.json" "[p['$k'] for p in d['processes'] if p['pid'] == 16477][0]")
	b=$(q "$T/p-hass.json" "[p['$k'] for p in d['processes'] if p['pid'] == 16477][0]")
	[ "$a" = "$b" ] || fail "processes -c hass: pid 16477 $k $b, unfiltered $a"
done
echo "test-view-filters: ok: -c hass keeps all of pid 16477 (its $want slow calls as bash, every count of its row)"

# printed times pasted back
for clock in "" --trace-clock; do
	# the first row under the requests' header (the title line above
	# may wrap with a long path)
	line=$("$IOREPORT" slow $clock "$S" | awk 'f { print; exit } /COMPLETE/ { f = 1 }')
	t=$(awk '{ print $1 }' <<<"$line")
	"$IOREPORT" slow $clock --since "$t" "$S" | grep -qF -- "$line" ||
		fail "slow $clock --since $t drops the request it printed at $t: $line"
	# and a little later it is gone
	n=$("$IOREPORT" snoop $clock --since "$t" "$S" | wc -l)
	[ "$n" -gt 1 ] || fail "snoop $clock --since $t prints nothing"
done
echo "test-view-filters: ok: slow's times, from the first event and of the trace clock, are --since times"
if "$IOREPORT" snoop --since 100000 "$S" >"$T/out" 2>"$T/err"; then
	fail "snoop --since after the recording's end exits 0"
fi
[ "$(wc -l <"$T/err")" = 1 ] && grep -q "outside the recording" "$T/err" ||
	fail "snoop --since after the end: $(cat "$T/err")"

# --min-ms: what is kept is what is that long
"$IOREPORT" slow --json --all-fds --top 1000 "$S" >"$T/top.json"
want=$(q "$T/top.json" "sum(1 for c in d['slow_syscalls'] if c['latency_ns'] >= 100000000)")
[ "$want" -ge 1 ] && [ "$want" -lt 1000 ] || fail "$want syscalls of 100 ms or more: no test"
"$IOREPORT" slow --json --all-fds --min-ms 100 "$S" >"$T/min.json"
got=$(q "$T/min.json" "d['filter']['syscalls_kept']")
[ "$got" = "$want" ] || fail "slow --min-ms 100 says $got syscalls kept, $want took 100 ms or more"
"$IOREPORT" slow --min-ms 100 "$S" | grep -q "kept [0-9]* of [0-9]* requests, $want of [0-9]* syscalls" ||
	fail "slow --min-ms 100: the kept line does not say $want syscalls"
echo "test-view-filters: ok: --min-ms 100 keeps $want syscalls, the number that took 100 ms or more"

# -f GLOB: the opens of the file stay
"$IOREPORT" files --json "$S" >"$T/f-all.json"
"$IOREPORT" files --json -f '*/home-assistant_v2.db' "$S" >"$T/f-one.json"
a=$(q "$T/f-all.json" "[f['opens'] for f in d['files'] if (f['path'] or '').endswith('/home-assistant_v2.db')][0]")
b=$(q "$T/f-one.json" "[f['opens'] for f in d['files'] if (f['path'] or '').endswith('/home-assistant_v2.db')][0]")
[ "$a" -ge 1 ] || fail "the database has no open in the sample: no test"
[ "$a" = "$b" ] || fail "files -f: home-assistant_v2.db OPENS $b, unfiltered $a"
echo "test-view-filters: ok: files -f keeps the database's $a opens"
echo "test-view-filters: PASS"
