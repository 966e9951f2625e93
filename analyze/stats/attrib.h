/* SPDX-License-Identifier: MIT */
/*
 * attrib.h - attribution of block I/O to processes and files: a state
 * machine fed in the same pass as the syscall replay (replay/syscall.h)
 * that gives every bio an owner when it is queued, and shares every
 * completed request (replay/block.h) among the owners of its bios.  Also the time
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
 *                faults, exec, mmap): that process, and the inode whose
 *                pages it just added to the page cache, if any
 *   stacked      T is a kernel thread serving a device stacked on this
 *                one (a loop worker, stack.h): counted on that device
 *   unattributed otherwise (a kernel thread doing something else)
 * A request carries the owner of its first bio; bios merged into it add
 * their own bytes to their own owners.
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
struct windows;
struct sysreplay;
struct proctable;
struct filetab;
struct blk_request;
struct blk_piece;
struct replay_block;
struct proc;
struct file;

enum attrib_kind {
	AK_UNATTRIBUTED = 0,
	AK_JOURNAL,
	AK_FSYNC,
	AK_WRITEBACK,
	AK_SYSCALL,
	AK_CONTEXT,
	AK_METADATA,		/* file-system metadata a kernel thread wrote */
	AK_STACKED,		/* a lower device's I/O for a device stacked
				   on it: counted there, by its owner */
	AK_NR
};

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
struct stack_dev_info;
struct uring_replay;
struct aio_replay;

/*
 * attrib_new - an attribution fed in the same pass as the replay it
 * reads: the syscall pairing (the call a thread is inside when it queues
 * a bio), the processes and their fd tables, the per-thread windows (a
 * thread inside ext4 writepages or fsync, a jbd2 commit); none is owned
 * @dec: names tasks and says what the recording has; NULL for no
 *   recording (unit tests): every event "present", HZ 250
 *
 * NULL only without memory: a recording without bio events attributes
 * nothing and says so (attrib_totals()->bio_events).
 */
struct attrib *attrib_new(struct sysreplay *sr, struct proctable *pt,
			  struct filetab *ft, const struct windows *ws,
			  struct decoder *dec);
void attrib_free(struct attrib *at);
/* 0, or -AN_E_NOMEM once something could not be kept for memory. */
int attrib_error(const struct attrib *at);

/*
 * attrib_event - one decoded event: a bio queued (its owner, kept in
 * the block replay's table of bios, which has seen the same event;
 * merges, remaps and splits are the table's and only counted here),
 * pages and inodes dirtied, pages added to the page cache, fsyncs of
 * ext4, dirty throttling; others are ignored.  Fed after the syscall
 * replay and the windows saw the same event.
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
 * attrib_request - a completed request and its pieces (what the blk_emit_fn
 * of the block replay is handed): shares its bytes and device time among
 * the owners of its bios, and returns the owner of the first bio in *out
 * (may be NULL).
 * out->file may be NULL with out->ino set while the inode is not yet
 * tied to a file: attrib_inode_file() after attrib_end() names it.
 */
void attrib_request(struct attrib *at, const struct blk_request *rq,
		    const struct blk_piece *pc, size_t npc,
		    struct attrib_owner *out);

/*
 * attrib_name_files - name the files without a path (opened by a call
 * whose path the recording lacks) from the end snapshot's inode names:
 * each by the inode that the events of calls on it showed.  After the
 * replay's end and the end snapshot's fd names, before the aggregates.
 */
void attrib_name_files(struct attrib *at);

/*
 * End of the recording, after the replay's end: tie the inodes still
 * without a file to the end snapshot's files (or to a file named by
 * dev:ino), move their block I/O to those files, and compute the totals.
 */
void attrib_end(struct attrib *at);

/* The file of an owner's inode after attrib_end(), or NULL. */
struct file *attrib_inode_file(const struct attrib *at, uint32_t dev,
			       uint64_t ino);

/*
 * attrib_set_block - the block replay whose table of bios in flight keeps
 * each bio's owner (its pieces come back to attrib_request()).  Before
 * the first event; 0, or -AN_E_INVAL after it.
 */
int attrib_set_block(struct attrib *at, struct replay_block *rb);
/*
 * The io_uring requests (may be NULL): a thread outside a syscall that
 * issues one acts on its file, as inside a syscall on that fd.
 */
void attrib_set_uring(struct attrib *at, struct uring_replay *ur);
/*
 * attrib_set_stack - the devices stacked on others (loop devices whose
 * backing file is on a device of the recording, stack.h): a bio a kernel
 * thread queues on a lower device for one of them is theirs.  Before the
 * first event; 0 or -AN_E_NOMEM.
 */
int attrib_set_stack(struct attrib *at, const struct stack_dev_info *v,
		     size_t n);
/* The libaio requests (may be NULL): an io_submit acts on its iocbs' fd. */
void attrib_set_aio(struct attrib *at, const struct aio_replay *ar);
const struct attrib_totals *attrib_totals(const struct attrib *at);

#endif /* IOREPORT_ATTRIB_H */
