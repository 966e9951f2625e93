#!/usr/bin/env bash
# paths-mmap.sh - pages written through a shared mapping land on the
# mapped file and on the process that dirtied them: 4 MiB written into a
# MAP_SHARED mapping and msync'ed, and 4 MiB written into another and
# left to writeback (a sync); then three files mapped at once and
# written in turns (2 MiB, 1 MiB, 512 KiB), left to writeback, so that a
# page fault's file is not the process's only mapping.  Each file must
# show its bytes at the device (the msync'ed one up to the file system's
# own blocks its fsync writes), its msync as a sync of the file, and the
# process the pages.
#
# Needs root and tracefs (skips otherwise, exit 77).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/live/paths-lib.sh"
need_event syscalls:sys_enter_mmap syscalls:sys_enter_msync \
	writeback:writeback_dirty_folio

make_loop_ext4 64

cat >"$T/mm.py" <<'PYEOF'
import mmap, os, sys
from pathswork import syncfs
d, truth = sys.argv[1], sys.argv[2]
N = 4 * 1024 * 1024
def mapped(name, fill, sync):
	fd = os.open(d + "/" + name, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
	os.ftruncate(fd, N)
	m = mmap.mmap(fd, N, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
	for i in range(0, N, 4096):
		m[i:i + 4096] = fill * 4096
	if sync:
		m.flush()	# msync(MS_SYNC)
	m.close()
	os.close(fd)
mapped("msync.dat", b"m", True)
mapped("wb.dat", b"w", False)
# three mappings at once, written in turns
M = 2 * 1024 * 1024
sizes = {"m1.dat": M, "m2.dat": M // 2, "m3.dat": M // 4}
maps = []
for name in sizes:
	fd = os.open(d + "/" + name, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
	os.ftruncate(fd, M)
	maps.append((fd, mmap.mmap(fd, M, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE),
		     sizes[name]))
for i in range(0, M, 4096):
	for fd, m, n in maps:
		if i < n:
			m[i:i + 4096] = b"t" * 4096
for fd, m, n in maps:
	m.close()
	os.close(fd)
syncfs(d)
with open(truth, "w") as t:
	t.write("blk+ %s/msync.dat %d\n" % (d, N))
	t.write("blk %s/wb.dat %d\n" % (d, N))
	for name, n in sizes.items():
		t.write("blk %s/%s %d\n" % (d, name, n))
	t.write("pblk+ %d %d\n" % (os.getpid(), 2 * N + sum(sizes.values())))
PYEOF

paths_workload "$T/mm.iorec" "$T/mm.py"
paths_check "$T/mm.iorec" "$T/truth" mmap
python3 - "$T/mmap.files.json" "$T/mmap.procs.json" "$MNT/msync.dat" <<'PY' ||
import json, sys
F, P = (json.load(open(f)) for f in sys.argv[1:3])
f = [x for x in F["files"] if x["path"] == sys.argv[3]]
if not f or f[0]["fsync"]["count"] != 1 or f[0]["fsync"]["max_ns"] <= 0:
	sys.exit("msync of %s is not a sync of the file: %r" % (sys.argv[3], f and f[0]["fsync"]))
ms = [p for p in P["processes"] if p["syscalls"].get("msync", {}).get("count")]
if len(ms) != 1 or ms[0]["syscalls"]["msync"]["latency"]["count"] != 1:
	sys.exit("expected one process with one msync: %r" % [(p["pid"], p["syscalls"].get("msync")) for p in ms])
PY
	fail "mmap: msync not on the file or the process"
finish
