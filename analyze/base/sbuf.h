/* SPDX-License-Identifier: MIT */
/*
 * sbuf.h - a growable NUL-terminated string that never exits: a failed
 * growth sets its error and drops what would not fit, so code can add
 * to it freely and check once (sbuf.err) at the end.
 */
#ifndef IOREPORT_BASE_SBUF_H
#define IOREPORT_BASE_SBUF_H

#include <stddef.h>

struct sbuf {
	char *buf;		/* NULL until something is added */
	size_t len, alloc;
	int err;		/* sticky: -AN_E_NOMEM */
};

#define SBUF_INIT { NULL, 0, 0, 0 }

void sbuf_add(struct sbuf *sb, const void *data, size_t len);
void sbuf_addstr(struct sbuf *sb, const char *s);
void sbuf_addch(struct sbuf *sb, int c);
void sbuf_addf(struct sbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Empty the string (keeps the memory and the error). */
void sbuf_reset(struct sbuf *sb);
/*
 * The string, now the caller's (free it), and sb emptied; NULL when
 * nothing was added or after an error (the string is freed then).
 */
char *sbuf_detach(struct sbuf *sb);
void sbuf_release(struct sbuf *sb);

#endif /* IOREPORT_BASE_SBUF_H */
