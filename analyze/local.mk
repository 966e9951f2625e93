# analyze/: ioreport, the offline analyzer
bin_PROGRAMS += ioreport
ioreport_SOURCES = \
	analyze/ioreport.c \
	analyze/ioreport.h \
	analyze/source.c \
	analyze/source.h \
	analyze/cmd-info.c \
	analyze/cmd-dump.c \
	analyze/cmd-devices.c \
	analyze/replay-block.c \
	analyze/replay-block.h \
	analyze/hist.c \
	analyze/hist.h
ioreport_CFLAGS = $(AM_CFLAGS) $(TRACEEVENT_CFLAGS) $(TRACECMD_CFLAGS) \
	$(TRACEFS_CFLAGS)
ioreport_LDADD = formats/libiorecfmt.a lib/libiorecutil.a \
	$(TRACECMD_LIBS) $(TRACEFS_LIBS) $(TRACEEVENT_LIBS) $(ZSTD_LIBS)

if HAVE_CMOCKA
check_PROGRAMS += analyze/test-source
TESTS += analyze/test-source
analyze_test_source_SOURCES = analyze/test-source.c analyze/source.c \
	analyze/source.h analyze/replay-block.c analyze/replay-block.h
analyze_test_source_CFLAGS = $(AM_CFLAGS) $(TRACEEVENT_CFLAGS) \
	$(TRACECMD_CFLAGS) $(TRACEFS_CFLAGS) $(CMOCKA_CFLAGS)
analyze_test_source_LDADD = formats/libiorecfmt.a lib/libiorecutil.a \
	$(TRACECMD_LIBS) $(TRACEFS_LIBS) $(TRACEEVENT_LIBS) $(ZSTD_LIBS) \
	$(CMOCKA_LIBS)
endif
