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
#include "base/blk.h"
#include "base/err.h"
#include "base/hmap.h"
#include "base/imap.h"
#include "replay/fdtable.h"

/* ------------------------------------------------------------------ */
/* Files */

/* Index entry: files by key "d MAJ MIN INO" or "p PATH" (hnode.key: its hash). */
struct fkey {
	struct hnode h;
	char *key;
	struct file *f;
};

struct filetab {
	struct file **v;
	size_t n, alloc;
	struct hmap idx;	/* struct fkey */
	struct hmap hints;	/* struct ihint: names of inodes */
	struct imap overflow;	/* pid -> its catch-all unnamed file */
	struct filetab_stats st;
	struct file spare;	/* handed out when a file cannot be made */
	int err;		/* sticky: -AN_E_NOMEM */
};

/*
 * Past this many unnamed files (a recording of millions of opens with no
 * way to name them), a process's further unnamed files share one object,
 * so memory stays bounded.
 */
#define MAX_UNNAMED	65536

/* A new path for f (or NULL): what users derived from the old one goes. */
static void set_path(struct file *f, char *path)
{
	free(f->host_path);
	f->host_path = NULL;
	f->path = path;
	f->path_class = 0;
}

/* The link to key's entry, or NULL. */
static struct hnode **idx_find(const struct filetab *ft, const char *key)
{
	uint64_t h = hash_str(HASH_SEED, key);
	struct hnode **pp = hmap_slot(&ft->idx, h);

	for (; pp && *pp; pp = &(*pp)->next)
		if ((*pp)->key == h && !strcmp(((struct fkey *)*pp)->key, key))
			return pp;
	return NULL;
}

static struct file *idx_get(const struct filetab *ft, const char *key)
{
	struct hnode **pp = idx_find(ft, key);

	return pp ? ((struct fkey *)*pp)->f : NULL;
}

/* Index f by key (taken: freed here when it cannot be kept). */
static void idx_put(struct filetab *ft, char *key, struct file *f)
{
	struct fkey *k = key ? hmap_add_new(&ft->idx, hash_str(HASH_SEED, key),
					    sizeof(*k)) : NULL;

	if (!k) {
		ft->err = -AN_E_NOMEM;
		free(key);
		return;
	}
	k->key = key;
	k->f = f;
}

static void fkey_free(struct hnode *n)
{
	free(((struct fkey *)n)->key);
	free(n);
}

/* Remove key from the index (if it is there). */
static void idx_del(struct filetab *ft, const char *key)
{
	struct hnode **pp = idx_find(ft, key);
	struct hnode *n;

	if (!pp)
		return;
	n = *pp;
	hmap_unlink(&ft->idx, pp);
	fkey_free(n);
}

/* A copy of s, or NULL with the table's error set. */
static char *dup_str(struct filetab *ft, const char *s)
{
	char *c = an_strdup(s);

	if (!c)
		ft->err = -AN_E_NOMEM;
	return c;
}

struct filetab *filetab_new(void)
{
	struct filetab *ft = an_calloc(1, sizeof(*ft));

	if (!ft)
		return NULL;
	imap_init(&ft->overflow);
	ft->spare.id = -1;
	ft->spare.fd = -1;
	return ft;
}

int filetab_error(const struct filetab *ft)
{
	return ft->err;
}

struct ihint {
	struct hnode h;
	unsigned int major, minor;
	uint64_t ino;
	uint64_t born;		/* reused: the path's file's birth */
	bool unlinked, gone;
	char path[];
};

static void ihint_free(struct hnode *n)
{
	free(n);
}

static uint64_t ihint_key(unsigned int major, unsigned int minor,
			  uint64_t ino)
{
	return hash_mix(ino ^ ((uint64_t)major << 52) ^
			((uint64_t)minor << 32));
}

static const struct ihint *ihint_get(const struct filetab *ft,
				     unsigned int major, unsigned int minor,
				     uint64_t ino)
{
	struct hnode **pp = hmap_slot(&ft->hints,
				      ihint_key(major, minor, ino));

	for (; pp && *pp; pp = &(*pp)->next) {
		const struct ihint *h = (const struct ihint *)*pp;

		if (h->major == major && h->minor == minor && h->ino == ino)
			return h;
	}
	return NULL;
}

void filetab_inode_hint(struct filetab *ft, unsigned int major,
			unsigned int minor, uint64_t ino, const char *path,
			bool unlinked, bool gone, uint64_t born)
{
	size_t len = strlen(path);
	struct ihint *h;

	if (!ino || (!*path && !gone) || ihint_get(ft, major, minor, ino))
		return;
	h = an_calloc(1, sizeof(*h) + len + 1);
	if (!h) {
		ft->err = -AN_E_NOMEM;
		return;
	}
	h->h.key = ihint_key(major, minor, ino);
	h->major = major;
	h->minor = minor;
	h->ino = ino;
	h->unlinked = unlinked || gone;
	h->gone = gone;
	h->born = gone ? 0 : born;
	memcpy(h->path, path, len + 1);
	if (hmap_add(&ft->hints, &h->h)) {
		free(h);
		ft->err = -AN_E_NOMEM;
		return;
	}
	ft->st.inode_hints++;
}

const char *filetab_inode_name(const struct filetab *ft, unsigned int major,
			       unsigned int minor, uint64_t ino,
			       bool *unlinked)
{
	const struct ihint *h = ihint_get(ft, major, minor, ino);

	if (unlinked)
		*unlinked = h && h->unlinked && !h->born;
	return h && !h->gone && !h->born ? h->path : NULL;
}

bool file_name_by_inode(struct filetab *ft, struct file *f,
			unsigned int major, unsigned int minor, uint64_t ino,
			uint64_t born, uint64_t holder)
{
	const struct ihint *h = ihint_get(ft, major, minor, ino);
	bool unlinked = h && h->unlinked;
	const char *path = h && !h->gone ? h->path : NULL;

	if (f->path || f == &ft->spare || (f->fd < 0 && !f->has_devino))
		return false;
	if (!born && h && h->born)
		born = holder > h->born ? holder : h->born;
	if (born && f->tie_ts < born) {
		/*
		 * its number was given to a file born after: f was deleted,
		 * and dev:ino is not its identity (the views would make it
		 * one row with the new file's)
		 */
		f->unlinked = true;
		return false;
	}
	if (!path) {
		if (unlinked && !f->has_devino) {	/* gone */
			f->unlinked = true;
			f->has_devino = true;
			f->major = major;
			f->minor = minor;
			f->ino = ino;
		}
		return false;
	}
	file_set_name(ft, f, path, false, 0, 0, 0);
	if (!f->path)
		return false;
	if (unlinked)
		f->unlinked = true;
	ft->st.named_inode++;
	return true;
}

void filetab_free(struct filetab *ft, void (*free_user)(void *))
{
	if (!ft)
		return;
	for (size_t i = 0; i < ft->n; i++) {
		if (free_user)
			free_user(ft->v[i]->user);
		free(ft->v[i]->path);
		free(ft->v[i]->host_path);
		free(ft->v[i]->names);
		free(ft->v[i]);
	}
	hmap_release(&ft->idx, fkey_free);
	hmap_release(&ft->hints, ihint_free);
	imap_release(&ft->overflow);
	free(ft->v);
	if (free_user)
		free_user(ft->spare.user);
	free(ft->spare.path);
	free(ft->spare.host_path);
	free(ft);
}

/* A new file, or the spare one with the error set (never NULL). */
static struct file *file_add(struct filetab *ft)
{
	struct file *f;

	if (an_grow(&ft->v, &ft->alloc, ft->n + 1, sizeof(*ft->v), 64) ||
	    !(f = an_calloc(1, sizeof(*f)))) {
		ft->err = -AN_E_NOMEM;
		return &ft->spare;
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
	char key[80];
	struct file *f;

	snprintf(key, sizeof(key), "d %u %u %llu", major, minor,
		 (unsigned long long)ino);
	f = idx_get(ft, key);
	if (f) {
		if (!f->path && path && *path)
			set_path(f, dup_str(ft, path));
		return f;
	}
	f = file_add(ft);
	if (f == &ft->spare)
		return f;
	idx_put(ft, dup_str(ft, key), f);
	f->has_devino = true;
	f->major = major;
	f->minor = minor;
	f->ino = ino;
	if (path && *path)
		set_path(f, dup_str(ft, path));
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
	if (f->has_devino || f == &ft->spare)
		return;
	f->has_devino = true;
	f->major = major;
	f->minor = minor;
	f->ino = ino;
	if (!filetab_find_devino(ft, major, minor, ino))
		idx_put(ft, an_asprintf("d %u %u %llu", major, minor,
					(unsigned long long)ino), f);
}

struct file *filetab_path(struct filetab *ft, const char *path)
{
	char *key = an_asprintf("p %s", path);
	struct file *f = key ? idx_get(ft, key) : NULL;

	if (f || !key) {
		if (!key)
			ft->err = -AN_E_NOMEM;
		free(key);
		return f ? f : &ft->spare;
	}
	f = file_add(ft);
	if (f == &ft->spare) {
		free(key);
		return f;
	}
	idx_put(ft, key, f);
	set_path(f, dup_str(ft, path));
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
		if (f == &ft->spare)
			return f;
		f->pid = pid;
		f->fd = -1;
		if (imap_put(&ft->overflow, pid, f, NULL))
			ft->err = -AN_E_NOMEM;
		return f;
	}
	f = file_add(ft);
	if (f == &ft->spare)
		return f;

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
	if (f->path || !path || !*path || (f->fd < 0 && !f->has_devino) ||
	    f == &ft->spare)
		return;
	set_path(f, dup_str(ft, path));
	if (!f->path)
		return;
	if (has_devino && !f->has_devino) {
		f->has_devino = true;
		f->major = major;
		f->minor = minor;
		f->ino = ino;
	}
	ft->st.named_late++;
}

struct file *filetab_find_path(struct filetab *ft, const char *path)
{
	char *key = an_asprintf("p %s", path);
	struct file *f;

	if (!key) {
		ft->err = -AN_E_NOMEM;
		return NULL;
	}
	f = idx_get(ft, key);
	free(key);
	return f;
}

/* Add "how name" to f's other names (once). */
static void add_name(struct filetab *ft, struct file *f, const char *how,
		     const char *name)
{
	char *item = an_asprintf("%s %s", how, name), *s;

	if (!item) {
		ft->err = -AN_E_NOMEM;
		return;
	}
	if (f->names && (s = strstr(f->names, item)) &&
	    (s == f->names || s[-1] == ',') &&
	    (!s[strlen(item)] || s[strlen(item)] == ',')) {
		free(item);
		return;
	}
	s = f->names ? an_asprintf("%s,%s", f->names, item) : item;
	if (!s) {
		ft->err = -AN_E_NOMEM;
		free(item);
		return;
	}
	if (s != item)
		free(item);
	free(f->names);
	f->names = s;
}

void file_set_host_path(struct filetab *ft, struct file *f, const char *host)
{
	if (f->host_path || (f->path && !strcmp(f->path, host)))
		return;
	f->host_path = an_strdup(host);
	if (!f->host_path) {
		ft->err = -AN_E_NOMEM;
		return;
	}
	add_name(ft, f, "host path", host);
}

/* Index f under path ("p PATH"), taking it from whoever had it. */
static void take_path(struct filetab *ft, struct file *f, const char *path)
{
	char *key = an_asprintf("p %s", path);

	if (!key) {
		ft->err = -AN_E_NOMEM;
		return;
	}
	idx_del(ft, key);
	idx_put(ft, key, f);
}

/* Drop f's path from the index (when it is f's). */
static void drop_path(struct filetab *ft, struct file *f)
{
	char *key;

	if (!f->path || filetab_find_path(ft, f->path) != f)
		return;
	key = an_asprintf("p %s", f->path);
	if (!key) {
		ft->err = -AN_E_NOMEM;
		return;
	}
	idx_del(ft, key);
	free(key);
}

void file_rename(struct filetab *ft, struct file *f, const char *newpath)
{
	char *p;

	if (f == &ft->spare || !f->path || !strcmp(f->path, newpath))
		return;
	p = dup_str(ft, newpath);
	if (!p)
		return;
	drop_path(ft, f);
	take_path(ft, f, newpath);
	add_name(ft, f, "written as", f->path);
	free(f->path);
	set_path(f, p);
	f->unlinked = false;
}

void file_exchange(struct filetab *ft, struct file *a, struct file *b)
{
	char *t;

	if (a == b || a == &ft->spare || b == &ft->spare || !a->path ||
	    !b->path)
		return;
	take_path(ft, b, a->path);
	take_path(ft, a, b->path);
	add_name(ft, a, "written as", a->path);
	add_name(ft, b, "written as", b->path);
	t = a->path;
	set_path(a, b->path);
	set_path(b, t);
}

void file_unlink(struct filetab *ft, struct file *f)
{
	if (f == &ft->spare || !f->path)
		return;
	drop_path(ft, f);
	f->unlinked = true;
}

void file_link(struct filetab *ft, struct file *f, const char *newpath)
{
	if (f == &ft->spare || !f->path)
		return;
	take_path(ft, f, newpath);
	add_name(ft, f, "linked as", newpath);
}

const char *file_devino_name(uint32_t dev, uint64_t ino, char *buf, size_t n)
{
	char mm[BLK_DEV_STRLEN];

	snprintf(buf, n, "<dev %s ino %" PRIu64 ">",
		 blk_dev_str(dev, mm, sizeof(mm)), ino);
	return buf;
}

const char *file_name(const struct file *f)
{
	static char buf[64];

	if (f->path)
		return f->path;
	if (f->has_devino)
		file_devino_name(blk_mkdev(f->major, f->minor), f->ino, buf,
				 sizeof(buf));
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

struct fdmap {
	uint64_t start, end;	/* [start, end) */
	struct file *f;
};

struct fdtable {
	struct imap map;	/* fd -> struct fdslot * */
	struct fdmap *maps;	/* shared file mappings, unordered */
	size_t nmaps, mcap;
};

struct fdtable *fdtable_new(void)
{
	struct fdtable *t = an_calloc(1, sizeof(*t));

	if (t)
		imap_init(&t->map);
	return t;
}

void fdtable_free(struct fdtable *t)
{
	if (!t)
		return;
	imap_release_all(&t->map, NULL);
	free(t->maps);
	free(t);
}

struct fdtable *fdtable_copy(const struct fdtable *t)
{
	struct fdtable *c = fdtable_new();
	size_t pos = 0;
	int fd;
	void *val;

	while (c && imap_next(&t->map, &pos, &fd, &val)) {
		struct fdslot *s = malloc(sizeof(*s));

		if (!s || imap_put(&c->map, fd, s, NULL)) {
			free(s);
			fdtable_free(c);
			return NULL;
		}
		*s = *(struct fdslot *)val;
	}
	if (c && t->nmaps) {
		c->maps = an_calloc(t->nmaps, sizeof(*c->maps));
		if (!c->maps) {
			fdtable_free(c);
			return NULL;
		}
		memcpy(c->maps, t->maps, t->nmaps * sizeof(*c->maps));
		c->nmaps = c->mcap = t->nmaps;
	}
	return c;
}

int fdtable_set(struct fdtable *t, int fd, struct file *f, bool cloexec)
{
	struct fdslot *s;
	void *old;

	if (!t)
		return -AN_E_NOMEM;
	s = malloc(sizeof(*s));
	if (!s || imap_put(&t->map, fd, s, &old)) {
		free(s);
		return -AN_E_NOMEM;
	}
	s->f = f;
	s->cloexec = cloexec;
	free(old);
	return 0;
}

struct file *fdtable_get(const struct fdtable *t, int fd)
{
	struct fdslot *s = t ? imap_get(&t->map, fd) : NULL;

	return s ? s->f : NULL;
}

int fdtable_close(struct fdtable *t, int fd)
{
	struct fdslot *s = t ? imap_del(&t->map, fd) : NULL;

	if (!s)
		return -1;
	free(s);
	return 0;
}

/*
 * Close the fds of t that match: collected a batch at a time (the map
 * cannot change while walked), so no memory is needed.  Returns how many.
 */
static int close_matching(struct fdtable *t, bool (*match)(int fd,
		const struct fdslot *s, const void *arg), const void *arg)
{
	int batch[64], n, k = 0;
	size_t pos;
	int fd;
	void *val;

	do {
		n = 0;
		pos = 0;
		while (n < (int)ARRAY_SIZE(batch) &&
		       imap_next(&t->map, &pos, &fd, &val))
			if (match(fd, val, arg))
				batch[n++] = fd;
		for (int i = 0; i < n; i++)
			k += !fdtable_close(t, batch[i]);
	} while (n == (int)ARRAY_SIZE(batch));
	return k;
}

struct fd_range {
	unsigned int lo, hi;
};

static bool in_range(int fd, const struct fdslot *s, const void *arg)
{
	const struct fd_range *r = arg;

	(void)s;
	return fd >= 0 && (unsigned int)fd >= r->lo && (unsigned int)fd <= r->hi;
}

void fdtable_close_range(struct fdtable *t, unsigned int lo, unsigned int hi,
			 bool cloexec_only)
{
	struct fd_range r = { lo, hi };
	size_t pos = 0;
	int fd;
	void *val;

	if (!t)
		return;
	if (!cloexec_only) {
		close_matching(t, in_range, &r);
		return;
	}
	while (imap_next(&t->map, &pos, &fd, &val))
		if (in_range(fd, val, &r))
			((struct fdslot *)val)->cloexec = true;
}

int fdtable_dup(struct fdtable *t, int oldfd, int newfd, bool cloexec)
{
	struct file *f = fdtable_get(t, oldfd);

	if (!f)
		return -1;
	if (oldfd != newfd && fdtable_set(t, newfd, f, cloexec))
		return -AN_E_NOMEM;
	return 0;
}

void fdtable_set_cloexec(struct fdtable *t, int fd, bool cloexec)
{
	struct fdslot *s = t ? imap_get(&t->map, fd) : NULL;

	if (s)
		s->cloexec = cloexec;
}

static bool is_cloexec(int fd, const struct fdslot *s, const void *arg)
{
	(void)fd;
	(void)arg;
	return s->cloexec;
}

int fdtable_exec(struct fdtable *t)
{
	if (!t)
		return 0;
	t->nmaps = 0;		/* a new program has no mappings */
	return close_matching(t, is_cloexec, NULL);
}

void fdtable_unmap(struct fdtable *t, uint64_t start, uint64_t len)
{
	uint64_t end = start + len;
	size_t n0, n = 0;

	if (!t || !len)
		return;
	n0 = t->nmaps;
	for (size_t i = 0; i < n0; i++) {
		struct fdmap *m = &t->maps[i];

		if (m->end <= start || m->start >= end)
			continue;
		if (m->start < start && m->end > end) {
			/* a hole: the tail is a mapping of its own */
			struct fdmap tail = { end, m->end, m->f };

			m->end = start;
			if (!an_grow(&t->maps, &t->mcap, t->nmaps + 1,
				     sizeof(*t->maps), 4))
				t->maps[t->nmaps++] = tail;
			continue;
		}
		if (m->start < start)
			m->end = start;
		else if (m->end > end)
			m->start = end;
		else
			m->end = m->start;	/* all of it: dropped below */
	}
	for (size_t i = 0; i < t->nmaps; i++)
		if (t->maps[i].end > t->maps[i].start)
			t->maps[n++] = t->maps[i];
	t->nmaps = n;
}

int fdtable_map(struct fdtable *t, uint64_t start, uint64_t len,
		struct file *f)
{
	if (!t || !len)
		return 0;
	fdtable_unmap(t, start, len);
	if (an_grow(&t->maps, &t->mcap, t->nmaps + 1, sizeof(*t->maps), 4))
		return -AN_E_NOMEM;
	t->maps[t->nmaps++] = (struct fdmap){ start, start + len, f };
	return 0;
}

struct file *fdtable_map_file(const struct fdtable *t, uint64_t addr)
{
	for (size_t i = 0; t && i < t->nmaps; i++)
		if (addr >= t->maps[i].start && addr < t->maps[i].end)
			return t->maps[i].f;
	return NULL;
}

struct file *fdtable_map_of_inode(const struct fdtable *t, uint32_t dev,
				  uint64_t ino)
{
	struct file *unknown = NULL;

	for (size_t i = 0; t && i < t->nmaps; i++) {
		struct file *f = t->maps[i].f;

		if (f->has_devino) {
			if (f->ino == ino &&
			    (!dev || (f->major == blk_major(dev) &&
				      f->minor == blk_minor(dev))))
				return f;
		} else if (unknown && unknown != f) {
			return NULL;	/* two candidates */
		} else {
			unknown = f;
		}
	}
	return unknown;
}

bool fdtable_next(const struct fdtable *t, size_t *pos, int *fd,
		  struct file **f)
{
	void *val;

	if (!t || !imap_next(&t->map, pos, fd, &val))
		return false;
	*f = ((struct fdslot *)val)->f;
	return true;
}

size_t fdtable_size(const struct fdtable *t)
{
	return t ? t->map.n : 0;
}
