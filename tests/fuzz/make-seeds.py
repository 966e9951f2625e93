#!/usr/bin/env python3
"""make-seeds.py - derive the small seed inputs of the fuzz targets from the
real recordings in samples/ (run from the top of the tree; writes into
tests/fuzz/corpus/).  Small inputs keep the fuzzers fast: a few pages per
CPU, only the event formats those pages use, texts cut to a few lines.

  python3 tests/fuzz/make-seeds.py

Needs the zstd command to (de)compress chunk bodies."""
import os, struct, subprocess, sys, tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import iorecfile
from iorecfile import DATA, FORMAT

def unzstd(b):
    return subprocess.run(['zstd', '-dcq'], input=b, check=True,
                          capture_output=True).stdout

def zstd(b):
    # a file, so that the frame header carries the content size
    with tempfile.NamedTemporaryFile() as f:
        f.write(b); f.flush()
        return subprocess.run(['zstd', '-3', '-cq', f.name], check=True,
                              capture_output=True).stdout

def chunks(path):
    """(type, payload decompressed) of every chunk of an .iorec file"""
    src, out = open(path, 'rb').read(), []
    for off, typ, flags, _, _, _ in iorecfile.chunks(src):
        p = iorecfile.payload(src, off)
        pre = 32 if typ == DATA else 0
        if flags & iorecfile.COMPRESSED:
            p = p[:pre] + unzstd(p[pre:])
        out.append((typ, p))
    return out

def page_ids(page, lsize):
    """event type ids (common_type, u16 LE) of the events of one page"""
    commit = int.from_bytes(page[8:8 + lsize], 'little') & ((1 << 27) - 1)
    p, end, ids = 8 + lsize, 8 + lsize + commit, set()
    while p + 4 <= end:
        w = struct.unpack_from('<I', page, p)[0]
        tl = w & 31
        if tl == 29:
            if p + 8 > end: break
            p += 4 + struct.unpack_from('<I', page, p + 4)[0]
            continue
        if tl in (30, 31):
            p += 8
            continue
        if tl == 0:
            if p + 8 > end: break
            ln = struct.unpack_from('<I', page, p + 4)[0] - 4
            d = p + 8
        else:
            ln = tl * 4
            d = p + 4
        if ln < 2 or d + ln > end: break
        ids.add(struct.unpack_from('<H', page, d)[0])
        p = d + ln
    return ids

def format_id(text):
    for line in text.split(b'\n'):
        if line.startswith(b'ID: '):
            return int(line[4:])
    return -1

def encode(cs, compress):
    out = []
    for typ, p in cs:
        pre = 32 if typ == DATA else 0
        raw, flags = len(p), 0
        if compress and typ != iorecfile.HEADER and len(p) > pre + 64:
            p = p[:pre] + zstd(p[pre:])
            flags = iorecfile.COMPRESSED
        out.append((typ, flags, p, raw))
    return iorecfile.encode(out)

def shrink(path, pages, per_cpu, lines, compress):
    cs = chunks(path)
    lsize = cs[0][1][1]
    subbuf = struct.unpack_from('<I', cs[0][1], 8)[0]
    kept, ids, taken = [], set(), {}
    for typ, p in cs:
        if typ == DATA:
            cpu, npages = struct.unpack_from('<II', p, 0)
            if taken.get(cpu, 0) >= per_cpu:
                continue
            taken[cpu] = taken.get(cpu, 0) + 1
            n = min(pages, npages)
            body = p[32:32 + n * subbuf]
            for i in range(n):
                ids |= page_ids(body[i * subbuf:(i + 1) * subbuf], lsize)
            p = p[:4] + struct.pack('<I', n) + p[8:32] + body
        elif typ in (5, 7, 11):		# snapshot, cmdlines, printk
            head = p[:8] if typ == 5 else b''
            p = head + b'\n'.join(p[len(head):].split(b'\n')[:lines]) + b'\n'
        kept.append((typ, p))
    kept = [(t, p) for t, p in kept
            if t != FORMAT or format_id(p[p.index(b'\0') + 1:]) in ids]
    return encode(kept, compress), kept

def main():
    top = 'tests/fuzz/corpus'
    for d in ('iorec', 'formats', 'reader'):
        os.makedirs(os.path.join(top, d), exist_ok=True)
    samples = ['rawsyscalls', 'story000-sqlite-before', 'story001-barrier',
               'story002-dirty-default']
    for s in samples:
        path = 'samples/%s.iorec' % s
        for pages, per_cpu, comp in ((2, 1, False), (4, 2, True)):
            b, kept = shrink(path, pages, per_cpu, 8, comp)
            name = '%s-%dp%s.iorec' % (s, pages, '-zstd' if comp else '')
            open(os.path.join(top, 'iorec', name), 'wb').write(b)
        # the format texts of the pages kept, NUL-separated
        fmts = [p for t, p in kept if t == FORMAT]
        hp = [p for t, p in kept if t == 2]
        blob = b''.join(p + b'\0' for p in fmts)
        open(os.path.join(top, 'formats', s + '.fmt'), 'wb').write(blob)
        if hp:
            blob = b'@header_page\0' + hp[0] + b'\0' + blob
            open(os.path.join(top, 'formats', s + '-hp.fmt'), 'wb').write(blob)
    # the template the formats target puts its input into: pages of
    # rawsyscalls with every format left out
    b, kept = shrink('samples/rawsyscalls.iorec', 8, 1, 64, False)
    kept = [(t, p) for t, p in kept if t != FORMAT]
    open('tests/fuzz/formats-template.iorec', 'wb').write(encode(kept, False))
    # the reader's seeds: a compressed and a raw small recording
    for name in ('rawsyscalls-2p.iorec', 'story000-sqlite-before-4p-zstd.iorec'):
        b = open(os.path.join(top, 'iorec', name), 'rb').read()
        open(os.path.join(top, 'reader', name), 'wb').write(b)

if __name__ == '__main__':
    main()
