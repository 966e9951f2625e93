/* SPDX-License-Identifier: MIT */
/*
 * tracedat-codec.h - the block compressions of a version 7 trace.dat, for
 * its writer and reader (not installed).  trace-cmd stores every
 * compressed section and page chunk as "u32 compressed size, u32 raw
 * size, data"; the data is a zstd frame or a zlib stream (compress2()),
 * named by the file header's compression string.
 */
#ifndef TRACEDAT_CODEC_H
#define TRACEDAT_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "tracedat.h"

/* A compressor's state, made on first use; zero-initialise it. */
struct td_codec_ctx {
	void *zstd_c;		/* ZSTD_CCtx */
	void *zstd_d;		/* ZSTD_DCtx */
};

/*
 * td_codec_by_name - the codec a header's compression string names
 * Return: a TRACEDAT_CODEC_* (TRACEDAT_CODEC_NONE for "none"), or
 * -TRACEDAT_E_COMPRESSION for a name this build does not read.
 */
int td_codec_by_name(const char *name);

/* The header strings of a codec: its name and the library's version. */
const char *td_codec_name(enum tracedat_codec codec);
const char *td_codec_version(enum tracedat_codec codec);

/* The largest compressed size of raw bytes. */
size_t td_codec_bound(enum tracedat_codec codec, size_t raw);

/*
 * td_codec_compress - raw into out (at least td_codec_bound(raw) bytes)
 * @level: the codec's level, 0 for its default
 * Return: the compressed size, or -TRACEDAT_E_NOMEM / -TRACEDAT_E_COMPRESS.
 */
long td_codec_compress(struct td_codec_ctx *x, enum tracedat_codec codec,
		       int level, void *out, size_t cap, const void *raw,
		       size_t len);

/*
 * td_codec_decompress - exactly rsize bytes out of zsize bytes of in
 * Return: 0, or -TRACEDAT_E_DECOMPRESS (corrupt, or another size) or
 * -TRACEDAT_E_NOMEM.
 */
int td_codec_decompress(struct td_codec_ctx *x, enum tracedat_codec codec,
			void *out, uint32_t rsize, const void *in,
			uint32_t zsize);

/* Free the contexts; x stays usable (zeroed). */
void td_codec_release(struct td_codec_ctx *x);

#endif /* TRACEDAT_CODEC_H */
