# analyze/input/: what guards the input layer (source.c): the damaged
# regions of a recording (damage.h), the ftrace grammar check of the
# texts handed to libtraceevent (ftrace-guard.h) and the structure check
# of trace.dat files before libtracecmd (tracedat-guard.h).  Included by
# Makefile.am after the analyze/ fragments: every program built from
# source.c gets these too.
INPUT_GUARDS = analyze/input/damage.h analyze/input/damage.c \
	analyze/input/ftrace-guard.h analyze/input/ftrace-guard.c \
	analyze/input/tracedat-guard.h analyze/input/tracedat-guard.c
ioreport_SOURCES += $(INPUT_GUARDS)
analyze_test_source_SOURCES += $(INPUT_GUARDS)
analyze_test_sysreplay_SOURCES += $(INPUT_GUARDS)
analyze_test_attrib_SOURCES += $(INPUT_GUARDS)
