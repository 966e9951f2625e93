#!/usr/bin/env bash
# paths-copy.sh - in-kernel copies land on both ends: sendfile,
# copy_file_range, splice through a pipe, vmsplice and tee, each from a
# file made before the recording to a file of its own.  Every file must
# show exactly the bytes read from it or written to it, the process the
# bytes it moved, and after a sync each copy's data at the device.
#
# Needs root and tracefs (skips otherwise, exit 77).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/live/paths-lib.sh"
need_event syscalls:sys_enter_splice syscalls:sys_enter_tee \
	syscalls:sys_enter_vmsplice syscalls:sys_enter_copy_file_range

make_loop_ext4 64
head -c $((3 * 1024 * 1024)) /dev/urandom >"$MNT/src.dat"
sync

cat >"$T/copy.py" <<'PYEOF'
import ctypes, os, sys
d, truth = sys.argv[1], sys.argv[2]
libc = ctypes.CDLL(None, use_errno=True)
K = 1024
lines, moved = [], 0
def out(name):
	return os.open(d + "/" + name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
src = os.open(d + "/src.dat", os.O_RDONLY)
read = 0
# sendfile: 1 MiB from offset 0
f = out("sendfile.dat")
n = 0
while n < 1024 * K:
	n += os.sendfile(f, src, n, 1024 * K - n)
os.close(f); read += n; moved += n
lines.append(("file", "sendfile.dat", n))
# copy_file_range: 2 MiB
f = out("cfr.dat")
n = 0
while n < 2048 * K:
	n += os.copy_file_range(src, f, 2048 * K - n, n, n)
os.close(f); read += n; moved += n
lines.append(("file", "cfr.dat", n))
# splice: src -> pipe -> file, 64 KiB at a time, 512 KiB
pr, pw = os.pipe()
f = out("splice.dat")
n = 0
while n < 512 * K:
	k = os.splice(src, pw, 64 * K, offset_src=n)
	m = 0
	while m < k:
		m += os.splice(pr, f, k - m)
	n += k
os.close(f); read += n; moved += 2 * n
lines.append(("file", "splice.dat", n))
# vmsplice 16 KiB into a pipe, tee it to a second pipe, splice both out
buf = ctypes.create_string_buffer(b"v" * (16 * K), 16 * K)
class iovec(ctypes.Structure):
	_fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]
iov = iovec(ctypes.cast(buf, ctypes.c_void_p), 16 * K)
assert libc.vmsplice(pw, ctypes.byref(iov), 1, 0) == 16 * K
qr, qw = os.pipe()
assert libc.tee(pr, qw, 16 * K, 0) == 16 * K
for name, p in (("vmsplice.dat", pr), ("tee.dat", qr)):
	f = out(name)
	m = 0
	while m < 16 * K:
		m += os.splice(p, f, 16 * K - m)
	os.close(f)
	lines.append(("file", name, m))
moved += 16 * K * 4	# vmsplice, tee, two splices
os.close(src)
lines.append(("read", "src.dat", read))
os.sync()
with open(truth, "w") as t:
	for what, name, n in lines:
		t.write("%s %s/%s %d\n" % (what, d, name, n))
		if what == "file":
			t.write("blk %s/%s %d\n" % (d, name, n))
	t.write("proc+truth %d %d\n" % (os.getpid(), moved))
PYEOF

paths_workload "$T/copy.iorec" "$T/copy.py"
paths_check "$T/copy.iorec" "$T/truth" copy
finish
