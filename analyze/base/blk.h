/* SPDX-License-Identifier: MIT */
/*
 * blk.h - a block request as the stages pass it on: its operation, size,
 * flags, the tasks that queued and issued it and the times of its steps.
 */
#ifndef IOREPORT_BASE_BLK_H
#define IOREPORT_BASE_BLK_H

#include <stdbool.h>
#include <stdint.h>

enum blk_op {
	BLK_OP_READ,
	BLK_OP_WRITE,
	BLK_OP_FLUSH,
	BLK_OP_DISCARD,
	BLK_OP_OTHER,
	BLK_OP_MAX
};

const char *blk_op_name(enum blk_op op);

/* One completed request. */
struct blk_request {
	uint32_t dev;		/* kernel dev_t: major << 20 | minor */
	uint64_t sector;
	uint32_t nr_sector;
	uint64_t bytes;
	enum blk_op op;
	bool preflush;		/* REQ_PREFLUSH ('F' before the op) */
	bool fua;		/* REQ_FUA ('F' after the op) */
	bool sync, meta, ahead;
	int error;
	uint64_t queue_ts;	/* block_bio_queue of its first bio (btt's
				   Q), 0 when not seen */
	uint64_t insert_ts;	/* 0 when not seen (issued directly) */
	uint64_t issue_ts;	/* 0 when not seen */
	uint64_t complete_ts;
	int insert_pid;		/* task that queued it, -1 unknown */
	int issue_pid;
	char comm[16];		/* the comm field of the insert (else issue) event */
};

/* Completed requests and their bytes, by operation (enum blk_op). */
struct blk_tally {
	uint64_t n[BLK_OP_MAX];
	uint64_t bytes[BLK_OP_MAX];
};

void blk_tally_add(struct blk_tally *t, const struct blk_request *rq);
/* t += o */
void blk_tally_sum(struct blk_tally *t, const struct blk_tally *o);
/* The requests of every operation. */
uint64_t blk_tally_requests(const struct blk_tally *t);

/* Q2C of a request: insert (or issue) -> complete, ns. */
static inline uint64_t blk_total_ns(const struct blk_request *rq)
{
	uint64_t start = rq->insert_ts ? rq->insert_ts : rq->issue_ts;

	return rq->complete_ts - start;
}

#endif /* IOREPORT_BASE_BLK_H */
