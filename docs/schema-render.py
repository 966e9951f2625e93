#!/usr/bin/env python3
"""schema-render.py - run the example queries of docs/schema.md and put
their real output under them.

Every ```sql block of docs/schema.md that is followed by an output block
is run with `sqlite3 -header -column` on a database that `ioreport db`
makes from every sample recording, samples/*.iorec in name order (as the
document says); the output block is replaced by what sqlite3 printed.

usage: docs/schema-render.py [--check] [--ioreport PATH] [--doc PATH]
  --check   change nothing: exit 1 (with a diff) when an output differs
"""
import argparse
import difflib
import os
import re
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
top = os.path.dirname(here)

ap = argparse.ArgumentParser()
ap.add_argument("--check", action="store_true")
ap.add_argument("--ioreport", default=os.path.join(top, "ioreport"))
ap.add_argument("--doc", default=os.path.join(here, "schema.md"))
ap.add_argument("--samples", default=os.path.join(top, "samples"))
args = ap.parse_args()

BLOCK = re.compile(r"```sql\n(.*?)```\n\n```\n(.*?)```\n", re.S)

with open(args.doc) as f:
    doc = f.read()

with tempfile.TemporaryDirectory() as tmp:
    db = os.path.join(tmp, "s.sqlite")
    # the paths as the document shows them (samples/...)
    os.symlink(os.path.abspath(args.samples), os.path.join(tmp, "samples"))
    recs = sorted(f for f in os.listdir(args.samples) if f.endswith(".iorec"))
    subprocess.run([args.ioreport, "db", "-q", "s.sqlite"] +
                   ["samples/" + f for f in recs], cwd=tmp, check=True)

    def run(m):
        sql = m.group(1)
        out = subprocess.run(["sqlite3", "-header", "-column", db],
                             input=sql, capture_output=True, text=True)
        if out.returncode or out.stderr:
            sys.exit("schema-render: query failed: %s\n%s" %
                     (out.stderr.strip(), sql))
        text = "\n".join(l.rstrip() for l in out.stdout.splitlines()) + "\n"
        return "```sql\n%s```\n\n```\n%s```\n" % (sql, text)

    new = BLOCK.sub(run, doc)
    n = len(BLOCK.findall(doc))

if args.check:
    if new != doc:
        sys.stdout.writelines(difflib.unified_diff(
            doc.splitlines(True), new.splitlines(True),
            args.doc, args.doc + " (real output)"))
        sys.exit("schema-render: %s: outputs differ from the queries' real "
                 "output; run docs/schema-render.py" % args.doc)
    print("schema-render: %d queries, outputs as documented" % n)
else:
    if new != doc:
        with open(args.doc, "w") as f:
            f.write(new)
    print("schema-render: %d queries run, %s %s" %
          (n, args.doc, "updated" if new != doc else "unchanged"))
