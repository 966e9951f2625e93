// SPDX-License-Identifier: MIT
/*
 * driver.c - the single pass over a recording (see driver.h).
 *
 * One loop over source_next(): per event, the per-CPU lost-event
 * accounting and the task bitmap, every machine told of a lost-events
 * gap, then the decoding (decode.h) and the decoded event handed to the
 * machines that take its kind: the write amplification and dirty
 * throttling, the syscall/process/fd replay, the per-thread windows, the
 * attribution of block I/O and the block request replay, whose completed
 * requests go to the per-device aggregates, the slow heap, the timed
 * machines and the caller's hook; the completed syscalls go to the
 * slow-call heap and the caller's hook.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "base/heap.h"
#include "input/source.h"
#include "input/meta.h"
#include "driver.h"
#include "replay/fdtable.h"
#include "replay/proctable.h"
#include "base/err.h"
#include "stats/wa.h"
#include "stats/dirty.h"
#include "stats/snapcmp.h"

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

const struct blk_done *driver_slowest(struct driver *a, size_t *n)
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

const struct slow_call *driver_slowest_calls(struct driver *a, size_t *n)
{
	if (a->slow_calls.n > 1)
		qsort(a->slow_calls.v, a->slow_calls.n,
		      sizeof(*a->slow_calls.v), cmp_call);
	*n = a->slow_calls.n;
	return a->slow_calls.v;
}

/* The accounting's per-call hook: the slow heap, then the caller's hook. */
static void on_call(void *arg, struct proc *p, struct file *f,
		    const struct sys_call *c)
{
	struct driver *a = arg;

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

static struct devstat *devstat_get(struct driver *a, uint32_t dev,
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
	struct driver *a = arg;
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
	if (!a->slow.cap && !a->on_request && !a->at && !a->dirty)
		return;
	done.rq = *rq;
	done.attributed = a->at != NULL;
	if (a->at)
		attrib_request(a->at, rq, &done.own);
	else
		memset(&done.own, 0, sizeof(done.own));
	heap_offer(a->slow.v, &a->slow.n, a->slow.cap, sizeof(done),
		   req_slower, &done);
	/* the timed machines see each request as it completes */
	if (a->wa) {
		wa_timed_request(a->wa, rq);
		wa_request(a->wa, &done);
	}
	if (a->dirty)
		dirty_request(a->dirty, rq);
	if (a->on_request)
		a->on_request(&done, a->on_request_arg);
}

const char *driver_file(struct driver *a, const struct blk_done *d)
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
static inline void count_event(struct driver *a,
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

/* The sys replay of one exit: pair it, find its process, account it. */
static void sys_exit(struct driver *a, const struct dec_ev *ev)
{
	struct sys_call c;
	struct proc *p;

	sysreplay_exit(a->sys.sr, &ev->exit, &c);
	p = proctable_lookup(a->sys.pt, ev->pid);
	if (!p)
		p = proctable_get(a->sys.pt, ev->pid,
				  decode_comm(a->dec, ev->pid), ev->ts);
	account_call(&a->sys.acct, p, &c);
}

/* The syscall, process and fd replay of one decoded event. */
static void sys_event(struct driver *a, const struct dec_ev *ev)
{
	struct proctable *pt = a->sys.pt;
	const struct dec_task *t = &ev->task;

	switch (ev->kind) {
	case DK_SYS_ENTER:
		sysreplay_enter(a->sys.sr, &ev->enter);
		break;
	case DK_SYS_EXIT:
		sys_exit(a, ev);
		break;
	case DK_FORK:
		proctable_fork(pt, ev->ts, t->pid, t->pid2, t->comm);
		break;
	case DK_NEWTASK:
		proctable_get(pt, ev->pid, decode_comm(a->dec, ev->pid),
			      ev->ts);
		proctable_newtask(pt, ev->ts, ev->pid, t->pid, t->comm,
				  t->clone_flags);
		break;
	case DK_EXEC:
		proctable_exec(pt, ev->ts, t->pid, t->pid2, t->comm);
		break;
	case DK_EXIT:
		proctable_exit(pt, ev->ts, t->pid, t->group_dead);
		break;
	case DK_RENAME:
		if (t->comm)
			proctable_rename(pt, ev->ts, t->pid, t->comm);
		break;
	case DK_PATH_HINT:
		sysreplay_set_path(a->sys.sr, ev->pid, ev->path);
		break;
	default:
		break;
	}
}

/* A window of the window machine closed. */
static void window_closed(void *arg, enum win_id w, int tid,
			  const struct win *open, const struct dec_ev *ev)
{
	struct driver *a = arg;

	if (w == WIN_DSTATE && a->at)
		attrib_window_closed(a->at, w, tid, open, ev);
	if (w == WIN_WB_WORK && a->dirty)
		dirty_work_done(a->dirty, open, ev);
}

/* Events were lost on cpu just before this one: every machine hears. */
static void gap(struct driver *a, int cpu)
{
	if (a->wa)
		wa_gap(a->wa, cpu);
	if (a->have_sys)
		sysreplay_gap(a->sys.sr, cpu);
	if (a->win)
		windows_gap(a->win, cpu);
	if (a->rb)
		replay_block_gap(a->rb);
}

/*
 * One decoded event to the machines that take its kind, in the order
 * that matters: the timed ones, the syscall replay and the windows (the
 * attribution reads the state of the event's thread), the attribution
 * (it must know a request's bios when the request completes), then the
 * block replay.
 */
static void dispatch(struct driver *a, const struct dec_ev *ev)
{
	switch (ev->kind) {
	case DK_RQ_INSERT:
	case DK_RQ_ISSUE:
	case DK_RQ_COMPLETE:
	case DK_RQ_REQUEUE:
		if (a->rb)
			replay_block_feed(a->rb, ev);
		return;
	case DK_JBD2_RUN:
		if (a->wa)
			wa_event(a->wa, ev);
		return;
	case DK_FSYNC_ENTER:
	case DK_FSYNC_EXIT:
		if (a->wa)
			wa_event(a->wa, ev);
		break;
	case DK_BDP:
	case DK_DIRTY_STATE:
		if (a->dirty)
			dirty_event(a->dirty, ev);
		break;
	default:
		break;
	}
	if (a->have_sys)
		sys_event(a, ev);
	if (a->win && windows_use(a->win, ev->kind))
		windows_feed(a->win, ev);
	if (a->at)
		attrib_event(a->at, ev);
}

/* The whole disk of a file system's device, from the start snapshot. */
static uint32_t disk_of(uint32_t fsdev, void *arg)
{
	struct driver *a = arg;

	return meta_disk_of(a->info->snapshot_start, fsdev);
}

int driver_open(struct driver *a, const char *path, struct an_err *err)
{
	char *msg = NULL;

	a->src = source_open(path, &msg);
	if (!a->src) {
		an_fail(err, AN_E_OPEN, "%s", msg ? msg : path);
		free(msg);
		return -AN_E_OPEN;
	}
	a->info = source_info(a->src);
	return 0;
}

int driver_run(struct driver *a, struct an_err *err)
{
	struct source *src = a->src;
	struct source_event ev;
	struct dec_ev d;
	bool decode;

	(void)err;
	a->nr_cpus = a->info->nr_cpus;
	a->lost = xcalloc(a->nr_cpus > 0 ? (size_t)a->nr_cpus : 1,
			  sizeof(*a->lost));
	a->pidmap = xcalloc(PIDMAP_BITS / 8, 1);
	a->dec = decode_new(src, NULL);
	a->caps = decode_caps(a->dec);
	a->dstats = decode_stats(a->dec);
	if (a->want & AN_WA)
		a->want |= AN_ATTRIB;
	if (a->want & AN_ATTRIB)
		a->want |= AN_SYS | AN_BLOCK;
	if (a->slow_n) {
		a->slow.cap = a->slow_n;
		a->slow.v = xcalloc(a->slow_n, sizeof(*a->slow.v));
	}
	if (a->want & AN_SYS) {
		if (a->caps->syscall_events || a->caps->raw_syscalls) {
			a->have_sys = true;
			a->sys.sr = sysreplay_new();
			a->sys.ft = filetab_new();
			a->sys.pt = proctable_new(a->sys.ft);
			a->sys.acct.pt = a->sys.pt;
			a->sys.acct.ft = a->sys.ft;
			if (a->info->snapshot_start)
				proctable_load_start(a->sys.pt,
						     a->info->snapshot_start);
			if (a->info->snapshot_end)
				proctable_load_end(a->sys.pt,
						   a->info->snapshot_end);
			if (a->slow_n) {
				a->slow_calls.cap = a->slow_n;
				a->slow_calls.v = xcalloc(a->slow_n,
							  sizeof(*a->slow_calls.v));
			}
			if (a->slow_n || a->on_call) {
				a->sys.acct.on_call = on_call;
				a->sys.acct.on_call_arg = a;
			}
		} else {
			a->sys_why = xasprintf("%s: no syscall events in the recording; record with iorec's default 'io' profile (or trace-cmd record -e syscalls -e sched)",
					       a->info->path);
		}
	}
	if ((a->want & (AN_ATTRIB | AN_DIRTY))) {
		a->win = windows_new();
		windows_on_close(a->win, window_closed, a);
	}
	if (a->have_sys && (a->want & AN_ATTRIB))
		a->at = attrib_new(a->sys.sr, a->sys.pt, a->sys.ft, a->win,
				   a->dec);
	if ((a->want & AN_BLOCK) && a->caps->block)
		a->rb = replay_block_new(on_request, a);
	else if (a->want & AN_BLOCK)
		a->block_why = "the recording lacks block:block_rq_issue or block:block_rq_complete (record the 'io' profile or -e block)";
	else
		a->block_why = "not asked for";
	if (a->want & AN_WA)
		a->wa = wa_new(a->caps->jbd2_run, a->caps->ext4_sync,
			       disk_of, a);
	if (a->want & AN_DIRTY) {
		struct dirty_caps dc = {
			.bdp = a->caps->bdp_pause,
			.gds = a->caps->dirty_state,
			.wb = a->caps->wb_work,
		};

		a->dirty = dirty_new(&dc, a->info->page_size);
	}

	/* no stage asked (info): the events are only counted */
	decode = a->want != 0;
	while (source_next(src, &ev) > 0) {
		count_event(a, &ev);
		if (!decode)
			continue;
		if (a->dirty && a->events == 1)
			dirty_begin(a->dirty, ev.ts);
		if (ev.missed)
			gap(a, ev.cpu);
		if (decode_event(a->dec, &ev, &d))
			dispatch(a, &d);
	}

	if (a->have_sys) {
		sysreplay_finish(a->sys.sr);
		proctable_finish(a->sys.pt);
		account_end(&a->sys.acct);
	}
	if (a->at)
		attrib_end(a->at);
	a->ended = true;
	if (a->rb) {
		replay_block_finish(a->rb);
		a->blk_an = *replay_block_anomalies(a->rb);
	}
	a->hz = a->at ? attrib_totals(a->at)->hz : 250;
	if (a->wa)
		wa_finish(a->wa, a->have_sys ? a->sys.ft : NULL,
			  a->info->snapshot_start, a->info->snapshot_end, a->hz);
	if (a->dirty)
		dirty_end(a->dirty);
	if (a->ndev > 1)
		qsort(a->dev, a->ndev, sizeof(*a->dev), cmp_devstat);
	free(a->pidmap);
	a->pidmap = NULL;
	return 0;
}

void driver_close(struct driver *a)
{
	struct source *src = a->src;

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
	wa_free(a->wa);
	dirty_free(a->dirty);
	windows_free(a->win);
	proctable_free(a->sys.pt, procstat_free);
	filetab_free(a->sys.ft, filestat_free);
	sysreplay_free(a->sys.sr);
	decode_free(a->dec);
	source_close(src);
	memset(a, 0, sizeof(*a));
}

size_t driver_anomalies(const struct driver *a, struct anomaly *v)
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
		const struct sysreplay_stats *s = sysreplay_stats(a->sys.sr);
		const struct proctable_stats *p = proctable_stats(a->sys.pt);
		const struct fdtable_stats *f = proctable_fdstats(a->sys.pt);
		uint64_t gaps = 0;

		for (int i = 0; i < a->nr_cpus; i++)
			gaps += a->lost[i].gaps;

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
		A("syscall", "lost_event_gaps", "lost-event gaps", gaps);
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
		  a->dstats->unknown_syscalls);
		A("decode", "decode_errors", "unreadable fields",
		  a->dstats->errors);
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
