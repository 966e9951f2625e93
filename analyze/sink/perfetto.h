/* SPDX-License-Identifier: MIT */
/*
 * perfetto.h - the Chrome/Perfetto trace event JSON sink (`ioreport export
 * --perfetto`): a track per thread with its file syscalls as slices, a
 * process per block device whose tracks ("lanes", one per request in
 * flight at once) hold each request as a slice with its queue and device
 * phases inside, counters of dirty and writeback pages, process and
 * thread names, and the recording's wall clock in the metadata.  Opens
 * in ui.perfetto.dev and chrome://tracing.
 *
 * Slices are written as the pass completes them (the driver's hooks), so
 * memory holds only the lanes and the threads seen, not the events.
 * Timestamps are the trace clock in microseconds with ns decimals.
 */
#ifndef IOREPORT_SINK_PERFETTO_H
#define IOREPORT_SINK_PERFETTO_H

#include <stdint.h>
#include <stdio.h>

#include "base/syskind.h"
#include "stats/stats.h"

/* The pids of the tracks that are no process (devices, counters). */
#define PERFETTO_DEV_PID	1000000000	/* + the device's index */
#define PERFETTO_MEM_PID	999999999	/* dirty and writeback counters */

struct perfetto_counts {
	uint64_t calls;		/* syscall slices */
	uint64_t calls_unpaired;	/* exits without their enter: instants */
	uint64_t requests;	/* request slices */
	uint64_t phases;	/* queue and device slices inside them */
	uint64_t counters;	/* counter samples */
	uint64_t devices, lanes, threads, processes;
};

struct perfetto;

/*
 * perfetto_new - start a trace on out for the pass that fills st
 * Returns NULL when out of memory.  Nothing is written before the first
 * slice.
 */
struct perfetto *perfetto_new(FILE *out, struct stats *st);

/* The driver's hooks: a completed request; a completed syscall. */
void perfetto_request(const struct blk_done *d, void *p);
void perfetto_call(void *p, const struct sys_call *c, int proc_id,
		   int file_id);

/*
 * perfetto_finish - after the pass: the names, the counters and the
 * metadata, then the end of the JSON
 * Returns 0, -AN_E_NOMEM (a hook could not allocate) or -AN_E_IO (a
 * write failed).
 */
int perfetto_finish(struct perfetto *p, struct perfetto_counts *counts);

/* Free p (never closes out); accepts NULL. */
void perfetto_free(struct perfetto *p);

#endif /* IOREPORT_SINK_PERFETTO_H */
