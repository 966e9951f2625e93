# analyze/input/: what guards the input layer (source.c): the damaged
# regions of a recording (damage.h).  Included by Makefile.am after the
# analyze/ fragments: every program built from source.c gets these too.
INPUT_GUARDS = analyze/input/damage.h analyze/input/damage.c
ioreport_SOURCES += $(INPUT_GUARDS)
analyze_test_source_SOURCES += $(INPUT_GUARDS)
analyze_test_sysreplay_SOURCES += $(INPUT_GUARDS)
analyze_test_attrib_SOURCES += $(INPUT_GUARDS)
