/* SPDX-License-Identifier: MIT */
/*
 * ioreport.h - the subcommands of ioreport, each in its own cmd-*.c file,
 * dispatched by name from ioreport.c.
 *
 * A command gets argv with argv[0] set to its own name, prints its
 * output and its errors, and returns the exit code: 0 ok, 1 failure,
 * 2 usage error.
 */
#ifndef IOREPORT_H
#define IOREPORT_H

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

/* Print "usage: ..." for a command to stderr and return 2. */
/*
 * parse_count - read the number of option --OPT from arg into *out
 *
 * Returns 0, or 2 after a usage error naming the option and the range
 * [min, max] (max LONG_MAX: no upper bound).
 */
int parse_count(const char *usage, const char *opt, const char *arg,
		long min, long max, long *out);
int usage_error(const char *usage, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

struct source;

/**
 * flush_warnings - print the queued warnings of a source
 * @src: the open source
 *
 * Takes every warning source_warning() still holds, oldest first, and
 * prints each as a warning on stderr.
 */
void flush_warnings(struct source *src);

#endif /* IOREPORT_H */
