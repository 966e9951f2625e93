// SPDX-License-Identifier: MIT
/*
 * decode-sys.c - the syscall/process/fd pipeline driver: turns a
 * recording's events into the plain structs of sysreplay.h and
 * proctable.h, feeds the state machines and aggregates every completed
 * call per process (struct procstat) and per file (struct filestat).
 *
 * Two syscall encodings give the same result: syscalls:sys_enter_NAME /
 * sys_exit_NAME (fields read by name, in ABI order), and the fallback
 * raw_syscalls:sys_enter (id + args[6]) / sys_exit (id + ret), whose id
 * is named by the recording machine's syscall table.  Field handles are
 * looked up once per event type.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "source.h"
#include "sysreplay.h"
#include "proctable.h"

#define OPEN_CLOEXEC		02000000	/* O_CLOEXEC (x86, arm, arm64, riscv) */
#define CLOSE_RANGE_CLOEXEC_FLAG (1U << 2)
#define FCNTL_DUPFD		0
#define FCNTL_SETFD		2
#define FCNTL_DUPFD_CLOEXEC	1030
#define FD_CLOEXEC_FLAG		1

enum htype {
	H_SYS_ENTER = 1,
	H_SYS_EXIT,
	H_RAW_ENTER,
	H_RAW_EXIT,
	H_FORK,
	H_NEWTASK,
	H_EXEC,
	H_EXIT,
	H_RENAME,
	H_PATH_HINT,
};

/* What to do with one event type; fields looked up once. */
struct handler {
	enum htype type;
	enum sys_kind kind;
	struct source_field *f[SYS_MAX_ARGS];	/* args, ABI order */
	struct source_field *a, *b, *c, *d;	/* per type, see build_handlers */
};

struct sysrun_decoder {
	struct source *src;
	struct imap handlers;	/* event id -> struct handler */
	struct idtab by_id;	/* the same, dense */
	struct imap raw_kinds;	/* raw syscall id -> (intptr) kind + 1 */
	char path[4096];
};

/* ------------------------------------------------------------------ */
/* Handlers */

static struct handler *add_handler(struct sysrun_decoder *d, int id, enum htype t)
{
	struct handler *h = xcalloc(1, sizeof(*h));

	h->type = t;
	free(imap_put(&d->handlers, id, h));
	return h;
}

static bool has_syscall_events(struct source_event_type *types, int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(types[i].system, "syscalls") &&
		    !strncmp(types[i].name, "sys_enter_", 10) &&
		    sys_kind_lookup(types[i].name + 10) != SK_NONE)
			return true;
	return false;
}

static void build_handlers(struct sysrun_decoder *d, struct sysrun *run)
{
	struct source *src = d->src;
	struct source_event_type *types;
	int n;
	bool use_raw;

	types = source_event_types(src, &n);
	/* Both encodings present (trace.dat with everything): syscalls:*. */
	use_raw = !has_syscall_events(types, n);
	for (int i = 0; i < n; i++) {
		const char *sys = types[i].system, *name = types[i].name;
		int id = types[i].id;
		struct handler *h;
		enum sys_kind k;

		if (!strcmp(sys, "syscalls") && !strncmp(name, "sys_enter_", 10)) {
			k = sys_kind_lookup(name + 10);
			if (k == SK_NONE)
				continue;
			h = add_handler(d, id, H_SYS_ENTER);
			h->kind = k;
			for (int j = 0; j < SYS_MAX_ARGS; j++) {
				const char *fn = sys_kind_info(k)->fields[j];

				if (!fn)
					break;
				h->f[j] = source_field(src, id, fn);
			}
			run->st.syscall_events = true;
		} else if (!strcmp(sys, "syscalls") &&
			   !strncmp(name, "sys_exit_", 9)) {
			k = sys_kind_lookup(name + 9);
			if (k == SK_NONE)
				continue;
			h = add_handler(d, id, H_SYS_EXIT);
			h->kind = k;
			h->a = source_field(src, id, "ret");
		} else if (use_raw && !strcmp(sys, "raw_syscalls") &&
			   !strcmp(name, "sys_enter")) {
			h = add_handler(d, id, H_RAW_ENTER);
			h->a = source_field(src, id, "id");
			h->b = source_field(src, id, "args");
			run->st.raw_syscalls = true;
		} else if (use_raw && !strcmp(sys, "raw_syscalls") &&
			   !strcmp(name, "sys_exit")) {
			h = add_handler(d, id, H_RAW_EXIT);
			h->a = source_field(src, id, "id");
			h->b = source_field(src, id, "ret");
		} else if (!strcmp(sys, "sched") &&
			   !strcmp(name, "sched_process_fork")) {
			h = add_handler(d, id, H_FORK);
			h->a = source_field(src, id, "parent_pid");
			h->b = source_field(src, id, "child_pid");
			h->c = source_field(src, id, "child_comm");
			run->st.proc_events = true;
		} else if (!strcmp(sys, "sched") &&
			   !strcmp(name, "sched_process_exec")) {
			h = add_handler(d, id, H_EXEC);
			h->a = source_field(src, id, "pid");
			h->b = source_field(src, id, "old_pid");
			h->c = source_field(src, id, "filename");
			run->st.proc_events = true;
		} else if (!strcmp(sys, "sched") &&
			   !strcmp(name, "sched_process_exit")) {
			h = add_handler(d, id, H_EXIT);
			h->a = source_field(src, id, "pid");
			h->b = source_field(src, id, "group_dead");
			run->st.proc_events = true;
		} else if (!strcmp(sys, "task") && !strcmp(name, "task_newtask")) {
			h = add_handler(d, id, H_NEWTASK);
			h->a = source_field(src, id, "pid");
			h->b = source_field(src, id, "comm");
			h->c = source_field(src, id, "clone_flags");
		} else if (!strcmp(sys, "task") && !strcmp(name, "task_rename")) {
			h = add_handler(d, id, H_RENAME);
			h->a = source_field(src, id, "pid");
			h->b = source_field(src, id, "newcomm");
		} else if (strstr(sys, "uprobe") || !strncmp(sys, "iorec_", 6)) {
			/*
			 * The late-path hook: a uprobe on the C library's
			 * open functions (iorec's group iorec_PID) carrying
			 * the path string names the thread's open that is
			 * waiting or comes next.
			 */
			struct source_field *p = source_field(src, id, "path");

			if (!p)
				p = source_field(src, id, "filename");
			if (!p)
				continue;
			h = add_handler(d, id, H_PATH_HINT);
			h->a = p;
		}
	}
}

/* ------------------------------------------------------------------ */
/* Field reading */

static uint64_t get_u64(struct sysrun *run, const struct source_field *f,
			const struct source_event *ev)
{
	uint64_t v = 0;

	if (f && source_field_u64(f, ev, &v))
		run->st.decode_errors++;
	return v;
}

static int64_t get_s64(struct sysrun *run, const struct source_field *f,
		       const struct source_event *ev)
{
	int64_t v = 0;

	if (!f || source_field_s64(f, ev, &v)) {
		run->st.decode_errors++;
		return 0;
	}
	return v;
}

static const char *get_str(struct sysrun_decoder *d, const struct source_field *f,
			   const struct source_event *ev)
{
	if (!f || source_field_str(f, ev, d->path, sizeof(d->path)))
		return NULL;
	return d->path;
}

/*
 * A path string from a field that is a string (char[], __data_loc, on
 * kernels whose syscall events copy it, and libc uprobes' ustring), or
 * NULL when the field is only a user pointer (this kernel's syscalls).
 */
static const char *get_path(struct sysrun_decoder *d, const struct source_field *f,
			    const struct source_event *ev)
{
	const char *s;

	if (!source_field_is_string(f))
		return NULL;
	s = get_str(d, f, ev);
	if (!s || !*s)
		return NULL;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return NULL;
	return s;
}

/* raw_syscalls:sys_enter's unsigned long args[6], in ABI order. */
static int raw_args(struct sysrun *run, const struct handler *h,
		    const struct source_event *ev, uint64_t args[SYS_MAX_ARGS])
{
	for (int i = 0; i < SYS_MAX_ARGS; i++)
		if (source_field_array_u64(h->b, ev, i, &args[i])) {
			run->st.decode_errors++;
			return -1;
		}
	return 0;
}

static enum sys_kind raw_kind(struct sysrun_decoder *d, struct sysrun *run,
			      int64_t id)
{
	void *v;
	enum sys_kind k;

	if (id < 0 || id > INT_MAX)
		return SK_NONE;
	v = imap_get(&d->raw_kinds, (int)id);
	if (v)
		return (enum sys_kind)((intptr_t)v - 1);
	k = sys_kind_lookup(source_syscall_name(d->src, (long)id));
	if (k == SK_NONE)
		run->st.unknown_syscalls++;
	imap_put(&d->raw_kinds, (int)id, (void *)(intptr_t)(k + 1));
	return k;
}

/* ------------------------------------------------------------------ */
/* Aggregation */

struct procstat *procstat_of(struct proc *p)
{
	if (!p->user)
		p->user = xcalloc(1, sizeof(struct procstat));
	return p->user;
}

struct filestat *filestat_of(struct file *f)
{
	if (!f->user)
		f->user = xcalloc(1, sizeof(struct filestat));
	return f->user;
}

/* The file behind fd, made up (and counted) when the fd is unknown. */
static struct file *fd_file(struct sysrun *run, struct proc *p, int fd)
{
	struct file *f;

	if (fd < 0)
		return NULL;
	f = fdtable_get(p->fds, fd);
	if (!f) {
		proctable_fdstats(run->pt)->io_unknown++;
		f = filetab_anon(run->ft, p->pid, fd, 0);
		fdtable_set(p->fds, fd, f, false);
	}
	return f;
}

static void do_open(struct sysrun *run, struct proc *p,
		    const struct sys_call *c, const struct sys_kind_info *ki)
{
	struct file *f;
	bool cloexec = false;
	int fd = (int)c->ret;

	if (c->path && *c->path)
		f = filetab_path(run->ft, c->path);
	else
		f = filetab_anon(run->ft, p->pid, fd, c->start);
	if (c->paired && ki->flags_arg >= 0)
		cloexec = c->args[ki->flags_arg] & OPEN_CLOEXEC;
	fdtable_set(p->fds, fd, f, cloexec);
	filestat_of(f)->opens++;
	proctable_fdstats(run->pt)->opens++;
}

static void do_dup(struct sysrun *run, struct proc *p, int oldfd, int newfd,
		   bool cloexec)
{
	if (fdtable_dup(p->fds, oldfd, newfd, cloexec)) {
		struct file *f;

		proctable_fdstats(run->pt)->dup_unknown++;
		f = filetab_anon(run->ft, p->pid, oldfd, 0);
		fdtable_set(p->fds, oldfd, f, false);
		if (newfd != oldfd)
			fdtable_set(p->fds, newfd, f, cloexec);
	}
}

/* The fd table effects of a completed call. */
static void fd_effects(struct sysrun *run, struct proc *p,
		       const struct sys_call *c, const struct sys_kind_info *ki)
{
	struct fdtable_stats *fst = proctable_fdstats(run->pt);
	int ret = (int)c->ret;

	if ((ki->flags & SKF_OPEN) && c->ret >= 0) {
		do_open(run, p, c, ki);
		return;
	}
	if (!c->paired)
		return;
	switch (c->kind) {
	case SK_CLOSE:
		/* close() frees the fd even when it fails, except EBADF. */
		if (c->ret == -EBADF)
			break;
		if (fdtable_close(p->fds, (int)c->args[0]))
			fst->close_unknown++;
		else
			fst->closes++;
		break;
	case SK_CLOSE_RANGE:
		if (c->ret == 0)
			fdtable_close_range(p->fds, (unsigned int)c->args[0],
					    (unsigned int)c->args[1],
					    c->args[2] & CLOSE_RANGE_CLOEXEC_FLAG);
		break;
	case SK_DUP:
		if (c->ret >= 0)
			do_dup(run, p, (int)c->args[0], ret, false);
		break;
	case SK_DUP2:
		if (c->ret >= 0)
			do_dup(run, p, (int)c->args[0], ret, false);
		break;
	case SK_DUP3:
		if (c->ret >= 0)
			do_dup(run, p, (int)c->args[0], ret,
			       c->args[2] & OPEN_CLOEXEC);
		break;
	case SK_FCNTL:
		if (c->ret < 0)
			break;
		if (c->args[1] == FCNTL_DUPFD ||
		    c->args[1] == FCNTL_DUPFD_CLOEXEC)
			do_dup(run, p, (int)c->args[0], ret,
			       c->args[1] == FCNTL_DUPFD_CLOEXEC);
		else if (c->args[1] == FCNTL_SETFD)
			fdtable_set_cloexec(p->fds, (int)c->args[0],
					    c->args[2] & FD_CLOEXEC_FLAG);
		break;
	default:
		break;
	}
}

void sysrun_account(struct sysrun *run, struct proc *p,
		    const struct sys_call *c)
{
	const struct sys_kind_info *ki = sys_kind_info(c->kind);
	struct procstat *ps = procstat_of(p);
	struct kstat *ks = &ps->k[c->kind];
	uint64_t lat = c->end - c->start, bytes = 0;
	struct file *f, *before;
	int fd;

	ks->count++;
	ps->calls++;
	if (c->ret < 0) {
		ks->errors++;
		ps->errors++;
	}
	if (c->paired)
		hist_add(&ks->lat, lat);
	else
		ks->unpaired++;
	if ((ki->flags & (SKF_READ | SKF_WRITE)) && c->ret > 0)
		bytes = (uint64_t)c->ret;
	ks->bytes += bytes;
	if (ki->flags & SKF_READ)
		ps->read_bytes += bytes;
	if (ki->flags & SKF_WRITE)
		ps->write_bytes += bytes;
	if ((ki->flags & SKF_FSYNC) && c->paired)
		hist_add(&ps->fsync, lat);

	if (!p->fds) {		/* a call after its process's exit event */
		if (run->on_call)
			run->on_call(run->on_call_arg, p, NULL, c);
		return;
	}
	/* a negative fd (read(-1, ...) fails with EBADF) has no file */
	if (c->paired && (ki->flags & SKF_READ) &&
	    (f = fd_file(run, p, (int)c->args[ki->fd_in]))) {
		struct filestat *fs;

		fs = filestat_of(f);
		fs->reads++;
		fs->read_bytes += bytes;
		fs->errors += c->ret < 0;
		hist_add(&fs->rlat, lat);
	}
	if (c->paired && (ki->flags & SKF_WRITE) &&
	    (f = fd_file(run, p, (int)c->args[ki->fd_out]))) {
		struct filestat *fs;

		fs = filestat_of(f);
		fs->writes++;
		fs->write_bytes += bytes;
		fs->errors += c->ret < 0 && !(ki->flags & SKF_READ);
		hist_add(&fs->wlat, lat);
	}
	if (c->paired && (ki->flags & SKF_SYNC) && ki->fd_out >= 0 &&
	    c->kind != SK_SYNCFS &&
	    (f = fd_file(run, p, (int)c->args[ki->fd_out]))) {
		struct filestat *fs;

		fs = filestat_of(f);
		fs->errors += c->ret < 0;
		hist_add(&fs->fsync, lat);
		fs->n_fsync += c->kind == SK_FSYNC;
		fs->n_fdatasync += c->kind == SK_FDATASYNC;
		fs->n_sfr += c->kind == SK_SYNC_FILE_RANGE;
	}
	if (!run->on_call) {
		fd_effects(run, p, c, ki);
		return;
	}
	/* the file before the call's effects (a close), else after (an open) */
	fd = sys_call_fd(c);
	before = fd >= 0 ? fdtable_get(p->fds, fd) : NULL;
	fd_effects(run, p, c, ki);
	f = fd >= 0 && p->fds ? fdtable_get(p->fds, fd) : NULL;
	run->on_call(run->on_call_arg, p, f ? f : before, c);
}

/* ------------------------------------------------------------------ */
/* The event loop */

static void on_exit_event(struct sysrun *run, struct sysrun_decoder *d,
			  const struct source_event *ev, enum sys_kind k,
			  int64_t ret)
{
	struct sys_exit x = {
		.ts = ev->ts, .tid = ev->pid, .cpu = ev->cpu,
		.kind = k, .ret = ret,
	};
	struct sys_call c;
	struct proc *p;

	sysreplay_exit(run->sr, &x, &c);
	p = proctable_lookup(run->pt, ev->pid);
	if (!p)
		p = proctable_get(run->pt, ev->pid,
				  source_comm(d->src, ev->pid), ev->ts);
	sysrun_account(run, p, &c);
}

static void on_event(struct sysrun *run, struct sysrun_decoder *d,
		     const struct source_event *ev, const struct handler *h)
{
	struct sys_enter e;
	const char *s;
	int64_t id;

	switch (h->type) {
	case H_SYS_ENTER:
		memset(&e, 0, sizeof(e));
		e.ts = ev->ts;
		e.tid = ev->pid;
		e.cpu = ev->cpu;
		e.kind = h->kind;
		for (int i = 0; i < SYS_MAX_ARGS; i++)
			if (h->f[i])
				e.args[i] = get_u64(run, h->f[i], ev);
		if (sys_kind_info(h->kind)->path_arg >= 0) {
			e.path = get_path(d, h->f[sys_kind_info(h->kind)->path_arg],
					  ev);
			if (e.path)
				run->st.path_strings = true;
		}
		sysreplay_enter(run->sr, &e);
		break;
	case H_SYS_EXIT:
		on_exit_event(run, d, ev, h->kind, get_s64(run, h->a, ev));
		break;
	case H_RAW_ENTER:
		id = get_s64(run, h->a, ev);
		memset(&e, 0, sizeof(e));
		e.kind = raw_kind(d, run, id);
		if (e.kind == SK_NONE)
			break;
		if (raw_args(run, h, ev, e.args))
			break;
		e.ts = ev->ts;
		e.tid = ev->pid;
		e.cpu = ev->cpu;
		sysreplay_enter(run->sr, &e);
		break;
	case H_RAW_EXIT:
		id = get_s64(run, h->a, ev);
		if (raw_kind(d, run, id) == SK_NONE)
			break;
		on_exit_event(run, d, ev, raw_kind(d, run, id),
			      get_s64(run, h->b, ev));
		break;
	case H_FORK:
		s = get_str(d, h->c, ev);
		proctable_fork(run->pt, ev->ts, (int)get_s64(run, h->a, ev),
			       (int)get_s64(run, h->b, ev), s);
		break;
	case H_NEWTASK:
		proctable_get(run->pt, ev->pid, source_comm(d->src, ev->pid),
			      ev->ts);
		s = get_str(d, h->b, ev);
		proctable_newtask(run->pt, ev->ts, ev->pid,
				  (int)get_s64(run, h->a, ev), s,
				  get_u64(run, h->c, ev));
		break;
	case H_EXEC:
		s = get_str(d, h->c, ev);
		proctable_exec(run->pt, ev->ts, (int)get_s64(run, h->a, ev),
			       h->b ? (int)get_s64(run, h->b, ev) : ev->pid, s);
		break;
	case H_EXIT:
		proctable_exit(run->pt, ev->ts, (int)get_s64(run, h->a, ev),
			       h->b ? (int)get_s64(run, h->b, ev) : -1);
		break;
	case H_RENAME:
		s = get_str(d, h->b, ev);
		if (s)
			proctable_rename(run->pt, ev->ts,
					 (int)get_s64(run, h->a, ev), s);
		break;
	case H_PATH_HINT:
		s = get_path(d, h->a, ev);
		if (s) {
			run->st.path_hints++;
			sysreplay_set_path(run->sr, ev->pid, s);
		}
		break;
	}
}

static void count_named(struct sysrun *run)
{
	for (size_t i = 0; i < filetab_count(run->ft); i++) {
		struct file *f = filetab_at(run->ft, i);
		struct filestat *fs = f->user;

		if (!fs)
			continue;
		if (f->path) {
			run->st.named_calls += fs->reads + fs->writes;
			run->st.named_bytes += fs->read_bytes + fs->write_bytes;
		} else {
			run->st.unnamed_calls += fs->reads + fs->writes;
			run->st.unnamed_bytes += fs->read_bytes + fs->write_bytes;
		}
	}
}

static void decoder_free(struct sysrun_decoder *d)
{
	size_t pos = 0;
	int key;
	void *val;

	if (!d)
		return;
	while (imap_next(&d->handlers, &pos, &key, &val))
		free(val);
	imap_release(&d->handlers);
	idtab_release(&d->by_id);
	imap_release(&d->raw_kinds);
	free(d);
}

int sysrun_begin(struct sysrun *run, struct source *src, char **errmsg)
{
	const struct source_info *info = source_info(src);
	struct sysrun_decoder *d = xcalloc(1, sizeof(*d));

	d->src = src;
	imap_init(&d->handlers);
	imap_init(&d->raw_kinds);
	run->dec = d;
	run->sr = sysreplay_new();
	run->ft = filetab_new();
	run->pt = proctable_new(run->ft);
	build_handlers(d, run);
	idtab_build(&d->by_id, &d->handlers);
	if (!run->st.syscall_events && !run->st.raw_syscalls) {
		*errmsg = xasprintf("%s: no syscall events in the recording; record with iorec's default 'io' profile (or trace-cmd record -e syscalls -e sched)",
				    info->path);
		decoder_free(d);
		run->dec = NULL;
		return -1;
	}
	if (info->snapshot_start)
		proctable_load_start(run->pt, info->snapshot_start);
	if (info->snapshot_end)
		proctable_load_end(run->pt, info->snapshot_end);
	return 0;
}

void sysrun_feed(struct sysrun *run, const struct source_event *ev)
{
	struct sysrun_decoder *d = run->dec;
	struct handler *h;

	if (!d)
		return;
	run->st.events++;
	if (!run->first_ts)
		run->first_ts = ev->ts;
	run->last_ts = ev->ts;
	if (ev->missed) {
		run->st.gaps++;
		sysreplay_gap(run->sr, ev->cpu);
	}
	h = idtab_get(&d->by_id, &d->handlers, ev->id);
	if (h)
		on_event(run, d, ev, h);
}

void sysrun_end(struct sysrun *run)
{
	if (!run->dec)
		return;
	sysreplay_finish(run->sr);
	proctable_finish(run->pt);
	count_named(run);
	decoder_free(run->dec);
	run->dec = NULL;
}

int sysrun_run(struct sysrun *run, struct source *src, char **errmsg)
{
	struct source_event ev;

	if (sysrun_begin(run, src, errmsg))
		return -1;
	while (source_next(src, &ev) > 0)
		sysrun_feed(run, &ev);
	sysrun_end(run);
	return 0;
}

void sysrun_release(struct sysrun *run)
{
	decoder_free(run->dec);
	proctable_free(run->pt, procstat_free);
	filetab_free(run->ft, filestat_free);
	sysreplay_free(run->sr);
	memset(run, 0, sizeof(*run));
}
