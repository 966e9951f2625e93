# analyze/: ioreport, the offline analyzer
bin_PROGRAMS += ioreport
ioreport_SOURCES = \
	analyze/ioreport.c \
	analyze/ioreport.h \
	analyze/source.c \
	analyze/source.h \
	analyze/cmd-info.c \
	analyze/cmd-dump.c \
	analyze/cmd-report.c \
	analyze/analysis.c \
	analyze/analysis.h \
	analyze/report.c \
	analyze/report.h \
	analyze/json.c \
	analyze/json.h \
	analyze/replay-block.c \
	analyze/replay-block.h \
	analyze/hist.c \
	analyze/hist.h
ioreport_CFLAGS = $(AM_CFLAGS) $(TRACEEVENT_CFLAGS) $(TRACECMD_CFLAGS) \
	$(TRACEFS_CFLAGS)
ioreport_LDADD = formats/libiorecfmt.a lib/libiorecutil.a \
	$(TRACECMD_LIBS) $(TRACEFS_LIBS) $(TRACEEVENT_LIBS) $(ZSTD_LIBS)

if HAVE_CMOCKA
check_PROGRAMS += analyze/test-source analyze/test-hist analyze/test-json
TESTS += analyze/test-source analyze/test-hist analyze/test-json
endif
analyze_test_source_SOURCES = analyze/test-source.c analyze/source.c \
	analyze/source.h analyze/replay-block.c analyze/replay-block.h
analyze_test_source_CFLAGS = $(AM_CFLAGS) $(TRACEEVENT_CFLAGS) \
	$(TRACECMD_CFLAGS) $(TRACEFS_CFLAGS) $(CMOCKA_CFLAGS)
analyze_test_source_LDADD = formats/libiorecfmt.a lib/libiorecutil.a \
	$(TRACECMD_LIBS) $(TRACEFS_LIBS) $(TRACEEVENT_LIBS) $(ZSTD_LIBS) \
	$(CMOCKA_LIBS)

analyze_test_hist_SOURCES = analyze/test-hist.c analyze/hist.c analyze/hist.h
analyze_test_hist_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
analyze_test_hist_LDADD = lib/libiorecutil.a $(CMOCKA_LIBS) -lm

analyze_test_json_SOURCES = analyze/test-json.c analyze/json.c \
	analyze/json.h analyze/hist.c analyze/hist.h
analyze_test_json_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
analyze_test_json_LDADD = lib/libiorecutil.a $(CMOCKA_LIBS)
