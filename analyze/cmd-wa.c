// SPDX-License-Identifier: MIT
/*
 * cmd-wa.c - `ioreport wa` and `ioreport fsync`: write amplification,
 * and what fsync costs with the device flushes it caused, from the pass
 * with write amplification and dirty throttling (AN_WA | AN_DIRTY).
 */
#include "config.h"

#include "cmd.h"
#include "driver.h"
#include "sink/sink.h"

#define DEFAULT_TOP	10

/* The options of both views; tables: the CSV tables of the view. */
#define WA_OPTIONS_HELP(tables, more) \
"\n" \
"  -j, --json           one JSON object (sizes in bytes, times in ns)\n" \
"  -n, --top N          rows of the process and file lists (default 10)\n" \
"  -h, --help           this help\n" \
VIEW_WIDE_HELP \
VIEW_CSV_HELP \
"  CSV tables: " tables "\n" \
VIEW_FILTER_HELP \
more \
"\n"

static const char wa_usage[] =
"usage: ioreport wa [--json] [--top N] [FILTERS] [--wide] [--csv[=TABLE]]\n"
"                   [--by unit|container|cgroup] FILE\n"
WA_OPTIONS_HELP("devices (the default), groups (--by; then the\n"
"                       default), processes, files",
"      --by unit|container|cgroup  first the processes' rows summed per\n"
"                       systemd unit, container or cgroup (\"-\": of none);\n"
"                       JSON: by and groups; --csv: the groups\n")
"Write amplification: the bytes applications wrote with file syscalls\n"
"against the bytes written to each device, split into file data, journal\n"
"(jbd2), metadata and other, with flush and FUA requests, jbd2 commit\n"
"statistics and the device's own count (diskstats at the start and end\n"
"snapshots).  The overall ratio covers the devices that received\n"
"application writes.  Per process and file: bytes attributed to them at\n"
"the device (attribution rules: docs/attribution.md), journal commits\n"
"their fsyncs waited for included.  With -p/-c/-f the jbd2 commit\n"
"statistics (the file system's) are left out, and with any filter but -d\n"
"the diskstats counts (whole devices, start to end).  Method:\n"
"docs/write-amplification.md.\n";

static const char fsync_usage[] =
"usage: ioreport fsync [--json] [--top N] [FILTERS] [--wide] [--csv[=TABLE]]\n"
"                      [--by unit|container|cgroup] FILE\n"
WA_OPTIONS_HELP("processes (the default), groups (--by; then the\n"
"                       default), files, devices",
"      --by unit|container|cgroup  first the processes' rows summed per\n"
"                       systemd unit, container or cgroup (\"-\": of none);\n"
"                       JSON: by and groups; --csv: the groups\n")
"What fsync costs, per process and per file: fsync/fdatasync/\n"
"sync_file_range calls and their latency (syscall enter -> exit), the\n"
"ext4 fsyncs (ext4_sync_file), the device flushes that completed while\n"
"an fsync waited on the same device, and their device time (shared among\n"
"concurrent fsyncs).  Per device: flush requests, PREFLUSH and FUA\n"
"writes and their device time.  A file system mounted without barriers\n"
"(barrier=0 / nobarrier) issues no flushes.  Filtered, an fsync counts\n"
"when it began inside --since/--until on a device -d keeps, by a process\n"
"and on a file the filters keep, with every flush it waited for.\n";

static int print_wa(struct sink *s, const struct view_opts *o,
		    struct stats *after)
{
	(void)after;
	view_wa(s, o->top);
	return 0;
}

static int print_fsync(struct sink *s, const struct view_opts *o,
		       struct stats *after)
{
	(void)after;
	view_fsync(s, o->top);
	return 0;
}

const struct view_cmd cmd_wa = {
	.usage = wa_usage, .shortopts = "jn:h",
	VIEW_TOP_LISTS(DEFAULT_TOP),
	.want = AN_WA | AN_DIRTY, .filters = true, .csv = true,
	.csv_table = "devices", .by = true, .print = print_wa,
};

const struct view_cmd cmd_fsync = {
	.usage = fsync_usage, .shortopts = "jn:h",
	VIEW_TOP_LISTS(DEFAULT_TOP),
	.want = AN_WA | AN_DIRTY, .filters = true, .csv = true,
	.csv_table = "processes", .by = true, .print = print_fsync,
};
