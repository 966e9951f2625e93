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

/*
 * Merge [start, end) into the n sorted, disjoint pairs of *v (grown as
 * needed); *covered (when not NULL) gets the ns of it they covered
 * already.  0, or -AN_E_NOMEM.
 */
static int seg_merge(uint64_t **v, size_t *n, size_t *alloc, uint64_t start,
		     uint64_t end, uint64_t *covered)
{
	uint64_t s = start, e = end, *p = *v;
	size_t i, j;

	/* the first pair that ends at or after start (spans come late) */
	for (i = *n; i > 0 && p[2 * (i - 1) + 1] >= start; i--)
		;
	/* the pairs from i that begin at or before end merge with it */
	for (j = i; j < *n && p[2 * j] <= end; j++) {
		uint64_t lo = p[2 * j] > start ? p[2 * j] : start;
		uint64_t hi = p[2 * j + 1] < end ? p[2 * j + 1] : end;

		if (covered && hi > lo)
			*covered += hi - lo;
		if (p[2 * j] < s)
			s = p[2 * j];
		if (p[2 * j + 1] > e)
			e = p[2 * j + 1];
	}
	if (j == i) {
		/* no overlap: insert at i */
		if (an_grow(v, alloc, 2 * (*n + 1), sizeof(**v), 16))
			return -AN_E_NOMEM;
		p = *v;
		memmove(&p[2 * (i + 1)], &p[2 * i], (*n - i) * 2 * sizeof(*p));
		(*n)++;
	} else if (j > i + 1) {
		/* pairs i..j-1 become one */
		memmove(&p[2 * (i + 1)], &p[2 * j], (*n - j) * 2 * sizeof(*p));
		*n -= j - i - 1;
	}
	p[2 * i] = s;
	p[2 * i + 1] = e;
	return 0;
}

/*
 * Merge [start, end) into the counted segments below the floor (the
 * oldest dropped past BUSY_SEGS): the ns of it that none of them
 * covered, or -AN_E_NOMEM.
 */
static int64_t done_add(struct busy *b, uint64_t start, uint64_t end)
{
	uint64_t covered = 0;

	if (start < b->known)
		start = b->known;
	if (end <= start)
		return 0;
	if (seg_merge(&b->done, &b->nd, &b->dalloc, start, end, &covered))
		return -AN_E_NOMEM;
	if (b->nd > BUSY_SEGS) {
		b->known = b->done[1];
		memmove(&b->done[0], &b->done[2],
			(b->nd - 1) * 2 * sizeof(*b->done));
		b->nd--;
	}
	return (int64_t)(end - start - covered);
}

int busy_add(struct busy *b, uint64_t start, uint64_t end)
{
	if (start < b->floor) {
		/* the part before the floor that no counted span covered */
		int64_t late = done_add(b, start,
					end < b->floor ? end : b->floor);

		if (late < 0)
			return (int)late;
		b->counted += (uint64_t)late;
		start = b->floor;
	}
	if (end <= start)
		return 0;
	if (seg_merge(&b->seg, &b->n, &b->alloc, start, end, NULL))
		return -AN_E_NOMEM;
	if (b->n > BUSY_SEGS) {
		/* the oldest: counted, and the floor moves past it */
		b->counted += b->seg[1] - b->seg[0];
		b->periods++;
		b->floor = b->seg[1];
		if (done_add(b, b->seg[0], b->seg[1]) < 0)
			return -AN_E_NOMEM;
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
		uint64_t a = b->seg[2 * i];

		if (b->seg[2 * i + 1] > t) {
			sum += t - a;
			b->seg[2 * i] = t;
			/* remembered as counted (no memory: a late span
			 * may count it again, never more than once more) */
			(void)done_add(b, a, t);
			break;
		}
		sum += b->seg[2 * i + 1] - a;
		(void)done_add(b, a, b->seg[2 * i + 1]);
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
	free(b->done);
	memset(b, 0, sizeof(*b));
}
