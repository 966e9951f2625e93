// SPDX-License-Identifier: MIT
/*
 * cmd-devices.c - `ioreport devices`: per block device and operation
 * (read, write, flush, discard): requests, bytes, IOPS, throughput, queue
 * time (insert -> issue) and device time (issue -> complete) percentiles,
 * and log2 histograms of device time in the biolatency layout.
 */
#include "config.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "ioreport.h"
#include "source.h"
#include "hist.h"
#include "replay-block.h"

static const char devices_usage[] =
"usage: ioreport devices [--no-hist] FILE\n"
"\n"
"  -H, --no-hist        no histograms, only the tables\n"
"  -h, --help           this help\n"
"\n"
"Queue time is block_rq_insert -> block_rq_issue (Q2D), device time is\n"
"block_rq_issue -> block_rq_complete (D2C), total is Q2C (or D2C for\n"
"requests issued without passing through the queue).\n";

struct devop {
	uint32_t dev;
	enum blk_op op;
	uint64_t reqs, bytes, fua, preflush, errors;
	struct hist queue, device, total;
};

struct devices {
	struct devop *v;
	size_t n, alloc;
};

static void on_request(const struct blk_request *rq, void *arg)
{
	struct devices *d = arg;
	struct devop *o = NULL;
	uint64_t start;

	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].dev == rq->dev && d->v[i].op == rq->op) {
			o = &d->v[i];
			break;
		}
	if (!o) {
		if (d->n == d->alloc) {
			d->alloc = d->alloc ? d->alloc * 2 : 8;
			d->v = xrealloc(d->v, sizeof(*d->v) * d->alloc);
		}
		o = &d->v[d->n++];
		memset(o, 0, sizeof(*o));
		o->dev = rq->dev;
		o->op = rq->op;
	}
	o->reqs++;
	o->bytes += rq->bytes;
	o->fua += rq->fua;
	o->preflush += rq->preflush;
	o->errors += rq->error != 0;
	if (rq->insert_ts && rq->issue_ts)
		hist_add(&o->queue, rq->issue_ts - rq->insert_ts);
	hist_add(&o->device, rq->complete_ts - rq->issue_ts);
	start = rq->insert_ts ? rq->insert_ts : rq->issue_ts;
	hist_add(&o->total, rq->complete_ts - start);
}

static int cmp_devop(const void *a, const void *b)
{
	const struct devop *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return (int)x->op - (int)y->op;
}

/* "name (maj:min)" from the snapshot's blockdev lines, else "maj:min". */
static void dev_name(const struct source_info *in, uint32_t dev, char *buf,
		     size_t n)
{
	char mm[32], pat[48];
	const char *p;

	snprintf(mm, sizeof(mm), "%u:%u", dev >> 20, dev & ((1u << 20) - 1));
	snprintf(pat, sizeof(pat), "\t%s\t", mm);
	for (p = in->snapshot_start; p && (p = strstr(p, pat)); p++) {
		const char *bol = p;

		while (bol > in->snapshot_start && bol[-1] != '\n')
			bol--;
		if (!strncmp(bol, "blockdev\t", 9) && bol + 9 < p) {
			snprintf(buf, n, "%.*s (%s)", (int)(p - bol - 9),
				 bol + 9, mm);
			return;
		}
	}
	snprintf(buf, n, "%s", mm);
}

static void print_ms(uint64_t ns)
{
	printf(" %9.3f", (double)ns / 1e6);
}

static void print_lat_table(const char *title, struct devices *d,
			    const struct source_info *in, size_t off)
{
	printf("\n%s, ms:\n", title);
	printf("%-20s %-8s %9s %9s %9s %9s %9s %9s %9s\n", "DEVICE", "OP", "N",
	       "AVG", "P50", "P90", "P99", "P99.9", "MAX");
	for (size_t i = 0; i < d->n; i++) {
		struct hist *h = (struct hist *)((char *)&d->v[i] + off);
		char name[64];

		dev_name(in, d->v[i].dev, name, sizeof(name));
		hist_sort(h);
		printf("%-20s %-8s %9zu", name, blk_op_name(d->v[i].op), h->n);
		if (!h->n) {
			printf(" %9s %9s %9s %9s %9s %9s\n", "-", "-", "-", "-",
			       "-", "-");
			continue;
		}
		print_ms(h->sum / h->n);
		print_ms(hist_pct(h, 50));
		print_ms(hist_pct(h, 90));
		print_ms(hist_pct(h, 99));
		print_ms(hist_pct(h, 99.9));
		print_ms(hist_max(h));
		printf("\n");
	}
}

/* The log2 layout of iolatency/biolatency: "usecs : count distribution". */
static void print_log2(const struct hist *h)
{
	int used = hist_slots_used(h);
	uint64_t top = 0;

	if (!used)
		return;
	for (int i = 0; i < used; i++)
		if (h->slot[i] > top)
			top = h->slot[i];
	printf("%5s%-19s : count    distribution\n", "", "usecs");
	for (int i = 0; i < used; i++) {
		uint64_t lo = i ? 1ULL << i : 0, hi = (1ULL << (i + 1)) - 1;
		int stars = (int)(h->slot[i] * 40 / top);

		printf("%10" PRIu64 " -> %-10" PRIu64 " : %-8" PRIu64 " |%.*s%*s|\n",
		       lo, hi, h->slot[i], stars,
		       "****************************************", 40 - stars,
		       "");
	}
}

int cmd_devices(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "no-hist", no_argument, NULL, 'H' },
		{ "help",    no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct devices d = { 0 };
	const struct source_info *in;
	const struct blk_anomalies *an;
	struct replay_block *rb;
	struct source_event ev;
	struct source *src;
	bool no_hist = false;
	const char *why;
	char *msg;
	double secs;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "Hh", opts, NULL)) != -1) {
		switch (c) {
		case 'H':
			no_hist = true;
			break;
		case 'h':
			fputs(devices_usage, stdout);
			return 0;
		default:
			return usage_error(devices_usage, "unknown option");
		}
	}
	if (argc - optind != 1)
		return usage_error(devices_usage,
				   "devices wants exactly one FILE");

	src = source_open(argv[optind], &msg);
	if (!src) {
		error("%s", msg);
		free(msg);
		return 1;
	}
	rb = replay_block_new(src, on_request, &d, &why);
	if (!rb) {
		error("%s: %s", argv[optind], why);
		source_close(src);
		return 1;
	}
	while (source_next(src, &ev) > 0)
		replay_block_feed(rb, &ev);
	replay_block_finish(rb);
	in = source_info(src);
	an = replay_block_anomalies(rb);

	qsort(d.v, d.n, sizeof(*d.v), cmp_devop);
	secs = (double)(in->last_ts - in->first_ts) / 1e9;
	printf("%s: %.6f s of recording", argv[optind], secs);
	if (in->integrity != SOURCE_COMPLETE)
		printf(" (%s at offset %" PRIu64 ": %s)",
		       in->integrity == SOURCE_TRUNCATED ? "truncated" :
		       "corrupt", in->stop_offset, in->stop_reason);
	printf("\n\n%-20s %-8s %9s %12s %9s %9s %7s %7s %5s\n", "DEVICE", "OP",
	       "REQS", "BYTES", "IOPS", "MB/s", "FUA", "PREFL", "ERR");
	for (size_t i = 0; i < d.n; i++) {
		struct devop *o = &d.v[i];
		char name[64];

		dev_name(in, o->dev, name, sizeof(name));
		printf("%-20s %-8s %9" PRIu64 " %12" PRIu64 " %9.1f %9.3f %7"
		       PRIu64 " %7" PRIu64 " %5" PRIu64 "\n", name,
		       blk_op_name(o->op), o->reqs, o->bytes,
		       secs > 0 ? (double)o->reqs / secs : 0.0,
		       secs > 0 ? (double)o->bytes / secs / 1e6 : 0.0,
		       o->fua, o->preflush, o->errors);
	}
	if (!d.n)
		printf("(no completed block requests)\n");
	print_lat_table("queue time (insert -> issue)", &d, in,
			offsetof(struct devop, queue));
	print_lat_table("device time (issue -> complete)", &d, in,
			offsetof(struct devop, device));
	print_lat_table("total time (insert -> complete)", &d, in,
			offsetof(struct devop, total));

	for (size_t i = 0; !no_hist && i < d.n; i++) {
		char name[64];

		dev_name(in, d.v[i].dev, name, sizeof(name));
		printf("\n%s %s: device time (issue -> complete)\n", name,
		       blk_op_name(d.v[i].op));
		print_log2(&d.v[i].device);
	}

	printf("\nanomalies: complete without issue %" PRIu64
	       ", issued without insert %" PRIu64 ", duplicate %" PRIu64
	       ", negative time %" PRIu64 ", requeued %" PRIu64
	       ", empty preflush completions %" PRIu64
	       ", dropped at lost events %" PRIu64 ", still open at end %"
	       PRIu64 ", unreadable %" PRIu64 "\n",
	       an->complete_without_issue, an->issue_without_insert,
	       an->duplicate, an->negative_time, an->requeued,
	       an->empty_complete,
	       an->dropped_at_gap, an->still_open, an->unreadable);

	while ((msg = source_warning(src))) {
		warning("%s", msg);
		free(msg);
	}
	for (size_t i = 0; i < d.n; i++) {
		hist_release(&d.v[i].queue);
		hist_release(&d.v[i].device);
		hist_release(&d.v[i].total);
	}
	free(d.v);
	replay_block_free(rb);
	source_close(src);
	return 0;
}
