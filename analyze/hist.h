/* SPDX-License-Identifier: MIT */
/*
 * hist.h - latency samples: exact percentiles over the kept values and a
 * log2 histogram in microseconds (the iolatency/biolatency layout).
 */
#ifndef IOREPORT_HIST_H
#define IOREPORT_HIST_H

#include <stddef.h>
#include <stdint.h>

#define HIST_SLOTS	64

struct hist {
	uint64_t *v;		/* samples in ns, sorted by hist_sort() */
	size_t n, alloc;
	uint64_t slot[HIST_SLOTS];	/* slot i: usecs in [2^i, 2^(i+1)), slot 0 also 0 */
	uint64_t sum;
	int sorted;
};

void hist_add(struct hist *h, uint64_t ns);
/* Sort the samples; call before hist_pct(). */
void hist_sort(struct hist *h);
/* Nearest-rank percentile (0 < p <= 100) in ns; 0 when empty. */
uint64_t hist_pct(const struct hist *h, double p);
uint64_t hist_max(const struct hist *h);
/* Highest used slot + 1 (0 when empty). */
int hist_slots_used(const struct hist *h);
void hist_release(struct hist *h);

#endif /* IOREPORT_HIST_H */
