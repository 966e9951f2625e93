/* SPDX-License-Identifier: MIT */
/*
 * fuzz.h - what the fuzz targets of tests/fuzz/ share: the libFuzzer
 * entry point, inputs handed to the analyzer as files, CRC repair of
 * .iorec inputs, and the analysis pass that `ioreport report` runs.
 *
 * Each target is one small LLVMFuzzerTestOneInput() calling the
 * analyzer's own functions.  Built with --enable-fuzzing it is a libFuzzer
 * binary; otherwise fuzz-main.c adds a main() that replays files.
 */
#ifndef IOREC_FUZZ_H
#define IOREC_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * fuzz_file - put data into the target's one in-memory file (a memfd,
 * rewritten at each call) and return a path that opens it
 * ("/proc/self/fd/N"), or NULL when no memfd can be made.
 */
const char *fuzz_file(const uint8_t *data, size_t size);

/*
 * fuzz_repair_iorec - rewrite the header and payload CRCs of every chunk
 * of the .iorec bytes in buf (wherever a chunk magic starts a chunk), so
 * that a mutation reaches what the chunk holds instead of failing its
 * checksum.  Chunks that run past the end are left alone.
 */
void fuzz_repair_iorec(uint8_t *buf, size_t size);

/*
 * fuzz_keep - when $FUZZ_WRITE_INPUT names a file, write there the bytes
 * the target hands to the analyzer (CRCs repaired, the recording built):
 * a finding becomes a file ioreport reads as it is
 */
void fuzz_keep(const uint8_t *data, size_t size);

/*
 * fuzz_analyze - open path as `ioreport report` does and run its whole
 * analysis (block and syscall replay, attribution, the slowest requests
 * and calls, the anomaly counters), printing nothing
 * @print_events: also format this many events as `ioreport dump` does
 *   (into memory)
 *
 * Returns 0 when the file opened, -1 when source_open() refused it.
 */
int fuzz_analyze(const char *path, unsigned int print_events);

/*
 * Optional one-time setup of a target, called by libFuzzer and by the
 * replay main() before the first input (a weak symbol: most targets have
 * none).
 */
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

#endif /* IOREC_FUZZ_H */
