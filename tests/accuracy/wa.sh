#!/usr/bin/env bash
# test-wa-live.sh - write amplification on live recordings, against the
# kernel's own count.
#
# The same fio workload (4 KiB random overwrites, fsync after each) runs on
# three fresh ext4 loop file systems: journaled (data=ordered), without a
# journal, and with data=journal.  Each run is recorded with iorec; the
# truth is /proc/diskstats of the loop device (bytes written during the
# recording) over the bytes fio says it wrote.  `ioreport wa --json` must
# give, for the loop device, a ratio within 10% of that truth, and its
# split must show the journal where there is one and none where there is
# not.  The figures are printed for the record.
# shellcheck source=../live/lib.sh
. "$(dirname "$0")/../live/lib.sh"

need_root_tracefs
need_cmd fio python3 mkfs.ext4
need_event block:block_rq_complete jbd2:jbd2_run_stats ext4:ext4_sync_file_enter

SIZE_MB=${WA_SIZE_MB:-16}	# the file fio overwrites
IO_MB=${WA_IO_MB:-16}		# what fio writes

# run_case NAME MKFS_OPTS MOUNT_OPTS: sets RATIO_EST RATIO_TRUE JOURNAL_B
run_case() {
	local name=$1 out=$T/$1.iorec before after ds fio_b dev
	make_loop_ext4 $((SIZE_MB * 4)) "$2" "$3"
	dd if=/dev/zero of="$MNT/f" bs=1M count="$SIZE_MB" conv=fsync status=none
	sync
	sleep 1
	before=$(diskstats_sectors "$LOOPNAME" w)
	run_iorec -q -o "$out" -- fio --name=wa --filename="$MNT/f" \
		--rw=randwrite --bs=4k --size="${SIZE_MB}M" --io_size="${IO_MB}M" \
		--fsync=1 --ioengine=psync --overwrite=1 --randrepeat=1 \
		--output-format=json --output="$T/$name.fio.json" ||
		fail "$name: iorec -- fio failed"
	after=$(diskstats_sectors "$LOOPNAME" w)
	ds=$(((after - before) * 512))
	fio_b=$(json_get "$T/$name.fio.json" 'j["jobs"][0]["write"]["io_bytes"]')
	[ "$fio_b" -gt 0 ] || fail "$name: fio wrote nothing"
	"$IOREPORT" wa --json "$out" >"$T/$name.wa.json" ||
		fail "$name: ioreport wa failed"
	"$IOREPORT" wa "$out" >"$T/$name.wa.txt" || fail "$name: ioreport wa (text) failed"
	dev=$LOOPNAME
	RATIO_EST=$(json_get "$T/$name.wa.json" \
		"[d for d in j['devices'] if d['device'] == '$dev'][0]['ratio']")
	JOURNAL_B=$(json_get "$T/$name.wa.json" \
		"[d for d in j['devices'] if d['device'] == '$dev'][0]['journal_bytes']")
	local app dev_b
	app=$(json_get "$T/$name.wa.json" \
		"[d for d in j['devices'] if d['device'] == '$dev'][0]['app_write_bytes']")
	dev_b=$(json_get "$T/$name.wa.json" \
		"[d for d in j['devices'] if d['device'] == '$dev'][0]['write_bytes']")
	RATIO_TRUE=$(python3 -c "print($ds / $fio_b)")
	log "$name: fio wrote $fio_b B; diskstats $ds B (truth ${RATIO_TRUE}x);" \
	    "ioreport: app $app B, device $dev_b B, journal $JOURNAL_B B, estimate ${RATIO_EST}x"
	python3 -c "import sys; e, t = $RATIO_EST, $RATIO_TRUE; sys.exit(0 if abs(e - t) <= 0.10 * t else 1)" ||
		{ cat "$T/$name.wa.txt" >&2; fail "$name: estimate ${RATIO_EST}x is not within 10% of diskstats ${RATIO_TRUE}x"; }
	# the file system stays mounted until the end: the cleanup stack
	# unmounts and detaches it with the others
}

run_case journal "" ""
J_EST=$RATIO_EST J_TRUE=$RATIO_TRUE J_JOURNAL=$JOURNAL_B
[ "$J_JOURNAL" -gt 0 ] || fail "journaled ext4: no journal bytes in the split"

run_case nojournal "-O ^has_journal" ""
N_EST=$RATIO_EST N_TRUE=$RATIO_TRUE
[ "$JOURNAL_B" -eq 0 ] || fail "ext4 without a journal: $JOURNAL_B journal bytes in the split"

run_case datajournal "" "data=journal"
D_EST=$RATIO_EST D_TRUE=$RATIO_TRUE D_JOURNAL=$JOURNAL_B

# data=journal writes every data block twice, to the journal and home;
# an ordered journal against none is no such truth: with 4 KiB overwrites
# and an fsync after each, the inode block a journal-less ext4 writes per
# fsync can outweigh the journaled commits (1.168x against 1.162x once)
python3 -c "import sys; sys.exit(0 if $D_EST > $J_EST + 0.5 else 1)" ||
	fail "data=journal should amplify writes more than data=ordered: ${D_EST}x vs ${J_EST}x"
python3 -c "import sys; sys.exit(0 if $D_JOURNAL > $J_JOURNAL else 1)" ||
	fail "data=journal should log more than data=ordered: $D_JOURNAL vs $J_JOURNAL journal bytes"

log "summary: journaled ${J_EST}x (diskstats ${J_TRUE}x), no journal ${N_EST}x (diskstats ${N_TRUE}x), data=journal ${D_EST}x (diskstats ${D_TRUE}x)"
finish
