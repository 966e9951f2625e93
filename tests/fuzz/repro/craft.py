#!/usr/bin/env python3
"""craft.py - write the reproducers the fuzzers did not reach on their own,
each a small edit of a committed seed that hits one defect of the issue
(tests/fuzz/repro/EXPECT says which).  Run from the top of the tree:

  python3 tests/fuzz/repro/craft.py

Needs the zstd command (for the frames of zeros)."""
import os, struct, subprocess, sys, tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from iorecfile import chunks as walk, payload, encode

def chunks(b):
    """[type, flags, stored payload, raw length] of every chunk"""
    return [[t, f, payload(b, off), raw] for off, t, f, _, _, raw in walk(b)]

def edit_format(cs, event, old, new):
    for c in cs:
        if c[0] == 4 and b'\nname: ' + event + b'\n' in b'\n' + c[2][c[2].index(b'\0') + 1:]:
            assert old in c[2] and not c[1] & 1
            c[2] = c[2].replace(old, new)
            c[3] = len(c[2])
            return
    raise SystemExit('no format %s' % event)

def zeros_frame(n):
    """one zstd frame of n zero bytes, with its content size"""
    with tempfile.NamedTemporaryFile() as f:
        f.truncate(n)
        f.flush()
        return subprocess.run(['zstd', '-19', '-cq', f.name], check=True,
                              capture_output=True).stdout

here = 'tests/fuzz/repro'
seed = open('tests/fuzz/corpus/iorec/rawsyscalls-2p.iorec', 'rb').read()
io = os.path.join(here, 'iorec')
td = os.path.join(here, 'tracedat')
os.makedirs(io, exist_ok=True)
os.makedirs(td, exist_ok=True)

def write(path, b):
    open(path, 'wb').write(b)

def zero_cpus(cs, ncpus, npages, subbuf):
    """a DATA chunk for each of ncpus CPUs before the END chunk of cs, each
    npages zero pages of subbuf bytes in one zstd frame"""
    frame = zeros_frame(npages * subbuf)
    end = cs.pop()
    for cpu in range(ncpus):
        desc = struct.pack('<IIIIQQ', cpu, npages, subbuf, 0, 1000 + cpu, 2000 + cpu)
        cs.append([8, 1, desc + frame, 32 + npages * subbuf])
    cs.append(end)

# A field offset that does not fit an int: source_field_u64 and
# source_field_array_u64 read 256 MiB before the record.
cs = chunks(seed)
edit_format(cs, b'sys_enter', b'field:long id;\toffset:8;',
            b'field:long id;\toffset:4026531840;')
write(os.path.join(io, 'field-offset-beyond-int.iorec'), encode(cs))
cs = chunks(seed)
edit_format(cs, b'sys_enter', b'args[6];\toffset:16;',
            b'args[6];\toffset:4026531840;')
write(os.path.join(io, 'array-offset-beyond-int.iorec'), encode(cs))

# Division and modulo by zero when dump prints the event: the divisor is
# a field that is 0 in these records (the preempt count at syscall entry).
for name, op in (('dump-division-by-zero', b'/'), ('dump-modulo-by-zero', b'%')):
    cs = chunks(seed)
    edit_format(cs, b'sys_enter',
                b'print fmt: "NR %ld (%lx, %lx, %lx, %lx, %lx, %lx)", REC->id,',
                b'print fmt: "NR %ld (%lx, %lx, %lx, %lx, %lx, %lx)", REC->id ' + op +
                b' REC->common_preempt_count,')
    write(os.path.join(io, name + '.iorec'), encode(cs))

# The 580 KB file of the issue: 64 DATA chunks of 64 CPUs (the header says
# 2), each a small frame that expands to 266 MB (within the old 256 MiB
# limit): every CPU cursor held a whole chunk, 17 GB in all.
cs = [c for c in chunks(seed) if c[0] != 8]
hdr = cs[0][2]
subbuf = struct.unpack_from('<I', hdr, 8)[0]
zero_cpus(cs, 64, 65000, subbuf)
write(os.path.join(io, 'cpus-beyond-header.iorec'), encode(cs))

# Within the format's limits (16 MiB a chunk, the CPUs of the header), the
# pages all CPUs hold at once: 256 CPUs of 16 MiB chunks, 4 GiB.
cs = [c for c in chunks(seed) if c[0] != 8]
h = bytearray(cs[0][2])
struct.pack_into('<I', h, 12, 256)
cs[0][2] = bytes(h)
zero_cpus(cs, 256, (16 << 20) // subbuf, subbuf)
write(os.path.join(io, 'all-cpus-beyond-memory-cap.iorec'), encode(cs))

# trace.dat, version 6: sections in order, sizes from the file.
v6 = open('tests/fuzz/corpus/tracedat/v6.dat', 'rb').read()

def v6_offsets(b):
    """offsets of the size fields of header_page, header_event, the first
    event system's name, kallsyms and printk; the options marker"""
    p = 18 + 12
    o = {'header_page': p}
    p += 8 + struct.unpack_from('<Q', b, p)[0] + 13
    o['header_event'] = p
    p += 8 + struct.unpack_from('<Q', b, p)[0]
    n = struct.unpack_from('<I', b, p)[0]
    p += 4
    for _ in range(n):
        p += 8 + struct.unpack_from('<Q', b, p)[0]
    systems = struct.unpack_from('<I', b, p)[0]
    p += 4
    o['system'] = p
    for _ in range(systems):
        p = b.index(b'\0', p) + 1
        n = struct.unpack_from('<I', b, p)[0]
        p += 4
        for _ in range(n):
            p += 8 + struct.unpack_from('<Q', b, p)[0]
    o['kallsyms'] = p
    p += 4 + struct.unpack_from('<I', b, p)[0]
    o['printk'] = p
    p += 4 + struct.unpack_from('<I', b, p)[0]
    p += 8 + struct.unpack_from('<Q', b, p)[0]
    p += 4
    o['options'] = p
    return o

o = v6_offsets(v6)

# read_string(): a name longer than its 8 KiB buffer, one byte written
# past the string it allocates.
b = v6[:o['system']] + b'a' * 9000 + v6[v6.index(b'\0', o['system']):]
write(os.path.join(td, 'system-name-beyond-8k.dat'), b)

# Sizes libtracecmd passes to malloc unchecked: header_event (u64),
# kallsyms (u32 + 1), an option (u32).
b = bytearray(v6)
struct.pack_into('<Q', b, o['header_event'], 0x7fffffffffffff00)
write(os.path.join(td, 'header-event-size-huge.dat'), bytes(b))
b = bytearray(v6)
struct.pack_into('<I', b, o['kallsyms'], 0xfffffff0)
write(os.path.join(td, 'kallsyms-size-huge.dat'), bytes(b))
assert v6[o['options']:o['options'] + 10] == b'options  \0'
b = bytearray(v6)
struct.pack_into('<HI', b, o['options'] + 10, 1, 0xfffffff0)
write(os.path.join(td, 'option-size-huge.dat'), bytes(b))

# read_metadata_strings() walks every section header after the first
# options offset; a size that seeks back to the same header loops forever.
v7 = open('tests/fuzz/corpus/tracedat/v7.dat', 'rb').read()
p = 10 + 2 + 2 + 4
p = v7.index(b'\0', p) + 1
p = v7.index(b'\0', p) + 1
p += 8
b = bytearray(v7)
struct.pack_into('<Q', b, p + 8, (1 << 64) - 16)
write(os.path.join(td, 'section-size-seeks-back.dat'), bytes(b))
print('crafted')
