#!/usr/bin/env python3
"""make-damage.py SOURCE.iorec OUTDIR - two flipped bytes, one lying length
and one bad zstd frame, each in one small DATA chunk in the middle of a
real recording: OUTDIR/{flipped,lying-length,bad-frame}.iorec, and beside
each a .expect line "offset length cpu first_ts last_ts reason" (the lost
chunk's own descriptor is the truth).  Used by tests/test-damage.sh and
tests/test-integrity.sh."""
import os, struct, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from iorecfile import chunks, reseal, repay, DATA
src, out = open(sys.argv[1], 'rb').read(), sys.argv[2]
os.makedirs(out, exist_ok=True)

data = []          # (offset, stored, flags, cpu, first_ts, last_ts)
for off, typ, flags, _, stored, _ in chunks(src):
    if typ == DATA:
        cpu, _, _, _, f, l = struct.unpack_from('<IIIIQQ', src, off + 32)
        data.append((off, stored, flags, cpu, f, l))
# small chunks in the middle: the 4th (one CPU) and the 6th (the other)
a, b = data[3], data[5]
assert a[3] != b[3] and b[2] & 1

def write(name, buf, c, reason):
    open('%s/%s.iorec' % (out, name), 'wb').write(bytes(buf))
    open('%s/%s.expect' % (out, name), 'w').write(
        '%d %d %d %d %d %s\n' % (c[0], 32 + c[1], c[3], c[4], c[5], reason))

# two damaged bytes (one alone is mended from the CRC: test-corrupt.sh)
buf = bytearray(src); buf[a[0] + 32 + a[1] // 2] ^= 0x10
buf[a[0] + 32 + a[1] // 2 + 1] ^= 0x10
write('flipped', buf, a, 'chunk payload checksum mismatch')

buf = bytearray(src)
struct.pack_into('<I', buf, a[0] + 12, a[1] + 100000)
reseal(buf, a[0])
write('lying-length', buf, a, 'chunk length out of range')

buf = bytearray(src)
o = b[0] + 32 + 32 + 4		# the zstd frame header, after its magic
buf[o:o + 16] = b'\xa5' * 16
repay(buf, b[0])
write('bad-frame', buf, b, 'chunk payload does not decompress')
