#!/usr/bin/env bash
# html-bench.sh - the size of ioreport html's page and the time to make
# and to open it, on a large recording, against ioreport report on the
# same file in the same run (the same pass: the page costs its plots).
# Not a test.
#
# Records (root) a workload of BLOCKS 512-byte dd read+write pairs (about
# 6 events each) and REQS direct 4 KiB writes with fsync (block requests
# with queue and device time) under iorec -b 16384, or takes RECORDING.
# Then prints, best of ROUNDS runs each:
#   report    ioreport report > /dev/null        wall s, events/s
#   html      ioreport html -o page.html         wall s, events/s, ratio to report
#   redact    ioreport redact                    wall s, events/s, ratio to report
#   page      its size (bytes, per device) and the svg/point counts
#   chromium  time to load the page in headless Chromium (when
#             tests/html/setup.sh finds chromium and playwright-core)
# How each number is measured:
#   events    'ioreport info' of the recording
#   wall      elapsed time of /usr/bin/time, best of ROUNDS
#   rss       "Maximum resident set size" of /usr/bin/time, largest of ROUNDS
#
# usage: bench/html-bench.sh [-n ROUNDS] [-l BLOCKS] [-q REQS] [-k] [RECORDING]
#   -n ROUNDS        timing rounds per measure (default 3)
#   -l BLOCKS        512-byte blocks dd copies (default 1500000: about 10 M events)
#   -q REQS          direct 4 KiB writes (default 100000)
#   -k               keep the files (their directory is printed)
set -euo pipefail
export LC_ALL=C

ROUNDS=3 BLOCKS=1500000 REQS=100000 KEEP=0
usage() {
	sed -n 's/^# usage: //p; s/^#   -/  -/p' "$0" >&2
	exit 2
}
while getopts "n:l:q:kh" opt; do
	case $opt in
	n) ROUNDS=$OPTARG ;;
	l) BLOCKS=$OPTARG ;;
	q) REQS=$OPTARG ;;
	k) KEEP=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -le 1 ] || usage

here=$(cd "$(dirname "$0")" && pwd)
: "${IOREC:=$here/../iorec}"
: "${IOREPORT:=$here/../ioreport}"
die() { echo "html-bench: $*" >&2; exit 1; }
command -v /usr/bin/time >/dev/null || die "missing /usr/bin/time: apt-get install time"
[ -x "$IOREPORT" ] || die "$IOREPORT not built (run make)"
T=$(mktemp -d "${TMPDIR:-/tmp}/html-bench.XXXXXX")
cleanup() {
	if [ "$KEEP" = 1 ]; then echo "files kept in $T"; else rm -rf "$T"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

if [ $# = 1 ]; then
	rec=$1
else
	[ "$(id -u)" = 0 ] || die "needs root to record (or give a RECORDING)"
	[ -x "$IOREC" ] || die "$IOREC not built (run make)"
	cat > "$T/work.sh" <<EOW
dd if=/dev/zero of=/dev/null bs=512 count=$BLOCKS 2>/dev/null
dd if=/dev/zero of=$T/blk bs=4k count=$REQS oflag=direct conv=fsync 2>/dev/null
rm -f $T/blk
sync
EOW
	echo "recording $BLOCKS dd blocks and $REQS direct writes in $T ..." >&2
	"$IOREC" -q -b 16384 -o "$T/large.iorec" -- sh "$T/work.sh" ||
		die "iorec failed"
	rec=$T/large.iorec
fi
events=$("$IOREPORT" info "$rec" | sed -n 's/^events: .*, \([0-9]*\) events.*/\1/p')

# best wall and largest RSS of ROUNDS runs of a command
best() {
	local w=999999 r=0 i
	for ((i = 0; i < ROUNDS; i++)); do
		/usr/bin/time -f '%e %M' -o "$T/time" "$@" > /dev/null 2>&1 || die "$* failed"
		read -r ew er < "$T/time"
		w=$(awk -v a="$w" -v b="$ew" 'BEGIN { print (b < a) ? b : a }')
		[ "$er" -gt "$r" ] && r=$er
	done
	echo "$w $r"
}
read -r rw rr < <(best "$IOREPORT" report "$rec")
read -r hw hr < <(best "$IOREPORT" html -o "$T/page.html" "$rec")
read -r xw xr < <(best "$IOREPORT" redact "$rec" "$T/red.iorec")
size=$(stat -c %s "$T/page.html")
ndev=$(grep -c '<section class="device"' "$T/page.html" || true)
npt=$(grep -c '<circle class="pt' "$T/page.html" || true)
rate() { awk -v e="$events" -v w="$1" 'BEGIN { printf "%.0f", (w > 0 ? e / w : 0) }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
printf 'recording: %s, %s events, %s bytes\n' "$rec" "$events" "$(stat -c %s "$rec")"
printf '%-8s %9s %12s %9s %10s\n' MEASURE WALL_S EVENTS/S RSS_KB VS_REPORT
printf '%-8s %9s %12s %9s %10s\n' report "$rw" "$(rate "$rw")" "$rr" 1.00
printf '%-8s %9s %12s %9s %10s\n' html "$hw" "$(rate "$hw")" "$hr" "$(ratio "$hw" "$rw")"
printf '%-8s %9s %12s %9s %10s\n' redact "$xw" "$(rate "$xw")" "$xr" "$(ratio "$xw" "$rw")"
printf 'page: %s bytes (%s MB), %s devices, %s points, %s bytes per event\n' "$size" \
	"$(awk -v s="$size" 'BEGIN { printf "%.2f", s / 1e6 }')" "$ndev" "$npt" \
	"$(awk -v s="$size" -v e="$events" 'BEGIN { printf "%.3f", e ? s / e : 0 }')"
if cache=$(cd "$here/.." && tests/html/setup.sh 2>/dev/null); then
	NODE_PATH=$cache/node_modules nice -n 10 node "$here/../tests/html/check-page.js" \
		"$T/page.html" "$T/page.png" > "$T/page.json"
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("chromium: loaded in %d ms, %d console errors, %d requests, %d svgs" % (d["load_ms"], len(d["errors"]), len(d["requests"]), d["svgs"]))' "$T/page.json"
else
	echo "chromium: not measured (tests/html/setup.sh finds no chromium or playwright-core)"
fi
