// SPDX-License-Identifier: MIT
/*
 * wa.c - write amplification, jbd2 statistics and fsync/flush accounting
 * (see wa.h and docs/write-amplification.md).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "util.h"
#include "decode/decode.h"
#include "input/meta.h"
#include "replay/fdtable.h"
#include "replay/window.h"
#include "stats/account.h"
#include "stats/attrib.h"
#include "stats/filter.h"
#include "base/blk.h"
#include "base/err.h"
#include "base/hmap.h"
#include "stats/wa.h"

struct wa_priv {
	uint32_t (*disk_of)(uint32_t, void *);
	void *arg;
	const struct view_filter *filter;
	const struct windows *ws;	/* the ext4 fsyncs open */
	size_t last_fs;		/* lookup cache */
	struct hmap fs_at;	/* (tid, fsdev, ino) -> index in fs */
	struct wa_dev spare;	/* counts a device that cannot be had */
	int err;		/* sticky: -AN_E_NOMEM */
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

struct wa *wa_new(bool jbd2, bool ext4_sync,
		  uint32_t (*dof)(uint32_t, void *), void *arg)
{
	/* one allocation: wa_free() frees the private part with it */
	struct { struct wa w; struct wa_priv p; } *a;
	struct wa *w;

	a = an_calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	w = &a->w;
	w->p = &a->p;
	w->p->disk_of = dof;
	w->p->arg = arg;
	w->st.jbd2 = jbd2;
	w->st.ext4_sync = ext4_sync;
	return w;
}

void wa_set_filter(struct wa *w, const struct view_filter *f)
{
	w->p->filter = filter_active(f) ? f : NULL;
	w->st.jbd2_not_split = filter_wants_owner(f);
	w->st.diskstats_not_split = filter_active(f) &&
		(f->have_since || f->have_until || filter_wants_owner(f));
}

/* Whether the filters keep what happened at ts on file system fsdev. */
static bool kept(struct wa *w, uint64_t ts, uint32_t fsdev)
{
	const struct view_filter *f = w->p->filter;

	return !f || (filter_time(f, ts) &&
		      filter_dev(f, fsdev, disk_of(w, fsdev)));
}

int wa_error(const struct wa *w)
{
	return w->p->err;
}

void wa_free(struct wa *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->nfs; i++)
		hist_release(&w->fs[i].lat);
	hmap_release(&w->p->fs_at, NULL);
	free(w->fs);
	free(w->dev);
	free(w);
}

struct wa_dev *wa_dev_get(struct wa *w, uint32_t dev)
{
	struct wa_dev *d;

	for (size_t i = 0; i < w->ndev; i++)
		if (w->dev[i].dev == dev)
			return &w->dev[i];
	d = an_push(&w->dev, &w->ndev, &w->adev, sizeof(*w->dev), 8);
	if (!d) {
		w->p->err = -AN_E_NOMEM;
		return &w->p->spare;
	}
	d->dev = dev;
	return d;
}

/* An fsync row's thread and file, as fsync_get() asks them. */
struct fs_q {
	const struct wa *w;
	int tid;
	uint32_t fsdev;
	uint64_t ino;
};

static bool fs_same(const void *arg, size_t i)
{
	const struct fs_q *q = arg;
	const struct wa_fsync *f = &q->w->fs[i];

	return f->tid == q->tid && f->ino == q->ino && f->fsdev == q->fsdev;
}

/* The index of tid's fsyncs of fsdev:ino, made when new; -1: no memory. */
static ssize_t fsync_get(struct wa *w, int tid, uint32_t fsdev, uint64_t ino)
{
	/* a row per thread and file: a thousand files fsynced once each
	 * (a package's install) must not make each lookup scan them all */
	uint64_t key = hash_mix(hash_mix(ino) ^ ((uint64_t)fsdev << 32) ^
				(uint32_t)tid);
	struct fs_q q = { w, tid, fsdev, ino };
	struct wa_fsync *f;
	size_t i = w->p->last_fs;

	if (i < w->nfs && fs_same(&q, i))
		return (ssize_t)i;
	i = hmap_index_find(&w->p->fs_at, key, fs_same, &q, w->nfs);
	if (i < w->nfs)
		return (ssize_t)(w->p->last_fs = i);
	f = an_push(&w->fs, &w->nfs, &w->afs, sizeof(*w->fs), 16);
	if (!f || hmap_index_add(&w->p->fs_at, key, w->nfs - 1)) {
		w->nfs -= f != NULL;
		return -1;
	}
	f->tid = tid;
	f->fsdev = fsdev;
	f->ino = ino;
	return (ssize_t)(w->p->last_fs = w->nfs - 1);
}

void wa_set_windows(struct wa *w, const struct windows *ws)
{
	w->p->ws = ws;
}

/* The fsyncs row of an fsync open since open->ts, or NULL: filtered out. */
static struct wa_fsync *fsync_of(struct wa *w, int tid, const struct win *open)
{
	ssize_t fs;

	if (!kept(w, open->ts, open->dev))
		return NULL;
	fs = fsync_get(w, tid, open->dev, open->ino);
	if (fs < 0) {
		w->p->err = -AN_E_NOMEM;
		return NULL;
	}
	return &w->fs[fs];
}

void wa_fsync(struct wa *w, int tid, const struct win *open,
	      const struct dec_ev *ev)
{
	struct wa_fsync *f;

	if (!w->st.ext4_sync || !(f = fsync_of(w, tid, open)))
		return;
	f->count++;
	f->datasync += open->datasync;
	f->errors += ev->ret < 0;
	f->last_ts = ev->ts;
	if (ev->ts >= open->ts && hist_add(&f->lat, ev->ts - open->ts) < 0)
		w->p->err = -AN_E_NOMEM;
}

static void on_run_stats(struct wa *w, const struct dec_ev *ev)
{
	struct wa_dev *d;

	if (ev->bad || w->st.jbd2_not_split || !kept(w, ev->ts, ev->jbd2.dev))
		return;
	d = wa_dev_get(w, disk_of(w, ev->jbd2.dev));
	d->commits++;
	d->handles += ev->jbd2.handles;
	d->blocks += ev->jbd2.blocks;
	d->blocks_logged += ev->jbd2.blocks_logged;
	d->commit_logging_j += ev->jbd2.logging;
}

void wa_event(struct wa *w, const struct dec_ev *ev)
{
	if (ev->kind == DK_JBD2_RUN && w->st.jbd2)
		on_run_stats(w, ev);
}

void wa_timed_request(struct wa *w, const struct blk_request *rq)
{
	const struct windows *ws = w->p->ws;
	bool flush = rq->op == BLK_OP_FLUSH || rq->preflush || rq->fua;
	bool write = rq->op == BLK_OP_WRITE;
	const struct win *x;
	uint64_t dt, n = 0;
	size_t i;
	int tid;

	if (!ws || !w->st.ext4_sync || (!flush && !write))
		return;
	/* shared among the fsyncs waiting on the device, filtered or not */
	for (i = 0; (x = windows_nth(ws, WIN_EXT4_SYNC, i, &tid)); i++)
		n += disk_of(w, x->dev) == rq->dev;
	if (!n)
		return;
	dt = rq->complete_ts > rq->issue_ts && rq->issue_ts ?
	     rq->complete_ts - rq->issue_ts : 0;
	for (i = 0; (x = windows_nth(ws, WIN_EXT4_SYNC, i, &tid)); i++) {
		struct wa_fsync *f;

		if (disk_of(w, x->dev) != rq->dev ||
		    !(f = fsync_of(w, tid, x)))
			continue;	/* a filtered one's share is not shown */
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
	case AK_STACKED:
		/* the backing file's data, for the device above */
		return WA_DATA;
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
	blk_tally_add(&dv->ops, rq);
	if (rq->op == BLK_OP_WRITE)
		dv->cls[classify(d)] += rq->bytes;
	else if (rq->op == BLK_OP_FLUSH)
		dv->flush_ns += dt;
	dv->preflush += rq->preflush;
	dv->fua += rq->fua;
	if (rq->op != BLK_OP_FLUSH && (rq->preflush || rq->fua))
		dv->flush_ns += dt;
}

/* diskstats fields after the name (Documentation/admin-guide/iostats.rst):
 * writes completed (index 4), sectors written (index 6), flush requests
 * completed (index 15, kernels 5.5 and later; 0 before). */
void wa_diskstats(struct wa *w, const struct meta_diskstats *a,
		  const struct meta_diskstats *b)
{
	struct wa_dev *d;

	if (b->v[6] < a->v[6] || b->v[4] < a->v[4])
		return;		/* counters reset (device re-created) */
	d = wa_dev_get(w, a->dev);
	d->ds = true;
	d->ds_write_bytes = (b->v[6] - a->v[6]) * BLK_SECTOR_SIZE;
	d->ds_writes = b->v[4] - a->v[4];
	d->ds_flushes = b->v[15] >= a->v[15] ? b->v[15] - a->v[15] : 0;
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
	for (size_t i = 0; i < w->ndev; i++)
		w->dev[i].commit_logging_ms = hz > 0 ?
			w->dev[i].commit_logging_j * 1000 / (uint64_t)hz : 0;
	if (w->ndev)
		qsort(w->dev, w->ndev, sizeof(*w->dev), cmp_dev);
}

/* The devices the overall ratio counts: application bytes and writes. */
static bool overall_dev(const struct wa_dev *d)
{
	return d->app_bytes && d->ops.bytes[BLK_OP_WRITE];
}

void wa_overall(const struct wa *w, uint64_t *app, uint64_t *dev,
		uint64_t *ds)
{
	*app = *dev = *ds = 0;
	for (size_t i = 0; i < w->ndev; i++) {
		const struct wa_dev *d = &w->dev[i];

		if (!overall_dev(d))
			continue;
		*app += d->app_bytes;
		*dev += d->ops.bytes[BLK_OP_WRITE];
		*ds += d->ds_write_bytes;
	}
}

bool wa_dev_shown(const struct wa_dev *d)
{
	return wa_dev_rwf(d) || d->commits ||
	       (d->app_bytes && blk_major(d->dev));
}

static void total(const struct wa *w, struct wa_dev *t, bool counted)
{
	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < w->ndev; i++) {
		const struct wa_dev *d = &w->dev[i];

		if (counted && !overall_dev(d))
			continue;

		blk_tally_sum(&t->ops, &d->ops);
		for (int c = 0; c < WA_NCLASS; c++)
			t->cls[c] += d->cls[c];
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

void wa_total(const struct wa *w, struct wa_dev *t)
{
	total(w, t, false);
}

void wa_total_counted(const struct wa *w, struct wa_dev *t)
{
	total(w, t, true);
}

/* The file system of a file: its dev:ino, else the mount of its path. */
static uint32_t file_fsdev(const char *snap, const struct file *f,
			   bool *known)
{
	uint32_t dev = 0;

	*known = true;
	if (f->has_devino && f->major)
		return blk_mkdev(f->major, f->minor & BLK_MINOR_MASK);
	if (f->path && meta_mount_of(snap, f->path, &dev) && blk_major(dev))
		return dev;
	*known = false;
	return 0;
}

void wa_finish(struct wa *w, struct filetab *ft, const char *snap_start,
	       const char *snap_end, int hz)
{
	struct meta_diskstats a, b;

	for (size_t i = 0; ft && i < filetab_count(ft); i++) {
		struct file *f = filetab_at(ft, i);
		struct filestat *fs = f->user;
		bool known;
		uint32_t dev;

		if (!fs || !fs->write_bytes)
			continue;
		dev = file_fsdev(snap_start, f, &known);
		w->app_all += fs->write_bytes;
		if (!known) {
			w->app_unplaced += fs->write_bytes;
			continue;
		}
		wa_add_app(w, dev, fs->write_bytes);
	}
	for (size_t i = 0; snap_start && snap_end &&
	     !w->st.diskstats_not_split && i < w->ndev; i++) {
		uint32_t dev = w->dev[i].dev;

		if (w->p->filter && !filter_dev(w->p->filter, dev, dev))
			continue;
		if (meta_diskstats(snap_start, dev, &a) &&
		    meta_diskstats(snap_end, dev, &b))
			wa_diskstats(w, &a, &b);
	}
	wa_end(w, hz);
}
