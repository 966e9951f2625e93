// SPDX-License-Identifier: MIT
/*
 * test-hist.c - unit tests of the log-linear histogram: bucket bounds,
 * exact small histograms, percentile accuracy against the exact sorted
 * values on random data of several shapes, merge, the log2 view, and
 * the bucket array that covers only the groups its samples need; the
 * request-size slots (bitesize) and a device's sequential requests.
 */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stats/hist.h"
#include "stats/stats.h"
#include "rng.h"

/* uniform in [0, 1) */
static double rnd01(void)
{
	return (double)(rnd() >> 11) / 9007199254740992.0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t exact_pct(const uint64_t *v, size_t n, double p)
{
	double r = p / 100.0 * (double)n;
	size_t rank = (size_t)r;

	if ((double)rank < r)
		rank++;
	if (rank < 1)
		rank = 1;
	return v[rank - 1];
}

static void test_buckets(void **state)
{
	uint64_t lo, hi, prev_hi = 0;

	(void)state;
	/* contiguous, increasing, covering all of uint64_t */
	for (int i = 0; i < HIST_BUCKETS; i++) {
		hist_bounds(i, &lo, &hi);
		if (i)
			assert_int_equal(lo, prev_hi + 1);
		else
			assert_int_equal(lo, 0);
		assert_true(hi >= lo);
		assert_int_equal(hist_bucket(lo), i);
		assert_int_equal(hist_bucket(hi), i);
		/* at most 1/16 of the lower bound wide */
		if (lo >= HIST_SUB)
			assert_true(hi - lo + 1 <= lo / HIST_SUB);
		prev_hi = hi;
	}
	assert_int_equal(prev_hi, UINT64_MAX);
}

static void test_small_exact(void **state)
{
	struct hist h = HIST_INIT;

	(void)state;
	assert_int_equal(hist_pct(&h, 50), 0);
	hist_add(&h, 300);
	hist_add(&h, 100);
	hist_add(&h, 200);
	assert_null(h.b);
	assert_int_equal(h.count, 3);
	assert_int_equal(h.min, 100);
	assert_int_equal(h.max, 300);
	assert_int_equal(h.sum, 600);
	assert_int_equal(hist_pct(&h, 50), 200);
	assert_int_equal(hist_pct(&h, 1), 100);
	assert_int_equal(hist_pct(&h, 100), 300);
	hist_release(&h);
	assert_int_equal(h.count, 0);
}

/* p50..p99.9 within 6.25% of the exact value for n samples of gen(). */
static void check_accuracy(uint64_t (*gen)(void), size_t n)
{
	static const double ps[] = { 1, 10, 25, 50, 75, 90, 95, 99, 99.9 };
	uint64_t *v = malloc(n * sizeof(*v));
	struct hist h = HIST_INIT;
	uint64_t sum = 0;

	assert_non_null(v);
	for (size_t i = 0; i < n; i++) {
		v[i] = gen();
		sum += v[i];
		hist_add(&h, v[i]);
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	assert_int_equal(h.count, n);
	assert_int_equal(h.sum, sum);
	assert_int_equal(h.min, v[0]);
	assert_int_equal(h.max, v[n - 1]);
	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		uint64_t e = exact_pct(v, n, ps[i]), g = hist_pct(&h, ps[i]);
		double err = e ? fabs((double)g - (double)e) / (double)e :
			     (double)g;

		if (err >= 0.0625)
			fail_msg("p%g: histogram %llu, exact %llu (error %.2f%%)",
				 ps[i], (unsigned long long)g,
				 (unsigned long long)e, err * 100);
	}
	assert_int_equal(hist_pct(&h, 100), v[n - 1]);
	hist_release(&h);
	free(v);
}

static uint64_t gen_uniform(void) { return 1000 + rnd() % 10000000; }
static uint64_t gen_lognormal(void)
{
	/* latency-like: median ~100 us, long tail */
	double u1 = rnd01() + 1e-12, u2 = rnd01();
	double z = sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);

	return (uint64_t)exp(log(100000.0) + 1.5 * z);
}
static uint64_t gen_bimodal(void)
{
	return rnd() % 10 ? 50000 + rnd() % 1000 : 20000000 + rnd() % 5000000;
}
static uint64_t gen_tiny(void) { return rnd() % 40; }

static void test_accuracy(void **state)
{
	(void)state;
	check_accuracy(gen_uniform, 100000);
	check_accuracy(gen_lognormal, 200000);
	check_accuracy(gen_bimodal, 50000);
	check_accuracy(gen_tiny, 10000);
	check_accuracy(gen_lognormal, 7);
}

static void test_merge(void **state)
{
	struct hist a = HIST_INIT, b = HIST_INIT, all = HIST_INIT;

	(void)state;
	for (int i = 0; i < 1000; i++) {
		uint64_t v = gen_lognormal();

		hist_add(i % 3 ? &a : &b, v);
		hist_add(&all, v);
	}
	hist_merge(&a, &b);
	assert_int_equal(a.count, all.count);
	assert_int_equal(a.sum, all.sum);
	assert_int_equal(a.min, all.min);
	assert_int_equal(a.max, all.max);
	assert_int_equal(hist_pct(&a, 50), hist_pct(&all, 50));
	assert_int_equal(hist_pct(&a, 99), hist_pct(&all, 99));
	/* merging a small histogram into an empty one */
	hist_release(&b);
	hist_add(&b, 5);
	hist_merge(&all, &b);
	assert_int_equal(all.count, 1001);
	assert_int_equal(all.min, 5);
	hist_release(&a);
	hist_release(&b);
	hist_release(&all);
}

static void test_log2(void **state)
{
	struct hist h = HIST_INIT;
	uint64_t slot[HIST_SLOTS], lo, hi, n, total = 0;
	int used, pos = 0;

	(void)state;
	assert_int_equal(hist_log2_us(&h, slot), 0);
	for (int i = 0; i < 100; i++)
		hist_add(&h, 500);		/* 0 us: slot 0 */
	for (int i = 0; i < 50; i++)
		hist_add(&h, 3000);		/* 3 us: slot 1 */
	for (int i = 0; i < 10; i++)
		hist_add(&h, 1500000);		/* 1500 us: slot 10 */
	used = hist_log2_us(&h, slot);
	assert_int_equal(used, 11);
	assert_int_equal(slot[0], 100);
	assert_int_equal(slot[1], 50);
	assert_int_equal(slot[10], 10);
	while (hist_next_bucket(&h, &pos, &lo, &hi, &n)) {
		assert_true(lo <= hi);
		total += n;
	}
	assert_int_equal(total, 160);
	hist_release(&h);
}

/*
 * Every bucket's count against a full array of HIST_BUCKETS counters, on
 * samples that widen the histogram's groups downwards and upwards, and
 * after merging histograms whose groups do not overlap.
 */
static void check_counts(const struct hist *h, const uint64_t *ref)
{
	uint64_t lo, hi, n, total = 0;
	int pos = 0, want = 0;

	while (hist_next_bucket(h, &pos, &lo, &hi, &n)) {
		while (want < HIST_BUCKETS && !ref[want])
			want++;
		assert_true(want < HIST_BUCKETS);
		assert_int_equal(hist_bucket(lo), want);
		assert_int_equal(n, ref[want]);
		total += n;
		want++;
	}
	while (want < HIST_BUCKETS && !ref[want])
		want++;
	assert_int_equal(want, HIST_BUCKETS);
	assert_int_equal(total, h->count);
}

/* v into h, and into ref, its counts as the test expects them. */
static void add_ref(struct hist *h, uint64_t *ref, uint64_t v)
{
	hist_add(h, v);
	ref[hist_bucket(v)]++;
}

/* src merged into dst, and its counts into dst's: dst checked after. */
static void merge_ref(struct hist *dst, uint64_t *rdst, const struct hist *src,
		      const uint64_t *rsrc)
{
	assert_int_equal(hist_merge(dst, src), 0);
	for (int i = 0; i < HIST_BUCKETS; i++)
		rdst[i] += rsrc[i];
	check_counts(dst, rdst);
}

static void test_groups(void **state)
{
	static uint64_t ref[HIST_BUCKETS], ref2[HIST_BUCKETS];
	struct hist a = HIST_INIT, b = HIST_INIT;
	uint64_t v, s[] = { 50000, 60000, 70000, 80000, 90000, 3000, 10,
			    400000000, 1, UINT64_MAX, 0 };

	(void)state;
	for (size_t i = 0; i < sizeof(s) / sizeof(*s); i++) {
		add_ref(&a, ref, s[i]);
		check_counts(&a, ref);
	}
	/* every group, from 0 to 2^64 - 1 */
	assert_int_equal(a.g0, 0);
	assert_int_equal(a.ng, HIST_BUCKETS / HIST_SUB);
	assert_int_equal(hist_pct(&a, 100), UINT64_MAX);
	assert_int_equal(hist_pct(&a, 1), 0);

	/* a process's syscalls, 1 us to 100 ms: 17 groups, not 61 */
	hist_release(&a);
	memset(ref, 0, sizeof(ref));
	for (int i = 0; i < 100000; i++) {
		v = (uint64_t)(1000.0 * pow(10.0, 5.0 * rnd01()));
		add_ref(&a, ref, v);
	}
	check_counts(&a, ref);
	assert_true(a.ng <= 18);
	/* merged with a histogram above it, and one below */
	for (int i = 0; i < 1000; i++)
		add_ref(&b, ref2, 1000000000ULL + rnd() % 1000000000ULL);
	merge_ref(&a, ref, &b, ref2);
	hist_release(&b);
	memset(ref2, 0, sizeof(ref2));
	for (int i = 0; i < 1000; i++)
		add_ref(&b, ref2, rnd() % 200);
	merge_ref(&b, ref2, &a, ref);
	assert_int_equal(b.count, 102000);
	assert_int_equal(hist_pct(&b, 100), a.max);
	hist_release(&a);
	hist_release(&b);
}

/* Every size lands in the slot whose bounds hold it, bitesize's KiB. */
static void test_sizes(void **state)
{
	static const struct { uint64_t bytes; int slot; } v[] = {
		{ 512, 0 }, { 1024, 0 }, { 2047, 0 }, { 2048, 1 },
		{ 4095, 1 }, { 4096, 2 }, { 8191, 2 }, { 65536, 6 },
		{ 131071, 6 }, { 1u << 20, 10 }, { 1ULL << 40, 15 },
	};
	struct sizehist h = { 0 };
	uint64_t lo, hi, sum = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		assert_int_equal(sizehist_slot(v[i].bytes), v[i].slot);
		sizehist_bounds(v[i].slot, &lo, &hi);
		assert_true(lo <= v[i].bytes && v[i].bytes <= hi);
		sizehist_add(&h, v[i].bytes);
		sum += v[i].bytes;
	}
	sizehist_add(&h, 0);		/* a flush: not counted */
	assert_int_equal(h.count, sizeof(v) / sizeof(v[0]));
	assert_int_equal(h.bytes, sum);
	assert_int_equal(h.n[0], 3);
	assert_int_equal(h.n[6], 2);
	/* the slots tile the sizes: each starts after the previous one */
	for (int k = 1; k < SIZEHIST_SLOTS; k++) {
		uint64_t plo, phi;

		sizehist_bounds(k - 1, &plo, &phi);
		sizehist_bounds(k, &lo, &hi);
		assert_int_equal(lo, phi + 1);
	}
}

/*
 * A device's requests: 4 sequential 64 KiB writes, then 3 random 4 KiB
 * ones, a read between them that does not break the writes' run (another
 * direction) and a flush (no data): 3 sequential writes, 4 random.
 */
static void test_sequential(void **state)
{
	static const struct { enum blk_op op; uint64_t sector; uint32_t nr; } v[] = {
		{ BLK_OP_WRITE, 1000, 128 }, { BLK_OP_WRITE, 1128, 128 },
		{ BLK_OP_READ, 1256, 8 }, { BLK_OP_WRITE, 1256, 128 },
		{ BLK_OP_FLUSH, 0, 0 }, { BLK_OP_WRITE, 1384, 128 },
		{ BLK_OP_WRITE, 9000, 8 }, { BLK_OP_WRITE, 5000, 8 },
		{ BLK_OP_WRITE, 7000, 8 },
	};
	struct stats st;
	int seq = 0;

	(void)state;
	assert_int_equal(stats_init(&st, 1, 0, false), 0);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct blk_request rq = {
			.dev = 7 << 20, .op = v[i].op, .sector = v[i].sector,
			.nr_sector = v[i].nr, .bytes = v[i].nr * 512ULL,
			.issue_ts = 10 * i + 1, .complete_ts = 10 * i + 5,
		};
		int rc = stats_request(&st, &rq);

		assert_true(rc >= 0);
		seq += rc;
	}
	stats_end(&st);
	assert_int_equal(seq, 3);
	assert_int_equal(st.ndev, 3);
	for (size_t i = 0; i < st.ndev; i++) {
		const struct devstat *d = &st.dev[i];

		if (d->op != BLK_OP_WRITE) {
			assert_int_equal(d->seq, 0);
			continue;
		}
		assert_int_equal(d->reqs, 7);
		assert_int_equal(d->seq, 3);
		assert_int_equal(d->sizes.count, 7);
		assert_int_equal(d->sizes.n[sizehist_slot(65536)], 4);
		assert_int_equal(d->sizes.n[sizehist_slot(4096)], 3);
	}
	stats_release(&st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_small_exact),
		cmocka_unit_test(test_accuracy),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_log2),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_sequential),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
