#!/usr/bin/env bash
# test-html.sh - ioreport html on every sample and on the stories'
# before/after pairs, each page opened in headless Chromium at 1280 px
# (tests/html/check-page.js) and judged as a person sees it and against
# the text views (tests/html/check-html.py): no console error, no request
# but the page, nothing wider than the window, no text over another or
# out of its plot, legends in their marks' colours, one colour per
# operation, a unit on every axis, the slowest device first, rates over
# bins of 100 ms or more, a heat map per device, a pair's rows on shared
# scales with the paired findings at the top, the numbers of the views,
# under 3 MiB.  The screenshots stay in tests/html-shots/ of the build
# tree (make clean removes them).  Chromium runs niced, one page at a
# time.  Skips when chromium or playwright-core (npm) cannot be had
# (tests/html/setup.sh says why).
set -u
cd "$top_srcdir" || exit 1
export LC_ALL=C TZ=UTC
command -v python3 >/dev/null || { echo "SKIP: python3 missing"; exit 77; }
cache=$(tests/html/setup.sh) || { echo "SKIP: no headless browser for the page test"; exit 77; }
export NODE_PATH=$cache/node_modules
shots=${top_builddir:-$top_srcdir}/tests/html-shots
rm -rf "$shots" && mkdir -p "$shots" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
# NAME RECORDING [AFTER]: a page to make, then read with the others
names=() recs=()
page() {
	local name=$1
	shift
	"$IOREPORT" html -o "$tmp/$name.html" "$@" || { bad "ioreport html $* failed"; return; }
	names+=("$name")
	recs+=("$*")
}
for s in samples/*.iorec samples/*.dat; do
	[ -f "$s" ] && page "$(basename "$s")" "$s"
done
page pair-story000 samples/story000-sqlite-before.iorec samples/story000-sqlite-after.iorec
page pair-story001 samples/story001-barrier.iorec samples/story001-nobarrier.iorec
page pair-story002 samples/story002-dirty-default.iorec samples/story002-dirty-tuned.iorec
args=()
for name in "${names[@]}"; do args+=("$tmp/$name.html" "$shots/$name.png"); done
nice -n 10 node tests/html/check-page.js "${args[@]}" > "$tmp/pages.json" ||
	bad "chromium could not read the pages"
n=0
while read -r json; do
	name=${names[$n]}
	printf '%s\n' "$json" > "$tmp/$name.json"
	# shellcheck disable=SC2086
	python3 tests/html/check-html.py "$IOREPORT" "$tmp/$name.json" "$tmp/$name.html" "$shots/$name.png" ${recs[$n]} || fail=1
	n=$((n + 1))
done < "$tmp/pages.json"
[ "$n" = "${#names[@]}" ] || bad "$n pages read of ${#names[@]}"
# the redacted recording's page names nothing of the original
"$IOREPORT" redact samples/story000-sqlite-before.iorec "$tmp/red.iorec" &&
	"$IOREPORT" html -o "$tmp/red.html" "$tmp/red.iorec" || bad "html of a redacted recording failed"
grep -q 'home-assistant_v2' "$tmp/red.html" && bad "the redacted page names the database"
grep -q 'redacted</td><td>yes' "$tmp/red.html" || bad "the redacted page does not say so"
# failures: one line, exit 1, no page left behind
out=$("$IOREPORT" html -o "$tmp/x.html" /nonexistent.iorec 2>&1); rc=$?
[ $rc = 1 ] && [ ! -e "$tmp/x.html" ] && [ "$(wc -l <<<"$out")" = 1 ] || bad "a missing recording: rc $rc, '$out'"
"$IOREPORT" html 2>/dev/null; [ $? = 2 ] || bad "html without a recording is not a usage error"
echo "checked $n pages; screenshots (window and whole page) in $shots"
exit $fail
