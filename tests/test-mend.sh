#!/usr/bin/env bash
# test-mend.sh - one damaged byte costs nothing: in a real recording
# (samples/story000-sqlite-before.iorec, written by iorec), a byte at each
# of 200 positions (seeded; anywhere after the 16-byte file header: chunk
# headers, descriptors, compressed pages, metadata) replaced by another
# value, one position per copy.  ioreport must read every copy whole: the
# same events as the intact file (info --json), integrity complete, a
# warning naming the chunk and the mended byte's offset, and for every
# tenth copy the same summary (--json) as the intact file.  Two damaged
# bytes in one chunk are damage (tests/test-damage.sh, test-corrupt.sh).
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
IOREPORT=${IOREPORT:-$top_builddir/ioreport}
src=$top_srcdir/samples/story000-sqlite-before.iorec
[ -f "$src" ] || { echo "SKIP: no sample $src"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/test-mend.XXXXXX")
trap 'rm -rf "$T"' EXIT

python3 - "$IOREPORT" "$src" "$T" <<'PY'
import json, random, re, subprocess, sys
ioreport, src, t = sys.argv[1:4]
orig = open(src, 'rb').read()


def run(view, path):
    p = subprocess.run([ioreport, view, '--json', path], capture_output=True,
                       text=True)
    return p.returncode, (json.loads(p.stdout) if p.stdout.strip() else None), p.stderr


def strip(j):
    """A view's JSON without what names the file."""
    j = dict(j)
    for k in ('file', 'recording', 'integrity'):
        j.pop(k, None)
    return j


rc, info0, _ = run('info', src)
rc, sum0, _ = run('summary', src)
events = info0['events']
rng = random.Random(20261205)
bad = []
for k in range(200):
    pos = rng.randrange(16, len(orig))
    b = bytearray(orig)
    b[pos] ^= rng.randrange(1, 256)
    path = '%s/m.iorec' % t
    open(path, 'wb').write(b)
    rc, info, err = run('info', path)
    got = info['events'] if info else 0
    st = (info or {}).get('integrity', {}).get('status')
    if rc or got != events or st != 'complete':
        bad.append('byte %d: exit %d, %d of %d events, integrity %s: %s'
                   % (pos, rc, got, events, st, err.strip()[:200]))
        continue
    if not re.search(r'one damaged byte \(offset %d\) mended' % pos, err):
        bad.append('byte %d: no warning naming it: %r' % (pos, err[:200]))
    if k % 10 == 0:
        rc, s, err = run('summary', path)
        if strip(s) != strip(sum0):
            bad.append('byte %d: the summary differs from the intact file\'s' % pos)
for x in bad[:10]:
    print('test-mend: FAIL: ' + x)
print('test-mend: 200 copies of %s with one damaged byte each: %d read whole '
      '(%d events each), %d not' % (src, 200 - len(bad), events, len(bad)))
sys.exit(1 if bad else 0)
PY
