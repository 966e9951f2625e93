/* SPDX-License-Identifier: MIT */
/*
 * bio-owner.h - who each bio is for, followed through the events that say
 * it (docs/attribution.md).  A state machine fed in the same pass as the
 * syscall replay (replay/syscall.h), the processes and their fd tables,
 * and the per-thread windows (replay/window.h), which it reads: the
 * thread a bio is queued by, and what that thread is inside when it
 * does, give the bio its owner, kept with the bio in the block replay's
 * table of bios in flight (replay/block.h).  A bio queued by thread T
 * is owned by:
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
 *                one (a loop worker, replay/stack.h): counted on that device
 *   unattributed otherwise (a kernel thread doing something else)
 *
 * It also keeps the inodes seen in writeback, ext4 and filemap events
 * (inode.c): the file each is tied to once a syscall shows it, and
 * the processes that dirtied it.  The attribution (stats/attrib.h) adds
 * up the owners' shares of each completed request.  Nothing here counts
 * bytes or prints.
 */
#ifndef IOREPORT_REPLAY_BIO_OWNER_H
#define IOREPORT_REPLAY_BIO_OWNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/blk.h"
#include "base/hmap.h"

struct decoder;
struct dec_ev;
struct sysreplay;
struct proctable;
struct filetab;
struct windows;
struct uring_replay;
struct aio_replay;
struct replay_block;
struct stack;
struct meta_bdevs;
struct proc;
struct file;

/* A process that dirtied pages of an inode. */
struct dirtier {
	struct proc *p;
	uint64_t pending;	/* dirtied, not yet written out */
	uint64_t total;		/* dirtied during the recording */
};

/* An inode seen in writeback, ext4 or filemap events. */
struct inode_rec {
	struct hnode h;		/* key: ikey(dev, ino) */
	uint32_t dev;		/* fs dev (ext4 events) or the bdi's */
	bool fs_dev;		/* dev is from an ext4/filemap event */
	uint64_t ino;
	struct file *f;		/* NULL until known */
	struct dirtier *d;
	size_t nd, dcap;
	uint64_t born;		/* its number given to a new file then
				   (ext4_allocate_inode), or 0 */
	void *user;		/* the attribution's (its block I/O while f
				   is unknown); malloc'd, freed with it */
};

/* What the block replay keeps with each bio (replay_block_owners()). */
struct owner {
	uint8_t kind;			/* enum attrib_kind */
	struct proc *p;
	struct file *f;
	struct inode_rec *ir;
	struct proc *forcer;		/* journal: the fsync caller waiting */
	struct inode_rec *forcer_ir;	/* and its inode */
	bool forced;			/* journal: an fsync waits for it */
	bool fsmeta;			/* context: a read of file-system
					   metadata (the bdev's own pages) */
	int up;				/* stacked: the upper device's index
					   in the stack table + 1, else 0 */
};

/* What the events showed, counted. */
struct owner_counts {
	uint64_t bios;			/* bios queued */
	uint64_t merges;		/* back/front merges seen */
	uint64_t remaps;
	uint64_t splits;		/* block_split events */
	uint64_t inode_learned;		/* inodes tied to a file by a syscall */
	uint64_t inode_retied;		/* inode numbers reused by another file */
};

struct owners;

/*
 * owners_new - the owners, reading the replay of the same pass (none
 * owned): the syscall pairing, the processes and their fd tables, the
 * per-thread windows
 * @dec: names tasks and says what the recording has; NULL for no
 *   recording (unit tests): every event "present"
 *
 * NULL only without memory.
 */
struct owners *owners_new(struct sysreplay *sr, struct proctable *pt,
			  struct filetab *ft, const struct windows *ws,
			  struct decoder *dec);
/* Frees the inodes (and their user data) too. */
void owners_free(struct owners *ow);
/* 0, or -AN_E_NOMEM once something could not be kept for memory. */
int owners_error(const struct owners *ow);

/*
 * The block replay whose table of bios in flight keeps each bio's owner
 * (struct owner).  Before the first event; 0, or -AN_E_INVAL after it.
 */
int owners_set_block(struct owners *ow, struct replay_block *rb);
/*
 * The devices stacked on others: the loop devices of bdevs (the start
 * snapshot's) whose backing file is on a file system of another device;
 * a bio a kernel thread queues on a lower device for one of them is
 * theirs.  Before the first event; 0 or -AN_E_NOMEM.
 */
int owners_set_stack(struct owners *ow, const struct meta_bdevs *bdevs);
/* The stacked devices, or NULL. */
const struct stack *owners_stack(const struct owners *ow);
/*
 * The io_uring requests (may be NULL): a thread outside a syscall that
 * issues one acts on its file, as inside a syscall on that fd.
 */
void owners_set_uring(struct owners *ow, struct uring_replay *ur);
/* The libaio requests (may be NULL): an io_submit acts on its iocbs' fd. */
void owners_set_aio(struct owners *ow, const struct aio_replay *ar);
/*
 * retire(arg, ir) is called when the number of inode ir, tied to a file,
 * is given to a new file (ext4_allocate_inode): before ir leaves that
 * file, so what it holds for it (ir->user) can go to it.
 */
void owners_on_retire(struct owners *ow,
		      void (*retire)(void *arg, struct inode_rec *ir),
		      void *arg);

/*
 * owners_event - one decoded event: a bio queued (its owner, into the
 * block replay's table, which has seen the same event; merges, remaps
 * and splits are the table's and only counted here), pages and inodes
 * dirtied, pages added to the page cache, fsyncs of ext4, inodes
 * allocated; requests issued, requeued and completed on a stacked
 * device; others are ignored.  Fed after the syscall replay and the
 * windows saw the same event.
 */
void owners_event(struct owners *ow, const struct dec_ev *ev);

const struct owner_counts *owners_counts(const struct owners *ow);

/*
 * The process of thread tid (seen at ts) as the syscall replay knows it,
 * made on first sight; NULL for no thread (tid <= 0) or no memory.
 */
struct proc *owners_proc(struct owners *ow, int tid, uint64_t ts);

/*
 * owners_name_files - name the files without a path (opened by a call
 * whose path the recording lacks) from the end snapshot's inode names:
 * each by the inode that the events of calls on it showed.  After the
 * replay's end and the end snapshot's fd names, before the aggregates.
 */
void owners_name_files(struct owners *ow);

/* fn(arg, ir) for each inode. */
void owners_each_inode(struct owners *ow,
		       void (*fn)(void *arg, struct inode_rec *ir), void *arg);
/* The file of inode dev:ino, or NULL. */
struct file *owners_inode_file(const struct owners *ow, uint32_t dev,
			       uint64_t ino);
/*
 * owner_inode_written - bytes of ir written out: its dirtiers' pending
 * bytes go down by their shares of them.
 */
void owner_inode_written(struct inode_rec *ir, uint64_t bytes);

static inline uint64_t ikey(uint32_t dev, uint64_t ino)
{
	return ((uint64_t)dev << 32) ^ ino;
}

#endif /* IOREPORT_REPLAY_BIO_OWNER_H */
