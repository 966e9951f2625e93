/* SPDX-License-Identifier: MIT */
/*
 * heap.h - the N slowest of a stream: a bounded min-heap whose root is
 * the least slow element kept, so a newcomer either replaces the root or
 * is dropped.  One implementation serves the slowest requests and the
 * slowest syscalls; "slower" is a strict order, ties broken by identity
 * so the result does not depend on arrival order.
 */
#ifndef IOREPORT_BASE_HEAP_H
#define IOREPORT_BASE_HEAP_H

#include <stdbool.h>
#include <stddef.h>

/* Whether x is strictly slower than y. */
typedef bool (*slower_fn)(const void *x, const void *y);

/*
 * heap_offer - offer element e (size bytes) to the heap base of *n
 * elements (at most cap): kept when the heap has room or e is slower than
 * its least slow element, which it then replaces.
 */
void heap_offer(void *base, size_t *n, size_t cap, size_t size,
		slower_fn slower, const void *e);

#endif /* IOREPORT_BASE_HEAP_H */
