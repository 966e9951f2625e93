/* SPDX-License-Identifier: MIT */
/*
 * dirty.h - dirty-page throttling and writeback over time: the pauses
 * balance_dirty_pages imposed per thread, the global dirty state and its
 * thresholds (global_dirty_state), the flusher's work (writeback_written
 * by reason) and the bytes written to the devices, in fixed time slots
 * of DIRTY_SLOT_NS from the first event.  Memory grows with the length
 * of the recording only (one slot per 100 ms).  Nothing here prints.
 */
#ifndef IOREPORT_DIRTY_H
#define IOREPORT_DIRTY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct source;
struct source_event;
struct blk_request;

#define DIRTY_SLOT_NS	100000000ULL	/* 100 ms */

/* writeback_written reasons, in the kernel's numbering (WB_REASON_*) */
#define DIRTY_REASONS	8
const char *dirty_reason_name(int r);

struct dirty_slot {
	/* global_dirty_state: the last sample of the slot (pages) */
	bool gds;
	uint64_t nr_dirty, nr_writeback, bg_thresh, thresh, limit;
	uint64_t max_dirty;		/* highest nr_dirty in the slot */
	/* balance_dirty_pages */
	uint64_t bdp, bdp_paused;	/* events, of which pause > 0 */
	uint64_t pause_ms;		/* sum of pause, ms */
	uint64_t written;		/* pages: nr_written delta since the
					   previous sample */
	/* writeback works (writeback_start -> writeback_written of a
	 * flusher thread): pages written, by reason */
	uint64_t wb_pages[DIRTY_REASONS];
	/* block requests completed */
	uint64_t write_bytes, flushes;
};

/* Pauses of one thread. */
struct dirty_task {
	int tid;
	uint64_t bdp, paused, pause_ms, max_pause_ms;
	uint64_t last_ts;
};

struct dirty {
	uint64_t t0;			/* start of slot 0 */
	struct dirty_slot *slot;
	size_t nslot, aslot;
	struct dirty_task *task;
	size_t ntask, atask;
	bool have_bdp, have_gds, have_wb;
	uint64_t gds_samples;
	uint64_t page_size;
	/* totals */
	uint64_t bdp, bdp_paused, pause_ms, max_pause_ms;
	uint64_t wb_pages[DIRTY_REASONS];
	uint64_t max_dirty;		/* pages */
	uint64_t written;		/* pages, nr_written deltas */
	uint64_t wb_works;
	uint64_t min_bg_thresh, max_bg_thresh, min_thresh, max_thresh;
	uint64_t write_bytes;
	/* private */
	struct dirty_priv *p;
};

/* Resolve the events in src; never fails (absent events: have_* false). */
struct dirty *dirty_new(struct source *src);
void dirty_free(struct dirty *d);
/* Every event, in time order. */
void dirty_feed(struct dirty *d, const struct source_event *ev);
/* Every completed block request, as it completes. */
void dirty_request(struct dirty *d, const struct blk_request *rq);
/* Sort the tasks by pause time, longest first. */
void dirty_end(struct dirty *d);

/*
 * dirty_rebin - merge the slots into n rows of equal width (the last may
 * be shorter) into out[n] (zeroed first); returns the width in ns, or 0
 * when there are no slots.  Gauges keep the last sample, max_dirty the
 * max, counters are summed.
 */
uint64_t dirty_rebin(const struct dirty *d, struct dirty_slot *out, size_t n);

/*
 * balance_dirty_pages' pause and paused fields are milliseconds: the
 * tracepoint converts its jiffies with "* 1000 / HZ" itself.
 */
static inline uint64_t dirty_ms2ns(uint64_t ms)
{
	return ms * 1000000ULL;
}

#endif /* IOREPORT_DIRTY_H */
