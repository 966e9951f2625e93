// SPDX-License-Identifier: MIT
/*
 * cmd-report.c - `ioreport report` (the default) and `ioreport summary`:
 * everything about a recording in one reading, and what was recorded.
 */
#include "config.h"

#include <stdio.h>

#include "cmd.h"
#include "driver.h"
#include "sink/sink.h"

#define DEFAULT_TOP	10
#define TOP_FINDINGS	3	/* at the head of the report */

static const char report_usage[] =
"usage: ioreport [report] [--json] [--top N] [--no-hist] [FILTERS] [--all-fds] [--wide]\n"
"                         [--csv=TABLE] FILE\n"
"\n"
"  -j, --json           one JSON object (times in ns, sizes in bytes)\n"
"  -n, --top N          rows of the processes, files and slowest lists\n"
"                       (default 10)\n"
VIEW_FILTER_HELP
VIEW_ALL_FDS_HELP
"  -H, --no-hist        no histograms, only the tables\n"
"  -h, --help           this help\n"
VIEW_WIDE_HELP
VIEW_CSV_HELP
"  CSV tables (one must be named): findings, summary.devices, devices,\n"
"                       iostat, slow_requests, slow_syscalls, processes,\n"
"                       files (the others: the error of a wrong TABLE)\n"
"\n"
"Everything about a recording: the top findings (ioreport findings),\n"
"summary, devices, slowest requests, processes and files.\n";

static const char summary_usage[] =
"usage: ioreport summary [--json] [FILTERS] [--wide] [--csv[=TABLE]] FILE\n"
"\n"
"  -j, --json           one JSON object (times in ns, sizes in bytes)\n"
"  -h, --help           this help\n"
VIEW_WIDE_HELP
VIEW_CSV_HELP
"  CSV tables: summary.devices (the default), summary.diskstats,\n"
"                       summary.config.mounts, summary.config.blockdevs,\n"
"                       summary.lost.cpus\n"
VIEW_FILTER_HELP
"\n"
"What was recorded: host, kernel, clock, duration, events, lost events per\n"
"CPU and where the first gap is, devices with requests and bytes, tasks,\n"
"per device the diskstats of the start and end snapshots next to the\n"
"requests of the trace, the config that shapes I/O (vm.dirty_*,\n"
"swappiness, vfs_cache_pressure, mount options of the file systems on the\n"
"devices that did I/O, their queue settings) and the anomaly counts.\n";

static int print_report(struct sink *s, const struct view_opts *o,
			struct stats *after)
{
	(void)after;
	view_head(s);
	view_findings_top(s, TOP_FINDINGS);
	view_summary(s);
	view_devices(s);
	view_slow(s);
	if (s->j) {
		view_attribution(s);
		view_processes(s, o->top);
		view_files(s, o->top);
	}
	view_anomalies(s);
	if (!s->j) {
		/* sections with their own head and anomalies lines */
		fprintf(s->out, "\n");
		view_processes(s, o->top);
		fprintf(s->out, "\n");
		view_files(s, o->top);
	}
	return 0;
}

static int print_summary(struct sink *s, const struct view_opts *o,
			 struct stats *after)
{
	(void)o;
	(void)after;
	view_head(s);
	view_summary(s);
	view_anomalies(s);
	return 0;
}

/* the processes and files take the syscall replay and attribution */
const struct view_cmd cmd_report = {
	.usage = report_usage, .shortopts = "jn:Hh",
	.top = DEFAULT_TOP, .top_max = 1000000,
	.want = AN_WA | AN_DIRTY, .slow = true, .filters = true,
	.csv = true, .csv_table = "", .print = print_report,
};

const struct view_cmd cmd_summary = {
	.usage = summary_usage, .shortopts = "jh",
	.top = DEFAULT_TOP, .top_max = 1000000,
	.want = AN_BLOCK | AN_SYS, .filters = true, .csv = true,
	.csv_table = "summary.devices", .print = print_summary,
};
