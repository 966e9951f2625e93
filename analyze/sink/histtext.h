/* SPDX-License-Identifier: MIT */
/*
 * histtext.h - latency histograms as text, from the one log2 binning of
 * stats/hist.h (hist_bins()): the iolatency/biolatency layout of one
 * distribution in usecs (`usecs : count distribution`, a 40-character
 * bar, then n/p50/p99/max), and two distributions side by side (BEFORE
 * and AFTER of a diff, in us or ms) or one of them alone.
 */
#ifndef IOREPORT_SINK_HISTTEXT_H
#define IOREPORT_SINK_HISTTEXT_H

#include <stdio.h>

struct hist;

/*
 * One distribution in log2 slots of usecs, msecs or secs
 * (hist_log2_unit()); nothing when it is empty.
 */
void hist_text_log2(FILE *out, const struct hist *h);

/*
 * hist_text_count - a distribution of counts that are not times (seek
 * distances in sectors): log2 bins of h's values, bin 0 the value 0,
 * with the unit's name in the head; nothing when it is empty.
 */
void hist_text_count(FILE *out, const struct hist *h, const char *unit);

struct sizehist;
/*
 * hist_text_sizes - request sizes as bcc's bitesize prints them
 * (`Kbytes : count distribution`, log2 KiB slots, a 40-character bar)
 * and their count and average; nothing when there is none.
 */
void hist_text_sizes(FILE *out, const struct sizehist *h);

/*
 * hist_text_pair - "TITLE:" then the bins of a and, when two, of b
 * beside it, in ms when either has a sample of 2 ms or more, else
 * in us; "(no samples)" when both are empty.  a, b may be NULL (empty).
 */
void hist_text_pair(FILE *out, const char *title, const struct hist *a,
		    const struct hist *b, int two);

#endif /* IOREPORT_SINK_HISTTEXT_H */
