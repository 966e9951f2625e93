// SPDX-License-Identifier: MIT
/*
 * cmd-opts.c - what the commands share: usage errors, the parsers of
 * counts and of the view options, and the printing of the warnings the
 * input queued (see cmd.h).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "cmd.h"
#include "input/meta.h"
#include "input/source.h"

int usage_error(const char *usage, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: error: %s\n%s", util_progname, buf, usage);
	return 2;
}

int parse_count(const char *usage, const char *opt, const char *arg,
		long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || *end || end == arg || v < min || v > max) {
		if (max == LONG_MAX)
			return usage_error(usage, "--%s wants a number >= %ld, not '%s'",
					   opt, min, arg);
		return usage_error(usage, "--%s wants a number from %ld to %ld, not '%s'",
				   opt, min, max, arg);
	}
	*out = v;
	return 0;
}

int parse_view_opts(int argc, char **argv, const char *usage,
		    const char *shortopts, long top_min, long top_max,
		    int nfiles, struct view_opts *o)
{
	static const struct option lo[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "top", required_argument, NULL, 'n' },
		{ "rows", required_argument, NULL, 'r' },
		{ "no-hist", no_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, li = -1;

	optind = 1;
	opterr = 0;		/* the messages below name the option */
	while ((c = getopt_long(argc, argv, shortopts, lo, &li)) != -1) {
		/* a long option of another view is not one of this view */
		if (c != '?' && !strchr(shortopts, c))
			return usage_error(usage, "%s has no option --%s",
					   argv[0], lo[li].name);
		li = -1;
		switch (c) {
		case 'j':
			o->json = true;
			break;
		case 'H':
			o->no_hist = true;
			break;
		case 'n':
			if (parse_count(usage, "top", optarg, top_min, top_max,
					&o->top))
				return 2;
			break;
		case 'r':
			if (parse_count(usage, "rows", optarg, 1, 100000,
					&o->rows))
				return 2;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			for (int i = 0; optopt && lo[i].name; i++)
				if (lo[i].val == optopt)
					return usage_error(usage, "-%c/--%s wants an argument",
							   optopt, lo[i].name);
			return usage_error(usage, "unknown option '%s'",
					   argv[optind - 1]);
		}
	}
	if (argc - optind != nfiles)
		return usage_error(usage, "%s wants %s", argv[0],
				   nfiles == 1 ? "exactly one FILE" :
				   "two files, BEFORE and AFTER");
	for (int i = 0; i < nfiles; i++)
		o->path[i] = argv[optind + i];
	return -1;
}

void print_limits(const struct source_info *in)
{
	char buf[1024];

	for (int i = 1; i <= META_LIMITS; i++)
		if (meta_limit(in->header_text, i, buf, sizeof(buf)))
			warning("%s: limit of this recording: %s", in->path,
				buf);
}

void flush_warnings(struct source *src)
{
	char *msg;

	while ((msg = source_warning(src))) {
		warning("%s", msg);
		free(msg);
	}
}
