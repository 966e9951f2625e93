/* SPDX-License-Identifier: MIT */
/*
 * interval.h - the aggregates of --interval SEC: the recording cut into
 * slots of SEC from its first event, each slot's requests per device and
 * operation and its syscalls and attributed block I/O per process, handed
 * to the caller as each slot ends (like iostat or biotop, one block of
 * rows per interval), so memory holds one slot.
 *
 * A request counts in the slot of its completion, a syscall in the slot
 * of its entry (its exit when unpaired), as the view filters count them.
 * The pass completes both in time order; one that arrives after its slot
 * was handed on (a CPU's events a little behind another's) counts in the
 * current slot.  Data only: printing is the sinks' job.
 */
#ifndef IOREPORT_STATS_INTERVAL_H
#define IOREPORT_STATS_INTERVAL_H

#include <stddef.h>
#include <stdint.h>

#include "base/blk.h"
#include "base/imap.h"
#include "replay/syscall.h"
#include "stats/attrib.h"
#include "stats/busy.h"
#include "stats/hist.h"
#include "stats/stats.h"

struct stats;

/* The requests of one device and operation in a slot. */
struct ivl_dev {
	uint32_t dev;
	enum blk_op op;
	uint64_t requests, bytes;
	uint64_t d2c_ns, total_ns;	/* sums */
	uint64_t life_ns;		/* of the times in flight as diskstats
					   counts them (blk_life_ns()) */
	uint64_t max_ns;		/* the longest total */
	struct hist device;		/* issue -> complete (D2C), as the
					   devices view's histograms */
};

/* What one process did in a slot. */
struct ivl_proc {
	int proc_id;			/* struct proc_info.id (rows_proc_at()) */
	uint64_t calls, reads, read_bytes, writes, write_bytes, syncs;
	uint64_t lat_ns;		/* sum of the paired calls' latency */
	uint64_t blk_requests, blk_bytes;	/* attributed at the device */
};

/* A device's busy time in a slot (iostat's %util). */
struct ivl_busy {
	uint32_t dev;
	uint64_t busy_ns;
};

struct ivl_slot {
	uint64_t index;
	uint64_t count;			/* slots: > 1 for a run of empty ones */
	uint64_t start_ns, end_ns;	/* from the first event */
	uint64_t start_ts;		/* trace clock of start_ns */
	struct ivl_dev *dev;		/* by device, then operation */
	size_t ndev;
	struct ivl_proc *proc;		/* by proc_id */
	size_t nproc;
	/*
	 * the devices' busy time inside the slot: a request's part before
	 * the slot it completes in counts only if the slot where it started
	 * was not handed on yet, so a request that straddles the start of
	 * its slot counts from that start
	 */
	struct ivl_busy *busy;		/* by device */
	size_t nbusy;
};

/*
 * The iostat of device dev in slot sl (stats.h), over the slot's width.
 */
void ivl_iostat(const struct ivl_slot *sl, uint32_t dev, struct iostat *io);

/*
 * Called with each slot in order, a run of empty slots as one (count > 1,
 * nothing in it); a nonzero return stops.
 */
typedef int (*ivl_slot_fn)(void *arg, const struct ivl_slot *s);

struct interval {
	const struct stats *st;		/* first_ts */
	uint64_t width;			/* ns */
	ivl_slot_fn fn;
	void *arg;
	struct ivl_slot cur;
	bool started;
	size_t dev_alloc, proc_alloc;
	struct imap proc_of;		/* proc_id -> index + 1 in cur.proc */
	struct ivl_tracker {
		uint32_t dev;
		struct busy b;
	} *trk;				/* the devices' busy spans */
	size_t ntrk, trk_alloc, busy_alloc;
	int err;			/* -AN_E_NOMEM, or fn's return */
};

/* Start cutting st's pass into slots of width ns for fn. */
void interval_init(struct interval *iv, const struct stats *st,
		   uint64_t width, ivl_slot_fn fn, void *arg);
/* A completed request (the driver's on_request hook's). */
void interval_request(struct interval *iv, const struct blk_done *d);
/* A completed syscall of process proc_id (the on_call hook's). */
void interval_call(struct interval *iv, const struct sys_call *c,
		   int proc_id);
/*
 * interval_finish - hand on the last slot (up to ts, the last event)
 * Returns 0, -AN_E_NOMEM, or the nonzero return of fn.
 */
int interval_finish(struct interval *iv, uint64_t ts);
void interval_release(struct interval *iv);

#endif /* IOREPORT_STATS_INTERVAL_H */
