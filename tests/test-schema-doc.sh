#!/usr/bin/env bash
# test-schema-doc.sh - every example query of docs/schema.md, run on a
# database `ioreport db` makes from samples/*.iorec, prints exactly the
# output the document shows under it (docs/schema-render.py --check).
# After an intended change: docs/schema-render.py rewrites the outputs.
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
IOREPORT=${IOREPORT:-$top_srcdir/ioreport}
[ -x "$IOREPORT" ] || { echo "SKIP: $IOREPORT not built"; exit 77; }
command -v sqlite3 >/dev/null ||
	{ echo "SKIP: the sqlite3 shell is missing (apt-get install sqlite3)"; exit 77; }
command -v python3 >/dev/null ||
	{ echo "SKIP: python3 is missing (apt-get install python3)"; exit 77; }
exec python3 "$top_srcdir/docs/schema-render.py" --check --ioreport "$IOREPORT" \
	--doc "$top_srcdir/docs/schema.md" --samples "$top_srcdir/samples"
