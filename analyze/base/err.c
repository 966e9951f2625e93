// SPDX-License-Identifier: MIT
/*
 * err.c - the analyzer's error codes and messages, and allocation that
 * fails instead of exiting (see err.h).
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"

#define _AN_E(name, text) text,
static const char *const texts[] = { AN_ERRORS };
#undef _AN_E

const char *an_strerror(int code)
{
	if (code < 0)
		code = -code;
	if (code <= AN_E_FIRST || code >= AN_E_LAST)
		return "?";
	return texts[code - AN_E_FIRST - 1];
}

int an_vfail(struct an_err *e, int code, const char *fmt, va_list ap)
{
	if (code < 0)
		code = -code;
	if (e) {
		e->code = code;
		vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	}
	return -code;
}

int an_fail(struct an_err *e, int code, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = an_vfail(e, code, fmt, ap);
	va_end(ap);
	return rc;
}

int an_nomem(struct an_err *e, const char *what)
{
	return an_fail(e, AN_E_NOMEM, "%s: out of memory", what);
}

void *an_calloc(size_t n, size_t size)
{
	return calloc(n ? n : 1, size ? size : 1);
}

void *an_reallocarray(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	n *= size;
	return realloc(p, n ? n : 1);
}

char *an_strdup(const char *s)
{
	return strdup(s);
}

char *an_asprintf(const char *fmt, ...)
{
	va_list ap;
	char *p = NULL;

	va_start(ap, fmt);
	if (vasprintf(&p, fmt, ap) < 0)
		p = NULL;	/* its content is undefined then */
	va_end(ap);
	return p;
}

int an_grow(void *v, size_t *alloc, size_t need, size_t size, size_t min)
{
	void **vp = v;
	size_t n = *alloc ? *alloc : min;
	void *q;

	if (need <= *alloc)
		return 0;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return -AN_E_NOMEM;
		n *= 2;
	}
	q = an_reallocarray(*vp, n, size);
	if (!q)
		return -AN_E_NOMEM;
	*vp = q;
	*alloc = n;
	return 0;
}

void *an_push(void *v, size_t *n, size_t *alloc, size_t size, size_t min)
{
	char *e;

	if (an_grow(v, alloc, *n + 1, size, min))
		return NULL;
	e = (char *)*(void **)v + (*n)++ * size;
	memset(e, 0, size);
	return e;
}
