// SPDX-License-Identifier: MIT
/*
 * svg.c - plot frames, axes and legends as inline SVG (svg.h).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "sink/svg.h"

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

/* A round step for about n ticks over span. */
static double tick_step(double span, int n)
{
	double raw = span / n, mag = pow(10, floor(log10(raw)));
	double r = raw / mag;

	return (r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10) * mag;
}

static void tick_label(FILE *f, double v)
{
	if (v != 0 && (fabs(v) >= 1e6 || fabs(v) < 1e-3))
		fprintf(f, "%.0e", v);
	else
		fprintf(f, "%g", v);
}

void svg_begin(struct svg *s, FILE *f, const char *cls, const char *title,
	       const char *xlabel, const char *ylabel)
{
	double st, v;

	s->f = f;
	if (!s->w)
		s->w = SVG_W;
	if (!s->h)
		s->h = SVG_H;
	s->ml = 64;
	s->mr = 12;
	s->mt = 24;
	s->mb = 40;
	if (s->ylog && s->y0 <= 0)
		s->y0 = s->y1 > 1 ? s->y1 / 1e6 : 1e-6;
	fprintf(f, "<svg class=\"plot %s\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n",
		cls, s->w, s->h, s->w, s->h);
	fputs("<text class=\"ttl\" x=\"4\" y=\"15\">", f);
	html_escape(f, title);
	fputs("</text>\n", f);
	fprintf(f, "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n",
		s->ml, s->mt, s->w - s->ml - s->mr, s->h - s->mt - s->mb);
	/* x ticks */
	if (s->xlog2) {
		for (v = s->x0; v <= s->x1; v += 4)
			fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%d\">2^%g</text>\n",
				svg_px(s, v + 0.5), s->h - s->mb + 14, v);
	} else if (s->x1 > s->x0) {
		st = tick_step(s->x1 - s->x0, 8);
		for (v = ceil(s->x0 / st) * st; v <= s->x1 + st / 1e6; v += st) {
			fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%d\">",
				svg_px(s, v), s->h - s->mb + 14);
			tick_label(f, v);
			fputs("</text>\n", f);
		}
	}
	/* y ticks */
	if (s->ylog) {
		for (v = pow(10, ceil(log10(s->y0))); v <= s->y1 * 1.0001;
		     v *= 10) {
			fprintf(f, "<text class=\"tick y\" x=\"%d\" y=\"%.1f\">",
				s->ml - 4, svg_py(s, v) + 4);
			tick_label(f, v);
			fputs("</text>\n", f);
		}
	} else if (s->y1 > s->y0) {
		st = tick_step(s->y1 - s->y0, 5);
		for (v = ceil(s->y0 / st) * st; v <= s->y1 + st / 1e6; v += st) {
			fprintf(f, "<text class=\"tick y\" x=\"%d\" y=\"%.1f\">",
				s->ml - 4, svg_py(s, v) + 4);
			tick_label(f, v);
			fputs("</text>\n", f);
		}
	}
	fprintf(f, "<text class=\"axis\" x=\"%d\" y=\"%d\">", s->w / 2,
		s->h - 6);
	html_escape(f, xlabel);
	fprintf(f, "</text>\n<text class=\"axis\" transform=\"translate(12,%d) rotate(-90)\">",
		s->h / 2);
	html_escape(f, ylabel);
	fputs("</text>\n", f);
}

void svg_legend(struct svg *s, int i, const char *cls, const char *text)
{
	int x = s->w - s->mr - 110 * (i + 1);

	fprintf(s->f, "<g class=\"legend\"><rect class=\"%s\" x=\"%d\" y=\"6\" width=\"10\" height=\"10\"/><text x=\"%d\" y=\"15\">",
		cls, x, x + 14);
	html_escape(s->f, text);
	fputs("</text></g>\n", s->f);
}

void svg_end(struct svg *s)
{
	fputs("</svg>\n", s->f);
}
