#!/usr/bin/env python3
"""make-schemas.py IOREPORT OUTDIR SAMPLE... - write the JSON Schema of every
ioreport view (OUTDIR/VIEW.schema.json) from its --json output on the
samples: the keys every sample has are required, no other key is allowed,
and the shapes every view shares (the integrity object, the latency object
and histogram, a device reference) are references into common.schema.json.

It is how the schemas were first written; after a change to a view's JSON,
rerun it (`make json-schemas`), read the diff of docs/json/ and raise
schema_version (sink/json.h) when a key was renamed or removed."""
import json, os, subprocess, sys

VIEWS = ['report', 'summary', 'devices', 'slow', 'snoop', 'processes',
         'files', 'wa', 'fsync', 'dirty', 'info', 'diff', 'findings']
LAT = {'count', 'sum_ns', 'avg_ns', 'min_ns', 'max_ns', 'p50_ns', 'p90_ns',
       'p99_ns', 'p999_ns'}
# objects whose keys are names (syscalls, sysctls, header lines, metrics)
MAPS = {'.processes[].syscalls', '.summary.config.sysctl',
        '.summary.config.sysctl.vm', '.header', '.end',
        '.sections.summary[].metrics', '.sections.devices[].metrics',
        '.sections.write_amplification[].metrics',
        '.sections.fsync[].metrics', '.sections.processes[].metrics',
        '.sections.files[].metrics', '.sections.dirty[].metrics',
        '.sections.config[].metrics', '.event_types'}
COMMON = 'common.schema.json#/$defs/'


def jtype(v):
    if v is None:
        return 'null'
    if isinstance(v, bool):
        return 'boolean'
    if isinstance(v, int):
        return 'integer'
    if isinstance(v, float):
        return 'number'
    if isinstance(v, str):
        return 'string'
    if isinstance(v, list):
        return 'array'
    return 'object'


def merge(values, path):
    """The schema of every value in values, found at path."""
    if path.endswith('.integrity'):
        return {'$ref': COMMON + 'integrity'}
    if path in ('.filter', '.filter_after'):
        return {'anyOf': [{'$ref': COMMON + 'filter'}, {'type': 'null'}]}
    if path == '.schema_version':
        return {'const': values[0]}
    if path.endswith('await_ns'):
        # null when the device had no request of the kind
        return {'type': ['null', 'number']}
    types = {jtype(v) for v in values}
    objs = [v for v in values if isinstance(v, dict)]
    if objs and all(LAT <= set(o) for o in objs):
        ref = COMMON + ('histogram' if all('buckets' in o for o in objs)
                        else 'latency')
        return {'$ref': ref} if types == {'object'} else \
            {'anyOf': [{'$ref': ref}, {'type': 'null'}]}
    s = {}
    if 'integer' in types and 'number' in types:
        types.discard('integer')
    s['type'] = sorted(types)[0] if len(types) == 1 else sorted(types)
    if objs:
        if path in MAPS:
            s['additionalProperties'] = merge(
                [x for o in objs for x in o.values()], path + '.*')
        else:
            keys = []
            for o in objs:
                keys += [k for k in o if k not in keys]
            s['properties'] = {k: merge([o[k] for o in objs if k in o],
                                        path + '.' + k) for k in keys}
            s['required'] = [k for k in keys if all(k in o for o in objs)]
            s['additionalProperties'] = False
    arrs = [v for v in values if isinstance(v, list)]
    if arrs:
        items = [x for a in arrs for x in a]
        if items:
            s['items'] = merge(items, path + '[]')
    return s


def main():
    ioreport, out, samples = sys.argv[1], sys.argv[2], sys.argv[3:]
    pairs = [(a, b) for a, b in zip(samples, samples[1:])
             if os.path.basename(a).split('-')[0] ==
             os.path.basename(b).split('-')[0]]
    for view in VIEWS:
        docs = []
        runs = [[view, '--json', s] for s in samples] if view != 'diff' else \
            [['diff', '--json', a, b] for a, b in pairs]
        if view in ('devices', 'processes'):
            runs += [[view, '--json', '--interval', '0.25', s] for s in samples]
        for args in runs:
            r = subprocess.run([ioreport] + args, capture_output=True)
            if r.returncode == 0:
                docs.append(json.loads(r.stdout))
        s = merge(docs, '')
        s = dict([('$schema', 'https://json-schema.org/draft/2020-12/schema'),
                  ('$id', view + '.schema.json'),
                  ('title', 'ioreport %s --json' % view)] + list(s.items()))
        with open(os.path.join(out, view + '.schema.json'), 'w') as f:
            json.dump(s, f, indent=1)
            f.write('\n')


main()
