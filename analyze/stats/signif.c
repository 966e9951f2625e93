// SPDX-License-Identifier: MIT
/*
 * signif.c - the tests of a change beyond noise (see signif.h).
 */
#include "config.h"

#include <math.h>

#include "stats/hist.h"
#include "stats/signif.h"

const char *sig_test_name(enum sig_test t)
{
	return t == SIG_MWU ? "mann-whitney-u" :
	       t == SIG_POISSON ? "poisson-rate" : NULL;
}

/* The next non-empty bucket of h at or after *pos: 0 at the end. */
static int next(const struct hist *h, int *pos, uint64_t *lo, uint64_t *n)
{
	uint64_t hi;

	return hist_next_bucket(h, pos, lo, &hi, n);
}

double sig_mwu(const struct hist *b, const struct hist *a, double *ps)
{
	double n1 = (double)b->count, n2 = (double)a->count, nn = n1 + n2;
	double u = 0, ties = 0, below_a = 0, var, z;
	uint64_t lb = 0, la = 0, cb = 0, ca = 0;
	int pb = 0, pa = 0, hb, ha;

	if (b->count < SIG_MIN_SAMPLES || a->count < SIG_MIN_SAMPLES)
		return -1;
	/* both histograms have the same buckets: walk them side by side */
	hb = next(b, &pb, &lb, &cb);
	ha = next(a, &pa, &la, &ca);
	while (hb || ha) {
		double tb = 0, ta = 0;

		if (hb && (!ha || lb <= la)) {
			tb = (double)cb;
			if (ha && la == lb) {
				ta = (double)ca;
				ha = next(a, &pa, &la, &ca);
			}
			hb = next(b, &pb, &lb, &cb);
		} else {
			ta = (double)ca;
			ha = next(a, &pa, &la, &ca);
		}
		/* U of b: pairs where b's sample is larger, ties half */
		u += tb * below_a + 0.5 * tb * ta;
		below_a += ta;
		ties += (tb + ta) * (tb + ta) * (tb + ta) - (tb + ta);
	}
	if (ps)
		*ps = 1 - u / (n1 * n2);
	var = n1 * n2 / 12 * ((nn + 1) - ties / (nn * (nn - 1)));
	if (var <= 0)
		return 1;
	z = (fabs(u - n1 * n2 / 2) - 0.5) / sqrt(var);
	if (z < 0)
		z = 0;
	return erfc(z / sqrt(2));
}

static double log_binom_pmf(uint64_t k, uint64_t n, double p)
{
	return lgamma((double)n + 1) - lgamma((double)k + 1) -
	       lgamma((double)(n - k) + 1) + (double)k * log(p) +
	       (double)(n - k) * log1p(-p);
}

double sig_poisson(uint64_t cb, double tb, uint64_t ca, double ta)
{
	uint64_t n = cb + ca;
	double p, sum = 0, lk, z;

	if (!(tb > 0) || !(ta > 0))
		return -1;
	if (!n)
		return 1;
	p = tb / (tb + ta);
	if (n > 1000) {
		z = (fabs((double)cb - (double)n * p) - 0.5) /
		    sqrt((double)n * p * (1 - p));
		return erfc((z < 0 ? 0 : z) / sqrt(2));
	}
	/* exact: every outcome no more likely than the one seen */
	lk = log_binom_pmf(cb, n, p);
	for (uint64_t k = 0; k <= n; k++) {
		double l = log_binom_pmf(k, n, p);

		if (l <= lk + 1e-9)
			sum += exp(l);
	}
	return sum > 1 ? 1 : sum;
}

bool sig_judge(double p, double b, double a)
{
	if (p < 0 || p >= SIG_ALPHA || isnan(a) || isnan(b))
		return false;
	if (b == 0)
		return a != 0;
	return fabs(a - b) >= SIG_MIN_CHANGE * fabs(b);
}
