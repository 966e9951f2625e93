# tests/fuzz/: fuzz targets.  With ./configure --enable-fuzzing (clang)
# they are libFuzzer binaries built by `make`; otherwise fuzz-main.c gives
# each a main() that replays files, and tests/test-fuzz-replay.sh runs
# them in `make check` on the committed corpora and reproducers.
FUZZ_TARGETS = tests/fuzz/fuzz-reader tests/fuzz/fuzz-iorec \
	tests/fuzz/fuzz-tracedat tests/fuzz/fuzz-formats tests/fuzz/fuzz-db
if FUZZING
noinst_PROGRAMS += $(FUZZ_TARGETS)
noinst_LIBRARIES += tests/fuzz/libfuzzio.a
FUZZ_MAIN =
else
check_PROGRAMS += $(FUZZ_TARGETS)
check_LIBRARIES = tests/fuzz/libfuzzio.a
FUZZ_MAIN = tests/fuzz/fuzz-main.c
endif

# The commands of ioreport without its main(), for cmd_db().
tests_fuzz_libfuzzio_a_SOURCES = $(ioreport_SOURCES)
tests_fuzz_libfuzzio_a_CPPFLAGS = $(AM_CPPFLAGS) -Dmain=ioreport_main
tests_fuzz_libfuzzio_a_CFLAGS = $(ioreport_CFLAGS)

FUZZ_CPPFLAGS = $(AM_CPPFLAGS) $(IOREPORT_INC) \
	-DFUZZ_TEMPLATE='"$(abs_top_srcdir)/tests/fuzz/formats-template.iorec"'
FUZZ_LIBS = $(IOREPORT_LIBS)
FUZZ_COMMON = tests/fuzz/fuzz.h tests/fuzz/fuzz-common.c $(FUZZ_MAIN)

tests_fuzz_fuzz_reader_SOURCES = tests/fuzz/fuzz-reader.c $(FUZZ_COMMON)
tests_fuzz_fuzz_reader_CPPFLAGS = $(FUZZ_CPPFLAGS)
tests_fuzz_fuzz_reader_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_reader_LDADD = formats/libiorecfmt.a lib/libiorecutil.a \
	$(ZSTD_LIBS) $(ZLIB_LIBS)

tests_fuzz_fuzz_iorec_SOURCES = tests/fuzz/fuzz-iorec.c \
	tests/fuzz/fuzz-analyze.c $(FUZZ_COMMON)
tests_fuzz_fuzz_iorec_CPPFLAGS = $(FUZZ_CPPFLAGS)
tests_fuzz_fuzz_iorec_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_iorec_LDADD = $(FUZZ_LIBS)

tests_fuzz_fuzz_tracedat_SOURCES = tests/fuzz/fuzz-tracedat.c \
	tests/fuzz/fuzz-analyze.c $(FUZZ_COMMON)
tests_fuzz_fuzz_tracedat_CPPFLAGS = $(FUZZ_CPPFLAGS)
tests_fuzz_fuzz_tracedat_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_tracedat_LDADD = $(FUZZ_LIBS)

tests_fuzz_fuzz_formats_SOURCES = tests/fuzz/fuzz-formats.c \
	tests/fuzz/fuzz-analyze.c $(FUZZ_COMMON)
tests_fuzz_fuzz_formats_CPPFLAGS = $(FUZZ_CPPFLAGS)
tests_fuzz_fuzz_formats_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_formats_LDADD = $(FUZZ_LIBS)

tests_fuzz_fuzz_db_SOURCES = tests/fuzz/fuzz-db.c $(FUZZ_COMMON)
tests_fuzz_fuzz_db_CPPFLAGS = $(FUZZ_CPPFLAGS)
tests_fuzz_fuzz_db_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_db_LDADD = tests/fuzz/libfuzzio.a $(FUZZ_LIBS)

EXTRA_DIST += tests/fuzz/make-seeds.py tests/fuzz/formats-template.iorec \
	tests/fuzz/corpus tests/fuzz/iorec.dict tests/fuzz/repro \
	tests/fuzz/make-tracedat-seeds.sh tests/fuzz/shrink-tracedat.py \
	tests/fuzz/smoke.sh tests/fuzz/README
