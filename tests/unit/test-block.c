// SPDX-License-Identifier: MIT
/*
 * test-block.c - unit tests of the block request replay (replay/block.h)
 * on synthetic events: a request's first bio queued (btt's Q) through
 * back and front merges, splits, remaps, a bio queued after the issue,
 * and lost events.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/err.h"
#include "decode/decode.h"
#include "replay/block.h"

#define DEV	((8u << 20) | 0)
#define PART	((8u << 20) | 1)

/* The requests the replay completed. */
struct done {
	struct blk_request rq[8];
	int n;
	bool owners;	/* the bios carry an int each (test_owners) */
	/* each request's pieces: sectors, and the owner's int (0: none) */
	uint32_t pnr[8][4];
	int pown[8][4];
	size_t npc[8];
};

static void emit(const struct blk_request *rq, const struct blk_piece *pc,
		 size_t npc, void *arg)
{
	struct done *d = arg;

	if (d->n >= 8)
		return;
	d->npc[d->n] = npc;
	for (size_t i = 0; i < npc && i < 4; i++) {
		d->pnr[d->n][i] = pc[i].nr;
		d->pown[d->n][i] = d->owners && pc[i].owner ?
				   *(const int *)pc[i].owner : 0;
	}
	d->rq[d->n++] = *rq;
}

/* A bio record: queue, merge (front), remap and split (dev2, sector2). */
static uint64_t feed_bio(struct replay_block *rb, enum dec_kind k,
			 uint64_t ts, struct dec_bio b)
{
	struct dec_ev e;

	memset(&e, 0, sizeof(e));
	e.kind = k;
	e.ts = ts;
	e.bio = b;
	e.bio.op = BLK_OP_WRITE;
	return replay_block_bio(rb, &e);
}

/* A bio queued or merged; a merge returns its bio's queue time (Q2M). */
static uint64_t bio(struct replay_block *rb, enum dec_kind k, uint64_t ts,
		    uint32_t dev, uint64_t sector, uint32_t nr, bool front)
{
	return feed_bio(rb, k, ts, (struct dec_bio){ .dev = dev, .sector = sector,
					      .nr = nr, .front = front });
}

/* block_bio_remap / block_split: sector2 the old (or remainder's) one. */
static void bio2(struct replay_block *rb, enum dec_kind k, uint64_t ts,
		 uint32_t dev, uint64_t sector, uint32_t dev2, uint64_t sector2)
{
	feed_bio(rb, k, ts, (struct dec_bio){ .dev = dev, .sector = sector,
					      .dev2 = dev2,
					      .sector2 = sector2 });
}

static void rq(struct replay_block *rb, enum dec_kind k, uint64_t ts,
	       uint64_t sector, uint32_t nr)
{
	struct dec_ev e;

	memset(&e, 0, sizeof(e));
	e.kind = k;
	e.ts = ts;
	e.rq.dev = DEV;
	e.rq.sector = sector;
	e.rq.nr_sector = nr;
	e.rq.bytes = nr * 512ULL;
	e.rq.op = BLK_OP_WRITE;
	replay_block_feed(rb, &e);
}

/* Insert, issue and complete a request. */
static void request(struct replay_block *rb, uint64_t ts, uint64_t sector,
		    uint32_t nr)
{
	rq(rb, DK_RQ_INSERT, ts, sector, nr);
	rq(rb, DK_RQ_ISSUE, ts + 1, sector, nr);
	rq(rb, DK_RQ_COMPLETE, ts + 5, sector, nr);
}

/* The replay under test and the requests it completed. */
struct fx {
	struct done d;
	struct replay_block *rb;
};

static int fx_setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	f->rb = replay_block_new(emit, &f->d);
	if (!f->rb) {
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int fx_teardown(void **state)
{
	struct fx *f = *state;

	replay_block_free(f->rb);
	free(f);
	return 0;
}

/*
 * Finish the replay: it completed n requests, whose Q times were q in
 * order (0: no bio announced it).
 */
static void finish_queued(struct fx *f, int n, const uint64_t *q)
{
	replay_block_finish(f->rb);
	assert_int_equal(f->d.n, n);
	for (int i = 0; i < n; i++)
		assert_int_equal(f->d.rq[i].queue_ts, q[i]);
}

/*
 * Bio A at 100 queued at 10, B (queued at 12) merged at its back (108,
 * at 13), C (queued at 14) at its front (92, at 16): the request at 92
 * started with A, Q = 10; each merge returns its own bio's queue time
 * (Q2M 1 and 2), a merge of a bio never queued 0.  A lone bio at 500
 * (at 20) is its request's Q; a request no bio announced has none.
 */
static void test_merges(void **state)
{
	struct fx *f = *state;
	struct replay_block *rb = f->rb;

	bio(rb, DK_BIO_QUEUE, 10, DEV, 100, 8, false);
	bio(rb, DK_BIO_QUEUE, 12, DEV, 108, 8, false);
	assert_int_equal(bio(rb, DK_BIO_MERGE, 13, DEV, 108, 8, false), 12);
	bio(rb, DK_BIO_QUEUE, 14, DEV, 92, 8, false);
	assert_int_equal(bio(rb, DK_BIO_MERGE, 16, DEV, 92, 8, true), 14);
	assert_int_equal(bio(rb, DK_BIO_MERGE, 17, DEV, 700, 8, false), 0);
	bio(rb, DK_BIO_QUEUE, 20, DEV, 500, 8, false);
	request(rb, 30, 92, 24);
	request(rb, 40, 500, 8);
	request(rb, 50, 900, 8);
	finish_queued(f, 3, (const uint64_t[]){ 10, 20, 0 });
	/*
	 * the request at 92 (issued at 31, done at 35) carries its two
	 * merged bios, B (queued 12, merged 13) and C (14, 16), for btt's
	 * per-bio phases: Q2C 23 + 21, Q2M 1 + 2, M2D 18 + 15; the others
	 * none (the bio at 700 was never queued)
	 */
	assert_int_equal(f->d.rq[0].mbios, 2);
	assert_int_equal(f->d.rq[0].mq2c_ns, 44);
	assert_int_equal(f->d.rq[0].mq2m_ns, 3);
	assert_int_equal(f->d.rq[0].mm2d_ns, 33);
	assert_int_equal(f->d.rq[1].mbios, 0);
	assert_int_equal(f->d.rq[2].mbios, 0);
	assert_int_equal(replay_block_error(rb), 0);
}

/*
 * A merged bio is carried by the request that covers its sectors and was
 * issued after the merge: not by one beside it, nor by one issued
 * before it merged; at lost events it is forgotten.
 */
static void test_merged_carried(void **state)
{
	struct fx *f = *state;
	struct replay_block *rb = f->rb;

	/* 200+8 merged at 11 into a request at 192; 300+8 merged at 40 */
	bio(rb, DK_BIO_QUEUE, 10, DEV, 192, 8, false);
	bio(rb, DK_BIO_QUEUE, 10, DEV, 200, 8, false);
	bio(rb, DK_BIO_MERGE, 11, DEV, 200, 8, false);
	bio(rb, DK_BIO_QUEUE, 12, DEV, 300, 8, false);
	request(rb, 20, 184, 16);	/* 184..199: not 200's */
	rq(rb, DK_RQ_INSERT, 30, 292, 16);
	rq(rb, DK_RQ_ISSUE, 31, 292, 16);
	bio(rb, DK_BIO_MERGE, 40, DEV, 300, 8, false);	/* after the issue */
	rq(rb, DK_RQ_COMPLETE, 45, 292, 16);
	request(rb, 50, 192, 16);	/* 192..207: carries 200 */
	replay_block_gap(rb);
	request(rb, 70, 296, 16);	/* covers 300, merged before: gone */
	replay_block_finish(rb);
	assert_int_equal(f->d.n, 4);
	assert_int_equal(f->d.rq[0].mbios, 0);
	assert_int_equal(f->d.rq[1].mbios, 0);
	assert_int_equal(f->d.rq[2].mbios, 1);
	assert_int_equal(f->d.rq[2].mq2c_ns, 55 - 10);
	assert_int_equal(f->d.rq[2].mq2m_ns, 1);
	assert_int_equal(f->d.rq[2].mm2d_ns, 51 - 11);
	assert_int_equal(f->d.rq[3].mbios, 0);
}

/*
 * A bio of 64 sectors at 0 (at 10) split at 16: both requests take its
 * time.  A partition's bio (at 20) remapped to the disk and queued
 * there again (at 22): the disk's Q.  A bio queued at the sector of a
 * request after its issue is not that request's.
 */
static void test_split_remap(void **state)
{
	struct fx *f = *state;
	struct replay_block *rb = f->rb;

	bio(rb, DK_BIO_QUEUE, 10, DEV, 0, 64, false);
	bio2(rb, DK_BIO_SPLIT, 10, DEV, 0, DEV, 16);
	bio(rb, DK_BIO_QUEUE, 20, PART, 2000, 8, false);
	bio2(rb, DK_BIO_REMAP, 21, DEV, 4048, PART, 2000);
	bio(rb, DK_BIO_QUEUE, 22, DEV, 4048, 8, false);
	request(rb, 30, 0, 16);
	request(rb, 40, 16, 48);
	request(rb, 50, 4048, 8);
	rq(rb, DK_RQ_INSERT, 60, 7000, 8);
	rq(rb, DK_RQ_ISSUE, 61, 7000, 8);
	bio(rb, DK_BIO_QUEUE, 62, DEV, 7000, 8, false);
	rq(rb, DK_RQ_COMPLETE, 65, 7000, 8);
	finish_queued(f, 4, (const uint64_t[]){ 10, 10, 22, 0 });
}

/* Lost events: the bios noted before are forgotten with the requests. */
static void test_gap(void **state)
{
	struct fx *f = *state;

	bio(f->rb, DK_BIO_QUEUE, 10, DEV, 100, 8, false);
	replay_block_gap(f->rb);
	request(f->rb, 30, 100, 8);
	finish_queued(f, 1, (const uint64_t[]){ 0 });
}

/* A bio queued with owner (an int, as the attribution keeps its own). */
static void owned(struct replay_block *rb, uint64_t ts, uint32_t dev,
		  uint64_t sector, uint32_t nr, int owner)
{
	bool kept;
	int *o;

	bio(rb, DK_BIO_QUEUE, ts, dev, sector, nr, false);
	o = replay_block_owner(rb, dev, sector, &kept);
	assert_non_null(o);
	if (!kept)
		*o = owner;
}

/*
 * The one table of bios in flight carries their owners: a request hands
 * back the bios it covers, each with its owner, and a last piece without
 * one for sectors no bio covered; a remapped bio keeps its owner from
 * above; a split leaves the remainder the owner; lost events forget the
 * times, not the owners; covered bios leave the table.
 */
static void test_owners(void **state)
{
	struct fx *f = *state;
	struct replay_block *rb = f->rb;

	assert_int_equal(replay_block_owners(rb, sizeof(int)), 0);
	f->d.owners = true;
	owned(rb, 10, DEV, 100, 8, 1);
	owned(rb, 11, DEV, 108, 8, 2);
	bio(rb, DK_BIO_MERGE, 12, DEV, 108, 8, false);
	/* a partition's bio (owner 3) remapped and queued on the disk */
	owned(rb, 13, PART, 2000, 16, 3);
	bio2(rb, DK_BIO_REMAP, 14, DEV, 4048, PART, 2000);
	owned(rb, 15, DEV, 4048, 16, 9);	/* queued again: keeps 3 */
	bio2(rb, DK_BIO_SPLIT, 15, DEV, 4048, DEV, 4056);
	assert_int_equal(replay_block_bios(rb), 4);
	assert_int_equal(replay_block_owners(rb, sizeof(int)), -AN_E_INVAL);
	request(rb, 20, 100, 24);	/* 100..123: A, B, 8 sectors of none */
	request(rb, 30, 4048, 8);	/* the front of the split */
	replay_block_gap(rb);
	request(rb, 40, 4056, 8);	/* the remainder, after lost events */
	assert_int_equal(replay_block_bios(rb), 0);
	replay_block_finish(rb);
	assert_int_equal(f->d.n, 3);
	assert_int_equal(f->d.npc[0], 3);
	assert_int_equal(f->d.pnr[0][0], 8);
	assert_int_equal(f->d.pown[0][0], 1);
	assert_int_equal(f->d.pnr[0][1], 8);
	assert_int_equal(f->d.pown[0][1], 2);
	assert_int_equal(f->d.pnr[0][2], 8);
	assert_int_equal(f->d.pown[0][2], 0);
	assert_int_equal(f->d.rq[0].queue_ts, 10);
	assert_int_equal(f->d.rq[0].mbios, 1);
	assert_int_equal(f->d.npc[1], 1);
	assert_int_equal(f->d.pown[1][0], 3);
	assert_int_equal(f->d.rq[1].queue_ts, 15);
	assert_int_equal(f->d.npc[2], 1);
	assert_int_equal(f->d.pown[2][0], 3);
	assert_int_equal(f->d.rq[2].queue_ts, 0);
	assert_int_equal(replay_block_anomalies(rb)->bio_replaced, 0);
	assert_int_equal(replay_block_error(rb), 0);
}

#define FX_TEST(t)	\
	cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		FX_TEST(test_merges),
		FX_TEST(test_merged_carried),
		FX_TEST(test_split_remap),
		FX_TEST(test_gap),
		FX_TEST(test_owners),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
