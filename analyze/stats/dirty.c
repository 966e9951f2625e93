// SPDX-License-Identifier: MIT
/*
 * dirty.c - dirty throttling and writeback over time (see dirty.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "decode/decode.h"
#include "replay/window.h"
#include "base/err.h"
#include "stats/dirty.h"

struct dirty_priv {
	uint64_t last_written;
	size_t last_task;
	/* what a slot or task that cannot be had counts into (the pass
	 * fails: dirty_error()) */
	struct dirty_slot spare_slot;
	struct dirty_task spare_task;
	int err;		/* sticky: -AN_E_NOMEM */
};

const char *dirty_reason_name(int r)
{
	static const char *const n[DIRTY_REASONS] = {
		"background", "vmscan", "sync", "periodic", "laptop_timer",
		"fs_free_space", "forker_thread", "foreign_flush",
	};

	return r >= 0 && r < DIRTY_REASONS ? n[r] : "other";
}

struct dirty *dirty_new(const struct dirty_caps *c, uint64_t page_size)
{
	/* one allocation: dirty_free() frees the private part with it */
	struct { struct dirty d; struct dirty_priv p; } *a;
	struct dirty *d;

	a = an_calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	d = &a->d;
	d->p = &a->p;
	d->page_size = page_size ? page_size : 4096;
	d->have_bdp = c->bdp;
	d->have_gds = c->gds;
	d->have_wb = c->wb;
	return d;
}

int dirty_error(const struct dirty *d)
{
	return d->p->err;
}

void dirty_free(struct dirty *d)
{
	if (!d)
		return;
	free(d->slot);
	free(d->task);
	free(d);
}

static struct dirty_slot *slot_at(struct dirty *d, uint64_t ts)
{
	size_t i;

	if (!d->t0)
		d->t0 = ts - ts % DIRTY_SLOT_NS;
	if (ts < d->t0)
		ts = d->t0;
	i = (size_t)((ts - d->t0) / DIRTY_SLOT_NS);
	if (i >= d->aslot) {
		size_t n = d->aslot ? d->aslot : 64;
		struct dirty_slot *v;

		while (n && n <= i)
			n *= 2;
		v = n ? an_reallocarray(d->slot, n, sizeof(*d->slot)) : NULL;
		if (!v) {
			d->p->err = -AN_E_NOMEM;
			memset(&d->p->spare_slot, 0, sizeof(d->p->spare_slot));
			return &d->p->spare_slot;
		}
		d->slot = v;
		memset(d->slot + d->aslot, 0,
		       (n - d->aslot) * sizeof(*d->slot));
		d->aslot = n;
	}
	if (i >= d->nslot)
		d->nslot = i + 1;
	return &d->slot[i];
}

static struct dirty_task *task_get(struct dirty *d, int tid)
{
	struct dirty_priv *p = d->p;
	size_t i = p->last_task;
	struct dirty_task *t;

	if (i < d->ntask && d->task[i].tid == tid)
		return &d->task[i];
	for (i = 0; i < d->ntask; i++)
		if (d->task[i].tid == tid) {
			p->last_task = i;
			return &d->task[i];
		}
	t = an_push(&d->task, &d->ntask, &d->atask, sizeof(*d->task), 16);
	if (!t) {
		p->err = -AN_E_NOMEM;
		return &p->spare_task;
	}
	t->tid = tid;
	p->last_task = d->ntask - 1;
	return t;
}

static void on_bdp(struct dirty *d, const struct dec_ev *ev)
{
	int64_t pause = ev->pause;
	struct dirty_slot *s = slot_at(d, ev->ts);
	struct dirty_task *t = task_get(d, ev->pid);

	t->last_ts = ev->ts;
	s->bdp++;
	t->bdp++;
	d->bdp++;
	if (pause > 0) {
		s->bdp_paused++;
		s->pause_ms += (uint64_t)pause;
		t->paused++;
		t->pause_ms += (uint64_t)pause;
		if ((uint64_t)pause > t->max_pause_ms)
			t->max_pause_ms = (uint64_t)pause;
		d->bdp_paused++;
		d->pause_ms += (uint64_t)pause;
		if ((uint64_t)pause > d->max_pause_ms)
			d->max_pause_ms = (uint64_t)pause;
	}
}

/* A global_dirty_state sample: the gauges of slot s. */
static void set_gauges(struct dirty_slot *s, uint64_t nr_dirty,
		       uint64_t nr_writeback, uint64_t bg_thresh,
		       uint64_t thresh, uint64_t limit)
{
	s->gds = true;
	s->nr_dirty = nr_dirty;
	s->nr_writeback = nr_writeback;
	s->bg_thresh = bg_thresh;
	s->thresh = thresh;
	s->limit = limit;
}

static void on_gds(struct dirty *d, const struct dec_ev *ev)
{
	struct dirty_priv *p = d->p;
	struct dirty_slot *s = slot_at(d, ev->ts);
	const struct dec_gds *g = &ev->gds;

	set_gauges(s, g->nr_dirty, g->nr_writeback, g->bg_thresh, g->thresh,
		   g->limit);
	if (g->has_written) {
		if (p->last_written && g->written >= p->last_written) {
			s->written += g->written - p->last_written;
			d->written += g->written - p->last_written;
		}
		p->last_written = g->written;
	}
	if (s->nr_dirty > s->max_dirty)
		s->max_dirty = s->nr_dirty;
	if (s->nr_dirty > d->max_dirty)
		d->max_dirty = s->nr_dirty;
	if (!d->gds_samples++) {
		d->min_bg_thresh = d->max_bg_thresh = s->bg_thresh;
		d->min_thresh = d->max_thresh = s->thresh;
	}
	if (s->bg_thresh < d->min_bg_thresh)
		d->min_bg_thresh = s->bg_thresh;
	if (s->bg_thresh > d->max_bg_thresh)
		d->max_bg_thresh = s->bg_thresh;
	if (s->thresh < d->min_thresh)
		d->min_thresh = s->thresh;
	if (s->thresh > d->max_thresh)
		d->max_thresh = s->thresh;
}

/* writeback_start -> writeback_written: the work wrote its budget less
 * what is left of it */
void dirty_work_done(struct dirty *d, const struct win *open,
		     const struct dec_ev *ev)
{
	int64_t left = ev->wb.pages, reason = ev->wb.reason;
	struct dirty_slot *s;
	uint64_t pages;
	int r;

	if (!d->have_wb || open->val < 0)
		return;
	pages = left >= 0 && left <= open->val ?
		(uint64_t)(open->val - left) : 0;
	d->wb_works++;
	if (!pages)
		return;
	s = slot_at(d, ev->ts);
	r = reason >= 0 && reason < DIRTY_REASONS ? (int)reason : 0;
	s->wb_pages[r] += pages;
	d->wb_pages[r] += pages;
}

void dirty_begin(struct dirty *d, uint64_t ts)
{
	if (!d->t0)
		d->t0 = ts - ts % DIRTY_SLOT_NS;
}

void dirty_event(struct dirty *d, const struct dec_ev *ev)
{
	if (ev->kind == DK_BDP && d->have_bdp)
		on_bdp(d, ev);
	else if (ev->kind == DK_DIRTY_STATE && d->have_gds)
		on_gds(d, ev);
}

void dirty_request(struct dirty *d, const struct blk_request *rq)
{
	struct dirty_slot *s;

	if (rq->op != BLK_OP_WRITE && rq->op != BLK_OP_FLUSH)
		return;
	s = slot_at(d, rq->complete_ts);
	if (rq->op == BLK_OP_WRITE) {
		s->write_bytes += rq->bytes;
		d->write_bytes += rq->bytes;
	} else {
		s->flushes++;
	}
}

int dirty_cmp(uint64_t pause_a, uint64_t bdp_a, int id_a, uint64_t pause_b,
	      uint64_t bdp_b, int id_b)
{
	if (pause_a != pause_b)
		return pause_a > pause_b ? -1 : 1;
	if (bdp_a != bdp_b)
		return bdp_a > bdp_b ? -1 : 1;
	return id_a - id_b;
}

static int cmp_task(const void *x, const void *y)
{
	const struct dirty_task *a = x, *b = y;

	return dirty_cmp(a->pause_ms, a->bdp, a->tid, b->pause_ms, b->bdp,
			 b->tid);
}

void dirty_end(struct dirty *d)
{
	if (d->ntask)
		qsort(d->task, d->ntask, sizeof(*d->task), cmp_task);
}

uint64_t dirty_rebin(const struct dirty *d, struct dirty_slot *out, size_t n)
{
	size_t per, i;

	memset(out, 0, n * sizeof(*out));
	if (!d->nslot || !n)
		return 0;
	per = (d->nslot + n - 1) / n;
	for (i = 0; i < d->nslot; i++) {
		const struct dirty_slot *s = &d->slot[i];
		struct dirty_slot *o = &out[i / per];

		if (s->gds)
			set_gauges(o, s->nr_dirty, s->nr_writeback,
				   s->bg_thresh, s->thresh, s->limit);
		if (s->max_dirty > o->max_dirty)
			o->max_dirty = s->max_dirty;
		o->written += s->written;
		o->bdp += s->bdp;
		o->bdp_paused += s->bdp_paused;
		o->pause_ms += s->pause_ms;
		for (int r = 0; r < DIRTY_REASONS; r++)
			o->wb_pages[r] += s->wb_pages[r];
		o->write_bytes += s->write_bytes;
		o->flushes += s->flushes;
	}
	return (uint64_t)per * DIRTY_SLOT_NS;
}
