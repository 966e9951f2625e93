// SPDX-License-Identifier: MIT
/*
 * summary.c - the diskstats deltas next to the trace and the config
 * highlights of the summary view (see summary.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "base/blk.h"
#include "base/err.h"
#include "input/meta.h"
#include "stats/stats.h"
#include "stats/summary.h"

const char *const ds_key[DS_N] = {
	"reads", "read_sectors", "writes", "write_sectors", "discards",
	"discard_sectors", "flushes", "io_ms",
};

static const int ds_index[DS_N] = { 0, 2, 4, 6, 11, 13, 15, 9 };

/* ------------------------------------------------------------------ */
/* diskstats */

/*
 * They count the same requests as the block events, with one known
 * difference: an empty PREFLUSH write that becomes a flush request also
 * ends as a write of 0 sectors for diskstats, so diskstats' writes may
 * exceed the trace's by up to its flushes (tests/accuracy/diskstats.sh).
 */
struct dsdev {
	uint32_t dev;
	char name[64];
	bool have_end;
	uint64_t start[DS_N], end[DS_N];
};

struct dslist {
	struct dsdev *v;
	size_t n, alloc;
	bool end;		/* filling the end values */
};

static int acc_diskstats(char **f, int n, void *arg)
{
	struct dslist *l = arg;
	struct meta_diskstats ds;
	struct dsdev *d = NULL;

	if (!meta_diskstats_line(f, n, &ds))
		return 0;
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].dev == ds.dev)
			d = &l->v[i];
	if (l->end) {
		if (!d)
			return 0;
		d->have_end = true;
		for (int i = 0; i < DS_N; i++)
			d->end[i] = ds.v[ds_index[i]];
		return 0;
	}
	if (d)
		return 0;
	d = an_push(&l->v, &l->n, &l->alloc, sizeof(*l->v), 8);
	if (!d)
		return -AN_E_NOMEM;
	d->dev = ds.dev;
	snprintf(d->name, sizeof(d->name), "%s", ds.name);
	for (int i = 0; i < DS_N; i++)
		d->start[i] = ds.v[ds_index[i]];
	return 0;
}

/* The diskstats fields of an operation: its requests, its sectors (-1: none). */
static const struct {
	int reqs, sectors;
} ds_of[BLK_OP_MAX] = {
	[BLK_OP_READ] = { DS_R, DS_RS },
	[BLK_OP_WRITE] = { DS_W, DS_WS },
	[BLK_OP_DISCARD] = { DS_D, DS_DS },
	[BLK_OP_FLUSH] = { DS_F, -1 },
	[BLK_OP_OTHER] = { -1, -1 },
};

/* What the trace saw complete on dev, in diskstats' units. */
static void trace_counts(const struct stats *st, uint32_t dev,
			 uint64_t t[DS_N])
{
	memset(t, 0, sizeof(uint64_t) * DS_N);
	for (size_t i = 0; i < st->ndev; i++) {
		const struct devstat *d = &st->dev[i];

		if (d->dev != dev || d->op >= BLK_OP_MAX ||
		    ds_of[d->op].reqs < 0)
			continue;
		t[ds_of[d->op].reqs] += d->reqs;
		if (ds_of[d->op].sectors >= 0)
			t[ds_of[d->op].sectors] += d->bytes / BLK_SECTOR_SIZE;
	}
}

long summary_diskstats_rows(const struct stats *st, struct ds_row **rows)
{
	const struct source_info *in = st->info;
	struct dslist l = { 0 };
	struct ds_row *v;
	long m = 0;

	*rows = NULL;
	if (!in->snapshot_start || !in->snapshot_end)
		return 0;
	if (meta_lines(in->snapshot_start, "diskstats", acc_diskstats, &l) < 0)
		goto nomem;
	l.end = true;
	if (l.n && meta_lines(in->snapshot_end, "diskstats", acc_diskstats,
			      &l) < 0)
		goto nomem;
	v = an_calloc(l.n ? l.n : 1, sizeof(*v));
	if (!v)
		goto nomem;
	for (size_t i = 0; i < l.n; i++) {
		struct dsdev *d = &l.v[i];
		struct ds_row *r = &v[m];
		uint64_t sum = 0, tsum = 0;

		if (!d->have_end)
			continue;
		memset(r, 0, sizeof(*r));
		for (int k = 0; k < DS_N; k++) {
			r->reset |= d->end[k] < d->start[k];
			r->delta[k] = d->end[k] >= d->start[k] ?
				      d->end[k] - d->start[k] : 0;
			if (k != DS_IOMS)
				sum += r->delta[k];
		}
		trace_counts(st, d->dev, r->trace);
		for (int k = 0; k < DS_N; k++)
			tsum += r->trace[k];
		if (!sum && !tsum)
			continue;
		r->dev = d->dev;
		snprintf(r->name, sizeof(r->name), "%s", d->name);
		r->disk = meta_disk_of(in->snapshot_start, d->dev);
		m++;
	}
	free(l.v);
	*rows = v;
	return m;
nomem:
	free(l.v);
	return -AN_E_NOMEM;
}

/* ------------------------------------------------------------------ */
/* Config highlights: the devices that did I/O, their mounts, sysctls */

static struct cfg_bdev *bdev_find(struct config *c, const char *name)
{
	for (size_t i = 0; i < c->nbdev; i++)
		if (!strcmp(c->bdev[i].name, name))
			return &c->bdev[i];
	return NULL;
}

static int acc_bdev(char **f, int n, void *arg)
{
	struct config *c = arg;
	struct cfg_bdev *b;

	if (n < 5)
		return 0;
	b = bdev_find(c, f[1]);
	if (!b) {
		b = an_push(&c->bdev, &c->nbdev, &c->abdev, sizeof(*b), 16);
		if (!b)
			return -AN_E_NOMEM;
		snprintf(b->name, sizeof(b->name), "%s", f[1]);
		snprintf(b->mm, sizeof(b->mm), "%s", f[2]);
	}
	if (!strcmp(f[3], "parent"))
		snprintf(b->parent, sizeof(b->parent), "%s", f[4]);
	else if (!strcmp(f[3], "scheduler"))
		snprintf(b->scheduler, sizeof(b->scheduler), "%s", f[4]);
	else if (!strcmp(f[3], "rotational"))
		snprintf(b->rotational, sizeof(b->rotational), "%s", f[4]);
	else if (!strcmp(f[3], "write_cache"))
		snprintf(b->write_cache, sizeof(b->write_cache), "%s", f[4]);
	return 0;
}

/* The file system types of summary_fs_of_interest(). */
static const char *const fs_interest[] = {
	"ext4", "ext3", "ext2", "xfs", "btrfs", "f2fs", "vfat", "exfat",
};

bool summary_fs_of_interest(const char *fstype)
{
	for (size_t i = 0; i < ARRAY_SIZE(fs_interest); i++)
		if (!strcmp(fstype, fs_interest[i]))
			return true;
	return false;
}

/* The sysctls of summary_sysctl_of_interest(); a trailing '*': a prefix. */
static const char *const sysctl_interest[] = {
	"vm.dirty_*", "vm.swappiness", "vm.vfs_cache_pressure",
};

bool summary_sysctl_of_interest(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(sysctl_interest); i++) {
		const char *k = sysctl_interest[i];
		size_t len = strlen(k);

		if (k[len - 1] == '*' ? !strncmp(key, k, len - 1) :
		    !strcmp(key, k))
			return true;
	}
	return false;
}

static int acc_sysctl(char **f, int n, void *arg)
{
	struct config *c = arg;
	struct cfg_sysctl *v;

	if (n < 3 || !summary_sysctl_of_interest(f[1]))
		return 0;
	v = an_push(&c->sysctl, &c->nsysctl, &c->asysctl, sizeof(*v), 16);
	if (!v)
		return -AN_E_NOMEM;
	v->key = an_strdup(f[1]);
	v->value = an_strdup(f[2]);
	return v->key && v->value ? 0 : -AN_E_NOMEM;
}

/* mount MAJ:MIN SOURCE MOUNTPOINT FSTYPE OPTS SUPEROPTS */
static int acc_mount(char **f, int n, void *arg)
{
	struct config *c = arg;
	struct cfg_mount *m;
	char opts[2048];
	bool io = false;

	if (n < 7 || !summary_fs_of_interest(f[4]))
		return 0;
	for (size_t i = 0; i < c->nbdev; i++) {
		struct cfg_bdev *b = &c->bdev[i], *p;

		if (strcmp(b->mm, f[1]))
			continue;
		p = b->parent[0] ? bdev_find(c, b->parent) : NULL;
		io = b->io || (p && p->io);
	}
	if (!io)
		return 0;
	m = an_push(&c->mount, &c->nmount, &c->amount, sizeof(*m), 8);
	if (!m)
		return -AN_E_NOMEM;
	m->dev = an_strdup(f[1]);
	m->source = an_strdup(f[2]);
	m->dir = an_strdup(f[3]);
	m->fstype = an_strdup(f[4]);
	m->options = an_strdup(f[5]);
	m->super = an_strdup(f[6]);
	if (!m->dev || !m->source || !m->dir || !m->fstype || !m->options ||
	    !m->super)
		return -AN_E_NOMEM;
	snprintf(opts, sizeof(opts), "%s,%s", f[5], f[6]);
	m->ext = !strncmp(f[4], "ext", 3);
	m->barrier = meta_mount_barrier(opts);
	meta_mount_opt(opts, "data", m->data, sizeof(m->data));
	meta_mount_opt(opts, "commit", m->commit, sizeof(m->commit));
	return 0;
}

struct sched_of {
	char mm[32];
	char *buf;
	size_t n;
};

/* "blockdev NAME MAJ:MIN scheduler VALUE": the active one of VALUE. */
static int acc_sched(char **f, int n, void *arg)
{
	struct sched_of *so = arg;
	const char *v, *open, *close;

	if (n < 5 || strcmp(f[2], so->mm) || strcmp(f[3], "scheduler"))
		return 0;
	v = f[4];
	open = strchr(v, '[');
	close = open ? strchr(open, ']') : NULL;
	if (open && close)
		snprintf(so->buf, so->n, "%.*s", (int)(close - open - 1),
			 open + 1);
	else
		snprintf(so->buf, so->n, "%s", v);
	return 1;
}

void summary_measure(const struct stats *st, uint32_t dev,
		     struct dev_measure *m)
{
	struct sched_of so = { .buf = m->scheduler, .n = sizeof(m->scheduler) };

	memset(m, 0, sizeof(*m));
	for (size_t i = 0; i < st->ndev; i++) {
		if (st->dev[i].dev != dev)
			continue;
		if (st->dev[i].queue.count)
			m->inserts = true;
		if (st->dev[i].q2c.count)
			m->q2c = true;
	}
	blk_dev_str(dev, so.mm, sizeof(so.mm));
	if (st->info && st->info->snapshot_start)
		meta_lines(st->info->snapshot_start, "blockdev", acc_sched, &so);
	m->i2d = m->inserts && strcmp(m->scheduler, "none");
	m->total = m->i2d ? "I2C" : "D2C";
	if (!strcmp(m->scheduler, "none"))
		m->why = "no I/O scheduler (none)";
	else if (!m->inserts)
		m->why = "no block_rq_insert";
}

int summary_config(const struct stats *st, struct config *c)
{
	const char *snap = st->info->snapshot_start;
	int rc;

	memset(c, 0, sizeof(*c));
	c->snapshot = snap != NULL;
	if (!snap)
		return 0;
	rc = meta_lines(snap, "blockdev", acc_bdev, c);
	for (size_t i = 0; !rc && i < st->ndev; i++) {
		char mm[32];

		blk_dev_str(st->dev[i].dev, mm, sizeof(mm));
		for (size_t k = 0; k < c->nbdev; k++)
			if (!strcmp(c->bdev[k].mm, mm))
				c->bdev[k].io = true;
	}
	if (!rc)
		rc = meta_lines(snap, "sysctl", acc_sysctl, c);
	if (!rc)
		rc = meta_lines(snap, "mount", acc_mount, c);
	if (rc) {
		summary_config_release(c);
		return -AN_E_NOMEM;
	}
	return 0;
}

void summary_config_release(struct config *c)
{
	for (size_t i = 0; i < c->nsysctl; i++) {
		free(c->sysctl[i].key);
		free(c->sysctl[i].value);
	}
	free(c->sysctl);
	for (size_t i = 0; i < c->nmount; i++) {
		struct cfg_mount *m = &c->mount[i];

		free(m->dev);
		free(m->source);
		free(m->dir);
		free(m->fstype);
		free(m->options);
		free(m->super);
	}
	free(c->mount);
	free(c->bdev);
	memset(c, 0, sizeof(*c));
}
