# formats/: the .iorec container library (bytes only)
noinst_LIBRARIES += formats/libiorecfmt.a
formats_libiorecfmt_a_SOURCES = \
	formats/iorec-format.h \
	formats/crc32c.c \
	formats/iorec-format.c \
	formats/writer.c \
	formats/reader.c
formats_libiorecfmt_a_CFLAGS = $(AM_CFLAGS) $(ZSTD_CFLAGS)

# trace-cmd's trace.dat container (versions 6 and 7), writer and reader:
# bytes only as well, for `ioreport convert` and ioreport's trace.dat input
formats_libiorecfmt_a_SOURCES += \
	formats/tracedat.h \
	formats/tracedat-int.h \
	formats/tracedat-writer.c \
	formats/tracedat-reader.c \
	formats/iorec-tracedat.h \
	formats/iorec-tracedat.c
