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
# the anomaly counters: which there are depends on what the recording
# holds (io_uring's only with io_uring events), so any name is allowed
COUNTERS = ('.anomalies', '.anomalies.block', '.anomalies.syscalls')
# keys no sample has, yet real recordings do (a live test checks them)
OPTIONAL = {
    '.files[]': {'other_names': {'type': 'string'}, 'unlinked': {'type': 'boolean'}},
    # processes and files: what the recording could not hold
    '': {'limits': {'type': 'array', 'items': {'type': 'string'}}},
}


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


# members no sample has (they are null there): their shapes, written here
NULLABLE = {
    # findings: what made a black-box snapshot (null: no snapshot)
    '.trigger': {'type': 'object', 'properties': dict(
        [(k, {'type': 'string'}) for k in ('snapshot', 'sentence')] +
        [(k, {'type': ['string', 'null']}) for k in (
            'condition', 'comm', 'detail', 'syscall', 'dev', 'device',
            'path')] +
        [('snapshot_ns', {'type': 'integer'}),
         ('found', {'type': 'boolean'})] +
        [(k, {'type': ['integer', 'null']}) for k in (
            'start_ns', 'end_ns', 'value_ns', 'recorded_value_ns', 'pid',
            'fd', 'sector', 'bytes', 'before_ns', 'after_ns')]),
        'required': ['snapshot', 'snapshot_ns', 'condition', 'start_ns',
                     'end_ns', 'value_ns', 'recorded_value_ns', 'pid',
                     'comm', 'detail', 'syscall', 'fd', 'dev', 'device',
                     'sector', 'bytes', 'found', 'path', 'before_ns',
                     'after_ns', 'sentence'],
        'additionalProperties': False},
    # info: the files of a rotated set read as one recording
    '.rotation': {'type': 'array', 'items': {
        'type': 'object',
        'properties': {
            'path': {'type': 'string'}, 'index': {'type': 'integer'},
            'file_bytes': {'type': 'integer'},
            'chunks': {'type': 'integer'},
            'first_ts_ns': {'type': 'integer'},
            'last_ts_ns': {'type': 'integer'}, 'end': {'type': 'boolean'},
            'missing_before': {'type': 'integer'},
            'gap_ns': {'type': 'integer'}, 'overlap_ns': {'type': 'integer'}},
        'required': ['path', 'index', 'file_bytes', 'chunks', 'first_ts_ns',
                     'last_ts_ns', 'end', 'missing_before', 'gap_ns',
                     'overlap_ns'],
        'additionalProperties': False}},
}


def merge(values, path):
    """The schema of every value in values, found at path."""
    if path in NULLABLE and all(v is None for v in values):
        return {'anyOf': [NULLABLE[path], {'type': 'null'}]}
    if path.endswith('.integrity'):
        return {'$ref': COMMON + 'integrity'}
    if path in COUNTERS:
        sub = {k for o in values if isinstance(o, dict) for k, v in o.items()
               if isinstance(v, dict)}
        s = {'type': 'object', 'additionalProperties': {'type': 'integer'}}
        if sub:
            s['properties'] = {k: merge([o[k] for o in values if k in o],
                                        path + '.' + k) for k in sorted(sub)}
        return s
    if path.endswith('_per_s'):
        # a rate: whole in some recordings, not in others
        return {'type': 'number'}
    if path.endswith('first_gap_ts_ns'):
        return {'type': ['integer', 'null']}
    if path.endswith('.lost.spans'):
        # no sample lost events: the shape is written by hand
        return {'type': 'array', 'items': {'$ref': COMMON + 'lost_span'}}
    if path in ('.filter', '.filter_after'):
        return {'anyOf': [{'$ref': COMMON + 'filter'}, {'type': 'null'}]}
    if path == '.schema_version':
        return {'const': values[0]}
    if path.endswith(('].unit', '].container', '].cgroup')):
        # a process's unit, container and cgroup: null when none
        return {'type': ['null', 'string']}
    if path.endswith('await_ns'):
        # null when the device had no request of the kind
        return {'type': ['null', 'number']}
    if '.btt[].' in path and (path.endswith('_share') or
                              path.endswith('mean_sectors')):
        # a share of nothing (no Q2C, no seek) is null
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
            for k, v in OPTIONAL.get(path, {}).items():
                s['properties'].setdefault(k, v)
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
        if view in ('processes', 'files', 'wa', 'fsync', 'findings'):
            runs += [[view, '--json', '--by', by, s] for s in samples
                     for by in ('unit', 'container', 'cgroup')]
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
