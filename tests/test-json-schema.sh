#!/usr/bin/env bash
# test-json-schema.sh - every view's --json output on every sample (diff
# on the pairs of tests/golden/DIFFS) is valid against its JSON Schema in
# docs/json/ (and a few filtered ones), every schema requires schema_version and the integrity
# object, and the shared words mean one thing in every view: device and
# path are strings, dev a MAJ:MIN, pid an integer, comms an array of
# names, wherever they appear.
set -u
cd "$top_srcdir" || exit 1
python3 -c 'import jsonschema' 2>/dev/null ||
	{ echo "SKIP: no python3 jsonschema (apt-get install python3-jsonschema; scripts/install-deps.sh)"; exit 77; }
shopt -s nullglob
samples=(samples/*.iorec samples/*.dat)
[ ${#samples[@]} -gt 0 ] || { echo "SKIP: no samples"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

n=0
for schema in docs/json/*.schema.json; do
	view=$(basename "$schema" .schema.json)
	[ "$view" = common ] && continue
	if [ "$view" = diff ]; then
		while read -r before after opts; do
			case $before in '#'*|'') continue ;; esac
			n=$((n + 1))
			# shellcheck disable=SC2086
			"$IOREPORT" diff --json $opts "samples/$before" "samples/$after" \
				> "$dir/$n.diff.json" 2>/dev/null || echo "$view $before $after" >> "$dir/failed"
		done < tests/golden/DIFFS
		continue
	fi
	for s in "${samples[@]}"; do
		n=$((n + 1))
		"$IOREPORT" "$view" --json "$s" > "$dir/$n.$view.json" 2>/dev/null ||
			echo "$view $s" >> "$dir/failed"
	done
done
# filtered views: the same schemas, with the filter object
for args in "processes -c python3" "slow --min-ms 1 --since 0.2 --until 1" \
	    "snoop -d vda" "files -f */*.sqlite*" "report -p 16616 --all-fds" \
	    "devices --interval 0.1" "processes --interval 0.2 -n 3" \
	    "wa -p 16616" "fsync --since 0.5 -d loop0" "dirty -c bcfg2-server" \
	    "findings -f */*.sqlite*"; do
	[ -f samples/story001-barrier.iorec ] || break
	n=$((n + 1))
	set -f	# the glob is -f's
	# shellcheck disable=SC2086
	"$IOREPORT" $args --json samples/story001-barrier.iorec > "$dir/$n.${args%% *}.json" 2>/dev/null ||
		echo "$args" >> "$dir/failed"
	set +f
done
# a filtered diff: a filter object for each recording
if [ -f samples/story000-sqlite-before.iorec ]; then
	n=$((n + 1))
	"$IOREPORT" diff --json -c python3 --since 0.5 samples/story000-sqlite-before.iorec \
		samples/story000-sqlite-after.iorec > "$dir/$n.diff.json" 2>/dev/null ||
		echo "diff -c python3 --since 0.5" >> "$dir/failed"
fi
if [ -s "$dir/failed" ]; then
	echo "FAIL: a view failed on a sample:"; cat "$dir/failed"; exit 1
fi

python3 - "$dir" <<'EOF'
import copy, glob, json, os, re, sys
import jsonschema

d = sys.argv[1]
common = json.load(open('docs/json/common.schema.json'))

def inline(s):
    """The schema with common.schema.json's shapes copied in (any jsonschema version)."""
    s = copy.deepcopy(s)
    s['$defs'] = common['$defs']
    def walk(o):
        if isinstance(o, dict):
            if isinstance(o.get('$ref'), str):
                o['$ref'] = o['$ref'].replace('common.schema.json#', '#')
            for v in o.values():
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)
    walk(s)
    return s

VOCAB = {'device': str, 'path': (str, type(None)), 'recording': str,
         'pid': (int, type(None)), 'comm': (str, type(None)), 'comms': list,
         'dev': (str, type(None))}
bad, checked = [], 0
def vocab(o, where):
    if isinstance(o, dict):
        for k, v in o.items():
            if k in VOCAB and not isinstance(v, VOCAB[k]):
                bad.append('%s: "%s" is %s' % (where, k, type(v).__name__))
            if k == 'dev' and isinstance(v, str) and not re.fullmatch(r'\d+:\d+', v):
                bad.append('%s: "dev" %r is no MAJ:MIN' % (where, v))
            if k == 'comms' and isinstance(v, list) and not all(isinstance(x, str) for x in v):
                bad.append('%s: "comms" holds a non-string' % where)
            vocab(v, where)
    elif isinstance(o, list):
        for v in o:
            vocab(v, where)

for path in sorted(glob.glob(os.path.join(d, '*.json'))):
    view = path.split('.')[-2]
    schema = json.load(open('docs/json/%s.schema.json' % view))
    for k in ('schema_version', 'integrity'):
        if k not in schema.get('required', []):
            bad.append('%s.schema.json does not require %s' % (view, k))
    doc = json.load(open(path))
    v = jsonschema.Draft7Validator(inline(schema))
    for e in sorted(v.iter_errors(doc), key=str)[:3]:
        bad.append('%s (%s): %s at %s' % (view, os.path.basename(path),
                   e.message[:200], '/'.join(map(str, e.absolute_path))))
    vocab(doc, view)
    checked += 1
for b in bad[:40]:
    print('FAIL:', b)
print('%d outputs checked against docs/json/' % checked)
sys.exit(1 if bad else 0)
EOF
