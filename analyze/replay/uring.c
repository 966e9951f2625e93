// SPDX-License-Identifier: MIT
/*
 * uring.c - io_uring requests from submit to completion (see uring.h).
 */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/hmap.h"
#include "base/imap.h"
#include "decode/decode.h"
#include "replay/uring.h"

/* IORING_OP_* (include/uapi/linux/io_uring.h: the enum only grows). */
enum {
	OP_READV = 1, OP_WRITEV = 2, OP_FSYNC = 3, OP_READ_FIXED = 4,
	OP_WRITE_FIXED = 5, OP_SYNC_FILE_RANGE = 8, OP_ACCEPT = 13,
	OP_OPENAT = 18, OP_CLOSE = 19, OP_READ = 22, OP_WRITE = 23,
	OP_OPENAT2 = 28, OP_RENAMEAT = 35, OP_UNLINKAT = 36,
	OP_SYMLINKAT = 38, OP_LINKAT = 39, OP_SOCKET = 45,
	OP_FIXED_FD_INSTALL = 54, OP_READV_FIXED = 60, OP_WRITEV_FIXED = 61,
};

#define REQ_FIXED_FILE	0x1	/* REQ_F_FIXED_FILE = IOSQE_FIXED_FILE */
#define REG_FILES	2	/* IORING_REGISTER_FILES */
#define REG_UNFILES	3	/* IORING_UNREGISTER_FILES */
#define REG_FILES2	13	/* IORING_REGISTER_FILES2 */
#define MAX_INFLIGHT	(1 << 20)

struct ureq {
	struct hnode h;		/* key: ring and user_data */
	uint64_t ctx, req, user_data;
	uint64_t ts;		/* submit */
	int tid;		/* the submitting (or owning) thread */
	int cur_tid;		/* the thread it is current on, or 0 */
	enum sys_kind kind;
	int fd;			/* -1 until file_get */
	bool fixed;
	bool guessed;		/* fd: the ring's one registered file */
	struct sys_enter cur;	/* what uring_current() returns */
	struct ureq *pnext, *pprev;	/* punted to the workers, in order */
	bool punted;
};

struct ring {
	int tid;		/* the thread that created or first used it */
	int fixed_fd;		/* its one registered file's fd, or -1 */
};

struct uring_replay {
	struct hmap reqs;
	struct imap cur;	/* tid -> struct ureq * */
	struct hmap rings;	/* ctx -> struct ringnode */
	struct ureq *phead, *ptail;	/* punted and not complete, oldest first */
	struct uring_stats st;
	int err;
};

struct ringnode {
	struct hnode h;
	uint64_t ctx;
	struct ring r;
};

static uint64_t rkey(uint64_t ctx, uint64_t user_data)
{
	return ctx ^ (user_data * 0x9e3779b97f4a7c15ULL);
}

struct uring_replay *uring_new(void)
{
	struct uring_replay *u = an_calloc(1, sizeof(*u));

	if (u)
		imap_init(&u->cur);
	return u;
}

void uring_free(struct uring_replay *u)
{
	if (!u)
		return;
	hmap_release(&u->reqs, NULL);
	hmap_release(&u->rings, NULL);
	imap_release(&u->cur);
	free(u);
}

int uring_error(const struct uring_replay *u)
{
	return u->err;
}

/* The kind an opcode is accounted as, or SK_NONE; counts the others. */
static enum sys_kind op_kind(struct uring_replay *u, int op)
{
	switch (op) {
	case OP_READV: case OP_READ_FIXED: case OP_READ: case OP_READV_FIXED:
		return SK_URING_READ;
	case OP_WRITEV: case OP_WRITE_FIXED: case OP_WRITE:
	case OP_WRITEV_FIXED:
		return SK_URING_WRITE;
	case OP_FSYNC:
		return SK_URING_FSYNC;
	case OP_SYNC_FILE_RANGE:
		return SK_URING_SYNC;
	case OP_ACCEPT: case OP_OPENAT: case OP_CLOSE: case OP_OPENAT2:
	case OP_SOCKET: case OP_FIXED_FD_INSTALL:
		u->st.fd_ops++;
		return SK_NONE;
	case OP_RENAMEAT: case OP_UNLINKAT: case OP_SYMLINKAT: case OP_LINKAT:
		u->st.name_ops++;
		return SK_NONE;
	default:
		return SK_NONE;
	}
}

static struct ring *ring_of(struct uring_replay *u, uint64_t ctx, int tid)
{
	struct ringnode *n = hmap_get(&u->rings, ctx);

	if (n)
		return &n->r;
	if (!tid)
		return NULL;
	n = hmap_add_new(&u->rings, ctx, sizeof(*n));
	if (!n) {
		u->err = -AN_E_NOMEM;
		return NULL;
	}
	n->ctx = ctx;
	n->r.tid = tid;
	n->r.fixed_fd = -1;
	return &n->r;
}

/* The request of ev (by req when both know it), or NULL; *where its link. */
static struct ureq *find(struct uring_replay *u, const struct dec_uring *e,
			 struct hnode ***where)
{
	struct hnode **pp = hmap_slot(&u->reqs, rkey(e->ctx, e->user_data));

	for (; pp && *pp; pp = &(*pp)->next) {
		struct ureq *r = (struct ureq *)*pp;

		if (r->ctx == e->ctx && r->user_data == e->user_data &&
		    (!r->req || !e->req || r->req == e->req)) {
			if (where)
				*where = pp;
			return r;
		}
	}
	return NULL;
}

/* Make r the request thread tid is issuing. */
static void set_current(struct uring_replay *u, struct ureq *r, int tid)
{
	struct ureq *old = imap_get(&u->cur, tid);

	if (old == r)
		return;
	if (old)
		old->cur_tid = 0;
	if (r->cur_tid && r->cur_tid != tid)
		imap_del(&u->cur, r->cur_tid);
	if (imap_put(&u->cur, tid, r, NULL)) {
		u->err = -AN_E_NOMEM;
		r->cur_tid = 0;
		return;
	}
	r->cur_tid = tid;
}

static void unpunt(struct uring_replay *u, struct ureq *r)
{
	if (!r->punted)
		return;
	if (r->pprev)
		r->pprev->pnext = r->pnext;
	else
		u->phead = r->pnext;
	if (r->pnext)
		r->pnext->pprev = r->pprev;
	else
		u->ptail = r->pprev;
	r->punted = false;
}

static void drop(struct uring_replay *u, struct ureq *r, struct hnode **pp)
{
	unpunt(u, r);
	if (r->cur_tid)
		imap_del(&u->cur, r->cur_tid);
	hmap_unlink(&u->reqs, pp);
	free(r);
}

static void on_submit(struct uring_replay *u, const struct dec_ev *ev)
{
	const struct dec_uring *e = &ev->uring;
	enum sys_kind k = op_kind(u, e->opcode);
	struct ring *ring;
	struct hnode **pp;
	struct ureq *r;
	int tid = ev->pid;

	u->st.submits++;
	/* the ring's owner: its creator, else its first submitter */
	ring = ring_of(u, e->ctx, e->sq_thread ? 0 : ev->pid);
	if (e->sq_thread && ring)
		tid = ring->tid;
	if (k == SK_NONE)
		return;
	r = find(u, e, &pp);
	if (r) {
		u->st.resubmitted++;
		drop(u, r, pp);
	}
	if (u->reqs.n >= MAX_INFLIGHT) {
		u->st.evicted++;
		return;
	}
	r = hmap_add_new(&u->reqs, rkey(e->ctx, e->user_data), sizeof(*r));
	if (!r) {
		u->err = -AN_E_NOMEM;
		return;
	}
	r->ctx = e->ctx;
	r->req = e->req;
	r->user_data = e->user_data;
	r->ts = ev->ts;
	r->tid = tid;
	r->kind = k;
	r->fd = -1;
	r->fixed = e->flags & REQ_FIXED_FILE;
	if (r->fixed && ring && ring->fixed_fd >= 0) {
		r->fd = ring->fixed_fd;
		r->guessed = true;
	}
	set_current(u, r, ev->pid);
}

static void on_file(struct uring_replay *u, const struct dec_ev *ev)
{
	const struct dec_uring *e = &ev->uring;
	struct ureq *r;

	if (e->req || e->user_data) {
		r = find(u, e, NULL);
	} else {
		/* 5.x: only ring and fd, in the thread issuing it */
		r = imap_get(&u->cur, ev->pid);
		if (r && r->ctx != e->ctx)
			r = NULL;
	}
	if (!r)
		return;
	r->fd = e->fd;
	set_current(u, r, ev->pid);
}

static void on_async(struct uring_replay *u, const struct dec_ev *ev)
{
	struct ureq *r = find(u, &ev->uring, NULL);

	if (!r || r->punted)
		return;
	r->punted = true;
	r->pprev = u->ptail;
	r->pnext = NULL;
	if (u->ptail)
		u->ptail->pnext = r;
	else
		u->phead = r;
	u->ptail = r;
}

static int on_complete(struct uring_replay *u, const struct dec_ev *ev,
		       struct sys_call *out, int *tid)
{
	const struct dec_uring *e = &ev->uring;
	struct hnode **pp;
	struct ureq *r = find(u, e, &pp);

	if (!r) {
		/* not a kind followed, or submitted before the recording */
		u->st.complete_unknown++;
		return 0;
	}
	u->st.completes++;
	if (r->guessed)
		u->st.fixed_guessed++;
	else if (r->fixed && r->fd < 0)
		u->st.fixed_file++;
	else if (r->fd < 0)
		u->st.no_file++;
	memset(out, 0, sizeof(*out));
	out->kind = r->kind;
	out->tid = r->tid;
	out->paired = true;
	out->start = r->ts;
	out->end = ev->ts >= r->ts ? ev->ts : r->ts;
	out->args[0] = (uint64_t)(int64_t)r->fd;
	out->ret = e->res;
	*tid = r->tid;
	drop(u, r, pp);
	return 1;
}

static int on_register(struct uring_replay *u, const struct dec_ev *ev,
		       int *tid)
{
	const struct dec_uring *e = &ev->uring;
	struct ring *ring;

	if (e->opcode != REG_FILES && e->opcode != REG_FILES2 &&
	    e->opcode != REG_UNFILES)
		return 0;
	ring = ring_of(u, e->ctx, ev->pid);
	if (!ring)
		return 0;
	ring->fixed_fd = -1;
	if (e->opcode == REG_UNFILES || e->res < 0 || e->fd != 1)
		return 0;
	*tid = ev->pid;
	return URING_FIXED_GUESS;
}

void uring_fixed_guess(struct uring_replay *u, uint64_t ctx, int fd)
{
	struct ring *ring = ring_of(u, ctx, 0);

	if (ring)
		ring->fixed_fd = fd;
}

int uring_feed(struct uring_replay *u, const struct dec_ev *ev,
	       struct sys_call *out, int *tid)
{
	struct ring *ring;

	switch (ev->kind) {
	case DK_URING_CREATE:
		/* a new ring, maybe at the address of one freed */
		ring = ring_of(u, ev->uring.ctx, ev->pid);
		if (ring) {
			ring->tid = ev->pid;
			ring->fixed_fd = -1;
		}
		return 0;
	case DK_URING_REGISTER:
		return on_register(u, ev, tid);
	case DK_URING_SUBMIT:
		on_submit(u, ev);
		return 0;
	case DK_URING_FILE:
		on_file(u, ev);
		return 0;
	case DK_URING_ASYNC:
		on_async(u, ev);
		return 0;
	case DK_URING_COMPLETE:
		return on_complete(u, ev, out, tid);
	default:
		return 0;
	}
}

const struct sys_enter *uring_current(struct uring_replay *u, int tid,
				      bool worker)
{
	struct ureq *r = NULL;

	if (!u)
		return NULL;
	if (u->cur.n)
		r = imap_get(&u->cur, tid);
	if (!r && worker && u->phead) {
		r = u->phead;
		unpunt(u, r);		/* the next worker takes the next one */
		set_current(u, r, tid);
	}
	if (!r)
		return NULL;
	memset(&r->cur, 0, sizeof(r->cur));
	r->cur.ts = r->ts;
	r->cur.tid = tid;
	r->cur.kind = r->kind;
	r->cur.args[0] = (uint64_t)(int64_t)r->fd;
	return &r->cur;
}

void uring_finish(struct uring_replay *u)
{
	u->phead = u->ptail = NULL;
	u->st.open_at_end += u->reqs.n;
	hmap_release(&u->reqs, NULL);
	imap_release(&u->cur);
}

const struct uring_stats *uring_stats(const struct uring_replay *u)
{
	return &u->st;
}
