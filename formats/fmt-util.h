/* SPDX-License-Identifier: MIT */
/*
 * fmt-util.h - helpers shared by the .iorec and the trace.dat code of
 * libiorec (not installed, not exported), each written once for both
 * containers.
 */
#ifndef FMT_UTIL_H
#define FMT_UTIL_H

#include <stddef.h>

/*
 * fmt_strerror - the string of an error code in a table built from an
 * X-macro error list (IOREC_ERRORS, TRACEDAT_ERRORS)
 * @str: the strings, indexed by the positive code
 * @max: their number
 * @err: the code, negative (as returned) or positive
 *
 * Return: a static string, "unknown error" for a code out of range.
 */
const char *fmt_strerror(const char *const *str, int max, int err);

#endif /* FMT_UTIL_H */
