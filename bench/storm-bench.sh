#!/usr/bin/env bash
# storm-bench.sh - what recording costs a syscall storm: iorec against
# trace-cmd, side by side in one run.
#
# N writers (one per CPU, nproc) each make 512-byte buffered write()s to a
# file of their own on a fresh loop ext4 (rewound every 16 MiB) for D
# seconds, rate-limited (R writes/s in all) and then flat out.  Each round
# runs, in an order that rotates from round to round: no recorder, iorec
# in each mode (default; --no-compat; --compat, the 32-bit path forced on;
# and any extra modes given with -x), and trace-cmd record (file version
# 7, zstd, -d --no-filter) with the events of iorec's plan less the
# raw_syscalls and markers of its 32-bit path.  It prints per mode the
# medians over the rounds and the ratios to trace-cmd of the same run.
# Not a test: it needs root and a few minutes.  It runs unchanged on any
# number of CPUs (the writers, the recorders' buffers and readers follow
# nproc).
#
# How each number is measured:
#   tput      the writers' own count of completed write()s over their own
#             clock, summed (writes/s); the recorder is already recording
#             (SETTLE s after iorec's instance turned tracing on, or
#             trace-cmd forked its per-CPU readers; stopped 1 s after)
#   cpu       user+system of the recorder and all its children (and
#             threads) it waited for, in microseconds: getrusage() of a
#             small runner built here (/usr/bin/time has hundredths)
#   cpu-in    the part of cpu spent while the writers ran, the part that
#             competes with them: the on-CPU time (schedstat, ns) of the
#             recorder's threads and descendants read just before the
#             writers start and just after they end.  A recorder that
#             compresses after the workload (trace-cmd compresses its
#             per-CPU files when it stops) spends the rest at its stop
#   events    events in the file: 'ioreport info' (it reads trace.dat too)
#   lost      iorec: 'ioreport info' (the kernel's overrun + dropped per
#             CPU); trace-cmd: overrun + dropped of 'trace-cmd report --stat'
#   B/ev      file size / events
#   rss       the largest resident set of a single process of the
#             recorder (ru_maxrss of the same runner)
# trace-cmd record exits 1 after a complete file and leaves the top-level
# tracing_on at 0: it is put back after every run, under the top-level
# lock the tests share.
#
# usage: bench/storm-bench.sh [-n ROUNDS] [-d SECONDS] [-r RATE] [-b KB]
#                             [-x 'NAME:OPTIONS;...'] [-l limited,flat] [-k]
#   -n ROUNDS        rounds (default 3)
#   -d SECONDS       each workload run (default 5)
#   -r RATE          writes/s of all writers together, rate-limited load
#                    (default 20000 per CPU)
#   -b KB            per-CPU buffer of trace-cmd (-b) and of iorec when
#                    given (default: iorec chooses; trace-cmd 2048)
#   -x MODES         extra iorec modes, NAME:OPTIONS;... (e.g.
#                    'buf8m:-b 8192')
#   -l LOADS         limited, flat or both (default limited,flat)
#   -k               keep the recordings

ROUNDS=3
SECS=5
RATE=
BUF=
EXTRA=
LOADS=limited,flat
SETTLE=1.5

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
bench_options n:ROUNDS d:SECS r:RATE b:BUF x:EXTRA l:LOADS k=KEEP -- "$@"
[ ${#ARGS[@]} = 0 ] || usage

need_tracing trace-cmd:trace-cmd gcc:gcc \
	losetup:mount mkfs.ext4:e2fsprogs
need "$IOREC" "$IOREPORT"
NCPU=$(nproc)
: "${RATE:=$((20000 * NCPU))}"

# shellcheck source=../tests/live/lib.sh
. "$here/../tests/live/lib.sh"
borrow_toplevel
on_exit restore_toplevel

# ---------------------------------------------------------------- the writer

cat >"$T/storm.c" <<'EOF'
/* 512-byte buffered write()s to FILE for SECONDS, at most RATE a second
 * (0: flat out), rewinding every 16 MiB; prints "WRITES SECONDS". */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static char buf[512];
	double secs, rate, t0, t;
	long n = 0, off = 0;
	int fd;

	if (argc != 4)
		return 2;
	secs = atof(argv[2]);
	rate = atof(argv[3]);
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	t0 = now();
	for (;;) {
		if ((n & 63) == 0) {
			t = now() - t0;
			if (t >= secs)
				break;
			if (rate > 0 && n > rate * t) {
				struct timespec d = { 0, (long)((n / rate - t) * 1e9) };

				nanosleep(&d, NULL);
			}
		}
		if (write(fd, buf, sizeof(buf)) != sizeof(buf)) {
			perror("write");
			return 1;
		}
		n++;
		if ((off += 512) >= (16 << 20)) {
			lseek(fd, 0, SEEK_SET);
			off = 0;
		}
	}
	printf("%ld %.6f\n", n, now() - t0);
	return 0;
}
EOF
gcc -O2 -o "$T/storm" "$T/storm.c" || die "cannot build the writer"

make_loop_ext4 $((64 * NCPU + 256))
OUT=$T/out
mkdir -p "$OUT"

# storm RATE: the N writers; prints their writes/s summed
storm() {
	local i per=0 pids=()
	[ "$1" = 0 ] || per=$(awk -v r="$1" -v n="$NCPU" 'BEGIN { print r / n }')
	for ((i = 0; i < NCPU; i++)); do
		"$T/storm" "$MNT/w$i" "$SECS" "$per" >"$T/storm.$i" &
		pids+=($!)
	done
	wait "${pids[@]}"
	cat "$T"/storm.[0-9]* | awk '{ s += $1 / $2 } END { printf "%.0f\n", s }'
	rm -f "$T"/storm.[0-9]*
}

# ---------------------------------------------------------------- recorders

# the events of iorec's plan without its 32-bit path (raw_syscalls,
# markers): what trace-cmd records
# (its status is not the list's: --check may say a source of names cannot
# work here and exit 1; the list below is what matters)
EVENTS=$({ "$IOREC" --check -v --no-compat 2>&1 || :; } |
	awk '$1 == "ok" && $2 ~ /^[a-z0-9_]+:[a-z0-9_]+$/ && $3 != "(marker)" && $2 !~ /^raw_syscalls:/ { print $2 }')
[ "$(printf '%s\n' "$EVENTS" | grep -c .)" -ge 10 ] ||
	die "could not read the event list from 'iorec --check -v'"
TC_EV=()
for e in $EVENTS; do TC_EV+=(-e "$e"); done

MODES=(none iorec nocompat compat)
declare -A MODE_ARGS=([iorec]="" [nocompat]="--no-compat" [compat]="--compat")
if [ -n "$EXTRA" ]; then
	IFS=';' read -r -a xs <<<"$EXTRA"
	for x in "${xs[@]}"; do
		MODES+=("${x%%:*}")
		MODE_ARGS[${x%%:*}]=${x#*:}
	done
fi
MODES+=(tc7)

# cputime FILE COMMAND...: runs COMMAND (SIGINT back to its default: a
# background job's is ignored) and writes to FILE the user and system
# time of it and every descendant it waited for, in microseconds (where
# /usr/bin/time has hundredths: an idle recorder costs a few of them), and
# the largest resident set of any of them
cat >"$T/cputime.c" <<'EOF'
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	int status = 0;
	pid_t pid;
	FILE *f;

	if (argc < 3)
		return 2;
	pid = fork();
	if (pid < 0)
		return 2;
	if (!pid) {
		signal(SIGINT, SIG_DFL);
		execvp(argv[2], argv + 2);
		perror(argv[2]);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		;
	getrusage(RUSAGE_CHILDREN, &ru);
	f = fopen(argv[1], "w");
	if (!f)
		return 2;
	fprintf(f, "User time (seconds): %ld.%06ld\n", (long)ru.ru_utime.tv_sec,
		(long)ru.ru_utime.tv_usec);
	fprintf(f, "System time (seconds): %ld.%06ld\n", (long)ru.ru_stime.tv_sec,
		(long)ru.ru_stime.tv_usec);
	fprintf(f, "Maximum resident set size (kbytes): %ld\n", ru.ru_maxrss);
	fclose(f);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
EOF
gcc -O2 -o "$T/cputime" "$T/cputime.c" || die "cannot build the CPU time helper"

cat >"$T/wrap.sh" <<'EOF'
tf=$1 pidf=$2 cputime=$3; shift 3
"$cputime" "$tf" "$@" &
echo $! >"$pidf"
wait $!
EOF

# tree_ns PID: on-CPU nanoseconds of PID's threads and all descendants
tree_ns() {
	local t c s=0 run rest
	for t in /proc/"$1"/task/*; do
		read -r run rest <"$t/schedstat" 2>/dev/null && s=$((s + run))
		for c in $(cat "$t/children" 2>/dev/null); do
			s=$((s + $(tree_ns "$c")))
		done
	done
	echo "$s"
}

CURRENT_REC=
# A recorder that does not end within STOP_WAIT s of its SIGINT is killed
# and its run not counted: a cut file says nothing of what it recorded
# (trace-cmd compresses every CPU's data at its stop; a slow machine of
# many CPUs takes a while)
STOP_WAIT=300
STOP_KILLED=0
stop_current_recorder() {
	local i
	STOP_KILLED=0
	[ -n "$CURRENT_REC" ] || return 0
	kill -INT "$CURRENT_REC" 2>/dev/null || true
	for ((i = 0; i < STOP_WAIT * 20; i++)); do
		kill -0 "$CURRENT_REC" 2>/dev/null || break
		sleep 0.05
	done
	if kill -0 "$CURRENT_REC" 2>/dev/null; then
		kill -KILL "$CURRENT_REC"
		STOP_KILLED=1
	fi
	echo "${TRACING_ON0:-1}" >"$TRACEFS/tracing_on"
	CURRENT_REC=
}
on_exit stop_current_recorder

# counts FILE: "EVENTS LOST" of a recording (see the header)
counts() {
	local e l
	e=$("$IOREPORT" info "$1" 2>/dev/null | sed -n 's/^events: .*, \([0-9]*\) events.*/\1/p')
	case $1 in
	*.dat)
		l=$(trace-cmd report --stat -i "$1" 2>/dev/null |
			awk -F': *' '/^(overrun|commit overrun|dropped events):/ { s += $2 } END { print s + 0 }') ;;
	*)
		l=$("$IOREPORT" info "$1" 2>/dev/null | awk '
			/^lost events:/ { inlost = 1; next }
			/^[^ ]/ { inlost = 0 }
			inlost && $1 == "total" { l = $2 }
			END { print l + 0 }') ;;
	esac
	echo "${e:-0} ${l:-0}"
}

RESULTS=$T/results
: >"$RESULTS"

# run_one LOAD MODE ROUND: one measured run, a line to RESULTS
run_one() {
	local load=$1 mode=$2 round=$3 tag=$1.$2.$3 rate=0 out rec=() tp rp i
	local tput cpu=0 ev=0 lost=0 size=0 rss=0 margs in0=0 in1=0
	[ "$load" = limited ] && rate=$RATE
	case $mode in
	none) ;;
	tc7)
		out=$OUT/$tag.dat
		rec=(trace-cmd record -q -d --no-filter -b "${BUF:-2048}" "${TC_EV[@]}"
			--file-version 7 --compression zstd -o "$out") ;;
	*)
		out=$OUT/$tag.iorec
		read -r -a margs <<<"${MODE_ARGS[$mode]}"
		rec=("$IOREC" -q -o "$out" ${BUF:+-b "$BUF"} "${margs[@]}") ;;
	esac
	if [ "$mode" != none ]; then
		(cd "$OUT" && exec bash "$T/wrap.sh" "$T/$tag.time" "$T/$tag.pid" "$T/cputime" "${rec[@]}") \
			>"$T/$tag.log" 2>&1 &
		track_pid $!
		for ((i = 0; i < 100; i++)); do
			[ -s "$T/$tag.pid" ] && break
			sleep 0.05
		done
		tp=$(cat "$T/$tag.pid")
		rp=
		for ((i = 0; i < 100; i++)); do
			rp=$(cat "/proc/$tp/task/$tp/children" 2>/dev/null || true)
			rp=${rp%% *}
			[ -n "$rp" ] && break
			sleep 0.05
		done
		[ -n "$rp" ] || { echo "storm-bench: $tag: the recorder did not start: $(cat "$T/$tag.log")" >&2; return 1; }
		CURRENT_REC=$rp
		# recording: iorec's instance traces, trace-cmd has forked its
		# per-CPU readers (a slow machine of many CPUs takes seconds)
		for ((i = 0; i < 2400; i++)); do
			case $mode in
			tc7) [ "$(wc -w <"/proc/$rp/task/$rp/children" 2>/dev/null || echo 0)" -ge "$NCPU" ] && break ;;
			*) [ "$(cat "$TRACEFS/instances/iorec-$rp/tracing_on" 2>/dev/null)" = 1 ] && break ;;
			esac
			sleep 0.05
		done
		[ "$i" -lt 2400 ] || { echo "storm-bench: $tag: the recorder was not recording 120 s after its start: $(cat "$T/$tag.log")" >&2; return 1; }
		sleep "$SETTLE"
	fi
	[ "$mode" = none ] || in0=$(tree_ns "$tp")
	tput=$(storm "$rate")
	if [ "$mode" != none ]; then
		in1=$(tree_ns "$tp")
		sleep 1
		stop_current_recorder
		wait
		[ "$STOP_KILLED" = 0 ] || { echo "storm-bench: $tag: the recorder had not ended $STOP_WAIT s after its SIGINT: killed, run not counted" >&2; return 1; }
		[ -s "$out" ] || { echo "storm-bench: $tag: no output: $(cat "$T/$tag.log")" >&2; return 1; }
		cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { print s + 0 }' "$T/$tag.time")
		rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$T/$tag.time")
		size=$(stat -c %s "$out")
		read -r ev lost < <(counts "$out")
		[ "$KEEP" = 1 ] || rm -f "$out"
	fi
	cin=$(awk -v a="$in0" -v b="$in1" 'BEGIN { printf "%.6f", (b - a) / 1e9 }')
	echo "$load $mode $round $tput $cpu $ev $lost $size $rss $cin" >>"$RESULTS"
	awk -v l="$load" -v m="$mode" -v r="$round" -v t="$tput" -v c="$cpu" -v e="$ev" -v lo="$lost" -v ci="$cin" 'BEGIN {
		printf "  %-8s %-9s round %d: %9.0f writes/s", l, m, r, t
		if (m != "none") printf "  cpu %.3f s (%.3f s while the writers ran)  %d events  %d lost", c, ci, e, lo
		printf "\n" }' >&2
}

echo "storm-bench: $NCPU writers (nproc) of 512-byte writes, $SECS s each, $ROUNDS rounds;" \
	"rate-limited at $RATE writes/s in all; kernel $(uname -r); loop ext4 $LOOPNAME" >&2
echo "storm-bench: modes: ${MODES[*]}; buffers: iorec ${BUF:-its choice}, trace-cmd ${BUF:-2048} KB/CPU" >&2
echo "storm-bench: load average at start: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
IFS=, read -r -a LL <<<"$LOADS"
for ((r = 1; r <= ROUNDS; r++)); do
	for load in "${LL[@]}"; do
		# rotate the order, so that no mode always runs first or last
		n=${#MODES[@]}
		for ((i = 0; i < n; i++)); do
			run_one "$load" "${MODES[$(((i + r - 1) % n))]}" "$r" || true
		done
	done
done
echo "storm-bench: load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

awk -v modes="${MODES[*]}" -v loads="$LOADS" '
function med(k, f,   i, j, c, v, x) {
	c = n[k]
	for (i = 1; i <= c; i++) v[i] = val[k, f, i]
	for (i = 2; i <= c; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
	return (c % 2) ? v[(c + 1) / 2] : (v[c / 2] + v[c / 2 + 1]) / 2
}
function ratio(a, b) { return (b > 0) ? sprintf("%.2f", a / b) : "-" }
{
	k = $1 SUBSEP $2; i = ++n[k]
	val[k, "tput", i] = $4; val[k, "cpu", i] = $5; val[k, "ev", i] = $6
	val[k, "lost", i] = $7; val[k, "size", i] = $8; val[k, "rss", i] = $9
	val[k, "bpe", i] = $6 ? $8 / $6 : 0; val[k, "cin", i] = $10
}
END {
	nm = split(modes, M, " "); nl = split(loads, L, ",")
	printf "\nmedians over the rounds; ratios to trace-cmd (tc7) of the same run\n"
	for (j = 1; j <= nl; j++) {
		l = L[j]; base = l SUBSEP "none"; tc = l SUBSEP "tc7"
		printf "\n== %s\n%-10s %4s %12s %7s %8s %8s %11s %11s %7s %8s   %s\n", l, "MODE", "RUNS", "WRITES/S",
			"VS-NONE", "CPU(s)", "CPU-IN", "EVENTS", "LOST", "B/EV", "RSS(MB)", "vs tc7: tput cpu cpu-in events lost bytes rss"
		for (i = 1; i <= nm; i++) {
			k = l SUBSEP M[i]; if (!n[k]) continue
			t = med(k, "tput")
			printf "%-10s %4d %12.0f %7s", M[i], n[k], t, n[base] ? ratio(t, med(base, "tput")) : "-"
			if (M[i] == "none") { printf "\n"; continue }
			printf " %8.3f %8.3f %11.0f %11.0f %7.1f %8.1f", med(k, "cpu"), med(k, "cin"), med(k, "ev"), med(k, "lost"),
				med(k, "bpe"), med(k, "rss") / 1024
			if (M[i] != "tc7" && n[tc])
				printf "   %s %s %s %s %s %s %s", ratio(t, med(tc, "tput")), ratio(med(k, "cpu"), med(tc, "cpu")),
					ratio(med(k, "cin"), med(tc, "cin")),
					ratio(med(k, "ev"), med(tc, "ev")),
					(med(tc, "lost") > 0) ? ratio(med(k, "lost"), med(tc, "lost")) : (med(k, "lost") > 0 ? "inf" : "0=0"),
					ratio(med(k, "size"), med(tc, "size")), ratio(med(k, "rss"), med(tc, "rss"))
			printf "\n"
		}
	}
}' "$RESULTS"
echo
echo "trace-cmd events: $EVENTS" | tr '\n' ' '
echo
[ "$KEEP" = 0 ] || { cp -r "$OUT" "./storm-bench-out.$$" && echo "recordings kept in ./storm-bench-out.$$"; }
