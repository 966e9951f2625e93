#!/usr/bin/env bash
# record-bench.sh - what recording costs: iorec against trace-cmd, same run.
#
# Runs I/O workloads on a fresh loop ext4, alternating in every round:
# untraced, under iorec, under trace-cmd record (file version 6) and under
# trace-cmd record (file version 7, zstd), all recording the same events
# (those of iorec's io profile).  Prints, per workload and recorder: the
# workload's wall time and slowdown, the recorder's CPU time (children
# included), bytes it wrote, file size, events, bytes per event, lost
# events, peak RSS and context switches (wake-ups), and iorec/trace-cmd
# ratios.  Not a test: it needs root and a few minutes.
#
# How each number is measured:
#   wall      date +%s%N around the workload command (recorders already
#             running; they are started SETTLE s before and stopped 1 s after)
#   cpu       user+system of the recorder and all its children, from
#             /usr/bin/time -v (rusage of reaped descendants); CPU/EV is
#             that per recorded event, which stays comparable when the
#             rest of the machine adds events to a run
#   written   write_bytes of /proc/PID/io of a wrapper shell, read after it
#             reaped the recorder: the kernel adds each reaped child's I/O
#             accounting to its parent, so this includes every process of
#             the recorder (trace-cmd's per-CPU readers, its final merge)
#   events    iorec: 'ioreport info'; trace-cmd: lines of 'trace-cmd report'
#   lost      iorec: 'ioreport info'; trace-cmd: overrun + dropped events of
#             'trace-cmd report --stat'
#   rss       "Maximum resident set size" of /usr/bin/time -v: the largest
#             single process (not the sum of trace-cmd's readers)
#   wakeups   voluntary + involuntary context switches, summed over all of
#             the recorder's processes
# trace-cmd runs with -d --no-filter (the only way it records here), so it
# also records its own syscalls; iorec leaves out its own PID.
#
# usage: bench/record-bench.sh [-n ROUNDS] [-w sqlite,fio] [-t TOOLS]
#                              [-q SQLITE_TXNS] [-f FIO_MB] [-b KB] [-k]
#   -t TOOLS         comma list of none, iorec, tc6, tc7 (default all four)

ROUNDS=3
WORKLOADS=sqlite,fio
TOOLS=none,iorec,tc6,tc7
SQL_TXNS=4000
FIO_MB=24
IOREC_BUF=
SETTLE=2

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
bench_options n:ROUNDS w:WORKLOADS t:TOOLS q:SQL_TXNS f:FIO_MB b:IOREC_BUF k=KEEP -- "$@"
[ ${#ARGS[@]} = 0 ] || usage

# ---------------------------------------------------------------- preconditions

need_tracing fio:fio trace-cmd:trace-cmd sqlite3:sqlite3 /usr/bin/time:time \
	losetup:mount mkfs.ext4:e2fsprogs
[ "$TOOLS" = none,tc6,tc7 ] || need "$IOREC"

# The cleanup stack, loop device and tracefs helpers of the live tests.
# shellcheck source=../tests/live/lib.sh
. "$here/../tests/live/lib.sh"
borrow_toplevel
on_exit restore_toplevel

# ---------------------------------------------------------------- events

# The events iorec's io profile enables; a fixed list if 'iorec --check'
# cannot say.
EVENTS=$(profile_events)
if [ "$(printf '%s\n' "$EVENTS" | grep -c .)" -lt 10 ]; then
	echo "record-bench: could not read the event list from 'iorec --check'; using a fixed list" >&2
	EVENTS="block:* writeback:* jbd2:* ext4:ext4_sync_file_enter ext4:ext4_sync_file_exit
		sched:sched_process_fork sched:sched_process_exec sched:sched_process_exit"
	for s in read write pread64 pwrite64 openat close fsync fdatasync; do
		EVENTS+=" syscalls:sys_enter_$s syscalls:sys_exit_$s"
	done
fi
read -r -d '' -a EV_LIST <<<"$EVENTS" || true
TC_EV=()
for e in "${EV_LIST[@]}"; do TC_EV+=(-e "$e"); done

# ---------------------------------------------------------------- workloads

make_loop_ext4 512
OUT=$T/out

# On an interrupted run, stop the recorder still running (SIGINT: both end
# their files and restore tracefs) before the loop device goes away.
CURRENT_REC=
stop_current_recorder() {
	local i
	[ -n "$CURRENT_REC" ] || return 0
	case $(cat "/proc/$CURRENT_REC/comm" 2>/dev/null) in
	iorec | trace-cmd) kill -INT "$CURRENT_REC" ;;
	*) return 0 ;;
	esac
	for ((i = 0; i < 200; i++)); do
		kill -0 "$CURRENT_REC" 2>/dev/null || break
		sleep 0.05
	done
	kill -0 "$CURRENT_REC" 2>/dev/null && kill -KILL "$CURRENT_REC"
	return 0
}
on_exit stop_current_recorder
mkdir -p "$OUT"

{
	echo "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
	echo "CREATE TABLE IF NOT EXISTS t(id INTEGER PRIMARY KEY, v BLOB);"
	for ((i = 0; i < SQL_TXNS; i++)); do
		echo "INSERT INTO t(v) VALUES(randomblob(200));"
	done
} >"$T/commits.sql"

FIO_ARGS=(--name=randwrite --directory="$MNT" --filename=fio.dat --rw=randwrite
	--bs=4k --size="${FIO_MB}M" --fsync=1 --ioengine=psync)

# prepare_W / run_W: untimed setup, then the timed workload.
prepare_sqlite() { rm -f "$MNT"/db*; sync; }
run_sqlite() { sqlite3 "$MNT/db" <"$T/commits.sql" >/dev/null; }
prepare_fio() {
	rm -f "$MNT/fio.dat"
	fio "${FIO_ARGS[@]}" --create_only=1 >/dev/null
	sync
}
run_fio() { fio "${FIO_ARGS[@]}" >/dev/null; }

# ---------------------------------------------------------------- one run

# Wrapper: run the recorder under /usr/bin/time, then read this shell's own
# /proc/PID/io, which by then includes the reaped recorder's I/O.
cat >"$T/wrap.sh" <<'EOF'
tf=$1 iof=$2 pidf=$3; shift 3
/usr/bin/time -v -o "$tf" env --default-signal=INT "$@" &
tp=$!
echo "$tp" >"$pidf"
rc=0
wait "$tp" || rc=$?
cat /proc/$$/io >"$iof"
exit "$rc"
EOF

RESULTS=$T/results
: >"$RESULTS"

# child_of PID: the (first) child process of PID.
child_of() {
	local c
	c=$(cat "/proc/$1/task/$1/children" 2>/dev/null || true)
	echo "${c%% *}"
}

# run_failed TAG MSG: a run that cannot count (the recorder did not start,
# died, or recorded next to nothing): say why, stop what still runs, and
# return 1 so that the caller goes on with the next run.
run_failed() {
	echo "record-bench: $1: $2; run discarded" >&2
	stop_current_recorder
	CURRENT_REC=
	echo 1 >"$TRACEFS/tracing_on"
	return 1
}

# run_one TOOL WORKLOAD ROUND: one measured run; appends a line to RESULTS.
run_one() {
	local tool=$1 w=$2 round=$3 tag=$2.$1.$3 out rec=() wp tp rp t0 t1 i
	local cpu=0 wbytes=0 fsize=0 events=0 lost=0 rss=0 wake=0

	"prepare_$w"
	case $tool in
	none) ;;
	iorec)
		out=$OUT/$tag.iorec
		rec=("$IOREC" -q -o "$out" ${IOREC_BUF:+-b "$IOREC_BUF"}) ;;
	tc6)
		out=$OUT/$tag.dat
		rec=(trace-cmd record -q -d --no-filter "${TC_EV[@]}" --file-version 6 -o "$out") ;;
	tc7)
		out=$OUT/$tag.dat
		rec=(trace-cmd record -q -d --no-filter "${TC_EV[@]}" --file-version 7 --compression zstd -o "$out") ;;
	*) die "unknown tool $tool" ;;
	esac

	if [ "$tool" != none ]; then
		(cd "$OUT" && exec bash "$T/wrap.sh" "$T/$tag.time" "$T/$tag.io" "$T/$tag.pid" "${rec[@]}") \
			>"$T/$tag.log" 2>&1 &
		wp=$!
		track_pid "$wp"
		for ((i = 0; i < 100; i++)); do
			[ -s "$T/$tag.pid" ] && break
			sleep 0.05
		done
		tp=$(cat "$T/$tag.pid")
		rp=
		for ((i = 0; i < 100; i++)); do
			rp=$(child_of "$tp")
			[ -n "$rp" ] && break
			sleep 0.05
		done
		if [ -z "$rp" ]; then
			wait "$wp" || true
			run_failed "$tag" "the recorder did not start: $(tr '\n' ' ' <"$T/$tag.log")"
			return 1
		fi
		CURRENT_REC=$rp
		sleep "$SETTLE"
		if ! kill -0 "$rp" 2>/dev/null; then
			wait "$wp" || true
			run_failed "$tag" "the recorder died: $(tr '\n' ' ' <"$T/$tag.log")"
			return 1
		fi
	fi

	t0=$(date +%s%N)
	"run_$w"
	t1=$(date +%s%N)

	if [ "$tool" != none ]; then
		sleep 1
		kill -INT "$rp" 2>/dev/null || true
		wait "$wp" || true
		CURRENT_REC=
		case $tool in tc*) echo 1 >"$TRACEFS/tracing_on" ;; esac
		[ -s "$out" ] || { run_failed "$tag" "no output file: $(tr '\n' ' ' <"$T/$tag.log")"; return 1; }
		cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { print s + 0 }' "$T/$tag.time")
		rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$T/$tag.time")
		wake=$(awk -F': ' '/context switches/ { s += $2 } END { print s + 0 }' "$T/$tag.time")
		wbytes=$(awk '$1 == "write_bytes:" { print $2 }' "$T/$tag.io")
		fsize=$(stat -c %s "$out")
		case $tool in
		iorec) read -r events lost < <(iorec_counts "$out") ;;
		tc*) read -r events lost < <(tracecmd_counts "$out") ;;
		esac
		[ "$KEEP" = 1 ] || rm -f "$out"
		if [ "$events" -lt 1000 ]; then
			run_failed "$tag" "only $events events recorded (another tool using the top-level tracefs instance at the same time?)"
			return 1
		fi
	fi
	printf '%s %s %s %s %s %s %s %s %s %s %s\n' "$w" "$tool" "$round" \
		$(((t1 - t0) / 1000)) "$cpu" "$wbytes" "$fsize" "$events" "$lost" "$rss" "$wake" >>"$RESULTS"
	awk -v w="$w" -v t="$tool" -v r="$round" -v ns=$((t1 - t0)) -v cpu="$cpu" \
		-v ev="$events" -v lost="$lost" -v fs="$fsize" 'BEGIN {
		printf "  %-7s %-6s round %s: %6.2f s", w, t, r, ns / 1e9
		if (t != "none")
			printf "  cpu %.2f s, %d events, %d lost, file %.1f MB", cpu, ev, lost, fs / 1048576
		printf "\n" }' >&2
}

# iorec_counts FILE: "events lost" from ioreport info ("events: N types,
# M events" and the "total" line of its "lost events:" section).
iorec_counts() {
	"$IOREPORT" info "$1" 2>/dev/null | awk '
		/^events:/ { for (i = 2; i <= NF; i++) if ($i ~ /^events?$/) e = $(i - 1) }
		/^lost events:/ { inlost = 1; next }
		/^[^ ]/ { inlost = 0 }
		inlost && $1 == "total" { l = $2 }
		END { print e + 0, l + 0 }'
}

# tracecmd_counts FILE: "events lost".  Events are counted by the same
# reader as iorec's (ioreport reads trace.dat too), with 'trace-cmd report'
# as a fallback; lost = overrun + dropped of 'trace-cmd report --stat'.
tracecmd_counts() {
	local e l
	read -r e _ < <(iorec_counts "$1")
	if [ "$e" = 0 ]; then
		e=$(trace-cmd report -i "$1" 2>/dev/null | grep -cE '^ *.+-[0-9]+ +\[[0-9]+\] ' || true)
	fi
	l=$(trace-cmd report --stat -i "$1" 2>/dev/null |
		awk -F': *' '/^(overrun|commit overrun|dropped events):/ { s += $2 } END { print s + 0 }')
	echo "$e $l"
}

# ---------------------------------------------------------------- main

IFS=, read -r -a WL <<<"$WORKLOADS"
IFS=, read -r -a TL <<<"$TOOLS"
echo "record-bench: $ROUNDS rounds of ${WL[*]} under ${TL[*]}; loop ext4 $LOOPNAME;" \
	"${#EV_LIST[@]} event specs; kernel $(uname -r), $(nproc) CPUs" >&2
echo "record-bench: ring buffers: iorec ${IOREC_BUF:-its default} KB/CPU (-b), trace-cmd the top level's" \
	"$(tr -d '\n' <"$TRACEFS/buffer_size_kb") KB/CPU" >&2
echo "record-bench: load average at start: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for ((r = 1; r <= ROUNDS; r++)); do
	for w in "${WL[@]}"; do
		for t in "${TL[@]}"; do
			run_one "$t" "$w" "$r" || true
		done
	done
done

# ---------------------------------------------------------------- report

echo "record-bench: load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

awk -v rounds="$ROUNDS" -v tools="$TOOLS" -v wls="$WORKLOADS" '
function fmt_bytes(b) {
	if (b >= 1048576) return sprintf("%.1fM", b / 1048576)
	if (b >= 1024) return sprintf("%.1fK", b / 1024)
	return sprintf("%d", b)
}
function ratio(a, b) { return (b > 0) ? sprintf("%.2f", a / b) : "-" }
{
	k = $1 SUBSEP $2
	n[k]++; wall[k] += $4; cpu[k] += $5; wb[k] += $6; fs[k] += $7
	ev[k] += $8; lost[k] += $9; rss[k] += $10; wake[k] += $11
	if (!(k in wmin) || $4 < wmin[k]) wmin[k] = $4
	if (!(k in wmax) || $4 > wmax[k]) wmax[k] = $4
	wv[k, n[k]] = $4
}
function median(k,   i, j, c, v, x) {
	c = n[k]
	for (i = 1; i <= c; i++) v[i] = wv[k, i]
	for (i = 2; i <= c; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
	return (c % 2) ? v[(c + 1) / 2] : (v[c / 2] + v[c / 2 + 1]) / 2
}
END {
	nt = split(tools, T, ","); nw = split(wls, W, ",")
	name["none"] = "untraced"; name["iorec"] = "iorec"
	name["tc6"] = "trace-cmd v6"; name["tc7"] = "trace-cmd v7+zstd"
	printf "\n%d rounds; WALL is the median [min-max] of the workload time, SLOWDOWN compares medians;\n", rounds
	printf "the other columns are means over the rounds.  EVENTS counts the whole machine (system-wide tracing).\n"
	for (j = 1; j <= nw; j++) {
		w = W[j]; base = n[w, "none"] ? median(w SUBSEP "none") : 0
		printf "\n== workload %s\n", w
		printf "%-23s %4s %20s %8s %8s %8s %9s %9s %9s %7s %8s %8s %8s\n", "RECORDER", "RUNS", "WALL(s)", "SLOWDOWN", "CPU(s)",
			"CPU/EV", "WRITTEN", "FILE", "EVENTS", "B/EVENT", "LOST", "RSS(MB)", "WAKEUPS"
		for (i = 1; i <= nt; i++) {
			t = T[i]; k = w SUBSEP t; if (!n[k]) continue
			m = median(k)
			A[k, "wall"] = m; A[k, "slow"] = (base > 0) ? m / base - 1 : 0
			A[k, "cpu"] = cpu[k] / n[k]; A[k, "wb"] = wb[k] / n[k]; A[k, "fs"] = fs[k] / n[k]
			A[k, "ev"] = ev[k] / n[k]; A[k, "lost"] = lost[k] / n[k]
			A[k, "bpe"] = ev[k] ? fs[k] / ev[k] : 0
			A[k, "cpe"] = ev[k] ? 1e6 * cpu[k] / ev[k] : 0
			A[k, "rss"] = rss[k] / n[k] / 1024; A[k, "wake"] = wake[k] / n[k]
			if (t == "none") {
				printf "%-23s %4d %8.2f [%.2f-%.2f] %8s\n", name[t], n[k], m / 1e6, wmin[k] / 1e6, wmax[k] / 1e6, "-"
				if (m > 0 && (wmax[k] - wmin[k]) / m > 0.3)
					noisy[w] = sprintf("untraced runs vary by %.0f%%", 100 * (wmax[k] - wmin[k]) / m)
				continue
			}
			printf "%-23s %4d %8.2f [%.2f-%.2f] %7.1f%% %8.2f %6.2fus %9s %9s %9d %7.1f %8d %8.1f %8d\n",
				name[t], n[k], m / 1e6, wmin[k] / 1e6, wmax[k] / 1e6, 100 * A[k, "slow"], A[k, "cpu"], A[k, "cpe"],
				fmt_bytes(A[k, "wb"]), fmt_bytes(A[k, "fs"]), A[k, "ev"], A[k, "bpe"],
				A[k, "lost"], A[k, "rss"], A[k, "wake"]
		}
		for (i = 1; i <= nt; i++) {
			t = T[i]; if (t != "tc6" && t != "tc7") continue
			a = w SUBSEP "iorec"; b = w SUBSEP t
			if (!n[a] || !n[b]) continue
			printf "%-23s %4s %20s %8s %8s %8s %9s %9s %9s %7s %8s %8s %8s\n", "iorec/" name[t], "", ratio(A[a, "wall"], A[b, "wall"]),
				(A[a, "slow"] > 0 && A[b, "slow"] > 0) ? ratio(A[a, "slow"], A[b, "slow"]) : "-",
				ratio(A[a, "cpu"], A[b, "cpu"]), ratio(A[a, "cpe"], A[b, "cpe"]), ratio(A[a, "wb"], A[b, "wb"]),
				ratio(A[a, "fs"], A[b, "fs"]), ratio(A[a, "ev"], A[b, "ev"]),
				ratio(A[a, "bpe"], A[b, "bpe"]), "-",
				ratio(A[a, "rss"], A[b, "rss"]), ratio(A[a, "wake"], A[b, "wake"])
		}
		if (w in noisy)
			printf "NOTE: %s: the machine is noisy, so WALL and SLOWDOWN are not meaningful;\n      compare CPU/EV, B/EVENT, WRITTEN, RSS and WAKEUPS (or run more rounds on a quiet machine)\n", noisy[w]
	}
}' "$RESULTS"

echo
echo "events: ${EV_LIST[*]}"
[ "$KEEP" = 0 ] || { cp -r "$OUT" "./record-bench-out.$$" && echo "recordings kept in ./record-bench-out.$$"; }
