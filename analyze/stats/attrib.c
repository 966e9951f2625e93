// SPDX-License-Identifier: MIT
/*
 * attrib.c - attribution of block I/O to processes and files (see
 * attrib.h and docs/attribution.md), dirty throttling and D-state time.
 *
 * The owner of every bio, kept with the bio in the block replay's table
 * of bios in flight (replay/block.h), which hands a completed request's
 * bios back as pieces; a table of its own, the inodes seen in
 * writeback/ext4 events, keyed by device major and inode number (an
 * inode remembers its file once known and who dirtied it); and the
 * per-thread windows of replay/window.h (inside ext4_writepages,
 * ext4_sync_file, a jbd2 commit; asleep in D state).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "base/blk.h"
#include "base/err.h"
#include "base/hmap.h"
#include "base/kthread.h"
#include "base/imap.h"
#include "decode/decode.h"
#include "replay/syscall.h"
#include "replay/proctable.h"
#include "replay/window.h"
#include "replay/uring.h"
#include "replay/aio.h"
#include "replay/block.h"
#include "stats/account.h"
#include "stats/attrib.h"
#include "stats/attrib-int.h"
#include "stats/stack.h"

#define PAGE_BYTES	4096ULL		/* a dirtied folio counts one page */
#define HZ_GUESS	250

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

struct attrib *attrib_new(struct sysreplay *sr, struct proctable *pt,
			  struct filetab *ft, const struct windows *ws,
			  struct decoder *dec)
{
	struct attrib *at = an_calloc(1, sizeof(*at));
	const struct dec_caps *c = dec ? decode_caps(dec) : NULL;

	if (!at)
		return NULL;
	at->dec = dec;
	at->sr = sr;
	at->pt = pt;
	at->ft = ft;
	at->ws = ws;
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

static void free_inode(struct hnode *n)
{
	struct inode_rec *ir = (struct inode_rec *)n;

	free(ir->d);
	free(ir);
}

void attrib_free(struct attrib *at)
{
	if (!at)
		return;
	hmap_release(&at->inodes, free_inode);
	imap_release_all(&at->readahead, NULL);
	free(at->bdi);
	free(at->t.journal);
	free(at->t.stacked);
	stack_free(at->stk);
	free(at);
}

int attrib_set_stack(struct attrib *at, const struct stack_dev_info *v,
		     size_t n)
{
	stack_free(at->stk);
	at->stk = n ? stack_new(v, n, sizeof(struct owner)) : NULL;
	return n && !at->stk ? -AN_E_NOMEM : 0;
}

int attrib_set_block(struct attrib *at, struct replay_block *rb)
{
	at->rb = rb;
	return replay_block_owners(rb, sizeof(struct owner));
}

void attrib_set_uring(struct attrib *at, struct uring_replay *ur)
{
	at->ur = ur;
}

void attrib_set_aio(struct attrib *at, const struct aio_replay *ar)
{
	at->ar = ar;
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

static struct proc *proc_of(struct attrib *at, int tid, uint64_t ts)
{
	if (tid <= 0)
		return NULL;
	return proctable_get(at->pt, tid,
			     at->dec ? decode_comm(at->dec, tid) : "<...>", ts);
}

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

/* The file of the fd the thread's pending syscall works on, or NULL. */
static struct file *pending_file(struct attrib *at, int tid,
				 const struct sys_enter **pe)
{
	const struct sys_enter *e = sysreplay_pending(at->sr, tid);
	const struct sys_kind_info *ki;
	struct proc *p;
	int fd;

	/* outside a syscall: an io_uring request the thread issues */
	if (!e && at->ur)
		e = uring_current(at->ur, tid, at->dec &&
				  !strncmp(decode_comm(at->dec, tid),
					   "iou-wrk-", 8));
	*pe = e;
	if (!e)
		return NULL;
	ki = sys_kind_info(e->kind);
	fd = ki->fd_out >= 0 ? (int)e->args[ki->fd_out] :
	     ki->fd_in >= 0 ? (int)e->args[ki->fd_in] : -1;
	if (e->kind == SK_IO_SUBMIT)	/* the fd all its iocbs share */
		fd = aio_submit_fd(at->ar, tid);
	if (e->kind == SK_MMAP)		/* a shared mapping of fd */
		fd = (int)e->args[4];
	if (fd < 0 && e->kind != SK_MSYNC)
		return NULL;
	p = proctable_lookup(at->pt, tid);
	if (!p || !p->fds)
		return NULL;
	if (e->kind == SK_MSYNC)	/* the file mapped at start */
		return fdtable_map_file(p->fds, e->args[0]);
	return fdtable_get(p->fds, fd);
}

/* Kernel threads (kthreadd's children, or by comm) never act for themselves. */
static bool is_kthread(const struct proc *p, const char *comm)
{
	if (p && (p->pid == 2 || p->ppid == 2))
		return true;
	return kthread_comm(comm, NULL);
}

/* ------------------------------------------------------------------ */
/* Bio owners */

static bool sync_kind(enum sys_kind k)
{
	return sys_kind_info(k)->flags & SKF_SYNC;
}

/*
 * Whether inode ino of dev is the backing file of an upper device (its
 * writeback or fsync is that device's): *o is then the owner of the
 * upper device's last write, kind AK_STACKED.
 */
static bool stacked_inode(struct attrib *at, uint32_t dev, uint64_t ino,
			  struct owner *o)
{
	int i = stack_backing(at->stk, dev, ino, o);

	if (i < 0)
		return false;
	o->kind = AK_STACKED;
	o->up = i + 1;
	return true;
}

/* A page of an inode the thread added to the page cache. */
struct ra {
	uint32_t dev;
	uint64_t ino;
	uint64_t ts;
};

/* How long after its pages were added a read bio is theirs. */
#define RA_WINDOW_NS	2000000ULL

/*
 * What a thread outside any syscall reads when it queues a read bio on
 * dev (a page fault of a mapped file, exec, a path lookup): the inode
 * whose pages it added to the page cache last, within RA_WINDOW_NS, on a
 * file system of dev's major, into o->ir; or, when those pages were the
 * block device's own (the bdev pseudo file system, major 0, whose inode
 * number is the device's dev_t: inode tables, directories, bitmaps read
 * by ext4), o->fsmeta.
 */
static void read_ahead(struct attrib *at, const struct dec_ev *ev,
		       uint32_t dev, struct owner *o)
{
	const struct ra *r = imap_get(&at->readahead, ev->pid);

	if (!r || ev->kind != DK_BIO_QUEUE || ev->bio.op != BLK_OP_READ ||
	    ev->ts < r->ts || ev->ts - r->ts > RA_WINDOW_NS)
		return;
	if (!blk_major(r->dev) && blk_major((uint32_t)r->ino) == blk_major(dev))
		o->fsmeta = true;
	else if (blk_major(r->dev) == blk_major(dev))
		o->ir = attrib_inode_get(at, r->dev, true, r->ino);
}

/* A page added to the page cache by a thread: what read_ahead() reads. */
static void on_filemap(struct attrib *at, const struct dec_ev *ev)
{
	struct ra *r;

	if (ev->pid <= 0)
		return;
	r = imap_get_new(&at->readahead, ev->pid, sizeof(*r));
	if (!r) {
		at->err = -AN_E_NOMEM;
		return;
	}
	r->dev = ev->inode.dev;
	r->ino = ev->inode.ino;
	r->ts = ev->ts;
}

static void owner_of(struct attrib *at, const struct dec_ev *ev,
		     uint32_t dev, const char *comm, struct owner *o)
{
	const struct win *wb = windows_get(at->ws, ev->pid, WIN_WRITEPAGES);
	const struct win *sync = windows_get(at->ws, ev->pid, WIN_EXT4_SYNC);
	const struct sys_enter *pe;
	struct file *f;
	struct proc *p;
	bool kt;
	int i;

	memset(o, 0, sizeof(*o));
	f = pending_file(at, ev->pid, &pe);
	p = proctable_lookup(at->pt, ev->pid);
	kt = is_kthread(p, comm);
	if (wb) {
		if (stacked_inode(at, wb->dev, wb->ino, o))
			return;
		o->ir = attrib_inode_get(at, wb->dev, true, wb->ino);
		if (pe && !is_kthread(p, comm)) {
			/* fsync, sync, O_SYNC write: the caller waits */
			o->kind = AK_FSYNC;
			o->p = proc_of(at, ev->pid, ev->ts);
			if (f && sync_kind(pe->kind))
				attrib_inode_tie(at, o->ir, f, true);
		} else {
			o->kind = AK_WRITEBACK;
		}
		return;
	}
	/* journal: a jbd2 thread, or any thread inside a commit */
	if (!strncmp(comm, "jbd2/", 5) ||
	    windows_get(at->ws, ev->pid, WIN_COMMIT)) {
		int tid = 0;
		const struct win *s = windows_oldest(at->ws, WIN_EXT4_SYNC,
						     dev, &tid);

		o->kind = AK_JOURNAL;
		o->forced = s != NULL;
		/*
		 * charged to the fsync's caller; a kernel thread called none
		 * (a loop worker syncing its backing file for the flush of
		 * the device above: that device's fsyncs are charged its own
		 * journal, and each device's bytes stay its own)
		 */
		if (s && !is_kthread(proctable_lookup(at->pt, tid), at->dec ?
				     decode_comm(at->dec, tid) : "")) {
			o->forcer = proc_of(at, tid, ev->ts);
			o->forcer_ir = attrib_inode_get(at, s->dev, true, s->ino);
		}
		return;
	}
	if (sync && kt && stacked_inode(at, sync->dev, sync->ino, o))
		return;
	if (sync) {
		o->kind = AK_FSYNC;
		o->p = proc_of(at, ev->pid, ev->ts);
		o->ir = attrib_inode_get(at, sync->dev, true, sync->ino);
		attrib_inode_tie(at, o->ir, f, true);
		return;
	}
	if (pe) {
		o->kind = sync_kind(pe->kind) ? AK_FSYNC : AK_SYSCALL;
		o->p = proc_of(at, ev->pid, ev->ts);
		o->f = f;
		return;
	}
	if (ev->pid > 0 && !kt) {
		o->kind = AK_CONTEXT;
		o->p = proc_of(at, ev->pid, ev->ts);
		read_ahead(at, ev, dev, o);
		return;
	}
	/* a kernel thread serving a request of a device stacked above */
	if (ev->kind == DK_BIO_QUEUE &&
	    (i = stack_lower(at->stk, dev, ev->bio.op == BLK_OP_WRITE,
			     (uint64_t)ev->bio.nr * BLK_SECTOR_SIZE, o)) >= 0) {
		o->kind = AK_STACKED;
		o->up = i + 1;
		return;
	}
	/* a flusher writing metadata home (inode tables, bitmaps, dirs) */
	o->kind = ev->kind == DK_BIO_QUEUE && ev->bio.meta ? AK_METADATA :
		  AK_UNATTRIBUTED;
}

/* ------------------------------------------------------------------ */
/* Events */

/*
 * A bio queued: its owner, kept in the block replay's table of bios in
 * flight (a bio remapped from above keeps the owner it had there).
 */
static void on_bio_queue(struct attrib *at, const struct dec_ev *ev)
{
	struct owner o, *slot;
	bool kept;

	at->t.bios++;
	owner_of(at, ev, ev->bio.dev, ev->bio.comm, &o);
	slot = at->rb ? replay_block_owner(at->rb, ev->bio.dev,
					   ev->bio.sector, &kept) : NULL;
	if (slot && !kept)
		*slot = o;
}

/* A folio (or an inode) dirtied by the current task. */
static void on_dirty(struct attrib *at, const struct dec_ev *ev,
		     uint64_t bytes)
{
	uint32_t dev = ev->inode.dev;
	uint64_t ino = ev->inode.ino;
	const struct win *wb, *sync;
	struct inode_rec *ir;
	const struct sys_enter *pe;
	struct file *f;
	struct proc *p;
	size_t i;

	if (!ino || ev->pid <= 0)
		return;
	wb = windows_get(at->ws, ev->pid, WIN_WRITEPAGES);
	sync = windows_get(at->ws, ev->pid, WIN_EXT4_SYNC);
	if (wb && wb->ino == ino)
		attrib_learn_bdi(at, dev, wb->dev);
	else if (sync && sync->ino == ino)
		attrib_learn_bdi(at, dev, sync->dev);
	dev = attrib_fs_dev_of(at, dev, ino);
	ir = attrib_inode_get(at, dev, false, ino);
	if (!ir)
		return;
	f = pending_file(at, ev->pid, &pe);
	if (f && pe && (sys_kind_info(pe->kind)->flags & (SKF_WRITE | SKF_META))) {
		/* a write, or an ftruncate, fallocate or mmap of the fd:
		 * the one inode such a call dirties is its file's */
		attrib_inode_tie(at, ir, f, bytes > 0);
	} else if (f && pe && ev->kind == DK_DIRTY_INODE &&
		   (sys_kind_info(pe->kind)->flags & SKF_READ)) {
		/* a read of the fd updating its file's access time (relatime:
		 * the first read after a write): the file of an fd opened
		 * without a name, read from the page cache, has no other
		 * event that shows its inode */
		attrib_inode_tie(at, ir, f, false);
	} else if (!pe && bytes && !ir->f) {
		/* a page fault writing a shared mapping: the one file of
		 * the process's mappings that can be this inode
		 * (docs/attribution.md) */
		p = proctable_lookup(at->pt, ev->pid);
		f = p ? fdtable_map_of_inode(p->fds, ir->fs_dev ?
					     ir->dev : 0, ino) : NULL;
		if (f)
			attrib_inode_tie(at, ir, f, false);
	}
	if (!bytes)
		return;
	p = proc_of(at, ev->pid, ev->ts);
	if (!p)
		return;
	for (i = 0; i < ir->nd; i++)
		if (ir->d[i].p == p)
			break;
	if (i == ir->nd) {
		if (an_grow(&ir->d, &ir->dcap, ir->nd + 1, sizeof(*ir->d), 2)) {
			at->err = -AN_E_NOMEM;
			return;
		}
		memset(&ir->d[ir->nd++], 0, sizeof(*ir->d));
		ir->d[i].p = p;
	}
	ir->d[i].pending += bytes;
	ir->d[i].total += bytes;
}

void attrib_window_closed(struct attrib *at, int w, int tid,
			  const struct win *open, const struct dec_ev *ev)
{
	struct procstat *ps;
	struct proc *p;

	if (w != WIN_DSTATE)
		return;
	if (ev->ts > open->ts && (p = proc_of(at, tid, ev->ts))) {
		ps = pstat(at, p);
		ps->dstate_ns += ev->ts - open->ts;
		ps->dstates++;
	}
}

/* A request issued on a device stacked above another: kept in flight. */
static void on_issue(struct attrib *at, const struct dec_ev *ev)
{
	const struct dec_rq *r = &ev->rq;
	const struct owner *o;

	if (!at->stk || (r->op != BLK_OP_READ && r->op != BLK_OP_WRITE))
		return;
	o = at->rb ? replay_block_owner(at->rb, r->dev, r->sector, NULL) :
	    NULL;
	if (stack_issue(at->stk, r->dev, r->sector, r->nr_sector,
			r->op == BLK_OP_WRITE, o) < 0)
		at->err = -AN_E_NOMEM;
}

/* A kernel thread touched an inode: a vote for a loop's backing file. */
static void touch(struct attrib *at, const struct dec_ev *ev)
{
	if (at->stk && ev->pid > 0 && ev->inode.ino &&
	    is_kthread(proctable_lookup(at->pt, ev->pid), at->dec ?
		       decode_comm(at->dec, ev->pid) : ""))
		stack_touch(at->stk, ev->inode.dev, ev->inode.ino);
}

void attrib_event(struct attrib *at, const struct dec_ev *ev)
{
	const struct sys_enter *pe;
	struct inode_rec *ir;
	struct file *f;

	at->now = ev->ts;
	switch (ev->kind) {
	case DK_RQ_ISSUE:
		on_issue(at, ev);
		return;
	case DK_RQ_REQUEUE:
		stack_complete(at->stk, ev->rq.dev, ev->rq.sector);
		return;
	case DK_BIO_QUEUE:
		on_bio_queue(at, ev);
		break;
	case DK_BIO_MERGE:
		at->t.merges++;
		break;
	case DK_BIO_REMAP:
		at->t.remaps++;
		break;
	case DK_BIO_SPLIT:
		at->t.splits++;
		break;
	case DK_DIRTY_FOLIO:
		touch(at, ev);
		on_dirty(at, ev, PAGE_BYTES);
		break;
	case DK_DIRTY_INODE:
		touch(at, ev);
		/* ties the inode to the fd written; no bytes of its own */
		on_dirty(at, ev, at->t.dirty_events ? 0 : PAGE_BYTES);
		break;
	case DK_INODE_ALLOC:
		/*
		 * a new file: an inode of this number seen before was a file
		 * deleted since, and what it held is not the new one's
		 */
		ir = attrib_inode_get(at, ev->inode.dev, true, ev->inode.ino);
		if (!ir)
			break;
		if (ir->f) {
			blkio_add(&fstat(at, ir->f)->blk, &ir->io);
			memset(&ir->io, 0, sizeof(ir->io));
			at->t.inode_retied++;
		}
		ir->f = NULL;
		ir->nd = 0;
		ir->born = ev->ts;
		break;
	case DK_FSYNC_ENTER:
		touch(at, ev);
		ir = attrib_inode_get(at, ev->inode.dev, true, ev->inode.ino);
		f = pending_file(at, ev->pid, &pe);
		if (pe && sync_kind(pe->kind))
			attrib_inode_tie(at, ir, f, true);
		break;
	case DK_FILEMAP:
		if (!ev->inode.ino)
			break;
		touch(at, ev);
		on_filemap(at, ev);
		f = pending_file(at, ev->pid, &pe);
		if (f && (sys_kind_info(pe->kind)->flags & SKF_READ)) {
			ir = attrib_inode_get(at, ev->inode.dev, true, ev->inode.ino);
			attrib_inode_tie(at, ir, f, false);
		}
		break;
	case DK_BDP:
		if (ev->pause > 0) {
			struct proc *p = proc_of(at, ev->pid, ev->ts);

			if (p) {
				struct procstat *ps = pstat(at, p);

				/* the event converts pause to ms itself */
				ps->throttle_ns += (uint64_t)ev->pause *
						   1000000ULL;
				ps->throttles++;
			}
		}
		break;
	default:
		/* the windows (ext4 writepages and sync, jbd2 commits, D
		 * state) are the window machine's */
		break;
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
	uint32_t upper = up > 0 ? stack_dev(at->stk, (size_t)up - 1)->dev : 0;
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

/* Consume the dirtiers' pending bytes of ir by `bytes` written out. */
static void consume(struct inode_rec *ir, uint64_t bytes)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < ir->nd; i++)
		sum += ir->d[i].pending;
	if (!sum)
		return;
	for (size_t i = 0; i < ir->nd; i++) {
		uint64_t take = (uint64_t)((double)bytes *
					   (double)ir->d[i].pending /
					   (double)sum);

		ir->d[i].pending -= take < ir->d[i].pending ? take :
				    ir->d[i].pending;
	}
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
		consume(ir, bytes);
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
				     &o->forcer_ir->io;
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
			consume(o->ir, bytes);
		break;
	default:
		return NULL;
	}
	if (o->f)
		fb = &fstat(at, o->f)->blk;
	else if (o->ir)
		fb = o->ir->f ? &fstat(at, o->ir->f)->blk : &o->ir->io;
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
	stack_complete(at->stk, rq->dev, rq->sector);
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

void attrib_end(struct attrib *at)
{
	struct filetab *ft = at->ft;

	if (at->rb) {
		at->t.bio_pending_end = replay_block_bios(at->rb);
		at->t.bio_replaced = replay_block_anomalies(at->rb)->bio_replaced;
	}
	for (size_t i = 0; i < at->inodes.cap; i++) {
		for (struct hnode *n = at->inodes.b[i]; n; n = n->next) {
			struct inode_rec *ir = (struct inode_rec *)n;
			unsigned int ma = blk_major(ir->dev);
			unsigned int mi = blk_minor(ir->dev);
			bool any = ir->io.read_bytes || ir->io.write_bytes ||
				   ir->io.journal_bytes;

			if (!ir->f)
				ir->f = filetab_find_devino(ft, ma, mi, ir->ino);
			if (!ir->f && any) {
				bool gone;
				const char *p = filetab_inode_name(ft, ma, mi,
							ir->ino, &gone);

				ir->f = filetab_devino(ft, ma, mi, ir->ino, p);
				if (!p && gone && !ir->f->path)
					ir->f->unlinked = true;
			}
			if (ir->f && any) {
				blkio_add(&fstat(at, ir->f)->blk, &ir->io);
				memset(&ir->io, 0, sizeof(ir->io));
			}
		}
	}
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
	uint64_t key = ikey(dev, ino);
	struct hnode **pp = hmap_slot(&at->inodes, key);

	for (; pp && *pp; pp = &(*pp)->next) {
		const struct inode_rec *ir = (const struct inode_rec *)*pp;

		if (ir->h.key == key && ir->dev == dev && ir->ino == ino)
			return ir->f;
	}
	return NULL;
}
