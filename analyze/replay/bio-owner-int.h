/* SPDX-License-Identifier: MIT */
/*
 * bio-owner-int.h - what the two files of the owners share (bio-owner.c:
 * the owners of bios, from the events; inode.c: the inodes and their
 * files).  Internal to them; see bio-owner.h.
 */
#ifndef IOREPORT_REPLAY_BIO_OWNER_INT_H
#define IOREPORT_REPLAY_BIO_OWNER_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/hmap.h"
#include "base/imap.h"
#include "replay/bio-owner.h"

struct owners {
	uint64_t now;			/* the time of the event read */
	struct decoder *dec;		/* names of tasks, or NULL (tests) */
	struct sysreplay *sr;		/* the replay this reads, not owned */
	struct uring_replay *ur;	/* io_uring requests, or NULL */
	const struct aio_replay *ar;	/* libaio requests, or NULL */
	struct proctable *pt;
	struct filetab *ft;
	const struct windows *ws;
	struct replay_block *rb;	/* the bios in flight, or NULL */
	struct stack *stk;		/* stacked devices, or NULL */
	bool dirty_events;		/* writeback_dirty_folio/page recorded */
	struct imap readahead;		/* tid -> struct ra: its last page
					   added to the page cache */
	struct hmap inodes;		/* struct inode_rec */
	struct bdimap {
		uint32_t bdi, fs;
	} *bdi;				/* writeback bdi -> filesystem dev */
	size_t nbdi, abdi;
	void (*retire)(void *arg, struct inode_rec *ir);
	void *retire_arg;
	struct owner_counts n;
	int err;			/* sticky: -AN_E_NOMEM */
};

/* The inode (dev, ino), created on first sight; NULL: no memory. */
struct inode_rec *owner_inode_get(struct owners *ow, uint32_t dev,
				  bool fs_dev, uint64_t ino);
/* The filesystem device of a bdi's inode (see owner-inode.c). */
uint32_t owner_fs_dev_of(struct owners *ow, uint32_t bdi, uint64_t ino);
/* bdi is the backing device of file system fs: inodes move to fs. */
void owner_learn_bdi(struct owners *ow, uint32_t bdi, uint32_t fs);
/* Tie ir to f: strong evidence re-ties, weak only ties an untied one. */
void owner_inode_tie(struct owners *ow, struct inode_rec *ir, struct file *f,
		     bool strong);

#endif /* IOREPORT_REPLAY_BIO_OWNER_INT_H */
