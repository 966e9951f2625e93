/* SPDX-License-Identifier: MIT */
/*
 * busy.h - the time a device had at least one request in flight, the
 * numerator of iostat's %util (diskstats' io_ticks), from the spans
 * [start, complete] of its completed requests, which arrive in the order
 * of their completions, not of their starts.
 *
 * The spans are merged into a short sorted list of disjoint segments;
 * the oldest segment is counted and dropped when the list is longer than
 * BUSY_SEGS, and busy_cut() counts everything before a time.  What was
 * counted is kept too, as the last BUSY_SEGS segments below the floor: a
 * span that starts before the floor (a request in flight across an
 * interval's end, completed after it) adds the parts of it no counted
 * segment covered, to the next count, so nothing is counted twice nor
 * lost: memory stays bounded whatever the length of the recording, and
 * the union is exact as long as no request outlives BUSY_SEGS idle gaps
 * of its device.
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
	uint64_t *done;		/* nd pairs counted below the floor */
	size_t nd, dalloc;
	uint64_t known;		/* below it, taken as counted (done's
				   oldest were dropped) */
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
