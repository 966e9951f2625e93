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

/* Hand on the current slot and start slot index (empty ones between). */
static void hand_on(struct interval *iv, uint64_t index)
{
	struct ivl_slot *s = &iv->cur;

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
	s->ndev = s->nproc = 0;
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

void interval_request(struct interval *iv, const struct blk_done *d)
{
	const struct blk_request *rq = &d->rq;
	uint64_t total = blk_total_ns(rq);
	struct ivl_dev *r;

	if (iv->err)
		return;
	at(iv, rq->complete_ts);
	if (iv->err || !(r = dev_row(iv, rq->dev, rq->op)))
		return;
	r->requests++;
	r->bytes += rq->bytes;
	r->total_ns += total;
	if (rq->issue_ts && rq->complete_ts >= rq->issue_ts)
		r->d2c_ns += rq->complete_ts - rq->issue_ts;
	if (total > r->max_ns)
		r->max_ns = total;
	if (d->attributed && d->own.proc) {
		struct ivl_proc *p = proc_row(iv, d->own.proc->id);

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
	free(iv->cur.dev);
	free(iv->cur.proc);
	imap_release(&iv->proc_of);
	memset(iv, 0, sizeof(*iv));
}
