// SPDX-License-Identifier: MIT
/*
 * sbuf.c - the growable string of sbuf.h.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/sbuf.h"

/* Room for extra more bytes and the NUL; 0, or -AN_E_NOMEM (err set). */
static int grow(struct sbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;

	if (sb->err)
		return sb->err;
	if (need < sb->len || an_grow(&sb->buf, &sb->alloc, need, 1, 64))
		return sb->err = -AN_E_NOMEM;
	return 0;
}

void sbuf_add(struct sbuf *sb, const void *data, size_t len)
{
	if (grow(sb, len))
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
	if (n < 0 || grow(sb, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

void sbuf_reset(struct sbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

char *sbuf_detach(struct sbuf *sb)
{
	char *s = sb->err ? NULL : sb->buf;

	if (sb->err)
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
	sb->err = 0;
}
