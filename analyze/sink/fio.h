/* SPDX-License-Identifier: MIT */
/*
 * fio.h - the fio replay sink (`ioreport export --fio DIR`): one fio iolog
 * (version 3: "TIMESTAMP FILE ACTION [OFFSET LENGTH]", microseconds from
 * the start of the recording) per process with file I/O, and
 * DIR/replay.fio, a job per iolog that replays it (or one iolog per
 * file, named as the file, with --per-file: each file's I/O replayed by
 * a job of its own, in parallel), the files renamed to
 * flat names relative to fio's working directory (fio 3.33 crashes on a
 * version 3 iolog under --directory), the iologs found through $IOLOGS,
 * and DIR/layout.fio, which first writes the files the replay reads:
 * "cd D && export IOLOGS=DIR && fio DIR/layout.fio && fio DIR/replay.fio"
 * runs the workload on another machine.
 *
 * Reads and writes (with the bytes the call returned), fsync, fdatasync
 * and sync_file_range ("sync": fio 3.33 drops "datasync" actions when it
 * replays), and hole punches (fallocate
 * with FALLOC_FL_PUNCH_HOLE, "trim") on regular files: the calls on
 * /proc, /sys, /dev, pipes and sockets are left out.  The offset of a
 * pread/pwrite is its argument; of a read/write, the bytes moved on that
 * fd since its open (lseek is not recorded).  Lines are written as the
 * pass completes the calls; memory holds the files and fds seen.
 */
#ifndef IOREPORT_SINK_FIO_H
#define IOREPORT_SINK_FIO_H

#include <stdbool.h>
#include <stdint.h>

#include "base/syskind.h"
#include "stats/stats.h"

struct fio_counts {
	uint64_t reads, writes, read_bytes, write_bytes;
	uint64_t syncs, datasyncs, trims;
	uint64_t iologs, files;
	uint64_t skipped;	/* calls on no regular file */
};

struct fio_export;

/*
 * fio_export_new - export into the directory dir (created when missing)
 * @err: on failure, one line naming the problem and the fix
 */
struct fio_export *fio_export_new(const char *dir, struct stats *st,
				  bool per_file, struct an_err *err);
/* The driver's on_call hook. */
void fio_export_call(void *fx, const struct sys_call *c, int proc_id,
		     int file_id);
/*
 * fio_export_finish - close every iolog and write DIR/replay.fio
 * Returns 0, or a negative AN_E_* with err filled.
 */
int fio_export_finish(struct fio_export *fx, struct fio_counts *counts,
		      struct an_err *err);
/* Free fx (closing what is still open); accepts NULL. */
void fio_export_free(struct fio_export *fx);

#endif /* IOREPORT_SINK_FIO_H */
