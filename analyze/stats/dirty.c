// SPDX-License-Identifier: MIT
/*
 * dirty.c - dirty throttling and writeback over time (see dirty.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "input/source.h"
#include "replay/block.h"
#include "stats/dirty.h"

struct dirty_priv {
	int id_bdp, id_gds, id_wbw, id_wbs;
	struct source_field *s_pages, *g_written;
	uint64_t last_written;
	/* flusher threads inside a writeback work */
	struct work { int tid; int64_t pages; } *work;
	size_t nwork, awork;
	struct source_field *bdp_pause, *bdp_paused;
	struct source_field *g_dirty, *g_wb, *g_bg, *g_th, *g_lim;
	struct source_field *w_pages, *w_reason;
	size_t last_task;
};

const char *dirty_reason_name(int r)
{
	static const char *const n[DIRTY_REASONS] = {
		"background", "vmscan", "sync", "periodic", "laptop_timer",
		"fs_free_space", "forker_thread", "foreign_flush",
	};

	return r >= 0 && r < DIRTY_REASONS ? n[r] : "other";
}

struct dirty *dirty_new(struct source *src)
{
	struct dirty *d = xcalloc(1, sizeof(*d));
	struct dirty_priv *p = xcalloc(1, sizeof(*p));
	const struct source_info *info = source_info(src);

	d->p = p;
	d->page_size = info->page_size ? info->page_size : 4096;
	p->id_bdp = source_event_id(src, "writeback", "balance_dirty_pages");
	p->id_gds = source_event_id(src, "writeback", "global_dirty_state");
	p->id_wbw = source_event_id(src, "writeback", "writeback_written");
	p->id_wbs = source_event_id(src, "writeback", "writeback_start");
	if (p->id_bdp >= 0) {
		p->bdp_pause = source_field(src, p->id_bdp, "pause");
		p->bdp_paused = source_field(src, p->id_bdp, "paused");
		d->have_bdp = p->bdp_pause != NULL;
	}
	if (p->id_gds >= 0) {
		p->g_dirty = source_field(src, p->id_gds, "nr_dirty");
		p->g_wb = source_field(src, p->id_gds, "nr_writeback");
		p->g_bg = source_field(src, p->id_gds, "background_thresh");
		p->g_th = source_field(src, p->id_gds, "dirty_thresh");
		p->g_lim = source_field(src, p->id_gds, "dirty_limit");
		p->g_written = source_field(src, p->id_gds, "nr_written");
		d->have_gds = p->g_dirty && p->g_bg && p->g_th;
	}
	if (p->id_wbw >= 0) {
		p->w_pages = source_field(src, p->id_wbw, "nr_pages");
		p->w_reason = source_field(src, p->id_wbw, "reason");
		if (p->id_wbs >= 0)
			p->s_pages = source_field(src, p->id_wbs, "nr_pages");
		d->have_wb = p->w_pages && p->s_pages;
	}
	return d;
}

void dirty_free(struct dirty *d)
{
	if (!d)
		return;
	free(d->slot);
	free(d->task);
	free(d->p->work);
	free(d->p);
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

		while (n <= i)
			n *= 2;
		d->slot = xrealloc(d->slot, n * sizeof(*d->slot));
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

	if (i < d->ntask && d->task[i].tid == tid)
		return &d->task[i];
	for (i = 0; i < d->ntask; i++)
		if (d->task[i].tid == tid) {
			p->last_task = i;
			return &d->task[i];
		}
	if (d->ntask == d->atask) {
		d->atask = d->atask ? 2 * d->atask : 16;
		d->task = xrealloc(d->task, d->atask * sizeof(*d->task));
	}
	memset(&d->task[d->ntask], 0, sizeof(*d->task));
	d->task[d->ntask].tid = tid;
	p->last_task = d->ntask;
	return &d->task[d->ntask++];
}

static void on_bdp(struct dirty *d, const struct source_event *ev)
{
	int64_t pause = 0;
	struct dirty_slot *s = slot_at(d, ev->ts);
	struct dirty_task *t = task_get(d, ev->pid);

	source_field_s64(d->p->bdp_pause, ev, &pause);
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

static void on_gds(struct dirty *d, const struct source_event *ev)
{
	struct dirty_priv *p = d->p;
	struct dirty_slot *s = slot_at(d, ev->ts);
	uint64_t v = 0;

	s->gds = true;
	source_field_u64(p->g_dirty, ev, &s->nr_dirty);
	if (p->g_wb)
		source_field_u64(p->g_wb, ev, &s->nr_writeback);
	source_field_u64(p->g_bg, ev, &s->bg_thresh);
	source_field_u64(p->g_th, ev, &s->thresh);
	if (p->g_lim && !source_field_u64(p->g_lim, ev, &v))
		s->limit = v;
	if (p->g_written && !source_field_u64(p->g_written, ev, &v)) {
		if (p->last_written && v >= p->last_written) {
			s->written += v - p->last_written;
			d->written += v - p->last_written;
		}
		p->last_written = v;
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

static struct work *work_of(struct dirty_priv *p, int tid, bool create)
{
	for (size_t i = 0; i < p->nwork; i++)
		if (p->work[i].tid == tid)
			return &p->work[i];
	if (!create)
		return NULL;
	if (p->nwork == p->awork) {
		p->awork = p->awork ? 2 * p->awork : 8;
		p->work = xrealloc(p->work, p->awork * sizeof(*p->work));
	}
	p->work[p->nwork].tid = tid;
	p->work[p->nwork].pages = -1;
	return &p->work[p->nwork++];
}

/* writeback_start: a flusher begins a work of nr_pages (its budget) */
static void on_wbs(struct dirty *d, const struct source_event *ev)
{
	int64_t pages = 0;

	if (source_field_s64(d->p->s_pages, ev, &pages) < 0)
		return;
	work_of(d->p, ev->pid, true)->pages = pages;
}

/* writeback_written: the work ends with what is left of its budget */
static void on_wbw(struct dirty *d, const struct source_event *ev)
{
	struct work *w = work_of(d->p, ev->pid, false);
	int64_t left = 0, reason = -1;
	struct dirty_slot *s;
	uint64_t pages;
	int r;

	if (!w || w->pages < 0)
		return;
	source_field_s64(d->p->w_pages, ev, &left);
	if (d->p->w_reason)
		source_field_s64(d->p->w_reason, ev, &reason);
	pages = left >= 0 && left <= w->pages ? (uint64_t)(w->pages - left) : 0;
	w->pages = -1;
	d->wb_works++;
	if (!pages)
		return;
	s = slot_at(d, ev->ts);
	r = reason >= 0 && reason < DIRTY_REASONS ? (int)reason : 0;
	s->wb_pages[r] += pages;
	d->wb_pages[r] += pages;
}

void dirty_feed(struct dirty *d, const struct source_event *ev)
{
	struct dirty_priv *p = d->p;

	if (!d->t0)
		d->t0 = ev->ts - ev->ts % DIRTY_SLOT_NS;
	if (ev->id == p->id_bdp && d->have_bdp)
		on_bdp(d, ev);
	else if (ev->id == p->id_gds && d->have_gds)
		on_gds(d, ev);
	else if (ev->id == p->id_wbs && d->have_wb)
		on_wbs(d, ev);
	else if (ev->id == p->id_wbw && d->have_wb)
		on_wbw(d, ev);
	if (ev->missed)
		p->nwork = 0;	/* no work pairs across lost events */
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

static int cmp_task(const void *x, const void *y)
{
	const struct dirty_task *a = x, *b = y;

	if (a->pause_ms != b->pause_ms)
		return a->pause_ms > b->pause_ms ? -1 : 1;
	if (a->bdp != b->bdp)
		return a->bdp > b->bdp ? -1 : 1;
	return a->tid - b->tid;
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

		if (s->gds) {
			o->gds = true;
			o->nr_dirty = s->nr_dirty;
			o->nr_writeback = s->nr_writeback;
			o->bg_thresh = s->bg_thresh;
			o->thresh = s->thresh;
			o->limit = s->limit;
		}
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
