// SPDX-License-Identifier: MIT
/*
 * util.c - messages, allocation, growable strings and checked I/O shared by
 * iorec and ioreport.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sbuf.h"
#include "util.h"

const char *util_progname = "iorec";

static void vmsg(const char *kind, const char *fmt, va_list ap)
{
	char buf[4096];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (kind)
		fprintf(stderr, "%s: %s: %s\n", util_progname, kind, buf);
	else
		fprintf(stderr, "%s: %s\n", util_progname, buf);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning", fmt, ap);
	va_end(ap);
}

void note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(NULL, fmt, ap);
	va_end(ap);
}

void *xalloc_die(size_t n)
{
	fprintf(stderr, "%s: error: out of memory allocating %zu bytes\n",
		util_progname, n);
	exit(1);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	return p ? p : xalloc_die(n);
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	return p ? p : xalloc_die(n * size);
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	return q ? q : xalloc_die(n);
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	return p ? p : xalloc_die(strlen(s) + 1);
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&p, fmt, ap);
	va_end(ap);
	if (n < 0)
		xalloc_die(strlen(fmt));
	return p;
}

char *unescape_field(char *s)
{
	char *r = s, *w = s;

	while (*r) {
		if (*r == '\\' && r[1]) {
			r++;
			*w++ = *r == 't' ? '\t' : *r == 'n' ? '\n' : *r;
			r++;
		} else {
			*w++ = *r++;
		}
	}
	*w = '\0';
	return s;
}

int open_raw(const char *path, int flags, mode_t mode)
{
#ifdef O_LARGEFILE
	/* what the C library's open adds on a 32-bit ABI: the recording
	 * grows past 2 GiB */
	flags |= O_LARGEFILE;
#endif
	return (int)syscall(SYS_openat, AT_FDCWD, path, flags | O_CLOEXEC,
			    mode);
}

/* Close fd, which a failed fdopen or fdopendir leaves open, keeping errno. */
static void close_failed(int fd)
{
	int saved = errno;

	close(fd);
	errno = saved;
}

DIR *opendir_raw(const char *path)
{
	int fd = open_raw(path, O_RDONLY | O_DIRECTORY, 0);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);

	if (fd >= 0 && !d)
		close_failed(fd);
	return d;
}

FILE *fopen_raw(const char *path)
{
	int fd = open_raw(path, O_RDONLY, 0);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");

	if (fd >= 0 && !f)
		close_failed(fd);
	return f;
}

ssize_t read_whole_file(const char *path, char **out)
{
	struct sbuf sb = SBUF_INIT_FATAL;
	int fd = open_raw(path, O_RDONLY, 0);
	int saved;
	size_t len;

	*out = NULL;
	if (fd < 0)
		return -1;
	for (;;) {
		ssize_t n;

		sbuf_grow(&sb, 4096);
		n = read(fd, sb.buf + sb.len, sb.alloc - sb.len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			saved = errno;
			close(fd);
			sbuf_release(&sb);
			errno = saved;
			return -1;
		}
		if (n == 0)
			break;
		sb.len += (size_t)n;
		sb.buf[sb.len] = '\0';
	}
	close(fd);
	len = sb.len;
	*out = sbuf_detach(&sb);
	return (ssize_t)len;
}

int write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0) {
			errno = EIO;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t now_mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

uint64_t now_real_ns(void)
{
	return clock_ns(CLOCK_REALTIME);
}

const char *getopt_name(char **argv, char buf[64])
{
	const char *a = argv[optind - 1];

	/* a long option is a word of its own; short ones may be clustered */
	if (optind > 1 && !strncmp(a, "--", 2) && a[2])
		snprintf(buf, 64, "%.*s", (int)strcspn(a, "="), a);
	else if (optopt > 0 && optopt < 256)
		snprintf(buf, 64, "-%c", optopt);
	else
		snprintf(buf, 64, "%s", a);
	return buf;
}

int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_number(const char *s, double *v, char **end)
{
	errno = 0;
	*v = strtod(s, end);
	return errno || *end == s || !(*v >= 0) ? -1 : 0;
}

int64_t parse_size(const char *s)
{
	char *end;
	double v;
	double mul = 1;

	if (parse_number(s, &v, &end) < 0)
		return -1;
	switch (tolower((unsigned char)*end)) {
	case '\0': break;
	case 'k': mul = 1024.0; end++; break;
	case 'm': mul = 1024.0 * 1024; end++; break;
	case 'g': mul = 1024.0 * 1024 * 1024; end++; break;
	default: return -1;
	}
	if (*end == 'i' || *end == 'I')
		end++;
	if (*end == 'b' || *end == 'B')
		end++;
	if (*end)
		return -1;
	return (int64_t)(v * mul);
}

int64_t parse_duration(const char *s)
{
	static const struct { const char *suffix; double ns; } units[] = {
		{ "", 1e9 }, { "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 },
		{ "m", 60e9 }, { "min", 60e9 }, { "h", 3600e9 },
	};
	char *end;
	double v;
	size_t i;

	if (parse_number(s, &v, &end) < 0)
		return -1;
	for (i = 0; i < ARRAY_SIZE(units); i++)
		if (!strcmp(end, units[i].suffix))
			return (int64_t)(v * units[i].ns);
	return -1;
}
