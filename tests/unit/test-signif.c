// SPDX-License-Identifier: MIT
/*
 * test-signif.c - unit tests of the noise tests of ioreport diff: the
 * Mann-Whitney U test over histograms against U computed from the raw
 * samples, its calibration on samples of one distribution and its power
 * on a shifted one, the exact and approximate Poisson rate test against
 * binomial values worked by hand, and the verdict's two conditions.
 */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "stats/hist.h"
#include "stats/signif.h"
#include "rng.h"

/* uniform in (0, 1): never 0, whose log the normal deviates would take */
static double rnd01(void)
{
	return ((double)(rnd() >> 11) + 0.5) / 9007199254740992.0;
}

/* A log-normal latency around median ns (sigma 0.5), as I/O latencies go. */
static uint64_t lognormal(double median)
{
	double u = rnd01(), v = rnd01();
	double z = sqrt(-2 * log(u)) * cos(2 * M_PI * v);

	return (uint64_t)(median * exp(0.5 * z));
}

static void fill(struct hist *h, int n, double median)
{
	for (int i = 0; i < n; i++)
		assert_int_equal(hist_add(h, lognormal(median)), 0);
}

/* Distinct exact values (below 16 ns each has its own bucket): U by hand. */
static void test_mwu_exact_values(void **state)
{
	struct hist b = HIST_INIT, a = HIST_INIT;
	double ps, p, z;

	(void)state;
	for (uint64_t v = 1; v <= 6; v++) {
		hist_add(&b, v);
		hist_add(&a, v + 6);
	}
	p = sig_mwu(&b, &a, &ps);
	/* U of b = 0, mean 18, variance 6 * 6 * 13 / 12, no ties */
	z = (18 - 0.5) / sqrt(36.0 * 13 / 12);
	assert_true(fabs(p - erfc(z / sqrt(2))) < 1e-12);
	assert_true(fabs(ps - 1) < 1e-12);
	/* the other way round: the same p, the other side */
	assert_true(fabs(sig_mwu(&a, &b, &ps) - p) < 1e-12);
	assert_true(fabs(ps) < 1e-12);
	hist_release(&b);
	hist_release(&a);
}

/* Interleaved values with ties: U from the raw samples. */
static void test_mwu_ties(void **state)
{
	static const uint64_t bv[] = { 1, 2, 2, 3, 5, 8, 8, 9 };
	static const uint64_t av[] = { 2, 3, 3, 4, 8, 10, 11 };
	struct hist b = HIST_INIT, a = HIST_INIT;
	double u = 0, ties = 0, n1 = 8, n2 = 7, n = 15, var, z, ps, p;
	uint64_t cnt[16] = { 0 };

	(void)state;
	for (int i = 0; i < 8; i++) {
		hist_add(&b, bv[i]);
		cnt[bv[i]]++;
		for (int k = 0; k < 7; k++)
			u += bv[i] > av[k] ? 1 : bv[i] == av[k] ? 0.5 : 0;
	}
	for (int k = 0; k < 7; k++) {
		hist_add(&a, av[k]);
		cnt[av[k]]++;
	}
	for (int i = 0; i < 16; i++)
		ties += (double)(cnt[i] * cnt[i] * cnt[i] - cnt[i]);
	var = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)));
	z = (fabs(u - n1 * n2 / 2) - 0.5) / sqrt(var);
	p = sig_mwu(&b, &a, &ps);
	assert_true(fabs(p - erfc(z / sqrt(2))) < 1e-12);
	assert_true(fabs(ps - (1 - u / (n1 * n2))) < 1e-12);
	hist_release(&b);
	hist_release(&a);
}

/* Too few samples: no test. */
static void test_mwu_small(void **state)
{
	struct hist b = HIST_INIT, a = HIST_INIT;

	(void)state;
	fill(&b, SIG_MIN_SAMPLES - 1, 1e6);
	fill(&a, 100, 1e6);
	assert_true(sig_mwu(&b, &a, NULL) < 0);
	hist_release(&b);
	hist_release(&a);
}

/*
 * Calibration: two samples of one distribution are rejected at 5% about
 * 5% of the time; a 30% shift of the median is found every time.
 */
static void test_mwu_calibration(void **state)
{
	int reject = 0, trials = 200, found = 0;

	(void)state;
	for (int t = 0; t < trials; t++) {
		struct hist b = HIST_INIT, a = HIST_INIT, c = HIST_INIT;

		fill(&b, 400, 2e6);
		fill(&a, 400, 2e6);
		fill(&c, 400, 2.6e6);
		reject += sig_mwu(&b, &a, NULL) < 0.05;
		found += sig_mwu(&b, &c, NULL) < SIG_ALPHA;
		hist_release(&b);
		hist_release(&a);
		hist_release(&c);
	}
	print_message("same distribution rejected at 5%%: %d of %d; 30%% shift found at %g: %d\n",
		      reject, trials, SIG_ALPHA, found);
	assert_in_range(reject, 2, 20);
	assert_int_equal(found, trials);
}

/* One sample against itself: U is exactly its mean, p = 1. */
static void test_mwu_identical(void **state)
{
	struct hist b = HIST_INIT;

	(void)state;
	fill(&b, 1000, 5e5);
	assert_true(sig_mwu(&b, &b, NULL) == 1);
	hist_release(&b);
}

static void test_poisson(void **state)
{
	(void)state;
	/* 10 against 0 with equal exposure: 2 * 0.5^10 */
	assert_true(fabs(sig_poisson(10, 1, 0, 1) - 2 * pow(0.5, 10)) < 1e-12);
	/* 3 against 1: every outcome but 2 of 4 (p 6/16) is as unlikely */
	assert_true(fabs(sig_poisson(3, 1, 1, 1) - 10.0 / 16) < 1e-12);
	/* as many as expected: p = 1, exactly and in the approximation */
	assert_true(fabs(sig_poisson(300, 1, 300, 1) - 1) < 1e-9);
	assert_true(fabs(sig_poisson(1204, 1, 1204, 1) - 1) < 1e-9);
	/* rates: 100 in 1 s against 200 in 2 s */
	assert_true(fabs(sig_poisson(100, 1, 200, 2) - 1) < 1e-9);
	/* 1223 flushes against none */
	assert_true(sig_poisson(1223, 1.2, 0, 0.7) < 1e-100);
	/* no events, no exposure */
	assert_true(sig_poisson(0, 1, 0, 1) == 1);
	assert_true(sig_poisson(5, 0, 5, 1) < 0);
}

static void test_judge(void **state)
{
	(void)state;
	assert_false(sig_judge(1e-9, 100, 105));	/* 5%: negligible */
	assert_true(sig_judge(1e-9, 100, 120));
	assert_true(sig_judge(1e-9, 100, 80));
	assert_false(sig_judge(SIG_ALPHA, 100, 200));	/* not below alpha */
	assert_false(sig_judge(-1, 100, 200));		/* not tested */
	assert_true(sig_judge(1e-9, 0, 3));
	assert_false(sig_judge(1e-9, 0, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mwu_exact_values),
		cmocka_unit_test(test_mwu_ties),
		cmocka_unit_test(test_mwu_small),
		cmocka_unit_test(test_mwu_calibration),
		cmocka_unit_test(test_mwu_identical),
		cmocka_unit_test(test_poisson),
		cmocka_unit_test(test_judge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
