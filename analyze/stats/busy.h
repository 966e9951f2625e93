/* SPDX-License-Identifier: MIT */
/*
 * busy.h - the time a device had at least one request in flight, the
 * numerator of iostat's %util (diskstats' io_ticks), from the spans
 * [start, complete] of its completed requests, which arrive in the order
 * of their completions, not of their starts.
 *
 * The spans are merged into a short sorted list of disjoint segments;
 * the oldest segment is counted and dropped when the list is longer than
 * BUSY_SEGS, and busy_cut() counts everything before a time.  A span
 * that starts before what was already counted is counted from there on
 * only, so nothing is counted twice: memory stays bounded whatever the
 * length of the recording, and the union is exact as long as no request
 * outlives BUSY_SEGS idle gaps of its device.
 */
#ifndef IOREPORT_STATS_BUSY_H
#define IOREPORT_STATS_BUSY_H

#include <stddef.h>
#include <stdint.h>

#define BUSY_SEGS	64

struct busy {
	uint64_t floor;		/* nothing before it is counted again */
	uint64_t counted;	/* ns counted since the last busy_cut() */
	uint64_t periods;	/* busy periods counted whole: the kernel's
				   io_ticks, in jiffies, may differ by up to
				   one jiffy per period */
	uint64_t *seg;		/* n pairs start, end: sorted, disjoint */
	size_t n, alloc;	/* pairs */
};

/* A request in flight from start to end (trace ns); 0 or -AN_E_NOMEM. */
int busy_add(struct busy *b, uint64_t start, uint64_t end);
/*
 * busy_cut - the busy ns before t not yet returned: the segments and
 * parts of segments before t are counted and dropped, and t becomes the
 * floor.  busy_cut(b, UINT64_MAX) is the rest.
 */
uint64_t busy_cut(struct busy *b, uint64_t t);
void busy_release(struct busy *b);

#endif /* IOREPORT_STATS_BUSY_H */
