# analyze/base/: the vocabulary and containers every stage shares
# the error convention (the string that never exits is lib/sbuf.h)
analyze_libioreport_a_SOURCES += analyze/base/err.h analyze/base/err.c
# an int map, a u64 multimap, a bounded heap
analyze_libioreport_a_SOURCES += analyze/base/imap.h analyze/base/imap.c \
	analyze/base/hmap.h analyze/base/hmap.c \
	analyze/base/heap.h analyze/base/heap.c
# comma-separated lists of names
analyze_libioreport_a_SOURCES += analyze/base/strlist.h analyze/base/strlist.c
# block requests and syscalls: the words of every stage
analyze_libioreport_a_SOURCES += analyze/base/blk.h analyze/base/blk.c \
	analyze/base/syskind.h analyze/base/syskind.c
# kernel threads by their comm
analyze_libioreport_a_SOURCES += analyze/base/kthread.h analyze/base/kthread.c
# sizes, rates and durations as text: the one unit convention
analyze_libioreport_a_SOURCES += analyze/base/units.h analyze/base/units.c
