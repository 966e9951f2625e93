/* SPDX-License-Identifier: MIT */
/*
 * syscall.h - the file-syscall state machine: the enter -> exit pairing
 * per thread of the decoded sys_enter and sys_exit records (kinds in
 * base/syskind.h), with the path of an open that may arrive late.
 *
 * It takes plain structs, never prints, and counts its anomalies
 * (struct sysreplay_stats).
 */
#ifndef IOREPORT_REPLAY_SYSCALL_H
#define IOREPORT_REPLAY_SYSCALL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/syskind.h"

/* ------------------------------------------------------------------ */
/* Enter -> exit pairing per thread */

struct sysreplay_stats {
	uint64_t enters;
	uint64_t exits;
	uint64_t calls;			/* paired */
	uint64_t exit_without_enter;
	uint64_t enter_without_exit;	/* superseded by a later enter */
	uint64_t mismatched;		/* exit of another kind than the enter */
	uint64_t negative_time;		/* exit before enter: not paired */
	uint64_t lost_gap;		/* enters dropped at a lost-events gap */
	uint64_t open_at_end;		/* enters still waiting at the end */
	uint64_t exits_filtered;	/* exits of calls whose enter iorec
					   filters (SKF_ENTER_FILTERED): not
					   an anomaly, not accounted */
};

struct sysreplay;

/* A new pairing, or NULL: no memory. */
struct sysreplay *sysreplay_new(void);
/*
 * 0, or -AN_E_NOMEM once an enter or a path could not be kept for
 * memory (its call is then unpaired or unnamed).
 */
int sysreplay_error(const struct sysreplay *sr);
/* Free; accepts NULL. */
void sysreplay_free(struct sysreplay *sr);

/* A syscall entered: it waits for its exit on the same thread. */
void sysreplay_enter(struct sysreplay *sr, const struct sys_enter *e);
/*
 * sysreplay_exit - a syscall returned
 *
 * Returns 1 with *out filled when the exit pairs with the thread's enter;
 * 0 with *out filled (out->paired false) when it cannot be paired (no
 * enter, another kind, negative time: all counted), so the caller can
 * still apply what the return value alone says.  An exit of a kind whose
 * enters are filtered (SKF_ENTER_FILTERED) without its enter is such a 0
 * too, counted as exits_filtered: the caller drops it.
 */
int sysreplay_exit(struct sysreplay *sr, const struct sys_exit *x,
		   struct sys_call *out);
/*
 * The call thread tid is inside (its enter waits for its exit), or NULL.
 * Valid until the next sysreplay call.  Used by the attribution of block
 * I/O queued by a thread inside a file syscall (bio-owner.c).
 */
const struct sys_enter *sysreplay_pending(const struct sysreplay *sr, int tid);
/*
 * Events were lost on cpu: drop (and count) the waiting enters of the
 * threads last seen on that CPU, so no pair spans the gap.
 */
void sysreplay_gap(struct sysreplay *sr, int cpu);
/*
 * The "path arrives late" hook: a path for thread tid's open that is
 * waiting, or (if none is) for its next enter.  Used by sources of names
 * that fire around the syscall (libc uprobes).
 */
void sysreplay_set_path(struct sysreplay *sr, int tid, const char *path);
/*
 * The second path of a rename or link (the new name) from the same late
 * source, for thread tid's next enter; given before that enter, with
 * sysreplay_set_path() for the first.
 */
void sysreplay_set_path2(struct sysreplay *sr, int tid, const char *path2);
/* End of the recording: count the enters still waiting. */
void sysreplay_finish(struct sysreplay *sr);
const struct sysreplay_stats *sysreplay_stats(const struct sysreplay *sr);

#endif /* IOREPORT_REPLAY_SYSCALL_H */
