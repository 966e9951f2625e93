// SPDX-License-Identifier: MIT
/*
 * profile.c - the event plan: which trace events the io and iowait
 * profiles want, which of them this kernel has, what each missing one
 * costs the analysis, the raw_syscalls fallback, and writing the event
 * formats and the syscall table into the recording.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "iorec-format.h"
#include "record.h"

/* A static event of a profile. */
struct event_def {
	const char *system;
	const char *name;
	const char *alt;	/* stands in when name is absent, or NULL */
	unsigned int profiles;
	bool optional;
	const char *cost;
};

static const struct event_def profile_events[] = {
	{ "block", "block_rq_insert", NULL, PROFILE_IO, false,
	  "no queue time (insert->issue)" },
	{ "block", "block_rq_issue", NULL, PROFILE_IO, false,
	  "no device time (issue->complete) and no queue time" },
	{ "block", "block_rq_complete", NULL, PROFILE_IO, false,
	  "no request completion: no block I/O latency at all" },
	{ "block", "block_rq_requeue", NULL, PROFILE_IO, false,
	  "requeued requests are timed from their first issue" },
	{ "block", "block_bio_queue", NULL, PROFILE_IO, false,
	  "block I/O is not attributed to processes and no Q2C time" },
	{ "block", "block_bio_backmerge", NULL, PROFILE_IO, false,
	  "back-merged bios are not attributed" },
	{ "block", "block_bio_frontmerge", NULL, PROFILE_IO, false,
	  "front-merged bios are not attributed" },
	{ "block", "block_rq_merge", NULL, PROFILE_IO, true,
	  "merged requests are not followed" },
	{ "block", "block_split", NULL, PROFILE_IO, false,
	  "split bios are not followed" },
	{ "block", "block_bio_remap", NULL, PROFILE_IO, true,
	  "partition/dm remaps are not followed" },
	{ "writeback", "writeback_dirty_folio", "writeback_dirty_page",
	  PROFILE_IO, false,
	  "pages dirtied are not attributed to inodes and processes" },
	{ "writeback", "writeback_dirty_inode", NULL, PROFILE_IO, false,
	  "inodes dirtied are not attributed to processes" },
	{ "writeback", "writeback_mark_inode_dirty", NULL, PROFILE_IO, false,
	  "inode dirtying is not attributed to processes" },
	{ "writeback", "writeback_single_inode", NULL, PROFILE_IO, false,
	  "writeback is not attributed to inodes (files)" },
	{ "writeback", "writeback_written", NULL, PROFILE_IO, false,
	  "no writeback work summary (pages written per reason)" },
	{ "writeback", "writeback_start", NULL, PROFILE_IO, false,
	  "no writeback work start (reason, sync mode)" },
	{ "writeback", "writeback_queue", NULL, PROFILE_IO, false,
	  "writeback work is not attributed to who queued it" },
	{ "writeback", "balance_dirty_pages", NULL, PROFILE_IO, false,
	  "no time throttled by dirty limits per process" },
	{ "writeback", "global_dirty_state", NULL, PROFILE_IO, false,
	  "no dirty-memory timeline against the dirty limits" },
	{ "writeback", "bdi_dirty_ratelimit", NULL, PROFILE_IO, false,
	  "no per-device dirty ratelimit" },
	{ "ext4", "ext4_sync_file_enter", NULL, PROFILE_IO, false,
	  "no ext4 fsync breakdown" },
	{ "ext4", "ext4_sync_file_exit", NULL, PROFILE_IO, false,
	  "no ext4 fsync breakdown" },
	{ "ext4", "ext4_writepages", NULL, PROFILE_IO, false,
	  "no ext4 writeback per inode" },
	{ "ext4", "ext4_allocate_inode", NULL, PROFILE_IO, true,
	  "a freed inode number given to a new file is told only by its birth time (a clock tick's precision)" },
	{ "ext4", "ext4_writepages_result", NULL, PROFILE_IO, false,
	  "no ext4 pages written per inode" },
	{ "jbd2", "jbd2_start_commit", NULL, PROFILE_IO, false,
	  "no journal commit timing" },
	{ "jbd2", "jbd2_commit_logging", NULL, PROFILE_IO, false,
	  "no journal commit timing" },
	{ "jbd2", "jbd2_end_commit", NULL, PROFILE_IO, false,
	  "no journal commit timing" },
	{ "jbd2", "jbd2_run_stats", NULL, PROFILE_IO, false,
	  "no journal write amplification (blocks logged per commit)" },
	{ "jbd2", "jbd2_checkpoint_stats", NULL, PROFILE_IO, true,
	  "no journal checkpoint statistics" },
	{ "sched", "sched_process_fork", NULL, PROFILE_IO, false,
	  "processes started during the recording are not followed" },
	{ "sched", "sched_process_exec", NULL, PROFILE_IO, false,
	  "process names after exec come only from saved_cmdlines" },
	{ "sched", "sched_process_exit", NULL, PROFILE_IO, false,
	  "process lifetimes are not known" },
	{ "task", "task_rename", NULL, PROFILE_IO, true,
	  "thread renames (comm changes) are not followed" },
	{ "task", "task_newtask", NULL, PROFILE_IO, true,
	  "new tasks are known only from sched_process_fork" },
	{ "cgroup", "cgroup_attach_task", NULL, PROFILE_IO, true,
	  "moves between cgroups during the recording are not seen (the start snapshot's cgroups and fork inheritance stand)" },
	{ "filemap", "mm_filemap_add_to_page_cache", NULL, PROFILE_IO, true,
	  "no inode of buffered reads" },
	/*
	 * io_uring (5.1+): submit_req was submit_sqe before 6.0; the req
	 * field of complete and file_get came in 5.18 (before, requests are
	 * paired by ring and user_data, file_get by thread).
	 */
	{ "io_uring", "io_uring_submit_req", "io_uring_submit_sqe", PROFILE_IO,
	  true, "io_uring requests are not seen (their block I/O still is, on no file)" },
	{ "io_uring", "io_uring_complete", NULL, PROFILE_IO, true,
	  "io_uring requests have no bytes, latency or file" },
	{ "io_uring", "io_uring_file_get", NULL, PROFILE_IO, true,
	  "io_uring requests are not tied to their file" },
	{ "io_uring", "io_uring_queue_async_work", NULL, PROFILE_IO, true,
	  "pages dirtied by iou-wrk workers for registered files are on no file" },
	{ "io_uring", "io_uring_register", NULL, PROFILE_IO, true,
	  "io_uring requests on registered files are on no file" },
	{ "io_uring", "io_uring_create", NULL, PROFILE_IO, true,
	  "SQPOLL submissions of rings made before the recording go to the poll thread" },
	{ "sched", "sched_switch", NULL, PROFILE_IOWAIT, false,
	  "no D-state (I/O wait) time per process" },
	{ "sched", "sched_wakeup", NULL, PROFILE_IOWAIT, false,
	  "no end of D-state waits (wakeups)" },
	{ "sched", "sched_waking", NULL, PROFILE_IOWAIT, true,
	  "no waker of D-state waits" },
};

#define RAW_COST "no syscall latency, bytes or fd tracking at all"
#define COMPAT_COST "32-bit (compat) programs' syscalls are not recorded"

/* Add an event to the plan unless it is there already; returns it. */
static struct plan_event *plan_add(struct plan *p, const char *system,
				   const char *name, const char *cost)
{
	struct plan_event *e;
	size_t i;

	for (i = 0; i < p->nev; i++)
		if (!strcmp(p->ev[i].system, system) &&
		    !strcmp(p->ev[i].name, name))
			return &p->ev[i];
	if (p->nev == p->alloc) {
		size_t a = p->alloc ? 2 * p->alloc : 64;
		struct plan_event *v = realloc(p->ev, a * sizeof(*v));

		if (!v)
			goto nomem;
		p->ev = v;
		p->alloc = a;
	}
	e = &p->ev[p->nev];
	memset(e, 0, sizeof(*e));
	e->system = strdup(system);
	e->name = strdup(name);
	if (!e->system || !e->name) {
		free(e->system);
		free(e->name);
		goto nomem;
	}
	e->cost = cost;
	p->nev++;
	return e;
nomem:
	/* the plan fails (plan_build, plan_enable); its caller goes on */
	p->nomem = true;
	memset(&p->spare, 0, sizeof(p->spare));
	return &p->spare;
}

static bool event_exists(const char *system, const char *name)
{
	return trace_event_exists(system, name);
}

/* Add @name (or its stand-in @alt) of @system, checking presence. */
static void plan_add_checked(struct plan *p, const char *system,
			     const char *name, const char *alt, bool optional,
			     const char *cost)
{
	struct plan_event *e = plan_add(p, system, name, cost);

	e->optional = optional;
	if (event_exists(system, name)) {
		e->state = PLAN_OK;
		return;
	}
	if (alt && event_exists(system, alt)) {
		e->state = PLAN_REPLACED;
		e->note = "replaced by its older name";
		e = plan_add(p, system, alt, cost);
		e->state = PLAN_OK;
		return;
	}
	e->state = PLAN_MISSING;
}

static void plan_add_profiles(struct plan *p)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(profile_events); i++) {
		const struct event_def *d = &profile_events[i];

		if (!(d->profiles & p->profiles))
			continue;
		plan_add_checked(p, d->system, d->name, d->alt, d->optional,
				 d->cost);
	}
}

/* Append @nr to the id list @ids (of *n) unless it is there. */
static void add_id(long *ids, size_t *n, long nr)
{
	size_t i;

	if (nr < 0)
		return;
	for (i = 0; i < *n; i++)
		if (ids[i] == nr)
			return;
	ids[(*n)++] = nr;
}

/*
 * Build the raw_syscalls filter "id == N || id == M ...": the ids of
 * interest of the compat ABI, and in raw mode those of the native ABI too.
 */
static char *raw_filter(struct plan *p, bool native)
{
	struct sbuf sb = SBUF_INIT;
	char *filter;
	long ids[2 * 128];
	size_t i, n = 0;

	for (i = 0; i < systab_len && i < 128; i++) {
		if (native)
			add_id(ids, &n, systab_nr(&systab[i], p->abi));
		if (p->compat_mode != COMPAT_NONE && p->compat_mode != COMPAT_OFF)
			add_id(ids, &n, systab_nr(&systab[i], p->compat));
	}
	for (i = 0; i < n; i++)
		sbuf_addf(&sb, "%sid == %ld", i ? " || " : "", ids[i]);
	if (sb.failed) {
		sbuf_release(&sb);
		p->nomem = true;
		return NULL;
	}
	filter = sbuf_detach(&sb);
	if (!filter)
		filter = strdup("");
	p->nomem |= !filter;
	return filter;
}

static bool has_enter_filter(const char *call);

/*
 * Shadow mode: for every compat id of interest that is, natively, a call
 * iorec does not record, enable that native call's syscalls:sys_enter
 * event as a marker.  Then every raw_syscalls event of a native task has
 * a syscalls:* twin from the same tracepoint hit, and a raw event without
 * one is a compat task's (see iorec(5), COMPAT TASKS).
 */
static void plan_add_markers(struct plan *p)
{
	const struct marker_def *m;
	struct sbuf un = SBUF_INIT;
	size_t n, i, j, k;

	m = abi_markers(p->abi, &n);
	for (i = 0; i < n; i++) {
		bool compat_id = false, found = false;

		for (j = 0; j < systab_len; j++)
			if (systab_nr(&systab[j], p->compat) == m[i].nr)
				compat_id = true;
		if (!compat_id)
			continue;
		for (k = 0; k < ARRAY_SIZE(m[i].events) && m[i].events[k] &&
		     !found; k++) {
			char name[80];
			struct plan_event *e;

			snprintf(name, sizeof(name), "sys_enter_%s",
				 m[i].events[k]);
			if (!event_exists("syscalls", name))
				continue;
			e = plan_add(p, "syscalls", name,
				     "raw events of native tasks at this number look like a 32-bit program's");
			e->state = PLAN_OK;
			e->optional = true;
			e->marker = true;
			p->nmarkers++;
			found = true;
		}
		if (!found)
			sbuf_addf(&un, "%s%d", un.len ? "," : "", m[i].nr);
	}
	/*
	 * A native call iorec records with an enter filter (ioctl, mmap)
	 * has no twin when the filter says no: its number is unshadowed
	 * when it is also a compat id of interest.
	 */
	for (i = 0; i < systab_len; i++) {
		long nr = systab_nr(&systab[i], p->abi);
		bool compat_id = false;

		if (nr < 0 || !has_enter_filter(systab[i].name))
			continue;
		for (j = 0; j < systab_len; j++)
			if (systab_nr(&systab[j], p->compat) == nr)
				compat_id = true;
		if (compat_id)
			sbuf_addf(&un, "%s%ld", un.len ? "," : "", nr);
	}
	free(p->unshadowed);
	p->nomem |= un.failed;
	p->unshadowed = un.failed ? NULL : sbuf_detach(&un);
	sbuf_release(&un);
	if (!p->unshadowed)
		p->unshadowed = strdup("");
	p->nomem |= !p->unshadowed;
}

/* Decide how compat (32-bit) tasks' syscalls are recorded. */
static void plan_compat(struct plan *p)
{
	const char *why = NULL;

	p->compat = abi_compat(p->abi, &why);
	p->compat_why = why;
	if (p->compat == ABI_UNKNOWN) {
		p->compat_mode = COMPAT_NONE;
		return;
	}
	if (p->no_compat) {
		p->compat_mode = COMPAT_OFF;
		p->compat_why = "--no-compat was given";
		return;
	}
	if (!abi_has_table(p->compat)) {
		p->compat_mode = COMPAT_OFF;
		p->compat_why = "iorec has no syscall table for this compat ABI";
		return;
	}
	p->compat_mode = p->raw_syscalls ? COMPAT_RAW : COMPAT_SHADOW;
}

static void plan_add_syscalls(struct plan *p, bool raw)
{
	bool have = trace_path_exists("events/syscalls");
	size_t i;

	p->raw_forced = raw;
	p->raw_syscalls = raw || !have;
	p->nsyscalls = 0;
	for (i = 0; i < systab_len; i++) {
		const struct systab_row *s = &systab[i];
		char enter[64], exit_[64];
		struct plan_event *e;

		/* unknown ABI: name events as the kernel does, no numbers */
		if (abi_has_table(p->abi) && systab_nr(s, p->abi) < 0)
			continue;
		p->nsyscalls++;
		snprintf(enter, sizeof(enter), "sys_enter_%s", s->name);
		snprintf(exit_, sizeof(exit_), "sys_exit_%s", s->name);
		if (p->raw_syscalls) {
			plan_add(p, "syscalls", enter, s->cost)->state = PLAN_SKIPPED;
			plan_add(p, "syscalls", exit_, s->cost)->state = PLAN_SKIPPED;
			continue;
		}
		plan_add_checked(p, "syscalls", enter, NULL, s->optional, s->cost);
		e = plan_add(p, "syscalls", exit_, s->cost);
		e->optional = s->optional;
		e->state = event_exists("syscalls", exit_) ? PLAN_OK : PLAN_MISSING;
		if (event_exists("syscalls", enter))
			p->nsyscalls_found++;
	}
	plan_compat(p);
	if (p->raw_syscalls && !abi_has_table(p->abi)) {
		p->raw_syscalls = false;
		p->raw_unnumbered = true;
		return;
	}
	if (!p->raw_syscalls && p->compat_mode != COMPAT_SHADOW)
		return;
	plan_add_checked(p, "raw_syscalls", "sys_enter", NULL, false,
			 p->raw_syscalls ? RAW_COST : COMPAT_COST);
	plan_add_checked(p, "raw_syscalls", "sys_exit", NULL, false,
			 p->raw_syscalls ? RAW_COST : COMPAT_COST);
	if (!event_exists("raw_syscalls", "sys_enter") ||
	    !event_exists("raw_syscalls", "sys_exit")) {
		if (p->compat_mode == COMPAT_SHADOW || p->compat_mode == COMPAT_RAW) {
			p->compat_mode = COMPAT_OFF;
			p->compat_why = "kernel without raw_syscalls events";
		}
	}
	if (p->compat_mode == COMPAT_SHADOW)
		plan_add_markers(p);
	p->raw_filter = raw_filter(p, p->raw_syscalls);
}

/* Add one -e argument: "sys:event" or "sys:*".  Returns 0 or -1. */
static int plan_add_user(struct plan *p, const char *arg)
{
	const char *colon = strchr(arg, ':');
	char *system;
	const char *name;
	struct plan_event *e;

	if (!colon || colon == arg || !colon[1])
		return error("bad event '%s': use SYSTEM:EVENT or SYSTEM:*",
			     arg);
	system = strdup(arg);
	if (!system)
		return error(ERR_NOMEM);
	system[colon - arg] = '\0';
	name = colon + 1;
	if (!strcmp(name, "*")) {
		char **events = tracefs_system_events(NULL, system);
		int i;

		if (!events || !events[0]) {
			e = plan_add(p, system, "*", "(asked for with -e)");
			e->state = PLAN_MISSING;
			e->user = true;
			p->nusers_missing++;
		}
		for (i = 0; events && events[i]; i++) {
			e = plan_add(p, system, events[i], "(asked for with -e)");
			e->state = PLAN_OK;
			e->user = true;
		}
		tracefs_list_free(events);
	} else {
		e = plan_add(p, system, name, "(asked for with -e)");
		e->user = true;
		if (event_exists(system, name)) {
			e->state = PLAN_OK;
		} else {
			e->state = PLAN_MISSING;
			p->nusers_missing++;
		}
	}
	free(system);
	return 0;
}

void plan_add_ok(struct plan *p, const char *system, const char *name,
		 const char *cost)
{
	struct plan_event *e = plan_add(p, system, name, cost);

	e->state = PLAN_OK;
	e->optional = true;
}

int plan_build(struct plan *p, unsigned int profiles, char **user_events,
	       int nuser, bool raw_syscalls, int kernel_long_size)
{
	int i;

	if (!trace_path_exists("events"))
		return error("%s/events not found: this kernel has no trace events (enable CONFIG_TRACING and CONFIG_EVENT_TRACING)",
			     tracefs_tracing_dir());
	p->profiles = profiles;
	p->abi = abi_kernel(kernel_long_size);
	p->compat = ABI_UNKNOWN;
	p->compat_mode = COMPAT_NONE;
	plan_add_profiles(p);
	if (profiles & PROFILE_IO)
		plan_add_syscalls(p, raw_syscalls);
	for (i = 0; i < nuser; i++)
		if (plan_add_user(p, user_events[i]) < 0)
			return -1;
	if (p->nomem)
		return error(ERR_NOMEM);
	return 0;
}

void plan_release(struct plan *p)
{
	size_t i;

	for (i = 0; i < p->nev; i++) {
		free(p->ev[i].system);
		free(p->ev[i].name);
	}
	free(p->ev);
	free(p->raw_filter);
	free(p->unshadowed);
	free(p->task_filter);
	free(p->task_desc);
	memset(p, 0, sizeof(*p));
}

size_t plan_count_ok(const struct plan *p)
{
	size_t i, n = 0;

	for (i = 0; i < p->nev; i++)
		n += p->ev[i].state == PLAN_OK;
	return n;
}

static const char *state_word(const struct plan_event *e)
{
	switch (e->state) {
	case PLAN_OK:		return "ok";
	case PLAN_REPLACED:	return "replaced";
	case PLAN_SKIPPED:	return "skipped";
	case PLAN_MISSING:	break;
	}
	return e->optional ? "absent" : "MISSING";
}

/*
 * One wrapped line per system of the events that will be recorded;
 * syscalls:sys_enter_X and sys_exit_X are shown once, as X.
 */
static void print_ok_compact(const struct plan *p, FILE *f)
{
	size_t i, j;

	for (i = 0; i < p->nev; i++) {
		const char *sys = p->ev[i].system;
		int col;
		bool seen = false;

		if (p->ev[i].state != PLAN_OK || p->ev[i].marker)
			continue;
		for (j = 0; j < i && !seen; j++)
			seen = p->ev[j].state == PLAN_OK && !p->ev[j].marker &&
			       !strcmp(p->ev[j].system, sys);
		if (seen)
			continue;
		col = fprintf(f, "    %s:", sys);
		for (j = i; j < p->nev; j++) {
			const struct plan_event *e = &p->ev[j];
			const char *name = e->name;
			int len;

			if (e->state != PLAN_OK || e->marker ||
			    strcmp(e->system, sys))
				continue;
			if (!strcmp(sys, "syscalls")) {
				if (strncmp(name, "sys_enter_", 10))
					continue;	/* shown with its enter */
				name += 10;
			}
			len = (int)strlen(name) + 1;
			if (col + len > 78)
				col = fprintf(f, "\n     ") - 1;
			col += fprintf(f, " %s", name);
		}
		fputc('\n', f);
	}
	if (p->nmarkers)
		fprintf(f, "    markers: sys_enter of %d native syscalls numbered like 32-bit ones\n",
			p->nmarkers);
}

void plan_print_events(const struct plan *p, FILE *f, bool verbose)
{
	size_t i;

	if (!verbose) {
		fprintf(f, "  recorded (syscalls: enter and exit of each):\n");
		print_ok_compact(p, f);
	}
	for (i = 0; i < p->nev; i++) {
		const struct plan_event *e = &p->ev[i];

		if (!verbose && (e->state == PLAN_OK ||
				 e->state == PLAN_SKIPPED))
			continue;
		if (e->marker && e->state == PLAN_OK && verbose) {
			fprintf(f, "  %-8s %s:%s (marker)\n", "ok", e->system,
				e->name);
			continue;
		}
		fprintf(f, "  %-8s %s:%s", state_word(e), e->system, e->name);
		if (e->state == PLAN_MISSING)
			fprintf(f, ": %s%s", e->cost,
				e->optional ? " (optional)" : "");
		else if (e->note)
			fprintf(f, " (%s)", e->note);
		fputc('\n', f);
	}
}

void plan_warn_missing(const struct plan *p, bool verbose)
{
	size_t i;

	for (i = 0; i < p->nev; i++) {
		const struct plan_event *e = &p->ev[i];

		if (e->state != PLAN_MISSING || (e->optional && !verbose))
			continue;
		warning("%s:%s missing: %s", e->system, e->name, e->cost);
	}
}

/* Write "1" to events/SYSTEM/EVENT/enable of the instance. */
static int event_enable(struct tracefs_instance *inst,
			const struct plan_event *e)
{
	return tracefs_event_file_write(inst, e->system, e->name, "enable",
					"1") < 0 ? -1 : 0;
}

/*
 * Syscall enters recorded only for some arguments: ioctl for FIONCLEX and
 * FIOCLEX (0x5450, 0x5451 on every ABI iorec knows), the two that change
 * close-on-exec.  Their exits are all recorded (an exit has no arguments
 * to filter on); the analyzer drops those without an enter.
 */
static const struct {
	const char *event;
	const char *filter;
} enter_filters[] = {
	{ "sys_enter_ioctl", "(cmd == 0x5450 || cmd == 0x5451)" },
	/* MAP_SHARED (and MAP_SHARED_VALIDATE): the mappings written back */
	{ "sys_enter_mmap", "(flags & 1)" },
	{ "sys_enter_mmap_pgoff", "(flags & 1)" },
};

/* Does iorec record the enters of this call (systab name) only in part? */
static bool has_enter_filter(const char *call)
{
	char name[80];

	snprintf(name, sizeof(name), "sys_enter_%s", call);
	for (size_t i = 0; i < ARRAY_SIZE(enter_filters); i++)
		if (!strcmp(enter_filters[i].event, name))
			return true;
	return false;
}

/*
 * The filter of syscalls:NAME: the enter filter if any, and not iorec;
 * NULL without memory.
 */
static char *syscall_filter(const char *name, const char *self)
{
	size_t i;
	char *f;

	for (i = 0; i < ARRAY_SIZE(enter_filters); i++)
		if (!strcmp(enter_filters[i].event, name))
			return asprintf(&f, "%s && %s", enter_filters[i].filter,
					self) < 0 ? NULL : f;
	return strdup(self);
}

/* An event of 32-bit programs' syscalls in shadow mode. */
static bool compat_event(const struct plan_event *e)
{
	return e->marker || !strcmp(e->system, "raw_syscalls");
}

int plan_compat_enable(struct plan *p, struct tracefs_instance *inst)
{
	int pass, ret = 0;
	size_t i;

	/* markers first: a native raw event must never lack its twin */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < p->nev; i++) {
			struct plan_event *e = &p->ev[i];

			if (e->state != PLAN_OK || !compat_event(e) ||
			    e->marker != !pass)
				continue;
			if (event_enable(inst, e) < 0) {
				warning("cannot enable %s:%s: %m (32-bit programs' syscalls may be missing)",
					e->system, e->name);
				ret = -1;
			}
		}
	return ret;
}

/*
 * Write the filters of every per-task event of the plan (the syscall
 * events, raw_syscalls, the probes): never iorec itself, and only the
 * tasks of p->task_filter when there is one.  Returns 0, or -1 when a
 * filter of the task filter could not be set (with a warning).
 */
static int write_task_filters(struct plan *p, struct tracefs_instance *inst)
{
	char *self;
	size_t i;
	int ret = 0;

	/*
	 * Syscall events always fire in the context of the calling task, so
	 * a common_pid filter on them drops iorec's own reads and writes and
	 * nothing else (unlike a filter on block events, which may fire in
	 * interrupt context while iorec happens to be current).
	 */
	if ((p->task_filter ?
	     asprintf(&self, "common_pid != %d && (%s)", (int)getpid(),
		      p->task_filter) :
	     asprintf(&self, "common_pid != %d", (int)getpid())) < 0)
		return error(ERR_NOMEM);
	if (p->raw_filter) {
		static const char *const ev[] = { "sys_enter", "sys_exit" };
		char *f;
		size_t k;

		if (asprintf(&f, "(%s) && %s", p->raw_filter, self) < 0) {
			free(self);
			return error(ERR_NOMEM);
		}

		for (k = 0; k < ARRAY_SIZE(ev); k++)
			if (tracefs_event_file_exists(inst, "raw_syscalls",
						      ev[k], "filter") &&
			    tracefs_event_file_write(inst, "raw_syscalls",
						     ev[k], "filter", f) < 0) {
				warning("cannot filter raw_syscalls:%s on the I/O syscalls (%m): recording every syscall",
					ev[k]);
				ret = -1;
			}
		free(f);
	}
	for (i = 0; i < p->nev; i++) {
		struct plan_event *e = &p->ev[i];
		char *f;

		if (e->state != PLAN_OK || (strcmp(e->system, "syscalls") &&
		    strncmp(e->system, GROUP_PREFIX, strlen(GROUP_PREFIX))))
			continue;
		f = syscall_filter(e->name, self);
		if (!f) {
			ret = error(ERR_NOMEM);
			break;
		}
		if (tracefs_event_file_write(inst, e->system, e->name,
					     "filter", f) < 0) {
			warning("cannot filter %s:%s with '%s' (%m): more of the machine's syscalls are recorded",
				e->system, e->name, f);
			ret = -1;
		}
		free(f);
	}
	free(self);
	return ret;
}

int plan_set_task_filter(struct plan *p, struct tracefs_instance *inst,
			 const char *filter, const char *desc)
{
	free(p->task_filter);
	free(p->task_desc);
	p->task_filter = filter ? strdup(filter) : NULL;
	p->task_desc = desc ? strdup(desc) : NULL;
	if ((filter && !p->task_filter) || (desc && !p->task_desc))
		return error(ERR_NOMEM);
	return inst ? write_task_filters(p, inst) : 0;
}

int plan_enable(struct plan *p, struct tracefs_instance *inst)
{
	size_t i;
	int n = 0;

	if (p->nomem)
		return error(ERR_NOMEM);
	if (write_task_filters(p, inst) < 0 && p->task_filter)
		return error("cannot set the system-call filter '%s' (see the warning above): nothing recorded",
			     p->task_filter);
	for (i = 0; i < p->nev; i++) {
		struct plan_event *e = &p->ev[i];

		if (e->state != PLAN_OK)
			continue;
		if (p->compat_armed && compat_event(e)) {
			n++;	/* plan_compat_enable() turns it on */
			continue;
		}
		if (event_enable(inst, e) < 0) {
			warning("cannot enable %s:%s: %m", e->system, e->name);
			e->state = PLAN_MISSING;
			continue;
		}
		n++;
	}
	if (!n)
		return error("no trace event could be enabled: nothing to record (see iorec --check)");
	return n;
}

/* Append the EVENT_FORMAT chunk of one event: "system\0" + format text. */
static int write_format(const struct plan_event *e,
			struct tracefs_instance *inst, struct iorec_writer *w)
{
	char *text;
	int size = 0, ret;
	struct sbuf sb = SBUF_INIT;

	text = tracefs_event_file_read(inst, e->system, e->name, "format",
				       &size);
	if (!text) {
		warning("cannot read the format of %s:%s: %m (its events will not decode)",
			e->system, e->name);
		return 0;
	}
	sbuf_add(&sb, e->system, strlen(e->system) + 1);
	sbuf_add(&sb, text, (size_t)size);
	free(text);
	ret = sb.failed ? -IOREC_E_NOMEM :
	      iorec_writer_add(w, IOREC_CHUNK_EVENT_FORMAT, NULL, 0, sb.buf,
			       sb.len, true);
	sbuf_release(&sb);
	return ret;
}

/* "NR\tNAME\n" of every syscall of interest in @abi. */
static int write_table(struct iorec_writer *w, uint16_t type,
		       enum rec_abi abi)
{
	struct sbuf sb = SBUF_INIT;
	size_t i;
	int ret;

	for (i = 0; i < systab_len; i++)
		if (systab_nr(&systab[i], abi) >= 0)
			sbuf_addf(&sb, "%ld\t%s\n", systab_nr(&systab[i], abi),
				    systab[i].name);
	if (!sb.len && !sb.failed)
		return 0;
	ret = sb.failed ? -IOREC_E_NOMEM :
	      iorec_writer_add(w, type, NULL, 0, sb.buf, sb.len, true);
	sbuf_release(&sb);
	return ret;
}

static int write_syscalls(const struct plan *p, struct iorec_writer *w)
{
	int ret = write_table(w, IOREC_CHUNK_SYSCALLS, p->abi);

	if (!ret && p->compat != ABI_UNKNOWN && abi_has_table(p->compat))
		ret = write_table(w, IOREC_CHUNK_COMPAT_SYSCALLS, p->compat);
	return ret;
}

int plan_write_formats(const struct plan *p, struct tracefs_instance *inst,
		       struct iorec_writer *w)
{
	size_t i;
	int ret;

	for (i = 0; i < p->nev; i++) {
		if (p->ev[i].state != PLAN_OK)
			continue;
		ret = write_format(&p->ev[i], inst, w);
		if (ret < 0)
			return ret;
	}
	return write_syscalls(p, w);
}

const char *plan_profile_names(unsigned int profiles)
{
	if ((profiles & PROFILE_IO) && (profiles & PROFILE_IOWAIT))
		return "io,iowait";
	if (profiles & PROFILE_IOWAIT)
		return "iowait";
	if (profiles & PROFILE_IO)
		return "io";
	return "";
}

int plan_parse_profiles(const char *list)
{
	char *copy = strdup(list), *tok, *save = NULL;
	int bits = 0;

	if (!copy)
		return -1;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "io"))
			bits |= PROFILE_IO;
		else if (!strcmp(tok, "iowait"))	/* adds to io */
			bits |= PROFILE_IO | PROFILE_IOWAIT;
		else {
			bits = -1;
			break;
		}
	}
	free(copy);
	return bits ? bits : -1;
}

const char *plan_compat_word(enum compat_mode m)
{
	switch (m) {
	case COMPAT_SHADOW:	return "shadow";
	case COMPAT_RAW:	return "raw";
	case COMPAT_OFF:	return "off";
	case COMPAT_NONE:	break;
	}
	return "none";
}
