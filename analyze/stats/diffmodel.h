/* SPDX-License-Identifier: MIT */
/*
 * diffmodel.h - two recordings as rows of metrics, side by side: every
 * view (summary, devices, processes by comm, files by path, write
 * amplification, fsync, dirty) is a section of keyed rows, each section
 * has one table of metrics whose entries carry their getter, and the
 * rows of BEFORE and AFTER are paired by key (what `ioreport diff`
 * prints, sink/view-diff.c).  Nothing here prints.
 *
 * A new metric is one line in its section's table (and, when it is not
 * a plain sum, a getter); a new section is a table and a fill function.
 */
#ifndef IOREPORT_STATS_DIFFMODEL_H
#define IOREPORT_STATS_DIFFMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/hmap.h"
#include "stats/hist.h"
#include "stats/snapcmp.h"
#include "stats/wa.h"

struct stats;
struct devstat;
struct dirty;

enum dm_unit { DM_COUNT, DM_BYTES, DM_NS, DM_RATIO, DM_RATE, DM_BPS };

/* One row of a section: one device, comm, path ... of one recording. */
struct dm_row {
	char *key;
	/* the sums the getters read (each section uses some) */
	uint64_t duration, events, lost, calls, app_bytes, fsyncs;
	uint64_t throttled_ns, overall_app, overall_dev;
	uint64_t procs, reads, writes, read_bytes, write_bytes;
	uint64_t blk_write_bytes, journal_bytes;
	uint64_t ext4_fsyncs, flushes, flush_ns;
	struct wa_dev wa;		/* summary: the total; wa: one device */
	struct hist h;			/* merged fsync latencies (owned) */
	const struct devstat *dev;	/* devices */
	const struct dirty *dirty;	/* dirty */
	double secs;			/* the recording's duration */
	bool i2d;			/* devices: I2D measurable there */
};

/*
 * The smallest latency change a diff calls significant: 10 us, ten
 * units of the 0.001 ms the tables print, above the jitter of taking
 * two trace timestamps; a smaller change is noise whatever its p.
 */
#define DM_MIN_NS	10000.0

/* A metric: a plain sum of the row (off), what get computes, or a
 * percentile of the distribution dist (pct). */
struct dm_metric {
	const char *json;	/* raw unit in the name: "p99_ns" */
	const char *label;	/* text: "Q2C p99(ms)" */
	enum dm_unit u;
	size_t off;		/* offsetof(struct dm_row, a uint64_t) */
	double (*get)(const struct dm_row *r);	/* or NULL: the sum */
	/* a latency metric: the distribution it is read from, tested by
	 * Mann-Whitney U (signif.h); NULL: a count (DM_COUNT, DM_RATE) is
	 * tested as a Poisson rate, others are not tested */
	const struct hist *(*dist)(const struct dm_row *r);
	double pct;		/* get NULL, dist set: the value is this
				   percentile of dist (100: its max) */
};

/* The latency pictured beside the metrics (diff's histograms). */
enum dm_picture { DM_PIC_NONE, DM_PIC_Q2C, DM_PIC_FSYNC };

struct dm_section {
	const char *name;
	const struct dm_metric *m;
	int nm;
	enum dm_picture pic;
	struct dm_row *rows;
	size_t n, alloc;
	struct hmap at;		/* key -> index in rows */
};

enum { DM_SUMMARY, DM_DEVICES, DM_PROCESSES, DM_FILES, DM_WA, DM_FSYNC,
       DM_DIRTY, DM_NSECT };

/* One recording's sections. */
struct diffmodel {
	struct dm_section s[DM_NSECT];
};

/* The value of metric m in row r (NAN: not known). */
double dm_value(const struct dm_metric *m, const struct dm_row *r);

/* Whether a metric's change is beyond run-to-run noise (signif.h). */
struct dm_sig {
	int test;		/* enum sig_test: SIG_NONE when not tested */
	double p;		/* two-sided p-value (test != SIG_NONE) */
	double after_larger;	/* Mann-Whitney: P(an AFTER operation takes
				   longer than a BEFORE one); else NAN */
	bool significant;
};

/*
 * dm_signif - test metric m between row b of BEFORE and a of AFTER
 * (either NULL: absent, counted as 0 events over that recording)
 * @secs_b, @secs_a: the durations of the recordings (exposure of rates)
 */
void dm_signif(const struct dm_metric *m, const struct dm_row *b,
	       const struct dm_row *a, double secs_b, double secs_a,
	       struct dm_sig *out);

/* The latency distribution of the row pictured by its section, or NULL. */
const struct hist *dm_picture(const struct dm_section *s,
			      const struct dm_row *r);

/* Two recordings compared. */
struct diff {
	const struct stats *b, *a;	/* BEFORE, AFTER (passes with AN_WA
					   and AN_DIRTY) */
	struct snapdiff sd;		/* what changed in the machine */
	struct diffmodel mb, ma;	/* AFTER named as BEFORE names it */
};

/*
 * diff_compute - compare the passes b and a into *d (zeroed first)
 *
 * Returns 0, or -AN_E_NOMEM (d released).
 */
int diff_compute(struct diff *d, const struct stats *b, const struct stats *a);
void diff_release(struct diff *d);

/*
 * A process name as the diff's rows key it: the kernel's workers as one
 * (their numbers, and the work their names say they do, change from run
 * to run), any other name itself.
 */
const char *dm_comm_key(const char *comm);

/* A row key of one section in BEFORE, AFTER or both. */
struct dm_pair {
	const char *key;
	const struct dm_row *b, *a;	/* NULL: not in that recording */
	double w;			/* the size of the change */
	double size;			/* both sides' weight, ties */
};

/*
 * dm_pairs - the rows of section sect of both recordings paired by key:
 * the top (<= 0: all) by the size of their change (the difference of
 * their weights: counts plus bytes in 4 KiB units; a row of one side
 * only changes by all of it), largest first, ties by both weights
 *
 * Returns how many (*out allocated, caller frees), or -AN_E_NOMEM.
 */
long dm_pairs(const struct diff *d, int sect, long top, struct dm_pair **out);

#endif /* IOREPORT_STATS_DIFFMODEL_H */
