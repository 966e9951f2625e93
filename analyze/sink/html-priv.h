/* SPDX-License-Identifier: MIT */
/*
 * html-priv.h - what the two files of the HTML page share: the page of
 * one or two recordings, its rows of cells (one metric per row on a
 * BEFORE/AFTER page, its two sides on the same scales), and the device
 * plots of html-dev.c.
 */
#ifndef IOREPORT_SINK_HTML_PRIV_H
#define IOREPORT_SINK_HTML_PRIV_H

#include <stdint.h>
#include <stdio.h>

#include "sink/html.h"
#include "sink/sink.h"
#include "sink/svg.h"

/* One recording's side of the page. */
struct page {
	const struct html_rec *r;
	struct sink s;		/* device names */
	uint64_t t0;		/* x = 0: the recording's first event */
	const char *side;	/* "BEFORE", "AFTER", or NULL alone */
};

struct html {
	FILE *f;
	struct page p[2];
	int n;			/* recordings: 1 or 2 */
	double span;		/* the x range of the time plots, s */
	size_t every;		/* of a device's sampled requests, 1 in every
				   drawn (the page's budget of points) */
	int err;
};

/* Seconds of ts from the start of p's recording. */
double html_secs(const struct page *p, uint64_t ts);

/* A row of cells: n columns; metric names what a pair's row compares. */
void html_row_begin(struct html *h, const char *cls, const char *metric,
		    int n);
void html_row_end(struct html *h);
/* A cell of p's side (NULL: a cell of the whole page). */
void html_cell_begin(struct html *h, const struct page *p);
void html_cell_end(struct html *h);

/* "BEFORE: title" on a pair, "title" alone. */
void html_title(const struct page *p, const char *title, char *buf,
		size_t n);

/*
 * A plot: one cell per recording (h->n), the cells of a pair on the
 * same scales; dev and which say what to draw.
 */
struct html_plot {
	const char *name;	/* what the row compares ("throughput") */
	void (*draw)(struct html *h, uint32_t dev, int which);
	int which;
};

/*
 * html_plots - the plots of v in rows: alone two plots a row, on a pair
 * one plot a row (BEFORE | AFTER); prefix names the rows' metrics
 * ("loop1 ")
 */
void html_plots(struct html *h, const char *prefix,
		const struct html_plot *v, size_t n, uint32_t dev);

/* The devices, the slowest first (time lost: the requests' total time). */
void html_devices(struct html *h);

#endif /* IOREPORT_SINK_HTML_PRIV_H */
