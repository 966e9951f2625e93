/* SPDX-License-Identifier: MIT */
/*
 * block.h - the block request state machine: pairs
 * block_rq_insert -> block_rq_issue -> block_rq_complete by device and
 * sector and hands every finished request to a callback, with its queue
 * time (insert -> issue), device time (issue -> complete) and, with bio
 * events, the time its first bio was queued (Q2C) and the bios it
 * covered, with their owners: the one table of bios in flight.
 *
 * It never prints; what it cannot pair it counts (struct blk_anomalies).
 */
#ifndef IOREPORT_REPLAY_BLOCK_H
#define IOREPORT_REPLAY_BLOCK_H

#include <stdbool.h>
#include <stddef.h>
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
	uint64_t bio_replaced;	/* a bio queued where one was pending */
};

/*
 * A piece of a completed request: sectors of it one bio covered, and
 * that bio's owner (replay_block_owner()); owner NULL: sectors no bio of
 * the table covered (the last piece).
 */
struct blk_piece {
	uint32_t nr;
	const void *owner;
};

/*
 * A completed request and its pieces, from its first sector on (none
 * without bio events); the pieces live until the function returns.
 */
typedef void (*blk_emit_fn)(const struct blk_request *rq,
			    const struct blk_piece *pc, size_t n, void *arg);

struct replay_block;

/* A machine that hands every finished request to emit; NULL: no memory. */
struct replay_block *replay_block_new(blk_emit_fn emit, void *arg);
/* Feed one decoded block_rq_* record (DK_RQ_*). */
void replay_block_feed(struct replay_block *rb, const struct dec_ev *ev);
/*
 * Feed one decoded bio record (DK_BIO_QUEUE, DK_BIO_MERGE, DK_BIO_REMAP,
 * DK_BIO_SPLIT) to the table of bios in flight: a completed request then
 * carries its first bio's queue time (blk_request.queue_ts, btt's Q) and
 * its bios as pieces.  Returns, for a merge, the time the merged bio was
 * queued (its Q2M starts there); else, or when its queueing was not
 * recorded, 0.
 */
uint64_t replay_block_bio(struct replay_block *rb, const struct dec_ev *ev);
/*
 * Every bio carries an owner of size bytes (zeroed when it is queued),
 * for the stage that attributes them; before the first bio: 0, else
 * -AN_E_INVAL.
 */
int replay_block_owners(struct replay_block *rb, size_t size);
/*
 * The owner of the bio at dev:sector of that device, or NULL; *kept
 * (may be NULL): it kept the owner it had above (a remapped bio queued
 * again), else it is new and zeroed.
 */
void *replay_block_owner(struct replay_block *rb, uint32_t dev,
			 uint64_t sector, bool *kept);
/* How many bios are in flight (queued, no completed request covered). */
size_t replay_block_bios(const struct replay_block *rb);
/*
 * Events were lost (on any CPU): every pending request is dropped, as
 * its missing step may be in the gap; the bios forget their times.
 */
void replay_block_gap(struct replay_block *rb);
/* End of recording: count what is still pending. */
void replay_block_finish(struct replay_block *rb);
const struct blk_anomalies *replay_block_anomalies(const struct replay_block *rb);
/* 0, or -AN_E_NOMEM once a request could not be followed for memory. */
int replay_block_error(const struct replay_block *rb);
void replay_block_free(struct replay_block *rb);

#endif /* IOREPORT_REPLAY_BLOCK_H */
