/* SPDX-License-Identifier: MIT */
/*
 * owner.h - a process's service or container as the views say it: the
 * words a finding names it with ("the homeassistant container (python3,
 * pid 123)"), and the key of --by unit|container|cgroup.
 */
#ifndef IOREPORT_STATS_OWNER_H
#define IOREPORT_STATS_OWNER_H

#include <stddef.h>
#include <stdint.h>

#include "stats/account.h"

struct sbuf;
struct proc_info;

enum owner_by { OWNER_NONE, OWNER_UNIT, OWNER_CONTAINER, OWNER_CGROUP };

/* "unit", "container", "cgroup" (OWNER_NONE: NULL). */
const char *owner_by_name(enum owner_by by);
/* The owner_by of a --by word, OWNER_NONE when it is none of them. */
enum owner_by owner_by_parse(const char *word);

/*
 * owner_who - p as a finding names it, appended to sb: "the NAME
 * container (COMM, pid N)" when p is in a container, "UNIT (COMM, pid
 * N)" when in a systemd service ("journald.service"), else "COMM (pid
 * N)" as before.
 */
void owner_who(struct sbuf *sb, const struct proc_info *p);
/* The same words of a process known by its comm, pid, unit, container. */
void owner_words(struct sbuf *sb, const char *comm, int pid,
		 const char *unit, const char *container);

/*
 * owner_key - what p is grouped under by by: its unit, its container's
 * name, its cgroup; "-" when it has none.
 */
const char *owner_key(const struct proc_info *p, enum owner_by by);

/*
 * owner_proc_key - what replay process p is grouped under by by, as
 * owner_key() says it of its proc_info (NULL p: a thread the replay did
 * not know, "-"), into buf of size; returns buf.
 */
struct proc;
const char *owner_proc_key(const struct proc *p, enum owner_by by,
			   char *buf, size_t size);

/* The processes of one unit, container or cgroup, summed (--by). */
struct owner_row {
	const char *key;	/* owner_key(): "-" for processes of none */
	bool none;		/* key is "-": of no unit, container, cgroup */
	uint64_t procs;
	uint64_t calls, errors, read_bytes, write_bytes;
	uint64_t fsyncs;	/* fsync + fdatasync calls (proc_row's) */
	/* of those timed (enter and exit seen): count, latency sum, max */
	uint64_t fsync_count, fsync_ns, fsync_max_ns;
	struct blkio blk;	/* their block I/O, summed */
	uint64_t throttles, throttle_ns, dstates, dstate_ns;
};

/*
 * owner_rows - the n process rows (rows_processes()) summed per owner
 * of by into *out, the biggest movers of bytes (calls, then device)
 * first.  Returns the number of rows (*out to free()), or -AN_E_NOMEM.
 */
struct proc_row;
long owner_rows(const struct proc_row *rows, size_t n, enum owner_by by,
		struct owner_row **out);

#endif /* IOREPORT_STATS_OWNER_H */
