/* SPDX-License-Identifier: MIT */
/*
 * strlist.h - comma-separated lists of names, as mount options and a
 * process's comms are kept: walked in place, never copied.
 */
#ifndef IOREPORT_BASE_STRLIST_H
#define IOREPORT_BASE_STRLIST_H

#include <stdbool.h>
#include <stddef.h>

/*
 * strlist_next - the next item of the list at *pos (an item may be empty)
 *
 * Returns true with *item and *len set and *pos moved past the item,
 * false at the end (*pos NULL or "").
 */
bool strlist_next(const char **pos, const char **item, size_t *len);
/* Whether the len bytes at tok are exactly one of the items of list. */
bool strlist_has(const char *list, const char *tok, size_t len);

#endif /* IOREPORT_BASE_STRLIST_H */
