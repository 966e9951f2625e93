# tests/: the corrupt-input corpus, man-page checks, the shared C fixtures

TESTS += tests/test-corrupt.sh tests/test-manpages.sh tests/test-slow.sh \
	tests/test-fuzz-replay.sh tests/test-damage.sh tests/test-mend.sh tests/test-repro.sh \
	tests/test-integrity.sh
EXTRA_DIST += tests/test-corrupt.sh tests/test-manpages.sh tests/test-slow.sh \
	tests/test-fuzz-replay.sh tests/test-damage.sh tests/test-mend.sh tests/test-repro.sh \
	tests/test-integrity.sh tests/corrupt/make-corrupt.py tests/corrupt/make-damage.py \
	tests/iorecfile.py
# the tracefs text of the recordings the C tests make up
EXTRA_DIST += tests/ftrace-text.h tests/tracedat-walk.h tests/README.md tests/lsan.supp

TESTS += tests/test-golden.sh tests/test-schema-doc.sh tests/test-view-options.sh tests/test-view-filters.sh tests/test-usage-errors.sh tests/test-width.sh tests/test-csv.sh tests/test-hist-units.sh \
	tests/test-json-schema.sh tests/test-findings.sh tests/test-dump-filters.sh tests/test-inode-names.sh tests/test-dump-expr.sh tests/test-dump-json-raw.sh tests/test-readme-excerpts.sh tests/test-recipes.sh \
	tests/test-wa-sums.sh tests/test-diff-signif.sh tests/test-diff-pairing.sh tests/test-consistency.sh \
	tests/test-by.sh
EXTRA_DIST += tests/test-consistency.sh tests/consistency/check-views.py tests/check-findings-by.py
EXTRA_DIST += tests/test-json-schema.sh tests/test-width.sh tests/test-csv.sh tests/test-hist-units.sh tests/test-golden.sh tests/golden tests/test-schema-doc.sh tests/test-view-options.sh tests/test-view-filters.sh tests/test-usage-errors.sh \
	tests/test-findings.sh tests/findings-query.py tests/test-dump-filters.sh tests/test-inode-names.sh tests/test-dump-expr.sh tests/test-dump-json-raw.sh tests/test-readme-excerpts.sh tests/test-recipes.sh \
	tests/test-wa-sums.sh tests/test-diff-signif.sh tests/test-diff-pairing.sh \
	tests/test-by.sh docs/schema-render.py

# Rewrite the expected outputs of the golden tests after an intended change.
golden-update: ioreport$(EXEEXT)
	GOLDEN_UPDATE=1 top_srcdir='$(abs_top_srcdir)' \
	IOREPORT='$(abs_top_builddir)/ioreport' $(SHELL) $(srcdir)/tests/test-golden.sh
.PHONY: golden-update

# Rewrite the schemas from the views' output on the samples after an
# intended change of a view's JSON; review the diff before committing it.
json-schemas: ioreport$(EXEEXT)
	python3 $(srcdir)/docs/json/make-schemas.py '$(abs_top_builddir)/ioreport' \
	  $(srcdir)/docs/json $(srcdir)/samples/*.iorec $(srcdir)/samples/*.dat
.PHONY: json-schemas

# ioreport db on the samples: views vs database, two recordings, re-load,
# kill -9 mid-load, schema versions
TESTS += tests/test-db.sh
EXTRA_DIST += tests/test-db.sh
# ioreport redact: no name survives, every number does
TESTS += tests/test-redact.sh
EXTRA_DIST += tests/test-redact.sh tests/redact/check-redact.py tests/redact/chunk-bytes.py
# ioreport html: the page in headless Chromium at 1280 px, as a person
# sees it, holds the views' numbers; its screenshots stay in
# tests/html-shots/ until make clean
TESTS += tests/test-html.sh
EXTRA_DIST += tests/test-html.sh tests/html/setup.sh tests/html/check-page.js tests/html/check-html.py
clean-local: clean-html-shots
clean-html-shots:
	rm -rf tests/html-shots
.PHONY: clean-html-shots

include $(srcdir)/tests/tracedat/local.mk
include $(srcdir)/tests/export/local.mk

check_PROGRAMS += tests/fuzz-tracedat-reader
tests_fuzz_tracedat_reader_SOURCES = tests/fuzz/fuzz-tracedat-reader.c
tests_fuzz_tracedat_reader_LDADD = formats/libiorecfmt.a $(ZSTD_LIBS) $(ZLIB_LIBS)

# libiorec installed (DESTDIR) and used by docs/examples/list-chunks.c;
# the bash completions against the programs' --help
TESTS += tests/test-libiorec.sh tests/test-completion.sh
EXTRA_DIST += tests/test-libiorec.sh tests/test-completion.sh
# the Debian packages, built and installed (scripts/test.sh runs it; not
# in make check)
EXTRA_DIST += tests/debian/packages.sh tests/debian/cross-deb.sh tests/debian/lib.sh
