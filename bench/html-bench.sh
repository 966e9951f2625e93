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
# With -S, instead: the page of every sample and of the stories'
# before/after pairs rendered in headless Chromium (1280 px window),
# best of ROUNDS loads each: its size and load-to-rendered time, and that
# time against the 2 s a page may take (VS_2S; under 1 is in budget).
# How each number is measured:
#   events    'ioreport info' of the recording
#   wall      elapsed time of /usr/bin/time, best of ROUNDS
#   rss       "Maximum resident set size" of /usr/bin/time, largest of ROUNDS
#
# usage: bench/html-bench.sh [-n ROUNDS] [-l BLOCKS] [-q REQS] [-k] [-S] [RECORDING]
#   -n ROUNDS        timing rounds per measure (default 3)
#   -l BLOCKS        512-byte blocks dd copies (default 1500000: about 10 M events)
#   -q REQS          direct 4 KiB writes (default 100000)
#   -k               keep the files (their directory is printed)
#   -S               render the samples' pages instead (no recording)
ROUNDS=3 BLOCKS=1500000 REQS=100000
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
SAMPLES=0
bench_options n:ROUNDS l:BLOCKS q:REQS k=KEEP S=SAMPLES -- "$@"
[ ${#ARGS[@]} -le 1 ] || usage

need /usr/bin/time:time "$IOREPORT"
make_tmp files

# -S: each sample's and pair's page, rendered ROUNDS times in Chromium
if [ "$SAMPLES" = 1 ]; then
	cache=$(cd "$here/.." && tests/html/setup.sh) ||
		die "no chromium or playwright-core (tests/html/setup.sh says why)"
	s=$here/../samples
	pages=() args=()
	for r in "$s"/*.iorec "$s"/*.dat "pair:story000-sqlite-before:story000-sqlite-after" \
		 "pair:story001-barrier:story001-nobarrier" "pair:story002-dirty-default:story002-dirty-tuned"; do
		case $r in
		pair:*) IFS=: read -r _ b a <<<"$r"; name="$b+$a"
			"$IOREPORT" html -o "$T/$name.html" "$s/$b.iorec" "$s/$a.iorec" || die "html $b $a failed" ;;
		*) name=$(basename "$r")
			"$IOREPORT" html -o "$T/$name.html" "$r" || die "html $r failed" ;;
		esac
		pages+=("$name")
		for _ in $(seq "$ROUNDS"); do args+=("$T/$name.html" "$T/$name.png"); done
	done
	NODE_PATH=$cache/node_modules nice -n 10 node "$here/../tests/html/check-page.js" "${args[@]}" > "$T/pages.json" ||
		die "chromium failed"
	printf '%-50s %10s %10s %8s\n' PAGE BYTES RENDER_MS VS_2S
	python3 - "$T/pages.json" "$ROUNDS" "$T" "${pages[@]}" <<'PY'
import json, os, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
rounds, tdir, pages = int(sys.argv[2]), sys.argv[3], sys.argv[4:]
worst = 0
for i, name in enumerate(pages):
    best = min(r["load_ms"] for r in rows[i * rounds:(i + 1) * rounds])
    worst = max(worst, best)
    print("%-50s %10d %10d %8.2f" % (name, os.path.getsize(os.path.join(tdir, name + ".html")),
                                     best, best / 2000))
print("slowest page: %d ms (%.2f of the 2 s budget)" % (worst, worst / 2000))
PY
	exit 0
fi

if [ ${#ARGS[@]} = 1 ]; then
	rec=${ARGS[0]}
else
	[ "$(id -u)" = 0 ] || die "needs root to record (or give a RECORDING)"
	need "$IOREC"
	echo "recording $BLOCKS dd blocks and $REQS direct writes in $T ..." >&2
	"$IOREC" -q -b 16384 -o "$T/large.iorec" -- sh "$(workload "$BLOCKS" 4k "$REQS")" ||
		die "iorec failed"
	rec=$T/large.iorec
fi
events=$(info_events "$rec")

time_best report "$IOREPORT" report "$rec"
time_best html "$IOREPORT" html -o "$T/page.html" "$rec"
time_best redact "$IOREPORT" redact "$rec" "$T/red.iorec"
size=$(stat -c %s "$T/page.html")
ndev=$(grep -c '<section class="device"' "$T/page.html" || true)
npt=$(grep -c '<circle class="pt' "$T/page.html" || true)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
printf 'recording: %s, %s events, %s bytes\n' "$rec" "$events" "$(stat -c %s "$rec")"
printf '%-8s %9s %12s %9s %10s\n' MEASURE WALL_S EVENTS/S RSS_KB VS_REPORT
for m in report html redact; do
	printf '%-8s %9s %12s %9s %10s\n' "$m" "${WALL[$m]}" "$(rate "$events" "${WALL[$m]}")" \
		"${RSS[$m]}" "$(ratio "${WALL[$m]}" "${WALL[report]}")"
done
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
