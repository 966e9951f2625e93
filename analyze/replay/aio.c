// SPDX-License-Identifier: MIT
/*
 * aio.c - Linux AIO requests from io_submit to their reap (see aio.h).
 */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/hmap.h"
#include "base/imap.h"
#include "decode/decode.h"
#include "replay/aio.h"

/* IOCB_CMD_* (include/uapi/linux/aio_abi.h) */
enum { CMD_PREAD = 0, CMD_PWRITE = 1, CMD_FSYNC = 2, CMD_FDSYNC = 3,
       CMD_PREADV = 7, CMD_PWRITEV = 8 };

#define MAX_QUEUED	65536	/* per context */

struct areq {
	uint64_t ts;		/* the io_submit enter */
	int tid;
	int fd;			/* -1: not known */
	enum sys_kind kind;	/* SK_NONE: not known */
	uint64_t len;
};

struct actx {
	struct hnode h;		/* key: the context id */
	struct areq *q;		/* a ring: oldest at head */
	size_t head, n, cap;
};

struct hint {
	struct dec_aio a;
};

struct aio_replay {
	struct sys_call *done;	/* reaped by the last call, from dpos */
	size_t ndone, dcap, dpos;
	struct hmap ctxs;
	struct imap hints;	/* tid -> struct hint: iocbs about to go */
	struct aio_stats st;
	int err;
};

struct aio_replay *aio_new(void)
{
	struct aio_replay *ar = an_calloc(1, sizeof(*ar));

	if (ar)
		imap_init(&ar->hints);
	return ar;
}

static void free_ctx(struct hnode *n)
{
	struct actx *c = (struct actx *)n;

	free(c->q);
	free(c);
}

void aio_free(struct aio_replay *ar)
{
	if (!ar)
		return;
	hmap_release(&ar->ctxs, free_ctx);
	imap_release_all(&ar->hints, NULL);
	free(ar->done);
	free(ar);
}

int aio_error(const struct aio_replay *ar)
{
	return ar->err;
}

void aio_hint(struct aio_replay *ar, int tid, const struct dec_aio *a)
{
	struct hint *h = imap_get_new(&ar->hints, tid, sizeof(*h));

	if (!h) {
		ar->err = -AN_E_NOMEM;
		return;
	}
	h->a = *a;
}

/* The context id, made when new; NULL with the error set: no memory. */
static struct actx *ctx_of(struct aio_replay *ar, uint64_t id)
{
	struct actx *c = hmap_get_new(&ar->ctxs, id, sizeof(*c));

	if (!c)
		ar->err = -AN_E_NOMEM;
	return c;
}

static enum sys_kind cmd_kind(int op)
{
	switch (op) {
	case CMD_PREAD: case CMD_PREADV:	return SK_AIO_READ;
	case CMD_PWRITE: case CMD_PWRITEV:	return SK_AIO_WRITE;
	case CMD_FSYNC: case CMD_FDSYNC:	return SK_AIO_FSYNC;
	default:				return SK_NONE;
	}
}

static void push(struct aio_replay *ar, struct actx *c, const struct areq *r)
{
	if (c->n == MAX_QUEUED) {
		ar->st.evicted++;
		return;
	}
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 16;
		struct areq *q = an_calloc(cap, sizeof(*q));

		if (!q) {
			ar->err = -AN_E_NOMEM;
			return;
		}
		for (size_t i = 0; i < c->n; i++)
			q[i] = c->q[(c->head + i) % c->cap];
		free(c->q);
		c->q = q;
		c->head = 0;
		c->cap = cap;
	}
	c->q[(c->head + c->n) % c->cap] = *r;
	c->n++;
}

static void on_submit(struct aio_replay *ar, const struct sys_call *c)
{
	struct hint *h = imap_del(&ar->hints, c->tid);
	struct actx *x;
	int64_t k = c->ret;

	if (k <= 0 || !(x = ctx_of(ar, c->args[0]))) {
		free(h);
		return;
	}
	/* the hint is this call's when it saw the same nr */
	if (h && h->a.nr != (int64_t)c->args[1]) {
		free(h);
		h = NULL;
	}
	for (int64_t i = 0; i < k; i++) {
		struct areq r = { c->start, c->tid, -1, SK_NONE, 0 };

		if (h && i < h->a.n) {
			r.fd = h->a.io[i].fd;
			r.kind = cmd_kind(h->a.io[i].op);
			r.len = r.kind == SK_AIO_FSYNC ? 0 : h->a.io[i].len;
			/* vectored: aio_nbytes counts iovecs, not bytes */
			if (h->a.io[i].op == CMD_PREADV ||
			    h->a.io[i].op == CMD_PWRITEV)
				r.len = 0;
		} else {
			ar->st.unnamed++;
		}
		ar->st.submitted++;
		push(ar, x, &r);
	}
	free(h);
}

static void on_reap(struct aio_replay *ar, const struct sys_call *c)
{
	struct actx *x = hmap_get(&ar->ctxs, c->args[0]);
	struct sys_call *out;

	for (int64_t i = 0; i < c->ret; i++) {
		struct areq r;

		if (!x || !x->n) {
			ar->st.reaped_unknown++;
			continue;
		}
		r = x->q[x->head];
		x->head = (x->head + 1) % x->cap;
		x->n--;
		ar->st.reaped++;
		if (r.kind == SK_NONE)
			continue;
		if (an_grow(&ar->done, &ar->dcap, ar->ndone + 1,
			    sizeof(*ar->done), 16)) {
			ar->err = -AN_E_NOMEM;
			continue;
		}
		out = &ar->done[ar->ndone++];
		memset(out, 0, sizeof(*out));
		out->kind = r.kind;
		out->tid = r.tid;
		out->paired = true;
		out->start = r.ts;
		out->end = c->end;
		out->args[0] = (uint64_t)(int64_t)r.fd;
		out->ret = (int64_t)r.len;
	}
}

int aio_next(struct aio_replay *ar, struct sys_call *out)
{
	if (ar->dpos >= ar->ndone)
		return 0;
	*out = ar->done[ar->dpos++];
	return 1;
}

void aio_call(struct aio_replay *ar, const struct sys_call *c)
{
	struct hnode **pp;
	struct actx *x;

	ar->ndone = ar->dpos = 0;
	if (!c->paired)
		return;
	switch (c->kind) {
	case SK_IO_SUBMIT:
		on_submit(ar, c);
		return;
	case SK_IO_GETEVENTS:
	case SK_IO_PGETEVENTS:
		on_reap(ar, c);
		return;
	case SK_IO_CANCEL:
		ar->st.cancelled += c->ret == 0;
		return;
	case SK_IO_DESTROY:
		if (c->ret)
			return;
		pp = hmap_slot(&ar->ctxs, c->args[0]);
		for (; pp && *pp; pp = &(*pp)->next) {
			if ((*pp)->key != c->args[0])
				continue;
			x = (struct actx *)*pp;
			ar->st.open_at_end += x->n;
			hmap_unlink(&ar->ctxs, pp);
			free_ctx(&x->h);
			break;
		}
		return;
	default:
		return;
	}
}

int aio_submit_fd(const struct aio_replay *ar, int tid)
{
	const struct hint *h = ar ? imap_get(&ar->hints, tid) : NULL;
	int fd;

	if (!h || h->a.n < 1)
		return -1;
	fd = h->a.io[0].fd;
	for (int i = 1; i < h->a.n; i++)
		if (h->a.io[i].fd != fd)
			return -1;
	return fd;
}


void aio_finish(struct aio_replay *ar)
{
	for (size_t b = 0; b < ar->ctxs.cap; b++)
		for (struct hnode *n = ar->ctxs.b[b]; n; n = n->next)
			ar->st.open_at_end += ((struct actx *)n)->n;
	hmap_release(&ar->ctxs, free_ctx);
}

const struct aio_stats *aio_stats(const struct aio_replay *ar)
{
	return &ar->st;
}
