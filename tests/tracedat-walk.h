/* SPDX-License-Identifier: MIT */
/*
 * tracedat-walk.h - every page of every CPU of every buffer of a
 * trace.dat file, through the formats/ reader: what tests/test-tracedat.c
 * and the fuzz target tests/fuzz/fuzz-tracedat-reader.c both walk, each
 * with its own check of a page.
 */
#ifndef TESTS_TRACEDAT_WALK_H
#define TESTS_TRACEDAT_WALK_H

#include <stdint.h>

#include "tracedat.h"

/* A check of the nth page (from 1) of a CPU's stream; 0 goes on. */
typedef int (*tdwalk_page_fn)(void *ctx, const struct tracedat_buffer *b,
			      const struct tracedat_page *pg, uint64_t n);

/*
 * Returns the reader's error (< 0; *err_off, unless NULL, is where the
 * stream met it), the check's (!= 0), or 0.
 */
static inline int tdwalk_pages(struct tracedat_reader *r, tdwalk_page_fn page,
			       void *ctx, uint64_t *err_off)
{
	const struct tracedat_info *info = tracedat_reader_info(r);
	int ret = 0;

	for (uint32_t bi = 0; !ret && bi < info->nbuffers; bi++) {
		const struct tracedat_buffer *b = tracedat_reader_buffer(r, bi);

		for (uint32_t c = 0; !ret && !b->latency && c < b->ncpus; c++) {
			struct tracedat_stream *s = tracedat_stream_open(r, bi, c,
									 &ret);
			struct tracedat_page pg;
			uint64_t n = 0;

			if (!s)
				break;
			while (!ret && (ret = tracedat_stream_next(s, &pg)) > 0)
				ret = page(ctx, b, &pg, ++n);
			if (ret < 0 && err_off)
				*err_off = tracedat_stream_error_offset(s);
			tracedat_stream_close(s);
		}
	}
	return ret;
}

#endif /* TESTS_TRACEDAT_WALK_H */
