#!/usr/bin/env python3
# check-perfetto.py - an `ioreport export --perfetto` file against the
# events of the recording it was made from (`ioreport dump --json --raw`)
# and the request counts of `ioreport devices --json`.
#
# usage: check-perfetto.py TRACE.json DUMP.json DEVICES.json
#
# Structure: a JSON object with traceEvents, displayTimeUnit "ns" and
# metadata (the source, and for an .iorec the wall clock:
# start_realtime_ns and start_mono_ns as its header has them); every event has
# ph, name, pid, tid; every thread with a slice has a thread_name and
# its process a process_name; each device is a process "block device
# NAME".
# Syscalls: for the file syscalls of the io profile, the slices on each
# thread are exactly the enter -> exit pairs of the dump (same thread,
# same name, ts = the enter's ns, dur = exit - enter), none missing,
# none added.
# Requests: per device and operation as many slices as `devices`
# counts; each one's "device" phase runs from a block_rq_issue to a
# block_rq_complete of the same sector, its "queue" phase (when there)
# from a block_rq_insert of that sector to that issue; the phases lie
# inside their request and requests on one lane never overlap.
# Counters: one "dirty pages" sample per 100 ms slot holding a
# global_dirty_state event, with that slot's last nr_dirty and
# nr_writeback.
# Prints what it checked; exits 1 naming the first difference.
import collections
import json
import re
import sys

CALLS = {'read', 'write', 'pread64', 'pwrite64', 'readv', 'writev',
         'openat', 'close', 'fsync', 'fdatasync'}
SLOT = 100000000


def fail(msg):
    print('FAIL: ' + msg, file=sys.stderr)
    sys.exit(1)


def us(v):
    # "5298944977.733" microseconds (3 decimals) -> ns, exactly
    s = repr(v) if isinstance(v, float) else str(v)
    whole, _, frac = s.partition('.')
    return int(whole) * 1000 + int((frac + '000')[:3])


def fields(f):
    """dump --json --raw's fields: an object of typed values"""
    return f


def main(trace_path, dump_path, dev_path):
    # the raw text of ts and dur, not floats: parse numbers as strings
    t = json.load(open(trace_path), parse_float=str)
    dump = json.load(open(dump_path))['events']
    devs = json.load(open(dev_path))['devices']
    for k in ('traceEvents', 'displayTimeUnit', 'metadata'):
        if k not in t:
            fail('no "%s" member' % k)
    if t['displayTimeUnit'] != 'ns':
        fail('displayTimeUnit is %r' % t['displayTimeUnit'])
    md = t['metadata']
    # the wall clock is in an .iorec's header (trace-cmd stores none
    # without --date)
    need = ['source', 'format']
    if md.get('format') == 'iorec':
        need += ['start_realtime_ns', 'start_mono_ns', 'wall_clock']
    for k in need:
        if k not in md:
            fail('metadata without %s: %s' % (k, sorted(md)))
    ev = t['traceEvents']
    for e in ev:
        for k in ('ph', 'name', 'pid', 'tid'):
            if k not in e:
                fail('an event without %s: %s' % (k, e))

    pnames = {e['pid']: e['args']['name'] for e in ev
              if e['ph'] == 'M' and e['name'] == 'process_name'}
    tnames = {(e['pid'], e['tid']) for e in ev
              if e['ph'] == 'M' and e['name'] == 'thread_name'}
    sl = [e for e in ev if e['ph'] == 'X']
    for e in sl:
        if (e['pid'], e['tid']) not in tnames:
            fail('no thread_name for the track of %s' % e)
        if e['pid'] not in pnames:
            fail('no process_name for pid %d' % e['pid'])

    # syscalls: the enter -> exit pairs of the dump
    truth = collections.Counter()
    open_ = {}
    for d in dump:
        if d.get('system') != 'syscalls':
            continue
        m = re.match(r'sys_(enter|exit)_(\w+)$', d['event'])
        if not m or m.group(2) not in CALLS:
            continue
        key = (d['pid'], m.group(2))
        if m.group(1) == 'enter':
            open_[key] = d['ts_ns']
        elif key in open_:
            a = open_.pop(key)
            truth[(d['pid'], m.group(2), a, d['ts_ns'] - a)] += 1
    got = collections.Counter()
    for e in sl:
        if e.get('cat') == 'syscall' and e['name'] in CALLS:
            got[(e['tid'], e['name'], us(e['ts']), us(e['dur']))] += 1
    if truth != got:
        miss = list((truth - got).elements())[:3]
        extra = list((got - truth).elements())[:3]
        fail('syscall slices differ from the dump\'s enter/exit pairs: '
             'missing %s, extra %s' % (miss, extra))
    if not truth:
        fail('the recording has no file syscall to check')

    # requests
    issue = collections.defaultdict(set)
    complete = collections.defaultdict(set)
    insert = collections.defaultdict(set)
    for d in dump:
        if d.get('system') != 'block':
            continue
        f = fields(d['fields'])
        if 'sector' not in f:
            continue
        key = (int(f['dev']), int(f['sector']))
        if d['event'] == 'block_rq_issue':
            issue[key].add(d['ts_ns'])
        elif d['event'] == 'block_rq_complete':
            complete[key].add(d['ts_ns'])
        elif d['event'] == 'block_rq_insert':
            insert[key].add(d['ts_ns'])
    byname = {}
    for dv in devs:
        byname[(dv.get('device', dv.get('name')), dv['op'])] = dv['requests']
    devpid = {p: n[len('block device '):] for p, n in pnames.items()
              if n.startswith('block device ')}
    rq = [e for e in sl if e.get('cat') == 'block'
          and e['name'] not in ('queue', 'device')]
    count = collections.Counter((devpid.get(e['pid']), e['name']) for e in rq)
    if dict(count) != byname:
        fail('requests per device and op %s, devices says %s' %
             (dict(count), byname))
    # the phases of a request on its lane: the device phase ends with
    # it, the queue phase starts with it
    devph = collections.defaultdict(list)
    queueph = collections.defaultdict(list)
    for e in sl:
        if e.get('cat') == 'block' and e['name'] == 'device':
            devph[(e['pid'], e['tid'], us(e['ts']) + us(e['dur']))].append(e)
        elif e.get('cat') == 'block' and e['name'] == 'queue':
            queueph[(e['pid'], e['tid'], us(e['ts']))].append(e)
    done_at = collections.defaultdict(set)	# (sector, ts) -> devs
    for (dv, sec), tss in complete.items():
        for ts in tss:
            done_at[(sec, ts)].add(dv)
    lanes = collections.defaultdict(list)
    checked = 0
    for e in rq:
        a, b = us(e['ts']), us(e['ts']) + us(e['dur'])
        lanes[(e['pid'], e['tid'])].append((a, b))
        dev = [p for p in devph[(e['pid'], e['tid'], b)] if us(p['ts']) >= a]
        if len(dev) != 1:
            fail('request %s has %d device phases ending with it' % (e, len(dev)))
        sector = e['args']['sector']
        # a flush completes as sector -1
        devs = done_at[(sector, b)] | done_at[(2**64 - 1, b)]
        if not devs:
            fail('request %s: no block_rq_complete of sector %d at %d' % (e, sector, b))
        i = us(dev[0]['ts'])
        if not any(i in issue[(dv, sector)] for dv in devs):
            fail('request %s: its device phase starts at %d, no block_rq_issue of that sector then' % (e, i))
        q = queueph[(e['pid'], e['tid'], a)]
        if 'queue_us' in e['args']:
            if len(q) != 1 or us(q[0]['ts']) + us(q[0]['dur']) != i:
                fail('request %s: no queue phase from its start to its issue' % e)
            if not any(a in insert[(dv, sector)] for dv in devs):
                fail('request %s: its queue phase starts where no block_rq_insert of that sector is' % e)
        checked += 1
    for k, v in lanes.items():
        v.sort()
        for (a1, b1), (a2, b2) in zip(v, v[1:]):
            if a2 < b1:
                fail('requests overlap on lane %s: [%d, %d] and [%d, %d]' % (k, a1, b1, a2, b2))

    # counters
    gds = [d for d in dump if d.get('event') == 'global_dirty_state']
    want = {}
    if gds:
        t0 = dump[0]['ts_ns'] - dump[0]['ts_ns'] % SLOT
        for d in gds:
            f = fields(d['fields'])
            want[(d['ts_ns'] - t0) // SLOT * SLOT + t0] = (
                int(f['nr_dirty']), int(f['nr_writeback']))
    have = {us(e['ts']): (e['args']['dirty'], e['args']['writeback'])
            for e in ev if e['ph'] == 'C' and e['name'] == 'dirty pages'}
    if want != have:
        fail('dirty counters %s differ from the global_dirty_state samples %s'
             % (sorted(have.items())[:3], sorted(want.items())[:3]))
    print('%d syscall slices = the dump\'s pairs, %d requests = devices\' '
          'counts with their phases on issue/complete of their sector, '
          '%d lanes, %d dirty samples, %d threads named' %
          (sum(got.values()), checked, len(lanes), len(have), len(tnames)))


main(*sys.argv[1:])
