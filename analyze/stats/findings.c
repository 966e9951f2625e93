// SPDX-License-Identifier: MIT
/*
 * findings.c - `ioreport findings` (see findings.h and docs/findings.md):
 * the helpers that build a finding, the table of rules (each a function
 * of a file of its family: findings-sync.c, findings-device.c,
 * findings-write.c, findings-more.c) and the ranking.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "base/err.h"
#include "input/meta.h"
#include "replay/proctable.h"
#include "stats/filter.h"
#include "stats/findings-int.h"
#include "stats/rows.h"
#include "stats/stats.h"


const char *fnd_severity_name(enum fnd_severity s)
{
	return s == FND_HIGH ? "high" : s == FND_WARNING ? "warning" : "info";
}

const char *fnd_label(const struct finding *x)
{
	return x->caveat ? "caveat" : fnd_severity_name(x->sev);
}


/* ------------------------------------------------------------------ */
/* Building a finding */

struct finding *fnd_add(struct ctx *c, const char *rule,
			   enum fnd_severity sev, uint64_t lost_ns)
{
	struct findings *f = c->f;
	struct finding *x;

	x = an_push(&f->v, &f->n, &f->alloc, sizeof(*f->v), 8);
	if (!x) {
		c->err = -AN_E_NOMEM;
		return NULL;
	}
	x->rule = rule;
	x->sev = sev;
	x->lost_ns = lost_ns;
	return x;
}

void fnd_ent(struct ctx *c, struct finding *x, const char *kind,
		const char *name, int64_t id)
{
	struct fnd_entity *e;

	if (!x || x->nent == FND_ENTITIES || !name)
		return;
	for (int i = 0; i < x->nent; i++)
		if (!strcmp(x->ent[i].kind, kind) &&
		    !strcmp(x->ent[i].name, name))
			return;
	e = &x->ent[x->nent];
	e->kind = kind;
	e->id = id;
	e->name = an_strdup(name);
	if (!e->name) {
		c->err = -AN_E_NOMEM;
		return;
	}
	x->nent++;
}

void fnd_num(struct finding *x, const char *key, double v)
{
	if (x && x->nnum < FND_NUMBERS && !isnan(v) && !isinf(v))
		x->num[x->nnum++] = (struct fnd_number){ key, v };
}

/* The view the evidence of x is of. */
void fnd_ev_view(struct finding *x, const char *view)
{
	if (x)
		x->view = view;
}

/* A number of the evidence: the view's JSON member key, its value. */
void fnd_evn(struct finding *x, const char *key, double v)
{
	if (x && x->nev < FND_EVIDENCE && !isnan(v) && !isinf(v))
		x->ev[x->nev++] = (struct fnd_evidence){ key, NULL, v };
}

/* A string of the evidence (a row's device, op or path). */
void fnd_evs(struct ctx *c, struct finding *x, const char *key,
		const char *str)
{
	char *d;

	if (!x || x->nev == FND_EVIDENCE || !str)
		return;
	d = an_strdup(str);
	if (!d) {
		c->err = -AN_E_NOMEM;
		return;
	}
	x->ev[x->nev++] = (struct fnd_evidence){ key, d, 0 };
}

/* The sentence and the command that shows more (view of the recording). */
void fnd_say(struct ctx *c, struct finding *x, struct sbuf *sb,
		const char *view)
{
	if (!x) {
		sbuf_release(sb);
		return;
	}
	x->sentence = sbuf_detach(sb);
	/* the filters the findings were made with (info takes none) */
	x->more = an_asprintf("ioreport %s%s %s", view,
			      strcmp(view, "info") && c->args.buf ?
			      c->args.buf : "", c->path);
	if (!x->sentence || !x->more)
		c->err = -AN_E_NOMEM;
}

void fnd_add_pct(struct sbuf *sb, double part, double whole)
{
	double p = whole > 0 ? 100 * part / whole : 0;

	if (p > 0 && p < 0.01)
		sbuf_addstr(sb, "under 0.01%");
	else
		sbuf_addf(sb, p > 0 && p < 0.1 ? "%.2f%%" : p > 0 && p < 10 ?
			  "%.1f%%" : "%.0f%%", p);
}

/* The whole disk of a file system's device. */
uint32_t fnd_disk_of(const struct ctx *c, uint32_t fsdev)
{
	struct fnd_disks *d = c->disks;
	uint32_t disk;

	if (!c->snap)
		return fsdev;
	for (size_t i = 0; d && i < d->n; i++)
		if (d->v[i].dev == fsdev)
			return d->v[i].disk;
	disk = meta_disk_of(c->snap, fsdev);
	if (d && d->n < sizeof(d->v) / sizeof(*d->v)) {
		d->v[d->n].dev = fsdev;
		d->v[d->n++].disk = disk;
	}
	return disk;
}

/* The mount of interest on disk dev (summary_config()), or NULL. */
const struct cfg_mount *fnd_mount_on(const struct ctx *c, uint32_t dev)
{
	for (size_t i = 0; i < c->cfg.nmount; i++) {
		uint32_t d = meta_devt(c->cfg.mount[i].dev);

		if (d == dev || fnd_disk_of(c, d) == dev)
			return &c->cfg.mount[i];
	}
	return NULL;
}

/* The value of a start-snapshot sysctl, or NULL. */
const char *fnd_sysctl_of(const struct ctx *c, const char *key)
{
	for (size_t i = 0; i < c->cfg.nsysctl; i++)
		if (!strcmp(c->cfg.sysctl[i].key, key))
			return c->cfg.sysctl[i].value;
	return NULL;
}

static int on_memtotal(char **f, int n, void *arg)
{
	if (n >= 3 && !strcmp(f[1], "MemTotal")) {
		*(uint64_t *)arg = strtoull(f[2], NULL, 10) * 1024;
		return 1;
	}
	return 0;
}

uint64_t fnd_memtotal(struct ctx *c)
{
	uint64_t b = 0;

	if (c->snap && meta_lines(c->snap, "meminfo", on_memtotal, &b) < 0)
		c->err = -AN_E_NOMEM;
	return b;
}

/* The name of a file of the replay, or its dev:ino. */
const char *fnd_file_name(const struct file *f, uint32_t fsdev,
			     uint64_t ino, char *buf, size_t n)
{
	return f && f->path ? f->path : file_devino_name(fsdev, ino, buf, n);
}

/* The device a path is on (its mount in the start snapshot), or 0. */
uint32_t fnd_path_dev(const struct ctx *c, const char *path)
{
	uint32_t dev = 0;

	if (!c->snap || !path || !meta_mount_of(c->snap, path, &dev))
		return 0;
	return fnd_disk_of(c, dev);
}

uint64_t fnd_hist_below(const struct hist *h, uint64_t ns)
{
	uint64_t lo, hi, cnt, n = 0;
	int pos = 0;

	while (hist_next_bucket(h, &pos, &lo, &hi, &cnt))
		if (hi < ns)
			n += cnt;
	return n;
}

uint64_t fnd_hist_from(const struct hist *h, uint64_t ns)
{
	uint64_t lo, hi, cnt, n = 0;
	int pos = 0;

	while (hist_next_bucket(h, &pos, &lo, &hi, &cnt))
		if (lo >= ns)
			n += cnt;
	return n;
}

const struct devstat *fnd_devstat_of(const struct stats *st, uint32_t dev,
					enum blk_op op)
{
	for (size_t i = 0; i < st->ndev; i++)
		if (st->dev[i].dev == dev && st->dev[i].op == op)
			return &st->dev[i];
	return NULL;
}

/* The slowest kept request of dev and op with an owner, or NULL. */
const struct blk_done *fnd_slow_owner(const struct ctx *c, uint32_t dev,
					 enum blk_op op)
{
	size_t n;
	const struct blk_done *v = stats_slowest((struct stats *)c->st, &n);

	for (size_t i = 0; i < n; i++)
		if (v[i].rq.dev == dev && v[i].rq.op == op && v[i].attributed &&
		    v[i].own.proc)
			return &v[i];
	return NULL;
}

/* The slowest kept request of process pid, or NULL. */
const struct blk_done *fnd_slow_of(const struct ctx *c, int pid)
{
	size_t n;
	const struct blk_done *v = stats_slowest((struct stats *)c->st, &n);

	for (size_t i = 0; i < n; i++)
		if (v[i].attributed && v[i].own.proc &&
		    v[i].own.proc->pid == pid)
			return &v[i];
	return NULL;
}

/* ------------------------------------------------------------------ */
/* The table, the ranking */

static const struct rule {
	const char *id;
	void (*run)(struct ctx *c);
} rules[] = {
	{ "caveats", rule_caveats },
	{ "fsync", rule_fsync },
	{ "slow-device", rule_device },
	{ "flushes", rule_flush },
	{ "dirty-throttling", rule_dirty },
	{ "write-amplification", rule_wa },
	{ "read-misses", rule_reads },
	{ "iowait", rule_iowait },
	{ "flash-wear", rule_wear },
};

int findings_cmp(const void *a, const void *b)
{
	const struct finding *x = a, *y = b;

	if (x->caveat != y->caveat)
		return x->caveat ? 1 : -1;
	if (x->lost_ns != y->lost_ns)
		return x->lost_ns > y->lost_ns ? -1 : 1;
	if (x->sev != y->sev)
		return x->sev > y->sev ? -1 : 1;
	return strcmp(x->sentence ? x->sentence : "",
		      y->sentence ? y->sentence : "");
}

static int compute(const struct stats *st, struct findings *f, bool all)
{
	struct fnd_disks disks = { 0 };
	struct ctx c = { .st = st, .f = f, .all = all, .disks = &disks };
	size_t k;

	memset(f, 0, sizeof(*f));
	c.path = st->info->path;
	filter_args(st->filter, &c.args);
	c.err = AN_SBUF_ERR(&c.args);
	c.snap = st->info->snapshot_start;
	c.dur = (double)stats_duration(st);
	if (c.dur <= 0)
		c.dur = 1;
	if (!c.err)
		c.err = summary_config(st, &c.cfg);
	if (!c.err && st->have_sys) {
		c.nprocs = rows_processes(st, false, &c.procs);
		if (c.nprocs < 0) {
			c.err = (int)c.nprocs;
			c.nprocs = 0;
		}
	}
	for (k = 0; !c.err && k < sizeof(rules) / sizeof(*rules); k++)
		rules[k].run(&c);
	free(c.procs);
	sbuf_release(&c.args);
	summary_config_release(&c.cfg);
	if (c.err) {
		findings_release(f);
		return c.err;
	}
	if (f->n)
		qsort(f->v, f->n, sizeof(*f->v), findings_cmp);
	return 0;
}

int findings_compute(const struct stats *st, struct findings *f)
{
	return compute(st, f, false);
}

int findings_compute_all(const struct stats *st, struct findings *f)
{
	return compute(st, f, true);
}

void findings_release(struct findings *f)
{
	for (size_t i = 0; i < f->n; i++) {
		for (int k = 0; k < f->v[i].nent; k++)
			free(f->v[i].ent[k].name);
		for (int k = 0; k < f->v[i].nev; k++)
			free(f->v[i].ev[k].str);
		free(f->v[i].sentence);
		free(f->v[i].more);
	}
	free(f->v);
	memset(f, 0, sizeof(*f));
}
