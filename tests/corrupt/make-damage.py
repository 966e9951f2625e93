#!/usr/bin/env python3
"""make-damage.py SOURCE.iorec OUTDIR - one flipped byte, one lying length
and one bad zstd frame, each in one small DATA chunk in the middle of a
real recording: OUTDIR/{flipped,lying-length,bad-frame}.iorec, and beside
each a .expect line "offset length cpu first_ts last_ts reason" (the lost
chunk's own descriptor is the truth).  Used by tests/test-damage.sh and
tests/test-integrity.sh."""
import os, struct, sys
src, out = open(sys.argv[1], 'rb').read(), sys.argv[2]
os.makedirs(out, exist_ok=True)

T = []
for i in range(256):
    c = i
    for _ in range(8):
        c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
    T.append(c)
def crc(b):
    c = 0xffffffff
    for x in b:
        c = T[(c ^ x) & 0xff] ^ (c >> 8)
    return c ^ 0xffffffff

data = []          # (offset, stored, flags, cpu, first_ts, last_ts)
off = 16
while off + 32 <= len(src):
    _, typ, flags, _, stored, _, _, _, _ = struct.unpack_from('<IHHIIIIII', src, off)
    if typ == 8:
        cpu, _, _, _, f, l = struct.unpack_from('<IIIIQQ', src, off + 32)
        data.append((off, stored, flags, cpu, f, l))
    off += 32 + stored
# small chunks in the middle: the 4th (one CPU) and the 6th (the other)
a, b = data[3], data[5]
assert a[3] != b[3] and b[2] & 1

def write(name, buf, c, reason):
    open('%s/%s.iorec' % (out, name), 'wb').write(bytes(buf))
    open('%s/%s.expect' % (out, name), 'w').write(
        '%d %d %d %d %d %s\n' % (c[0], 32 + c[1], c[3], c[4], c[5], reason))

buf = bytearray(src); buf[a[0] + 32 + a[1] // 2] ^= 0x10
write('flipped', buf, a, 'chunk payload checksum mismatch')

buf = bytearray(src)
struct.pack_into('<I', buf, a[0] + 12, a[1] + 100000)
struct.pack_into('<I', buf, a[0] + 28, crc(bytes(buf[a[0]:a[0] + 28])))
write('lying-length', buf, a, 'chunk length out of range')

buf = bytearray(src)
o = b[0] + 32 + 32 + 4		# the zstd frame header, after its magic
buf[o:o + 16] = b'\xa5' * 16
struct.pack_into('<I', buf, b[0] + 20, crc(bytes(buf[b[0] + 32:b[0] + 32 + b[1]])))
struct.pack_into('<I', buf, b[0] + 28, crc(bytes(buf[b[0]:b[0] + 28])))
write('bad-frame', buf, b, 'chunk payload does not decompress')
