// SPDX-License-Identifier: MIT
/*
 * ioreport.c - main of ioreport, the offline analyzer of .iorec and
 * trace.dat recordings: global options and the table of subcommands.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "cmd.h"

/* A command: a function, or a view run by run_view() (cmd-view.c). */
struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const struct view_cmd *view;
	const char *help;
};

static const struct command commands[] = {
	{ "report",    NULL,     &cmd_report,    "everything in one reading: summary, devices, processes, files, slowest (the default)" },
	{ "findings",  NULL,     &cmd_findings,  "answers: who loses time on what, in plain sentences ranked by the time lost" },
	{ "summary",   NULL,     &cmd_summary,   "what was recorded: host, span, events, lost events, devices, config, anomalies" },
	{ "info",      cmd_info, NULL,           "what a recording holds: header, events, chunks, lost events, snapshot, integrity" },
	{ "dump",      cmd_dump, NULL,           "every event as one text line, all CPUs merged in time order" },
	{ "devices",   NULL,     &cmd_devices,   "per device and operation: requests, bytes, IOPS, queue and device latency" },
	{ "processes", NULL,     &cmd_processes, "per process: file syscalls, bytes, latency, fsync cost" },
	{ "files",     NULL,     &cmd_files,     "per file: opens, reads, writes, latency, fsync cost" },
	{ "slow",      NULL,     &cmd_slow,      "the slowest block requests and syscalls with who, where and how long" },
	{ "snoop",     NULL,     &cmd_snoop,     "one line per completed block request, like iosnoop -Q" },
	{ "diff",      NULL,     &cmd_diff,      "two recordings side by side: config changes, views, histograms, deltas" },
	{ "wa",        NULL,     &cmd_wa,        "write amplification: application vs device bytes, data/journal/metadata, flushes" },
	{ "fsync",     NULL,     &cmd_fsync,     "fsync/fdatasync cost per process and file, and the device flushes they caused" },
	{ "dirty",     NULL,     &cmd_dirty,     "dirty throttling (balance_dirty_pages), dirty thresholds and writeback over time" },
	{ "db",        cmd_db,   NULL,           "store recordings in an SQLite database: the views' numbers, every request and syscall" },
	{ "convert",   cmd_convert, NULL,        "rewrite a .iorec as a trace.dat for trace-cmd report and KernelShark" },
	{ "export",    cmd_export, NULL,         "a recording for other tools: a Perfetto/Chrome timeline (JSON)" },
	{ "html",      cmd_html, NULL,           "one self-contained HTML page with plots, of a recording or of a before and an after" },
	{ "redact",    cmd_redact, NULL,         "a copy of a recording with names replaced by pseudonyms, numbers kept, to share" },
};

static const char usage_text[] =
"usage: ioreport COMMAND [OPTIONS] FILE...\n"
"       ioreport [report OPTIONS] FILE\n"
"       ioreport --help | --version\n"
"\n"
"Analyze recordings made by iorec (.iorec) or trace-cmd record (trace.dat).\n"
"FILE may be '-' for standard input.\n"
"\n"
"Commands:\n";

static const char examples_text[] =
"\n"
"Examples:\n"
"  ioreport x.iorec                    # the whole report (summary, devices, ...)\n"
"  ioreport info x.iorec               # what was recorded, lost events, integrity\n"
"  ioreport dump --cpu 0 x.iorec       # events of CPU 0, like trace-cmd report\n"
"  ioreport dump --events block:block_rq_issue,block:block_rq_complete trace.dat\n"
"  ioreport devices x.iorec            # per-device latency percentiles and histograms\n"
"  ioreport slow --top 20 x.iorec      # the 20 slowest requests\n"
"  ioreport snoop x.iorec | grep ' W'  # every request, like iosnoop\n"
"  ioreport devices --json x.iorec     # raw numbers and histogram buckets\n"
"  ssh pi 'iorec -o - -d 10' | ioreport info -\n"
"\n"
"Run 'ioreport COMMAND --help' for the options of a command.\n";

static void print_usage(FILE *f)
{
	fputs(usage_text, f);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
	fputs(examples_text, f);
}

/* An option of `report`, which may start the command line. */
static bool is_report_option(const char *a)
{
	static const char *const opts[] = {
		"-j", "--json", "-n", "--top", "-H", "--no-hist",
	};

	for (size_t i = 0; i < ARRAY_SIZE(opts); i++)
		if (!strcmp(a, opts[i]) || (!strncmp(a, opts[i], strlen(opts[i])) &&
		    a[1] == '-' && a[strlen(opts[i])] == '='))
			return true;
	/* -n5, -jH ... */
	return a[0] == '-' && a[1] && a[1] != '-' && strchr("jnH", a[1]);
}

int main(int argc, char **argv)
{
	util_progname = "ioreport";

	if (argc < 2) {
		print_usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		print_usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("ioreport %s\n", PACKAGE_VERSION);
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].view ?
			       run_view(commands[i].view, argc - 1, argv + 1) :
			       commands[i].fn(argc - 1, argv + 1);
	/* "ioreport [OPTIONS] FILE": the report; any non-command is a file */
	if (argv[1][0] != '-' || !strcmp(argv[1], "-") ||
	    is_report_option(argv[1])) {
		if (argv[1][0] != '-' && !strchr(argv[1], '/') &&
		    !strchr(argv[1], '.') && access(argv[1], F_OK) != 0) {
			error("unknown command '%s' (and no such file); run 'ioreport --help' for the list",
			      argv[1]);
			return 2;
		}
		argv[0] = "report";
		return run_view(&cmd_report, argc, argv);
	}
	error("unknown command or option '%s'; run 'ioreport --help' for the list",
	      argv[1]);
	return 2;
}
