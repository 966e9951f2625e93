// SPDX-License-Identifier: MIT
/*
 * cmd-opts.c - what the commands share: usage errors, the parsers of
 * counts and of the view options, and the printing of the warnings the
 * input queued (see cmd.h).
 */
#include "config.h"

#include <getopt.h>
#include <limits.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util.h"
#include "cmd.h"
#include "stats/owner.h"
#include "base/err.h"
#include "input/meta.h"
#include "input/source.h"
#include "driver.h"
#include "sink/sink.h"

int usage_error(const char *usage, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	const char *u = usage, *w;
	size_t n, cmd;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* one line: the command's words of the usage line ("usage: ioreport
	 * summary [--json] ..." -> "ioreport summary") name its --help */
	if (!strncmp(u, "usage: ", 7))
		u += 7;
	for (w = u; *w; ) {
		n = strcspn(w, " \n");
		if (!n || !islower((unsigned char)*w) ||
		    strspn(w, "abcdefghijklmnopqrstuvwxyz0123456789-") < n)
			break;
		w += n;
		if (*w != ' ')
			break;
		w++;
	}
	n = (size_t)(w - u);
	while (n && u[n - 1] == ' ')
		n--;
	/* "ioreport [report] ...": the command that may be left out */
	cmd = w[0] == '[' ? strcspn(w + 1, "] \n") : 0;
	if (cmd && (w[1 + cmd] != ']' ||
		    strspn(w + 1, "abcdefghijklmnopqrstuvwxyz") != cmd))
		cmd = 0;
	fprintf(stderr, "%s: error: %s (run '%.*s%s%.*s --help' for the options)\n",
		util_progname, buf, (int)(n ? n : strlen(util_progname)),
		n ? u : util_progname, cmd ? " " : "", (int)cmd, w + 1);
	return 2;
}

int parse_count(const char *usage, const char *opt, const char *arg,
		long min, long max, long *out)
{
	if (!parse_long(arg, min, max, out))
		return 0;
	if (max == LONG_MAX)
		return usage_error(usage, "--%s wants a number >= %ld, not '%s'",
				   opt, min, arg);
	return usage_error(usage, "--%s wants a number from %ld to %ld, not '%s'",
			   opt, min, max, arg);
}

/* A comma-separated list of arg into v (at most FILTER_MAX). */
static int split_list(const char *usage, const char *opt, char *arg,
		      const char **v, size_t *n)
{
	for (char *tok = strtok(arg, ","); tok; tok = strtok(NULL, ",")) {
		if (*n == FILTER_MAX)
			return usage_error(usage, "--%s takes at most %d values",
					   opt, FILTER_MAX);
		v[(*n)++] = tok;
	}
	if (!*n)
		return usage_error(usage, "--%s wants a value", opt);
	return 0;
}

/* Seconds (a decimal number >= 0) of --OPT into *ns. */
static int parse_secs(const char *usage, const char *opt, const char *arg,
		      double scale, uint64_t *ns)
{
	char *end;
	double v;

	if (parse_number(arg, &v, &end) || *end || v > 1e9)
		return usage_error(usage, "--%s wants a number of %s >= 0, not '%s'",
				   opt, scale == 1e9 ? "seconds from the recording's start" : "ms",
				   arg);
	*ns = (uint64_t)(v * scale + 0.5);
	return 0;
}

/*
 * A time of day HH:MM:SS[.frac] of --OPT into *ns after midnight (of the
 * recording machine's clock: see filter_resolve_wall()).
 */
static int parse_tod(const char *usage, const char *opt, const char *arg,
		     uint64_t *ns)
{
	unsigned int h, m;
	double sec;
	char tail;

	if (sscanf(arg, "%u:%u:%lf%c", &h, &m, &sec, &tail) != 3 || h > 23 ||
	    m > 59 || !(sec >= 0 && sec < 60))
		return usage_error(usage, "--%s wants seconds from the recording's start or a time of day HH:MM:SS (the recording machine's), not '%s'",
				   opt, arg);
	*ns = ((uint64_t)h * 3600 + m * 60) * 1000000000ULL +
	      (uint64_t)(sec * 1e9 + 0.5);
	return 0;
}

/*
 * --since or --until (opt): seconds from the recording's start into *ns,
 * or a time of day into *tod_ns (*wall set); *have set.
 */
static int parse_when(const char *usage, const char *opt, const char *arg,
		      bool *have, bool *wall, uint64_t *tod_ns, uint64_t *ns)
{
	*have = true;
	if (strchr(arg, ':')) {
		*wall = true;
		return parse_tod(usage, opt, arg, tod_ns);
	}
	return parse_secs(usage, opt, arg, 1e9, ns);
}

int parse_filter(const char *usage, int c, char *arg, struct view_filter *f)
{
	const char *v[FILTER_MAX];
	size_t n = 0;
	long pid;

	switch (c) {
	case 'p':
		if (split_list(usage, "pid", arg, v, &n))
			return 2;
		for (size_t i = 0; i < n; i++) {
			if (parse_long(v[i], 1, 0x3fffffff, &pid))
				return usage_error(usage, "--pid wants process ids (PID[,PID...]), not '%s'",
						   v[i]);
			if (f->npids < FILTER_MAX)
				f->pids[f->npids++] = (int)pid;
		}
		return 0;
	case 'c':
		return split_list(usage, "comm", arg, f->comms, &f->ncomms) ? 2 : 0;
	case 'd':
		return split_list(usage, "dev", arg, f->devs, &f->ndevs) ? 2 : 0;
	case 'f':
		f->glob = arg;
		return 0;
	case OPT_UNIT:
		return split_list(usage, "unit", arg, f->units, &f->nunits) ? 2 : 0;
	case OPT_CONTAINER:
		return split_list(usage, "container", arg, f->containers,
				  &f->ncontainers) ? 2 : 0;
	case OPT_CGROUP:
		return split_list(usage, "cgroup", arg, f->cgroups,
				  &f->ncgroups) ? 2 : 0;
	case OPT_SINCE:
		return parse_when(usage, "since", arg, &f->have_since,
				  &f->since_wall, &f->since_tod_ns,
				  &f->since_ns);
	case OPT_UNTIL:
		return parse_when(usage, "until", arg, &f->have_until,
				  &f->until_wall, &f->until_tod_ns,
				  &f->until_ns);
	default:
		return parse_secs(usage, "min-ms", arg, 1e6, &f->min_ns);
	}
}

int check_filter(const char *usage, const struct view_filter *f)
{
	if (f->have_since && f->have_until && f->since_wall == f->until_wall &&
	    (f->since_wall ? f->until_tod_ns <= f->since_tod_ns :
	     f->until_ns <= f->since_ns))
		return usage_error(usage, "--until must come after --since");
	return 0;
}

int cmd_option(const char *usage, int c, char **argv, struct view_filter *f)
{
	char name[64];

	switch (c) {
	case 'h':
		fputs(usage, stdout);
		return 0;
	FILTER_CASES:
		if (!f)
			break;
		return parse_filter(usage, c, optarg, f) ? 2 : -1;
	case ':':
		return usage_error(usage, "option '%s' wants an argument",
				   getopt_name(argv, name));
	default:
		break;
	}
	return usage_error(usage, "unknown option '%s'", getopt_name(argv, name));
}

int cmd_open(struct driver *d, const char *path, unsigned int want,
	     struct view_filter *f)
{
	struct an_err err;

	if (driver_open(d, path, &err) < 0) {
		error("%s", err.msg);
		return 1;
	}
	d->want = want;
	return driver_filter(d, f);
}

int cmd_run(struct driver *d, blk_done_fn on_request, call_done_fn on_call,
	    void *arg)
{
	struct an_err err;

	d->on_request = on_request;
	d->on_request_arg = arg;
	d->on_call = on_call;
	d->on_call_arg = arg;
	if (driver_run(d, &err) < 0) {
		error("%s", err.msg);
		return 1;
	}
	return 0;
}

int cmd_create_tmp(const char *out, char **tmp)
{
	int fd;

	*tmp = an_asprintf("%s.tmp-XXXXXX", out);
	fd = *tmp ? mkstemp(*tmp) : -1;
	if (fd >= 0)
		fchmod(fd, 0644);
	return fd;
}

void print_filter_kept(FILE *out, struct stats *st)
{
	struct sink s;

	sink_init(&s, st, out, NULL);
	view_filter_kept(&s, NULL);
	sink_release(&s);
}

int driver_filter(struct driver *d, struct view_filter *f)
{
	const struct source_info *in = d->info;
	struct an_err err = { 0 };
	const char *bad;

	if (!filter_active(f))
		return 0;
	bad = filter_resolve(f, in->snapshot_start ? in->snapshot_start :
			     in->snapshot_end);
	if (bad) {
		error("%s: no block device '%s' in the recording's snapshot; give its MAJ:MIN (ioreport summary lists the devices)",
		      in->path, bad);
		return 1;
	}
	if (!filter_resolve_wall(f, in->header_text)) {
		error("%s: the recording has no wall clock (start_realtime_ns and start_mono_ns of a mono trace clock in its header): give --since/--until in seconds from its start",
		      in->path);
		return 1;
	}
	bad = filter_resolve_clock(f, in->first_ts, in->last_ts);
	if (bad) {
		error("%s: %s is outside the recording (%.6f s long; trace clock %.6f to %.6f): give seconds from its first event, a trace clock time or HH:MM:SS",
		      in->path, bad, (double)(in->last_ts - in->first_ts) / 1e9,
		      (double)in->first_ts / 1e9, (double)in->last_ts / 1e9);
		return 1;
	}
	/* -c: the processes that had the name at any time, first */
	if (driver_select_comms(in->path, f, &err) < 0) {
		error("%s", err.msg);
		return 1;
	}
	d->filter = f;
	/* a process or a file: the requests' owners are needed */
	if (filter_wants_owner(f))
		d->want |= AN_ATTRIB;
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
		FILTER_LONGOPTS,
		{ "all-fds", no_argument, NULL, OPT_ALL_FDS },
		{ "wide", no_argument, NULL, OPT_WIDE },
		{ "wallclock", no_argument, NULL, OPT_WALLCLOCK },
		{ "trace-clock", no_argument, NULL, OPT_TRACE_CLOCK },
		{ "csv", optional_argument, NULL, OPT_CSV },
		{ "interval", required_argument, NULL, OPT_INTERVAL },
		{ "by", required_argument, NULL, OPT_BY },
		{ NULL, 0, NULL, 0 },
	};
	char opts[64], name[64];
	int c, li = -1;

	snprintf(opts, sizeof(opts), "%s%s", shortopts,
		 o->can_filter ? "p:c:d:f:" : "");
	optind = 1;
	opterr = 0;		/* the messages below name the option */
	while ((c = getopt_long(argc, argv, opts, lo, &li)) != -1) {
		/* a long option of another view is not one of this view */
		bool have = c < 256 ? c != '?' && strchr(opts, c) != NULL :
			    c == OPT_MIN_MS || c == OPT_WALLCLOCK ||
			    c == OPT_TRACE_CLOCK ? o->can_min_ms :
			    c == OPT_ALL_FDS ? o->can_all_fds :
			    c == OPT_WIDE ? true :
			    c == OPT_CSV ? o->can_csv :
			    c == OPT_INTERVAL ? o->can_interval :
			    c == OPT_BY ? o->can_by : o->can_filter;

		if (c != '?' && !have)
			return usage_error(usage, "%s has no option --%s",
					   argv[0], lo[li].name);
		li = -1;
		switch (c) {
		case OPT_ALL_FDS:
			o->all_fds = true;
			break;
		case OPT_WIDE:
			o->wide = true;
			break;
		case OPT_WALLCLOCK:
			o->wallclock = true;
			break;
		case OPT_TRACE_CLOCK:
			o->trace_clock = true;
			break;
		case OPT_CSV:
			o->csv = true;
			o->csv_table = optarg;
			if (optarg && !*optarg)
				return usage_error(usage, "--csv= wants a TABLE: the dotted path of an array of the view's JSON, e.g. --csv=devices");
			break;
		case OPT_BY:
			o->by = owner_by_parse(optarg);
			if (o->by == OWNER_NONE)
				return usage_error(usage, "--by wants unit, container or cgroup, not '%s'",
						   optarg);
			break;
		case OPT_INTERVAL:
			if (parse_secs(usage, "interval", optarg, 1e9,
				       &o->interval_ns))
				return 2;
			if (o->interval_ns < 1000000)
				return usage_error(usage, "--interval wants at least 0.001 seconds, not '%s'",
						   optarg);
			break;
		FILTER_CASES:
			if (parse_filter(usage, c, optarg, &o->filter))
				return 2;
			break;
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
				if (lo[i].val == optopt && optopt >= 256)
					return usage_error(usage, "--%s wants an argument",
							   lo[i].name);
				else if (lo[i].val == optopt &&
					 strchr(opts, optopt))
					return usage_error(usage, "-%c/--%s wants an argument",
							   optopt, lo[i].name);
			return usage_error(usage, "unknown option '%s'",
					   getopt_name(argv, name));
		}
	}
	if (check_filter(usage, &o->filter))
		return 2;
	if (o->csv && o->json)
		return usage_error(usage, "--csv and --json: choose one");
	if (o->csv && o->interval_ns)
		return usage_error(usage, "--csv has no --interval: use --json for the intervals");
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
	char buf[1024], v[32];
	/* 32-bit programs' syscalls recorded from the first one's exec on,
	 * and the recording ended without one: what they would have missed
	 * did not happen (info and the header still say it) */
	bool no_compat = in->end_text && *in->end_text &&
		meta_kv(in->header_text, "compat_start", v, sizeof(v)) &&
		!strcmp(v, "exec") &&
		!meta_kv(in->end_text, "compat_on_ns", v, sizeof(v));

	for (int i = 1; i <= META_LIMITS; i++)
		if (meta_limit(in->header_text, i, buf, sizeof(buf)) &&
		    !(no_compat && strstr(buf, "32-bit")))
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
