"""findings-query.py - a Python expression over the findings of
'ioreport findings --json', the query test-findings.sh and the live
report-findings-rules.sh check the findings with.

usage: python3 tests/findings-query.py FILE EXPR

EXPR sees f (the findings, in order), re, r (rule -> its findings),
names(x, kind) (the names of finding x's entities of that kind) and
one(rule, kind=name, ...) (the first finding of the rule naming all those
entities, or None).  When EXPR is true, its value is printed (a finding:
its sentence) and the exit status is 0; when false, every finding is
listed on stderr, to show what was found instead, and the status is 1.
"""
import json
import re
import sys

f = json.load(open(sys.argv[1]))['findings']
r = {}
for x in f:
    r.setdefault(x['rule'], []).append(x)


def names(x, kind):
    return [e['name'] for e in x['entities'] if e['kind'] == kind]


def one(rule, **ent):
    for x in r.get(rule, []):
        if all(v in names(x, k) for k, v in ent.items()):
            return x
    return None


v = eval(sys.argv[2])
if not v:
    for x in f:
        print('  ', x['rule'], x['sentence'], file=sys.stderr)
    sys.exit(1)
print(v if isinstance(v, str) else v['sentence'] if isinstance(v, dict) else v)
