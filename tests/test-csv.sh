#!/usr/bin/env bash
# test-csv.sh - every table of every view as CSV (--csv[=TABLE]) on every
# sample: each parses with Python's csv module, every line has the
# header's number of fields, the header is the JSON rows' field names
# (nested objects as a.b, in the order first seen) and every row equals
# the same view's --json row, value for value (strings as they are,
# numbers equal as numbers, null an empty cell, arrays as their JSON).
# The tables are found in the JSON itself (every array of objects under
# objects only), so a table a view gains is tested without a change
# here; --csv alone prints the view's documented default table; a TABLE
# the view does not have is one error line naming the tables it has.
set -u
cd "$top_srcdir" || exit 1
shopt -s nullglob
samples=(samples/*.iorec samples/*.dat)
[ ${#samples[@]} -gt 0 ] || { echo "SKIP: no samples"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0

# check VIEW FILE... : every table of VIEW's JSON against its CSV
check() {
	local v=$1; shift
	if ! "$IOREPORT" "$v" --json "$@" > "$dir/out.json" 2>/dev/null; then
		# a view that cannot run on this recording must fail as CSV too
		if "$IOREPORT" "$v" --csv "$@" > /dev/null 2>&1; then
			echo "FAIL: $v --csv $* succeeds where --json fails"
			fail=1
		fi
		return
	fi
	python3 - "$IOREPORT" "$v" "$dir" "$@" <<'PY' || fail=1
import csv, io, json, subprocess, sys
ioreport, v, d = sys.argv[1:4]
files = sys.argv[4:]
j = json.load(open(d + '/out.json'))
defaults = {'devices': 'devices', 'slow': 'slow_requests', 'snoop': 'requests',
            'processes': 'processes', 'files': 'files', 'wa': 'devices',
            'fsync': 'processes', 'dirty': 'slots', 'summary': 'summary.devices',
            'diff': 'findings', 'info': 'cpu', 'report': None}
bad = []

def tables(x, path):
    """The dotted paths of the arrays reached through objects only."""
    for k, val in x.items():
        p = path + [k]
        if isinstance(val, list):
            yield '.'.join(p), val
        elif isinstance(val, dict):
            yield from tables(val, p)

def flat(row, prefix=''):
    """A JSON row as the CSV's columns: nested objects a.b, arrays JSON."""
    for k, val in row.items():
        if isinstance(val, dict):
            yield from flat(val, prefix + k + '.')
        else:
            yield prefix + k, val

def same(cell, val):
    if val is None:
        return cell == ''
    if isinstance(val, bool):
        return cell == ('true' if val else 'false')
    if isinstance(val, (int, float)):
        try:
            return float(cell) == float(val) and (isinstance(val, float) or
                                                  int(cell) == val)
        except ValueError:
            return False
    if isinstance(val, list):
        try:
            return json.loads(cell) == val
        except ValueError:
            return False
    return cell == val

def run(args):
    r = subprocess.run([ioreport, v] + args + files, capture_output=True)
    return r.returncode, r.stdout.decode('utf-8'), r.stderr.decode('utf-8', 'replace')

ntab = 0
outs = {}
for path, arr in tables(j, []):
    if not all(isinstance(x, dict) for x in arr):
        continue
    # the same writer as every view's: once, in summary (time: 2 cores)
    if path == 'integrity.recordings' and v != 'summary':
        continue
    rc, out, err = run(['--csv=' + path])
    what = '%s --csv=%s %s' % (v, path, ' '.join(files))
    if rc != 0:
        bad.append('%s: exit %d: %s' % (what, rc, err.strip()[:200]))
        continue
    ntab += 1
    outs[path] = out
    rows = list(csv.reader(io.StringIO(out, newline='')))
    if not arr:
        if rows:
            bad.append('%s: %d lines for an empty table' % (what, len(rows)))
        continue
    head, rows = rows[0], rows[1:]
    want_head = []
    for x in arr:
        for k, _ in flat(x):
            if k not in want_head:
                want_head.append(k)
    if head != want_head:
        bad.append('%s: header %s, the JSON rows have %s' % (what, head[:6], want_head[:6]))
        continue
    if len(rows) != len(arr):
        bad.append('%s: %d rows, the JSON has %d' % (what, len(rows), len(arr)))
        continue
    for i, (r, x) in enumerate(zip(rows, arr)):
        if len(r) != len(head):
            bad.append('%s: row %d has %d fields, the header %d' % (what, i, len(r), len(head)))
            break
        cells = dict(zip(head, r))
        diff = [(k, cells[k], val) for k, val in flat(x) if not same(cells[k], val)]
        given = {k for k, _ in flat(x)}
        diff += [(k, cells[k], None) for k in head if k not in given and cells[k] != '']
        if diff:
            bad.append('%s: row %d differs from the JSON: %s' % (what, i, diff[:3]))
            break
# --csv alone: the documented default table
want = defaults[v]
rc, out, err = run(['--csv'])
if want is None:
    if rc != 2 or 'name one with --csv=TABLE' not in err:
        bad.append('%s --csv: exit %d, not a usage error asking for a TABLE' % (v, rc))
elif rc != 0 or out != outs.get(want):
    bad.append('%s --csv is not --csv=%s (exit %d)' % (v, want, rc))
# a table the view has not: one error line naming the tables it has
if 'story000' in files[0]:
    rc, out, err = run(['--csv=no.such.table'])
    lines = err.strip().split('\n')
    if rc != 1 or out or len(lines) != 1 or 'its tables: ' not in lines[0] or \
       (want and want not in lines[0]):
        bad.append('%s --csv=no.such.table: exit %d, stderr %r' % (v, rc, err[:200]))
for b in bad:
    print('FAIL: ' + b)
print('%s %s: %d tables' % (v, ' '.join(files), ntab))
sys.exit(1 if bad or not ntab else 0)
PY
}

n=0
for s in "${samples[@]}"; do
	for v in devices slow snoop processes files wa fsync dirty summary info; do
		check "$v" "$s"
		n=$((n + 1))
	done
done
# report: its tables are the views' (above), once for its own head
check report samples/story000-sqlite-before.iorec
check report samples/tracecmd.dat
n=$((n + 2))
# diff: the sample pairs, and a recording with itself
for p in story000-sqlite-before:story000-sqlite-after story001-barrier:story001-nobarrier \
	 story002-dirty-default:story002-dirty-tuned; do
	a=samples/${p%%:*}.iorec b=samples/${p##*:}.iorec
	[ -f "$a" ] && [ -f "$b" ] || continue
	check diff "$a" "$b"
	n=$((n + 1))
done
check diff "${samples[0]}" "${samples[0]}"

[ $fail = 0 ] && echo "PASS: $n view runs: every table's CSV equals its JSON"
exit $fail
