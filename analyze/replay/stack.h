/* SPDX-License-Identifier: MIT */
/*
 * stack.h - stacked block devices for the owners of bios: a loop device
 * whose backing file lives on a file system of another device of the
 * recording.  Its requests are served by a kernel thread (the loop
 * worker) that reads and writes the backing file, so the lower device
 * sees a second copy of the bytes the upper one already counted.  This
 * table knows each upper device (from the snapshot: its backing file's
 * file system and inode), the requests issued on it and not yet
 * completed, with the owner of each (an opaque copy replay/bio-owner.c
 * makes), and answers for a bio queued on a lower device by a kernel
 * thread: which upper request it serves.  The rule is documented in
 * docs/attribution.md ("Stacked devices").  Nothing here prints.
 */
#ifndef IOREPORT_REPLAY_STACK_H
#define IOREPORT_REPLAY_STACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An upper device as the snapshot describes it. */
struct stack_dev_info {
	uint32_t dev;		/* the loop device (kernel dev_t) */
	uint32_t fs;		/* file system of its backing file */
	uint32_t disk;		/* the block device of that file system */
	uint64_t ino;		/* the backing file's inode, 0: unknown */
};

struct stack;

/*
 * stack_new - a table of the n upper devices of v, each request's owner
 * an opaque object of owner_size bytes.  NULL only without memory.
 */
struct stack *stack_new(const struct stack_dev_info *v, size_t n,
			size_t owner_size);
void stack_free(struct stack *s);
/* How many upper devices the table has (0: nothing is stacked). */
size_t stack_count(const struct stack *s);
/* The upper device i (< stack_count()). */
const struct stack_dev_info *stack_dev(const struct stack *s, size_t i);

/*
 * stack_issue - a read or write request issued on dev (ignored when dev
 * is no upper device), its owner copied (may be NULL: unknown).
 * 0, or -AN_E_NOMEM.
 */
int stack_issue(struct stack *s, uint32_t dev, uint64_t sector,
		uint32_t nr, bool write, const void *owner);
/* The request at dev, sector completed (or was requeued). */
void stack_complete(struct stack *s, uint32_t dev, uint64_t sector);

/*
 * stack_lower - a bio of bytes queued on dev by a kernel thread outside
 * any file-system window: the upper device it serves (an upper device
 * whose backing file system is on dev, with a request in flight, the
 * oldest one of the same direction with bytes not yet matched first),
 * its request's owner copied to owner.  Returns the index of the upper
 * device, or -1.
 */
int stack_lower(struct stack *s, uint32_t dev, bool write, uint64_t bytes,
		void *owner);

/*
 * stack_backing - the upper device whose backing file is inode ino of
 * file system (or bdi) dev: its index, its last write's owner copied to
 * owner (when not NULL); -1 when none.
 */
int stack_backing(const struct stack *s, uint32_t dev, uint64_t ino,
		  void *owner);

/*
 * stack_touch - a kernel thread touched inode ino of file system (or
 * bdi) dev (a page added to the cache or dirtied, an inode dirtied, an
 * fsync): while an upper device whose backing file system is dev has a
 * request in flight, a vote for ino being its backing file.  Recordings
 * made before iorec stored the backing inode learn it this way.
 */
void stack_touch(struct stack *s, uint32_t dev, uint64_t ino);

/*
 * The upper devices with dev as their backing file system: index i of
 * the next one from *from (start at 0), or -1 when none is left.
 */
int stack_next_on(const struct stack *s, uint32_t dev, size_t *from);

#endif /* IOREPORT_REPLAY_STACK_H */
