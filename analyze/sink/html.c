// SPDX-License-Identifier: MIT
/*
 * html.c - the page of ioreport html (html.h): the findings (a pair's
 * paired as ioreport diff pairs them), the summary, the devices, the
 * slowest first (html-dev.c), processes and files by the time they lost,
 * the fsync calls, dirty pages and writeback with the throttle pauses,
 * write amplification, the configuration, lost events and anomalies.
 * On a BEFORE/AFTER page every plot is a row of both recordings on the
 * same axes.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/blk.h"
#include "base/err.h"
#include "base/units.h"
#include "base/syskind.h"
#include "sbuf.h"
#include "input/meta.h"
#include "sink/html-priv.h"
#include "stats/diffpair.h"
#include "stats/dirty.h"
#include "stats/filter.h"
#include "stats/findings.h"
#include "stats/rows.h"
#include "stats/timeline.h"
#include "stats/wa.h"

#define TOP_BARS	12
#define HTML_FINDINGS	5	/* at the top of the page */
#define LABEL_CHARS	32	/* a bar's label; longer ones keep their end */

/*
 * One colour per series, the same for its marks (fill, or stroke for
 * lines) and its legend swatch; nothing styles the text of a plot but
 * the text classes.
 */
static const char css[] =
"body{font:13px/1.4 system-ui,sans-serif;margin:12px;color:#222}\n"
"h1{font-size:20px;overflow-wrap:anywhere}h2{font-size:17px;border-bottom:1px solid #ccc;margin-top:28px}h3{font-size:14px;margin:18px 0 4px}\n"
"table{border-collapse:collapse}td,th{padding:1px 8px;text-align:right;border-bottom:1px solid #eee;overflow-wrap:anywhere}\n"
"td:first-child,th:first-child{text-align:left}\n"
".row{display:grid;grid-template-columns:repeat(var(--n),minmax(0,1fr));gap:10px;align-items:start}\n"
".cell{min-width:0}.cell>h4{margin:2px 0;font-size:12px}\n"
"svg.plot{display:block;width:100%;height:auto;margin:4px 0;background:#fff}\n"
"svg.plot text{stroke:none;fill:#333;font-size:11px}\n"
".frame{fill:none;stroke:#999}svg.plot text.tick{font-size:10px;text-anchor:middle;fill:#555}\n"
"svg.plot text.tick.y{text-anchor:end}svg.plot text.axis{text-anchor:middle}svg.plot text.ttl{font-size:12px;font-weight:600}\n"
"svg.plot text.lab{text-anchor:end}svg.plot text.val{text-anchor:start;font-size:10px}\n"
".read{fill:#1f77b4;stroke:#1f77b4}.write{fill:#d62728;stroke:#d62728}\n"
".flush,.sync{fill:#2ca02c;stroke:#2ca02c}.discard{fill:#8c564b;stroke:#8c564b}.other{fill:#7f7f7f;stroke:#7f7f7f}\n"
".throttle,.pause{fill:#9467bd;stroke:#9467bd}\n"
"rect.hb.after,rect.sw.after{fill:none;stroke-width:1.5}\n"
"circle.pt{stroke:none;fill-opacity:.6}circle.slow{fill:none;stroke-width:1.5}\n"
"rect.bin,rect.bar,rect.hb:not(.after),rect.hm,rect.pause{stroke:none}rect.hb{fill-opacity:.65}\n"
"polyline{fill:none;stroke-width:1.5}line.sw{stroke-width:3}\n"
"polyline.depth,line.depth{stroke:#17becf}polyline.dirty,line.dirty{stroke:#e377c2}polyline.wb,line.wb{stroke:#bcbd22}\n"
"polyline.thresh,line.thresh{stroke:#000;stroke-dasharray:4 3}polyline.bgthresh,line.bgthresh{stroke:#17becf;stroke-dasharray:4 3}\n"
".h1{fill:#fde725}.h2{fill:#a0da39}.h3{fill:#4ac16d}.h4{fill:#1fa187}.h5{fill:#277f8e}.h6{fill:#365c8d}.h7{fill:#46327e}.h8{fill:#440154}\n"
"pre{background:#f6f6f6;padding:8px;white-space:pre-wrap;overflow-wrap:anywhere;font-size:12px}\n"
".note{color:#666;margin:0 0 6px}\n"
"table.devops td:first-child{font-weight:600;background:none}table.devops td.read{color:#1f77b4}table.devops td.write{color:#d62728}table.devops td.flush{color:#2ca02c}\n"
"table.changes{table-layout:fixed;width:100%}table.changes td,table.changes th{text-align:left;vertical-align:top}\n"
"table.changes col.n{width:2em}table.changes col.c{width:6em}table.changes col.r{width:12em}table.changes col.s{width:9em}table.changes col.g{width:10em}table.changes col.d{width:6em}\n"
".gone{color:#2a7}.new{color:#c33}\n"
"#tip{display:none;position:fixed;z-index:10;max-width:36em;background:#fffbe6;border:1px solid #999;padding:2px 6px;font-size:12px;pointer-events:none}\n"
"svg.plot.zoom{position:fixed;inset:2vh 2vw;width:96vw;height:96vh;z-index:9;box-shadow:0 0 0 100vmax rgba(0,0,0,.4)}\n";

/*
 * Click a plot to see it large, click again (or Escape) to put it back.
 * Hover a mark: its value (its <title>) beside the pointer.  Drag across
 * a time plot: that span of time on every time plot of the row (a pair's
 * sides keep one scale); double-click or Escape: the whole recording.
 * Small, and the page reads the same without it (every mark has its
 * <title>; tests/html/check-page.js loads it with scripts off too).
 */
static const char js[] =
"(function () {\n"
"var tip = document.createElement('div'), drag = null, dragged = false, nc = 0;\n"
"tip.id = 'tip';\n"
"document.body.appendChild(tip);\n"
"function titled(t) { return t && t.querySelector && t.closest('svg.plot') && t.querySelector(':scope>title'); }\n"
"document.addEventListener('mouseover', function (e) {\n"
"  var q = titled(e.target);\n"
"  if (!q) return;\n"
"  tip.textContent = q.textContent;\n"
"  tip.style.display = 'block';\n"
"  tip.style.left = Math.max(0, Math.min(e.clientX + 12, innerWidth - tip.offsetWidth - 4)) + 'px';\n"
"  tip.style.top = (e.clientY + 16) + 'px';\n"
"});\n"
"document.addEventListener('mouseout', function (e) { if (titled(e.target)) tip.style.display = 'none'; });\n"
"function timeplot(s) {\n"
"  var a = s && s.querySelector('text.axis.x');\n"
"  return a && /time \\(s\\)/.test(a.textContent) ? s : null;\n"
"}\n"
"function frame(s) {\n"
"  var f = s.querySelector('rect.frame'), x = +f.getAttribute('x');\n"
"  return [x, x + +f.getAttribute('width')];\n"
"}\n"
"function svgx(s, e) { // the pointer in the plot's own x pixels\n"
"  var r = s.getBoundingClientRect();\n"
"  return (e.clientX - r.left) * s.viewBox.baseVal.width / r.width;\n"
"}\n"
"// show original pixels a..b of s across its frame\n"
"function zoom(s, a, b) {\n"
"  var F = frame(s), k = (F[1] - F[0]) / (b - a), m = function (x) { return F[0] + (x - a) * k; };\n"
"  var x0 = +s.dataset.x0, x1 = +s.dataset.x1, d = (x1 - x0) * (b - a) / (F[1] - F[0]);\n"
"  var clip = s.querySelector('clipPath');\n"
"  if (!clip) {\n"
"    clip = document.createElementNS(s.namespaceURI, 'clipPath');\n"
"    clip.id = 'zc' + (++nc);\n"
"    var r = s.querySelector('rect.frame').cloneNode();\n"
"    r.removeAttribute('class');\n"
"    clip.appendChild(r);\n"
"    s.appendChild(clip);\n"
"  }\n"
"  s.dataset.za = a; s.dataset.zb = b;\n"
"  s.querySelectorAll('circle,rect:not(.frame),polyline,line').forEach(function (e) {\n"
"    if (e.closest('g.legend') || e.closest('clipPath')) return;\n"
"    var o = e.zo || (e.zo = { cx: e.getAttribute('cx'), x: e.getAttribute('x'), w: e.getAttribute('width'),\n"
"      x1: e.getAttribute('x1'), x2: e.getAttribute('x2'), p: e.getAttribute('points') });\n"
"    e.setAttribute('clip-path', 'url(#' + clip.id + ')');\n"
"    if (o.cx !== null) e.setAttribute('cx', m(+o.cx));\n"
"    if (o.x !== null) { e.setAttribute('x', m(+o.x)); e.setAttribute('width', +o.w * k); }\n"
"    if (o.x1 !== null) { e.setAttribute('x1', m(+o.x1)); e.setAttribute('x2', m(+o.x2)); }\n"
"    if (o.p !== null) e.setAttribute('points', o.p.trim().split(/\\s+/).map(function (q) {\n"
"      var v = q.split(','); return m(+v[0]) + ',' + v[1]; }).join(' '));\n"
"  });\n"
"  s.querySelectorAll('text.tick.x').forEach(function (t) {\n"
"    if (t.dataset.v === undefined) t.dataset.v = t.textContent;\n"
"    var p = +t.getAttribute('x'), v = x0 + (a + (p - F[0]) / k - F[0]) / (F[1] - F[0]) * (x1 - x0);\n"
"    t.textContent = b - a === F[1] - F[0] ? t.dataset.v : v.toFixed(Math.max(0, Math.ceil(-Math.log10(d / 50))));\n"
"  });\n"
"}\n"
"function row(s) { // the time plots s shares its scale with\n"
"  var r = s.closest('.row[data-metric]'), c = s.getAttribute('class');\n"
"  return r ? [].filter.call(r.querySelectorAll('svg.plot'), function (q) { return q.getAttribute('class') === c; }) : [s];\n"
"}\n"
"function unzoom(s) { row(s).forEach(function (q) { var F = frame(q); zoom(q, F[0], F[1]); }); }\n"
"document.addEventListener('mousedown', function (e) {\n"
"  var s = timeplot(e.target.closest && e.target.closest('svg.plot'));\n"
"  if (s && e.button === 0) { drag = [s, svgx(s, e)]; e.preventDefault(); }\n"
"});\n"
"document.addEventListener('mouseup', function (e) {\n"
"  if (!drag) return;\n"
"  var s = drag[0], F = frame(s), u = svgx(s, e), a = Math.max(F[0], Math.min(drag[1], u)), b = Math.min(F[1], Math.max(drag[1], u));\n"
"  drag = null;\n"
"  if (b - a < 4) return;\n"
"  dragged = true;\n"
"  var za = +(s.dataset.za || F[0]), k = (+(s.dataset.zb || F[1]) - za) / (F[1] - F[0]);\n"
"  row(s).forEach(function (q) { zoom(q, za + (a - F[0]) * k, za + (b - F[0]) * k); });\n"
"});\n"
"document.addEventListener('dblclick', function (e) {\n"
"  var s = timeplot(e.target.closest && e.target.closest('svg.plot'));\n"
"  if (s) unzoom(s);\n"
"});\n"
"document.addEventListener('click', function (e) {\n"
"  if (dragged) { dragged = false; return; }\n"
"  var z = document.querySelector('svg.plot.zoom'), s = e.target.closest && e.target.closest('svg.plot');\n"
"  if (z) z.classList.remove('zoom');\n"
"  if (s && s !== z) s.classList.add('zoom');\n"
"});\n"
"document.addEventListener('keydown', function (e) {\n"
"  var z = document.querySelector('svg.plot.zoom');\n"
"  if (e.key !== 'Escape') return;\n"
"  if (z) z.classList.remove('zoom');\n"
"  document.querySelectorAll('svg.plot[data-za]').forEach(unzoom);\n"
"});\n"
"})();\n";

double html_secs(const struct page *p, uint64_t ts)
{
	return ts > p->t0 ? (double)(ts - p->t0) / 1e9 : 0;
}

void html_row_begin(struct html *h, const char *cls, const char *metric,
		    int n)
{
	fprintf(h->f, "<div class=\"row %s\" style=\"--n:%d\"", cls, n);
	if (metric) {
		fputs(" data-metric=\"", h->f);
		html_escape(h->f, metric);
		fputs("\"", h->f);
	}
	fputs(">\n", h->f);
}

void html_row_end(struct html *h)
{
	fputs("</div>\n", h->f);
}

void html_cell_begin(struct html *h, const struct page *p)
{
	fputs("<div class=\"cell\"", h->f);
	if (p && p->side)
		fprintf(h->f, " data-side=\"%s\"", p->side);
	fputs(">\n", h->f);
}

void html_cell_end(struct html *h)
{
	fputs("</div>\n", h->f);
}

void html_title(const struct page *p, const char *title, char *buf,
		size_t n)
{
	snprintf(buf, n, "%s%s%s", p->side ? p->side : "",
		 p->side ? ": " : "", title);
}

void html_plots(struct html *h, const char *prefix,
		const struct html_plot *v, size_t n, uint32_t dev)
{
	char m[160];

	for (size_t i = 0; i < n; i++) {
		if (h->n > 1 || !(i % 2)) {
			snprintf(m, sizeof(m), "%s%s", prefix, v[i].name);
			html_row_begin(h, "plots", h->n > 1 ? m : NULL, 2);
		}
		v[i].draw(h, dev, v[i].which);
		if (h->n > 1 || i % 2 || i + 1 == n)
			html_row_end(h);
	}
}

/* The wall-clock time of ts (the recording machine's), else "+1.234 s". */
static void when(const struct page *p, uint64_t ts, char *buf, size_t n)
{
	if (!sink_wallclock(p->r->st->info, ts, true, buf, n))
		snprintf(buf, n, "+%.6f s", html_secs(p, ts));
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

static void summary(struct html *h, struct page *p)
{
	const struct stats *st = p->r->st;
	const struct source_info *in = st->info;
	uint64_t gaps, lost = stats_lost(st, &gaps);
	char buf[256], a[64], b[64];

	fputs("<table class=\"summary\">\n", h->f);
	if (p->side)
		kv_row(h->f, "side", p->side);
	kv_row(h->f, "recording", in->path);
	if (meta_kv(in->header_text, "redacted", buf, sizeof(buf)) &&
	    !strcmp(buf, "1"))
		kv_row(h->f, "redacted", "yes: names are pseudonyms");
	if (meta_kv(in->header_text, "hostname", buf, sizeof(buf)))
		kv_row(h->f, "host", buf);
	if (meta_kv(in->header_text, "kernel", buf, sizeof(buf)))
		kv_row(h->f, "kernel", buf);
	when(p, st->first_ts, a, sizeof(a));
	when(p, st->last_ts, b, sizeof(b));
	snprintf(buf, sizeof(buf), "%.6f s, %s to %s",
		 (double)stats_duration(st) / 1e9, a, b);
	kv_row(h->f, "span", buf);
	snprintf(buf, sizeof(buf), "%" PRIu64, st->events);
	kv_row(h->f, "events", buf);
	snprintf(buf, sizeof(buf), "%" PRIu64 " (%" PRIu64 " gaps)", lost,
		 gaps);
	kv_row(h->f, "lost events", buf);
	kv_row(h->f, "integrity", meta_integrity(in->integrity));
	if (filter_active(st->filter)) {
		struct sbuf sb = SBUF_INIT;

		sink_filter_text(st, &sb);
		kv_row(h->f, "filter", sb.buf ? sb.buf : "");
		if (sb.failed && !h->err)
			h->err = -AN_E_NOMEM;
		sbuf_release(&sb);
	}
	fputs("</table>\n", h->f);
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

static void config(struct html *h, struct page *p)
{
	const char *snap = p->r->st->info->snapshot_start;
	static const char *const kinds[] = { "sysctl", "mount", "blockdev" };
	static const char *const names[] = {
		"sysctls", "mounts (device, source, mount point, type, options)",
		"block devices and their queue settings",
	};

	if (!snap) {
		fputs("<p class=\"note\">no snapshot in this recording</p>\n",
		      h->f);
		return;
	}
	for (size_t i = 0; i < 3; i++) {
		fprintf(h->f, "<details><summary>%s%s%s</summary><table class=\"config %s\">\n",
			p->side ? p->side : "", p->side ? ": " : "", names[i],
			kinds[i]);
		if (meta_lines(snap, kinds[i], config_line, h->f) < 0)
			h->err = -AN_E_NOMEM;
		fputs("</table></details>\n", h->f);
	}
}

static void anomalies(struct html *h, struct page *p)
{
	const struct stats *st = p->r->st;

	fputs("<table class=\"lost\"><tr><th>CPU</th><th>gaps</th><th>lost events</th><th>gaps of unknown size</th><th>no events for (s)</th><th>the longest gap (s from the start)</th></tr>\n",
	      h->f);
	for (int c = 0; c < st->nr_cpus; c++) {
		const struct lostcpu *l = &st->lost[c];

		fprintf(h->f, "<tr><td>%d</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%.3f</td>",
			c, l->gaps, l->events, l->unknown,
			(double)l->missing_ns / 1e9);
		if (l->gaps)
			fprintf(h->f, "<td>+%.3f to +%.3f</td></tr>\n",
				(double)(l->longest_from - st->first_ts) / 1e9,
				(double)(l->longest_to - st->first_ts) / 1e9);
		else
			fputs("<td>-</td></tr>\n", h->f);
	}
	fputs("</table>\n<table class=\"anomalies\"><tr><th>stage</th><th>anomaly</th><th>count</th></tr>\n",
	      h->f);
	for (size_t i = 0; i < st->nanom; i++) {
		fputs("<tr><td>", h->f);
		html_escape(h->f, st->anom[i].stage);
		fputs("</td><td>", h->f);
		html_escape(h->f, st->anom[i].text);
		fprintf(h->f, "</td><td>%" PRIu64 "</td></tr>\n", st->anom[i].n);
	}
	fputs("</table>\n", h->f);
}

/* Each side's part of a section, in one row. */
static void sides(struct html *h, const char *cls,
		  void (*part)(struct html *h, struct page *p))
{
	html_row_begin(h, cls, NULL, h->n);
	for (int i = 0; i < h->n; i++) {
		html_cell_begin(h, &h->p[i]);
		part(h, &h->p[i]);
		html_cell_end(h);
	}
	html_row_end(h);
}

/* ------------------------------------------------------------------ */
/* Bar charts: processes, files, write amplification */

#define BAR_PARTS	5

struct bar {
	char label[160];
	uint64_t part[BAR_PARTS];
	uint64_t total;
};

/* What a chart's bars are made of: parts of one unit, by colour. */
struct barkind {
	const char *cls, *title;
	bool dur;		/* ns, else bytes */
	int nparts;
	const char *part_cls[BAR_PARTS], *part_name[BAR_PARTS];
};

struct barset {
	struct bar *v;
	size_t n, shown;
};

static int bar_cmp(const void *a, const void *b)
{
	const struct bar *x = a, *y = b;

	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return strcmp(x->label, y->label);
}

static void value_text(const struct barkind *k, uint64_t v, char *buf,
		       size_t n)
{
	if (k->dur)
		units_dur(buf, n, (double)v);
	else
		units_bytes(buf, n, (double)v);
}

/* A label of at most LABEL_CHARS characters: a long one keeps its end. */
static void short_label(const char *l, char *buf, size_t n)
{
	size_t len = strlen(l);

	if (len <= LABEL_CHARS)
		snprintf(buf, n, "%s", l);
	else
		snprintf(buf, n, "...%s", l + len - (LABEL_CHARS - 3));
}

static void bar_cell(struct html *h, struct page *p, const struct barkind *k,
		     const struct barset *set, double max, size_t rows)
{
	struct svg s = { .x1 = max, .xax = SVG_AX_NONE, .yax = SVG_AX_NONE,
			 .noframe = true, .ml = 8 + (int)(LABEL_CHARS * 6.2),
			 .mr = 70, .mt = 40, .mb = 6 };
	unsigned int used = 0;
	char t[200], lab[LABEL_CHARS * 4], val[UNITS_BUF];

	s.h = s.mt + 18 * (int)rows + s.mb;
	html_cell_begin(h, p);
	if (!set->shown) {
		html_title(p, k->title, t, sizeof(t));
		fprintf(h->f, "<p class=\"note\">%s: none</p>\n", t);
		html_cell_end(h);
		return;
	}
	html_title(p, k->title, t, sizeof(t));
	svg_begin(&s, h->f, k->cls, t, NULL, NULL);
	for (size_t i = 0; i < set->shown; i++) {
		const struct bar *b = &set->v[i];
		double y = s.mt + 18.0 * (double)i, x = s.ml;

		fprintf(h->f, "<g class=\"bar\" data-v=\"%" PRIu64 "\">", b->total);
		for (int j = 0; j < k->nparts; j++) {
			double wpx = svg_px(&s, (double)b->part[j]) - s.ml;

			if (!b->part[j])
				continue;
			used |= 1u << j;
			value_text(k, b->part[j], val, sizeof(val));
			fprintf(h->f, "<rect class=\"bar %s\" x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"13\" data-v=\"%" PRIu64 "\"><title>",
				k->part_cls[j], x, y + 2, wpx, b->part[j]);
			html_escape(h->f, b->label);
			fprintf(h->f, ": %s %s</title></rect>", k->part_name[j], val);
			x += wpx;
		}
		short_label(b->label, lab, sizeof(lab));
		fprintf(h->f, "<text class=\"lab\" x=\"%d\" y=\"%.1f\">", s.ml - 6,
			y + 12);
		html_escape(h->f, lab);
		fputs("<title>", h->f);
		html_escape(h->f, b->label);
		value_text(k, b->total, val, sizeof(val));
		fprintf(h->f, "</title></text><text class=\"val\" x=\"%.1f\" y=\"%.1f\">%s</text></g>\n",
			x + 4, y + 12, val);
	}
	for (int j = 0; k->nparts > 1 && j < k->nparts; j++)
		if (used & (1u << j))
			svg_legend(&s, k->part_cls[j], k->part_name[j], false);
	svg_end(&s);
	html_cell_end(h);
}

/* The chart of each side: largest first, one scale and height on both. */
static void bar_chart(struct html *h, const struct barkind *k,
		      struct barset set[2])
{
	double max = 1;
	size_t rows = 1;

	for (int i = 0; i < h->n; i++) {
		qsort(set[i].v, set[i].n, sizeof(*set[i].v), bar_cmp);
		set[i].shown = 0;
		while (set[i].shown < set[i].n && set[i].shown < TOP_BARS &&
		       set[i].v[set[i].shown].total)
			set[i].shown++;
		if (set[i].shown > rows)
			rows = set[i].shown;
		if (set[i].shown && (double)set[i].v[0].total > max)
			max = (double)set[i].v[0].total;
	}
	for (int i = 0; i < h->n; i++)
		bar_cell(h, &h->p[i], k, &set[i], max, rows);
}

static const struct barkind proc_kinds[] = {
	{ "plost", "processes by time lost: in file syscalls and throttled", true, 5,
	  { "read", "write", "sync", "other", "throttle" },
	  { "read", "write", "fsync/sync", "other calls", "throttled" } },
	{ "pbytes", "processes: bytes read and written by file syscalls", false, 2,
	  { "read", "write" }, { "read", "written" } },
	{ "pfsync", "processes: time in fsync and fdatasync", true, 1,
	  { "sync" }, { "fsync" } },
	{ "pthrottle", "processes: time throttled by dirty limits", true, 1,
	  { "throttle" }, { "throttled" } },
};

static const struct barkind file_kinds[] = {
	{ "flost", "files by time lost in file syscalls", true, 3,
	  { "read", "write", "sync" }, { "read", "write", "fsync/sync" } },
	{ "fbytes", "files: bytes read and written by file syscalls", false, 2,
	  { "read", "write" }, { "read", "written" } },
	{ "ffsync", "files: time in fsync calls on the file", true, 1,
	  { "sync" }, { "fsync" } },
};

static void proc_bar(struct bar *b, const struct proc_row *r, int which)
{
	const struct procstat *ps = r->ps;

	memset(b, 0, sizeof(*b));
	snprintf(b->label, sizeof(b->label), "%s (%d)",
		 r->p.comm ? r->p.comm : "?", r->p.pid);
	if (!ps)
		return;
	if (which == 0) {
		for (int k = 0; k < SK_NR; k++) {
			unsigned int fl = sys_kind_info((enum sys_kind)k)->flags;
			uint64_t ns = procstat_kind(ps, k)->lat.sum;

			b->part[fl & SKF_SYNC ? 2 : fl & SKF_READ ? 0 :
				fl & SKF_WRITE ? 1 : 3] += ns;
		}
		b->part[4] = ps->throttle_ns;
	} else if (which == 1) {
		b->part[0] = ps->read_bytes;
		b->part[1] = ps->write_bytes;
	} else {
		b->part[0] = which == 2 ? ps->fsync.sum : ps->throttle_ns;
	}
	for (int j = 0; j < BAR_PARTS; j++)
		b->total += b->part[j];
}

static void file_bar(struct bar *b, const struct file_row *r, int which)
{
	const struct filestat *fs = r->s;

	memset(b, 0, sizeof(*b));
	snprintf(b->label, sizeof(b->label), "%s", file_info_name(&r->f));
	if (which == 0) {
		b->part[0] = fs->rlat.sum;
		b->part[1] = fs->wlat.sum;
		b->part[2] = fs->fsync.sum;
	} else if (which == 1) {
		b->part[0] = fs->read_bytes;
		b->part[1] = fs->write_bytes;
	} else {
		b->part[0] = fs->fsync.sum;
	}
	for (int j = 0; j < BAR_PARTS; j++)
		b->total += b->part[j];
}

static void proc_chart(struct html *h, uint32_t dev, int which)
{
	struct barset set[2];

	(void)dev;
	memset(set, 0, sizeof(set));
	for (int i = 0; i < h->n; i++) {
		struct proc_row *rows = NULL;
		long n = rows_processes(h->p[i].r->st, false, &rows);

		set[i].v = n >= 0 ? an_calloc((size_t)n + 1, sizeof(struct bar)) : NULL;
		if (!set[i].v) {
			h->err = n < 0 ? (int)n : -AN_E_NOMEM;
			free(rows);
			goto out;
		}
		for (long k = 0; k < n; k++)
			proc_bar(&set[i].v[k], &rows[k], which);
		set[i].n = (size_t)n;
		free(rows);
	}
	bar_chart(h, &proc_kinds[which], set);
out:
	free(set[0].v);
	free(set[1].v);
}

static void file_chart(struct html *h, uint32_t dev, int which)
{
	struct barset set[2];

	(void)dev;
	memset(set, 0, sizeof(set));
	for (int i = 0; i < h->n; i++) {
		struct file_row *rows = NULL;
		long n = rows_files(h->p[i].r->st, &rows);

		set[i].v = n >= 0 ? an_calloc((size_t)n + 1, sizeof(struct bar)) : NULL;
		if (!set[i].v) {
			h->err = n < 0 ? (int)n : -AN_E_NOMEM;
			if (n >= 0)
				rows_files_release(rows, n);
			goto out;
		}
		for (long k = 0; k < n; k++)
			file_bar(&set[i].v[k], &rows[k], which);
		set[i].n = (size_t)n;
		rows_files_release(rows, n);
	}
	bar_chart(h, &file_kinds[which], set);
out:
	free(set[0].v);
	free(set[1].v);
}

static void wa_chart(struct html *h, uint32_t dev, int which)
{
	static const struct barkind k = {
		"wa", "bytes written by the applications and at the device",
		false, 1, { "write" }, { "written" },
	};
	struct bar v[2][WA_NCLASS + 1];
	struct barset set[2];

	(void)which;
	memset(set, 0, sizeof(set));
	memset(v, 0, sizeof(v));
	for (int i = 0; i < h->n; i++) {
		const struct wa *w = h->p[i].r->st->wa;

		set[i].v = v[i];
		for (size_t d = 0; w && d < w->ndev; d++) {
			const struct wa_dev *wd = &w->dev[d];

			if (wd->dev != dev)
				continue;
			snprintf(v[i][0].label, sizeof(v[i][0].label),
				 "application writes");
			v[i][0].part[0] = v[i][0].total = wd->app_bytes;
			for (int c = 0; c < WA_NCLASS; c++) {
				snprintf(v[i][c + 1].label, sizeof(v[i][c + 1].label),
					 "device: %s", wa_class_name((enum wa_class)c));
				v[i][c + 1].part[0] = v[i][c + 1].total = wd->cls[c];
			}
			set[i].n = WA_NCLASS + 1;
		}
	}
	bar_chart(h, &k, set);
}

/* ------------------------------------------------------------------ */
/* fsync calls, dirty pages */

static void fsync_cell(struct html *h, struct page *p, double ymax)
{
	const struct timeline *tl = p->r->tl;
	struct svg s = { .x1 = h->span, .ylog = true, .y0 = 1000, .y1 = ymax,
			 .xax = SVG_AX_NUM, .yax = SVG_AX_DUR };
	char t[160], w[64], d[UNITS_BUF];

	html_cell_begin(h, p);
	html_title(p, "fsync, fdatasync and sync_file_range calls", t, sizeof(t));
	if (!tl || !tl->ncall) {
		fprintf(h->f, "<p class=\"note\">%s: none</p>\n", t);
		html_cell_end(h);
		return;
	}
	svg_begin(&s, h->f, "fsyncs", t, "start (s)", "duration (log scale)");
	for (size_t i = 0; i < tl->ncall; i++) {
		const struct tl_call *c = &tl->call[i];
		double ns = (double)(c->end - c->start);

		when(p, c->start, w, sizeof(w));
		fprintf(h->f, "<circle class=\"pt sync\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" data-ms=\"%.6f\"><title>%s %s: %s</title></circle>\n",
			svg_px(&s, html_secs(p, c->start)),
			svg_py(&s, ns > 1000 ? ns : 1000), ns / 1e6, w,
			sys_kind_info(c->kind)->name, units_dur(d, sizeof(d), ns));
	}
	svg_legend(&s, "sync", "fsync/fdatasync/sync_file_range", false);
	svg_end(&s);
	fprintf(h->f, "<p class=\"note\">%zu of %" PRIu64 " calls drawn (1 in %" PRIu64 ")</p>\n",
		tl->ncall, tl->calls, tl->call_stride);
	html_cell_end(h);
}

static void fsync_chart(struct html *h, uint32_t dev, int which)
{
	double max = 2000;

	(void)dev;
	(void)which;
	for (int i = 0; i < h->n; i++) {
		const struct timeline *tl = h->p[i].r->tl;

		for (size_t k = 0; tl && k < tl->ncall; k++)
			if ((double)(tl->call[k].end - tl->call[k].start) * 1.5 > max)
				max = (double)(tl->call[k].end - tl->call[k].start) * 1.5;
	}
	for (int i = 0; i < h->n; i++)
		fsync_cell(h, &h->p[i], max);
}

#define DIRTY_N	200

static uint64_t dirty_pages(const struct dirty_slot *v, int which)
{
	return which == 0 ? v->nr_dirty : which == 1 ? v->nr_writeback :
	       which == 2 ? v->bg_thresh : v->thresh;
}

static void dirty_cell(struct html *h, struct page *p,
		       const struct dirty_slot *v, size_t n, uint64_t width,
		       double max)
{
	static const char *const cls[] = { "dirty", "wb", "bgthresh", "thresh" };
	static const char *const name[] = {
		"dirty", "writeback", "background threshold", "dirty threshold",
	};
	const struct dirty *d = p->r->st->dirty;
	const char *uname;
	double per = svg_size_unit(max, &uname), w = (double)width / 1e9;
	struct svg s = { .x1 = h->span, .y1 = max * 1.1 / per,
			 .xax = SVG_AX_NUM, .yax = SVG_AX_NUM };
	uint64_t pauses = 0;
	char t[160], yl[40], b[UNITS_BUF];

	html_title(p, "dirty and writeback pages, thresholds, throttle pauses",
		   t, sizeof(t));
	snprintf(yl, sizeof(yl), "pages (%s)", uname);
	svg_begin(&s, h->f, "dirtyplot", t, "time (s)", yl);
	for (int k = 0; k < 4; k++) {
		fprintf(h->f, "<polyline class=\"%s\" points=\"", cls[k]);
		for (size_t i = 0; i < n; i++)
			if (v[i].gds)
				fprintf(h->f, "%.1f,%.1f ",
					svg_px(&s, w * ((double)i + 0.5)),
					svg_py(&s, (double)dirty_pages(&v[i], k) *
						   (double)d->page_size / per));
		fputs("\"/>\n", h->f);
	}
	for (size_t i = 0; i < n; i++) {
		double xa = svg_px(&s, w * (double)i), xb = svg_px(&s, w * (double)(i + 1));

		if (!v[i].bdp_paused)
			continue;
		pauses += v[i].bdp_paused;
		fprintf(h->f, "<rect class=\"pause\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"8\" data-n=\"%" PRIu64 "\" data-ms=\"%" PRIu64 "\"><title>%.3f-%.3f s: %" PRIu64 " throttle pauses, %s</title></rect>\n",
			xa, s.h - s.mb - 8, xb - xa > 2 ? xb - xa : 2, v[i].bdp_paused,
			v[i].pause_ms, w * (double)i, w * (double)(i + 1),
			v[i].bdp_paused, units_dur(b, sizeof(b), (double)v[i].pause_ms * 1e6));
	}
	for (int k = 0; k < 4; k++)
		svg_legend(&s, cls[k], name[k], true);
	if (pauses)
		svg_legend(&s, "pause", "throttle pause", false);
	svg_end(&s);
	fprintf(h->f, "<p class=\"note\">%" PRIu64 " throttle pauses (balance_dirty_pages) in %s slots, %s paused in all</p>\n",
		d->bdp_paused, units_dur(b, sizeof(b), (double)width),
		units_dur(t, sizeof(t), (double)d->pause_ms * 1e6));
}

static void dirty_chart(struct html *h, uint32_t dev, int which)
{
	struct dirty_slot *v[2] = { NULL, NULL };
	uint64_t width[2] = { 0, 0 };
	size_t n[2] = { 0, 0 };
	double max = 4096;

	(void)dev;
	(void)which;
	for (int i = 0; i < h->n; i++) {
		const struct dirty *d = h->p[i].r->st->dirty;

		if (!d || !d->have_gds || !d->nslot)
			continue;
		v[i] = an_calloc(DIRTY_N, sizeof(*v[i]));
		if (!v[i]) {
			h->err = -AN_E_NOMEM;
			goto out;
		}
		width[i] = dirty_rebin(d, v[i], DIRTY_N);
		n[i] = d->nslot < DIRTY_N ? d->nslot : DIRTY_N;
		for (size_t k = 0; k < n[i]; k++)
			for (int j = 0; j < 4; j++)
				if ((double)dirty_pages(&v[i][k], j) * (double)d->page_size > max)
					max = (double)dirty_pages(&v[i][k], j) * (double)d->page_size;
	}
	for (int i = 0; i < h->n; i++) {
		html_cell_begin(h, &h->p[i]);
		if (v[i])
			dirty_cell(h, &h->p[i], v[i], n[i], width[i], max);
		else
			fputs("<p class=\"note\">no global_dirty_state events: no dirty pages over time</p>\n",
			      h->f);
		html_cell_end(h);
	}
out:
	free(v[0]);
	free(v[1]);
}

static const struct html_plot proc_plots[] = {
	{ "processes by time lost", proc_chart, 0 },
	{ "processes by bytes", proc_chart, 1 },
	{ "processes by fsync time", proc_chart, 2 },
	{ "processes by throttled time", proc_chart, 3 },
};

static const struct html_plot file_plots[] = {
	{ "files by time lost", file_chart, 0 },
	{ "files by bytes", file_chart, 1 },
	{ "files by fsync time", file_chart, 2 },
	{ "fsync calls", fsync_chart, 0 },
};

static const struct html_plot dirty_plots[] = {
	{ "dirty pages", dirty_chart, 0 },
};

static void wa_section(struct html *h)
{
	uint32_t devs[64];
	size_t nd = 0;

	for (int i = 0; i < h->n; i++) {
		const struct wa *w = h->p[i].r->st->wa;

		for (size_t d = 0; w && d < w->ndev; d++) {
			size_t k = 0;

			while (k < nd && devs[k] != w->dev[d].dev)
				k++;
			if (k == nd && nd < 64)
				devs[nd++] = w->dev[d].dev;
		}
	}
	if (!nd)
		fputs("<p class=\"note\">no write amplification: no block writes</p>\n",
		      h->f);
	for (size_t k = 0; k < nd; k++) {
		const struct html_plot p = { "write amplification", wa_chart, 0 };
		char pre[80];

		fputs("<h3>", h->f);
		html_escape(h->f, sink_dev_name(&h->p[0].s, devs[k]));
		fputs("</h3>\n", h->f);
		snprintf(pre, sizeof(pre), "%s ", sink_dev_name(&h->p[0].s, devs[k]));
		html_plots(h, pre, &p, 1, devs[k]);
	}
}

/* ------------------------------------------------------------------ */
/* Findings */

static void finding_text(FILE *f, const struct finding *x)
{
	html_escape(f, x->sentence ? x->sentence : "");
	if (x->more) {
		fputs(" <code>", f);
		html_escape(f, x->more);
		fputs("</code>", f);
	}
}

/* The top findings of one recording as an ordered list. */
static int findings_one(FILE *f, const struct findings *fs)
{
	size_t n = fs->n < HTML_FINDINGS ? fs->n : HTML_FINDINGS;

	fputs("<h2>findings</h2>\n", f);
	if (!fs->n)
		fputs("<p>none: nothing in this recording costs enough time to name.</p>\n", f);
	if (n)
		fputs("<ol class=\"findings\">\n", f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "<li class=\"%s\">[%s] ", fnd_severity_name(fs->v[i].sev),
			fs->v[i].caveat ? "caveat" : fnd_severity_name(fs->v[i].sev));
		finding_text(f, &fs->v[i]);
		fputs("</li>\n", f);
	}
	if (n)
		fputs("</ol>\n", f);
	if (fs->n > n)
		fprintf(f, "<p>%zu more: <code>ioreport findings</code>.</p>\n",
			fs->n - n);
	return 0;
}

/*
 * The findings of BEFORE and AFTER paired and tested as ioreport diff
 * pairs and tests them (stats/diffpair.h): each row's change, rule,
 * severity BEFORE -> AFTER, significance and the time lost or won; its
 * data- attributes hold the same for a program reading the page.
 */
static int findings_pair(FILE *f, const struct diff *d)
{
	struct diff_findings df;
	int rc = diff_findings(d, &df);

	if (rc < 0)
		return rc;
	fputs("<h2>what changed: the findings of BEFORE and AFTER paired, ranked by the time lost or won</h2>\n", f);
	if (!df.n)
		fputs("<p>no finding in either recording</p>\n", f);
	else
		fputs("<p class=\"note\">severity in BEFORE &rarr; AFTER; significance: the test of the metric behind the finding between the two recordings (* beyond run-to-run noise, docs/diff-significance.md), or not tested where no test applies</p>\n"
		      "<table class=\"changes\"><colgroup><col class=\"n\"><col class=\"c\"><col class=\"r\"><col class=\"s\"><col class=\"g\"><col class=\"d\"><col><col></colgroup><tr><th>#</th><th>change</th><th>finding</th><th>severity</th><th>significance</th><th>time lost or won</th><th>BEFORE</th><th>AFTER</th></tr>\n", f);
	for (size_t i = 0; i < df.n; i++) {
		const struct dp_change *c = &df.v[i];
		const char *w = dp_change_word(c);
		const char *sig = dp_signif_word(c);
		char d_ms[UNITS_BUF];

		/* the time lost or won as ioreport diff writes it */
		snprintf(d_ms, sizeof(d_ms), "%+.1f ms", (double)c->c.delta_ns / 1e6);
		/* a finding whose rule differs on the two sides names
		 * both, as ioreport diff does */
		const char *rb = c->c.b ? c->c.b->rule : NULL;
		const char *ra = c->c.a ? c->c.a->rule : NULL;
		int two = ra && rb && strcmp(ra, rb);

		fprintf(f, "<tr class=\"%s\" data-rank=\"%zu\" data-change=\"%s\" data-rule=\"%s\" data-rule-before=\"%s\" data-rule-after=\"%s\" data-sev-before=\"%s\" data-sev-after=\"%s\" data-signif=\"%s\" data-delta-ns=\"%lld\"><td>%zu</td><td>%s</td><td>%s%s%s</td><td>%s &rarr; %s</td><td class=\"sig\">",
			w, i + 1, w, ra ? ra : rb, rb ? rb : "", ra ? ra : "",
			dp_severity(c->c.b), dp_severity(c->c.a), sig,
			(long long)c->c.delta_ns, i + 1, w,
			two ? rb : "", two ? " &rarr; " : "", ra ? ra : rb,
			dp_severity(c->c.b), dp_severity(c->c.a));
		if (c->section && c->sig.test)
			fprintf(f, "%s%s <span class=\"note\">(%s, p %.2g)</span>",
				c->sig.significant ? "* " : "", sig,
				c->m->label, c->sig.p);
		else
			fputs(sig, f);
		fprintf(f, "</td><td>%s</td><td>", d_ms);
		if (c->c.b)
			finding_text(f, c->c.b);
		fputs("</td><td>", f);
		if (c->c.a)
			finding_text(f, c->c.a);
		fputs("</td></tr>\n", f);
	}
	if (df.n)
		fputs("</table>\n", f);
	diff_findings_release(&df);
	return 0;
}

static int findings(struct html *h, const struct diff *d)
{
	struct findings fs;
	int err = 0;

	fputs("<section id=\"findings\">\n", h->f);
	for (int i = 0; i < h->n; i++) {
		struct sbuf line = SBUF_INIT;

		/* a black-box snapshot: what made it first */
		if (sink_snapshot_line(&h->p[i].s, &line)) {
			fputs("<p class=\"trigger\">", h->f);
			if (h->p[i].side)
				fprintf(h->f, "%s: ", h->p[i].side);
			html_escape(h->f, line.buf);
			fputs("</p>\n", h->f);
		}
		sbuf_release(&line);
	}
	if (h->n > 1) {
		err = findings_pair(h->f, d);
	} else {
		err = findings_compute(h->p[0].r->st, &fs);
		if (!err) {
			err = findings_one(h->f, &fs);
			findings_release(&fs);
		}
	}
	fputs("</section>\n", h->f);
	return err;
}

/* ------------------------------------------------------------------ */
/* The page */

static void diff_part(FILE *f, const char *diff_text)
{
	/* the findings are above; the configuration changes in view, the
	 * deltas folded */
	const char *head = strstr(diff_text, "\nBEFORE:");
	const char *rest = strstr(diff_text, "\nsummary:");

	head = head ? head + 1 : diff_text;
	if (!rest || rest < head)
		rest = head + strlen(head);
	char *part = an_asprintf("%.*s", (int)(rest - head), head);

	fputs("<h2>what changed in the machine (ioreport diff)</h2>\n<pre class=\"diff\">", f);
	html_escape(f, part ? part : head);
	free(part);
	fputs("</pre>\n", f);
	if (*rest) {
		fputs("<details><summary>the deltas of every view (ioreport diff)</summary><pre class=\"diff\">", f);
		html_escape(f, rest + 1);
		fputs("</pre></details>\n", f);
	}
}

int html_page(FILE *f, const struct html_rec *b, const struct html_rec *a,
	      const struct diff *d, const char *diff_text)
{
	struct html h;
	int err;

	memset(&h, 0, sizeof(h));
	h.f = f;
	h.n = a ? 2 : 1;
	for (int i = 0; i < h.n; i++) {
		struct page *p = &h.p[i];
		double d;

		p->r = i ? a : b;
		p->side = a ? (i ? "AFTER" : "BEFORE") : NULL;
		sink_init(&p->s, p->r->st, f, NULL);
		p->t0 = p->r->st->first_ts;
		d = (double)stats_duration(p->r->st) / 1e9;
		if (d > h.span)
			h.span = d;
	}
	if (h.span <= 0)
		h.span = 1e-3;
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width\">\n<title>ioreport: ", f);
	html_escape(f, b->st->info->path);
	if (a) {
		fputs(" (BEFORE) vs ", f);
		html_escape(f, a->st->info->path);
		fputs(" (AFTER)", f);
	}
	fprintf(f, "</title>\n<style>\n%s</style></head>\n<body>\n<h1>ioreport: ", css);
	html_escape(f, b->st->info->path);
	if (a) {
		fputs(" (BEFORE) vs ", f);
		html_escape(f, a->st->info->path);
		fputs(" (AFTER)", f);
	}
	fputs("</h1>\n", f);
	err = findings(&h, a ? d : NULL);
	if (err)
		goto out;
	if (a && diff_text)
		diff_part(f, diff_text);
	fputs("<h2>summary</h2>\n", f);
	sides(&h, "summary", summary);
	fputs("<h2>devices, the slowest first (by the total time of their requests)</h2>\n", f);
	html_devices(&h);
	fputs("<h2>processes</h2>\n", f);
	html_plots(&h, "", proc_plots, 4, 0);
	fputs("<h2>files</h2>\n", f);
	html_plots(&h, "", file_plots, 4, 0);
	fputs("<h2>dirty pages and writeback</h2>\n", f);
	html_plots(&h, "", dirty_plots, 1, 0);
	fputs("<h2>write amplification</h2>\n", f);
	wa_section(&h);
	fputs("<h2>configuration</h2>\n", f);
	sides(&h, "config", config);
	fputs("<h2>lost events and anomalies</h2>\n", f);
	sides(&h, "anomalies", anomalies);
	fprintf(f, "<p class=\"note\">made by ioreport " PACKAGE_VERSION "%s; hover a mark for its value, drag across a time plot to zoom its time (double-click or Escape: all of it), click a plot to enlarge it</p>\n<script>\n%s</script>\n</body></html>\n",
		a ? "; BEFORE and AFTER plots of a row share their axes, histograms overlay AFTER on BEFORE" : "",
		js);
	err = h.err;
out:
	for (int i = 0; i < h.n; i++)
		sink_release(&h.p[i].s);
	return err;
}
