// SPDX-License-Identifier: MIT
/*
 * fuzz-reader.c - fuzz target for the .iorec container reader alone: any
 * bytes must be read, resynchronising after each damaged chunk, to a
 * clean end or a named error, without a crash or a loop.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iorec-format.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	struct iorec_reader *r;
	struct iorec_chunk c;
	int err, ret;
	unsigned int n = 0;

	if (!path)
		return 0;
	r = iorec_reader_open(path, &err);
	if (!r)
		return 0;
	while ((ret = iorec_reader_next(r, &c, true)) != 0) {
		/*
		 * Each chunk consumes at least its header, each resync moves
		 * forward: no endless loop.
		 */
		if (++n > 2 * (size / IOREC_CHUNK_HEADER_LEN) + 2)
			abort();
		if (ret < 0) {
			struct iorec_gap gap;
			uint64_t off = iorec_reader_error_offset(r);

			if (off > size)
				abort();
			ret = iorec_reader_resync(r, &gap);
			if (ret <= 0)
				break;
			if (gap.offset != off || !gap.length ||
			    gap.offset + gap.length > size)
				abort();
			continue;
		}
		if (c.offset + IOREC_CHUNK_HEADER_LEN + c.stored_len > size ||
		    c.payload_len != c.raw_len)
			abort();
		if (c.type == IOREC_CHUNK_HEADER) {
			struct iorec_header h;

			iorec_header_parse(c.payload, c.payload_len, &h);
		}
	}
	iorec_reader_close(r);
	return 0;
}
