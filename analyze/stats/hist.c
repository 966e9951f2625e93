// SPDX-License-Identifier: MIT
/*
 * hist.c - the log-linear latency histogram of hist.h: bounded memory,
 * exact count/sum/min/max, interpolated percentiles, log2 view.
 */
#include "config.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "stats/hist.h"

int hist_bucket(uint64_t ns)
{
	int msb;

	if (ns < HIST_SUB)
		return (int)ns;
	msb = 63 - __builtin_clzll(ns);
	return (msb - HIST_SUB_BITS + 1) * HIST_SUB +
	       (int)((ns >> (msb - HIST_SUB_BITS)) & (HIST_SUB - 1));
}

void hist_bounds(int i, uint64_t *lo, uint64_t *hi)
{
	int g = i / HIST_SUB, sub = i % HIST_SUB, shift;

	assert(i >= 0 && i < HIST_BUCKETS);
	if (g == 0) {
		*lo = *hi = (uint64_t)i;
		return;
	}
	shift = g - 1;
	*lo = (uint64_t)(HIST_SUB + sub) << shift;
	*hi = *lo + ((1ULL << shift) - 1);
}

static int group_of(uint64_t ns)
{
	return hist_bucket(ns) / HIST_SUB;
}

/*
 * Make the bucket array cover groups [lo, hi] besides those it covers;
 * 0, or -AN_E_NOMEM with h unchanged.
 */
static int cover(struct hist *h, int lo, int hi)
{
	int g0 = h->g0, ng = h->ng, n0, n1;
	uint64_t *b;

	if (h->b && lo >= g0 && hi < g0 + ng)
		return 0;
	n0 = h->b && g0 < lo ? g0 : lo;
	n1 = h->b && g0 + ng - 1 > hi ? g0 + ng - 1 : hi;
	b = an_calloc((size_t)(n1 - n0 + 1) * HIST_SUB, sizeof(*b));
	if (!b)
		return -AN_E_NOMEM;
	if (h->b)
		memcpy(b + (g0 - n0) * HIST_SUB, h->b,
		       (size_t)ng * HIST_SUB * sizeof(*b));
	free(h->b);
	h->b = b;
	h->g0 = (uint8_t)n0;
	h->ng = (uint8_t)(n1 - n0 + 1);
	return 0;
}

/* The counter of bucket i, inside the array's groups. */
static inline uint64_t *slot_of(const struct hist *h, int i)
{
	return &h->b[i - h->g0 * HIST_SUB];
}

/* Bucket indexes [*lo, *hi) the array covers; empty without one. */
static void span(const struct hist *h, int *lo, int *hi)
{
	*lo = h->b ? h->g0 * HIST_SUB : 0;
	*hi = h->b ? (h->g0 + h->ng) * HIST_SUB : 0;
}

/*
 * The inline samples, and ns beside them, into buckets; 0, or
 * -AN_E_NOMEM with h unchanged.
 */
static int spill(struct hist *h, uint64_t ns)
{
	int lo = group_of(ns), hi = lo;

	for (uint64_t i = 0; i < h->count && i < HIST_INLINE; i++) {
		int g = group_of(h->small[i]);

		lo = g < lo ? g : lo;
		hi = g > hi ? g : hi;
	}
	if (cover(h, lo, hi) < 0)
		return -AN_E_NOMEM;
	for (uint64_t i = 0; i < h->count && i < HIST_INLINE; i++)
		(*slot_of(h, hist_bucket(h->small[i])))++;
	return 0;
}

int hist_add(struct hist *h, uint64_t ns)
{
	int i = hist_bucket(ns), g = i / HIST_SUB;

	/* past the inline samples: buckets, grown to g when it is outside */
	if (h->count >= HIST_INLINE &&
	    (!h->b || g < h->g0 || g >= h->g0 + h->ng)) {
		if (!h->b ? spill(h, ns) < 0 : cover(h, g, g) < 0)
			return -AN_E_NOMEM;
	}
	if (!h->count || ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
	h->sum = h->sum + ns < h->sum ? UINT64_MAX : h->sum + ns;
	if (h->count < HIST_INLINE) {
		h->small[h->count++] = ns;
		return 0;
	}
	(*slot_of(h, i))++;
	h->count++;
	return 0;
}

int hist_merge(struct hist *dst, const struct hist *src)
{
	int lo, hi;

	if (!src->count)
		return 0;
	if (!src->b) {
		for (uint64_t i = 0; i < src->count; i++)
			if (hist_add(dst, src->small[i]) < 0)
				return -AN_E_NOMEM;
		return 0;
	}
	if (!dst->b && spill(dst, src->min) < 0)
		return -AN_E_NOMEM;
	if (cover(dst, src->g0, src->g0 + src->ng - 1) < 0)
		return -AN_E_NOMEM;
	span(src, &lo, &hi);
	for (int i = lo; i < hi; i++)
		*slot_of(dst, i) += *slot_of(src, i);
	if (!dst->count || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->sum = dst->sum + src->sum < dst->sum ? UINT64_MAX :
		   dst->sum + src->sum;
	dst->count += src->count;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t rank_of(const struct hist *h, double p)
{
	double r = p / 100.0 * (double)h->count;
	uint64_t rank = (uint64_t)r;

	if ((double)rank < r)
		rank++;		/* ceil: the smallest with >= p% at or below */
	if (rank < 1)
		rank = 1;
	if (rank > h->count)
		rank = h->count;
	return rank;
}

uint64_t hist_pct(const struct hist *h, double p)
{
	uint64_t rank, cum = 0, lo, hi, v;
	int first, end;
	double pos;

	if (!h->count)
		return 0;
	if (p >= 100.0)
		return h->max;
	rank = rank_of(h, p);
	if (!h->b) {
		uint64_t s[HIST_INLINE];

		memcpy(s, h->small, sizeof(s));
		qsort(s, h->count, sizeof(*s), cmp_u64);
		return s[rank - 1];
	}
	span(h, &first, &end);
	for (int i = first; i < end; i++) {
		uint64_t n = *slot_of(h, i);

		if (cum + n < rank) {
			cum += n;
			continue;
		}
		hist_bounds(i, &lo, &hi);
		/* the k-th of n samples spread evenly over the bucket */
		pos = ((double)(rank - cum) - 0.5) / (double)n;
		v = lo + (uint64_t)(pos * (double)(hi - lo + 1));
		if (v < h->min)
			v = h->min;
		if (v > h->max)
			v = h->max;
		return v;
	}
	return h->max;
}

/* Samples of h in bucket i. */
static uint64_t bucket_count(const struct hist *h, int i)
{
	uint64_t n = 0;
	int lo, hi;

	span(h, &lo, &hi);
	if (h->b)
		return i >= lo && i < hi ? *slot_of(h, i) : 0;
	for (uint64_t k = 0; k < h->count; k++)
		n += hist_bucket(h->small[k]) == i;
	return n;
}

int hist_next_bucket(const struct hist *h, int *pos, uint64_t *lo,
		     uint64_t *hi, uint64_t *count)
{
	int i = *pos;

	if (!h->b) {
		/* the smallest bucket >= *pos holding an inline sample */
		int best = HIST_BUCKETS;

		for (uint64_t k = 0; k < h->count; k++) {
			int b = hist_bucket(h->small[k]);

			if (b >= i && b < best)
				best = b;
		}
		i = best;
	} else {
		int lo, hi;

		span(h, &lo, &hi);
		if (i < lo)
			i = lo;
		while (i < hi && !*slot_of(h, i))
			i++;
		if (i >= hi)
			i = HIST_BUCKETS;
	}
	if (i >= HIST_BUCKETS)
		return 0;
	hist_bounds(i, lo, hi);
	*count = bucket_count(h, i);
	*pos = i + 1;
	return 1;
}

/* The bin of v: 0 for 0, else b for v in [2^(b-1), 2^b), at most max. */
static int bin_of(uint64_t v, int max)
{
	int b = v ? 64 - __builtin_clzll(v) : 0;

	return b < max ? b : max;
}

void hist_bins(const struct hist *h, uint64_t unit, uint64_t *bins, int nbins)
{
	uint64_t lo, hi, n;
	int pos = 0;

	memset(bins, 0, sizeof(uint64_t) * (size_t)nbins);
	if (!h->b) {
		/* the inline samples are exact: no bucket midpoint */
		for (uint64_t k = 0; k < h->count && k < HIST_INLINE; k++)
			bins[bin_of(h->small[k] / unit, nbins - 1)]++;
		return;
	}
	while (hist_next_bucket(h, &pos, &lo, &hi, &n))
		bins[bin_of((lo + (hi - lo) / 2) / unit, nbins - 1)] += n;
}

int hist_log2_us(const struct hist *h, uint64_t slot[HIST_SLOTS])
{
	return hist_log2(h, HIST_US, slot);
}

uint64_t hist_log2_unit(const struct hist *h)
{
	/* the smallest unit whose rows up to the p99 are at most 12 */
	uint64_t p99 = hist_pct(h, 99);

	if (p99 < 4096 * HIST_US)
		return HIST_US;
	return p99 < 4096 * HIST_MS ? HIST_MS : HIST_S;
}

int hist_log2(const struct hist *h, uint64_t unit, uint64_t slot[HIST_SLOTS])
{
	uint64_t bins[HIST_SLOTS + 1];
	int used = 0;

	/* slot 0 holds 0 and 1 units, slot i the bin of [2^i, 2^(i+1)) */
	hist_bins(h, unit, bins, HIST_SLOTS + 1);
	slot[0] = bins[0] + bins[1];
	for (int i = 1; i < HIST_SLOTS; i++)
		slot[i] = bins[i + 1];
	for (int i = 0; i < HIST_SLOTS; i++)
		if (slot[i])
			used = i + 1;
	return used;
}

void hist_release(struct hist *h)
{
	free(h->b);
	memset(h, 0, sizeof(*h));
}

/* ------------------------------------------------------------------ */
/* Request sizes */

int hist_log2_slot(uint64_t v, uint64_t unit, int nslots)
{
	uint64_t u = v / unit;
	int k = 0;

	while (u > 1 && k < nslots - 1) {
		u >>= 1;
		k++;
	}
	return k;
}

int sizehist_slot(uint64_t bytes)
{
	return hist_log2_slot(bytes, 1024, SIZEHIST_SLOTS);
}

void sizehist_bounds(int k, uint64_t *lo, uint64_t *hi)
{
	*lo = k ? 1024ULL << k : 0;
	*hi = k == SIZEHIST_SLOTS - 1 ? UINT64_MAX : (2048ULL << k) - 1;
}

void sizehist_add(struct sizehist *h, uint64_t bytes)
{
	if (!bytes)
		return;
	h->n[sizehist_slot(bytes)]++;
	h->count++;
	h->bytes += bytes;
}

void sizehist_merge(struct sizehist *d, const struct sizehist *s)
{
	for (int k = 0; k < SIZEHIST_SLOTS; k++)
		d->n[k] += s->n[k];
	d->count += s->count;
	d->bytes += s->bytes;
}
