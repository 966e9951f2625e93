#!/usr/bin/env python3
"""shrink-tracedat.py IN OUT - rewrite an uncompressed trace.dat of file
version 6 (little-endian) without kallsyms, with at most 16 lines of
printk formats and 64 of saved cmdlines, and only the event formats whose ids its pages use, for
small fuzz seeds (make-tracedat-seeds.sh)."""
import struct, sys

b = open(sys.argv[1], 'rb').read()
assert b[:10] == b'\x17\x08Dtracing' and b[10:12] == b'6\0' and b[12] == 0
lsize, page = b[13], struct.unpack_from('<I', b, 14)[0]
p = 18

def take(n):
    global p
    v = b[p:p + n]; p += n
    return v
def u32(): return struct.unpack('<I', take(4))[0]
def u64(): return struct.unpack('<Q', take(8))[0]
def cstr():
    global p
    e = b.index(b'\0', p); v = b[p:e]; p = e + 1
    return v

assert take(12) == b'header_page\0'; hp = take(u64())
assert take(13) == b'header_event\0'; he = take(u64())
ftrace = [take(u64()) for _ in range(u32())]
systems = []
for _ in range(u32()):
    name = cstr()
    systems.append((name, [take(u64()) for _ in range(u32())]))
kallsyms = take(u32())
printk = take(u32())
cmdlines = take(u64())
ncpus = u32()
rest = b[p:]
mark = take(10)
opts = b''
if mark == b'options  \0':
    q = p
    while True:
        oid = struct.unpack('<H', take(2))[0]
        if oid == 0:
            break
        take(u32())
    opts = b[q:p]
    mark = take(10)
assert mark == b'flyrecord\0'
cpus = [(u64(), u64()) for _ in range(ncpus)]
data = [b[o:o + s] for o, s in cpus]

# the event ids of the pages (every event starts with a u16 common_type)
ids = set()
for d in data:
    for pg in range(0, len(d), page):
        x = d[pg:pg + page]
        commit = int.from_bytes(x[8:8 + lsize], 'little') & ((1 << 27) - 1)
        q, end = 8 + lsize, 8 + lsize + commit
        while q + 4 <= end:
            w = struct.unpack_from('<I', x, q)[0]; tl = w & 31
            if tl == 29:
                q += 4 + struct.unpack_from('<I', x, q + 4)[0]; continue
            if tl in (30, 31):
                q += 8; continue
            if tl == 0:
                ln = struct.unpack_from('<I', x, q + 4)[0] - 4; d0 = q + 8
            else:
                ln = tl * 4; d0 = q + 4
            if ln < 2 or d0 + ln > end:
                break
            ids.add(struct.unpack_from('<H', x, d0)[0]); q = d0 + ln

def fid(f):
    for line in f.split(b'\n'):
        if line.startswith(b'ID: '):
            return int(line[4:])
systems = [(n, [f for f in fs if fid(f) in ids]) for n, fs in systems]
systems = [(n, fs) for n, fs in systems if fs]

o = bytearray(b[:18])
o += b'header_page\0' + struct.pack('<Q', len(hp)) + hp
o += b'header_event\0' + struct.pack('<Q', len(he)) + he
o += struct.pack('<I', 0)
o += struct.pack('<I', len(systems))
for n, fs in systems:
    o += n + b'\0' + struct.pack('<I', len(fs))
    for f in fs:
        o += struct.pack('<Q', len(f)) + f
o += struct.pack('<I', 0)
printk = b'\n'.join(printk.split(b'\n')[:16]) + b'\n'
cmdlines = b"\n".join(cmdlines.split(b"\n")[:64]) + b"\n"
o += struct.pack('<I', len(printk)) + printk
o += struct.pack('<Q', len(cmdlines)) + cmdlines
o += struct.pack('<I', ncpus)
if opts:
    o += b'options  \0' + opts
o += b'flyrecord\0'
at = len(o) + 16 * ncpus
at = (at + page - 1) // page * page
offs = []
for d in data:
    offs.append(at); at += (len(d) + page - 1) // page * page
for off, d in zip(offs, data):
    o += struct.pack('<QQ', off, len(d))
for off, d in zip(offs, data):
    o += b'\0' * (off - len(o)) + d
open(sys.argv[2], 'wb').write(bytes(o))
