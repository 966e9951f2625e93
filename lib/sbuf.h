/* SPDX-License-Identifier: MIT */
/*
 * sbuf.h - a growable NUL-terminated string, the one of both programs.
 *
 * By default it never exits: a failed growth sets sb.failed and drops
 * what would not fit, so code can add to it freely and check once at
 * the end (the analyzer's way).  A buffer made with SBUF_INIT_FATAL
 * exits with a message instead, as xmalloc() does (the recorder's way).
 */
#ifndef IOREC_SBUF_H
#define IOREC_SBUF_H

#include <stdbool.h>
#include <stddef.h>

struct sbuf {
	char *buf;		/* NULL until something is added */
	size_t len, alloc;
	bool failed;		/* sticky: a growth failed */
	bool fatal;		/* a failed growth exits (programs only) */
};

#define SBUF_INIT { NULL, 0, 0, false, false }
#define SBUF_INIT_FATAL { NULL, 0, 0, false, true }

/* Room for extra more bytes and the NUL; 0, or -1 (failed set). */
int sbuf_grow(struct sbuf *sb, size_t extra);
void sbuf_add(struct sbuf *sb, const void *data, size_t len);
void sbuf_addstr(struct sbuf *sb, const char *s);
void sbuf_addch(struct sbuf *sb, int c);
void sbuf_addf(struct sbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* s with '\\', '\t', '\n' escaped as \\\\, \\t, \\n (for TSV fields). */
void sbuf_add_escaped(struct sbuf *sb, const char *s);
/* Empty the string (keeps the memory and the failure). */
void sbuf_reset(struct sbuf *sb);
/*
 * The string, now the caller's (free it), and sb emptied; NULL when
 * nothing was added or after a failure (the string is freed then).
 */
char *sbuf_detach(struct sbuf *sb);
void sbuf_release(struct sbuf *sb);

#endif /* IOREC_SBUF_H */
