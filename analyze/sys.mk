# analyze/: syscall, process and fd replay (see sysreplay.h) and the
# `processes` and `files` views.  Included by Makefile.am after local.mk.
ioreport_SOURCES += \
	analyze/sysreplay.h \
	analyze/sysreplay.c \
	analyze/fdtable.h \
	analyze/fdtable.c \
	analyze/proctable.h \
	analyze/proctable.c \
	analyze/decode-sys.c \
	analyze/attrib.h \
	analyze/attrib.c \
	analyze/cmd-procfiles.c

if HAVE_CMOCKA
check_PROGRAMS += analyze/test-sysreplay
TESTS += analyze/test-sysreplay
endif
analyze_test_sysreplay_SOURCES = analyze/test-sysreplay.c \
	analyze/sysreplay.c analyze/sysreplay.h analyze/hist.c analyze/hist.h \
	analyze/fdtable.c analyze/fdtable.h \
	analyze/proctable.c analyze/proctable.h \
	analyze/decode-sys.c analyze/source.c analyze/source.h
analyze_test_sysreplay_CFLAGS = $(AM_CFLAGS) $(TRACEEVENT_CFLAGS) \
	$(TRACECMD_CFLAGS) $(TRACEFS_CFLAGS) $(CMOCKA_CFLAGS)
analyze_test_sysreplay_LDADD = formats/libiorecfmt.a lib/libiorecutil.a \
	$(TRACECMD_LIBS) $(TRACEFS_LIBS) $(TRACEEVENT_LIBS) $(ZSTD_LIBS) \
	$(CMOCKA_LIBS)

TESTS += analyze/test-procfiles-live.sh
EXTRA_DIST += analyze/test-procfiles-live.sh

if HAVE_CMOCKA
check_PROGRAMS += analyze/test-attrib
TESTS += analyze/test-attrib
endif
analyze_test_attrib_SOURCES = analyze/test-attrib.c \
	analyze/attrib.c analyze/attrib.h \
	analyze/sysreplay.c analyze/sysreplay.h analyze/hist.c analyze/hist.h \
	analyze/fdtable.c analyze/fdtable.h \
	analyze/proctable.c analyze/proctable.h \
	analyze/decode-sys.c analyze/source.c analyze/source.h \
	analyze/replay-block.h
analyze_test_attrib_CFLAGS = $(AM_CFLAGS) $(TRACEEVENT_CFLAGS) \
	$(TRACECMD_CFLAGS) $(TRACEFS_CFLAGS) $(CMOCKA_CFLAGS)
analyze_test_attrib_LDADD = $(analyze_test_sysreplay_LDADD)

TESTS += analyze/test-attrib-live.sh
EXTRA_DIST += analyze/test-attrib-live.sh
EXTRA_DIST += docs/attribution.md
