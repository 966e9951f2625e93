/* SPDX-License-Identifier: MIT */
/*
 * svg.h - the plots of the HTML page as inline SVG: a frame with axes,
 * ticks and units, points, bars and lines mapped from data coordinates,
 * a legend whose swatches carry the class of the marks they name; every
 * mark carries its value in a data- attribute and a <title> tooltip, so
 * what is drawn can be read back.  The plot scales to the width of its
 * cell (viewBox); its data ranges are in data-x0/x1/y0/y1 so a test can
 * see that two plots compared share their scales.
 */
#ifndef IOREPORT_SINK_SVG_H
#define IOREPORT_SINK_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define SVG_W	600
#define SVG_H	250

/* How an axis labels its ticks. */
enum svg_axis {
	SVG_AX_NUM,	/* plain numbers: the unit is in the axis label */
	SVG_AX_DUR,	/* nanoseconds, labelled "10 us", "1 ms", "1 s" */
	SVG_AX_LOG2US,	/* slot i of a log2 histogram: [2^i, 2^(i+1)) us */
	SVG_AX_NONE,	/* no ticks (bar charts carry their values) */
};

struct svg {
	FILE *f;
	double x0, x1, y0, y1;	/* data ranges */
	bool ylog;		/* y on a log10 scale (y0 > 0) */
	enum svg_axis xax, yax;
	bool noframe;
	int w, h;		/* viewBox */
	int ml, mr, mt, mb;	/* margins (0: the defaults) */
	double legx;		/* where the next legend entry goes */
};

/*
 * svg_begin - open a plot: <svg> of class cls with the title, the frame,
 * the axes with ticks and their labels (the unit in the label: "time
 * (s)"); s holds the ranges, the axis kinds and the size
 */
void svg_begin(struct svg *s, FILE *f, const char *cls, const char *title,
	       const char *xlabel, const char *ylabel);
void svg_end(struct svg *s);

/* Pixel of a data x or y (clamped into the frame). */
double svg_px(const struct svg *s, double x);
double svg_py(const struct svg *s, double y);

/*
 * svg_legend - the next legend entry, on the line under the title: a
 * swatch of class cls (a square for filled marks, a short line for line
 * marks) and its text
 */
void svg_legend(struct svg *s, const char *cls, const char *text, bool line);
/* An entry of a colour scale: its colours may have no mark on a side. */
void svg_legend_scale(struct svg *s, const char *cls, const char *text);

/* Write text with & < > " escaped. */
void html_escape(FILE *f, const char *text);

/*
 * A round unit for an axis of sizes up to max bytes: its name ("KiB",
 * "MiB", "GiB") and bytes per unit (base/units.h's binary units; the
 * marks' tooltips and notes write their values with base/units.h).
 */
double svg_size_unit(double max, const char **name);

#endif /* IOREPORT_SINK_SVG_H */
