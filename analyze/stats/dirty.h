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

struct dec_ev;
struct win;
struct blk_request;

/* What the recording has of the events (decode.h's dec_caps). */
struct dirty_caps {
	bool bdp;		/* balance_dirty_pages with its pause */
	bool gds;		/* global_dirty_state with its thresholds */
	bool wb;		/* writeback_start and writeback_written */
};

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

/* Dirty throttling of one recording; page_size 0: 4096.  NULL: no memory. */
struct dirty *dirty_new(const struct dirty_caps *c, uint64_t page_size);
void dirty_free(struct dirty *d);
/* 0, or -AN_E_NOMEM once a slot or task could not be kept for memory. */
int dirty_error(const struct dirty *d);
/* The first event of the recording: slot 0 starts at its 100 ms. */
void dirty_begin(struct dirty *d, uint64_t ts);
/* Every decoded balance_dirty_pages and global_dirty_state, in order. */
void dirty_event(struct dirty *d, const struct dec_ev *ev);
/* A writeback work closed (the window machine's WIN_WB_WORK). */
void dirty_work_done(struct dirty *d, const struct win *open,
		     const struct dec_ev *ev);
/* Every completed block request, as it completes. */
void dirty_request(struct dirty *d, const struct blk_request *rq);
/* Sort the tasks by pause time, longest first (dirty_cmp()). */
void dirty_end(struct dirty *d);
/*
 * dirty_cmp - the order of throttled threads, and of processes: the
 * longest paused first, then the most throttled, then by id (qsort's sign)
 */
int dirty_cmp(uint64_t pause_a, uint64_t bdp_a, int id_a, uint64_t pause_b,
	      uint64_t bdp_b, int id_b);

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
