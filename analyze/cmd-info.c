// SPDX-License-Identifier: MIT
/*
 * cmd-info.c - `ioreport info`: what a recording holds (header, events,
 * chunks per CPU, time span, lost events, snapshot summary, end reason)
 * and whether it is complete.  The options and the pass that counts the
 * events; the view is sink/view-info.c.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>

#include "util.h"
#include "cmd.h"
#include "base/err.h"
#include "driver.h"
#include "sink/sink.h"

static const char info_usage[] =
"usage: ioreport info [--no-count] [--json] FILE...\n"
"       ioreport info [--no-count] --csv[=TABLE] FILE\n"
"\n"
"  -n, --no-count       do not read the events (faster: no per-event counts)\n"
"  -j, --json           one JSON object per FILE (one per line of output\n"
"                       when several)\n"
VIEW_CSV_HELP
"  CSV tables: cpu (the default), event_types, kernel_lost, damaged\n"
"  -h, --help           this help\n";

static bool no_count, as_json;
static const char *csv_table;	/* --csv: the JSON's table, else NULL */

static int info_one(const char *path)
{
	struct info_opts o = {
		.no_count = no_count, .as_json = as_json, .csv_table = csv_table,
	};
	struct driver d = { 0 };
	struct an_err err;
	int rc;

	/* no stage: the events are only counted (source.h counts per type) */
	if (driver_open(&d, path, &err) < 0 ||
	    (!no_count && driver_run(&d, &err) < 0)) {
		error("%s", err.msg);
		driver_close(&d);
		return 1;
	}
	rc = view_info(d.src, path, d.st.events, &o, &err);
	if (rc < 0)
		error("%s", err.msg);
	flush_warnings(d.src);
	driver_close(&d);
	return rc ? 1 : 0;
}

int cmd_info(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "no-count", no_argument, NULL, 'n' },
		{ "json",     no_argument, NULL, 'j' },
		{ "csv",      optional_argument, NULL, OPT_CSV },
		{ "help",     no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c, ret = 0;

	optind = 1;
	opterr = 0;		/* cmd_option() names the option */
	while ((c = getopt_long(argc, argv, ":njh", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			no_count = true;
			break;
		case 'j':
			as_json = true;
			break;
		case OPT_CSV:
			csv_table = optarg ? optarg : "cpu";
			if (!*csv_table)
				return usage_error(info_usage, "--csv= wants a TABLE: the dotted path of an array of info's JSON, e.g. --csv=event_types");
			break;
		default:	/* -h, and the errors */
			return cmd_option(info_usage, c, argv, NULL);
		}
	}
	if (optind >= argc)
		return usage_error(info_usage, "info wants at least one FILE");
	if (csv_table && as_json)
		return usage_error(info_usage, "--csv and --json: choose one");
	if (csv_table && argc - optind > 1)
		return usage_error(info_usage, "--csv prints one table of one FILE: run info --csv once per FILE");
	for (int i = optind; i < argc; i++) {
		if (i > optind && !as_json)
			printf("\n");
		if (info_one(argv[i]))
			ret = 1;
		fflush(stdout);
	}
	return ret;
}
