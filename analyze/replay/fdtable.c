// SPDX-License-Identifier: MIT
/*
 * fdtable.c - the recording's files (found by dev:ino or path, or
 * unnamed) and the per-process fd tables that point at them.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "replay/fdtable.h"

/* ------------------------------------------------------------------ */
/* Files */

/* Index entry: files by key "d MAJ MIN INO" or "p PATH", chained. */
struct fkey {
	char *key;
	struct file *f;
	struct fkey *next;
};

struct filetab {
	struct file **v;
	size_t n, alloc;
	struct fkey **idx;
	size_t idx_cap, idx_n;
	struct imap overflow;	/* pid -> its catch-all unnamed file */
	struct filetab_stats st;
};

/*
 * Past this many unnamed files (a recording of millions of opens with no
 * way to name them), a process's further unnamed files share one object,
 * so memory stays bounded.
 */
#define MAX_UNNAMED	65536

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ULL;
	return h;
}

static struct file *idx_get(const struct filetab *ft, const char *key)
{
	if (!ft->idx_cap)
		return NULL;
	for (struct fkey *k = ft->idx[hash_str(key) & (ft->idx_cap - 1)]; k;
	     k = k->next)
		if (!strcmp(k->key, key))
			return k->f;
	return NULL;
}

static void idx_put(struct filetab *ft, char *key, struct file *f)
{
	struct fkey *k;
	size_t h;

	if (ft->idx_n >= ft->idx_cap) {
		size_t cap = ft->idx_cap ? ft->idx_cap * 2 : 256;
		struct fkey **idx = xcalloc(cap, sizeof(*idx));

		for (size_t i = 0; i < ft->idx_cap; i++) {
			while ((k = ft->idx[i])) {
				ft->idx[i] = k->next;
				h = hash_str(k->key) & (cap - 1);
				k->next = idx[h];
				idx[h] = k;
			}
		}
		free(ft->idx);
		ft->idx = idx;
		ft->idx_cap = cap;
	}
	k = xmalloc(sizeof(*k));
	k->key = key;
	k->f = f;
	h = hash_str(key) & (ft->idx_cap - 1);
	k->next = ft->idx[h];
	ft->idx[h] = k;
	ft->idx_n++;
}

struct filetab *filetab_new(void)
{
	struct filetab *ft = xcalloc(1, sizeof(*ft));

	imap_init(&ft->overflow);
	return ft;
}

void filetab_free(struct filetab *ft, void (*free_user)(void *))
{
	if (!ft)
		return;
	for (size_t i = 0; i < ft->n; i++) {
		if (free_user)
			free_user(ft->v[i]->user);
		free(ft->v[i]->path);
		free(ft->v[i]);
	}
	for (size_t i = 0; i < ft->idx_cap; i++) {
		struct fkey *k, *next;

		for (k = ft->idx[i]; k; k = next) {
			next = k->next;
			free(k->key);
			free(k);
		}
	}
	free(ft->idx);
	imap_release(&ft->overflow);
	free(ft->v);
	free(ft);
}

static struct file *file_add(struct filetab *ft)
{
	struct file *f = xcalloc(1, sizeof(*f));

	if (ft->n == ft->alloc) {
		ft->alloc = ft->alloc ? ft->alloc * 2 : 64;
		ft->v = xrealloc(ft->v, sizeof(*ft->v) * ft->alloc);
	}
	f->id = (int)ft->n;
	f->fd = -1;
	ft->v[ft->n++] = f;
	ft->st.files++;
	return f;
}

struct file *filetab_devino(struct filetab *ft, unsigned int major,
			    unsigned int minor, uint64_t ino, const char *path)
{
	char *key = xasprintf("d %u %u %llu", major, minor,
			      (unsigned long long)ino);
	struct file *f = idx_get(ft, key);

	if (f) {
		free(key);
		if (!f->path && path && *path)
			f->path = xstrdup(path);
		return f;
	}
	f = file_add(ft);
	idx_put(ft, key, f);
	f->has_devino = true;
	f->major = major;
	f->minor = minor;
	f->ino = ino;
	if (path && *path)
		f->path = xstrdup(path);
	return f;
}

struct file *filetab_find_devino(struct filetab *ft, unsigned int major,
				 unsigned int minor, uint64_t ino)
{
	char key[80];

	snprintf(key, sizeof(key), "d %u %u %llu", major, minor,
		 (unsigned long long)ino);
	return idx_get(ft, key);
}

void filetab_set_devino(struct filetab *ft, struct file *f,
			unsigned int major, unsigned int minor, uint64_t ino)
{
	if (f->has_devino)
		return;
	f->has_devino = true;
	f->major = major;
	f->minor = minor;
	f->ino = ino;
	if (!filetab_find_devino(ft, major, minor, ino))
		idx_put(ft, xasprintf("d %u %u %llu", major, minor,
				      (unsigned long long)ino), f);
}

struct file *filetab_path(struct filetab *ft, const char *path)
{
	char *key = xasprintf("p %s", path);
	struct file *f = idx_get(ft, key);

	if (f) {
		free(key);
		return f;
	}
	f = file_add(ft);
	idx_put(ft, key, f);
	f->path = xstrdup(path);
	return f;
}

struct file *filetab_anon(struct filetab *ft, int pid, int fd, uint64_t ts)
{
	struct file *f;

	if (ft->st.unnamed >= MAX_UNNAMED) {
		f = imap_get(&ft->overflow, pid);
		if (f)
			return f;
		f = file_add(ft);
		f->pid = pid;
		f->fd = -1;
		imap_put(&ft->overflow, pid, f);
		return f;
	}
	f = file_add(ft);

	f->pid = pid;
	f->fd = fd;
	f->open_ts = ts;
	ft->st.unnamed++;
	return f;
}

void file_set_name(struct filetab *ft, struct file *f, const char *path,
		   bool has_devino, unsigned int major, unsigned int minor,
		   uint64_t ino)
{
	/* Named already, or the catch-all of many files: keep. */
	if (f->path || !path || !*path || (f->fd < 0 && !f->has_devino))
		return;
	f->path = xstrdup(path);
	if (has_devino && !f->has_devino) {
		f->has_devino = true;
		f->major = major;
		f->minor = minor;
		f->ino = ino;
	}
	ft->st.named_late++;
}

const char *file_name(const struct file *f)
{
	static char buf[64];

	if (f->path)
		return f->path;
	if (f->has_devino)
		snprintf(buf, sizeof(buf), "<dev %u:%u ino %" PRIu64 ">",
			 f->major, f->minor, f->ino);
	else if (f->fd < 0)
		snprintf(buf, sizeof(buf), "<more unknown files of pid %d>",
			 f->pid);
	else
		snprintf(buf, sizeof(buf), "<unknown fd %d of pid %d>", f->fd,
			 f->pid);
	return buf;
}

size_t filetab_count(const struct filetab *ft)
{
	return ft->n;
}

struct file *filetab_at(const struct filetab *ft, size_t i)
{
	return i < ft->n ? ft->v[i] : NULL;
}

const struct filetab_stats *filetab_stats(const struct filetab *ft)
{
	return &ft->st;
}

/* ------------------------------------------------------------------ */
/* fd tables: a map fd -> slot; slots hold file and flags */

struct fdslot {
	struct file *f;
	bool cloexec;
};

struct fdtable {
	struct imap map;	/* fd -> struct fdslot * */
};

struct fdtable *fdtable_new(void)
{
	struct fdtable *t = xcalloc(1, sizeof(*t));

	imap_init(&t->map);
	return t;
}

void fdtable_free(struct fdtable *t)
{
	size_t pos = 0;
	int fd;
	void *val;

	if (!t)
		return;
	while (imap_next(&t->map, &pos, &fd, &val))
		free(val);
	imap_release(&t->map);
	free(t);
}

struct fdtable *fdtable_copy(const struct fdtable *t)
{
	struct fdtable *c = fdtable_new();
	size_t pos = 0;
	int fd;
	void *val;

	while (imap_next(&t->map, &pos, &fd, &val)) {
		struct fdslot *s = xmalloc(sizeof(*s));

		*s = *(struct fdslot *)val;
		imap_put(&c->map, fd, s);
	}
	return c;
}

void fdtable_set(struct fdtable *t, int fd, struct file *f, bool cloexec)
{
	struct fdslot *s = xmalloc(sizeof(*s));

	s->f = f;
	s->cloexec = cloexec;
	free(imap_put(&t->map, fd, s));
}

struct file *fdtable_get(const struct fdtable *t, int fd)
{
	struct fdslot *s = imap_get(&t->map, fd);

	return s ? s->f : NULL;
}

int fdtable_close(struct fdtable *t, int fd)
{
	struct fdslot *s = imap_del(&t->map, fd);

	if (!s)
		return -1;
	free(s);
	return 0;
}

/* Collect the open fds in [lo, hi] (the map cannot change while walked). */
static int *fds_in_range(const struct fdtable *t, unsigned int lo,
			 unsigned int hi, int *n)
{
	size_t pos = 0;
	int fd, *v = NULL;
	void *val;

	*n = 0;
	while (imap_next(&t->map, &pos, &fd, &val)) {
		if (fd >= 0 && (unsigned int)fd >= lo && (unsigned int)fd <= hi) {
			v = xrealloc(v, sizeof(*v) * (*n + 1));
			v[(*n)++] = fd;
		}
	}
	return v;
}

void fdtable_close_range(struct fdtable *t, unsigned int lo, unsigned int hi,
			 bool cloexec_only)
{
	int n, *v = fds_in_range(t, lo, hi, &n);

	for (int i = 0; i < n; i++) {
		if (cloexec_only)
			fdtable_set_cloexec(t, v[i], true);
		else
			fdtable_close(t, v[i]);
	}
	free(v);
}

int fdtable_dup(struct fdtable *t, int oldfd, int newfd, bool cloexec)
{
	struct file *f = fdtable_get(t, oldfd);

	if (!f)
		return -1;
	if (oldfd != newfd)
		fdtable_set(t, newfd, f, cloexec);
	return 0;
}

void fdtable_set_cloexec(struct fdtable *t, int fd, bool cloexec)
{
	struct fdslot *s = imap_get(&t->map, fd);

	if (s)
		s->cloexec = cloexec;
}

int fdtable_exec(struct fdtable *t)
{
	size_t pos = 0;
	int fd, n = 0, k = 0, *v = NULL;
	void *val;

	while (imap_next(&t->map, &pos, &fd, &val)) {
		if (((struct fdslot *)val)->cloexec) {
			v = xrealloc(v, sizeof(*v) * (n + 1));
			v[n++] = fd;
		}
	}
	for (int i = 0; i < n; i++)
		k += !fdtable_close(t, v[i]);
	free(v);
	return k;
}

bool fdtable_next(const struct fdtable *t, size_t *pos, int *fd,
		  struct file **f)
{
	void *val;

	if (!imap_next(&t->map, pos, fd, &val))
		return false;
	*f = ((struct fdslot *)val)->f;
	return true;
}

size_t fdtable_size(const struct fdtable *t)
{
	return t->map.n;
}
