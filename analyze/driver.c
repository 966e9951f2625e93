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
#include "base/heap.h"
#include "input/source.h"
#include "driver.h"
#include "replay/fdtable.h"
#include "replay/proctable.h"

/* The kernel's PID_MAX_LIMIT on 64-bit: larger ids are not counted. */
#define PIDMAP_BITS	(4u * 1024 * 1024)

/* Slowest requests: on total time, ties broken by completion, dev, sector */
static bool req_slower(const void *a, const void *b)
{
	const struct blk_request *x = &((const struct blk_done *)a)->rq;
	const struct blk_request *y = &((const struct blk_done *)b)->rq;
	uint64_t tx = blk_total_ns(x), ty = blk_total_ns(y);

	if (tx != ty)
		return tx > ty;
	if (x->complete_ts != y->complete_ts)
		return x->complete_ts < y->complete_ts;
	if (x->dev != y->dev)
		return x->dev < y->dev;
	return x->sector < y->sector;
}

static int cmp_slow(const void *a, const void *b)
{
	return req_slower(a, b) ? -1 : req_slower(b, a) ? 1 : 0;
}

const struct blk_done *analysis_slowest(struct analysis *a, size_t *n)
{
	/* sorting breaks the heap: the pass is over by now */
	if (a->slow.n > 1)
		qsort(a->slow.v, a->slow.n, sizeof(*a->slow.v), cmp_slow);
	*n = a->slow.n;
	return a->slow.v;
}

/* Slowest syscalls: on latency, ties broken by start and thread */
static bool call_slower(const void *a, const void *b)
{
	const struct slow_call *x = a, *y = b;
	uint64_t lx = x->end - x->start, ly = y->end - y->start;

	if (lx != ly)
		return lx > ly;
	if (x->start != y->start)
		return x->start < y->start;
	return x->tid < y->tid;
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

static int cmp_call(const void *a, const void *b)
{
	return call_slower(a, b) ? -1 : call_slower(b, a) ? 1 : 0;
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
		heap_offer(a->slow_calls.v, &a->slow_calls.n, a->slow_calls.cap,
			   sizeof(s), call_slower, &s);
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
	heap_offer(a->slow.v, &a->slow.n, a->slow.cap, sizeof(done),
		   req_slower, &done);
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

size_t analysis_anomalies(const struct analysis *a, struct anomaly *v)
{
	size_t n = 0;

#define A(st, k, t, x) (v[n].stage = (st), v[n].key = (k), v[n].text = (t), \
			 v[n++].n = (x))
	if (a->rb) {
		const struct blk_anomalies *b = &a->blk_an;

		A("block", "complete_without_issue",
		  "request completions without issue",
		  b->complete_without_issue);
		A("block", "issue_without_insert", "issued without insert",
		  b->issue_without_insert);
		A("block", "duplicate", "duplicate", b->duplicate);
		A("block", "negative_time", "negative time", b->negative_time);
		A("block", "requeued", "requeued", b->requeued);
		A("block", "empty_preflush_completions",
		  "empty preflush completions", b->empty_complete);
		A("block", "dropped_at_lost_events", "dropped at lost events",
		  b->dropped_at_gap);
		A("block", "open_at_end", "still open at end", b->still_open);
		A("block", "evicted", "evicted (too many pending)", b->evicted);
		A("block", "unreadable", "unreadable", b->unreadable);
	}
	if (a->have_sys) {
		const struct sysrun *run = &a->sys;
		const struct sysreplay_stats *s = sysreplay_stats(run->sr);
		const struct proctable_stats *p = proctable_stats(run->pt);
		const struct fdtable_stats *f = proctable_fdstats(run->pt);

		A("syscall", "exit_without_enter", "exit without enter",
		  s->exit_without_enter);
		A("syscall", "enter_without_exit", "enter without exit",
		  s->enter_without_exit);
		A("syscall", "mismatched", "exit of another syscall",
		  s->mismatched);
		A("syscall", "negative_time", "negative time", s->negative_time);
		A("syscall", "dropped_at_lost_events", "dropped at lost events",
		  s->lost_gap);
		A("syscall", "open_at_end", "still open at end", s->open_at_end);
		A("syscall", "lost_event_gaps", "lost-event gaps", run->st.gaps);
		A("process", "unknown_tids", "threads without fork or snapshot",
		  p->unknown_tids);
		A("process", "pid_reuse", "pid reused without exit",
		  p->pid_reuse);
		A("process", "exit_unknown", "exit of unknown thread",
		  p->exit_unknown);
		A("fd", "io_unknown_fd", "I/O on unknown fd", f->io_unknown);
		A("fd", "close_unknown_fd", "close of unknown fd",
		  f->close_unknown);
		A("fd", "dup_unknown_fd", "dup of unknown fd", f->dup_unknown);
		A("syscall", "unknown_syscalls", "unnamed raw syscall ids",
		  run->st.unknown_syscalls);
		A("decode", "decode_errors", "unreadable fields",
		  run->st.decode_errors);
	}
	if (a->at) {
		const struct attrib_totals *t = attrib_totals(a->at);

		A("attrib", "bio_replaced", "bio queued over a pending one",
		  t->bio_replaced);
		A("attrib", "request_sectors_without_bio",
		  "request sectors without a bio", t->bio_unmatched);
		A("attrib", "bios_pending_at_end",
		  "bios without a completed request", t->bio_pending_end);
	}
#undef A
	return n;
}
