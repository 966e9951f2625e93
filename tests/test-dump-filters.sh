#!/usr/bin/env bash
# test-dump-filters.sh - the view filters of `ioreport dump` on a sample
# against the unfiltered dump: --comm, -p, -d MAJ:MIN and --since/--until
# each keep exactly the event lines of the whole dump that they name
# (their comm-pid, their dev field, their time), and combine; a time a
# line prints (seconds from the first event, or with --trace-clock of the
# trace clock) given back to --since keeps that line first; --wallclock
# prints each event's time on the header's wall clock.
set -euo pipefail
export LC_ALL=C
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
IOREPORT=${IOREPORT:-$top_builddir/ioreport}
S=$top_srcdir/samples/story001-barrier.iorec
fail() { echo "test-dump-filters: FAIL: $*" >&2; exit 1; }
[ -x "$IOREPORT" ] || { echo "SKIP: $IOREPORT not built"; exit 77; }
[ -f "$S" ] || { echo "SKIP: sample $S missing"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/test-dump-filters.XXXXXX")
trap 'rm -rf "$T"' EXIT

"$IOREPORT" dump --raw "$S" | grep -v '^CPU [0-9]*: \[LOST' >"$T/all" || fail "dump failed"
# the same lines, picked from the whole dump
pick() {	# FILTER ARGS... -> lines of the filtered dump, then the check
	local name=$1 want=$2
	shift 2
	"$IOREPORT" dump --raw "$@" "$S" | grep -v '^CPU [0-9]*: \[LOST' >"$T/got" ||
		fail "dump $* failed"
	eval "$want" <"$T/all" >"$T/want"
	[ -s "$T/want" ] || fail "$name: the whole dump has no such event: no test"
	cmp -s "$T/want" "$T/got" ||
		fail "$name: $(wc -l <"$T/got") lines, the whole dump has $(wc -l <"$T/want") of them"
	echo "test-dump-filters: ok: $name: $(wc -l <"$T/got") of $(wc -l <"$T/all") events"
}
pick "--comm bcfg2-server" "awk '\$1 ~ /^bcfg2-server-[0-9]+\$/'" --comm bcfg2-server
pick "-p 16616" "awk '\$1 ~ /-16616\$/'" -p 16616
pick "-d 7:0" "grep -E '(^| )dev=(7340032|0x700000)( |\$)'" -d 7:0
# the lines' times are seconds from the first event, what --since counts
first=0
pick "--since 0.5 --until 0.75" "awk -v a=$first '{ t = \$3; sub(/:\$/, \"\", t); if (t - a >= 0.5 && t - a < 0.75) print }'" --since 0.5 --until 0.75
# the window counts from the recording's first event, whatever -e and -c keep
pick "-e block --since 0.5 --until 0.75" "awk -v a=$first '{ t = \$3; sub(/:\$/, \"\", t); if (t - a >= 0.5 && t - a < 0.75 && \$4 ~ /^block_/) print }'" -e block --since 0.5 --until 0.75
# a time the dump prints, pasted into --since, starts the dump there
line=$(sed -n '2000p' "$T/all")
t=$(awk '{ t = $3; sub(/:$/, "", t); print t }' <<<"$line")
got=$("$IOREPORT" dump --raw --since "$t" "$S" | grep -v '^CPU [0-9]*: \[LOST' | sed -n 1p)
[ "$(awk '{ print $3 }' <<<"$got")" = "$t:" ] ||
	fail "--since $t (a time the dump printed) starts at '$got', not at '$line'"
tc=$("$IOREPORT" dump --raw --trace-clock "$S" | grep -v '^CPU [0-9]*: \[LOST' | sed -n '2000p' | awk '{ t = $3; sub(/:$/, "", t); print t }')
got=$("$IOREPORT" dump --raw --since "$tc" "$S" | grep -v '^CPU [0-9]*: \[LOST' | sed -n 1p)
[ "$(awk '{ print $3 }' <<<"$got")" = "$t:" ] ||
	fail "--since $tc (a --trace-clock time) starts at '$got', not at '$line'"
echo "test-dump-filters: ok: --since $t and --since $tc (printed times pasted back) start at the line they came from"
pick "-p 16616 -d 7:0" "awk '\$1 ~ /-16616\$/' | grep -E '(^| )dev=(7340032|0x700000)( |\$)'" -p 16616 -d 7:0
# --wallclock: the header's wall clock at each event (UTC: the sample has
# no utc_offset_s), the same lines otherwise
"$IOREPORT" dump --json --wallclock -e block "$S" >"$T/w.json" || fail "dump --json --wallclock failed"
"$IOREPORT" info --json "$S" >"$T/info.json" || fail "info --json failed"
"$IOREPORT" dump --wallclock -e block "$S" | grep -v '^CPU [0-9]*: \[LOST' >"$T/w.txt" || fail "dump --wallclock failed"
python3 - "$T/w.json" "$T/info.json" "$T/w.txt" <<'PY' || fail "dump --wallclock: see above"
import datetime, json, sys
ev = json.load(open(sys.argv[1]))['events']
h = json.load(open(sys.argv[2]))['header']
rt, mt = int(h['start_realtime_ns']), int(h['start_mono_ns'])
txt = [l.split()[2].rstrip(':') for l in open(sys.argv[3])]
assert len(txt) == len(ev) > 0, '%d text lines, %d JSON events' % (len(txt), len(ev))
for e, t in zip(ev, txt):
    w = rt + e['ts_ns'] - mt
    want = datetime.datetime.fromtimestamp(w // 1000000000, datetime.timezone.utc).strftime('%H:%M:%S') + '.%06d' % (w % 1000000000 // 1000)
    assert e['wallclock'] == want == t, 'event at %d: JSON %s, text %s, header says %s' % (e['ts_ns'], e['wallclock'], t, want)
print('test-dump-filters: ok: --wallclock: %d events at the header\'s wall clock' % len(ev))
PY
# --since/--until as times of day of the recording machine: the window the
# same seconds from the first event select (UTC: no utc_offset_s)
tods=$(python3 - "$T/info.json" <<'PY'
import datetime, json, sys
j = json.load(open(sys.argv[1]))
h = j['header']
rt, mt, first = int(h['start_realtime_ns']), int(h['start_mono_ns']), j['first_ts_ns']
for off in (500000000, 750000000):
    w = rt + first + off - mt
    print(datetime.datetime.fromtimestamp(w // 1000000000, datetime.timezone.utc).strftime('%H:%M:%S') + '.%09d' % (w % 1000000000))
PY
) || fail "times of day from the header"
set -- $tods
"$IOREPORT" dump --raw --since 0.5 --until 0.75 "$S" >"$T/secs" || fail "dump --since 0.5 failed"
"$IOREPORT" dump --raw --since "$1" --until "$2" "$S" >"$T/tod" || fail "dump --since $1 --until $2 failed"
[ -s "$T/secs" ] && cmp -s "$T/secs" "$T/tod" ||
	fail "--since $1 --until $2: $(wc -l <"$T/tod") lines, --since 0.5 --until 0.75 gives $(wc -l <"$T/secs")"
echo "test-dump-filters: ok: --since $1 --until $2 (times of day): $(wc -l <"$T/tod") lines, as --since 0.5 --until 0.75"
# a recording of another trace clock has no wall clock: its times of day
# are refused (one line, exit 1), its seconds still select
python3 - "$S" "$T/boot.iorec" "$top_srcdir/tests" <<'PY' || fail "making a boot-clock copy"
import sys
sys.path.insert(0, sys.argv[3])
import iorecfile
buf = bytearray(open(sys.argv[1], "rb").read())
for off, typ, flags, _, stored, _ in iorecfile.chunks(buf):
    if typ == iorecfile.HEADER:
        body = iorecfile.payload(buf, off)
        i = body.index(b"clock=mono\n") + 6
        buf[off + iorecfile.CHUNK_HEADER.size + i:off + iorecfile.CHUNK_HEADER.size + i + 4] = b"boot"
        iorecfile.repay(buf, off)
        break
open(sys.argv[2], "wb").write(buf)
PY
rc=0
out=$("$IOREPORT" dump --raw --since "$1" "$T/boot.iorec" 2>&1 >/dev/null) || rc=$?
[ "$rc" = 1 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q 'no wall clock' <<<"$out" ||
	fail "--since $1 on a boot-clock recording: exit $rc, '$out'"
"$IOREPORT" dump --raw --since 0.5 --until 0.75 "$T/boot.iorec" >"$T/boot-secs" ||
	fail "--since 0.5 on a boot-clock recording failed"
cmp -s "$T/secs" "$T/boot-secs" || fail "--since 0.5 --until 0.75 selects otherwise on a boot-clock copy"
echo "test-dump-filters: ok: a boot-clock recording refuses --since $1: $out"
echo "test-dump-filters: PASS"
