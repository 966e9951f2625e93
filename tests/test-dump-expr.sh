#!/usr/bin/env bash
# test-dump-expr.sh - `ioreport dump --filter 'EVENTS: EXPR'` (libtraceevent's
# filter) on samples, .iorec and trace.dat: for each of several
# expressions (numeric comparisons, string ==, ~ globs, && || ! and
# parentheses, several events, SYS:EVENT, two --filter at once) the
# lines kept are exactly the lines of the whole `dump --raw` that a
# second, independent evaluation in Python selects from the events'
# fields (`dump --raw --json`); where trace-cmd is installed,
# `trace-cmd report -F` on the trace.dat `ioreport convert` writes keeps
# the same events at the same times.  A bad expression is one error line
# that names the fix, and exits 1, without a crash.
set -u
export LC_ALL=C
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
IOREPORT=${IOREPORT:-$top_builddir/ioreport}
[ -x "$IOREPORT" ] || { echo "SKIP: $IOREPORT not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3"; exit 77; }
S=$top_srcdir/samples/story000-sqlite-before.iorec
D=$top_srcdir/samples/tracecmd.dat
[ -f "$S" ] && [ -f "$D" ] || { echo "SKIP: samples missing"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/test-dump-expr.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0
# In the ASan build: libtraceevent (no frame pointers) stops LSan's fast
# unwinder, so its one known leak (tests/lsan.supp) is only recognised
# with the slow one.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"

# The expressions: the ftrace form (one or more --filter, split by ' ;; '),
# and the same selection in Python over (event, fields, comm, cpu).
cat >"$T/exprs" <<'EOF'
block_rq_complete: nr_sector > 8	ev == 'block_rq_complete' and f['nr_sector'] > 8
block:block_rq_issue: nr_sector <= 8 && rwbs == "WS"	ev == 'block_rq_issue' and f['nr_sector'] <= 8 and f['rwbs'] == 'WS'
block_rq_issue: comm ~ "kworker*" || bytes >= 65536	ev == 'block_rq_issue' and (glob(f['comm'], 'kworker*') or f['bytes'] >= 65536)
block_rq_insert: !(nr_sector < 16) && dev != 266338304	ev == 'block_rq_insert' and not f['nr_sector'] < 16 and f['dev'] != 266338304
block_rq_issue,block_rq_complete: sector > 1000000 && (nr_sector == 8 || nr_sector == 16)	ev in ('block_rq_issue', 'block_rq_complete') and f['sector'] > 1000000 and f['nr_sector'] in (8, 16)
block_rq_complete: CPU == 1 && error == 0 && sector < 2000000	ev == 'block_rq_complete' and cpu == 1 and f['error'] == 0 and f['sector'] < 2000000
block_rq_issue: COMM ~ "*ass" && nr_sector >= 16	ev == 'block_rq_issue' and glob(comm, '*ass') and f['nr_sector'] >= 16
block_rq_issue: nr_sector > 256 ;; block_rq_complete: nr_sector < 16 && sector > 500000	(ev == 'block_rq_issue' and f['nr_sector'] > 256) or (ev == 'block_rq_complete' and f['nr_sector'] < 16 and f['sector'] > 500000)
block:block_rq_insert	ev == 'block_rq_insert'
EOF

# check FILE: every expression on FILE against Python's selection
check() {	# FILE strict|any (strict: every expression selects events)
	local file=$1 strict=$2 n=0 e py args
	"$IOREPORT" dump --raw "$file" | grep -v '^CPU [0-9]*: \[LOST' >"$T/all" || { echo "FAIL: dump --raw $file"; fail=1; return; }
	"$IOREPORT" dump --raw --json "$file" >"$T/all.json" || { echo "FAIL: dump --raw --json $file"; fail=1; return; }
	while IFS=$'\t' read -r e py; do
		args=()
		while [[ $e == *' ;; '* ]]; do
			args+=(--filter "${e%% ;; *}")
			e=${e#* ;; }
		done
		args+=(--filter "$e")
		"$IOREPORT" dump --raw "${args[@]}" "$file" 2>"$T/err" |
			grep -v '^CPU [0-9]*: \[LOST' >"$T/got"
		if [ -s "$T/err" ]; then
			echo "FAIL: $file: ${args[*]}: $(cat "$T/err")"
			fail=1
			continue
		fi
		python3 - "$T" "$py" "$strict" <<'PY' || fail=1
import fnmatch, json, sys
t, py, strict = sys.argv[1:4]
lines = open(t + '/all', encoding='utf-8', errors='replace').read().split('\n')[:-1]
evs = [e for e in json.load(open(t + '/all.json'))['events'] if 'event' in e]
if len(lines) != len(evs):
    print('FAIL: %d text lines, %d JSON events' % (len(lines), len(evs)))
    sys.exit(1)

def glob(s, pat):
    # libtraceevent matches ~ (as =~) ignoring case
    return fnmatch.fnmatchcase(str(s).lower(), pat.lower())

want = []
for line, e in zip(lines, evs):
    ev, f, comm, cpu = e['event'], e['fields'], e['comm'], e['cpu']
    try:
        if eval(py):
            want.append(line)
    except KeyError:
        pass
got = open(t + '/got', encoding='utf-8', errors='replace').read().split('\n')[:-1]
if not want and strict == 'strict':
    print('FAIL: %s selects no event: no test' % py)
    sys.exit(1)
if got != want:
    print('FAIL: %s: dump keeps %d lines, Python selects %d' % (py, len(got), len(want)))
    sys.exit(1)
print('ok: %d of %d events: %s' % (len(got), len(lines), py))
PY
		n=$((n + 1))
	done <"$T/exprs"
	echo "$file: $n expressions"
}
check "$S" strict
check "$D" any

# trace-cmd report -F on the trace.dat of the .iorec: the same events at
# the same times (trace-cmd rounds to the microsecond, dump truncates)
if command -v trace-cmd >/dev/null 2>&1; then
	"$IOREPORT" convert --to trace.dat -o "$T/s.dat" "$S" 2>/dev/null ||
		{ echo "FAIL: convert $S"; fail=1; }
	m=0
	while IFS=$'\t' read -r e py; do
		[[ $e == *' ;; '* ]] && continue	# one -F per trace-cmd run here
		# trace-cmd's event lists are SYS/EVENT, its globs regular
		# expressions (=~, of libtraceevent too)
		tc=$(python3 -c '
import re, sys
e = re.sub(r"^([a-z_]+):([a-z_]+)", r"\1/\2", sys.argv[1])
print(re.sub(r"~ \"([^\"]*)\"", lambda m: "=~ \"^%s$\"" % m.group(1).replace(".", "\\.").replace("*", ".*").replace("?", "."), e))
' "$e")
		trace-cmd report -F "$tc" "$T/s.dat" 2>/dev/null >"$T/tc" ||
			{ echo "FAIL: trace-cmd report -F '$tc'"; fail=1; continue; }
		"$IOREPORT" dump --trace-clock --filter "$e" "$S" >"$T/ours" 2>&1 ||
			{ echo "FAIL: dump --filter '$e'"; fail=1; continue; }
		python3 - "$T" "$e" <<'PY' || fail=1
import re, sys
t, e = sys.argv[1:3]
pat = re.compile(r'\[(\d+)\]\s+(\d+\.\d+):\s+(\w+):')
def events(path):
    out = []
    for line in open(path, errors='replace'):
        m = pat.search(line)
        if m:
            out.append((int(m.group(1)), float(m.group(2)), m.group(3)))
    return out
tc, ours = events(t + '/tc'), events(t + '/ours')
if not ours or len(tc) != len(ours) or any(
        a[0] != b[0] or a[2] != b[2] or abs(a[1] - b[1]) > 1.5e-6
        for a, b in zip(tc, ours)):
    print("FAIL: --filter '%s': dump keeps %d events, trace-cmd report -F %d" % (e, len(ours), len(tc)))
    sys.exit(1)
print("ok: trace-cmd report -F '%s': the same %d events" % (e, len(ours)))
PY
		m=$((m + 1))
	done <"$T/exprs"
	[ "$m" -ge 5 ] || { echo "FAIL: only $m expressions compared with trace-cmd"; fail=1; }
else
	echo "SKIP (part): trace-cmd is not installed: no comparison with trace-cmd report -F"
fi

# bad expressions: exit 1, one error line that says how to write one
for e in 'block_rq_issue: nr_sector >' 'block_rq_issue: comm == "abc' \
	 'block_rq_issue: (nr_sector > 1' 'block_rq_issue: nr_secto > 8' \
	 'no_such_event: nr_sector > 8' 'block_rq_issue: nr_sector > "x"'; do
	"$IOREPORT" dump --filter "$e" "$S" >"$T/out" 2>"$T/err"
	rc=$?
	if [ $rc != 1 ] || [ -s "$T/out" ] || [ "$(wc -l <"$T/err")" != 1 ] ||
	   ! grep -q "write EVENT: FIELD OP VALUE" "$T/err"; then
		echo "FAIL: --filter '$e': exit $rc, $(wc -l <"$T/err") error lines: $(head -c 300 "$T/err")"
		fail=1
	fi
done
[ $fail = 0 ] && echo "PASS: dump --filter keeps what Python and trace-cmd select"
exit $fail
