#!/usr/bin/env bash
# record-overrun.sh - loss never lies: a syscall storm (one writer of
# 512-byte writes per CPU, each timing its own calls) recorded into 16 KB
# buffers overruns them; ioreport info then states the loss per CPU, and
# no write latency the analyzer reports for a writer exceeds the longest
# call that writer timed itself (a pair of one call's enter with a later
# call's exit across a gap would), nor the recording's length.
. "$(dirname "$0")/lib.sh"
need_root_tracefs
need_cmd gcc
need_event syscalls:sys_enter_write

cat >"$T/lw.c" <<'C'
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
static long long ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}
int main(int argc, char **argv)
{
	static char buf[512];
	long long end = ns() + (long long)(atof(argv[2]) * 1e9), max = 0, a, b;
	long n = 0;
	int fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		return 1;
	while ((a = ns()) < end) {
		if (write(fd, buf, sizeof(buf)) != sizeof(buf))
			return 1;
		b = ns();
		if (b - a > max)
			max = b - a;
		if ((++n & 32767) == 0)
			lseek(fd, 0, SEEK_SET);
	}
	printf("%d %ld %lld\n", (int)getpid(), n, max);
	return 0;
}
C
gcc -O2 -o "$T/lw" "$T/lw.c" || fail "cannot build the writer"
n=$(nproc)
cmd="for i in \$(seq $n); do $T/lw $T/w\$i 2 >$T/lwout.\$i & done; wait"
rc=0
run_iorec -q -b 16 -o "$T/storm.iorec" -- sh -c "$cmd" 2>"$T/rec.err" || rc=$?
[ "$rc" = 0 ] || { cat "$T/rec.err" >&2; fail "iorec -b 16 exited $rc"; }
cat "$T"/lwout.* >"$T/truth"
"$IOREPORT" info "$T/storm.iorec" >"$T/info" 2>&1 || fail "ioreport info failed"
"$IOREPORT" processes --json "$T/storm.iorec" >"$T/procs.json" 2>/dev/null ||
	fail "ioreport processes failed"
lost=$(awk '/^lost events:/ { f = 1; next } /^[^ ]/ { f = 0 } f && $1 == "total" { print $2 }' "$T/info")
log "lost events: ${lost:-none}; $(grep -c '^  cpu ' "$T/info") per-CPU lines"
[ "${lost:-0}" -gt 0 ] || skip "no overrun with 16 KB buffers here (a fast reader): nothing to check"
[ "$(awk '/^lost events:/ { f = 1; next } /^[^ ]/ { f = 0 } f && /^  cpu [0-9]+ +overrun/' "$T/info" | wc -l)" = "$n" ] ||
	{ cat "$T/info" >&2; fail "ioreport info does not state the loss of each of the $n CPUs"; }
python3 - "$T/procs.json" "$T/truth" <<'PY' || fail "a reported write latency exceeds what the writer timed (see above)"
import json, sys
procs = {p['pid']: p for p in json.load(open(sys.argv[1]))['processes']}
dur = json.load(open(sys.argv[1]))['duration_ns']
bad = 0
for line in open(sys.argv[2]):
    pid, calls, maxns = (int(x) for x in line.split())
    w = procs.get(pid, {}).get('syscalls', {}).get('write', {})
    got = w.get('latency', {}).get('max_ns', 0)
    print(f'writer {pid}: {calls} writes, longest timed {maxns} ns; recorded {w.get("count", 0)}, longest {got} ns')
    if got > maxns or got > dur:
        bad += 1
sys.exit(1 if bad else 0)
PY
finish
