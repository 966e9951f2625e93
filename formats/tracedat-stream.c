// SPDX-License-Identifier: MIT
/*
 * tracedat-stream.c - the pages of one CPU of a trace.dat
 * (tracedat_stream_*()), read one readahead or one compressed chunk at a
 * time, each page header checked (tracedat_page_parse()).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fmt-util.h"
#include "tracedat.h"
#include "tracedat-int.h"
#include "tracedat-codec.h"
#include "tracedat-rd.h"

/* ------------------------------------------------------------------ */
/* pages */

int tracedat_page_header(const uint8_t *page, uint32_t len,
			 unsigned int long_size, bool big_endian,
			 struct tracedat_page *pg)
{
	uint32_t hs = 8 + long_size;
	uint64_t commit;
	uint32_t size;

	if ((long_size != 4 && long_size != 8) || len < hs)
		return -TRACEDAT_E_BAD_PAGE;
	pg->ts = td_get64(page, big_endian);
	commit = long_size == 8 ? td_get64(page + 8, big_endian) :
				  td_get32(page + 8, big_endian);
	size = (uint32_t)commit & TRACEDAT_COMMIT_MASK;
	pg->commit = size;
	pg->lost = 0;
	pg->count_bytes = 0;
	if (size > len - hs)
		return -TRACEDAT_E_BAD_PAGE;
	if (!(commit & TRACEDAT_MISSED_EVENTS))
		return 0;
	pg->lost = -1;
	if (!(commit & TRACEDAT_MISSED_STORED))
		return 0;
	/* the count follows the events */
	if (long_size > len - hs - size)
		return 1;
	pg->lost = long_size == 8 ?
		   (int64_t)td_get64(page + hs + size, big_endian) :
		   (int64_t)td_get32(page + hs + size, big_endian);
	if (pg->lost < 0)
		pg->lost = INT64_MAX;
	pg->count_bytes = long_size;
	return 0;
}

int tracedat_page_parse(const struct tracedat_reader *r, const uint8_t *page,
			uint32_t len, struct tracedat_page *pg)
{
	return tracedat_page_header(page, len, r->commit_size, r->be, pg) ?
	       -TRACEDAT_E_BAD_PAGE : 0;
}

struct tracedat_stream *tracedat_stream_open(struct tracedat_reader *r,
					     uint32_t buffer, uint32_t cpu_index,
					     int *err)
{
	const struct tracedat_buffer *b = tracedat_reader_buffer(r, buffer);
	const struct tracedat_cpu *c;
	struct tracedat_stream *s;

	if (!b || (!b->latency && cpu_index >= b->ncpus)) {
		*err = -TRACEDAT_E_INVAL;
		return NULL;
	}
	if (b->latency) {
		*err = -TRACEDAT_E_LATENCY;
		return NULL;
	}
	c = &b->cpus[cpu_index];
	s = calloc(1, sizeof(*s));
	if (!s) {
		*err = -TRACEDAT_E_NOMEM;
		return NULL;
	}
	s->r = r;
	s->b = b;
	s->cpu = c->cpu;
	s->page_size = b->page_size;
	s->compressed = b->compressed && c->size;
	s->pos = c->offset;
	s->end = c->offset + c->size;
	if (s->compressed) {
		uint8_t n[4];
		int ret = tdr_pread_all(r, n, 4, c->offset);

		if (ret) {
			free(s);
			*err = ret;
			return NULL;
		}
		s->nchunks = td_get32(n, r->be);
		s->pos += 4;
		s->end += 4;
		/* every chunk has at least its 8-byte header */
		if (s->nchunks > c->size / 8) {
			free(s);
			*err = tdr_fail(r, -TRACEDAT_E_BAD_CHUNK, c->offset);
			return NULL;
		}
	}
	s->next = r->streams;
	if (s->next)
		s->next->pprev = &s->next;
	s->pprev = &r->streams;
	r->streams = s;
	*err = 0;
	return s;
}

static int stream_fail(struct tracedat_stream *s, int err, uint64_t off)
{
	s->err = err;
	s->err_off = off;
	s->r->err_off = off;
	return err;
}

/* Fill the readahead of an uncompressed stream. */
static int refill_raw(struct tracedat_stream *s)
{
	struct tracedat_reader *r = s->r;
	size_t want;
	int ret;

	if (!s->buf) {
		uint64_t ncpus = s->b->ncpus ? s->b->ncpus : 1;
		uint64_t share = r->o.mem_limit / 4 / ncpus;
		size_t cap = STREAM_RA_MAX;

		if (cap > share)
			cap = (size_t)share;
		cap -= cap % s->page_size;
		if (cap < s->page_size)
			cap = s->page_size;
		ret = tdr_mem_grow(r, &s->buf, &s->cap, cap + SLACK);
		if (ret)
			return stream_fail(s, ret, s->pos);
		memset(s->buf + cap, 0, SLACK);
	}
	want = s->cap - SLACK;
	if (s->end - s->pos < want)
		want = (size_t)(s->end - s->pos);
	ret = tdr_pread_all(r, s->buf, want, s->pos);
	if (ret)
		return stream_fail(s, ret, r->err_off);
	s->buf_off = s->pos;
	s->pos += want;
	s->blen = want;
	s->bpos = 0;
	s->st.bytes += want;
	return 0;
}

/* Read and decompress the next chunk of a compressed stream. */
static int refill_chunk(struct tracedat_stream *s)
{
	struct tracedat_reader *r = s->r;
	uint64_t at = s->pos;
	uint8_t h[8];
	uint32_t zsize, rsize;
	size_t need;
	int ret;

	if (s->end - s->pos < 8)
		return stream_fail(s, -TRACEDAT_E_BAD_CHUNK, at);
	if ((ret = tdr_pread_all(r, h, 8, at)))
		return stream_fail(s, ret, at);
	zsize = td_get32(h, r->be);
	rsize = td_get32(h + 4, r->be);
	if (zsize > s->end - s->pos - 8 || zsize > td_codec_bound(r->codec, rsize))
		return stream_fail(s, -TRACEDAT_E_BAD_CHUNK, at);
	need = (size_t)rsize + s->page_size - 1;
	need -= need % s->page_size;
	if (!need)
		need = s->page_size;
	if ((ret = tdr_mem_grow(r, &s->buf, &s->cap, need + SLACK)) ||
	    (ret = tdr_mem_grow(r, &r->zin, &r->zin_cap, zsize ? zsize : 1)))
		return stream_fail(s, ret, at);
	memset(s->buf + need, 0, s->cap - need);
	if ((ret = tdr_pread_all(r, r->zin, zsize, at + 8)))
		return stream_fail(s, ret, at);
	ret = td_codec_decompress(&r->cctx, r->codec, s->buf, rsize, r->zin,
				  zsize);
	if (ret)
		return stream_fail(s, ret, at);
	s->pos += 8 + (uint64_t)zsize;
	s->chunk++;
	s->buf_off = at;
	s->blen = rsize;
	s->bpos = 0;
	s->st.chunks++;
	s->st.bytes += 8 + (uint64_t)zsize;
	return 0;
}

int tracedat_stream_next(struct tracedat_stream *s, struct tracedat_page *pg)
{
	size_t len;
	uint8_t *p;
	int ret;

	if (s->err)
		return s->err;
	while (s->bpos >= s->blen) {
		if (s->compressed) {
			if (s->chunk == s->nchunks)
				return 0;
			ret = refill_chunk(s);
		} else {
			if (s->pos >= s->end)
				return 0;
			ret = refill_raw(s);
		}
		if (ret)
			return ret;
	}
	p = s->buf + s->bpos;
	len = s->blen - s->bpos;
	if (len < s->page_size) {
		/* a short last page: zero the rest, inside buf's page multiple */
		memset(p + len, 0, s->page_size - len);
	} else {
		len = s->page_size;
	}
	memset(pg, 0, sizeof(*pg));
	ret = tracedat_page_parse(s->r, p, (uint32_t)len, pg);
	if (ret)
		return stream_fail(s, ret, s->compressed ? s->buf_off :
				   s->buf_off + s->bpos);
	pg->data = p;
	pg->len = (uint32_t)len;
	pg->offset = s->compressed ? s->buf_off : s->buf_off + s->bpos;
	pg->index = s->index++;
	s->bpos += s->page_size;
	s->st.pages++;
	if (pg->lost) {
		s->st.lost_pages++;
		if (pg->lost < 0)
			s->st.lost_unknown++;
		else
			s->st.lost_events += (uint64_t)pg->lost;
	}
	return 1;
}

uint64_t tracedat_stream_error_offset(const struct tracedat_stream *s)
{
	return s->err_off;
}

const struct tracedat_stream_stats *tracedat_stream_stats(const struct tracedat_stream *s)
{
	return &s->st;
}

uint32_t tracedat_stream_cpu(const struct tracedat_stream *s)
{
	return s->cpu;
}

void tracedat_stream_close(struct tracedat_stream *s)
{
	if (!s)
		return;
	*s->pprev = s->next;
	if (s->next)
		s->next->pprev = s->pprev;
	tdr_mem_free(s->r, &s->buf, &s->cap);
	free(s);
}
