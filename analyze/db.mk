# analyze/: the SQLite sink and `ioreport db` (sink-sqlite.h, cmd-db.c).
# Included by Makefile.am after analyze/local.mk.
#
# schema.sql is embedded as the C string schema_sql[] of the generated
# header analyze/out/schema-sql.h.
ioreport_SOURCES += \
	analyze/out/sqlite.h \
	analyze/out/sqlite.c \
	analyze/cmd-db.c
ioreport_LDADD += $(SQLITE_LIBS)

analyze/out/schema-sql.h: $(srcdir)/analyze/out/schema.sql
	$(AM_V_GEN)$(MKDIR_P) analyze/out && { \
	  echo '/* generated from analyze/out/schema.sql by analyze/db.mk: do not edit */'; \
	  echo 'static const char schema_sql[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' \
	    $(srcdir)/analyze/out/schema.sql; \
	  echo ';'; \
	} > $@-t && mv $@-t $@

# the object includes the generated header (explicit: automake's
# dependency tracking only learns it after the first build)
analyze/out/ioreport-sqlite.$(OBJEXT): analyze/out/schema-sql.h
CLEANFILES += analyze/out/schema-sql.h
EXTRA_DIST += analyze/out/schema.sql

# test-db.sh: against samples/ (views vs database, two recordings,
# re-load, kill -9 mid-load, schema versions); test-db-live.sh: a live
# recording of a known workload (root + tracefs, skips otherwise).
TESTS += tests/test-db.sh tests/accuracy/db.sh
EXTRA_DIST += tests/test-db.sh tests/accuracy/db.sh bench/db-bench.sh \
	docs/schema.md
