/* SPDX-License-Identifier: MIT */
/*
 * account.h - the syscall aggregates: every completed file syscall
 * counted for its process (struct procstat) and for the file of its fd
 * (struct filestat), latencies in hist.h's histograms, then applied to
 * the process's fd table (replay/proctable.h fd_apply()).  The block I/O
 * attributed to each (attrib.h) lives beside, in struct blkio.
 * Nothing here prints.
 */
#ifndef IOREPORT_STATS_ACCOUNT_H
#define IOREPORT_STATS_ACCOUNT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/hmap.h"
#include "base/syskind.h"
#include "stats/hist.h"

struct proc;
struct file;
struct proctable;
struct filetab;

/* One syscall kind of one process. */
struct kstat {
	uint64_t count;
	uint64_t errors;	/* ret < 0 */
	uint64_t bytes;		/* sum of ret >= 0 for read/write kinds */
	uint64_t unpaired;	/* exits counted without latency */
	struct hist lat;
};

/* Block I/O attributed to a process or a file (attrib.h), at the device. */
struct blkio {
	uint64_t requests;	/* requests whose first bio was this owner's */
	uint64_t read_bytes, write_bytes;
	uint64_t dev_ns;	/* device time (issue -> complete), by byte share */
	uint64_t journal_bytes;	/* journal commits its fsyncs waited for */
};

/* Add s's counts to d. */
void blkio_add(struct blkio *d, const struct blkio *s);

/*
 * The shape of the requests whose first bio was a process's, reads
 * ([0]) and writes ([1]) apart: their sizes and how many of them were
 * sequential on their device.
 */
struct blkshape {
	struct sizehist sizes[2];
	uint64_t seq[2];
};

/*
 * Per process (proc.user).  The syscall kinds a process used only (most
 * use a handful of the SK_NR): read them with procstat_kind().
 */
struct procstat {
	uint8_t ki[SK_NR];	/* kind -> 1 + index in kv, 0: never called */
	/* SK_NR < 256: see the _Static_assert in account.c */
	uint8_t nk, kalloc;
	struct kstat *kv;
	uint64_t calls, errors;
	uint64_t read_bytes, write_bytes;
	struct hist fsync;	/* fsync + fdatasync */
	struct blkio blk;
	struct blkshape *shape;	/* NULL until a request of its own */
	uint64_t throttle_ns;	/* paused by balance_dirty_pages */
	uint64_t throttles;
	uint64_t dstate_ns;	/* blocked in D state (sched_switch recorded) */
	uint64_t dstates;
};

/*
 * The calls of one process on one file (files --by): the same counts
 * as the file's own, split by the process that made them.
 */
struct fileproc {
	struct hnode h;		/* in filestat.idx, keyed by p */
	struct fileproc *next, *prev;
	const struct proc *p;
	uint64_t opens, reads, read_bytes, writes, write_bytes, errors;
	uint64_t fsyncs, fsync_ns, fsync_max_ns;	/* paired SKF_SYNC */
};

/* Per file (file.user). */
struct filestat {
	uint64_t opens;
	uint64_t reads, writes, read_bytes, write_bytes, errors;
	struct hist rlat, wlat, fsync;	/* fsync: every SKF_SYNC call on it */
	uint64_t n_fsync, n_fdatasync, n_sfr;	/* of which (paired calls) */
	struct blkio blk;
	struct fileproc *procs;	/* per process, the last one first */
	size_t nprocs;
	struct hmap *idx;	/* the cells by process, once there are many */
};

/* The calls of kind k of a process (all zero when it made none). */
extern const struct kstat kstat_none;
static inline const struct kstat *procstat_kind(const struct procstat *ps,
						int k)
{
	return ps->ki[k] ? &ps->kv[ps->ki[k] - 1] : &kstat_none;
}

/* The aggregate of a process or a file, created when absent; NULL: no memory. */
struct procstat *procstat_of(struct proc *p);
struct filestat *filestat_of(struct file *f);

/*
 * fileproc_of - the calls of p on the file of fs, added when absent (it
 * comes first); NULL: no memory.
 */
struct fileproc *fileproc_of(struct filestat *fs, const struct proc *p);
/* Add the cells of s to d's (of the same process, else new); 0 or
 * -AN_E_NOMEM. */
int fileproc_merge(struct filestat *d, const struct filestat *s);
/* Free fs's cells (its list and their index). */
void fileproc_free(struct filestat *fs);

void procstat_free(void *ps);
void filestat_free(void *fs);

/*
 * Called for every call account_call() counts (paired or not), after its
 * aggregates and fd table effects: p is the caller's process, f the file
 * of the call's fd (sys_call_fd(); for an open the new file, for a close
 * the file it closed), or NULL.  All are valid only during the call.
 */
typedef void (*sys_call_fn)(void *arg, struct proc *p, struct file *f,
			    const struct sys_call *c);

/* How much of the file I/O went to files with a name. */
struct account_stats {
	uint64_t named_calls;		/* fd I/O calls on a named file */
	uint64_t unnamed_calls;
	uint64_t named_bytes;		/* bytes moved on named files */
	uint64_t unnamed_bytes;
};

struct account {
	struct proctable *pt;		/* not owned */
	struct filetab *ft;
	sys_call_fn on_call;		/* or NULL */
	struct view_filter *filter;	/* the calls counted, or NULL: all */
	void *on_call_arg;
	struct account_stats st;	/* after account_end() */
	int err;			/* sticky: -AN_E_NOMEM (a call not
					   or not fully counted) */
};

/*
 * account_call - one completed call c of process p: p's procstat, the
 * filestat of the file its fd names (an unknown fd becomes an unnamed
 * file, counted), then its effects on p's fd table, then a->on_call.
 */
void account_call(struct account *a, struct proc *p, const struct sys_call *c);
/* End of the recording: count the bytes on named and unnamed files. */
void account_end(struct account *a);

#endif /* IOREPORT_STATS_ACCOUNT_H */
