// SPDX-License-Identifier: MIT
/*
 * fmt-util.c - the helpers the .iorec and the trace.dat writers and
 * readers share.
 */
#include "fmt-util.h"

const char *fmt_strerror(const char *const *str, int max, int err)
{
	if (err < 0)
		err = -err;
	if (err >= max)
		return "unknown error";
	return str[err];
}
