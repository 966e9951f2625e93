// SPDX-License-Identifier: MIT
/*
 * sysreplay.c - the syscall kinds ioreport replays, the enter -> exit
 * pairing per thread and the aggregates' release functions.
 */
#include "config.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "replay/syscall.h"

/* ------------------------------------------------------------------ */
/* imap */

static size_t imap_hash(int key, size_t cap)
{
	uint32_t h = (uint32_t)key * 2654435761u;

	return (size_t)(h ^ (h >> 16)) & (cap - 1);
}

void imap_init(struct imap *m)
{
	memset(m, 0, sizeof(*m));
}

void imap_release(struct imap *m)
{
	free(m->keys);
	free(m->vals);
	imap_init(m);
}

static size_t imap_find(const struct imap *m, int key)
{
	size_t i = imap_hash(key, m->cap);

	while (m->vals[i] && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	return i;
}

void *imap_get(const struct imap *m, int key)
{
	if (!m->n)
		return NULL;
	return m->vals[imap_find(m, key)];
}

static void imap_grow(struct imap *m)
{
	struct imap old = *m;

	m->cap = old.cap ? old.cap * 2 : 16;
	m->n = 0;
	m->keys = xcalloc(m->cap, sizeof(*m->keys));
	m->vals = xcalloc(m->cap, sizeof(*m->vals));
	for (size_t i = 0; i < old.cap; i++)
		if (old.vals[i])
			imap_put(m, old.keys[i], old.vals[i]);
	free(old.keys);
	free(old.vals);
}

void *imap_put(struct imap *m, int key, void *val)
{
	size_t i;
	void *prev;

	assert(val);
	if ((m->n + 1) * 4 > m->cap * 3)
		imap_grow(m);
	i = imap_find(m, key);
	prev = m->vals[i];
	m->keys[i] = key;
	m->vals[i] = val;
	if (!prev)
		m->n++;
	return prev;
}

void *imap_del(struct imap *m, int key)
{
	size_t i, j, k;
	void *val;

	if (!m->n)
		return NULL;
	i = imap_find(m, key);
	val = m->vals[i];
	if (!val)
		return NULL;
	m->vals[i] = NULL;
	m->n--;
	/* Backward-shift: move later entries of the probe run into the hole. */
	j = i;
	for (;;) {
		j = (j + 1) & (m->cap - 1);
		if (!m->vals[j])
			break;
		k = imap_hash(m->keys[j], m->cap);
		/* Entry j may move to i if its home k is not in (i, j]. */
		if ((j > i && (k <= i || k > j)) || (j < i && (k <= i && k > j))) {
			m->keys[i] = m->keys[j];
			m->vals[i] = m->vals[j];
			m->vals[j] = NULL;
			i = j;
		}
	}
	return val;
}

bool imap_next(const struct imap *m, size_t *pos, int *key, void **val)
{
	for (; *pos < m->cap; (*pos)++) {
		if (m->vals[*pos]) {
			*key = m->keys[*pos];
			*val = m->vals[*pos];
			(*pos)++;
			return true;
		}
	}
	return false;
}

void idtab_build(struct idtab *t, const struct imap *m)
{
	size_t pos = 0;
	int key, max = -1;
	void *val;

	while (imap_next(m, &pos, &key, &val))
		if (key >= 0 && key < IDTAB_MAX && key > max)
			max = key;
	t->n = max + 1;
	t->v = xcalloc(t->n ? (size_t)t->n : 1, sizeof(*t->v));
	pos = 0;
	while (imap_next(m, &pos, &key, &val))
		if (key >= 0 && key < IDTAB_MAX)
			t->v[key] = val;
}

void idtab_release(struct idtab *t)
{
	free(t->v);
	t->v = NULL;
	t->n = 0;
}

/* ------------------------------------------------------------------ */
/* Kinds */

#define RD	SKF_READ
#define WR	SKF_WRITE

static const struct sys_kind_info kinds[SK_NR] = {
	[SK_NONE]	= { "none", 0, -1, -1, -1, -1, { NULL } },
	[SK_READ]	= { "read", RD, 0, -1, -1, -1, { "fd", "buf", "count" } },
	[SK_WRITE]	= { "write", WR, -1, 0, -1, -1, { "fd", "buf", "count" } },
	[SK_PREAD64]	= { "pread64", RD, 0, -1, -1, -1, { "fd", "buf", "count", "pos" } },
	[SK_PWRITE64]	= { "pwrite64", WR, -1, 0, -1, -1, { "fd", "buf", "count", "pos" } },
	[SK_READV]	= { "readv", RD, 0, -1, -1, -1, { "fd", "vec", "vlen" } },
	[SK_WRITEV]	= { "writev", WR, -1, 0, -1, -1, { "fd", "vec", "vlen" } },
	[SK_PREADV]	= { "preadv", RD, 0, -1, -1, -1, { "fd", "vec", "vlen", "pos_l", "pos_h" } },
	[SK_PWRITEV]	= { "pwritev", WR, -1, 0, -1, -1, { "fd", "vec", "vlen", "pos_l", "pos_h" } },
	[SK_PREADV2]	= { "preadv2", RD, 0, -1, -1, -1, { "fd", "vec", "vlen", "pos_l", "pos_h", "flags" } },
	[SK_PWRITEV2]	= { "pwritev2", WR, -1, 0, -1, -1, { "fd", "vec", "vlen", "pos_l", "pos_h", "flags" } },
	[SK_FSYNC]	= { "fsync", SKF_SYNC | SKF_FSYNC, -1, 0, -1, -1, { "fd" } },
	[SK_FDATASYNC]	= { "fdatasync", SKF_SYNC | SKF_FSYNC, -1, 0, -1, -1, { "fd" } },
	[SK_SYNC_FILE_RANGE] = { "sync_file_range", SKF_SYNC, -1, 0, -1, -1, { "fd", "offset", "nbytes", "flags" } },
	[SK_SYNC]	= { "sync", SKF_SYNC, -1, -1, -1, -1, { NULL } },
	[SK_SYNCFS]	= { "syncfs", SKF_SYNC, -1, 0, -1, -1, { "fd" } },
	[SK_OPEN]	= { "open", SKF_OPEN, -1, -1, 0, 1, { "filename", "flags", "mode" } },
	[SK_OPENAT]	= { "openat", SKF_OPEN, -1, -1, 1, 2, { "dfd", "filename", "flags", "mode" } },
	[SK_OPENAT2]	= { "openat2", SKF_OPEN, -1, -1, 1, -1, { "dfd", "filename", "how", "usize" } },
	[SK_CREAT]	= { "creat", SKF_OPEN, -1, -1, 0, -1, { "pathname", "mode" } },
	[SK_CLOSE]	= { "close", SKF_CLOSE, -1, -1, -1, -1, { "fd" } },
	[SK_CLOSE_RANGE] = { "close_range", SKF_CLOSE, -1, -1, -1, -1, { "fd", "max_fd", "flags" } },
	[SK_DUP]	= { "dup", SKF_DUP, -1, -1, -1, -1, { "fildes" } },
	[SK_DUP2]	= { "dup2", SKF_DUP, -1, -1, -1, -1, { "oldfd", "newfd" } },
	[SK_DUP3]	= { "dup3", SKF_DUP, -1, -1, -1, -1, { "oldfd", "newfd", "flags" } },
	[SK_FCNTL]	= { "fcntl", SKF_DUP, -1, -1, -1, -1, { "fd", "cmd", "arg" } },
	[SK_RENAME]	= { "rename", SKF_META, -1, -1, -1, -1, { "oldname", "newname" } },
	[SK_RENAMEAT]	= { "renameat", SKF_META, -1, -1, -1, -1, { "olddfd", "oldname", "newdfd", "newname" } },
	[SK_RENAMEAT2]	= { "renameat2", SKF_META, -1, -1, -1, -1, { "olddfd", "oldname", "newdfd", "newname", "flags" } },
	[SK_UNLINK]	= { "unlink", SKF_META, -1, -1, -1, -1, { "pathname" } },
	[SK_UNLINKAT]	= { "unlinkat", SKF_META, -1, -1, -1, -1, { "dfd", "pathname", "flag" } },
	[SK_FTRUNCATE]	= { "ftruncate", SKF_META, -1, 0, -1, -1, { "fd", "length" } },
	[SK_FALLOCATE]	= { "fallocate", SKF_META, -1, 0, -1, -1, { "fd", "mode", "offset", "len" } },
	[SK_SENDFILE]	= { "sendfile64", RD | WR, 1, 0, -1, -1, { "out_fd", "in_fd", "offset", "count" } },
	[SK_COPY_FILE_RANGE] = { "copy_file_range", RD | WR, 0, 2, -1, -1, { "fd_in", "off_in", "fd_out", "off_out", "len", "flags" } },
};

#undef RD
#undef WR

/* Other names of the same calls in the syscall tables of various arches. */
static const struct {
	const char *name;
	enum sys_kind kind;
} aliases[] = {
	{ "sendfile", SK_SENDFILE },
	{ "pread", SK_PREAD64 },
	{ "pwrite", SK_PWRITE64 },
	{ "fcntl64", SK_FCNTL },
	{ "ftruncate64", SK_FTRUNCATE },
	{ "arm_sync_file_range", SK_SYNC_FILE_RANGE },
	{ "sync_file_range2", SK_SYNC_FILE_RANGE },
};

const struct sys_kind_info *sys_kind_info(enum sys_kind k)
{
	if ((int)k < 0 || k >= SK_NR)
		k = SK_NONE;
	return &kinds[k];
}

enum sys_kind sys_kind_lookup(const char *name)
{
	if (!name)
		return SK_NONE;
	for (int k = 1; k < SK_NR; k++)
		if (!strcmp(kinds[k].name, name))
			return k;
	for (size_t i = 0; i < ARRAY_SIZE(aliases); i++)
		if (!strcmp(aliases[i].name, name))
			return aliases[i].kind;
	return SK_NONE;
}

int sys_call_fd(const struct sys_call *c)
{
	const struct sys_kind_info *ki = sys_kind_info(c->kind);

	if ((ki->flags & SKF_OPEN) && c->ret >= 0)
		return (int)c->ret;
	if (!c->paired)
		return -1;
	if (ki->fd_out >= 0)
		return (int)c->args[ki->fd_out];
	if (ki->fd_in >= 0)
		return (int)c->args[ki->fd_in];
	switch (c->kind) {
	case SK_CLOSE:
	case SK_CLOSE_RANGE:
	case SK_DUP:
	case SK_DUP2:
	case SK_DUP3:
	case SK_FCNTL:
		return (int)c->args[0];	/* fd, fildes or oldfd */
	default:
		return -1;
	}
}

/* ------------------------------------------------------------------ */
/* Pairing */

/*
 * One slot per thread, reused from call to call (no allocation per
 * enter): waiting says whether it holds an enter.  Slots of threads
 * that wait for nothing are swept when there are many (thread churn), so
 * memory follows the threads alive, not the length of the recording.
 */
struct pending {
	struct sys_enter e;
	char *path;		/* owned copy of e.path or a late path */
	bool waiting;
};

#define SWEEP_MIN	65536

struct sysreplay {
	struct imap slots;	/* tid -> struct pending */
	size_t nwaiting;
	size_t sweep_at;	/* sweep the idle slots past this many */
	struct imap hints;	/* tid -> char * path for the next enter */
	struct sysreplay_stats st;
	char *last_path;	/* path of the last call returned */
};

struct sysreplay *sysreplay_new(void)
{
	struct sysreplay *sr = xcalloc(1, sizeof(*sr));

	imap_init(&sr->slots);
	imap_init(&sr->hints);
	sr->sweep_at = SWEEP_MIN;
	return sr;
}

/* The slot stops waiting; its path is freed. */
static void unwait(struct sysreplay *sr, struct pending *p)
{
	free(p->path);
	p->path = NULL;
	p->waiting = false;
	sr->nwaiting--;
}

static void free_slots(struct imap *m)
{
	size_t pos = 0;
	int key;
	void *val;

	while (imap_next(m, &pos, &key, &val)) {
		struct pending *p = val;

		free(p->path);
		free(p);
	}
	imap_release(m);
}

void sysreplay_free(struct sysreplay *sr)
{
	size_t pos = 0;
	int key;
	void *val;

	if (!sr)
		return;
	free_slots(&sr->slots);
	while (imap_next(&sr->hints, &pos, &key, &val))
		free(val);
	imap_release(&sr->hints);
	free(sr->last_path);
	free(sr);
}

/* Keep only the waiting slots. */
static void sweep(struct sysreplay *sr)
{
	struct imap keep;
	size_t pos = 0;
	int key;
	void *val;

	imap_init(&keep);
	while (imap_next(&sr->slots, &pos, &key, &val)) {
		struct pending *p = val;

		if (p->waiting)
			imap_put(&keep, key, p);
		else
			free(p);
	}
	imap_release(&sr->slots);
	sr->slots = keep;
	sr->sweep_at = keep.n * 2 > SWEEP_MIN ? keep.n * 2 : SWEEP_MIN;
}

void sysreplay_enter(struct sysreplay *sr, const struct sys_enter *e)
{
	struct pending *p = imap_get(&sr->slots, e->tid);
	char *hint = NULL;

	sr->st.enters++;
	if (!p) {
		if (sr->slots.n >= sr->sweep_at)
			sweep(sr);
		p = xcalloc(1, sizeof(*p));
		imap_put(&sr->slots, e->tid, p);
	} else if (p->waiting) {
		sr->st.enter_without_exit++;
		unwait(sr, p);
	}
	p->e = *e;
	p->e.path = NULL;
	p->waiting = true;
	sr->nwaiting++;
	/* A hint is for the thread's next open; any other call makes it stale. */
	if (sr->hints.n)
		hint = imap_del(&sr->hints, e->tid);
	if (hint && sys_kind_info(e->kind)->path_arg < 0) {
		free(hint);
		hint = NULL;
	}
	if (e->path && *e->path) {
		p->path = xstrdup(e->path);
		free(hint);
	} else {
		p->path = hint;
	}
}

/* The waiting slot of tid, or NULL. */
static struct pending *waiting(const struct sysreplay *sr, int tid)
{
	struct pending *p;

	if (!sr->nwaiting)
		return NULL;
	p = imap_get(&sr->slots, tid);
	return p && p->waiting ? p : NULL;
}

const struct sys_enter *sysreplay_pending(const struct sysreplay *sr, int tid)
{
	const struct pending *p = waiting(sr, tid);

	return p ? &p->e : NULL;
}

static void unpaired(const struct sys_exit *x, struct sys_call *out)
{
	memset(out, 0, sizeof(*out));
	out->kind = x->kind;
	out->tid = x->tid;
	out->paired = false;
	out->start = x->ts;
	out->end = x->ts;
	out->ret = x->ret;
}

int sysreplay_exit(struct sysreplay *sr, const struct sys_exit *x,
		   struct sys_call *out)
{
	struct pending *p;

	sr->st.exits++;
	p = waiting(sr, x->tid);
	if (!p) {
		sr->st.exit_without_enter++;
		unpaired(x, out);
		return 0;
	}
	if (p->e.kind != x->kind) {
		/* The enter's exit was lost, and this exit's enter too. */
		sr->st.mismatched++;
		unwait(sr, p);
		unpaired(x, out);
		return 0;
	}
	if (x->ts < p->e.ts) {
		sr->st.negative_time++;
		unwait(sr, p);
		unpaired(x, out);
		return 0;
	}
	free(sr->last_path);
	sr->last_path = p->path;
	p->path = NULL;
	out->kind = x->kind;
	out->tid = x->tid;
	out->paired = true;
	out->start = p->e.ts;
	out->end = x->ts;
	memcpy(out->args, p->e.args, sizeof(out->args));
	out->ret = x->ret;
	out->path = sr->last_path;
	sr->st.calls++;
	unwait(sr, p);
	return 1;
}

void sysreplay_gap(struct sysreplay *sr, int cpu)
{
	size_t pos = 0;
	int key;
	void *val;

	if (!sr->nwaiting)
		return;
	while (imap_next(&sr->slots, &pos, &key, &val)) {
		struct pending *p = val;

		if (p->waiting && p->e.cpu == cpu) {
			unwait(sr, p);
			sr->st.lost_gap++;
		}
	}
}

void sysreplay_set_path(struct sysreplay *sr, int tid, const char *path)
{
	struct pending *p = waiting(sr, tid);

	if (!path || !*path)
		return;
	if (p && sys_kind_info(p->e.kind)->path_arg >= 0 && !p->path) {
		p->path = xstrdup(path);
		return;
	}
	free(imap_put(&sr->hints, tid, xstrdup(path)));
}

void sysreplay_finish(struct sysreplay *sr)
{
	size_t pos = 0;
	int key;
	void *val;

	while (imap_next(&sr->slots, &pos, &key, &val))
		if (((struct pending *)val)->waiting)
			sr->st.open_at_end++;
	free_slots(&sr->slots);
	sr->nwaiting = 0;
}

const struct sysreplay_stats *sysreplay_stats(const struct sysreplay *sr)
{
	return &sr->st;
}

void procstat_free(void *p)
{
	struct procstat *ps = p;

	if (!ps)
		return;
	for (int k = 0; k < SK_NR; k++)
		hist_release(&ps->k[k].lat);
	hist_release(&ps->fsync);
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
	free(fs);
}
