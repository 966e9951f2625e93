/* SPDX-License-Identifier: MIT */
/*
 * report.h - the output sinks of the views (summary, devices, slow,
 * snoop, processes, files): each view prints an analysis (analysis.h) as
 * text for people or as members of one JSON object (json.h).  The only
 * code of these views that prints; the analysis does not change with the
 * output.
 *
 * Text is deterministic: sorted rows, fixed formats, no wall clock, and
 * an anomalies line in every view.  JSON carries raw numbers (ns,
 * bytes), histograms as bucket bounds and counts, never bars.
 */
#ifndef IOREPORT_REPORT_H
#define IOREPORT_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "driver.h"

struct json;

struct sink {
	struct driver *a;
	struct json *j;		/* NULL: text */
	bool no_hist;		/* text: tables only */
	/* device names from the snapshot, cached */
	struct devname {
		uint32_t dev;
		char name[64];
	} *names;
	size_t nnames;
	/* snoop */
	bool snooping;
	uint64_t snooped;
};

void sink_init(struct sink *s, struct driver *a, struct json *j);
void sink_release(struct sink *s);

/* "name" from the snapshot's blockdev lines, else "maj:min". */
const char *sink_dev_name(struct sink *s, uint32_t dev);

/* The file line: path, format, integrity (text) / members (JSON). */
void view_head(struct sink *s);
void view_summary(struct sink *s);
void view_devices(struct sink *s);
void view_slow(struct sink *s);
/* Every anomaly counter of the analysis. */
void view_anomalies(struct sink *s);

/*
 * cmd-procfiles.c, from an analysis with AN_ATTRIB: the processes and
 * files views (top < 0: every row) as a text section (its head line,
 * the attribution, the table(s) and its anomalies line) or as JSON
 * members ("processes_with_calls", "processes" / "named_bytes",
 * "unnamed_bytes", "files_with_io", "files"); view_attribution() writes
 * the "attribution" member (text: its lines).
 */
void view_processes(struct sink *s, long top);
void view_files(struct sink *s, long top);
void view_attribution(struct sink *s);

/*
 * Snoop: view_snoop_begin() before the pass, snoop_request() as the
 * analysis' on_request hook for every completed request, then
 * view_snoop_end() after it.
 */
void view_snoop_begin(struct sink *s);
void snoop_request(const struct blk_done *d, void *sink);
void view_snoop_end(struct sink *s);

#endif /* IOREPORT_REPORT_H */
