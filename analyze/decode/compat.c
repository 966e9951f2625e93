// SPDX-License-Identifier: MIT
/*
 * compat.c - whose is a raw_syscalls event (see compat.h): the ABI of
 * each thread and the twin rule of docs/iorec.5, COMPAT TASKS.
 */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "base/err.h"
#include "base/syskind.h"
#include "decode/compat.h"

/* A thread, for telling its raw events' ABI. */
struct task_abi {
	uint8_t abi;		/* enum meta_abi */
	uint8_t call;		/* enum compat_call: its raw sys_enter's */
	bool seen;		/* a sys_enter-type event of it was read */
	bool mark;		/* the last one is a syscalls:sys_enter_* not
				   twinned yet, of number nr */
	int cpu;		/* the CPU of that last one */
	int64_t nr;
	uint64_t ts;		/* the time of that last one */
};

/* The thread's record, made on first use; NULL without memory (cx->err). */
static struct task_abi *task_of(struct compat *cx, int tid)
{
	struct task_abi *t = imap_get_new(&cx->tasks, tid, sizeof(*t));

	if (!t)
		cx->err = -AN_E_NOMEM;
	return t;
}

static enum meta_abi abi_of(const struct compat *cx, int tid)
{
	const struct task_abi *t = imap_get(&cx->tasks, tid);

	return t ? (enum meta_abi)t->abi : META_ABI_UNKNOWN;
}

void compat_set(struct compat *cx, int tid, enum meta_abi abi)
{
	struct task_abi *t;

	if (abi == META_ABI_UNKNOWN || tid <= 0)
		return;
	t = task_of(cx, tid);
	if (t)
		t->abi = (uint8_t)abi;
}

static bool parse_id(const char *s, int *v)
{
	char *end;
	long n = strtol(s, &end, 10);

	if (end == s || *end || n <= 0 || n > INT_MAX)
		return false;
	*v = (int)n;
	return true;
}

/* "abi PID ABI" of the start snapshot */
static int snap_abi(char **f, int n, void *arg)
{
	struct compat *cx = arg;
	int pid;

	if (n >= 3 && parse_id(f[1], &pid))
		compat_set(cx, pid, meta_abi_kind(&cx->abis, f[2]));
	return 0;
}

/* "thread TID PID COMM": a thread runs its process's ABI */
static int snap_thread(char **f, int n, void *arg)
{
	struct compat *cx = arg;
	int tid, pid;

	if (n >= 3 && parse_id(f[1], &tid) && parse_id(f[2], &pid) &&
	    tid != pid)
		compat_set(cx, tid, abi_of(cx, pid));
	return 0;
}

/* compat_unshadowed: "180,181" */
static int load_unshadowed(struct compat *cx)
{
	const char *p = cx->abis.unshadowed;

	while (*p) {
		char *end;
		long id = strtol(p, &end, 10);

		if (end == p)
			break;
		if (id >= 0 && id <= INT_MAX &&
		    imap_put(&cx->unshadowed, (int)id, (void *)1, NULL))
			return -AN_E_NOMEM;
		p = *end == ',' ? end + 1 : end;
	}
	return 0;
}

/*
 * The native calls whose syscalls:* enter iorec records only in part
 * (SKF_ENTER_FILTERED: mmap of shared mappings, ioctl FIOCLEX): their raw
 * copy has no twin to find, so their numbers are unshadowed as well.
 * A "NR\tNAME" line of the SYSCALLS text.
 */
static int filtered_unshadowed(char **f, int n, void *arg)
{
	struct compat *cx = arg;
	const char *name;
	int nr;

	if (meta_syscall_line(f, n, &nr, &name) &&
	    (sys_kind_info(sys_kind_lookup(name))->flags &
	     SKF_ENTER_FILTERED) &&
	    imap_put(&cx->unshadowed, nr, (void *)1, NULL))
		return -AN_E_NOMEM;
	return 0;
}

/* Chain each pid's EXEC_ABI lines in time order, for compat_exec(). */
static int link_exec(struct compat *cx)
{
	cx->exec_next = an_calloc(cx->nexec ? cx->nexec : 1,
				  sizeof(*cx->exec_next));
	if (!cx->exec_next)
		return -AN_E_NOMEM;
	for (size_t i = cx->nexec; i-- > 0;) {
		void *prev;

		if (imap_put(&cx->exec_first, cx->exec[i].pid,
			     (void *)(intptr_t)(i + 1), &prev))
			return -AN_E_NOMEM;
		cx->exec_next[i] = prev ? (size_t)(intptr_t)prev - 1 :
				   cx->nexec;
	}
	return 0;
}

int compat_init(struct compat *cx, const struct source_info *in)
{
	memset(cx, 0, sizeof(*cx));
	imap_init(&cx->tasks);
	imap_init(&cx->unshadowed);
	imap_init(&cx->exec_first);
	meta_abis(in->header_text, &cx->abis);
	cx->mode = cx->abis.mode;
	if (cx->mode != META_COMPAT_SHADOW && cx->mode != META_COMPAT_RAW) {
		cx->mode = META_COMPAT_NONE;
		return 0;
	}
	cx->ncpus = in->nr_cpus > 0 ? in->nr_cpus : 1;
	cx->gap_ts = an_calloc((size_t)cx->ncpus, sizeof(*cx->gap_ts));
	if (!cx->gap_ts || load_unshadowed(cx) ||
	    meta_lines(in->syscalls, NULL, filtered_unshadowed, cx) ||
	    meta_exec_abis(in->exec_abi, &cx->abis, &cx->exec, &cx->nexec))
		return -AN_E_NOMEM;
	cx->exec_used = an_calloc(cx->nexec ? cx->nexec : 1, 1);
	if (!cx->exec_used || link_exec(cx) ||
	    meta_lines(in->snapshot_start, "abi", snap_abi, cx) < 0 ||
	    meta_lines(in->snapshot_start, "thread", snap_thread, cx) < 0)
		return -AN_E_NOMEM;
	return cx->err;
}

void compat_release(struct compat *cx)
{
	imap_release_all(&cx->tasks, NULL);
	imap_release(&cx->unshadowed);
	imap_release(&cx->exec_first);
	free(cx->exec);
	free(cx->exec_used);
	free(cx->exec_next);
	free(cx->gap_ts);
	memset(cx, 0, sizeof(*cx));
}

void compat_clock(struct compat *cx, uint64_t ts, int cpu, bool missed)
{
	cx->now = ts;
	/* the first event after a gap: its time + 1 (0: no gap yet) */
	if (missed && cpu >= 0 && cpu < cx->ncpus)
		cx->gap_ts[cpu] = ts + 1;
	/* EXEC_ABI lines no exec event took (not recorded) apply from then */
	while (cx->next_exec < cx->nexec && cx->exec[cx->next_exec].ts <= ts) {
		size_t i = cx->next_exec++;

		if (!cx->exec_used[i]) {
			cx->exec_used[i] = true;
			compat_set(cx, cx->exec[i].pid, cx->exec[i].abi);
		}
	}
}

void compat_fork(struct compat *cx, int parent, int child)
{
	compat_set(cx, child, abi_of(cx, parent));
}

void compat_exec(struct compat *cx, int pid, int old, uint64_t ts)
{
	void *v = imap_get(&cx->exec_first, pid);
	size_t i = v ? (size_t)(intptr_t)v - 1 : cx->nexec;

	/* a non-leader thread that execs takes the pid: its probes' ABI */
	if (old > 0 && old != pid)
		compat_set(cx, pid, abi_of(cx, old));
	/*
	 * The first EXEC_ABI line of pid at or after the exec: the lines
	 * before it are used already (compat_clock() took those up to now),
	 * so the pid's chain only moves on, each line passed once.
	 */
	while (i < cx->nexec && (cx->exec_used[i] || cx->exec[i].ts < ts))
		i = cx->exec_next[i];
	if (i < cx->nexec) {
		cx->exec_used[i] = true;
		compat_set(cx, pid, cx->exec[i].abi);
		i = cx->exec_next[i];
	}
	if (v && i >= cx->nexec)
		imap_del(&cx->exec_first, pid);
	else if (v && imap_put(&cx->exec_first, pid,
			       (void *)(intptr_t)(i + 1), NULL))
		cx->err = -AN_E_NOMEM;
}

/*
 * Whether events of cpu may have been lost since the thread's last
 * sys_enter-type event (on whichever CPU): the first event after a gap of
 * cpu is later than it (the lost ones may be after it, the twin among
 * them).  The time tells, not a count of gaps: the last event may have
 * been on another CPU, whose count says nothing of this one's.
 */
static bool gap_since(const struct compat *cx, const struct task_abi *t,
		      int cpu)
{
	uint64_t g = cpu >= 0 && cpu < cx->ncpus ? cx->gap_ts[cpu] : 0;

	return g && g - 1 > t->ts;
}

void compat_mark(struct compat *cx, int tid, int cpu, int64_t nr)
{
	struct task_abi *t = task_of(cx, tid);

	if (!t)
		return;
	/* the kernel skips compat tasks: whoever has one is native */
	t->abi = META_ABI_NATIVE;
	t->seen = true;
	t->mark = true;
	t->nr = nr;
	t->cpu = cpu;
	t->ts = cx->now;
}

/*
 * A raw event no twin places, by its thread's ABI (rule 2): a 32-bit
 * call only of a thread known to be 32-bit; a thread whose ABI is unknown
 * (its fork or exec lost, gone before the start snapshot) is native, its
 * event a native call, or in shadow mode the raw copy of one.
 */
static enum compat_call by_abi(const struct compat *cx,
			       const struct task_abi *t)
{
	if (t->abi == META_ABI_COMPAT)
		return CALL_COMPAT;
	return cx->mode == META_COMPAT_SHADOW ? CALL_TWIN : CALL_NATIVE;
}

enum compat_call compat_enter(struct compat *cx, int tid, int cpu, int64_t id)
{
	struct task_abi *t = task_of(cx, tid);
	enum compat_call v;

	if (!t)
		return CALL_NATIVE;
	if (cx->mode == META_COMPAT_SHADOW) {
		/*
		 * The twin rule: the thread's previous sys_enter-type
		 * event, on this CPU, is a syscalls:* one of the same
		 * number.  It cannot tell when that event may be missing
		 * (the thread's first, lost events, an unshadowed id): then
		 * the thread's ABI does.
		 */
		bool twin = t->mark && t->cpu == cpu && t->nr == id;
		bool sure = t->seen && !gap_since(cx, t, cpu) &&
			    (id < 0 || id > INT_MAX ||
			     !imap_get(&cx->unshadowed, (int)id));

		if (twin)
			t->abi = META_ABI_NATIVE;
		v = twin ? CALL_TWIN : sure ? CALL_COMPAT : by_abi(cx, t);
	} else {
		v = by_abi(cx, t);
	}
	t->seen = true;
	t->mark = false;
	t->cpu = cpu;
	t->ts = cx->now;
	t->call = (uint8_t)v;
	return v;
}

enum compat_call compat_exit(struct compat *cx, int tid)
{
	struct task_abi *t = task_of(cx, tid);
	enum compat_call v;

	if (!t)
		return CALL_NATIVE;
	v = t->call;
	t->call = CALL_NONE;
	return v != CALL_NONE ? v : by_abi(cx, t);
}
