# formats/: the .iorec container library (bytes only)
noinst_LIBRARIES += formats/libiorecfmt.a
formats_libiorecfmt_a_SOURCES = \
	formats/iorec-format.h \
	formats/crc32c.c \
	formats/iorec-format.c \
	formats/writer.c \
	formats/reader.c
formats_libiorecfmt_a_CFLAGS = $(AM_CFLAGS) $(ZSTD_CFLAGS)
