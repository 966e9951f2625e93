#!/usr/bin/env python3
# Render docs/walkthrough.md from docs/walkthrough/walkthrough.tmpl.md, and
# the "What you get" section of README.md from docs/walkthrough/readme.tmpl.md,
# with the outputs captured by docs/walkthrough/capture.sh.  Run from anywhere:
#
#	docs/walkthrough/capture.sh && python3 docs/walkthrough/render.py
#
# Template lines:
#   @@ FILE SPEC @@    a verbatim excerpt of FILE, indented 4 spaces
#   @@= FILE SPEC @@   the same, not indented (for ``` blocks)
#   @@# text           a note for the maintainer, dropped from the output
# FILE is looked up in docs/walkthrough/out/ (captured from samples/), then
# in docs/walkthrough/ (static/..., the *.sql queries).  SPEC is "all" or
# comma-separated segments: N, N-M (1-based line numbers) or /REGEX/+K (the
# first line matching REGEX and the K lines after it); "[...]" separates
# the segments.
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(HERE, 'out')
CUT = '[...]'


def die(msg):
    sys.exit('render.py: ' + msg)


def find(fn):
    for d in (OUT, HERE):
        p = os.path.join(d, fn)
        if os.path.exists(p):
            return p
    die('%s: not in %s nor %s (run docs/walkthrough/capture.sh first)'
        % (fn, OUT, HERE))


def excerpt(fn, spec):
    with open(find(fn)) as f:
        lines = f.read().rstrip('\n').split('\n')
    if spec == 'all':
        return lines
    out = []
    for seg in spec.split(','):
        seg = seg.strip()
        m = re.match(r'^/(.*)/\+(\d+)$', seg)
        if m:
            rx = re.compile(m.group(1))
            idx = [i for i, l in enumerate(lines) if rx.search(l)]
            if not idx:
                die('no line matches %s in %s' % (seg, fn))
            a, b = idx[0], idx[0] + int(m.group(2))
        else:
            a, _, b = seg.partition('-')
            a, b = int(a) - 1, int(b or a) - 1
        if b >= len(lines):
            die('%s: segment %s goes past the end (%d lines)'
                % (fn, seg, len(lines)))
        if out:
            out.append(CUT)
        out.extend(lines[a:b + 1])
    return out


def render(tmpl):
    with open(tmpl) as f:
        src = f.read().rstrip('\n').split('\n')
    res = []
    for l in src:
        if l.startswith('@@#'):
            continue
        m = re.match(r'^@@(=?) (\S+) (.+) @@$', l)
        if not m:
            res.append(l)
            continue
        ind = '' if m.group(1) else '    '
        blk = [(ind + x).rstrip() for x in excerpt(m.group(2), m.group(3))]
        while blk and not blk[-1]:
            blk.pop()
        res.extend(blk)
    return res


def main():
    doc = render(os.path.join(HERE, 'walkthrough.tmpl.md'))
    with open(os.path.join(TOP, 'docs', 'walkthrough.md'), 'w') as f:
        f.write('\n'.join(doc) + '\n')

    # README.md: replace "## What you get" up to the next "## " heading
    sec = render(os.path.join(HERE, 'readme.tmpl.md'))
    readme = os.path.join(TOP, 'README.md')
    with open(readme) as f:
        lines = f.read().split('\n')
    try:
        a = lines.index(sec[0])
    except ValueError:
        die('README.md has no line "%s"' % sec[0])
    b = next((i for i in range(a + 1, len(lines))
              if lines[i].startswith('## ')), len(lines))
    while sec and not sec[-1]:
        sec.pop()
    lines[a:b] = sec + ([''] if b < len(lines) else [])
    with open(readme, 'w') as f:
        f.write('\n'.join(lines))


main()
