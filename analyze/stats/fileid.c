// SPDX-License-Identifier: MIT
/*
 * fileid.c - the identity of files (see fileid.h).
 */
#include "config.h"

#include <string.h>

#include "replay/fdtable.h"
#include "stats/fileid.h"

/* 0 known by dev:ino, 1 by path, 2 by neither */
static int kind(const struct file *f)
{
	return f->has_devino ? 0 : f->path ? 1 : 2;
}

static int cmp_ident(const struct file *x, const struct file *y)
{
	int kx = kind(x), ky = kind(y);

	if (kx != ky)
		return kx - ky;
	if (kx == 0) {
		if (x->major != y->major)
			return x->major < y->major ? -1 : 1;
		if (x->minor != y->minor)
			return x->minor < y->minor ? -1 : 1;
		if (x->ino != y->ino)
			return x->ino < y->ino ? -1 : 1;
		return 0;
	}
	if (kx == 1)
		return strcmp(x->path, y->path);
	/* by its label, "<unknown fd N of pid P>": the files a process had
	 * on one fd without a name are one row, not rows of one name */
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return (x->fd > y->fd) - (x->fd < y->fd);
}

int fileid_cmp(const struct file *x, const struct file *y)
{
	int c = cmp_ident(x, y);

	return c ? c : (x->id > y->id) - (x->id < y->id);
}

bool fileid_same(const struct file *x, const struct file *y)
{
	return cmp_ident(x, y) == 0;
}
