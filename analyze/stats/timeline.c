// SPDX-License-Identifier: MIT
/*
 * timeline.c - the bins and samples the HTML page plots (timeline.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "stats/hist.h"
#include "stats/timeline.h"

#define TL_WIDTH0	1000000ULL	/* 1 ms */

struct timeline *timeline_new(uint64_t t0)
{
	struct timeline *tl = an_calloc(1, sizeof(*tl));

	if (!tl)
		return NULL;
	tl->t0 = t0;
	tl->width = TL_WIDTH0;
	tl->call_stride = 1;
	return tl;
}

void timeline_free(struct timeline *tl)
{
	if (!tl)
		return;
	for (size_t i = 0; i < tl->ndev; i++)
		free(tl->dev[i].pt);
	free(tl->dev);
	free(tl->call);
	free(tl);
}

/* Merge every two bins: the width doubles. */
static void rebin(struct timeline *tl)
{
	for (size_t d = 0; d < tl->ndev; d++) {
		struct tl_bin *b = tl->dev[d].bin;

		for (size_t i = 0; i < TL_BINS / 2; i++) {
			struct tl_bin m = b[2 * i];
			const struct tl_bin *o = &b[2 * i + 1];

			blk_tally_sum(&m.ops, &o->ops);
			m.inflight_ns += o->inflight_ns;
			for (int k = 0; k < TL_LAT; k++)
				m.lat[k] += o->lat[k];
			b[i] = m;
		}
		memset(b + TL_BINS / 2, 0, sizeof(*b) * (TL_BINS / 2));
	}
	tl->width *= 2;
	tl->nbins = (tl->nbins + 1) / 2;
}

int timeline_lat_slot(uint64_t ns)
{
	return hist_log2_slot(ns, 1000, TL_LAT);
}

size_t timeline_bin(const struct timeline *tl, uint64_t ts)
{
	uint64_t i = ts > tl->t0 ? (ts - tl->t0) / tl->width : 0;

	return i < TL_BINS ? (size_t)i : TL_BINS - 1;
}

static struct tl_dev *dev_of(struct timeline *tl, uint32_t dev)
{
	struct tl_dev *d;

	for (size_t i = 0; i < tl->ndev; i++)
		if (tl->dev[i].dev == dev)
			return &tl->dev[i];
	d = an_push(&tl->dev, &tl->ndev, &tl->adev, sizeof(*tl->dev), 4);
	if (!d) {
		tl->err = -AN_E_NOMEM;
		return NULL;
	}
	d->dev = dev;
	d->stride = 1;
	d->pt = an_calloc(TL_POINTS, sizeof(*d->pt));
	if (!d->pt)
		tl->err = -AN_E_NOMEM;
	return d;
}

/*
 * The room for item seq (from 0) of a uniform sample of at most cap items
 * of size bytes at v, *n kept, one every *stride; NULL: not kept.  When
 * full, the items of an even multiple of the stride stay and it doubles.
 */
static void *sample_room(void *v, size_t size, size_t cap, size_t *n,
			 uint64_t *stride, uint64_t seq)
{
	char *b = v;

	if (seq % *stride)
		return NULL;
	if (*n == cap) {
		for (size_t i = 1; i < cap / 2; i++)
			memcpy(b + i * size, b + 2 * i * size, size);
		*n = cap / 2;
		*stride *= 2;
		if (seq % *stride)
			return NULL;
	}
	return b + (*n)++ * size;
}

static void sample(struct tl_dev *d, const struct blk_request *rq,
		   uint64_t start)
{
	struct tl_point *p;

	if (!d->pt)
		return;
	p = sample_room(d->pt, sizeof(*d->pt), TL_POINTS, &d->npt, &d->stride,
			d->requests - 1);
	if (!p)
		return;
	p->start = start;
	p->issue = rq->issue_ts;
	p->complete = rq->complete_ts;
	p->sector = rq->sector;
	p->bytes = rq->bytes;
	p->op = rq->op;
}

void timeline_request(struct timeline *tl, const struct blk_request *rq)
{
	uint64_t start = rq->insert_ts ? rq->insert_ts : rq->issue_ts;
	struct tl_dev *d;
	struct tl_bin *b;
	size_t i, last;

	if (!start || start > rq->complete_ts)
		start = rq->complete_ts;
	if (!tl->t0)
		tl->t0 = start;
	d = dev_of(tl, rq->dev);
	if (!d)
		return;
	while (rq->complete_ts >= tl->t0 &&
	       (rq->complete_ts - tl->t0) / tl->width >= TL_BINS)
		rebin(tl);
	last = timeline_bin(tl, rq->complete_ts);
	if (last + 1 > tl->nbins)
		tl->nbins = last + 1;
	b = &d->bin[last];
	blk_tally_add(&b->ops, rq);
	if (rq->issue_ts && rq->complete_ts >= rq->issue_ts)
		b->lat[timeline_lat_slot(rq->complete_ts - rq->issue_ts)]++;
	/* the time in flight, spread over the bins it covers */
	for (i = timeline_bin(tl, start); i <= last; i++) {
		uint64_t lo = tl->t0 + i * tl->width, hi = lo + tl->width;
		uint64_t s = start > lo ? start : lo;
		uint64_t e = rq->complete_ts < hi ? rq->complete_ts : hi;

		if (e > s)
			d->bin[i].inflight_ns += e - s;
	}
	d->requests++;
	sample(d, rq, start);
}

void timeline_call(struct timeline *tl, const struct sys_call *c,
		   int proc_id, int file_id)
{
	struct tl_call *k;

	if (!c->paired || !(sys_kind_info(c->kind)->flags & SKF_SYNC))
		return;
	if (!tl->call) {
		tl->call = an_calloc(TL_CALLS, sizeof(*tl->call));
		if (!tl->call) {
			tl->err = -AN_E_NOMEM;
			return;
		}
	}
	k = sample_room(tl->call, sizeof(*tl->call), TL_CALLS, &tl->ncall,
			&tl->call_stride, tl->calls++);
	if (!k)
		return;
	k->start = c->start;
	k->end = c->end;
	k->proc_id = proc_id;
	k->file_id = file_id;
	k->kind = c->kind;
}
