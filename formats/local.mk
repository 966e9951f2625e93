# formats/: the .iorec container library (bytes only)
noinst_LIBRARIES += formats/libiorecfmt.a
formats_libiorecfmt_a_SOURCES = \
	formats/iorec/format.h \
	formats/iorec-format.h \
	formats/fmt-util.h \
	formats/fmt-util.c \
	formats/crc32c.c \
	formats/iorec-format.c \
	formats/writer.c \
	formats/reader.c
formats_libiorecfmt_a_CFLAGS = $(AM_CFLAGS) $(ZSTD_CFLAGS) $(ZLIB_CFLAGS)

# trace-cmd's trace.dat container (versions 6 and 7), writer and reader:
# bytes only as well, for `ioreport convert` and ioreport's trace.dat input
formats_libiorecfmt_a_SOURCES += \
	formats/tracedat.h \
	formats/tracedat-int.h \
	formats/tracedat-codec.h \
	formats/tracedat-codec.c \
	formats/tracedat-writer.c \
	formats/tracedat-rd.h \
	formats/tracedat-reader.c \
	formats/tracedat-rdio.c \
	formats/tracedat-meta.c \
	formats/tracedat-stream.c \
	formats/iorec-tracedat.h \
	formats/iorec-tracedat.c

# libiorec: the same sources as an installed library, shared (libiorec.so.0)
# and static, for other programs that read or write .iorec files.  A file
# added to formats_libiorecfmt_a_SOURCES is in it too.  The programs of
# this tree keep linking formats/libiorecfmt.a (iorec stays one binary).
# Only what iorec/format.h declares IOREC_API is exported
# (-fvisibility=hidden; tests/test-libiorec.sh checks the list).  No
# sanitizers in the installed library: its code is the archive's, which
# the sanitizer build tests.
lib_LTLIBRARIES = formats/libiorec.la
formats_libiorec_la_SOURCES = $(formats_libiorecfmt_a_SOURCES)
formats_libiorec_la_CFLAGS = -Wall -Wextra -Wno-unused-parameter \
	$(WERROR_CFLAGS) -fvisibility=hidden $(ZSTD_CFLAGS) $(ZLIB_CFLAGS)
formats_libiorec_la_LDFLAGS = -version-info $(LIBIOREC_LT_VERSION) -no-undefined
formats_libiorec_la_LIBADD = $(ZSTD_LIBS) $(ZLIB_LIBS)
iorecincludedir = $(includedir)/iorec
iorecinclude_HEADERS = formats/iorec/format.h
pkgconfigdir = $(libdir)/pkgconfig
pkgconfig_DATA = formats/iorec.pc
EXTRA_DIST += formats/iorec.pc.in
