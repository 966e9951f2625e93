// SPDX-License-Identifier: MIT
/*
 * fuzz-analyze.c - the analysis pass of `ioreport report`, printing
 * nothing, for the fuzz targets of the whole pipeline (fuzz.h).
 */
#include "config.h"

#include <stdlib.h>

#include "base/err.h"
#include "sbuf.h"
#include "driver.h"
#include "input/source.h"
#include "stats/findings.h"
#include "stats/rows.h"
#include "fuzz.h"

/* The first n events as `ioreport dump` formats them, into memory. */
static void format_events(const char *path, unsigned int n)
{
	struct sbuf sb = SBUF_INIT;
	struct source_event ev;
	struct an_err err;
	struct source *src = source_open(path, &err);

	for (unsigned int i = 0; src && i < n && source_next(src, &ev) > 0;
	     i++) {
		sbuf_reset(&sb);
		source_format_event(src, &ev, i & 1, NULL, &sb);
	}
	sbuf_release(&sb);
	source_close(src);
}

int fuzz_analyze(const char *path, unsigned int print_events)
{
	struct driver d = { 0 };
	struct an_err err;
	struct proc_row *procs;
	struct file_row *files;
	struct wa_row *wa;
	struct fsync_row *fs;
	struct dirty_row *dirty;
	struct findings fnd;
	char *msg;
	size_t n;
	long k;

	if (!path)
		return -1;
	if (print_events)
		format_events(path, print_events);
	if (driver_open(&d, path, &err) < 0) {
		driver_close(&d);
		return -1;
	}
	/*
	 * what `ioreport report` computes before it prints: every stage
	 * (write amplification and dirty throttling too), the rows of its
	 * views and the findings
	 */
	d.want = AN_WA | AN_DIRTY;
	d.slow_n = 10;
	if (driver_run(&d, &err) == 0) {
		stats_slowest(&d.st, &n);
		stats_slowest_calls(&d.st, &n);
		k = rows_processes(&d.st, false, &procs);
		if (k >= 0)
			free(procs);
		k = rows_files(&d.st, &files);
		if (k >= 0)
			rows_files_release(files, k);
		for (int byproc = 0; byproc < 2; byproc++) {
			k = rows_wa(&d.st, byproc, &wa);
			if (k >= 0)
				rows_wa_release(wa, k);
			k = rows_fsync(&d.st, byproc, &fs);
			if (k >= 0)
				rows_fsync_release(fs, k);
		}
		k = rows_dirty(&d.st, &dirty);
		if (k >= 0)
			free(dirty);
		if (findings_compute(&d.st, &fnd) == 0)
			findings_release(&fnd);
	}
	while ((msg = source_warning(d.src)))
		free(msg);
	driver_close(&d);
	return 0;
}
