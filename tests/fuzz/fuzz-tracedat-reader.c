// SPDX-License-Identifier: MIT
/*
 * fuzz-tracedat-reader.c - fuzz target for the trace.dat reader: any bytes
 * must be read to the end or to a named error with an offset inside the
 * file, without a crash, a loop or memory beyond the reader's limit.
 *
 * libFuzzer:  clang -g -O1 -fsanitize=fuzzer,address -DIOREC_LIBFUZZER \
 *               -Iformats tests/fuzz/fuzz-tracedat-reader.c \
 *               formats/tracedat-*.c -lzstd
 * In `make check` it is built with a main() that replays the files given
 * on the command line, every prefix at a stride (cut files) and the file
 * with one byte changed at a stride (tests/tracedat/corrupt.sh).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tracedat.h"
#include "tests/tracedat-walk.h"

#define MEM_LIMIT (8u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A page is its header plus commit bytes at least; no endless stream. */
static int check_page(void *ctx, const struct tracedat_buffer *b,
		      const struct tracedat_page *pg, uint64_t n)
{
	const struct tracedat_info *info = tracedat_reader_info(ctx);

	if (pg->commit + info->page_header_size > pg->len ||
	    pg->len > b->page_size || n > (1u << 24))
		abort();
	return 0;
}

/* Every page of every CPU of every buffer; returns the error or 0. */
static int walk(struct tracedat_reader *r, size_t size)
{
	struct tracedat_meta m;
	uint64_t err_off = 0;
	int ret;

	while ((ret = tracedat_reader_meta_next(r, &m)) > 0)
		if (m.data[m.len] != 0)
			abort();
	if (!ret)
		ret = tdwalk_pages(r, check_page, r, &err_off);
	if (ret < 0 && err_off > size)
		abort();
	return ret;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tracedat_read_opts o = { .mem_limit = MEM_LIMIT };
	struct tracedat_reader *r;
	uint64_t off;
	size_t peak;
	int fd, err;

	fd = memfd_create("fuzz", 0);
	if (fd < 0)
		return 0;
	if (size && write(fd, data, size) != (ssize_t)size)
		goto out;
	r = tracedat_reader_open_fd(fd, &o, &err, &off);
	if (!r) {
		if (err >= 0 || off > size)
			abort();
		goto out;
	}
	err = walk(r, size);
	if (err < 0 && tracedat_reader_error_offset(r) > size)
		abort();
	tracedat_reader_mem(r, &peak);
	if (peak > MEM_LIMIT)
		abort();
	tracedat_reader_close(r);
out:
	close(fd);
	return 0;
}

#ifndef IOREC_LIBFUZZER
int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf;
		long len;

		if (!f) {
			perror(argv[i]);
			return 1;
		}
		fseek(f, 0, SEEK_END);
		len = ftell(f);
		fseek(f, 0, SEEK_SET);
		buf = malloc(len ? (size_t)len : 1);
		if (fread(buf, 1, (size_t)len, f) != (size_t)len) {
			perror(argv[i]);
			return 1;
		}
		fclose(f);
		LLVMFuzzerTestOneInput(buf, (size_t)len);
		/* every prefix at a stride, as a cut file */
		for (long cut = 0; cut < len; cut += 1 + len / 256)
			LLVMFuzzerTestOneInput(buf, (size_t)cut);
		/* one byte changed at a stride, three ways in turn */
		for (long at = 0, k = 0; at < len; at += 1 + len / 128, k++) {
			static const uint8_t xors[] = { 0xff, 0x01, 0x40 };

			buf[at] ^= xors[k % 3];
			LLVMFuzzerTestOneInput(buf, (size_t)len);
			buf[at] ^= xors[k % 3];
		}
		free(buf);
		printf("ok %s\n", argv[i]);
	}
	return 0;
}
#endif
