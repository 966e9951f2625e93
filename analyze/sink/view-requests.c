// SPDX-License-Identifier: MIT
/*
 * view-requests.c - the devices, slow and snoop views: per device and
 * operation the requests and their latency, the slowest requests and
 * syscalls, one line per request (see sink.h).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iorec-format.h"
#include "util.h"
#include "base/blk.h"
#include "input/meta.h"
#include "stats/summary.h"
#include "sink/json.h"
#include "sink/histtext.h"
#include "sink/sink.h"

/* ------------------------------------------------------------------ */
/* Devices */

static void print_ms(FILE *out, uint64_t ns)
{
	fprintf(out, " %10.3f", (double)ns / 1e6);
}

static void lat_table(struct sink *s, const char *title, size_t off,
		      bool queue)
{
	struct stats *a = s->st;

	/* the default fits 100 columns: names of 10, counts of 8 */
	int dw = s->wide ? 20 : 10, ow = s->wide ? 8 : 5, nw = s->wide ? 9 : 8;
	char nb[64];

	fprintf(s->out, "\n%s:\n", title);
	fprintf(s->out, "  %-*s %-*s %*s %10s %10s %10s %10s %10s %10s\n", dw,
		"DEVICE", ow, "OP", nw, "N", "AVG(ms)", "P50(ms)", "P90(ms)",
		"P99(ms)", "P99.9(ms)", "MAX(ms)");
	for (size_t i = 0; i < a->ndev; i++) {
		const struct hist *h =
			(const struct hist *)((const char *)&a->dev[i] + off);

		fprintf(s->out, "  %-*s %-*s %*" PRIu64, dw,
			sink_head(s, sink_dev_name(s, a->dev[i].dev), 10, nb,
				  sizeof(nb)),
			ow, blk_op_name(a->dev[i].op), nw, h->count);
		if (queue) {
			struct dev_measure m;

			summary_measure(a, a->dev[i].dev, &m);
			if (!m.i2d) {
				fprintf(s->out, "  not measurable: %s\n",
					!strcmp(m.scheduler, "none") ?
					"no I/O scheduler" :
					"no request inserted");
				continue;
			}
		}
		if (!h->count) {
			fprintf(s->out, " %10s %10s %10s %10s %10s %10s\n", "-", "-",
			       "-", "-", "-", "-");
			continue;
		}
		print_ms(s->out, hist_avg(h));
		print_ms(s->out, hist_pct(h, 50));
		print_ms(s->out, hist_pct(h, 90));
		print_ms(s->out, hist_pct(h, 99));
		print_ms(s->out, hist_pct(h, 99.9));
		print_ms(s->out, h->max);
		fprintf(s->out, "\n");
	}
}

/* The share n of d in percent, "-" when d is 0. */
static const char *pct(char *buf, size_t len, uint64_t n, uint64_t d)
{
	if (!d)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f", 100.0 * (double)n / (double)d);
	return buf;
}

/*
 * Request sizes (bitesize), the sequential share (biopattern: a request
 * that starts where the previous one of its device and operation
 * ended) and the bios merged into queued requests (btt's Q2M).
 */
static void shape_table(struct sink *s)
{
	struct stats *a = s->st;
	int dw = s->wide ? 20 : 10, ow = s->wide ? 8 : 5;

	fprintf(s->out, "\nrequest sizes, pattern (sequential: starts where the previous ended), merges (Q2M):\n");
	fprintf(s->out, "  %-*s %-*s %8s %*s %6s %6s %9s %9s %*s %6s\n", dw,
		"DEVICE", ow, "OP", "REQS", s->wide ? 12 : 7, "AVG-SZ", "SEQ%",
		"RAND%", "BIOS", "MERGED", s->wide ? 14 : 9, "MRG-BYTES",
		"MRG%");
	for (size_t i = 0; i < a->ndev; i++) {
		const struct devstat *d = &a->dev[i];
		uint64_t n = d->sizes.count;
		char nb[64], sz[32], sq[16], rn[16], bi[32], mg[32], mb[32];
		char mp[16];

		if (!n && !d->bios && !d->merges)
			continue;	/* flushes: no data, no bios */
		if (!n)
			snprintf(sz, sizeof(sz), "-");
		else if (s->wide)
			snprintf(sz, sizeof(sz), "%" PRIu64, d->sizes.bytes / n);
		else
			units_bytes_short(sz, sizeof(sz), d->sizes.bytes / n);
		snprintf(bi, sizeof(bi), a->bio_events ? "%" PRIu64 : "-",
			 d->bios);
		snprintf(mg, sizeof(mg), a->merge_events ? "%" PRIu64 : "-",
			 d->merges);
		if (!a->merge_events)
			snprintf(mb, sizeof(mb), "-");
		else if (s->wide)
			snprintf(mb, sizeof(mb), "%" PRIu64, d->merged_bytes);
		else
			units_bytes_short(mb, sizeof(mb), d->merged_bytes);
		fprintf(s->out, "  %-*s %-*s %8" PRIu64 " %*s %6s %6s %9s %9s %*s %6s\n",
			dw, s->wide ? sink_dev_name(s, d->dev) :
			sink_head(s, sink_dev_name(s, d->dev), 10, nb, sizeof(nb)),
			ow, blk_op_name(d->op), n, s->wide ? 12 : 7, sz,
			pct(sq, sizeof(sq), d->seq, n),
			pct(rn, sizeof(rn), n - d->seq, n), bi, mg,
			s->wide ? 14 : 9, mb,
			a->bio_events && a->merge_events ?
			pct(mp, sizeof(mp), d->merges, d->bios) : "-");
	}
}

/* What is measurable on a device without queueing, in one sentence. */
static const char *measure_note(const struct dev_measure *m)
{
	return m->q2c ? "Q2I and I2D not measurable, total is D2C; Q2C from its bios" :
	       "Q2I and I2D not measurable, total is D2C";
}

/*
 * One line per device whose requests went straight to the driver: what
 * its times measure (btt: Q bio queued, I inserted, D issued, C done).
 */
static void measure_lines(struct sink *s)
{
	struct stats *a = s->st;
	bool head = false;

	for (size_t i = 0; i < a->ndev; i++) {
		struct dev_measure m;
		char nb[64];

		if (i && a->dev[i - 1].dev == a->dev[i].dev)
			continue;
		summary_measure(a, a->dev[i].dev, &m);
		if (m.i2d)
			continue;
		if (!head)
			fprintf(s->out, "\nwhat is measurable (btt: Q bio queued, I inserted, D issued, C completed):\n");
		head = true;
		fprintf(s->out, "  %s: %s: %s\n", s->wide ?
			sink_dev_name(s, a->dev[i].dev) :
			sink_head(s, sink_dev_name(s, a->dev[i].dev), 10, nb,
				  sizeof(nb)), m.why, measure_note(&m));
	}
}

/* The shape, merges and what is measurable of a devices row. */
static void json_shape(struct sink *s, const struct devstat *d)
{
	struct stats *a = s->st;
	struct json *j = s->j;
	struct dev_measure m;

	json_sizes(j, "sizes", &d->sizes);
	json_u64(j, "sequential", d->seq);
	json_u64(j, "random", d->sizes.count - d->seq);
	if (a->bio_events)
		json_u64(j, "bios_queued", d->bios);
	else
		json_null(j, "bios_queued");
	if (a->merge_events) {
		json_u64(j, "bios_merged", d->merges);
		json_u64(j, "merged_bytes", d->merged_bytes);
	} else {
		json_null(j, "bios_merged");
		json_null(j, "merged_bytes");
	}
	if (a->bio_events && a->merge_events && d->bios)
		json_double(j, "merged_share",
			    (double)d->merges / (double)d->bios);
	else
		json_null(j, "merged_share");
	summary_measure(a, d->dev, &m);
	json_object_begin(j, "measurable");
	json_str(j, "scheduler", m.scheduler[0] ? m.scheduler : NULL);
	json_bool(j, "inserts", m.inserts);
	json_bool(j, "i2d", m.i2d);
	json_bool(j, "q2c", m.q2c);
	json_str(j, "total", m.total);
	if (m.i2d) {
		json_null(j, "note");
	} else {
		char note[160];

		snprintf(note, sizeof(note), "%s: %s", m.why, measure_note(&m));
		json_str(j, "note", note);
	}
	json_object_end(j);
}

/* ------------------------------------------------------------------ */
/* iostat -x */

void sink_iostat_head(struct sink *s)
{
	fprintf(s->out, "  %-*s %8s %8s %8s %8s %8s %8s %7s %8s %7s %6s\n",
		s->wide ? 20 : 10, "DEVICE", "r/s", "rMiB/s", "r_await", "w/s",
		"wMiB/s", "w_await", "f/s", "f_await", "aqu-sz", "%util");
}

/* An await in ms with 2 decimals as iostat prints it, "-" without requests. */
static const char *await_ms(char *buf, size_t n, const struct iostat *io,
			    enum blk_op op)
{
	double a = iostat_await(io, op);

	if (a < 0)
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.2f", a / 1e6);
	return buf;
}

void sink_iostat_row(struct sink *s, const struct iostat *io)
{
	char nb[64], ra[32], wa[32], fa[32];

	fprintf(s->out, "  %-*s %8.1f %8.2f %8s %8.1f %8.2f %8s %7.1f %8s %7.2f %6.1f\n",
		s->wide ? 20 : 10, s->wide ? sink_dev_name(s, io->dev) :
		sink_head(s, sink_dev_name(s, io->dev), 10, nb, sizeof(nb)),
		iostat_rate(io, io->n[BLK_OP_READ]),
		units_mib(iostat_rate(io, io->bytes[BLK_OP_READ])),
		await_ms(ra, sizeof(ra), io, BLK_OP_READ),
		iostat_rate(io, io->n[BLK_OP_WRITE]),
		units_mib(iostat_rate(io, io->bytes[BLK_OP_WRITE])),
		await_ms(wa, sizeof(wa), io, BLK_OP_WRITE),
		iostat_rate(io, io->n[BLK_OP_FLUSH]),
		await_ms(fa, sizeof(fa), io, BLK_OP_FLUSH), iostat_aqu(io),
		iostat_util(io));
}

/* An await in ns, null without requests. */
static void json_await(struct json *j, const char *key,
		       const struct iostat *io, enum blk_op op)
{
	double a = iostat_await(io, op);

	if (a < 0)
		json_null(j, key);
	else
		json_double(j, key, a);
}

void sink_iostat_json(struct sink *s, const struct iostat *io)
{
	static const struct { const char *r, *b, *a; enum blk_op op; } ops[] = {
		{ "r_per_s", "r_bytes_per_s", "r_await_ns", BLK_OP_READ },
		{ "w_per_s", "w_bytes_per_s", "w_await_ns", BLK_OP_WRITE },
		{ "d_per_s", "d_bytes_per_s", "d_await_ns", BLK_OP_DISCARD },
		{ "f_per_s", NULL, "f_await_ns", BLK_OP_FLUSH },
	};
	struct json *j = s->j;
	char mm[32];

	json_str(j, "dev", blk_dev_str(io->dev, mm, sizeof(mm)));
	json_str(j, "device", sink_dev_name(s, io->dev));
	json_u64(j, "span_ns", io->span_ns);
	json_u64(j, "busy_ns", io->busy_ns);
	if (io->busy_periods)
		json_u64(j, "busy_periods", io->busy_periods);
	else
		json_null(j, "busy_periods");
	json_u64(j, "in_queue_ns", iostat_in_queue(io));
	for (size_t i = 0; i < ARRAY_SIZE(ops); i++) {
		json_double(j, ops[i].r, iostat_rate(io, io->n[ops[i].op]));
		if (ops[i].b)
			json_double(j, ops[i].b,
				    iostat_rate(io, io->bytes[ops[i].op]));
		json_await(j, ops[i].a, io, ops[i].op);
	}
	json_double(j, "aqu_sz", iostat_aqu(io));
	json_double(j, "util_pct", iostat_util(io));
}

/* The devices of st in order, each once: calls fn with its iostat. */
static void each_iostat(struct sink *s,
			void (*fn)(struct sink *, const struct iostat *))
{
	struct stats *a = s->st;

	for (size_t i = 0; i < a->ndev; i++) {
		struct iostat io;

		if (i && a->dev[i - 1].dev == a->dev[i].dev)
			continue;
		stats_iostat(a, a->dev[i].dev, &io);
		fn(s, &io);
	}
}

static void iostat_json_obj(struct sink *s, const struct iostat *io)
{
	json_object_begin(s->j, NULL);
	sink_iostat_json(s, io);
	json_object_end(s->j);
}

void view_devices(struct sink *s)
{
	/* the widths of the columns: 100 in all, or --wide's */
	static const int narrow[] = { 10, 5, 8, 8, 9, 9, 6, 6, 4 };
	static const int wide[] = { 20, 8, 9, 14, 10, 10, 7, 7, 5 };
	const int *w = s->wide ? wide : narrow;
	struct stats *a = s->st;
	double secs = (double)stats_duration(a) / 1e9;

	if (s->j) {
		json_array_begin(s->j, "devices");
		for (size_t i = 0; i < a->ndev; i++) {
			const struct devstat *d = &a->dev[i];
			char mm[32];

			blk_dev_str(d->dev, mm, sizeof(mm));
			json_object_begin(s->j, NULL);
			json_str(s->j, "dev", mm);
			json_str(s->j, "device", sink_dev_name(s, d->dev));
			json_str(s->j, "op", blk_op_name(d->op));
			json_u64(s->j, "requests", d->reqs);
			json_u64(s->j, "bytes", d->bytes);
			json_double(s->j, "iops",
				    secs > 0 ? (double)d->reqs / secs : 0);
			json_double(s->j, "bytes_per_s",
				    secs > 0 ? (double)d->bytes / secs : 0);
			json_u64(s->j, "fua", d->fua);
			json_u64(s->j, "preflush", d->preflush);
			json_u64(s->j, "errors", d->errors);
			json_hist(s->j, "i2d", &d->queue);
			json_hist(s->j, "d2c", &d->device);
			json_hist(s->j, "total", &d->total);
			if (a->bio_events) {
				json_hist(s->j, "q2c", &d->q2c);
				json_hist(s->j, "q2i", &d->q2i);
			} else {
				json_null(s->j, "q2c");
				json_null(s->j, "q2i");
			}
			if (a->bio_events && a->merge_events)
				json_hist(s->j, "q2m", &d->q2m);
			else
				json_null(s->j, "q2m");
			json_shape(s, d);
			json_u64(s->j, "in_flight_ns", d->life_ns);
			if (d->reqs)
				json_double(s->j, "await_ns", (double)d->life_ns /
					    (double)d->reqs);
			else
				json_null(s->j, "await_ns");
			json_object_end(s->j);
		}
		json_array_end(s->j);
		json_array_begin(s->j, "iostat");
		each_iostat(s, iostat_json_obj);
		json_array_end(s->j);
		view_btt(s);
		return;
	}
	fprintf(s->out, "\ndevices:%s\n", a->have_block ? "" : " no block events in the recording");
	if (!a->have_block)
		return;
	/* the heads and the rows in the widths of the layout */
	fprintf(s->out, "  %-*s %-*s %*s %*s %*s %*s %*s %*s %*s\n",
		w[0], "DEVICE", w[1], "OP", w[2], "REQS", w[3], "BYTES", w[4],
		"IOPS", w[5], "MiB/s", w[6], "FUA", w[7], "PREFL", w[8], "ERR");
	for (size_t i = 0; i < a->ndev; i++) {
		const struct devstat *d = &a->dev[i];
		double iops = secs > 0 ? (double)d->reqs / secs : 0.0;
		double mbs = secs > 0 ? units_mib((double)d->bytes) / secs : 0.0;
		char nb[64], sz[32];

		if (s->wide)
			snprintf(sz, sizeof(sz), "%" PRIu64, d->bytes);
		else
			units_bytes_short(sz, sizeof(sz), d->bytes);
		fprintf(s->out, "  %-*s %-*s %*" PRIu64 " %*s %*.1f %*.3f %*"
			PRIu64 " %*" PRIu64 " %*" PRIu64 "\n", w[0],
			sink_head(s, sink_dev_name(s, d->dev), 10, nb, sizeof(nb)),
			w[1], blk_op_name(d->op), w[2], d->reqs, w[3], sz, w[4],
			iops, w[5], mbs, w[6], d->fua, w[7], d->preflush, w[8],
			d->errors);
	}
	if (!a->ndev) {
		fprintf(s->out, "  (no completed block requests)\n");
	} else {
		fprintf(s->out, "\niostat -x (over %.3f s; await: first bio queued -> complete, ms):\n",
			secs);
		sink_iostat_head(s);
		each_iostat(s, sink_iostat_row);
		shape_table(s);
	}
	measure_lines(s);
	/* btt's names: Q is the bio queued, I the request inserted */
	lat_table(s, "queue time (insert -> issue, I2D)",
		  offsetof(struct devstat, queue), true);
	lat_table(s, "device time (issue -> complete, D2C)",
		  offsetof(struct devstat, device), false);
	lat_table(s, "total time (insert -> complete, I2C; D2C when issued without insert)",
		  offsetof(struct devstat, total), false);
	if (a->bio_events) {
		lat_table(s, "bio time (first bio queued -> complete, btt's Q2C)",
			  offsetof(struct devstat, q2c), false);
		lat_table(s, "bio wait (first bio queued -> inserted, btt's Q2I)",
			  offsetof(struct devstat, q2i), true);
	}
	if (a->bio_events && a->merge_events)
		lat_table(s, "merge time (bio queued -> merged into a request, btt's Q2M)",
			  offsetof(struct devstat, q2m), false);
	view_btt(s);
	for (size_t i = 0; !s->no_hist && i < a->ndev; i++) {
		fprintf(s->out, "\n%s %s: device time (issue -> complete)\n",
		       sink_dev_name(s, a->dev[i].dev),
		       blk_op_name(a->dev[i].op));
		hist_text_log2(s->out, &a->dev[i].device);
	}
	for (size_t i = 0; !s->no_hist && i < a->ndev; i++) {
		if (!a->dev[i].sizes.count)
			continue;
		fprintf(s->out, "\n%s %s: request sizes (bitesize):\n",
		       sink_dev_name(s, a->dev[i].dev),
		       blk_op_name(a->dev[i].op));
		hist_text_sizes(s->out, &a->dev[i].sizes);
	}
	view_btt_hist(s);
}

/* ------------------------------------------------------------------ */
/* Requests: slow and snoop */

/* The queue time in ms with 3 decimals, "-" when never inserted. */
static void rq_queue_ms(const struct blk_request *rq, char *buf, size_t n)
{
	if (rq->insert_ts)
		snprintf(buf, n, "%.3f",
			 (double)(rq->issue_ts - rq->insert_ts) / 1e6);
	else
		snprintf(buf, n, "-");
}

static int rq_pid(const struct blk_request *rq)
{
	return rq->insert_pid >= 0 ? rq->insert_pid : rq->issue_pid;
}

static const char *rq_comm(struct sink *s, const struct blk_request *rq)
{
	int pid = rq_pid(rq);

	if (rq->comm[0])
		return rq->comm;
	return pid >= 0 ? stats_comm(s->st, pid) : "-";
}

/* The FILE column: the attributed file, else the owner kind, else "-". */
static const char *rq_file(struct sink *s, const struct blk_done *d,
			   char *buf, size_t n)
{
	const char *f = stats_request_file(s->st, d);

	if (f)
		return f;
	if (!d->attributed || d->own.kind == AK_UNATTRIBUTED)
		return "-";
	snprintf(buf, n, "(%s)", attrib_kind_name(d->own.kind));
	return buf;
}

static void rq_json(struct sink *s, const struct blk_done *d)
{
	const struct blk_request *rq = &d->rq;
	struct json *j = s->j;
	const char *ocomm;
	char type[BLK_RWBS_LEN], mm[32], comm[17];
	int opid;

	blk_rwbs(rq, type);
	blk_dev_str(rq->dev, mm, sizeof(mm));
	snprintf(comm, sizeof(comm), "%s", rq_comm(s, rq));
	json_object_begin(j, NULL);
	json_u64(j, "start_ns", rq->insert_ts ? rq->insert_ts : rq->issue_ts);
	json_u64(j, "issue_ns", rq->issue_ts);
	json_u64(j, "complete_ns", rq->complete_ts);
	json_str(j, "dev", mm);
	json_str(j, "device", sink_dev_name(s, rq->dev));
	json_str(j, "op", blk_op_name(rq->op));
	json_str(j, "type", type);
	json_u64(j, "sector", rq->sector);
	json_u64(j, "bytes", rq->bytes);
	if (rq->insert_ts)
		json_u64(j, "i2d_ns", rq->issue_ts - rq->insert_ts);
	else
		json_null(j, "i2d_ns");
	json_u64(j, "d2c_ns", rq->complete_ts - rq->issue_ts);
	json_u64(j, "total_ns", blk_total_ns(rq));
	/* btt's Q2C: its first bio queued -> complete, when seen */
	if (rq->queue_ts && rq->queue_ts <= rq->complete_ts)
		json_u64(j, "q2c_ns", rq->complete_ts - rq->queue_ts);
	else
		json_null(j, "q2c_ns");
	json_i64(j, "pid", rq_pid(rq));
	json_str(j, "comm", comm);
	json_i64(j, "error", rq->error);
	if (!d->attributed) {
		json_null(j, "owner");
	} else {
		json_object_begin(j, "owner");
		json_str(j, "kind", attrib_kind_name(d->own.kind));
		stats_request_owner(d, &opid, &ocomm);
		if (opid >= 0) {
			json_i64(j, "pid", opid);
			json_str(j, "comm", ocomm);
		} else {
			json_null(j, "pid");
			json_null(j, "comm");
		}
		if (d->own.ino)
			json_u64(j, "ino", d->own.ino);
		else
			json_null(j, "ino");
		json_object_end(j);
	}
	json_str(j, "path", stats_request_file(s->st, d));
	json_object_end(j);
}

/* The slowest syscalls (enter -> exit), when the syscalls were replayed. */
static void slow_calls(struct sink *s)
{
	struct stats *a = s->st;
	const struct slow_call *v;
	size_t n;

	v = stats_slowest_calls(a, &n);
	if (s->j) {
		if (!a->have_sys) {
			json_null(s->j, "slow_syscalls");
			return;
		}
		json_bool(s->j, "slow_syscalls_all_fds", a->slow_all_fds);
		json_array_begin(s->j, "slow_syscalls");
		for (size_t i = 0; i < n; i++) {
			json_object_begin(s->j, NULL);
			json_str(s->j, "syscall", sys_kind_info(v[i].kind)->name);
			json_u64(s->j, "start_ns", v[i].start);
			json_u64(s->j, "end_ns", v[i].end);
			json_u64(s->j, "latency_ns", v[i].end - v[i].start);
			json_i64(s->j, "pid", v[i].pid);
			json_i64(s->j, "tid", v[i].tid);
			json_str(s->j, "comm", v[i].comm);
			if (v[i].fd >= 0)
				json_i64(s->j, "fd", v[i].fd);
			else
				json_null(s->j, "fd");
			json_str(s->j, "path", stats_call_file(&v[i]));
			json_u64(s->j, "bytes", v[i].bytes);
			json_i64(s->j, "ret", v[i].ret);
			json_object_end(s->j);
		}
		json_array_end(s->j);
		return;
	}
	if (!a->have_sys)
		return;
	fprintf(s->out, "\nslowest syscalls %s(top %zu by latency, enter -> exit):\n",
		a->slow_all_fds ? "" : "on files and block devices ", n);
	if (!n)
		return;
	if (s->wide)
		fprintf(s->out, "  %-16s %-16s %7s %7s %-16s %5s %10s %10s  %s\n",
			"START(s)", "SYSCALL", "PID", "TID", "COMM", "FD", "BYTES",
			"LAT(ms)", "FILE");
	else
		fprintf(s->out, "  %-*s %-10s %7s %-12s %3s %6s %9s  %s\n",
			s->wallclock ? 15 : 12, s->wallclock ? "START" : "START(s)", "SYSCALL", "PID", "COMM", "FD", "BYTES",
			"LAT(ms)", "FILE");
	for (size_t i = 0; i < n; i++) {
		char ts[32], fd[16], sz[32], nb[64], cb[64], pb[256];

		sink_time(s, ts, sizeof(ts), v[i].start);
		if (v[i].fd >= 0)
			snprintf(fd, sizeof(fd), "%d", v[i].fd);
		else
			snprintf(fd, sizeof(fd), "-");
		if (s->wide) {
			fprintf(s->out, "  %-16s %-16s %7d %7d %-16s %5s %10" PRIu64
				" %10.3f  %s\n", ts, sys_kind_info(v[i].kind)->name,
				v[i].pid, v[i].tid, v[i].comm, fd, v[i].bytes,
				(double)(v[i].end - v[i].start) / 1e6,
				v[i].file ? stats_call_file(&v[i]) : "-");
			continue;
		}
		units_bytes_short(sz, sizeof(sz), v[i].bytes);
		fprintf(s->out, "  %-*s %-10s %7d %-12s %3s %6s %9.3f  %s\n",
			s->wallclock ? 15 : 12, ts,
			sink_head(s, sys_kind_info(v[i].kind)->name, 10, nb, sizeof(nb)),
			v[i].pid, sink_head(s, v[i].comm, 12, cb, sizeof(cb)), fd,
			sz, (double)(v[i].end - v[i].start) / 1e6,
			sink_tail(s, v[i].file ? stats_call_file(&v[i]) : "-",
				  SINK_WIDTH - 70 - (s->wallclock ? 3 : 0), pb,
				  sizeof(pb)));
	}
}

void view_slow(struct sink *s)
{
	struct stats *a = s->st;
	const struct blk_done *v;
	size_t n;

	v = stats_slowest(a, &n);
	if (s->j) {
		json_array_begin(s->j, "slow_requests");
		for (size_t i = 0; i < n; i++)
			rq_json(s, &v[i]);
		json_array_end(s->j);
		slow_calls(s);
		return;
	}
	fprintf(s->out, "\nslowest block requests (top %zu by total time):%s\n", n,
	       a->have_block ? "" : " no block events in the recording");
	if (!n) {
		slow_calls(s);
		return;
	}
	if (s->wide)
		fprintf(s->out, "  %-16s %-12s %-5s %12s %9s %10s %10s %10s %7s %-16s %s\n",
			"COMPLETE(s)", "DEVICE", "TYPE", "SECTOR", "BYTES",
			"QUEUE(ms)", "DEVICE(ms)", "TOTAL(ms)", "PID", "COMM",
			"FILE");
	else
		fprintf(s->out, "  %-*s %-8s %-4s %6s %8s %9s %7s %-12s %s\n",
			s->wallclock ? 15 : 12,
			s->wallclock ? "COMPLETE" : "COMPLETE(s)", "DEVICE", "TYPE", "BYTES", "D2C(ms)",
			"TOTAL(ms)", "PID", "COMM", "FILE");
	for (size_t i = 0; i < n; i++) {
		const struct blk_request *rq = &v[i].rq;
		char type[BLK_RWBS_LEN], ts[32], q[32], fb[64], sz[32];
		char nb[64], cb[64], pb[256];
		const char *file = rq_file(s, &v[i], fb, sizeof(fb));

		blk_rwbs(rq, type);
		sink_time(s, ts, sizeof(ts), rq->complete_ts);
		rq_queue_ms(rq, q, sizeof(q));
		if (s->wide) {
			fprintf(s->out, "  %-16s %-12s %-5s %12" PRIu64 " %9" PRIu64
				" %10s %10.3f %10.3f %7d %-16s %s\n", ts,
				sink_dev_name(s, rq->dev), type, rq->sector,
				rq->bytes, q,
				(double)(rq->complete_ts - rq->issue_ts) / 1e6,
				(double)blk_total_ns(rq) / 1e6, rq_pid(rq),
				rq_comm(s, rq), file);
			continue;
		}
		units_bytes_short(sz, sizeof(sz), rq->bytes);
		fprintf(s->out, "  %-*s %-8s %-4s %6s %8.3f %9.3f %7d %-12s %s\n",
			s->wallclock ? 15 : 12, ts, sink_head(s, sink_dev_name(s, rq->dev), 8, nb,
				      sizeof(nb)), type, sz,
			(double)(rq->complete_ts - rq->issue_ts) / 1e6,
			(double)blk_total_ns(rq) / 1e6, rq_pid(rq),
			sink_head(s, rq_comm(s, rq), 12, cb, sizeof(cb)),
			sink_tail(s, file, SINK_WIDTH - 76 - (s->wallclock ? 3 : 0),
				  pb, sizeof(pb)));
	}
	slow_calls(s);
}

void view_snoop_begin(struct sink *s)
{
	s->snooping = true;
	if (s->j) {
		json_array_begin(s->j, "requests");
		return;
	}
	if (s->wide)
		fprintf(s->out, "%-14s %-14s %-16s %-7s %-4s %-12s %-12s %8s %9s %9s %s\n",
			"STARTs", "ENDs", "COMM", "PID", "TYPE", "DEV", "BLOCK",
			"BYTES", "QUEUEms", "LATms", "FILE");
	else
		fprintf(s->out, "%-*s %-12s %-7s %-4s %-8s %-11s %7s %7s %7s %s\n",
			s->wallclock ? 15 : 11, s->wallclock ? "START" : "STARTs", "COMM", "PID", "TYPE", "DEV", "BLOCK", "BYTES",
			"QUEUEms", "LATms", "FILE");
}

void snoop_request(const struct blk_done *d, void *arg)
{
	const struct blk_request *rq = &d->rq;
	struct sink *s = arg;
	uint64_t start = rq->insert_ts ? rq->insert_ts : rq->issue_ts;
	const char *file;
	char type[BLK_RWBS_LEN], st[32], et[32], q[32], fb[64], cb[64];
	char nb[64], pb[256];

	s->snooped++;
	if (s->j) {
		rq_json(s, d);
		return;
	}
	blk_rwbs(rq, type);
	file = rq_file(s, d, fb, sizeof(fb));
	sink_time(s, st, sizeof(st), start);
	sink_time(s, et, sizeof(et), rq->complete_ts);
	rq_queue_ms(rq, q, sizeof(q));
	if (s->wide) {
		fprintf(s->out, "%-14s %-14s %-16s %-7d %-4s %-12s %-12" PRIu64
			" %8" PRIu64 " %9s %9.3f %s\n", st, et, rq_comm(s, rq),
			rq_pid(rq), type, sink_dev_name(s, rq->dev), rq->sector,
			rq->bytes, q,
			(double)(rq->complete_ts - rq->issue_ts) / 1e6, file);
		return;
	}
	fprintf(s->out, "%-*s %-12s %-7d %-4s %-8s %-11" PRIu64 " %7" PRIu64
		" %7s %7.3f %s\n", s->wallclock ? 15 : 11, st,
		sink_head(s, rq_comm(s, rq), 12, cb, sizeof(cb)), rq_pid(rq), type,
		sink_head(s, sink_dev_name(s, rq->dev), 8, nb, sizeof(nb)),
		rq->sector, rq->bytes, q,
		(double)(rq->complete_ts - rq->issue_ts) / 1e6,
		sink_tail(s, file, SINK_WIDTH - 84 - (s->wallclock ? 4 : 0), pb,
			  sizeof(pb)));
}

void view_snoop_end(struct sink *s)
{
	if (s->j) {
		json_array_end(s->j);
		return;
	}
}
