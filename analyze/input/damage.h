/* SPDX-License-Identifier: MIT */
/*
 * damage.h - the damaged regions of an .iorec recording that reading
 * skipped: collected while the file is read (source.c) and attributed to
 * a CPU and a time span where the file allows it.  Private to input/;
 * meta.h puts the regions of struct source_info into words.
 */
#ifndef IOREPORT_INPUT_DAMAGE_H
#define IOREPORT_INPUT_DAMAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "iorec-format.h"

struct source_info;
struct source_damage;

/* The regions of one recording, and the per-CPU facts that place them. */
struct damage_log {
	struct source_damage *v;
	int n, alloc;
	uint32_t ncpus;
	/* per CPU: the last good DATA chunk seen so far (pass 1) */
	bool *seen;
	uint64_t *last_ts;
	int *epoch;		/* regions there were at that chunk */
	/*
	 * per region: the descriptor found in it, if any, and what the
	 * chunks of its CPU around it say of it: 0 none seen, 1 consistent
	 * (before it in time), -1 not
	 */
	struct damage_guess {
		bool have;
		struct iorec_data_desc desc;
		int prev, next;
	} *guess;
	/* where a region goes when the list cannot grow (err then set) */
	struct source_damage spare;
	struct damage_guess spare_guess;
	int err;		/* sticky: -AN_E_NOMEM, a region was dropped */
};

/* Start a log for a recording of ncpus CPUs (from its header). */
/* Returns 0, or -AN_E_NOMEM (d is then released). */
int damage_init(struct damage_log *d, uint32_t ncpus);
void damage_release(struct damage_log *d);

/*
 * damage_chunk - a good DATA chunk, in file order (pass 1)
 *
 * Places the regions before it, and returns true when a region was found
 * since the previous chunk of its CPU: its first event must then be
 * marked as preceded by lost events.
 */
bool damage_chunk(struct damage_log *d, const struct iorec_data_desc *desc);

/*
 * damage_add_gap - a region iorec_reader_resync() skipped
 * @reason: what was wrong with its first chunk (a static string)
 */
void damage_add_gap(struct damage_log *d, const struct iorec_gap *gap,
		    const char *reason);

/*
 * damage_add_chunk - one valid chunk whose data cannot be used (a zstd
 * frame that does not decompress, a cap): its CPU and time span are
 * those of its descriptor (NULL: not a DATA chunk)
 */
void damage_add_chunk(struct damage_log *d, uint64_t offset, uint64_t length,
		      const struct iorec_data_desc *desc, const char *reason);

/*
 * damage_publish - settle the CPU and time span of every region and put
 * the list and the totals into info (ndamaged, damaged, damaged_*, and
 * the per-CPU damaged_* of info->cpus); call after pass 1 and after each
 * damage_add_chunk() of pass 2
 */
void damage_publish(struct damage_log *d, struct source_info *info);

#endif /* IOREPORT_INPUT_DAMAGE_H */
