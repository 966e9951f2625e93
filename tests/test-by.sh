#!/bin/sh
# test-by.sh - --by unit|container|cgroup adds up, and to the same in
# every view: on every sample, each group of 'processes --by' is the sum
# of the processes' rows of its key (every number of the group); each
# group of 'wa --by' has the application, device and journal write bytes
# of the processes --by group of the same key (write_bytes,
# block.write_bytes, block.journal_bytes); each group of 'fsync --by' is
# the sum of the fsync view's own process rows of its key, and its
# fsync + fdatasync calls and their latency sum are those of the same
# processes in the processes view (fsyncs, fsync.sum_ns).  'files --by'
# splits each file's calls by the owner of the processes that made them:
# each group is the sum of its group_files rows, the rows of one file
# add up to that file's row of the files view (opens, reads, writes,
# their bytes, errors, fsync count and latency sum; a file none of
# them has made no call), and no group moved more bytes with calls on
# files than the processes --by group of its key did with all its calls.
# --csv with --by prints the groups (as --csv=groups), and the text has
# the table.  'findings --by' groups the findings by the process each
# names, as tests/check-findings-by.py computes them a second way.
# The samples were recorded before iorec stored cgroups, so their
# processes are all of none ("-", null): tests/live/report-owners.sh
# checks groups of real units, containers and cgroups against the bytes
# their writers wrote.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
IOREPORT=${IOREPORT:-$top_builddir/ioreport}
S=$top_srcdir/samples
command -v python3 >/dev/null || { echo "SKIP: needs python3"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/test-by.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() { echo "test-by: FAIL: $*" >&2; exit 1; }

n=0
for f in "$S"/*.iorec "$S"/*.dat; do
	[ -f "$f" ] || continue
	for by in unit container cgroup; do
		"$IOREPORT" processes --json --by $by "$f" >"$T/p.json" 2>/dev/null ||
			fail "ioreport processes --json --by $by $f"
		"$IOREPORT" wa --json --by $by "$f" >"$T/w.json" 2>/dev/null ||
			echo null >"$T/w.json"
		"$IOREPORT" fsync --json --top 100000 --by $by "$f" >"$T/f.json" 2>/dev/null ||
			echo null >"$T/f.json"
		"$IOREPORT" files --json --by $by "$f" >"$T/fi.json" 2>/dev/null ||
			fail "ioreport files --json --by $by $f"
		python3 - "$T" "$by" "$f" <<'PY' || fail "--by $by of $f"
import json, sys
t, by, f = sys.argv[1:4]
p = json.load(open(t + '/p.json'))
w = json.load(open(t + '/w.json'))
fs = json.load(open(t + '/f.json'))
fi = json.load(open(t + '/fi.json'))
bad = []

def nums(x, pre=''):
    """The numbers of a row (nested objects a.b), its integers only."""
    out = {}
    for k, v in x.items():
        if isinstance(v, dict):
            out.update(nums(v, pre + k + '.'))
        elif isinstance(v, int) and not isinstance(v, bool):
            out[pre + k] = v
    return out

# processes: every group the sums of its processes
assert p['by'] == by, p['by']
want = {}
for r in p['processes']:
    g = want.setdefault(r[by], {'processes': 0})
    g['processes'] += 1
    for k, v in nums(r).items():
        if k in ('pid', 'ppid') or k.startswith(('syscalls.', 'request_shape.')):
            continue
        if k == 'fsync.max_ns':
            g[k] = max(g.get(k, 0), v)
        elif k.startswith('fsync.') and k not in ('fsync.count', 'fsync.sum_ns'):
            continue
        else:
            g[k] = g.get(k, 0) + v
pg = {}
for grp in p['groups']:
    key = grp[by]
    pg[key] = grp
    got = nums(grp)
    exp = want.pop(key, None)
    if exp is None:
        bad.append('processes group %r has no process' % key)
    elif got != exp:
        diff = {k: (got.get(k), exp.get(k)) for k in set(got) | set(exp) if got.get(k) != exp.get(k)}
        bad.append('processes group %r: (group, its processes) %s' % (key, diff))
if want:
    bad.append('processes of no group: %s' % sorted(map(str, want)))
# the processes that moved the most bytes first
moved = [g['read_bytes'] + g['write_bytes'] + g['block']['read_bytes'] +
         g['block']['write_bytes'] for g in p['groups']]
if moved != sorted(moved, reverse=True):
    bad.append('processes groups not by bytes moved: %s' % moved)

# wa: the processes groups' write bytes
if w is not None:
    assert w['by'] == by
    seen = set()
    for grp in w['groups']:
        key = grp[by]
        seen.add(key)
        q = pg.get(key)
        exp = (q['write_bytes'], q['block']['write_bytes'], q['block']['journal_bytes']) if q else None
        got = (grp['app_write_bytes'], grp['device_write_bytes'], grp['journal_bytes'])
        if got != exp:
            bad.append('wa group %r: %s, processes --by says %s' % (key, got, exp))
    for key, q in pg.items():
        if key not in seen and (q['write_bytes'] or q['block']['write_bytes'] or
                                q['block']['journal_bytes']):
            bad.append('wa has no group %r, which wrote' % key)

# fsync: the sums of its own rows, and of the processes view's
if fs is not None:
    assert fs['by'] == by
    key_of = {r['pid']: r[by] for r in p['processes']}
    calls_of = {r['pid']: (r['fsyncs'], r['fsync']['sum_ns']) for r in p['processes']}
    own = {}
    for r in fs['processes']:
        g = own.setdefault(key_of.get(r['pid']), [0] * 9)
        lat = r.get('latency') or {}
        for i, v in enumerate((1, r['fsync'], r['fdatasync'], r['sync_file_range'],
                               lat.get('sum_ns', 0), r['ext4_fsyncs'], r['flushes'],
                               r['flush_ns'], r['write_bytes_during'])):
            g[i] += v
        # the same process's calls in the processes view
        if r['pid'] in calls_of and lat:
            c, ns = calls_of[r['pid']]
            if (r['fsync'] + r['fdatasync'], lat['sum_ns']) != (c, ns):
                bad.append('fsync pid %d: %s calls, %s ns; processes: %s, %s' %
                           (r['pid'], r['fsync'] + r['fdatasync'], lat['sum_ns'], c, ns))
    for grp in fs['groups']:
        key = grp[by]
        got = [grp['processes'], grp['fsync'], grp['fdatasync'], grp['sync_file_range'],
               grp['latency']['sum_ns'], grp['ext4_fsyncs'], grp['flushes'],
               grp['flush_ns'], grp['write_bytes_during']]
        exp = own.pop(key, None)
        if got != exp:
            bad.append('fsync group %r: %s, its rows %s' % (key, got, exp))
    if own:
        bad.append('fsync rows of no group: %s' % own)
# files: each group the sum of its rows, each file's rows its row
if fi['files'] is not None:
    assert fi['by'] == by
    want = {}
    per_file = {}
    ident = lambda r: (r['name'], r['dev'], r['ino'])
    calls = ('opens', 'reads', 'read_bytes', 'writes', 'write_bytes', 'errors',
             'fsync.count', 'fsync.sum_ns')
    for r in fi['group_files']:
        g = want.setdefault(r[by], {'files': 0})
        g['files'] += 1
        for k, v in nums(r).items():
            if k in ('ino',):
                continue
            if k == 'fsync.max_ns':
                g[k] = max(g.get(k, 0), v)
            else:
                g[k] = g.get(k, 0) + v
        pf = per_file.setdefault(ident(r), dict.fromkeys(calls, 0))
        n = nums(r)
        for k in calls:
            pf[k] += n[k]
    for grp in fi['groups']:
        key = grp[by]
        got = nums(grp)
        exp = want.pop(key, None)
        if got != exp:
            bad.append('files group %r: %s, its files %s' % (key, got, exp))
        q = pg.get(key)
        if q is None or grp['read_bytes'] > q['read_bytes'] or \
           grp['write_bytes'] > q['write_bytes']:
            bad.append('files group %r moved %s/%s bytes, its processes %s' %
                       (key, grp['read_bytes'], grp['write_bytes'],
                        q and (q['read_bytes'], q['write_bytes'])))
    if want:
        bad.append('files rows of no group: %s' % sorted(map(str, want)))
    view = {}
    for r in fi['files']:
        pf = view.setdefault(ident(r), dict.fromkeys(calls, 0))
        n = nums(r)
        for k in calls:
            pf[k] += n[k]
    for k, v in view.items():
        got = per_file.pop(k, dict.fromkeys(calls, 0))
        if got != v:
            bad.append('file %s: its rows per %s %s, its row %s' % (k, by, got, v))
    if per_file:
        bad.append('group_files of no file: %s' % list(per_file)[:3])
    if not fi['group_files'] and any(r['reads'] or r['writes'] for r in fi['files']):
        bad.append('files with calls but no group_files')
for b in bad[:5]:
    print('  ' + f + ' --by ' + by + ': ' + b)
sys.exit(1 if bad else 0)
PY
		python3 "$top_srcdir/tests/check-findings-by.py" "$IOREPORT" "$f" $by >/dev/null ||
			fail "findings --by $by of $f"
		n=$((n + 1))
	done
	# --csv with --by: the groups; the text: its table
	a=$("$IOREPORT" processes --csv --by unit "$f" 2>/dev/null)
	b=$("$IOREPORT" processes --csv=groups --by unit "$f" 2>/dev/null)
	[ -n "$a" ] && [ "$a" = "$b" ] || fail "processes --by unit --csv is not --csv=groups on $f"
	case $a in unit,processes,calls,*) ;; *) fail "processes --by unit --csv header: ${a%%
*}" ;; esac
	"$IOREPORT" processes --by container "$f" 2>/dev/null | grep -q '^per container: [1-9]' ||
		fail "processes --by container on $f has no 'per container:' table"
	a=$("$IOREPORT" files --csv --by cgroup "$f" 2>/dev/null)
	b=$("$IOREPORT" files --csv=groups --by cgroup "$f" 2>/dev/null)
	[ -n "$a" ] && [ "$a" = "$b" ] || fail "files --by cgroup --csv is not --csv=groups on $f"
	case $a in cgroup,files,opens,*) ;; *) fail "files --by cgroup --csv header: ${a%%
*}" ;; esac
	# a group's summed times are headed as the tables below name them
	# (FSYNC-SUM(ms), not FSYNC(ms), which the sum is not)
	for v in processes files fsync; do
		txt=$("$IOREPORT" $v --wide --by unit "$f" 2>/dev/null)
		! grep -qE '(^| )(FSYNC|FLUSH|BLK-DEV|DEV|THROTTLED|D-STATE)\(ms\)' <<<"$txt" ||
			fail "$v --by unit on $f heads a sum without -SUM: $(grep -oE '(FSYNC|FLUSH|BLK-DEV|DEV|THROTTLED|D-STATE)\(ms\)' <<<"$txt" | sort -u | tr '\n' ' ')"
	done
	"$IOREPORT" files --by unit "$f" 2>/dev/null | grep -q '^files per unit: [1-9]' ||
		fail "files --by unit on $f has no 'files per unit:' table"
done
[ $n -gt 0 ] || { echo "SKIP: no samples"; exit 77; }
echo "PASS: $n recordings and keys: the groups of processes, files, wa, fsync and findings --by add up"
