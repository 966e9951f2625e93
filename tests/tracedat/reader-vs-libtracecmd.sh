#!/usr/bin/env bash
# reader-vs-libtracecmd.sh - trace.dat files made here by 'trace-cmd
# record' (version 7 with zstd, its default; version 7 uncompressed;
# version 6; and a version 7 and a version 6 file with a second buffer
# instance) read by the formats/ reader and by libtracecmd must give the
# same records: per CPU, per buffer, the same number of events, the same
# missed-event records and counts, and the same hash over every record's
# timestamp, size and bytes (tdat-walk against tdat-libtracecmd, which
# uses tracecmd_read_cpu_first / tracecmd_read_data).  The total must also
# be the number of event lines 'trace-cmd report' prints.
#
# Workload: a dd of 1-byte blocks on each CPU (taskset), with the read and
# write syscall events, the scheduler's switches and wake-ups, and process
# exec/exit, so both CPUs have data and pages of every kind of entry.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/tracedat/td-lib.sh"
need_root_tracefs
need_cmd trace-cmd taskset dd
need_event syscalls:sys_enter_write syscalls:sys_enter_read sched:sched_switch \
	sched:sched_wakeup sched:sched_process_exec

EV=(-e syscalls:sys_enter_read -e syscalls:sys_exit_read
    -e syscalls:sys_enter_write -e syscalls:sys_exit_write
    -e sched:sched_switch -e sched:sched_wakeup
    -e sched:sched_process_exec -e sched:sched_process_exit)
# shellcheck disable=SC2016 # $c is the inner shell's
WORK=(sh -c 'for c in 0 1; do taskset -c $c dd if=/dev/zero of=/dev/null bs=1 count=20000 2>/dev/null & done; wait')
INST=tdrvl$$

# check FILE WHAT [BUFFER]
check() {
	local f=$1 what=$2 b=${3:-} wb=() lb=()
	if [ -n "$b" ]; then
		wb=(-b "$b")
		lb=(-b "$b")
	fi
	"$TD_BIN/tdat-walk" -m "${wb[@]}" "$f" >"$f.walk$b" 2>"$f.err" ||
		fail "$what: tdat-walk: $(cat "$f.err")"
	"$TD_BIN/tdat-libtracecmd" "${lb[@]}" "$f" >"$f.ltc$b" 2>"$f.err" ||
		fail "$what: tdat-libtracecmd: $(cat "$f.err")"
	same_as_libtracecmd "$f.walk$b" "$f.ltc$b" "$what${b:+ buffer $b}"
	[ "$(awk '$1 == "cpu" && $6 > 0' "$f.walk$b" | wc -l)" -ge 1 ] ||
		fail "$what: no CPU with events"
	log "ok: $what${b:+ buffer $b}: $(awk '$1 == "events" { print $2 }' "$f.walk$b") events on $(awk '$1 == "cpu" && $6 > 0' "$f.walk$b" | wc -l) CPUs, $(awk '$1 == "cpu" { n += $4 } END { print n }' "$f.walk$b") pages: reader = libtracecmd"
}

# report_events FILE [BUFFER]: event lines of trace-cmd report (of one buffer)
report_events() {
	trace-cmd report "$1" 2>/dev/null |
		awk -v b="${2:-}" '
			/ \[[0-9]+\] +[0-9]+\.[0-9]+: / {
				inst = ($1 ~ /:$/ && $1 !~ /-[0-9]+$/) ? substr($1, 1, length($1) - 1) : ""
				if (inst == b) n++ }
			END { print n + 0 }'
}

for variant in "7z" "7" "6" "7z-inst" "6-inst"; do
	f=$T/tc-$variant.dat
	args=(-b 8192)
	case $variant in
	7) args+=(--compression none) ;;
	6*) args+=(--file-version 6) ;;
	esac
	ev=("${EV[@]}")
	case $variant in
	*-inst)
		# a second buffer with the write events; trace-cmd, which exits
		# 1 here, would leave the instance behind
		on_exit "rmdir '$TRACEFS/instances/$INST' 2>/dev/null"
		ev+=(-B "$INST" -e syscalls:sys_enter_write -e syscalls:sys_exit_write) ;;
	esac
	# trace-cmd writes the formats of every event the kernel has; when
	# another program adds or removes a dynamic event (the live tests'
	# iorec uprobes) while it does, the file it writes is one that
	# trace-cmd itself cannot open: then record again
	for try in 1 2 3; do
		tc_record "$f" "${args[@]}" "${ev[@]}" -- "${WORK[@]}"
		rmdir "$TRACEFS/instances/$INST" 2>/dev/null || true
		"$TD_BIN/tdat-libtracecmd" "$f" >/dev/null 2>&1 && break
		log "$variant: trace-cmd wrote a file libtracecmd cannot open (try $try): recording again"
	done
	want=${variant%-inst}
	"$TD_BIN/tdat-walk" -m "$f" | head -n 1 >"$f.head"
	grep -q "^version ${want%z} " "$f.head" || fail "$variant: trace-cmd wrote $(cat "$f.head")"
	case $want in
	7z) grep -q ' compression zstd ' "$f.head" || fail "$variant: not zstd: $(cat "$f.head")" ;;
	*) grep -q ' compression none ' "$f.head" || fail "$variant: compressed: $(cat "$f.head")" ;;
	esac
	check "$f" "trace-cmd record v$variant"
	n=$(report_events "$f")
	[ "$n" = "$(awk '$1 == "events" { print $2 }' "$f.walk")" ] ||
		fail "$variant: trace-cmd report prints $n events, the reader read $(awk '$1 == "events" { print $2 }' "$f.walk")"
	case $variant in
	*-inst)
		grep -q "^buffer \"$INST\" " "$f.walk" || fail "$variant: no buffer $INST: $(grep ^buffer "$f.walk")"
		check "$f" "trace-cmd record v$variant" "$INST"
		n=$(report_events "$f" "$INST")
		[ "$n" = "$(awk '$1 == "events" { print $2 }' "$f.walk$INST")" ] ||
			fail "$variant: trace-cmd report prints $n events of $INST, the reader read $(awk '$1 == "events" { print $2 }' "$f.walk$INST")" ;;
	esac
done
log "PASS"
