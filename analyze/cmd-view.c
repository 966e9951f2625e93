// SPDX-License-Identifier: MIT
/*
 * cmd-view.c - the one runner of the view commands (see cmd.h): parse
 * the options, open and read each recording once through the driver
 * with the stages the view asks for, print through the sinks, report
 * what went wrong, one line each.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "cmd.h"
#include "base/err.h"
#include "driver.h"
#include "sink/json.h"
#include "sink/sink.h"
#include "stats/interval.h"

int view_require_block(struct sink *s, const char *path)
{
	if (s->st->have_block)
		return 0;
	if (s->j && !s->csv)
		json_str(s->j, "error", s->st->block_why);
	else
		error("%s: %s", path, s->st->block_why);
	return 1;
}

/* --interval: the driver's hooks into the interval aggregates */
static void ivl_request(const struct blk_done *d, void *arg)
{
	interval_request(arg, d);
}

static void ivl_call(void *arg, const struct sys_call *c, int proc_id,
		     int file_id)
{
	(void)file_id;
	interval_call(arg, c, proc_id);
}

int run_view(const struct view_cmd *c, int argc, char **argv)
{
	struct driver d[2] = { { 0 } };
	struct view_opts o = { .top = c->top, .rows = c->rows,
			       .can_filter = c->filters,
			       .can_min_ms = c->min_ms,
			       .can_all_fds = c->slow,
			       .can_csv = c->csv,
			       .can_interval = c->interval != IVL_NONE,
			       .can_by = c->by };
	int nfiles = c->two ? 2 : 1, rc;
	struct view_filter after_filter;
	struct interval iv = { 0 };
	bool during;		/* the view prints during the pass */
	struct an_err err;
	struct json j, *jp = NULL;
	const char *table = NULL;	/* --csv: the JSON's table */
	struct sink s;

	rc = parse_view_opts(argc, argv, c->usage, c->shortopts, c->top_min,
			     c->top_max, nfiles, &o);
	if (rc >= 0)
		return rc;
	if (c->two && !strcmp(o.path[0], "-") && !strcmp(o.path[1], "-"))
		return usage_error(c->usage, "standard input ('-') can be only one of the two recordings");
	if (o.csv && (c->csv_table || o.by)) {
		/* --by: the groups are the table --csv prints (findings too,
		 * whose own CSV is its rows) */
		table = o.csv_table ? o.csv_table : o.by ? "groups" :
			c->csv_table;
		if (!*table)
			return usage_error(c->usage, "%s prints several tables: name one with --csv=TABLE (see --help)",
					   argv[0]);
	}
	for (int i = 0; i < nfiles; i++) {
		d[i].want = c->want;
		d[i].slow_n = c->slow ? (size_t)o.top : 0;
		d[i].slow_all_fds = o.all_fds;
		if (driver_open(&d[i], o.path[i], &err) < 0)
			goto fail;
	}
	/* diff: each recording resolves and counts the filters for itself */
	after_filter = o.filter;
	if (driver_filter(&d[0], &o.filter) ||
	    (c->two && driver_filter(&d[1], &after_filter))) {
		rc = 1;
		goto out;
	}
	if (o.json || table) {
		json_init(&j, stdout);
		jp = &j;
		if (table && json_csv_begin(&j, table, stdout) < 0) {
			rc = error("out of memory");
			goto out;
		}
	}
	sink_init(&s, &d[0].st, stdout, jp);
	s.no_hist = o.no_hist;
	s.wide = o.wide;
	s.wallclock = o.wallclock;
	s.trace_clock = o.trace_clock;
	s.csv = o.csv;
	s.by = o.by;
	during = c->begin || o.interval_ns;
	if (during) {
		/* a view that prints during the pass */
		if (jp) {
			json_object_begin(jp, NULL);
			json_u64(jp, "schema_version", JSON_SCHEMA_VERSION);
		}
		if (c->begin)
			c->begin(&s, &d[0]);
	}
	if (o.interval_ns) {
		interval_init(&iv, &d[0].st, o.interval_ns, view_interval_slot,
			      &s);
		view_interval_begin(&s, d[0].info->path, o.interval_ns,
				    c->interval == IVL_PROCESSES, o.top);
		d[0].on_request = ivl_request;
		d[0].on_request_arg = &iv;
		d[0].on_call = ivl_call;
		d[0].on_call_arg = &iv;
	}
	for (int i = 0; i < nfiles; i++)
		if (driver_run(&d[i], &err) < 0) {
			interval_release(&iv);
			sink_release(&s);
			goto fail;
		}
	if (o.interval_ns) {
		int irc = interval_finish(&iv, d[0].st.last_ts);

		if (irc < 0 && !s.err)
			s.err = irc;
		view_interval_end(&s);
		interval_release(&iv);
	}
	if (c->need_sys && !d[0].st.have_sys) {
		error("%s", d[0].st.sys_why);
		sink_release(&s);
		rc = 1;
		goto out;
	}
	if (jp && !during) {
		json_object_begin(jp, NULL);
		json_u64(jp, "schema_version", JSON_SCHEMA_VERSION);
	}
	/*
	 * What the recordings lost, once for every view: the JSON member,
	 * or a warning line above the view (after it for a view printed
	 * during the pass)
	 */
	if (!during) {
		view_integrity(&s, c->two ? &d[1].st : NULL);
		view_filter_kept(&s, c->two ? &d[1].st : NULL);
	}
	/* the intervals in text are the view; in JSON beside its members */
	if (!o.interval_ns || jp)
		rc = c->print(&s, &o, c->two ? &d[1].st : NULL);
	else if (c->interval == IVL_DEVICES)
		rc = view_require_block(&s, o.path[0]);
	if (during) {
		view_integrity(&s, NULL);
		view_filter_kept(&s, c->two ? &d[1].st : NULL);
	}
	if (jp) {
		json_object_end(jp);
		if (!s.err && json_finish(jp) < 0)
			rc = error("cannot write the JSON output");
	}
	if (table) {
		char *why;
		int crc = json_csv_finish(jp, &why);

		if (crc == -2 && !rc)
			rc = error("--csv=%s: %s has no table %s in this recording; its tables: %s",
				   table, argv[0], table, why);
		else if (crc < 0 && !rc)
			rc = error("cannot write the CSV output (out of memory or a write error)");
		free(why);
	}
	if (s.err)
		rc = error("%s: %s", d[0].info->path, an_strerror(s.err));
	sink_release(&s);
	if (fflush(stdout) == EOF || ferror(stdout))
		rc = error("cannot write the output");
	goto out;
fail:
	error("%s", err.msg);
	rc = 1;
out:
	if (jp)
		json_csv_abort(jp);
	for (int i = 0; i < nfiles; i++) {
		if (d[i].info && !rc)
			print_limits(d[i].info);
		if (d[i].src)
			flush_warnings(d[i].src);
		driver_close(&d[i]);
	}
	return rc ? 1 : 0;
}
