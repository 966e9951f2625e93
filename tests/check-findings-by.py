#!/usr/bin/env python3
# check-findings-by.py IOREPORT RECORDING BY [WANT_KEY] - 'ioreport findings
# --by BY' against the findings and the processes of the same recording,
# computed here a second way: each finding belongs to the group of the
# first process it names (its "process" entity), keyed by that process's
# unit, container or cgroup as 'processes --json' gives it (null: of none);
# a finding that names no process is in no group.  A process a finding
# names that the processes view does not list (a kernel thread's fsync of
# a loop device's backing file: no system calls) is looked up in the
# database 'ioreport db' makes of the recording.  Each group's count,
# summed time lost, ranks and rules (each once, in rank order) must be
# those; the groups come by time lost; findings_of_no_process counts the
# rest; --csv prints the groups, the JSON's values; the text's table has a
# row per group.  WANT_KEY: a key that must have a group (a live test's
# unit or container).  Prints what it checked; exits 1 on a difference.
import csv
import io
import json
import os
import sqlite3
import subprocess
import sys
import tempfile

ioreport, rec, by = sys.argv[1:4]
want_key = sys.argv[4] if len(sys.argv) > 4 else None
bad = []


def run(*args):
    p = subprocess.run([ioreport] + list(args) + [rec], capture_output=True,
                       text=True)
    if p.returncode:
        sys.exit('check-findings-by: ioreport %s failed: %s' %
                 (' '.join(args), p.stderr.strip()))
    return p.stdout


plain = json.loads(run('findings', '--json', '--top', '100000'))['findings']
procs = json.loads(run('processes', '--json', '--top', '100000'))['processes']
got = json.loads(run('findings', '--json', '--top', '100000', '--by', by))
key_of = {p['pid']: p[by] for p in procs}

db_keys = None


def db_key(pid):
    """pid's key from the database: its one key, or None."""
    global db_keys
    if db_keys is None:
        db_keys = {}
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'r.sqlite')
            p = subprocess.run([ioreport, 'db', '-q', path, rec],
                               capture_output=True, text=True)
            if p.returncode:
                sys.exit('check-findings-by: ioreport db failed: ' + p.stderr)
            con = sqlite3.connect(path)
            for q, k in con.execute('select pid, %s from processes' % by):
                db_keys.setdefault(q, set()).add(k)
            con.close()
    keys = db_keys.get(pid, set())
    if len(keys) != 1:
        bad.append('pid %d: keys %s in the database' % (pid, keys))
        return None
    return next(iter(keys))


want, none = {}, 0
for x in plain:
    pid = next((e['id'] for e in x['entities'] if e['kind'] == 'process'),
               None)
    if pid is None:
        none += 1
        continue
    if pid not in key_of:
        key_of[pid] = db_key(pid)
    g = want.setdefault(key_of[pid], {by: key_of[pid], 'findings': 0,
                                      'lost_ns': 0, 'ranks': [], 'rules': []})
    g['findings'] += 1
    g['lost_ns'] += x['lost_ns']
    g['ranks'].append(x['rank'])
    if x['rule'] not in g['rules']:
        g['rules'].append(x['rule'])

if got.get('by') != by:
    bad.append('by %r' % got.get('by'))
if got.get('findings_of_no_process') != none:
    bad.append('findings_of_no_process %s, %d name no process'
               % (got.get('findings_of_no_process'), none))
groups = got.get('groups') or []
have = {g[by]: g for g in groups}
if len(have) != len(groups):
    bad.append('a key in two groups')
if have != want:
    bad.append('groups %s, computed %s' % (sorted(have.items(), key=str),
                                           sorted(want.items(), key=str)))
lost = [g['lost_ns'] for g in groups]
if lost != sorted(lost, reverse=True):
    bad.append('groups not by time lost: %s' % lost)
if [x['rule'] for x in got['findings']] != [x['rule'] for x in plain]:
    bad.append('--by changed the findings')
if want_key is not None and want_key not in have:
    bad.append('no group %r (groups: %s)' % (want_key, sorted(have, key=str)))

# --csv: the groups, value for value
rows = list(csv.DictReader(io.StringIO(run('findings', '--csv', '--by', by))))
if len(rows) != len(groups):
    bad.append('--csv %d rows, %d groups' % (len(rows), len(groups)))
for r, g in zip(rows, groups):
    exp = {by: g[by] or '', 'findings': str(g['findings']),
           'lost_ns': str(g['lost_ns']), 'ranks': json.dumps(g['ranks'],
                                                              separators=(',', ':')),
           'rules': json.dumps(g['rules'], separators=(',', ':'))}
    if r != exp:
        bad.append('--csv row %s, JSON %s' % (r, exp))

# the text: the table, a row per group
text = run('findings', '--by', by).splitlines()
head = [i for i, l in enumerate(text) if l.startswith('per %s: ' % by)]
if len(head) != 1 or not text[head[0]].startswith('per %s: %d,' % (by, len(groups))):
    bad.append('text: no "per %s: %d," line' % (by, len(groups)))
else:
    body = text[head[0] + 3:head[0] + 3 + len(groups)]
    for line, g in zip(body, groups):
        f = line.split()
        if int(f[0]) != g['findings'] or abs(float(f[1]) * 1e6 - g['lost_ns']) > 500:
            bad.append('text row %r for %s' % (line, g))

for b in bad[:5]:
    print('check-findings-by: %s --by %s: %s' % (rec, by, b), file=sys.stderr)
print('%s --by %s: %d groups of %d findings, %d of no process' %
      (rec, by, len(groups), len(plain), none))
sys.exit(1 if bad else 0)
