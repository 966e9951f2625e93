"""iorecfile.py - the .iorec container as the test scripts edit it: the
CRC32C, the chunk walk, resealing a chunk after an edit, and writing a
list of chunks as a new file.  The layout is iorec(5)'s: a 16-byte file
header, then chunks of a 32-byte header (magic, type, flags, sequence,
stored length, raw length, payload CRC, reserved, header CRC) followed by
the stored payload.  The scripts import it with

    sys.path.insert(0, <the tests folder>)
    import iorecfile
"""
import struct

FILE_HEADER = 16
CHUNK_HEADER = struct.Struct('<IHHIIIIII')
CHUNK_MAGIC = 0x4b43524f
HEADER, HEADER_PAGE, FORMAT, SNAPSHOT, CMDLINES, DATA, END, PRINTK = 1, 2, 4, 5, 7, 8, 10, 11
COMPRESSED = 1

_T = []
for _i in range(256):
    _c = _i
    for _ in range(8):
        _c = (_c >> 1) ^ 0x82F63B78 if _c & 1 else _c >> 1
    _T.append(_c)


def crc32c(data):
    c = 0xffffffff
    for b in data:
        c = _T[(c ^ b) & 0xff] ^ (c >> 8)
    return c ^ 0xffffffff


def chunks(buf):
    """(offset, type, flags, seq, stored, raw) of every chunk whose header
    fits in buf, walking by the stored lengths as they are"""
    off = FILE_HEADER
    while off + CHUNK_HEADER.size <= len(buf):
        _, typ, flags, seq, stored, raw, _, _, _ = CHUNK_HEADER.unpack_from(buf, off)
        yield off, typ, flags, seq, stored, raw
        off += CHUNK_HEADER.size + stored


def payload(buf, off):
    """the stored payload of the chunk at off"""
    stored = struct.unpack_from('<I', buf, off + 12)[0]
    return bytes(buf[off + CHUNK_HEADER.size:off + CHUNK_HEADER.size + stored])


def reseal(buf, off):
    """the header CRC of the chunk at off made right again (buf: bytearray)"""
    struct.pack_into('<I', buf, off + 28, crc32c(bytes(buf[off:off + 28])))


def repay(buf, off):
    """the payload CRC, then the header CRC, of the chunk at off made right"""
    struct.pack_into('<I', buf, off + 20, crc32c(payload(buf, off)))
    reseal(buf, off)


def encode(cs, major=1, minor=0):
    """a whole file of the chunks cs, each (type, flags, stored payload,
    raw length), numbered from 0"""
    out = bytearray(b'IOREC\r\n\x1a' + struct.pack('<HHI', major, minor, 0))
    for seq, (typ, flags, p, raw) in enumerate(cs):
        h = struct.pack('<IHHIIIII', CHUNK_MAGIC, typ, flags, seq, len(p), raw, crc32c(p), 0)
        out += h + struct.pack('<I', crc32c(h)) + p
    return bytes(out)
