// SPDX-License-Identifier: MIT
/*
 * fuzz-db.c - fuzz target for `ioreport db`: an .iorec input (chunk
 * checksums repaired) loaded into an in-memory SQLite database through
 * the command itself.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *buf = malloc(size ? size : 1);
	const char *path;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	fuzz_repair_iorec(buf, size);
	fuzz_keep(buf, size);
	path = fuzz_file(buf, size);
	if (path) {
		char *argv[] = { "db", "-q", ":memory:", (char *)path, NULL };

		cmd_db(4, argv);
	}
	free(buf);
	return 0;
}
