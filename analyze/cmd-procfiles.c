// SPDX-License-Identifier: MIT
/*
 * cmd-procfiles.c - `ioreport processes` and `ioreport files`: per
 * process and per file syscall counts, bytes, latency percentiles and
 * fsync cost, from the attributed pass (`ioreport report` prints the
 * same views from its own).
 */
#include "config.h"

#include <limits.h>

#include "cmd.h"
#include "driver.h"
#include "sink/sink.h"

static const char processes_usage[] =
"usage: ioreport processes [--json] [--top N] [FILTERS] [--interval SEC] [--wide]\n"
"                          [--csv[=TABLE]] [--by unit|container|cgroup] FILE\n"
"\n"
"  -j, --json           one JSON object (times in ns, sizes in bytes)\n"
"  -n, --top N          only the N processes that moved the most bytes\n"
VIEW_ROW_HELP
VIEW_INTERVAL_HELP
VIEW_BY_HELP
"  CSV tables: processes (the default), groups (--by; then the default),\n"
"                       attribution.journal, attribution.stacked\n"
"\n"
"Per process (by pid, comm after exec/rename): file syscall counts,\n"
"errors, bytes read and written, fsync cost; the block I/O attributed to\n"
"it at the device (requests, bytes, device time, journal bytes its fsyncs\n"
"waited for), time throttled by the dirty limits and blocked in D state\n"
"(iorec -p io,iowait); then per syscall kind the latency (enter -> exit)\n"
"total, average, p50, p99 and max.  Attribution rules: docs/attribution.md.\n";

static const char files_usage[] =
"usage: ioreport files [--json] [--top N] [FILTERS] [--wide] [--csv[=TABLE]]\n"
"                      [--by unit|container|cgroup] FILE\n"
"\n"
"  -j, --json           one JSON object (times in ns, sizes in bytes)\n"
"  -n, --top N          only the N files that moved the most bytes\n"
VIEW_ROW_HELP
"      --by unit|container|cgroup  first the calls on files summed per\n"
"                       systemd unit, container or cgroup of the processes\n"
"                       that made them (\"-\": of none), then each one's\n"
"                       files; JSON: by, groups and group_files\n"
"  CSV tables: files (the default), groups (--by; then the default),\n"
"                       group_files (--by), attribution.journal,\n"
"                       attribution.stacked\n"
"\n"
"Per file: opens, reads and writes (count, bytes, latency p50/p99),\n"
"fsync cost and the block I/O attributed to it at the device.  Files are named from the start snapshot (files already\n"
"open), from the path strings of the syscall events when the kernel\n"
"gives them, from iorec's uprobes on the C library's open functions, and\n"
"from the end snapshot (files still open); a file none of these name is\n"
"listed as <unknown fd N of pid P>.  Files with the same dev:ino or path\n"
"are one row.\n";

/* The head, the attribution, the view and the anomalies (JSON), or the
 * view's text section, which has them all. */
static int print_procfiles(struct sink *s, long top,
			   void (*view)(struct sink *, long))
{
	view_procfiles_head(s);
	if (s->j)
		view_attribution(s);
	view(s, top);
	view_procfiles_anomalies(s);
	return 0;
}

static int print_processes(struct sink *s, const struct view_opts *o,
			   struct stats *after)
{
	(void)after;
	return print_procfiles(s, o->top, view_processes);
}

static int print_files(struct sink *s, const struct view_opts *o,
		       struct stats *after)
{
	(void)after;
	return print_procfiles(s, o->top, view_files);
}

const struct view_cmd cmd_processes = {
	.usage = processes_usage, .shortopts = "jn:h",
	.top = -1, .top_max = LONG_MAX,
	.want = AN_ATTRIB, .need_sys = true, .filters = true, .csv = true,
	.csv_table = "processes", .interval = IVL_PROCESSES, .by = true,
	.print = print_processes,
};

const struct view_cmd cmd_files = {
	.usage = files_usage, .shortopts = "jn:h",
	.top = -1, .top_max = LONG_MAX,
	.want = AN_ATTRIB, .need_sys = true, .filters = true, .csv = true,
	.csv_table = "files", .by = true, .print = print_files,
};
