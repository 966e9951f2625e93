// SPDX-License-Identifier: MIT
/*
 * fuzz-iorec.c - fuzz target for the whole analysis of an .iorec file, as
 * `ioreport report` runs it, on inputs whose chunk checksums are repaired
 * first so that mutations reach the pages and metadata.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *buf = malloc(size ? size : 1);

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	fuzz_repair_iorec(buf, size);
	fuzz_keep(buf, size);
	fuzz_analyze(fuzz_file(buf, size), 0);
	free(buf);
	return 0;
}
