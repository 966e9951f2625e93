// SPDX-License-Identifier: MIT
/*
 * html.c - the page of ioreport html (html.h): summary, per device the
 * requests over time, throughput, IOPS, queue depth, offsets and latency
 * histograms, per process and file the top bars and the fsync calls,
 * dirty pages and writeback, write amplification, the configuration,
 * lost events and anomalies.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/blk.h"
#include "base/err.h"
#include "sbuf.h"
#include "input/meta.h"
#include "sink/html.h"
#include "sink/sink.h"
#include "sink/svg.h"
#include "stats/dirty.h"
#include "stats/filter.h"
#include "stats/findings.h"
#include "stats/rows.h"
#include "stats/timeline.h"
#include "stats/wa.h"

#define TOP_BARS	15
#define SLOW_DRAWN	200
#define HTML_FINDINGS	5	/* at the top of the page */

static const char css[] =
"body{font:13px/1.4 system-ui,sans-serif;margin:16px;color:#222;max-width:1600px}\n"
"h1{font-size:20px}h2{font-size:17px;border-bottom:1px solid #ccc;margin-top:28px}h3{font-size:14px}\n"
"table{border-collapse:collapse}td,th{padding:1px 8px;text-align:right;border-bottom:1px solid #eee}\n"
"td:first-child,th:first-child{text-align:left}\n"
".pair{display:grid;grid-template-columns:1fr 1fr;gap:16px}\n"
"svg.plot{background:#fff;display:block;margin:6px 0}\n"
".frame{fill:none;stroke:#999}.tick{font-size:10px;text-anchor:middle;fill:#555}\n"
".tick.y{text-anchor:end}.axis{font-size:11px;text-anchor:middle;fill:#333}.ttl{font-size:12px;font-weight:600}\n"
".legend text{font-size:11px}\n"
".read{fill:#1f77b4;stroke:#1f77b4}.write{fill:#d62728;stroke:#d62728}\n"
".flush{fill:#2ca02c;stroke:#2ca02c}.discard,.other{fill:#7f7f7f;stroke:#7f7f7f}\n"
"circle.pt{stroke:none;fill-opacity:.55}circle.slow{fill:none;stroke-width:1.5}\n"
".before{fill:#1f77b4;stroke:#1f77b4}.after{fill:#ff7f0e;stroke:#ff7f0e}\n"
"rect.bin,rect.bar,rect.hb{stroke:none}rect.hb{fill-opacity:.6}\n"
"polyline{fill:none;stroke-width:1.5}.dirty{stroke:#9467bd}.wb{stroke:#8c564b}\n"
".thresh{stroke:#d62728;stroke-dasharray:4 3}.bgthresh{stroke:#ff7f0e;stroke-dasharray:4 3}\n"
".depth{stroke:#17becf}\n"
"pre{background:#f6f6f6;padding:8px;overflow-x:auto;font-size:12px}\n"
".note{color:#666}\n";

/* The page of one recording, as it is being written. */
struct page {
	FILE *f;
	const struct html_rec *r;
	struct sink s;		/* device names */
	uint64_t t0;		/* x = 0 */
	int err;
};

static double secs(const struct page *p, uint64_t ts)
{
	return ts > p->t0 ? (double)(ts - p->t0) / 1e9 : 0;
}

/*
 * The wall-clock date and time of a trace timestamp (the recording
 * machine's local time, sink_wallclock()), else "+1.234567 s".
 */
static void when(const struct page *p, uint64_t ts, char *buf, size_t n)
{
	if (!sink_wallclock(p->r->st->info, ts, true, buf, n))
		snprintf(buf, n, "+%.6f s", secs(p, ts));
}

static void page_init(struct page *p, FILE *f, const struct html_rec *r)
{
	memset(p, 0, sizeof(*p));
	p->f = f;
	p->r = r;
	sink_init(&p->s, r->st, f, NULL);
	p->t0 = r->st->first_ts;
}

/* ------------------------------------------------------------------ */
/* Summary, configuration, anomalies */

static void kv_row(FILE *f, const char *k, const char *v)
{
	fputs("<tr><td>", f);
	html_escape(f, k);
	fputs("</td><td>", f);
	html_escape(f, v);
	fputs("</td></tr>\n", f);
}

static void summary(struct page *p)
{
	const struct stats *st = p->r->st;
	const struct source_info *in = st->info;
	uint64_t gaps, lost = stats_lost(st, &gaps);
	char buf[256], a[64], b[64];

	fputs("<table class=\"summary\">\n", p->f);
	kv_row(p->f, "recording", in->path);
	if (meta_kv(in->header_text, "redacted", buf, sizeof(buf)) &&
	    !strcmp(buf, "1"))
		kv_row(p->f, "redacted", "yes: names are pseudonyms");
	if (meta_kv(in->header_text, "hostname", buf, sizeof(buf)))
		kv_row(p->f, "host", buf);
	if (meta_kv(in->header_text, "kernel", buf, sizeof(buf)))
		kv_row(p->f, "kernel", buf);
	when(p, st->first_ts, a, sizeof(a));
	when(p, st->last_ts, b, sizeof(b));
	snprintf(buf, sizeof(buf), "%.6f s, %s to %s",
		 (double)stats_duration(st) / 1e9, a, b);
	kv_row(p->f, "span", buf);
	snprintf(buf, sizeof(buf), "%" PRIu64, st->events);
	kv_row(p->f, "events", buf);
	snprintf(buf, sizeof(buf), "%" PRIu64 " (%" PRIu64 " gaps)", lost,
		 gaps);
	kv_row(p->f, "lost events", buf);
	kv_row(p->f, "integrity", meta_integrity(in->integrity));
	if (filter_active(st->filter)) {
		struct sbuf sb = SBUF_INIT;

		sink_filter_text(st, &sb);
		kv_row(p->f, "filter", sb.buf ? sb.buf : "");
		if (sb.failed && !p->err)
			p->err = -AN_E_NOMEM;
		sbuf_release(&sb);
	}
	fputs("</table>\n", p->f);
}

static int config_line(char **f, int n, void *arg)
{
	FILE *out = arg;

	fputs("<tr>", out);
	for (int i = 0; i < n; i++) {
		fputs("<td>", out);
		html_escape(out, f[i]);
		fputs("</td>", out);
	}
	fputs("</tr>\n", out);
	return 0;
}

static void config(struct page *p)
{
	const char *snap = p->r->st->info->snapshot_start;
	static const char *const kinds[] = { "sysctl", "mount", "blockdev" };
	static const char *const names[] = {
		"sysctls", "mounts (device, source, mount point, type, options)",
		"block devices and their queue settings",
	};

	if (!snap) {
		fputs("<p class=\"note\">no snapshot in this recording</p>\n",
		      p->f);
		return;
	}
	for (size_t i = 0; i < 3; i++) {
		fprintf(p->f, "<details><summary>%s</summary><table class=\"config %s\">\n",
			names[i], kinds[i]);
		if (meta_lines(snap, kinds[i], config_line, p->f) < 0)
			p->err = -AN_E_NOMEM;
		fputs("</table></details>\n", p->f);
	}
}

static void anomalies(struct page *p)
{
	const struct stats *st = p->r->st;

	fputs("<table class=\"lost\"><tr><th>CPU</th><th>gaps</th><th>lost events</th><th>gaps of unknown size</th></tr>\n",
	      p->f);
	for (int c = 0; c < st->nr_cpus; c++)
		fprintf(p->f, "<tr><td>%d</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td></tr>\n",
			c, st->lost[c].gaps, st->lost[c].events,
			st->lost[c].unknown);
	fputs("</table>\n<table class=\"anomalies\"><tr><th>stage</th><th>anomaly</th><th>count</th></tr>\n",
	      p->f);
	for (size_t i = 0; i < st->nanom; i++) {
		fputs("<tr><td>", p->f);
		html_escape(p->f, st->anom[i].stage);
		fputs("</td><td>", p->f);
		html_escape(p->f, st->anom[i].text);
		fprintf(p->f, "</td><td>%" PRIu64 "</td></tr>\n", st->anom[i].n);
	}
	fputs("</table>\n", p->f);
}

/* ------------------------------------------------------------------ */
/* Devices */

/* The largest device time of d's samples and slowest requests (ns). */
static double max_d2c(const struct tl_dev *d, const struct blk_done *slow,
		      size_t nslow)
{
	uint64_t m = 1000;

	for (size_t i = 0; i < d->npt; i++)
		if (d->pt[i].issue && d->pt[i].complete - d->pt[i].issue > m)
			m = d->pt[i].complete - d->pt[i].issue;
	for (size_t i = 0; i < nslow; i++)
		if (slow[i].rq.dev == d->dev && slow[i].rq.issue_ts &&
		    slow[i].rq.complete_ts - slow[i].rq.issue_ts > m)
			m = slow[i].rq.complete_ts - slow[i].rq.issue_ts;
	return (double)m;
}

static void point_title(struct page *p, const struct tl_point *pt)
{
	char w[64];

	when(p, pt->issue ? pt->issue : pt->start, w, sizeof(w));
	fprintf(p->f, "<title>%s %s %" PRIu64 " B at sector %" PRIu64 ", Q2D %.3f ms, D2C %.3f ms</title>",
		w, blk_op_name(pt->op), pt->bytes, pt->sector,
		pt->issue ? (double)(pt->issue - pt->start) / 1e6 : 0,
		pt->issue ? (double)(pt->complete - pt->issue) / 1e6 : 0);
}

/* Issue time vs device time, a point per sampled request. */
static void latency_plot(struct page *p, const struct tl_dev *d,
			 const struct blk_done *slow, size_t nslow)
{
	struct svg s = { 0 };
	size_t drawn = 0;

	s.x0 = 0;
	s.x1 = secs(p, p->r->st->last_ts);
	s.ylog = true;
	s.y1 = max_d2c(d, slow, nslow) / 1e6 * 1.2;
	s.y0 = 0.001;
	svg_begin(&s, p->f, "latency", "device time (D2C) of each request, by issue time",
		  "issue time (s)", "device time (ms, log)");
	for (size_t i = 0; i < d->npt; i++) {
		const struct tl_point *pt = &d->pt[i];
		double ms = pt->issue ? (double)(pt->complete - pt->issue) / 1e6 : 0;

		fprintf(p->f, "<circle class=\"pt %s\" cx=\"%.1f\" cy=\"%.1f\" r=\"2\" data-ms=\"%.6f\">",
			blk_op_name(pt->op), svg_px(&s, secs(p, pt->issue ? pt->issue : pt->start)),
			svg_py(&s, ms > 0.001 ? ms : 0.001), ms);
		point_title(p, pt);
		fputs("</circle>\n", p->f);
	}
	for (size_t i = 0; i < nslow && drawn < SLOW_DRAWN; i++) {
		const struct blk_request *rq = &slow[i].rq;
		struct tl_point pt = {
			.start = rq->insert_ts ? rq->insert_ts : rq->issue_ts,
			.issue = rq->issue_ts, .complete = rq->complete_ts,
			.sector = rq->sector, .bytes = rq->bytes, .op = rq->op,
		};
		double ms;

		if (rq->dev != d->dev || !rq->issue_ts)
			continue;
		ms = (double)(rq->complete_ts - rq->issue_ts) / 1e6;
		fprintf(p->f, "<circle class=\"slow %s\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" data-ms=\"%.6f\">",
			blk_op_name(rq->op), svg_px(&s, secs(p, rq->issue_ts)),
			svg_py(&s, ms > 0.001 ? ms : 0.001), ms);
		point_title(p, &pt);
		fputs("</circle>\n", p->f);
		drawn++;
	}
	svg_legend(&s, 0, "read", "read");
	svg_legend(&s, 1, "write", "write");
	svg_legend(&s, 2, "flush", "flush");
	svg_end(&s);
	fprintf(p->f, "<p class=\"note\">%zu of %" PRIu64 " requests drawn (1 in %" PRIu64 ", uniformly over the recording); ringed: the %zu slowest</p>\n",
		d->npt, d->requests, d->stride, drawn);
}

/* Where on the device each sampled request went. */
static void offset_plot(struct page *p, const struct tl_dev *d)
{
	struct svg s = { 0 };
	uint64_t top = 1;

	for (size_t i = 0; i < d->npt; i++) {
		uint64_t end = d->pt[i].sector +
			       d->pt[i].bytes / BLK_SECTOR_SIZE;

		if (end > top)
			top = end;
	}
	s.x1 = secs(p, p->r->st->last_ts);
	s.y1 = (double)top * BLK_SECTOR_SIZE / (1 << 30) * 1.05;
	svg_begin(&s, p->f, "offset", "offset of each request", "issue time (s)",
		  "offset (GiB)");
	for (size_t i = 0; i < d->npt; i++) {
		const struct tl_point *pt = &d->pt[i];

		fprintf(p->f, "<circle class=\"pt %s\" cx=\"%.1f\" cy=\"%.1f\" r=\"1.5\"/>\n",
			blk_op_name(pt->op),
			svg_px(&s, secs(p, pt->issue ? pt->issue : pt->start)),
			svg_py(&s, (double)pt->sector * BLK_SECTOR_SIZE /
				   (1 << 30)));
	}
	svg_end(&s);
}

/* Bars per time bin: which 0 bytes (MiB/s), 1 requests (IOPS). */
static void rate_plot(struct page *p, const struct tl_dev *d, int which)
{
	const struct timeline *tl = p->r->tl;
	double w = (double)tl->width / 1e9, max = 0, x0;
	struct svg s = { 0 };
	size_t i;

	for (i = 0; i < tl->nbins; i++) {
		const struct blk_tally *b = &d->bin[i].ops;
		double v = which ? (double)blk_tally_requests(b) / w :
			   (double)(b->bytes[BLK_OP_READ] +
				    b->bytes[BLK_OP_WRITE]) / w / UNITS_MIB;

		if (v > max)
			max = v;
	}
	x0 = tl->t0 > p->t0 ? secs(p, tl->t0) : -((double)(p->t0 - tl->t0) / 1e9);
	s.x0 = x0 < 0 ? x0 : 0;
	s.x1 = x0 + w * (double)tl->nbins;
	s.y1 = max > 0 ? max * 1.1 : 1;
	svg_begin(&s, p->f, which ? "iops" : "throughput",
		  which ? "requests completed per second" :
			  "throughput (read + write)",
		  "time (s)", which ? "IOPS" : "MiB/s");
	for (i = 0; i < tl->nbins; i++) {
		const struct blk_tally *b = &d->bin[i].ops;
		uint64_t rb = b->bytes[BLK_OP_READ], wb = b->bytes[BLK_OP_WRITE];
		double xa = svg_px(&s, x0 + w * (double)i);
		double xb = svg_px(&s, x0 + w * (double)(i + 1));

		if (which) {
			uint64_t n = blk_tally_requests(b);
			double y = svg_py(&s, (double)n / w);

			fprintf(p->f, "<rect class=\"bin write\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" data-n=\"%" PRIu64 "\"><title>%.3f s: %" PRIu64 " requests (%" PRIu64 " R, %" PRIu64 " W, %" PRIu64 " F)</title></rect>\n",
				xa, y, xb - xa, svg_py(&s, 0) - y, n,
				x0 + w * (double)i, n, b->n[BLK_OP_READ],
				b->n[BLK_OP_WRITE], b->n[BLK_OP_FLUSH]);
		} else {
			double yr = svg_py(&s, (double)rb / w / UNITS_MIB);
			double yw = svg_py(&s, (double)(rb + wb) / w / UNITS_MIB);

			fprintf(p->f, "<rect class=\"bin read\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" data-bytes=\"%" PRIu64 "\"><title>%.3f s: read %" PRIu64 " B</title></rect>\n",
				xa, yr, xb - xa, svg_py(&s, 0) - yr,
				rb, x0 + w * (double)i, rb);
			fprintf(p->f, "<rect class=\"bin write\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" data-bytes=\"%" PRIu64 "\"><title>%.3f s: written %" PRIu64 " B</title></rect>\n",
				xa, yw, xb - xa, yr - yw, wb,
				x0 + w * (double)i, wb);
		}
	}
	if (!which) {
		svg_legend(&s, 0, "read", "read");
		svg_legend(&s, 1, "write", "write");
	}
	svg_end(&s);
}

/* Requests in flight (insert -> complete) averaged over each bin. */
static void depth_plot(struct page *p, const struct tl_dev *d)
{
	const struct timeline *tl = p->r->tl;
	double w = (double)tl->width, max = 0, x0;
	struct svg s = { 0 };
	size_t i;

	for (i = 0; i < tl->nbins; i++)
		if ((double)d->bin[i].inflight_ns / w > max)
			max = (double)d->bin[i].inflight_ns / w;
	x0 = tl->t0 > p->t0 ? secs(p, tl->t0) : 0;
	s.x1 = x0 + w / 1e9 * (double)tl->nbins;
	s.y1 = max > 0 ? max * 1.1 : 1;
	svg_begin(&s, p->f, "depth", "queue depth: requests in flight, averaged per bin",
		  "time (s)", "requests");
	fputs("<polyline class=\"depth\" points=\"", p->f);
	for (i = 0; i < tl->nbins; i++)
		fprintf(p->f, "%.1f,%.1f ", svg_px(&s, x0 + w / 1e9 * ((double)i + 0.5)),
			svg_py(&s, (double)d->bin[i].inflight_ns / w));
	fputs("\"/>\n", p->f);
	svg_end(&s);
	fprintf(p->f, "<p class=\"note\">%zu bins of %.3f ms</p>\n", tl->nbins,
		w / 1e6);
}

/* log2 histograms of one or two recordings on one scale. */
static void hist_plot(FILE *f, const char *title, const struct hist *h0,
		      const struct hist *h1)
{
	uint64_t s0[HIST_SLOTS] = { 0 }, s1[HIST_SLOTS] = { 0 }, max = 1;
	int n0 = h0 ? hist_log2_us(h0, s0) : 0;
	int n1 = h1 ? hist_log2_us(h1, s1) : 0;
	int n = n0 > n1 ? n0 : n1, i;
	struct svg s = { 0 };

	if (n < 4)
		n = 4;
	for (i = 0; i < n; i++) {
		if (s0[i] > max)
			max = s0[i];
		if (s1[i] > max)
			max = s1[i];
	}
	s.w = 370;
	s.h = 220;
	s.x0 = 0;
	s.x1 = n;
	s.y1 = (double)max * 1.1;
	s.xlog2 = true;
	svg_begin(&s, f, "hist", title, "usecs (log2 buckets)", "requests");
	for (int k = 0; k < (h1 ? 2 : 1); k++) {
		const uint64_t *v = k ? s1 : s0;

		for (i = 0; i < n; i++) {
			double xa = svg_px(&s, i + (h1 ? k * 0.5 : 0));
			double xb = svg_px(&s, i + (h1 ? k * 0.5 + 0.5 : 1));
			double y = svg_py(&s, (double)v[i]);

			if (!v[i])
				continue;
			fprintf(f, "<rect class=\"hb %s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" data-slot=\"%d\" data-n=\"%" PRIu64 "\"><title>%" PRIu64 "-%" PRIu64 " us: %" PRIu64 "</title></rect>\n",
				k ? "after" : "before", xa, y, xb - xa - 0.5,
				svg_py(&s, 0) - y, i, v[i],
				i ? (uint64_t)1 << i : 0,
				((uint64_t)1 << (i + 1)) - 1, v[i]);
		}
	}
	if (h1) {
		svg_legend(&s, 0, "after", "AFTER");
		svg_legend(&s, 1, "before", "BEFORE");
	}
	svg_end(&s);
}

static const struct devstat *devstat_of(const struct stats *st, uint32_t dev,
					enum blk_op op)
{
	for (size_t i = 0; st && i < st->ndev; i++)
		if (st->dev[i].dev == dev && st->dev[i].op == op)
			return &st->dev[i];
	return NULL;
}

static void histograms(struct page *p, uint32_t dev, const struct stats *other)
{
	const struct stats *st = p->r->st;

	fputs("<div class=\"hists\">\n", p->f);
	for (size_t i = 0; i < st->ndev; i++) {
		const struct devstat *ds = &st->dev[i], *o;
		char t[160];

		if (ds->dev != dev || !ds->reqs)
			continue;
		o = devstat_of(other, dev, ds->op);
		snprintf(t, sizeof(t), "%s: queue time (Q2D)", blk_op_name(ds->op));
		if (ds->queue.count || (o && o->queue.count))
			hist_plot(p->f, t, &ds->queue, o ? &o->queue : NULL);
		snprintf(t, sizeof(t), "%s: device time (D2C)", blk_op_name(ds->op));
		hist_plot(p->f, t, &ds->device, o ? &o->device : NULL);
	}
	fputs("</div>\n", p->f);
}

static void devices(struct page *p, const struct stats *other)
{
	struct stats *st = p->r->st;
	const struct timeline *tl = p->r->tl;
	const struct blk_done *slow;
	size_t nslow;

	if (!tl || !tl->ndev) {
		fprintf(p->f, "<p class=\"note\">no block requests%s%s</p>\n",
			st->block_why ? ": " : "", st->block_why ? st->block_why : "");
		return;
	}
	slow = stats_slowest(st, &nslow);
	for (size_t i = 0; i < tl->ndev; i++) {
		const struct tl_dev *d = &tl->dev[i];

		fputs("<section class=\"device\" data-dev=\"", p->f);
		html_escape(p->f, sink_dev_name(&p->s, d->dev));
		fprintf(p->f, "\" data-requests=\"%" PRIu64 "\"><h3>", d->requests);
		html_escape(p->f, sink_dev_name(&p->s, d->dev));
		fprintf(p->f, " (%" PRIu64 " requests)</h3>\n", d->requests);
		latency_plot(p, d, slow, nslow);
		rate_plot(p, d, 0);
		rate_plot(p, d, 1);
		depth_plot(p, d);
		offset_plot(p, d);
		histograms(p, d->dev, other);
		fputs("</section>\n", p->f);
	}
}

/* ------------------------------------------------------------------ */
/* Processes, files, fsync, dirty, write amplification */

struct bar {
	char label[128];
	double v;
	uint64_t raw;
};

static int bar_cmp(const void *a, const void *b)
{
	const struct bar *x = a, *y = b;

	return x->v < y->v ? 1 : x->v > y->v ? -1 : strcmp(x->label, y->label);
}

/* Horizontal bars, the largest first, at most TOP_BARS. */
static void bars(FILE *f, const char *cls, const char *title,
		 const char *unit, struct bar *v, size_t n)
{
	struct svg s = { 0 };
	size_t shown = 0, i;
	double max = 0;

	qsort(v, n, sizeof(*v), bar_cmp);
	for (i = 0; i < n && shown < TOP_BARS; i++)
		if (v[i].v > 0) {
			shown++;
			if (v[i].v > max)
				max = v[i].v;
		}
	if (!shown) {
		fprintf(f, "<p class=\"note\">%s: none</p>\n", title);
		return;
	}
	s.w = 560;
	s.h = 40 + 18 * (int)shown + 30;
	s.x1 = max * 1.05;
	s.y0 = 0;
	s.y1 = (double)shown;
	svg_begin(&s, f, cls, title, unit, "");
	for (i = 0; i < shown; i++) {
		double y = svg_py(&s, (double)(shown - i));
		double x = svg_px(&s, v[i].v) - svg_px(&s, 0);

		fprintf(f, "<rect class=\"bar write\" x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"14\" data-v=\"%" PRIu64 "\"><title>",
			s.ml, y + 2, x, v[i].raw);
		html_escape(f, v[i].label);
		fprintf(f, ": %.3f %s</title></rect>\n<text class=\"tick\" style=\"text-anchor:start\" x=\"%.1f\" y=\"%.1f\">",
			v[i].v, unit, s.ml + x + 4, y + 13);
		html_escape(f, v[i].label);
		fputs("</text>\n", f);
	}
	svg_end(&s);
}

/*
 * A bar for each of the n rows of a rows_*() call (n < 0: its failure);
 * NULL with the failure in p->err.
 */
static struct bar *bars_new(struct page *p, long n)
{
	struct bar *b;

	if (n < 0) {
		p->err = (int)n;
		return NULL;
	}
	b = an_calloc((size_t)n + 1, sizeof(*b));
	if (!b)
		p->err = -AN_E_NOMEM;
	return b;
}

static void processes(struct page *p)
{
	struct proc_row *rows = NULL;
	long n = rows_processes(p->r->st, false, &rows);
	struct bar *b = bars_new(p, n);

	if (!b) {
		free(rows);
		return;
	}
	for (int k = 0; k < 3; k++) {
		static const char *const cls[] = { "pbytes", "pfsync", "pthrottle" };
		static const char *const ttl[] = {
			"bytes read and written by file syscalls",
			"time in fsync and fdatasync",
			"time throttled by dirty limits (balance_dirty_pages)",
		};

		for (long i = 0; i < n; i++) {
			const struct procstat *ps = rows[i].ps;
			uint64_t raw = !ps ? 0 : k == 0 ?
				       ps->read_bytes + ps->write_bytes :
				       k == 1 ? ps->fsync.sum : ps->throttle_ns;

			snprintf(b[i].label, sizeof(b[i].label), "%s (%d)",
				 rows[i].p.comm ? rows[i].p.comm : "?",
				 rows[i].p.pid);
			b[i].raw = raw;
			/* MiB, or ms */
			b[i].v = (double)raw / (k ? 1e6 : UNITS_MIB);
		}
		bars(p->f, cls[k], ttl[k], k ? "ms" : "MiB", b, (size_t)n);
	}
	free(b);
	free(rows);
}

static void files(struct page *p)
{
	struct file_row *rows = NULL;
	long n = rows_files(p->r->st, &rows);
	struct bar *b = bars_new(p, n);

	if (!b) {
		rows_files_release(rows, n);
		return;
	}
	for (int k = 0; k < 2; k++) {
		for (long i = 0; i < n; i++) {
			const struct filestat *fs = rows[i].s;
			uint64_t raw = k ? fs->fsync.sum :
				       fs->read_bytes + fs->write_bytes;

			snprintf(b[i].label, sizeof(b[i].label), "%s",
				 file_info_name(&rows[i].f));
			b[i].raw = raw;
			b[i].v = (double)raw / (k ? 1e6 : UNITS_MIB);
		}
		bars(p->f, k ? "ffsync" : "fbytes",
		     k ? "time in fsync calls on the file" :
			 "bytes read and written by file syscalls",
		     k ? "ms" : "MiB", b, (size_t)n);
	}
	free(b);
	rows_files_release(rows, n);
}

/* Each sampled fsync call: when it began and how long it took. */
static void fsync_plot(struct page *p)
{
	const struct timeline *tl = p->r->tl;
	struct svg s = { 0 };
	double max = 0.001;
	size_t i;

	if (!tl || !tl->ncall) {
		fputs("<p class=\"note\">no fsync, fdatasync or sync_file_range calls</p>\n",
		      p->f);
		return;
	}
	for (i = 0; i < tl->ncall; i++)
		if ((double)(tl->call[i].end - tl->call[i].start) / 1e6 > max)
			max = (double)(tl->call[i].end - tl->call[i].start) / 1e6;
	s.x1 = secs(p, p->r->st->last_ts);
	s.ylog = true;
	s.y0 = 0.001;
	s.y1 = max * 1.2;
	svg_begin(&s, p->f, "fsyncs", "fsync, fdatasync and sync_file_range calls",
		  "start (s)", "duration (ms, log)");
	for (i = 0; i < tl->ncall; i++) {
		const struct tl_call *c = &tl->call[i];
		double ms = (double)(c->end - c->start) / 1e6;
		char w[64];

		when(p, c->start, w, sizeof(w));
		fprintf(p->f, "<circle class=\"pt write\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" data-ms=\"%.6f\"><title>%s %s: %.3f ms</title></circle>\n",
			svg_px(&s, secs(p, c->start)),
			svg_py(&s, ms > 0.001 ? ms : 0.001), ms, w,
			sys_kind_info(c->kind)->name, ms);
	}
	svg_end(&s);
	fprintf(p->f, "<p class=\"note\">%zu of %" PRIu64 " calls drawn (1 in %" PRIu64 ")</p>\n",
		tl->ncall, tl->calls, tl->call_stride);
}

static void dirty_line(struct page *p, const struct svg *s,
		       const struct dirty_slot *v, size_t n, double w,
		       const char *cls, int which)
{
	fprintf(p->f, "<polyline class=\"%s\" points=\"", cls);
	for (size_t i = 0; i < n; i++) {
		uint64_t pages = which == 0 ? v[i].nr_dirty :
				 which == 1 ? v[i].nr_writeback :
				 which == 2 ? v[i].bg_thresh : v[i].thresh;

		if (!v[i].gds)
			continue;
		fprintf(p->f, "%.1f,%.1f ", svg_px(s, w * ((double)i + 0.5)),
			svg_py(s, (double)pages * (double)p->r->st->dirty->page_size / UNITS_MIB));
	}
	fputs("\"/>\n", p->f);
}

static void dirty_plot(struct page *p)
{
	const struct dirty *d = p->r->st->dirty;
	struct dirty_slot *v;
	struct svg s = { 0 };
	double max = 0, w;
	size_t n = 200;
	uint64_t width;

	if (!d || !d->have_gds || !d->nslot) {
		fputs("<p class=\"note\">no global_dirty_state events: no dirty pages over time</p>\n",
		      p->f);
		return;
	}
	v = an_calloc(n, sizeof(*v));
	if (!v) {
		p->err = -AN_E_NOMEM;
		return;
	}
	width = dirty_rebin(d, v, n);
	if (d->nslot < n)
		n = d->nslot;
	w = (double)width / 1e9;
	for (size_t i = 0; i < n; i++) {
		uint64_t m = v[i].nr_dirty > v[i].thresh ? v[i].nr_dirty : v[i].thresh;

		if (v[i].nr_writeback > m)
			m = v[i].nr_writeback;
		if ((double)m * (double)d->page_size / UNITS_MIB > max)
			max = (double)m * (double)d->page_size / UNITS_MIB;
	}
	s.x1 = w * (double)n;
	s.y1 = max > 0 ? max * 1.1 : 1;
	svg_begin(&s, p->f, "dirty", "dirty and writeback pages, with the thresholds",
		  "time (s)", "MiB");
	dirty_line(p, &s, v, n, w, "dirty", 0);
	dirty_line(p, &s, v, n, w, "wb", 1);
	dirty_line(p, &s, v, n, w, "bgthresh", 2);
	dirty_line(p, &s, v, n, w, "thresh", 3);
	svg_legend(&s, 0, "write", "dirty limit");
	svg_legend(&s, 1, "after", "background");
	svg_legend(&s, 2, "other", "writeback");
	svg_legend(&s, 3, "read", "dirty");
	svg_end(&s);
	free(v);
}

static void wa(struct page *p)
{
	const struct wa *w = p->r->st->wa;

	if (!w || !w->ndev) {
		fputs("<p class=\"note\">no write amplification: no block writes</p>\n",
		      p->f);
		return;
	}
	for (size_t i = 0; i < w->ndev; i++) {
		const struct wa_dev *d = &w->dev[i];
		struct bar b[WA_NCLASS + 1];
		char t[160];

		memset(b, 0, sizeof(b));
		snprintf(b[0].label, sizeof(b[0].label), "application writes");
		b[0].raw = d->app_bytes;
		for (int c = 0; c < WA_NCLASS; c++) {
			snprintf(b[c + 1].label, sizeof(b[c + 1].label),
				 "device: %s", wa_class_name((enum wa_class)c));
			b[c + 1].raw = d->cls[c];
		}
		for (int c = 0; c <= WA_NCLASS; c++)
			b[c].v = (double)b[c].raw / UNITS_MIB;
		snprintf(t, sizeof(t), "%s: bytes written by the applications and at the device",
			 sink_dev_name(&p->s, d->dev));
		bars(p->f, "wa", t, "MiB", b, WA_NCLASS + 1);
	}
}

/* ------------------------------------------------------------------ */
/* The page */

static void one_column(struct page *p, const struct stats *other)
{
	FILE *f = p->f;

	fputs("<div class=\"rec\"><h2>", f);
	html_escape(f, p->r->label);
	fputs("</h2>\n", f);
	summary(p);
	fputs("<h2>devices</h2>\n", f);
	devices(p, other);
	fputs("<h2>processes</h2>\n", f);
	processes(p);
	fputs("<h2>files</h2>\n", f);
	files(p);
	fsync_plot(p);
	fputs("<h2>dirty pages and writeback</h2>\n", f);
	dirty_plot(p);
	fputs("<h2>write amplification</h2>\n", f);
	wa(p);
	fputs("<h2>configuration</h2>\n", f);
	config(p);
	fputs("<h2>lost events and anomalies</h2>\n", f);
	anomalies(p);
	fputs("</div>\n", f);
}

/*
 * The top findings of one recording as an ordered list (side: "BEFORE" or
 * "AFTER" on a pair, else NULL); 0 or -AN_E_NOMEM.
 */
static int findings_html(FILE *f, const struct stats *st, const char *side)
{
	struct findings fs;
	size_t n;

	if (findings_compute(st, &fs) < 0)
		return -AN_E_NOMEM;
	fprintf(f, "<h2>findings%s%s</h2>\n", side ? " of " : "",
		side ? side : "");
	if (!fs.n)
		fputs("<p>none: nothing in this recording costs enough time to name.</p>\n", f);
	n = fs.n < HTML_FINDINGS ? fs.n : HTML_FINDINGS;
	if (n)
		fputs("<ol class=\"findings\">\n", f);
	for (size_t i = 0; i < n; i++) {
		const struct finding *x = &fs.v[i];

		fprintf(f, "<li class=\"%s\">", fnd_severity_name(x->sev));
		html_escape(f, x->sentence ? x->sentence : "");
		if (x->more) {
			fputs(" <code>", f);
			html_escape(f, x->more);
			fputs("</code>", f);
		}
		fputs("</li>\n", f);
	}
	if (n)
		fputs("</ol>\n", f);
	if (fs.n > n)
		fprintf(f, "<p>%zu more: <code>ioreport findings</code>.</p>\n",
			fs.n - n);
	findings_release(&fs);
	return 0;
}

int html_page(FILE *f, const struct html_rec *b, const struct html_rec *a,
	      const char *diff_text)
{
	struct page pb, pa;
	int err;

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>ioreport: ", f);
	html_escape(f, b->st->info->path);
	fprintf(f, "</title>\n<style>\n%s</style></head>\n<body>\n<h1>ioreport: ", css);
	html_escape(f, b->st->info->path);
	if (a) {
		fputs(" vs ", f);
		html_escape(f, a->st->info->path);
	}
	fputs("</h1>\n", f);
	/* the findings (ioreport findings) before everything else */
	fputs("<section id=\"findings\">\n", f);
	err = findings_html(f, b->st, a ? "BEFORE" : NULL);
	if (!err && a)
		err = findings_html(f, a->st, "AFTER");
	fputs("</section>\n", f);
	if (err)
		return err;
	if (a && diff_text) {
		/* the configuration changes in view, the deltas folded */
		const char *rest = strstr(diff_text, "\nsummary:");
		char *head = an_asprintf("%.*s", rest ? (int)(rest - diff_text) :
					 (int)strlen(diff_text), diff_text);

		fputs("<h2>what changed (ioreport diff)</h2>\n<pre class=\"diff\">", f);
		html_escape(f, head ? head : diff_text);
		fputs("</pre>\n", f);
		if (head && rest) {
			fputs("<details><summary>the deltas of every view</summary><pre class=\"diff\">", f);
			html_escape(f, rest + 1);
			fputs("</pre></details>\n", f);
		}
		free(head);
	}
	page_init(&pb, f, b);
	if (a) {
		page_init(&pa, f, a);
		fputs("<div class=\"pair\">\n", f);
		one_column(&pb, a->st);
		one_column(&pa, NULL);
		fputs("</div>\n", f);
	} else {
		one_column(&pb, NULL);
	}
	fputs("<p class=\"note\">made by ioreport " PACKAGE_VERSION "; histograms of AFTER are overlaid on BEFORE's in the BEFORE column</p>\n</body></html>\n",
	      f);
	err = pb.err;
	sink_release(&pb.s);
	if (a) {
		if (!err)
			err = pa.err;
		sink_release(&pa.s);
	}
	return err;
}
