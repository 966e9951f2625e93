// SPDX-License-Identifier: MIT
/*
 * wa.c - write amplification, jbd2 statistics and fsync/flush accounting
 * (see wa.h and docs/write-amplification.md).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "input/source.h"
#include "replay/block.h"
#include "driver.h"
#include "stats/wa.h"

/* An fsync a thread is inside (ext4_sync_file_enter seen, exit not yet). */
struct pending {
	int tid;
	int cpu;
	uint32_t disk;		/* of the requests */
	size_t fs;		/* index in w->fs */
	uint64_t ts;
};

struct wa_priv {
	struct source *src;
	uint32_t (*disk_of)(uint32_t, void *);
	void *arg;
	int id_run, id_enter, id_exit;
	struct source_field *run_dev, *run_handles, *run_blocks,
			    *run_logged, *run_logging;
	struct source_field *en_dev, *en_ino, *en_datasync;
	struct source_field *ex_ret;
	struct pending *pend;
	size_t npend, apend;
	size_t last_fs;		/* lookup cache */
};

const char *wa_class_name(enum wa_class c)
{
	static const char *const n[WA_NCLASS] = {
		"data", "journal", "metadata", "other",
	};

	return c < WA_NCLASS ? n[c] : "?";
}

static uint32_t disk_of(struct wa *w, uint32_t fsdev)
{
	return w->p->disk_of ? w->p->disk_of(fsdev, w->p->arg) : fsdev;
}

struct wa *wa_new(struct source *src, uint32_t (*dof)(uint32_t, void *),
		  void *arg)
{
	struct wa *w = xcalloc(1, sizeof(*w));
	struct wa_priv *p = xcalloc(1, sizeof(*p));

	w->p = p;
	p->src = src;
	p->disk_of = dof;
	p->arg = arg;
	p->id_run = src ? source_event_id(src, "jbd2", "jbd2_run_stats") : -1;
	p->id_enter = src ? source_event_id(src, "ext4",
					    "ext4_sync_file_enter") : -1;
	p->id_exit = src ? source_event_id(src, "ext4",
					   "ext4_sync_file_exit") : -1;
	if (p->id_run >= 0) {
		p->run_dev = source_field(src, p->id_run, "dev");
		p->run_handles = source_field(src, p->id_run, "handle_count");
		p->run_blocks = source_field(src, p->id_run, "blocks");
		p->run_logged = source_field(src, p->id_run, "blocks_logged");
		p->run_logging = source_field(src, p->id_run, "logging");
		w->st.jbd2 = p->run_dev != NULL;
	}
	if (p->id_enter >= 0 && p->id_exit >= 0) {
		p->en_dev = source_field(src, p->id_enter, "dev");
		p->en_ino = source_field(src, p->id_enter, "ino");
		p->en_datasync = source_field(src, p->id_enter, "datasync");
		p->ex_ret = source_field(src, p->id_exit, "ret");
		w->st.ext4_sync = p->en_dev && p->en_ino;
	}
	return w;
}

void wa_free(struct wa *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->nfs; i++)
		hist_release(&w->fs[i].lat);
	free(w->fs);
	free(w->dev);
	free(w->p->pend);
	free(w->p);
	free(w);
}

struct wa_dev *wa_dev_get(struct wa *w, uint32_t dev)
{
	struct wa_dev *d;

	for (size_t i = 0; i < w->ndev; i++)
		if (w->dev[i].dev == dev)
			return &w->dev[i];
	if (w->ndev == w->adev) {
		w->adev = w->adev ? 2 * w->adev : 8;
		w->dev = xrealloc(w->dev, w->adev * sizeof(*w->dev));
	}
	d = &w->dev[w->ndev++];
	memset(d, 0, sizeof(*d));
	d->dev = dev;
	return d;
}

static size_t fsync_get(struct wa *w, int tid, uint32_t fsdev, uint64_t ino)
{
	struct wa_fsync *f;
	size_t i = w->p->last_fs;

	if (i < w->nfs && w->fs[i].tid == tid && w->fs[i].ino == ino &&
	    w->fs[i].fsdev == fsdev)
		return i;
	for (i = 0; i < w->nfs; i++)
		if (w->fs[i].tid == tid && w->fs[i].ino == ino &&
		    w->fs[i].fsdev == fsdev)
			return w->p->last_fs = i;
	if (w->nfs == w->afs) {
		w->afs = w->afs ? 2 * w->afs : 16;
		w->fs = xrealloc(w->fs, w->afs * sizeof(*w->fs));
	}
	f = &w->fs[w->nfs];
	memset(f, 0, sizeof(*f));
	f->tid = tid;
	f->fsdev = fsdev;
	f->ino = ino;
	return w->p->last_fs = w->nfs++;
}

static void pend_drop(struct wa_priv *p, size_t i)
{
	p->pend[i] = p->pend[--p->npend];
}

static void on_enter(struct wa *w, const struct source_event *ev)
{
	struct wa_priv *p = w->p;
	uint64_t dev = 0, ino = 0, ds = 0;
	struct pending *pd;
	size_t i;

	if (source_field_u64(p->en_dev, ev, &dev) < 0 ||
	    source_field_u64(p->en_ino, ev, &ino) < 0)
		return;
	if (p->en_datasync)
		source_field_u64(p->en_datasync, ev, &ds);
	/* a thread is inside one fsync: an older enter lost its exit */
	for (i = 0; i < p->npend; i++)
		if (p->pend[i].tid == ev->pid) {
			pend_drop(p, i);
			break;
		}
	if (p->npend == p->apend) {
		p->apend = p->apend ? 2 * p->apend : 16;
		p->pend = xrealloc(p->pend, p->apend * sizeof(*p->pend));
	}
	pd = &p->pend[p->npend++];
	pd->tid = ev->pid;
	pd->cpu = ev->cpu;
	pd->disk = disk_of(w, (uint32_t)dev);
	pd->fs = fsync_get(w, ev->pid, (uint32_t)dev, ino);
	pd->ts = ev->ts;
	w->fs[pd->fs].datasync += ds != 0;
}

static void on_exit_ev(struct wa *w, const struct source_event *ev)
{
	struct wa_priv *p = w->p;
	int64_t ret = 0;

	for (size_t i = 0; i < p->npend; i++) {
		struct pending *pd = &p->pend[i];
		struct wa_fsync *f;

		if (pd->tid != ev->pid)
			continue;
		f = &w->fs[pd->fs];
		if (p->ex_ret)
			source_field_s64(p->ex_ret, ev, &ret);
		f->count++;
		f->errors += ret < 0;
		f->last_ts = ev->ts;
		if (ev->ts >= pd->ts)
			hist_add(&f->lat, ev->ts - pd->ts);
		pend_drop(p, i);
		return;
	}
	w->st.fsync_exit_unmatched++;
}

static void on_run_stats(struct wa *w, const struct source_event *ev)
{
	struct wa_priv *p = w->p;
	uint64_t dev = 0, v = 0;
	struct wa_dev *d;

	if (source_field_u64(p->run_dev, ev, &dev) < 0)
		return;
	d = wa_dev_get(w, disk_of(w, (uint32_t)dev));
	d->commits++;
	if (p->run_handles && !source_field_u64(p->run_handles, ev, &v))
		d->handles += v;
	if (p->run_blocks && !source_field_u64(p->run_blocks, ev, &v))
		d->blocks += v;
	if (p->run_logged && !source_field_u64(p->run_logged, ev, &v))
		d->blocks_logged += v;
	if (p->run_logging && !source_field_u64(p->run_logging, ev, &v))
		d->commit_logging_j += v;
}

void wa_feed(struct wa *w, const struct source_event *ev)
{
	struct wa_priv *p = w->p;

	if (ev->missed) {
		/* no fsync interval spans lost events on its CPU */
		for (size_t i = 0; i < p->npend;)
			if (p->pend[i].cpu == ev->cpu) {
				w->st.fsync_dropped_at_gap++;
				pend_drop(p, i);
			} else {
				i++;
			}
	}
	if (ev->id == p->id_run && w->st.jbd2)
		on_run_stats(w, ev);
	else if (ev->id == p->id_enter && w->st.ext4_sync)
		on_enter(w, ev);
	else if (ev->id == p->id_exit && w->st.ext4_sync)
		on_exit_ev(w, ev);
}

void wa_timed_request(struct wa *w, const struct blk_request *rq)
{
	struct wa_priv *p = w->p;
	bool flush = rq->op == BLK_OP_FLUSH || rq->preflush || rq->fua;
	bool write = rq->op == BLK_OP_WRITE;
	uint64_t dt, n = 0;
	size_t i;

	if (!p->npend || (!flush && !write))
		return;
	for (i = 0; i < p->npend; i++)
		n += p->pend[i].disk == rq->dev;
	if (!n)
		return;
	dt = rq->complete_ts > rq->issue_ts && rq->issue_ts ?
	     rq->complete_ts - rq->issue_ts : 0;
	for (i = 0; i < p->npend; i++) {
		struct wa_fsync *f;

		if (p->pend[i].disk != rq->dev)
			continue;
		f = &w->fs[p->pend[i].fs];
		if (flush) {
			f->flushes++;
			f->flush_ns += dt / n;
		}
		if (write)
			f->write_bytes += rq->bytes / n;
	}
}

static enum wa_class classify(const struct blk_done *d)
{
	const struct attrib_owner *o = &d->own;

	if (!d->attributed)
		return d->rq.meta ? WA_META : WA_OTHER;
	if (o->kind == AK_JOURNAL)
		return WA_JOURNAL;
	if (d->rq.meta)
		return WA_META;
	switch (o->kind) {
	case AK_WRITEBACK:
	case AK_FSYNC:
	case AK_SYSCALL:
	case AK_CONTEXT:
		return o->file || o->ino ? WA_DATA : WA_META;
	default:
		return WA_OTHER;
	}
}

void wa_request(struct wa *w, const struct blk_done *d)
{
	const struct blk_request *rq = &d->rq;
	struct wa_dev *dv = wa_dev_get(w, rq->dev);
	uint64_t dt = rq->issue_ts && rq->complete_ts > rq->issue_ts ?
		      rq->complete_ts - rq->issue_ts : 0;

	w->st.requests++;
	switch (rq->op) {
	case BLK_OP_READ:
		dv->reads++;
		dv->read_bytes += rq->bytes;
		break;
	case BLK_OP_WRITE:
		dv->writes++;
		dv->write_bytes += rq->bytes;
		dv->cls[classify(d)] += rq->bytes;
		break;
	case BLK_OP_FLUSH:
		dv->flushes++;
		dv->flush_ns += dt;
		break;
	default:
		break;
	}
	dv->preflush += rq->preflush;
	dv->fua += rq->fua;
	if (rq->op != BLK_OP_FLUSH && (rq->preflush || rq->fua))
		dv->flush_ns += dt;
}

/* diskstats fields after the name (Documentation/admin-guide/iostats.rst):
 * writes completed (index 4), sectors written (index 6), flush requests
 * completed (index 15, kernels 5.5 and later; 0 before). */
static bool ds_fields(const char *s, uint64_t *v, int n)
{
	char *end;
	int i;

	for (i = 0; i < n && s && *s; i++) {
		v[i] = strtoull(s, &end, 10);
		if (end == s)
			break;
		s = end;
	}
	for (int k = i; k < n; k++)
		v[k] = 0;
	return i >= 7;
}

void wa_diskstats(struct wa *w, uint32_t dev, const char *start,
		  const char *end)
{
	uint64_t a[17], b[17];
	struct wa_dev *d;

	if (!ds_fields(start, a, 17) || !ds_fields(end, b, 17))
		return;
	if (b[6] < a[6] || b[4] < a[4])
		return;		/* counters reset (device re-created) */
	d = wa_dev_get(w, dev);
	d->ds = true;
	d->ds_write_bytes = (b[6] - a[6]) * 512;
	d->ds_writes = b[4] - a[4];
	d->ds_flushes = b[15] >= a[15] ? b[15] - a[15] : 0;
}

void wa_add_app(struct wa *w, uint32_t fsdev, uint64_t bytes)
{
	if (bytes)
		wa_dev_get(w, disk_of(w, fsdev))->app_bytes += bytes;
}

static int cmp_dev(const void *x, const void *y)
{
	const struct wa_dev *a = x, *b = y;

	return a->dev < b->dev ? -1 : a->dev > b->dev;
}

void wa_end(struct wa *w, int hz)
{
	w->st.fsync_open_at_end += w->p->npend;
	w->p->npend = 0;
	for (size_t i = 0; i < w->ndev; i++)
		w->dev[i].commit_logging_ms = hz > 0 ?
			w->dev[i].commit_logging_j * 1000 / (uint64_t)hz : 0;
	if (w->ndev)
		qsort(w->dev, w->ndev, sizeof(*w->dev), cmp_dev);
}

void wa_total(const struct wa *w, struct wa_dev *t)
{
	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < w->ndev; i++) {
		const struct wa_dev *d = &w->dev[i];

		t->read_bytes += d->read_bytes;
		t->reads += d->reads;
		t->write_bytes += d->write_bytes;
		t->writes += d->writes;
		for (int c = 0; c < WA_NCLASS; c++)
			t->cls[c] += d->cls[c];
		t->flushes += d->flushes;
		t->preflush += d->preflush;
		t->fua += d->fua;
		t->flush_ns += d->flush_ns;
		t->commits += d->commits;
		t->handles += d->handles;
		t->blocks += d->blocks;
		t->blocks_logged += d->blocks_logged;
		t->commit_logging_ms += d->commit_logging_ms;
		t->app_bytes += d->app_bytes;
		t->ds |= d->ds;
		t->ds_write_bytes += d->ds_write_bytes;
		t->ds_writes += d->ds_writes;
		t->ds_flushes += d->ds_flushes;
	}
}
