# analyze/sink/: the sinks, text, JSON, SQLite and the HTML page
analyze_libioreport_a_SOURCES += \
	analyze/sink/sink.h analyze/sink/sink.c \
	analyze/sink/table.h analyze/sink/table.c \
	analyze/sink/histtext.h analyze/sink/histtext.c \
	analyze/sink/integrity.c \
	analyze/sink/view-summary.c analyze/sink/view-info.c \
	analyze/sink/view-requests.c \
	analyze/sink/view-btt.c \
	analyze/sink/view-interval.c \
	analyze/sink/view-procfiles.c analyze/sink/view-fileowners.c \
	analyze/sink/view-wa.c \
	analyze/sink/view-diff.c \
	analyze/sink/view-findings.c analyze/sink/view-trigger.c \
	analyze/sink/html.h analyze/sink/html-priv.h analyze/sink/html.c \
	analyze/sink/html-dev.c \
	analyze/sink/svg.h analyze/sink/svg.c \
	analyze/sink/json.h analyze/sink/json.c \
	analyze/sink/perfetto.h analyze/sink/perfetto.c \
	analyze/sink/fio.h analyze/sink/fio.c \
	analyze/sink/sqlite.h analyze/sink/sqlite-priv.h \
	analyze/sink/sqlite.c analyze/sink/sqlite-rows.c

# schema.sql is embedded as the C string schema_sql[] of the generated
# header analyze/sink/schema-sql.h.
analyze/sink/schema-sql.h: $(srcdir)/analyze/sink/schema.sql
	$(AM_V_GEN)$(MKDIR_P) analyze/sink && { \
	  echo '/* generated from analyze/sink/schema.sql by analyze/sink/local.mk: do not edit */'; \
	  echo 'static const char schema_sql[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' \
	    $(srcdir)/analyze/sink/schema.sql; \
	  echo ';'; \
	} > $@-t && mv $@-t $@

# the object includes the generated header (explicit: automake's
# dependency tracking only learns it after the first build)
analyze/sink/libioreport_a-sqlite.$(OBJEXT): analyze/sink/schema-sql.h
CLEANFILES += analyze/sink/schema-sql.h
EXTRA_DIST += analyze/sink/schema.sql
