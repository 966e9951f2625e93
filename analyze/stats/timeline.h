/* SPDX-License-Identifier: MIT */
/*
 * timeline.h - what the HTML page plots over time, in bounded memory
 * whatever the length of the recording: per device, time bins of bytes,
 * requests and requests in flight, and a uniform sample of the requests
 * themselves (their times, offsets and operations); a uniform sample of
 * the fsync calls.
 *
 * Bins: at most TL_BINS over the recording, 1 ms wide at first; when a
 * request falls past the last one every two neighbours merge and the
 * width doubles, so the bins always cover the recording with one width.
 * Samples: the n-th request of a device is kept when n is a multiple of
 * its stride (1 at first); when TL_POINTS are kept every second one goes
 * and the stride doubles, so the sample stays uniform over the
 * recording: tl_sampled() says how many a device kept of how many.
 */
#ifndef IOREPORT_STATS_TIMELINE_H
#define IOREPORT_STATS_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "base/blk.h"
#include "base/syskind.h"

#define TL_BINS		400
#define TL_POINTS	4000
#define TL_CALLS	4000
#define TL_LAT		24	/* log2 slots of device time: [2^i, 2^(i+1)) us,
				   slot 0 also under 1 us, the last also above */

/* One time bin of one device. */
struct tl_bin {
	struct blk_tally ops;
	uint64_t inflight_ns;	/* sum of the requests' insert -> complete
				   time inside the bin (/ width: queue depth) */
	uint32_t lat[TL_LAT];	/* requests completed in the bin by their
				   device time (issue -> complete), when
				   issued: the latency heat map */
};

/* The TL_LAT slot of a device time of ns. */
int timeline_lat_slot(uint64_t ns);

/* A sampled request. */
struct tl_point {
	uint64_t start;		/* insert, or issue when not seen */
	uint64_t issue, complete;
	uint64_t sector;
	uint64_t bytes;
	enum blk_op op;
};

struct tl_dev {
	uint32_t dev;
	uint64_t requests;	/* completed, all of them */
	uint64_t stride;
	struct tl_point *pt;
	size_t npt;
	struct tl_bin bin[TL_BINS];
};

/* A sampled fsync/fdatasync/sync_file_range call. */
struct tl_call {
	uint64_t start, end;
	int proc_id, file_id;	/* rows.h ids, -1 when unknown */
	enum sys_kind kind;
};

struct timeline {
	uint64_t t0;		/* start of bin 0 */
	uint64_t width;		/* ns per bin */
	size_t nbins;		/* bins in use (the last one holds the end) */
	struct tl_dev *dev;	/* by device, in order of first request */
	size_t ndev, adev;
	struct tl_call *call;
	size_t ncall;
	uint64_t calls, call_stride;
	int err;		/* -AN_E_NOMEM once something was dropped */
};

/* A timeline from t0 (the recording's first timestamp, or 0). */
struct timeline *timeline_new(uint64_t t0);
void timeline_free(struct timeline *tl);

/* Every completed request, in completion order. */
void timeline_request(struct timeline *tl, const struct blk_request *rq);
/* Every completed syscall; only the syncing kinds (SKF_SYNC) are kept. */
void timeline_call(struct timeline *tl, const struct sys_call *c,
		   int proc_id, int file_id);

/* The bin of ts (clamped to the bins in use). */
size_t timeline_bin(const struct timeline *tl, uint64_t ts);

#endif /* IOREPORT_STATS_TIMELINE_H */
