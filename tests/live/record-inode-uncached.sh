#!/usr/bin/env bash
# record-inode-uncached.sh - the end snapshot names the inodes that had
# I/O by opening them by handle; an inode whose dentry is no longer cached
# comes back without its directory, and its path then reads "/".  Here a
# file is written and the dentry and inode caches dropped before the end
# snapshot: no inode line of the loop device may name a file other than
# the mount's root "/" (the views would say the writes went to "/"), and a
# file whose dentry is cached is still named by its path.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

need_root_tracefs
need_cmd python3 mkfs.ext4 zstd
need_event ext4:ext4_sync_file_enter

make_loop_ext4 32 "" ""
run_iorec -q -o "$T/drop.iorec" -- sh -c "dd if=/dev/zero of='$MNT/a' bs=64k count=16 conv=fsync status=none &&
	echo 2 > /proc/sys/vm/drop_caches" || fail "iorec -- dd failed"
run_iorec -q -o "$T/kept.iorec" -- sh -c "dd if=/dev/zero of='$MNT/b' bs=64k count=16 conv=fsync status=none" ||
	fail "iorec -- dd failed"
python3 - "$top_srcdir/tests" "$LOOP_DEVT" "$MNT" "$T/drop.iorec" "$T/kept.iorec" <<'PY' || fail "the inode lines name a file \"/\""
import subprocess, sys
sys.path.insert(0, sys.argv[1])
import iorecfile
devt, mnt = sys.argv[2], sys.argv[3]
def lines(path):
    buf = open(path, "rb").read()
    out = []
    for off, typ, flags, seq, stored, raw in iorecfile.chunks(buf):
        if typ == iorecfile.SNAPSHOT:
            p = iorecfile.payload(buf, off)
            if flags & iorecfile.COMPRESSED:
                p = subprocess.run(["zstd", "-dc"], input=p, stdout=subprocess.PIPE, check=True).stdout
            out += [l.split("\t") for l in p.decode(errors="replace").splitlines()]
    return [f for f in out if f[0] in ("inode", "reused") and f[1] == devt]
bad = [f for f in lines(sys.argv[4]) if f[4] == "/" and f[2] != "2"]
kept = [f for f in lines(sys.argv[5]) if f[4] == mnt + "/b"]
print("record-inode-uncached: uncached: %r; cached: %r" % (
    [(f[2], f[4]) for f in lines(sys.argv[4])], [(f[2], f[4]) for f in kept]), file=sys.stderr)
sys.exit(1 if bad or not kept else 0)
PY
finish
