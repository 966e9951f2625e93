/* SPDX-License-Identifier: MIT */
/*
 * trigger.h - what made a black-box snapshot (iorec --snapshot-dir): the
 * header's snapshot and trigger keys (iorec(5)), and the call or block
 * request that fired as the pass saw it, so that findings, info and the
 * HTML page start from it with the views' numbers.
 */
#ifndef IOREPORT_STATS_TRIGGER_H
#define IOREPORT_STATS_TRIGGER_H

#include <stdbool.h>
#include <stdint.h>

#include "input/meta.h"
#include "stats/stats.h"
#include "stats/attrib.h"

struct proc;
struct file;
struct sys_call;

enum trig_what {
	TRIG_W_NONE,		/* asked for, or lost events */
	TRIG_W_CALL,		/* an fsync or fdatasync */
	TRIG_W_REQUEST,		/* a block request's device time */
	TRIG_W_THROTTLE,	/* a dirty-throttling pause */
	TRIG_W_IOWAIT,		/* a process's D-state time over a window */
};

struct stats_trigger {
	bool fired;		/* snapshot=trigger (else asked for) */
	enum trig_what what;
	char cond[IOREC_TRIGGER_LEN];	/* "fsync>300ms", "d2c>1s@mmcblk0" */
	uint64_t snap_ts;	/* snapshot_mono_ns: when it was taken */
	uint64_t ts, value_ns;	/* what fired: its start and time (ns) */
	int pid, cpu;
	char comm[32];
	char detail[256];
	char call[16];		/* fsync or fdatasync ("" unknown) */
	int fd;			/* -1 unknown */
	uint32_t dev;		/* kernel dev_t, 0 unknown */
	uint64_t sector, bytes;
	uint64_t window_ns;	/* iowait: the window before ts */
	uint64_t dstate_ns;	/* iowait: the pass's D state of pid in it */
	/* the pass: the call or request that fired, when it is in the
	   window */
	bool found;
	struct slow_call c;
	struct blk_done d;
};

/*
 * stats_trigger_load - st->trig from the recording's header, when it is
 * a black-box snapshot (st->trig stays NULL otherwise).  0 or
 * -AN_E_NOMEM.
 */
int stats_trigger_load(struct stats *st);
/* Every completed call and every completed request of the pass. */
void stats_trigger_call(struct stats *st, const struct proc *p,
			const struct file *f, const struct sys_call *c);
void stats_trigger_request(struct stats *st, const struct blk_done *d);
/* Every D-state wait of the pass: process pid, from start to end. */
void stats_trigger_dstate(struct stats *st, int pid, uint64_t start,
			  uint64_t end);

#endif /* IOREPORT_STATS_TRIGGER_H */
