// SPDX-License-Identifier: MIT
/*
 * account.c - the syscall aggregates of processes and files (see
 * account.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "replay/fdtable.h"
#include "replay/proctable.h"
#include "stats/account.h"
#include "stats/filter.h"

_Static_assert(SK_NR < 256, "procstat.ki holds kind indexes in a byte");

const struct kstat kstat_none = { .lat = HIST_INIT };

/* The calls of kind k of ps, added when absent; NULL: no memory. */
static struct kstat *kind_add(struct procstat *ps, int k)
{
	if (!ps->ki[k]) {
		if (ps->nk == ps->kalloc) {
			size_t n = ps->kalloc ? 2u * ps->kalloc : 4;
			struct kstat *v;

			if (n > SK_NR)
				n = SK_NR;
			v = an_reallocarray(ps->kv, n, sizeof(*v));
			if (!v)
				return NULL;
			ps->kv = v;
			ps->kalloc = (uint8_t)n;
		}
		ps->kv[ps->nk] = kstat_none;
		ps->ki[k] = ++ps->nk;
	}
	return &ps->kv[ps->ki[k] - 1];
}

struct procstat *procstat_of(struct proc *p)
{
	if (!p->user)
		p->user = an_calloc(1, sizeof(struct procstat));
	return p->user;
}

struct filestat *filestat_of(struct file *f)
{
	if (!f->user)
		f->user = an_calloc(1, sizeof(struct filestat));
	return f->user;
}

#define FILEPROC_INDEX	16	/* cells past which a file indexes them */

/* The index holds the cells, the list owns them. */
static void cell_keep(struct hnode *n)
{
	(void)n;
}

static uint64_t cell_key(const struct proc *p)
{
	return hash_mix((uint64_t)(uintptr_t)p);
}

/* The cells of fs by process (a file every process opens, the C library
 * on a machine of thousands of short processes, made each new one scan
 * them all); 0 or -AN_E_NOMEM. */
static int cells_index(struct filestat *fs)
{
	fs->idx = an_calloc(1, sizeof(*fs->idx));
	if (!fs->idx)
		return -AN_E_NOMEM;
	for (struct fileproc *c = fs->procs; c; c = c->next) {
		if (hmap_add(fs->idx, &c->h)) {	/* h.key: set as made */
			hmap_release(fs->idx, cell_keep);
			free(fs->idx);
			fs->idx = NULL;
			return -AN_E_NOMEM;
		}
	}
	return 0;
}

struct fileproc *fileproc_of(struct filestat *fs, const struct proc *p)
{
	struct fileproc *c = fs->procs;

	if (c && c->p == p)
		return c;
	if (fs->idx) {
		uint64_t key = cell_key(p);
		struct hnode **pp = hmap_slot(fs->idx, key);

		for (c = NULL; pp && *pp && !c; pp = &(*pp)->next)
			if ((*pp)->key == key &&
			    ((struct fileproc *)*pp)->p == p)
				c = (struct fileproc *)*pp;
	} else {
		while (c && c->p != p)
			c = c->next;
	}
	if (c) {	/* to the front: the next call is likely its own */
		c->prev->next = c->next;
		if (c->next)
			c->next->prev = c->prev;
	} else {
		c = an_calloc(1, sizeof(*c));
		if (!c)
			return NULL;
		c->p = p;
		c->h.key = cell_key(p);
		if (fs->idx && hmap_add(fs->idx, &c->h)) {
			free(c);
			return NULL;
		}
		fs->nprocs++;
	}
	c->prev = NULL;
	c->next = fs->procs;
	if (c->next)
		c->next->prev = c;
	fs->procs = c;
	if (!fs->idx && fs->nprocs > FILEPROC_INDEX && cells_index(fs))
		return NULL;
	return c;
}

int fileproc_merge(struct filestat *d, const struct filestat *s)
{
	for (const struct fileproc *c = s->procs; c; c = c->next) {
		struct fileproc *x = fileproc_of(d, c->p);

		if (!x)
			return -AN_E_NOMEM;
		x->opens += c->opens;
		x->reads += c->reads;
		x->read_bytes += c->read_bytes;
		x->writes += c->writes;
		x->write_bytes += c->write_bytes;
		x->errors += c->errors;
		x->fsyncs += c->fsyncs;
		x->fsync_ns += c->fsync_ns;
		if (c->fsync_max_ns > x->fsync_max_ns)
			x->fsync_max_ns = c->fsync_max_ns;
	}
	return 0;
}

void fileproc_free(struct filestat *fs)
{
	struct fileproc *c = fs->procs;

	if (fs->idx) {
		hmap_release(fs->idx, cell_keep);
		free(fs->idx);
		fs->idx = NULL;
	}
	while (c) {
		struct fileproc *n = c->next;

		free(c);
		c = n;
	}
	fs->procs = NULL;
	fs->nprocs = 0;
}

/* The cell of p on fs, or NULL with the error set (no memory). */
static struct fileproc *fcell(struct account *a, struct filestat *fs,
			      const struct proc *p)
{
	struct fileproc *c = fileproc_of(fs, p);

	if (!c)
		a->err = -AN_E_NOMEM;
	return c;
}

/* A sample into h; without memory the accounting's error is set. */
static void lat_add(struct account *a, struct hist *h, uint64_t ns)
{
	if (hist_add(h, ns) < 0)
		a->err = -AN_E_NOMEM;
}

/* The filestat of f (NULL for no file), or NULL with the error set. */
static struct filestat *fstat(struct account *a, struct file *f)
{
	struct filestat *fs = f ? filestat_of(f) : NULL;

	if (f && !fs)
		a->err = -AN_E_NOMEM;
	return fs;
}

void blkio_add(struct blkio *d, const struct blkio *s)
{
	d->requests += s->requests;
	d->read_bytes += s->read_bytes;
	d->write_bytes += s->write_bytes;
	d->dev_ns += s->dev_ns;
	d->journal_bytes += s->journal_bytes;
}

void procstat_free(void *p)
{
	struct procstat *ps = p;

	if (!ps)
		return;
	for (int i = 0; i < ps->nk; i++)
		hist_release(&ps->kv[i].lat);
	free(ps->kv);
	hist_release(&ps->fsync);
	free(ps->shape);
	free(ps);
}

void filestat_free(void *p)
{
	struct filestat *fs = p;

	if (!fs)
		return;
	hist_release(&fs->rlat);
	hist_release(&fs->wlat);
	hist_release(&fs->fsync);
	fileproc_free(fs);
	free(fs);
}

/* The files a completed call reads, writes and syncs (NULL: none). */
struct call_files {
	struct file *rd, *wr, *sync;
};

/*
 * The files of a call's fds, made up where the fd is unknown: a call the
 * view filters out makes them too, so that what is tied to them later
 * (an inode, block I/O) is the same with and without the filter.
 */
static struct call_files call_files(struct account *a, struct proc *p,
				    const struct sys_call *c,
				    const struct sys_kind_info *ki)
{
	struct call_files f = { NULL, NULL, NULL };

	if (!c->paired)
		return f;
	if (ki->flags & SKF_READ)
		f.rd = fd_file(a->pt, p, (int)c->args[ki->fd_in]);
	if (ki->flags & SKF_WRITE)
		f.wr = fd_file(a->pt, p, (int)c->args[ki->fd_out]);
	if ((ki->flags & SKF_SYNC) && c->kind == SK_MSYNC)
		f.sync = fdtable_map_file(p->fds, c->args[0]);
	else if ((ki->flags & SKF_SYNC) && ki->fd_out >= 0 &&
		 c->kind != SK_SYNCFS)
		f.sync = fd_file(a->pt, p, (int)c->args[ki->fd_out]);
	return f;
}

void account_call(struct account *a, struct proc *p, const struct sys_call *c)
{
	const struct sys_kind_info *ki = sys_kind_info(c->kind);
	struct procstat *ps = procstat_of(p);
	struct kstat *ks;
	uint64_t lat = c->end - c->start, bytes = 0;
	struct filestat *fs;
	struct fileproc *fc;
	struct file *f, *before = NULL, *opened = NULL;
	struct call_files cfs;
	bool applied = false;	/* the fd table has the call's effects */
	int fd;

	if (!ps) {
		a->err = -AN_E_NOMEM;
		return;
	}
	/*
	 * a call the view filters out: only its effects on the fd table; the
	 * file of an open is the one it opens (the table after the call)
	 */
	if (a->filter) {
		int cfd = sys_call_fd(c);
		bool opens = p->fds && cfd >= 0 &&
			     (ki->flags & SKF_OPEN) && c->ret >= 0;
		struct file *cf;

		if (opens) {
			before = fdtable_get(p->fds, cfd);
			opened = fd_apply(a->pt, p, c);
			applied = true;
		}
		cf = cfd >= 0 && p->fds ? fdtable_get(p->fds, cfd) : NULL;
		if (!filter_call(a->filter, p, cf, c)) {
			if (p->fds && !applied) {
				call_files(a, p, c, ki);
				fd_apply(a->pt, p, c);
			}
			return;
		}
	}
	ks = kind_add(ps, c->kind);
	if (!ks) {
		a->err = -AN_E_NOMEM;
		return;
	}
	ks->count++;
	ps->calls++;
	if (c->ret < 0) {
		ks->errors++;
		ps->errors++;
	}
	if (c->paired)
		lat_add(a, &ks->lat, lat);
	else
		ks->unpaired++;
	if ((ki->flags & (SKF_READ | SKF_WRITE)) && c->ret > 0)
		bytes = (uint64_t)c->ret;
	ks->bytes += bytes;
	if (ki->flags & SKF_READ)
		ps->read_bytes += bytes;
	if (ki->flags & SKF_WRITE)
		ps->write_bytes += bytes;
	if ((ki->flags & SKF_FSYNC) && c->paired)
		lat_add(a, &ps->fsync, lat);

	if (!p->fds) {		/* a call after its process's exit event */
		if (a->on_call)
			a->on_call(a->on_call_arg, p, NULL, c);
		return;
	}
	cfs = call_files(a, p, c, ki);
	if (cfs.rd && (fs = fstat(a, cfs.rd))) {
		fs->reads++;
		fs->read_bytes += bytes;
		fs->errors += c->ret < 0;
		lat_add(a, &fs->rlat, lat);
		if ((fc = fcell(a, fs, p))) {
			fc->reads++;
			fc->read_bytes += bytes;
			fc->errors += c->ret < 0;
		}
	}
	if (cfs.wr && (fs = fstat(a, cfs.wr))) {
		fs->writes++;
		fs->write_bytes += bytes;
		fs->errors += c->ret < 0 && !(ki->flags & SKF_READ);
		lat_add(a, &fs->wlat, lat);
		if ((fc = fcell(a, fs, p))) {
			fc->writes++;
			fc->write_bytes += bytes;
			fc->errors += c->ret < 0 && !(ki->flags & SKF_READ);
		}
	}
	if (cfs.sync && (fs = fstat(a, cfs.sync))) {
		fs->errors += c->ret < 0;
		lat_add(a, &fs->fsync, lat);
		if ((fc = fcell(a, fs, p))) {
			fc->errors += c->ret < 0;
			fc->fsyncs++;
			fc->fsync_ns += lat;
			if (lat > fc->fsync_max_ns)
				fc->fsync_max_ns = lat;
		}
		fs->n_fsync += c->kind == SK_FSYNC ||
			       c->kind == SK_URING_FSYNC ||
			       c->kind == SK_AIO_FSYNC;
		fs->n_fdatasync += c->kind == SK_FDATASYNC;
		fs->n_sfr += c->kind == SK_SYNC_FILE_RANGE;
	}
	if (!a->on_call) {
		if (!applied)
			opened = fd_apply(a->pt, p, c);
		if (opened && (fs = fstat(a, opened)) &&
		    (fc = fcell(a, fs, p))) {
			fs->opens++;
			fc->opens++;
		}
		return;
	}
	/* the file before the call's effects (a close), else after (an open) */
	fd = sys_call_fd(c);
	if (!applied) {
		before = fd >= 0 ? fdtable_get(p->fds, fd) : NULL;
		opened = fd_apply(a->pt, p, c);
	}
	if (opened && (fs = fstat(a, opened)) && (fc = fcell(a, fs, p))) {
		fs->opens++;
		fc->opens++;
	}
	/* the table changed only for an open, close or dup */
	f = fd >= 0 && p->fds && fd_changes(c) ? fdtable_get(p->fds, fd) :
	    before;
	a->on_call(a->on_call_arg, p, f ? f : before, c);
}

void account_end(struct account *a)
{
	for (size_t i = 0; i < filetab_count(a->ft); i++) {
		struct file *f = filetab_at(a->ft, i);
		struct filestat *fs = f->user;

		if (!fs)
			continue;
		if (f->path) {
			a->st.named_calls += fs->reads + fs->writes;
			a->st.named_bytes += fs->read_bytes + fs->write_bytes;
		} else {
			a->st.unnamed_calls += fs->reads + fs->writes;
			a->st.unnamed_bytes += fs->read_bytes + fs->write_bytes;
		}
	}
}
