// SPDX-License-Identifier: MIT
/*
 * fuzz-common.c - inputs as in-memory files and CRC repair of .iorec
 * bytes, for every fuzz target (fuzz.h).
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "iorec-format.h"
#include "fuzz.h"

const char *fuzz_file(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[40];
	size_t done = 0;

	if (fd < 0) {
		fd = memfd_create("fuzz-input", MFD_CLOEXEC);
		if (fd < 0)
			return NULL;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) < 0)
		return NULL;
	while (done < size) {
		ssize_t k = pwrite(fd, data + done, size - done, (off_t)done);

		if (k <= 0)
			return NULL;
		done += (size_t)k;
	}
	return path;
}

void fuzz_repair_iorec(uint8_t *buf, size_t size)
{
	size_t off = IOREC_FILE_HEADER_LEN;

	while (off + IOREC_CHUNK_HEADER_LEN <= size) {
		uint32_t stored;

		if (iorec_get32(buf + off) != IOREC_CHUNK_MAGIC) {
			/* look for the next chunk, as a resync would */
			off++;
			continue;
		}
		stored = iorec_get32(buf + off + 12);
		if (stored > size - off - IOREC_CHUNK_HEADER_LEN) {
			iorec_put32(buf + off + 28, iorec_crc32c(0, buf + off, 28));
			off++;
			continue;
		}
		iorec_put32(buf + off + 20,
			    iorec_crc32c(0, buf + off + IOREC_CHUNK_HEADER_LEN,
					 stored));
		iorec_put32(buf + off + 28, iorec_crc32c(0, buf + off, 28));
		off += IOREC_CHUNK_HEADER_LEN + stored;
	}
}

void fuzz_keep(const uint8_t *data, size_t size)
{
	static const char *path;
	static bool looked;
	int fd;

	if (!looked) {
		path = getenv("FUZZ_WRITE_INPUT");
		looked = true;
	}
	if (!path)
		return;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (write(fd, data, size) != (ssize_t)size)
		perror(path);
	close(fd);
}
