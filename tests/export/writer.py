"""writer.py - the known writer of the export tests (fio.sh, perfetto.sh),
whose calls each test finds again in what ioreport exports.

usage: python3 tests/export/writer.py PATH PAGES EVERY [DATASYNCED [OTHER]]

PAGES pwrites of 4096 bytes ("x") to PATH, created, with an fsync after
every EVERY of them; then DATASYNCED more ("y"), each followed by an
fdatasync; then, with OTHER, a child writes another file: 5 pwrites of
8192 bytes ("z") to OTHER and an fsync.
"""
import os
import sys

path, pages, every = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
datasynced = int(sys.argv[4]) if len(sys.argv) > 4 else 0
other = sys.argv[5] if len(sys.argv) > 5 else None

fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
for i in range(pages):
    os.pwrite(fd, b"x" * 4096, i * 4096)
    if i % every == every - 1:
        os.fsync(fd)
for i in range(pages, pages + datasynced):
    os.pwrite(fd, b"y" * 4096, i * 4096)
    os.fdatasync(fd)
os.close(fd)
if other:
    pid = os.fork()
    if pid == 0:
        fd = os.open(other, os.O_WRONLY | os.O_CREAT, 0o644)
        for i in range(5):
            os.pwrite(fd, b"z" * 8192, i * 8192)
        os.fsync(fd)
        os.close(fd)
        os._exit(0)
    os.waitpid(pid, 0)
