# analyze/input/: the recording, .iorec or trace.dat, and its events
analyze_libioreport_a_SOURCES += \
	analyze/input/source.h analyze/input/source-priv.h \
	analyze/input/source.c analyze/input/events.c \
	analyze/input/meta.h analyze/input/meta.c
