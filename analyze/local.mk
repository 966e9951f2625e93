# analyze/: ioreport, the offline analyzer.
#
# One folder per stage of the pipeline, each with its own fragment that
# adds its files to the library analyze/libioreport.a: base/ (what every
# stage shares), input/ (the recording), decode/ (events into plain
# structs), replay/ (the state machines), stats/ (attribution and
# aggregates), sink/ (the sinks).  ioreport and every analyzer test link
# the library.
#
# The dependency rule (analyze/README.md): a folder includes only the
# folders before it in that order; only input/ includes libtraceevent
# (ioreport does not use libtracecmd: only the tests do, as the oracle of
# trace.dat reading); sinks (sink/) never include replay/ or decode/; nothing
# below the commands prints or exits.  tests/test-layout.sh checks it.
IOREPORT_INC = -I$(top_srcdir)/analyze
IOREPORT_LIBS = analyze/libioreport.a formats/libiorecfmt.a \
	lib/libiorecutil.a $(TRACEFS_LIBS) $(TRACEEVENT_LIBS) \
	$(SQLITE_LIBS) $(ZSTD_LIBS) $(ZLIB_LIBS) -lm

noinst_LIBRARIES += analyze/libioreport.a
# the driver that runs the stages a command asks for
analyze_libioreport_a_SOURCES = analyze/driver.h analyze/driver.c
# only input/ includes the libtraceevent headers
analyze_libioreport_a_CFLAGS = $(AM_CFLAGS) $(IOREPORT_INC) \
	$(TRACEEVENT_CFLAGS) $(TRACEFS_CFLAGS) \
	$(SQLITE_CFLAGS) $(ZSTD_CFLAGS)

include $(srcdir)/analyze/base/local.mk
include $(srcdir)/analyze/input/local.mk
include $(srcdir)/analyze/decode/local.mk
include $(srcdir)/analyze/replay/local.mk
include $(srcdir)/analyze/stats/local.mk
include $(srcdir)/analyze/sink/local.mk

# the program: main with the command table, one file per command
bin_PROGRAMS += ioreport
ioreport_SOURCES = \
	analyze/ioreport.c \
	analyze/cmd.h \
	analyze/cmd-opts.c \
	analyze/cmd-view.c \
	analyze/cmd-info.c \
	analyze/cmd-dump.c \
	analyze/cmd-report.c \
	analyze/cmd-requests.c \
	analyze/cmd-procfiles.c \
	analyze/cmd-wa.c \
	analyze/cmd-dirty.c \
	analyze/cmd-diff.c \
	analyze/cmd-findings.c \
	analyze/cmd-db.c \
	analyze/cmd-convert.c \
	analyze/cmd-export.c \
	analyze/cmd-redact.c \
	analyze/cmd-html.c
ioreport_CFLAGS = $(AM_CFLAGS) $(IOREPORT_INC)
ioreport_LDADD = $(IOREPORT_LIBS)

# the dependency rule, checked
TESTS += tests/test-layout.sh
EXTRA_DIST += tests/test-layout.sh analyze/README.md
