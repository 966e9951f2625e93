/* SPDX-License-Identifier: MIT */
/*
 * attrib-int.h - what the two files of the attribution share (attrib.c:
 * owners of bios and requests; attrib-inode.c: the inodes and their
 * files).  Internal to stats/attrib*.c; see attrib.h.
 */
#ifndef IOREPORT_ATTRIB_INT_H
#define IOREPORT_ATTRIB_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/blk.h"
#include "base/hmap.h"
#include "base/imap.h"
#include "stats/account.h"
#include "stats/attrib.h"

struct stack;

/* ------------------------------------------------------------------ */
/* Inodes */

struct dirtier {
	struct proc *p;
	uint64_t pending;	/* dirtied, not yet written out */
	uint64_t total;		/* dirtied during the recording */
};

struct inode_rec {
	struct hnode h;		/* key: major << 44 ^ ino */
	uint32_t dev;		/* fs dev (ext4 events) or the bdi's */
	bool fs_dev;		/* dev is from an ext4/filemap event */
	uint64_t ino;
	struct file *f;		/* NULL until known */
	struct dirtier *d;
	size_t nd, dcap;
	struct blkio io;	/* while f is unknown */
	uint64_t born;		/* its number given to a new file then
				   (ext4_allocate_inode), or 0 */
};

static inline uint64_t ikey(uint32_t dev, uint64_t ino)
{
	return ((uint64_t)dev << 32) ^ ino;
}

/* ------------------------------------------------------------------ */
/* Bios */

/* What the block replay keeps with each bio (replay_block_owners()). */
struct owner {
	uint8_t kind;
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

struct attrib {
	bool mute;			/* attrib_mute(): owners, no counts */
	uint64_t now;			/* the time of the event read */
	struct decoder *dec;		/* names of tasks, or NULL (tests) */
	struct sysreplay *sr;		/* the replay this reads, not owned */
	struct uring_replay *ur;	/* io_uring requests, or NULL */
	const struct aio_replay *ar;	/* libaio requests, or NULL */
	struct proctable *pt;
	struct filetab *ft;
	const struct windows *ws;
	struct stack *stk;		/* stacked devices, or NULL */
	size_t astacked;		/* the room of t.stacked */
	struct replay_block *rb;	/* the bios in flight, or NULL */
	struct imap readahead;		/* tid -> struct ra: its last page
					   added to the page cache */
	struct hmap inodes;
	struct attrib_totals t;
	struct bdimap {
		uint32_t bdi, fs;
	} *bdi;				/* writeback bdi -> filesystem dev */
	size_t nbdi, abdi;
	size_t ajournal;		/* the room of t.journal */
	/* what the aggregates of a process or file that cannot be had
	 * are added to (the pass fails: attrib_error()) */
	struct procstat spare_ps;
	struct filestat spare_fs;
	int err;			/* sticky: -AN_E_NOMEM */
};

/* The inode (dev, ino), created on first sight; NULL: no memory. */
struct inode_rec *attrib_inode_get(struct attrib *at, uint32_t dev,
				   bool fs_dev, uint64_t ino);
/* The filesystem device of a bdi's inode (see attrib-inode.c). */
uint32_t attrib_fs_dev_of(struct attrib *at, uint32_t bdi, uint64_t ino);
/* bdi is the backing device of file system fs: inodes move to fs. */
void attrib_learn_bdi(struct attrib *at, uint32_t bdi, uint32_t fs);
/* Tie ir to f: strong evidence re-ties, weak only ties an untied one. */
void attrib_inode_tie(struct attrib *at, struct inode_rec *ir, struct file *f,
		      bool strong);
/* Put back an entry taken out of m (cannot fail: m has buckets). */
void attrib_readd(struct attrib *at, struct hmap *m, struct hnode *e);

#endif /* IOREPORT_ATTRIB_INT_H */
