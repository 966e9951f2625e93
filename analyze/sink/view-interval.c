// SPDX-License-Identifier: MIT
/*
 * view-interval.c - `devices --interval SEC` and `processes --interval
 * SEC`: one block of rows per interval as the pass hands the slots on
 * (stats/interval.h), like iostat -d and biotop; in JSON an "intervals"
 * array beside the view's members.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "base/err.h"
#include "sink/histtext.h"
#include "sink/json.h"
#include "sink/sink.h"
#include "stats/interval.h"
#include "stats/rows.h"
#include "stats/stats.h"

void view_interval_begin(struct sink *s, const char *path, uint64_t width,
			 bool procs, long top)
{
	s->ivl_procs = procs;
	s->ivl_top = top;
	if (s->j) {
		json_u64(s->j, "interval_ns", width);
		json_array_begin(s->j, "intervals");
		return;
	}
	fprintf(s->out, "%s: %s every %.3f s from the first event\n\n",
		path, procs ? "processes" : "devices",
		(double)width / 1e9);
}

void view_interval_end(struct sink *s)
{
	if (s->j)
		json_array_end(s->j);
}

/* "2.000-3.000 s" and, with a wall clock, " (12:03:04.123456)". */
static void slot_head(struct sink *s, const struct ivl_slot *sl)
{
	char wall[64];

	if (sl->count > 1)
		fprintf(s->out, "intervals %" PRIu64 "-%" PRIu64, sl->index,
			sl->index + sl->count - 1);
	else
		fprintf(s->out, "interval %" PRIu64, sl->index);
	fprintf(s->out, ": %.3f-%.3f s", (double)sl->start_ns / 1e9,
		(double)sl->end_ns / 1e9);
	if (sink_wallclock(s->st->info, sl->start_ts, false, wall,
			   sizeof(wall)))
		fprintf(s->out, " (%s)", wall);
}

static double per_s(uint64_t v, const struct ivl_slot *sl)
{
	uint64_t w = sl->end_ns - sl->start_ns;

	return w ? (double)v * 1e9 / (double)w : 0;
}

static double avg_ms(uint64_t sum, uint64_t n)
{
	return n ? (double)sum / (double)n / 1e6 : 0;
}

static void devices_text(struct sink *s, const struct ivl_slot *sl)
{
	char b[32];

	fprintf(s->out, "  %-12s %-7s %8s %9s %8s %8s %8s %8s %8s\n", "DEVICE",
		"OP", "REQS", "IOPS", "BYTES", "MiB/s", "AVG(ms)", "D2C(ms)",
		"MAX(ms)");
	for (size_t i = 0; i < sl->ndev; i++) {
		const struct ivl_dev *d = &sl->dev[i];

		if (s->wide)
			snprintf(b, sizeof(b), "%" PRIu64, d->bytes);
		else
			units_bytes_short(b, sizeof(b), d->bytes);
		fprintf(s->out, "  %-12.12s %-7s %8" PRIu64 " %9.1f %8s %8.2f %8.3f %8.3f %8.3f\n",
			sink_dev_name(s, d->dev), blk_op_name(d->op),
			d->requests, per_s(d->requests, sl), b,
			units_mib(per_s(d->bytes, sl)),
			avg_ms(d->total_ns, d->requests),
			avg_ms(d->d2c_ns, d->requests), (double)d->max_ns / 1e6);
	}
	fputc('\n', s->out);
	sink_iostat_head(s);
	for (size_t i = 0; i < sl->ndev; i++) {
		struct iostat io;

		if (i && sl->dev[i - 1].dev == sl->dev[i].dev)
			continue;
		ivl_iostat(sl, sl->dev[i].dev, &io);
		sink_iostat_row(s, &io);
	}
	/* iolatency's form: the histograms of the interval */
	for (size_t i = 0; !s->no_hist && i < sl->ndev; i++) {
		if (!sl->dev[i].device.count)
			continue;
		fprintf(s->out, "\n  %s %s: device time (issue -> complete)\n",
			sink_dev_name(s, sl->dev[i].dev),
			blk_op_name(sl->dev[i].op));
		hist_text_log2(s->out, &sl->dev[i].device);
	}
}

static uint64_t proc_bytes(const struct ivl_proc *p)
{
	return p->read_bytes + p->write_bytes + p->blk_bytes;
}

static int cmp_busy(const void *a, const void *b)
{
	const struct ivl_proc *x = *(const struct ivl_proc *const *)a;
	const struct ivl_proc *y = *(const struct ivl_proc *const *)b;
	uint64_t bx = proc_bytes(x), by = proc_bytes(y);

	if (bx != by)
		return bx > by ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return (x->proc_id > y->proc_id) - (x->proc_id < y->proc_id);
}

/* The slot's processes, busiest first (bytes, then calls). */
static const struct ivl_proc **busiest(struct sink *s, const struct ivl_slot *sl)
{
	const struct ivl_proc **v = an_calloc(sl->nproc + 1, sizeof(*v));

	if (!v) {
		sink_fail(s, -AN_E_NOMEM);
		return NULL;
	}
	for (size_t i = 0; i < sl->nproc; i++)
		v[i] = &sl->proc[i];
	qsort(v, sl->nproc, sizeof(*v), cmp_busy);
	return v;
}

static void processes_text(struct sink *s, const struct ivl_slot *sl,
			   const struct ivl_proc **v, size_t n)
{
	char rb[32], wb[32], bb[32];

	fprintf(s->out, "  %8s %-16s %7s %7s %8s %7s %8s %6s %8s %9s\n", "PID",
		"COMM", "CALLS", "READS", "R-BYTES", "WRITES", "W-BYTES",
		"SYNCS", "BLK-B", "LAT(ms)");
	for (size_t i = 0; i < n; i++) {
		const struct ivl_proc *p = v[i];
		struct proc_info pi;

		if (!rows_proc_at(s->st, p->proc_id, &pi))
			memset(&pi, 0, sizeof(pi));
		if (s->wide) {
			snprintf(rb, sizeof(rb), "%" PRIu64, p->read_bytes);
			snprintf(wb, sizeof(wb), "%" PRIu64, p->write_bytes);
			snprintf(bb, sizeof(bb), "%" PRIu64, p->blk_bytes);
		} else {
			units_bytes_short(rb, sizeof(rb), p->read_bytes);
			units_bytes_short(wb, sizeof(wb), p->write_bytes);
			units_bytes_short(bb, sizeof(bb), p->blk_bytes);
		}
		fprintf(s->out, "  %8d %-16.16s %7" PRIu64 " %7" PRIu64 " %8s %7"
			PRIu64 " %8s %6" PRIu64 " %8s %9.3f\n", pi.pid,
			pi.comm ? pi.comm : "?", p->calls, p->reads, rb,
			p->writes, wb, p->syncs, bb, (double)p->lat_ns / 1e6);
	}
	if (n < sl->nproc)
		fprintf(s->out, "  (%zu more processes; --top N shows more)\n",
			sl->nproc - n);
}

static const struct json_u64_field dev_fields[] = {
	JSON_U64("requests", struct ivl_dev, requests),
	JSON_U64("bytes", struct ivl_dev, bytes),
	JSON_U64("total_ns", struct ivl_dev, total_ns),
	JSON_U64("d2c_ns", struct ivl_dev, d2c_ns),
	JSON_U64("max_ns", struct ivl_dev, max_ns),
	JSON_U64("in_flight_ns", struct ivl_dev, life_ns),
};

static const struct json_u64_field proc_fields[] = {
	JSON_U64("calls", struct ivl_proc, calls),
	JSON_U64("reads", struct ivl_proc, reads),
	JSON_U64("read_bytes", struct ivl_proc, read_bytes),
	JSON_U64("writes", struct ivl_proc, writes),
	JSON_U64("write_bytes", struct ivl_proc, write_bytes),
	JSON_U64("syncs", struct ivl_proc, syncs),
	JSON_U64("latency_ns", struct ivl_proc, lat_ns),
	JSON_U64("blk_requests", struct ivl_proc, blk_requests),
	JSON_U64("blk_bytes", struct ivl_proc, blk_bytes),
};

static void slot_json(struct sink *s, const struct ivl_slot *sl,
		      const struct ivl_proc **v, size_t n)
{
	struct json *j = s->j;

	json_object_begin(j, NULL);
	json_u64(j, "index", sl->index);
	json_u64(j, "count", sl->count);
	json_u64(j, "start_ns", sl->start_ns);
	json_u64(j, "end_ns", sl->end_ns);
	if (!s->ivl_procs) {
		json_array_begin(j, "devices");
		for (size_t i = 0; i < sl->ndev; i++) {
			const struct ivl_dev *d = &sl->dev[i];

			json_object_begin(j, NULL);
			json_str(j, "device", sink_dev_name(s, d->dev));
			json_str(j, "op", blk_op_name(d->op));
			json_u64s(j, d, dev_fields, ARRAY_SIZE(dev_fields));
			json_hist(j, "d2c", &d->device);
			json_object_end(j);
		}
		json_array_end(j);
		json_array_begin(j, "iostat");
		for (size_t i = 0; i < sl->ndev; i++) {
			struct iostat io;

			if (i && sl->dev[i - 1].dev == sl->dev[i].dev)
				continue;
			ivl_iostat(sl, sl->dev[i].dev, &io);
			json_object_begin(j, NULL);
			sink_iostat_json(s, &io);
			json_object_end(j);
		}
		json_array_end(j);
	} else {
		json_array_begin(j, "processes");
		for (size_t i = 0; i < n; i++) {
			const struct ivl_proc *p = v[i];
			struct proc_info pi;

			if (!rows_proc_at(s->st, p->proc_id, &pi))
				memset(&pi, 0, sizeof(pi));
			json_object_begin(j, NULL);
			json_i64(j, "pid", pi.pid);
			json_str(j, "comm", pi.comm);
			json_u64s(j, p, proc_fields, ARRAY_SIZE(proc_fields));
			json_object_end(j);
		}
		json_array_end(j);
		json_u64(j, "processes_total", sl->nproc);
	}
	json_object_end(j);
}

int view_interval_slot(void *arg, const struct ivl_slot *sl)
{
	struct sink *s = arg;
	const struct ivl_proc **v = NULL;
	size_t n = 0;

	if (s->ivl_procs && sl->nproc) {
		v = busiest(s, sl);
		if (!v)
			return s->err;
		n = s->ivl_top > 0 && (size_t)s->ivl_top < sl->nproc ?
		    (size_t)s->ivl_top : sl->nproc;
	}
	if (s->j) {
		slot_json(s, sl, v, n);
	} else {
		slot_head(s, sl);
		if (sl->count > 1 || !(s->ivl_procs ? sl->nproc : sl->ndev)) {
			fprintf(s->out, ": %s\n\n", s->ivl_procs ?
				"no file syscalls or block I/O" : "no requests");
		} else {
			fputc('\n', s->out);
			if (s->ivl_procs)
				processes_text(s, sl, v, n);
			else
				devices_text(s, sl);
			fputc('\n', s->out);
		}
	}
	free(v);
	return s->err;
}
