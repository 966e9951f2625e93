/* SPDX-License-Identifier: MIT */
/*
 * attrib.h - attribution of block I/O to processes and files: a state
 * machine fed in the same pass as the syscall replay (sysreplay.h) that
 * gives every bio an owner when it is queued, and shares every completed
 * request (replay-block.h) among the owners of its bios.  Also the time
 * each process was throttled by the dirty limits and blocked in D state.
 *
 * The rules, one by one, with their approximations, are documented in
 * docs/attribution.md.  In short, a bio queued by thread T is owned by:
 *   journal      T is a jbd2 thread or inside a jbd2 commit (per device;
 *                a commit an fsync waits for is also charged to it)
 *   fsync        T is inside fsync/fdatasync/sync_file_range/sync (the
 *                caller and the file synced, by fd or by inode)
 *   writeback    T is a flusher inside ext4_writepages(ino) (the file of
 *                ino; the processes that dirtied it, by their share)
 *   syscall      T is inside another file syscall (direct I/O, reads):
 *                the caller and the file of the call's fd
 *   context      T is a user process outside any known syscall (page
 *                faults, exec, mmap): that process, file unknown
 *   unattributed otherwise (a kernel thread doing something else)
 * A request carries the owner of its first bio; bios merged into it add
 * their own bytes to their own owners.
 *
 * Aggregates go to procstat.blk / filestat.blk (sysreplay.h) of the
 * sysrun's processes and files.  Nothing here prints.
 */
#ifndef IOREPORT_ATTRIB_H
#define IOREPORT_ATTRIB_H

#include <stdbool.h>
#include <stdint.h>

struct source;
struct source_event;
struct sysrun;
struct blk_request;
struct proc;
struct file;

enum attrib_kind {
	AK_UNATTRIBUTED = 0,
	AK_JOURNAL,
	AK_FSYNC,
	AK_WRITEBACK,
	AK_SYSCALL,
	AK_CONTEXT,
	AK_NR
};

const char *attrib_kind_name(enum attrib_kind k);

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

struct attrib_totals {
	uint64_t requests;		/* completed requests seen */
	uint64_t bytes;			/* their bytes */
	uint64_t kind_bytes[AK_NR];	/* by owner kind */
	uint64_t proc_bytes;		/* bytes given to some process */
	uint64_t file_bytes;		/* bytes given to a named file */
	uint64_t inode_bytes;		/* to a file known only by inode */
	uint64_t wb_noproc_bytes;	/* writeback of inodes no one dirtied
					   during the recording */

	struct attrib_journal *journal;	/* sorted by dev */
	size_t njournal;

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
	uint64_t inode_learned;		/* inodes tied to a file by a syscall */
	uint64_t inode_retied;		/* inode numbers reused by another file */
};

struct attrib;

/*
 * attrib_new - resolve the events attribution uses in src
 * @run: the syscall replay, after sysrun_begin() and fed in the same
 *   pass (its threads' pending syscalls, processes and fd tables are read
 *   when a bio is queued; not owned)
 *
 * Never fails: a recording without bio events attributes nothing and
 * says so (attrib_totals()->bio_events).
 */
struct attrib *attrib_new(struct source *src, struct sysrun *run);
void attrib_free(struct attrib *at);

/*
 * Feed one event (any type), after sysrun_feed() of the same event, and
 * before replay_block_feed() so the bios of a request are known when it
 * completes.
 */
void attrib_feed(struct attrib *at, const struct source_event *ev);

/*
 * attrib_request - a completed request (the blk_emit_fn of the block
 * replay calls it): shares its bytes and device time among the owners of
 * its bios, and returns the owner of the first bio in *out (may be NULL).
 * out->file may be NULL with out->ino set while the inode is not yet
 * tied to a file: attrib_inode_file() after attrib_end() names it.
 */
void attrib_request(struct attrib *at, const struct blk_request *rq,
		    struct attrib_owner *out);

/*
 * End of the recording, after sysrun_end(): tie the inodes still without
 * a file to the end snapshot's files (or to a file named by dev:ino),
 * move their block I/O to those files, and compute the totals.
 */
void attrib_end(struct attrib *at);

/* The file of an owner's inode after attrib_end(), or NULL. */
struct file *attrib_inode_file(struct attrib *at, uint32_t dev, uint64_t ino);

const struct attrib_totals *attrib_totals(const struct attrib *at);

/* ------------------------------------------------------------------ */
/*
 * The events attribution uses, as plain structs: attrib_feed() decodes a
 * recorded event into one; the unit tests feed them directly.
 */

enum attrib_ev_kind {
	E_NONE = 0,
	E_BIO_QUEUE,	/* block_bio_queue: dev, sector, nr, comm */
	E_MERGE,	/* block_bio_back/frontmerge (counted only) */
	E_REMAP,	/* block_bio_remap: dev, sector <- dev2, sector2 */
	E_DIRTY_FOLIO,	/* writeback_dirty_folio/page: dev (bdi), ino */
	E_DIRTY_INODE,	/* writeback_dirty_inode: dev (bdi), ino */
	E_WB_START,	/* ext4_writepages: dev, ino */
	E_WB_END,	/* ext4_writepages_result */
	E_SYNC_ENTER,	/* ext4_sync_file_enter: dev, ino */
	E_SYNC_EXIT,	/* ext4_sync_file_exit */
	E_COMMIT_START,	/* jbd2_start_commit */
	E_COMMIT_END,	/* jbd2_end_commit */
	E_FILEMAP,	/* mm_filemap_add_to_page_cache: dev, ino */
	E_BDP,		/* balance_dirty_pages: val = pause (jiffies) */
	E_SWITCH,	/* sched_switch: pid1 prev, val prev_state, pid2 next */
	E_WAKEUP,	/* sched_wakeup/waking: pid1 */
};

struct attrib_ev {
	enum attrib_ev_kind kind;
	uint64_t ts;
	int pid;		/* the task the event ran in (common_pid) */
	uint32_t dev, dev2;	/* kernel dev_t encoding: major << 20 | minor */
	uint64_t sector, sector2;
	uint32_t nr;		/* sectors */
	uint64_t ino;
	int64_t val;
	int pid1, pid2;
	const char *comm;	/* bio_queue: the submitter's comm */
};

/* Feed one plain event (the second half of attrib_feed()). */
void attrib_event(struct attrib *at, const struct attrib_ev *ev);
/* An attribution without a recording (tests): HZ 250, all events "present". */
struct attrib *attrib_new_plain(struct sysrun *run);

#endif /* IOREPORT_ATTRIB_H */
