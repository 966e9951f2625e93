// SPDX-License-Identifier: MIT
/*
 * btt.c - btt's Q2Q, phase shares and D2D seeks per device (btt.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/blk.h"
#include "base/err.h"
#include "stats/btt.h"
#include "stats/stats.h"

static struct bttdev *btt_get(struct stats *st, uint32_t dev)
{
	struct bttdev *b;

	for (size_t i = 0; i < st->nbtt; i++)
		if (st->btt[i].dev == dev)
			return &st->btt[i];
	b = an_push(&st->btt, &st->nbtt, &st->btt_alloc, sizeof(*st->btt), 4);
	if (b)
		b->dev = dev;
	return b;
}

int stats_btt_queue(struct stats *st, uint32_t dev, uint64_t ts)
{
	struct bttdev *b = btt_get(st, dev);

	if (!b)
		return -AN_E_NOMEM;
	/* btt counts a Q at the same time (or out of order) as 1 ns */
	if (b->last_q && hist_add(&b->q2q, ts > b->last_q ? ts - b->last_q : 1) < 0)
		return -AN_E_NOMEM;
	b->last_q = ts;
	return 0;
}

int stats_btt_issue(struct stats *st, uint32_t dev, uint64_t sector,
		    uint32_t nr_sector)
{
	struct bttdev *b;
	uint64_t end = sector + nr_sector, mag;
	int64_t dist;

	if (!nr_sector)
		return 0;	/* btt skips a D without data */
	b = btt_get(st, dev);
	if (!b)
		return -AN_E_NOMEM;
	if (b->have_last) {
		if ((b->last_start <= sector && sector <= b->last_end) ||
		    (b->last_start <= end && end <= b->last_end))
			dist = 0;
		else if (sector > b->last_end)
			dist = (int64_t)(sector - b->last_end);
		else
			dist = -(int64_t)(b->last_start - sector);
		mag = dist < 0 ? (uint64_t)-dist : (uint64_t)dist;
		b->seeks++;
		b->zero += dist == 0;
		b->forward += dist > 0;
		b->backward += dist < 0;
		b->abs_sum += mag;
		if (hist_add(&b->dist, mag) < 0)
			return -AN_E_NOMEM;
	}
	b->have_last = true;
	b->last_start = sector;
	b->last_end = end;
	return 0;
}

int stats_btt_request(struct stats *st, const struct blk_request *rq)
{
	struct bttdev *b;
	uint64_t d2c;

	if (!rq->nr_sector || !rq->issue_ts)
		return 0;	/* btt skips a C without data */
	b = btt_get(st, rq->dev);
	if (!b)
		return -AN_E_NOMEM;
	d2c = rq->complete_ts - rq->issue_ts;
	if (rq->queue_ts && rq->queue_ts <= rq->issue_ts) {
		b->bios++;
		b->q2c += rq->complete_ts - rq->queue_ts;
		b->d2c += d2c;
		if (rq->insert_ts && rq->queue_ts <= rq->insert_ts) {
			b->inserted++;
			b->q2i += rq->insert_ts - rq->queue_ts;
			b->i2d += rq->issue_ts - rq->insert_ts;
		}
	}
	b->bios += rq->mbios;
	b->merged += rq->mbios;
	b->q2c += rq->mq2c_ns;
	b->q2m += rq->mq2m_ns;
	b->m2d += rq->mm2d_ns;
	b->d2c += rq->mbios * d2c;
	return 0;
}

const struct bttdev *stats_btt(const struct stats *st, uint32_t dev)
{
	for (size_t i = 0; i < st->nbtt; i++)
		if (st->btt[i].dev == dev)
			return &st->btt[i];
	return NULL;
}

static int cmp_btt(const void *x, const void *y)
{
	const struct bttdev *a = x, *b = y;

	return a->dev < b->dev ? -1 : a->dev > b->dev;
}

void stats_btt_end(struct stats *st)
{
	if (st->nbtt > 1)
		qsort(st->btt, st->nbtt, sizeof(*st->btt), cmp_btt);
}

void stats_btt_release(struct stats *st)
{
	for (size_t i = 0; i < st->nbtt; i++) {
		hist_release(&st->btt[i].q2q);
		hist_release(&st->btt[i].dist);
	}
	free(st->btt);
	st->btt = NULL;
	st->nbtt = st->btt_alloc = 0;
}
