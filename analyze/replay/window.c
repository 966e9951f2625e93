// SPDX-License-Identifier: MIT
/*
 * window.c - the per-thread windows (see window.h), one row of the table
 * below per pairing: like trace-cmd's trace-profile.c pairs a start and
 * an end event by a field, each row names the decoded kind that opens a
 * window, the kinds that close it, whose window it is (the task that ran
 * the event, or a pid the event names) and what a loss of events does.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "base/imap.h"
#include "decode/decode.h"
#include "base/err.h"
#include "replay/window.h"

#define TASK_UNINTERRUPTIBLE	0x2
#define TASK_REPORT_MAX		0x100	/* sched_switch: preempted */

/* Whose window an event opens or closes. */
enum key {
	KEY_TASK,		/* the task that ran the event (common_pid) */
	KEY_PREV,		/* sched_switch's prev_pid */
	KEY_NEXT,		/* sched_switch's next_pid */
	KEY_WAKEE,		/* sched_wakeup's pid */
};

/* What a loss of events does to the open windows. */
enum gap {
	GAP_KEEP,		/* nothing: they are context, not measurements */
	GAP_DROP,		/* every open window of the row is forgotten */
	GAP_DROP_CPU,		/* those opened on the CPU that lost events:
				   a measurement must not span a gap (its end
				   may be lost, and another's taken for it) */
};

struct win_def {
	const char *name;
	int open;			/* the decoded kind that opens it */
	enum key open_key;
	int close[2];			/* the kinds that close it (0: none) */
	enum key close_key[2];
	bool (*open_if)(const struct dec_ev *ev);
	bool good_only;			/* a record that could not be read
					   opens nothing */
	bool inode;			/* remembers the event's dev and ino */
	bool pages;			/* remembers the writeback budget */
	bool listed;			/* windows_oldest() works on it */
	enum gap gap;
};

static bool switched_out_in_d(const struct dec_ev *ev)
{
	int64_t s = ev->sched.prev_state;

	return (s & TASK_UNINTERRUPTIBLE) && !(s & TASK_REPORT_MAX);
}

static const struct win_def defs[WIN_NR] = {
	[WIN_WRITEPAGES] = {
		"ext4 writepages", DK_WRITEPAGES, KEY_TASK,
		{ DK_WRITEPAGES_END }, { KEY_TASK }, .inode = true,
	},
	[WIN_EXT4_SYNC] = {
		"ext4 fsync", DK_FSYNC_ENTER, KEY_TASK,
		{ DK_FSYNC_EXIT }, { KEY_TASK }, .good_only = true,
		.inode = true, .listed = true, .gap = GAP_DROP_CPU,
	},
	[WIN_COMMIT] = {
		"jbd2 commit", DK_COMMIT_START, KEY_TASK,
		{ DK_COMMIT_END }, { KEY_TASK },
	},
	[WIN_DSTATE] = {
		"D state", DK_SWITCH, KEY_PREV,
		{ DK_SWITCH, DK_WAKEUP }, { KEY_NEXT, KEY_WAKEE },
		.open_if = switched_out_in_d,
	},
	[WIN_WB_WORK] = {
		"writeback work", DK_WB_START, KEY_TASK,
		{ DK_WB_WRITTEN }, { KEY_TASK }, .good_only = true,
		.pages = true, .gap = GAP_DROP,
	},
};

/* The windows of one thread. */
struct tstate {
	struct win w[WIN_NR];
};

/* The threads with a listed window open, in the order they opened it. */
struct wlist {
	int *tid;
	size_t n, alloc;
};

struct windows {
	struct imap threads;		/* tid -> struct tstate */
	struct wlist list[WIN_NR];
	unsigned int nopen[WIN_NR];	/* open windows of dropping rows */
	bool used[DK_NR];		/* kinds that open or close one */
	win_close_fn on_close;
	void *arg;
	int err;			/* sticky: -AN_E_NOMEM */
};

struct windows *windows_new(void)
{
	struct windows *ws = an_calloc(1, sizeof(*ws));

	if (!ws)
		return NULL;
	imap_init(&ws->threads);
	for (int w = 0; w < WIN_NR; w++) {
		ws->used[defs[w].open] = true;
		for (int i = 0; i < 2; i++)
			ws->used[defs[w].close[i]] = true;
	}
	ws->used[DK_NONE] = false;
	return ws;
}

void windows_free(struct windows *ws)
{
	if (!ws)
		return;
	imap_release_all(&ws->threads, NULL);
	for (int w = 0; w < WIN_NR; w++)
		free(ws->list[w].tid);
	free(ws);
}

int windows_error(const struct windows *ws)
{
	return ws->err;
}

void windows_on_close(struct windows *ws, win_close_fn fn, void *arg)
{
	ws->on_close = fn;
	ws->arg = arg;
}

bool windows_use(const struct windows *ws, int kind)
{
	return kind > 0 && kind < DK_NR && ws->used[kind];
}

static int key_of(enum key k, const struct dec_ev *ev)
{
	switch (k) {
	case KEY_PREV:
		return ev->sched.prev_pid;
	case KEY_NEXT:
		return ev->sched.next_pid;
	case KEY_WAKEE:
		return ev->sched.pid;
	default:
		return ev->pid;
	}
}

/* The state of tid, made when new; NULL with the error set: no memory. */
static struct tstate *thread(struct windows *ws, int tid)
{
	struct tstate *t = imap_get_new(&ws->threads, tid, sizeof(*t));

	if (!t)
		ws->err = -AN_E_NOMEM;
	return t;
}

/* 0, or -AN_E_NOMEM with the list unchanged. */
static int list_add(struct wlist *l, int tid)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->tid[i] == tid)
			return 0;
	if (an_grow(&l->tid, &l->alloc, l->n + 1, sizeof(*l->tid), 8))
		return -AN_E_NOMEM;
	l->tid[l->n++] = tid;
	return 0;
}

static void list_del(struct wlist *l, int tid)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->tid[i] == tid) {
			l->tid[i] = l->tid[--l->n];
			return;
		}
}

static void close_win(struct windows *ws, enum win_id w, int tid,
		      const struct dec_ev *ev)
{
	struct tstate *t = imap_get(&ws->threads, tid);
	struct win open;

	if (!t || !t->w[w].open)
		return;
	open = t->w[w];
	t->w[w].open = false;
	if (defs[w].listed)
		list_del(&ws->list[w], tid);
	if (defs[w].gap != GAP_KEEP)
		ws->nopen[w]--;
	if (ws->on_close)
		ws->on_close(ws->arg, w, tid, &open, ev);
}

static void open_win(struct windows *ws, enum win_id w, int tid,
		     const struct dec_ev *ev)
{
	const struct win_def *def = &defs[w];
	struct tstate *t = thread(ws, tid);
	struct win *x;

	/* a window that cannot be kept is not opened */
	if (!t || (def->listed && list_add(&ws->list[w], tid))) {
		ws->err = -AN_E_NOMEM;
		return;
	}
	x = &t->w[w];
	if (!x->open && def->gap != GAP_KEEP)
		ws->nopen[w]++;
	x->open = true;
	x->ts = ev->ts;
	x->cpu = ev->cpu;
	if (def->inode) {
		x->dev = ev->inode.dev;
		x->ino = ev->inode.ino;
		x->datasync = ev->inode.datasync;
	}
	if (def->pages)
		x->val = ev->wb.pages;
}

void windows_feed(struct windows *ws, const struct dec_ev *ev)
{
	/* closes first: a sched_switch ends next's D state, then may
	 * start prev's */
	for (int w = 0; w < WIN_NR; w++) {
		const struct win_def *def = &defs[w];

		for (int i = 0; i < 2 && def->close[i]; i++) {
			int tid = key_of(def->close_key[i], ev);

			if (def->close[i] != (int)ev->kind ||
			    (def->close_key[i] != KEY_TASK && tid <= 0))
				continue;
			close_win(ws, w, tid, ev);
		}
	}
	for (int w = 0; w < WIN_NR; w++) {
		const struct win_def *def = &defs[w];
		int tid;

		if (def->open != (int)ev->kind ||
		    (def->good_only && ev->bad) ||
		    (def->open_if && !def->open_if(ev)))
			continue;
		tid = key_of(def->open_key, ev);
		if (def->open_key != KEY_TASK && tid <= 0)
			continue;
		open_win(ws, w, tid, ev);
	}
}

void windows_gap(struct windows *ws, int cpu)
{
	size_t pos = 0;
	int key;
	void *val;

	for (int w = 0; w < WIN_NR; w++) {
		if (defs[w].gap == GAP_KEEP || !ws->nopen[w])
			continue;
		pos = 0;
		while (imap_next(&ws->threads, &pos, &key, &val)) {
			struct tstate *t = val;

			if (!t->w[w].open || (defs[w].gap == GAP_DROP_CPU &&
					      t->w[w].cpu != cpu))
				continue;
			t->w[w].open = false;
			if (defs[w].listed)
				list_del(&ws->list[w], key);
			ws->nopen[w]--;
		}
	}
}

const struct win *windows_nth(const struct windows *ws, enum win_id w,
			      size_t i, int *tid)
{
	const struct wlist *l = &ws->list[w];

	if (i >= l->n)
		return NULL;
	*tid = l->tid[i];
	return windows_get(ws, l->tid[i], w);
}

const struct win *windows_get(const struct windows *ws, int tid,
			      enum win_id w)
{
	const struct tstate *t = imap_get(&ws->threads, tid);

	return t && t->w[w].open ? &t->w[w] : NULL;
}

const struct win *windows_oldest(const struct windows *ws, enum win_id w,
				 uint32_t dev, int *tid)
{
	const struct wlist *l = &ws->list[w];
	const struct win *best = NULL;

	for (size_t i = 0; i < l->n; i++) {
		const struct win *x = windows_get(ws, l->tid[i], w);

		if (!x || (x->dev != dev && dev))
			continue;
		if (!best || x->ts < best->ts) {
			best = x;
			*tid = l->tid[i];
		}
	}
	return best;
}
