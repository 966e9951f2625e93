// SPDX-License-Identifier: MIT
/*
 * cmd-requests.c - `ioreport devices`, `slow` and `snoop`: the block
 * requests per device and operation, the slowest requests and syscalls,
 * and every completed request as it completes.
 */
#include "config.h"

#include "cmd.h"
#include "driver.h"
#include "sink/json.h"
#include "sink/sink.h"

#define DEFAULT_TOP	10

static const char devices_usage[] =
"usage: ioreport devices [--json] [--no-hist] [FILTERS] [--interval SEC] [--wide]\n"
"                        [--csv[=TABLE]] FILE\n"
"\n"
"  -j, --json           one JSON object (times in ns, sizes in bytes)\n"
"  -H, --no-hist        no histograms, only the tables\n"
VIEW_ROW_HELP
VIEW_INTERVAL_HELP
"  CSV tables: devices (the default), iostat, btt\n"
"\n"
"Queue time is block_rq_insert -> block_rq_issue (I2D), device time is\n"
"block_rq_issue -> block_rq_complete (D2C), total is I2C (or D2C for\n"
"requests issued without passing through the queue).  Then per device as\n"
"btt has them: Q2Q (bio inter-arrival), each phase's share of the bios'\n"
"Q2C (btt's Device Overhead) and the D2D seek distances in sectors.\n";

static const char slow_usage[] =
"usage: ioreport slow [--json] [--top N] [FILTERS] [--min-ms MS] [--wallclock|--trace-clock] [--all-fds] [--wide] [--csv[=TABLE]] FILE\n"
"\n"
"  -j, --json           one JSON object (times in ns, sizes in bytes)\n"
"  -n, --top N          how many (default 10)\n"
VIEW_ROW_HELP
VIEW_MIN_MS_HELP
VIEW_ALL_FDS_HELP
"  CSV tables: slow_requests (the default), slow_syscalls\n"
"\n"
"The N block requests with the longest total time (insert -> complete),\n"
"slowest first, with device, type, sector, bytes, queue, device and total\n"
"time, the task that queued it and its file when attributed; then the N\n"
"file syscalls with the longest latency (enter -> exit), with the\n"
"syscall, pid, tid, comm, fd, bytes moved and file.\n";

static const char snoop_usage[] =
"usage: ioreport snoop [--json] [FILTERS] [--min-ms MS] [--wallclock|--trace-clock]\n"
"                     [--wide] [--csv] FILE\n"
"\n"
"  -j, --json           one JSON object (times in ns, sizes in bytes)\n"
VIEW_ROW_HELP
VIEW_MIN_MS_HELP
"  CSV table: requests\n"
"\n"
"One line per completed block request, in completion order, like\n"
"iosnoop -Q: start (insert, else issue) and end times in seconds from the\n"
"first event (as biosnoop), comm and pid of the task that queued it, type (rwbs),\n"
"device, sector, bytes, queue time and device time in ms, file.  --csv\n"
"is a latency dump like btt -l/-q: each request's i2d, d2c, total and\n"
"btt's Q2C (first bio queued -> complete), in ns.\n";

/* A view of the block requests: head, the view, anomalies (1: none). */
static int print_requests(struct sink *s, const struct view_opts *o,
			  void (*view)(struct sink *))
{
	int rc;

	view_head(s);
	rc = view_require_block(s, o->path[0]);
	view(s);
	view_anomalies(s);
	return rc;
}

static int print_devices(struct sink *s, const struct view_opts *o,
			 struct stats *after)
{
	(void)after;
	return print_requests(s, o, view_devices);
}

static int print_slow(struct sink *s, const struct view_opts *o,
		      struct stats *after)
{
	(void)after;
	return print_requests(s, o, view_slow);
}

/* snoop prints each request as the pass completes it */
static void begin_snoop(struct sink *s, struct driver *d)
{
	d->on_request = snoop_request;
	d->on_request_arg = s;
	view_snoop_begin(s);
}

static int print_snoop(struct sink *s, const struct view_opts *o,
		       struct stats *after)
{
	(void)o;
	(void)after;
	view_snoop_end(s);
	if (s->j) {
		view_head(s);
		json_u64(s->j, "requests_shown", s->snooped);
	}
	view_anomalies(s);
	return 0;
}

const struct view_cmd cmd_devices = {
	.usage = devices_usage, .shortopts = "jHh",
	.top = DEFAULT_TOP, .top_max = 1000000,
	.want = AN_BLOCK, .filters = true, .csv = true, .interval = IVL_DEVICES,
	.csv_table = "devices",
	.print = print_devices,
};

/* the slowest name their process and file: the attribution */
const struct view_cmd cmd_slow = {
	.usage = slow_usage, .shortopts = "jn:h",
	.top = DEFAULT_TOP, .top_max = 1000000,
	.want = AN_ATTRIB, .slow = true, .filters = true, .csv = true, .min_ms = true,
	.csv_table = "slow_requests",
	.print = print_slow,
};

const struct view_cmd cmd_snoop = {
	.usage = snoop_usage, .shortopts = "jh",
	.top = DEFAULT_TOP, .top_max = 1000000,
	.want = AN_ATTRIB, .filters = true, .csv = true, .min_ms = true,
	.csv_table = "requests",
	.begin = begin_snoop, .print = print_snoop,
};
