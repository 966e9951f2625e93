/* SPDX-License-Identifier: MIT */
/*
 * block.h - the block request state machine: pairs
 * block_rq_insert -> block_rq_issue -> block_rq_complete by device and
 * sector and hands every finished request to a callback, with its queue
 * time (insert -> issue), device time (issue -> complete) and, with bio
 * events, the time its first bio was queued (Q2C).
 *
 * It never prints; what it cannot pair it counts (struct blk_anomalies).
 */
#ifndef IOREPORT_REPLAY_BLOCK_H
#define IOREPORT_REPLAY_BLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "base/blk.h"

struct dec_ev;

struct blk_anomalies {
	uint64_t complete_without_issue;	/* completion of nothing known */
	uint64_t issue_without_insert;		/* direct dispatch: no queue time */
	uint64_t duplicate;	/* insert/issue of a key already pending: old one dropped */
	uint64_t negative_time;	/* a step earlier than the previous one */
	uint64_t empty_complete;	/* end of a preflush-only request */
	uint64_t requeued;	/* block_rq_requeue seen */
	uint64_t dropped_at_gap;	/* pending when events were lost */
	uint64_t still_open;	/* pending at the end of the recording */
	uint64_t evicted;	/* dropped to keep memory bounded (too many pending) */
	uint64_t unreadable;	/* records whose fields could not be read */
};

typedef void (*blk_emit_fn)(const struct blk_request *rq, void *arg);

struct replay_block;

/* A machine that hands every finished request to emit; NULL: no memory. */
struct replay_block *replay_block_new(blk_emit_fn emit, void *arg);
/* Feed one decoded block_rq_* record (DK_RQ_*). */
void replay_block_feed(struct replay_block *rb, const struct dec_ev *ev);
/*
 * Feed one decoded bio record (DK_BIO_QUEUE, DK_BIO_MERGE, DK_BIO_REMAP,
 * DK_BIO_SPLIT):
 * a completed request then carries its first bio's queue time
 * (blk_request.queue_ts, btt's Q).  Returns, for a merge, the time the
 * merged bio was queued (its Q2M starts there); else, or when its
 * queueing was not recorded, 0.
 */
uint64_t replay_block_bio(struct replay_block *rb, const struct dec_ev *ev);
/*
 * Events were lost (on any CPU): every pending request is dropped, as
 * its missing step may be in the gap.
 */
void replay_block_gap(struct replay_block *rb);
/* End of recording: count what is still pending. */
void replay_block_finish(struct replay_block *rb);
const struct blk_anomalies *replay_block_anomalies(const struct replay_block *rb);
/* 0, or -AN_E_NOMEM once a request could not be followed for memory. */
int replay_block_error(const struct replay_block *rb);
void replay_block_free(struct replay_block *rb);

#endif /* IOREPORT_REPLAY_BLOCK_H */
