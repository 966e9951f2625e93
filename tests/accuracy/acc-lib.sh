# tests/accuracy/acc-lib.sh - helpers for the accuracy tests (sourced).
# shellcheck shell=bash disable=SC2034
#
# The accuracy tests compare what ioreport computes from a recording with an
# independent truth measured in the same run (/proc/diskstats, blktrace's
# btt, trace-cmd, the workload's own counts).  They build on the live tests'
# helpers (tests/live/lib.sh: cleanup stack, loop devices, asserts) and add:
#
#   toplevel_lock            serialise use of the top-level tracefs buffer
#   restore_toplevel_tracing_on
#   find_blk_capture         the blk tracer capture script (shared/tools)
#   devices_json, dev_stats  per-op numbers of one device (ioreport devices)
#   device_report            both for one device into $T, logged
#   ioreport_to OUT ARGS     ioreport ARGS into OUT, or fail with its errors
#   dev_anomalies            the block anomaly counters, for the log
#   unpaired_requests        requests of a device never completed in a recording
#   note_missing, fail_acc   log those, and name them in accuracy failures
#   diskstats_fields DEV     one /proc/diskstats line, fields split
#   diskstats_quiet DEV      wait until the device is idle
#   drop_caches              sync and drop the page cache
#   tc_record OUT ARGS... -- CMD...
#                            'trace-cmd record -d --no-filter -o OUT ARGS CMD'
#                            on the top-level buffer, holding its lock, then
#                            tracing_on and buffer_size_kb put back; again
#                            (3 tries) when it wrote no file
#   within NAME A B ABS REL  assert |A - B| <= max(ABS, REL * B), log the agreement

_acc_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${top_srcdir:=$(cd "$_acc_dir/../.." && pwd)}"
# shellcheck source-path=SCRIPTDIR source=../live/lib.sh
. "$top_srcdir/tests/live/lib.sh"

ACC_DIR=$_acc_dir
TOPLEVEL_LOCK=/run/iorec-test-toplevel.lock

# toplevel_lock: take (and keep until exit) the lock that every test using
# the top-level tracefs buffer (blk-capture.sh, trace-cmd) holds, so two of
# them never fight over current_tracer or tracing_on.
toplevel_lock() {
	need_cmd flock
	exec 9>"$TOPLEVEL_LOCK"
	flock -w 300 9 || fail "could not take $TOPLEVEL_LOCK within 300 s"
	_TOPLEVEL_HELD=1
}

# ioreport_to OUT ARGS...: run ioreport ARGS with its output in OUT; on a
# failure show its errors and fail.
ioreport_to() {
	local out=$1
	shift
	"$IOREPORT" "$@" >"$out" 2>"$T/ioreport.err" ||
		{ cat "$T/ioreport.err" >&2; fail "ioreport $* failed"; }
}

# restore_toplevel_tracing_on: put tracing_on back as it was at the start
# (trace-cmd and blk-capture.sh leave it 0 or 1).
restore_toplevel_tracing_on() {
	[ -n "$_TRACING_ON_AT_START" ] &&
		echo "$_TRACING_ON_AT_START" >"$TRACEFS/tracing_on"
	return 0
}

# toplevel_kb: the top-level buffer's size per CPU in KiB as it is when
# used.  Before its first use the kernel keeps it minimal and says
# "7 (expanded: 1408)": the size to put back is 1408, never 7 (writing 7
# would leave every later user of the top-level buffer a 7 KiB buffer).
toplevel_kb() {
	local v
	v=$(cat "$TRACEFS/buffer_size_kb")
	case $v in
	*"(expanded: "*) v=${v#*(expanded: }; v=${v%%)*} ;;
	*) v=${v%% *} ;;
	esac
	case $v in '' | *[!0-9]*) return 1 ;; esac
	echo "$v"
}

# toplevel_buffer KB: with the top-level lock held, give the top-level
# buffer KB KiB per CPU, put back at exit: a test never depends on the
# size another test or the boot left.
toplevel_buffer() {
	local kb
	kb=$(toplevel_kb) || fail "cannot read $TRACEFS/buffer_size_kb"
	on_exit "echo $kb >'$TRACEFS/buffer_size_kb'"
	echo "$1" >"$TRACEFS/buffer_size_kb" ||
		fail "cannot set the top-level buffer to $1 KiB per CPU"
}

# toplevel_readers [PID]: "PID COMM" of the processes that hold a top-level
# trace_pipe or trace_pipe_raw open (but PID and its children): while one
# does, the kernel refuses to change current_tracer (EBUSY).
toplevel_readers() {
	local p f
	for p in /proc/[0-9]*; do
		[ -n "${1:-}" ] && [ "${p#/proc/}" = "$1" ] && continue
		[ -n "${1:-}" ] && [ "$(awk '/^PPid:/ { print $2 }' "$p/status" 2>/dev/null)" = "$1" ] && continue
		for f in "$p"/fd/*; do
			case $(readlink "$f" 2>/dev/null) in
			"$TRACEFS"/trace_pipe* | "$TRACEFS"/per_cpu/*/trace_pipe*)
				echo "${p#/proc/} $(cat "$p/comm" 2>/dev/null)"
				break ;;
			esac
		done
	done
	return 0
}

# find_blk_capture: set BLK_CAPTURE to the blk tracer capture script.  The
# project keeps it in shared/tools beside the source tree (../shared from a
# clone, ../../shared from a build copy); tests/accuracy carries a copy for
# trees that have neither.
find_blk_capture() {
	local d
	for d in "$top_srcdir/../shared/tools" "$top_srcdir/../../shared/tools" \
		"$ACC_DIR"; do
		if [ -f "$d/blk-capture.sh" ]; then
			BLK_CAPTURE=$d/blk-capture.sh
			return 0
		fi
	done
	fail "blk-capture.sh not found in ../shared/tools nor in $ACC_DIR"
}

# devices_json IOREC OUT: 'ioreport devices --json' of IOREC into OUT.
devices_json() {
	"$IOREPORT" devices --json "$1" >"$2" 2>"$2.err" ||
		{ cat "$2.err" >&2; fail "ioreport devices --json $1 failed"; }
}

# dev_stats JSON DEVNAME MAJ:MIN: print one line per operation of that device,
# "OP REQUESTS BYTES D2C_COUNT D2C_AVG_NS" (D2C_AVG_NS is '-' when no request
# had an issue and a completion).
dev_stats() {
	python3 "$ACC_DIR/acc-devstats.py" "$@" || fail "cannot read device $2 from $1"
}

# device_report REC NAME DEVT MAJMIN: ioreport devices of device NAME
# (DEVT "maj:min" as devices prints it, MAJMIN as blk_capture names it)
# into $T/devices.json and $T/stats, the recording kept with
# ACC_KEEP=FILE, and logged: the block anomalies, the device's requests
# the recording missed, its per-op numbers.
device_report() {
	devices_json "$1" "$T/devices.json"
	dev_stats "$T/devices.json" "$2" "$3" >"$T/stats"
	[ -n "${ACC_KEEP:-}" ] && cp "$1" "$ACC_KEEP"
	log "block anomalies (all devices): $(dev_anomalies "$T/devices.json")"
	note_missing "$1" "$4"
	log "ioreport devices for $2: $(tr '\n' ';' <"$T/stats")"
}

# dev_anomalies JSON: the block anomaly counters of 'ioreport devices --json'
# on one line (for the log: they explain a request ioreport could not pair).
dev_anomalies() {
	python3 - "$1" <<'EOF' 2>/dev/null || true
import json, sys
a = json.load(open(sys.argv[1])).get("anomalies", {})
b = a.get("block", {})
print(" ".join("%s=%s" % kv for kv in sorted(b.items()) if kv[1]) or "none",
      "lost_event_gaps=%s" % a.get("lost_event_gaps"))
EOF
}

# unpaired_requests IOREC MAJ,MIN: how many requests of the device the
# recording shows issued (block_rq_issue) but never completed, by sector
# (requests with data; flushes have no sector).
# The workloads here wait for every request, so each one is a completion
# missing from the recording: events lost by the recorder (logged; it
# explains a request count one short).
unpaired_requests() {
	"$IOREPORT" dump --events block:block_rq_issue,block:block_rq_complete "$1" 2>/dev/null |
		awk -v dev="$2" '{
			for (i = 1; i < NF; i++) if ($i ~ /^block_rq_(issue|complete):$/) break
			if ($(i + 1) != dev) next
			for (j = i; j < NF; j++) if ($j == "+") break
			if ($(j + 1) == 0) next		# flushes: no sector to pair by
			k = $(j - 1)
			if ($i == "block_rq_issue:") { if (k in p) n++; p[k] = 1 }
			else delete p[k]
		} END { for (k in p) n++; print n + 0 }'
}

# note_missing IOREC MAJ,MIN: log the device's requests that the recording
# shows issued but never completed, and keep a sentence about them in
# ACC_NOTE, which the accuracy failures (within, fail_acc) append.  Such a
# completion was raised in interrupt context on a CPU where iorec itself was
# running: iorec excludes its own pid with set_event_notrace_pid, and the
# kernel's pid filter then drops every event on that CPU, whoever caused it.
ACC_NOTE=
note_missing() {
	local n
	n=$(unpaired_requests "$1" "$2")
	log "requests of $2 issued but never completed in the recording: $n"
	[ "$n" = 0 ] && return 0
	ACC_NOTE=" [the recording lacks the completion of $n requests of $2: events raised in interrupt context while iorec itself is on the CPU are dropped by its set_event_notrace_pid]"
}

# fail_acc MESSAGE: fail with ACC_NOTE appended.
fail_acc() {
	fail "$1${ACC_NOTE:-}"
}

# diskstats_fields DEV: the /proc/diskstats fields of DEV after the name
# (1 reads, 2 reads merged, 3 sectors read, 5 writes, 6 writes merged,
# 7 sectors written, ... 16 flushes on kernels >= 5.5).
diskstats_fields() {
	local dev=${1#/dev/}
	awk -v d="$dev" '$3 == d { $1 = $2 = $3 = ""; print; f = 1 } END { if (!f) exit 1 }' \
		/proc/diskstats || fail "no $dev in /proc/diskstats"
}

# diskstats_quiet DEV: wait (up to 5 s) until DEV's counters stop moving
# for 300 ms, so that a window starts with nothing in flight.
diskstats_quiet() {
	local a b i
	a=$(diskstats_fields "$1")
	for ((i = 0; i < 50; i++)); do
		sleep 0.3
		b=$(diskstats_fields "$1")
		[ "$a" = "$b" ] && return 0
		a=$b
	done
	log "warning: $1 still busy after 5 s"
}

# within NAME GOT WANT ABS REL: GOT must be within max(ABS, REL*WANT) of WANT;
# logs the agreement (difference and percentage) either way.
within() {
	python3 - "$TEST_NAME" "$@" <<'EOF' || fail_acc "$1 out of tolerance"
import sys
test, name = sys.argv[1], sys.argv[2]
got, want, tol_abs, tol_rel = (float(x) for x in sys.argv[3:7])
tol = max(tol_abs, tol_rel * abs(want))
diff = got - want
rel = (diff / want * 100) if want else 0.0
ok = abs(diff) <= tol
print("%s: %s: %s %.0f vs %.0f (diff %+.0f, %+.3f%%, tolerance %.0f)" % (
	test, "ok" if ok else "FAIL", name, got, want, diff, rel, tol), file=sys.stderr)
sys.exit(0 if ok else 1)
EOF
}

# drop_caches: write back everything and empty the page cache.
drop_caches() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

_TC_KB=
_TC_RESTORE_SET=
_tc_restore() {
	restore_toplevel_tracing_on
	if [ -n "$_TC_KB" ] && [ "$(toplevel_kb)" != "$_TC_KB" ]; then
		echo "$_TC_KB" >"$TRACEFS/buffer_size_kb"
	fi
	return 0
}

# tc_record OUT [RECORD ARGS...] -- CMD...: trace-cmd exits 1 after writing
# a complete file on this kernel (it cannot open set_ftrace_filter), so
# its status is not trusted; the file is checked by reading it.
tc_record() {
	local out=$1 rc=0 args=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		args+=("$1")
		shift
	done
	[ "${1:-}" = -- ] && shift
	toplevel_lock
	_TC_KB=$(toplevel_kb) || _TC_KB=
	if [ -z "$_TC_RESTORE_SET" ]; then
		on_exit "_tc_restore"
		_TC_RESTORE_SET=1
	fi
	# trace-cmd reads every event directory the kernel has; one that
	# another program removes meanwhile (the live tests' iorec uprobe
	# groups) makes it stop without a file: then it records again
	for try in 1 2 3; do
		rm -f "$out"
		rc=0
		(cd "$T" && trace-cmd record -q -d --no-filter -o "$out" "${args[@]}" "$@") \
			>"$out.log" 2>&1 || rc=$?
		_tc_restore
		[ -s "$out" ] && break
		log "trace-cmd record wrote no $(basename "$out") (try $try, exit $rc): $(tail -n 1 "$out.log")"
	done
	flock -u 9
	_TOPLEVEL_HELD=
	[ -s "$out" ] || fail "trace-cmd record wrote no $out (exit $rc): $(tail -n 3 "$out.log")"
}
