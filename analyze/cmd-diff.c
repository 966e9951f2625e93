// SPDX-License-Identifier: MIT
/*
 * cmd-diff.c - `ioreport diff BEFORE AFTER`: two recordings side by
 * side, each read once with write amplification and dirty throttling
 * (so standard input works too, '-', once), compared by the diff model
 * (stats/diffmodel.h) and printed by sink/view-diff.c.
 */
#include "config.h"

#include "cmd.h"
#include "driver.h"
#include "stats/diffmodel.h"
#include "sink/sink.h"

#define DEFAULT_TOP	10
#define TOP_FINDINGS	5	/* what changed, at the head */

static const char diff_usage[] =
"usage: ioreport diff [--json] [--top N] [--wide] [FILTERS] [--csv[=TABLE]] BEFORE AFTER\n"
"\n"
"  -j, --json           one JSON object (sizes in bytes, times in ns)\n"
"  -n, --top N          rows of each list (default 10)\n"
"  -h, --help           this help\n"
VIEW_WIDE_HELP
VIEW_CSV_HELP
"  CSV tables: findings (the default: what changed), config, pairing,\n"
"                       sections.summary, sections.devices,\n"
"                       sections.processes, sections.files,\n"
"                       sections.write_amplification, sections.fsync,\n"
"                       sections.dirty, histograms (a metric's columns:\n"
"                       metrics.NAME.before/after/delta/pct...)\n"
VIEW_FILTER_HELP
"                       (each applied to both recordings: --since/--until\n"
"                       from each one's first event, -d names resolved in\n"
"                       each one's snapshot)\n"
"\n"
"Two recordings side by side: what changed in the machine (kernel,\n"
"sysctls, mount options such as barrier/data=/commit=, block queue\n"
"settings), then the summary, devices (with I2C/D2C percentiles),\n"
"processes (by comm), files (by path), write amplification, fsync cost\n"
"and dirty throttling, each metric with BEFORE, AFTER, the delta and the\n"
"relative change, and the latency histograms of both in one picture.\n"
"A file system mounted at another directory or on another device in\n"
"AFTER is matched to BEFORE's (the same files below it, the same mount\n"
"point or source, or the only one of its type that did I/O; an old mount\n"
"left mounted and idle does not hold it back), its files are named as in\n"
"BEFORE, and its device and disk too: a card that was mmcblk0 and is sda\n"
"compares as one device.  The kernel's workers are one row (kworker/*).\n"
"The pairing is said under \"paired\" (JSON: pairing).  At the head, the\n"
"findings of both paired, with their severity BEFORE -> AFTER and the\n"
"test of the metric behind each (* beyond noise, or not tested).\n"
"\n"
"Both recordings can also be loaded into one SQLite database (ioreport db)\n"
"and compared there.\n";

static int print_diff(struct sink *s, const struct view_opts *o,
		      struct stats *after)
{
	struct diff d;
	int rc = diff_compute(&d, s->st, after);

	if (rc < 0) {
		s->err = rc;
		return 1;
	}
	view_findings_changes(s, &d, TOP_FINDINGS);
	view_diff(s, &d, o->top);
	diff_release(&d);
	return 0;
}

const struct view_cmd cmd_diff = {
	.usage = diff_usage, .shortopts = "jn:h",
	VIEW_TOP_LISTS(DEFAULT_TOP),
	.want = AN_WA | AN_DIRTY, .two = true, .filters = true, .slow = true,
	.csv = true, .csv_table = "findings", .print = print_diff,
};
