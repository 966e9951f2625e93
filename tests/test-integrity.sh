#!/usr/bin/env bash
# test-integrity.sh - every view says what a damaged recording lost: a
# flipped byte, a lying length and a bad zstd frame in the middle of a
# real sample, and the same sample cut inside a chunk.  Each text view
# prints exactly one warning line naming the damage (the reason the
# reader found, or the cut), each JSON view the same "integrity" object
# (status, the region, the counts); the intact sample has neither; the
# events after the damage are read (>= 90 % of the original's); and wa
# does not turn a cut file into a write amplification.
set -u
src=$top_srcdir/samples/story001-barrier.iorec
[ -f "$src" ] || { echo "SKIP: no sample $src"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

python3 "$top_srcdir/tests/corrupt/make-damage.py" "$src" "$dir" || exit 1
python3 "$top_srcdir/tests/corrupt/make-corrupt.py" "$src" "$dir/c" > /dev/null || exit 1
cp "$dir/c/cut-in-data.iorec" "$dir/cut.iorec"
off=$(awk -F'\t' '$1 == "cut-in-data.iorec" { print $4 }' "$dir/c/EXPECT")
echo "$off 0 0 0 0 cut short at offset $off (file ends inside a chunk)" > "$dir/cut.expect"

views="report summary devices slow snoop processes files wa fsync dirty"
fail=0
FAIL() { echo "FAIL: $*"; fail=1; }

# check_json NAME FILE VIEW WANT-STATUS REASON EVENTS
check_json() {
	python3 - "$@" <<'EOF'
import json, sys
name, path, view, status, reason, orig = sys.argv[1:7]
d = json.load(open(path))
i = d.get('integrity')
bad = []
if not isinstance(i, dict):
    bad.append('no integrity object')
else:
    r = i['recordings']
    if status == 'complete':
        if not i['complete'] or i['status'] != 'complete' or i['warning'] is not None:
            bad.append('intact recording not complete: %s' % i)
    else:
        if i['complete'] or i['status'] != status:
            bad.append('status %s (complete %s), not %s' % (i['status'], i['complete'], status))
        if not i['warning'] or reason not in i['warning']:
            bad.append('warning %r does not name %r' % (i['warning'], reason))
        if status == 'corrupt' and (r[0]['damaged_regions'] != 1 or r[0]['damaged_chunks'] != 1):
            bad.append('regions %s' % r[0])
        if status == 'truncated' and not r[0]['truncated']:
            bad.append('not said truncated: %s' % r[0])
    ev = d.get('events')
    if status != 'truncated' and ev is not None and ev < 0.9 * int(orig):
        bad.append('%d events read of %s' % (ev, orig))
if view == 'wa' and status == 'truncated':
    o = d['overall']
    if o['comparable'] or o['ratio'] is not None:
        bad.append('a cut recording gets a write amplification: %s' % o)
for b in bad:
    print('FAIL: %s %s --json: %s' % (name, view, b))
sys.exit(1 if bad else 0)
EOF
}

orig=$("$IOREPORT" report --json "$src" 2>/dev/null |
       python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])') || exit 1
for name in intact flipped lying-length bad-frame cut; do
	if [ $name = intact ]; then
		f=$src status=complete reason=
	else
		f=$dir/$name.iorec
		read -r _ _ _ _ _ reason < "$dir/$name.expect"
		status=corrupt; [ $name = cut ] && status=truncated
	fi
	for v in $views info; do
		out=$("$IOREPORT" $v "$f" 2>/dev/null); rc=$?
		[ $rc = 0 ] || { FAIL "$name $v exited $rc"; continue; }
		# info has its own integrity lines; the views one warning line
		if [ $v != info ]; then
			n=$(grep -cE "^(# )?warning: " <<<"$out")
			if [ $name = intact ]; then
				[ "$n" = 0 ] || FAIL "$name $v warns on an intact recording: $(grep -m1 warning: <<<"$out")"
			elif [ "$n" != 1 ]; then
				FAIL "$name $v: $n warning lines, not 1"
			elif ! grep -E "^(# )?warning: " <<<"$out" | grep -qF "$f: " ||
			     ! grep -E "^(# )?warning: " <<<"$out" | grep -qF "$reason"; then
				FAIL "$name $v: the warning does not name $f and '$reason': $(grep -E 'warning: ' <<<"$out")"
			fi
		fi
		"$IOREPORT" $v --json "$f" > "$dir/out.json" 2>/dev/null ||
			{ FAIL "$name $v --json failed"; continue; }
		check_json "$name" "$dir/out.json" $v $status "$reason" "$orig" || fail=1
	done
done

# diff: the damaged side is named, the intact one is not
out=$("$IOREPORT" diff "$src" "$dir/flipped.iorec" 2>/dev/null)
[ "$(grep -c '^warning: ' <<<"$out")" = 1 ] && grep -q "^warning: $dir/flipped.iorec: damaged" <<<"$out" ||
	FAIL "diff: not one warning naming the damaged AFTER: $(grep warning <<<"$out")"
"$IOREPORT" diff --json "$src" "$dir/flipped.iorec" 2>/dev/null | python3 -c '
import json, sys
i = json.load(sys.stdin)["integrity"]
r = i["recordings"]
ok = (len(r) == 2 and i["status"] == "corrupt" and r[0]["status"] == "complete"
      and r[1]["status"] == "corrupt" and r[1]["damaged_regions"] == 1)
sys.exit(0 if ok else 1)' || FAIL "diff --json: integrity does not tell BEFORE intact and AFTER damaged"

# wa on a cut file: no ratio, and it says why
out=$("$IOREPORT" wa "$dir/cut.iorec" 2>/dev/null)
grep -q "write amplification *- *(not comparable: the recording was cut short" <<<"$out" ||
	FAIL "wa on a cut recording: $(grep 'write amplification' <<<"$out")"
[ $fail = 0 ] && echo "every view warns on $(ls "$dir"/*.expect | wc -l) damaged recordings"
exit $fail
