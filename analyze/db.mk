# analyze/: the SQLite sink and `ioreport db` (sink-sqlite.h, cmd-db.c).
# Included by Makefile.am after analyze/local.mk.
#
# schema.sql is embedded as the C string schema_sql[] of the generated
# header analyze/schema-sql.h.
ioreport_SOURCES += \
	analyze/sink-sqlite.h \
	analyze/sink-sqlite.c \
	analyze/cmd-db.c
ioreport_LDADD += $(SQLITE_LIBS)

analyze/schema-sql.h: $(srcdir)/analyze/schema.sql
	$(AM_V_GEN)$(MKDIR_P) analyze && { \
	  echo '/* generated from analyze/schema.sql by analyze/db.mk: do not edit */'; \
	  echo 'static const char schema_sql[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' \
	    $(srcdir)/analyze/schema.sql; \
	  echo ';'; \
	} > $@-t && mv $@-t $@

# the object includes the generated header (explicit: automake's
# dependency tracking only learns it after the first build)
analyze/ioreport-sink-sqlite.$(OBJEXT): analyze/schema-sql.h
CLEANFILES += analyze/schema-sql.h
EXTRA_DIST += analyze/schema.sql

# test-db.sh: against samples/ (views vs database, two recordings,
# re-load, kill -9 mid-load, schema versions); test-db-live.sh: a live
# recording of a known workload (root + tracefs, skips otherwise).
TESTS += analyze/test-db.sh analyze/test-db-live.sh
EXTRA_DIST += analyze/test-db.sh analyze/test-db-live.sh bench/db-bench.sh \
	docs/schema.md
