// SPDX-License-Identifier: MIT
/*
 * fuzz-reader.c - fuzz target for the .iorec reader: any bytes must be
 * read to a clean end or a named error, without a crash or a loop.
 *
 * libFuzzer:  clang -g -O1 -fsanitize=fuzzer,address -DIOREC_LIBFUZZER \
 *               -Iformats tests/fuzz/fuzz-reader.c formats/[a-z]*.c -lzstd
 * In `make check` it is built with a main() that replays the files given
 * on the command line (the corrupt corpus and the samples).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "iorec-format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct iorec_reader *r;
	struct iorec_chunk c;
	int fd, err, ret;
	unsigned int n = 0;

	fd = memfd_create("fuzz", 0);
	if (fd < 0)
		return 0;
	if (size && write(fd, data, size) != (ssize_t)size)
		goto out;
	lseek(fd, 0, SEEK_SET);
	r = iorec_reader_open_fd(fd, &err);
	if (!r)
		goto out;
	while ((ret = iorec_reader_next(r, &c, true)) > 0) {
		/* Each chunk consumes at least its header: no endless loop. */
		if (++n > size / IOREC_CHUNK_HEADER_LEN + 1)
			abort();
		if (c.type == IOREC_CHUNK_HEADER) {
			struct iorec_header h;

			iorec_header_parse(c.payload, c.payload_len, &h);
		}
	}
	if (ret < 0 && iorec_reader_error_offset(r) > size)
		abort();
	iorec_reader_close(r);
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
		/* and every prefix at a stride, as a cut file */
		for (long cut = 0; cut < len; cut += 1 + len / 512)
			LLVMFuzzerTestOneInput(buf, (size_t)cut);
		free(buf);
		printf("ok %s\n", argv[i]);
	}
	return 0;
}
#endif
