#!/usr/bin/env bash
# test-width.sh - every default text view fits in 100 columns on every
# sample (diff on the golden pairs), a name or path too long for its
# column is cut visibly ("..." or "~"), and --wide shows the exact
# numbers: the devices' byte counts of --wide are those of --json.
set -u
cd "$top_srcdir" || exit 1
export LC_ALL=C
shopt -s nullglob
samples=(samples/*.iorec samples/*.dat)
[ ${#samples[@]} -gt 0 ] || { echo "SKIP: no samples"; exit 77; }
fail=0 n=0
# check NAME: stdin's lines, the warning lines of damaged input aside
check() {
	local long
	long=$(grep -v '^\(# \)\?warning: ' | awk 'length($0) > 100 { print length($0) ": " substr($0, 1, 60) }' | head -3)
	n=$((n + 1))
	[ -z "$long" ] || { echo "FAIL: $1: lines over 100 columns:"; echo "$long"; fail=1; }
}
for v in report summary devices slow snoop processes files wa fsync dirty; do
	for s in "${samples[@]}"; do
		check "$v $s" < <("$IOREPORT" "$v" "$s" 2>/dev/null)
	done
done
# the --interval blocks
for v in devices processes; do
	for s in "${samples[@]}"; do
		check "$v --interval 0.25 $s" < <("$IOREPORT" "$v" --interval 0.25 "$s" 2>/dev/null)
	done
done
while read -r before after opts; do
	case $before in '#'*|'') continue ;; esac
	case " $opts " in *" --json "*) continue ;; esac
	# shellcheck disable=SC2086
	check "diff $before $after" < <("$IOREPORT" diff $opts "samples/$before" "samples/$after" 2>/dev/null)
done < tests/golden/DIFFS

# --wide: every view takes it; devices' bytes are exact there
for v in report summary devices slow snoop processes files wa fsync dirty; do
	"$IOREPORT" "$v" --wide "${samples[0]}" > /dev/null 2>&1 || { echo "FAIL: $v --wide"; fail=1; }
done
s=samples/story001-barrier.iorec
if [ -f "$s" ]; then
	want=$("$IOREPORT" devices --json "$s" | python3 -c '
import json, sys
print(" ".join("%s:%s:%d" % (d["device"], d["op"], d["bytes"]) for d in json.load(sys.stdin)["devices"]))')
	got=$("$IOREPORT" devices --wide "$s" | awk '/^devices:/ { on = 1; next } on && NF == 0 { exit }
		on && $1 != "DEVICE" { printf "%s%s:%s:%s", sep, $1, $2, $4; sep = " " }')
	[ "$want" = "$got" ] || { echo "FAIL: devices --wide bytes [$got], JSON [$want]"; fail=1; }
	# the default cuts the long paths of slow visibly, --wide keeps them
	grep -q '  \.\.\.' <("$IOREPORT" slow "$s") || { echo "FAIL: slow does not cut a long path visibly"; fail=1; }
	"$IOREPORT" slow --wide "$s" | grep -q '/tmp/iorec-samples.PDv0kK/s1-barrier/bcfg2.sqlite-journal$' ||
		{ echo "FAIL: slow --wide does not show the whole path"; fail=1; }
fi
[ $fail = 0 ] && echo "$n outputs fit in 100 columns"
exit $fail
