# analyze/input/: the recording, .iorec or trace.dat, and its events; the
# damaged regions reading skipped (damage.h), the ftrace grammar check of
# the texts handed to libtraceevent (ftrace-guard.h); the strings of raw
# pages rewritten in place for redact (scrub.h), the redaction of a
# recording (redact.h) with its pseudonyms (rnames.h).  trace.dat files are read
# by formats/' reader alone (tracedat.c), whose checks are its own.
analyze_libioreport_a_SOURCES += \
	analyze/input/source.h analyze/input/source-priv.h \
	analyze/input/source.c analyze/input/source-iorec.c \
	analyze/input/tracedat.c analyze/input/events.c \
	analyze/input/meta.h analyze/input/meta.c \
	analyze/input/damage.h analyze/input/damage.c \
	analyze/input/ftrace-guard.h analyze/input/ftrace-guard.c \
	analyze/input/ftrace-guard-priv.h analyze/input/ftrace-guard-text.c \
	analyze/input/scrub.h analyze/input/scrub.c \
	analyze/input/redact.h analyze/input/redact.c \
	analyze/input/rnames.h analyze/input/rnames.c
