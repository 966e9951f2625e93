/* SPDX-License-Identifier: MIT */
/*
 * filter.h - the view filters (-p/-c/-d/-f/--since/--until/--min-ms):
 * which requests and syscalls enter the aggregates, decided in one
 * place per kind (driver.c for requests, account.c for syscalls, rows.c
 * for the rows of processes and files), and the counts of what was kept.
 */
#ifndef IOREPORT_STATS_FILTER_H
#define IOREPORT_STATS_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct proc;
struct file;
struct sbuf;

#define FILTER_MAX	16	/* of each list */

struct view_filter {
	int pids[FILTER_MAX];
	size_t npids;
	const char *comms[FILTER_MAX];
	size_t ncomms;
	/* -d: as given; resolved against the snapshot by filter_resolve() */
	const char *devs[FILTER_MAX];
	uint32_t devt[FILTER_MAX];	/* kernel dev_t, 0: unknown name */
	size_t ndevs;
	const char *glob;		/* -f, or NULL */
	/* --unit, --container, --cgroup: the process's owner (see
	   filter_owner()) */
	const char *units[FILTER_MAX];
	size_t nunits;
	const char *containers[FILTER_MAX];
	size_t ncontainers;
	const char *cgroups[FILTER_MAX];
	size_t ncgroups;
	bool have_since, have_until;
	uint64_t since_ns, until_ns;	/* from the recording's first event */
	/*
	 * --since/--until HH:MM:SS: seconds of the day (UTC) as given, then
	 * (filter_resolve_wall()) trace clock times: since_ns/until_ns are
	 * absolute when *_abs
	 */
	bool since_wall, until_wall, since_abs, until_abs;
	uint64_t since_tod_ns, until_tod_ns;
	char zone[64];			/* of those times, as the views print
					   it (" +05:30 IST", " UTC") */
	uint64_t min_ns;		/* --min-ms, 0: none */
	/* the whole disk of a file system's device (set by the driver) */
	uint32_t (*disk_of)(uint32_t fsdev, void *arg);
	void *disk_arg;
	/* the device of the mount a path is under, 0: unknown (the driver's) */
	uint32_t (*mount_of)(const char *path, void *arg);
	/*
	 * -c resolved over the whole recording (driver_select_comms()):
	 * the processes that had one of the names at any time, each as its
	 * pid and lifetime, and the ids of the threads seen in them (sorted)
	 */
	bool comms_resolved;
	struct filter_span {
		int pid;
		uint64_t from, to;	/* 0 and UINT64_MAX: the recording's */
	} *comm_procs;
	size_t ncomm_procs;
	int *comm_tids;
	size_t ncomm_tids;
	/* set by the pass */
	uint64_t base_ts;		/* the first event's time */
	uint64_t requests, requests_kept;
	uint64_t calls, calls_kept;
};

/* Free what f resolved (-c's processes); f stays usable.  Accepts NULL. */
void filter_release(struct view_filter *f);
/*
 * filter_comms_resolve - what -c keeps, found by a first pass: the n
 * processes in v and the nt thread ids in tids, both taken (freed by
 * filter_release()); the thread ids are sorted here.
 */
void filter_comms_resolve(struct view_filter *f, struct filter_span *v,
			  size_t n, int *tids, size_t nt);
/* Whether f asks for anything (NULL: no filter). */
bool filter_active(const struct view_filter *f);
/* Whether f names processes or files: the pass must attribute. */
bool filter_wants_owner(const struct view_filter *f);

/*
 * filter_resolve - the device names of f as dev_t, from the blockdev
 * lines of a snapshot (NULL: none); "MAJ:MIN" needs none.  Returns the
 * first name that names no device, or NULL.
 */
const char *filter_resolve(struct view_filter *f, const char *snap);

/*
 * filter_resolve_wall - a time of day of --since/--until as a trace
 * clock time, from the header's start_realtime_ns and start_mono_ns
 * (the day of the recording's start, or the next when earlier in the
 * day).  Returns false when the recording has no wall clock.
 */
bool filter_resolve_wall(struct view_filter *f, const char *header_text);

/*
 * filter_resolve_clock - --since/--until in seconds as seconds from the
 * first event, or as trace clock times when pasted from a view's
 * --trace-clock column: a number beyond the recording's length that
 * falls inside its trace clock span [first_ts, last_ts] (both 0: not
 * known, nothing decided).  Returns "--since" when its time is after the
 * recording's end either way (an --until after the end is no end), or
 * NULL.
 */
const char *filter_resolve_clock(struct view_filter *f, uint64_t first_ts,
				 uint64_t last_ts);
/* Whether time ts (trace clock) is inside the window. */
/*
 * filter_start - where the time window begins (trace clock), for a
 * recording whose first event is at first_ts: first_ts without --since
 */
uint64_t filter_start(const struct view_filter *f, uint64_t first_ts);
bool filter_time(const struct view_filter *f, uint64_t ts);
/* Whether a block device (disk) or a file system's device passes -d. */
bool filter_dev(const struct view_filter *f, uint32_t dev, uint32_t disk);
/*
 * Whether process p (NULL: unknown) passes -p and -c: -c keeps a process
 * that had one of the names at any time of the recording once resolved,
 * else one that had it so far.
 */
bool filter_proc(const struct view_filter *f, const struct proc *p);
/*
 * Whether a task (no process known: its pid and comm) passes -p and -c:
 * once -c is resolved, a thread of a process it keeps passes too.
 */
bool filter_task(const struct view_filter *f, int pid, const char *comm);
/*
 * filter_owner - whether process p passes --unit (its unit's name, or
 * the name without ".service"), --container (its container's name or a
 * prefix of at least 4 digits of its id) and --cgroup (one of its
 * cgroups is the path or under it)
 */
bool filter_owner(const struct view_filter *f, const struct proc *p);
/* Whether a file's path (NULL: unknown) passes -f. */
bool filter_path(const struct view_filter *f, const char *path);
/*
 * Whether a file's device (or its disk) passes -d: its dev:ino, else
 * the mount its path is under (a file created during the recording);
 * unknown: no.
 */
bool filter_file_dev(const struct view_filter *f, const struct file *file);
/*
 * filter_call - whether syscall c of process p on file (NULL: none or
 * unknown; an open's: the file it opened) passes every filter, --min-ms
 * included; counts it (NULL f: true)
 */
struct sys_call;
bool filter_call(struct view_filter *f, const struct proc *p,
		 const struct file *file, const struct sys_call *c);

/*
 * filter_text - what f keeps, in words ("pid 42, device loop0, from
 * 1.000 s to 2.000 s"), appended to out
 */
void filter_text(const struct view_filter *f, struct sbuf *out);
/*
 * filter_args - f as the options that ask for it again (" -p 42 --since
 * 1.5"; nothing without a filter; --min-ms left out), quoted for a
 * shell, appended to out: for the commands a view suggests
 */
void filter_args(const struct view_filter *f, struct sbuf *out);

#endif /* IOREPORT_STATS_FILTER_H */
