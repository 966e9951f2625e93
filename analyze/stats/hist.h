/* SPDX-License-Identifier: MIT */
/*
 * hist.h - a bounded log-linear latency histogram in ns: exact count,
 * sum, min and max, percentiles interpolated inside a bucket (relative
 * error below 1/16), and the log2 microsecond view of iolatency and
 * biolatency derived from the same buckets.  Memory does not grow with
 * the number of samples.
 *
 * Buckets: values below HIST_SUB are exact (one bucket each); above, each
 * power of two [2^k, 2^(k+1)) is split into HIST_SUB equal sub-buckets,
 * so a bucket is at most 1/16 of its lower bound wide.  The first
 * HIST_INLINE samples are kept exactly and the bucket array is allocated
 * only beyond them, so the many small histograms (a file read twice)
 * cost no array and give exact answers.  The array then covers only the
 * powers of two between the smallest and the largest sample (a group of
 * HIST_SUB counters each, 128 bytes), grown when a sample falls outside:
 * a process's syscalls from 1 us to 100 ms cost 2.2 KB, not the 7.8 KB
 * of every group, and a report's memory is what its processes and files
 * need.
 *
 * Data only: printing is the sinks' job (sink/histtext.c).
 */
#ifndef IOREPORT_HIST_H
#define IOREPORT_HIST_H

#include <stddef.h>
#include <stdint.h>

#define HIST_SUB_BITS	4
#define HIST_SUB	(1 << HIST_SUB_BITS)
/* groups 0..60 of HIST_SUB buckets: covers every uint64_t */
#define HIST_BUCKETS	((64 - HIST_SUB_BITS + 1) * HIST_SUB)
#define HIST_INLINE	4
/* log2 microsecond slots: slot i holds usecs in [2^i, 2^(i+1)), slot 0 also 0 */
#define HIST_SLOTS	64

struct hist {
	uint64_t count;
	uint64_t sum;		/* ns, saturating */
	uint64_t min, max;	/* 0 when empty */
	uint64_t small[HIST_INLINE];	/* the first samples, while count <= HIST_INLINE */
	uint64_t *b;		/* ng groups of HIST_SUB counters, NULL until needed */
	uint8_t g0, ng;		/* b[0] is the first bucket of group g0 */
};

#define HIST_INIT { 0, 0, 0, 0, { 0 }, NULL, 0, 0 }

/*
 * Add a sample; 0, or -AN_E_NOMEM when the buckets a fifth sample needs
 * cannot be had (the sample is not counted).
 */
int hist_add(struct hist *h, uint64_t ns);
/* Add every sample of src to dst; 0, or -AN_E_NOMEM (dst partly merged). */
int hist_merge(struct hist *dst, const struct hist *src);
/*
 * hist_pct - the p-th percentile (0 < p <= 100) in ns, nearest rank
 *
 * Exact while count <= HIST_INLINE; else the rank's position interpolated
 * linearly inside its bucket, clamped to [min, max].  p >= 100 is max.
 * 0 when empty.
 */
uint64_t hist_pct(const struct hist *h, double p);
static inline uint64_t hist_max(const struct hist *h) { return h->max; }
static inline uint64_t hist_avg(const struct hist *h)
{
	return h->count ? h->sum / h->count : 0;
}

/*
 * The log2 slot of v in units of unit: v / unit in [2^k, 2^(k+1)) is slot
 * k, 0 and 1 unit slot 0, everything from 2^(nslots-1) the last.
 */
int hist_log2_slot(uint64_t v, uint64_t unit, int nslots);

/* Bucket index of ns, and the bounds [lo, hi] (inclusive) of bucket i. */
int hist_bucket(uint64_t ns);
void hist_bounds(int i, uint64_t *lo, uint64_t *hi);

/*
 * hist_next_bucket - iterate the non-empty buckets (machine output)
 * @pos: start at 0
 *
 * Returns 1 with [*lo, *hi] and *count set, 0 at the end.  Inline samples
 * are reported as their buckets too, so the answer does not depend on
 * HIST_INLINE.
 */
int hist_next_bucket(const struct hist *h, int *pos, uint64_t *lo,
		     uint64_t *hi, uint64_t *count);

/*
 * hist_log2_us - the iolatency/biolatency view: slot[i] = samples whose
 * usecs fall in [2^i, 2^(i+1)) (slot 0 also 0 and 1 usecs).  Derived from
 * the buckets: a bucket straddling a slot bound counts in the slot of its
 * midpoint.  Returns the number of slots used (highest non-empty + 1).
 */
int hist_log2_us(const struct hist *h, uint64_t slot[HIST_SLOTS]);
/* The same in slots of unit ns (HIST_US, HIST_MS, HIST_S). */
int hist_log2(const struct hist *h, uint64_t unit, uint64_t slot[HIST_SLOTS]);

#define HIST_US		1000ULL
#define HIST_MS		1000000ULL
#define HIST_S		1000000000ULL
/*
 * hist_log2_unit - the unit of h's log2 picture, as biolatency -m
 * chooses ms for slow devices: the smallest of us, ms and s in which the
 * rows up to the 99th percentile are at most 12 (p99 below 4096 units),
 * so a slow card's writes are 8 rows of ms, not 18 of us.
 */
uint64_t hist_log2_unit(const struct hist *h);

/*
 * hist_bins - the log2 bins of the samples in a unit (ns per unit): bin 0
 * holds 0, bin b the values in [2^(b-1), 2^b) units, the last bin also
 * everything above; a bucket counts in the bin of its midpoint, an inline
 * sample in its own.  The one binning behind every log2 picture.
 */
void hist_bins(const struct hist *h, uint64_t unit, uint64_t *bins, int nbins);

/* Free the bucket array and zero h. */
void hist_release(struct hist *h);

/*
 * Request sizes as bcc's bitesize bins them, in log2 KiB slots: slot 0
 * holds 0 and 1 KiB (bytes / 1024), slot k the sizes of 2^k to
 * 2^(k+1) - 1 KiB, the last slot also everything larger.  Fixed size.
 */
#define SIZEHIST_SLOTS	16

struct sizehist {
	uint64_t n[SIZEHIST_SLOTS];
	uint64_t count, bytes;
};

/* Count a request of bytes (> 0; 0-byte requests are not counted). */
void sizehist_add(struct sizehist *h, uint64_t bytes);
/* The slot of bytes and the inclusive bounds in bytes of slot k. */
int sizehist_slot(uint64_t bytes);
void sizehist_bounds(int k, uint64_t *lo, uint64_t *hi);
/* Add s's counts to d. */
void sizehist_merge(struct sizehist *d, const struct sizehist *s);

#endif /* IOREPORT_HIST_H */
