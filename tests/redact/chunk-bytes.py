#!/usr/bin/env python3
"""chunk-bytes.py FILE [TYPE,...]: every chunk payload (of those types) of an .iorec file, decompressed
(zstd(1) for the compressed bodies), written to stdout one after the
other, so that a grep sees every byte a reader could see.  Walks the
chunks by the lengths of docs/iorec.5; no checksum is checked."""
import struct
import subprocess
import sys

PREFIX = {8: 32}  # DATA: the descriptor is stored uncompressed


def main():
    data = open(sys.argv[1], "rb").read()
    only = {int(t) for t in sys.argv[2].split(",")} if len(sys.argv) > 2 \
        else None
    out = sys.stdout.buffer
    pos = 16
    while pos + 32 <= len(data):
        magic, ctype, flags, _seq, stored, _raw = struct.unpack_from(
            "<IHHIII", data, pos)
        if magic != 0x4B43524F:
            sys.exit("bad chunk magic at offset %d" % pos)
        body = data[pos + 32:pos + 32 + stored]
        if only is not None and ctype not in only:
            pass
        elif flags & 1:
            n = PREFIX.get(ctype, 0)
            out.write(body[:n])
            out.write(subprocess.run(["zstd", "-d", "-c", "-q"],
                                     input=body[n:], check=True,
                                     stdout=subprocess.PIPE).stdout)
        else:
            out.write(body)
        pos += 32 + stored


main()
