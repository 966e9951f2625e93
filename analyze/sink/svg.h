/* SPDX-License-Identifier: MIT */
/*
 * svg.h - the plots of the HTML page as inline SVG: a frame with axes,
 * ticks and units, points, bars and lines mapped from data coordinates,
 * a legend; every mark carries its value in a data- attribute and a
 * <title> tooltip, so what is drawn can be read back.
 */
#ifndef IOREPORT_SINK_SVG_H
#define IOREPORT_SINK_SVG_H

#include <stdbool.h>
#include <stdio.h>

#define SVG_W	760
#define SVG_H	260

struct svg {
	FILE *f;
	double x0, x1, y0, y1;	/* data ranges */
	bool ylog;		/* y on a log10 scale (y0 > 0) */
	bool xlog2;		/* x labels as powers of two (histograms) */
	int w, h;		/* pixels */
	int ml, mr, mt, mb;	/* margins */
};

/*
 * svg_begin - open a plot: <svg> of class cls with the frame, the axes
 * with ticks and their labels (units in the labels)
 */
void svg_begin(struct svg *s, FILE *f, const char *cls, const char *title,
	       const char *xlabel, const char *ylabel);
void svg_end(struct svg *s);

/* Pixel of a data x or y (clamped into the frame). */
double svg_px(const struct svg *s, double x);
double svg_py(const struct svg *s, double y);

/* One legend entry at slot i (top right). */
void svg_legend(struct svg *s, int i, const char *cls, const char *text);

/* Write text with & < > " escaped. */
void html_escape(FILE *f, const char *text);

#endif /* IOREPORT_SINK_SVG_H */
