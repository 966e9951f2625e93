// SPDX-License-Identifier: MIT
/*
 * findings-more.c - the rules of `ioreport findings` about the data
 * (the caveats), I/O wait and flash wear (findings-int.h; the others
 * are in findings.c).
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
#include "base/hmap.h"
#include "base/units.h"
#include "sbuf.h"
#include "input/meta.h"
#include "replay/fdtable.h"
#include "replay/proctable.h"
#include "stats/attrib.h"
#include "stats/findings.h"
#include "stats/findings-int.h"
#include "stats/owner.h"
#include "stats/rows.h"
#include "stats/stats.h"
#include "stats/wa.h"

/* ------------------------------------------------------------------ */
/* Caveats: what the data cannot say */

void rule_caveats(struct ctx *c)
{
	const struct stats *st = c->st;
	const struct attrib_totals *t = st->at ? attrib_totals(st->at) : NULL;
	struct sbuf sb = SBUF_INIT;
	struct finding *x;
	uint64_t gaps, lost = stats_lost(st, &gaps);

	if (st->info->integrity != SOURCE_COMPLETE) {
		x = fnd_add(c, "damaged-recording", FND_HIGH, 0);
		if (x)
			x->caveat = true;
		fnd_ev_view(x, "summary");
		fnd_evn(x, "integrity.recordings.0.damaged_regions",
		    (double)st->info->ndamaged);
		fnd_evn(x, "integrity.recordings.0.damaged_bytes",
		    (double)st->info->damaged_bytes);
		sbuf_addf(&sb, "The recording is %s (%s at offset %" PRIu64
			  "): everything below covers only the part that was read.",
			  meta_integrity(st->info->integrity),
			  st->info->stop_reason ? st->info->stop_reason : "?",
			  st->info->stop_offset);
		fnd_say(c, x, &sb, "info");
	}
	if (gaps) {
		/*
		 * A gap is the kernel's (its ring buffer overran: a count,
		 * or a lost page of unknown size) or the file's (a damaged
		 * region skipped: no count).  A larger buffer helps only
		 * the first.
		 */
		bool damaged = st->info->ndamaged > 0;

		x = fnd_add(c, "lost-events", FND_WARNING, 0);
		if (x)
			x->caveat = true;
		fnd_ev_view(x, "summary");
		fnd_evn(x, "integrity.recordings.0.lost_event_gaps", (double)gaps);
		fnd_evn(x, "integrity.recordings.0.lost_events_known",
		    (double)lost);
		if (damaged && !lost)
			sbuf_addf(&sb, "%" PRIu64 " gaps in the events where the file is damaged (%d region%s skipped, their events missing; the kernel's ring buffer lost none it counted): counts and times below are lower bounds; the damage is the file's (its storage or its transfer), not the buffer's.",
				  gaps, st->info->ndamaged,
				  st->info->ndamaged == 1 ? "" : "s");
		else if (damaged)
			sbuf_addf(&sb, "%" PRIu64 " events were lost in the kernel's ring buffer and %" PRIu64
				  " gaps are in the events, some where the file is damaged: counts and times below are lower bounds; a larger buffer (iorec -b) helps the ring buffer's losses only.",
				  lost, gaps);
		else
			sbuf_addf(&sb, "%" PRIu64 " events were lost in the kernel's ring buffer (%" PRIu64
				  " gaps): counts and times below are lower bounds; record with a larger buffer (iorec -b).",
				  lost, gaps);
		fnd_say(c, x, &sb, "summary");
	}
	if (!st->have_block || !st->have_sys || st->raw_syscalls ||
	    (t && (!t->bio_events || !t->ext4_events || !t->jbd2_events))) {
		const char *sep = "The recording lacks ";

		x = fnd_add(c, "missing-events", FND_WARNING, 0);
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
		fnd_say(c, x, &sb, "summary");
	}
	/* of the bytes counted once (a stacked device's on it), those
	 * that can be a file's data: journal and metadata are no file's */
	if (t && t->bio_events && attrib_data_bytes(t) >= WEAR_MIN_BYTES &&
	    (double)(t->file_bytes + t->inode_bytes + t->nameless_bytes) <
	    UNNAMED_MAX_SHARE * (double)attrib_data_bytes(t)) {
		x = fnd_add(c, "unnamed-io", FND_INFO, 0);
		if (x)
			x->caveat = true;
		fnd_num(x, "device_bytes", (double)t->bytes);
		fnd_num(x, "data_bytes", (double)attrib_data_bytes(t));
		fnd_num(x, "file_bytes", (double)(t->file_bytes + t->inode_bytes + t->nameless_bytes));
		fnd_ev_view(x, "processes");
		fnd_evn(x, "attribution.counted_bytes", (double)attrib_counted_bytes(t));
		fnd_evn(x, "attribution.process_bytes", (double)t->proc_bytes);
		fnd_evn(x, "attribution.named_file_bytes", (double)t->file_bytes);
		fnd_evn(x, "attribution.inode_file_bytes", (double)t->inode_bytes);
		fnd_evn(x, "attribution.fd_file_bytes", (double)t->nameless_bytes);
		sbuf_addstr(&sb, "Only ");
		fnd_add_pct(&sb, (double)(t->file_bytes + t->inode_bytes + t->nameless_bytes),
			(double)attrib_data_bytes(t));
		sbuf_addstr(&sb, " of the ");
		units_add_bytes(&sb, (double)attrib_data_bytes(t));
		sbuf_addstr(&sb, " of data at the devices (journal, metadata and a stacked device's bytes on the one under it left out) could be tied to a file, named or known only by inode or fd (");
		fnd_add_pct(&sb, (double)t->proc_bytes,
			(double)attrib_counted_bytes(t));
		sbuf_addstr(&sb, " to a process): findings per file cover that share only.");
		fnd_say(c, x, &sb, "processes");
	}
}

/* ------------------------------------------------------------------ */
/* I/O wait (D state, with the iowait profile) */

void rule_iowait(struct ctx *c)
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
		x = fnd_add(c, "iowait", 10 * ps->dstate_ns >= c->dur ?
			FND_HIGH : FND_WARNING, ps->dstate_ns);
		fnd_ent(c, x, "process", r->p.comm, r->p.pid);
		fnd_num(x, "dstate_ns", (double)ps->dstate_ns);
		fnd_num(x, "dstates", (double)ps->dstates);
		fnd_num(x, "device_bytes", (double)(ps->blk.read_bytes +
						ps->blk.write_bytes));
		owner_who(&sb, &r->p);
		sbuf_addf(&sb, " was blocked in D state %" PRIu64 " times for ",
			  ps->dstates);
		own = fnd_slow_of(c, r->p.pid);
		units_add_dur(&sb, (double)ps->dstate_ns);
		sbuf_addstr(&sb, " (");
		fnd_add_pct(&sb, (double)ps->dstate_ns, c->dur);
		sbuf_addstr(&sb, " of the recording) while ");
		units_add_bytes(&sb, (double)(ps->blk.read_bytes +
					ps->blk.write_bytes));
		sbuf_addstr(&sb, " of block I/O was its own");
		if (own) {
			const char *file = stats_request_file(c->st, own);

			stats_dev_name(c->st, own->rq.dev, buf, sizeof(buf));
			fnd_ent(c, x, "device", buf, own->rq.dev);
			sbuf_addf(&sb, ", its slowest requests on %s", buf);
			if (file) {
				fnd_ent(c, x, "file", file, -1);
				sbuf_addf(&sb, " (%s)", file);
			}
		}
		sbuf_addstr(&sb, ".");
		fnd_say(c, x, &sb, "processes");
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

struct syncer {
	struct hnode h;
	const struct proc *p;
	size_t order;		/* its first row's, among the processes' */
	uint64_t sum;
};

/*
 * The process that synced the most bytes to disk dev (its ext4 fsync
 * intervals: write bytes completed while they waited) into *who with
 * those bytes, and its interval with the most; NULL when none synced
 * there.
 */
static const struct wa_fsync *top_syncer(struct ctx *c, uint32_t dev,
					 const struct proc **who,
					 uint64_t *bytes)
{
	const struct stats *st = c->st;
	const struct wa_fsync *best = NULL;
	struct hmap sum = { 0 };
	size_t order = 0;

	*who = NULL;
	*bytes = 0;
	if (!st->have_sys || !st->wa)
		return NULL;
	/* each process's sum in one pass (a row per thread and file: a
	 * package's install has thousands); the largest, the first seen
	 * among equals */
	for (size_t k = 0; k < st->wa->nfs; k++) {
		const struct wa_fsync *w = &st->wa->fs[k];
		const struct proc *p = proctable_of_tid_at(st->pt, w->tid,
							   w->last_ts);
		struct syncer *s;

		if (!p || fnd_disk_of(c, w->fsdev) != dev)
			continue;
		s = hmap_get_new(&sum, hash_mix((uint64_t)(uintptr_t)p),
				 sizeof(*s));
		if (!s) {
			c->err = -AN_E_NOMEM;
			break;
		}
		if (!s->p) {
			s->p = p;
			s->order = order++;
		}
		s->sum += w->write_bytes;
	}
	for (size_t i = 0; i < sum.cap; i++)
		for (struct hnode *n = sum.b[i]; n; n = n->next) {
			const struct syncer *s = (const struct syncer *)n;

			if (!*who || s->sum > *bytes ||
			    (s->sum == *bytes && s->order < order)) {
				*who = s->p;
				*bytes = s->sum;
				order = s->order;
			}
		}
	hmap_release(&sum, NULL);
	for (size_t k = 0; *who && k < st->wa->nfs; k++) {
		const struct wa_fsync *w = &st->wa->fs[k];

		if (fnd_disk_of(c, w->fsdev) == dev &&
		    proctable_of_tid_at(st->pt, w->tid, w->last_ts) == *who &&
		    (!best || w->write_bytes > best->write_bytes))
			best = w;
	}
	return best;
}

void rule_wear(struct ctx *c)
{
	const struct stats *st = c->st;
	const struct wa *wa = st->wa;

	if (!wa || c->dur < 1e8)
		return;
	for (size_t i = 0; i < wa->ndev; i++) {
		const struct wa_dev *d = &wa->dev[i];
		const struct devstat *ds = fnd_devstat_of(st, d->dev, BLK_OP_WRITE);
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
		x = fnd_add(c, "flash-wear", flash(c, d->dev) && day >= 10e9 ?
			FND_WARNING : FND_INFO, 0);
		stats_dev_name(c->st, d->dev, buf, sizeof(buf));
		fnd_ent(c, x, "device", buf, d->dev);
		fnd_num(x, "bytes_per_day", day);
		fnd_num(x, "seconds", c->dur / 1e9);
		fnd_ev_view(x, "wa");
		fnd_evs(c, x, "device", buf);
		fnd_evn(x, "write_bytes", (double)d->ops.bytes[BLK_OP_WRITE]);
		sbuf_addf(&sb, "At the recorded rate %s takes ", buf);
		units_add_bytes(&sb, day);
		sbuf_addstr(&sb, " of writes a day (");
		units_add_bytes(&sb, (double)d->ops.bytes[BLK_OP_WRITE]);
		sbuf_addf(&sb, " in %.1f s, extrapolated)", c->dur / 1e9);
		if (ds && ds->bytes) {
			fnd_num(x, "small_sync_share", (double)ds->small_sync_bytes /
			    (double)ds->bytes);
			sbuf_addstr(&sb, "; ");
			fnd_add_pct(&sb, (double)ds->small_sync_bytes,
				(double)ds->bytes);
			sbuf_addstr(&sb, " of them small synced writes, which wear flash most");
		}
		w = top_syncer(c, d->dev, &p, &synced);
		if (w && p) {
			const char *name = fnd_file_name(rows_fsync_file(st, w),
							 w->fsdev, w->ino, nb,
							 sizeof(nb));

			fnd_ent(c, x, "process", p->comm ? p->comm : "?", p->pid);
			fnd_ent(c, x, "file", name, -1);
			fnd_num(x, "process_synced_bytes", (double)synced);
			sbuf_addstr(&sb, "; the process that synced the most there is ");
			owner_words(&sb, p->comm ? p->comm : "?", p->pid,
				    p->unit, p->container);
			sbuf_addstr(&sb, ", ");
			units_add_bytes(&sb, (double)synced);
			sbuf_addf(&sb, " mostly on %s", name);
		}
		sbuf_addstr(&sb, ".");
		fnd_say(c, x, &sb, "wa");
	}
}
