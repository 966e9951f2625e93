// SPDX-License-Identifier: MIT
/*
 * test-timeline.c - unit tests of the HTML page's timeline: the bins add
 * up to every request's bytes and counts whatever the rebinning, the time
 * in flight of a request spread over the bins it spans adds up to its
 * length, the sample of a long run is uniform (every kept request an
 * index multiple of the stride) and bounded, the heat map's latency
 * slots hold every issued request by its device time, and fsync calls are kept
 * while other calls are not.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stats/timeline.h"

static struct blk_request rq_at(uint64_t t, enum blk_op op, uint64_t bytes,
				uint64_t sector)
{
	struct blk_request rq;

	memset(&rq, 0, sizeof(rq));
	rq.dev = 8 << 20;
	rq.op = op;
	rq.bytes = bytes;
	rq.sector = sector;
	rq.insert_ts = t;
	rq.issue_ts = t + 1000;
	rq.complete_ts = t + 51000;
	return rq;
}

/* 50000 requests over 100 s: rebinned, sampled, summed. */
static void test_long_run(void **state)
{
	const uint64_t t0 = 1000000000ULL, n = 50000;
	struct timeline *tl = timeline_new(t0);
	uint64_t reads = 0, rbytes = 0, wbytes = 0, inflight = 0;
	uint64_t sr = 0, sw = 0, sn = 0, sf = 0, lat[TL_LAT] = { 0 };

	(void)state;
	assert_non_null(tl);
	for (uint64_t i = 0; i < n; i++) {
		enum blk_op op = i % 3 ? BLK_OP_WRITE : BLK_OP_READ;
		struct blk_request rq = rq_at(t0 + i * 2000000, op,
					      4096 * (1 + i % 5), i);

		timeline_request(tl, &rq);
		if (op == BLK_OP_READ) {
			reads++;
			rbytes += rq.bytes;
		} else {
			wbytes += rq.bytes;
		}
		inflight += rq.complete_ts - rq.insert_ts;
	}
	assert_int_equal(tl->ndev, 1);
	assert_true(tl->nbins <= TL_BINS);
	/* 100 s in at most 400 bins of 1 ms * 2^k: 256 ms */
	assert_int_equal(tl->width, 256000000ULL);
	for (size_t i = 0; i < TL_BINS; i++) {
		const struct tl_bin *b = &tl->dev[0].bin[i];

		sr += b->ops.bytes[BLK_OP_READ];
		sw += b->ops.bytes[BLK_OP_WRITE];
		sn += b->ops.n[BLK_OP_READ];
		sf += b->inflight_ns;
		for (int k = 0; k < TL_LAT; k++)
			lat[k] += b->lat[k];
		if (i >= tl->nbins)
			assert_int_equal(b->ops.n[BLK_OP_READ] + b->ops.n[BLK_OP_WRITE], 0);
	}
	assert_int_equal(sr, rbytes);
	assert_int_equal(sw, wbytes);
	assert_int_equal(sn, reads);
	assert_int_equal(sf, inflight);
	/* the heat map: every request, 50 us in the device: [32, 64) us */
	for (int k = 0; k < TL_LAT; k++)
		assert_int_equal(lat[k], k == 5 ? n : 0);
	/* uniform: the kept are the multiples of the stride, in order */
	assert_int_equal(tl->dev[0].requests, n);
	assert_int_equal(tl->dev[0].stride, 16);
	assert_true(tl->dev[0].npt <= TL_POINTS);
	assert_int_equal(tl->dev[0].npt, (n + 15) / 16);
	for (size_t i = 0; i < tl->dev[0].npt; i++)
		assert_int_equal(tl->dev[0].pt[i].sector, i * 16);
	timeline_free(tl);
}

/* The heat map's slots: [2^i, 2^(i+1)) us, under 1 us in 0, the rest in the last. */
static void test_lat_slot(void **state)
{
	(void)state;
	assert_int_equal(timeline_lat_slot(0), 0);
	assert_int_equal(timeline_lat_slot(999), 0);
	assert_int_equal(timeline_lat_slot(1999), 0);
	assert_int_equal(timeline_lat_slot(2000), 1);
	assert_int_equal(timeline_lat_slot(3999), 1);
	assert_int_equal(timeline_lat_slot(4000), 2);
	assert_int_equal(timeline_lat_slot(1024000), 10);
	assert_int_equal(timeline_lat_slot(1023999), 9);
	assert_int_equal(timeline_lat_slot(UINT64_MAX), TL_LAT - 1);
	assert_int_equal(timeline_lat_slot(1000ULL << (TL_LAT - 1)), TL_LAT - 1);
	assert_int_equal(timeline_lat_slot((1000ULL << (TL_LAT - 1)) - 1000), TL_LAT - 2);
}

/* A request longer than a bin leaves its time in each bin it spans. */
static void test_spread(void **state)
{
	struct timeline *tl = timeline_new(0);
	struct blk_request rq = rq_at(500000, BLK_OP_WRITE, 4096, 0);

	(void)state;
	/* 0.5 ms to 3.5 ms from t0 = 0.5 ms: bins 0..2, completed in 3 */
	rq.complete_ts = 3500000;
	timeline_request(tl, &rq);
	assert_int_equal(tl->t0, 500000);
	assert_int_equal(tl->dev[0].bin[0].inflight_ns, 1000000);
	assert_int_equal(tl->dev[0].bin[1].inflight_ns, 1000000);
	assert_int_equal(tl->dev[0].bin[2].inflight_ns, 1000000);
	assert_int_equal(tl->dev[0].bin[3].inflight_ns, 0);
	assert_int_equal(tl->dev[0].bin[2].ops.n[BLK_OP_WRITE], 0);
	assert_int_equal(tl->dev[0].bin[3].ops.n[BLK_OP_WRITE], 1);
	assert_int_equal(tl->nbins, 4);
	timeline_free(tl);
}

static void test_calls(void **state)
{
	struct timeline *tl = timeline_new(0);
	struct sys_call c;

	(void)state;
	memset(&c, 0, sizeof(c));
	c.paired = true;
	c.start = 10;
	c.end = 20;
	c.kind = SK_WRITE;
	timeline_call(tl, &c, 1, 2);
	assert_int_equal(tl->calls, 0);
	for (int i = 0; i < 3 * TL_CALLS; i++) {
		c.kind = SK_FSYNC;
		c.start = (uint64_t)i;
		timeline_call(tl, &c, 1, 2);
	}
	assert_int_equal(tl->calls, 3 * TL_CALLS);
	assert_int_equal(tl->call_stride, 4);
	assert_int_equal(tl->ncall, 3 * TL_CALLS / 4);
	for (size_t i = 0; i < tl->ncall; i++)
		assert_int_equal(tl->call[i].start, i * 4);
	timeline_free(tl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_long_run),
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_lat_slot),
		cmocka_unit_test(test_calls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
