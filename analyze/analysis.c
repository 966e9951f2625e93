// SPDX-License-Identifier: MIT
/*
 * analysis.c - the single pass over a recording (see analysis.h).
 *
 * One loop over source_next() feeds, per event: the per-CPU lost-event
 * accounting and the task bitmap, the syscall/process/fd replay
 * (sysrun_feed), the attribution of block I/O (attrib_feed) and the block
 * request replay, whose completed requests go to the per-device
 * aggregates, the slow heap and the caller's hook; the completed
 * syscalls go to the slow-call heap and the caller's hook.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "source.h"
#include "analysis.h"
#include "fdtable.h"
#include "proctable.h"

/* The kernel's PID_MAX_LIMIT on 64-bit: larger ids are not counted. */
#define PIDMAP_BITS	(4u * 1024 * 1024)

/* ------------------------------------------------------------------ */
/* Slowest requests: a min-heap on total time, ties broken by identity */

static bool slower(const struct blk_done *dx, const struct blk_done *dy)
{
	const struct blk_request *x = &dx->rq, *y = &dy->rq;
	uint64_t tx = blk_total_ns(x), ty = blk_total_ns(y);

	if (tx != ty)
		return tx > ty;
	/* equal: the earlier completion ranks first (deterministic) */
	if (x->complete_ts != y->complete_ts)
		return x->complete_ts < y->complete_ts;
	if (x->dev != y->dev)
		return x->dev < y->dev;
	return x->sector < y->sector;
}

static void sift_down(struct slowheap *h, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct blk_done t;

		if (l < h->n && slower(&h->v[m], &h->v[l]))
			m = l;
		if (r < h->n && slower(&h->v[m], &h->v[r]))
			m = r;
		if (m == i)
			return;
		t = h->v[i];
		h->v[i] = h->v[m];
		h->v[m] = t;
		i = m;
	}
}

static void slow_push(struct slowheap *h, const struct blk_done *rq)
{
	size_t i;

	if (!h->cap)
		return;
	if (h->n == h->cap) {
		if (!slower(rq, &h->v[0]))
			return;
		h->v[0] = *rq;
		sift_down(h, 0);
		return;
	}
	i = h->n++;
	h->v[i] = *rq;
	while (i > 0) {
		size_t p = (i - 1) / 2;
		struct blk_done t;

		if (!slower(&h->v[p], &h->v[i]))
			break;
		t = h->v[i];
		h->v[i] = h->v[p];
		h->v[p] = t;
		i = p;
	}
}

static int cmp_slow(const void *a, const void *b)
{
	const struct blk_done *x = a, *y = b;

	return slower(x, y) ? -1 : slower(y, x) ? 1 : 0;
}

const struct blk_done *analysis_slowest(struct analysis *a, size_t *n)
{
	/* sorting breaks the heap: the pass is over by now */
	if (a->slow.n > 1)
		qsort(a->slow.v, a->slow.n, sizeof(*a->slow.v), cmp_slow);
	*n = a->slow.n;
	return a->slow.v;
}

/* ------------------------------------------------------------------ */
/* Slowest syscalls: a min-heap on latency, ties broken by identity */

static bool call_slower(const struct slow_call *x, const struct slow_call *y)
{
	uint64_t lx = x->end - x->start, ly = y->end - y->start;

	if (lx != ly)
		return lx > ly;
	if (x->start != y->start)
		return x->start < y->start;
	return x->tid < y->tid;
}

static void call_sift_down(struct callheap *h, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct slow_call t;

		if (l < h->n && call_slower(&h->v[m], &h->v[l]))
			m = l;
		if (r < h->n && call_slower(&h->v[m], &h->v[r]))
			m = r;
		if (m == i)
			return;
		t = h->v[i];
		h->v[i] = h->v[m];
		h->v[m] = t;
		i = m;
	}
}

/* Whether c would enter the heap: checked before building the record. */
static bool call_wanted(const struct callheap *h, const struct sys_call *c)
{
	struct slow_call x;

	if (!h->cap || !c->paired)
		return false;
	if (h->n < h->cap)
		return true;
	x.start = c->start;
	x.end = c->end;
	x.tid = c->tid;
	return call_slower(&x, &h->v[0]);
}

static void call_push(struct callheap *h, const struct slow_call *c)
{
	size_t i;

	if (h->n == h->cap) {
		h->v[0] = *c;
		call_sift_down(h, 0);
		return;
	}
	i = h->n++;
	h->v[i] = *c;
	while (i > 0) {
		size_t p = (i - 1) / 2;
		struct slow_call t;

		if (!call_slower(&h->v[p], &h->v[i]))
			break;
		t = h->v[i];
		h->v[i] = h->v[p];
		h->v[p] = t;
		i = p;
	}
}

static int cmp_call(const void *a, const void *b)
{
	const struct slow_call *x = a, *y = b;

	return call_slower(x, y) ? -1 : call_slower(y, x) ? 1 : 0;
}

const struct slow_call *analysis_slowest_calls(struct analysis *a, size_t *n)
{
	if (a->slow_calls.n > 1)
		qsort(a->slow_calls.v, a->slow_calls.n,
		      sizeof(*a->slow_calls.v), cmp_call);
	*n = a->slow_calls.n;
	return a->slow_calls.v;
}

/* The sysrun's per-call hook: the slow heap, then the caller's hook. */
static void on_call(void *arg, struct proc *p, struct file *f,
		    const struct sys_call *c)
{
	struct analysis *a = arg;

	if (call_wanted(&a->slow_calls, c)) {
		const struct sys_kind_info *ki = sys_kind_info(c->kind);
		struct slow_call s;

		memset(&s, 0, sizeof(s));
		s.kind = c->kind;
		s.pid = p->pid;
		s.tid = c->tid;
		snprintf(s.comm, sizeof(s.comm), "%s", p->comm ? p->comm : "");
		s.fd = sys_call_fd(c);
		s.file = f;
		s.start = c->start;
		s.end = c->end;
		s.ret = c->ret;
		if ((ki->flags & (SKF_READ | SKF_WRITE)) && c->ret > 0)
			s.bytes = (uint64_t)c->ret;
		call_push(&a->slow_calls, &s);
	}
	if (a->on_call)
		a->on_call(a->on_call_arg, p, f, c);
}

/* ------------------------------------------------------------------ */
/* Per device and operation */

static struct devstat *devstat_get(struct analysis *a, uint32_t dev,
				   enum blk_op op)
{
	struct devstat *d;
	size_t i;

	for (i = 0; i < a->ndev; i++)
		if (a->dev[i].dev == dev && a->dev[i].op == op)
			return &a->dev[i];
	if (a->ndev == a->dev_alloc) {
		a->dev_alloc = a->dev_alloc ? a->dev_alloc * 2 : 8;
		a->dev = xrealloc(a->dev, sizeof(*a->dev) * a->dev_alloc);
	}
	d = &a->dev[a->ndev++];
	memset(d, 0, sizeof(*d));
	d->dev = dev;
	d->op = op;
	return d;
}

static void on_request(const struct blk_request *rq, void *arg)
{
	struct analysis *a = arg;
	struct devstat *d = devstat_get(a, rq->dev, rq->op);
	struct blk_done done;

	d->reqs++;
	d->bytes += rq->bytes;
	d->fua += rq->fua;
	d->preflush += rq->preflush;
	d->errors += rq->error != 0;
	if (rq->insert_ts && rq->issue_ts)
		hist_add(&d->queue, rq->issue_ts - rq->insert_ts);
	hist_add(&d->device, rq->complete_ts - rq->issue_ts);
	hist_add(&d->total, blk_total_ns(rq));
	if (!a->slow.cap && !a->on_request && !a->at)
		return;
	done.rq = *rq;
	done.attributed = a->at != NULL;
	if (a->at)
		attrib_request(a->at, rq, &done.own);
	else
		memset(&done.own, 0, sizeof(done.own));
	slow_push(&a->slow, &done);
	if (a->on_request)
		a->on_request(&done, a->on_request_arg);
}

const char *analysis_file(struct analysis *a, const struct blk_done *d)
{
	struct file *f = d->own.file;

	if (!d->attributed)
		return NULL;
	if (!f && d->own.ino && a->at && a->ended)
		f = attrib_inode_file(a->at, d->own.dev, d->own.ino);
	return f ? file_name(f) : NULL;
}

static int cmp_devstat(const void *x, const void *y)
{
	const struct devstat *a = x, *b = y;

	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	return (int)a->op - (int)b->op;
}

/* ------------------------------------------------------------------ */
/* The pass */

/* What is counted for every event, whatever the consumers. */
static inline void count_event(struct analysis *a,
			       const struct source_event *ev)
{
	unsigned int pid = (unsigned int)ev->pid;

	a->events++;
	if (!a->first_ts)
		a->first_ts = ev->ts;
	a->last_ts = ev->ts;
	if (ev->missed && ev->cpu >= 0 && ev->cpu < a->nr_cpus) {
		struct lostcpu *l = &a->lost[ev->cpu];

		l->gaps++;
		if (ev->missed > 0)
			l->events += (uint64_t)ev->missed;
		else
			l->unknown++;
		if (!l->first_gap_ts)
			l->first_gap_ts = ev->ts;
	}
	if (pid && pid < PIDMAP_BITS &&
	    !(a->pidmap[pid >> 3] & (1u << (pid & 7)))) {
		a->pidmap[pid >> 3] |= (uint8_t)(1u << (pid & 7));
		a->tasks++;
	}
}

int analysis_run(struct analysis *a, struct source *src)
{
	struct source_event ev;
	char *msg = NULL;

	a->src = src;
	a->info = source_info(src);
	a->nr_cpus = a->info->nr_cpus;
	a->lost = xcalloc(a->nr_cpus > 0 ? (size_t)a->nr_cpus : 1,
			  sizeof(*a->lost));
	a->pidmap = xcalloc(PIDMAP_BITS / 8, 1);
	if (a->want & AN_ATTRIB)
		a->want |= AN_SYS | AN_BLOCK;
	if (a->slow_n) {
		a->slow.cap = a->slow_n;
		a->slow.v = xcalloc(a->slow_n, sizeof(*a->slow.v));
	}
	if (a->want & AN_SYS) {
		if (sysrun_begin(&a->sys, src, &msg) == 0) {
			a->have_sys = true;
			if (a->slow_n) {
				a->slow_calls.cap = a->slow_n;
				a->slow_calls.v = xcalloc(a->slow_n,
							  sizeof(*a->slow_calls.v));
			}
			if (a->slow_n || a->on_call) {
				a->sys.on_call = on_call;
				a->sys.on_call_arg = a;
			}
		} else {
			a->sys_why = msg;
			sysrun_release(&a->sys);
		}
	}
	if (a->have_sys && (a->want & AN_ATTRIB))
		a->at = attrib_new(src, &a->sys);
	if (a->want & AN_BLOCK)
		a->rb = replay_block_new(src, on_request, a, &a->block_why);
	else
		a->block_why = "not asked for";

	/* the order matters: attribution reads the syscall state of the
	 * event's thread, and must know a request's bios when it completes */
	while (source_next(src, &ev) > 0) {
		count_event(a, &ev);
		if (a->on_event)
			a->on_event(&ev, a->on_event_arg);
		if (a->have_sys)
			sysrun_feed(&a->sys, &ev);
		if (a->at)
			attrib_feed(a->at, &ev);
		if (a->rb)
			replay_block_feed(a->rb, &ev);
	}

	if (a->have_sys)
		sysrun_end(&a->sys);
	if (a->at)
		attrib_end(a->at);
	a->ended = true;
	if (a->rb) {
		replay_block_finish(a->rb);
		a->blk_an = *replay_block_anomalies(a->rb);
	}
	if (a->ndev > 1)
		qsort(a->dev, a->ndev, sizeof(*a->dev), cmp_devstat);
	free(a->pidmap);
	a->pidmap = NULL;
	return 0;
}

void analysis_release(struct analysis *a)
{
	for (size_t i = 0; i < a->ndev; i++) {
		hist_release(&a->dev[i].queue);
		hist_release(&a->dev[i].device);
		hist_release(&a->dev[i].total);
	}
	free(a->dev);
	free(a->slow.v);
	free(a->slow_calls.v);
	free(a->lost);
	free(a->pidmap);
	free(a->sys_why);
	replay_block_free(a->rb);
	attrib_free(a->at);
	if (a->have_sys)
		sysrun_release(&a->sys);
	memset(a, 0, sizeof(*a));
}
