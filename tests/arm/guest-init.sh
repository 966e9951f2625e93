#!/bin/busybox sh
# guest-init.sh - /init of the ARM test guests (tests/arm/qemu-arm.sh):
# mounts proc/sys/tracefs, loads the virtio and ext4 modules, mounts the
# workload disk (vda) and the output disk (vdb), runs each line of /cases,
# and powers off.  Everything a case writes goes to vdb:/rec, which the host
# reads back with debugfs.
#
# /cases lines:
#   check NAME IOREC [ARGS...]            iorec --check output -> NAME.check
#   rec NAME IOREC SHELL WRITER [ARGS...] record SHELL -c "WRITER DIR NAME; sync"
# A rec case leaves NAME.iorec, NAME.out (the writer's report), NAME.err,
# NAME.rc, and NAME.ds0/NAME.ds1 (/proc/diskstats before and after).
/bin/busybox mkdir -p /proc /sys /dev /tmp /mnt/work /mnt/out /bin
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null ||
	mount -t debugfs nodev /sys/kernel/debug
while read -r m; do
	insmod "$m" 2>/dev/null || echo "guest: insmod $m failed"
done < /modules.order
for i in 1 2 3 4 5 6 7 8 9 10; do
	[ -b /dev/vda ] && [ -b /dev/vdb ] && break
	sleep 0.5
done
# virtio-mmio numbers the disks in reverse: tell them by size (the output
# disk is the 128 MiB one)
work=vda out=vdb
if [ "$(cat /sys/block/vda/size)" = 262144 ]; then
	work=vdb out=vda
fi
mount -t ext4 /dev/$work /mnt/work || echo "guest: cannot mount $work"
mount -t ext4 /dev/$out /mnt/out || echo "guest: cannot mount $out"
echo "$work" > /mnt/out/workdev
mkdir -p /mnt/out/rec
R=/mnt/out/rec
mv /mnt/out/workdev $R/workdev
echo "guest: $(uname -r) $(uname -m), $(grep -c ^processor /proc/cpuinfo) CPUs"
uptime_s() { cut -d' ' -f1 /proc/uptime; }

while read -r kind name rest; do
	[ -n "$kind" ] || continue
	t0=$(uptime_s)
	# shellcheck disable=SC2086
	set -- $rest
	case $kind in
	check)
		iorec=$1
		shift
		$iorec --check "$@" > "$R/$name.check" 2>&1
		echo $? > "$R/$name.check.rc"
		;;
	rec)
		iorec=$1 sh=$(echo "$2" | tr '\037' ' ') writer=$3
		shift 3
		mkdir -p "/mnt/work/$name"
		sync
		echo 3 > /proc/sys/vm/drop_caches
		cat /proc/diskstats > "$R/$name.ds0"
		$iorec "$@" -o "$R/$name.iorec" -- \
			$sh -c "$writer /mnt/work/$name $name; sync" \
			> "$R/$name.out" 2> "$R/$name.err"
		echo $? > "$R/$name.rc"
		cat /proc/diskstats > "$R/$name.ds1"
		;;
	esac
	echo "guest: $kind $name rc=$(cat "$R/$name"*.rc 2>/dev/null | head -1) $(uptime_s) s (started at $t0)"
done < /cases

sync
umount /mnt/work
umount /mnt/out
echo IOREC-GUEST-DONE
poweroff -f
