# analyze/: syscall, process and fd replay (see sysreplay.h) and the
# `processes` and `files` views.  Included by Makefile.am after local.mk.
ioreport_SOURCES += \
	analyze/replay/syscall.h \
	analyze/replay/syscall.c \
	analyze/replay/fdtable.h \
	analyze/replay/fdtable.c \
	analyze/replay/proctable.h \
	analyze/replay/proctable.c \
	analyze/decode/decode-sys.c \
	analyze/stats/attrib.h \
	analyze/stats/attrib.c \
	analyze/cmd-procfiles.c

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test-sysreplay
TESTS += tests/unit/test-sysreplay
endif
tests_unit_test_sysreplay_SOURCES = tests/unit/test-sysreplay.c $(IOREPORT_BASE) \
	analyze/replay/syscall.c analyze/replay/syscall.h analyze/stats/hist.c analyze/stats/hist.h \
	analyze/replay/fdtable.c analyze/replay/fdtable.h \
	analyze/replay/proctable.c analyze/replay/proctable.h \
	analyze/decode/decode-sys.c analyze/input/source.c analyze/input/source.h
tests_unit_test_sysreplay_CFLAGS = $(AM_CFLAGS) $(IOREPORT_INC) $(TRACEEVENT_CFLAGS) \
	$(TRACECMD_CFLAGS) $(TRACEFS_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_sysreplay_LDADD = formats/libiorecfmt.a lib/libiorecutil.a \
	$(TRACECMD_LIBS) $(TRACEFS_LIBS) $(TRACEEVENT_LIBS) $(ZSTD_LIBS) \
	$(CMOCKA_LIBS)

TESTS += tests/accuracy/procfiles.sh
EXTRA_DIST += tests/accuracy/procfiles.sh

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test-attrib
TESTS += tests/unit/test-attrib
endif
tests_unit_test_attrib_SOURCES = tests/unit/test-attrib.c $(IOREPORT_BASE) \
	analyze/stats/attrib.c analyze/stats/attrib.h \
	analyze/replay/syscall.c analyze/replay/syscall.h analyze/stats/hist.c analyze/stats/hist.h \
	analyze/replay/fdtable.c analyze/replay/fdtable.h \
	analyze/replay/proctable.c analyze/replay/proctable.h \
	analyze/decode/decode-sys.c analyze/input/source.c analyze/input/source.h \
	analyze/replay/block.h
tests_unit_test_attrib_CFLAGS = $(AM_CFLAGS) $(IOREPORT_INC) $(TRACEEVENT_CFLAGS) \
	$(TRACECMD_CFLAGS) $(TRACEFS_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_attrib_LDADD = $(tests_unit_test_sysreplay_LDADD)

TESTS += tests/accuracy/attrib.sh
EXTRA_DIST += tests/accuracy/attrib.sh
EXTRA_DIST += docs/attribution.md
