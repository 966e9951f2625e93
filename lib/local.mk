# lib/: small helpers shared by iorec and ioreport
noinst_LIBRARIES += lib/libiorecutil.a
lib_libiorecutil_a_SOURCES = lib/util.h lib/util.c lib/sbuf.h lib/sbuf.c \
	lib/cgname.h lib/cgname.c
