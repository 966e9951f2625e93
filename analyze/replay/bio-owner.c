// SPDX-License-Identifier: MIT
/*
 * bio-owner.c - the owner of every bio, from the events (see bio-owner.h and
 * docs/attribution.md): the thread that queues it and what that thread
 * is inside (a syscall, an ext4 writepages or fsync window, a jbd2
 * commit), the inodes it dirtied and the pages it added to the page
 * cache, the requests in flight on stacked devices.  The owner is kept
 * with the bio in the block replay's table of bios in flight.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "base/blk.h"
#include "base/err.h"
#include "base/hmap.h"
#include "base/imap.h"
#include "base/kthread.h"
#include "decode/decode.h"
#include "input/meta.h"
#include "replay/aio.h"
#include "replay/block.h"
#include "replay/bio-owner-int.h"
#include "replay/proctable.h"
#include "replay/stack.h"
#include "replay/syscall.h"
#include "replay/uring.h"
#include "replay/window.h"

#define PAGE_BYTES	4096ULL		/* a dirtied folio counts one page */

struct owners *owners_new(struct sysreplay *sr, struct proctable *pt,
			  struct filetab *ft, const struct windows *ws,
			  struct decoder *dec)
{
	struct owners *ow = an_calloc(1, sizeof(*ow));

	if (!ow)
		return NULL;
	ow->dec = dec;
	ow->sr = sr;
	ow->pt = pt;
	ow->ft = ft;
	ow->ws = ws;
	/* no recording (the unit tests): every event "present" */
	ow->dirty_events = dec ? decode_caps(dec)->dirty_events : true;
	return ow;
}

static void free_inode(struct hnode *n)
{
	struct inode_rec *ir = (struct inode_rec *)n;

	free(ir->d);
	free(ir->user);
	free(ir);
}

void owners_free(struct owners *ow)
{
	if (!ow)
		return;
	hmap_release(&ow->inodes, free_inode);
	imap_release_all(&ow->readahead, NULL);
	free(ow->bdi);
	stack_free(ow->stk);
	free(ow);
}

int owners_error(const struct owners *ow)
{
	return ow->err;
}

int owners_set_block(struct owners *ow, struct replay_block *rb)
{
	ow->rb = rb;
	return replay_block_owners(rb, sizeof(struct owner));
}

int owners_set_stack(struct owners *ow, const struct meta_bdevs *bdevs)
{
	struct stack_dev_info *v;
	size_t n = 0;

	stack_free(ow->stk);
	ow->stk = NULL;
	if (!bdevs->n)
		return 0;
	v = an_calloc(bdevs->n, sizeof(*v));
	if (!v)
		return -AN_E_NOMEM;
	for (size_t i = 0; i < bdevs->n; i++) {
		const struct meta_bdev *d = &bdevs->v[i];

		if (!d->backing_fs || d->backing_fs == d->dev)
			continue;
		v[n].dev = d->dev;
		v[n].fs = d->backing_fs;
		v[n].disk = meta_bdevs_disk_of(bdevs, d->backing_fs);
		v[n].ino = d->backing_ino;
		n++;
	}
	ow->stk = n ? stack_new(v, n, sizeof(struct owner)) : NULL;
	free(v);
	return n && !ow->stk ? -AN_E_NOMEM : 0;
}

const struct stack *owners_stack(const struct owners *ow)
{
	return ow->stk;
}

void owners_set_uring(struct owners *ow, struct uring_replay *ur)
{
	ow->ur = ur;
}

void owners_set_aio(struct owners *ow, const struct aio_replay *ar)
{
	ow->ar = ar;
}

void owners_on_retire(struct owners *ow,
		      void (*retire)(void *arg, struct inode_rec *ir),
		      void *arg)
{
	ow->retire = retire;
	ow->retire_arg = arg;
}

const struct owner_counts *owners_counts(const struct owners *ow)
{
	return &ow->n;
}

/* ------------------------------------------------------------------ */
/* Helpers */

struct proc *owners_proc(struct owners *ow, int tid, uint64_t ts)
{
	if (tid <= 0)
		return NULL;
	return proctable_get(ow->pt, tid,
			     ow->dec ? decode_comm(ow->dec, tid) : "<...>", ts);
}

/* The file of the fd the thread's pending syscall works on, or NULL. */
static struct file *pending_file(struct owners *ow, int tid,
				 const struct sys_enter **pe)
{
	const struct sys_enter *e = sysreplay_pending(ow->sr, tid);
	const struct sys_kind_info *ki;
	struct proc *p;
	int fd;

	/* outside a syscall: an io_uring request the thread issues */
	if (!e && ow->ur)
		e = uring_current(ow->ur, tid, ow->dec &&
				  !strncmp(decode_comm(ow->dec, tid),
					   "iou-wrk-", 8));
	*pe = e;
	if (!e)
		return NULL;
	ki = sys_kind_info(e->kind);
	fd = ki->fd_out >= 0 ? (int)e->args[ki->fd_out] :
	     ki->fd_in >= 0 ? (int)e->args[ki->fd_in] : -1;
	if (e->kind == SK_IO_SUBMIT)	/* the fd all its iocbs share */
		fd = aio_submit_fd(ow->ar, tid);
	if (e->kind == SK_MMAP)		/* a shared mapping of fd */
		fd = (int)e->args[4];
	if (fd < 0 && e->kind != SK_MSYNC)
		return NULL;
	p = proctable_lookup(ow->pt, tid);
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
static bool stacked_inode(struct owners *ow, uint32_t dev, uint64_t ino,
			  struct owner *o)
{
	int i = stack_backing(ow->stk, dev, ino, o);

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
static void read_ahead(struct owners *ow, const struct dec_ev *ev,
		       uint32_t dev, struct owner *o)
{
	const struct ra *r = imap_get(&ow->readahead, ev->pid);

	if (!r || ev->kind != DK_BIO_QUEUE || ev->bio.op != BLK_OP_READ ||
	    ev->ts < r->ts || ev->ts - r->ts > RA_WINDOW_NS)
		return;
	if (!blk_major(r->dev) && blk_major((uint32_t)r->ino) == blk_major(dev))
		o->fsmeta = true;
	else if (blk_major(r->dev) == blk_major(dev))
		o->ir = owner_inode_get(ow, r->dev, true, r->ino);
}

/* A page added to the page cache by a thread: what read_ahead() reads. */
static void on_filemap(struct owners *ow, const struct dec_ev *ev)
{
	struct ra *r;

	if (ev->pid <= 0)
		return;
	r = imap_get_new(&ow->readahead, ev->pid, sizeof(*r));
	if (!r) {
		ow->err = -AN_E_NOMEM;
		return;
	}
	r->dev = ev->inode.dev;
	r->ino = ev->inode.ino;
	r->ts = ev->ts;
}

static void owner_of(struct owners *ow, const struct dec_ev *ev,
		     uint32_t dev, const char *comm, struct owner *o)
{
	const struct win *wb = windows_get(ow->ws, ev->pid, WIN_WRITEPAGES);
	const struct win *sync = windows_get(ow->ws, ev->pid, WIN_EXT4_SYNC);
	const struct sys_enter *pe;
	struct file *f;
	struct proc *p;
	bool kt;
	int i;

	memset(o, 0, sizeof(*o));
	f = pending_file(ow, ev->pid, &pe);
	p = proctable_lookup(ow->pt, ev->pid);
	kt = is_kthread(p, comm);
	if (wb) {
		if (stacked_inode(ow, wb->dev, wb->ino, o))
			return;
		o->ir = owner_inode_get(ow, wb->dev, true, wb->ino);
		if (pe && !is_kthread(p, comm)) {
			/* fsync, sync, O_SYNC write: the caller waits */
			o->kind = AK_FSYNC;
			o->p = owners_proc(ow, ev->pid, ev->ts);
			if (f && sync_kind(pe->kind))
				owner_inode_tie(ow, o->ir, f, true);
		} else {
			o->kind = AK_WRITEBACK;
		}
		return;
	}
	/* journal: a jbd2 thread, or any thread inside a commit */
	if (!strncmp(comm, "jbd2/", 5) ||
	    windows_get(ow->ws, ev->pid, WIN_COMMIT)) {
		int tid = 0;
		const struct win *s = windows_oldest(ow->ws, WIN_EXT4_SYNC,
						     dev, &tid);

		o->kind = AK_JOURNAL;
		o->forced = s != NULL;
		/*
		 * charged to the fsync's caller; a kernel thread called none
		 * (a loop worker syncing its backing file for the flush of
		 * the device above: that device's fsyncs are charged its own
		 * journal, and each device's bytes stay its own)
		 */
		if (s && !is_kthread(proctable_lookup(ow->pt, tid), ow->dec ?
				     decode_comm(ow->dec, tid) : "")) {
			o->forcer = owners_proc(ow, tid, ev->ts);
			o->forcer_ir = owner_inode_get(ow, s->dev, true, s->ino);
		}
		return;
	}
	if (sync && kt && stacked_inode(ow, sync->dev, sync->ino, o))
		return;
	if (sync) {
		o->kind = AK_FSYNC;
		o->p = owners_proc(ow, ev->pid, ev->ts);
		o->ir = owner_inode_get(ow, sync->dev, true, sync->ino);
		owner_inode_tie(ow, o->ir, f, true);
		return;
	}
	if (pe) {
		o->kind = sync_kind(pe->kind) ? AK_FSYNC : AK_SYSCALL;
		o->p = owners_proc(ow, ev->pid, ev->ts);
		o->f = f;
		return;
	}
	if (ev->pid > 0 && !kt) {
		o->kind = AK_CONTEXT;
		o->p = owners_proc(ow, ev->pid, ev->ts);
		read_ahead(ow, ev, dev, o);
		return;
	}
	/* a kernel thread serving a request of a device stacked above */
	if (ev->kind == DK_BIO_QUEUE &&
	    (i = stack_lower(ow->stk, dev, ev->bio.op == BLK_OP_WRITE,
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
static void on_bio_queue(struct owners *ow, const struct dec_ev *ev)
{
	struct owner o, *slot;
	bool kept;

	ow->n.bios++;
	owner_of(ow, ev, ev->bio.dev, ev->bio.comm, &o);
	slot = ow->rb ? replay_block_owner(ow->rb, ev->bio.dev,
					   ev->bio.sector, &kept) : NULL;
	if (slot && !kept)
		*slot = o;
}

/* A folio (or an inode) dirtied by the current task. */
static void on_dirty(struct owners *ow, const struct dec_ev *ev,
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
	wb = windows_get(ow->ws, ev->pid, WIN_WRITEPAGES);
	sync = windows_get(ow->ws, ev->pid, WIN_EXT4_SYNC);
	if (wb && wb->ino == ino)
		owner_learn_bdi(ow, dev, wb->dev);
	else if (sync && sync->ino == ino)
		owner_learn_bdi(ow, dev, sync->dev);
	dev = owner_fs_dev_of(ow, dev, ino);
	ir = owner_inode_get(ow, dev, false, ino);
	if (!ir)
		return;
	f = pending_file(ow, ev->pid, &pe);
	if (f && pe && (sys_kind_info(pe->kind)->flags & (SKF_WRITE | SKF_META))) {
		/* a write, or an ftruncate, fallocate or mmap of the fd:
		 * the one inode such a call dirties is its file's */
		owner_inode_tie(ow, ir, f, bytes > 0);
	} else if (f && pe && ev->kind == DK_DIRTY_INODE &&
		   (sys_kind_info(pe->kind)->flags & SKF_READ)) {
		/* a read of the fd updating its file's access time (relatime:
		 * the first read after a write): the file of an fd opened
		 * without a name, read from the page cache, has no other
		 * event that shows its inode */
		owner_inode_tie(ow, ir, f, false);
	} else if (!pe && bytes && !ir->f) {
		/* a page fault writing a shared mapping: the one file of
		 * the process's mappings that can be this inode
		 * (docs/attribution.md) */
		p = proctable_lookup(ow->pt, ev->pid);
		f = p ? fdtable_map_of_inode(p->fds, ir->fs_dev ?
					     ir->dev : 0, ino) : NULL;
		if (f)
			owner_inode_tie(ow, ir, f, false);
	}
	if (!bytes)
		return;
	p = owners_proc(ow, ev->pid, ev->ts);
	if (!p)
		return;
	for (i = 0; i < ir->nd; i++)
		if (ir->d[i].p == p)
			break;
	if (i == ir->nd) {
		if (an_grow(&ir->d, &ir->dcap, ir->nd + 1, sizeof(*ir->d), 2)) {
			ow->err = -AN_E_NOMEM;
			return;
		}
		memset(&ir->d[ir->nd++], 0, sizeof(*ir->d));
		ir->d[i].p = p;
	}
	ir->d[i].pending += bytes;
	ir->d[i].total += bytes;
}

/* A request issued on a device stacked above another: kept in flight. */
static void on_issue(struct owners *ow, const struct dec_ev *ev)
{
	const struct dec_rq *r = &ev->rq;
	const struct owner *o;

	if (!ow->stk || (r->op != BLK_OP_READ && r->op != BLK_OP_WRITE))
		return;
	o = ow->rb ? replay_block_owner(ow->rb, r->dev, r->sector, NULL) :
	    NULL;
	if (stack_issue(ow->stk, r->dev, r->sector, r->nr_sector,
			r->op == BLK_OP_WRITE, o) < 0)
		ow->err = -AN_E_NOMEM;
}

/* A kernel thread touched an inode: a vote for a loop's backing file. */
static void touch(struct owners *ow, const struct dec_ev *ev)
{
	if (ow->stk && ev->pid > 0 && ev->inode.ino &&
	    is_kthread(proctable_lookup(ow->pt, ev->pid), ow->dec ?
		       decode_comm(ow->dec, ev->pid) : ""))
		stack_touch(ow->stk, ev->inode.dev, ev->inode.ino);
}

void owners_event(struct owners *ow, const struct dec_ev *ev)
{
	const struct sys_enter *pe;
	struct inode_rec *ir;
	struct file *f;

	ow->now = ev->ts;
	switch (ev->kind) {
	case DK_RQ_ISSUE:
		on_issue(ow, ev);
		return;
	case DK_RQ_REQUEUE:
	case DK_RQ_COMPLETE:
		stack_complete(ow->stk, ev->rq.dev, ev->rq.sector);
		return;
	case DK_BIO_QUEUE:
		on_bio_queue(ow, ev);
		break;
	case DK_BIO_MERGE:
		ow->n.merges++;
		break;
	case DK_BIO_REMAP:
		ow->n.remaps++;
		break;
	case DK_BIO_SPLIT:
		ow->n.splits++;
		break;
	case DK_DIRTY_FOLIO:
		touch(ow, ev);
		on_dirty(ow, ev, PAGE_BYTES);
		break;
	case DK_DIRTY_INODE:
		touch(ow, ev);
		/* ties the inode to the fd written; no bytes of its own */
		on_dirty(ow, ev, ow->dirty_events ? 0 : PAGE_BYTES);
		break;
	case DK_INODE_ALLOC:
		/*
		 * a new file: an inode of this number seen before was a file
		 * deleted since, and what it held is not the new one's
		 */
		ir = owner_inode_get(ow, ev->inode.dev, true, ev->inode.ino);
		if (!ir)
			break;
		if (ir->f) {
			if (ow->retire)
				ow->retire(ow->retire_arg, ir);
			ow->n.inode_retied++;
		}
		ir->f = NULL;
		ir->nd = 0;
		ir->born = ev->ts;
		break;
	case DK_FSYNC_ENTER:
		touch(ow, ev);
		ir = owner_inode_get(ow, ev->inode.dev, true, ev->inode.ino);
		f = pending_file(ow, ev->pid, &pe);
		if (pe && sync_kind(pe->kind))
			owner_inode_tie(ow, ir, f, true);
		break;
	case DK_FILEMAP:
		if (!ev->inode.ino)
			break;
		touch(ow, ev);
		on_filemap(ow, ev);
		f = pending_file(ow, ev->pid, &pe);
		if (f && (sys_kind_info(pe->kind)->flags & SKF_READ)) {
			ir = owner_inode_get(ow, ev->inode.dev, true, ev->inode.ino);
			owner_inode_tie(ow, ir, f, false);
		}
		break;
	default:
		/* the windows (ext4 writepages and sync, jbd2 commits, D
		 * state) are the window machine's */
		break;
	}
}


void owner_inode_written(struct inode_rec *ir, uint64_t bytes)
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
