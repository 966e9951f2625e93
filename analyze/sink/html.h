/* SPDX-License-Identifier: MIT */
/*
 * html.h - the HTML page of ioreport html: one self-contained file
 * (inline SVG, CSS and a small script, no external URL) with the plots of
 * one recording, or of two in rows of BEFORE and AFTER on shared axes.  It
 * prints what the stages computed: struct stats, the rows of
 * stats/rows.h and the bins and samples of stats/timeline.h.
 */
#ifndef IOREPORT_SINK_HTML_H
#define IOREPORT_SINK_HTML_H

#include <stdio.h>

struct diff;
struct stats;
struct timeline;

/* One recording on the page. */
struct html_rec {
	const char *label;		/* "BEFORE", "AFTER", or the path */
	struct stats *st;
	const struct timeline *tl;
};

/*
 * html_page - write the page to f
 * @a: the AFTER recording, or NULL
 * @d: with a, the two compared (stats/diffmodel.h): the paired findings
 *   at the top, tested as `ioreport diff` tests them; else NULL
 * @diff_text: with a, the text of `ioreport diff` (config changes and
 *   deltas), shown as it is; else NULL
 *
 * Returns 0, or a negative AN_E_* (no memory for a list: that part is
 * missing from the page).
 */
int html_page(FILE *f, const struct html_rec *b, const struct html_rec *a,
	      const struct diff *d, const char *diff_text);

#endif /* IOREPORT_SINK_HTML_H */
