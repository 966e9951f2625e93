// SPDX-License-Identifier: MIT
/*
 * inode.c - the inodes of the owners: found or made by device and
 * number, moved from a writeback bdi to their file system's device, tied
 * to the files of the syscall replay (see bio-owner.h and
 * docs/attribution.md, "Inodes and file names").
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/blk.h"
#include "replay/fdtable.h"
#include "replay/bio-owner-int.h"

/* The inode (major, ino), created on first sight; NULL: no memory. */
struct inode_rec *owner_inode_get(struct owners *ow, uint32_t dev,
				   bool fs_dev, uint64_t ino)
{
	uint64_t key = ikey(dev, ino);
	struct hnode **pp = hmap_slot(&ow->inodes, key);
	struct inode_rec *ir;

	for (; pp && *pp; pp = &(*pp)->next) {
		ir = (struct inode_rec *)*pp;
		if (ir->h.key != key || ir->dev != dev || ir->ino != ino)
			continue;
		ir->fs_dev |= fs_dev;
		return ir;
	}
	ir = an_calloc(1, sizeof(*ir));
	if (!ir) {
		ow->err = -AN_E_NOMEM;
		return NULL;
	}
	ir->h.key = key;
	ir->dev = dev;
	ir->fs_dev = fs_dev;
	ir->ino = ino;
	if (hmap_add(&ow->inodes, &ir->h)) {
		free(ir);
		ow->err = -AN_E_NOMEM;
		return NULL;
	}
	return ir;
}

/*
 * The filesystem device of a bdi's inode.  writeback_* events name the
 * backing device ("8:0"), ext4 events the filesystem's ("8:1", a
 * partition): the pairs are learnt from a thread inside ext4 writepages
 * or sync_file of an inode that emits a writeback_* event for the same
 * inode number.  Without a pair the bdi's own number is used (a
 * filesystem on a whole disk or a loop device: the same number).
 */
uint32_t owner_fs_dev_of(struct owners *ow, uint32_t bdi, uint64_t ino)
{
	uint32_t first = 0;

	for (size_t i = 0; i < ow->nbdi; i++) {
		if (ow->bdi[i].bdi != bdi)
			continue;
		if (!first)
			first = ow->bdi[i].fs;
		if (hmap_slot(&ow->inodes, ikey(ow->bdi[i].fs, ino)))
			return ow->bdi[i].fs;
	}
	return first ? first : bdi;
}

static void inode_rekey(struct owners *ow, uint32_t from, uint32_t to);

/*
 * Put back an entry taken out of m: m has buckets, so this cannot fail
 * (hmap_add() fails only for a table without any).
 */
static void owner_readd(struct owners *ow, struct hmap *m, struct hnode *e)
{
	if (hmap_add(m, e))
		ow->err = -AN_E_NOMEM;
}

void owner_learn_bdi(struct owners *ow, uint32_t bdi, uint32_t fs)
{
	struct bdimap *v;

	if (!bdi || !fs || bdi == fs)
		return;

	for (size_t i = 0; i < ow->nbdi; i++)
		if (ow->bdi[i].bdi == bdi && ow->bdi[i].fs == fs)
			return;
	v = an_push(&ow->bdi, &ow->nbdi, &ow->abdi, sizeof(*ow->bdi), 4);
	if (!v) {
		ow->err = -AN_E_NOMEM;
		return;
	}
	v->bdi = bdi;
	v->fs = fs;
	inode_rekey(ow, bdi, fs);
}

/* Move the inodes known only by bdi to the filesystem device. */
static void inode_rekey(struct owners *ow, uint32_t from, uint32_t to)
{
	struct inode_rec **v;
	size_t n = 0;

	/* how many move, so that the list of them is had before any does */
	for (size_t i = 0; i < ow->inodes.cap; i++)
		for (struct hnode *x = ow->inodes.b[i]; x; x = x->next)
			n += ((struct inode_rec *)x)->dev == from &&
			     !((struct inode_rec *)x)->fs_dev;
	if (!n)
		return;
	v = an_calloc(n, sizeof(*v));
	if (!v) {
		ow->err = -AN_E_NOMEM;
		return;
	}
	n = 0;
	for (size_t i = 0; i < ow->inodes.cap; i++) {
		struct hnode **pp = &ow->inodes.b[i];

		while (*pp) {
			struct inode_rec *ir = (struct inode_rec *)*pp;

			if (ir->dev == from && !ir->fs_dev) {
				hmap_unlink(&ow->inodes, pp);
				v[n++] = ir;
			} else {
				pp = &(*pp)->next;
			}
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct inode_rec *ir = v[i];
		struct hnode **pp = hmap_slot(&ow->inodes, ikey(to, ir->ino));

		if (pp) {
			/* both known: keep the fs one, add the dirtiers */
			struct inode_rec *d = (struct inode_rec *)*pp;

			for (size_t j = 0; j < ir->nd; j++) {
				if (an_grow(&d->d, &d->dcap, d->nd + 1,
					    sizeof(*d->d), 2)) {
					ow->err = -AN_E_NOMEM;
					break;
				}
				d->d[d->nd++] = ir->d[j];
			}
			if (!d->f)
				d->f = ir->f;
			/* owners of pending bios may point at ir: keep it */
			ir->dev = to;
			ir->fs_dev = true;
			ir->nd = 0;
			ir->h.key = ikey(to, ir->ino) ^ (1ULL << 63);
			owner_readd(ow, &ow->inodes, &ir->h);
			continue;
		}
		ir->dev = to;
		ir->fs_dev = true;
		ir->h.key = ikey(to, ir->ino);
		owner_readd(ow, &ow->inodes, &ir->h);
	}
	free(v);
}

/*
 * Tie ir to file f.  Strong evidence (a folio dirtied inside a write on
 * f's fd, ext4_sync_file inside an fsync of it) re-ties an inode tied to
 * another file: the inode number was freed and reused (SQLite's
 * -journal unlinked, then its -wal created), and what was dirtied for
 * the old file was dropped with it.  Weak evidence (an inode marked dirty
 * or a page cache page added inside a call on f) only ties an untied
 * inode.  f itself is not given dev:ino (the files view merges rows by
 * dev:ino, and a reused inode is not the same file).
 */
void owner_inode_tie(struct owners *ow, struct inode_rec *ir, struct file *f,
		      bool strong)
{
	if (f && ir && (!f->tie || strong) && f->tie != ir) {
		f->tie = ir;	/* the file's own evidence: its name */
		f->tie_ts = ow->now;
	}
	if (!f || !ir || ir->f == f)
		return;
	if (ir->f) {
		if (!strong)
			return;
		ow->n.inode_retied++;
		ir->nd = 0;
	} else {
		ow->n.inode_learned++;
	}
	ir->f = f;
}

void owners_name_files(struct owners *ow)
{
	struct filetab *ft = ow->ft;

	for (size_t i = 0; i < filetab_count(ft); i++) {
		struct file *f = filetab_at(ft, i);
		const struct inode_rec *ir = f->tie;

		/* a reused number: the new file holds it from its allocation */
		if (!f->path && ir)
			file_name_by_inode(ft, f, blk_major(ir->dev),
					   blk_minor(ir->dev), ir->ino, ir->born,
					   ir->f && ir->f->tie == ir ?
					   ir->f->tie_ts : 0);
	}
}

void owners_each_inode(struct owners *ow,
		       void (*fn)(void *arg, struct inode_rec *ir), void *arg)
{
	for (size_t i = 0; i < ow->inodes.cap; i++)
		for (struct hnode *n = ow->inodes.b[i]; n; n = n->next)
			fn(arg, (struct inode_rec *)n);
}

struct file *owners_inode_file(const struct owners *ow, uint32_t dev,
			       uint64_t ino)
{
	uint64_t key = ikey(dev, ino);
	struct hnode **pp = hmap_slot(&ow->inodes, key);

	for (; pp && *pp; pp = &(*pp)->next) {
		const struct inode_rec *ir = (const struct inode_rec *)*pp;

		if (ir->h.key == key && ir->dev == dev && ir->ino == ino)
			return ir->f;
	}
	return NULL;
}
