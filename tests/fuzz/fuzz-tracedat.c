// SPDX-License-Identifier: MIT
/*
 * fuzz-tracedat.c - fuzz target for the whole analysis of a trace-cmd
 * trace.dat file, as `ioreport report` runs it.
 */
#include "config.h"

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_analyze(fuzz_file(data, size), 0);
	return 0;
}
