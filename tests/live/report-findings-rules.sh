#!/usr/bin/env bash
# report-findings-rules.sh - each rule of ioreport findings on a live
# recording whose cause the test made (docs/findings.md):
#  - an emulated SD card (ext4 on a loop device with direct I/O whose
#    backing file lives on a second loop device throttled by the cgroup v1
#    blkio controller, as samples/make-samples.sh makes it): random 4 KiB
#    writes with an fdatasync every 5 give small-scattered-writes on the
#    card, a fsync finding and the flash wear of the writer on its file;
#  - a cold file (evicted with POSIX_FADV_DONTNEED) read from the card,
#    recorded with the iowait profile: read-misses and iowait of the reader;
#  - dd with vm.dirty_bytes=8 MiB: dirty-throttling naming the sysctl;
#  - 4 KiB writes each followed by fsync on ext4 mounted data=journal:
#    write-amplification whose cause is data=journal.
# Throttles and sysctls are restored on every exit path.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

need_root_tracefs
need_cmd python3 mkfs.ext4 losetup
need_event block:block_rq_complete ext4:ext4_sync_file_enter \
	writeback:balance_dirty_pages sched:sched_switch
save_dirty_sysctls

# finding NAME EXPR WHAT: the expression over the findings of NAME.json
# (tests/findings-query.py says what it sees) must be true, else fail
# with WHAT; the finding it names is logged.
finding() {
	local x
	x=$(python3 "$top_srcdir/tests/findings-query.py" "$T/$1.json" "$2") || fail "$3"
	log "$x"
}
findings() {	# NAME: NAME.iorec -> NAME.json
	"$IOREPORT" findings --json --top 100 "$T/$1.iorec" >"$T/$1.json" ||
		fail "ioreport findings --json $1 failed"
}

# the card: 100 IOPS
make_card_ext4 100 64
CARD_MNT=$MNT CARDNAME=$LOOPNAME
python3 -c 'import os,sys
for name in ("data", "cold"):
    with open(sys.argv[1] + "/" + name, "wb") as f:
        f.write(os.urandom(8 << 20)); f.flush(); os.fsync(f.fileno())' "$CARD_MNT" ||
	fail "cannot fill the card"
sync

# 1. small scattered synced writes on the card
run_iorec -q -o "$T/card.iorec" -- python3 -c 'import os,random,sys
open("/proc/self/comm", "w").write("cardwriter")
fd = os.open(sys.argv[1], os.O_WRONLY)
random.seed(1)
for i in range(150):
    os.pwrite(fd, os.urandom(4096), random.randrange(2048) * 4096)
    if i % 5 == 4:
        os.fdatasync(fd)' "$CARD_MNT/data" || fail "iorec -- cardwriter failed"
findings card
finding card "one('small-scattered-writes', device='$CARDNAME')" \
	"no small-scattered-writes on the card $CARDNAME"
finding card "one('small-scattered-writes', device='$CARDNAME', process='cardwriter', file='$CARD_MNT/data')" \
	"the card's slow writes are not cardwriter's on $CARD_MNT/data"
finding card "(x := one('fsync', process='cardwriter', device='$CARDNAME', file='$CARD_MNT/data')) and x['evidence']['fsyncs'] == 30 and x" \
	"no fsync finding of cardwriter's 30 fdatasyncs on $CARD_MNT/data on $CARDNAME"
finding card "(x := one('flash-wear', device='$CARDNAME', process='cardwriter', file='$CARD_MNT/data')) and abs(x['numbers']['bytes_per_day'] - x['evidence']['write_bytes'] * 86400 / x['numbers']['seconds']) < 0.01 * x['numbers']['bytes_per_day'] and x['numbers']['small_sync_share'] > 0.5 and x" \
	"no flash wear of the card naming cardwriter and $CARD_MNT/data"

# 2. a cold read from the card, with the iowait profile
python3 -c 'import os,sys
fd = os.open(sys.argv[1], os.O_RDONLY)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)' "$CARD_MNT/cold"
run_iorec -q -p io,iowait -o "$T/cold.iorec" -- python3 -c 'import sys
open("/proc/self/comm", "w").write("coldreader")
with open(sys.argv[1], "rb", buffering=0) as f:
    while f.read(131072):
        pass' "$CARD_MNT/cold" || fail "iorec -- coldreader failed"
findings cold
finding cold "(x := one('read-misses', process='coldreader', file='$CARD_MNT/cold')) and x['evidence']['block.read_bytes'] >= 7 << 20 and x" \
	"no read misses of coldreader on $CARD_MNT/cold (8 MiB evicted)"
finding cold "one('iowait', process='coldreader', device='$CARDNAME')" \
	"no iowait finding for coldreader on $CARDNAME"

# 3. dirty throttling with low limits
unique_dd
echo $((4 << 20)) >$VM/dirty_background_bytes
echo $((8 << 20)) >$VM/dirty_bytes
run_iorec -q -o "$T/dirty.iorec" -- "$DD" if=/dev/zero of="$LOWER_MNT/big" bs=1M count=48 status=none ||
	fail "iorec -- dd failed"
restore_dirty_sysctls
findings dirty
finding dirty "(x := one('dirty-throttling', process='dd', sysctl='vm.dirty_bytes=8388608')) and x['evidence']['paused_ns'] > 0 and x" \
	"no dirty-throttling of dd naming vm.dirty_bytes=8388608"

# 4. write amplification from data=journal
make_loop_ext4 64 "" "data=journal"
run_iorec -q -o "$T/journal.iorec" -- python3 -c 'import os,sys
open("/proc/self/comm", "w").write("jwriter")
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT, 0o644)
for i in range(512):
    os.write(fd, os.urandom(4096))
    os.fsync(fd)' "$MNT/j" || fail "iorec -- jwriter failed"
findings journal
finding journal "(x := one('write-amplification', device='$LOOPNAME')) and 'data=journal' in x['sentence'] and x['numbers']['ratio'] >= 1.5 and x" \
	"no write amplification on $LOOPNAME caused by data=journal"
finish
