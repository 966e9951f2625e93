#!/usr/bin/env python3
"""check-arm.py - check the ARM recordings of tests/arm/qemu-arm.sh (and of
tests/arm/compat-i386.sh) against what the guest knows: the writer's own
report of its calls and bytes, /proc/diskstats before and after, and the
kind of kernel, userland and iorec of each case.

Every check is one line, "ok" or "FAIL", printing what was observed
against the truth.  To add a check, add a line to check_case() with
want(): nothing else needs to change.
"""
import argparse
import json
import os
import re
import subprocess
import sys

# name: kernel ABI, userland ABI, iorec ABI, mode, --names
CASES = {
    'a32':  ('arm', 'arm', 'arm', 'default', 'auto'),
    'a32r': ('arm', 'arm', 'arm', 'raw', 'auto'),
    'a32e': ('arm', 'arm', 'arm', 'default', 'eprobe'),
    'a32u': ('arm', 'arm', 'arm', 'default', 'uprobe'),
    'a64':  ('aarch64', 'aarch64', 'aarch64', 'default', 'auto'),
    'a64r': ('aarch64', 'aarch64', 'aarch64', 'raw', 'auto'),
    'a64e': ('aarch64', 'aarch64', 'aarch64', 'default', 'eprobe'),
    'a64u': ('aarch64', 'aarch64', 'aarch64', 'default', 'uprobe'),
    'c64':  ('aarch64', 'arm', 'aarch64', 'default', 'auto'),
    'c64r': ('aarch64', 'arm', 'aarch64', 'raw', 'auto'),
    'c32':  ('aarch64', 'arm', 'arm', 'default', 'auto'),
    'c32r': ('aarch64', 'arm', 'arm', 'raw', 'auto'),
    'i32':  ('x86_64', 'i386', 'x86_64', 'default', 'auto'),
    'i32r': ('x86_64', 'i386', 'x86_64', 'raw', 'auto'),
}

# syscall numbers the writer's calls have in each ABI (iorec's record/abi.c
# says the same; tests/test-systab.sh checks both against kernel headers)
NR = {
    'arm':     {'read': 3, 'write': 4, 'close': 6, 'openat': 322,
                'pwrite64': 181, 'writev': 146, 'fsync': 118,
                'fdatasync': 148},
    'i386':    {'read': 3, 'write': 4, 'close': 6, 'openat': 295,
                'pwrite64': 181, 'writev': 146, 'fsync': 118,
                'fdatasync': 148},
    'aarch64': {'read': 63, 'write': 64, 'close': 57, 'openat': 56,
                'pwrite64': 68, 'writev': 66, 'fsync': 82, 'fdatasync': 83},
    'x86_64':  {'read': 0, 'write': 1, 'close': 3, 'openat': 257,
                'pwrite64': 18, 'writev': 20, 'fsync': 74, 'fdatasync': 75},
}

MACHINE = {'arm': ('armv7l',), 'aarch64': ('aarch64', 'armv8l'),
           'x86_64': ('x86_64',)}

# per file: calls and bytes the writer makes (tests/arm/writer.c)
DIRECT = (16, 16 * 65536)
BUFFERED = (32, 32 * 16384)
SMALL = (50, 50 * 200)


class Checker:
    def __init__(self):
        self.fails = 0
        self.oks = 0

    def want(self, case, what, expected, got):
        """One check: expected is the value, or a predicate on got."""
        good = expected(got) if callable(expected) else got == expected
        exp = 'as described' if callable(expected) else repr(expected)
        if good:
            self.oks += 1
            print(f'  ok      {case}: {what}: {got!r}')
        else:
            self.fails += 1
            print(f'  FAIL    {case}: {what}: got {got!r}, expected {exp}')
        return good


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, errors="replace")
    if p.returncode:
        raise RuntimeError(f'{" ".join(cmd)}: exit {p.returncode}: {p.stderr.strip()}')
    return p.stdout


def ioreport_json(ioreport, view, path):
    return json.loads(run([ioreport, view, '--json', path]))


def diskstats(path, dev):
    """sectors read, sectors written of dev in a /proc/diskstats copy."""
    with open(path) as f:
        for line in f:
            fld = line.split()
            if len(fld) > 9 and fld[2] == dev:
                return int(fld[5]), int(fld[9])
    return None


def writer_report(path):
    """{'pid': N, 'direct': (calls, bytes), ...} from the writer's stdout."""
    rep = {}
    with open(path) as f:
        for line in f:
            m = re.match(r'writer: (\d+) (\S+) (\w+) (\d+) bytes (\d+)', line)
            if not m:
                continue
            rep['pid'] = int(m.group(1))
            kind = os.path.basename(m.group(2)).split('-')[-1].split('.')[0]
            rep.setdefault(kind, {})[m.group(3)] = (int(m.group(4)),
                                                     int(m.group(5)))
            rep.setdefault('paths', {})[kind] = m.group(2)
    return rep


DUMP_RE = re.compile(r'^\s*(.*)-(\d+)\s+\[(\d+)\]\s+(\d+\.\d+):\s+(\S+):\s*(.*)$')


def parse_dump(text):
    """(comm, pid, cpu, ts, event, rest) per event line."""
    out = []
    for line in text.splitlines():
        m = DUMP_RE.match(line)
        if m:
            out.append((m.group(1), int(m.group(2)), int(m.group(3)),
                        m.group(4), m.group(5).rstrip(':'), m.group(6)))
    return out


def raw_enters(events, pids):
    """raw_syscalls:sys_enter ids of pids, with whether a syscalls:* twin
    came with each: the rule of iorec(5), COMPAT TASKS: the sys_enter-type
    event just before it in the same thread's stream, on the same CPU, is
    a syscalls:sys_enter_* event not twinned yet (both fire from one
    tracepoint hit, the syscalls:* probe first)."""
    per = {}
    res = []
    for i, e in enumerate(events):
        if e[4] == 'sys_enter' or e[4].startswith('sys_enter_'):
            per.setdefault(e[1], []).append(i)
    for pid, idx in per.items():
        if pids is not None and pid not in pids:
            continue
        used = set()
        for k, i in enumerate(idx):
            comm, _, cpu, ts, ev, rest = events[i]
            if ev != 'sys_enter':
                continue
            m = re.match(r'NR (\d+)', rest)
            if not m:
                continue
            # the first of its thread: the twin may predate tracing_on
            twin = None if k == 0 else False
            if k > 0 and k - 1 not in used:
                e2 = events[idx[k - 1]]
                if e2[4].startswith('sys_enter_') and e2[2] == cpu:
                    twin = True
                    used.add(k - 1)
            res.append((pid, int(m.group(1)), twin))
    return res


# at most this share of the workload device's bytes may stay unattributed
MAX_UNATTRIBUTED = 0.5


def check_case(c, name, d, args):
    kabi, uabi, iabi, mode, names = CASES[name]
    rec = os.path.join(d, name + '.iorec')
    print(f'{name}: {kabi} kernel, {uabi} userland, {iabi} iorec, {mode} mode, --names {names}')
    if not c.want(name, 'iorec exit status (the command\'s)', '0',
                  open(os.path.join(d, name + '.rc')).read().strip()):
        sys.stdout.write(open(os.path.join(d, name + '.err')).read())
        return {}
    w = writer_report(os.path.join(d, name + '.out'))
    c.want(name, 'writer report complete', True,
           all(k in w for k in ('pid', 'direct', 'buffered', 'small')))
    info = ioreport_json(args.ioreport, 'info', rec)
    hdr = info.get('header', {})
    c.want(name, 'integrity', 'complete', info.get('integrity', {}).get('status'))
    c.want(name, 'format version 1.1', (1, 1),
           (info.get('version_major'), info.get('version_minor')))
    c.want(name, 'header machine', lambda m: m in MACHINE[kabi], hdr.get('machine'))
    c.want(name, 'kernel long size', 4 if kabi == 'arm' else 8, info.get('long_size'))
    c.want(name, 'little-endian pages', False, info.get('big_endian'))
    c.want(name, 'header syscall_abi', kabi, hdr.get('syscall_abi'))
    c.want(name, 'header iorec_abi', iabi, hdr.get('iorec_abi'))
    compat = kabi in ('aarch64', 'x86_64')
    c.want(name, 'header compat_abi', {'aarch64': 'arm', 'x86_64': 'i386'}.get(kabi, ''),
           hdr.get('compat_abi'))
    c.want(name, 'header compat_syscalls',
           'none' if not compat else 'raw' if mode == 'raw' else 'shadow',
           hdr.get('compat_syscalls'))
    c.want(name, 'raw_syscalls flag', 1 if mode == 'raw' else 0, info.get('flags', 0) & 1)

    # device bytes against the guest's diskstats
    dev = args.loopdev
    if kabi != 'x86_64':
        dev = open(os.path.join(d, 'workdev')).read().strip()
    ds0 = diskstats(os.path.join(d, name + '.ds0'), dev)
    ds1 = diskstats(os.path.join(d, name + '.ds1'), dev)
    devs = ioreport_json(args.ioreport, 'devices', rec)
    got = {'read': 0, 'write': 0}
    for row in devs.get('devices', []):
        if row.get('device') == dev and row.get('op') in got:
            got[row['op']] += row.get('bytes', 0)
    if ds0 and ds1:
        c.want(name, f'{dev} write bytes = diskstats delta', (ds1[1] - ds0[1]) * 512, got['write'])
        c.want(name, f'{dev} read bytes = diskstats delta', (ds1[0] - ds0[0]) * 512, got['read'])
    else:
        c.want(name, f'{dev} in the diskstats copies', True, False)

    # the recorder's side, from the event stream itself
    dump = parse_dump(run([args.ioreport, 'dump', rec]))
    pid = w.get('pid')
    native = kabi == uabi
    counts = {}
    for comm, p, cpu, ts, ev, rest in dump:
        counts[ev] = counts.get(ev, 0) + 1
    summary = {'events': len(dump), 'raw_enter': counts.get('sys_enter', 0),
               'syscalls_enter': sum(v for k, v in counts.items() if k.startswith('sys_enter_'))}
    # the writer's own events: from its exec on (before it, the same pid
    # was the shell or iorec that forked it)
    t_exec = next((i for i, e in enumerate(dump) if e[1] == pid and e[4] == 'sched_process_exec'
                   and 'writer' in e[5]), 0)
    raws = raw_enters(dump, None)
    raws_after = raw_enters(dump[t_exec:], {pid})
    mine = [r for r in raws_after if r[0] == pid]
    if not native or mode == 'raw':
        nr = NR[uabi]
        for call, n in (('pwrite64', DIRECT[0]), ('writev', SMALL[0]),
                        ('fsync', 1), ('fdatasync', 1)):
            c.want(name, f'writer raw sys_enter NR {nr[call]} ({uabi} {call})', n,
                   sum(1 for r in mine if r[1] == nr[call]))
        c.want(name, f'writer raw sys_enter NR {nr["write"]} ({uabi} write) >= {BUFFERED[0]}',
               lambda x: x >= BUFFERED[0], sum(1 for r in mine if r[1] == nr['write']))
        c.want(name, f'writer raw sys_enter NR {nr["read"]} ({uabi} read) >= {BUFFERED[0]}',
               lambda x: x >= BUFFERED[0], sum(1 for r in mine if r[1] == nr['read']))
    if not native:
        c.want(name, 'no syscalls:* event from the 32-bit writer (the kernel skips compat tasks)',
               0, sum(1 for e in dump[t_exec:] if e[1] == pid and e[4].startswith('sys_enter_')))
    if mode == 'default' and compat and not native:
        c.want(name, 'every raw event of the 32-bit writer lacks a syscalls:* twin', 0,
               sum(1 for r in mine if r[2]))
    if mode == 'default' and compat:
        nat = [r for r in raws if r[0] != pid and r[2]]
        lone = [r for r in raws if r[0] != pid and r[2] is False]
        summary['raw_first_of_thread'] = sum(1 for r in raws if r[0] != pid and r[2] is None)
        # native threads: those with syscalls:* events since their last
        # exec (a compat task has none)
        last_exec = {}
        for i, e in enumerate(dump):
            if e[4] == 'sched_process_exec':
                last_exec[e[1]] = i
        native_pids = set(e[1] for i, e in enumerate(dump)
                          if e[4].startswith('sys_enter_') and i > last_exec.get(e[1], -1))
        lone = [r for r in raw_enters(dump, None) if r[0] != pid and r[2] is False]
        segs = {}
        for i, e in enumerate(dump):
            if e[1] in native_pids and i > last_exec.get(e[1], -1):
                segs.setdefault(e[1], []).append(e)
        lone_native = []
        for q, seg in segs.items():
            lone_native += [r for r in raw_enters(seg, {q}) if r[2] is False]
        # ids the recorder says have no twin (no marker, or a native call
        # whose enters it records in part: mmap, ioctl)
        unshadowed = set(int(x) for x in str(hdr.get('compat_unshadowed') or '').split(',')
                         if x.strip().isdigit())
        lone_native = [r for r in lone_native if r[1] not in unshadowed]
        c.want(name, 'every raw event of a native task has its syscalls:* twin (markers)', 0,
               len(lone_native))
        summary['raw_native_twinned'] = len(nat)
        summary['raw_without_twin'] = len(lone)
    # the writer's ABI, as recorded
    abi_lines = run([args.chunks, rec, 'exec_abi']).split('\n')
    snap = run([args.chunks, rec, 'snapshot'])
    summary['snapshot_abi_lines'] = sum(1 for l in snap.splitlines() if l.startswith('abi\t'))
    c.want(name, 'snapshot abi lines', lambda n: n > 0, summary['snapshot_abi_lines'])
    cmd_abi = [l.split('\t') for l in abi_lines if l.count('\t') == 3]
    c.want(name, 'exec ABI record of the command', {'arm': 'arm'}.get(uabi, uabi),
           cmd_abi[0][2] if cmd_abi else None)
    if compat and hdr.get('exec_abi_probes') == '1':
        ec = sum(1 for e in dump if e[4] == 'exec_compat')
        c.want(name, 'exec_compat kprobe fired (the 32-bit shell, the writer)',
               lambda n: n >= (2 if not native else 0), ec)
        summary['exec_compat'] = ec
        summary['exec_native'] = sum(1 for e in dump if e[4] == 'exec_native')

    # file names: which probe named the writer's files
    hints = {}
    for comm, p, cpu, ts, ev, rest in dump:
        m = re.search(r'path="([^"]*)"', rest)
        if m and f'/{name}/' in m.group(1):
            hints[ev] = hints.get(ev, 0) + 1
    summary['path_hints'] = hints
    src = hdr.get('name_sources', '')
    summary['name_sources'] = src
    expect_src = {'auto': 'kprobe,snapshot', 'eprobe': 'eprobe,snapshot',
                  'uprobe': 'uprobe,snapshot'}[names]
    if kabi == 'arm' and names == 'uprobe':
        expect_src = 'snapshot'          # Thumb-2 libc: the ARM kernel refuses
    if kabi == 'x86_64':
        expect_src = 'uprobe,snapshot'   # this machine: no kprobes, no eprobes
    err = open(os.path.join(d, name + '.err'), errors='replace').read()
    if names == 'eprobe' and "eprobe: this kernel's eprobes read no path" in err:
        # 6.1's eprobes fetch the path from a wrong address (empty):
        # iorec's own try of them says so, and does not use them
        expect_src = 'snapshot'
        summary['eprobe'] = 'read no path (refused)'
    elif names == 'eprobe':
        summary['eprobe'] = 'used'
    # the inodes that had I/O, named at the end (iorec runs as root, the
    # guests' kernels have the ext4 events)
    expect_src += ',inode'
    c.want(name, 'name sources', expect_src, src)
    if 'kprobe' in src or ('eprobe' in src and native) or ('uprobe' in src and native):
        c.want(name, 'path hints for the writer\'s 4 opens', lambda n: n >= 4,
               sum(hints.values()))

    # the analyzer: per file and per process
    try:
        files = ioreport_json(args.ioreport, 'files', rec)
        procs = ioreport_json(args.ioreport, 'processes', rec)
        reqs = ioreport_json(args.ioreport, 'snoop', rec)
    except RuntimeError as e:
        c.want(name, 'ioreport files/processes/snoop run', 'no error', str(e))
        return summary
    byname = {f.get('path'): f for f in files.get('files', []) if f.get('path')}
    tot = files.get('syscall_path_bytes', 0) + files.get('syscall_nopath_bytes', 0)
    summary['syscall_path_share'] = round(100.0 * files.get('syscall_path_bytes', 0) / tot, 1) if tot else None
    # the writer's opens are named when a name source reaches them: for
    # a 32-bit writer only the kprobe does (eprobes skip compat tasks,
    # iorec places no uprobes in a 32-bit C library); the files are named
    # anyway by the inodes their calls' events show, which the end
    # snapshot names (the inode source: iorec runs as root here)
    opens_named = expect_src != 'snapshot,inode' and (native or 'kprobe' in expect_src)
    named_ok = opens_named or 'inode' in src
    limits = [hdr.get(f'limit_{i}', '') for i in (1, 2, 3)]
    if not opens_named:
        c.want(name, 'a limit_ key says the writer\'s opens go unnamed (its files named by inode)',
               True, any('named only from the fd snapshots and inodes' in l and
                         (native or '32-bit' in l) for l in limits))
    mine_unnamed = [f for f in files.get('files', [])
                    if not f.get('path') and (f.get('name') or '').endswith(f' of pid {pid}>')]
    for kind, (n, b), call in (('direct', DIRECT, 'pwrite64'), ('buffered', BUFFERED, 'write'),
                               ('small', SMALL, 'writev')):
        path = w.get('paths', {}).get(kind)
        if named_ok:
            f = byname.get(path, {})
            c.want(name, f'file {kind}: writes, bytes', (n, b),
                   (f.get('writes'), f.get('write_bytes')))
        else:
            c.want(name, f'an unnamed file of the writer: {kind} writes, bytes', (n, b),
                   next(((f.get('writes'), f.get('write_bytes')) for f in mine_unnamed
                         if (f.get('writes'), f.get('write_bytes')) == (n, b)), None))
    if named_ok:
        f = byname.get(w.get('paths', {}).get('buffered'), {})
        c.want(name, 'file buffered: reads, bytes', BUFFERED,
               (f.get('reads'), f.get('read_bytes')))
        c.want(name, 'file buffered: fsync calls', 1, (f.get('fsync') or {}).get('count'))
    else:
        c.want(name, 'an unnamed file of the writer: buffered reads, bytes', BUFFERED,
               next(((f.get('reads'), f.get('read_bytes')) for f in mine_unnamed
                     if (f.get('reads'), f.get('read_bytes')) == BUFFERED), None))
        c.want(name, 'an unnamed file of the writer: buffered writes with 1 fsync', True,
               any(f.get('writes') == BUFFERED[0] and (f.get('fsync') or {}).get('count') == 1
                   for f in mine_unnamed))
    p = next((x for x in procs.get('processes', []) if x.get('pid') == pid), {})
    sc = p.get('syscalls', {})
    outsize = os.path.getsize(os.path.join(d, name + '.out'))
    c.want(name, 'process: write bytes (files + its stdout)',
           DIRECT[1] + BUFFERED[1] + SMALL[1] + outsize, p.get('write_bytes'))
    for call, n in (('pwrite64', DIRECT[0]), ('writev', SMALL[0]), ('fsync', 1),
                    ('fdatasync', 1)):
        c.want(name, f'process: {call} calls', n, (sc.get(call) or {}).get('count'))
    c.want(name, 'process: read bytes >= the read-back', lambda x: (x or 0) >= BUFFERED[1],
           p.get('read_bytes'))
    att = files.get('attribution') or {}
    summary['attribution'] = att
    # block I/O of the workload's device keeps its owner (split requests too)
    dbytes = unatt = meta = 0
    for r in reqs.get('requests', []):
        if r.get('device', r.get('name')) != dev or r.get('op') not in ('read', 'write'):
            continue
        dbytes += r.get('bytes', 0)
        kind = (r.get('owner') or {}).get('kind', 'unattributed')
        if kind == 'unattributed':
            unatt += r.get('bytes', 0)
        elif kind == 'metadata':
            meta += r.get('bytes', 0)
    share = round(100.0 * unatt / dbytes, 2) if dbytes else None
    summary['device'] = {'name': dev, 'bytes': dbytes, 'unattributed': unatt,
                         'unattributed_pct': share, 'metadata': meta}
    c.want(name, f'{dev}: unattributed share of the device bytes (%) <= {MAX_UNATTRIBUTED}',
           lambda x: x is not None and x <= MAX_UNATTRIBUTED, share)
    return summary


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--ioreport', required=True)
    ap.add_argument('--chunks', required=True)
    ap.add_argument('--out', required=True, help='the folder with out-armhf/ and out-arm64/')
    ap.add_argument('--cases', help='comma list (default: all found)')
    ap.add_argument('--loopdev', default='', help='the x86 test\'s device name')
    ap.add_argument('--headers', default='')
    args = ap.parse_args()
    c = Checker()
    summaries = {}
    dirs = []
    for sub in ('out-armhf', 'out-arm64', 'out-x86'):
        for dd in (os.path.join(args.out, sub, 'rec'), os.path.join(args.out, sub)):
            if os.path.isdir(dd):
                dirs.append(dd)
                break
    want = args.cases.split(',') if args.cases else None
    for d in dirs:
        for name in sorted(CASES):
            if want and name not in want:
                continue
            if not os.path.exists(os.path.join(d, name + '.iorec')):
                continue
            try:
                summaries[name] = check_case(c, name, d, args)
            except (RuntimeError, OSError, ValueError) as e:
                c.want(name, 'checks ran', 'no error', str(e))
        for f in sorted(os.listdir(d)):
            if f.endswith('.check'):
                rc = open(os.path.join(d, f + '.rc')).read().strip()
                print(f'--- iorec --check ({f[:-6]}), exit {rc}')
                sys.stdout.write(open(os.path.join(d, f)).read())
                c.want(f[:-6], 'iorec --check exit status', '0', rc)
    if want:
        for name in want:
            if name not in summaries:
                c.want(name, 'recording present', True, False)
    print('summary per case:')
    for name, s in sorted(summaries.items()):
        print(f'  {name}: {json.dumps(s, sort_keys=True)}')
    print(f'{c.oks} ok, {c.fails} failed')
    return 1 if c.fails else 0


if __name__ == '__main__':
    sys.exit(main())
