/* SPDX-License-Identifier: MIT */
/*
 * record.h - internal interfaces between the parts of iorec: the event
 * plan (profile.c), the tracefs instance (instance.c), the context snapshot
 * (snapshot.c) and the per-CPU ring-buffer reader (ringbuf.c).
 *
 * None of these functions exit; they return -1 (after printing one error
 * line with error()) or a negative iorec_error, and iorec.c decides.
 */
#ifndef IOREC_RECORD_H
#define IOREC_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "util.h"

struct tracefs_instance;
struct iorec_writer;

/* ------------------------------------------------------------------ */
/* profile.c: which events to record */

#define PROFILE_IO	0x1
#define PROFILE_IOWAIT	0x2

enum plan_state {
	PLAN_OK,		/* present, will be enabled */
	PLAN_MISSING,		/* absent: costs the analysis something */
	PLAN_REPLACED,		/* absent, another event stands in */
	PLAN_SKIPPED,		/* not needed (e.g. syscalls:* under raw mode) */
};

struct plan_event {
	char *system;
	char *name;
	const char *cost;	/* what the analysis loses without it */
	const char *note;	/* "replaced by ..." and such, may be NULL */
	enum plan_state state;
	bool optional;		/* absence is normal on many kernels */
	bool user;		/* asked for with -e */
};

struct plan {
	struct plan_event *ev;
	size_t nev;
	size_t alloc;
	unsigned int profiles;	/* PROFILE_* */
	bool raw_syscalls;	/* record raw_syscalls:* with an id filter */
	bool raw_forced;	/* --raw-syscalls rather than a fallback */
	char *raw_filter;	/* "id == 0 || id == 1 ..." or NULL */
	int nsyscalls;		/* syscalls of interest on this machine */
	int nsyscalls_found;	/* of which syscalls:* events exist */
	int nusers_missing;	/* -e events that do not exist */
};

/*
 * plan_build - decide which events to record
 * @p: zeroed plan to fill; release with plan_release()
 * @profiles: PROFILE_* bits
 * @user_events: -e arguments ("sys:event" or "sys:*"), @nuser of them
 * @raw_syscalls: --raw-syscalls was given
 *
 * Looks only at the top-level events directory (read-only).  Returns 0, or
 * -1 when the events directory cannot be read.
 */
int plan_build(struct plan *p, unsigned int profiles, char **user_events,
	       int nuser, bool raw_syscalls);
void plan_release(struct plan *p);
/* Number of events in state PLAN_OK. */
size_t plan_count_ok(const struct plan *p);
/* Print the plan's event lines to f; verbose also lists the present ones. */
void plan_print_events(const struct plan *p, FILE *f, bool verbose);
/* Warn (stderr) about every missing non-optional event, once. */
void plan_warn_missing(const struct plan *p, bool verbose);
/*
 * plan_enable - set the raw_syscalls filter and enable every PLAN_OK event
 * in @inst.  An event that fails to enable is turned into PLAN_MISSING with
 * a warning.  Returns the number enabled, or -1 if none could be.
 */
int plan_enable(struct plan *p, struct tracefs_instance *inst);
/*
 * plan_write_formats - append one EVENT_FORMAT chunk per enabled event and
 * the SYSCALLS chunk.  Returns 0 or a negative iorec_error.
 */
int plan_write_formats(const struct plan *p, struct tracefs_instance *inst,
		       struct iorec_writer *w);
/* Profile names as a comma list ("io,iowait"), static storage. */
const char *plan_profile_names(unsigned int profiles);
/* Parse a -p list into PROFILE_* bits; -1 on an unknown name. */
int plan_parse_profiles(const char *list);

/* Add an event known to exist (a uprobe iorec created) as PLAN_OK. */
void plan_add_ok(struct plan *p, const char *system, const char *name,
		 const char *cost);

/* ------------------------------------------------------------------ */
/* uprobe.c: path strings from uprobes on libc's open functions */

struct tracefs_dynevent;

#define UPROBES_MAX 10

struct uprobes {
	char group[32];		/* "iorec_PID" */
	struct tracefs_dynevent *ev[UPROBES_MAX];
	char names[UPROBES_MAX][48];
	int n;
	bool verbose;
};

/* Does this kernel have uprobe events (CONFIG_UPROBE_EVENTS)? */
bool uprobes_supported(void);
/* Number of distinct libc probe points that would be created. */
int uprobes_available(void);
/*
 * uprobes_create - create the uprobe events of group iorec_PID.  Returns
 * how many were created (0 when unsupported).  Undo with uprobes_destroy().
 */
int uprobes_create(struct uprobes *u, bool verbose);
/* Remove the events created; safe to call twice. */
void uprobes_destroy(struct uprobes *u);
/* Remove uprobe groups iorec_PID whose PID is dead.  Returns how many. */
int uprobes_remove_stale(bool verbose);

/* ------------------------------------------------------------------ */
/* instance.c: the tracefs instance iorec-PID */

struct rec_instance {
	struct tracefs_instance *ti;
	char name[32];
	char clock[16];		/* "mono", or "global" as a fallback */
	int ncpus;		/* per-CPU buffers of the instance */
};

/*
 * tracefs_ready - make sure tracefs is mounted (mounting it if needed).
 * Returns 0, or -1 after printing the one-line error.
 */
int tracefs_ready(void);
/* Remove instances iorec-PID whose PID is dead.  Returns how many. */
int instance_remove_stale(bool verbose);
/*
 * instance_create - create instances/iorec-PID and configure it: tracing
 * off, clock mono (or global), buffer size, buffer_percent, own pid
 * excluded.  Returns 0 or -1 (the instance is then already removed).
 */
int instance_create(struct rec_instance *ri, unsigned int buffer_kb,
		    unsigned int percent);
/* Remove the instance and free it; safe to call twice or on a failed one. */
void instance_destroy(struct rec_instance *ri);
/* Turn tracing on or off in the instance.  Returns 0 or -1. */
int instance_tracing(struct rec_instance *ri, bool on);
/* Number of possible CPUs that have a per_cpu buffer directory. */
int instance_count_cpus(struct tracefs_instance *ti);
/*
 * instance_stats - append "cpu\tN\tkey\tvalue\n" lines of
 * per_cpu/cpuN/stats to @sb and return the sum of overrun + dropped
 * events of cpu N via *lost.  Returns 0 or -1 when stats are unreadable.
 */
int instance_cpu_stats(struct rec_instance *ri, int cpu, struct strbuf *sb,
		       uint64_t *lost);

/* ------------------------------------------------------------------ */
/* snapshot.c: the context snapshot */

struct snap_self {
	pid_t pid;
	const char *out_dev;	/* "major:minor", or "" for a pipe */
	unsigned long long out_ino;
};

/*
 * snapshot_build - append the snapshot text (time, uname, sysctl, meminfo,
 * mount, blockdev, diskstats, proc, thread, fd, self lines) to @sb.
 * Unreadable sources are skipped silently (processes come and go).
 */
void snapshot_build(struct strbuf *sb, const struct snap_self *self);

/*
 * snapshot_write - build a snapshot of @phase (IOREC_SNAP_*) and append it
 * as a SNAPSHOT chunk.  Returns 0 or a negative iorec_error.
 */
int snapshot_write(struct iorec_writer *w, uint32_t phase,
		   const struct snap_self *self);

/* ------------------------------------------------------------------ */
/* ringbuf.c: reading the per-CPU buffers in batches */

struct ringbuf;

struct ringbuf_opts {
	int ncpus;
	int subbuf_size;
	int long_size;
	size_t batch_bytes;	/* raw bytes per batch, per CPU */
	uint64_t flush_ns;	/* cut a batch at least this often */
	int zstd_level;
	uint64_t flight_bytes;	/* 0: write through; else keep last N bytes */
};

struct ringbuf_totals {
	uint64_t events;
	uint64_t pages;
	uint64_t raw_bytes;	/* raw page bytes read */
	uint64_t chunks;
	uint64_t flight_discarded;
	uint64_t flight_cutoff_ts;
	uint64_t limit_dropped_pages;	/* not written: past the size limit */
};

/*
 * ringbuf_open - open per_cpu/cpuN/trace_pipe_raw of every CPU of @inst
 * (non-blocking) and allocate the batches.  Returns NULL after printing
 * an error.  Free with ringbuf_close().
 */
struct ringbuf *ringbuf_open(struct tracefs_instance *inst,
			     const struct ringbuf_opts *o,
			     struct iorec_writer *w);
void ringbuf_close(struct ringbuf *rb);
/*
 * ringbuf_wait - poll() the CPU buffers for up to @timeout_ms.  Returns
 * the number of readable CPUs, 0 on timeout, -1 on EINTR.
 */
int ringbuf_wait(struct ringbuf *rb, int timeout_ms);
/*
 * ringbuf_read - read what is ready: full pages from the CPUs poll()
 * reported, and, when @all, everything (partial pages too) from every
 * CPU.  Cuts batches that are full or older than flush_ns.  Returns 0 or a
 * negative iorec_error from the writer.
 */
int ringbuf_read(struct ringbuf *rb, bool all);
/*
 * ringbuf_finish - read the rest of every CPU (tracing must be off), cut
 * every batch and, in flight mode, write the kept chunks.  Returns 0 or a
 * negative iorec_error.
 */
int ringbuf_finish(struct ringbuf *rb);
void ringbuf_totals(const struct ringbuf *rb, struct ringbuf_totals *t);
/*
 * ringbuf_set_data_limit - write DATA chunks only while the output stays
 * under @limit bytes (0: no limit); a batch that would pass it is dropped
 * and counted, and ringbuf_limit_reached() turns true.
 */
void ringbuf_set_data_limit(struct ringbuf *rb, uint64_t limit);
bool ringbuf_limit_reached(const struct ringbuf *rb);
/* Pages of @cpu read so far, and of those, pages flagged with lost events. */
void ringbuf_cpu_pages(const struct ringbuf *rb, int cpu, uint64_t *pages,
		       uint64_t *missed);

#endif /* IOREC_RECORD_H */
