// SPDX-License-Identifier: MIT
/*
 * cmd-report.c - `ioreport report` (the default), `summary`, `devices`,
 * `slow` and `snoop`: open the recording, run the stages the view needs
 * through the driver (driver.h), print through the sinks
 * (report.h) as text or one JSON object.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "cmd.h"
#include "base/err.h"
#include "driver.h"
#include "out/json.h"
#include "out/report.h"

#define DEFAULT_TOP	10

static const char report_usage[] =
"usage: ioreport [report] [--json] [--top N] [--no-hist] FILE\n"
"\n"
"  -j, --json           one JSON object (times in ns, sizes in bytes)\n"
"  -n, --top N          rows of the processes, files and slowest lists\n"
"                       (default 10)\n"
"  -H, --no-hist        no histograms, only the tables\n"
"  -h, --help           this help\n"
"\n"
"Everything about a recording: summary, devices, slowest requests,\n"
"processes and files.\n";

static const char summary_usage[] =
"usage: ioreport summary [--json] FILE\n"
"\n"
"  -j, --json           one JSON object (times in ns, sizes in bytes)\n"
"  -h, --help           this help\n"
"\n"
"What was recorded: host, kernel, clock, duration, events, lost events per\n"
"CPU and where the first gap is, devices with requests and bytes, tasks,\n"
"per device the diskstats of the start and end snapshots next to the\n"
"requests of the trace, the config that shapes I/O (vm.dirty_*,\n"
"swappiness, vfs_cache_pressure, mount options of the file systems on the\n"
"devices that did I/O, their queue settings) and the anomaly counts.\n";

static const char devices_usage[] =
"usage: ioreport devices [--json] [--no-hist] FILE\n"
"\n"
"  -j, --json           one JSON object (times in ns, sizes in bytes)\n"
"  -H, --no-hist        no histograms, only the tables\n"
"  -h, --help           this help\n"
"\n"
"Queue time is block_rq_insert -> block_rq_issue (Q2D), device time is\n"
"block_rq_issue -> block_rq_complete (D2C), total is Q2C (or D2C for\n"
"requests issued without passing through the queue).\n";

static const char slow_usage[] =
"usage: ioreport slow [--json] [--top N] FILE\n"
"\n"
"  -j, --json           one JSON object (times in ns, sizes in bytes)\n"
"  -n, --top N          how many (default 10)\n"
"  -h, --help           this help\n"
"\n"
"The N block requests with the longest total time (insert -> complete),\n"
"slowest first, with device, type, sector, bytes, queue, device and total\n"
"time, the task that queued it and its file when attributed; then the N\n"
"file syscalls with the longest latency (enter -> exit), with the\n"
"syscall, pid, tid, comm, fd, bytes moved and file.\n";

static const char snoop_usage[] =
"usage: ioreport snoop [--json] FILE\n"
"\n"
"  -j, --json           one JSON object (times in ns, sizes in bytes)\n"
"  -h, --help           this help\n"
"\n"
"One line per completed block request, in completion order, like\n"
"iosnoop -Q: start (insert, else issue) and end times in seconds of the\n"
"trace clock, comm and pid of the task that queued it, type (rwbs),\n"
"device, sector, bytes, queue time and device time in ms, file.\n";

enum view {
	V_REPORT, V_SUMMARY, V_DEVICES, V_SLOW, V_SNOOP,
};

static int run_view(enum view v, int argc, char **argv, const char *usage,
		    const char *shortopts)
{
	struct driver a = { 0 };
	struct json j, *jp = NULL;
	struct an_err err;
	struct sink s;
	struct view_opts o = { .top = DEFAULT_TOP };
	int rc = parse_view_opts(argc, argv, usage, shortopts, 0, 1000000, 1,
				 &o);

	if (rc >= 0)
		return rc;
	rc = 0;
	if (driver_open(&a, o.path[0], &err) < 0) {
		error("%s", err.msg);
		driver_close(&a);
		return 1;
	}
	if (o.json) {
		json_init(&j, stdout);
		jp = &j;
	}
	/* devices needs the block replay only; the others name processes
	 * and files, which takes the syscall replay and the attribution */
	a.want = v == V_DEVICES ? AN_BLOCK :
		 v == V_SUMMARY ? AN_BLOCK | AN_SYS : AN_ATTRIB;
	if (v == V_REPORT || v == V_SLOW)
		a.slow_n = (size_t)o.top;
	sink_init(&s, &a, jp);
	s.no_hist = o.no_hist;
	if (v == V_SNOOP) {
		a.on_request = snoop_request;
		a.on_request_arg = &s;
	}

	if (jp)
		json_object_begin(jp, NULL);
	if (v == V_SNOOP)
		view_snoop_begin(&s);
	if (driver_run(&a, &err) < 0) {
		error("%s", err.msg);
		sink_release(&s);
		driver_close(&a);
		return 1;
	}
	if (v == V_SNOOP)
		view_snoop_end(&s);
	if (v != V_SNOOP || jp)
		view_head(&s);
	if (v != V_SNOOP && !a.rb && v != V_SUMMARY && v != V_REPORT) {
		if (jp)
			json_str(jp, "error", a.block_why);
		else
			error("%s: %s", o.path[0], a.block_why);
		rc = 1;
	}
	switch (v) {
	case V_REPORT:
		view_summary(&s);
		view_devices(&s);
		view_slow(&s);
		if (jp) {
			view_attribution(&s);
			view_processes(&s, o.top);
			view_files(&s, o.top);
		}
		break;
	case V_SUMMARY:
		view_summary(&s);
		break;
	case V_DEVICES:
		view_devices(&s);
		break;
	case V_SLOW:
		view_slow(&s);
		break;
	case V_SNOOP:
		if (jp)
			json_u64(jp, "requests_shown", s.snooped);
		break;
	}
	view_anomalies(&s);
	if (v == V_REPORT && !jp) {
		/* sections with their own head and anomalies lines */
		printf("\n");
		view_processes(&s, o.top);
		printf("\n");
		view_files(&s, o.top);
	}
	if (jp) {
		json_object_end(jp);
		if (json_finish(jp) < 0)
			rc = error("cannot write the JSON output");
	}
	fflush(stdout);
	flush_warnings(a.src);
	sink_release(&s);
	driver_close(&a);
	if (ferror(stdout)) {
		error("cannot write the output");
		return 1;
	}
	return rc ? 1 : 0;
}

int cmd_report(int argc, char **argv)
{
	return run_view(V_REPORT, argc, argv, report_usage, "jn:Hh");
}

int cmd_summary(int argc, char **argv)
{
	return run_view(V_SUMMARY, argc, argv, summary_usage, "jh");
}

int cmd_devices(int argc, char **argv)
{
	return run_view(V_DEVICES, argc, argv, devices_usage, "jHh");
}

int cmd_slow(int argc, char **argv)
{
	return run_view(V_SLOW, argc, argv, slow_usage, "jn:h");
}

int cmd_snoop(int argc, char **argv)
{
	return run_view(V_SNOOP, argc, argv, snoop_usage, "jh");
}
