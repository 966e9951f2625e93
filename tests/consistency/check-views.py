#!/usr/bin/env python3
"""check-views.py - the consistency oracle: the views of one recording
must agree with each other (issue 25, docs/findings.md).

usage: check-views.py [--ioreport PATH] [-v] FILE...

For each FILE it runs the views (JSON and text) and asserts:

  bytes     the attribution's device bytes are the sum of its rules'
            bytes (attributed, journal, metadata, unattributed and the
            stacked bytes counted on the device above), and equal the
            read and write bytes of the devices view; per device, the
            wa view's data + journal + metadata + other = its writes;
            block bytes are whole 512-byte sectors
  subsets   the files' syscall bytes never exceed the processes'; the
            files' block bytes never exceed what the processes were
            given plus the writeback no dirtier is known of
  evidence  each finding's evidence equals the row of the view it cites;
            every size and duration its sentence states is one of its
            evidence or numbers values as ioreport renders it
  labels    the JSON severity is "caveat" exactly for the caveats, and
            the text's [label] is the JSON's severity; caveats rank
            after the findings of time lost
  shares    every *_share and every percentage of the text views is
            within 0..1 and 0..100%
  filters   a view filtered by one device, one process, one name or a
            window of time keeps a subset: no row the unfiltered view
            lacks, no count above it
  text      a quantity printed in two text views reads the same (the
            attribution lines of processes and files; the READ and BLK-R
            of a process beside its read-misses finding)
  names     one named share: every percentage said of "named" files in
            any text view is the attribution's named share (named file
            bytes of the bytes counted once); a processes or files column
            holding a sum (its value one of the JSON's sums) says SUM in
            its header; insert -> issue is I2D in findings and HTML too

Exit status 0 when every FILE passes, 1 otherwise (each failure one
line: FILE: check: what differs).  tests/test-consistency.sh runs it
over every sample; tests/live/lib.sh's check_views() over what the live
tests record.
"""
import json
import os
import re
import subprocess
import sys

IOREPORT = os.environ.get('IOREPORT', 'ioreport')
VERBOSE = False
failures = []


def fail(path, check, what):
    failures.append('%s: %s: %s' % (path, check, what))


def run(args):
    p = subprocess.run([IOREPORT] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout


_cache = {}


def view_json(path, view, *extra):
    key = (path, view) + extra
    if key not in _cache:
        rc, out = run([view, '--json'] + list(extra) + [path])
        _cache[key] = json.loads(out) if rc == 0 and out.strip() else None
    return _cache[key]


def view_text(path, view, *extra):
    rc, out = run([view] + list(extra) + [path])
    return out if rc == 0 else None


# ---------------------------------------------------------------------
# units.c, for the text

IEC = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB']


def put(v):
    return ('%.1f' % v) if v < 99.95 else ('%.0f' % v)


def units_bytes(b):
    v = abs(b)
    if v < 1024:
        return '%.0f B' % v
    u = 0
    while u < 6 and v >= 1023.95:
        v /= 1024
        u += 1
    return put(v) + ' ' + IEC[u]


def units_short(b):
    if b < 1024:
        return '%d' % b
    v, u = float(b), 0
    while u < 6 and v >= 1023.95:
        v /= 1024
        u += 1
    return put(v) + IEC[u][0]


def units_dur(ns):
    v = abs(ns)
    if v >= 999.5e6:
        return '%.2f s' % (v / 1e9)
    if v >= 999.5e3:
        return put(v / 1e6) + ' ms'
    return put(v / 1e3) + ' us'


# ---------------------------------------------------------------------

def get(obj, dotted):
    for part in dotted.split('.'):
        if isinstance(obj, list):
            if not part.isdigit() or int(part) >= len(obj):
                return KeyError
            obj = obj[int(part)]
        elif isinstance(obj, dict) and part in obj:
            obj = obj[part]
        else:
            return KeyError
    return obj


SELECTORS = ('device', 'op', 'pid', 'path')


def check_bytes(path):
    p = view_json(path, 'processes')
    if not p or 'attribution' not in p:
        return
    a = p['attribution']
    if a.get('block_requests') and a.get('by_rule'):
        s = sum(a['by_rule'].values())
        if s != a['bytes']:
            fail(path, 'bytes', 'attribution: %d device bytes, its rules sum to %d (%s)'
                 % (a['bytes'], s, a['by_rule']))
        if a['bytes'] - a['stacked_bytes'] != a['counted_bytes']:
            fail(path, 'bytes', 'attribution: counted %d != bytes %d - stacked %d'
                 % (a['counted_bytes'], a['bytes'], a['stacked_bytes']))
        for k in ('bytes', 'counted_bytes', 'process_bytes', 'journal_bytes',
                  'named_file_bytes', 'inode_file_bytes', 'fd_file_bytes'):
            if a.get(k, 0) % 512:
                fail(path, 'bytes', 'attribution %s %d is not whole sectors' % (k, a[k]))
    d = view_json(path, 'devices')
    if d and a.get('block_requests') and not p.get('filter'):
        rw = sum(r['bytes'] for r in d['devices'] if r['op'] in ('read', 'write'))
        if rw != a['bytes']:
            fail(path, 'bytes', 'devices view reads+writes %d bytes, attribution %d'
                 % (rw, a['bytes']))
    for r in (d or {}).get('devices', []):
        if r['bytes'] % 512:
            fail(path, 'bytes', '%s %s: %d bytes, not whole sectors'
                 % (r['device'], r['op'], r['bytes']))
    for r in p.get('processes', []):
        b = r.get('block') or {}
        for k in ('read_bytes', 'write_bytes', 'journal_bytes'):
            if b.get(k, 0) % 512:
                fail(path, 'bytes', 'pid %d block %s %d: not whole sectors'
                     % (r['pid'], k, b[k]))
    w = view_json(path, 'wa')
    for r in (w or {}).get('devices', []):
        parts = r['data_bytes'] + r['journal_bytes'] + r['metadata_bytes'] + r['other_bytes']
        if parts != r['write_bytes']:
            fail(path, 'bytes', 'wa %s: data+journal+metadata+other %d != writes %d'
                 % (r['device'], parts, r['write_bytes']))


def check_subsets(path):
    p = view_json(path, 'processes')
    f = view_json(path, 'files')
    if not p or not f or 'processes' not in p or 'files' not in f:
        return
    for k in ('read_bytes', 'write_bytes'):
        sp = sum(r[k] for r in p['processes'])
        sf = sum(r[k] for r in f['files'])
        if sf > sp:
            fail(path, 'subsets', 'files %s sum %d > processes %d' % (k, sf, sp))
    a = p['attribution']
    sf = sum((r.get('block') or {}).get('read_bytes', 0) +
             (r.get('block') or {}).get('write_bytes', 0) for r in f['files'])
    limit = a.get('process_bytes', 0) + a.get('writeback_no_dirtier_bytes', 0)
    if a.get('block_requests') and sf > limit:
        fail(path, 'subsets', 'files block bytes %d > processes %d + no dirtier %d'
             % (sf, a.get('process_bytes', 0), a.get('writeback_no_dirtier_bytes', 0)))


def rendered(v):
    out = {units_bytes(v), units_dur(v)}
    return out


SIZE = re.compile(r'(?<![\w.])(\d+(?:\.\d+)?) (B|KiB|MiB|GiB|TiB)\b(?! (?:of writes )?a day)')
DUR = re.compile(r'(?<![\w.])(\d+(?:\.\d+)?) (us|ms|s)\b')


def check_findings(path):
    fj = view_json(path, 'findings')
    if not fj:
        return
    f = fj['findings']
    caveats = [x['caveat'] for x in f]
    if caveats != sorted(caveats):
        fail(path, 'labels', 'a caveat ranks before a finding of time lost')
    for x in f:
        if (x['severity'] == 'caveat') != x['caveat']:
            fail(path, 'labels', 'rank %d: severity %s, caveat %s'
                 % (x['rank'], x['severity'], x['caveat']))
    txt = view_text(path, 'findings') or ''
    for m in re.finditer(r'^\s*(\d+)\. \[(\w+)\] ([\w-]+):', txt, re.M):
        r = int(m.group(1))
        if r <= len(f) and (f[r - 1]['severity'] != m.group(2) or f[r - 1]['rule'] != m.group(3)):
            fail(path, 'labels', 'rank %d: text [%s] %s, JSON %s %s'
                 % (r, m.group(2), m.group(3), f[r - 1]['severity'], f[r - 1]['rule']))
    for x in f:
        ev = x.get('evidence')
        tag = 'rank %d %s' % (x['rank'], x['rule'])
        if ev is None:
            if not x['caveat']:
                fail(path, 'evidence', '%s: no evidence' % tag)
            continue
        view = view_json(path, ev['view'])
        if view is None:
            fail(path, 'evidence', '%s: view %s gave no JSON' % (tag, ev['view']))
            continue
        sel = {k: v for k, v in ev.items() if k in SELECTORS}
        row = view
        if sel:
            rows = [r for arr in ('devices', 'processes', 'files')
                    for r in view.get(arr) or []
                    if isinstance(r, dict) and all(r.get(k) == v for k, v in sel.items())]
            if len(rows) != 1:
                fail(path, 'evidence', '%s: %d rows of %s match %s'
                     % (tag, len(rows), ev['view'], sel))
                continue
            row = rows[0]
        for k, v in ev.items():
            if k == 'view' or k in sel:
                continue
            got = get(row, k)
            if got is KeyError:         # a member of the whole view
                got = get(view, k)
            if got is KeyError:
                fail(path, 'evidence', '%s: %s has no %s' % (tag, ev['view'], k))
            elif isinstance(v, str) or isinstance(got, str):
                if got != v:
                    fail(path, 'evidence', '%s: %s %s is %r, the finding says %r'
                         % (tag, ev['view'], k, got, v))
            elif abs(got - v) > 1e-6 * max(1, abs(got)):
                fail(path, 'evidence', '%s: %s %s is %s, the finding says %s'
                     % (tag, ev['view'], k, got, v))
        # every size and duration of the sentence is one of its values
        vals = [v for v in list(ev.values()) + list(x['numbers'].values())
                if isinstance(v, (int, float)) and not isinstance(v, bool)]
        # and the rules' thresholds (docs/findings.md)
        sizes = {units_bytes(v) for v in vals} | {'16 KiB'}
        durs = {units_dur(v) for v in vals} | {'1.0 ms', '1 ms', '20 ms', '20.0 ms'}
        for m in SIZE.finditer(x['sentence']):
            if m.group(0) not in sizes:
                fail(path, 'evidence', '%s: the sentence says %s, none of its values'
                     % (tag, m.group(0)))
        for m in DUR.finditer(x['sentence']):
            if m.group(0) not in durs and m.group(2) != 's':
                fail(path, 'evidence', '%s: the sentence says %s, none of its values'
                     % (tag, m.group(0)))


def walk(obj, key=''):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from walk(v, k)
    elif isinstance(obj, list):
        for v in obj:
            yield from walk(v, key)
    else:
        yield key, obj


PCT = re.compile(r'(?<![+\-\w.])(\d+(?:\.\d+)?)%')


def check_shares(path):
    for view in ('processes', 'files', 'devices', 'wa', 'findings'):
        j = view_json(path, view)
        for k, v in walk(j):
            if (k.endswith('_share') or k == 'share') and isinstance(v, (int, float)) \
                    and not isinstance(v, bool) and not 0 <= v <= 1:
                fail(path, 'shares', '%s: %s = %s' % (view, k, v))
    for view in ('processes', 'files', 'findings'):
        t = view_text(path, view) or ''
        for m in PCT.finditer(t):
            if float(m.group(1)) > 100:
                fail(path, 'shares', '%s text: %s' % (view, m.group(0)))


def rows_by(j, arr, key):
    return {tuple(r.get(k) for k in key): r for r in (j or {}).get(arr) or []}


FILE_FIELDS = ('reads', 'writes', 'read_bytes', 'write_bytes', 'opens')


def file_rows(j, path='?'):
    """The files view's rows by identity: path, dev and ino; a row with
    none of them (a file known only by an fd, '<unknown fd N of pid P>')
    by its name too.  The files a pid had on one fd without a name are
    one row: a second row of such a name is a failure (two rows a
    reader cannot tell apart)."""
    out = {}
    for r in (j or {}).get('files') or []:
        k = (r.get('path'), r.get('dev'), r.get('ino'))
        if k == (None, None, None):
            k = k + (r.get('name'),)
            if k in out:
                fail(path, 'files',
                     'two rows named %s' % r.get('name'))
        if k not in out:
            out[k] = dict(r)
            continue
        for fld in FILE_FIELDS:
            if isinstance(r.get(fld), (int, float)):
                out[k][fld] = out[k].get(fld, 0) + r[fld]
    return out


def not_above(path, what, full, part, fields):
    for k, r in part.items():
        if k not in full:
            fail(path, 'filters', '%s: row %s not in the unfiltered view' % (what, k))
            continue
        for fld in fields:
            a, b = get(r, fld), get(full[k], fld)
            if isinstance(a, (int, float)) and isinstance(b, (int, float)) and a > b:
                fail(path, 'filters', '%s: %s %s = %s above the unfiltered %s'
                     % (what, k, fld, a, b))


def check_filters(path):
    d = view_json(path, 'devices')
    full = rows_by(d, 'devices', ('device', 'op'))
    if full:
        dev = sorted(full, key=lambda k: -full[k]['requests'])[0][0]
        df = view_json(path, 'devices', '-d', dev)
        part = rows_by(df, 'devices', ('device', 'op'))
        not_above(path, 'devices -d ' + dev, full, part, ('requests', 'bytes'))
        if any(k[0] != dev for k in part):
            fail(path, 'filters', 'devices -d %s keeps %s' % (dev, sorted({k[0] for k in part})))
    p = view_json(path, 'processes')
    fullp = rows_by(p, 'processes', ('pid',))
    if fullp:
        top = sorted(fullp.values(), key=lambda r: -r['calls'])[0]
        for flt in (('-p', str(top['pid'])), ('-c', top['comm'])):
            pf = view_json(path, 'processes', *flt)
            part = rows_by(pf, 'processes', ('pid',))
            not_above(path, 'processes %s %s' % flt, fullp, part,
                      ('calls', 'read_bytes', 'write_bytes', 'fsyncs',
                       'block.read_bytes', 'block.write_bytes'))
            if flt[0] == '-p' and set(part) - {(top['pid'],)}:
                fail(path, 'filters', 'processes -p %s keeps %s' % (flt[1], sorted(part)))
            ff = view_json(path, 'files', *flt)
            not_above(path, 'files %s %s' % flt,
                      file_rows(view_json(path, 'files'), path), file_rows(ff, path),
                      FILE_FIELDS)
    # a window of time: the files of its calls are those of the whole
    # recording (a file an fd showed, tied to its inode by events before
    # the window, keeps that identity)
    fa = view_json(path, 'files')
    span = (fa or {}).get('duration_ns') or 0
    if span > 10 ** 6:
        full = file_rows(fa, path)
        for k in (0.25, 0.5):
            since = '%.6f' % (span * k / 1e9)
            ft = view_json(path, 'files', '--since', since)
            not_above(path, 'files --since ' + since, full, file_rows(ft, path),
                      FILE_FIELDS)


ATTR = re.compile(r'^I/O attributed:.*?(?=^\S)', re.M | re.S)


def check_text(path):
    tp = view_text(path, 'processes') or ''
    tf = view_text(path, 'files') or ''
    ap, af = ATTR.search(tp), ATTR.search(tf)
    if ap and af and ap.group(0) != af.group(0):
        fail(path, 'text', 'the attribution lines of processes and files differ')
    # a process's READ and BLK-R as the processes table prints them and as
    # its read-misses finding says them
    fj = view_json(path, 'findings')
    p = view_json(path, 'processes')
    for x in (fj or {}).get('findings', []):
        ev = x.get('evidence') or {}
        if x['rule'] != 'read-misses' or 'pid' not in ev:
            continue
        row = [r for r in p['processes'] if r['pid'] == ev['pid']]
        if not row:
            continue
        r = row[0]
        for short in (units_short(r['read_bytes']),
                      units_short(r['block']['read_bytes'])):
            long_ = short[:-1] + ' ' + {'K': 'KiB', 'M': 'MiB', 'G': 'GiB', 'T': 'TiB'}.get(short[-1], short[-1]) \
                if short[-1].isalpha() else short + ' B'
            if long_ not in x['sentence']:
                fail(path, 'text', 'pid %d: the table says %s, the finding not %s'
                     % (r['pid'], short, long_))
            m = re.search(r'^\s*%d\s.*$' % r['pid'], tp, re.M)
            if m and short not in m.group(0).split():
                fail(path, 'text', 'pid %d: %s not in its processes row' % (r['pid'], short))


NAMED = re.compile(r'\bnamed\b')


def check_names(path):
    p = view_json(path, 'processes')
    a = (p or {}).get('attribution') or {}
    if a.get('counted_bytes'):
        share = 100.0 * a['named_file_bytes'] / a['counted_bytes']
        for view in ('processes', 'files', 'findings', 'report', 'wa', 'fsync'):
            t = re.sub(r'\n\s+', ' ', view_text(path, view) or '')
            for part in (p for seg in re.split(r'[;\n]', t) for p in seg.split(', ')):
                m = PCT.search(part)
                if m and NAMED.search(part) and abs(float(m.group(1)) - share) > 0.051:
                    fail(path, 'names', '%s: "%s" is not the named share %.1f%%'
                         % (view, part.strip(), share))
    # the insert -> issue time is I2D everywhere (tables, findings, HTML)
    fj = view_json(path, 'findings')
    if fj and re.search(r'q2d', json.dumps(fj), re.I):
        fail(path, 'names', 'findings JSON says q2d where the tables say I2D')
    rc, html = run(['html', path])
    if rc == 0 and 'Q2D' in html:
        fail(path, 'names', 'the HTML says Q2D where the tables say I2D')
    # sums say SUM: the top process's and file's cells equal to a sum
    for view, arr, key in (('processes', 'processes', 'pid'), ('files', 'files', 'path')):
        j = view_json(path, view)
        rows = (j or {}).get(arr) or []
        t = view_text(path, view, '--wide', '--top', '1') or ''
        if not rows:
            continue
        r = rows[0]
        sums = [get(r, k) for k in ('fsync.sum_ns', 'block.d2c_sum_ns', 'block.d2c_ns',
                                     'throttled_ns', 'dstate_ns')]
        not_sums = {get(r, k) for k in ('fsync.max_ns', 'fsync.avg_ns')}
        sums = {'%.3f' % (v / 1e6) for v in sums
                if isinstance(v, int) and v >= 1000 and v not in not_sums}
        lines = t.splitlines()
        for i, line in enumerate(lines):
            hdr = line.split()
            if hdr[:1] not in (['PID'], ['DEV:INO']) or i + 1 >= len(lines):
                continue
            cells = lines[i + 1].split()
            for h, c in zip(hdr, cells):
                if h.endswith('(ms)') and c in sums and 'SUM' not in h:
                    fail(path, 'names', '%s: column %s holds a sum (%s) and does not say SUM'
                         % (view, h, c))
            break


CHECKS = (check_bytes, check_subsets, check_findings, check_shares,
          check_filters, check_text, check_names)


def main(argv):
    global IOREPORT, VERBOSE
    files = []
    i = 0
    while i < len(argv):
        if argv[i] == '--ioreport':
            IOREPORT = argv[i + 1]
            i += 2
            continue
        if argv[i] == '-v':
            VERBOSE = True
        else:
            files.append(argv[i])
        i += 1
    if not files:
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        return 2
    for path in files:
        n = len(failures)
        for c in CHECKS:
            try:
                c(path)
            except Exception as e:      # a view's JSON not as expected
                fail(path, c.__name__[6:], 'raised %s: %s' % (type(e).__name__, e))
        if VERBOSE:
            print('%s: %s' % (path, 'ok' if n == len(failures) else
                              '%d failures' % (len(failures) - n)))
    for f in failures:
        print('FAIL:', f)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
