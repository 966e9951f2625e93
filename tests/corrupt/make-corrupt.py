#!/usr/bin/env python3
"""make-corrupt.py SOURCE.iorec OUTDIR - derive a corrupt corpus from a good
recording: each file is damaged in one way, and OUTDIR/EXPECT lists the
error ioreport must name and the offset where it must say it stopped.
tests/test-corrupt.sh runs it on a real sample recording at test time."""
import os, struct, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from iorecfile import chunks as walk, reseal, repay, DATA

here = sys.argv[2]
os.makedirs(here, exist_ok=True)

src = open(sys.argv[1], 'rb').read()
chunks = [(off, typ, stored, flags)          # (offset, type, stored length, flags)
          for off, typ, flags, _, stored, _ in walk(src)]
data = [c for c in chunks if c[1] == DATA]
assert len(data) >= 2, "need a recording with at least two DATA chunks"
d0 = data[0]
d1 = data[len(data) // 2]

out = []
def emit(name, b, status, text, offset):
    open(os.path.join(here, name), 'wb').write(bytes(b))
    out.append("%s\t%d\t%s\t%s" % (name, status, text, "" if offset is None else str(offset)))

b = bytearray(src); b[0] ^= 0xff
emit("bad-magic.iorec", b, 1, "bad magic", 0)
emit("empty.iorec", b"", 1, "empty file", None)
b = bytearray(src); struct.pack_into('<H', b, 8, 9)
emit("bad-version.iorec", b, 1, "version not supported", None)
emit("short-file-header.iorec", src[:12], 1, "file ends inside a chunk", 0)
cut = d1[0] + 32 + d1[2] // 2
emit("cut-in-data.iorec", src[:cut], 0, "file ends inside a chunk", d1[0])
emit("cut-in-chunk-header.iorec", src[:d1[0] + 7], 0, "file ends inside a chunk", d1[0])
emit("cut-at-boundary.iorec", src[:d1[0]], 0, "no end chunk", None)
# one damaged byte is mended from the chunk's CRC (nothing lost, said on
# stderr with its offset); two in one chunk are damage
b = bytearray(src); b[d1[0] + 32 + 40] ^= 0x01
emit("mended-payload.iorec", b, 0, "one damaged byte (offset %d) mended" % (d1[0] + 32 + 40), d1[0])
b = bytearray(src); b[d1[0] + 13] ^= 0x40
emit("mended-header.iorec", b, 0, "one damaged byte (offset %d) mended" % (d1[0] + 13), d1[0])
b = bytearray(src); b[d1[0] + 32 + 40] ^= 0x01; b[d1[0] + 32 + 41] ^= 0x01
emit("flipped-payload.iorec", b, 0, "chunk payload checksum mismatch", d1[0])
b = bytearray(src); b[d1[0] + 13] ^= 0x40; b[d1[0] + 17] ^= 0x40
emit("flipped-header.iorec", b, 0, "chunk header checksum mismatch", d1[0])
b = bytearray(src); b[d1[0] + 1] ^= 0x01; b[d1[0] + 2] ^= 0x01
emit("bad-chunk-magic.iorec", b, 0, "bad chunk magic", d1[0])
b = bytearray(src); struct.pack_into('<I', b, d1[0] + 12, 0x7ffffff0); reseal(b, d1[0])
emit("lying-length-huge.iorec", b, 0, "chunk length out of range", d1[0])
b = bytearray(src); struct.pack_into('<I', b, d1[0] + 12, d1[2] + 1000000); reseal(b, d1[0])
emit("lying-length-long.iorec", b, 0, "chunk length out of range", d1[0])
b = bytearray(src); struct.pack_into('<I', b, d1[0] + 8, 999); reseal(b, d1[0])
emit("seq-gap.iorec", b, 0, "chunk sequence number out of order", d1[0])
if d1[3] & 1:
    b = bytearray(src)
    for i in range(16):
        b[d1[0] + 32 + 32 + 6 + i] = 0xA5
    repay(b, d1[0])
    emit("zstd-garbage.iorec", b, 0, "chunk payload does not decompress", d1[0])
b = bytearray(src); struct.pack_into('<I', b, d1[0] + 32 + 4, 3); repay(b, d1[0])
emit("data-npages-lie.iorec", b, 0, "chunk length out of range", d1[0])
b = bytearray(src); struct.pack_into('<H', b, 16 + 4, 12); reseal(b, 16)
emit("no-header-chunk.iorec", b, 1, "first chunk is not a header chunk", 16)
b = bytearray(src) + bytearray(src[chunks[1][0]:chunks[2][0]])
struct.pack_into('<I', b, len(src) + 8, len(chunks)); reseal(b, len(src))
emit("after-end.iorec", b, 0, "data after the end chunk", len(src))

with open(os.path.join(here, "EXPECT"), "w") as f:
    f.write("# file\texit status of ioreport info\tmessage\toffset where reading stopped\n")
    f.write("\n".join(out) + "\n")
print("wrote %d corrupt files" % len(out))
