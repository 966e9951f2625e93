#!/usr/bin/env bash
# record-limits.sh - the ways a recording ends: duration (-d), size (-S), a
# command that cannot run (127) or dies of a signal (128+N); each ends the
# file cleanly with the right END reason and removes the instance.  Also
# the iowait profile adds the scheduler events.
. "$(dirname "$0")/lib.sh"
need_root_tracefs

# -d: stops on time.
t0=$(date +%s%N)
run_iorec -q -d 1.5 -o "$T/d.iorec" 2>"$T/d.err" || { cat "$T/d.err" >&2; fail "iorec -d 1.5 failed"; }
ms=$((($(date +%s%N) - t0) / 1000000))
log "-d 1.5 took $ms ms"
[ "$ms" -ge 1400 ] || fail "iorec -d 1.5 ran $ms ms"
# what took the time on a loaded machine (the start: snapshot, instance,
# uprobes) is not the recording: -d counts from iorec's own start clock
# to its stop, both in the file; the wall time only bounds a hang
[ "$ms" -le 30000 ] || fail "iorec -d 1.5 ran $ms ms"
span=$("$IOREPORT" info --json "$T/d.iorec" | python3 -c '
import json, sys
i = json.load(sys.stdin)
print((int(i["end"]["end_mono_ns"]) - int(i["header"]["start_mono_ns"])) // 1000000)') ||
	fail "no start and end clock in ioreport info --json of the -d file"
log "-d 1.5: the recording ran $span ms from its start to its end"
[ "$span" -ge 1500 ] && [ "$span" -le 3500 ] ||
	fail "iorec -d 1.5 recorded for $span ms, not 1.5 s (+ at most 2 s to stop and drain)"
"$IOREPORT" info "$T/d.iorec" >"$T/d.info" 2>&1 || fail "ioreport info failed on the -d file"
assert_complete "$T/d.info"
r=$(end_reason "$T/d.info")
log "-d END reason: $r"
case $r in *duration* | *time*) ;; *) fail "END reason of a -d recording: '$r'" ;; esac
# iorec leaves its own syscalls out of the trace (a common_pid filter on the
# syscall events; other events raised in its context - writeback, page
# cache, block completions in interrupts - are kept on purpose).
rpid=$(info_value "$T/d.info" 'recorder pid')
[ -n "$rpid" ] || fail "ioreport info shows no recorder pid"
"$IOREPORT" dump "$T/d.iorec" >"$T/d.dump" 2>/dev/null || fail "ioreport dump failed on the -d file"
n=$(grep -cE -- "-$rpid +\[[0-9]+\] +[0-9.]+: +sys_(enter|exit)" "$T/d.dump" || true)
assert_eq "syscall events from the recorder's own pid $rpid" 0 "$n"

# -S: stops on size.  Data chunks are written only while they fit under
# the limit minus room kept for the trailer (estimated from the start
# snapshot); only an end snapshot much larger than the start one could pass
# the limit, so allow 2%.
start_workload dd if=/dev/zero of=/dev/null bs=16 count=100000 status=none
rc=0
run_iorec --timeout 30 -q -S 1M -d 25 -o "$T/s.iorec" 2>"$T/s.err" || rc=$?
stop_workload
[ "$rc" = 0 ] || { cat "$T/s.err" >&2; fail "iorec -S 1M exited $rc"; }
size=$(stat -c %s "$T/s.iorec")
log "-S 1M: file is $size bytes"
[ "$size" -le $((1048576 * 102 / 100)) ] || fail "-S 1M wrote $size bytes"
"$IOREPORT" info "$T/s.iorec" >"$T/s.info" 2>&1 || fail "ioreport info failed on the -S file"
assert_complete "$T/s.info"
r=$(end_reason "$T/s.info")
log "-S END reason: $r"
case $r in *size*) ;; *) fail "END reason of a -S recording: '$r'" ;; esac

# A command that cannot be run: 127 like a shell, and a readable file.
rc=0
run_iorec -q -o "$T/nc.iorec" -- "$T/no-such-command" 2>"$T/nc.err" || rc=$?
assert_eq "exit status of iorec -- <missing command>" 127 "$rc"
[ "$(wc -l <"$T/nc.err")" = 1 ] || { cat "$T/nc.err" >&2; fail "more than one line of error for a missing command"; }
grep -q 'no-such-command' "$T/nc.err" || fail "the error does not name the missing command"

# A command killed by a signal: 128 + N, like a shell.
rc=0
run_iorec -q -o "$T/k.iorec" -- sh -c 'kill -TERM $$' 2>"$T/k.err" || rc=$?
assert_eq "exit status of iorec -- <command killed by SIGTERM>" 143 "$rc"
"$IOREPORT" info "$T/k.iorec" >"$T/k.info" 2>&1 || fail "ioreport info failed on the killed-command file"
assert_complete "$T/k.info"

# -p io,iowait adds the scheduler events.
if [ -d "$TRACEFS/events/sched/sched_switch" ]; then
	run_iorec -q -p io,iowait -d 0.5 -o "$T/w.iorec" 2>"$T/w.err" || { cat "$T/w.err" >&2; fail "iorec -p io,iowait failed"; }
	"$IOREPORT" info "$T/w.iorec" >"$T/w.info" 2>&1 || fail "ioreport info failed on the iowait file"
	assert_grep 'sched:sched_switch' "$T/w.info" "ioreport info of an iowait recording"
fi

# Memory running out (an address-space limit, from the smallest iorec
# starts under to one it records under): iorec never dies of a signal,
# prints only its own one-line errors, leaves no instance or probe behind,
# and a file it leaves is readable.  Not under AddressSanitizer, which
# reserves terabytes of address space before main().
case $(ldd "$IOREC" 2>/dev/null) in	# not "| grep -q": pipefail
*libasan*) sanitized=1 ;;
*) sanitized= ;;
esac
if [ -n "$sanitized" ]; then
	log "memory limits: not with an AddressSanitizer build"
else
	nomem=0
	for kb in 5000 8000 12000 15000 20000 40000; do
		rc=0
		( ulimit -v "$kb"; exec "$IOREC" -q -d 0.3 -o "$T/m$kb.iorec" ) \
			2>"$T/m$kb.err" &
		pid=$!
		wait "$pid" || rc=$?
		log "ulimit -v $kb: exit $rc: $(tr '\n' '|' <"$T/m$kb.err")"
		[ "$rc" -lt 128 ] || fail "iorec under ulimit -v $kb died of signal $((rc - 128))"
		if grep -v '^iorec: ' "$T/m$kb.err" | grep -q .; then
			cat "$T/m$kb.err" >&2
			fail "iorec under ulimit -v $kb printed lines that are not its errors"
		fi
		for d in "instances/iorec-$pid" "instances/iorecx-$pid" \
			 "instances/iorecp-$pid" "events/iorec_$pid"; do
			[ ! -e "$TRACEFS/$d" ] || fail "iorec under ulimit -v $kb left $TRACEFS/$d"
		done
		if [ -s "$T/m$kb.iorec" ]; then
			"$IOREPORT" info "$T/m$kb.iorec" >"$T/m$kb.info" 2>&1 ||
				fail "ioreport info cannot read what iorec under ulimit -v $kb left"
		fi
		grep -qiE 'out of memory|cannot allocate memory' "$T/m$kb.err" &&
			nomem=$((nomem + 1))
	done
	# the smallest limit must have made memory run out inside iorec
	[ "$nomem" -ge 1 ] || fail "no limit made iorec run out of memory: the test tests nothing"
fi

finish
