# docs/: man pages
dist_man_MANS += docs/iorec.1 docs/ioreport.1 docs/iorec.5
EXTRA_DIST += docs/write-amplification.md docs/attribution.md docs/schema.md docs/walkthrough.md
