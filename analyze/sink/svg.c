// SPDX-License-Identifier: MIT
/*
 * svg.c - plot frames, axes, units and legends as inline SVG (svg.h).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/units.h"
#include "sink/svg.h"

#define CHAR_PX		6.2	/* the width of a character of 11 px text */

void html_escape(FILE *f, const char *t)
{
	static const char *const entity[256] = {
		['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;",
		['"'] = "&quot;",
	};

	for (; t && *t; t++) {
		const char *e = entity[(unsigned char)*t];

		if (e)
			fputs(e, f);
		else
			fputc(*t, f);
	}
}

/* ------------------------------------------------------------------ */
/* Units (base/units.h): an axis's unit, and a tick's duration */

double svg_size_unit(double max, const char **name)
{
	static const char *const iec[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double per = 1;
	int u = 0;

	while (u < 4 && max >= UNITS_KIB * per) {
		per *= UNITS_KIB;
		u++;
	}
	*name = iec[u];
	return per;
}

/* A duration for a tick: the units' text without a ".0" or ".00". */
static void tick_dur(char *buf, size_t n, double ns)
{
	char *dot, *sp;

	units_dur(buf, n, ns);
	dot = strchr(buf, '.');
	sp = strchr(buf, ' ');
	if (dot && sp && sp > dot && strspn(dot + 1, "0") == (size_t)(sp - dot - 1))
		memmove(dot, sp, strlen(sp) + 1);
}

/* ------------------------------------------------------------------ */
/* Frames and axes */

double svg_px(const struct svg *s, double x)
{
	double span = s->x1 > s->x0 ? s->x1 - s->x0 : 1;
	double v = (x - s->x0) / span;

	if (v < 0)
		v = 0;
	if (v > 1)
		v = 1;
	return s->ml + v * (s->w - s->ml - s->mr);
}

double svg_py(const struct svg *s, double y)
{
	double v;

	if (s->ylog) {
		double lo = log10(s->y0), hi = log10(s->y1);

		v = y > 0 ? (log10(y) - lo) / (hi > lo ? hi - lo : 1) : 0;
	} else {
		v = (y - s->y0) / (s->y1 > s->y0 ? s->y1 - s->y0 : 1);
	}
	if (v < 0)
		v = 0;
	if (v > 1)
		v = 1;
	return s->h - s->mb - v * (s->h - s->mt - s->mb);
}

/* A round step for at most about n ticks over span. */
static double tick_step(double span, int n)
{
	double raw = span / (n > 1 ? n : 1), mag = pow(10, floor(log10(raw)));
	double r = raw / mag;

	return (r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10) * mag;
}

static void tick(struct svg *s, bool y, double at, const char *text)
{
	double half = 2.9 * (double)strlen(text) + 1;

	/* an x label at the edge of the frame stays inside the plot */
	if (!y && at + half > s->w)
		at = s->w - half;
	if (!y && at - half < 0)
		at = half;
	if (y)
		fprintf(s->f, "<text class=\"tick y\" x=\"%d\" y=\"%.1f\">",
			s->ml - 4, at + 3.5);
	else
		fprintf(s->f, "<text class=\"tick x\" x=\"%.1f\" y=\"%d\">", at,
			s->h - s->mb + 13);
	html_escape(s->f, text);
	fputs("</text>\n", s->f);
}

static void num_ticks(struct svg *s, bool y)
{
	double lo = y ? s->y0 : s->x0, hi = y ? s->y1 : s->x1, st, v;
	int room = y ? (s->h - s->mt - s->mb) / 30 : (s->w - s->ml - s->mr) / 70;
	char b[32];

	if (!(hi > lo))
		return;
	st = tick_step(hi - lo, room);
	for (v = ceil(lo / st) * st; v <= hi + st / 1e6; v += st) {
		/* a histogram's first x tick sits where a y "0" would */
		if (y && s->xax == SVG_AX_LOG2US && fabs(v) < st / 1e6)
			continue;
		snprintf(b, sizeof(b), "%g", fabs(v) < st / 1e6 ? 0 : v);
		tick(s, y, y ? svg_py(s, v) : svg_px(s, v), b);
	}
}

/* Ticks at the powers of ten of a log axis of durations (ns). */
static void dur_ticks(struct svg *s)
{
	double lo = log10(s->y0), hi = log10(s->y1);
	int every = hi - lo > 7 ? 2 : 1;
	char b[UNITS_BUF];

	for (int e = (int)ceil(lo - 1e-9); e <= (int)floor(hi + 1e-9); e++) {
		if (e % every)
			continue;
		tick_dur(b, sizeof(b), pow(10, e));
		tick(s, true, svg_py(s, pow(10, e)), b);
	}
}

/* The bounds of the slots of a log2 histogram: 1 us, 16 us, 256 us ... */
static void log2_ticks(struct svg *s, bool y)
{
	double lo = y ? s->y0 : s->x0, hi = y ? s->y1 : s->x1;
	double slot_px = (y ? s->h - s->mt - s->mb : s->w - s->ml - s->mr) /
			 (hi > lo ? hi - lo : 1);
	int every = 1;
	char b[UNITS_BUF];

	while (every * slot_px < (y ? 14 : 46))
		every *= 2;
	for (int i = (int)lo; i <= (int)hi; i += every) {
		tick_dur(b, sizeof(b), 1000.0 * (double)(1ULL << i));
		tick(s, y, y ? svg_py(s, i) : svg_px(s, i), b);
	}
}

void svg_begin(struct svg *s, FILE *f, const char *cls, const char *title,
	       const char *xlabel, const char *ylabel)
{
	s->f = f;
	if (!s->w)
		s->w = SVG_W;
	if (!s->h)
		s->h = SVG_H;
	if (!s->ml)
		s->ml = s->yax == SVG_AX_NONE ? 8 : 62;
	if (!s->mr)
		s->mr = 14;
	if (!s->mt)
		s->mt = 40;
	if (!s->mb)
		s->mb = s->xax == SVG_AX_NONE ? 8 : 38;
	if (s->ylog && s->y0 <= 0)
		s->y0 = s->y1 > 1 ? s->y1 / 1e6 : 1e-6;
	s->legx = s->ml;
	fprintf(f, "<svg class=\"plot %s\" viewBox=\"0 0 %d %d\" data-w=\"%d\" data-x0=\"%g\" data-x1=\"%g\" data-y0=\"%g\" data-y1=\"%g\" role=\"img\">\n",
		cls, s->w, s->h, s->w, s->x0, s->x1, s->y0, s->y1);
	fputs("<text class=\"ttl\" x=\"4\" y=\"14\">", f);
	html_escape(f, title);
	fputs("</text>\n", f);
	if (!s->noframe)
		fprintf(f, "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n",
			s->ml, s->mt, s->w - s->ml - s->mr, s->h - s->mt - s->mb);
	if (s->xax == SVG_AX_LOG2US)
		log2_ticks(s, false);
	else if (s->xax == SVG_AX_NUM)
		num_ticks(s, false);
	if (s->yax == SVG_AX_DUR && s->ylog)
		dur_ticks(s);
	else if (s->yax == SVG_AX_LOG2US)
		log2_ticks(s, true);
	else if (s->yax == SVG_AX_NUM)
		num_ticks(s, true);
	if (xlabel && *xlabel) {
		fprintf(f, "<text class=\"axis x\" x=\"%d\" y=\"%d\">",
			(s->ml + s->w - s->mr) / 2, s->h - 6);
		html_escape(f, xlabel);
		fputs("</text>\n", f);
	}
	if (ylabel && *ylabel) {
		fprintf(f, "<text class=\"axis y\" transform=\"translate(12,%d) rotate(-90)\">",
			(s->mt + s->h - s->mb) / 2);
		html_escape(f, ylabel);
		fputs("</text>\n", f);
	}
}

static void legend(struct svg *s, const char *cls, const char *text, bool line,
		   bool scale)
{
	double x = s->legx;

	fprintf(s->f, "<g class=\"legend%s\" data-series=\"%s\">",
		scale ? " scale" : "", cls);
	if (line)
		fprintf(s->f, "<line class=\"sw %s\" x1=\"%.1f\" y1=\"26\" x2=\"%.1f\" y2=\"26\"/>",
			cls, x, x + 14);
	else
		fprintf(s->f, "<rect class=\"sw %s\" x=\"%.1f\" y=\"21\" width=\"10\" height=\"10\"/>",
			cls, x);
	fprintf(s->f, "<text x=\"%.1f\" y=\"30\">", x + (line ? 18 : 14));
	html_escape(s->f, text);
	fputs("</text></g>\n", s->f);
	s->legx = x + (line ? 18 : 14) + CHAR_PX * (double)strlen(text) + 14;
}

void svg_legend(struct svg *s, const char *cls, const char *text, bool line)
{
	legend(s, cls, text, line, false);
}

void svg_legend_scale(struct svg *s, const char *cls, const char *text)
{
	legend(s, cls, text, false, true);
}

void svg_end(struct svg *s)
{
	fputs("</svg>\n", s->f);
}
