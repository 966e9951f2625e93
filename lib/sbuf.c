// SPDX-License-Identifier: MIT
/*
 * sbuf.c - the growable string of sbuf.h.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbuf.h"
#include "util.h"

int sbuf_grow(struct sbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;
	char *p;

	if (sb->failed)
		return -1;
	if (need <= sb->alloc)
		return 0;
	if (need < sb->len)
		goto fail;
	if (need < sb->alloc * 2)
		need = sb->alloc * 2;
	if (need < 64)
		need = 64;
	p = sb->fatal ? xrealloc(sb->buf, need) : realloc(sb->buf, need);
	if (!p)
		goto fail;
	sb->buf = p;
	sb->alloc = need;
	return 0;
fail:
	if (sb->fatal)
		xalloc_die(need);
	sb->failed = true;
	return -1;
}

void sbuf_add(struct sbuf *sb, const void *data, size_t len)
{
	if (sbuf_grow(sb, len))
		return;
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void sbuf_addstr(struct sbuf *sb, const char *s)
{
	sbuf_add(sb, s, strlen(s));
}

void sbuf_addch(struct sbuf *sb, int c)
{
	char ch = (char)c;

	sbuf_add(sb, &ch, 1);
}

void sbuf_addf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || sbuf_grow(sb, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

void sbuf_add_escaped(struct sbuf *sb, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '\\': sbuf_add(sb, "\\\\", 2); break;
		case '\t': sbuf_add(sb, "\\t", 2); break;
		case '\n': sbuf_add(sb, "\\n", 2); break;
		default: sbuf_addch(sb, *s); break;
		}
	}
}

void sbuf_reset(struct sbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

char *sbuf_detach(struct sbuf *sb)
{
	char *s = sb->failed ? NULL : sb->buf;

	if (sb->failed)
		free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
	return s;
}

void sbuf_release(struct sbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
	sb->failed = false;
}
