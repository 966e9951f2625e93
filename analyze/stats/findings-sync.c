// SPDX-License-Identifier: MIT
/*
 * findings-sync.c - the rules of the syncs: fsync domination of a
 * process's time (fsync) and the device flushes they cost (flushes).
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>

#include "base/err.h"
#include "base/units.h"
#include "input/meta.h"
#include "replay/proctable.h"
#include "stats/findings-int.h"
#include "stats/owner.h"
#include "stats/rows.h"
#include "stats/stats.h"
#include "stats/wa.h"

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

void rule_fsync(struct ctx *c)
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
		bool quiet;

		if (!ps || !ps->fsync.count)
			continue;
		fs_ns = ps->fsync.sum;
		all_ns = calls_ns(ps);
		quiet = fs_ns < FSYNC_MIN_NS || 2 * fs_ns < all_ns;
		if (quiet && !c->all)
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
		x = fnd_add(c, "fsync", 10 * fs_ns >= c->dur ? FND_HIGH :
			FND_WARNING, fs_ns);
		if (x)
			x->quiet = quiet;
		fnd_ent(c, x, "process", r->p.comm, r->p.pid);
		/* the calls the processes view counts (FSYNC), of which
		 * those timed (enter and exit seen) */
		fnd_ev_view(x, "processes");
		fnd_evn(x, "pid", r->p.pid);
		fnd_evn(x, "fsyncs", (double)r->fsyncs);
		fnd_evn(x, "fsync.count", (double)ps->fsync.count);
		fnd_evn(x, "fsync.sum_ns", (double)fs_ns);
		fnd_evn(x, "fsync.p50_ns", (double)hist_pct(&ps->fsync, 50));
		fnd_evn(x, "fsync.max_ns", (double)ps->fsync.max);
		fnd_num(x, "syscall_ns", (double)all_ns);
		fnd_evn(x, "fsync.p99_ns", (double)hist_pct(&ps->fsync, 99));
		owner_who(&sb, &r->p);
		sbuf_addstr(&sb, " spent ");
		units_add_dur(&sb, (double)fs_ns);
		if (r->fsyncs == ps->fsync.count)
			sbuf_addf(&sb, " in %" PRIu64 " fsync/fdatasync calls (",
				  r->fsyncs);
		else
			sbuf_addf(&sb, " in the %" PRIu64 " of its %" PRIu64
				  " fsync/fdatasync calls whose start and end were both recorded (",
				  ps->fsync.count, r->fsyncs);
		fnd_add_pct(&sb, (double)fs_ns, (double)all_ns);
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
			fnd_ent(c, x, "file", name, -1);
			if (!k)
				dev = fnd_disk_of(c, w->fsdev);
		}
		if (dev) {
			stats_dev_name(c->st, dev, buf, sizeof(buf));
			sbuf_addf(&sb, " on %s", buf);
			fnd_ent(c, x, "device", buf, dev);
		}
		if (k_count) {
			fnd_num(x, "flushes_per_fsync",
			    (double)flushes / (double)k_count);
			fnd_num(x, "flush_ns", (double)fl_ns);
			sbuf_addf(&sb, "; %.2f flushes per fsync",
				  (double)flushes / (double)k_count);
		}
		if (ps->blk.journal_bytes) {
			fnd_evn(x, "block.journal_bytes", (double)ps->blk.journal_bytes);
			sbuf_addstr(&sb, ", ");
			units_add_bytes(&sb, (double)ps->blk.journal_bytes);
			sbuf_addstr(&sb, " of journal commits waited for");
		}
		sbuf_addstr(&sb, ".");
		fnd_say(c, x, &sb, "fsync");
		free(pf);
	}
}


/* ------------------------------------------------------------------ */
/* Flushes and barriers */

void rule_flush(struct ctx *c)
{
	const struct stats *st = c->st;
	const struct wa *wa = st->wa;

	for (size_t i = 0; wa && i < wa->ndev; i++) {
		const struct wa_dev *d = &wa->dev[i];
		uint64_t n = d->ops.n[BLK_OP_FLUSH] + d->preflush + d->fua, fs = 0, fl = 0;
		const struct cfg_mount *m = fnd_mount_on(c, d->dev);
		struct sbuf sb = SBUF_INIT;
		struct finding *x;
		char buf[96];
		/* under the thresholds: kept for the diff (a device that
		 * still flushes is not "gone"), never printed */
		bool quiet = n < FLUSH_MIN || (100 * d->flush_ns < c->dur &&
					       d->flush_ns < FSYNC_MIN_NS);

		if (!n || (quiet && !c->all))
			continue;
		for (size_t k = 0; k < wa->nfs; k++)
			if (fnd_disk_of(c, wa->fs[k].fsdev) == d->dev) {
				fs += wa->fs[k].count;
				fl += wa->fs[k].flushes;
			}
		x = fnd_add(c, "flushes", 10 * d->flush_ns >= c->dur ?
			FND_HIGH : FND_WARNING, d->flush_ns);
		if (x)
			x->quiet = quiet;
		stats_dev_name(c->st, d->dev, buf, sizeof(buf));
		fnd_ent(c, x, "device", buf, d->dev);
		fnd_ev_view(x, "fsync");
		fnd_evs(c, x, "device", buf);
		fnd_evn(x, "flushes", (double)d->ops.n[BLK_OP_FLUSH]);
		fnd_evn(x, "preflush", (double)d->preflush);
		fnd_evn(x, "fua", (double)d->fua);
		fnd_evn(x, "flush_ns", (double)d->flush_ns);
		sbuf_addf(&sb, "%s took %" PRIu64 " flush requests (%" PRIu64
			  " writes with PREFLUSH, %" PRIu64 " FUA) costing ",
			  buf, d->ops.n[BLK_OP_FLUSH], d->preflush, d->fua);
		units_add_dur(&sb, (double)d->flush_ns);
		sbuf_addstr(&sb, " of device time");
		if (fs) {
			fnd_num(x, "fsyncs", (double)fs);
			fnd_num(x, "flushes_per_fsync", (double)fl / (double)fs);
			sbuf_addf(&sb, ", %.2f per fsync (%" PRIu64 " fsyncs)",
				  (double)fl / (double)fs, fs);
		}
		if (d->commits) {
			fnd_num(x, "jbd2_commits", (double)d->commits);
			fnd_num(x, "flushes_per_commit",
			    (double)d->ops.n[BLK_OP_FLUSH] / (double)d->commits);
			sbuf_addf(&sb, ", %.2f per jbd2 commit",
				  (double)d->ops.n[BLK_OP_FLUSH] / (double)d->commits);
		}
		if (m) {
			fnd_ent(c, x, "mount", m->dir, meta_devt(m->dev));
			sbuf_addf(&sb, "; %s (%s) is mounted with barriers %s",
				  m->dir, m->fstype, m->barrier ? "on" : "off");
			if (m->barrier)
				sbuf_addstr(&sb, " (each commit flushes the write cache; barrier=0 or nobarrier removes that, safe only with a power-loss-protected cache)");
		}
		sbuf_addstr(&sb, ".");
		fnd_say(c, x, &sb, "fsync");
	}
}
