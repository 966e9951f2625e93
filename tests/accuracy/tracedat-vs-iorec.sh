#!/usr/bin/env bash
# tracedat-vs-iorec.sh - the same deterministic workload recorded once with
# 'trace-cmd record' (the events of iorec's io profile, as 'iorec --check -v'
# lists them) and once with iorec: 'ioreport processes --json' must give the
# same per-process numbers for the workload process from the trace.dat and
# from the .iorec, and both must equal what the workload did.
#
# The workload is a python3 process renamed (prctl PR_SET_NAME) to a unique
# comm that opens a file on a loop ext4, writes exactly N bytes in K
# write(2)s, fsyncs F times, reads the file back with R readv(2)s and closes
# it.  Truth: write K calls / N bytes, readv R calls / N bytes, fsync F,
# process write_bytes N (the interpreter's start-up writes nothing; it does
# read its modules, with read and pread64, which is why the reads use readv).
# The workload runs as the child of a shell (sh -c 'python3 ...; exit'), not
# as the traced command itself, so that the process holds nothing of
# trace-cmd's or iorec's own pre-exec set-up (trace-cmd's child writes a
# byte to a pipe before it execs).
# Tolerance: none; these are counts of syscalls of one process, the same
# kernel events in both files.  Every other syscall kind of the process (the
# interpreter's start-up) must match between the two recordings as well, but ioctl and mmap, whose
# enters iorec records only in part (kernel-side filters).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/accuracy/acc-lib.sh"
need_root_tracefs
need_cmd python3 trace-cmd
need_event sched:sched_process_exec syscalls:sys_enter_write syscalls:sys_enter_fsync \
	syscalls:sys_enter_pread64 task:task_rename

grep -q -- --json <<<"$("$IOREPORT" processes --help 2>&1)" ||
	fail "ioreport has no 'processes --json'"

make_loop_ext4 64

PY=$(python3 -c "import sys; print(sys.executable)")
NAME=tdv$$
CHUNK=3000	# not a page multiple: bytes are counted, not pages
K=24
F=6
R=8
N=$((CHUNK * K))
# sh -c: the workload as a forked child (see above); '; exit' keeps the shell
# from exec'ing it in place.
WRAP=(sh -c '"$@"; exit $?' sh "$PY" "$T/work.py" "$NAME")

cat >"$T/work.py" <<'EOF'
import ctypes, os, sys
name, path, chunk, k, f, r = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
ctypes.CDLL(None).prctl(15, name.encode(), 0, 0, 0)	# PR_SET_NAME
fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
buf = b"y" * chunk
for i in range(k):
	os.write(fd, buf)
	if (i + 1) % (k // f) == 0:
		os.fsync(fd)
size = chunk * k
step = size // r
got = 0
os.lseek(fd, 0, os.SEEK_SET)
for i in range(r):
	b = bytearray(step if i < r - 1 else size - step * (r - 1))
	got += os.readv(fd, [b])
os.close(fd)
assert got == size, got
EOF

# The io profile's events, as iorec itself lists them (uprobes are iorec's
# own and not in trace-cmd's reach: only SYSTEM:EVENT that tracefs has).
"$IOREC" --check -v >"$T/check" 2>&1 || { cat "$T/check" >&2; fail "iorec --check -v failed"; }
evargs=()
while read -r ev; do
	[ -d "$TRACEFS/events/${ev%%:*}/${ev#*:}" ] && evargs+=(-e "$ev")
done < <(awk '$1 == "ok" && $2 ~ /^[a-z_0-9]+:[a-z_0-9]+$/ { print $2 }' "$T/check")
[ "${#evargs[@]}" -ge 20 ] || { cat "$T/check" >&2; fail "too few events in 'iorec --check -v'"; }
log "${#evargs[@]} args for trace-cmd from iorec --check -v"

# 1. trace-cmd, on the top-level buffer: hold the lock, and put tracing_on
# back as it was (trace-cmd leaves it 0).  It gets a buffer of its own
# size: a machine's default can be as small as 67 KiB per CPU, which loses
# events.  It exits 1 after writing a complete file on this kernel, so its
# status is not trusted: the file is checked by reading it; when it wrote
# none (another test's uprobe group went away while trace-cmd walked the
# event directories), tc_record records again.
tc_record "$T/trace.dat" -b 4096 "${evargs[@]}" -- \
	"${WRAP[@]}" "$MNT/f1" $CHUNK $K $F $R
[ "$(stat -c %s "$MNT/f1")" = "$N" ] || fail "workload under trace-cmd did not write $N bytes"

# 2. iorec.
rc=0
"$IOREC" -q -o "$T/rec.iorec" -- "${WRAP[@]}" "$MNT/f2" $CHUNK $K $F $R \
	2>"$T/rec.err" || rc=$?
[ "$rc" = 0 ] || { cat "$T/rec.err" >&2; fail "iorec -- workload exited $rc"; }
[ "$(stat -c %s "$MNT/f2")" = "$N" ] || fail "workload under iorec did not write $N bytes"

for f in trace.dat rec.iorec; do
	"$IOREPORT" processes --json "$T/$f" >"$T/$f.json" 2>"$T/$f.err" ||
		{ cat "$T/$f.err" >&2; fail "ioreport processes --json $f failed"; }
done

python3 - "$TEST_NAME" "$T/trace.dat.json" "$T/rec.iorec.json" "$NAME" "$N" "$K" "$F" "$R" <<'EOF' ||
import json, sys
test, tdat, irec, name = sys.argv[1:5]
n, k, f, r = (int(x) for x in sys.argv[5:9])
bad = []

def ours(path):
	doc = json.load(open(path))
	p = [x for x in doc["processes"] if name in x["comms"]]
	if len(p) != 1:
		sys.exit("%s: %s: %d processes with comm %s" % (test, path, len(p), name))
	return p[0]

def summary(p):
	return {k: (v["count"], v["errors"], v["bytes"]) for k, v in p["syscalls"].items()}

a, b = ours(tdat), ours(irec)
for label, p in (("trace.dat", a), ("iorec", b)):
	s = p["syscalls"]
	w, rd, fs = s.get("write", {}), s.get("readv", {}), s.get("fsync", {})
	truth = [("write calls", w.get("count"), k), ("write bytes", w.get("bytes"), n),
		 ("write_bytes", p["write_bytes"], n), ("fsync calls", fs.get("count"), f),
		 ("fsyncs", p["fsyncs"], f), ("readv calls", rd.get("count"), r),
		 ("readv bytes", rd.get("bytes"), n), ("write errors", w.get("errors"), 0)]
	for what, got, want in truth:
		ok = got == want
		print("%s: %s: %-9s %-12s %s (truth %s)" % (test, "ok" if ok else "FAIL", label,
		      what, got, want), file=sys.stderr)
		if not ok:
			bad.append("%s %s %s != %s" % (label, what, got, want))
	print("%s:     %s: pid %d comm %s: %s" % (test, label, p["pid"], p["comm"],
	      ", ".join("%s %d/%dB" % (k, v[0], v[2]) for k, v in sorted(summary(p).items()))),
	      file=sys.stderr)
# iorec records the enters of these only in part (an ioctl FIOCLEX, an
# mmap of a shared mapping: kernel-side event filters), trace-cmd all of
# them: they are not the same events, so they are left out
PARTIAL = ("ioctl", "mmap")
sa, sb = summary(a), summary(b)
for key in ("write_bytes", "read_bytes", "fsyncs", "calls", "errors"):
	i = {"calls": 0, "errors": 1}.get(key)
	av, bv = a[key], b[key]
	if i is not None:
		av -= sum(sa[k][i] for k in PARTIAL if k in sa)
		bv -= sum(sb[k][i] for k in PARTIAL if k in sb)
	if av != bv:
		bad.append("%s: trace.dat %s, iorec %s" % (key, av, bv))
for kind in sorted((set(sa) | set(sb)) - set(PARTIAL)):
	if sa.get(kind) != sb.get(kind):
		bad.append("syscall %s: trace.dat %s, iorec %s (count, errors, bytes)" %
			   (kind, sa.get(kind), sb.get(kind)))
if bad:
	sys.exit("%s: differences: %s" % (test, "; ".join(bad)))
print("%s: ok: trace.dat and iorec agree on all %d syscall kinds of %s" % (test, len(sa), name),
      file=sys.stderr)
EOF
	fail "per-process numbers differ (see above)"

finish
