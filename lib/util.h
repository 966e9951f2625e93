/* SPDX-License-Identifier: MIT */
/*
 * util.h - small helpers shared by iorec and ioreport: messages, memory,
 * whole-file reads and checked writes.
 */
#ifndef IOREC_UTIL_H
#define IOREC_UTIL_H

#include <dirent.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/types.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Whether this machine stores numbers big-endian (the recording's may not). */
static inline bool host_big_endian(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 0;
}

/* Program name used as message prefix ("iorec", "ioreport"). */
extern const char *util_progname;

/*
 * error - print "PROG: error: MSG\n" to stderr and return -1, so callers
 * can write `return error("cannot open '%s': %m", path);`
 */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* warning - print "PROG: warning: MSG\n" to stderr */
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* note - print "PROG: MSG\n" to stderr */
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Allocation that aborts with a message on failure (programs only). */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Say "out of memory allocating n bytes" and exit 1. */
void *xalloc_die(size_t n) __attribute__((noreturn));

/* Undo sbuf_add_escaped in place; returns s. */
char *unescape_field(char *s);

/*
 * open_raw, opendir_raw, fopen_raw - open(2), opendir(3) and fopen(3)
 * through the openat system call itself, never the C library's open
 * functions: while iorec's uprobes sit on those (names from the C
 * library), each of iorec's own opens would take two traps (the
 * breakpoint and its single step), some thousand per snapshot of /proc.
 * O_CLOEXEC is always added; fopen_raw opens for reading ("re").  They
 * return what the functions they stand for return (errno set).
 */
int open_raw(const char *path, int flags, mode_t mode);
DIR *opendir_raw(const char *path);
FILE *fopen_raw(const char *path);

/*
 * read_whole_file - read path (a regular, /proc or /sys file) into a new
 * NUL-terminated buffer.  Returns the length, or -1 with errno set.
 */
ssize_t read_whole_file(const char *path, char **out);

/*
 * write_full - write all of buf to fd, retrying on EINTR and short writes.
 * Returns 0, or -1 with errno set (ENOSPC, EIO, EPIPE, ...).
 */
int write_full(int fd, const void *buf, size_t len);

/* Nanoseconds of CLOCK_MONOTONIC and CLOCK_REALTIME. */
uint64_t now_mono_ns(void);
uint64_t now_real_ns(void);

/*
 * parse_long - the whole decimal number s, if it is from min to max, into
 * *out (an option's count).  Returns 0, or -1.
 */
int parse_long(const char *s, long min, long max, long *out);
/*
 * parse_number - the decimal number (not negative, not NaN) at the start
 * of s into *v, *end after it, for the parsers of sizes, durations and
 * seconds.  Returns 0, or -1.
 */
int parse_number(const char *s, double *v, char **end);
/*
 * getopt_name - the option getopt_long() (with opterr 0) just refused,
 * as the user wrote it: "--name" of a long option (without "=VALUE"),
 * else "-X" of optopt, in buf.  For the message of a usage error.
 */
const char *getopt_name(char **argv, char buf[64]);
/* Parse a size like "64M", "512k", "1G" (powers of 1024).  -1 if invalid. */
int64_t parse_size(const char *s);
/* Parse a duration like "10", "1.5s", "500ms", "2m".  Returns ns, -1 if invalid. */
int64_t parse_duration(const char *s);

#endif /* IOREC_UTIL_H */
