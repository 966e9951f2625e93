/* SPDX-License-Identifier: MIT */
/*
 * sysreplay.h - ioreport's file-syscall replay: the syscall kinds it
 * knows, the enter -> exit pairing per thread (a state machine), the
 * per-kind aggregates (latencies in hist.h's histograms), and the
 * pipeline driver (decode-sys.c) that feeds a recording through the
 * syscall, process (proctable.h) and fd (fdtable.h) state machines.
 *
 * The state machines take plain structs, never print, and count their
 * anomalies; the driver only decodes and dispatches; the views
 * (cmd-procfiles.c) alone print.
 */
#ifndef IOREPORT_SYSREPLAY_H
#define IOREPORT_SYSREPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/imap.h"
#include "base/syskind.h"
#include "stats/hist.h"

/* ------------------------------------------------------------------ */
/* Enter -> exit pairing per thread */

struct sys_enter {
	uint64_t ts;
	int tid;
	int cpu;
	enum sys_kind kind;
	uint64_t args[SYS_MAX_ARGS];	/* ABI order, zero when unknown */
	const char *path;		/* path string if the event had one, or NULL */
};

struct sys_exit {
	uint64_t ts;
	int tid;
	int cpu;
	enum sys_kind kind;
	int64_t ret;
};

/* A completed call (or, with paired false, an exit whose enter is unknown). */
struct sys_call {
	enum sys_kind kind;
	int tid;
	bool paired;			/* false: args/start unknown */
	uint64_t start;			/* enter ts */
	uint64_t end;			/* exit ts */
	uint64_t args[SYS_MAX_ARGS];
	int64_t ret;
	const char *path;		/* valid until the next sysreplay call */
};

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
};

struct sysreplay;

struct sysreplay *sysreplay_new(void);
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
 * still apply what the return value alone says.
 */
int sysreplay_exit(struct sysreplay *sr, const struct sys_exit *x,
		   struct sys_call *out);
/*
 * The call thread tid is inside (its enter waits for its exit), or NULL.
 * Valid until the next sysreplay call.  Used by the attribution of block
 * I/O queued by a thread inside a file syscall (attrib.c).
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
/* End of the recording: count the enters still waiting. */
void sysreplay_finish(struct sysreplay *sr);
const struct sysreplay_stats *sysreplay_stats(const struct sysreplay *sr);

/* ------------------------------------------------------------------ */
/* Aggregates */

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

/* Per process (proc.user). */
struct procstat {
	struct kstat k[SK_NR];
	uint64_t calls, errors;
	uint64_t read_bytes, write_bytes;
	struct hist fsync;	/* fsync + fdatasync */
	struct blkio blk;
	uint64_t throttle_ns;	/* paused by balance_dirty_pages */
	uint64_t throttles;
	uint64_t dstate_ns;	/* blocked in D state (sched_switch recorded) */
	uint64_t dstates;
};

/* Per file (file.user). */
struct filestat {
	uint64_t opens;
	uint64_t reads, writes, read_bytes, write_bytes, errors;
	struct hist rlat, wlat, fsync;	/* fsync: every SKF_SYNC call on it */
	uint64_t n_fsync, n_fdatasync, n_sfr;	/* of which (paired calls) */
	struct blkio blk;
};

/* The aggregate of a process or a file, created when absent. */
struct proc;
struct file;
struct procstat *procstat_of(struct proc *p);
struct filestat *filestat_of(struct file *f);

void procstat_free(void *ps);
void filestat_free(void *fs);

/* ------------------------------------------------------------------ */
/* decode-sys.c: the pipeline driver */

struct source;
struct proctable;
struct filetab;

struct sysrun_stats {
	uint64_t events;		/* events read */
	uint64_t gaps;			/* lost-event gaps seen */
	uint64_t decode_errors;		/* fields that could not be read */
	uint64_t unknown_syscalls;	/* raw ids outside the table */
	uint64_t named_calls;		/* fd I/O calls on a named file */
	uint64_t unnamed_calls;
	uint64_t named_bytes;		/* bytes moved on named files */
	uint64_t unnamed_bytes;
	bool raw_syscalls;		/* raw_syscalls:* were decoded */
	bool syscall_events;		/* syscalls:sys_* were decoded */
	bool proc_events;		/* sched fork/exec/exit present */
	bool path_strings;		/* open events carried path strings */
	uint64_t path_hints;		/* paths from uprobe events (late hook) */
};

struct source_event;
struct sysrun_decoder;
struct proc;
struct file;

/*
 * Called for every call sysrun_account() aggregates (paired or not),
 * after its aggregates and fd table effects: p is the caller's process,
 * f the file of the call's fd (sys_call_fd(); for an open the new file,
 * for a close the file it closed), or NULL.  All are valid only during
 * the call.
 */
typedef void (*sys_call_fn)(void *arg, struct proc *p, struct file *f,
			    const struct sys_call *c);

struct sysrun {
	struct sysrun_decoder *dec;		/* decode-sys.c's, between begin and end */
	struct sysreplay *sr;
	struct proctable *pt;
	struct filetab *ft;
	struct sysrun_stats st;
	uint64_t first_ts, last_ts;
	/* set by the caller after sysrun_begin(), or NULL */
	sys_call_fn on_call;
	void *on_call_arg;
};

/*
 * The fd a call acts on: the new fd of a successful open, else for a
 * paired call the fd it writes, syncs or reads, or the first argument of
 * close/dup/fcntl; -1 when none is known.
 */
int sys_call_fd(const struct sys_call *c);

/*
 * sysrun_begin - set up the replay of a recording, to be fed one event at
 * a time, so one loop over source_next() can feed other state machines
 * (block replay, attribution) in the same pass
 * @run: zeroed; filled with the state machines and their aggregates;
 *   release with sysrun_release() (also after a failed begin)
 *
 * Loads the start/end snapshots.  Returns 0, or -1 with *errmsg set
 * (caller frees) when the recording has none of the events this replay
 * needs; sysrun_feed/sysrun_end are then no-ops.
 */
int sysrun_begin(struct sysrun *run, struct source *src, char **errmsg);
/* Feed one event (any type; those the replay does not use are counted). */
void sysrun_feed(struct sysrun *run, const struct source_event *ev);
/* End of the recording: count what is still open, name late fds. */
void sysrun_end(struct sysrun *run);
/* begin + feed every event + end. */
int sysrun_run(struct sysrun *run, struct source *src, char **errmsg);
/* Free the state machines and aggregates; accepts a zeroed run. */
void sysrun_release(struct sysrun *run);

/*
 * sysrun_account - the aggregation step for one call of process p:
 * updates p's procstat, the file's filestat and the fd table.  Exposed
 * for the unit tests; sysrun_run calls it for every completed call.
 */
struct proc;
void sysrun_account(struct sysrun *run, struct proc *p,
		    const struct sys_call *c);

#endif /* IOREPORT_SYSREPLAY_H */
