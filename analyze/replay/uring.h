/* SPDX-License-Identifier: MIT */
/*
 * uring.h - the io_uring request machine: each request from its submit
 * (io_uring_submit_req, by the submitting thread or the SQPOLL thread)
 * through the fd it resolves (io_uring_file_get, inline or in an iou-wrk
 * worker) to its completion (io_uring_complete), made into a completed
 * call of a uring kind (base/syskind.h: SK_URING_*) that the syscall
 * aggregates account like a read, write or fsync of the submitting
 * process, on the file its fd names.
 *
 * A request is known by ring and req, or by ring and user_data where a
 * kernel's events lack req (5.x before 5.18).  Requests on registered
 * (fixed) files carry no fd in any event: their bytes go to the process
 * only, counted.  Nothing here prints.
 */
#ifndef IOREPORT_REPLAY_URING_H
#define IOREPORT_REPLAY_URING_H

#include <stdbool.h>
#include <stdint.h>

#include "base/syskind.h"

struct dec_ev;

struct uring_stats {
	uint64_t submits;
	uint64_t completes;		/* of requests followed */
	uint64_t complete_unknown;	/* completion without its submit */
	uint64_t resubmitted;		/* a request submitted again before
					   its completion was seen */
	uint64_t fixed_file;		/* on registered files: no file known */
	uint64_t fixed_guessed;		/* on the one registered file: the
					   process's file opened last */
	uint64_t no_file;		/* read/write whose fd was never seen */
	uint64_t fd_ops;		/* opens, closes, accepts through the
					   ring: the fd table does not follow */
	uint64_t name_ops;		/* renames, unlinks, links through the
					   ring: not followed */
	uint64_t open_at_end;		/* submitted, never completed */
	uint64_t evicted;		/* dropped: too many in flight */
};

struct uring_replay;

/* A new machine, or NULL: no memory. */
struct uring_replay *uring_new(void);
/* Free; accepts NULL. */
void uring_free(struct uring_replay *u);
/* 0, or -AN_E_NOMEM once a request could not be kept for memory. */
int uring_error(const struct uring_replay *u);

/*
 * uring_feed - one DK_URING_* event
 *
 * Returns 1 when a request of a kind accounted (read, write, fsync)
 * completed: *out is the call (args[0] the fd, -1 when unknown; start
 * the submit, end the completion; ret the result) and *tid the thread
 * that submitted it (the ring's owner for the SQPOLL thread).  Else 0.
 */
int uring_feed(struct uring_replay *u, const struct dec_ev *ev,
	       struct sys_call *out, int *tid);
/*
 * What uring_feed() returns when a ring registered exactly one file: the
 * events never name it, so the caller guesses the fd from thread *tid's
 * process (its last file opened) and gives it to uring_fixed_guess().
 */
#define URING_FIXED_GUESS	2
/* The fd (or -1) the fixed-file requests of ring ctx act on. */
void uring_fixed_guess(struct uring_replay *u, uint64_t ctx, int fd);
/*
 * The request thread tid issues now (between its submit or file_get
 * and its completion), as an enter of its uring kind with args[0] its
 * fd; or NULL.  Valid until the next uring call.  Used by the
 * attribution of the bios and dirtied pages of that thread.  A worker
 * (an iou-wrk thread: worker true) with no request of its own takes the
 * oldest request punted to the workers (io_uring_queue_async_work) and
 * not yet complete: the next one a worker runs when the work is hashed
 * (buffered writes to one file run in order on one worker).
 */
const struct sys_enter *uring_current(struct uring_replay *u, int tid,
				      bool worker);
/* End of the recording: count the requests never completed. */
void uring_finish(struct uring_replay *u);
const struct uring_stats *uring_stats(const struct uring_replay *u);

#endif /* IOREPORT_REPLAY_URING_H */
