#!/usr/bin/env bash
# qemu-smp.sh - iorec on a machine of 16 CPUs: Debian 12's own amd64
# kernel booted under qemu with 16 virtual CPUs (KVM where it works, else
# qemu's own emulation, one host thread per CPU), the host's root file
# system shared read-only (9p), so the guest runs the very iorec and
# ioreport under test.  In the guest: iorec --check, and a recording of 16
# writers with known counts by the default iorec, which chooses its reader
# threads (8, each reading and compressing 2 CPUs) and buffers from the
# CPU count and memory.  On this machine: the recording is complete, holds
# 16 CPUs, lost nothing, every writer's calls and bytes are exact, the
# events come from many CPUs, and no view counts the recorder's own
# (reader threads') calls.
#
# qemu-system-x86 is installed when missing; the kernel and busybox-static
# packages are downloaded (apt-get download) into the test's directory,
# which is removed at the end.
. "$(dirname "$0")/../live/lib.sh"

[ "$(id -u)" = 0 ] || skip "needs root (apt-get, qemu's 9p export of /)"
[ -z "${IOREC_TEST_ONCE_DONE:-}" ] ||
	skip "the 16-CPU guest ran in the $IOREC_TEST_ONCE_DONE build of this run"
[ "$(uname -m)" = x86_64 ] || skip "written for an x86_64 host"
command -v apt-get >/dev/null || skip "needs apt-get (a Debian host)"
for x in "$IOREC" "$IOREPORT"; do [ -x "$x" ] || fail "$x not built (run make)"; done
command -v gcc >/dev/null || skip "needs gcc (the writer is built here)"
NCPU=16
start=$(date +%s)
elapsed() { echo "$(( $(date +%s) - start ))s"; }

need_packages qemu-system-x86 cpio kmod
command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 missing after install"

kver_n=$(apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64-unsigned$' |
	sed -n 's/^linux-image-6\.1\.0-\([0-9]*\)-amd64-unsigned .*/\1/p' | sort -n | tail -1)
[ -n "$kver_n" ] || skip "no linux-image-6.1.0-*-amd64-unsigned in the package lists"
KVER=6.1.0-$kver_n-amd64
mkdir -p "$T/deb" "$T/k" "$T/bb"
(cd "$T/deb" && apt-get download -q -o APT::Sandbox::User=root \
	"linux-image-$KVER-unsigned" busybox-static >/dev/null 2>"$T/download.err") ||
	{ cat "$T/download.err" >&2; fail "apt-get download of the kernel and busybox-static failed"; }
dpkg-deb --fsys-tarfile "$T"/deb/linux-image-*.deb | tar x -C "$T/k" --wildcards \
	'./boot/vmlinuz-*' './lib/modules/*/modules.*' './lib/modules/*/kernel/fs/*' \
	'./lib/modules/*/kernel/net/9p/*' './lib/modules/*/kernel/drivers/virtio/*' \
	'./lib/modules/*/kernel/lib/*' './lib/modules/*/kernel/crypto/*' \
	'./lib/modules/*/kernel/arch/*' 2>/dev/null
VMLINUZ=$T/k/boot/vmlinuz-$KVER
[ -f "$VMLINUZ" ] || fail "no vmlinuz-$KVER in the package"
dpkg-deb -x "$T"/deb/busybox-static_*.deb "$T/bb"
depmod -b "$T/k" "$KVER" || fail "depmod -b $T/k $KVER failed"
log "downloads done ($(elapsed)): $KVER"

# ---------------------------------------------------------------- initramfs

ir=$T/ir
mkdir -p "$ir/bin" "$ir/mod" "$ir/proc" "$ir/sys" "$ir/dev" "$ir/host"
cp "$T/bb/bin/busybox" "$ir/bin/"
: >"$ir/mods"
for m in 9p 9pnet_virtio virtio_pci; do
	modprobe -d "$T/k" -S "$KVER" --show-depends "$m" 2>"$T/modprobe.err" |
		awk '$1 == "insmod" { print $2 }' >>"$T/mods.txt" ||
		{ cat "$T/modprobe.err" >&2; fail "modprobe --show-depends $m failed"; }
done
awk '!seen[$0]++' "$T/mods.txt" | while read -r m; do
	cp "$m" "$ir/mod/" && echo "/mod/$(basename "$m")" >>"$ir/mods"
done
grep -q 9pnet_virtio "$ir/mods" || fail "the guest's modules lack 9pnet_virtio: $(cat "$ir/mods")"
# The guest: the host's / read-only under /host, its own proc, sys, dev,
# tracefs and a tmpfs on /run, the output share on /run/out; runs the
# script the kernel command line names, then powers off.
cat >"$ir/init" <<'INIT'
#!/bin/busybox sh
B=/bin/busybox
$B mount -t proc proc /proc
$B mount -t sysfs sys /sys
$B mount -t devtmpfs dev /dev
cmd=$($B sed -n 's/.*guestcmd=\([^ ]*\).*/\1/p' /proc/cmdline)
for m in $($B cat /mods); do $B insmod "$m" || echo "init: insmod $m failed"; done
$B mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=524288,cache=loose hostroot /host ||
	echo "init: cannot mount the host's root"
$B mount -t proc proc /host/proc
$B mount -t sysfs sys /host/sys
$B mount -t devtmpfs dev /host/dev
$B ln -s /proc/self/fd /host/dev/fd
$B mount -t tracefs nodev /host/sys/kernel/tracing
$B mount -t tmpfs tmpfs /host/run
$B mkdir -p /host/run/out /host/run/tmp
$B mount -t 9p -o trans=virtio,version=9p2000.L,msize=524288 out /host/run/out ||
	echo "init: cannot mount the output share"
echo "init: $($B cut -d' ' -f1 /proc/uptime) s, running $cmd"
$B chroot /host /bin/bash -c "cd /run/out && TMPDIR=/run/tmp bash ./$cmd > /run/out/guest.log 2>&1; echo \$? > /run/out/guest.rc"
$B sync
echo o > /proc/sysrq-trigger
$B sleep 30
INIT
chmod +x "$ir/init"
(cd "$ir" && find . | cpio -o -H newc 2>/dev/null | gzip -1) >"$T/initrd.gz" ||
	fail "cannot pack the initramfs"

# ---------------------------------------------------------------- the guest's work

out=$T/out
mkdir -p "$out"
cat >"$T/storm.c" <<'C'
/* N 512-byte buffered write()s to FILE at RATE a second; prints N */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static char buf[512];
	long n, i, rate;
	int fd;

	if (argc != 4)
		return 2;
	n = atol(argv[2]);
	rate = atol(argv[3]);
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return 1;
	for (i = 0; i < n; i++) {
		if (write(fd, buf, sizeof(buf)) != sizeof(buf))
			return 1;
		if (rate && i % 100 == 99) {
			struct timespec d = { 0, 100 * (1000000000L / rate) };

			nanosleep(&d, NULL);
		}
	}
	printf("%ld\n", n);
	return close(fd) ? 1 : 0;
}
C
gcc -O2 -o "$out/storm" "$T/storm.c" || fail "cannot build the writer"
cat >"$out/guest.sh" <<EOF
# in the guest: $NCPU CPUs
nproc
"$IOREC" --check >check.txt 2>&1 || { cat check.txt; exit 1; }
# 16 writers, each 4000 writes at about 2000 a second
"$IOREC" -q -o /run/tmp/smp.iorec -- bash -c \\
	'for i in \$(seq 0 $((NCPU - 1))); do ./storm /run/tmp/w\$i 4000 2000 >storm.\$i & echo "\$i \$!" >>pids; done; wait' \\
	2>rec.err
echo "iorec exit \$?"
cp /run/tmp/smp.iorec . && cat /run/tmp/w* | wc -c >bytes
EOF

accel=(-accel tcg,thread=multi -cpu max)
# KVM only when asked: a nested KVM may not boot this kernel at all
[ -w /dev/kvm ] && [ -n "${IOREC_SMP_KVM:-}" ] && accel=(-enable-kvm -cpu host)
log "booting $KVER with $NCPU CPUs (${accel[*]})"
timeout 900 qemu-system-x86_64 "${accel[@]}" -smp "$NCPU" -m 4096 -nographic -no-reboot \
	-kernel "$VMLINUZ" -initrd "$T/initrd.gz" \
	-append "console=ttyS0 quiet panic=-1 guestcmd=guest.sh" \
	-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
	-virtfs "local,path=$out,mount_tag=out,security_model=none" \
	>"$T/console.log" 2>&1 || true
[ -s "$out/guest.rc" ] || { tail -30 "$T/console.log" >&2; fail "the guest did not run its script"; }
log "guest done ($(elapsed)): $(tr '\n' ' ' <"$out/guest.log")"
[ "$(cat "$out/guest.rc")" = 0 ] || { cat "$out/guest.log" "$out/rec.err" >&2; fail "the guest's script failed"; }

# ---------------------------------------------------------------- checks here

grep -q "^$NCPU\$" "$out/guest.log" || fail "the guest has not $NCPU CPUs: $(head -1 "$out/guest.log")"
grep -q "iorec exit 0" "$out/guest.log" || { cat "$out/rec.err" >&2; fail "iorec failed in the guest"; }
grep -q "kernel .*$KVER x86_64, $NCPU CPUs" "$out/check.txt" || fail "iorec --check: $(grep kernel "$out/check.txt")"
th=$(sed -n 's/^  readers *\([0-9]*\) threads, each reading and compressing \([0-9]*\) CPUs.*/\1 \2/p' "$out/check.txt")
[ "$th" = "$((NCPU / 2)) 2" ] || fail "iorec --check on $NCPU CPUs: readers '$(grep readers "$out/check.txt")'"
grep -q "^  buffers .*from the memory and CPU count" "$out/check.txt" ||
	fail "iorec --check chose no buffer size from the machine: $(grep buffers "$out/check.txt")"
log "$(grep -E '^  (buffers|readers)' "$out/check.txt" | tr -s ' ')"

f=$out/smp.iorec
"$IOREPORT" info --json "$f" >"$T/info.json" || fail "ioreport info failed on the guest's recording"
python3 - "$T/info.json" "$NCPU" <<'PY' || fail "the guest's recording: see above"
import json, sys
i = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
bad = []
if i["cpus"] != n:
    bad.append("cpus %s, not %d" % (i["cpus"], n))
if not i["integrity"]["complete"]:
    bad.append("integrity %s" % i["integrity"]["status"])
lost = sum(c["overrun"] + c["dropped"] for c in i["kernel_lost"])
if lost:
    bad.append("%d events lost" % lost)
busy = sum(1 for c in i["cpu"] if c["events"] > 0)
if busy < 4:
    bad.append("events on %d CPUs only" % busy)
print("qemu-smp: recording: %d CPUs, %d with events, %d events, 0 lost, %s" %
      (i["cpus"], busy, i["events"], i["integrity"]["status"]), file=sys.stderr)
if bad:
    print("qemu-smp: " + "; ".join(bad), file=sys.stderr)
    sys.exit(1)
PY
"$IOREPORT" processes --csv --top 100000 "$f" >"$T/procs.csv" || fail "ioreport processes failed"
self=$("$IOREPORT" info "$f" | sed -n 's/^  recorder pid: *//p')
python3 - "$T/procs.csv" "$out" "$self" "$NCPU" <<'PY' || fail "the processes view of the 16-CPU recording is wrong (see above)"
import csv, sys
rows = {r["pid"]: r for r in csv.DictReader(open(sys.argv[1]))}
out, self, n = sys.argv[2], sys.argv[3], int(sys.argv[4])
bad, total = [], 0
for line in open(out + "/pids"):
    i, pid = line.split()
    said = open("%s/storm.%s" % (out, i)).read()
    total += int(said) * 512
    # its writes, and the line it printed to its stdout (a file)
    want = int(said) * 512 + len(said)
    got = int(rows[pid]["write_bytes"]) if pid in rows else 0
    if got != want:
        bad.append("writer %s (pid %s): %d bytes written, the view says %d" % (i, pid, want, got))
if int(open(out + "/bytes").read()) != total:
    bad.append("the files hold %s bytes, the writers said %d" % (open(out + "/bytes").read().strip(), total))
if self in rows and int(rows[self]["calls"]):
    bad.append("the recorder (pid %s) is counted with %s calls" % (self, rows[self]["calls"]))
print("qemu-smp: %d writers, %d bytes, each exact in the processes view; the recorder's calls: %s" %
      (n, total, rows[self]["calls"] if self in rows else "none"), file=sys.stderr)
if bad:
    print("qemu-smp: " + "\n".join(bad), file=sys.stderr)
    sys.exit(1)
PY
finish
