/* SPDX-License-Identifier: MIT */
/*
 * aio.h - the Linux AIO (libaio) request machine: the iocbs of each
 * io_submit (fd, operation, bytes: from iorec's uprobe on libaio, as the
 * syscall events carry only pointers) queued per context from the
 * syscall's return, and reaped in submission order by io_getevents and
 * io_pgetevents, each made into a completed call of an aio kind
 * (SK_AIO_*) that the syscall aggregates account like a read, write or
 * fsync of the submitting process on its fd's file.
 *
 * The events do not say which requests a reap returned, nor their
 * results: a request is taken as done with its bytes (aio_nbytes) at the
 * first reap after it, oldest first, so its latency is submit to reap.
 * Nothing here prints.
 */
#ifndef IOREPORT_REPLAY_AIO_H
#define IOREPORT_REPLAY_AIO_H

#include <stddef.h>
#include <stdint.h>

#include "base/syskind.h"

struct dec_aio;

struct aio_stats {
	uint64_t submitted;		/* requests io_submit accepted */
	uint64_t reaped;		/* of which reaped */
	uint64_t unnamed;		/* without their iocb (no libaio
					   uprobe, or past the probe's 8) */
	uint64_t reaped_unknown;	/* reaps of requests never seen */
	uint64_t cancelled;		/* io_cancel that succeeded */
	uint64_t open_at_end;		/* submitted, never reaped */
	uint64_t evicted;		/* dropped: too many queued */
};

struct aio_replay;

/* A new machine, or NULL: no memory. */
struct aio_replay *aio_new(void);
/* Free; accepts NULL. */
void aio_free(struct aio_replay *ar);
/* 0, or -AN_E_NOMEM once a request could not be kept for memory. */
int aio_error(const struct aio_replay *ar);

/* The iocbs thread tid is about to submit (the libaio uprobe). */
void aio_hint(struct aio_replay *ar, int tid, const struct dec_aio *a);
/*
 * aio_call - a paired io_submit, io_getevents, io_pgetevents, io_cancel
 * or io_destroy; then aio_next() gives the requests it reaped.
 */
void aio_call(struct aio_replay *ar, const struct sys_call *c);
/*
 * The next request the last aio_call() reaped: 1 with *out its call
 * (args[0] the fd, -1 unknown; start the submit, end the reap, ret the
 * bytes), 0 when there are no more.
 */
int aio_next(struct aio_replay *ar, struct sys_call *out);
/*
 * The fd every iocb of the io_submit thread tid is inside shares, or -1:
 * the file of the block I/O that call queues (bio-owner.c).
 */
int aio_submit_fd(const struct aio_replay *ar, int tid);
/* End of the recording: count the requests never reaped. */
void aio_finish(struct aio_replay *ar);
const struct aio_stats *aio_stats(const struct aio_replay *ar);

#endif /* IOREPORT_REPLAY_AIO_H */
