// SPDX-License-Identifier: MIT
/*
 * stack.c - stacked block devices: the upper devices, their requests in
 * flight with their owners, and the backing inodes learnt by votes (see
 * stack.h and docs/attribution.md).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "replay/stack.h"

/* Requests kept in flight per upper device: a loop device's queue is
 * 128 deep; beyond this the oldest is forgotten (its request was lost). */
#define INFLIGHT_MAX	512
#define VOTES		4

struct inflight {
	uint64_t sector;
	uint32_t nr;
	bool write;
	uint64_t left;		/* bytes no lower bio has claimed yet */
	unsigned char *owner;	/* owner_size bytes, or NULL: unknown */
};

struct upper {
	struct stack_dev_info d;
	bool ino_known;		/* from the snapshot */
	struct inflight *fl;
	size_t nfl, afl;
	unsigned char *last_write;	/* the owner of the last write */
	struct vote {
		uint64_t ino;
		uint64_t n;
	} votes[VOTES];
};

struct stack {
	struct upper *u;
	size_t n;
	size_t osz;
};

struct stack *stack_new(const struct stack_dev_info *v, size_t n,
			size_t owner_size)
{
	struct stack *s = an_calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->osz = owner_size;
	if (n) {
		s->u = an_calloc(n, sizeof(*s->u));
		if (!s->u) {
			free(s);
			return NULL;
		}
	}
	for (size_t i = 0; i < n; i++) {
		s->u[i].d = v[i];
		s->u[i].ino_known = v[i].ino != 0;
	}
	s->n = n;
	return s;
}

static void fl_drop(struct inflight *f)
{
	free(f->owner);
	f->owner = NULL;
}

void stack_free(struct stack *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		for (size_t j = 0; j < s->u[i].nfl; j++)
			fl_drop(&s->u[i].fl[j]);
		free(s->u[i].fl);
		free(s->u[i].last_write);
	}
	free(s->u);
	free(s);
}

size_t stack_count(const struct stack *s)
{
	return s ? s->n : 0;
}

const struct stack_dev_info *stack_dev(const struct stack *s, size_t i)
{
	return &s->u[i].d;
}

static struct upper *upper_of(struct stack *s, uint32_t dev)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->u[i].d.dev == dev)
			return &s->u[i];
	return NULL;
}

static unsigned char *owner_dup(const struct stack *s, const void *owner)
{
	unsigned char *o;

	if (!owner)
		return NULL;
	o = malloc(s->osz);
	if (o)
		memcpy(o, owner, s->osz);
	return o;
}

int stack_issue(struct stack *s, uint32_t dev, uint64_t sector,
		uint32_t nr, bool write, const void *owner)
{
	struct upper *u = s ? upper_of(s, dev) : NULL;
	struct inflight *f;

	if (!u)
		return 0;
	if (u->nfl == INFLIGHT_MAX) {
		fl_drop(&u->fl[0]);
		memmove(u->fl, u->fl + 1, (u->nfl - 1) * sizeof(*u->fl));
		u->nfl--;
	}
	f = an_push(&u->fl, &u->nfl, &u->afl, sizeof(*u->fl), 16);
	if (!f)
		return -AN_E_NOMEM;
	f->sector = sector;
	f->nr = nr;
	f->write = write;
	f->left = (uint64_t)nr * 512;
	f->owner = owner_dup(s, owner);
	if (owner && !f->owner)
		return -AN_E_NOMEM;
	if (write && owner) {
		unsigned char *lw = owner_dup(s, owner);

		if (!lw)
			return -AN_E_NOMEM;
		free(u->last_write);
		u->last_write = lw;
	}
	return 0;
}

void stack_complete(struct stack *s, uint32_t dev, uint64_t sector)
{
	struct upper *u = s ? upper_of(s, dev) : NULL;

	if (!u)
		return;
	for (size_t j = 0; j < u->nfl; j++) {
		if (u->fl[j].sector != sector)
			continue;
		fl_drop(&u->fl[j]);
		memmove(u->fl + j, u->fl + j + 1,
			(u->nfl - j - 1) * sizeof(*u->fl));
		u->nfl--;
		return;
	}
}

static void owner_out(const struct stack *s, const unsigned char *from,
		      void *owner)
{
	if (!owner)
		return;
	if (from)
		memcpy(owner, from, s->osz);
	else
		memset(owner, 0, s->osz);
}

static bool on_dev(const struct upper *u, uint32_t dev)
{
	return u->d.fs == dev || u->d.disk == dev;
}

int stack_lower(struct stack *s, uint32_t dev, bool write, uint64_t bytes,
		void *owner)
{
	struct inflight *best = NULL, *same = NULL, *any = NULL;
	int bi = -1, si = -1, ai = -1;

	if (!s)
		return -1;
	for (size_t i = 0; i < s->n; i++) {
		struct upper *u = &s->u[i];

		if (!on_dev(u, dev))
			continue;
		for (size_t j = 0; j < u->nfl; j++) {
			struct inflight *f = &u->fl[j];

			if (!any) {
				any = f;
				ai = (int)i;
			}
			if (f->write != write)
				continue;
			if (!same) {
				same = f;
				si = (int)i;
			}
			if (f->left && !best) {
				best = f;
				bi = (int)i;
			}
		}
	}
	if (!best) {
		best = same ? same : any;
		bi = same ? si : ai;
	}
	if (!best)
		return -1;
	best->left -= bytes < best->left ? bytes : best->left;
	owner_out(s, best->owner, owner);
	return bi;
}

static uint64_t ino_of(const struct upper *u)
{
	const struct vote *top = NULL;

	if (u->ino_known)
		return u->d.ino;
	for (int k = 0; k < VOTES; k++)
		if (u->votes[k].n && (!top || u->votes[k].n > top->n))
			top = &u->votes[k];
	return top ? top->ino : 0;
}

int stack_backing(const struct stack *s, uint32_t dev, uint64_t ino,
		  void *owner)
{
	if (!s || !ino)
		return -1;
	for (size_t i = 0; i < s->n; i++) {
		const struct upper *u = &s->u[i];

		if (!on_dev(u, dev) || ino_of(u) != ino)
			continue;
		owner_out(s, u->last_write, owner);
		return (int)i;
	}
	return -1;
}

void stack_touch(struct stack *s, uint32_t dev, uint64_t ino)
{
	if (!s || !ino)
		return;
	for (size_t i = 0; i < s->n; i++) {
		struct upper *u = &s->u[i];
		struct vote *low = &u->votes[0];
		int k;

		if (u->ino_known || !u->nfl || !on_dev(u, dev))
			continue;
		for (k = 0; k < VOTES; k++) {
			if (u->votes[k].ino == ino) {
				u->votes[k].n++;
				break;
			}
			if (u->votes[k].n < low->n)
				low = &u->votes[k];
		}
		if (k == VOTES) {
			/* a newcomer replaces the weakest candidate */
			low->ino = ino;
			low->n = 1;
		}
	}
}

int stack_next_on(const struct stack *s, uint32_t dev, size_t *from)
{
	if (!s)
		return -1;
	for (; *from < s->n; (*from)++)
		if (on_dev(&s->u[*from], dev))
			return (int)(*from)++;
	return -1;
}
