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
 * With bio events, a request's Q (btt: its first bio queued) is kept by
 * device and sector: block_bio_queue notes a bio's time at its sector; a
 * bio merged at the back of a request is forgotten (the request's first
 * bio is older), one merged at the front takes the time of the bio it
 * now precedes; a split leaves the remainder the time of the whole; a
 * remapped bio is queued again below, with its own time there; a
 * completing request takes the time noted at its sector.  The same
 * bound and the same drop at lost events hold.
 *
 * A bio merged into a request (btt's M) whose queueing was seen waits in
 * a list until a request of its device that covers its sectors completes,
 * having been issued after the merge: that request carries it (its
 * count and the sums of its Q2C, Q2M and M2D, as btt accounts every bio).
 * The list is bounded (MAX_MERGED, the oldest go first) and emptied at
 * lost events.
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

/* A bio queued, by device and sector, until its request completes. */
struct qbio {
	struct hnode h;
	uint32_t dev;
	uint64_t sector;
	uint64_t ts;
};

/* A merged bio waiting for the completion of its request. */
struct mbio {
	uint32_t dev;
	uint32_t nr;		/* sectors */
	uint64_t sector;
	uint64_t qts, mts;	/* queued, merged */
};

/* At most this many merged bios wait (a real queue holds a few hundred). */
#define MAX_MERGED	4096

struct replay_block {
	struct hmap pending;		/* struct pending */
	struct hmap bios;		/* struct qbio */
	struct mbio *merged;		/* MAX_MERGED once used, a ring */
	size_t mhead, mn;		/* oldest, how many */
	struct hnode *free_list;	/* of struct pending */
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
/* Bios queued (btt's Q) */

static uint64_t qkey(uint32_t dev, uint64_t sector)
{
	return sector * 0x9e3779b97f4a7c15ULL ^ dev;
}

/* The link to the bio at dev:sector, or NULL. */
static struct hnode **qfind(struct replay_block *rb, uint32_t dev,
			    uint64_t sector)
{
	uint64_t key = qkey(dev, sector);
	struct hnode **pp = hmap_slot(&rb->bios, key);

	for (; pp && *pp; pp = &(*pp)->next) {
		struct qbio *b = (struct qbio *)*pp;

		if (b->h.key == key && b->dev == dev && b->sector == sector)
			return pp;
	}
	return NULL;
}

/* Take the time of the bio at dev:sector out of the table; 0: none. */
static uint64_t qtake(struct replay_block *rb, uint32_t dev, uint64_t sector)
{
	struct hnode **pp = qfind(rb, dev, sector);
	struct qbio *b;
	uint64_t ts;

	if (!pp)
		return 0;
	b = (struct qbio *)*pp;
	ts = b->ts;
	hmap_unlink(&rb->bios, pp);
	free(b);
	return ts;
}

/* Past MAX_PENDING bios: those older than EVICT_AGE go, or all. */
static void qevict(struct replay_block *rb, uint64_t now)
{
	for (size_t i = 0; i < rb->bios.cap; i++) {
		struct hnode **pp = &rb->bios.b[i];

		while (*pp) {
			struct qbio *b = (struct qbio *)*pp;

			if (b->ts + EVICT_AGE < now) {
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

/* Note time ts for the bio at dev:sector (replacing one there). */
static void qput(struct replay_block *rb, uint32_t dev, uint64_t sector,
		 uint64_t ts)
{
	struct hnode **pp = qfind(rb, dev, sector);
	struct qbio *b;

	if (pp) {
		((struct qbio *)*pp)->ts = ts;
		return;
	}
	if (rb->bios.n >= MAX_PENDING)
		qevict(rb, ts);
	b = hmap_add_new(&rb->bios, qkey(dev, sector), sizeof(*b));
	if (!b) {
		rb->err = -AN_E_NOMEM;
		return;
	}
	b->dev = dev;
	b->sector = sector;
	b->ts = ts;
}

/* Note merged bio b (queued at qts, merged at mts) for its request. */
static void mput(struct replay_block *rb, const struct dec_bio *b,
		 uint64_t qts, uint64_t mts)
{
	struct mbio *m;

	if (!rb->merged) {
		rb->merged = malloc(MAX_MERGED * sizeof(*rb->merged));
		if (!rb->merged) {
			rb->err = -AN_E_NOMEM;
			return;
		}
	}
	if (rb->mn == MAX_MERGED) {	/* the oldest goes */
		rb->mhead = (rb->mhead + 1) % MAX_MERGED;
		rb->mn--;
	}
	m = &rb->merged[(rb->mhead + rb->mn++) % MAX_MERGED];
	m->dev = b->dev;
	m->nr = b->nr;
	m->sector = b->sector;
	m->qts = qts;
	m->mts = mts;
}

/*
 * The merged bios that request rq (completing) carries: those of its
 * device inside its sectors merged before its issue; each leaves the list.
 */
static void mtake(struct replay_block *rb, struct blk_request *rq)
{
	uint64_t end = rq->sector + rq->nr_sector;
	size_t keep = 0;

	for (size_t i = 0; i < rb->mn; i++) {
		struct mbio *m = &rb->merged[(rb->mhead + i) % MAX_MERGED];

		if (m->dev == rq->dev && m->sector >= rq->sector &&
		    m->sector + m->nr <= end && m->mts <= rq->issue_ts) {
			rq->mbios++;
			rq->mq2c_ns += rq->complete_ts - m->qts;
			rq->mq2m_ns += m->mts - m->qts;
			rq->mm2d_ns += rq->issue_ts - m->mts;
			continue;
		}
		if (keep != i)
			rb->merged[(rb->mhead + keep) % MAX_MERGED] = *m;
		keep++;
	}
	rb->mn = keep;
}

uint64_t replay_block_bio(struct replay_block *rb, const struct dec_ev *ev)
{
	const struct dec_bio *b = &ev->bio;
	uint64_t ts = 0;

	if (ev->bad)
		return 0;
	switch (ev->kind) {
	case DK_BIO_QUEUE:
		if (b->nr)
			qput(rb, b->dev, b->sector, ev->ts);
		break;
	case DK_BIO_MERGE:
		/* the merged bio is not the first of its request ... */
		ts = qtake(rb, b->dev, b->sector);
		/* ... unless at the front: then it takes the first's time */
		if (b->front && b->nr) {
			uint64_t first = qtake(rb, b->dev, b->sector + b->nr);

			if (first || ts)
				qput(rb, b->dev, b->sector, first ? first : ts);
			if (!first)
				return ts <= ev->ts ? ts : 0;	/* now the first */
		}
		if (!ts || ts > ev->ts)
			return 0;
		if (b->nr)
			mput(rb, b, ts, ev->ts);
		return ts;
	case DK_BIO_REMAP:
		/* queued again on the device below: its own Q there */
		qtake(rb, b->dev2, b->sector2);
		break;
	case DK_BIO_SPLIT:
		if (b->sector2 > b->sector) {
			struct hnode **pp = qfind(rb, b->dev, b->sector);

			if (pp)
				qput(rb, b->dev, b->sector2,
				     ((struct qbio *)*pp)->ts);
		}
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
	if (rb->bios.n)
		hmap_release(&rb->bios, NULL);
	rb->mn = 0;
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
		if (rb->bios.n && p->rq.nr_sector) {
			struct hnode **q = qfind(rb, p->rq.dev, p->rq.sector);

			/* a bio queued after its request's issue is not its */
			if (q && ((struct qbio *)*q)->ts <= p->rq.issue_ts)
				p->rq.queue_ts = qtake(rb, p->rq.dev,
						       p->rq.sector);
		}
		if (rb->mn && p->rq.nr_sector)
			mtake(rb, &p->rq);
		rb->emit(&p->rq, rb->arg);
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
	free(rb->merged);
	while ((n = rb->free_list)) {
		rb->free_list = n->next;
		free(n);
	}
	free(rb);
}
