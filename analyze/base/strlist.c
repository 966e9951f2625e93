// SPDX-License-Identifier: MIT
/*
 * strlist.c - comma-separated lists of names (see strlist.h).
 */
#include "config.h"

#include <string.h>

#include "base/strlist.h"

bool strlist_next(const char **pos, const char **item, size_t *len)
{
	const char *p = *pos, *c;

	if (!p || !*p)
		return false;
	c = strchr(p, ',');
	*item = p;
	*len = c ? (size_t)(c - p) : strlen(p);
	*pos = c ? c + 1 : NULL;
	return true;
}

bool strlist_has(const char *list, const char *tok, size_t len)
{
	const char *item;
	size_t n;

	while (strlist_next(&list, &item, &n))
		if (n == len && !strncmp(item, tok, len))
			return true;
	return false;
}
