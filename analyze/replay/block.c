// SPDX-License-Identifier: MIT
/*
 * block.c - block request state machine (insert -> issue ->
 * complete), keyed by device, sector and whether the request is a flush.
 *
 * Pairing rules:
 *  - a request is keyed by (dev, sector, is_flush): flushes carry no
 *    sector of their own and would otherwise collide with data requests;
 *  - a second insert or issue for a key already pending replaces the old
 *    entry (counted as duplicate); an issue of a key that was inserted
 *    completes the insert -> issue step;
 *  - a completion takes the pending entry of its key; none: counted as
 *    complete_without_issue;
 *  - the completion of an empty request (nr_sector 0) that matches
 *    nothing is the request that carried a preflush: the flush itself
 *    was issued and completed as its own request; counted apart;
 *  - a requeue forgets the issue time: the request will be issued again;
 *  - when the ring buffer lost events, every pending request is dropped
 *    (dropped_at_gap), as its missing step may be in the gap;
 *  - memory is bounded: past MAX_PENDING waiting requests, the oldest
 *    are dropped (evicted).
 *
 * With bio events, the bios in flight are one table (struct rbio), by
 * device and sector, that every stage reads: each bio keeps its owner
 * (the attribution's, set when it is queued, replay_block_owner()), when
 * it was queued (btt's Q) and merged (M).  block_bio_queue puts a bio (a
 * bio there already is replaced, counted), a bio merged into a request
 * is marked (at the front of a request whose first bio was not seen it
 * is the first), a remapped bio moves to its place below and is queued
 * there again, keeping its owner, a split leaves the remainder the owner
 * and time of the whole.  A completing request covers the bios at its
 * sectors from its first on (a partition's bio is found from its disk's
 * request): they are handed to the emit function with it, as pieces,
 * and leave the table.  Its first bio gives it its Q, the bios merged
 * into it before its issue their Q2C, Q2M and M2D sums (btt accounts
 * every bio).  At lost events the bios keep their owners (who queued a
 * bio was seen) and forget their times (a merge may be in the gap).
 * Past MAX_PENDING bios, those queued more than EVICT_AGE ago go.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "decode/decode.h"
#include "base/err.h"
#include "base/hmap.h"
#include "replay/block.h"

/*
 * At most this many requests wait for their next step; beyond, the ones
 * waiting longer than EVICT_AGE are dropped (counted as evicted), and if
 * that is not enough, all of them.  A real queue holds a few thousand.
 */
#define MAX_PENDING	(1 << 16)
#define EVICT_AGE	(60ULL * 1000000000)

/* A request between its steps, keyed by device, sector and flush (pkey()). */
struct pending {
	struct hnode h;		/* in pending, or next in the free list */
	struct blk_request rq;
	bool issued;
	bool requeued;		/* back in the queue: expect insert/issue */
};

/*
 * A bio in flight, by device and sector, until a completed request
 * covers it; its owner (owner_size bytes, the attribution's) follows it.
 */
struct rbio {
	struct hnode h;		/* key: bkey(dev, sector) */
	uint32_t dev;
	uint32_t nr;		/* sectors */
	uint64_t sector;
	uint64_t born;		/* last queued (the bound's age) */
	uint64_t qts;		/* queued (btt's Q), 0: not known */
	uint64_t mts;		/* merged (btt's M) after its Q, else 0 */
	uint32_t gen;		/* the gap generation qts and mts are of */
	bool merged;		/* joined a request it did not start */
	bool remapped;		/* moved below, not yet queued there */
	bool kept;		/* queued again after a remap: owner kept */
	uint64_t owner[];	/* owner_size bytes */
};

struct replay_block {
	struct hmap pending;		/* struct pending */
	struct hmap bios;		/* struct rbio */
	size_t owner_size;
	struct blk_piece *pieces;	/* of the request being emitted */
	size_t npieces, apieces;
	struct hnode *done;		/* its bios, freed after */
	struct hnode *free_list;	/* of struct pending */
	uint32_t gen;			/* lost-event gaps seen: older bios'
					   times do not count (qts(), mts()) */
	struct blk_anomalies an;
	blk_emit_fn emit;
	void *arg;
	int err;		/* sticky: -AN_E_NOMEM */
};

struct replay_block *replay_block_new(blk_emit_fn emit, void *arg)
{
	struct replay_block *rb = an_calloc(1, sizeof(*rb));

	if (!rb)
		return NULL;
	rb->emit = emit;
	rb->arg = arg;
	return rb;
}

static uint64_t pkey(uint32_t dev, uint64_t sector, bool flush)
{
	return sector * 0x9e3779b97f4a7c15ULL ^ dev * 0xff51afd7ULL ^
	       (uint64_t)flush;
}

/* The link to the pending request at dev:sector (a flush or not), or NULL. */
static struct hnode **find(struct replay_block *rb, uint32_t dev,
			   uint64_t sector, bool flush)
{
	uint64_t key = pkey(dev, sector, flush);
	struct hnode **pp = hmap_slot(&rb->pending, key);

	for (; pp && *pp; pp = &(*pp)->next) {
		const struct blk_request *q = &((struct pending *)*pp)->rq;

		if ((*pp)->key == key && q->dev == dev && q->sector == sector &&
		    (q->op == BLK_OP_FLUSH) == flush)
			return pp;
	}
	return NULL;
}

static void unlink_pending(struct replay_block *rb, struct hnode **pp)
{
	struct hnode *n = *pp;

	hmap_unlink(&rb->pending, pp);
	n->next = rb->free_list;
	rb->free_list = n;
}

/* A new pending request for rq, in the table; NULL: no memory. */
static struct pending *new_pending(struct replay_block *rb,
				   const struct blk_request *rq)
{
	struct pending *p = (struct pending *)rb->free_list;

	if (p)
		rb->free_list = p->h.next;
	else
		p = malloc(sizeof(*p));
	if (p) {
		memset(p, 0, sizeof(*p));
		p->rq = *rq;
		p->h.key = pkey(rq->dev, rq->sector, rq->op == BLK_OP_FLUSH);
		if (hmap_add(&rb->pending, &p->h) < 0) {
			free(p);
			p = NULL;
		}
	}
	if (!p) {
		/* the request is not followed: its completion will be an
		 * unmatched one, and the pass fails (replay_block_error) */
		rb->err = -AN_E_NOMEM;
	}
	return p;
}

/* The request of a decoded block_rq_* record. */
static void rq_of(const struct dec_rq *d, struct blk_request *rq)
{
	memset(rq, 0, sizeof(*rq));
	rq->dev = d->dev;
	rq->sector = d->sector;
	rq->nr_sector = d->nr_sector;
	rq->bytes = d->bytes;
	rq->op = d->op;
	rq->preflush = d->preflush;
	rq->fua = d->fua;
	rq->sync = d->sync;
	rq->meta = d->meta;
	rq->ahead = d->ahead;
	/* A flush has no sector: issued as 0, completed as -1. */
	if (rq->op == BLK_OP_FLUSH)
		rq->sector = 0;
	rq->insert_pid = rq->issue_pid = -1;
}

static void drop_all(struct replay_block *rb, uint64_t *counter)
{
	for (size_t i = 0; rb->pending.n && i < rb->pending.cap; i++)
		while (rb->pending.b[i]) {
			(*counter)++;
			unlink_pending(rb, &rb->pending.b[i]);
		}
}

static uint64_t last_step(const struct pending *p)
{
	return p->rq.issue_ts > p->rq.insert_ts ? p->rq.issue_ts :
	       p->rq.insert_ts;
}

/* Too many pending: drop those older than EVICT_AGE; if that leaves
 * more than half, all. */
static void evict(struct replay_block *rb, uint64_t now)
{
	for (size_t i = 0; i < rb->pending.cap; i++) {
		struct hnode **pp = &rb->pending.b[i];

		while (*pp) {
			if (last_step((struct pending *)*pp) + EVICT_AGE < now) {
				rb->an.evicted++;
				unlink_pending(rb, pp);
			} else {
				pp = &(*pp)->next;
			}
		}
	}
	/* not enough old ones: start afresh rather than scan again soon */
	if (rb->pending.n >= MAX_PENDING / 2)
		drop_all(rb, &rb->an.evicted);
}

/* ------------------------------------------------------------------ */
/* Bios in flight */

/* A bio's queue and merge times, 0 when lost events came after them. */
static uint64_t qts_of(const struct replay_block *rb, const struct rbio *b)
{
	return b->gen == rb->gen ? b->qts : 0;
}

static uint64_t mts_of(const struct replay_block *rb, const struct rbio *b)
{
	return b->gen == rb->gen ? b->mts : 0;
}

/*
 * Entries are keyed by device major and sector: a bio of a partition is
 * found from its disk's request when no bio of the disk itself is there.
 */
static uint64_t bkey(uint32_t dev, uint64_t sector)
{
	return ((uint64_t)blk_major(dev) << 52) ^ sector;
}

/*
 * The bio at dev:sector, its link in *where; else one of another minor of
 * the same major at that sector (a partition's); else NULL.
 */
static struct rbio *bfind(struct replay_block *rb, uint32_t dev,
			  uint64_t sector, struct hnode ***where)
{
	uint64_t key = bkey(dev, sector);
	struct hnode **pp = hmap_slot(&rb->bios, key), **other = NULL;

	for (; pp && *pp; pp = &(*pp)->next) {
		struct rbio *b = (struct rbio *)*pp;

		if (b->h.key != key || b->sector != sector)
			continue;
		if (b->dev == dev) {
			*where = pp;
			return b;
		}
		if (!other)
			other = pp;
	}
	if (!other)
		return NULL;
	*where = other;
	return (struct rbio *)*other;
}

/* The bio at dev:sector of that very device, or NULL. */
static struct rbio *bexact(struct replay_block *rb, uint32_t dev,
			   uint64_t sector, struct hnode ***where)
{
	struct rbio *b = bfind(rb, dev, sector, where);

	return b && b->dev == dev ? b : NULL;
}

/*
 * Past MAX_PENDING bios: those queued over EVICT_AGE ago go, or all (the
 * requests that cover them find sectors without a bio).
 */
static void bevict(struct replay_block *rb, uint64_t now)
{
	for (size_t i = 0; i < rb->bios.cap; i++) {
		struct hnode **pp = &rb->bios.b[i];

		while (*pp) {
			struct rbio *b = (struct rbio *)*pp;

			if (b->born + EVICT_AGE < now) {
				hmap_unlink(&rb->bios, pp);
				free(b);
			} else {
				pp = &(*pp)->next;
			}
		}
	}
	if (rb->bios.n >= MAX_PENDING / 2)
		hmap_release(&rb->bios, NULL);
}

/* A new bio at dev:sector, its owner zeroed; NULL: no memory. */
static struct rbio *bnew(struct replay_block *rb, uint32_t dev,
			 uint64_t sector, uint64_t now)
{
	struct rbio *b;

	if (rb->bios.n >= MAX_PENDING)
		bevict(rb, now);
	b = hmap_add_new(&rb->bios, bkey(dev, sector),
			 sizeof(*b) + rb->owner_size);
	if (!b) {
		/* its request will have sectors without a bio */
		rb->err = -AN_E_NOMEM;
		return NULL;
	}
	b->dev = dev;
	b->sector = sector;
	b->born = now;
	return b;
}

/*
 * block_bio_queue: a bio of dev at sector.  One already there is
 * replaced (counted), but a bio remapped to this place from above is
 * this one queued again: it keeps its owner, with its time here.
 */
static void on_queue(struct replay_block *rb, const struct dec_bio *q,
		     uint64_t ts)
{
	struct hnode **pp;
	struct rbio *b = bexact(rb, q->dev, q->sector, &pp);

	if (b && b->remapped) {
		b->remapped = false;
		b->kept = true;
	} else {
		if (b)
			rb->an.bio_replaced++;
		else
			b = bnew(rb, q->dev, q->sector, ts);
		if (!b)
			return;
		memset(b->owner, 0, rb->owner_size);
		b->kept = false;
		b->merged = false;
		b->mts = 0;
	}
	b->nr = q->nr;
	b->qts = q->nr ? ts : 0;	/* an empty (flush) bio has no Q */
	b->gen = rb->gen;
	b->born = ts;
}

/*
 * block_bio_backmerge/frontmerge: the bio at sector joins a request
 * (btt's M).  At the back it is not the request's first bio; at the
 * front it precedes the first, unless no bio was seen after it: then
 * it is the first.  Returns when the merged bio was queued, or 0.
 */
static uint64_t on_merge(struct replay_block *rb, const struct dec_bio *m,
			 uint64_t ts)
{
	struct hnode **pp, **pp2;
	struct rbio *b = bexact(rb, m->dev, m->sector, &pp);
	uint64_t qts = b && qts_of(rb, b) <= ts ? qts_of(rb, b) : 0;

	if (!b)
		return 0;
	if (m->front && m->nr && !bexact(rb, m->dev, m->sector + m->nr, &pp2))
		return qts;	/* now the first */
	b->merged = true;
	b->mts = qts ? ts : 0;
	return qts;
}

/* block_bio_remap: the bio at dev2:sector2 goes on as dev:sector below. */
static void on_remap(struct replay_block *rb, const struct dec_bio *r)
{
	struct hnode **pp;
	struct rbio *b = bexact(rb, r->dev2, r->sector2, &pp), *n;

	if (!b)
		return;
	hmap_unlink(&rb->bios, pp);
	n = bexact(rb, r->dev, r->sector, &pp);
	if (n) {
		rb->an.bio_replaced++;
		hmap_unlink(&rb->bios, pp);
		free(n);
	}
	b->dev = r->dev;
	b->sector = r->sector;
	b->h.key = bkey(b->dev, b->sector);
	b->remapped = true;
	b->merged = false;
	b->qts = b->mts = 0;	/* queued again below, with its own Q */
	if (hmap_add(&rb->bios, &b->h)) {
		free(b);
		rb->err = -AN_E_NOMEM;
	}
}

/*
 * block_split: the bio at sector goes on as two, the front one ending
 * where the remainder (at sector2) starts; the remainder keeps the owner
 * and the time of the whole.
 */
static void on_split(struct replay_block *rb, const struct dec_bio *s,
		     uint64_t ts)
{
	struct hnode **pp;
	struct rbio *b, *r;
	uint64_t front = s->sector2 - s->sector;

	struct hnode h;

	if (rb->bios.n >= MAX_PENDING)
		bevict(rb, ts);	/* before b is found: bnew evicts no more */
	b = bexact(rb, s->dev, s->sector, &pp);
	if (!b || s->sector2 <= s->sector || front >= b->nr ||
	    bexact(rb, s->dev, s->sector2, &pp))
		return;
	r = bnew(rb, s->dev, s->sector2, ts);
	if (!r)
		return;
	h = r->h;	/* its place in the table */
	memcpy(r, b, sizeof(*r) + rb->owner_size);
	r->h = h;
	r->sector = s->sector2;
	r->nr = b->nr - (uint32_t)front;
	b->nr = (uint32_t)front;
}

/*
 * The bios that request rq (completing, nr_sector > 0) covers, from its
 * first sector on: each becomes a piece of rq->pieces (its sectors in
 * rq, its owner), the first sectors no bio covers a last piece without
 * one.  A bio longer than what is left of rq was split: the rest stays
 * for another request.  The request's first bio gives its Q (btt's),
 * the bios merged into it before its issue their Q2C, Q2M and M2D sums.
 * The bios covered leave the table after the request is emitted
 * (rb->done), so the owners the pieces point to live until then.
 */
static void cover(struct replay_block *rb, struct blk_request *rq)
{
	uint64_t pos = rq->sector, left = rq->nr_sector;
	bool first = true;

	rb->npieces = 0;
	while (left > 0) {
		struct hnode **pp;
		struct rbio *b = bfind(rb, rq->dev, pos, &pp);
		struct blk_piece *pc = an_push((void **)&rb->pieces,
					       &rb->npieces, &rb->apieces,
					       sizeof(*pc), 16);
		uint64_t n = b && b->nr && b->nr < left ? b->nr : left;

		if (!pc) {
			rb->err = -AN_E_NOMEM;
			return;
		}
		pc->nr = (uint32_t)n;
		pc->owner = b ? (const void *)b->owner : NULL;
		if (!b)
			return;		/* the rest: no bio of ours */
		if (b->dev == rq->dev && b->merged) {
			if (mts_of(rb, b) && b->nr <= left &&
			    b->mts <= rq->issue_ts) {
				rq->mbios++;
				rq->mq2c_ns += rq->complete_ts - b->qts;
				rq->mq2m_ns += b->mts - b->qts;
				rq->mm2d_ns += rq->issue_ts - b->mts;
			}
		} else if (first && b->dev == rq->dev && qts_of(rb, b) &&
			   b->qts <= rq->issue_ts) {
			rq->queue_ts = b->qts;
		}
		if (!b->merged)
			first = false;
		hmap_unlink(&rb->bios, pp);
		if (b->nr > n) {
			/* split: the rest is another request's */
			b->sector += n;
			b->nr -= (uint32_t)n;
			b->h.key = bkey(b->dev, b->sector);
			if (hmap_add(&rb->bios, &b->h)) {
				free(b);
				rb->err = -AN_E_NOMEM;
				return;
			}
		} else {
			b->h.next = rb->done;
			rb->done = &b->h;
		}
		pos += n;
		left -= n;
	}
}

/* After the request of cover() was emitted: its bios go. */
static void covered(struct replay_block *rb)
{
	struct hnode *n;

	while ((n = rb->done)) {
		rb->done = n->next;
		free(n);
	}
	rb->npieces = 0;
}

int replay_block_owners(struct replay_block *rb, size_t size)
{
	if (rb->bios.n)
		return -AN_E_INVAL;
	rb->owner_size = (size + 7) & ~(size_t)7;
	return 0;
}

void *replay_block_owner(struct replay_block *rb, uint32_t dev,
			 uint64_t sector, bool *kept)
{
	struct hnode **pp;
	struct rbio *b = bexact(rb, dev, sector, &pp);

	if (kept)
		*kept = b && b->kept;
	return b ? b->owner : NULL;
}

size_t replay_block_bios(const struct replay_block *rb)
{
	return rb->bios.n;
}

uint64_t replay_block_bio(struct replay_block *rb, const struct dec_ev *ev)
{
	if (ev->bad)
		return 0;
	switch (ev->kind) {
	case DK_BIO_QUEUE:
		on_queue(rb, &ev->bio, ev->ts);
		break;
	case DK_BIO_MERGE:
		return on_merge(rb, &ev->bio, ev->ts);
	case DK_BIO_REMAP:
		on_remap(rb, &ev->bio);
		break;
	case DK_BIO_SPLIT:
		on_split(rb, &ev->bio, ev->ts);
		break;
	default:
		break;
	}
	return 0;
}

void replay_block_gap(struct replay_block *rb)
{
	if (rb->pending.n)
		drop_all(rb, &rb->an.dropped_at_gap);
	/* a bio keeps its owner, not its times: a merge may be in the gap */
	rb->gen++;
}

void replay_block_feed(struct replay_block *rb, const struct dec_ev *ev)
{
	struct blk_request rq;
	struct hnode **pp;
	struct pending *p;
	bool flush;

	if (rb->pending.n >= MAX_PENDING)
		evict(rb, ev->ts);
	if (ev->bad) {
		if (ev->kind != DK_RQ_REQUEUE)
			rb->an.unreadable++;
		return;
	}
	rq_of(&ev->rq, &rq);
	flush = rq.op == BLK_OP_FLUSH;
	pp = find(rb, rq.dev, rq.sector, flush);
	p = pp ? (struct pending *)*pp : NULL;
	switch (ev->kind) {
	case DK_RQ_INSERT:
		if (p && p->requeued)
			return;		/* queued again: keep the first insert */
		if (p) {
			rb->an.duplicate++;
			unlink_pending(rb, pp);
		}
		p = new_pending(rb, &rq);
		if (!p)
			break;
		p->rq.insert_ts = ev->ts;
		p->rq.insert_pid = ev->pid;
		memcpy(p->rq.comm, ev->rq.comm, sizeof(p->rq.comm));
		break;
	case DK_RQ_ISSUE:
		if (p && p->issued) {
			rb->an.duplicate++;
			unlink_pending(rb, pp);
			p = NULL;
		}
		if (p) {
			/* issue may have merged more in: take its size */
			p->rq.nr_sector = rq.nr_sector;
			p->rq.bytes = rq.bytes;
			if (ev->ts < p->rq.insert_ts)
				rb->an.negative_time++;
		} else {
			rb->an.issue_without_insert++;
			p = new_pending(rb, &rq);
			if (!p)
				break;
			memcpy(p->rq.comm, ev->rq.comm, sizeof(p->rq.comm));
		}
		p->issued = true;
		p->requeued = false;
		p->rq.issue_ts = ev->ts;
		p->rq.issue_pid = ev->pid;
		break;
	case DK_RQ_COMPLETE:
		if (!p && !rq.nr_sector) {
			/* the empty request that carried a preflush */
			rb->an.empty_complete++;
			return;
		}
		if (!p || !p->issued) {
			rb->an.complete_without_issue++;
			if (p)
				unlink_pending(rb, pp);
			return;
		}
		if (ev->ts < p->rq.issue_ts) {
			rb->an.negative_time++;
			unlink_pending(rb, pp);
			return;
		}
		p->rq.error = ev->rq.error;
		p->rq.complete_ts = ev->ts;
		if (p->rq.nr_sector)
			cover(rb, &p->rq);
		rb->emit(&p->rq, rb->pieces, rb->npieces, rb->arg);
		covered(rb);
		unlink_pending(rb, pp);
		break;
	case DK_RQ_REQUEUE:
		rb->an.requeued++;
		if (p) {
			p->requeued = true;
			p->issued = false;
			p->rq.issue_ts = 0;
		}
		break;
	default:
		break;
	}
}

void replay_block_finish(struct replay_block *rb)
{
	drop_all(rb, &rb->an.still_open);
}

int replay_block_error(const struct replay_block *rb)
{
	return rb->err;
}

const struct blk_anomalies *replay_block_anomalies(const struct replay_block *rb)
{
	return &rb->an;
}

void replay_block_free(struct replay_block *rb)
{
	struct hnode *n;

	if (!rb)
		return;
	drop_all(rb, &rb->an.still_open);
	free(rb->pending.b);
	hmap_release(&rb->bios, NULL);
	free(rb->pieces);
	while ((n = rb->free_list)) {
		rb->free_list = n->next;
		free(n);
	}
	free(rb);
}
