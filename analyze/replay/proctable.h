/* SPDX-License-Identifier: MIT */
/*
 * proctable.h - processes replayed from a recording: which thread
 * belongs to which process, and each process's comm, exe and fd table,
 * across fork, clone of threads, exec, rename and exit.  Seeded from the
 * start snapshot's proc/thread/fd lines.
 *
 * A process is a struct proc with a surrogate id: when a pid is reused
 * (a process exits and a new one gets its number) the new one is a new
 * struct proc, so the two are never merged.  Nothing here prints; odd
 * sequences are counted in proctable_stats.
 *
 * Memory: a process that cannot be made is the table's one spare process
 * (never NULL: the replay goes on) and proctable_error() says so.
 */
#ifndef IOREPORT_PROCTABLE_H
#define IOREPORT_PROCTABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/syskind.h"
#include "replay/fdtable.h"

#define CLONE_THREAD_FLAG	0x00010000ULL	/* linux/sched.h CLONE_THREAD */

struct proc {
	int id;			/* surrogate: index in the table */
	int pid;		/* tgid */
	int ppid;		/* 0 when unknown */
	char *comm;		/* current comm */
	char *comms;		/* every comm seen, comma-separated, in order */
	char *exe;		/* from the snapshot or the last exec, or NULL */
	bool at_start;		/* alive at the start snapshot */
	bool guessed;		/* first seen in an event, no fork/snapshot */
	bool exited;
	uint64_t start_ts;	/* fork ts, 0 if alive at start */
	uint64_t exit_ts;
	int nthreads;		/* threads alive */
	struct proc *older;	/* the process of the same pid before it */
	struct fdtable *fds;	/* NULL once exited */
	/*
	 * Its cgroups: the lines of /proc/PID/cgroup ("ID:CONTROLLERS:PATH"
	 * each ending in '\n'), from the snapshots, inherited at fork,
	 * changed by cgroup_attach_task; NULL when unknown
	 */
	char *cgroups;
	char *unit;		/* systemd unit its cgroups name, or NULL */
	char *container;	/* container name (else its id's 12 first
				   digits), or NULL */
	char *container_id;	/* its id, or NULL */
	unsigned long long mntns;	/* mount namespace inode, 0: unknown */
	bool end_cgroups;	/* its cgroups are the end snapshot's */
	void *user;		/* the aggregator's data (struct procstat) */
};

struct proctable_stats {
	uint64_t forks;
	uint64_t threads;	/* threads created (CLONE_THREAD) */
	uint64_t execs;
	uint64_t renames;
	uint64_t exits;		/* processes that exited */
	uint64_t pid_reuse;	/* a new process took a pid still known */
	uint64_t unknown_tids;	/* tids first seen in an event: guessed */
	uint64_t exit_unknown;	/* exit of a tid never seen */
	uint64_t fds_seeded;	/* fd lines of the start snapshot used */
	uint64_t fds_named_end;	/* unnamed fds named from the end snapshot */
	uint64_t cgroup_moves;	/* cgroup_attach_task events */
};

struct proctable;

/*
 * ft: the file table that fd lines and opens create files in (not
 * owned).  NULL: no memory.
 */
struct proctable *proctable_new(struct filetab *ft);
/* 0, or -AN_E_NOMEM once something could not be kept for memory. */
int proctable_error(const struct proctable *pt);
/* Free; free_user (may be NULL) frees proc.user.  Accepts NULL. */
void proctable_free(struct proctable *pt, void (*free_user)(void *));

/*
 * Seed from the start snapshot text (tab-separated, escaped lines; kinds
 * other than proc/thread/fd ignored).  Returns the number of processes.
 */
int proctable_load_start(struct proctable *pt, const char *text);
/*
 * Keep the end snapshot for naming: its thread lines place tids never
 * seen being created, its fd lines name fds still open at the end
 * (proctable_finish).  The text is copied.
 */
void proctable_load_end(struct proctable *pt, const char *text);

/* The current process of tid, or NULL if unknown. */
struct proc *proctable_lookup(struct proctable *pt, int tid);
/*
 * Whether tid is a thread of the recorder itself: the process of the
 * start snapshot's "self" line (iorec's threads: its reader threads, the
 * snapshot and 32-bit watcher threads; the kernel filter leaves out only
 * the thread that set it).
 */
bool proctable_is_self(struct proctable *pt, int tid);
/*
 * The current process of tid, created when unknown (placed by the end
 * snapshot's thread lines, or guessed as its own process with comm).
 */
struct proc *proctable_get(struct proctable *pt, int tid, const char *comm,
			   uint64_t ts);

/* task:task_newtask, emitted by the parent before sched_process_fork. */
void proctable_newtask(struct proctable *pt, uint64_t ts, int parent_tid,
		       int child_tid, const char *comm, uint64_t clone_flags);
/* sched:sched_process_fork (threads too: newtask tells them apart). */
void proctable_fork(struct proctable *pt, uint64_t ts, int parent_tid,
		    int child_tid, const char *child_comm);
/* sched:sched_process_exec: pid after exec, old_pid the exec'ing tid. */
void proctable_exec(struct proctable *pt, uint64_t ts, int pid, int old_pid,
		    const char *filename);
/* task:task_rename */
void proctable_rename(struct proctable *pt, uint64_t ts, int tid,
		      const char *newcomm);
/* sched:sched_process_exit; group_dead 1/0, or -1 when not recorded. */
void proctable_exit(struct proctable *pt, uint64_t ts, int tid,
		    int group_dead);
/*
 * cgroup:cgroup_attach_task: thread tid moved to path in the hierarchy
 * root (0: cgroup v2; v1: its hierarchy id, as in /proc/PID/cgroup).
 */
void proctable_cgroup_attach(struct proctable *pt, uint64_t ts, int tid,
			     int root, const char *path);
/*
 * The cgroup of p that names it: its v2 path unless "/", else its
 * name=systemd path unless "/", else its other v1 hierarchies that are
 * not at their root as "controllers:path", comma-separated; "/" when all
 * are at the root, into buf (cut to size).  NULL when unknown, else buf.
 */
const char *proc_cgroup_key(const struct proc *p, char *buf, size_t size);
/* Whether one of p's cgroups is path or under it ("/a" holds "/a/b"). */
bool proc_in_cgroup(const struct proc *p, const char *path);
/*
 * The host path of path seen by a process of mount namespace ns, by
 * the snapshots' nsmount and mount lines, into buf; NULL when ns is the
 * host's or unknown, or no host mount shows it, else buf.
 */
const char *proctable_host_path(struct proctable *pt, unsigned long long ns,
				const char *path, char *buf, size_t size);
/* End of the recording: name unnamed fds from the end snapshot. */
void proctable_finish(struct proctable *pt);

/*
 * The process thread tid belonged to at ts: the live one, else the
 * process whose main thread it was and that lived at ts (the table
 * forgets the threads of exited processes).  NULL when unknown.
 */
struct proc *proctable_of_tid_at(struct proctable *pt, int tid, uint64_t ts);

size_t proctable_count(const struct proctable *pt);
struct proc *proctable_at(const struct proctable *pt, size_t i);
const struct proctable_stats *proctable_stats(const struct proctable *pt);
struct fdtable_stats *proctable_fdstats(struct proctable *pt);

/*
 * fd_file - the file behind fd of p, made up as an unnamed file (and
 * counted as I/O on an unknown fd) when p's table does not know it;
 * NULL for fd < 0.
 */
struct file *fd_file(struct proctable *pt, struct proc *p, int fd);
/* Whether fd_apply() may change an fd table for c (opens, closes, dups). */
static inline bool fd_changes(const struct sys_call *c)
{
	return sys_kind_info(c->kind)->flags & (SKF_OPEN | SKF_CLOSE | SKF_DUP);
}

/*
 * fd_apply - the effects of completed call c on p's fd table: an open
 * installs its file, close and close_range remove, dup/dup2/dup3/fcntl
 * copy, FD_CLOEXEC is kept for exec.  p->fds must be there.  Returns
 * the file a successful open installed, else NULL.
 */
struct file *fd_apply(struct proctable *pt, struct proc *p,
		      const struct sys_call *c);

#endif /* IOREPORT_PROCTABLE_H */
