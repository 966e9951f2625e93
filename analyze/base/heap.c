// SPDX-License-Identifier: MIT
/*
 * heap.c - the bounded min-heap of heap.h.
 */
#include "config.h"

#include <string.h>

#include "base/heap.h"

static void elem_swap(char *v, size_t size, size_t i, size_t j)
{
	char *x = v + i * size, *y = v + j * size;

	for (size_t k = 0; k < size; k++) {
		char t = x[k];

		x[k] = y[k];
		y[k] = t;
	}
}

static void heap_sift_down(char *v, size_t n, size_t size, slower_fn slower,
			   size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < n && slower(v + m * size, v + l * size))
			m = l;
		if (r < n && slower(v + m * size, v + r * size))
			m = r;
		if (m == i)
			return;
		elem_swap(v, size, i, m);
		i = m;
	}
}

void heap_offer(void *base, size_t *n, size_t cap, size_t size,
		       slower_fn slower, const void *e)
{
	char *v = base;
	size_t i;

	if (!cap)
		return;
	if (*n == cap) {
		if (!slower(e, v))
			return;
		memcpy(v, e, size);
		heap_sift_down(v, *n, size, slower, 0);
		return;
	}
	i = (*n)++;
	memcpy(v + i * size, e, size);
	while (i > 0) {
		size_t p = (i - 1) / 2;

		if (!slower(v + p * size, v + i * size))
			break;
		elem_swap(v, size, i, p);
		i = p;
	}
}
