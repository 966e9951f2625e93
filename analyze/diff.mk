# analyze/: diff, write amplification, fsync and dirty-throttling views
# (cmd-diff.c; wa.h, dirty.h, snapcmp.h).  Included by Makefile.am after
# analyze/local.mk.
ioreport_SOURCES += \
	analyze/cmd-diff.c \
	analyze/stats/wa.h \
	analyze/stats/wa.c \
	analyze/stats/dirty.h \
	analyze/stats/dirty.c \
	analyze/stats/snapcmp.h \
	analyze/stats/snapcmp.c
ioreport_LDADD += -lm

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test-diff
TESTS += tests/unit/test-diff
endif
tests_unit_test_diff_SOURCES = tests/unit/test-diff.c $(IOREPORT_BASE) \
	analyze/stats/snapcmp.c analyze/stats/snapcmp.h \
	analyze/stats/dirty.c analyze/stats/dirty.h \
	analyze/stats/wa.c analyze/stats/wa.h \
	analyze/stats/hist.c analyze/stats/hist.h
tests_unit_test_diff_CFLAGS = $(AM_CFLAGS) $(IOREPORT_INC) $(CMOCKA_CFLAGS)
tests_unit_test_diff_LDADD = formats/libiorecfmt.a lib/libiorecutil.a \
	$(CMOCKA_LIBS) -lm

TESTS += tests/accuracy/wa.sh tests/live/report-fsync.sh \
	tests/live/report-dirty.sh
EXTRA_DIST += tests/accuracy/wa.sh tests/live/report-fsync.sh \
	tests/live/report-dirty.sh
