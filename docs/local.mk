# docs/: man pages
dist_man_MANS += docs/iorec.1 docs/ioreport.1 docs/iorec.5
