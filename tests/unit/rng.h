/* SPDX-License-Identifier: MIT */
/*
 * rng.h - xorshift64*, the deterministic random numbers of the unit tests
 * that feed random data (test-hist.c, test-signif.c): the same seed in
 * every run, so a failure repeats.
 */
#ifndef TESTS_UNIT_RNG_H
#define TESTS_UNIT_RNG_H

#include <stdint.h>

static uint64_t rng_state = 88172645463325252ULL;

static inline uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

#endif
