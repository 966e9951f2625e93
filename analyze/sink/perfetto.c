// SPDX-License-Identifier: MIT
/*
 * perfetto.c - the Chrome/Perfetto trace event JSON of a recording (see
 * perfetto.h): {"traceEvents": [...], "displayTimeUnit": "ns",
 * "metadata": {...}}.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/blk.h"
#include "base/err.h"
#include "base/imap.h"
#include "input/meta.h"
#include "sink/json.h"
#include "sink/perfetto.h"
#include "sink/sink.h"
#include "stats/dirty.h"
#include "stats/filter.h"
#include "stats/rows.h"

/* More requests in flight on one device than this share the last lane. */
#define MAX_LANES	256

struct devlanes {
	uint32_t dev;
	int pid;			/* PERFETTO_DEV_PID + index */
	uint64_t lane_end[MAX_LANES];	/* complete ts of the last request */
	int nlanes;
};

struct perfetto {
	FILE *out;
	struct json j;
	struct stats *st;
	struct sink sink;		/* device names */
	struct devlanes *devs;
	size_t ndevs, devs_alloc;
	struct imap thr;		/* tid -> pid + 1 */
	struct perfetto_counts n;
	bool started;
	int err;
};

struct perfetto *perfetto_new(FILE *out, struct stats *st)
{
	struct perfetto *p = an_calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->out = out;
	p->st = st;
	json_init(&p->j, out);
	sink_init(&p->sink, st, out, NULL);
	imap_init(&p->thr);
	return p;
}

void perfetto_free(struct perfetto *p)
{
	if (!p)
		return;
	sink_release(&p->sink);
	imap_release(&p->thr);
	free(p->devs);
	free(p);
}

static void start(struct perfetto *p)
{
	if (p->started)
		return;
	p->started = true;
	json_object_begin(&p->j, NULL);
	json_array_begin(&p->j, "traceEvents");
}

/* One event a line: compact inside, a newline before the next. */
static void end(struct perfetto *p)
{
	json_object_end(&p->j);
	p->j.compact = false;
}

/* Begin one event object of phase ph on pid/tid. */
static void event(struct perfetto *p, const char *ph, const char *name,
		  const char *cat, int pid, int tid)
{
	start(p);
	json_object_begin(&p->j, NULL);
	p->j.compact = true;
	json_str(&p->j, "ph", ph);
	json_str(&p->j, "name", name);
	if (cat)
		json_str(&p->j, "cat", cat);
	json_i64(&p->j, "pid", pid);
	json_i64(&p->j, "tid", tid);
}

/* A complete slice ("X") from a to b on pid/tid, args left open. */
static void slice(struct perfetto *p, const char *name, const char *cat,
		  int pid, int tid, uint64_t a, uint64_t b)
{
	event(p, "X", name, cat, pid, tid);
	json_us(&p->j, "ts", a);
	json_us(&p->j, "dur", b > a ? b - a : 0);
}

static struct devlanes *dev_of(struct perfetto *p, uint32_t dev)
{
	struct devlanes *d;

	for (size_t i = 0; i < p->ndevs; i++)
		if (p->devs[i].dev == dev)
			return &p->devs[i];
	if (an_grow(&p->devs, &p->devs_alloc, p->ndevs + 1, sizeof(*p->devs),
		    4)) {
		p->err = -AN_E_NOMEM;
		return NULL;
	}
	d = &p->devs[p->ndevs];
	memset(d, 0, sizeof(*d));
	d->dev = dev;
	d->pid = PERFETTO_DEV_PID + (int)p->ndevs++;
	return d;
}

/*
 * The lane of a request [a, b]: requests complete in order, so a lane
 * whose last request ended by a is free for the whole of [a, b].
 */
static int lane_of(struct devlanes *d, uint64_t a, uint64_t b)
{
	int i;

	for (i = 0; i < d->nlanes; i++)
		if (d->lane_end[i] <= a)
			break;
	if (i == d->nlanes) {
		if (d->nlanes == MAX_LANES)
			i = MAX_LANES - 1;
		else
			d->nlanes++;
	}
	if (b > d->lane_end[i])
		d->lane_end[i] = b;
	return i;
}

void perfetto_request(const struct blk_done *done, void *arg)
{
	struct perfetto *p = arg;
	const struct blk_request *rq = &done->rq;
	uint64_t a = rq->insert_ts ? rq->insert_ts : rq->issue_ts;
	uint64_t issue = rq->issue_ts ? rq->issue_ts : a;
	struct devlanes *d;
	const char *file, *comm;
	char flags[BLK_RWBS_LEN];
	int lane, pid;

	if (!a || !(d = dev_of(p, rq->dev)))
		return;
	lane = lane_of(d, a, rq->complete_ts);
	slice(p, blk_op_name(rq->op), "block", d->pid, d->pid + lane, a,
	      rq->complete_ts);
	json_object_begin(&p->j, "args");
	json_u64(&p->j, "sector", rq->sector);
	json_u64(&p->j, "bytes", rq->bytes);
	json_str(&p->j, "rwbs", blk_rwbs(rq, flags));
	if (rq->error)
		json_i64(&p->j, "error", rq->error);
	stats_request_owner(done, &pid, &comm);
	if (pid < 0) {
		pid = rq->insert_pid >= 0 ? rq->insert_pid : rq->issue_pid;
		comm = rq->comm;
	}
	if (pid >= 0)
		json_i64(&p->j, "pid", pid);
	if (comm && *comm)
		json_str(&p->j, "comm", comm);
	file = stats_request_file(p->st, done);
	if (file)
		json_str(&p->j, "file", file);
	if (rq->insert_ts && rq->issue_ts)
		json_us(&p->j, "queue_us", rq->issue_ts - rq->insert_ts);
	json_us(&p->j, "device_us", rq->complete_ts - issue);
	json_object_end(&p->j);
	end(p);
	p->n.requests++;
	if (rq->insert_ts && rq->issue_ts) {
		slice(p, "queue", "block", d->pid, d->pid + lane,
		      rq->insert_ts, rq->issue_ts);
		end(p);
		p->n.phases++;
	}
	slice(p, "device", "block", d->pid, d->pid + lane, issue,
	      rq->complete_ts);
	end(p);
	p->n.phases++;
}

void perfetto_call(void *arg, const struct sys_call *c, int proc_id,
		   int file_id)
{
	struct perfetto *p = arg;
	const struct sys_kind_info *k = sys_kind_info(c->kind);
	struct file_info fi;
	int pid = sink_call_pid(p->st, c, proc_id);
	int fd = sys_call_fd(c);

	if (imap_put(&p->thr, c->tid, (void *)(intptr_t)(pid + 1), NULL))
		p->err = -AN_E_NOMEM;
	if (c->paired) {
		slice(p, k->name, "syscall", pid, c->tid, c->start, c->end);
		p->n.calls++;
	} else {
		/* the exit of a call entered before the recording began */
		event(p, "i", k->name, "syscall", pid, c->tid);
		json_us(&p->j, "ts", c->end);
		json_str(&p->j, "s", "t");
		p->n.calls_unpaired++;
	}
	json_object_begin(&p->j, "args");
	if (fd >= 0)
		json_i64(&p->j, "fd", fd);
	if (rows_file_at(p->st, file_id, &fi))
		json_str(&p->j, "file", file_info_name(&fi));
	else if (c->path)
		json_str(&p->j, "file", c->path);
	if ((k->flags & (SKF_READ | SKF_WRITE)) && c->ret >= 0)
		json_i64(&p->j, "bytes", c->ret);
	json_i64(&p->j, "ret", c->ret);
	json_object_end(&p->j);
	end(p);
}

/* A metadata event: process_name or thread_name of pid/tid. */
static void name_event(struct perfetto *p, const char *what, int pid,
		       int tid, const char *name)
{
	event(p, "M", what, NULL, pid, tid);
	json_object_begin(&p->j, "args");
	json_str(&p->j, "name", name);
	json_object_end(&p->j);
	end(p);
}

static int names(struct perfetto *p)
{
	struct proc_row *rows = NULL;
	long n = rows_processes(p->st, true, &rows);
	char buf[96];
	size_t pos = 0;
	int tid;
	void *v;

	if (n < 0)
		return (int)n;
	for (long i = 0; i < n; i++) {
		const struct proc_info *pi = &rows[i].p;

		if (!rows[i].ps)
			continue;	/* no call, no I/O: no track */
		snprintf(buf, sizeof(buf), "%s", pi->comm ? pi->comm : "?");
		name_event(p, "process_name", pi->pid, pi->pid, buf);
		p->n.processes++;
	}
	free(rows);
	while (imap_next(&p->thr, &pos, &tid, &v)) {
		int pid = (int)(intptr_t)v - 1;

		name_event(p, "thread_name", pid, tid,
			   rows_comm_at(p->st, tid, p->st->last_ts));
		p->n.threads++;
	}
	for (size_t i = 0; i < p->ndevs; i++) {
		struct devlanes *d = &p->devs[i];
		const char *dn = sink_dev_name(&p->sink, d->dev);

		snprintf(buf, sizeof(buf), "block device %s", dn);
		name_event(p, "process_name", d->pid, d->pid, buf);
		for (int l = 0; l < d->nlanes; l++) {
			snprintf(buf, sizeof(buf), "%s requests %d", dn, l + 1);
			name_event(p, "thread_name", d->pid, d->pid + l, buf);
		}
		p->n.devices++;
		p->n.lanes += (uint64_t)d->nlanes;
	}
	return 0;
}

/* A sample of the two counters k1 and k2 of track name at ts. */
static void counter(struct perfetto *p, const char *name, uint64_t ts,
		    const char *k1, uint64_t v1, const char *k2, uint64_t v2)
{
	event(p, "C", name, "memory", PERFETTO_MEM_PID, PERFETTO_MEM_PID);
	json_us(&p->j, "ts", ts);
	json_object_begin(&p->j, "args");
	json_u64(&p->j, k1, v1);
	json_u64(&p->j, k2, v2);
	json_object_end(&p->j);
	end(p);
}

/* Dirty and writeback pages, one sample per 100 ms slot that has one. */
static void counters(struct perfetto *p)
{
	const struct dirty *d = p->st->dirty;

	if (!d)
		return;
	name_event(p, "process_name", PERFETTO_MEM_PID, PERFETTO_MEM_PID,
		   "memory (global_dirty_state)");
	for (size_t i = 0; i < d->nslot; i++) {
		const struct dirty_slot *s = &d->slot[i];
		uint64_t ts = d->t0 + i * DIRTY_SLOT_NS;

		/* --since/--until: the samples inside the window only */
		if (!s->gds || !filter_time(p->st->filter, ts))
			continue;
		counter(p, "dirty pages", ts, "dirty", s->nr_dirty,
			"writeback", s->nr_writeback);
		counter(p, "dirty thresholds", ts, "background", s->bg_thresh,
			"limit", s->thresh);
		p->n.counters++;
	}
}

static int kv_meta(const char *key, size_t klen, const char *val,
		   size_t vlen, void *arg)
{
	struct json *j = arg;
	char k[64];

	if (klen >= sizeof(k))
		return 0;
	memcpy(k, key, klen);
	k[klen] = '\0';
	json_strn(j, k, val, vlen);
	return 0;
}

static void metadata(struct perfetto *p)
{
	const struct source_info *in = p->st->info;
	struct meta_wall w;

	json_object_begin(&p->j, "metadata");
	json_str(&p->j, "source", in->path);
	json_str(&p->j, "format", in->kind == SOURCE_IOREC ? "iorec" :
		 "trace.dat");
	json_str(&p->j, "integrity", meta_integrity(in->integrity));
	json_u64(&p->j, "first_ts_ns", p->st->first_ts);
	json_u64(&p->j, "last_ts_ns", p->st->last_ts);
	/* the wall clock of trace time t: t - start_mono_ns + start_realtime_ns */
	if (meta_wall(in->header_text, &w)) {
		json_str(&p->j, "wall_clock",
			 "realtime_ns = ts_ns - start_mono_ns + start_realtime_ns");
		json_u64(&p->j, "start_realtime_ns", w.real_ns);
		json_u64(&p->j, "start_mono_ns", w.mono_ns);
	}
	json_object_begin(&p->j, "header");
	meta_kv_each(in->header_text, kv_meta, &p->j);
	json_object_end(&p->j);
	json_object_begin(&p->j, "counts");
	json_u64(&p->j, "syscall_slices", p->n.calls);
	json_u64(&p->j, "syscall_instants", p->n.calls_unpaired);
	json_u64(&p->j, "request_slices", p->n.requests);
	json_u64(&p->j, "phase_slices", p->n.phases);
	json_u64(&p->j, "counter_samples", p->n.counters);
	json_object_end(&p->j);
	json_object_end(&p->j);
}

int perfetto_finish(struct perfetto *p, struct perfetto_counts *counts)
{
	int ret = p->err;

	if (!ret)
		ret = names(p);
	if (ret)
		return ret;
	counters(p);
	start(p);
	json_array_end(&p->j);
	json_str(&p->j, "displayTimeUnit", "ns");
	metadata(p);
	json_object_end(&p->j);
	if (counts)
		*counts = p->n;
	return json_finish(&p->j) < 0 ? -AN_E_IO : 0;
}
