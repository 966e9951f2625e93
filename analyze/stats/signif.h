/* SPDX-License-Identifier: MIT */
/*
 * signif.h - whether a change between two recordings is beyond
 * run-to-run noise: a Mann-Whitney U test over the per-operation
 * latencies of two histograms (hist.h; the samples of one bucket are
 * ties), and a Poisson rate test (the conditional binomial test) for
 * counts.  The method and its limits are in docs/diff-significance.md.
 * Nothing here prints.
 */
#ifndef IOREPORT_STATS_SIGNIF_H
#define IOREPORT_STATS_SIGNIF_H

#include <stdbool.h>
#include <stdint.h>

struct hist;

/* A change is significant below this p-value ... */
#define SIG_ALPHA	0.001
/* ... and when it moves the metric by at least this share. */
#define SIG_MIN_CHANGE	0.10
/*
 * ... and, for latencies, when the probability that an operation of AFTER
 * takes longer than one of BEFORE is at least this far from 1/2.
 */
#define SIG_MIN_EFFECT	0.15
/* Fewer samples on a side: the latency test is not made. */
#define SIG_MIN_SAMPLES	5

enum sig_test { SIG_NONE, SIG_MWU, SIG_POISSON };

/* "mann-whitney-u", "poisson-rate", or NULL for SIG_NONE. */
const char *sig_test_name(enum sig_test t);

/*
 * sig_mwu - two-sided p-value of the Mann-Whitney U test that the
 * latencies of b and a come from one distribution (normal approximation
 * with the tie correction and a continuity correction); *ps (may be
 * NULL) gets the probability that a sample of a exceeds one of b (ties
 * count half).  Returns -1 when a side has fewer than SIG_MIN_SAMPLES.
 */
double sig_mwu(const struct hist *b, const struct hist *a, double *ps);

/*
 * sig_poisson - two-sided p-value that counts cb in exposure tb and ca
 * in ta come from one Poisson rate (exact binomial test of cb among
 * cb + ca with probability tb / (tb + ta), the normal approximation
 * above 1000 events).  1 when both are 0; -1 when an exposure is not
 * positive.
 */
double sig_poisson(uint64_t cb, double tb, uint64_t ca, double ta);

/* Significant: p in [0, SIG_ALPHA) and |change| >= SIG_MIN_CHANGE of b. */
bool sig_judge(double p, double b, double a);

#endif /* IOREPORT_STATS_SIGNIF_H */
