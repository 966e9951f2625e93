// SPDX-License-Identifier: MIT
/*
 * cmd-html.c - `ioreport html [-o FILE] RECORDING [AFTER]`: one
 * self-contained HTML page with the plots of a recording, or of two
 * on shared axes with what changed (sink/html.c); each recording read once
 * through the driver, whose hooks fill the timeline (stats/timeline.h).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "cmd.h"
#include "driver.h"
#include "base/err.h"
#include "stats/diffmodel.h"
#include "stats/timeline.h"
#include "sink/html.h"
#include "sink/sink.h"

#define SLOW_N		200	/* the slowest requests, ringed on the plots */
#define DIFF_TOP	10

static const char html_usage[] =
"usage: ioreport html [-o FILE] [FILTERS] RECORDING [AFTER]\n"
"\n"
"  -o, --output FILE    write the page to FILE (default: standard output)\n"
"  -h, --help           this help\n"
VIEW_FILTER_HELP
"\n"
"One HTML file that opens in any browser without network (inline SVG,\n"
"CSS and a small script, readable with scripts off) and fits a 1280 px\n"
"window: the findings first; per device, the slowest first, the device\n"
"time of the requests over time and its heat map, throughput and IOPS\n"
"(bins of 100 ms or more), queue depth, offsets and latency histograms;\n"
"processes and files by the time they lost, bytes and fsync time; the\n"
"fsync calls; dirty pages and writeback with the throttle pauses; write\n"
"amplification; the configuration; lost events and anomalies.  One colour\n"
"per operation, units on every axis.  With AFTER, the paired findings of\n"
"ioreport diff on top and every plot a row of BEFORE and AFTER on the\n"
"same axes.  Points are a uniform sample of at most 4000 requests per\n"
"device (the 200 slowest always drawn): a long recording still makes a\n"
"page of a few MiB.  The filters keep what they keep in the views, on\n"
"both recordings, and the page says what they kept.\n"
"\n"
"Example:\n"
"  ioreport redact x.iorec public.iorec && ioreport html -o x.html public.iorec\n";

struct one {
	struct driver d;
	struct timeline *tl;
};

static void on_request(const struct blk_done *d, void *arg)
{
	timeline_request(arg, &d->rq);
}

static void on_call(void *arg, const struct sys_call *c, int proc_id,
		    int file_id)
{
	timeline_call(arg, c, proc_id, file_id);
}

/* Open, read and time one recording with filter f; 0 or 1 (said). */
static int load(struct one *o, const char *path, struct view_filter *f)
{
	if (cmd_open(&o->d, path, AN_WA | AN_DIRTY, f))
		return 1;
	o->tl = timeline_new(o->d.info->first_ts);
	if (!o->tl)
		return error("%s: out of memory", path), 1;
	o->d.slow_n = SLOW_N;
	if (cmd_run(&o->d, on_request, on_call, o->tl))
		return 1;
	if (o->tl->err)
		return error("%s: out of memory for the timeline", path), 1;
	return 0;
}

/* The text of ioreport diff of d, for the page; NULL without memory. */
static char *diff_text(struct one *b, const struct diff *d)
{
	char *buf = NULL;
	size_t len = 0;
	struct sink s;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	sink_init(&s, &b->d.st, m, NULL);
	view_diff(&s, d, DIFF_TOP);
	sink_release(&s);
	if (fclose(m)) {
		free(buf);
		return NULL;
	}
	return buf;
}

int cmd_html(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		FILTER_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct view_filter filter[2];
	struct one r[2];
	struct html_rec hb = { 0 }, ha = { 0 };
	struct diff d;
	bool have_d = false;
	const char *out = NULL;
	char *dt = NULL;
	FILE *f = stdout;
	int c, n, code, rc = 1, i;

	memset(r, 0, sizeof(r));
	memset(filter, 0, sizeof(filter));
	optind = 1;
	opterr = 0;		/* cmd_option() names the option */
	while ((c = getopt_long(argc, argv, ":o:hp:c:d:f:", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		default:	/* -h, a filter, and the errors */
			code = cmd_option(html_usage, c, argv, &filter[0]);
			if (code >= 0)
				return code;
		}
	}
	if (check_filter(html_usage, &filter[0]))
		return 2;
	if (filter[0].min_ns)
		return usage_error(html_usage, "--min-ms is an option of the per-operation views (slow, snoop)");
	filter[1] = filter[0];	/* each recording counts for itself */
	n = argc - optind;
	if (n < 1 || n > 2)
		return usage_error(html_usage, "html wants RECORDING and at most one AFTER");
	if (n == 2 && !strcmp(argv[optind], "-") && !strcmp(argv[optind + 1], "-"))
		return usage_error(html_usage, "standard input ('-') can be only one of the two recordings");
	for (i = 0; i < n; i++)
		if (load(&r[i], argv[optind + i], &filter[i]))
			goto out;
	hb.st = &r[0].d.st;
	hb.tl = r[0].tl;
	hb.label = n == 2 ? "BEFORE" : r[0].d.info->path;
	if (n == 2) {
		ha.st = &r[1].d.st;
		ha.tl = r[1].tl;
		ha.label = "AFTER";
		if (diff_compute(&d, &r[0].d.st, &r[1].d.st) < 0) {
			error("html: out of memory");
			goto out;
		}
		have_d = true;
		dt = diff_text(&r[0], &d);
		if (!dt) {
			error("html: out of memory");
			goto out;
		}
	}
	if (out && strcmp(out, "-")) {
		f = fopen(out, "we");
		if (!f) {
			error("cannot create '%s': %s", out, strerror(errno));
			f = stdout;
			goto out;
		}
	}
	c = html_page(f, &hb, n == 2 ? &ha : NULL, have_d ? &d : NULL, dt);
	if (c < 0) {
		error("%s: %s; the page lacks a part", argv[optind],
		      an_strerror(c));
		goto out;
	}
	rc = 0;
out:
	if (f != stdout) {
		if (fclose(f) && !rc)
			rc = error("cannot write '%s': %s", out, strerror(errno));
		if (rc)
			remove(out);
	} else if (fflush(stdout) == EOF || ferror(stdout)) {
		rc = error("cannot write the output");
	}
	for (i = 0; i < 2; i++) {
		if (r[i].d.src)
			flush_warnings(r[i].d.src);
		driver_close(&r[i].d);
		timeline_free(r[i].tl);
	}
	if (have_d)
		diff_release(&d);
	free(dt);
	return rc ? 1 : 0;
}
