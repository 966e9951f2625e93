// SPDX-License-Identifier: MIT
/*
 * cmd-dirty.c - `ioreport dirty`: dirty page throttling, the dirty
 * thresholds and writeback over time.
 */
#include "config.h"

#include "cmd.h"
#include "driver.h"
#include "sink/sink.h"

#define DEFAULT_TOP	10
#define DEFAULT_ROWS	20

static const char dirty_usage[] =
"usage: ioreport dirty [--json] [--top N] [--rows N] [FILTERS] [--wide]\n"
"                      [--csv[=TABLE]] FILE\n"
"\n"
"  -j, --json           one JSON object (sizes in bytes, times in ns)\n"
"  -n, --top N          rows of the process list (default 10)\n"
"  -r, --rows N         time rows (default 20; JSON: every 100 ms slot)\n"
"  -h, --help           this help\n"
VIEW_WIDE_HELP
VIEW_CSV_HELP
"  CSV tables: slots (the default: every 100 ms slot), processes\n"
VIEW_FILTER_HELP
"\n"
"Dirty page throttling and writeback: the time each process was paused\n"
"in balance_dirty_pages, the global dirty state and its thresholds\n"
"(global_dirty_state: background and dirty limits, dirty and writeback\n"
"pages), the flusher's writeback by reason (writeback_written) and the\n"
"bytes that reached the devices, over time.  Filtered: the pauses of the\n"
"processes asked for, the bytes the filters keep; the dirty state, its\n"
"thresholds and the flusher's work are the machine's (only --since and\n"
"--until apply to them), and the time rows start at --since.\n";

static int print_dirty(struct sink *s, const struct view_opts *o,
		       struct stats *after)
{
	(void)after;
	view_dirty(s, o->top, o->rows);
	return 0;
}

const struct view_cmd cmd_dirty = {
	.usage = dirty_usage, .shortopts = "jn:r:h",
	VIEW_TOP_LISTS(DEFAULT_TOP),
	.rows = DEFAULT_ROWS,
	.want = AN_WA | AN_DIRTY, .filters = true, .csv = true,
	.csv_table = "slots", .print = print_dirty,
};
