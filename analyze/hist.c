// SPDX-License-Identifier: MIT
/*
 * hist.c - latency samples with exact percentiles and log2 microsecond
 * slots.  Data only: printing is the sinks' job.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "hist.h"

static int slot_of(uint64_t ns)
{
	uint64_t us = ns / 1000;
	int s = 0;

	while (us > 1 && s < HIST_SLOTS - 1) {
		us >>= 1;
		s++;
	}
	return s;
}

void hist_add(struct hist *h, uint64_t ns)
{
	if (h->n == h->alloc) {
		h->alloc = h->alloc ? h->alloc * 2 : 256;
		h->v = xrealloc(h->v, sizeof(*h->v) * h->alloc);
	}
	h->v[h->n++] = ns;
	h->slot[slot_of(ns)]++;
	h->sum += ns;
	h->sorted = 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void hist_sort(struct hist *h)
{
	if (!h->sorted && h->n)
		qsort(h->v, h->n, sizeof(*h->v), cmp_u64);
	h->sorted = 1;
}

uint64_t hist_pct(const struct hist *h, double p)
{
	size_t rank;

	if (!h->n)
		return 0;
	/* nearest rank: the smallest value with at least p% at or below */
	rank = (size_t)((p / 100.0) * (double)h->n + 0.999999);
	if (rank < 1)
		rank = 1;
	if (rank > h->n)
		rank = h->n;
	return h->v[rank - 1];
}

uint64_t hist_max(const struct hist *h)
{
	return h->n ? h->v[h->n - 1] : 0;
}

int hist_slots_used(const struct hist *h)
{
	int used = 0;

	for (int i = 0; i < HIST_SLOTS; i++)
		if (h->slot[i])
			used = i + 1;
	return used;
}

void hist_release(struct hist *h)
{
	free(h->v);
	memset(h, 0, sizeof(*h));
}
