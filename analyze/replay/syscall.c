// SPDX-License-Identifier: MIT
/*
 * syscall.c - the syscall enter -> exit pairing per thread (see
 * syscall.h).
 */
#include "config.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/imap.h"
#include "replay/syscall.h"


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
	char *path2;		/* a rename's or link's new name, or NULL */
	bool waiting;
};

#define SWEEP_MIN	65536

struct sysreplay {
	struct imap slots;	/* tid -> struct pending */
	size_t nwaiting;
	size_t sweep_at;	/* sweep the idle slots past this many */
	struct imap hints;	/* tid -> char * path for the next enter */
	struct imap hints2;	/* tid -> char * second path (new name) */
	struct sysreplay_stats st;
	char *last_path;	/* path of the last call returned */
	char *last_path2;	/* and its second path */
	int err;		/* sticky: -AN_E_NOMEM */
};

struct sysreplay *sysreplay_new(void)
{
	struct sysreplay *sr = an_calloc(1, sizeof(*sr));

	if (!sr)
		return NULL;
	imap_init(&sr->slots);
	imap_init(&sr->hints);
	imap_init(&sr->hints2);
	sr->sweep_at = SWEEP_MIN;
	return sr;
}

/* The slot stops waiting; its path is freed. */
static void unwait(struct sysreplay *sr, struct pending *p)
{
	free(p->path);
	p->path = NULL;
	free(p->path2);
	p->path2 = NULL;
	p->waiting = false;
	sr->nwaiting--;
}

static void free_slot(void *v)
{
	struct pending *p = v;

	free(p->path);
	free(p->path2);
	free(p);
}

void sysreplay_free(struct sysreplay *sr)
{
	if (!sr)
		return;
	imap_release_all(&sr->slots, free_slot);
	imap_release_all(&sr->hints, NULL);
	imap_release_all(&sr->hints2, NULL);
	free(sr->last_path);
	free(sr->last_path2);
	free(sr);
}

int sysreplay_error(const struct sysreplay *sr)
{
	return sr->err;
}

/* Keep only the waiting slots (when the new map cannot be had, all). */
static void sweep(struct sysreplay *sr)
{
	struct imap keep;
	size_t pos = 0;
	int key;
	void *val;

	imap_init(&keep);
	while (imap_next(&sr->slots, &pos, &key, &val)) {
		if (((struct pending *)val)->waiting &&
		    imap_put(&keep, key, val, NULL)) {
			imap_release(&keep);
			sr->sweep_at *= 2;
			return;
		}
	}
	pos = 0;
	while (imap_next(&sr->slots, &pos, &key, &val))
		if (!((struct pending *)val)->waiting)
			free(val);
	imap_release(&sr->slots);
	sr->slots = keep;
	sr->sweep_at = keep.n * 2 > SWEEP_MIN ? keep.n * 2 : SWEEP_MIN;
}

void sysreplay_enter(struct sysreplay *sr, const struct sys_enter *e)
{
	struct pending *p = imap_get(&sr->slots, e->tid);
	char *hint = NULL, *hint2 = NULL;

	sr->st.enters++;
	if (!p) {
		if (sr->slots.n >= sr->sweep_at)
			sweep(sr);
		p = imap_put_new(&sr->slots, e->tid, sizeof(*p));
		if (!p) {
			/* not followed: its exit will be an unpaired one */
			sr->err = -AN_E_NOMEM;
			return;
		}
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
	if (sr->hints2.n)
		hint2 = imap_del(&sr->hints2, e->tid);
	if (sys_kind_info(e->kind)->path_arg < 0) {
		free(hint);
		hint = NULL;
		free(hint2);
		hint2 = NULL;
	}
	p->path2 = hint2;
	if (e->path && *e->path) {
		p->path = an_strdup(e->path);
		if (!p->path)
			sr->err = -AN_E_NOMEM;
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
	if ((sys_kind_info(x->kind)->flags & SKF_ENTER_FILTERED) &&
	    (!p || p->e.kind != x->kind)) {
		/* an ioctl not of interest: its enter was filtered out */
		sr->st.exits_filtered++;
		unpaired(x, out);
		return 0;
	}
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
	free(sr->last_path2);
	sr->last_path2 = p->path2;
	p->path2 = NULL;
	out->kind = x->kind;
	out->tid = x->tid;
	out->paired = true;
	out->start = p->e.ts;
	out->end = x->ts;
	memcpy(out->args, p->e.args, sizeof(out->args));
	out->ret = x->ret;
	out->path = sr->last_path;
	out->path2 = sr->last_path2;
	sr->st.calls++;
	unwait(sr, p);
	return 1;
}

/*
 * Events were lost on @cpu: every waiting enter goes, whatever its CPU.
 * A thread that entered on another CPU may have run on @cpu during the
 * gap (a blocking call wakes up where the scheduler puts it), its exit
 * and its next call's enter lost there: its next exit of the same kind
 * would pair with the wrong enter and time two calls and what lies
 * between as one.
 */
void sysreplay_gap(struct sysreplay *sr, int cpu)
{
	size_t pos = 0;
	int key;
	void *val;

	(void)cpu;
	if (!sr->nwaiting)
		return;
	while (imap_next(&sr->slots, &pos, &key, &val)) {
		struct pending *p = val;

		if (p->waiting) {
			unwait(sr, p);
			sr->st.lost_gap++;
		}
	}
}

void sysreplay_set_path(struct sysreplay *sr, int tid, const char *path)
{
	struct pending *p = waiting(sr, tid);
	void *old;
	char *c;

	if (!path || !*path)
		return;
	c = an_strdup(path);
	if (!c) {
		sr->err = -AN_E_NOMEM;
		return;
	}
	if (p && sys_kind_info(p->e.kind)->path_arg >= 0 && !p->path) {
		p->path = c;
		return;
	}
	if (imap_put(&sr->hints, tid, c, &old)) {
		free(c);
		sr->err = -AN_E_NOMEM;
		return;
	}
	free(old);
}

void sysreplay_set_path2(struct sysreplay *sr, int tid, const char *path2)
{
	void *old;
	char *c;

	if (!path2 || !*path2)
		return;
	c = an_strdup(path2);
	if (!c || imap_put(&sr->hints2, tid, c, &old)) {
		free(c);
		sr->err = -AN_E_NOMEM;
		return;
	}
	free(old);
}

void sysreplay_finish(struct sysreplay *sr)
{
	size_t pos = 0;
	int key;
	void *val;

	while (imap_next(&sr->slots, &pos, &key, &val))
		if (((struct pending *)val)->waiting)
			sr->st.open_at_end++;
	imap_release_all(&sr->slots, free_slot);
	sr->nwaiting = 0;
}

const struct sysreplay_stats *sysreplay_stats(const struct sysreplay *sr)
{
	return &sr->st;
}
