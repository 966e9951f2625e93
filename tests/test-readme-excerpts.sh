#!/usr/bin/env bash
# test-readme-excerpts.sh - the README's excerpts are what ioreport prints
# today: for each indented block that starts "$ ioreport ARGS" on a bundled
# sample, the command is run and every line of the block other than
# "[...]" must be a line of its output, in the same order (the cuts are
# marked "[...]"; nothing else may differ, units and widths included).
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
IOREPORT=${IOREPORT:-$top_builddir/ioreport}
[ -x "$IOREPORT" ] || { echo "SKIP: $IOREPORT not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: python3 missing"; exit 77; }
cd "$top_srcdir" || exit 1
python3 - "$IOREPORT" README.md <<'PY'
import re, subprocess, sys
ioreport, readme = sys.argv[1], sys.argv[2]
lines = open(readme).read().split("\n")
blocks, i = [], 0
while i < len(lines):
    m = re.match(r"^    \$ ioreport (.*)$", lines[i])
    if not m:
        i += 1
        continue
    body, i = [], i + 1
    while i < len(lines) and (lines[i].startswith("    ") or lines[i] == ""):
        body.append(lines[i][4:])
        i += 1
    while body and body[-1] == "":
        body.pop()
    blocks.append((m.group(1), body))
bad = 0
if len(blocks) < 2:
    print("FAIL: only %d '$ ioreport' excerpts in %s" % (len(blocks), readme))
    sys.exit(1)
for args, body in blocks:
    out = subprocess.run([ioreport] + args.split(), capture_output=True,
                         text=True).stdout.split("\n")
    at, n = 0, 0
    for want in body:
        if want.strip() == "[...]":
            continue
        try:
            at = out.index(want, at) + 1
            n += 1
        except ValueError:
            print("FAIL: README: 'ioreport %s' prints no line (after line %d) %r"
                  % (args, at, want))
            bad += 1
            break
    print("ioreport %s: %d lines of the README's excerpt found in order" % (args, n))
sys.exit(1 if bad else 0)
PY
rc=$?
[ "$rc" = 0 ] && echo "PASS: the README's excerpts are ioreport's output"
exit "$rc"
