// SPDX-License-Identifier: MIT
/*
 * interval.c - the per-interval aggregates of --interval (see interval.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/syskind.h"
#include "replay/proctable.h"
#include "stats/interval.h"
#include "stats/stats.h"

void interval_init(struct interval *iv, const struct stats *st,
		   uint64_t width, ivl_slot_fn fn, void *arg)
{
	memset(iv, 0, sizeof(*iv));
	iv->st = st;
	iv->width = width ? width : 1;
	iv->fn = fn;
	iv->arg = arg;
	imap_init(&iv->proc_of);
}

static int cmp_dev(const void *a, const void *b)
{
	const struct ivl_dev *x = a, *y = b;

	return stats_devop_cmp(x->dev, x->op, y->dev, y->op);
}

static int cmp_proc(const void *a, const void *b)
{
	const struct ivl_proc *x = a, *y = b;

	return (x->proc_id > y->proc_id) - (x->proc_id < y->proc_id);
}

static int cmp_busy(const void *a, const void *b)
{
	const struct ivl_busy *x = a, *y = b;

	return (x->dev > y->dev) - (x->dev < y->dev);
}

/* The devices' busy time up to the end of the current slot into it. */
static void cut_busy(struct interval *iv)
{
	struct ivl_slot *s = &iv->cur;
	uint64_t end = iv->st->first_ts + s->end_ns;

	s->nbusy = 0;
	for (size_t i = 0; i < iv->ntrk; i++) {
		uint64_t ns = busy_cut(&iv->trk[i].b, end);

		if (!ns)
			continue;
		if (an_grow(&s->busy, &iv->busy_alloc, s->nbusy + 1,
			    sizeof(*s->busy), 4)) {
			iv->err = -AN_E_NOMEM;
			return;
		}
		s->busy[s->nbusy++] = (struct ivl_busy){ iv->trk[i].dev, ns };
	}
	if (s->nbusy > 1)
		qsort(s->busy, s->nbusy, sizeof(*s->busy), cmp_busy);
}

void ivl_iostat(const struct ivl_slot *sl, uint32_t dev, struct iostat *io)
{
	memset(io, 0, sizeof(*io));
	io->dev = dev;
	io->span_ns = sl->end_ns - sl->start_ns;
	for (size_t i = 0; i < sl->nbusy; i++)
		if (sl->busy[i].dev == dev)
			io->busy_ns = sl->busy[i].busy_ns;
	for (size_t i = 0; i < sl->ndev; i++) {
		const struct ivl_dev *d = &sl->dev[i];

		if (d->dev != dev)
			continue;
		io->n[d->op] += d->requests;
		io->bytes[d->op] += d->bytes;
		io->life_ns[d->op] += d->life_ns;
	}
}

/* Hand on the current slot and start slot index (empty ones between). */
static void hand_on(struct interval *iv, uint64_t index)
{
	struct ivl_slot *s = &iv->cur;

	if (iv->err)
		return;
	cut_busy(iv);
	if (iv->err)
		return;
	if (s->ndev > 1)
		qsort(s->dev, s->ndev, sizeof(*s->dev), cmp_dev);
	if (s->nproc > 1)
		qsort(s->proc, s->nproc, sizeof(*s->proc), cmp_proc);
	iv->err = iv->fn(iv->arg, s);
	if (!iv->err && index > s->index + 1) {
		/* the empty slots in between, as one run */
		struct ivl_slot e = {
			.index = s->index + 1, .count = index - s->index - 1,
			.start_ns = s->end_ns, .end_ns = index * iv->width,
			.start_ts = s->start_ts + iv->width,
		};

		iv->err = iv->fn(iv->arg, &e);
	}
	for (size_t i = 0; i < s->ndev; i++)
		hist_release(&s->dev[i].device);
	s->ndev = s->nproc = s->nbusy = 0;
	/* busy spans in the empty slots between are not counted anywhere */
	for (size_t i = 0; i < iv->ntrk; i++)
		busy_cut(&iv->trk[i].b, iv->st->first_ts + index * iv->width);
	imap_release(&iv->proc_of);
	imap_init(&iv->proc_of);
	s->index = index;
	s->count = 1;
	s->start_ns = index * iv->width;
	s->end_ns = s->start_ns + iv->width;
	s->start_ts = iv->st->first_ts + s->start_ns;
}

/* Move to the slot of trace time ts (never back). */
static void at(struct interval *iv, uint64_t ts)
{
	uint64_t rel = ts > iv->st->first_ts ? ts - iv->st->first_ts : 0;
	uint64_t index = rel / iv->width;

	if (!iv->started) {
		iv->started = true;
		iv->cur.index = index;
		iv->cur.count = 1;
		iv->cur.start_ns = index * iv->width;
		iv->cur.end_ns = iv->cur.start_ns + iv->width;
		iv->cur.start_ts = iv->st->first_ts + iv->cur.start_ns;
		if (index) {
			/* the first slots were empty */
			struct ivl_slot e = { .index = 0, .count = index,
					      .end_ns = iv->cur.start_ns,
					      .start_ts = iv->st->first_ts };

			iv->err = iv->fn(iv->arg, &e);
		}
		return;
	}
	if (index > iv->cur.index)
		hand_on(iv, index);
}

static struct ivl_dev *dev_row(struct interval *iv, uint32_t dev,
			       enum blk_op op)
{
	struct ivl_slot *s = &iv->cur;

	for (size_t i = 0; i < s->ndev; i++)
		if (s->dev[i].dev == dev && s->dev[i].op == op)
			return &s->dev[i];
	if (an_grow(&s->dev, &iv->dev_alloc, s->ndev + 1, sizeof(*s->dev), 8)) {
		iv->err = -AN_E_NOMEM;
		return NULL;
	}
	s->dev[s->ndev] = (struct ivl_dev){ .dev = dev, .op = op };
	return &s->dev[s->ndev++];
}

static struct ivl_proc *proc_row(struct interval *iv, int proc_id)
{
	struct ivl_slot *s = &iv->cur;
	void *v = imap_get(&iv->proc_of, proc_id);

	if (v)
		return &s->proc[(intptr_t)v - 1];
	if (an_grow(&s->proc, &iv->proc_alloc, s->nproc + 1,
		    sizeof(*s->proc), 16) ||
	    imap_put(&iv->proc_of, proc_id, (void *)(intptr_t)(s->nproc + 1),
		     NULL)) {
		iv->err = -AN_E_NOMEM;
		return NULL;
	}
	s->proc[s->nproc] = (struct ivl_proc){ .proc_id = proc_id };
	return &s->proc[s->nproc++];
}

static struct busy *tracker(struct interval *iv, uint32_t dev)
{
	for (size_t i = 0; i < iv->ntrk; i++)
		if (iv->trk[i].dev == dev)
			return &iv->trk[i].b;
	if (an_grow(&iv->trk, &iv->trk_alloc, iv->ntrk + 1, sizeof(*iv->trk),
		    4)) {
		iv->err = -AN_E_NOMEM;
		return NULL;
	}
	iv->trk[iv->ntrk] = (struct ivl_tracker){ .dev = dev };
	/* nothing before the first slot's start */
	iv->trk[iv->ntrk].b.floor = iv->st->first_ts + iv->cur.start_ns;
	return &iv->trk[iv->ntrk++].b;
}

void interval_request(struct interval *iv, const struct blk_done *d)
{
	const struct blk_request *rq = &d->rq;
	uint64_t total = blk_total_ns(rq);
	struct ivl_dev *r;
	struct busy *b;

	if (iv->err)
		return;
	at(iv, rq->complete_ts);
	if (iv->err || !(r = dev_row(iv, rq->dev, rq->op)) ||
	    !(b = tracker(iv, rq->dev)))
		return;
	if (busy_add(b, blk_start_ts(rq), rq->complete_ts) < 0) {
		iv->err = -AN_E_NOMEM;
		return;
	}
	r->life_ns += blk_life_ns(rq);
	r->requests++;
	r->bytes += rq->bytes;
	r->total_ns += total;
	if (rq->issue_ts && rq->complete_ts >= rq->issue_ts) {
		r->d2c_ns += rq->complete_ts - rq->issue_ts;
		if (hist_add(&r->device, rq->complete_ts - rq->issue_ts) < 0) {
			iv->err = -AN_E_NOMEM;
			return;
		}
	}
	if (total > r->max_ns)
		r->max_ns = total;
	if (blk_done_proc(d)) {
		struct ivl_proc *p = proc_row(iv, blk_done_proc(d)->id);

		if (p) {
			p->blk_requests++;
			p->blk_bytes += rq->bytes;
		}
	}
}

void interval_call(struct interval *iv, const struct sys_call *c,
		   int proc_id)
{
	const struct sys_kind_info *k = sys_kind_info(c->kind);
	struct ivl_proc *p;

	if (iv->err || proc_id < 0)
		return;
	at(iv, c->paired ? c->start : c->end);
	if (iv->err || !(p = proc_row(iv, proc_id)))
		return;
	p->calls++;
	if (c->paired && c->end > c->start)
		p->lat_ns += c->end - c->start;
	/* as the processes view counts them: a copy is both */
	if ((k->flags & SKF_READ) && c->ret >= 0) {
		p->reads++;
		p->read_bytes += (uint64_t)c->ret;
	}
	if ((k->flags & SKF_WRITE) && c->ret >= 0) {
		p->writes++;
		p->write_bytes += (uint64_t)c->ret;
	}
	if (k->flags & SKF_SYNC)
		p->syncs++;
}

int interval_finish(struct interval *iv, uint64_t ts)
{
	if (!iv->started && !iv->err)
		at(iv, ts);
	if (!iv->err)
		hand_on(iv, iv->cur.index + 1);
	return iv->err;
}

void interval_release(struct interval *iv)
{
	for (size_t i = 0; i < iv->cur.ndev; i++)
		hist_release(&iv->cur.dev[i].device);
	free(iv->cur.dev);
	free(iv->cur.proc);
	free(iv->cur.busy);
	for (size_t i = 0; i < iv->ntrk; i++)
		busy_release(&iv->trk[i].b);
	free(iv->trk);
	imap_release(&iv->proc_of);
	memset(iv, 0, sizeof(*iv));
}
