#!/usr/bin/env bash
# record-overrun.sh - loss never lies: a syscall storm (one writer of
# 512-byte writes per CPU, each timing its own calls) recorded into 16 KB
# buffers overruns them; ioreport info then states the loss per CPU, and
# no write latency the analyzer reports for a writer exceeds the longest
# call that writer timed itself (a pair of one call's enter with a later
# call's exit across a gap would), nor the recording's length.  Every
# view (text and JSON) states the loss per CPU and per time span with the
# same numbers as summary's, whose spans run from an event of their CPU
# to that CPU's next event in the dump, and whose counts are the kernel's.
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

# Every view states the loss per CPU and per time span, the same numbers:
# the per-CPU counts are the kernel's overrun counters (info), and each
# span of summary --json runs from an event of its CPU to the next event
# of that CPU in the dump, with none of the CPU's events between.
"$IOREPORT" summary --json "$T/storm.iorec" >"$T/summary.json" 2>/dev/null ||
	fail "ioreport summary --json failed"
"$IOREPORT" dump --json "$T/storm.iorec" >"$T/dump.json" 2>/dev/null ||
	fail "ioreport dump --json failed"
for v in processes files devices slow fsync wa summary dirty; do
	"$IOREPORT" "$v" "$T/storm.iorec" >"$T/view.$v" 2>/dev/null ||
		fail "ioreport $v failed"
	"$IOREPORT" "$v" --json "$T/storm.iorec" >"$T/view.$v.json" 2>/dev/null ||
		fail "ioreport $v --json failed"
done
python3 - "$T" "$n" <<'PY' || fail "the loss per CPU and per time span disagrees (see above)"
import json, re, sys, collections
t, ncpu = sys.argv[1], int(sys.argv[2])
info = open(t + '/info').read()
overrun = {int(c): int(o) for c, o in re.findall(r'^  cpu (\d+) +overrun (\d+)', info, re.M)}
summ = json.load(open(t + '/summary.json'))['summary']['lost']
bad = 0
def no(msg):
    global bad
    bad += 1
    print('FAIL:', msg)
cpus = {c['cpu']: c for c in summ['cpus']}
# events of each CPU, in time order
ev = collections.defaultdict(list)
for e in json.load(open(t + '/dump.json'))['events']:
    ev[e['cpu']].append(e['ts_ns'])
for c in ev:
    ev[c].sort()
import bisect
span_sum = collections.Counter()
span_lost = collections.Counter()
first = min(min(v) for v in ev.values())
for sp in summ['spans']:
    c, a, b = sp['cpu'], sp['from_ns'], sp['to_ns']
    v = ev[c]
    i = bisect.bisect_left(v, b)
    if i >= len(v) or v[i] != b:
        no(f'span cpu {c} {a}-{b}: no event of cpu {c} at its end')
    elif i == 0:
        if a != first:
            no(f'span cpu {c} {a}-{b}: the first of cpu {c}, yet not from the first event {first}')
    elif v[i - 1] != a:
        no(f'span cpu {c} {a}-{b}: cpu {c}\'s event before its end is at {v[i-1]}')
    span_sum[c] += b - a
    span_lost[c] += sp['events_known'] or 0
for c, x in cpus.items():
    if x['gaps'] and summ['spans_left_off'] == 0:
        if x['missing_ns'] != span_sum[c]:
            no(f'cpu {c}: missing_ns {x["missing_ns"]} is not its spans summed {span_sum[c]}')
        if x['events_known'] != span_lost[c]:
            no(f'cpu {c}: {x["events_known"]} lost, its spans say {span_lost[c]}')
    # the pages say how many they missed, but not when they have no room
    # for the count (a gap of unknown size): then only the kernel knows
    if c in overrun and (overrun[c] < x['events_known'] or
                         (not x['gaps_unknown_size'] and overrun[c] != x['events_known'])):
        no(f'cpu {c}: {x["events_known"]} lost in the data ({x["gaps_unknown_size"]} gaps of unknown size), the kernel counted {overrun[c]} overrun')
# each view: the same per-CPU statement, text and JSON
for v in ['processes', 'files', 'devices', 'slow', 'fsync', 'wa', 'summary', 'dirty']:
    txt = open(f'{t}/view.{v}').read()
    m = re.search(r'^lost events: .*: (\d+) known in (\d+) gaps?', txt, re.M)
    if not m or int(m.group(1)) != summ['events_known'] or int(m.group(2)) != summ['gaps']:
        no(f'{v}: no lost-events line of {summ["events_known"]} in {summ["gaps"]} gaps')
    lines = dict((int(c), (int(l), int(g), float(s))) for c, l, g, s in re.findall(
        r'^  cpu (\d+): (\d+) in (\d+) gaps?[\s\S]*?no events for ([0-9.]+) s', txt, re.M))
    js = json.load(open(f'{t}/view.{v}.json'))['integrity']['recordings'][0]['lost_cpus']
    for c, x in cpus.items():
        if not x['gaps']:
            continue
        want = (x['events_known'], x['gaps'], round(x['missing_ns'] / 1e9, 3))
        if lines.get(c) != want:
            no(f'{v}: cpu {c} says {lines.get(c)}, summary {want}')
        j = [y for y in js if y['cpu'] == c]
        if not j or (j[0]['events_known'], j[0]['gaps'], j[0]['missing_ns']) != (x['events_known'], x['gaps'], x['missing_ns']):
            no(f'{v} --json: cpu {c} is {j}, summary {x}')
# the JSON of a recording with gaps (no sample has any) fits the schemas
try:
    import jsonschema, copy, os
    top = os.environ.get('top_srcdir', '.')
    common = json.load(open(f'{top}/docs/json/common.schema.json'))
    def inline(o):
        if isinstance(o, dict):
            if isinstance(o.get('$ref'), str):
                o['$ref'] = o['$ref'].replace('common.schema.json#', '#')
            for x in o.values():
                inline(x)
        elif isinstance(o, list):
            for x in o:
                inline(x)
    for v in ['processes', 'files', 'devices', 'slow', 'fsync', 'wa', 'summary', 'dirty']:
        sch = copy.deepcopy(json.load(open(f'{top}/docs/json/{v}.schema.json')))
        sch['$defs'] = common['$defs']
        inline(sch)
        err = next(iter(jsonschema.Draft202012Validator(sch).iter_errors(
            json.load(open(f'{t}/view.{v}.json')))), None)
        if err:
            no(f'{v} --json does not fit docs/json/{v}.schema.json: {err.message[:200]} at {list(err.absolute_path)}')
except ImportError:
    print('(no python3 jsonschema: the schemas are not checked)')
print(f'{summ["gaps"]} gaps, {len(summ["spans"])} spans checked against the dump; {len(cpus)} CPUs in 8 views')
sys.exit(1 if bad else 0)
PY
finish
