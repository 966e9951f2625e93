# analyze/base/: the vocabulary and containers every stage shares
analyze_libioreport_a_SOURCES += \
	analyze/base/err.h analyze/base/err.c \
	analyze/base/sbuf.h analyze/base/sbuf.c \
	analyze/base/imap.h analyze/base/imap.c \
	analyze/base/hmap.h analyze/base/hmap.c \
	analyze/base/heap.h analyze/base/heap.c \
	analyze/base/blk.h analyze/base/blk.c \
	analyze/base/syskind.h analyze/base/syskind.c
