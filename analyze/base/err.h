/* SPDX-License-Identifier: MIT */
/*
 * err.h - the analyzer's one error convention.
 *
 * A function that can fail returns a negative AN_E_* code (or NULL) and,
 * when the caller gave it one, fills the caller's struct an_err with a
 * one-line message that names the failing thing first and, where there is
 * one, the fix: "x.iorec: truncated at offset 512: ...".  The caller owns
 * the message (nothing to free) and decides what to do: only commands
 * print errors and choose exit codes.  Nothing below the commands exits:
 * allocation failure is AN_E_NOMEM like any other error.
 *
 * The codes lie below -AN_E_BASE, so a negative AN_E_* never equals a
 * -errno value, nor a negative iorec_error or tracedat_error of the format
 * library (those start at IOREC_E_BASE and TRACEDAT_E_BASE, far above).
 */
#ifndef IOREPORT_BASE_ERR_H
#define IOREPORT_BASE_ERR_H

#include <stdarg.h>
#include <stddef.h>

/* Above every errno (MAX_ERRNO is 4095), below the format library's codes
 * (input/source.c checks that at compile time). */
#define AN_E_BASE	8192

#define AN_ERRORS							\
	_AN_E(NOMEM,	"out of memory")				\
	_AN_E(IO,	"read or write failed")				\
	_AN_E(OPEN,	"cannot open the file")				\
	_AN_E(FORMAT,	"not a recording ioreport reads")		\
	_AN_E(DAMAGED,	"the recording is damaged")			\
	_AN_E(NO_EVENTS, "the recording lacks the events this needs")	\
	_AN_E(DB,	"database error")				\
	_AN_E(INVAL,	"invalid argument")

#define _AN_E(name, text) AN_E_##name,
enum an_error {
	AN_E_FIRST = AN_E_BASE,
	AN_ERRORS
	AN_E_LAST
};
#undef _AN_E

/* Room for one message line (longer ones are cut). */
#define AN_ERR_MAX	1024

struct an_err {
	int code;		/* an AN_E_* (positive), 0 when none */
	char msg[AN_ERR_MAX];
};

/* The generic text of a code given negative or positive; "?" if none. */
const char *an_strerror(int code);

/*
 * an_fail - record an error
 * @e: the caller's struct, or NULL when it wants only the code
 * @code: AN_E_*
 *
 * Returns -code, so that failing code can write
 * `return an_fail(e, AN_E_FORMAT, "%s: bad magic", path);`.
 */
int an_fail(struct an_err *e, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int an_vfail(struct an_err *e, int code, const char *fmt, va_list ap);

/* A string of lib/sbuf.h whose growth failed: -AN_E_NOMEM, else 0. */
#define AN_SBUF_ERR(sb)	((sb)->failed ? -AN_E_NOMEM : 0)

/* an_fail(e, AN_E_NOMEM, "WHAT: out of memory"); returns -AN_E_NOMEM. */
int an_nomem(struct an_err *e, const char *what);

/* Allocation that returns NULL on failure (no exit): calloc semantics. */
void *an_calloc(size_t n, size_t size);
/* realloc of n elements of size, NULL (p untouched) on failure or overflow. */
void *an_reallocarray(void *p, size_t n, size_t size);
/* strdup of s, NULL on failure. */
char *an_strdup(const char *s);
/* asprintf into a new string, NULL on failure. */
char *an_asprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * an_grow - make room for at least need elements of size in the array *v
 * of *alloc, doubling (from min); returns 0, or -AN_E_NOMEM with *v and
 * *alloc unchanged.
 */
int an_grow(void *v, size_t *alloc, size_t need, size_t size, size_t min);
/*
 * an_push - a new zeroed element at the end of the array *v of *n (*alloc
 * grown as an_grow() does); *n counts it.  NULL without memory (*v, *n
 * and *alloc unchanged).
 */
void *an_push(void *v, size_t *n, size_t *alloc, size_t size, size_t min);

#endif /* IOREPORT_BASE_ERR_H */
