/* SPDX-License-Identifier: MIT */
/*
 * cmd.h - the commands of ioreport, one file each (or one per closely
 * related pair), dispatched by name from the table of ioreport.c: a
 * function cmd_<name>, or for a view the struct view_cmd cmd_<name> that
 * run_view() runs; and what they share (cmd-opts.c, cmd-view.c).
 *
 * A command gets argv with argv[0] set to its own name, prints its
 * output and its errors, and returns the exit code: 0 ok, 1 failure,
 * 2 usage error.
 */
#ifndef IOREPORT_CMD_H
#define IOREPORT_CMD_H

#include <stdbool.h>
#include <stdio.h>

#include "driver.h"
#include "stats/filter.h"

struct source_info;

int cmd_info(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_db(int argc, char **argv);
int cmd_convert(int argc, char **argv);	/* cmd-convert.c */
int cmd_export(int argc, char **argv);	/* cmd-export.c */
int cmd_redact(int argc, char **argv);	/* cmd-redact.c */
int cmd_html(int argc, char **argv);	/* cmd-html.c */

/*
 * parse_count - read the number of option --OPT from arg into *out
 *
 * Returns 0, or 2 after a usage error naming the option and the range
 * [min, max] (max LONG_MAX: no upper bound).
 */
int parse_count(const char *usage, const char *opt, const char *arg,
		long min, long max, long *out);
/* Print "error: ..." and the usage of a command to stderr; return 2. */
int usage_error(const char *usage, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Long options without a letter. */
enum { OPT_SINCE = 256, OPT_UNTIL, OPT_MIN_MS, OPT_ALL_FDS, OPT_WIDE,
       OPT_WALLCLOCK, OPT_TRACE_CLOCK, OPT_CSV, OPT_COMM, OPT_INTERVAL,
       OPT_UNIT, OPT_CONTAINER, OPT_CGROUP, OPT_BY,
       OPT_CMD };	/* OPT_CMD: a command's own */

/* The view filters' long options, for a struct option table. */
#define FILTER_LONGOPTS \
	{ "pid", required_argument, NULL, 'p' }, \
	{ "comm", required_argument, NULL, 'c' }, \
	{ "dev", required_argument, NULL, 'd' }, \
	{ "file", required_argument, NULL, 'f' }, \
	{ "since", required_argument, NULL, OPT_SINCE }, \
	{ "until", required_argument, NULL, OPT_UNTIL }, \
	{ "min-ms", required_argument, NULL, OPT_MIN_MS }, \
	{ "unit", required_argument, NULL, OPT_UNIT }, \
	{ "container", required_argument, NULL, OPT_CONTAINER }, \
	{ "cgroup", required_argument, NULL, OPT_CGROUP }

/*
 * parse_filter - one filter option (c: 'p', 'c', 'd', 'f', OPT_SINCE,
 * OPT_UNTIL or OPT_MIN_MS) and its argument into f
 *
 * Returns 0, or 2 after a usage error.  check_filter() once they are all
 * read: 0, or 2 after a usage error (--until before --since).
 */
int parse_filter(const char *usage, int c, char *arg, struct view_filter *f);
/* The case labels of the options parse_filter() takes, for a switch. */
#define FILTER_CASES \
	case 'p': case 'c': case 'd': case 'f': \
	case OPT_SINCE: case OPT_UNTIL: case OPT_MIN_MS: \
	case OPT_UNIT: case OPT_CONTAINER: case OPT_CGROUP
int check_filter(const char *usage, const struct view_filter *f);

/*
 * cmd_option - an option of getopt_long()'s c (short options starting
 * with ':', opterr 0) that every command with the view filters takes
 * alike: -h (the usage on standard output), a view filter (into f; none
 * when f is NULL), a missing argument or an unknown option (a usage
 * error naming it).  For the options a command does not handle itself.
 *
 * Returns -1 to go on (a filter), else the exit code: 0 after -h, 2
 * after a usage error.
 */
int cmd_option(const char *usage, int c, char **argv, struct view_filter *f);

struct driver;
/*
 * driver_filter - give the opened recording d the filters f (nothing
 * when none is set): resolve the device names and times of day against
 * the recording, ask for the requests' owners when a process or file is
 * asked.  Returns 0, or 1 after an error line naming the fix.
 */
int driver_filter(struct driver *d, struct view_filter *f);
/*
 * cmd_open - open the recording path into d for the stages want (the
 * filters may ask for more) with the filters f (driver_filter())
 *
 * Returns 0, or 1 after an error line.
 */
int cmd_open(struct driver *d, const char *path, unsigned int want,
	     struct view_filter *f);

/*
 * cmd_run - run the pass over d's recording with on_request and on_call
 * (each NULL when not wanted) as the driver's hooks, arg theirs
 *
 * Returns 0, or 1 after an error line.
 */
int cmd_run(struct driver *d, blk_done_fn on_request, call_done_fn on_call,
	    void *arg);

/*
 * cmd_create_tmp - create the file that is written beside out and
 * renamed over it when complete: out.tmp-XXXXXX, mode 0644, its name in
 * *tmp (the caller's to unlink and free)
 *
 * Returns the fd, or -1 with errno set, or with *tmp NULL when out of
 * memory.
 */
int cmd_create_tmp(const char *out, char **tmp);

struct stats;
/* What the view filters of the pass st kept, as the views say it, on out. */
void print_filter_kept(FILE *out, struct stats *st);

/* The help lines of the view filters, for the usage texts. */
#define VIEW_FILTER_HELP \
"  -p, --pid PID[,PID]  only these processes (a process and its threads)\n" \
"  -c, --comm NAME[,NAME] only processes that had one of these names\n" \
"  -d, --dev DEV[,DEV]  only these block devices (name or MAJ:MIN)\n" \
"  -f, --file GLOB      only files whose path matches GLOB (fnmatch)\n" \
"      --unit UNIT[,UNIT] only processes of these systemd units\n" \
"                       (foo.service, or foo for foo.service)\n" \
"      --container NAME[,NAME] only processes of these containers\n" \
"                       (Docker/Podman name, or id prefix)\n" \
"      --cgroup PATH[,PATH] only processes in these cgroups or below\n" \
"      --since SEC      only from SEC seconds after the first event\n" \
"      --until SEC      only up to SEC seconds after the first event\n"
#define VIEW_CSV_HELP \
"      --csv[=TABLE]    one table as CSV: a header line of the JSON's field\n" \
"                       names (nested: a.b), one line per row, the JSON's\n" \
"                       values; TABLE names another table of the JSON\n" \
"                       (its dotted path, e.g. summary.devices)\n"
#define VIEW_WIDE_HELP \
"      --wide           every column, exact numbers, whole names (default:\n" \
"                       100 columns, sizes in K/M/G)\n"
/* -h and the options of every row view (a view_cmd with .csv). */
#define VIEW_ROW_HELP \
"  -h, --help           this help\n" \
VIEW_WIDE_HELP \
VIEW_CSV_HELP \
VIEW_FILTER_HELP
#define VIEW_MIN_MS_HELP \
"      --min-ms MS      only requests and syscalls that took MS ms or more\n" \
"      --wallclock      times of day of the recording machine (from its\n" \
"                       header) instead of seconds from the first event\n" \
"      --trace-clock    seconds of the trace clock instead of seconds from\n" \
"                       the first event (each of the three is accepted by\n" \
"                       --since and --until)\n"
#define VIEW_INTERVAL_HELP \
"      --interval SEC   one block of rows per SEC seconds from the first\n" \
"                       event, like iostat (JSON: an \"intervals\" array\n" \
"                       beside the view's members)\n"
#define VIEW_BY_HELP \
"      --by unit|container|cgroup  first a table of the processes summed\n" \
"                       per systemd unit, container or cgroup (\"-\": of\n" \
"                       none); JSON: by and groups; --csv: the groups\n"
#define VIEW_ALL_FDS_HELP \
"      --all-fds        slowest syscalls on every fd (pipes, sockets, ttys\n" \
"                       too), not only on files and block devices\n"

/* The options of a view command (see parse_view_opts()). */
struct view_opts {
	/* in: which options the view has beside its shortopts */
	bool can_filter;	/* -p -c -d -f --since --until */
	bool can_min_ms;	/* --min-ms */
	bool can_all_fds;	/* --all-fds */
	bool all_fds;		/* --all-fds: slowest syscalls on every fd */
	bool wide;		/* --wide: every column, exact numbers */
	bool wallclock;		/* --wallclock (per-operation views) */
	bool trace_clock;	/* --trace-clock (per-operation views) */
	bool can_csv, csv;	/* --csv[=TABLE] (the table views) */
	const char *csv_table;	/* its TABLE, NULL: the view's default */
	bool can_interval;	/* --interval (devices, processes) */
	bool can_by;		/* --by (processes) */
	int by;			/* --by: enum owner_by, 0: none */
	uint64_t interval_ns;	/* --interval SEC, 0: none */
	bool json;		/* -j, --json */
	bool no_hist;		/* -H, --no-hist */
	long top;		/* -n, --top N */
	long rows;		/* -r, --rows N (1 to 100000) */
	const char *path[2];	/* the FILEs */
	struct view_filter filter;	/* -p -c -d -f --since --until --min-ms */
};

/*
 * parse_view_opts - parse the options and files of a view command
 * @shortopts: the options the command has, of "jn:r:Hh" (a long option
 *   whose letter is not there is an unknown option)
 * @top_min, @top_max: the range of --top (see parse_count())
 * @nfiles: how many FILE arguments it wants (1 or 2)
 * @o: holds the defaults on entry (top, rows); set from the options
 *
 * Returns -1 to go on, else the exit code (0 after --help, 2 after a
 * usage error, printed).
 */
int parse_view_opts(int argc, char **argv, const char *usage,
		    const char *shortopts, long top_min, long top_max,
		    int nfiles, struct view_opts *o);

struct source;
struct driver;
struct sink;
struct stats;

/*
 * A view command: what run_view() (cmd-view.c) needs to run it.  Every
 * view command is one of these and its usage text; the runner parses
 * the options, runs the driver over each FILE with the stages the view
 * wants, calls print and reports the failures.
 */
struct view_cmd {
	const char *usage;
	const char *shortopts;		/* of "jn:r:Hh" */
	long top, top_min, top_max;	/* --top: default and range */
	long rows;			/* --rows: default */
	unsigned int want;		/* AN_* of driver.h */
	bool slow;			/* keep the --top slowest */
	bool need_sys;			/* no syscall events: fail, print nothing */
	bool two;			/* BEFORE and AFTER */
	bool filters;			/* takes the view filters */
	bool min_ms;			/* and --min-ms (per-operation views) */
	bool csv;			/* takes --csv (a table view) */
	/*
	 * --csv[=TABLE] prints one array of objects of the view's JSON (a
	 * dotted path, json_csv_begin()); the default TABLE of --csv, ""
	 * when the view has none (TABLE required); NULL: the view prints
	 * its own CSV when s->csv
	 */
	const char *csv_table;
	bool by;			/* takes --by unit|container|cgroup */
	/* takes --interval: its blocks are of devices or of processes */
	enum { IVL_NONE, IVL_DEVICES, IVL_PROCESSES } interval;
	/* before the pass, for a view printed during it (hooks), or NULL */
	void (*begin)(struct sink *s, struct driver *d);
	/*
	 * after the pass: the view (text, or the members of the one JSON
	 * object); after is AFTER's pass of a two-recording view.  Returns
	 * 0, or 1 when the recording lacks what the view needs (said).
	 */
	int (*print)(struct sink *s, const struct view_opts *o,
		     struct stats *after);
};

/* --top N of the views of lists: N from 1 to 100000, default def. */
#define VIEW_TOP_LISTS(def)	.top = (def), .top_min = 1, .top_max = 100000

/* Run a view command; returns the exit code. */
int run_view(const struct view_cmd *c, int argc, char **argv);

/* The view commands, one file each or per closely related pair. */
extern const struct view_cmd cmd_report, cmd_summary;	/* cmd-report.c */
extern const struct view_cmd cmd_devices, cmd_slow, cmd_snoop;
							/* cmd-requests.c */
extern const struct view_cmd cmd_processes, cmd_files;	/* cmd-procfiles.c */
extern const struct view_cmd cmd_wa, cmd_fsync;		/* cmd-wa.c */
extern const struct view_cmd cmd_dirty;			/* cmd-dirty.c */
extern const struct view_cmd cmd_diff;			/* cmd-diff.c */
extern const struct view_cmd cmd_findings;		/* cmd-findings.c */

/*
 * view_require_block - in print: 0 when the pass had block requests,
 * else 1 after saying why (JSON "error", or an error naming path)
 */
int view_require_block(struct sink *s, const char *path);

/**
 * flush_warnings - print the queued warnings of a source
 * @src: the open source
 *
 * Takes every warning source_warning() still holds, oldest first, and
 * prints each as a warning on stderr.
 */
void flush_warnings(struct source *src);

/*
 * print_limits - say on stderr, one warning each, what the recorder
 * said the recording cannot have (the header's limit_N keys)
 */
void print_limits(const struct source_info *in);

#endif /* IOREPORT_CMD_H */
