// SPDX-License-Identifier: MIT
/*
 * fuzz-analyze.c - the analysis pass of `ioreport report`, printing
 * nothing, for the fuzz targets of the whole pipeline (fuzz.h).
 */
#include "config.h"

#include <stdlib.h>

#include "util.h"
#include "source.h"
#include "analysis.h"
#include "fuzz.h"

int fuzz_analyze(const char *path, unsigned int print_events)
{
	struct analysis a = { 0 };
	struct anomaly v[ANOMALIES_MAX];
	struct source *src;
	char *msg = NULL;
	size_t n;

	if (!path)
		return -1;
	src = source_open(path, &msg);
	if (!src) {
		free(msg);
		return -1;
	}
	if (print_events) {
		struct strbuf sb = STRBUF_INIT;
		struct source_event ev;

		for (unsigned int i = 0; i < print_events &&
		     source_next(src, &ev) > 0; i++) {
			strbuf_reset(&sb);
			source_format_event(src, &ev, i & 1, &sb);
		}
		strbuf_release(&sb);
		source_close(src);
		src = source_open(path, &msg);
		if (!src) {
			free(msg);
			return -1;
		}
	}
	a.want = AN_ATTRIB;
	a.slow_n = 10;
	analysis_run(&a, src);
	analysis_slowest(&a, &n);
	analysis_slowest_calls(&a, &n);
	analysis_anomalies(&a, v);
	while ((msg = source_warning(src)))
		free(msg);
	analysis_release(&a);
	source_close(src);
	return 0;
}
