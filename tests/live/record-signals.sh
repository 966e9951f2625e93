#!/usr/bin/env bash
# record-signals.sh - iorec stopped by SIGINT, SIGTERM or SIGHUP ends the
# file cleanly (END chunk naming the signal), exits 0 and removes its
# tracefs instance.
. "$(dirname "$0")/lib.sh"
need_root_tracefs

# A small steady workload so that there is something to record.
start_workload sh -c "dd if=/dev/zero of='$T/work' bs=64k count=16 conv=fsync status=none; sleep 0.05"

for sig in INT TERM HUP; do
	f=$T/sig-$sig.iorec
	# A background job of a non-interactive shell starts with SIGINT
	# ignored; give iorec the default disposition, as in a terminal.
	env --default-signal=INT,TERM,HUP "$IOREC" -q -o "$f" 2>"$T/sig-$sig.err" &
	pid=$!
	track_pid "$pid"
	wait_instance "$pid" 10 || { cat "$T/sig-$sig.err" >&2; fail "SIG$sig: instance iorec-$pid never appeared"; }
	sleep 1.5
	kill -s "$sig" "$pid"
	wait_exit "$pid" 10
	[ "$RC" = 0 ] || { cat "$T/sig-$sig.err" >&2; fail "SIG$sig: iorec exited $RC, expected 0"; }
	[ ! -d "$TRACEFS/instances/iorec-$pid" ] || fail "SIG$sig: instance iorec-$pid left behind"

	info_to "$f" "$T/info-$sig" "the SIG$sig recording"
	assert_complete "$T/info-$sig"
	r=$(end_reason "$T/info-$sig")
	case $r in
	*SIG$sig*) ;;
	*) cat "$T/info-$sig" >&2; fail "SIG$sig: END reason does not name the signal: '$r'" ;;
	esac
	n=$("$IOREPORT" dump "$f" 2>"$T/dump-$sig.err" | wc -l) ||
		{ cat "$T/dump-$sig.err" >&2; fail "SIG$sig: ioreport dump failed"; }
	[ "$n" -gt 0 ] || fail "SIG$sig: ioreport dump decoded no events"
	log "SIG$sig: exit 0, complete, END reason '$r', $n events"
done

finish
