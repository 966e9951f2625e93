// SPDX-License-Identifier: MIT
/*
 * tracedat-codec.c - zstd and zlib blocks of a version 7 trace.dat
 * (tracedat-codec.h).  zlib is there when the build has it (ioreport's
 * always does: configure requires it); a recorder-only build reads and
 * writes zstd and uncompressed files.
 */
#include "config.h"

#include <string.h>

#include <zstd.h>
#ifdef HAVE_ZLIB
#include <zlib.h>
#endif

#include "tracedat-codec.h"

int td_codec_by_name(const char *name)
{
	if (!strcmp(name, "none"))
		return TRACEDAT_CODEC_NONE;
	if (!strcmp(name, "zstd"))
		return TRACEDAT_CODEC_ZSTD;
#ifdef HAVE_ZLIB
	if (!strcmp(name, "zlib"))
		return TRACEDAT_CODEC_ZLIB;
#endif
	return -TRACEDAT_E_COMPRESSION;
}

const char *td_codec_name(enum tracedat_codec codec)
{
	switch (codec) {
	case TRACEDAT_CODEC_ZSTD: return "zstd";
	case TRACEDAT_CODEC_ZLIB: return "zlib";
	default: return "none";
	}
}

const char *td_codec_version(enum tracedat_codec codec)
{
	switch (codec) {
	case TRACEDAT_CODEC_ZSTD: return ZSTD_versionString();
#ifdef HAVE_ZLIB
	case TRACEDAT_CODEC_ZLIB: return zlibVersion();
#endif
	default: return "";
	}
}

size_t td_codec_bound(enum tracedat_codec codec, size_t raw)
{
#ifdef HAVE_ZLIB
	if (codec == TRACEDAT_CODEC_ZLIB)
		return compressBound((uLong)raw);
#endif
	(void)codec;
	return ZSTD_compressBound(raw);
}

long td_codec_compress(struct td_codec_ctx *x, enum tracedat_codec codec,
		       int level, void *out, size_t cap, const void *raw,
		       size_t len)
{
	size_t n;

#ifdef HAVE_ZLIB
	if (codec == TRACEDAT_CODEC_ZLIB) {
		uLongf zn = cap;

		if (compress2(out, &zn, len ? raw : (const void *)"", len,
			      level ? level : 6) != Z_OK)
			return -TRACEDAT_E_COMPRESS;
		return (long)zn;
	}
#endif
	if (codec != TRACEDAT_CODEC_ZSTD)
		return -TRACEDAT_E_INVAL;
	if (!x->zstd_c && !(x->zstd_c = ZSTD_createCCtx()))
		return -TRACEDAT_E_NOMEM;
	n = ZSTD_compressCCtx(x->zstd_c, out, cap, len ? raw : (const void *)"",
			      len, level ? level : 3);
	return ZSTD_isError(n) ? -TRACEDAT_E_COMPRESS : (long)n;
}

int td_codec_decompress(struct td_codec_ctx *x, enum tracedat_codec codec,
			void *out, uint32_t rsize, const void *in,
			uint32_t zsize)
{
	size_t got;

#ifdef HAVE_ZLIB
	if (codec == TRACEDAT_CODEC_ZLIB) {
		unsigned char none;
		uLongf n = rsize ? rsize : 1;

		/* an empty block still holds a whole zlib stream */
		if (uncompress(rsize ? out : &none, &n, in, zsize) != Z_OK ||
		    n != rsize)
			return -TRACEDAT_E_DECOMPRESS;
		return 0;
	}
#endif
	if (codec != TRACEDAT_CODEC_ZSTD)
		return -TRACEDAT_E_DECOMPRESS;
	if (!x->zstd_d && !(x->zstd_d = ZSTD_createDCtx()))
		return -TRACEDAT_E_NOMEM;
	got = ZSTD_decompressDCtx(x->zstd_d, out, rsize, in, zsize);
	return ZSTD_isError(got) || got != rsize ? -TRACEDAT_E_DECOMPRESS : 0;
}

void td_codec_release(struct td_codec_ctx *x)
{
	ZSTD_freeCCtx(x->zstd_c);
	ZSTD_freeDCtx(x->zstd_d);
	memset(x, 0, sizeof(*x));
}
