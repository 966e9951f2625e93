// SPDX-License-Identifier: MIT
/*
 * html-dev.c - the device plots of the HTML page (html-priv.h): per
 * device, the slowest first, the device time of each request and its
 * heat map over time, throughput and IOPS from bins wide enough to mean
 * a rate, queue depth, offsets and the latency histograms; on a
 * BEFORE/AFTER page each plot of both recordings on the same axes.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/blk.h"
#include "base/err.h"
#include "base/units.h"
#include "sink/html-priv.h"
#include "stats/summary.h"
#include "stats/timeline.h"

#define SLOW_DRAWN	200
#define RATE_MIN_NS	100000000ULL	/* a rate over less means little */
#define RATE_BINS	60		/* at most about this many */
#define HEAT_COLS	90
#define HEAT_LEVELS	8
#define PAGE_POINTS	16000	/* request points drawn on a page, at most
				   about: a page of any number of devices
				   stays within a few MiB */

static const char *const op_cls[BLK_OP_MAX] = {
	"read", "write", "flush", "discard", "other",
};

static const struct tl_dev *tl_dev_of(const struct page *p, uint32_t dev)
{
	const struct timeline *tl = p->r->tl;

	for (size_t i = 0; tl && i < tl->ndev; i++)
		if (tl->dev[i].dev == dev)
			return &tl->dev[i];
	return NULL;
}

/* A cell saying a side has no request on dev. */
static void no_dev(struct html *h, struct page *p, uint32_t dev)
{
	html_cell_begin(h, p);
	fputs("<p class=\"note\">no request of ", h->f);
	html_escape(h->f, sink_dev_name(&p->s, dev));
	fprintf(h->f, " in %s</p>\n", p->side ? p->side : "this recording");
	html_cell_end(h);
}

/* ------------------------------------------------------------------ */
/* Bins for the page: the timeline's merged to a width of both sides */

struct dbins {
	double x0, w;		/* s: start of bin 0, width */
	uint64_t wns;
	size_t n;
	struct tl_bin *b;
};

/*
 * The width of the page's bins: the widest of the sides' timeline bins,
 * doubled until it is at least min_ns and span / most.
 */
static uint64_t bin_width(const struct html *h, uint64_t min_ns, int most)
{
	uint64_t w = 1;

	for (int i = 0; i < h->n; i++)
		if (h->p[i].r->tl && h->p[i].r->tl->width > w)
			w = h->p[i].r->tl->width;
	while (w < min_ns || (double)w * most < h->span * 1e9)
		w *= 2;
	return w;
}

/* d's bins merged to width wns; 0, or -AN_E_NOMEM. */
static int dbins_make(struct dbins *o, const struct page *p,
		      const struct tl_dev *d, uint64_t wns)
{
	const struct timeline *tl = p->r->tl;
	uint64_t k = wns / tl->width;

	memset(o, 0, sizeof(*o));
	o->wns = wns;
	o->w = (double)wns / 1e9;
	o->x0 = tl->t0 >= p->t0 ? html_secs(p, tl->t0) :
		-(double)(p->t0 - tl->t0) / 1e9;
	o->n = (tl->nbins + k - 1) / k;
	if (!o->n)
		o->n = 1;
	o->b = an_calloc(o->n, sizeof(*o->b));
	if (!o->b)
		return -AN_E_NOMEM;
	for (size_t i = 0; i < tl->nbins; i++) {
		struct tl_bin *m = &o->b[i / k];

		blk_tally_sum(&m->ops, &d->bin[i].ops);
		m->inflight_ns += d->bin[i].inflight_ns;
		for (int s = 0; s < TL_LAT; s++)
			m->lat[s] += d->bin[i].lat[s];
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Device time of each request */

static uint64_t max_d2c(const struct page *p, const struct tl_dev *d)
{
	const struct blk_done *slow;
	uint64_t m = 1000;
	size_t n;

	for (size_t i = 0; i < d->npt; i++)
		if (d->pt[i].issue && d->pt[i].complete - d->pt[i].issue > m)
			m = d->pt[i].complete - d->pt[i].issue;
	slow = stats_slowest(p->r->st, &n);
	for (size_t i = 0; i < n; i++)
		if (slow[i].rq.dev == d->dev && slow[i].rq.issue_ts &&
		    slow[i].rq.complete_ts - slow[i].rq.issue_ts > m)
			m = slow[i].rq.complete_ts - slow[i].rq.issue_ts;
	return m;
}

static void point(struct html *h, struct page *p, const struct svg *s,
		  const struct tl_point *pt, bool slow)
{
	uint64_t ns = pt->issue ? pt->complete - pt->issue : 0;
	uint64_t at = pt->issue ? pt->issue : pt->start;
	char w[64], q[UNITS_BUF], dt[UNITS_BUF], b[UNITS_BUF];

	if (!sink_wallclock(p->r->st->info, at, false, w, sizeof(w)))
		snprintf(w, sizeof(w), "+%.6f s", html_secs(p, at));
	fprintf(h->f, "<circle class=\"%s %s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%d\"",
		slow ? "slow" : "pt", op_cls[pt->op],
		svg_px(s, html_secs(p, at)),
		svg_py(s, ns > 1000 ? (double)ns : 1000), slow ? 4 : 2);
	if (slow)
		fprintf(h->f, " data-ms=\"%.6f\"", (double)ns / 1e6);
	fprintf(h->f, "><title>%s %s %s at %" PRIu64 ": I2D %s, D2C %s</title></circle>\n",
		w, blk_op_name(pt->op), units_bytes(b, sizeof(b), (double)pt->bytes),
		pt->sector,
		units_dur(q, sizeof(q), pt->issue ? (double)(pt->issue - pt->start) : 0),
		units_dur(dt, sizeof(dt), (double)ns));
}

static void latency_cell(struct html *h, struct page *p,
			 const struct tl_dev *d, double ymax)
{
	struct svg s = { .x1 = h->span, .ylog = true, .y0 = 1000, .y1 = ymax,
			 .xax = SVG_AX_NUM, .yax = SVG_AX_DUR };
	const struct blk_done *slow;
	size_t nslow, drawn = 0, npt = 0;
	unsigned int ops = 0;
	char t[160];

	html_title(p, "device time (D2C) of each request", t, sizeof(t));
	svg_begin(&s, h->f, "latency", t, "issue time (s)",
		  "device time (log scale)");
	for (size_t i = 0; i < d->npt; i += h->every) {
		point(h, p, &s, &d->pt[i], false);
		ops |= 1u << d->pt[i].op;
		npt++;
	}
	slow = stats_slowest(p->r->st, &nslow);
	for (size_t i = 0; i < nslow && drawn < SLOW_DRAWN; i++) {
		const struct blk_request *rq = &slow[i].rq;
		struct tl_point pt = {
			.start = rq->insert_ts ? rq->insert_ts : rq->issue_ts,
			.issue = rq->issue_ts, .complete = rq->complete_ts,
			.sector = rq->sector, .bytes = rq->bytes, .op = rq->op,
		};

		if (rq->dev != d->dev || !rq->issue_ts)
			continue;
		point(h, p, &s, &pt, true);
		ops |= 1u << rq->op;
		drawn++;
	}
	for (int o = 0; o < BLK_OP_MAX; o++)
		if (ops & (1u << o))
			svg_legend(&s, op_cls[o], blk_op_name((enum blk_op)o), false);
	svg_end(&s);
	fprintf(h->f, "<p class=\"note\">%zu of %" PRIu64 " requests drawn (1 in %" PRIu64 ", uniformly over the recording); ringed: the %zu slowest</p>\n",
		npt, d->requests, d->stride * h->every, drawn);
}

static void latency(struct html *h, uint32_t dev, int which)
{
	double ymax = 2000;

	(void)which;
	for (int i = 0; i < h->n; i++) {
		const struct tl_dev *d = tl_dev_of(&h->p[i], dev);

		if (d && (double)max_d2c(&h->p[i], d) * 1.5 > ymax)
			ymax = (double)max_d2c(&h->p[i], d) * 1.5;
	}
	for (int i = 0; i < h->n; i++) {
		const struct tl_dev *d = tl_dev_of(&h->p[i], dev);

		if (!d) {
			no_dev(h, &h->p[i], dev);
			continue;
		}
		html_cell_begin(h, &h->p[i]);
		latency_cell(h, &h->p[i], d, ymax);
		html_cell_end(h);
	}
}

/* ------------------------------------------------------------------ */
/* The heat map: time x device time, colour = requests */

struct heat {
	struct dbins b[2];
	int lo, hi;		/* slots drawn */
	uint32_t lb[HEAT_LEVELS];	/* the least count of each level */
	int nl;
};

static int heat_level(const struct heat *hm, uint32_t c)
{
	int l = 0;

	while (l + 1 < hm->nl && c >= hm->lb[l + 1])
		l++;
	/* the classes h1..h8 spread over the levels in use */
	return 1 + (hm->nl > 1 ? l * (HEAT_LEVELS - 1) / (hm->nl - 1) : 0);
}

static void heat_cell(struct html *h, struct page *p, const struct heat *hm,
		      const struct dbins *b)
{
	struct svg s = { .x1 = h->span, .y0 = hm->lo, .y1 = hm->hi + 1,
			 .xax = SVG_AX_NUM, .yax = SVG_AX_LOG2US, .mt = 44 };
	char t[160], a[UNITS_BUF], z[UNITS_BUF], lab[32];

	html_title(p, "latency heat map: requests by device time over time", t,
		   sizeof(t));
	svg_begin(&s, h->f, "heatmap", t, "completion time (s)",
		  "device time (log2 buckets)");
	for (size_t i = 0; i < b->n; i++) {
		double xa = svg_px(&s, b->x0 + b->w * (double)i);
		double xb = svg_px(&s, b->x0 + b->w * (double)(i + 1));

		for (int k = hm->lo; k <= hm->hi; k++) {
			uint32_t c = b->b[i].lat[k];
			double ya = svg_py(&s, k + 1), yb = svg_py(&s, k);

			if (!c)
				continue;
			fprintf(h->f, "<rect class=\"hm h%d\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" data-n=\"%u\" data-slot=\"%d\"><title>%.3f-%.3f s, device time %s to %s: %u requests</title></rect>\n",
				heat_level(hm, c), xa, ya, xb - xa, yb - ya, c,
				k, b->x0 + b->w * (double)i,
				b->x0 + b->w * (double)(i + 1),
				units_dur(a, sizeof(a), k ? 1000.0 * (double)(1ULL << k) : 0),
				units_dur(z, sizeof(z), 1000.0 * (double)(1ULL << (k + 1))),
				c);
		}
	}
	for (int l = 0; l < hm->nl; l++) {
		char cls[8];

		snprintf(cls, sizeof(cls), "h%d", hm->nl > 1 ?
			 1 + l * (HEAT_LEVELS - 1) / (hm->nl - 1) : 1);
		if (l + 1 < hm->nl && hm->lb[l + 1] - 1 > hm->lb[l])
			snprintf(lab, sizeof(lab), "%u-%u", hm->lb[l],
				 hm->lb[l + 1] - 1);
		else if (l + 1 < hm->nl)
			snprintf(lab, sizeof(lab), "%u", hm->lb[l]);
		else
			snprintf(lab, sizeof(lab), "%u+", hm->lb[l]);
		svg_legend_scale(&s, cls, lab);
	}
	svg_end(&s);
	fprintf(h->f, "<p class=\"note\">requests per cell of %s by a log2 bucket of device time (issue to complete); colours: requests per cell, the same scale on %s</p>\n",
		units_dur(a, sizeof(a), (double)b->wns),
		h->n > 1 ? "both sides" : "the whole map");
}

static void heatmap(struct html *h, uint32_t dev, int which)
{
	struct heat hm;
	uint32_t max = 0;
	uint64_t w = bin_width(h, 1, HEAT_COLS);

	(void)which;
	memset(&hm, 0, sizeof(hm));
	hm.lo = TL_LAT;
	hm.hi = -1;
	for (int i = 0; i < h->n; i++) {
		const struct tl_dev *d = tl_dev_of(&h->p[i], dev);

		if (!d)
			continue;
		if (dbins_make(&hm.b[i], &h->p[i], d, w) < 0) {
			h->err = -AN_E_NOMEM;
			goto out;
		}
		for (size_t j = 0; j < hm.b[i].n; j++)
			for (int k = 0; k < TL_LAT; k++) {
				uint32_t c = hm.b[i].b[j].lat[k];

				if (!c)
					continue;
				if (k < hm.lo)
					hm.lo = k;
				if (k > hm.hi)
					hm.hi = k;
				if (c > max)
					max = c;
			}
	}
	if (hm.hi < 0)
		hm.lo = hm.hi = 0;
	while (hm.hi - hm.lo < 5)
		hm.hi < TL_LAT - 1 ? hm.hi++ : hm.lo--;
	/* levels: a log scale of the counts, each level a distinct count */
	for (int l = 0; l < HEAT_LEVELS; l++) {
		uint32_t lb = (uint32_t)ceil(pow(max > 1 ? max : 1,
					     (double)l / HEAT_LEVELS) - 1e-9);

		if (!hm.nl || lb > hm.lb[hm.nl - 1])
			hm.lb[hm.nl++] = lb ? lb : 1;
	}
	for (int i = 0; i < h->n; i++) {
		if (!hm.b[i].b) {
			no_dev(h, &h->p[i], dev);
			continue;
		}
		html_cell_begin(h, &h->p[i]);
		heat_cell(h, &h->p[i], &hm, &hm.b[i]);
		html_cell_end(h);
	}
out:
	free(hm.b[0].b);
	free(hm.b[1].b);
}

/* ------------------------------------------------------------------ */
/* Throughput, IOPS, queue depth */

/* which: 0 bytes (read and write), 1 requests (every op), 2 in flight. */
static double bin_value(const struct tl_bin *b, int which, double w)
{
	if (which == 2)
		return (double)b->inflight_ns / (w * 1e9);
	if (which == 1)
		return (double)blk_tally_requests(&b->ops) / w;
	return (double)(b->ops.bytes[BLK_OP_READ] + b->ops.bytes[BLK_OP_WRITE]) / w;
}

static void rate_cell(struct html *h, struct page *p, uint32_t dev,
		      const struct dbins *b, int which, double ymax,
		      uint64_t fine)
{
	static const char *const cls[] = { "throughput", "iops", "depth" };
	static const char *const ttl[] = {
		"throughput: bytes read and written per second",
		"IOPS: requests completed per second",
		"queue depth: requests in flight (insert to complete)",
		/* a request's flight starts at its insert, else its issue */
		"queue depth: requests in flight (issue to complete)",
	};
	struct dev_measure m;
	int title = which;
	const char *uname = "B";
	double per = which ? 1 : svg_size_unit(ymax, &uname);
	struct svg s = { .x1 = h->span, .y1 = ymax / per, .xax = SVG_AX_NUM,
			 .yax = SVG_AX_NUM };
	unsigned int ops = 0;
	char t[160], yl[64], a[UNITS_BUF], c[UNITS_BUF];
	int nops = which == 1 ? BLK_OP_MAX : 2;

	if (which == 2) {
		summary_measure(p->r->st, dev, &m);
		title = m.i2d ? 2 : 3;
	}
	html_title(p, ttl[title], t, sizeof(t));
	snprintf(yl, sizeof(yl), which == 0 ? "throughput (%s/s)" :
		 which == 1 ? "IOPS (requests/s)" : "in flight (requests)",
		 uname);
	svg_begin(&s, h->f, cls[which], t, "time (s)", yl);
	if (which == 2) {
		fputs("<polyline class=\"depth\" points=\"", h->f);
		for (size_t i = 0; i < b->n; i++)
			fprintf(h->f, "%.1f,%.1f ",
				svg_px(&s, b->x0 + b->w * ((double)i + 0.5)),
				svg_py(&s, bin_value(&b->b[i], 2, b->w)));
		fputs("\"/>\n", h->f);
	}
	for (size_t i = 0; which < 2 && i < b->n; i++) {
		const struct blk_tally *k = &b->b[i].ops;
		double xa = svg_px(&s, b->x0 + b->w * (double)i);
		double xb = svg_px(&s, b->x0 + b->w * (double)(i + 1));
		double base = 0;

		for (int o = 0; o < nops; o++) {
			uint64_t v = which ? k->n[o] : k->bytes[o];
			double top = base + (double)v / b->w / per;
			double ya = svg_py(&s, top), yb = svg_py(&s, base);

			if (!v)
				continue;
			ops |= 1u << o;
			fprintf(h->f, "<rect class=\"bin %s\" x=\"%.1f\" y=\"%.2f\" width=\"%.1f\" height=\"%.2f\" data-%s=\"%" PRIu64 "\"><title>%.3f-%.3f s: %s ",
				op_cls[o], xa, ya, xb - xa - (xb - xa > 3 ? 0.6 : 0),
				yb - ya, which ? "n" : "bytes", v,
				b->x0 + b->w * (double)i,
				b->x0 + b->w * (double)(i + 1),
				blk_op_name((enum blk_op)o));
			if (which)
				fprintf(h->f, "%" PRIu64 " requests, %.0f/s</title></rect>\n",
					v, (double)v / b->w);
			else
				fprintf(h->f, "%s, %s</title></rect>\n",
					units_bytes(a, sizeof(a), (double)v),
					units_rate(c, sizeof(c), (double)v / b->w));
			base = top;
		}
	}
	for (int o = 0; o < nops; o++)
		if (ops & (1u << o))
			svg_legend(&s, op_cls[o], blk_op_name((enum blk_op)o), false);
	svg_end(&s);
	fprintf(h->f, "<p class=\"note\">%zu bins of %s", b->n,
		units_dur(a, sizeof(a), (double)b->wns));
	if (b->wns > fine)
		fprintf(h->f, " (the recording's %s bins merged: a rate over a shorter time is a burst, not a rate)",
			units_dur(c, sizeof(c), (double)fine));
	fputs("</p>\n", h->f);
}

static void rates(struct html *h, uint32_t dev, int which)
{
	struct dbins b[2];
	uint64_t w = bin_width(h, RATE_MIN_NS, RATE_BINS), fine = 0;
	double max = 0;

	memset(b, 0, sizeof(b));
	for (int i = 0; i < h->n; i++) {
		const struct tl_dev *d = tl_dev_of(&h->p[i], dev);

		if (!d)
			continue;
		if (dbins_make(&b[i], &h->p[i], d, w) < 0) {
			h->err = -AN_E_NOMEM;
			goto out;
		}
		if (h->p[i].r->tl->width > fine)
			fine = h->p[i].r->tl->width;
		for (size_t j = 0; j < b[i].n; j++)
			if (bin_value(&b[i].b[j], which, b[i].w) > max)
				max = bin_value(&b[i].b[j], which, b[i].w);
	}
	if (max <= 0)
		max = 1;
	for (int i = 0; i < h->n; i++) {
		if (!b[i].b) {
			no_dev(h, &h->p[i], dev);
			continue;
		}
		html_cell_begin(h, &h->p[i]);
		rate_cell(h, &h->p[i], dev, &b[i], which, max * 1.1, fine);
		html_cell_end(h);
	}
out:
	free(b[0].b);
	free(b[1].b);
}

/* ------------------------------------------------------------------ */
/* Offsets */

static uint64_t top_byte(const struct tl_dev *d)
{
	uint64_t top = 1;

	for (size_t i = 0; i < d->npt; i++)
		if (d->pt[i].sector * BLK_SECTOR_SIZE + d->pt[i].bytes > top)
			top = d->pt[i].sector * BLK_SECTOR_SIZE + d->pt[i].bytes;
	return top;
}

static void offsets(struct html *h, uint32_t dev, int which)
{
	double max = 1;

	(void)which;
	for (int i = 0; i < h->n; i++) {
		const struct tl_dev *d = tl_dev_of(&h->p[i], dev);

		if (d && (double)top_byte(d) > max)
			max = (double)top_byte(d);
	}
	for (int i = 0; i < h->n; i++) {
		const struct tl_dev *d = tl_dev_of(&h->p[i], dev);
		struct page *p = &h->p[i];
		const char *uname;
		double per = svg_size_unit(max, &uname);
		struct svg s = { .x1 = h->span, .y1 = max * 1.05 / per,
				 .xax = SVG_AX_NUM, .yax = SVG_AX_NUM };
		unsigned int ops = 0;
		char t[160], yl[64];

		if (!d) {
			no_dev(h, p, dev);
			continue;
		}
		html_cell_begin(h, p);
		html_title(p, "offset of each request on the device", t, sizeof(t));
		snprintf(yl, sizeof(yl), "offset (%s)", uname);
		svg_begin(&s, h->f, "offset", t, "issue time (s)", yl);
		for (size_t k = 0; k < d->npt; k += h->every) {
			const struct tl_point *pt = &d->pt[k];

			ops |= 1u << pt->op;
			fprintf(h->f, "<circle class=\"pt %s\" cx=\"%.1f\" cy=\"%.1f\" r=\"1.5\"/>\n",
				op_cls[pt->op],
				svg_px(&s, html_secs(p, pt->issue ? pt->issue : pt->start)),
				svg_py(&s, (double)pt->sector * BLK_SECTOR_SIZE / per));
		}
		for (int o = 0; o < BLK_OP_MAX; o++)
			if (ops & (1u << o))
				svg_legend(&s, op_cls[o], blk_op_name((enum blk_op)o), false);
		svg_end(&s);
		html_cell_end(h);
	}
}

/* ------------------------------------------------------------------ */
/* Histograms: one or two recordings overlaid on one scale */

static const struct devstat *devstat_of(const struct stats *st, uint32_t dev,
					enum blk_op op)
{
	for (size_t i = 0; st && i < st->ndev; i++)
		if (st->dev[i].dev == dev && st->dev[i].op == op)
			return &st->dev[i];
	return NULL;
}

static void hist_plot(struct html *h, const char *title, enum blk_op op,
		      const struct hist *hs[2])
{
	uint64_t v[2][HIST_SLOTS], max = 1;
	int n = 0, lo = HIST_SLOTS;
	struct svg s = { .w = 300, .h = 210, .xax = SVG_AX_LOG2US,
			 .yax = SVG_AX_NUM };

	memset(v, 0, sizeof(v));
	for (int k = 0; k < h->n; k++) {
		int m = hs[k] ? hist_log2_us(hs[k], v[k]) : 0;

		if (m > n)
			n = m;
		for (int i = 0; i < m; i++) {
			if (v[k][i] > max)
				max = v[k][i];
			if (v[k][i] && i < lo)
				lo = i;
		}
	}
	if (lo == HIST_SLOTS)
		lo = 0;
	if (lo > 0)
		lo--;
	if (n < lo + 4)
		n = lo + 4;
	s.x0 = lo;
	s.x1 = n;
	s.y1 = (double)max * 1.1;
	html_cell_begin(h, NULL);
	svg_begin(&s, h->f, "hist", title, "latency (log2 buckets)",
		  "requests (count)");
	for (int k = 0; k < h->n; k++) {
		for (int i = lo; i < n; i++) {
			double half = h->n > 1 ? 0.5 : 1;
			double xa = svg_px(&s, i + k * half);
			double xb = svg_px(&s, i + (k + 1) * half);
			double y = svg_py(&s, (double)v[k][i]);
			char a[UNITS_BUF], z[UNITS_BUF];

			if (!v[k][i])
				continue;
			fprintf(h->f, "<rect class=\"hb %s%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" data-slot=\"%d\" data-n=\"%" PRIu64 "\"><title>%s%s to %s: %" PRIu64 " requests</title></rect>\n",
				op_cls[op], k ? " after" : "", xa, y, xb - xa - 0.5,
				svg_py(&s, 0) - y, i, v[k][i],
				h->n > 1 ? (k ? "AFTER " : "BEFORE ") : "",
				units_dur(a, sizeof(a), i ? 1000.0 * (double)(1ULL << i) : 0),
				units_dur(z, sizeof(z), 1000.0 * (double)(1ULL << (i + 1))),
				v[k][i]);
		}
	}
	for (int k = 0; h->n > 1 && k < 2; k++) {
		char c[32];
		bool any = false;

		for (int i = lo; i < n; i++)
			any |= v[k][i] > 0;
		snprintf(c, sizeof(c), "%s%s", op_cls[op], k ? " after" : "");
		if (any)
			svg_legend(&s, c, k ? "AFTER" : "BEFORE", false);
	}
	svg_end(&s);
	html_cell_end(h);
}

static void histograms(struct html *h, uint32_t dev, const char *name)
{
	int cells = 0;
	char why[2][200], t[160];

	for (int i = 0; i < h->n; i++) {
		struct dev_measure m;

		summary_measure(h->p[i].r->st, dev, &m);
		why[i][0] = 0;
		if (!m.i2d)
			snprintf(why[i], sizeof(why[i]), "%s", m.why ? m.why :
				 !strcmp(m.scheduler, "none") ? "no I/O scheduler" :
				 "no request inserted");
	}
	for (int q = 0; q < 2; q++)
		for (int o = 0; o < BLK_OP_MAX; o++) {
			const struct hist *hs[2] = { NULL, NULL };
			bool any = false;

			for (int i = 0; i < h->n; i++) {
				const struct devstat *ds =
					devstat_of(h->p[i].r->st, dev, (enum blk_op)o);

				if (!ds || (q == 0 && why[i][0]))
					continue;
				hs[i] = q ? &ds->device : &ds->queue;
				any |= hs[i]->count > 0;
			}
			if (!any)
				continue;
			if (!cells++)
				html_row_begin(h, "hists", NULL, 4);
			snprintf(t, sizeof(t), "%s %s: %s", name,
				 blk_op_name((enum blk_op)o),
				 q ? "device time (D2C)" : "queue time (I2D)");
			hist_plot(h, t, (enum blk_op)o, hs);
		}
	if (cells)
		html_row_end(h);
	for (int i = 0; i < h->n; i++)
		if (why[i][0]) {
			fprintf(h->f, "<p class=\"note\">%s%squeue time of %s not measurable: ",
				h->p[i].side ? h->p[i].side : "",
				h->p[i].side ? ": " : "", name);
			html_escape(h->f, why[i]);
			fputs("</p>\n", h->f);
		}
}

/* ------------------------------------------------------------------ */
/* The devices, the slowest first */

/* The device's rows of the devices view, of one side. */
static void dev_table(struct html *h, uint32_t dev, int which)
{
	(void)which;
	for (int i = 0; i < h->n; i++) {
		const struct stats *st = h->p[i].r->st;
		double secs = (double)stats_duration(st) / 1e9;
		char b[UNITS_BUF], p50[UNITS_BUF], p99[UNITS_BUF], mx[UNITS_BUF];

		html_cell_begin(h, &h->p[i]);
		fprintf(h->f, "<table class=\"devops\"><tr><th>%s%sop</th><th>requests</th><th>bytes</th><th>IOPS</th><th>MiB/s</th><th>D2C p50</th><th>p99</th><th>max</th></tr>\n",
			h->p[i].side ? h->p[i].side : "", h->p[i].side ? ": " : "");
		for (size_t k = 0; k < st->ndev; k++) {
			const struct devstat *d = &st->dev[k];

			if (d->dev != dev || !d->reqs)
				continue;
			fprintf(h->f, "<tr><td class=\"%s\">%s</td><td>%" PRIu64 "</td><td>%s</td><td>%.1f</td><td>%.3f</td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
				op_cls[d->op], blk_op_name(d->op), d->reqs,
				units_bytes(b, sizeof(b), (double)d->bytes),
				secs > 0 ? (double)d->reqs / secs : 0,
				secs > 0 ? units_mib((double)d->bytes) / secs : 0,
				units_dur(p50, sizeof(p50), (double)hist_pct(&d->device, 50)),
				units_dur(p99, sizeof(p99), (double)hist_pct(&d->device, 99)),
				units_dur(mx, sizeof(mx), (double)hist_max(&d->device)));
		}
		fputs("</table>\n", h->f);
		html_cell_end(h);
	}
}

struct devrank {
	uint32_t dev;
	uint64_t lost_ns[2];	/* the requests' total time, per side */
	uint64_t reqs[2];
};

static int devrank_cmp(const void *x, const void *y)
{
	const struct devrank *a = x, *b = y;

	for (int i = 0; i < 2; i++)
		if (a->lost_ns[i] != b->lost_ns[i])
			return a->lost_ns[i] < b->lost_ns[i] ? 1 : -1;
	return a->dev < b->dev ? -1 : a->dev > b->dev;
}

static const struct html_plot dev_plots[] = {
	{ "device time", latency, 0 },
	{ "latency heat map", heatmap, 0 },
	{ "throughput", rates, 0 },
	{ "IOPS", rates, 1 },
	{ "queue depth", rates, 2 },
	{ "offsets", offsets, 0 },
};

void html_devices(struct html *h)
{
	struct devrank *v = NULL;
	size_t n = 0, a = 0, pts = 0;

	for (int i = 0; i < h->n; i++) {
		const struct stats *st = h->p[i].r->st;

		for (size_t k = 0; k < st->ndev; k++) {
			const struct devstat *ds = &st->dev[k];
			struct devrank *r = NULL;

			for (size_t j = 0; j < n; j++)
				if (v[j].dev == ds->dev)
					r = &v[j];
			if (!r) {
				r = an_push(&v, &n, &a, sizeof(*v), 8);
				if (!r) {
					h->err = -AN_E_NOMEM;
					free(v);
					return;
				}
				r->dev = ds->dev;
			}
			r->lost_ns[i] += ds->total.sum;
			r->reqs[i] += ds->reqs;
		}
	}
	if (!n) {
		const struct stats *st = h->p[0].r->st;

		fprintf(h->f, "<p class=\"note\">no block requests%s%s</p>\n",
			st->block_why ? ": " : "", st->block_why ? st->block_why : "");
	}
	qsort(v, n, sizeof(*v), devrank_cmp);
	/* every sampled point while the page's are few, else 1 in 2, 3 ... */
	for (size_t k = 0; k < n; k++)
		for (int i = 0; i < h->n; i++) {
			const struct tl_dev *d = tl_dev_of(&h->p[i], v[k].dev);

			pts += d ? d->npt : 0;
		}
	h->every = pts > PAGE_POINTS ? (pts + PAGE_POINTS - 1) / PAGE_POINTS : 1;
	for (size_t k = 0; k < n; k++) {
		const char *name = sink_dev_name(&h->p[0].s, v[k].dev);
		char pre[80], b[UNITS_BUF];

		fputs("<section class=\"device\" data-dev=\"", h->f);
		html_escape(h->f, name);
		fprintf(h->f, "\" data-rank=\"%zu\" data-lost-ns=\"%" PRIu64 "\" data-requests=\"%" PRIu64 "\"",
			k + 1, v[k].lost_ns[0], v[k].reqs[0]);
		if (h->n > 1)
			fprintf(h->f, " data-requests-after=\"%" PRIu64 "\"",
				v[k].reqs[1]);
		fputs("><h3>", h->f);
		html_escape(h->f, name);
		for (int i = 0; i < h->n; i++)
			fprintf(h->f, "%s%s%s%" PRIu64 " requests, %s of request time",
				i ? "; " : " (", h->p[i].side ? h->p[i].side : "",
				h->p[i].side ? " " : "", v[k].reqs[i],
				units_dur(b, sizeof(b), (double)v[k].lost_ns[i]));
		fputs(")</h3>\n", h->f);
		snprintf(pre, sizeof(pre), "%s ", name);
		html_row_begin(h, "devops", NULL, 2);
		dev_table(h, v[k].dev, 0);
		html_row_end(h);
		html_plots(h, pre, dev_plots, sizeof(dev_plots) / sizeof(dev_plots[0]),
			   v[k].dev);
		histograms(h, v[k].dev, name);
		fputs("</section>\n", h->f);
	}
	free(v);
}
