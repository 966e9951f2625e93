#!/usr/bin/env bash
# paths-exec.sh - descriptors inherited across fork, clone and exec land on
# their file: a parent opens files and an exec'd child writes them after
# close-on-exec was cleared each way (fcntl F_SETFD, ioctl FIONCLEX, dup2,
# dup3 without O_CLOEXEC, an open without O_CLOEXEC), a forked child and a
# thread write without exec, and a vfork'ed child (Python's subprocess with
# pass_fds, which closes the rest with close_range) execs and writes.  Each
# file and each process must show exactly the bytes it wrote, and after a
# sync the file's data at the device.
#
# Needs root and tracefs (skips otherwise, exit 77).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/live/paths-lib.sh"
need_event sched:sched_process_exec syscalls:sys_enter_write syscalls:sys_enter_ioctl

make_loop_ext4 64

cat >"$T/parent.py" <<'PYEOF'
import ctypes, fcntl, os, subprocess, sys, termios, threading
d, truth, child = sys.argv[1], sys.argv[2], sys.argv[3]
libc = ctypes.CDLL(None, use_errno=True)
U = 4096
out = open(truth, "w")
def note(*a):
	out.write(" ".join(str(x) for x in a) + "\n")
def opened(name, cloexec=True):
	flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
	if cloexec:
		return os.open(d + "/" + name, flags | os.O_CLOEXEC, 0o644)
	fd = libc.open((d + "/" + name).encode(), flags, 0o644)	# no O_CLOEXEC
	assert fd >= 0
	return fd
jobs = []	# (fd, bytes, name) for the exec'd child
fa = opened("a.fcntl"); fcntl.fcntl(fa, fcntl.F_SETFD, 0); jobs.append((fa, 1 * U, "a.fcntl"))
fb = opened("b.ioctl"); fcntl.ioctl(fb, termios.FIONCLEX); jobs.append((fb, 2 * U, "b.ioctl"))
fc = opened("c.dup2"); os.dup2(fc, 40, inheritable=True); os.close(fc); jobs.append((40, 3 * U, "c.dup2"))
fd_ = opened("d.dup3"); assert libc.dup3(fd_, 41, 0) == 41; os.close(fd_); jobs.append((41, 4 * U, "d.dup3"))
fe = opened("e.plain", cloexec=False); jobs.append((fe, 5 * U, "e.plain"))
# set close-on-exec again on one that was cleared: the child must not
# write it (it would fail with EBADF), so it is not in its list
fg = opened("g.cloexec", cloexec=False); fcntl.ioctl(fg, termios.FIOCLEX)
pid = os.fork()
if pid == 0:
	os.execv(sys.executable, [sys.executable, child] + ["%d:%d" % (fd, n) for fd, n, _ in jobs] + ["%d:%d" % (fg, 0)])
os.waitpid(pid, 0)
for fd, n, name in jobs:
	note("file", d + "/" + name, n)
note("proc", pid, sum(n for _, n, _ in jobs))
note("file", d + "/g.cloexec", 0)
# fork without exec: the child writes the parent's fd
ff = opened("f.fork")
pid = os.fork()
if pid == 0:
	os.write(ff, b"f" * (6 * U))
	os._exit(0)
os.waitpid(pid, 0)
note("file", d + "/f.fork", 6 * U); note("proc", pid, 6 * U)
# a thread (clone with CLONE_FILES) writes the process's fd
ft = opened("t.thread")
th = threading.Thread(target=lambda: os.write(ft, b"t" * (7 * U)))
th.start(); th.join()
note("file", d + "/t.thread", 7 * U)
# vfork + exec + close_range: subprocess with pass_fds
fs = opened("s.spawn")
p = subprocess.Popen([sys.executable, child, "%d:%d" % (fs, 8 * U)], pass_fds=(fs,), close_fds=True)
p.wait()
note("file", d + "/s.spawn", 8 * U); note("proc", p.pid, 8 * U)
note("proc+truth", os.getpid(), 7 * U)
os.sync()
for name in ("a.fcntl", "b.ioctl", "c.dup2", "d.dup3", "e.plain", "f.fork", "t.thread", "s.spawn"):
	note("blk", d + "/" + name, os.stat(d + "/" + name).st_size)
out.close()
PYEOF
cat >"$T/child.py" <<'PYEOF'
import os, sys
for a in sys.argv[1:]:
	fd, n = map(int, a.split(":"))
	if n:
		assert os.write(fd, b"c" * n) == n
	else:
		try:
			os.write(fd, b"x")
			sys.exit("fd %d was not closed at exec" % fd)
		except OSError:
			pass
PYEOF

paths_workload "$T/exec.iorec" "$T/parent.py" "$T/child.py"
paths_check "$T/exec.iorec" "$T/truth" exec
# the same with the raw_syscalls fallback (every ioctl is recorded there)
PATHS_IOREC_FLAGS=--raw-syscalls paths_workload "$T/raw.iorec" "$T/parent.py" "$T/child.py"
paths_check "$T/raw.iorec" "$T/truth" raw
finish
