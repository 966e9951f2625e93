// SPDX-License-Identifier: MIT
/*
 * busy.c - the time a device was busy, from its requests' spans (see
 * busy.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "stats/busy.h"

int busy_add(struct busy *b, uint64_t start, uint64_t end)
{
	size_t i, j;

	if (start < b->floor)
		start = b->floor;
	if (end <= start)
		return 0;
	/* the first segment that ends at or after start */
	for (i = b->n; i > 0 && b->seg[2 * (i - 1) + 1] >= start; i--)
		;
	/* the segments from i that begin at or before end merge with it */
	for (j = i; j < b->n && b->seg[2 * j] <= end; j++) {
		if (b->seg[2 * j] < start)
			start = b->seg[2 * j];
		if (b->seg[2 * j + 1] > end)
			end = b->seg[2 * j + 1];
	}
	if (j == i) {
		/* no overlap: insert at i */
		if (an_grow(&b->seg, &b->alloc, 2 * (b->n + 1), sizeof(*b->seg),
			    16))
			return -AN_E_NOMEM;
		memmove(&b->seg[2 * (i + 1)], &b->seg[2 * i],
			(b->n - i) * 2 * sizeof(*b->seg));
		b->n++;
	} else if (j > i + 1) {
		/* segments i..j-1 become one */
		memmove(&b->seg[2 * (i + 1)], &b->seg[2 * j],
			(b->n - j) * 2 * sizeof(*b->seg));
		b->n -= j - i - 1;
	}
	b->seg[2 * i] = start;
	b->seg[2 * i + 1] = end;
	if (b->n > BUSY_SEGS) {
		/* the oldest: counted, and the floor moves past it */
		b->counted += b->seg[1] - b->seg[0];
		b->periods++;
		b->floor = b->seg[1];
		memmove(&b->seg[0], &b->seg[2], (b->n - 1) * 2 * sizeof(*b->seg));
		b->n--;
	}
	return 0;
}

uint64_t busy_cut(struct busy *b, uint64_t t)
{
	uint64_t sum = b->counted;
	size_t i;

	for (i = 0; i < b->n && b->seg[2 * i] < t; i++) {
		if (b->seg[2 * i + 1] > t) {
			sum += t - b->seg[2 * i];
			b->seg[2 * i] = t;
			break;
		}
		sum += b->seg[2 * i + 1] - b->seg[2 * i];
		b->periods++;
	}
	memmove(&b->seg[0], &b->seg[2 * i], (b->n - i) * 2 * sizeof(*b->seg));
	b->n -= i;
	b->counted = 0;
	if (t > b->floor)
		b->floor = t;
	return sum;
}

void busy_release(struct busy *b)
{
	free(b->seg);
	memset(b, 0, sizeof(*b));
}
