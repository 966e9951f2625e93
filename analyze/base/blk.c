// SPDX-License-Identifier: MIT
/*
 * blk.c - the names of block operations.
 */
#include "config.h"

#include "base/blk.h"

static const char *const op_names[BLK_OP_MAX] = {
	"read", "write", "flush", "discard", "other",
};

const char *blk_op_name(enum blk_op op)
{
	return op < BLK_OP_MAX ? op_names[op] : "?";
}

void blk_tally_add(struct blk_tally *t, const struct blk_request *rq)
{
	t->n[rq->op]++;
	t->bytes[rq->op] += rq->bytes;
}

void blk_tally_sum(struct blk_tally *t, const struct blk_tally *o)
{
	for (int op = 0; op < BLK_OP_MAX; op++) {
		t->n[op] += o->n[op];
		t->bytes[op] += o->bytes[op];
	}
}

uint64_t blk_tally_requests(const struct blk_tally *t)
{
	uint64_t n = 0;

	for (int op = 0; op < BLK_OP_MAX; op++)
		n += t->n[op];
	return n;
}
