// SPDX-License-Identifier: MIT
/*
 * stats.c - what one pass computed (see stats.h): the per-device
 * aggregates, the slowest requests and syscalls, the names behind them,
 * and the one list of the anomaly counters of every stage.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/blk.h"
#include "base/err.h"
#include "base/heap.h"
#include "decode/decode.h"
#include "input/meta.h"
#include "replay/block.h"
#include "replay/syscall.h"
#include "replay/fdtable.h"
#include "replay/proctable.h"
#include "replay/uring.h"
#include "replay/aio.h"
#include "stats/stats.h"

int stats_init(struct stats *st, int nr_cpus, size_t slow_n, bool calls)
{
	memset(st, 0, sizeof(*st));
	st->nr_cpus = nr_cpus;
	st->lost = an_calloc(nr_cpus > 0 ? (size_t)nr_cpus : 1,
			     sizeof(*st->lost));
	st->pidmap = an_calloc(STATS_PIDMAP_BITS / 8, 1);
	if (!st->lost || !st->pidmap)
		return -AN_E_NOMEM;
	if (slow_n) {
		st->slow.cap = slow_n;
		st->slow.v = an_calloc(slow_n, sizeof(*st->slow.v));
		if (!st->slow.v)
			return -AN_E_NOMEM;
	}
	if (slow_n && calls) {
		st->slow_calls.cap = slow_n;
		st->slow_calls.v = an_calloc(slow_n, sizeof(*st->slow_calls.v));
		if (!st->slow_calls.v)
			return -AN_E_NOMEM;
	}
	st->hz = 250;
	return 0;
}

void stats_release(struct stats *st)
{
	for (size_t i = 0; i < st->ndev; i++) {
		hist_release(&st->dev[i].queue);
		hist_release(&st->dev[i].device);
		hist_release(&st->dev[i].total);
		hist_release(&st->dev[i].q2c);
		hist_release(&st->dev[i].q2i);
		hist_release(&st->dev[i].q2m);
	}
	for (size_t i = 0; i < st->nbio; i++)
		hist_release(&st->bio[i].q2m);
	for (size_t i = 0; i < st->nbusy; i++)
		busy_release(&st->busy[i].b);
	stats_btt_release(st);
	free(st->busy);
	free(st->dev);
	free(st->bio);
	free(st->slow.v);
	free(st->slow_calls.v);
	free(st->trig);
	free(st->lost);
	free(st->gapv);
	free(st->pidmap);
	memset(st, 0, sizeof(*st));
}

/* ------------------------------------------------------------------ */
/* Per device and operation */

static struct devstat *devstat_get(struct stats *st, uint32_t dev,
				   enum blk_op op)
{
	struct devstat *d;

	for (size_t i = 0; i < st->ndev; i++)
		if (st->dev[i].dev == dev && st->dev[i].op == op)
			return &st->dev[i];
	d = an_push(&st->dev, &st->ndev, &st->dev_alloc, sizeof(*st->dev), 8);
	if (!d)
		return NULL;
	d->dev = dev;
	d->op = op;
	return d;
}

static struct devbusy *devbusy_get(struct stats *st, uint32_t dev)
{
	struct devbusy *b;

	for (size_t i = 0; i < st->nbusy; i++)
		if (st->busy[i].dev == dev)
			return &st->busy[i];
	b = an_push(&st->busy, &st->nbusy, &st->busy_alloc, sizeof(*st->busy),
		    4);
	if (b)
		b->dev = dev;
	return b;
}

uint64_t stats_dev_busy(const struct stats *st, uint32_t dev)
{
	for (size_t i = 0; i < st->nbusy; i++)
		if (st->busy[i].dev == dev)
			return st->busy[i].busy_ns;
	return 0;
}

void stats_iostat(const struct stats *st, uint32_t dev, struct iostat *io)
{
	memset(io, 0, sizeof(*io));
	io->dev = dev;
	io->span_ns = stats_duration(st);
	for (size_t i = 0; i < st->nbusy; i++)
		if (st->busy[i].dev == dev) {
			io->busy_ns = st->busy[i].busy_ns;
			io->busy_periods = st->busy[i].b.periods;
		}
	for (size_t i = 0; i < st->ndev; i++) {
		const struct devstat *d = &st->dev[i];

		if (d->dev != dev)
			continue;
		io->n[d->op] += d->reqs;
		io->bytes[d->op] += d->bytes;
		io->life_ns[d->op] += d->life_ns;
	}
}

uint64_t iostat_in_queue(const struct iostat *io)
{
	uint64_t sum = 0;

	for (int op = 0; op < BLK_OP_MAX; op++)
		sum += io->life_ns[op];
	return sum;
}

double iostat_aqu(const struct iostat *io)
{
	return io->span_ns ? (double)iostat_in_queue(io) / (double)io->span_ns :
	       0;
}

double iostat_util(const struct iostat *io)
{
	return io->span_ns ? 100.0 * (double)io->busy_ns / (double)io->span_ns :
	       0;
}

double iostat_rate(const struct iostat *io, uint64_t v)
{
	return io->span_ns ? (double)v * 1e9 / (double)io->span_ns : 0;
}

double iostat_await(const struct iostat *io, enum blk_op op)
{
	return io->n[op] ? (double)io->life_ns[op] / (double)io->n[op] : -1;
}

int stats_request(struct stats *st, const struct blk_request *rq)
{
	struct devstat *d = devstat_get(st, rq->dev, rq->op);
	struct devbusy *b = devbusy_get(st, rq->dev);
	bool seq;

	if (!d || !b ||
	    busy_add(&b->b, blk_start_ts(rq), rq->complete_ts) < 0)
		return -AN_E_NOMEM;
	d->life_ns += blk_life_ns(rq);
	d->reqs++;
	d->bytes += rq->bytes;
	d->fua += rq->fua;
	d->preflush += rq->preflush;
	d->errors += rq->error != 0;
	seq = rq->nr_sector && d->reqs > 1 && rq->sector == d->next_sector;
	d->seq += seq;
	d->next_sector = rq->sector + rq->nr_sector;
	sizehist_add(&d->sizes, rq->bytes);
	if (rq->bytes && rq->bytes <= STATS_SMALL) {
		d->small++;
		d->small_dev_ns += rq->complete_ts - rq->issue_ts;
		if (rq->sync || rq->fua || rq->preflush)
			d->small_sync_bytes += rq->bytes;
	}
	if ((rq->insert_ts && rq->issue_ts &&
	     hist_add(&d->queue, rq->issue_ts - rq->insert_ts) < 0) ||
	    hist_add(&d->device, rq->complete_ts - rq->issue_ts) < 0 ||
	    hist_add(&d->total, blk_total_ns(rq)) < 0 ||
	    (rq->queue_ts && rq->queue_ts <= rq->complete_ts &&
	     hist_add(&d->q2c, rq->complete_ts - rq->queue_ts) < 0) ||
	    (rq->queue_ts && rq->insert_ts && rq->queue_ts <= rq->insert_ts &&
	     hist_add(&d->q2i, rq->insert_ts - rq->queue_ts) < 0) ||
	    stats_btt_request(st, rq) < 0)
		return -AN_E_NOMEM;
	return seq;
}

int stats_proc_request(struct proc *p, const struct blk_request *rq,
		       bool seq)
{
	struct procstat *ps;

	int w = rq->op == BLK_OP_WRITE;

	if (!p || !rq->bytes || (!w && rq->op != BLK_OP_READ))
		return 0;
	ps = procstat_of(p);
	if (ps && !ps->shape)
		ps->shape = an_calloc(1, sizeof(*ps->shape));
	if (!ps || !ps->shape)
		return -AN_E_NOMEM;
	sizehist_add(&ps->shape->sizes[w], rq->bytes);
	ps->shape->seq[w] += seq;
	return 0;
}

int stats_bio(struct stats *st, uint32_t dev, enum blk_op op,
	      uint32_t sectors, bool merge, int64_t q2m_ns)
{
	struct biostat *b = NULL;

	for (size_t i = 0; i < st->nbio; i++)
		if (st->bio[i].dev == dev && st->bio[i].op == op) {
			b = &st->bio[i];
			break;
		}
	if (!b) {
		b = an_push(&st->bio, &st->nbio, &st->bio_alloc,
			    sizeof(*st->bio), 8);
		if (!b)
			return -AN_E_NOMEM;
		b->dev = dev;
		b->op = op;
	}
	if (merge) {
		b->merges++;
		b->merged_bytes += (uint64_t)sectors * BLK_SECTOR_SIZE;
		if (q2m_ns >= 0 && hist_add(&b->q2m, (uint64_t)q2m_ns) < 0)
			return -AN_E_NOMEM;
	} else {
		b->bios++;
	}
	return 0;
}

static int cmp_devstat(const void *x, const void *y)
{
	const struct devstat *a = x, *b = y;

	return stats_devop_cmp(a->dev, a->op, b->dev, b->op);
}

/* ------------------------------------------------------------------ */
/* The slowest */

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

void stats_keep_request(struct stats *st, const struct blk_done *d)
{
	heap_offer(st->slow.v, &st->slow.n, st->slow.cap, sizeof(*d),
		   req_slower, d);
}

const struct blk_done *stats_slowest(struct stats *st, size_t *n)
{
	/* sorting breaks the heap: the pass is over by now */
	if (st->slow.n > 1)
		qsort(st->slow.v, st->slow.n, sizeof(*st->slow.v), cmp_slow);
	*n = st->slow.n;
	return st->slow.v;
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
static bool call_wanted(const struct stats *st, const struct sys_call *c)
{
	struct slow_call x;

	if (!st->slow_calls.cap || !c->paired)
		return false;
	if (st->slow_calls.n < st->slow_calls.cap)
		return true;
	x.start = c->start;
	x.end = c->end;
	x.tid = c->tid;
	return call_slower(&x, &st->slow_calls.v[0]);
}

static int cmp_call(const void *a, const void *b)
{
	return call_slower(a, b) ? -1 : call_slower(b, a) ? 1 : 0;
}

void stats_call(struct stats *st, const struct proc *p, const struct file *f,
		const struct sys_call *c)
{
	const struct sys_kind_info *ki = sys_kind_info(c->kind);
	struct slow_call s;

	if (!call_wanted(st, c))
		return;
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
	heap_offer(st->slow_calls.v, &st->slow_calls.n, st->slow_calls.cap,
		   sizeof(s), call_slower, &s);
}

const struct slow_call *stats_slowest_calls(struct stats *st, size_t *n)
{
	if (st->slow_calls.n > 1)
		qsort(st->slow_calls.v, st->slow_calls.n,
		      sizeof(*st->slow_calls.v), cmp_call);
	*n = st->slow_calls.n;
	return st->slow_calls.v;
}

/* ------------------------------------------------------------------ */
/* Names */

const char *stats_request_file(const struct stats *st,
			       const struct blk_done *d)
{
	struct file *f = d->own.file;

	if (!d->attributed)
		return NULL;
	if (!f && d->own.ino && st->at && st->ended)
		f = attrib_inode_file(st->at, d->own.dev, d->own.ino);
	return f ? file_name(f) : NULL;
}

void stats_request_owner(const struct blk_done *d, int *pid,
			 const char **comm)
{
	const struct proc *p = d->attributed ? d->own.proc : NULL;

	*pid = p ? p->pid : -1;
	*comm = p ? p->comm : NULL;
}

bool stats_request_ids(const struct blk_done *d, int *proc_id, int *file_id,
		       const char **how, uint32_t *dev, uint64_t *ino)
{
	const struct attrib_owner *own = &d->own;

	*proc_id = *file_id = -1;
	*how = NULL;
	*dev = 0;
	*ino = 0;
	if (!d->attributed)
		return false;
	*how = attrib_kind_name(own->kind);
	if (own->proc)
		*proc_id = own->proc->id;
	if (own->file)
		*file_id = own->file->id;
	if (own->file || !own->ino)
		return false;
	*dev = own->dev;
	*ino = own->ino;
	return true;
}

int stats_inode_file_id(const struct stats *st, uint32_t dev, uint64_t ino)
{
	const struct file *f = st->at ? attrib_inode_file(st->at, dev, ino) :
				NULL;

	return f ? f->id : -1;
}

const char *stats_call_file(const struct slow_call *c)
{
	return c->file ? file_name(c->file) : NULL;
}

const char *stats_comm(const struct stats *st, int pid)
{
	return st->dec ? decode_comm(st->dec, pid) : "<...>";
}

const char *stats_dev_name(const struct stats *st, uint32_t dev, char *buf,
			   size_t n)
{
	if (!meta_dev_name(st->info->snapshot_start, dev, buf, n))
		blk_dev_str(dev, buf, n);
	return buf;
}

void stats_gap(struct stats *st, int cpu, uint64_t ts, long long missed)
{
	struct lostcpu *l = &st->lost[cpu];
	uint64_t from = l->last_ts ? l->last_ts : st->first_ts;

	if (ts < from)
		from = ts;
	l->missing_ns += ts - from;
	if (!l->longest_to || ts - from > l->longest_to - l->longest_from) {
		l->longest_from = from;
		l->longest_to = ts;
	}
	/* the list is what it can hold: the counters above have them all */
	if (st->ngaps < STATS_GAPS_MAX &&
	    !an_grow(&st->gapv, &st->agaps, st->ngaps + 1, sizeof(*st->gapv),
		     16))
		st->gapv[st->ngaps++] = (struct lostgap){
			.from = from, .to = ts, .events = missed > 0 ? missed : -1,
			.cpu = cpu };
}

uint64_t stats_lost(const struct stats *st, uint64_t *gaps)
{
	uint64_t t = 0;

	*gaps = 0;
	for (int i = 0; i < st->nr_cpus; i++) {
		t += st->lost[i].events;
		*gaps += st->lost[i].gaps;
	}
	return t;
}

uint64_t stats_duration(const struct stats *st)
{
	return st->last_ts > st->first_ts ? st->last_ts - st->first_ts : 0;
}

/* ------------------------------------------------------------------ */
/* The end */

void stats_end(struct stats *st)
{
	st->ended = true;
	stats_btt_end(st);
	/* the bios of a device and operation that completed requests */
	for (size_t i = 0; i < st->nbio; i++)
		for (size_t k = 0; k < st->ndev; k++)
			if (st->dev[k].dev == st->bio[i].dev &&
			    st->dev[k].op == st->bio[i].op) {
				st->dev[k].bios = st->bio[i].bios;
				st->dev[k].merges = st->bio[i].merges;
				st->dev[k].merged_bytes = st->bio[i].merged_bytes;
				/* moved: the bio's buckets are the device's */
				st->dev[k].q2m = st->bio[i].q2m;
				memset(&st->bio[i].q2m, 0, sizeof(st->bio[i].q2m));
			}
	if (st->ndev > 1)
		qsort(st->dev, st->ndev, sizeof(*st->dev), cmp_devstat);
	for (size_t i = 0; i < st->nbusy; i++)
		st->busy[i].busy_ns = busy_cut(&st->busy[i].b, UINT64_MAX);
	if (st->pt)
		st->processes = proctable_count(st->pt);
	free(st->pidmap);
	st->pidmap = NULL;
}
