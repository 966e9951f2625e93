# analyze/: ioreport, the offline analyzer
bin_PROGRAMS += ioreport
# headers are included by their stage folder: "input/source.h"
IOREPORT_INC = -I$(top_srcdir)/analyze
# base/: the vocabulary and containers every stage shares
IOREPORT_BASE = \
	analyze/base/err.h analyze/base/err.c \
	analyze/base/imap.h analyze/base/imap.c \
	analyze/base/hmap.h analyze/base/hmap.c \
	analyze/base/heap.h analyze/base/heap.c \
	analyze/base/blk.h analyze/base/blk.c \
	analyze/base/syskind.h analyze/base/syskind.c
ioreport_SOURCES = $(IOREPORT_BASE) \
	analyze/ioreport.c \
	analyze/ioreport.h \
	analyze/input/source.c \
	analyze/input/source.h \
	analyze/cmd-info.c \
	analyze/cmd-dump.c \
	analyze/cmd-report.c \
	analyze/driver.c \
	analyze/driver.h \
	analyze/out/report.c \
	analyze/out/report.h \
	analyze/out/json.c \
	analyze/out/json.h \
	analyze/replay/block.c \
	analyze/replay/block.h \
	analyze/stats/hist.c \
	analyze/stats/hist.h
ioreport_CFLAGS = $(AM_CFLAGS) $(IOREPORT_INC) $(TRACEEVENT_CFLAGS) $(TRACECMD_CFLAGS) \
	$(TRACEFS_CFLAGS)
ioreport_LDADD = formats/libiorecfmt.a lib/libiorecutil.a \
	$(TRACECMD_LIBS) $(TRACEFS_LIBS) $(TRACEEVENT_LIBS) $(ZSTD_LIBS)

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test-source tests/unit/test-hist tests/unit/test-json
TESTS += tests/unit/test-source tests/unit/test-hist tests/unit/test-json
endif
tests_unit_test_source_SOURCES = tests/unit/test-source.c $(IOREPORT_BASE) analyze/input/source.c \
	analyze/input/source.h analyze/replay/block.c analyze/replay/block.h
tests_unit_test_source_CFLAGS = $(AM_CFLAGS) $(IOREPORT_INC) $(TRACEEVENT_CFLAGS) \
	$(TRACECMD_CFLAGS) $(TRACEFS_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_source_LDADD = formats/libiorecfmt.a lib/libiorecutil.a \
	$(TRACECMD_LIBS) $(TRACEFS_LIBS) $(TRACEEVENT_LIBS) $(ZSTD_LIBS) \
	$(CMOCKA_LIBS)

tests_unit_test_hist_SOURCES = tests/unit/test-hist.c $(IOREPORT_BASE) analyze/stats/hist.c analyze/stats/hist.h
tests_unit_test_hist_CFLAGS = $(AM_CFLAGS) $(IOREPORT_INC) $(CMOCKA_CFLAGS)
tests_unit_test_hist_LDADD = lib/libiorecutil.a $(CMOCKA_LIBS) -lm

tests_unit_test_json_SOURCES = tests/unit/test-json.c $(IOREPORT_BASE) analyze/out/json.c \
	analyze/out/json.h analyze/stats/hist.c analyze/stats/hist.h
tests_unit_test_json_CFLAGS = $(AM_CFLAGS) $(IOREPORT_INC) $(CMOCKA_CFLAGS)
tests_unit_test_json_LDADD = lib/libiorecutil.a $(CMOCKA_LIBS)
