# record/: iorec, the recorder
bin_PROGRAMS += iorec
iorec_SOURCES = \
	record/record.h \
	record/iorec-int.h \
	record/iorec.c \
	record/options.c \
	record/check.c \
	record/meta.c \
	record/child.c \
	record/snapjob.c \
	record/profile.c \
	record/instance.c \
	record/snapshot.c \
	record/ringbuf.c \
	record/blackbox.c \
	record/trigger.c \
	record/inodes.c \
	record/compat.c \
	record/taskfilter.c \
	record/names.c \
	record/abi.c \
	record/elf.c
iorec_CFLAGS = $(AM_CFLAGS) -pthread $(TRACEFS_CFLAGS) $(TRACEEVENT_CFLAGS) \
	$(ZSTD_CFLAGS)
# libtool links the programs: its -all-static is the compiler's -static
# (its own -static would only take libtool libraries statically)
iorec_LDFLAGS = $(AM_LDFLAGS) $(IOREC_STATIC_LDFLAGS:-static=-all-static)
iorec_LDADD = formats/libiorecfmt.a lib/libiorecutil.a \
	$(TRACEFS_LIBS) $(TRACEEVENT_LIBS) $(ZSTD_LIBS) -lpthread
