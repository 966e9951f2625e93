# analyze/stats/: attribution and aggregates
analyze_libioreport_a_SOURCES += \
	analyze/stats/stats.h analyze/stats/stats.c \
	analyze/stats/hist.h analyze/stats/hist.c \
	analyze/stats/account.h analyze/stats/account.c \
	analyze/stats/attrib.h analyze/stats/attrib.c \
	analyze/stats/fileid.h analyze/stats/fileid.c \
	analyze/stats/wa.h analyze/stats/wa.c \
	analyze/stats/dirty.h analyze/stats/dirty.c \
	analyze/stats/snapcmp.h analyze/stats/snapcmp.c \
	analyze/stats/summary.h analyze/stats/summary.c \
	analyze/stats/rows.h analyze/stats/rows.c \
	analyze/stats/diffmodel.h analyze/stats/diffmodel.c
