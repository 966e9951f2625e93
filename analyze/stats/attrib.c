// SPDX-License-Identifier: MIT
/*
 * attrib.c - attribution of block I/O to processes and files (see
 * attrib.h and docs/attribution.md), dirty throttling and D-state time:
 * the aggregates of the owners (replay/bio-owner.h) of the bios each
 * completed request covered, handed over by the block replay as pieces.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "base/blk.h"
#include "base/err.h"
#include "decode/decode.h"
#include "replay/block.h"
#include "replay/bio-owner.h"
#include "replay/proctable.h"
#include "replay/fdtable.h"
#include "replay/stack.h"
#include "replay/window.h"
#include "stats/account.h"
#include "stats/attrib.h"

#define HZ_GUESS	250

struct attrib {
	bool mute;			/* attrib_mute(): owners, no counts */
	struct owners *ow;		/* the owners this adds up, not owned */
	const struct replay_block *rb;	/* the bios in flight, or NULL */
	struct filetab *ft;
	struct attrib_totals t;
	size_t ajournal;		/* the room of t.journal */
	size_t astacked;		/* the room of t.stacked */
	/* what the aggregates of a process or file that cannot be had
	 * are added to (the pass fails: attrib_error()) */
	struct procstat spare_ps;
	struct filestat spare_fs;
	struct blkio spare_io;
	int err;			/* sticky: -AN_E_NOMEM */
};

static const char *const kind_names[AK_NR] = {
	"unattributed", "journal", "fsync", "writeback", "syscall", "context",
	"metadata", "stacked",
};

const char *attrib_kind_name(enum attrib_kind k)
{
	return k < AK_NR ? kind_names[k] : "?";
}

uint64_t attrib_counted_bytes(const struct attrib_totals *t)
{
	return t->bytes - t->kind_bytes[AK_STACKED];
}

uint64_t attrib_data_bytes(const struct attrib_totals *t)
{
	uint64_t other = t->kind_bytes[AK_JOURNAL] +
			 t->kind_bytes[AK_METADATA] + t->fsmeta_read_bytes;
	uint64_t all = attrib_counted_bytes(t);

	return all > other ? all - other : 0;
}

static void retire(void *arg, struct inode_rec *ir);

struct attrib *attrib_new(struct owners *ow, const struct replay_block *rb,
			  struct filetab *ft, struct decoder *dec)
{
	struct attrib *at = an_calloc(1, sizeof(*at));
	const struct dec_caps *c = dec ? decode_caps(dec) : NULL;

	if (!at)
		return NULL;
	at->ow = ow;
	at->rb = rb;
	at->ft = ft;
	owners_on_retire(ow, retire, at);
	if (!c) {
		/* no recording (the unit tests): every event "present" */
		at->t.bio_events = at->t.dirty_events = at->t.ext4_events = true;
		at->t.hz = HZ_GUESS;
		return at;
	}
	at->t.bio_events = c->bio_events;
	at->t.dirty_events = c->dirty_events;
	at->t.ext4_events = c->ext4_events;
	at->t.jbd2_events = c->jbd2_events;
	at->t.bdp_events = c->bdp_events;
	at->t.sched_events = c->sched_events;
	at->t.hz = c->hz;
	if (!at->t.hz) {
		at->t.hz = HZ_GUESS;
		at->t.hz_guessed = true;
	}
	return at;
}

void attrib_free(struct attrib *at)
{
	if (!at)
		return;
	free(at->t.journal);
	free(at->t.stacked);
	free(at);
}

const struct attrib_totals *attrib_totals(const struct attrib *at)
{
	return &at->t;
}

int attrib_error(const struct attrib *at)
{
	return at->err;
}

/* ------------------------------------------------------------------ */
/* Helpers */

/* p, or spare with the error set when p is NULL (no memory). */
static void *or_spare(struct attrib *at, void *p, void *spare)
{
	if (!p)
		at->err = -AN_E_NOMEM;
	return p ? p : spare;
}

/* The aggregates of p and f (the spare ones when they cannot be had). */
#define pstat(at, p) \
	((struct procstat *)or_spare(at, procstat_of(p), &(at)->spare_ps))
#define fstat(at, f) \
	((struct filestat *)or_spare(at, filestat_of(f), &(at)->spare_fs))

/* The block I/O of inode ir while its file is unknown. */
static struct blkio *ino_io(struct attrib *at, struct inode_rec *ir)
{
	if (!ir->user)
		ir->user = an_calloc(1, sizeof(struct blkio));
	return or_spare(at, ir->user, &at->spare_io);
}

/* What ir held for its file, to it (ir's number is a new file's now). */
static void retire(void *arg, struct inode_rec *ir)
{
	struct attrib *at = arg;

	if (ir->user && ir->f) {
		blkio_add(&fstat(at, ir->f)->blk, ir->user);
		memset(ir->user, 0, sizeof(struct blkio));
	}
}

void attrib_window_closed(struct attrib *at, int w, int tid,
			  const struct win *open, const struct dec_ev *ev)
{
	struct procstat *ps;
	struct proc *p;

	if (w != WIN_DSTATE)
		return;
	if (ev->ts > open->ts && (p = owners_proc(at->ow, tid, ev->ts))) {
		ps = pstat(at, p);
		ps->dstate_ns += ev->ts - open->ts;
		ps->dstates++;
	}
}

void attrib_event(struct attrib *at, const struct dec_ev *ev)
{
	struct proc *p;

	if (ev->kind != DK_BDP || ev->pause <= 0)
		return;
	p = owners_proc(at->ow, ev->pid, ev->ts);
	if (p) {
		struct procstat *ps = pstat(at, p);

		/* the event converts pause to ms itself */
		ps->throttle_ns += (uint64_t)ev->pause * 1000000ULL;
		ps->throttles++;
	}
}

/* ------------------------------------------------------------------ */
/* Completed requests */

static void blk_add(const struct attrib *at, struct blkio *b, bool write,
		    uint64_t bytes, uint64_t ns, bool first)
{
	if (at->mute)
		return;
	if (write)
		b->write_bytes += bytes;
	else
		b->read_bytes += bytes;
	b->dev_ns += ns;
	b->requests += first;
}

static void add_journal(struct attrib *at, uint32_t dev, uint64_t bytes,
			bool forced)
{
	struct attrib_journal *j = NULL;

	for (size_t i = 0; i < at->t.njournal; i++)
		if (at->t.journal[i].dev == dev)
			j = &at->t.journal[i];
	if (!j) {
		j = an_push(&at->t.journal, &at->t.njournal, &at->ajournal,
			    sizeof(*at->t.journal), 4);
		if (!j) {
			at->err = -AN_E_NOMEM;
			return;
		}
		j->dev = dev;
	}
	j->bytes += bytes;
	if (forced)
		j->fsync_bytes += bytes;
}

static void add_stacked(struct attrib *at, uint32_t dev, int up,
			uint64_t bytes)
{
	uint32_t upper = up > 0 ? stack_dev(owners_stack(at->ow), (size_t)up - 1)->dev : 0;
	struct attrib_stacked *x = NULL;

	for (size_t i = 0; i < at->t.nstacked; i++)
		if (at->t.stacked[i].dev == dev &&
		    at->t.stacked[i].upper == upper)
			x = &at->t.stacked[i];
	if (!x) {
		x = an_push(&at->t.stacked, &at->t.nstacked, &at->astacked,
			    sizeof(*at->t.stacked), 4);
		if (!x) {
			at->err = -AN_E_NOMEM;
			return;
		}
		x->dev = dev;
		x->upper = upper;
	}
	x->bytes += bytes;
}

/*
 * Writeback: share bytes among ir's dirtiers by their pending dirtied
 * bytes (or, when none is pending, by all they dirtied).  Returns the
 * process given the largest share, or NULL.
 */
static struct proc *share(struct attrib *at, struct inode_rec *ir,
			  bool write, uint64_t bytes, uint64_t ns, bool first)
{
	uint64_t sum = 0, given = 0, given_ns = 0;
	bool pending = true;
	size_t top = 0;

	for (size_t i = 0; i < ir->nd; i++)
		sum += ir->d[i].pending;
	if (!sum) {
		pending = false;
		for (size_t i = 0; i < ir->nd; i++)
			sum += ir->d[i].total;
	}
	if (!sum)
		return NULL;
	for (size_t i = 0; i < ir->nd; i++) {
		uint64_t w = pending ? ir->d[i].pending : ir->d[i].total;

		if (w > (pending ? ir->d[top].pending : ir->d[top].total))
			top = i;
	}
	for (size_t i = 0; i < ir->nd; i++) {
		uint64_t w = pending ? ir->d[i].pending : ir->d[i].total;
		/* whole sectors: the rest goes to the top one */
		uint64_t b = (uint64_t)((double)(bytes / BLK_SECTOR_SIZE) *
					(double)w / (double)sum) *
			     BLK_SECTOR_SIZE;
		uint64_t n = (uint64_t)((double)ns * (double)w / (double)sum);

		if (i == top)
			continue;
		if (b || n)
			blk_add(at, &pstat(at, ir->d[i].p)->blk, write, b, n,
				false);
		given += b;
		given_ns += n;
	}
	blk_add(at, &pstat(at, ir->d[top].p)->blk, write, bytes - given,
		ns - given_ns, first);
	if (!at->mute)
		at->t.proc_bytes += bytes;
	if (pending)
		owner_inode_written(ir, bytes);
	return ir->d[top].p;
}

/*
 * Give bytes (and device time ns) of one bio part to its owner; returns
 * the process given (the largest share of) them, or NULL.
 */
static struct proc *credit(struct attrib *at, const struct owner *o,
			   uint32_t dev, bool write, uint64_t bytes,
			   uint64_t ns, bool first)
{
	struct blkio *fb = NULL;
	struct proc *top = o->p;

	if (!at->mute)
		at->t.kind_bytes[o->kind] += bytes;
	switch (o->kind) {
	case AK_STACKED:
		/* counted once, on the upper device, by its own owner */
		if (!at->mute)
			add_stacked(at, dev, o->up, bytes);
		return o->p;
	case AK_JOURNAL:
		if (at->mute)
			return NULL;
		add_journal(at, dev, bytes, o->forced);
		if (o->forcer) {
			pstat(at, o->forcer)->blk.journal_bytes += bytes;
			if (o->forcer_ir) {
				fb = o->forcer_ir->f ?
				     &fstat(at, o->forcer_ir->f)->blk :
				     ino_io(at, o->forcer_ir);
				fb->journal_bytes += bytes;
			}
		}
		return NULL;
	case AK_WRITEBACK:
		top = o->ir ? share(at, o->ir, write, bytes, ns, first) : NULL;
		if (!top && !at->mute)
			at->t.wb_noproc_bytes += bytes;
		break;
	case AK_FSYNC:
	case AK_SYSCALL:
	case AK_CONTEXT:
		if (o->fsmeta && !at->mute)
			at->t.fsmeta_read_bytes += bytes;
		if (o->p) {
			blk_add(at, &pstat(at, o->p)->blk, write, bytes, ns,
				first);
			if (!at->mute)
				at->t.proc_bytes += bytes;
		}
		if (o->ir && write)
			owner_inode_written(o->ir, bytes);
		break;
	default:
		return NULL;
	}
	if (o->f)
		fb = &fstat(at, o->f)->blk;
	else if (o->ir)
		fb = o->ir->f ? &fstat(at, o->ir->f)->blk : ino_io(at, o->ir);
	if (fb)
		blk_add(at, fb, write, bytes, ns, first);
	return top;
}

void attrib_mute(struct attrib *at, bool mute)
{
	at->mute = mute;
}

void attrib_request(struct attrib *at, const struct blk_request *rq,
		    const struct blk_piece *pc, size_t npc,
		    struct attrib_owner *out)
{
	static const struct owner none;
	uint64_t left = rq->nr_sector, total = rq->nr_sector;
	uint64_t ns = rq->complete_ts > rq->issue_ts && rq->issue_ts ?
		      rq->complete_ts - rq->issue_ts : 0, ns_given = 0;
	bool write = rq->op == BLK_OP_WRITE;
	struct owner first;
	bool have_first = false;
	struct proc *top = NULL;

	if (out)
		memset(out, 0, sizeof(*out));
	if (rq->op != BLK_OP_READ && rq->op != BLK_OP_WRITE)
		return;
	if (!at->mute) {
		at->t.requests++;
		at->t.bytes += total * BLK_SECTOR_SIZE;
	}
	for (size_t i = 0; i < npc && left > 0; i++) {
		uint64_t n = pc[i].nr < left ? pc[i].nr : left, part_ns;
		struct owner o;

		if (!pc[i].owner) {
			/* sectors no bio of ours covers: the first bio's */
			at->t.bio_unmatched += left;
			o = have_first ? first : none;
			n = left;
		} else {
			o = *(const struct owner *)pc[i].owner;
		}
		part_ns = n == left ? ns - ns_given :
			  (uint64_t)((double)ns * (double)n / (double)total);
		ns_given += part_ns;
		if (!have_first) {
			top = credit(at, &o, rq->dev, write,
				     n * BLK_SECTOR_SIZE, part_ns, true);
			first = o;
			have_first = true;
		} else {
			credit(at, &o, rq->dev, write, n * BLK_SECTOR_SIZE,
			       part_ns, false);
		}
		left -= n;
	}
	if (out && have_first) {
		out->kind = first.kind;
		out->proc = top ? top : first.p;
		out->file = first.f ? first.f : first.ir ? first.ir->f : NULL;
		if (first.ir) {
			out->dev = first.ir->dev;
			out->ino = first.ir->ino;
		}
	}
}

/* ------------------------------------------------------------------ */
/* End */

static int cmp_journal(const void *a, const void *b)
{
	const struct attrib_journal *x = a, *y = b;

	return (x->dev > y->dev) - (x->dev < y->dev);
}

static int cmp_stacked(const void *a, const void *b)
{
	const struct attrib_stacked *x = a, *y = b;

	if (x->dev != y->dev)
		return (x->dev > y->dev) - (x->dev < y->dev);
	return (x->upper > y->upper) - (x->upper < y->upper);
}

/*
 * At the end: an inode still without a file gets the end snapshot's
 * file of its number (or one named by dev:ino when it did I/O), and
 * the I/O it held goes to its file.
 */
static void end_inode(void *arg, struct inode_rec *ir)
{
	struct attrib *at = arg;
	struct filetab *ft = at->ft;
	unsigned int ma = blk_major(ir->dev);
	unsigned int mi = blk_minor(ir->dev);
	struct blkio *io = ir->user;
	bool any = io && (io->read_bytes || io->write_bytes ||
			  io->journal_bytes);

	if (!ir->f)
		ir->f = filetab_find_devino(ft, ma, mi, ir->ino);
	if (!ir->f && any) {
		bool gone;
		const char *p = filetab_inode_name(ft, ma, mi, ir->ino, &gone);

		ir->f = filetab_devino(ft, ma, mi, ir->ino, p);
		if (!p && gone && !ir->f->path)
			ir->f->unlinked = true;
	}
	if (ir->f && any) {
		blkio_add(&fstat(at, ir->f)->blk, io);
		memset(io, 0, sizeof(*io));
	}
}

void attrib_end(struct attrib *at)
{
	const struct owner_counts *n = owners_counts(at->ow);
	struct filetab *ft = at->ft;

	at->t.bios = n->bios;
	at->t.merges = n->merges;
	at->t.remaps = n->remaps;
	at->t.splits = n->splits;
	at->t.inode_learned = n->inode_learned;
	at->t.inode_retied = n->inode_retied;
	if (at->rb) {
		at->t.bio_pending_end = replay_block_bios(at->rb);
		at->t.bio_replaced = replay_block_anomalies(at->rb)->bio_replaced;
	}
	owners_each_inode(at->ow, end_inode, at);
	for (size_t i = 0; i < filetab_count(ft); i++) {
		struct file *f = filetab_at(ft, i);
		const struct filestat *fs = f->user;
		uint64_t b;

		if (!fs)
			continue;
		b = fs->blk.read_bytes + fs->blk.write_bytes;
		if (f->path)
			at->t.file_bytes += b;
		else if (f->has_devino)
			at->t.inode_bytes += b;
		else
			at->t.nameless_bytes += b;
	}
	if (at->t.njournal)
		qsort(at->t.journal, at->t.njournal, sizeof(*at->t.journal),
		      cmp_journal);
	if (at->t.nstacked)
		qsort(at->t.stacked, at->t.nstacked, sizeof(*at->t.stacked),
		      cmp_stacked);
}


struct file *attrib_inode_file(const struct attrib *at, uint32_t dev,
			       uint64_t ino)
{
	return owners_inode_file(at->ow, dev, ino);
}
