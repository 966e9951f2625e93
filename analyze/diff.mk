# analyze/: diff, write amplification, fsync and dirty-throttling views
# (cmd-diff.c; wa.h, dirty.h, snapcmp.h).  Included by Makefile.am after
# analyze/local.mk.
ioreport_SOURCES += \
	analyze/cmd-diff.c \
	analyze/wa.h \
	analyze/wa.c \
	analyze/dirty.h \
	analyze/dirty.c \
	analyze/snapcmp.h \
	analyze/snapcmp.c
ioreport_LDADD += -lm

if HAVE_CMOCKA
check_PROGRAMS += analyze/test-diff
TESTS += analyze/test-diff
endif
analyze_test_diff_SOURCES = analyze/test-diff.c \
	analyze/snapcmp.c analyze/snapcmp.h \
	analyze/dirty.c analyze/dirty.h \
	analyze/wa.c analyze/wa.h \
	analyze/hist.c analyze/hist.h
analyze_test_diff_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
analyze_test_diff_LDADD = formats/libiorecfmt.a lib/libiorecutil.a \
	$(CMOCKA_LIBS) -lm

TESTS += analyze/test-wa-live.sh analyze/test-fsync-live.sh \
	analyze/test-dirty-live.sh
EXTRA_DIST += analyze/test-wa-live.sh analyze/test-fsync-live.sh \
	analyze/test-dirty-live.sh
