/* SPDX-License-Identifier: MIT */
/*
 * rows.h - the rows of processes and files the views and the database
 * print, built after the pass from the replay's process and file tables
 * and their aggregates (account.h, attrib.h, wa.h, dirty.h): every
 * field a sink needs is in the row, so no sink reads a state machine.
 *
 * Every function returns the number of rows with *out allocated (free
 * it with the matching release, or free() where none is given), or
 * -AN_E_NOMEM.  Strings the rows point at live until driver_close().
 */
#ifndef IOREPORT_STATS_ROWS_H
#define IOREPORT_STATS_ROWS_H

#include <stdbool.h>
#include <stdint.h>

#include "stats/account.h"
#include "stats/hist.h"

struct stats;
struct wa_fsync;

/* A process as the views see it. */
struct proc_info {
	int id;			/* surrogate, unique in the recording */
	int pid, ppid;		/* ppid 0: unknown */
	const char *comm;	/* current comm */
	const char *comms;	/* every comm seen, comma-separated */
	const char *exe;	/* or NULL */
	bool at_start, guessed, exited;
	uint64_t start_ts, exit_ts;	/* 0: before / after the recording */
	/* its service or container (stats/owner.h), each NULL when none */
	const char *unit, *container;
	char cgroup[256];	/* its cgroup as --by cgroup groups it, "" */
};

struct proc_row {
	struct proc_info p;
	const struct procstat *ps;	/* NULL: no call, no I/O */
	uint64_t fsyncs;		/* fsync + fdatasync calls */
};

/* A file as the views see it. */
struct file_info {
	int id;			/* creation order, unique */
	const char *path;	/* NULL while unknown */
	char unnamed[64];	/* without a path: "<unknown fd N of pid P>" */
	bool has_devino;
	unsigned int major, minor;
	uint64_t ino;
	int pid, fd;		/* an unnamed file's opener and fd */
	uint64_t open_ts;	/* 0: opened before the recording */
	const char *names;	/* other names: "written as a.tmp", or NULL */
	bool unlinked;		/* its name was unlinked */
};

/* The name of a file: its path, else what it is known by. */
static inline const char *file_info_name(const struct file_info *i)
{
	return i->path ? i->path : i->unnamed;
}

/*
 * A row of the files view: the files of one identity merged.  Most
 * identities are one file, whose aggregate the row points at; only
 * those of several files get a merged copy of their own.
 */
struct file_row {
	struct file_info f;	/* the first of the identity */
	const struct filestat *s;	/* of them all: its one file's, or merged */
	struct filestat *merged;	/* owned (with its histograms), or NULL */
};

/* A file for the database: itself, and the first file of its identity. */
struct file_ident {
	struct file_info f;
	int ident;
	const struct filestat *s;	/* NULL: no call, no I/O */
};

/*
 * The processes with calls or I/O, by bytes moved then calls, comm, pid
 * (the processes view); all: every process in table order (the
 * database).
 */
long rows_processes(const struct stats *st, bool all, struct proc_row **out);

/* The files with I/O merged by identity (fileid.h), by bytes moved. */
long rows_files(const struct stats *st, struct file_row **out);
void rows_files_release(struct file_row *v, long n);

/* Every file with the ident of its identity, in identity order. */
long rows_file_idents(const struct stats *st, struct file_ident **out);

/* A process or file with the bytes its writes cost at the device. */
struct wa_row {
	char *name;		/* comm or file name (owned) */
	int pid;		/* 0 for files */
	uint64_t app, blk, journal;
	const struct proc *p;	/* the process of a process row (--by) */
};

/* Processes (byproc) or files that wrote, by device bytes (wa view). */
long rows_wa(const struct stats *st, bool byproc, struct wa_row **out);
void rows_wa_release(struct wa_row *v, long n);

/* A process or file with its fsyncs and the flushes while they waited. */
struct fsync_row {
	char *name;		/* comm or path (owned) */
	int pid;		/* by process: the pid (or tid when unknown) */
	const struct hist *lat;	/* syscall latency (fsync + fdatasync) */
	uint64_t fsyncs, fdatasyncs, sfr;	/* syscalls */
	uint64_t k_count;	/* ext4_sync_file calls */
	uint64_t flushes, flush_ns, write_bytes;
	/* private */
	const void *p, *f;
	uint32_t fsdev;
	uint64_t ino;
};

/* By process or by file, by fsync time (fsync view; wa.h's intervals). */
long rows_fsync(const struct stats *st, bool byproc, struct fsync_row **out);
/*
 * The file of an ext4 fsync interval's inode: by dev:ino in the replay's
 * file table, else the file the attribution tied the inode to; NULL when
 * neither knows it.
 */
const struct file *rows_fsync_file(const struct stats *st,
				   const struct wa_fsync *w);
void rows_fsync_release(struct fsync_row *v, long n);
/*
 * Every process's fsync syscall latencies merged into *all (zeroed; to
 * release); 0, or -AN_E_NOMEM.
 */
int rows_fsync_all(const struct stats *st, struct hist *all);

/* A process throttled by dirty limits (its threads summed). */
struct dirty_row {
	int pid;
	const char *comm;
	uint64_t bdp, paused, pause_ms, max_ms;
};

/* By time paused (dirty view; dirty.h's tasks). */
long rows_dirty(const struct stats *st, struct dirty_row **out);

/*
 * The process or file of an id (proc_info.id, file_info.id, as the
 * driver's on_call hook gives them), during the pass or after it; false
 * when there is none.  The strings live until the table changes them.
 */
bool rows_proc_at(const struct stats *st, int id, struct proc_info *out);
bool rows_file_at(const struct stats *st, int id, struct file_info *out);

/* The comm of the process of thread tid at ts, else the task's. */
const char *rows_comm_at(const struct stats *st, int tid, uint64_t ts);

#endif /* IOREPORT_STATS_ROWS_H */
