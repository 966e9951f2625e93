// SPDX-License-Identifier: MIT
/*
 * findings.c - the rules of `ioreport findings` (see findings.h and
 * docs/findings.md): one function per rule in the table at the end.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "base/blk.h"
#include "base/err.h"
#include "base/units.h"
#include "sbuf.h"
#include "input/meta.h"
#include "replay/fdtable.h"
#include "replay/proctable.h"
#include "stats/attrib.h"
#include "stats/dirty.h"
#include "stats/filter.h"
#include "stats/findings.h"
#include "stats/rows.h"
#include "stats/stats.h"
#include "stats/summary.h"
#include "stats/wa.h"

#define MS	1000000ULL	/* ns */

/* The thresholds of docs/findings.md. */
#define FSYNC_MIN_NS		(10 * MS)	/* fsync time worth a finding */
#define SLOW_AVG_NS		(10 * MS)	/* a slow device: average D2C */
#define SLOW_P90_NS		(20 * MS)	/* or its p90 */
#define SLOW_MIN_REQS		10
#define BIMODAL_LO_NS		(1 * MS)
#define BIMODAL_HI_NS		(20 * MS)
#define FLUSH_MIN		10
#define WA_MIN_RATIO		1.5
#define WA_MIN_EXTRA		(1024 * 1024)
#define READ_MIN_BYTES		(1024 * 1024)
#define WEAR_MIN_BYTES		(1024 * 1024)
#define WEAR_MIN_PER_DAY	1e9	/* bytes a day worth a finding */
#define UNNAMED_MAX_SHARE	0.5
#define DAY_NS			86400e9

const char *fnd_severity_name(enum fnd_severity s)
{
	return s == FND_HIGH ? "high" : s == FND_WARNING ? "warning" : "info";
}

/* What the rules share. */
struct ctx {
	const struct stats *st;
	struct findings *f;
	const char *path;	/* of the recording, for the commands */
	struct sbuf args;	/* the view filters, for the commands */
	const char *snap;	/* start snapshot, or NULL */
	double dur;		/* ns */
	struct config cfg;
	struct proc_row *procs;
	long nprocs;
	int err;
};

/* ------------------------------------------------------------------ */
/* Building a finding */

static struct finding *add(struct ctx *c, const char *rule,
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

static void ent(struct ctx *c, struct finding *x, const char *kind,
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

static void num(struct finding *x, const char *key, double v)
{
	if (x && x->nnum < FND_NUMBERS && !isnan(v) && !isinf(v))
		x->num[x->nnum++] = (struct fnd_number){ key, v };
}

/* The sentence and the command that shows more (view of the recording). */
static void say(struct ctx *c, struct finding *x, struct sbuf *sb,
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

static void add_pct(struct sbuf *sb, double part, double whole)
{
	double p = whole > 0 ? 100 * part / whole : 0;

	if (p > 0 && p < 0.01)
		sbuf_addstr(sb, "under 0.01%");
	else
		sbuf_addf(sb, p > 0 && p < 0.1 ? "%.2f%%" : p > 0 && p < 10 ?
			  "%.1f%%" : "%.0f%%", p);
}

/* The whole disk of a file system's device. */
static uint32_t disk_of(const struct ctx *c, uint32_t fsdev)
{
	return c->snap ? meta_disk_of(c->snap, fsdev) : fsdev;
}

/* The mount of interest on disk dev (summary_config()), or NULL. */
static const struct cfg_mount *mount_on(const struct ctx *c, uint32_t dev)
{
	for (size_t i = 0; i < c->cfg.nmount; i++) {
		uint32_t d = meta_devt(c->cfg.mount[i].dev);

		if (d == dev || disk_of(c, d) == dev)
			return &c->cfg.mount[i];
	}
	return NULL;
}

/* The value of a start-snapshot sysctl, or NULL. */
static const char *sysctl_of(const struct ctx *c, const char *key)
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

static uint64_t memtotal(struct ctx *c)
{
	uint64_t b = 0;

	if (c->snap && meta_lines(c->snap, "meminfo", on_memtotal, &b) < 0)
		c->err = -AN_E_NOMEM;
	return b;
}

/* The name of a file of the replay, or its dev:ino. */
static const char *fnd_file_name(const struct file *f, uint32_t fsdev,
			     uint64_t ino, char *buf, size_t n)
{
	return f && f->path ? f->path : file_devino_name(fsdev, ino, buf, n);
}

/* The device a path is on (its mount in the start snapshot), or 0. */
static uint32_t path_dev(const struct ctx *c, const char *path)
{
	uint32_t dev = 0;

	if (!c->snap || !path || !meta_mount_of(c->snap, path, &dev))
		return 0;
	return disk_of(c, dev);
}

static uint64_t hist_below(const struct hist *h, uint64_t ns)
{
	uint64_t lo, hi, cnt, n = 0;
	int pos = 0;

	while (hist_next_bucket(h, &pos, &lo, &hi, &cnt))
		if (hi < ns)
			n += cnt;
	return n;
}

static uint64_t hist_from(const struct hist *h, uint64_t ns)
{
	uint64_t lo, hi, cnt, n = 0;
	int pos = 0;

	while (hist_next_bucket(h, &pos, &lo, &hi, &cnt))
		if (lo >= ns)
			n += cnt;
	return n;
}

static const struct devstat *devstat_of(const struct stats *st, uint32_t dev,
					enum blk_op op)
{
	for (size_t i = 0; i < st->ndev; i++)
		if (st->dev[i].dev == dev && st->dev[i].op == op)
			return &st->dev[i];
	return NULL;
}

/* The slowest kept request of dev and op with an owner, or NULL. */
static const struct blk_done *slow_owner(const struct ctx *c, uint32_t dev,
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
static const struct blk_done *slow_of(const struct ctx *c, int pid)
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
/* Caveats: what the data cannot say */

static void rule_caveats(struct ctx *c)
{
	const struct stats *st = c->st;
	const struct attrib_totals *t = st->at ? attrib_totals(st->at) : NULL;
	struct sbuf sb = SBUF_INIT;
	struct finding *x;
	uint64_t gaps, lost = stats_lost(st, &gaps);

	if (st->info->integrity != SOURCE_COMPLETE) {
		x = add(c, "damaged-recording", FND_HIGH, 0);
		if (x)
			x->caveat = true;
		sbuf_addf(&sb, "The recording is %s (%s at offset %" PRIu64
			  "): everything below covers only the part that was read.",
			  meta_integrity(st->info->integrity),
			  st->info->stop_reason ? st->info->stop_reason : "?",
			  st->info->stop_offset);
		say(c, x, &sb, "info");
	}
	if (gaps) {
		x = add(c, "lost-events", FND_WARNING, 0);
		if (x)
			x->caveat = true;
		num(x, "lost_events", (double)lost);
		num(x, "gaps", (double)gaps);
		sbuf_addf(&sb, "%" PRIu64 " events were lost in the kernel's ring buffer (%" PRIu64
			  " gaps): counts and times below are lower bounds; record with a larger buffer (iorec -b).",
			  lost, gaps);
		say(c, x, &sb, "summary");
	}
	if (!st->have_block || !st->have_sys || st->raw_syscalls ||
	    (t && (!t->bio_events || !t->ext4_events || !t->jbd2_events))) {
		const char *sep = "The recording lacks ";

		x = add(c, "missing-events", FND_WARNING, 0);
		if (x)
			x->caveat = true;
		if (!st->have_block) {
			sbuf_addf(&sb, "%sblock events (no device rules)", sep);
			sep = "; ";
		}
		if (!st->have_sys) {
			sbuf_addf(&sb, "%ssyscall events (no fsync, read or wear per process)", sep);
			sep = "; ";
		}
		if (st->have_sys && st->raw_syscalls) {
			sbuf_addf(&sb, "%ssyscalls:* events (a kernel without CONFIG_FTRACE_SYSCALLS: raw_syscalls stand in, file names only from the snapshots and uprobes)", sep);
			sep = "; ";
		}
		if (t && !t->bio_events) {
			sbuf_addf(&sb, "%sblock_bio_queue (block I/O not tied to processes or files)", sep);
			sep = "; ";
		}
		if (t && (!t->ext4_events || !t->jbd2_events))
			sbuf_addf(&sb, "%sext4/jbd2 events (flushes per fsync and journal bytes not measured)", sep);
		sbuf_addstr(&sb, "; iorec --check shows what this kernel offers.");
		say(c, x, &sb, "summary");
	}
	/* of the bytes counted once (a stacked device's on it), those
	 * that can be a file's data: journal and metadata are no file's */
	if (t && t->bio_events && attrib_data_bytes(t) >= WEAR_MIN_BYTES &&
	    (double)(t->file_bytes + t->inode_bytes + t->nameless_bytes) <
	    UNNAMED_MAX_SHARE * (double)attrib_data_bytes(t)) {
		x = add(c, "unnamed-io", FND_INFO, 0);
		if (x)
			x->caveat = true;
		num(x, "device_bytes", (double)t->bytes);
		num(x, "counted_bytes", (double)attrib_counted_bytes(t));
		num(x, "data_bytes", (double)attrib_data_bytes(t));
		num(x, "file_bytes", (double)(t->file_bytes + t->inode_bytes + t->nameless_bytes));
		num(x, "process_bytes", (double)t->proc_bytes);
		sbuf_addstr(&sb, "Only ");
		add_pct(&sb, (double)(t->file_bytes + t->inode_bytes + t->nameless_bytes),
			(double)attrib_data_bytes(t));
		sbuf_addstr(&sb, " of the ");
		units_add_bytes(&sb, (double)attrib_data_bytes(t));
		sbuf_addstr(&sb, " of data at the devices (journal, metadata and a stacked device's bytes on the one under it left out) could be tied to a file (");
		add_pct(&sb, (double)t->proc_bytes,
			(double)attrib_counted_bytes(t));
		sbuf_addstr(&sb, " to a process): findings per file cover that share only.");
		say(c, x, &sb, "processes");
	}
}

/* ------------------------------------------------------------------ */
/* fsync domination */

static uint64_t calls_ns(const struct procstat *ps)
{
	uint64_t s = 0;

	for (int k = 0; k < SK_NR; k++)
		s += procstat_kind(ps, k)->lat.sum;
	return s;
}

struct pfile {
	const struct wa_fsync *w;
	uint64_t ns;
};

static int cmp_pfile(const void *a, const void *b)
{
	const struct pfile *x = a, *y = b;

	return x->ns != y->ns ? (x->ns > y->ns ? -1 : 1) :
	       (x->w->ino < y->w->ino ? -1 : x->w->ino > y->w->ino);
}

static void rule_fsync(struct ctx *c)
{
	const struct stats *st = c->st;
	const struct wa *wa = st->wa;

	for (long i = 0; i < c->nprocs; i++) {
		const struct proc_row *r = &c->procs[i];
		const struct procstat *ps = r->ps;
		uint64_t fs_ns, all_ns, k_count = 0, flushes = 0, fl_ns = 0;
		struct pfile *pf = NULL;
		size_t npf = 0;
		struct sbuf sb = SBUF_INIT;
		struct finding *x;
		char buf[96], nb[96];
		uint32_t dev = 0;

		if (!ps || !ps->fsync.count)
			continue;
		fs_ns = ps->fsync.sum;
		all_ns = calls_ns(ps);
		if (fs_ns < FSYNC_MIN_NS || 2 * fs_ns < all_ns)
			continue;
		/* its ext4 fsync intervals: files, flushes */
		if (wa && wa->nfs) {
			pf = an_calloc(wa->nfs, sizeof(*pf));
			if (!pf) {
				c->err = -AN_E_NOMEM;
				return;
			}
		}
		for (size_t k = 0; pf && k < wa->nfs; k++) {
			const struct wa_fsync *w = &wa->fs[k];
			const struct proc *p = proctable_of_tid_at(st->pt,
							w->tid, w->last_ts);

			if (!p || p->pid != r->p.pid)
				continue;
			pf[npf].w = w;
			pf[npf++].ns = w->lat.sum;
			k_count += w->count;
			flushes += w->flushes;
			fl_ns += w->flush_ns;
		}
		if (npf)
			qsort(pf, npf, sizeof(*pf), cmp_pfile);
		x = add(c, "fsync", 10 * fs_ns >= c->dur ? FND_HIGH :
			FND_WARNING, fs_ns);
		ent(c, x, "process", r->p.comm, r->p.pid);
		num(x, "fsync_calls", (double)ps->fsync.count);
		num(x, "fsync_ns", (double)fs_ns);
		num(x, "syscall_ns", (double)all_ns);
		num(x, "fsync_p50_ns", (double)hist_pct(&ps->fsync, 50));
		num(x, "fsync_p99_ns", (double)hist_pct(&ps->fsync, 99));
		num(x, "fsync_max_ns", (double)ps->fsync.max);
		sbuf_addf(&sb, "%s (pid %d) spent ", r->p.comm, r->p.pid);
		units_add_dur(&sb, (double)fs_ns);
		sbuf_addf(&sb, " in %" PRIu64 " fsync/fdatasync calls (",
			  ps->fsync.count);
		add_pct(&sb, (double)fs_ns, (double)all_ns);
		sbuf_addstr(&sb, " of its file-syscall time; p50 ");
		units_add_dur(&sb, (double)hist_pct(&ps->fsync, 50));
		sbuf_addstr(&sb, ", max ");
		units_add_dur(&sb, (double)ps->fsync.max);
		sbuf_addstr(&sb, ")");
		for (size_t k = 0; k < npf && k < 3; k++) {
			const struct wa_fsync *w = pf[k].w;
			const char *name = fnd_file_name(rows_fsync_file(st, w),
						     w->fsdev, w->ino, nb,
						     sizeof(nb));

			sbuf_addstr(&sb, k ? ", " : " on ");
			sbuf_addstr(&sb, name);
			ent(c, x, "file", name, -1);
			if (!k)
				dev = disk_of(c, w->fsdev);
		}
		if (dev) {
			stats_dev_name(c->st, dev, buf, sizeof(buf));
			sbuf_addf(&sb, " on %s", buf);
			ent(c, x, "device", buf, dev);
		}
		if (k_count) {
			num(x, "flushes_per_fsync",
			    (double)flushes / (double)k_count);
			num(x, "flush_ns", (double)fl_ns);
			sbuf_addf(&sb, "; %.2f flushes per fsync",
				  (double)flushes / (double)k_count);
		}
		if (ps->blk.journal_bytes) {
			num(x, "journal_bytes", (double)ps->blk.journal_bytes);
			sbuf_addstr(&sb, ", ");
			units_add_bytes(&sb, (double)ps->blk.journal_bytes);
			sbuf_addstr(&sb, " of journal commits waited for");
		}
		sbuf_addstr(&sb, ".");
		say(c, x, &sb, "fsync");
		free(pf);
	}
}

/* ------------------------------------------------------------------ */
/* A slow device, and the SD card's small scattered writes */

static void rule_device(struct ctx *c)
{
	const struct stats *st = c->st;

	for (size_t i = 0; i < st->ndev; i++) {
		const struct devstat *d = &st->dev[i];
		uint64_t avg = hist_avg(&d->device), p90, lo, hi;
		const struct blk_done *own;
		struct sbuf sb = SBUF_INIT;
		struct finding *x;
		bool sd;
		char buf[96];
		double busy;

		if ((d->op != BLK_OP_READ && d->op != BLK_OP_WRITE) ||
		    d->reqs < SLOW_MIN_REQS)
			continue;
		p90 = hist_pct(&d->device, 90);
		if (avg < SLOW_AVG_NS && p90 < SLOW_P90_NS)
			continue;
		sd = d->op == BLK_OP_WRITE && 2 * d->small >= d->reqs &&
		     2 * d->seq < d->reqs;
		busy = fmin((double)d->device.sum, c->dur);
		x = add(c, sd ? "small-scattered-writes" : "slow-device",
			FND_HIGH, (uint64_t)busy);
		stats_dev_name(c->st, d->dev, buf, sizeof(buf));
		ent(c, x, "device", buf, d->dev);
		num(x, "requests", (double)d->reqs);
		num(x, "bytes", (double)d->bytes);
		num(x, "d2c_avg_ns", (double)avg);
		num(x, "d2c_p50_ns", (double)hist_pct(&d->device, 50));
		num(x, "d2c_p90_ns", (double)p90);
		num(x, "d2c_max_ns", (double)d->device.max);
		num(x, "q2d_avg_ns", (double)hist_avg(&d->queue));
		num(x, "small_share", (double)d->small / (double)d->reqs);
		num(x, "sequential_share", (double)d->seq / (double)d->reqs);
		sbuf_addf(&sb, "%s is slow for %ss: %" PRIu64 " requests (",
			  buf, d->op == BLK_OP_READ ? "read" : "write", d->reqs);
		units_add_bytes(&sb, (double)d->bytes);
		sbuf_addstr(&sb, ") took ");
		units_add_dur(&sb, (double)avg);
		sbuf_addstr(&sb, " on average in the device (p50 ");
		units_add_dur(&sb, (double)hist_pct(&d->device, 50));
		sbuf_addstr(&sb, ", p90 ");
		units_add_dur(&sb, (double)p90);
		sbuf_addstr(&sb, ", max ");
		units_add_dur(&sb, (double)d->device.max);
		sbuf_addstr(&sb, ")");
		lo = hist_below(&d->device, BIMODAL_LO_NS);
		hi = hist_from(&d->device, BIMODAL_HI_NS);
		if (5 * lo >= d->reqs && 5 * hi >= d->reqs) {
			num(x, "fast_share", (double)lo / (double)d->reqs);
			num(x, "slow_share", (double)hi / (double)d->reqs);
			sbuf_addstr(&sb, "; bimodal: ");
			add_pct(&sb, (double)lo, (double)d->reqs);
			sbuf_addstr(&sb, " under 1 ms, ");
			add_pct(&sb, (double)hi, (double)d->reqs);
			sbuf_addstr(&sb, " over 20 ms");
		}
		if (sd) {
			sbuf_addstr(&sb, "; ");
			add_pct(&sb, (double)d->small, (double)d->reqs);
			sbuf_addstr(&sb, " are small (16 KiB or less) and ");
			add_pct(&sb, (double)(d->reqs - d->seq),
				(double)d->reqs);
			sbuf_addstr(&sb, " scattered, the signature of an SD card or cheap flash that must rewrite a whole erase block for each (small writes took ");
			units_add_dur(&sb, d->small ? (double)d->small_dev_ns /
				 (double)d->small : 0);
			sbuf_addstr(&sb, " each)");
		}
		if (!sd && d->small && d->small < d->reqs &&
		    d->small_dev_ns <= d->device.sum) {
			/* by size: the small ones against the rest */
			double big = (double)(d->device.sum - d->small_dev_ns) /
				     (double)(d->reqs - d->small);

			num(x, "small_d2c_avg_ns", (double)d->small_dev_ns /
			    (double)d->small);
			num(x, "large_d2c_avg_ns", big);
			sbuf_addf(&sb, "; by size: %" PRIu64 " of 16 KiB or less took ",
				  d->small);
			units_add_dur(&sb, (double)d->small_dev_ns / (double)d->small);
			sbuf_addf(&sb, " each, %" PRIu64 " larger ones ",
				  d->reqs - d->small);
			units_add_dur(&sb, big);
		}
		if (d->queue.count && d->queue.sum > d->device.sum)
			sbuf_addstr(&sb, "; most of the time is spent queued before the device (Q2D), not in it");
		else
			sbuf_addstr(&sb, "; the time is the device's own (issue to complete), not queueing");
		own = slow_owner(c, d->dev, d->op);
		if (own) {
			int pid;
			const char *comm, *file = stats_request_file(st, own);

			stats_request_owner(own, &pid, &comm);
			sbuf_addf(&sb, "; the slowest were %s (pid %d)'s", comm,
				  pid);
			ent(c, x, "process", comm, pid);
			if (file) {
				sbuf_addf(&sb, " on %s", file);
				ent(c, x, "file", file, -1);
			}
		}
		sbuf_addstr(&sb, ".");
		say(c, x, &sb, "devices");
	}
}

/* ------------------------------------------------------------------ */
/* Flushes and barriers */

static void rule_flush(struct ctx *c)
{
	const struct stats *st = c->st;
	const struct wa *wa = st->wa;

	for (size_t i = 0; wa && i < wa->ndev; i++) {
		const struct wa_dev *d = &wa->dev[i];
		uint64_t n = d->ops.n[BLK_OP_FLUSH] + d->preflush + d->fua, fs = 0, fl = 0;
		const struct cfg_mount *m = mount_on(c, d->dev);
		struct sbuf sb = SBUF_INIT;
		struct finding *x;
		char buf[96];

		if (n < FLUSH_MIN || (100 * d->flush_ns < c->dur &&
				      d->flush_ns < FSYNC_MIN_NS))
			continue;
		for (size_t k = 0; k < wa->nfs; k++)
			if (disk_of(c, wa->fs[k].fsdev) == d->dev) {
				fs += wa->fs[k].count;
				fl += wa->fs[k].flushes;
			}
		x = add(c, "flushes", 10 * d->flush_ns >= c->dur ?
			FND_HIGH : FND_WARNING, d->flush_ns);
		stats_dev_name(c->st, d->dev, buf, sizeof(buf));
		ent(c, x, "device", buf, d->dev);
		num(x, "flushes", (double)d->ops.n[BLK_OP_FLUSH]);
		num(x, "preflush", (double)d->preflush);
		num(x, "fua", (double)d->fua);
		num(x, "flush_ns", (double)d->flush_ns);
		sbuf_addf(&sb, "%s took %" PRIu64 " flush requests (%" PRIu64
			  " writes with PREFLUSH, %" PRIu64 " FUA) costing ",
			  buf, d->ops.n[BLK_OP_FLUSH], d->preflush, d->fua);
		units_add_dur(&sb, (double)d->flush_ns);
		sbuf_addstr(&sb, " of device time");
		if (fs) {
			num(x, "fsyncs", (double)fs);
			num(x, "flushes_per_fsync", (double)fl / (double)fs);
			sbuf_addf(&sb, ", %.2f per fsync (%" PRIu64 " fsyncs)",
				  (double)fl / (double)fs, fs);
		}
		if (d->commits) {
			num(x, "jbd2_commits", (double)d->commits);
			num(x, "flushes_per_commit",
			    (double)d->ops.n[BLK_OP_FLUSH] / (double)d->commits);
			sbuf_addf(&sb, ", %.2f per jbd2 commit",
				  (double)d->ops.n[BLK_OP_FLUSH] / (double)d->commits);
		}
		if (m) {
			ent(c, x, "mount", m->dir, meta_devt(m->dev));
			sbuf_addf(&sb, "; %s (%s) is mounted with barriers %s",
				  m->dir, m->fstype, m->barrier ? "on" : "off");
			if (m->barrier)
				sbuf_addstr(&sb, " (each commit flushes the write cache; barrier=0 or nobarrier removes that, safe only with a power-loss-protected cache)");
		}
		sbuf_addstr(&sb, ".");
		say(c, x, &sb, "fsync");
	}
}

/* ------------------------------------------------------------------ */
/* Dirty throttling */

static void rule_dirty(struct ctx *c)
{
	const struct dirty *d = c->st->dirty;
	struct dirty_row *v;
	long n;

	if (!d || !d->pause_ms)
		return;
	n = rows_dirty(c->st, &v);
	if (n < 0) {
		c->err = (int)n;
		return;
	}
	for (long i = 0; i < n && i < 3; i++) {
		const struct dirty_row *r = &v[i];
		uint64_t ns = dirty_ms2ns(r->pause_ms), mem = memtotal(c);
		double th = (double)(d->max_thresh * d->page_size);
		double bg = (double)(d->max_bg_thresh * d->page_size);
		struct sbuf sb = SBUF_INIT;
		struct finding *x;
		const char *keys[] = { "vm.dirty_bytes", "vm.dirty_ratio",
			"vm.dirty_background_bytes",
			"vm.dirty_background_ratio" };

		if (!r->pause_ms)
			break;
		x = add(c, "dirty-throttling", 10 * ns >= c->dur ?
			FND_HIGH : FND_WARNING, ns);
		ent(c, x, "process", r->comm, r->pid);
		num(x, "throttle_events", (double)r->bdp);
		num(x, "paused", (double)r->paused);
		num(x, "paused_ns", (double)ns);
		num(x, "max_pause_ns", (double)dirty_ms2ns(r->max_ms));
		sbuf_addf(&sb, "%s (pid %d) was paused by balance_dirty_pages %"
			  PRIu64 " times for ", r->comm, r->pid, r->paused);
		units_add_dur(&sb, (double)ns);
		sbuf_addstr(&sb, " (longest ");
		units_add_dur(&sb, (double)dirty_ms2ns(r->max_ms));
		sbuf_addstr(&sb, ")");
		if (d->gds_samples) {
			num(x, "dirty_thresh_bytes", th);
			num(x, "background_thresh_bytes", bg);
			sbuf_addstr(&sb, ": it wrote faster than the devices took the dirty pages, past the dirty threshold of ");
			units_add_bytes(&sb, th);
			sbuf_addstr(&sb, " (background writeback from ");
			units_add_bytes(&sb, bg);
			sbuf_addstr(&sb, ")");
			if (mem) {
				num(x, "memtotal_bytes", (double)mem);
				sbuf_addstr(&sb, ", ");
				add_pct(&sb, th, (double)mem);
				sbuf_addstr(&sb, " and ");
				add_pct(&sb, bg, (double)mem);
				sbuf_addstr(&sb, " of the ");
				units_add_bytes(&sb, (double)mem);
				sbuf_addstr(&sb, " of memory");
			}
		}
		for (size_t k = 0; k < sizeof(keys) / sizeof(*keys); k++) {
			const char *val = sysctl_of(c, keys[k]);
			char kv[128];

			if (!val || !strcmp(val, "0"))
				continue;
			snprintf(kv, sizeof(kv), "%s=%s", keys[k], val);
			ent(c, x, "sysctl", kv, -1);
		}
		if (x && x->nent > 1) {
			sbuf_addstr(&sb, ", set by");
			for (int k = 1; k < x->nent; k++)
				sbuf_addf(&sb, " %s", x->ent[k].name);
		}
		sbuf_addstr(&sb, ".");
		say(c, x, &sb, "dirty");
	}
	free(v);
}

/* ------------------------------------------------------------------ */
/* Write amplification with its cause */

static void rule_wa(struct ctx *c)
{
	const struct stats *st = c->st;
	const struct wa *wa = st->wa;
	struct wa_row *v = NULL;
	long n = 0;

	if (!wa)
		return;
	for (size_t i = 0; i < wa->ndev; i++) {
		const struct wa_dev *d = &wa->dev[i];
		const struct devstat *ds = devstat_of(st, d->dev, BLK_OP_WRITE);
		const struct cfg_mount *m = mount_on(c, d->dev);
		double ratio, extra, lost;
		int cause = WA_JOURNAL;
		struct sbuf sb = SBUF_INIT;
		struct finding *x;
		char buf[96];
		uint64_t fs = 0;

		if (!d->app_bytes || d->ops.bytes[BLK_OP_WRITE] <= d->app_bytes)
			continue;
		ratio = (double)d->ops.bytes[BLK_OP_WRITE] / (double)d->app_bytes;
		extra = (double)(d->ops.bytes[BLK_OP_WRITE] - d->app_bytes);
		if (ratio < WA_MIN_RATIO || extra < WA_MIN_EXTRA)
			continue;
		for (int k = WA_JOURNAL; k < WA_NCLASS; k++)
			if (d->cls[k] > d->cls[cause])
				cause = k;
		for (size_t k = 0; k < wa->nfs; k++)
			if (disk_of(c, wa->fs[k].fsdev) == d->dev)
				fs += wa->fs[k].count;
		lost = ds ? (double)ds->device.sum * extra /
			    (double)d->ops.bytes[BLK_OP_WRITE] : 0;
		x = add(c, "write-amplification", ratio >= 3 ? FND_WARNING :
			FND_INFO, (uint64_t)fmin(lost, c->dur));
		stats_dev_name(c->st, d->dev, buf, sizeof(buf));
		ent(c, x, "device", buf, d->dev);
		num(x, "ratio", ratio);
		num(x, "app_write_bytes", (double)d->app_bytes);
		num(x, "device_write_bytes", (double)d->ops.bytes[BLK_OP_WRITE]);
		num(x, "data_bytes", (double)d->cls[WA_DATA]);
		num(x, "journal_bytes", (double)d->cls[WA_JOURNAL]);
		num(x, "metadata_bytes", (double)d->cls[WA_META]);
		num(x, "other_bytes", (double)d->cls[WA_OTHER]);
		sbuf_addf(&sb, "%s wrote %.2fx what the applications wrote (",
			  buf, ratio);
		units_add_bytes(&sb, (double)d->ops.bytes[BLK_OP_WRITE]);
		sbuf_addstr(&sb, " for ");
		units_add_bytes(&sb, (double)d->app_bytes);
		sbuf_addstr(&sb, "); most of the rest is ");
		if (cause == WA_JOURNAL && m && !strcmp(m->data, "journal"))
			sbuf_addstr(&sb, "the journal: data=journal writes every block twice");
		else if (cause == WA_JOURNAL && fs) {
			sbuf_addf(&sb, "the journal: %" PRIu64 " fsyncs of about ", fs);
			units_add_bytes(&sb, (double)d->app_bytes / (double)fs);
			sbuf_addstr(&sb, " each commit a journal transaction apiece");
		} else if (cause == WA_JOURNAL)
			sbuf_addstr(&sb, "the journal");
		else if (cause == WA_META)
			sbuf_addstr(&sb, "metadata (inodes, bitmaps, directories)");
		else
			sbuf_addstr(&sb, "writes of no known owner");
		sbuf_addstr(&sb, " (");
		units_add_bytes(&sb, (double)d->cls[cause]);
		sbuf_addstr(&sb, ")");
		if (!v && st->have_sys) {
			n = rows_wa(st, true, &v);
			if (n < 0) {
				c->err = (int)n;
				n = 0;
			}
		}
		for (long k = 0; k < n; k++)
			if (v[k].app) {
				sbuf_addf(&sb, "; the top writer is %s (pid %d)",
					  v[k].name, v[k].pid);
				ent(c, x, "process", v[k].name, v[k].pid);
				break;
			}
		if (m)
			ent(c, x, "mount", m->dir, meta_devt(m->dev));
		sbuf_addstr(&sb, ".");
		say(c, x, &sb, "wa");
	}
	rows_wa_release(v, n);
}

/* ------------------------------------------------------------------ */
/* Read misses */

static uint64_t read_ns(const struct procstat *ps)
{
	uint64_t s = 0;

	for (int k = 0; k < SK_NR; k++)
		if (sys_kinds[k].flags & SKF_READ)
			s += procstat_kind(ps, k)->lat.sum;
	return s;
}

static void rule_reads(struct ctx *c)
{
	struct file_row *fr = NULL;
	long nf = -1;

	for (long i = 0; i < c->nprocs; i++) {
		const struct proc_row *r = &c->procs[i];
		const struct procstat *ps = r->ps;
		struct sbuf sb = SBUF_INIT;
		struct finding *x;
		uint64_t ns;
		int shown = 0;

		if (!ps || ps->blk.read_bytes < READ_MIN_BYTES)
			continue;
		ns = read_ns(ps);
		if (ns < FSYNC_MIN_NS)
			continue;
		if (nf < 0) {
			nf = rows_files(c->st, &fr);
			if (nf < 0) {
				c->err = (int)nf;
				return;
			}
		}
		x = add(c, "read-misses", 10 * ns >= c->dur ? FND_WARNING :
			FND_INFO, ns);
		ent(c, x, "process", r->p.comm, r->p.pid);
		num(x, "device_read_bytes", (double)ps->blk.read_bytes);
		num(x, "read_bytes", (double)ps->read_bytes);
		num(x, "read_ns", (double)ns);
		sbuf_addf(&sb, "%s (pid %d) waited ", r->p.comm, r->p.pid);
		units_add_dur(&sb, (double)ns);
		sbuf_addstr(&sb, " in reads; ");
		units_add_bytes(&sb, (double)ps->blk.read_bytes);
		sbuf_addstr(&sb, " of what it read came from the device, not the page cache (cold cache, or too little memory to keep it)");
		for (long k = 0; k < nf && shown < 3; k++) {
			const char *name = file_info_name(&fr[k].f);
			char buf[96];
			uint32_t dev;

			/* named files: an fd whose open was not seen says
			 * nothing to the reader */
			if (!fr[k].f.path ||
			    fr[k].s->blk.read_bytes < READ_MIN_BYTES / 4)
				continue;
			sbuf_addstr(&sb, shown ? ", " : "; most on ");
			sbuf_addstr(&sb, name);
			ent(c, x, "file", name, -1);
			dev = path_dev(c, fr[k].f.path);
			if (!shown && dev) {
				stats_dev_name(c->st, dev, buf, sizeof(buf));
				sbuf_addf(&sb, " (%s)", buf);
				ent(c, x, "device", buf, dev);
			}
			shown++;
		}
		sbuf_addstr(&sb, ".");
		say(c, x, &sb, "files");
	}
	if (nf > 0)
		rows_files_release(fr, nf);
	else
		free(fr);
}

/* ------------------------------------------------------------------ */
/* I/O wait (D state, with the iowait profile) */

static void rule_iowait(struct ctx *c)
{
	const struct attrib_totals *t = c->st->at ?
		attrib_totals(c->st->at) : NULL;

	if (!t || !t->sched_events)
		return;
	for (long i = 0; i < c->nprocs; i++) {
		const struct proc_row *r = &c->procs[i];
		const struct procstat *ps = r->ps;
		const struct blk_done *own;
		struct sbuf sb = SBUF_INIT;
		struct finding *x;
		char buf[96];

		if (!ps || ps->dstate_ns < FSYNC_MIN_NS ||
		    100 * ps->dstate_ns < c->dur)
			continue;
		x = add(c, "iowait", 10 * ps->dstate_ns >= c->dur ?
			FND_HIGH : FND_WARNING, ps->dstate_ns);
		ent(c, x, "process", r->p.comm, r->p.pid);
		num(x, "dstate_ns", (double)ps->dstate_ns);
		num(x, "dstates", (double)ps->dstates);
		num(x, "device_bytes", (double)(ps->blk.read_bytes +
						ps->blk.write_bytes));
		sbuf_addf(&sb, "%s (pid %d) was blocked in D state %" PRIu64
			  " times for ", r->p.comm, r->p.pid, ps->dstates);
		own = slow_of(c, r->p.pid);
		units_add_dur(&sb, (double)ps->dstate_ns);
		sbuf_addstr(&sb, " (");
		add_pct(&sb, (double)ps->dstate_ns, c->dur);
		sbuf_addstr(&sb, " of the recording) while ");
		units_add_bytes(&sb, (double)(ps->blk.read_bytes +
					ps->blk.write_bytes));
		sbuf_addstr(&sb, " of block I/O was its own");
		if (own) {
			const char *file = stats_request_file(c->st, own);

			stats_dev_name(c->st, own->rq.dev, buf, sizeof(buf));
			ent(c, x, "device", buf, own->rq.dev);
			sbuf_addf(&sb, ", its slowest requests on %s", buf);
			if (file) {
				ent(c, x, "file", file, -1);
				sbuf_addf(&sb, " (%s)", file);
			}
		}
		sbuf_addstr(&sb, ".");
		say(c, x, &sb, "processes");
	}
}

/* ------------------------------------------------------------------ */
/* Flash wear: bytes written per day at the recorded rate */

static bool flash(const struct ctx *c, uint32_t dev)
{
	for (size_t i = 0; i < c->cfg.nbdev; i++)
		if (meta_devt(c->cfg.bdev[i].mm) == dev)
			return !strcmp(c->cfg.bdev[i].rotational, "0");
	return false;
}

/*
 * The process that synced the most bytes to disk dev (its ext4 fsync
 * intervals: write bytes completed while they waited) into *who with
 * those bytes, and its interval with the most; NULL when none synced
 * there.
 */
static const struct wa_fsync *top_syncer(const struct ctx *c, uint32_t dev,
					 const struct proc **who,
					 uint64_t *bytes)
{
	const struct stats *st = c->st;
	const struct wa_fsync *best = NULL;

	*who = NULL;
	*bytes = 0;
	if (!st->have_sys || !st->wa)
		return NULL;
	for (size_t k = 0; k < st->wa->nfs; k++) {
		const struct wa_fsync *w = &st->wa->fs[k];
		const struct proc *p = proctable_of_tid_at(st->pt, w->tid,
							   w->last_ts);
		uint64_t sum = 0;

		if (!p || p == *who || disk_of(c, w->fsdev) != dev)
			continue;
		for (size_t i = k; i < st->wa->nfs; i++) {
			const struct wa_fsync *o = &st->wa->fs[i];

			if (disk_of(c, o->fsdev) == dev &&
			    proctable_of_tid_at(st->pt, o->tid,
						o->last_ts) == p)
				sum += o->write_bytes;
		}
		if (!*who || sum > *bytes) {
			*who = p;
			*bytes = sum;
		}
	}
	for (size_t k = 0; *who && k < st->wa->nfs; k++) {
		const struct wa_fsync *w = &st->wa->fs[k];

		if (disk_of(c, w->fsdev) == dev &&
		    proctable_of_tid_at(st->pt, w->tid, w->last_ts) == *who &&
		    (!best || w->write_bytes > best->write_bytes))
			best = w;
	}
	return best;
}

static void rule_wear(struct ctx *c)
{
	const struct stats *st = c->st;
	const struct wa *wa = st->wa;

	if (!wa || c->dur < 1e8)
		return;
	for (size_t i = 0; i < wa->ndev; i++) {
		const struct wa_dev *d = &wa->dev[i];
		const struct devstat *ds = devstat_of(st, d->dev, BLK_OP_WRITE);
		double day = (double)d->ops.bytes[BLK_OP_WRITE] * DAY_NS / c->dur;
		const struct wa_fsync *w;
		const struct proc *p;
		struct sbuf sb = SBUF_INIT;
		struct finding *x;
		uint64_t synced;
		char buf[96], nb[96];

		/* devices the applications write files to */
		if (!d->app_bytes || !d->ops.bytes[BLK_OP_WRITE] || day < WEAR_MIN_PER_DAY)
			continue;
		x = add(c, "flash-wear", flash(c, d->dev) && day >= 10e9 ?
			FND_WARNING : FND_INFO, 0);
		stats_dev_name(c->st, d->dev, buf, sizeof(buf));
		ent(c, x, "device", buf, d->dev);
		num(x, "write_bytes", (double)d->ops.bytes[BLK_OP_WRITE]);
		num(x, "bytes_per_day", day);
		num(x, "seconds", c->dur / 1e9);
		sbuf_addf(&sb, "At the recorded rate %s takes ", buf);
		units_add_bytes(&sb, day);
		sbuf_addstr(&sb, " of writes a day (");
		units_add_bytes(&sb, (double)d->ops.bytes[BLK_OP_WRITE]);
		sbuf_addf(&sb, " in %.1f s, extrapolated)", c->dur / 1e9);
		if (ds && ds->bytes) {
			num(x, "small_sync_share", (double)ds->small_sync_bytes /
			    (double)ds->bytes);
			sbuf_addstr(&sb, "; ");
			add_pct(&sb, (double)ds->small_sync_bytes,
				(double)ds->bytes);
			sbuf_addstr(&sb, " of them small synced writes, which wear flash most");
		}
		w = top_syncer(c, d->dev, &p, &synced);
		if (w && p) {
			const char *name = fnd_file_name(rows_fsync_file(st, w),
							 w->fsdev, w->ino, nb,
							 sizeof(nb));

			ent(c, x, "process", p->comm ? p->comm : "?", p->pid);
			ent(c, x, "file", name, -1);
			num(x, "process_synced_bytes", (double)synced);
			sbuf_addf(&sb, "; the process that synced the most there is %s (pid %d), ",
				  p->comm ? p->comm : "?", p->pid);
			units_add_bytes(&sb, (double)synced);
			sbuf_addf(&sb, " mostly on %s", name);
		}
		sbuf_addstr(&sb, ".");
		say(c, x, &sb, "wa");
	}
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
		return x->caveat ? -1 : 1;
	if (x->lost_ns != y->lost_ns)
		return x->lost_ns > y->lost_ns ? -1 : 1;
	if (x->sev != y->sev)
		return x->sev > y->sev ? -1 : 1;
	return strcmp(x->sentence ? x->sentence : "",
		      y->sentence ? y->sentence : "");
}

int findings_compute(const struct stats *st, struct findings *f)
{
	struct ctx c = { .st = st, .f = f };
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

void findings_release(struct findings *f)
{
	for (size_t i = 0; i < f->n; i++) {
		for (int k = 0; k < f->v[i].nent; k++)
			free(f->v[i].ent[k].name);
		free(f->v[i].sentence);
		free(f->v[i].more);
	}
	free(f->v);
	memset(f, 0, sizeof(*f));
}
