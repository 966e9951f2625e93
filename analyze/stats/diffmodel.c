// SPDX-License-Identifier: MIT
/*
 * diffmodel.c - two recordings as sections of keyed rows of metrics
 * (see diffmodel.h).
 */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "base/err.h"
#include "input/meta.h"
#include "stats/diffmodel.h"
#include "stats/dirty.h"
#include "stats/rows.h"
#include "stats/signif.h"
#include "stats/stats.h"
#include "stats/summary.h"

static double ratio(double num, double den)
{
	return den > 0 ? num / den : NAN;
}

/* ------------------------------------------------------------------ */
/* The tables: one per section, each metric with its getter */

#define SUM(json, label, u, field) \
	{ json, label, u, offsetof(struct dm_row, field), NULL, NULL, 0 }
#define GET(json, label, u, fn) { json, label, u, 0, fn, NULL, 0 }
/* A latency read from a distribution: tested by Mann-Whitney U. */
#define GETD(json, label, u, fn, dist) { json, label, u, 0, fn, dist, 0 }
/* The p-th percentile of a distribution (100: its max), in ns. */
#define PCT(json, label, p, dist) { json, label, DM_NS, 0, NULL, dist, p }
/* The latencies every distribution shows: p50, p90, p99, p99.9, max. */
#define PCTS(json, label, dist) \
	PCT(json "p50_ns", label "p50(ms)", 50, dist), \
	PCT(json "p90_ns", label "p90(ms)", 90, dist), \
	PCT(json "p99_ns", label "p99(ms)", 99, dist), \
	PCT(json "p999_ns", label "p99.9(ms)", 99.9, dist), \
	PCT(json "max_ns", label "max(ms)", 100, dist)
/* A getter of one expression over the row r. */
#define GETTER(name, expr) \
	static double name(const struct dm_row *r) { return (expr); }

GETTER(g_requests, (double)wa_dev_rwf(&r->wa))
GETTER(g_sum_wa, ratio((double)r->overall_dev, (double)r->overall_app))

static const struct dm_metric m_summary[] = {
	SUM("duration_ns", "duration(s)", DM_NS, duration),
	SUM("events", "events", DM_COUNT, events),
	SUM("lost_events", "lost events", DM_COUNT, lost),
	GET("block_requests", "block requests", DM_COUNT, g_requests),
	SUM("read_bytes", "read(MiB)", DM_BYTES, wa.ops.bytes[BLK_OP_READ]),
	SUM("write_bytes", "written(MiB)", DM_BYTES, wa.ops.bytes[BLK_OP_WRITE]),
	SUM("flushes", "flush requests", DM_COUNT, wa.ops.n[BLK_OP_FLUSH]),
	SUM("syscalls", "file syscalls", DM_COUNT, calls),
	SUM("app_write_bytes", "app writes(MiB)", DM_BYTES, app_bytes),
	SUM("fsyncs", "fsync+fdatasync", DM_COUNT, fsyncs),
	SUM("throttled_ns", "throttled(ms)", DM_NS, throttled_ns),
	GET("wa_ratio", "write ampl.(x)", DM_RATIO, g_sum_wa),
};

static const struct hist *q2c(const struct dm_row *r)
{
	return r->dev ? &r->dev->total : NULL;
}

static const struct hist *d2c(const struct dm_row *r)
{
	return r->dev ? &r->dev->device : NULL;
}

/* I2D where the devices view measures it (a scheduler, inserts): else none */
static const struct hist *q2d(const struct dm_row *r)
{
	return r->dev && r->i2d ? &r->dev->queue : NULL;
}

static const struct hist *lat(const struct dm_row *r)
{
	return &r->h;
}

GETTER(d_reqs, (double)r->dev->reqs)
GETTER(d_bytes, (double)r->dev->bytes)
GETTER(d_iops, r->secs > 0 ? (double)r->dev->reqs / r->secs : 0)
GETTER(d_bps, r->secs > 0 ? (double)r->dev->bytes / r->secs : 0)
GETTER(d_fua, (double)r->dev->fua)
GETTER(d_preflush, (double)r->dev->preflush)
GETTER(d_q2d_p50, r->i2d && r->dev->queue.count ?
	(double)hist_pct(&r->dev->queue, 50) : NAN)

static const struct dm_metric m_devices[] = {
	GET("requests", "requests", DM_COUNT, d_reqs),
	GET("bytes", "MiB", DM_BYTES, d_bytes),
	GET("iops", "IOPS", DM_RATE, d_iops),
	GET("bytes_per_s", "MiB/s", DM_BPS, d_bps),
	GET("fua", "FUA", DM_COUNT, d_fua),
	GET("preflush", "PREFLUSH", DM_COUNT, d_preflush),
	PCTS("", "I2C ", q2c),
	PCT("d2c_p50_ns", "D2C p50(ms)", 50, d2c),
	PCT("d2c_p99_ns", "D2C p99(ms)", 99, d2c),
	GETD("i2d_p50_ns", "I2D p50(ms)", DM_NS, d_q2d_p50, q2d),
};

GETTER(p_wa, ratio((double)r->blk_write_bytes + (double)r->journal_bytes,
		   (double)r->write_bytes))

static const struct dm_metric m_procs[] = {
	SUM("processes", "processes", DM_COUNT, procs),
	SUM("syscalls", "file syscalls", DM_COUNT, calls),
	SUM("read_bytes", "read(MiB)", DM_BYTES, read_bytes),
	SUM("write_bytes", "written(MiB)", DM_BYTES, write_bytes),
	SUM("fsyncs", "fsync+fdatasync", DM_COUNT, fsyncs),
	PCTS("fsync_", "fsync ", lat),
	SUM("blk_write_bytes", "device writes(MiB)", DM_BYTES, blk_write_bytes),
	SUM("journal_bytes", "journal(MiB)", DM_BYTES, journal_bytes),
	SUM("throttled_ns", "throttled(ms)", DM_NS, throttled_ns),
	GET("wa_ratio", "write ampl.(x)", DM_RATIO, p_wa),
};

/* files: blk_write_bytes holds the journal bytes too */
GETTER(f_wa, ratio((double)r->blk_write_bytes, (double)r->write_bytes))

static const struct dm_metric m_files[] = {
	SUM("writes", "writes", DM_COUNT, writes),
	SUM("write_bytes", "written(MiB)", DM_BYTES, write_bytes),
	SUM("reads", "reads", DM_COUNT, reads),
	SUM("read_bytes", "read(MiB)", DM_BYTES, read_bytes),
	SUM("fsyncs", "fsyncs", DM_COUNT, fsyncs),
	PCT("fsync_p50_ns", "fsync p50(ms)", 50, lat),
	PCT("fsync_p99_ns", "fsync p99(ms)", 99, lat),
	SUM("blk_write_bytes", "device writes(MiB)", DM_BYTES, blk_write_bytes),
	GET("wa_ratio", "write ampl.(x)", DM_RATIO, f_wa),
};

GETTER(w_ds, r->wa.ds ? (double)r->wa.ds_write_bytes : NAN)
GETTER(w_ratio, ratio((double)r->wa.ops.bytes[BLK_OP_WRITE],
		       (double)r->wa.app_bytes))

static const struct dm_metric m_wa[] = {
	SUM("app_write_bytes", "app writes(MiB)", DM_BYTES, wa.app_bytes),
	SUM("write_bytes", "device writes(MiB)", DM_BYTES, wa.ops.bytes[BLK_OP_WRITE]),
	SUM("data_bytes", "data(MiB)", DM_BYTES, wa.cls[WA_DATA]),
	SUM("journal_bytes", "journal(MiB)", DM_BYTES, wa.cls[WA_JOURNAL]),
	SUM("metadata_bytes", "metadata(MiB)", DM_BYTES, wa.cls[WA_META]),
	SUM("other_bytes", "other(MiB)", DM_BYTES, wa.cls[WA_OTHER]),
	SUM("flushes", "flushes", DM_COUNT, wa.ops.n[BLK_OP_FLUSH]),
	SUM("preflush", "PREFLUSH writes", DM_COUNT, wa.preflush),
	SUM("fua", "FUA writes", DM_COUNT, wa.fua),
	SUM("flush_ns", "flush time(ms)", DM_NS, wa.flush_ns),
	SUM("jbd2_commits", "jbd2 commits", DM_COUNT, wa.commits),
	SUM("jbd2_blocks_logged", "jbd2 blocks logged", DM_COUNT,
	    wa.blocks_logged),
	GET("diskstats_write_bytes", "diskstats writes(MiB)", DM_BYTES, w_ds),
	GET("ratio", "write ampl.(x)", DM_RATIO, w_ratio),
};

GETTER(s_per, ratio((double)r->flushes, (double)r->ext4_fsyncs))

static const struct dm_metric m_fsync[] = {
	SUM("ext4_fsyncs", "ext4 fsyncs", DM_COUNT, ext4_fsyncs),
	PCTS("", "", lat),
	SUM("flushes", "flushes during", DM_COUNT, flushes),
	SUM("flush_ns", "flush time(ms)", DM_NS, flush_ns),
	GET("flushes_per_fsync", "flushes/fsync", DM_RATIO, s_per),
};

/* Pages of the dirty counters in bytes. */
#define PG(v)	((double)((v) * r->dirty->page_size))

GETTER(y_bdp, (double)r->dirty->bdp)
GETTER(y_paused, (double)r->dirty->bdp_paused)
GETTER(y_pause, (double)dirty_ms2ns(r->dirty->pause_ms))
GETTER(y_max_pause, (double)dirty_ms2ns(r->dirty->max_pause_ms))
GETTER(y_max_dirty, PG(r->dirty->max_dirty))
GETTER(y_bg, r->dirty->gds_samples ? PG(r->dirty->max_bg_thresh) : NAN)
GETTER(y_thresh, r->dirty->gds_samples ? PG(r->dirty->max_thresh) : NAN)
GETTER(y_wb_bg, PG(r->dirty->wb_pages[0]))
GETTER(y_wb_periodic, PG(r->dirty->wb_pages[3]))
GETTER(y_wb_sync, PG(r->dirty->wb_pages[2]))
GETTER(y_dev, (double)r->dirty->write_bytes)

static double y_wb_other(const struct dm_row *r)
{
	uint64_t other = 0;

	for (int q = 0; q < DIRTY_REASONS; q++)
		if (q != 0 && q != 2 && q != 3)
			other += r->dirty->wb_pages[q];
	return PG(other);
}

static double y_slots(const struct dm_row *r)
{
	uint64_t n = 0;

	for (size_t i = 0; i < r->dirty->nslot; i++)
		n += r->dirty->slot[i].write_bytes != 0;
	return (double)n;
}

static double y_peak(const struct dm_row *r)
{
	uint64_t peak = 0;

	for (size_t i = 0; i < r->dirty->nslot; i++)
		if (r->dirty->slot[i].write_bytes > peak)
			peak = r->dirty->slot[i].write_bytes;
	return (double)peak * 1e9 / (double)DIRTY_SLOT_NS;
}

static const struct dm_metric m_dirty[] = {
	GET("throttle_events", "throttle events", DM_COUNT, y_bdp),
	GET("paused_events", "paused events", DM_COUNT, y_paused),
	GET("paused_ns", "paused(ms)", DM_NS, y_pause),
	GET("max_pause_ns", "longest pause(ms)", DM_NS, y_max_pause),
	GET("max_dirty_bytes", "max dirty(MiB)", DM_BYTES, y_max_dirty),
	GET("background_thresh_bytes", "bg threshold(MiB)", DM_BYTES, y_bg),
	GET("dirty_thresh_bytes", "dirty threshold(MiB)", DM_BYTES, y_thresh),
	GET("wb_background_bytes", "wb background(MiB)", DM_BYTES, y_wb_bg),
	GET("wb_periodic_bytes", "wb periodic(MiB)", DM_BYTES, y_wb_periodic),
	GET("wb_sync_bytes", "wb sync(MiB)", DM_BYTES, y_wb_sync),
	GET("wb_other_bytes", "wb other(MiB)", DM_BYTES, y_wb_other),
	GET("device_write_bytes", "device writes(MiB)", DM_BYTES, y_dev),
	GET("write_slots", "slots writing(100ms)", DM_COUNT, y_slots),
	GET("peak_bytes_per_s", "peak MiB/s", DM_BPS, y_peak),
};

double dm_value(const struct dm_metric *m, const struct dm_row *r)
{
	if (m->get)
		return m->get(r);
	if (m->dist) {
		const struct hist *h = m->dist(r);

		return h ? (double)hist_pct(h, m->pct) : NAN;
	}
	return (double)*(const uint64_t *)((const char *)r + m->off);
}

void dm_signif(const struct dm_metric *m, const struct dm_row *b,
	       const struct dm_row *a, double secs_b, double secs_a,
	       struct dm_sig *out)
{
	double vb = b ? dm_value(m, b) : 0, va = a ? dm_value(m, a) : 0;

	memset(out, 0, sizeof(*out));
	out->after_larger = NAN;
	if (m->dist) {
		const struct hist *hb = b ? m->dist(b) : NULL;
		const struct hist *ha = a ? m->dist(a) : NULL;
		double ps = NAN, p = hb && ha ? sig_mwu(hb, ha, &ps) : -1;

		if (p < 0)
			return;
		out->test = SIG_MWU;
		out->p = p;
		out->after_larger = ps;
		/* a latency change below DM_MIN_NS is never significant */
		out->significant = sig_judge(p, vb, va) &&
				   fabs(ps - 0.5) >= SIG_MIN_EFFECT &&
				   fabs(va - vb) >= DM_MIN_NS;
		return;
	} else if (m->u == DM_COUNT || m->u == DM_RATE) {
		/* a rate is tested as its count over the recording */
		double cb = m->u == DM_RATE ? vb * secs_b : vb;
		double ca = m->u == DM_RATE ? va * secs_a : va;
		double p = m->u == DM_RATE ?
			sig_poisson((uint64_t)llround(cb), secs_b,
				    (uint64_t)llround(ca), secs_a) :
			sig_poisson((uint64_t)llround(cb), 1,
				    (uint64_t)llround(ca), 1);

		if (isnan(vb) || isnan(va) || cb < 0 || ca < 0 || p < 0)
			return;
		out->test = SIG_POISSON;
		out->p = p;
	} else {
		return;
	}
	out->significant = sig_judge(out->p, vb, va);
}

const struct hist *dm_picture(const struct dm_section *s,
			      const struct dm_row *r)
{
	switch (s->pic) {
	case DM_PIC_Q2C:
		return q2c(r);
	case DM_PIC_FSYNC:
		return lat(r);
	default:
		return NULL;
	}
}

/* ------------------------------------------------------------------ */
/* Filling the rows of one recording */

/* How the rows of AFTER are named: as BEFORE names its devices and files. */
struct fill {
	const struct stats *st;
	const struct snapdiff *sd;	/* AFTER: the map to BEFORE */
	const struct stats *before;	/* AFTER: BEFORE's pass */
	char key[512];
};

/* A row asked for by its key among rows v (found by a hash of it: the
 * files of a recording are tens of thousands of rows). */
struct key_q {
	const char *key;
	const struct dm_row *v;
};

static bool key_same(const void *arg, size_t i)
{
	const struct key_q *q = arg;

	return !strcmp(q->v[i].key, q->key);
}

/* The index of the row of key in section s, or s->n: none. */
static size_t key_find(const struct dm_section *s, const char *key)
{
	struct key_q q = { key, s->rows };

	return hmap_index_find(&s->at, hash_str(HASH_SEED, key), key_same,
			       &q, s->n);
}

static struct dm_row *row_get(struct dm_section *s, const char *key)
{
	size_t i = key_find(s, key);
	struct dm_row *r;

	if (i < s->n)
		return &s->rows[i];
	r = an_push(&s->rows, &s->n, &s->alloc, sizeof(*s->rows), 16);
	if (!r)
		return NULL;
	r->key = an_strdup(key);
	if (!r->key ||
	    hmap_index_add(&s->at, hash_str(HASH_SEED, key), s->n - 1)) {
		free(r->key);
		s->n--;		/* a row has a key */
		return NULL;
	}
	return r;
}

/* A device as BEFORE names it. */
static const char *dev_key(const struct fill *c, uint32_t dev, char *buf,
			   size_t n)
{
	if (c->sd && c->before) {
		uint32_t bd = snapdiff_dev(c->sd, dev);

		if (bd != dev)
			return stats_dev_name(c->before, bd, buf, n);
	}
	return stats_dev_name(c->st, dev, buf, n);
}

/*
 * A process name as the rows of both sides key it: the kernel's workers
 * as one, "kworker/" "*": their numbers differ from run to run, and the
 * work a worker's name says (kworker/u8:4-loop0, -writeback,
 * -events_unbound) is the last it picked up, not the one it did when an
 * event saw it; every other name is itself.
 */
static const char *comm_key(const char *comm)
{
	if (!comm)
		return "?";
	return strncmp(comm, "kworker/", 8) ? comm : "kworker/*";
}

const char *dm_comm_key(const char *comm)
{
	return comm_key(comm);
}

static int fill_summary(struct dm_section *s, struct fill *c)
{
	const struct stats *st = c->st;
	struct dm_row *r = row_get(s, "all");
	struct proc_row *v = NULL;
	uint64_t ds, gaps;
	long n = 0;

	if (!r)
		return -AN_E_NOMEM;
	if (st->have_sys) {
		n = rows_processes(st, true, &v);
		if (n < 0)
			return (int)n;
	}
	for (long i = 0; i < n; i++) {
		if (!v[i].ps)
			continue;
		r->fsyncs += v[i].ps->fsync.count;
		r->calls += v[i].ps->calls;
	}
	free(v);
	r->duration = stats_duration(st);
	r->events = st->events;
	r->lost = stats_lost(st, &gaps);
	wa_total(st->wa, &r->wa);
	wa_overall(st->wa, &r->overall_app, &r->overall_dev, &ds);
	r->app_bytes = st->wa->app_all;
	/* the pauses of balance_dirty_pages, in ms in the event */
	r->throttled_ns = dirty_ms2ns(st->dirty->pause_ms);
	return 0;
}

static int fill_devices(struct dm_section *s, struct fill *c)
{
	const struct stats *st = c->st;
	double secs = (double)stats_duration(st) / 1e9;

	for (size_t i = 0; i < st->ndev; i++) {
		const struct devstat *d = &st->dev[i];
		struct dev_measure m;
		struct dm_row *r;
		char name[64];

		snprintf(c->key, sizeof(c->key), "%s %s",
			 dev_key(c, d->dev, name, sizeof(name)),
			 blk_op_name(d->op));
		r = row_get(s, c->key);
		if (!r)
			return -AN_E_NOMEM;
		r->dev = d;
		r->secs = secs;
		summary_measure(st, d->dev, &m);
		r->i2d = m.i2d;
	}
	return 0;
}

static int fill_processes(struct dm_section *s, struct fill *c)
{
	const struct stats *st = c->st;
	const struct dirty *dt = st->dirty;
	struct proc_row *v;
	long n;

	if (!st->have_sys)
		return 0;
	n = rows_processes(st, true, &v);
	if (n < 0)
		return (int)n;
	for (long i = 0; i < n; i++) {
		const struct procstat *ps = v[i].ps;
		struct dm_row *r;

		if (!ps || !(ps->calls || ps->blk.write_bytes ||
			     ps->throttle_ns))
			continue;
		r = row_get(s, comm_key(v[i].p.comm));
		if (!r || hist_merge(&r->h, &ps->fsync) < 0) {
			free(v);
			return -AN_E_NOMEM;
		}
		r->procs++;
		r->calls += ps->calls;
		r->read_bytes += ps->read_bytes;
		r->write_bytes += ps->write_bytes;
		r->fsyncs += ps->fsync.count;
		r->blk_write_bytes += ps->blk.write_bytes;
		r->journal_bytes += ps->blk.journal_bytes;
	}
	free(v);
	/* throttling from the events (ms), per thread's process */
	for (size_t i = 0; i < dt->ntask; i++) {
		const struct dirty_task *t = &dt->task[i];
		struct dm_row *r;

		if (!t->pause_ms)
			continue;
		r = row_get(s, comm_key(rows_comm_at(st, t->tid, t->last_ts)));
		if (!r)
			return -AN_E_NOMEM;
		r->throttled_ns += dirty_ms2ns(t->pause_ms);
	}
	return 0;
}

static int fill_files(struct dm_section *s, struct fill *c)
{
	const struct stats *st = c->st;
	struct file_ident *v;
	char pbuf[4096];
	long n;

	if (!st->have_sys)
		return 0;
	n = rows_file_idents(st, &v);
	if (n < 0)
		return (int)n;
	for (long i = 0; i < n; i++) {
		const struct filestat *fs = v[i].s;
		const char *path = v[i].f.path;
		struct dm_row *r;

		if (!fs || !path || !(fs->writes || fs->reads ||
				      fs->blk.write_bytes || fs->fsync.count))
			continue;
		if (c->sd)
			path = snapdiff_path(c->sd, path, pbuf, sizeof(pbuf));
		r = row_get(s, path);
		if (!r || hist_merge(&r->h, &fs->fsync) < 0) {
			free(v);
			return -AN_E_NOMEM;
		}
		r->writes += fs->writes;
		r->write_bytes += fs->write_bytes;
		r->reads += fs->reads;
		r->read_bytes += fs->read_bytes;
		r->fsyncs += fs->fsync.count;
		r->blk_write_bytes += fs->blk.write_bytes +
				      fs->blk.journal_bytes;
	}
	free(v);
	return 0;
}

static int fill_wa(struct dm_section *s, struct fill *c)
{
	const struct wa *wa = c->st->wa;
	struct dm_row *r;
	uint64_t app, dev, ds;

	for (size_t i = 0; i < wa->ndev; i++) {
		const struct wa_dev *d = &wa->dev[i];
		char name[64];

		if (!wa_dev_shown(d) ||
		    !(d->ops.n[BLK_OP_WRITE] || d->app_bytes || d->ops.n[BLK_OP_FLUSH]))
			continue;
		r = row_get(s, dev_key(c, d->dev, name, sizeof(name)));
		if (!r)
			return -AN_E_NOMEM;
		r->wa = *d;
	}
	r = row_get(s, "overall");
	if (!r)
		return -AN_E_NOMEM;
	wa_total_counted(wa, &r->wa);
	wa_overall(wa, &app, &dev, &ds);
	r->wa.app_bytes = app;
	r->wa.ops.bytes[BLK_OP_WRITE] = dev;
	r->wa.ds = ds != 0;
	r->wa.ds_write_bytes = ds;
	return 0;
}

static int fill_fsync(struct dm_section *s, struct fill *c)
{
	const struct stats *st = c->st;

	/* fsync per comm, from the ext4 intervals */
	for (size_t i = 0; i < st->wa->nfs; i++) {
		const struct wa_fsync *w = &st->wa->fs[i];
		struct dm_row *r = row_get(s, comm_key(rows_comm_at(st, w->tid,
								    w->last_ts)));

		if (!r || hist_merge(&r->h, &w->lat) < 0)
			return -AN_E_NOMEM;
		r->ext4_fsyncs += w->count;
		r->flushes += w->flushes;
		r->flush_ns += w->flush_ns;
	}
	return 0;
}

static int fill_dirty(struct dm_section *s, struct fill *c)
{
	struct dm_row *r = row_get(s, "all");

	if (!r)
		return -AN_E_NOMEM;
	r->dirty = c->st->dirty;
	return 0;
}

/* The sections: name, metrics, picture, how the rows are filled. */
static const struct {
	const char *name;
	const struct dm_metric *m;
	int nm;
	enum dm_picture pic;
	int (*fill)(struct dm_section *s, struct fill *c);
} sections[DM_NSECT] = {
	[DM_SUMMARY] = { "summary", m_summary, ARRAY_SIZE(m_summary),
			 DM_PIC_NONE, fill_summary },
	[DM_DEVICES] = { "devices", m_devices, ARRAY_SIZE(m_devices),
			 DM_PIC_Q2C, fill_devices },
	[DM_PROCESSES] = { "processes", m_procs, ARRAY_SIZE(m_procs),
			   DM_PIC_NONE, fill_processes },
	[DM_FILES] = { "files", m_files, ARRAY_SIZE(m_files), DM_PIC_NONE,
		       fill_files },
	[DM_WA] = { "write_amplification", m_wa, ARRAY_SIZE(m_wa),
		    DM_PIC_NONE, fill_wa },
	[DM_FSYNC] = { "fsync", m_fsync, ARRAY_SIZE(m_fsync), DM_PIC_FSYNC,
		       fill_fsync },
	[DM_DIRTY] = { "dirty", m_dirty, ARRAY_SIZE(m_dirty), DM_PIC_NONE,
		       fill_dirty },
};

static void model_release(struct diffmodel *m)
{
	for (int i = 0; i < DM_NSECT; i++) {
		struct dm_section *s = &m->s[i];

		for (size_t k = 0; k < s->n; k++) {
			free(s->rows[k].key);
			hist_release(&s->rows[k].h);
		}
		free(s->rows);
		s->rows = NULL;
		s->n = s->alloc = 0;
		hmap_release(&s->at, NULL);
	}
}

static int model_fill(struct diffmodel *m, struct fill *c)
{
	memset(m, 0, sizeof(*m));
	for (int i = 0; i < DM_NSECT; i++) {
		struct dm_section *s = &m->s[i];
		int rc;

		s->name = sections[i].name;
		s->m = sections[i].m;
		s->nm = sections[i].nm;
		s->pic = sections[i].pic;
		rc = sections[i].fill(s, c);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Two recordings */

static bool dev_used_in(const struct stats *st, uint32_t dev)
{
	uint32_t disk = meta_disk_of(st->info->snapshot_start, dev);

	for (size_t i = 0; i < st->wa->ndev; i++) {
		const struct wa_dev *d = &st->wa->dev[i];

		if ((d->dev == dev || d->dev == disk) && wa_dev_rwf(d))
			return true;
	}
	return false;
}

static bool dev_used(uint32_t dev, int side, void *arg)
{
	const struct diff *d = arg;

	return dev_used_in(side ? d->a : d->b, dev);
}

/* The paths of st's files with I/O (NULL-terminated, the array owned);
 * NULL without memory. */
static const char **io_paths(const struct stats *st)
{
	struct file_ident *v = NULL;
	long n = st->have_sys ? rows_file_idents(st, &v) : 0;
	const char **p;
	size_t k = 0;

	if (n < 0)
		return NULL;
	p = an_calloc((size_t)n + 1, sizeof(*p));
	for (long i = 0; p && i < n; i++) {
		const struct filestat *fs = v[i].s;

		if (fs && v[i].f.path && (fs->writes || fs->reads ||
					  fs->blk.write_bytes || fs->fsync.count))
			p[k++] = v[i].f.path;
	}
	free(v);
	return p;
}

int diff_compute(struct diff *d, const struct stats *b, const struct stats *a)
{
	struct fill fb = { .st = b }, fa = { .st = a, .before = b };
	const char **files[2] = { io_paths(b), io_paths(a) };
	const char *const *const cfiles[2] = { files[0], files[1] };
	int rc;

	memset(d, 0, sizeof(*d));
	d->b = b;
	d->a = a;
	rc = files[0] && files[1] ?
	     snapdiff_compute(&d->sd, b->info->header_text,
			      b->info->snapshot_start, a->info->header_text,
			      a->info->snapshot_start, dev_used, d, cfiles) :
	     -AN_E_NOMEM;
	free(files[0]);
	free(files[1]);
	fa.sd = &d->sd;
	if (!rc)
		rc = model_fill(&d->mb, &fb);
	if (!rc)
		rc = model_fill(&d->ma, &fa);
	if (rc < 0)
		diff_release(d);
	return rc;
}

void diff_release(struct diff *d)
{
	model_release(&d->mb);
	model_release(&d->ma);
	snapdiff_release(&d->sd);
}

/*
 * Weight of a row for the top-N choice: its counts plus its bytes in
 * 4 KiB units (a request, a call and a page weigh alike).
 */
static double row_weight(const struct dm_section *s, const struct dm_row *r)
{
	double w = 0, v;

	for (int i = 0; i < s->nm; i++) {
		v = dm_value(&s->m[i], r);
		if (isnan(v))
			continue;
		if (s->m[i].u == DM_COUNT)
			w += v;
		else if (s->m[i].u == DM_BYTES)
			w += v / 4096;
	}
	return w;
}

static int cmp_pair(const void *x, const void *y)
{
	const struct dm_pair *a = x, *b = y;

	if (a->w != b->w)
		return a->w > b->w ? -1 : 1;
	if (a->size != b->size)
		return a->size > b->size ? -1 : 1;
	return strcmp(a->key, b->key);
}

long dm_pairs(const struct diff *d, int sect, long top, struct dm_pair **out)
{
	const struct dm_section *sb = &d->mb.s[sect], *sa = &d->ma.s[sect];
	struct dm_pair *v = an_calloc(sb->n + sa->n + 1, sizeof(*v));
	size_t n = 0;

	*out = v;
	if (!v)
		return -AN_E_NOMEM;
	for (size_t i = 0; i < sb->n; i++) {
		v[n].key = sb->rows[i].key;
		v[n].b = &sb->rows[i];
		n++;
	}
	/* BEFORE's rows by their index, AFTER's found in it */
	for (size_t i = 0; i < sa->n; i++) {
		const char *key = sa->rows[i].key;
		size_t k = key_find(sb, key);

		if (k == sb->n) {
			k = n++;
			v[k].key = key;
		}
		v[k].a = &sa->rows[i];
	}
	/* the largest changes first: a row of one side only changes by all it has */
	for (size_t i = 0; i < n; i++) {
		double wb = v[i].b ? row_weight(sb, v[i].b) : 0;
		double wa = v[i].a ? row_weight(sa, v[i].a) : 0;

		v[i].w = fabs(wa - wb);
		v[i].size = wa + wb;
	}
	qsort(v, n, sizeof(*v), cmp_pair);
	if (top > 0 && n > (size_t)top)
		n = (size_t)top;
	return (long)n;
}
