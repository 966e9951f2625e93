// SPDX-License-Identifier: MIT
/*
 * attrib-inode.c - the inodes of the attribution: found or made by
 * device and number, moved from a writeback bdi to their file system's
 * device, tied to the files of the syscall replay (see attrib.h and
 * docs/attribution.md, "Inodes and file names").
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/blk.h"
#include "replay/fdtable.h"
#include "stats/attrib-int.h"

/* The inode (major, ino), created on first sight; NULL: no memory. */
struct inode_rec *attrib_inode_get(struct attrib *at, uint32_t dev,
				   bool fs_dev, uint64_t ino)
{
	uint64_t key = ikey(dev, ino);
	struct hnode **pp = hmap_slot(&at->inodes, key);
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
		at->err = -AN_E_NOMEM;
		return NULL;
	}
	ir->h.key = key;
	ir->dev = dev;
	ir->fs_dev = fs_dev;
	ir->ino = ino;
	if (hmap_add(&at->inodes, &ir->h)) {
		free(ir);
		at->err = -AN_E_NOMEM;
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
uint32_t attrib_fs_dev_of(struct attrib *at, uint32_t bdi, uint64_t ino)
{
	uint32_t first = 0;

	for (size_t i = 0; i < at->nbdi; i++) {
		if (at->bdi[i].bdi != bdi)
			continue;
		if (!first)
			first = at->bdi[i].fs;
		if (hmap_slot(&at->inodes, ikey(at->bdi[i].fs, ino)))
			return at->bdi[i].fs;
	}
	return first ? first : bdi;
}

static void inode_rekey(struct attrib *at, uint32_t from, uint32_t to);

/*
 * Put back an entry taken out of m: m has buckets, so this cannot fail
 * (hmap_add() fails only for a table without any).
 */
void attrib_readd(struct attrib *at, struct hmap *m, struct hnode *e)
{
	if (hmap_add(m, e))
		at->err = -AN_E_NOMEM;
}

void attrib_learn_bdi(struct attrib *at, uint32_t bdi, uint32_t fs)
{
	struct bdimap *v;

	if (!bdi || !fs || bdi == fs)
		return;

	for (size_t i = 0; i < at->nbdi; i++)
		if (at->bdi[i].bdi == bdi && at->bdi[i].fs == fs)
			return;
	v = an_push(&at->bdi, &at->nbdi, &at->abdi, sizeof(*at->bdi), 4);
	if (!v) {
		at->err = -AN_E_NOMEM;
		return;
	}
	v->bdi = bdi;
	v->fs = fs;
	inode_rekey(at, bdi, fs);
}

/* Move the inodes known only by bdi to the filesystem device. */
static void inode_rekey(struct attrib *at, uint32_t from, uint32_t to)
{
	struct inode_rec **v;
	size_t n = 0;

	/* how many move, so that the list of them is had before any does */
	for (size_t i = 0; i < at->inodes.cap; i++)
		for (struct hnode *x = at->inodes.b[i]; x; x = x->next)
			n += ((struct inode_rec *)x)->dev == from &&
			     !((struct inode_rec *)x)->fs_dev;
	if (!n)
		return;
	v = an_calloc(n, sizeof(*v));
	if (!v) {
		at->err = -AN_E_NOMEM;
		return;
	}
	n = 0;
	for (size_t i = 0; i < at->inodes.cap; i++) {
		struct hnode **pp = &at->inodes.b[i];

		while (*pp) {
			struct inode_rec *ir = (struct inode_rec *)*pp;

			if (ir->dev == from && !ir->fs_dev) {
				hmap_unlink(&at->inodes, pp);
				v[n++] = ir;
			} else {
				pp = &(*pp)->next;
			}
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct inode_rec *ir = v[i];
		struct hnode **pp = hmap_slot(&at->inodes, ikey(to, ir->ino));

		if (pp) {
			/* both known: keep the fs one, add the dirtiers */
			struct inode_rec *d = (struct inode_rec *)*pp;

			for (size_t j = 0; j < ir->nd; j++) {
				if (an_grow(&d->d, &d->dcap, d->nd + 1,
					    sizeof(*d->d), 2)) {
					at->err = -AN_E_NOMEM;
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
			attrib_readd(at, &at->inodes, &ir->h);
			continue;
		}
		ir->dev = to;
		ir->fs_dev = true;
		ir->h.key = ikey(to, ir->ino);
		attrib_readd(at, &at->inodes, &ir->h);
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
void attrib_inode_tie(struct attrib *at, struct inode_rec *ir, struct file *f,
		      bool strong)
{
	if (f && ir && (!f->tie || strong) && f->tie != ir) {
		f->tie = ir;	/* the file's own evidence: its name */
		f->tie_ts = at->now;
	}
	if (!f || !ir || ir->f == f)
		return;
	if (ir->f) {
		if (!strong)
			return;
		at->t.inode_retied++;
		ir->nd = 0;
	} else {
		at->t.inode_learned++;
	}
	ir->f = f;
}

void attrib_name_files(struct attrib *at)
{
	struct filetab *ft = at->ft;

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
