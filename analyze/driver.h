/* SPDX-License-Identifier: MIT */
/*
 * driver.h - one pass over a recording that feeds every state machine
 * and aggregator the views need: the decoding (decode/), the block
 * request replay (per device and operation counts and latency
 * histograms, the slowest requests, an optional per-request callback
 * for snoop and the database), lost events per CPU, the tasks seen,
 * and, when asked, the syscall/process/fd replay, the attribution of
 * block I/O, write amplification and dirty throttling.  The views print
 * from the result.
 *
 * Memory is bounded whatever the length of the recording: fixed-size
 * histograms, a fixed-size heap of the N slowest requests, pending
 * requests freed on completion, a fixed bitmap of task ids, a
 * fixed-size heap of the N slowest syscalls.
 *
 * Hooks let a command see the pass as it goes without a second reading:
 * every completed request (on_request), every syscall (on_call).
 */
#ifndef IOREPORT_DRIVER_H
#define IOREPORT_DRIVER_H

#include <stdbool.h>
#include <stdint.h>

#include "input/meta.h"
#include "stats/stats.h"
#include "decode/decode.h"
#include "replay/block.h"
#include "replay/syscall.h"
#include "replay/window.h"
#include "stats/account.h"
#include "stats/attrib.h"

struct source;
struct source_info;
struct an_err;
struct view_filter;

/* What to compute (driver.want). */
#define AN_BLOCK	0x01	/* block replay: devices, slow requests */
#define AN_SYS		0x02	/* syscall/process/fd replay (replay/) */
#define AN_ATTRIB	0x04	/* block I/O to processes and files (attrib.h);
				   implies AN_SYS and AN_BLOCK */
#define AN_WA		0x08	/* write amplification, jbd2, fsync/flushes
				   (wa.h); implies AN_ATTRIB */
#define AN_DIRTY	0x10	/* dirty throttling and writeback (dirty.h) */

/* Called for every completed request during the pass (snoop, db). */
typedef void (*blk_done_fn)(const struct blk_done *d, void *arg);
/*
 * Called for every syscall the replay completed: the call, the id of its
 * process (struct proc_info.id of stats/rows.h) and of the file of its
 * fd (struct file_info.id), -1 when none.
 */
typedef void (*call_done_fn)(void *arg, const struct sys_call *c,
			     int proc_id, int file_id);

/* The rows of driver.c's stage table. */
#define DRIVER_STAGES	8

struct driver {
	/* set by the caller before driver_run() */
	unsigned int want;
	size_t slow_n;			/* 0: no slow heap */
	blk_done_fn on_request;		/* each completed request, or NULL */
	void *on_request_arg;
	call_done_fn on_call;		/* each syscall (AN_SYS), or NULL */
	void *on_call_arg;
	/*
	 * the view filters (stats/filter.h), or NULL: the requests and
	 * syscalls they keep are the only ones the aggregates, the slow
	 * heaps and the hooks see; filled with the counts
	 */
	struct view_filter *filter;
	/* the slowest syscalls: on every fd, not only files and disks */
	bool slow_all_fds;

	/* input, after driver_open() */
	struct source *src;
	const struct source_info *info;

	/* what the stages computed: what sinks print */
	struct stats st;

	/* the stages */
	struct decoder *dec;
	const struct dec_caps *caps;	/* what the recording has */
	struct windows *win;		/* the per-thread windows */
	bool win_kind[DK_NR];		/* kinds the windows take */
	struct replay_block *rb;	/* NULL: no block events */
	struct sys_replay {
		struct sysreplay *sr;	/* the enter -> exit pairing */
		struct proctable *pt;	/* processes and their fd tables */
		struct filetab *ft;	/* the files */
		struct account acct;	/* the syscall aggregates */
		struct uring_replay *ur; /* io_uring requests, or NULL */
		struct aio_replay *ar;	/* libaio requests */
	} sys;				/* when st.have_sys */
	struct owners *ow;		/* NULL: no attribution */
	struct attrib *at;		/* NULL: no attribution */
	struct wa *wa;			/* AN_WA */
	struct dirty *dirty;		/* AN_DIRTY */
	struct meta_bdevs bdevs;	/* the start snapshot's block devices */
	struct meta_mounts mounts;	/* and its mounts (for -d) */
	char sys_why[512];
	int err;			/* a hook's -AN_E_NOMEM */
	/* per kind, the rows of driver.c's stage table that take it, in
	   order (index + 1, 0-ended), and the rows set up for this pass */
	unsigned char route[DK_NR][DRIVER_STAGES + 1];
	bool stage_on[DRIVER_STAGES];
	int self_tid;			/* self_call()'s last thread asked */
	bool self_is;			/* and whether it is the recorder's */
};

/*
 * driver_open - open the recording at path ("-": standard input)
 * @d: zeroed; d->src and d->info are set, the stages not yet run
 *
 * Returns 0, or a negative AN_E_* with err set to a one-line message
 * naming the file, the problem and the fix.  driver_close() after
 * either.
 */
/*
 * driver_select_comms - resolve -c of f over the whole recording at path
 * (a first pass over its process events): the processes that had one of
 * the names at any time, with their threads, are what filter_proc() and
 * filter_task() keep from then on.  Nothing to do without -c.  Returns
 * 0, or a negative AN_E_* with err filled.
 */
int driver_select_comms(const char *path, struct view_filter *f,
			struct an_err *err);
int driver_open(struct driver *d, const char *path, struct an_err *err);

/*
 * driver_run - read the whole recording once through the stages asked
 * for (d->want) and finish them
 * @d: opened, with want, slow_n (the slowest requests and, with AN_SYS,
 *   syscalls to keep) and the hooks set; filled with the results
 *
 * A recording that lacks the events of one part (no block events, no
 * syscalls) is not an error: that part is empty and block_why/sys_why
 * say why.  Returns 0, or a negative AN_E_* with err set (out of
 * memory: no stage exits; the pass fails and nothing of it is printed).
 */
int driver_run(struct driver *d, struct an_err *err);

/* Free the stages, their results and the recording; accepts a zeroed d. */
void driver_close(struct driver *d);

#endif /* IOREPORT_DRIVER_H */
