/* SPDX-License-Identifier: MIT */
/*
 * diffpair.h - the findings of two recordings paired as the diff pairs
 * its rows (stats/diffmodel.h): a finding of AFTER about a device, mount
 * or file that the diff matched to one of BEFORE's (a workload moved to
 * another mount or device) pairs with BEFORE's finding about it, a
 * kworker's by its role; and each pair with the significance of the
 * change of the diff metric behind its rule (a finding about fsync
 * time: the fsync latencies of its process; about flushes: the flush
 * count of its device; about a slow device: the device time of its
 * requests), or none where no test applies.  What `ioreport diff` and
 * the before/after HTML page put at their top.  Nothing here prints.
 */
#ifndef IOREPORT_STATS_DIFFPAIR_H
#define IOREPORT_STATS_DIFFPAIR_H

#include <stddef.h>

#include "stats/diffmodel.h"
#include "stats/findings.h"

/* One paired finding and the test of its change. */
struct dp_change {
	struct fnd_change c;		/* b, a (either NULL), delta_ns */
	const char *section;		/* the diff section tested (json name),
					   NULL: no test applies */
	const char *key;		/* its row, as BEFORE names it */
	const struct dm_metric *m;	/* the metric tested */
	struct dm_sig sig;
};

struct diff_findings {
	struct findings b, a;
	struct dp_change *v;		/* ranked as findings_changes ranks */
	size_t n;
};

/*
 * diff_findings - the findings of d's two recordings, paired and tested
 *
 * Fills *df (release with diff_findings_release).  Returns 0, or
 * -AN_E_NOMEM (df released).
 */
int diff_findings(const struct diff *d, struct diff_findings *df);
void diff_findings_release(struct diff_findings *df);

/* "gone", "new" or "changed". */
const char *dp_change_word(const struct dp_change *c);
/* "caveat", the severity's name, or "-" (x NULL: not in that recording). */
const char *dp_severity(const struct finding *x);
/* "significant", "noise", or "not tested". */
const char *dp_signif_word(const struct dp_change *c);

#endif /* IOREPORT_STATS_DIFFPAIR_H */
