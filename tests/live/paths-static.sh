#!/usr/bin/env bash
# paths-static.sh - the files of a statically linked program, which never
# calls the C library the uprobes name files by: on a kernel without
# kprobes its opens have no name, and the end snapshot's inode names
# (iorec opens each inode that had I/O by handle, iorec(5) "inode"
# lines) must name them.  Two processes of a static writer each write
# 4 MiB with O_DIRECT + fsync and 4 MiB buffered + fdatasync to files of
# their own; the first also writes 64 KiB to a file it unlinks and
# closes, then 256 KiB to a new file, which ext4 gives the freed inode
# number (the recorder's "reused" line: the name is the new file's, not
# the deleted one's).  Each file's row must carry its path and exactly
# its bytes (of the syscalls and, with at most 16 KiB of the fsync's own
# blocks more, at the device), at least 99% of the writer's bytes must be
# on named files, and the deleted file must stay unnamed and unlinked,
# known by its inode (by its fd when its inode is reborn.dat's).
#
# Needs root, tracefs, ext4 and a C compiler that links statically
# (skips otherwise).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/live/paths-lib.sh"
need_cmd gcc
need_event ext4:ext4_sync_file_enter

cat >"$T/sw.c" <<'CEOF'
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MIB (1024 * 1024)
static char *buf;

static void put(const char *path, int flags, size_t n, int sync)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | flags, 0644);

	if (fd < 0) { perror(path); exit(2); }
	for (size_t k = 0; k < n; k += 65536)
		if (write(fd, buf, 65536) != 65536) { perror(path); exit(2); }
	if (sync == 1 ? fsync(fd) : fdatasync(fd)) { perror(path); exit(2); }
	if (close(fd)) exit(2);
}

int main(int argc, char **argv)
{
	char p[4096];

	if (posix_memalign((void **)&buf, 4096, 65536)) return 2;
	for (int i = 0; i < 2; i++) {
		if (fork())
			continue;
		memset(buf, 'a' + i, 65536);
		snprintf(p, sizeof(p), "%s/direct-%d.dat", argv[1], i);
		put(p, O_DIRECT, 4 * MIB, 1);
		snprintf(p, sizeof(p), "%s/buffered-%d.dat", argv[1], i);
		put(p, 0, 4 * MIB, 2);
		struct stat a = { 0 }, b = { 0 };
		if (i == 0) {
			snprintf(p, sizeof(p), "%s/gone.dat", argv[1]);
			put(p, 0, 65536, 1);
			if (stat(p, &a) || unlink(p)) exit(2);
			snprintf(p, sizeof(p), "%s/reborn.dat", argv[1]);
			put(p, 0, 262144, 1);
			if (stat(p, &b)) exit(2);
		}
		snprintf(p, sizeof(p), "%s.%d", argv[2], i);
		FILE *f = fopen(p, "w");
		if (!f || fprintf(f, "%d %d\n", (int)getpid(),
				  i == 0 && a.st_ino == b.st_ino) < 0 || fclose(f))
			exit(2);
		_exit(0);
	}
	while (wait(NULL) > 0)
		;
	return 0;
}
CEOF
gcc -static -O2 -o "$T/sw-static" "$T/sw.c" 2>"$T/cc.err" ||
	skip "gcc cannot link a static program here (no static C library): $(head -1 "$T/cc.err")"

make_loop_ext4 64
paths_record "$T/static.iorec" "$T/sw-static" "$MNT" "$T/pid"
cat "$T/pid.0" "$T/pid.1" 2>/dev/null | cut -d' ' -f1 >"$T/pids" || true
[ "$(wc -l <"$T/pids")" = 2 ] || fail "the static writer did not run (pids: $(cat "$T/pids"))"
reused=$(cut -d' ' -f2 "$T/pid.0")
{
	for i in 0 1; do
		echo "file $MNT/direct-$i.dat 4194304"
		echo "blk+ $MNT/direct-$i.dat 4194304"
		echo "file $MNT/buffered-$i.dat 4194304"
		echo "blk+ $MNT/buffered-$i.dat 4194304"
	done
	echo "file $MNT/reborn.dat 262144"
	echo "blk+ $MNT/reborn.dat 262144"
} >"$T/truth"
# the end snapshot's inode counts (kept, named, gone, not named, not
# kept, microseconds) and its lines of the loop device's inodes: where a
# failure below comes from
python3 - "$T/static.iorec" "$top_srcdir/tests" "$LOOP_DEVT" <<'PY' >&2 || true
import subprocess, sys
sys.path.insert(0, sys.argv[2])
import iorecfile
buf = open(sys.argv[1], "rb").read()
for off, typ, flags, seq, stored, raw in iorecfile.chunks(buf):
	if typ == iorecfile.SNAPSHOT:
		p = iorecfile.payload(buf, off)
		if flags & iorecfile.COMPRESSED:
			p = subprocess.run(["zstd", "-dc"], input=p, stdout=subprocess.PIPE, check=True).stdout
		for l in p.decode(errors="replace").splitlines():
			f = l.split("\t")
			if f[0] == "inodes" or (f[0] in ("inode", "reused") and f[1] == sys.argv[3]):
				print("static: end snapshot: %s" % l.replace("\t", " "))
PY
paths_check "$T/static.iorec" "$T/truth" static
# the deleted file's inode number given again (to reborn.dat, or to the
# other writer's file created at that moment): the end snapshot's line
# for it is a "reused" one
echo "static: reborn.dat has the deleted file's inode: $([ "$reused" = 1 ] && echo yes || echo no)" >&2
if [ "$reused" = 1 ]; then
	python3 - "$T/static.iorec" "$top_srcdir/tests" "$MNT/reborn.dat" <<'PY' ||
import subprocess, sys
sys.path.insert(0, sys.argv[2])
import iorecfile
buf = open(sys.argv[1], "rb").read()
text = ""
for off, typ, flags, seq, stored, raw in iorecfile.chunks(buf):
	if typ == iorecfile.SNAPSHOT:
		p = iorecfile.payload(buf, off)
		if flags & iorecfile.COMPRESSED:
			p = subprocess.run(["zstd", "-dc"], input=p, stdout=subprocess.PIPE, check=True).stdout
		text += p.decode(errors="replace")
lines = [l for l in text.splitlines() if l.startswith("reused\t")]
print("static: reused lines: %r" % lines, file=sys.stderr)
sys.exit(0 if any(l.split("\t")[4] == sys.argv[3] for l in lines) else 1)
PY
		fail "static: the end snapshot has no reused line for reborn.dat"
fi

# the share of the writer's bytes on named files, the deleted file, and
# no name under $MNT that the truth does not have
python3 - "$T/static.files.json" "$T/static.procs.json" "$T/pids" "$MNT" "$LOOP_DEVT" "$reused" <<'PY' ||
import json, sys
F, P = (json.load(open(f)) for f in sys.argv[1:3])
pids = {int(x) for x in open(sys.argv[3]).read().split()}
pidfiles = sum(len("%d 0\n" % p) for p in pids)	# what each wrote of its pid
mnt, devt = sys.argv[4], sys.argv[5]
total = sum(p["write_bytes"] for p in P["processes"] if p["pid"] in pids) - pidfiles
named = sum(f["write_bytes"] for f in F["files"]
            if f["path"] and f["path"].startswith(mnt + "/"))
share = 100.0 * named / total if total else 0
print("static: %d of the writer's %d bytes on named files (%.2f%%)" % (named, total, share), file=sys.stderr)
bad = share < 99.0 or total != 4 * 4194304 + 65536 + 262144
extra = sorted({f["path"] for f in F["files"] if f["path"] and f["path"].startswith(mnt + "/")} -
               {"%s/%s-%d.dat" % (mnt, k, i) for k in ("direct", "buffered") for i in (0, 1)} -
               {mnt + "/reborn.dat"})
if extra:
	print("static: names that are no file of the writer: %r" % extra, file=sys.stderr)
	bad = True
gone = [f for f in F["files"] if not f["path"] and f["write_bytes"] == 65536]
print("static: the deleted file: %r" % [(f["name"], f["dev"], f["ino"], f.get("unlinked")) for f in gone], file=sys.stderr)
# its inode given again (reborn.dat): known by its fd, the inode being
# the new file's; else by its inode
reused = sys.argv[6] == "1"
if len(gone) != 1 or not gone[0].get("unlinked") or \
   (gone[0]["dev"], bool(gone[0]["ino"])) != ((None, False) if reused else (devt, True)):
	bad = True
sys.exit(1 if bad else 0)
PY
	fail "static: the static writer's files are not named, or the deleted one is"
"$IOREPORT" files --wide --top 1000000 "$T/static.iorec" >"$T/static.files.txt" 2>"$T/err" ||
	{ cat "$T/err" >&2; fail "ioreport files failed"; }
grep -q "inodes that had I/O, named through the file system" "$T/static.files.txt" ||
	fail "static: the files view does not say where the names come from"
if [ "$reused" = 1 ]; then
	grep -qE "<unknown fd [0-9]+ of pid [0-9]+> +\(unlinked\)" "$T/static.files.txt" ||
		fail "static: the deleted file is not shown by its fd, unlinked"
else
	grep -qE "<dev $LOOP_DEVT ino [0-9]+> +\(unlinked\)" "$T/static.files.txt" ||
		fail "static: the deleted file is not shown by its inode, unlinked"
fi
# the views of it agree with each other (the filtered ones too)
check_views "$T/static.iorec"
finish
