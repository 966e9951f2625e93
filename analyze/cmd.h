/* SPDX-License-Identifier: MIT */
/*
 * cmd.h - the commands of ioreport, one file each (or one per closely
 * related pair), dispatched by name from the table of ioreport.c, and
 * what they share (cmd-opts.c).
 *
 * A command gets argv with argv[0] set to its own name, prints its
 * output and its errors, and returns the exit code: 0 ok, 1 failure,
 * 2 usage error.
 */
#ifndef IOREPORT_CMD_H
#define IOREPORT_CMD_H

#include <stdbool.h>

int cmd_info(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_devices(int argc, char **argv);	/* cmd-report.c */
int cmd_report(int argc, char **argv);		/* cmd-report.c */
int cmd_summary(int argc, char **argv);		/* cmd-report.c */
int cmd_slow(int argc, char **argv);		/* cmd-report.c */
int cmd_snoop(int argc, char **argv);		/* cmd-report.c */
int cmd_processes(int argc, char **argv);	/* cmd-procfiles.c */
int cmd_files(int argc, char **argv);		/* cmd-procfiles.c */
int cmd_db(int argc, char **argv);		/* cmd-db.c */
int cmd_diff(int argc, char **argv);		/* cmd-diff.c */
int cmd_wa(int argc, char **argv);		/* cmd-diff.c */
int cmd_fsync(int argc, char **argv);		/* cmd-diff.c */
int cmd_dirty(int argc, char **argv);		/* cmd-diff.c */

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

/* The options of a view command (see parse_view_opts()). */
struct view_opts {
	bool json;		/* -j, --json */
	bool no_hist;		/* -H, --no-hist */
	long top;		/* -n, --top N */
	long rows;		/* -r, --rows N (1 to 100000) */
	const char *path[2];	/* the FILEs */
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

/**
 * flush_warnings - print the queued warnings of a source
 * @src: the open source
 *
 * Takes every warning source_warning() still holds, oldest first, and
 * prints each as a warning on stderr.
 */
void flush_warnings(struct source *src);

#endif /* IOREPORT_CMD_H */
