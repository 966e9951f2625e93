#!/usr/bin/env bash
# test-dump-json-raw.sh - `dump --json --raw` gives each event's own fields
# as typed JSON values, the same values `dump --raw` prints as text: on
# every sample, every event's fields object has the text's names in the
# text's order, each number equal to the text's (decimal or hex), each
# string the text's, each array the text's ARRAY[bytes] read in the
# recording's byte order; and a field is a number or an array, never the
# whole line as one string.
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
IOREPORT=${IOREPORT:-$top_builddir/ioreport}
[ -x "$IOREPORT" ] || { echo "SKIP: $IOREPORT not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: python3 missing"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/test-dump-json-raw.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0
for s in "$top_srcdir"/samples/*.iorec "$top_srcdir"/samples/*.dat; do
	"$IOREPORT" dump --raw "$s" >"$T/text" 2>/dev/null ||
		{ echo "FAIL: dump --raw $s"; fail=1; continue; }
	"$IOREPORT" dump --json --raw "$s" >"$T/json" 2>/dev/null ||
		{ echo "FAIL: dump --json --raw $s"; fail=1; continue; }
	big=$("$IOREPORT" info --json "$s" 2>/dev/null |
		python3 -c 'import json,sys; print(int(bool(json.load(sys.stdin).get("big_endian"))))')
	python3 - "$T/text" "$T/json" "$(basename "$s")" "$big" <<'PY' || fail=1
import json, re, sys
text = [l for l in open(sys.argv[1]) if re.match(r'\s*\S.*\[\d+\] +[0-9.]+: \S+:', l)]
evs = [e for e in json.load(open(sys.argv[2]))["events"] if "fields" in e]
name, bad, checked = sys.argv[3], [], {"num": 0, "str": 0, "array": 0}
big = sys.argv[4] == "1"	# the recording's byte order (info's big_endian)
if len(text) != len(evs):
    sys.exit("FAIL: %s: %d text lines, %d JSON events" % (name, len(text), len(evs)))
for line, e in zip(text, evs):
    f = e["fields"]
    if not isinstance(f, dict):
        bad.append("fields is %s" % type(f).__name__); break
    body = re.sub(r'^.*?\[\d+\] +[0-9.]+: \S+: *', '', line.rstrip("\n"))
    keys = list(f)
    # each NAME= in order; a value runs to the next " NAME="
    pos = []
    at = 0
    for k in keys:
        i = body.find(k + "=", at)
        if i < 0:
            bad.append("%s: %s not in %r" % (e["event"], k, body)); break
        pos.append(i); at = i + len(k) + 1
    else:
        for n, k in enumerate(keys):
            end = pos[n + 1] - 1 if n + 1 < len(keys) else len(body)
            tv, jv = body[pos[n] + len(k) + 1:end], f[k]
            if isinstance(jv, list):
                m = re.fullmatch(r'ARRAY\[(.*)\]', tv)
                b = bytes(int(x, 16) for x in m.group(1).split(", ")) if m else None
                if not b or len(b) % len(jv):
                    bad.append("%s %s: %r vs %r" % (e["event"], k, jv, tv)); continue
                w = len(b) // len(jv)
                want = [int.from_bytes(b[i*w:(i+1)*w], "big" if big else "little") for i in range(len(jv))]
                checked["array"] += 1
                if want != jv:
                    bad.append("%s %s: %r vs %r" % (e["event"], k, jv, want))
            elif isinstance(jv, bool) or jv is None:
                bad.append("%s %s: %r (text %r)" % (e["event"], k, jv, tv))
            elif isinstance(jv, int):
                checked["num"] += 1
                # the text is decimal, 0x-hex, or hex without 0x where
                # the event's print format has %x; a signed field's hex is
                # its two's complement
                ts = set()
                for base in (10, 16):
                    try:
                        ts.add(int(tv, base))
                    except ValueError:
                        pass
                if not ts & {jv, jv % (1 << 64), jv % (1 << 32)}:
                    bad.append("%s %s: %r vs text %r" % (e["event"], k, jv, tv))
            else:
                checked["str"] += 1
                if jv != tv:
                    bad.append("%s %s: %r vs text %r" % (e["event"], k, jv, tv))
    if len(bad) > 5:
        break
for b in bad[:5]:
    print("FAIL: %s: %s" % (name, b))
print("%s: %d events, %d numbers, %d strings, %d arrays the same as dump --raw's text"
      % (name, len(evs), checked["num"], checked["str"], checked["array"]))
sys.exit(1 if bad or not checked["num"] else 0)
PY
done
[ "$fail" = 0 ] && echo "PASS: dump --json --raw's fields are the text's, typed" 
exit "$fail"
