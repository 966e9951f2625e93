/* SPDX-License-Identifier: MIT */
/*
 * btt.h - what blktrace's btt prints per device that the per-operation
 * tables do not: the time between two bios queued in turn (Q2Q), the
 * phases of every bio's Q2C as a share of their sum (btt's "Device
 * Overhead"), and the seek distance between two requests issued in turn
 * (btt's "D2D Seek"), each as btt defines it (docs/ioreport.1, "btt").
 *
 * btt counts per bio: a request's first bio has Q2I (btt's Q2G + G2I;
 * the recording has no block_getrq), I2D and D2C, a bio merged into it
 * Q2M, M2D and D2C, and both their Q2C; only bios whose queueing was
 * seen count.  The sums are exact (ns); Q2Q and the distances are also
 * histograms (stats/hist.h: sectors in place of ns for the distances).
 */
#ifndef IOREPORT_STATS_BTT_H
#define IOREPORT_STATS_BTT_H

#include <stdbool.h>
#include <stdint.h>

#include "stats/hist.h"

struct stats;
struct blk_request;

struct bttdev {
	uint32_t dev;
	/* Q2Q: block_bio_queue of a bio with data to the next on the device */
	uint64_t last_q;		/* 0: none yet */
	struct hist q2q;
	/* the phases summed over the bios whose Q and C were seen, ns */
	uint64_t bios, merged;		/* counted; of them merged (M) */
	uint64_t inserted;		/* first bios of inserted requests */
	uint64_t q2c, q2i, q2m, i2d, m2d, d2c;
	/*
	 * D2D seeks: each request with data issued after another one of
	 * the device, in sectors, btt's rule: 0 when it overlaps or starts
	 * where the previous ended, start - previous end forward, start -
	 * previous start backward
	 */
	bool have_last;
	uint64_t last_start, last_end;
	uint64_t seeks, zero, forward, backward;
	uint64_t abs_sum;		/* of |distance|, sectors */
	struct hist dist;		/* |distance|, sectors */
};

/* A bio with data queued on disk dev at ts (Q2Q); 0 or -AN_E_NOMEM. */
int stats_btt_queue(struct stats *st, uint32_t dev, uint64_t ts);
/* A request with data issued (D2D seek); 0 or -AN_E_NOMEM. */
int stats_btt_issue(struct stats *st, uint32_t dev, uint64_t sector,
		    uint32_t nr_sector);
/* A completed request: its bios' phases; 0 or -AN_E_NOMEM. */
int stats_btt_request(struct stats *st, const struct blk_request *rq);
/* The btt numbers of dev, or NULL (after the pass: sorted by device). */
const struct bttdev *stats_btt(const struct stats *st, uint32_t dev);
/* Sort by device (stats_end()); release (stats_release()). */
void stats_btt_end(struct stats *st);
void stats_btt_release(struct stats *st);

#endif /* IOREPORT_STATS_BTT_H */
