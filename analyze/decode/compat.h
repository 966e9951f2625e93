/* SPDX-License-Identifier: MIT */
/*
 * compat.h - whose is a raw_syscalls event on a kernel with a compat ABI
 * (docs/iorec.5, COMPAT TASKS): each thread's ABI, from the start
 * snapshot's abi lines, fork, exec (EXEC_ABI lines, iorec's exec_native
 * and exec_compat kprobes) and its syscalls:* events, and in shadow mode
 * the twin rule, which tells a native call's raw copy from a 32-bit
 * task's call.  Private to decode/: decode.c feeds it the events in time
 * order and asks it for a verdict on each raw event.
 */
#ifndef IOREPORT_DECODE_COMPAT_H
#define IOREPORT_DECODE_COMPAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/imap.h"
#include "input/meta.h"
#include "input/source.h"

/* The verdict on a raw event. */
enum compat_call {
	CALL_NONE = 0,
	CALL_TWIN,		/* a native call's copy of a syscalls:* event */
	CALL_NATIVE,		/* a native call: the SYSCALLS table names it */
	CALL_COMPAT,		/* a 32-bit task's: COMPAT_SYSCALLS names it */
};

struct compat {
	struct meta_abis abis;
	/* abis.mode when shadow or raw, else NONE: nothing to tell apart */
	enum meta_compat_mode mode;
	struct imap tasks;		/* tid -> struct task_abi */
	struct imap unshadowed;		/* compat ids the twin rule cannot tell */
	struct meta_exec_abi *exec;	/* EXEC_ABI lines, by time */
	bool *exec_used;		/* taken by an exec event, or by time */
	size_t nexec, next_exec;
	size_t *exec_next;		/* the next line of the same pid, or nexec */
	struct imap exec_first;		/* pid -> (intptr) its first line not
					   passed + 1 */
	uint64_t *gap_ts;		/* per CPU: the time of its last
					   lost-event gap + 1, 0 for none */
	uint64_t now;			/* the time of the current event */
	int ncpus;
	int err;			/* sticky -AN_E_NOMEM */
};

/*
 * compat_init - read what the recording says about ABIs (in: its header,
 * start snapshot and EXEC_ABI text)
 *
 * Returns 0 (cx->mode NONE when the recording has no compat ABI or did
 * not record its tasks' calls) or -AN_E_NOMEM; release either way.
 */
int compat_init(struct compat *cx, const struct source_info *in);
/* Free; a zeroed cx is fine. */
void compat_release(struct compat *cx);

/* Every event, first: its time and CPU, whether events were lost before it. */
void compat_clock(struct compat *cx, uint64_t ts, int cpu, bool missed);
/* sched_process_fork: the child runs its parent's ABI. */
void compat_fork(struct compat *cx, int parent, int child);
/* sched_process_exec of pid at ts, by thread old: its new program's ABI. */
void compat_exec(struct compat *cx, int pid, int old, uint64_t ts);
/* An exec_native / exec_compat probe of tid. */
void compat_set(struct compat *cx, int tid, enum meta_abi abi);
/* A syscalls:sys_enter_* event of tid on cpu, of __syscall_nr nr (-1: unknown). */
void compat_mark(struct compat *cx, int tid, int cpu, int64_t nr);
/* A raw_syscalls:sys_enter of tid on cpu with id: the verdict. */
enum compat_call compat_enter(struct compat *cx, int tid, int cpu, int64_t id);
/* A raw_syscalls:sys_exit of tid: its enter's verdict, else by the ABI. */
enum compat_call compat_exit(struct compat *cx, int tid);

#endif /* IOREPORT_DECODE_COMPAT_H */
