/* SPDX-License-Identifier: MIT */
/*
 * attrib.h - attribution of block I/O to processes and files: adds up
 * every completed request (replay/block.h) among the owners of the bios
 * it covered, which the owners machine gave them when they were queued
 * (replay/bio-owner.h: journal, fsync, writeback, syscall, context,
 * metadata, stacked, unattributed; docs/attribution.md has the rules).
 * A request carries the owner of its first bio; bios merged into it add
 * their own bytes to their own owners; writeback is shared among the
 * processes that dirtied the inode.  Also the time each process was
 * throttled by the dirty limits and blocked in D state.
 *
 * Aggregates go to procstat.blk / filestat.blk (account.h) of the
 * replay's processes and files.  Nothing here prints.
 */
#ifndef IOREPORT_ATTRIB_H
#define IOREPORT_ATTRIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/blk.h"

struct decoder;
struct dec_ev;
struct win;
struct filetab;
struct blk_request;
struct blk_piece;
struct proc;
struct file;

const char *attrib_kind_name(enum attrib_kind k);

struct attrib_totals;
/*
 * The bytes each counted once: those of the requests less what a lower
 * device did for a device stacked on it (counted on that one).
 */
uint64_t attrib_counted_bytes(const struct attrib_totals *t);
/*
 * Of those, the bytes that can be a file's data: less the journal and
 * the file-system metadata written (kind metadata) or read (by a process
 * through the block device's cache).
 */
uint64_t attrib_data_bytes(const struct attrib_totals *t);

/* The owner of a request (of its first bio). */
struct attrib_owner {
	enum attrib_kind kind;
	struct proc *proc;	/* NULL: unknown (writeback: the top dirtier) */
	struct file *file;	/* NULL: unknown, or known only by inode below */
	uint32_t dev;		/* fs dev_t of ino (kernel encoding), or 0 */
	uint64_t ino;		/* 0: none */
};

/* Per device: journal bytes. */
struct attrib_journal {
	uint32_t dev;		/* block device of the journal bios */
	uint64_t bytes;
	uint64_t fsync_bytes;	/* of commits an fsync was waiting for */
};

/* Per lower device and upper device: bytes done for the upper one. */
struct attrib_stacked {
	uint32_t dev;		/* the lower device (of the requests) */
	uint32_t upper;		/* the device above it, 0: unknown */
	uint64_t bytes;
};

struct attrib_totals {
	uint64_t requests;		/* completed requests seen */
	uint64_t bytes;			/* their bytes */
	uint64_t kind_bytes[AK_NR];	/* by owner kind */
	uint64_t proc_bytes;		/* bytes given to some process */
	uint64_t file_bytes;		/* bytes given to a named file */
	uint64_t inode_bytes;		/* to a file known only by inode */
	uint64_t nameless_bytes;	/* to a file known only by an fd whose
					   open was not seen ("<unknown fd>") */
	uint64_t fsmeta_read_bytes;	/* context: file-system metadata a
					   process read (inode tables, dirs) */
	uint64_t wb_noproc_bytes;	/* writeback of inodes no one dirtied
					   during the recording */

	struct attrib_journal *journal;	/* sorted by dev */
	size_t njournal;
	struct attrib_stacked *stacked;	/* sorted by dev, upper */
	size_t nstacked;

	/* what the recording had */
	bool bio_events;		/* block_bio_queue */
	bool dirty_events;		/* writeback_dirty_folio/page */
	bool ext4_events;		/* ext4_writepages, ext4_sync_file_* */
	bool jbd2_events;
	bool bdp_events;		/* balance_dirty_pages */
	bool sched_events;		/* sched_switch */
	int hz;				/* kernel HZ: jbd2 run stats are in jiffies */
	bool hz_guessed;		/* not found in the formats: 250 assumed */

	/* anomalies */
	uint64_t bios;			/* bios queued */
	uint64_t bio_replaced;		/* a bio queued where one was pending */
	uint64_t bio_unmatched;		/* request sectors without a bio */
	uint64_t bio_pending_end;	/* bios no request completed */
	uint64_t merges;		/* back/front merges seen */
	uint64_t remaps;
	uint64_t splits;		/* block_split events */
	uint64_t inode_learned;		/* inodes tied to a file by a syscall */
	uint64_t inode_retied;		/* inode numbers reused by another file */
};

/* A completed request and, when attributed, the owner of its first bio. */
struct blk_done {
	struct blk_request rq;
	bool attributed;
	struct attrib_owner own;
};

/*
 * The process a completed request counts for in per-process aggregates
 * (block bytes, request shape, interval rows): its owner, or NULL for a
 * stacked request, which counts once, on the upper device.
 */
static inline struct proc *blk_done_proc(const struct blk_done *d)
{
	return d->attributed && d->own.kind != AK_STACKED ? d->own.proc : NULL;
}

struct attrib;
struct owners;
struct replay_block;

/*
 * attrib_new - the attribution of the owners ow (not owned), whose
 * processes and files get the aggregates
 * @rb: the block replay whose bios carry the owners (its counts of them
 *   go to the totals), or NULL
 * @ft: the files, named at the end
 * @dec: says what the recording has; NULL for no recording (unit tests):
 *   every event "present", HZ 250
 *
 * NULL only without memory: a recording without bio events attributes
 * nothing and says so (attrib_totals()->bio_events).
 */
struct attrib *attrib_new(struct owners *ow, const struct replay_block *rb,
			  struct filetab *ft, struct decoder *dec);
void attrib_free(struct attrib *at);
/* 0, or -AN_E_NOMEM once something could not be kept for memory. */
int attrib_error(const struct attrib *at);

/*
 * attrib_event - one decoded event the attribution adds up: dirty
 * throttling (balance_dirty_pages); others are ignored.
 */
void attrib_event(struct attrib *at, const struct dec_ev *ev);

/* A window of the window machine closed (the D-state time of a task). */
void attrib_window_closed(struct attrib *at, int w, int tid,
			  const struct win *open, const struct dec_ev *ev);

/*
 * attrib_mute - while mute, attrib_request() finds the owner but counts
 * nothing: a request a view filters out
 */
void attrib_mute(struct attrib *at, bool mute);

/*
 * attrib_request - a completed request and its pieces (what the
 * blk_emit_fn of the block replay is handed): shares its bytes and device
 * time among the owners of its bios, and returns the owner of the first
 * bio in *out (may be NULL).  out->file may be NULL with out->ino set
 * while the inode is not yet tied to a file: attrib_inode_file() after
 * attrib_end() names it.
 */
void attrib_request(struct attrib *at, const struct blk_request *rq,
		    const struct blk_piece *pc, size_t npc,
		    struct attrib_owner *out);

/*
 * End of the recording, after the replay's end: tie the inodes still
 * without a file to the end snapshot's files (or to a file named by
 * dev:ino), move their block I/O to those files, and compute the totals.
 */
void attrib_end(struct attrib *at);

/* The file of an owner's inode after attrib_end(), or NULL. */
struct file *attrib_inode_file(const struct attrib *at, uint32_t dev,
			       uint64_t ino);

const struct attrib_totals *attrib_totals(const struct attrib *at);

#endif /* IOREPORT_ATTRIB_H */
