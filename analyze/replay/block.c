// SPDX-License-Identifier: MIT
/*
 * replay-block.c - block request state machine (insert -> issue ->
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
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "input/source.h"
#include "replay/block.h"

#define NBUCKETS	4096
/*
 * At most this many requests wait for their next step; beyond, the ones
 * waiting longer than EVICT_AGE are dropped (counted as evicted), and if
 * that is not enough, all of them.  A real queue holds a few thousand.
 */
#define MAX_PENDING	(1 << 16)
#define EVICT_AGE	(60ULL * 1000000000)

struct pending {
	struct pending *next;
	struct blk_request rq;
	bool issued;
	bool requeued;		/* back in the queue: expect insert/issue */
};

struct ev_fields {
	int id;
	struct source_field *dev, *sector, *nr_sector, *bytes, *rwbs, *error;
	struct source_field *comm;
};

struct replay_block {
	struct ev_fields insert, issue, complete, requeue;
	struct pending *bucket[NBUCKETS];
	struct pending *free_list;
	uint64_t npending;
	struct blk_anomalies an;
	blk_emit_fn emit;
	void *arg;
};

void blk_parse_rwbs(const char *s, struct blk_request *rq)
{
	size_t i = 0;

	rq->preflush = rq->fua = rq->sync = rq->meta = rq->ahead = false;
	rq->op = BLK_OP_OTHER;
	/* A leading 'F' followed by an op letter is REQ_PREFLUSH. */
	if (s[0] == 'F' && s[1] && strchr("WRDFN", s[1])) {
		rq->preflush = true;
		i = 1;
	}
	switch (s[i]) {
	case 'W': rq->op = BLK_OP_WRITE; break;
	case 'R': rq->op = BLK_OP_READ; break;
	case 'D': rq->op = BLK_OP_DISCARD; break;
	case 'F': rq->op = BLK_OP_FLUSH; break;
	default: rq->op = rq->preflush ? BLK_OP_FLUSH : BLK_OP_OTHER; break;
	}
	if (!s[i])
		return;
	for (i++; s[i]; i++) {
		switch (s[i]) {
		case 'F': rq->fua = true; break;
		case 'S': rq->sync = true; break;
		case 'M': rq->meta = true; break;
		case 'A': rq->ahead = true; break;
		default: break;
		}
	}
	/* An empty flush ("FN") is a flush request. */
	if (rq->preflush && rq->op == BLK_OP_OTHER)
		rq->op = BLK_OP_FLUSH;
}

static void resolve(struct source *src, struct ev_fields *f, const char *name)
{
	f->id = source_event_id(src, "block", name);
	if (f->id < 0)
		return;
	f->dev = source_field(src, f->id, "dev");
	f->sector = source_field(src, f->id, "sector");
	f->nr_sector = source_field(src, f->id, "nr_sector");
	f->bytes = source_field(src, f->id, "bytes");
	f->rwbs = source_field(src, f->id, "rwbs");
	f->error = source_field(src, f->id, "error");
	f->comm = source_field(src, f->id, "comm");
	if (!f->dev || !f->sector || !f->rwbs)
		f->id = -1;	/* a format we do not understand */
}

struct replay_block *replay_block_new(struct source *src, blk_emit_fn emit,
				      void *arg, const char **why)
{
	struct replay_block *rb = xcalloc(1, sizeof(*rb));

	resolve(src, &rb->insert, "block_rq_insert");
	resolve(src, &rb->issue, "block_rq_issue");
	resolve(src, &rb->complete, "block_rq_complete");
	resolve(src, &rb->requeue, "block_rq_requeue");
	if (rb->issue.id < 0 || rb->complete.id < 0) {
		*why = "the recording lacks block:block_rq_issue or block:block_rq_complete (record the 'io' profile or -e block)";
		free(rb);
		return NULL;
	}
	rb->emit = emit;
	rb->arg = arg;
	return rb;
}

static unsigned int hash(uint32_t dev, uint64_t sector, bool flush)
{
	uint64_t h = sector * 0x9e3779b97f4a7c15ULL ^ dev * 0xff51afd7ULL ^
		     (uint64_t)flush;

	return (unsigned int)(h >> 40) % NBUCKETS;
}

static struct pending **find(struct replay_block *rb, uint32_t dev,
			     uint64_t sector, bool flush)
{
	struct pending **pp = &rb->bucket[hash(dev, sector, flush)];

	for (; *pp; pp = &(*pp)->next) {
		struct blk_request *q = &(*pp)->rq;

		if (q->dev == dev && q->sector == sector &&
		    (q->op == BLK_OP_FLUSH) == flush)
			return pp;
	}
	return pp;
}

static void unlink_pending(struct replay_block *rb, struct pending **pp)
{
	struct pending *p = *pp;

	*pp = p->next;
	p->next = rb->free_list;
	rb->free_list = p;
	rb->npending--;
}

static struct pending *new_pending(struct replay_block *rb,
				   struct pending **slot)
{
	struct pending *p = rb->free_list;

	if (p)
		rb->free_list = p->next;
	else
		p = xmalloc(sizeof(*p));
	memset(p, 0, sizeof(*p));
	p->next = NULL;
	*slot = p;
	rb->npending++;
	return p;
}

/* Read the common fields of a request event into rq. */
static int read_rq(const struct ev_fields *f, const struct source_event *ev,
		   struct blk_request *rq)
{
	uint64_t v;
	char rwbs[16];

	memset(rq, 0, sizeof(*rq));
	if (source_field_u64(f->dev, ev, &v))
		return -1;
	rq->dev = (uint32_t)v;
	if (source_field_u64(f->sector, ev, &rq->sector))
		return -1;
	if (f->nr_sector && !source_field_u64(f->nr_sector, ev, &v))
		rq->nr_sector = (uint32_t)v;
	if (f->bytes && !source_field_u64(f->bytes, ev, &v))
		rq->bytes = v;
	else
		rq->bytes = (uint64_t)rq->nr_sector * 512;
	if (source_field_str(f->rwbs, ev, rwbs, sizeof(rwbs)))
		return -1;
	blk_parse_rwbs(rwbs, rq);
	/* A flush has no sector: issued as 0, completed as -1. */
	if (rq->op == BLK_OP_FLUSH)
		rq->sector = 0;
	rq->insert_pid = rq->issue_pid = -1;
	return 0;
}

static void drop_all(struct replay_block *rb, uint64_t *counter)
{
	for (int i = 0; i < NBUCKETS; i++)
		while (rb->bucket[i]) {
			(*counter)++;
			unlink_pending(rb, &rb->bucket[i]);
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
	for (int i = 0; i < NBUCKETS; i++) {
		struct pending **pp = &rb->bucket[i];

		while (*pp) {
			if (last_step(*pp) + EVICT_AGE < now) {
				rb->an.evicted++;
				unlink_pending(rb, pp);
			} else {
				pp = &(*pp)->next;
			}
		}
	}
	/* not enough old ones: start afresh rather than scan again soon */
	if (rb->npending >= MAX_PENDING / 2)
		drop_all(rb, &rb->an.evicted);
}

void replay_block_feed(struct replay_block *rb, const struct source_event *ev)
{
	struct blk_request rq;
	struct pending **pp, *p;
	bool flush;

	if (ev->missed && rb->npending)
		drop_all(rb, &rb->an.dropped_at_gap);
	if (rb->npending >= MAX_PENDING)
		evict(rb, ev->ts);

	if (ev->id == rb->insert.id) {
		if (read_rq(&rb->insert, ev, &rq)) {
			rb->an.unreadable++;
			return;
		}
		flush = rq.op == BLK_OP_FLUSH;
		pp = find(rb, rq.dev, rq.sector, flush);
		if (*pp && (*pp)->requeued)
			return;		/* queued again: keep the first insert */
		if (*pp) {
			rb->an.duplicate++;
			unlink_pending(rb, pp);
			pp = find(rb, rq.dev, rq.sector, flush);
		}
		p = new_pending(rb, pp);
		p->rq = rq;
		p->rq.insert_ts = ev->ts;
		p->rq.insert_pid = ev->pid;
		if (rb->insert.comm)
			source_field_str(rb->insert.comm, ev, p->rq.comm,
					 sizeof(p->rq.comm));
	} else if (ev->id == rb->issue.id) {
		if (read_rq(&rb->issue, ev, &rq)) {
			rb->an.unreadable++;
			return;
		}
		flush = rq.op == BLK_OP_FLUSH;
		pp = find(rb, rq.dev, rq.sector, flush);
		if (*pp && (*pp)->issued) {
			rb->an.duplicate++;
			unlink_pending(rb, pp);
			pp = find(rb, rq.dev, rq.sector, flush);
		}
		if (*pp) {
			p = *pp;
			/* issue may have merged more in: take its size */
			p->rq.nr_sector = rq.nr_sector;
			p->rq.bytes = rq.bytes;
			if (ev->ts < p->rq.insert_ts)
				rb->an.negative_time++;
		} else {
			rb->an.issue_without_insert++;
			p = new_pending(rb, pp);
			p->rq = rq;
			if (rb->issue.comm)
				source_field_str(rb->issue.comm, ev, p->rq.comm,
						 sizeof(p->rq.comm));
		}
		p->issued = true;
		p->requeued = false;
		p->rq.issue_ts = ev->ts;
		p->rq.issue_pid = ev->pid;
	} else if (ev->id == rb->complete.id) {
		int64_t err = 0;

		if (read_rq(&rb->complete, ev, &rq)) {
			rb->an.unreadable++;
			return;
		}
		flush = rq.op == BLK_OP_FLUSH;
		pp = find(rb, rq.dev, rq.sector, flush);
		if (!*pp && !rq.nr_sector) {
			/* the empty request that carried a preflush */
			rb->an.empty_complete++;
			return;
		}
		if (!*pp || !(*pp)->issued) {
			rb->an.complete_without_issue++;
			if (*pp)
				unlink_pending(rb, pp);
			return;
		}
		p = *pp;
		if (ev->ts < p->rq.issue_ts) {
			rb->an.negative_time++;
			unlink_pending(rb, pp);
			return;
		}
		if (rb->complete.error &&
		    !source_field_s64(rb->complete.error, ev, &err))
			p->rq.error = (int)err;
		p->rq.complete_ts = ev->ts;
		rb->emit(&p->rq, rb->arg);
		unlink_pending(rb, pp);
	} else if (ev->id == rb->requeue.id) {
		if (read_rq(&rb->requeue, ev, &rq))
			return;
		rb->an.requeued++;
		pp = find(rb, rq.dev, rq.sector, rq.op == BLK_OP_FLUSH);
		if (*pp) {
			(*pp)->requeued = true;
			(*pp)->issued = false;
			(*pp)->rq.issue_ts = 0;
		}
	}
}

void replay_block_finish(struct replay_block *rb)
{
	drop_all(rb, &rb->an.still_open);
}

const struct blk_anomalies *replay_block_anomalies(const struct replay_block *rb)
{
	return &rb->an;
}

void replay_block_free(struct replay_block *rb)
{
	struct pending *p;

	if (!rb)
		return;
	drop_all(rb, &rb->an.still_open);
	while ((p = rb->free_list)) {
		rb->free_list = p->next;
		free(p);
	}
	free(rb);
}
