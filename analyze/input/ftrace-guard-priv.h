/* SPDX-License-Identifier: MIT */
/*
 * ftrace-guard-priv.h - what the two halves of the ftrace guard share
 * (ftrace-guard.c: event formats; ftrace-guard-text.c: header_page,
 * printk formats, saved cmdlines, kallsyms, ring buffer pages).
 */
#ifndef IOREPORT_FTRACE_GUARD_PRIV_H
#define IOREPORT_FTRACE_GUARD_PRIV_H

#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "input/ftrace-guard.h"

#define MAX_LINE	4096

static inline int refuse(struct ftrace_verdict *v, const char *why, size_t off)
{
	if (!v->error) {
		v->error = why;
		v->offset = off;
	}
	return FTRACE_REFUSED;
}

/* A decimal number without a leading zero, at most max; -1 if not one. */
static inline long decimal(const char *p, size_t n, long max)
{
	long v = 0;

	if (!n || n > 10 || (n > 1 && p[0] == '0'))
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!isdigit((unsigned char)p[i]))
			return -1;
		v = v * 10 + (p[i] - '0');
		if (v > max)
			return -1;
	}
	return v;
}

/* The next line of [p, end): its length without the '\n'. */
static inline size_t line_len(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	return nl ? (size_t)(nl - p) : (size_t)(end - p);
}

static inline bool starts(const char *p, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && !memcmp(p, prefix, k);
}

#endif /* IOREPORT_FTRACE_GUARD_PRIV_H */
