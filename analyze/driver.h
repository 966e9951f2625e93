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

#include "stats/hist.h"
#include "decode/decode.h"
#include "replay/block.h"
#include "replay/syscall.h"
#include "replay/window.h"
#include "stats/account.h"
#include "stats/attrib.h"

struct source;
struct source_info;
struct an_err;

/* What to compute (driver.want). */
#define AN_BLOCK	0x01	/* block replay: devices, slow requests */
#define AN_SYS		0x02	/* syscall/process/fd replay (replay/) */
#define AN_ATTRIB	0x04	/* block I/O to processes and files (attrib.h);
				   implies AN_SYS and AN_BLOCK */
#define AN_WA		0x08	/* write amplification, jbd2, fsync/flushes
				   (wa.h); implies AN_ATTRIB */
#define AN_DIRTY	0x10	/* dirty throttling and writeback (dirty.h) */

/* One device and operation. */
struct devstat {
	uint32_t dev;
	enum blk_op op;
	uint64_t reqs, bytes, fua, preflush, errors;
	struct hist queue;	/* insert -> issue (Q2D), when both seen */
	struct hist device;	/* issue -> complete (D2C) */
	struct hist total;	/* insert (or issue) -> complete (Q2C) */
};

/* A fixed-size min-heap of the N requests with the largest total time. */
struct slowheap {
	size_t cap, n;
	struct blk_done *v;
};

/* Lost events seen in the data of one CPU. */
struct lostcpu {
	uint64_t gaps;		/* records preceded by a gap */
	uint64_t events;	/* known lost counts summed */
	uint64_t unknown;	/* gaps of unknown size */
	uint64_t first_gap_ts;	/* 0: none */
};

/* Called for every completed request during the pass (snoop). */
typedef void (*blk_done_fn)(const struct blk_done *d, void *arg);

/* A completed syscall kept among the slowest (enter -> exit). */
struct slow_call {
	enum sys_kind kind;
	int pid, tid;
	char comm[16];			/* the process's comm at the call */
	int fd;				/* -1: none */
	const struct file *file;	/* of fd, or NULL; valid until
					   driver_close() */
	uint64_t start, end;		/* enter and exit ts */
	int64_t ret;
	uint64_t bytes;			/* moved by a read/write kind */
};

/* A fixed-size min-heap of the N paired calls with the largest latency. */
struct callheap {
	size_t cap, n;
	struct slow_call *v;
};

struct driver {
	/* set by the caller before driver_run() */
	unsigned int want;
	size_t slow_n;			/* 0: no slow heap */
	blk_done_fn on_request;		/* each completed request, or NULL */
	void *on_request_arg;
	sys_call_fn on_call;		/* each syscall (AN_SYS), or NULL */
	void *on_call_arg;

	/* results */
	struct source *src;
	const struct source_info *info;
	uint64_t events;
	uint64_t first_ts, last_ts;	/* of the events read */
	int nr_cpus;
	struct lostcpu *lost;		/* nr_cpus of them */
	uint64_t tasks;			/* distinct common_pid seen (not 0) */

	struct replay_block *rb;	/* NULL: no block events */
	const char *block_why;		/* why rb is NULL */
	struct blk_anomalies blk_an;
	struct devstat *dev;		/* sorted by device then op */
	size_t ndev, dev_alloc;
	struct slowheap slow;
	struct callheap slow_calls;	/* with AN_SYS and slow_n */

	struct decoder *dec;
	const struct dec_caps *caps;	/* what the recording has */
	const struct dec_stats *dstats;	/* what decoding met */
	struct windows *win;		/* the per-thread windows */

	bool have_sys;			/* sys replayed */
	char *sys_why;			/* why not (heap) */
	struct sys_replay {
		struct sysreplay *sr;	/* the enter -> exit pairing */
		struct proctable *pt;	/* processes and their fd tables */
		struct filetab *ft;	/* the files */
		struct account acct;	/* the syscall aggregates */
	} sys;
	struct attrib *at;		/* NULL: no attribution */
	struct wa *wa;			/* AN_WA */
	struct dirty *dirty;		/* AN_DIRTY */
	int hz;				/* the recording kernel's (250 when
					   unknown): jbd2 stats in jiffies */

	/* private */
	uint8_t *pidmap;
	bool ended;
};

/*
 * driver_open - open the recording at path ("-": standard input)
 * @d: zeroed; d->src and d->info are set, the stages not yet run
 *
 * Returns 0, or a negative AN_E_* with err set to a one-line message
 * naming the file, the problem and the fix.  driver_close() after
 * either.
 */
int driver_open(struct driver *d, const char *path, struct an_err *err);

/*
 * driver_run - read the whole recording once through the stages asked
 * for (d->want) and finish them
 * @d: opened, with want, slow_n (the slowest requests and, with AN_SYS,
 *   syscalls to keep) and the hooks set; filled with the results
 *
 * A recording that lacks the events of one part (no block events, no
 * syscalls) is not an error: that part is empty and block_why/sys_why
 * say why.  Returns 0, or a negative AN_E_* with err set.
 */
int driver_run(struct driver *d, struct an_err *err);

/* Free the stages, their results and the recording; accepts a zeroed d. */
void driver_close(struct driver *d);

/* The slowest requests, slowest first (sorts the heap in place). */
const struct blk_done *driver_slowest(struct driver *d, size_t *n);
/* The slowest syscalls, slowest first (sorts the heap in place). */
const struct slow_call *driver_slowest_calls(struct driver *d, size_t *n);

/*
 * The file a request was attributed to, or NULL: during the pass the
 * files known so far, after it also the inodes tied at the end.
 */
const char *driver_file(struct driver *d, const struct blk_done *done);

/* A counter of what a state machine of the replay could not pair or decode. */
struct anomaly {
	const char *stage;	/* block, syscall, process, fd, decode, attrib */
	const char *key;	/* JSON key and name in the database */
	const char *text;	/* for a text line */
	uint64_t n;
};

#define ANOMALIES_MAX	40

/*
 * driver_anomalies - every anomaly counter of the replay, in a fixed
 * order: the block ones (with block events), the syscall, process, fd
 * and decode ones (with syscalls), the attribution ones (with it)
 * @v: ANOMALIES_MAX entries
 *
 * The one list the views, their JSON and the database take them from.
 */
size_t driver_anomalies(const struct driver *d, struct anomaly *v);

#endif /* IOREPORT_DRIVER_H */
