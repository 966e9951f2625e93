# tests/tracedat/: the trace.dat writer and reader of formats/ against
# trace-cmd and libtracecmd.  The programs are built for the tests and
# bench/tracedat-bench.sh, never installed; libtracecmd is linked only
# into tdat-libtracecmd, the reference the reader is compared with.
check_PROGRAMS += tests/tracedat/iorec2dat tests/tracedat/tdat-walk \
	tests/tracedat/tdat-libtracecmd tests/tracedat/tdat-synth \
	tests/tracedat/src-walk
tests_tracedat_iorec2dat_SOURCES = tests/tracedat/iorec2dat.c tests/tracedat/tdtool.h
tests_tracedat_iorec2dat_LDADD = formats/libiorecfmt.a $(ZSTD_LIBS) $(ZLIB_LIBS)
tests_tracedat_tdat_synth_SOURCES = tests/tracedat/tdat-synth.c
tests_tracedat_tdat_synth_LDADD = formats/libiorecfmt.a $(ZSTD_LIBS) $(ZLIB_LIBS)
tests_tracedat_tdat_walk_SOURCES = tests/tracedat/tdat-walk.c tests/tracedat/tdtool.h
tests_tracedat_tdat_walk_CFLAGS = $(AM_CFLAGS) $(TRACEEVENT_CFLAGS)
tests_tracedat_tdat_walk_LDADD = formats/libiorecfmt.a $(TRACEEVENT_LIBS) $(ZSTD_LIBS) $(ZLIB_LIBS)
tests_tracedat_tdat_libtracecmd_SOURCES = tests/tracedat/tdat-libtracecmd.c \
	tests/tracedat/tdtool.h
tests_tracedat_tdat_libtracecmd_CFLAGS = $(AM_CFLAGS) $(TRACECMD_CFLAGS) \
	$(TRACEEVENT_CFLAGS)
tests_tracedat_tdat_libtracecmd_LDADD = $(TRACECMD_LIBS) $(TRACEEVENT_LIBS)
# ioreport's input layer, either trace.dat path (IOREPORT_TRACEDAT)
tests_tracedat_src_walk_SOURCES = tests/tracedat/src-walk.c tests/tracedat/tdtool.h
tests_tracedat_src_walk_CFLAGS = $(AM_CFLAGS) $(IOREPORT_INC)
tests_tracedat_src_walk_LDADD = $(IOREPORT_LIBS)

# convert-samples.sh, byte-order.sh and corrupt.sh need trace-cmd only; the others record
# with trace-cmd on the top-level buffer (root, tracefs; they hold
# /run/iorec-test-toplevel.lock) and skip without them.
TRACEDAT_TESTS = \
	tests/tracedat/convert-samples.sh \
	tests/tracedat/ioreport-convert.sh \
	tests/tracedat/input-paths.sh \
	tests/tracedat/byte-order.sh \
	tests/tracedat/corrupt.sh \
	tests/tracedat/reader-vs-libtracecmd.sh \
	tests/tracedat/lost-events.sh \
	tests/tracedat/memory.sh
TESTS += $(TRACEDAT_TESTS)
EXTRA_DIST += $(TRACEDAT_TESTS) tests/tracedat/td-lib.sh tests/tracedat/cmp-report.py bench/tracedat-bench.sh
