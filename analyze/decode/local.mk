# analyze/decode/: events decoded into plain structs
analyze_libioreport_a_SOURCES += \
	analyze/decode/decode.h analyze/decode/decode.c \
	analyze/decode/compat.h analyze/decode/compat.c
