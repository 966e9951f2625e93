# tests/unit/: C unit tests (cmocka) of both libraries, skipped without
# cmocka: the formats' (the .iorec file, trace.dat, their helpers), each
# linking formats/libiorecfmt.a alone; the analyzer's stages, each linking
# analyze/libioreport.a.
FORMAT_TESTS = tests/unit/test-format tests/unit/test-tracedat \
	tests/unit/test-fmt-util
if HAVE_CMOCKA
check_PROGRAMS += $(FORMAT_TESTS)
TESTS += $(FORMAT_TESTS)
endif
FORMAT_TEST_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
FORMAT_TEST_LDADD = formats/libiorecfmt.a $(ZSTD_LIBS) $(ZLIB_LIBS) $(CMOCKA_LIBS)
tests_unit_test_format_CFLAGS = $(FORMAT_TEST_CFLAGS)
tests_unit_test_format_LDADD = $(FORMAT_TEST_LDADD)
tests_unit_test_tracedat_CFLAGS = $(FORMAT_TEST_CFLAGS)
tests_unit_test_tracedat_LDADD = $(FORMAT_TEST_LDADD)
tests_unit_test_fmt_util_CFLAGS = $(FORMAT_TEST_CFLAGS)
tests_unit_test_fmt_util_LDADD = formats/libiorecfmt.a $(CMOCKA_LIBS)

UNIT_TESTS = \
	tests/unit/test-source \
	tests/unit/test-meta \
	tests/unit/test-hist \
	tests/unit/test-block \
	tests/unit/test-json \
	tests/unit/test-sysreplay \
	tests/unit/test-attrib \
	tests/unit/test-compat \
	tests/unit/test-diff \
	tests/unit/test-signif \
	tests/unit/test-timeline \
	tests/unit/test-scrub \
	tests/unit/test-rnames \
	tests/unit/test-units \
	tests/unit/test-owners \
	tests/unit/test-nomem
if HAVE_CMOCKA
check_PROGRAMS += $(UNIT_TESTS)
TESTS += $(UNIT_TESTS)
endif
UNIT_CFLAGS = $(AM_CFLAGS) $(IOREPORT_INC) $(CMOCKA_CFLAGS)
UNIT_LDADD = $(IOREPORT_LIBS) $(CMOCKA_LIBS)
# the random numbers of test-hist and test-signif; the fixtures of
# test-attrib and test-sysreplay
EXTRA_DIST += tests/unit/rng.h tests/unit/fixture.h tests/unit/data/uring-aio.iorec
tests_unit_test_source_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_source_LDADD = $(UNIT_LDADD)
tests_unit_test_meta_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_meta_LDADD = $(UNIT_LDADD)
tests_unit_test_hist_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_hist_LDADD = $(UNIT_LDADD)
tests_unit_test_block_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_block_LDADD = $(UNIT_LDADD)
tests_unit_test_json_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_json_LDADD = $(UNIT_LDADD)
tests_unit_test_sysreplay_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_sysreplay_LDADD = $(UNIT_LDADD)
tests_unit_test_attrib_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_attrib_LDADD = $(UNIT_LDADD)
tests_unit_test_compat_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_compat_LDADD = $(UNIT_LDADD)
tests_unit_test_scrub_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_scrub_LDADD = $(UNIT_LDADD)
# the pseudonyms of ioreport redact (input/rnames.c, in libioreport.a)
tests_unit_test_rnames_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_rnames_LDADD = $(UNIT_LDADD)
tests_unit_test_timeline_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_timeline_LDADD = $(UNIT_LDADD)
tests_unit_test_diff_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_diff_LDADD = $(UNIT_LDADD)
tests_unit_test_signif_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_signif_LDADD = $(UNIT_LDADD)
tests_unit_test_units_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_units_LDADD = $(UNIT_LDADD)
tests_unit_test_owners_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_owners_LDADD = $(UNIT_LDADD)
# the analyzer's allocations wrapped, to fail each in turn
tests_unit_test_nomem_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_nomem_LDADD = $(UNIT_LDADD)
tests_unit_test_nomem_LDFLAGS = $(AM_LDFLAGS) -Wl,--wrap=malloc \
	-Wl,--wrap=calloc -Wl,--wrap=realloc -Wl,--wrap=strdup \
	-Wl,--wrap=vasprintf
