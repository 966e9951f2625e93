# analyze/out/: the sinks, text, JSON and SQLite
analyze_libioreport_a_SOURCES += \
	analyze/out/sink.h analyze/out/sink.c \
	analyze/out/table.h analyze/out/table.c \
	analyze/out/histtext.h analyze/out/histtext.c \
	analyze/out/view-summary.c \
	analyze/out/view-requests.c \
	analyze/out/view-procfiles.c \
	analyze/out/view-wa.c \
	analyze/out/view-diff.c \
	analyze/out/json.h analyze/out/json.c \
	analyze/out/sqlite.h analyze/out/sqlite-priv.h \
	analyze/out/sqlite.c analyze/out/sqlite-rows.c

# schema.sql is embedded as the C string schema_sql[] of the generated
# header analyze/out/schema-sql.h.
analyze/out/schema-sql.h: $(srcdir)/analyze/out/schema.sql
	$(AM_V_GEN)$(MKDIR_P) analyze/out && { \
	  echo '/* generated from analyze/out/schema.sql by analyze/out/local.mk: do not edit */'; \
	  echo 'static const char schema_sql[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' \
	    $(srcdir)/analyze/out/schema.sql; \
	  echo ';'; \
	} > $@-t && mv $@-t $@

# the object includes the generated header (explicit: automake's
# dependency tracking only learns it after the first build)
analyze/out/libioreport_a-sqlite.$(OBJEXT): analyze/out/schema-sql.h
CLEANFILES += analyze/out/schema-sql.h
EXTRA_DIST += analyze/out/schema.sql
