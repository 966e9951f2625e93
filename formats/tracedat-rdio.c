// SPDX-License-Identifier: MIT
/*
 * tracedat-rdio.c - the trace.dat reader's memory and reads (tracedat-rd.h):
 * every buffer counted against the memory limit, reads of the file with
 * a readahead, cursors over the file or a decompressed section that
 * fail at the end of their structure, and compressed blocks.
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
/* errors, memory */

int tdr_fail(struct tracedat_reader *r, int err, uint64_t off)
{
	r->err_off = off;
	return err;
}

/* Count n more bytes held, or refuse them. */
static int mem_take(struct tracedat_reader *r, size_t n)
{
	if (n > r->o.mem_limit || r->mem > r->o.mem_limit - n)
		return -TRACEDAT_E_MEMLIMIT;
	r->mem += n;
	if (r->mem > r->mem_peak)
		r->mem_peak = r->mem;
	return 0;
}

static void mem_give(struct tracedat_reader *r, size_t n)
{
	r->mem -= n < r->mem ? n : r->mem;
}

/* Resize a counted buffer to at least n bytes. */
int tdr_mem_grow(struct tracedat_reader *r, uint8_t **buf, size_t *cap,
		 size_t n)
{
	int ret;

	if (n <= *cap)
		return 0;
	ret = mem_take(r, n - *cap);
	if (ret)
		return ret;
	if (fmt_grow((void **)buf, cap, n, 0)) {
		mem_give(r, n - *cap);
		return -TRACEDAT_E_NOMEM;
	}
	return 0;
}

void tdr_mem_free(struct tracedat_reader *r, uint8_t **buf, size_t *cap)
{
	free(*buf);
	*buf = NULL;
	mem_give(r, *cap);
	*cap = 0;
}

/* ------------------------------------------------------------------ */
/* file access */

/* Read exactly n bytes at off; a short read is a cut file. */
int tdr_pread_all(struct tracedat_reader *r, void *dst, size_t n,
		  uint64_t off)
{
	uint64_t at = off;
	ssize_t k;

	if (off > r->fsize || n > r->fsize - off)
		return tdr_fail(r, -TRACEDAT_E_TRUNCATED, off);
	k = fmt_read_all(r->fd, dst, n, &at);
	if (k < 0)
		return tdr_fail(r, -TRACEDAT_E_IO, at);
	if ((size_t)k < n)
		return tdr_fail(r, -TRACEDAT_E_TRUNCATED, at);
	return 0;
}

/* Read n bytes at off through the readahead buffer. */
int tdr_ra_read(struct tracedat_reader *r, void *dst, size_t n,
		uint64_t off)
{
	uint8_t *d = dst;

	while (n) {
		size_t k;

		if (off < r->rbuf_off || off >= r->rbuf_off + r->rbuf_len) {
			size_t want = RBUF_SIZE;
			int ret;

			if (off >= r->fsize)
				return tdr_fail(r, -TRACEDAT_E_TRUNCATED, off);
			if (want > r->fsize - off)
				want = (size_t)(r->fsize - off);
			r->rbuf_len = 0;
			ret = tdr_pread_all(r, r->rbuf, want, off);
			if (ret)
				return ret;
			r->rbuf_off = off;
			r->rbuf_len = want;
		}
		k = (size_t)(r->rbuf_off + r->rbuf_len - off);
		if (k > n)
			k = n;
		memcpy(d, r->rbuf + (off - r->rbuf_off), k);
		d += k;
		off += k;
		n -= k;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* cursors */

void tdr_cur_file(struct cur *c, uint64_t pos, uint64_t end, int overrun)
{
	c->mem = NULL;
	c->pos = pos;
	c->end = end;
	c->base = 0;
	c->overrun = overrun;
}

void tdr_cur_mem(struct cur *c, const uint8_t *mem, size_t len,
		 uint64_t base, int overrun)
{
	c->mem = mem;
	c->pos = 0;
	c->end = len;
	c->base = base;
	c->overrun = overrun;
}

/* The file offset to report for the cursor's position. */
uint64_t tdr_cur_off(const struct cur *c)
{
	return c->mem ? c->base : c->pos;
}

uint64_t tdr_cur_left(const struct cur *c)
{
	return c->end > c->pos ? c->end - c->pos : 0;
}

int tdr_cur_read(struct tracedat_reader *r, struct cur *c, void *dst,
		 size_t n)
{
	int ret;

	if (n > tdr_cur_left(c))
		return tdr_fail(r, c->overrun, tdr_cur_off(c));
	if (c->mem) {
		memcpy(dst, c->mem + c->pos, n);
	} else {
		ret = tdr_ra_read(r, dst, n, c->pos);
		if (ret)
			return ret;
	}
	c->pos += n;
	return 0;
}

int tdr_cur_skip(struct tracedat_reader *r, struct cur *c, uint64_t n)
{
	if (n > tdr_cur_left(c))
		return tdr_fail(r, c->overrun, tdr_cur_off(c));
	c->pos += n;
	return 0;
}

int tdr_cur_u16(struct tracedat_reader *r, struct cur *c, uint16_t *v)
{
	uint8_t b[2];
	int ret = tdr_cur_read(r, c, b, 2);

	if (!ret)
		*v = td_get16(b, r->be);
	return ret;
}

int tdr_cur_u32(struct tracedat_reader *r, struct cur *c, uint32_t *v)
{
	uint8_t b[4];
	int ret = tdr_cur_read(r, c, b, 4);

	if (!ret)
		*v = td_get32(b, r->be);
	return ret;
}

int tdr_cur_u64(struct tracedat_reader *r, struct cur *c, uint64_t *v)
{
	uint8_t b[8];
	int ret = tdr_cur_read(r, c, b, 8);

	if (!ret)
		*v = td_get64(b, r->be);
	return ret;
}

/* The size of width bytes (4 or 8) that precedes an item at c. */
int tdr_cur_size(struct tracedat_reader *r, struct cur *c, int width,
		 uint64_t *n)
{
	uint32_t n32;
	int ret;

	if (width != 4)
		return tdr_cur_u64(r, c, n);
	ret = tdr_cur_u32(r, c, &n32);
	if (!ret)
		*n = n32;
	return ret;
}

/* A NUL-terminated string of at most cap - 1 bytes. */
int tdr_cur_string(struct tracedat_reader *r, struct cur *c, char *dst,
		   size_t cap)
{
	uint64_t start = tdr_cur_off(c);

	for (size_t i = 0; i < cap; i++) {
		int ret = tdr_cur_read(r, c, dst + i, 1);

		if (ret)
			return ret;
		if (!dst[i])
			return 0;
	}
	return tdr_fail(r, -TRACEDAT_E_BAD_STRING, start);
}

/* A string inside an option's data, NUL within len. */
const char *tdr_data_string(const uint8_t *data, size_t len, size_t *pos)
{
	const uint8_t *nul;

	if (*pos >= len)
		return NULL;
	nul = memchr(data + *pos, 0, len - *pos);
	if (!nul)
		return NULL;
	data += *pos;
	*pos += (size_t)(nul - data) + 1;
	return (const char *)data;
}

/* ------------------------------------------------------------------ */
/* compressed blocks */

/*
 * Decompress the block "u32 compressed size, u32 raw size, data" found at
 * the start of [off, off + size) into *out (counted, raw size + 1 bytes
 * for a NUL).  errs_at is the offset reported for malformed blocks.
 */
int tdr_load_block(struct tracedat_reader *r, uint64_t off, uint64_t size,
		   uint64_t errs_at, uint8_t **out, size_t *out_cap,
		   size_t *out_len)
{
	uint8_t h[8];
	uint32_t csize, rsize;
	size_t zcap = 0;
	uint8_t *z = NULL;
	int ret;

	if (size < 8)
		return tdr_fail(r, -TRACEDAT_E_BAD_SECTION, errs_at);
	ret = tdr_pread_all(r, h, 8, off);
	if (ret)
		return ret;
	csize = td_get32(h, r->be);
	rsize = td_get32(h + 4, r->be);
	if (csize > size - 8)
		return tdr_fail(r, -TRACEDAT_E_BAD_SECTION, errs_at);
	if (rsize > r->o.item_limit)
		return tdr_fail(r, -TRACEDAT_E_TOO_BIG, errs_at);
	if (csize > td_codec_bound(r->codec, rsize))
		return tdr_fail(r, -TRACEDAT_E_DECOMPRESS, errs_at);
	if ((ret = tdr_mem_grow(r, out, out_cap, (size_t)rsize + 1)) ||
	    (ret = tdr_mem_grow(r, &z, &zcap, csize ? csize : 1)))
		goto out;
	ret = tdr_pread_all(r, z, csize, off + 8);
	if (ret)
		goto out;
	ret = td_codec_decompress(&r->cctx, r->codec, *out, rsize, z, csize);
	if (ret) {
		ret = tdr_fail(r, ret, errs_at);
		goto out;
	}
	(*out)[rsize] = 0;
	*out_len = rsize;
out:
	tdr_mem_free(r, &z, &zcap);
	if (ret)
		ret = ret == -TRACEDAT_E_MEMLIMIT || ret == -TRACEDAT_E_NOMEM ?
		      tdr_fail(r, ret, errs_at) : ret;
	return ret;
}
