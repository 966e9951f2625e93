// SPDX-License-Identifier: MIT
/*
 * histtext.c - latency histograms as text (see histtext.h).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "stats/hist.h"
#include "sink/histtext.h"

#define NBINS	48

static const char stars[] = "****************************************";

void hist_text_log2(FILE *out, const struct hist *h)
{
	uint64_t slot[HIST_SLOTS], top = 0, unit = hist_log2_unit(h);
	int used = hist_log2(h, unit, slot);

	if (!used)
		return;
	for (int i = 0; i < used; i++)
		if (slot[i] > top)
			top = slot[i];
	fprintf(out, "%5s%-19s : count    distribution\n", "",
		unit == HIST_S ? "secs" : unit == HIST_MS ? "msecs" : "usecs");
	for (int i = 0; i < used; i++) {
		uint64_t lo = i ? 1ULL << i : 0, hi = (1ULL << (i + 1)) - 1;
		int k = (int)(slot[i] * 40 / top);

		fprintf(out, "%10" PRIu64 " -> %-10" PRIu64 " : %-8" PRIu64
			" |%.*s%*s|\n", lo, hi, slot[i], k, stars, 40 - k, "");
	}
	fprintf(out, "%5sn %" PRIu64 ", p50 %.3f ms, p99 %.3f ms, max %.3f ms\n",
		"", h->count, (double)hist_pct(h, 50) / 1e6,
		(double)hist_pct(h, 99) / 1e6, (double)h->max / 1e6);
}

void hist_text_sizes(FILE *out, const struct sizehist *h)
{
	uint64_t top = 0;
	int used = 0;

	for (int i = 0; i < SIZEHIST_SLOTS; i++) {
		if (h->n[i])
			used = i + 1;
		if (h->n[i] > top)
			top = h->n[i];
	}
	if (!used)
		return;
	fprintf(out, "%5s%-19s : count    distribution\n", "", "Kbytes");
	for (int i = 0; i < used; i++) {
		uint64_t lo = i ? 1ULL << i : 0, hi = (1ULL << (i + 1)) - 1;
		int k = (int)(h->n[i] * 40 / top);

		if (i == SIZEHIST_SLOTS - 1)
			fprintf(out, "%10" PRIu64 " -> %-10s : %-8" PRIu64
				" |%.*s%*s|\n", lo, "", h->n[i], k, stars,
				40 - k, "");
		else
			fprintf(out, "%10" PRIu64 " -> %-10" PRIu64 " : %-8"
				PRIu64 " |%.*s%*s|\n", lo, hi, h->n[i], k,
				stars, 40 - k, "");
	}
	fprintf(out, "%5sn %" PRIu64 ", average %.1f KiB\n", "", h->count,
		(double)h->bytes / (double)h->count / 1024);
}

/* A bar of width characters, n of max rounded up. */
void hist_text_count(FILE *out, const struct hist *h, const char *unit)
{
	uint64_t bins[65], top = 0;	/* 0, then 2^0 .. 2^63 */
	int used = 0;

	if (!h->count)
		return;
	hist_bins(h, 1, bins, 65);
	for (int i = 0; i < 65; i++) {
		if (bins[i])
			used = i + 1;
		if (bins[i] > top)
			top = bins[i];
	}
	fprintf(out, "%5s%-19s : count    distribution\n", "", unit);
	for (int i = 0; i < used; i++) {
		/* bin 0 holds 0, bin i the values in [2^(i-1), 2^i) */
		uint64_t lo = i ? 1ULL << (i - 1) : 0;
		uint64_t hi = i ? (1ULL << (i - 1)) * 2 - 1 : 0;
		int k = (int)(bins[i] * 40 / top);

		fprintf(out, "%10" PRIu64 " -> %-10" PRIu64 " : %-8" PRIu64
			" |%.*s%*s|\n", lo, hi, bins[i], k, stars, 40 - k, "");
	}
}

static void bar(FILE *out, uint64_t n, uint64_t max, int width)
{
	int k = max ? (int)((n * (uint64_t)width + max - 1) / max) : 0;

	fputc('|', out);
	for (int i = 0; i < width; i++)
		fputc(i < k ? '#' : ' ', out);
	fputc('|', out);
}

void hist_text_pair(FILE *out, const char *title, const struct hist *a,
		    const struct hist *b, int two)
{
	uint64_t b1[NBINS] = { 0 }, b2[NBINS] = { 0 }, m1 = 0, m2 = 0, mx = 0;
	int first = NBINS, last = -1, width = two ? 24 : 40;
	uint64_t unit;
	const char *u;

	if (a && a->max > mx)
		mx = a->max;
	if (b && b->max > mx)
		mx = b->max;
	/* ms like iolatency when anything took 2 ms or more */
	unit = mx >= 2000000 ? 1000000 : 1000;
	u = unit == 1000000 ? "ms" : "us";
	if (a)
		hist_bins(a, unit, b1, NBINS);
	if (b)
		hist_bins(b, unit, b2, NBINS);
	for (int i = 0; i < NBINS; i++) {
		if (b1[i] || b2[i]) {
			if (first == NBINS)
				first = i;
			last = i;
		}
		if (b1[i] > m1)
			m1 = b1[i];
		if (b2[i] > m2)
			m2 = b2[i];
	}
	/* BEFORE and AFTER on one scale: 835 and 11 do not both fill a bar */
	if (two)
		m1 = m2 = m1 > m2 ? m1 : m2;
	fprintf(out, "\n%s:\n", title);
	if (last < 0) {
		fprintf(out, "  (no samples)\n");
		return;
	}
	if (two)
		fprintf(out, "  >=(%s) .. <(%s)     : %8s %-*s %8s %-*s\n", u, u,
			"BEFORE", width + 2, "|Distribution|", "AFTER",
			width + 2, "|Distribution|");
	else
		fprintf(out, "  >=(%s) .. <(%s)     : %8s %-*s\n", u, u, "I/O",
			width + 2, "|Distribution|");
	if (first > 0)
		first--;
	for (int i = first; i <= last; i++) {
		uint64_t lo = i ? 1ULL << (i - 1) : 0, hi = 1ULL << i;

		fprintf(out, "  %8" PRIu64 " -> %-8" PRIu64 " : %8" PRIu64 " ",
			lo, hi, b1[i]);
		bar(out, b1[i], m1, width);
		if (two) {
			fprintf(out, " %8" PRIu64 " ", b2[i]);
			bar(out, b2[i], m2, width);
		}
		fputc('\n', out);
	}
}
