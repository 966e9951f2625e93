# docs/: man pages
dist_man_MANS += docs/iorec.1 docs/ioreport.1 docs/iorec.5
EXTRA_DIST += docs/write-amplification.md docs/attribution.md docs/schema.md docs/walkthrough.md \
	docs/tracedat.md docs/findings.md docs/diff-significance.md
EXTRA_DIST += docs/walkthrough/capture.sh docs/walkthrough/render.py docs/walkthrough/walkthrough.tmpl.md docs/walkthrough/readme.tmpl.md docs/walkthrough/static docs/walkthrough/q1.sql docs/walkthrough/q10.sql docs/walkthrough/q11.sql docs/walkthrough/q7.sql docs/walkthrough/q8.sql docs/walkthrough/q8b.sql docs/walkthrough/q9.sql 

# docs/json/: the JSON Schema of every view's --json output
EXTRA_DIST += docs/json
