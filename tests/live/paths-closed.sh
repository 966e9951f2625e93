#!/usr/bin/env bash
# paths-closed.sh - a file opened, written and closed during the
# recording, and written back only after its writer exited: the inode the
# writes dirtied while the file was open joins the later writeback to the
# file's path and to the process that dirtied it.  A writer process writes
# 4 MiB (buffered) to closed.dat, closes it and exits; then another
# process syncs the file system (syncfs).  closed.dat must show its
# 4 MiB written by syscalls and its 4 MiB at the device, and the exited
# writer those 4 MiB at the device.
#
# Needs root and tracefs (skips otherwise, exit 77).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/live/paths-lib.sh"
need_event syscalls:sys_enter_write writeback:writeback_dirty_folio

make_loop_ext4 64

cat >"$T/closed.py" <<'PYEOF'
import os, sys
from pathswork import syncfs
d, truth = sys.argv[1], sys.argv[2]
N = 4 * 1024 * 1024
pid = os.fork()
if pid == 0:
	fd = os.open(d + "/closed.dat", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
	for i in range(0, N, 65536):
		assert os.write(fd, b"c" * 65536) == 65536
	os.close(fd)
	os._exit(0)
os.waitpid(pid, 0)
# the writer is gone, its file closed: now the writeback of its pages
syncfs(d)
with open(truth, "w") as t:
	t.write("file %s/closed.dat %d\n" % (d, N))
	t.write("blk %s/closed.dat %d\n" % (d, N))
	t.write("pblk+ %d %d\n" % (pid, N))
PYEOF

paths_workload "$T/closed.iorec" "$T/closed.py"
paths_check "$T/closed.iorec" "$T/truth" closed
finish
