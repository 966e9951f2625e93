#!/usr/bin/env bash
# blackbox-bench.sh - what the black box (iorec --snapshot-dir) costs
# while nothing fires: the bytes it writes to the device of its snapshot
# directory, its CPU time scaled to an hour, and its memory.
#
# The black box runs with the service's default settings (-F 16M,
# triggers fsync>1s, d2c>500ms, throttle>1s) for D seconds, its snapshot
# directory on a loop ext4 of its own that nothing else writes, while a
# small writer (4 KiB appended and fdatasync'ed every 0.5 s, a home
# automation database's pace) runs on the root file system.  Then it is
# stopped with SIGINT.  Not a test: it needs root and D seconds.
#
# How each number is measured:
#   written   sectors written to the snapshot directory's loop device,
#             /proc/diskstats before and after the D seconds (x 512)
#   cpu       utime + stime of the iorec process (all its threads),
#             /proc/PID/stat, over the D seconds; per hour = x 3600 / D
#   rss       VmHWM (peak resident set) of /proc/PID/status at the end
#   events    'recorded ... N events' of iorec's end summary, per second
#             of its run
#   fired     snapshots written in the D seconds (then 'written' holds
#             them: the machine had a slow moment)
#
# usage: blackbox-bench.sh [-d SECONDS] [-t TRIGGERS] [-k]
#   -d SECONDS  how long to measure (default 300)
#   -t TRIGGERS the --trigger list (default the service's: fsync>1s,
#               d2c>500ms,throttle>1s; on a loaded machine raise the
#               thresholds, which cost the same to evaluate, so that
#               nothing fires)
#   -k          keep the files
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
D=300 TRIG='fsync>1s,d2c>500ms,throttle>1s'
bench_options d:D t:TRIG k=KEEP -- "$@"
[ ${#ARGS[@]} = 0 ] || usage
need_tracing "$IOREC" losetup:mount mkfs.ext4:e2fsprogs
make_tmp "the snapshot directory's image and the logs"
LOOP=
cleanup() {
	[ -z "${BB:-}" ] || kill -INT "$BB" 2>/dev/null || true
	[ -z "${WL:-}" ] || kill "$WL" 2>/dev/null || true
	wait 2>/dev/null || true
	umount "$T/mnt" 2>/dev/null || true
	[ -z "$LOOP" ] || losetup -d "$LOOP" 2>/dev/null || true
	bench_exit
}
trap cleanup EXIT

truncate -s 256M "$T/snap.img"
LOOP=$(losetup -f --show "$T/snap.img") || die "losetup failed"
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$LOOP" || die "mkfs.ext4 $LOOP failed"
mkdir "$T/mnt"
mount "$LOOP" "$T/mnt" || die "cannot mount $LOOP"
mkdir "$T/mnt/snaps"
sync
dev=$(basename "$LOOP")

( trap 'exit 0' TERM
  while :; do
	dd if=/dev/zero of="$T/db" bs=4k count=1 oflag=append conv=notrunc,fdatasync status=none
	sleep 0.5
  done ) &
WL=$!

"$IOREC" --snapshot-dir "$T/mnt/snaps" --pid-file "$T/pid" -F 16M \
	--trigger "$TRIG" --post 10s --cooldown 10m \
	--keep 10 --keep-size 256M 2>"$T/iorec.err" &
BB=$!
for ((i = 0; i < 200; i++)); do [ -s "$T/pid" ] && break; sleep 0.05; done
[ -s "$T/pid" ] || { cat "$T/iorec.err" >&2; die "the black box did not start"; }
sleep 2

ticks() { awk '{ print $14 + $15 }' "/proc/$BB/stat"; }
sectors() { awk -v d="$dev" '$3 == d { print $10 }' /proc/diskstats; }
hz=$(getconf CLK_TCK)
w0=$(sectors) c0=$(ticks) t0=$(date +%s.%N)
sleep "$D"
w1=$(sectors) c1=$(ticks) t1=$(date +%s.%N)
hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$BB/status")
fired=$(find "$T/mnt/snaps" -name 'iorec-*.iorec' | wc -l)
kill -INT "$BB"
wait "$BB" || die "iorec exited $?"
BB=
grep '^iorec: snapshot ' "$T/iorec.err" || true
events=$(sed -n 's/.*recorded \([0-9.]*\) s .*: \([0-9]*\) events.*/\1 \2/p' "$T/iorec.err")
awk -v w=$((w1 - w0)) -v c=$((c1 - c0)) -v hz="$hz" -v t0="$t0" -v t1="$t1" \
    -v hwm="$hwm" -v ev="$events" -v fired="$fired" -v trig="$TRIG" 'BEGIN {
	split(ev, e, " "); secs = t1 - t0
	printf "triggers %s\n", trig
	printf "measured %.0f s: %d bytes written to the snapshot device, %d snapshots\n", secs, w * 512, fired
	printf "cpu %.2f s (%.1f s per hour, %.3f%% of one CPU), peak RSS %.1f MiB\n",
	       c / hz, c / hz * 3600 / secs, c / hz / secs * 100, hwm / 1024
	if (e[1] > 0)
		printf "events %d in %.0f s of recording (%.0f/s)\n", e[2], e[1], e[2] / e[1]
}'
