#!/usr/bin/env bash
# devices-bytes.sh - 'ioreport devices' bytes and requests against what fio
# says it did: O_DIRECT sequential writes, then O_DIRECT sequential reads,
# of a file on a loop ext4, recorded with 'iorec -- fio'.
#
# The file is laid out (written and synced) before the recording, so inside
# it fio overwrites allocated blocks and ext4 allocates nothing.  O_DIRECT
# I/O goes to the device as it is issued: one request per fio block (bs is
# below the loop device's max_sectors_kb, and psync has one I/O in flight, so
# nothing to merge), unless ext4 has to split a block at an extent boundary.
#
# Truth and tolerance, writes: fio's io_bytes <= ioreport's write bytes <=
# io_bytes + 1 MiB, the 1 MiB being metadata written inside the window (the
# inode's mtime: one jbd2 commit of a few blocks for end_fsync, maybe a
# second from the 5 s commit timer); requests >= io_bytes/bs and at most 64
# more (metadata requests and extent-boundary splits).  Reads: the caches
# are dropped before, so the inode and extent blocks may be read once:
# io_bytes <= read bytes <= io_bytes + 256 KiB, requests likewise + 64.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/accuracy/acc-lib.sh"
need_root_tracefs
need_cmd python3 fio
need_event block:block_rq_issue block:block_rq_complete

make_loop_ext4 128 "" noatime

SIZE=$((24 * 1048576))
WBS=65536
RBS=16384
FILE=$MNT/fio.dat

fio --name=layout --filename="$FILE" --size=$SIZE --create_only=1 \
	--output="$T/layout.log" || fail "fio could not lay out $FILE"
[ "$(stat -c %s "$FILE")" = "$SIZE" ] || fail "fio laid out $(stat -c %s "$FILE") bytes, not $SIZE"
drop_caches
diskstats_quiet "$LOOPNAME"

cat >"$T/work.sh" <<EOF
set -e
fio --name=w --filename='$FILE' --rw=write --bs=$WBS --size=$SIZE --direct=1 \
	--ioengine=psync --end_fsync=1 --output-format=json --output='$T/w.json'
fio --name=r --filename='$FILE' --rw=read --bs=$RBS --size=$SIZE --direct=1 \
	--ioengine=psync --output-format=json --output='$T/r.json'
EOF
rc=0
"$IOREC" -q -o "$T/rec.iorec" -- bash "$T/work.sh" 2>"$T/rec.err" || rc=$?
[ "$rc" = 0 ] || { cat "$T/rec.err" >&2; fail "iorec -- fio exited $rc"; }

fio_bytes() {
	python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['jobs'][0][sys.argv[2]]['io_bytes'])" "$1" "$2"
}
fw=$(fio_bytes "$T/w.json" write)
fr=$(fio_bytes "$T/r.json" read)
assert_eq "fio write io_bytes" "$SIZE" "$fw"
assert_eq "fio read io_bytes" "$SIZE" "$fr"

device_report "$T/rec.iorec" "$LOOPNAME" "$LOOP_DEVT" "$LOOP_MAJMIN"
get() { awk -v op="$1" -v col="$2" '$1 == op { print $col; f = 1 } END { if (!f) print 0 }' "$T/stats"; }
w_reqs=$(get write 2) w_bytes=$(get write 3)
r_reqs=$(get read 2) r_bytes=$(get read 3)

# range NAME GOT MIN MAX
range() {
	if [ "$2" -lt "$3" ] || [ "$2" -gt "$4" ]; then
		fail_acc "$1: $2 not in [$3, $4]"
	fi
	log "ok: $1 $2 in [$3, $4] (+$(($2 - $3)) over fio)"
}
range "write bytes" "$w_bytes" "$fw" $((fw + 1048576))
range "write requests" "$w_reqs" $((fw / WBS)) $((fw / WBS + 64))
range "read bytes" "$r_bytes" "$fr" $((fr + 262144))
range "read requests" "$r_reqs" $((fr / RBS)) $((fr / RBS + 64))

finish
