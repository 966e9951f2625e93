// SPDX-License-Identifier: MIT
/*
 * writer.c - appends checksummed, optionally zstd-compressed chunks to a
 * .iorec stream, gathering them into large writes.
 *
 * Chunks are only ever written whole from the output buffer in order, so
 * a crash or a full disk leaves at worst one partial chunk at the end,
 * which the reader recognises as a cut.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "fmt-util.h"
#include "iorec-format.h"

struct iorec_writer {
	int fd;
	int level;
	int failed;		/* negative iorec_error once a write failed */
	int saved_errno;
	uint32_t seq;
	uint8_t *buf;
	size_t len;
	size_t cap;
	uint64_t written;
	uint64_t raw_bytes;
	ZSTD_CCtx *cctx;
	uint8_t *zbuf;
	size_t zcap;
};

int iorec_writer_flush(struct iorec_writer *w)
{
	int ret;

	if (w->failed)
		return w->failed;
	if (!w->len)
		return 0;
	ret = fmt_write_all(w->fd, w->buf, w->len, NULL, &w->written);
	w->len = 0;
	if (ret) {
		w->saved_errno = errno;
		w->failed = fmt_write_nospc(errno) ? -IOREC_E_NOSPC :
			    -IOREC_E_IO;
		return w->failed;
	}
	return 0;
}

/* Make room for n more bytes, flushing first when the buffer is full. */
static int reserve(struct iorec_writer *w, size_t n)
{
	int ret;

	if (w->len + n <= w->cap)
		return 0;
	ret = iorec_writer_flush(w);
	if (ret)
		return ret;
	return fmt_grow((void **)&w->buf, &w->cap, n, 0) ? -IOREC_E_NOMEM : 0;
}

struct iorec_writer *iorec_writer_new(int fd, int zstd_level, size_t bufsize)
{
	struct iorec_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->fd = fd;
	w->level = zstd_level > 0 ? zstd_level : 3;
	w->cap = bufsize ? bufsize : (1u << 20);
	if (w->cap < 4096)
		w->cap = 4096;
	w->buf = malloc(w->cap);
	if (!w->buf) {
		free(w);
		return NULL;
	}
	memcpy(w->buf, IOREC_MAGIC, IOREC_MAGIC_LEN);
	iorec_put16(w->buf + 8, IOREC_VERSION_MAJOR);
	iorec_put16(w->buf + 10, IOREC_VERSION_MINOR);
	iorec_put32(w->buf + 12, 0);
	w->len = IOREC_FILE_HEADER_LEN;
	return w;
}

int iorec_writer_set_version(struct iorec_writer *w, uint16_t major,
			     uint16_t minor)
{
	if (major != IOREC_VERSION_MAJOR || minor > IOREC_VERSION_MINOR)
		return -IOREC_E_BAD_VERSION;
	/* the file header is still in the buffer before the first chunk */
	if (w->seq || w->written)
		return -IOREC_E_INVAL;
	iorec_put16(w->buf + 10, minor);
	return 0;
}

static int emit(struct iorec_writer *w, uint16_t type, uint16_t flags,
		const void *prefix, size_t prefix_len,
		const void *body, size_t body_len, size_t raw_len)
{
	size_t stored = prefix_len + body_len;
	uint32_t crc;
	uint8_t *h;
	int ret;

	if (w->failed)
		return w->failed;
	if (stored > IOREC_CHUNK_MAX_STORED || raw_len > IOREC_CHUNK_MAX_RAW)
		return -IOREC_E_BAD_LENGTH;
	ret = reserve(w, IOREC_CHUNK_HEADER_LEN + stored);
	if (ret)
		return ret;
	crc = iorec_crc32c(0, prefix, prefix_len);
	crc = iorec_crc32c(crc, body, body_len);
	h = w->buf + w->len;
	iorec_chunk_hdr_put(h, &(struct iorec_chunk_hdr){
		.type = type, .flags = flags, .seq = w->seq++,
		.stored_len = (uint32_t)stored, .raw_len = (uint32_t)raw_len,
		.payload_crc = crc });
	if (prefix_len)
		memcpy(h + IOREC_CHUNK_HEADER_LEN, prefix, prefix_len);
	if (body_len)
		memcpy(h + IOREC_CHUNK_HEADER_LEN + prefix_len, body, body_len);
	w->len += IOREC_CHUNK_HEADER_LEN + stored;
	w->raw_bytes += raw_len;
	return 0;
}

/* The error of a failed zstd call: memory, or the compression itself. */
static int zstd_error(size_t n)
{
	return ZSTD_getErrorCode(n) == ZSTD_error_memory_allocation ?
	       -IOREC_E_NOMEM : -IOREC_E_COMPRESS;
}

int iorec_compress(int level, const void *src, size_t len, uint8_t **out,
		   size_t *out_len)
{
	size_t cap = ZSTD_compressBound(len);
	uint8_t *dst = malloc(cap);
	size_t n;

	if (!dst)
		return -IOREC_E_NOMEM;
	n = ZSTD_compress(dst, cap, src, len, level);
	if (ZSTD_isError(n)) {
		free(dst);
		return zstd_error(n);
	}
	*out = dst;
	*out_len = n;
	return 0;
}

int iorec_writer_add(struct iorec_writer *w, uint16_t type,
		     const void *prefix, size_t prefix_len,
		     const void *body, size_t body_len, bool compress)
{
	size_t n;

	if (!compress || !body_len)
		return emit(w, type, 0, prefix, prefix_len, body, body_len,
			    prefix_len + body_len);
	if (!w->cctx) {
		w->cctx = ZSTD_createCCtx();
		if (!w->cctx)
			return -IOREC_E_NOMEM;
		ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_compressionLevel,
				       w->level);
		ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_checksumFlag, 0);
	}
	if (fmt_grow((void **)&w->zbuf, &w->zcap, ZSTD_compressBound(body_len),
		     0))
		return -IOREC_E_NOMEM;
	n = ZSTD_compress2(w->cctx, w->zbuf, w->zcap, body, body_len);
	if (ZSTD_isError(n))
		return zstd_error(n);
	return emit(w, type, IOREC_CF_ZSTD, prefix, prefix_len, w->zbuf, n,
		    prefix_len + body_len);
}

int iorec_writer_add_compressed(struct iorec_writer *w, uint16_t type,
				const void *prefix, size_t prefix_len,
				const void *zbody, size_t zbody_len,
				size_t raw_len)
{
	return emit(w, type, IOREC_CF_ZSTD, prefix, prefix_len, zbody,
		    zbody_len, prefix_len + raw_len);
}

uint64_t iorec_writer_written(const struct iorec_writer *w)
{
	return w->written;
}

size_t iorec_writer_pending(const struct iorec_writer *w)
{
	return w->len;
}

uint64_t iorec_writer_raw_bytes(const struct iorec_writer *w)
{
	return w->raw_bytes;
}

uint32_t iorec_writer_chunks(const struct iorec_writer *w)
{
	return w->seq;
}

int iorec_writer_errno(const struct iorec_writer *w)
{
	return w->saved_errno;
}

void iorec_writer_free(struct iorec_writer *w)
{
	if (!w)
		return;
	ZSTD_freeCCtx(w->cctx);
	free(w->zbuf);
	free(w->buf);
	free(w);
}
