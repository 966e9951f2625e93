# docs/: man pages, the documents installed in $(docdir), the example
# program of libiorec, the bash completions
dist_man_MANS += docs/iorec.1 docs/ioreport.1 docs/iorec.5
# a new document: add it here to install it (and ship it)
dist_doc_DATA = README.md docs/write-amplification.md docs/attribution.md \
	docs/schema.md docs/walkthrough.md docs/tracedat.md \
	docs/findings.md docs/diff-significance.md docs/accuracy.md
docexamplesdir = $(docdir)/examples
dist_docexamples_DATA = docs/examples/list-chunks.c
# the walkthrough's sources (docs/walkthrough/render.py makes the .md)
EXTRA_DIST += docs/walkthrough

# bash completions, one file per program, named as the program
bashcompletion_DATA = docs/completion/iorec docs/completion/ioreport
EXTRA_DIST += $(bashcompletion_DATA)

# docs/json/: the JSON Schema of every view's --json output
EXTRA_DIST += docs/json
