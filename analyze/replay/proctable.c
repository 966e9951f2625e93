// SPDX-License-Identifier: MIT
/*
 * proctable.c - processes and threads replayed from the start snapshot
 * and the fork/clone/exec/rename/exit events, each process with its fd
 * table.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "base/blk.h"
#include "base/err.h"
#include "base/imap.h"
#include "base/syskind.h"
#include "input/meta.h"
#include "replay/proctable.h"

#define COMM_MAX	15	/* TASK_COMM_LEN - 1 */
#define OPEN_CLOEXEC	02000000	/* O_CLOEXEC: same on x86, arm, arm64, riscv */
#define CLOSE_RANGE_CLOEXEC_FLAG (1U << 2)
#define FCNTL_DUPFD		0
#define FCNTL_SETFD		2
#define FCNTL_DUPFD_CLOEXEC	1030
#define FD_CLOEXEC_FLAG		1
#define RENAME_EXCHANGE_FLAG	(1U << 1)
#define AT_REMOVEDIR_FLAG	0x200
#define IOCTL_FIONCLEX		0x5450	/* x86, arm, arm64, riscv */
#define IOCTL_FIOCLEX		0x5451

struct proctable {
	struct filetab *ft;
	struct proc **v;
	size_t n, alloc;
	struct imap tids;		/* tid -> current struct proc */
	struct imap newtask;		/* child tid -> proc, until its fork event */
	struct imap end_tgid;		/* end snapshot: tid -> tgid (as intptr) */
	char *end_text;
	struct proctable_stats st;
	struct fdtable_stats fdst;
	struct proc spare;	/* handed out when a process cannot be made */
	int err;		/* sticky: -AN_E_NOMEM */
};

struct proctable *proctable_new(struct filetab *ft)
{
	struct proctable *pt = an_calloc(1, sizeof(*pt));

	if (!pt)
		return NULL;
	pt->ft = ft;
	pt->spare.id = -1;
	pt->spare.comm = an_strdup("<...>");
	if (!pt->spare.comm) {
		free(pt);
		return NULL;
	}
	imap_init(&pt->tids);
	imap_init(&pt->newtask);
	imap_init(&pt->end_tgid);
	return pt;
}

int proctable_error(const struct proctable *pt)
{
	return pt->err;
}

static void proc_release(struct proc *p, void (*free_user)(void *))
{
	if (free_user)
		free_user(p->user);
	fdtable_free(p->fds);
	free(p->comm);
	free(p->comms);
	free(p->exe);
}

void proctable_free(struct proctable *pt, void (*free_user)(void *))
{
	if (!pt)
		return;
	for (size_t i = 0; i < pt->n; i++) {
		proc_release(pt->v[i], free_user);
		free(pt->v[i]);
	}
	proc_release(&pt->spare, free_user);
	free(pt->v);
	imap_release(&pt->tids);
	imap_release(&pt->newtask);
	imap_release(&pt->end_tgid);
	free(pt->end_text);
	free(pt);
}

/* A copy of s, or NULL with the table's error set. */
static char *dup_str(struct proctable *pt, const char *s)
{
	char *c = an_strdup(s);

	if (!c)
		pt->err = -AN_E_NOMEM;
	return c;
}

static void add_comm(struct proctable *pt, struct proc *p, const char *comm)
{
	size_t len = strlen(comm);
	char *s, *hit;

	if (!*comm || !strcmp(comm, "<...>"))
		return;
	if (!p->comms) {
		p->comms = dup_str(pt, comm);
		return;
	}
	/* Already listed?  Entries are separated by ','. */
	for (s = p->comms; (hit = strstr(s, comm)); s = hit + 1)
		if ((hit == p->comms || hit[-1] == ',') &&
		    (hit[len] == ',' || !hit[len]))
			return;
	s = an_asprintf("%s,%s", p->comms, comm);
	if (!s) {
		pt->err = -AN_E_NOMEM;
		return;
	}
	free(p->comms);
	p->comms = s;
}

static void set_comm(struct proctable *pt, struct proc *p, const char *comm)
{
	char *c;

	if (!comm || !*comm)
		return;
	c = dup_str(pt, comm);
	if (!c)
		return;
	free(p->comm);
	p->comm = c;
	add_comm(pt, p, comm);
}

/* A new process, or the spare one with the error set (never NULL). */
static struct proc *proc_new(struct proctable *pt, int pid, int ppid,
			     const char *comm, uint64_t ts)
{
	struct proc *p = NULL;

	if (an_grow(&pt->v, &pt->alloc, pt->n + 1, sizeof(*pt->v), 64) ||
	    !(p = an_calloc(1, sizeof(*p))) ||
	    !(p->comm = an_strdup(comm && *comm ? comm : "<...>")) ||
	    !(p->fds = fdtable_new())) {
		if (p)
			free(p->comm);
		free(p);
		pt->err = -AN_E_NOMEM;
		p = &pt->spare;
		p->pid = pid;
		return p;
	}
	p->id = (int)pt->n;
	p->pid = pid;
	p->ppid = ppid;
	p->start_ts = ts;
	if (comm && *comm)
		add_comm(pt, p, comm);
	pt->v[pt->n++] = p;
	return p;
}

static void proc_dead(struct proctable *pt, struct proc *p, uint64_t ts)
{
	if (p->exited)
		return;
	p->exited = true;
	p->exit_ts = ts;
	fdtable_free(p->fds);
	p->fds = NULL;
}

/* Map tid to p; a process that held tid before lost it (pid reuse). */
static void attach(struct proctable *pt, int tid, struct proc *p)
{
	void *prev;
	struct proc *old;

	if (imap_put(&pt->tids, tid, p, &prev)) {
		pt->err = -AN_E_NOMEM;
		return;
	}
	old = prev;
	if (old == p)
		return;
	p->nthreads++;
	if (!old)
		return;
	old->nthreads--;
	if (!old->exited && (old->nthreads <= 0 || old->pid == tid)) {
		/* Its exit was not recorded (lost, or before tracing). */
		pt->st.pid_reuse++;
		proc_dead(pt, old, 0);
	}
}

/*
 * The "MAJ:MIN" of an fd line, and nothing after it: 0, else -1 (then
 * *major and *minor may hold a device that text followed).
 */
static int parse_devt(const char *s, unsigned int *major, unsigned int *minor)
{
	const char *end = blk_dev_parse(s, BLK_DEV_SCANF, major, minor);

	return end && !*end ? 0 : -1;
}

/* A proc, thread or fd line of the start snapshot. */
static int start_line(char **f, int n, void *arg)
{
	struct proctable *pt = arg;
	struct proc *p;

	if (n >= 4 && !strcmp(f[0], "proc")) {
		int pid = atoi(f[1]);

		if (pid <= 0)
			return 0;
		p = proc_new(pt, pid, atoi(f[2]), f[3], 0);
		p->at_start = true;
		if (n >= 5 && *f[4] && !p->exe)
			p->exe = dup_str(pt, f[4]);
		attach(pt, pid, p);
	} else if (n >= 3 && !strcmp(f[0], "thread")) {
		int tid = atoi(f[1]);

		p = imap_get(&pt->tids, atoi(f[2]));
		if (tid > 0 && p)
			attach(pt, tid, p);
	} else if (n >= 8 && !strcmp(f[0], "fd")) {
		unsigned int ma, mi;
		unsigned long long ino;
		unsigned long flags;
		struct file *file;
		int pid = atoi(f[1]), fd = atoi(f[2]);

		p = imap_get(&pt->tids, pid);
		if (!p || p->pid != pid || fd < 0 || !p->fds)
			return 0;
		ino = strtoull(f[4], NULL, 10);
		flags = strtoul(f[5], NULL, 8);	/* fdinfo prints it in octal */
		if (!parse_devt(f[3], &ma, &mi) && ino)
			file = filetab_devino(pt->ft, ma, mi, ino, f[7]);
		else
			file = filetab_path(pt->ft, f[7]);
		if (fdtable_set(p->fds, fd, file, flags & OPEN_CLOEXEC))
			pt->err = -AN_E_NOMEM;
		pt->st.fds_seeded++;
	}
	return 0;
}

int proctable_load_start(struct proctable *pt, const char *text)
{
	size_t before = pt->n;

	meta_lines(text, NULL, start_line, pt);
	return (int)(pt->n - before);
}

/* A thread line of the end snapshot: where a tid belonged. */
static int end_line(char **f, int n, void *arg)
{
	struct proctable *pt = arg;

	if (n >= 3 && atoi(f[1]) > 0 && atoi(f[2]) > 0 &&
	    imap_put(&pt->end_tgid, atoi(f[1]), (void *)(intptr_t)atoi(f[2]),
		     NULL))
		pt->err = -AN_E_NOMEM;
	return 0;
}

void proctable_load_end(struct proctable *pt, const char *text)
{
	free(pt->end_text);
	pt->end_text = text ? dup_str(pt, text) : NULL;
	if (text)
		meta_lines(text, "thread", end_line, pt);
}

struct proc *proctable_lookup(struct proctable *pt, int tid)
{
	return imap_get(&pt->tids, tid);
}

struct proc *proctable_get(struct proctable *pt, int tid, const char *comm,
			   uint64_t ts)
{
	struct proc *p = imap_get(&pt->tids, tid);
	int tgid;

	if (p)
		return p;
	pt->st.unknown_tids++;
	tgid = (int)(intptr_t)imap_get(&pt->end_tgid, tid);
	if (tgid > 0 && tgid != tid) {
		p = imap_get(&pt->tids, tgid);
		if (!p || p->exited) {
			p = proc_new(pt, tgid, 0, comm, ts);
			p->guessed = true;
			attach(pt, tgid, p);
		}
	} else {
		p = proc_new(pt, tid, 0, comm, ts);
		p->guessed = true;
	}
	attach(pt, tid, p);
	return p;
}

/* Was child a thread of parent's process, by the end snapshot? */
static bool end_says_thread(struct proctable *pt, struct proc *parent,
			    int child)
{
	int tgid = (int)(intptr_t)imap_get(&pt->end_tgid, child);

	return tgid > 0 && tgid != child && tgid == parent->pid;
}

static void create_child(struct proctable *pt, uint64_t ts,
			 struct proc *parent, int child, const char *comm,
			 bool thread)
{
	struct proc *c;

	if (thread) {
		pt->st.threads++;
		attach(pt, child, parent);
		if (imap_put(&pt->newtask, child, parent, NULL))
			pt->err = -AN_E_NOMEM;
		return;
	}
	pt->st.forks++;
	c = proc_new(pt, child, parent->pid, comm ? comm : parent->comm, ts);
	if (parent->fds && c != &pt->spare) {
		fdtable_free(c->fds);
		c->fds = fdtable_copy(parent->fds);
		if (!c->fds)
			pt->err = -AN_E_NOMEM;
	}
	if (parent->exe && !c->exe)
		c->exe = dup_str(pt, parent->exe);
	attach(pt, child, c);
	if (imap_put(&pt->newtask, child, c, NULL))
		pt->err = -AN_E_NOMEM;
}

void proctable_newtask(struct proctable *pt, uint64_t ts, int parent_tid,
		       int child_tid, const char *comm, uint64_t clone_flags)
{
	struct proc *parent = proctable_get(pt, parent_tid, comm, ts);

	if (child_tid <= 0)
		return;
	create_child(pt, ts, parent, child_tid, comm,
		     clone_flags & CLONE_THREAD_FLAG);
}

void proctable_fork(struct proctable *pt, uint64_t ts, int parent_tid,
		    int child_tid, const char *child_comm)
{
	struct proc *parent;

	if (child_tid <= 0)
		return;
	/* Already created by its task_newtask event. */
	if (imap_del(&pt->newtask, child_tid))
		return;
	parent = proctable_get(pt, parent_tid, child_comm, ts);
	create_child(pt, ts, parent, child_tid, child_comm,
		     end_says_thread(pt, parent, child_tid));
	imap_del(&pt->newtask, child_tid);
}

void proctable_exec(struct proctable *pt, uint64_t ts, int pid, int old_pid,
		    const char *filename)
{
	struct proc *p = proctable_get(pt, old_pid > 0 ? old_pid : pid, NULL,
				       ts);
	const char *base;
	char comm[COMM_MAX + 1];
	int n;

	pt->st.execs++;
	if (old_pid > 0 && old_pid != pid) {
		/* A non-leader thread exec'd: it takes the leader's pid. */
		if (imap_get(&pt->tids, old_pid) == p) {
			imap_del(&pt->tids, old_pid);
			p->nthreads--;
		}
		attach(pt, pid, p);
	}
	if (p->fds) {
		n = fdtable_exec(p->fds);
		pt->fdst.exec_closed += (uint64_t)n;
	}
	if (filename && *filename) {
		free(p->exe);
		p->exe = dup_str(pt, filename);
		base = strrchr(filename, '/');
		base = base ? base + 1 : filename;
		snprintf(comm, sizeof(comm), "%s", base);
		set_comm(pt, p, comm);
	}
}

void proctable_rename(struct proctable *pt, uint64_t ts, int tid,
		      const char *newcomm)
{
	struct proc *p = proctable_get(pt, tid, newcomm, ts);

	pt->st.renames++;
	if (tid == p->pid)
		set_comm(pt, p, newcomm);
	else
		add_comm(pt, p, newcomm);
}

void proctable_exit(struct proctable *pt, uint64_t ts, int tid,
		    int group_dead)
{
	struct proc *p = imap_del(&pt->tids, tid);

	imap_del(&pt->newtask, tid);
	if (!p) {
		pt->st.exit_unknown++;
		return;
	}
	p->nthreads--;
	if (group_dead == 1 || (group_dead < 0 && p->nthreads <= 0)) {
		pt->st.exits++;
		proc_dead(pt, p, ts);
	}
}

/* An fd line of the end snapshot: the name of an fd still open. */
static int end_fd_line(char **f, int n, void *arg)
{
	struct proctable *pt = arg;
	struct proc *p;
	struct file *file;
	unsigned int ma = 0, mi = 0;
	unsigned long long ino;
	int pid, fd;
	bool devino;

	if (n < 8)
		return 0;
	pid = atoi(f[1]);
	fd = atoi(f[2]);
	p = imap_get(&pt->tids, pid);
	if (!p || p->exited || p->pid != pid || !p->fds)
		return 0;
	file = fdtable_get(p->fds, fd);
	if (!file || file->path)
		return 0;
	ino = strtoull(f[4], NULL, 10);
	devino = !parse_devt(f[3], &ma, &mi) && ino;
	file_set_name(pt->ft, file, f[7], devino, ma, mi, ino);
	pt->st.fds_named_end++;
	return 0;
}

void proctable_finish(struct proctable *pt)
{
	if (pt->end_text)
		meta_lines(pt->end_text, "fd", end_fd_line, pt);
}

struct proc *proctable_of_tid_at(struct proctable *pt, int tid, uint64_t ts)
{
	struct proc *p = proctable_lookup(pt, tid), *best = NULL;

	if (p && (!p->start_ts || p->start_ts <= ts))
		return p;
	for (size_t i = 0; i < pt->n; i++) {
		p = pt->v[i];
		if (p->pid != tid || (p->start_ts && p->start_ts > ts) ||
		    (p->exited && p->exit_ts && p->exit_ts < ts))
			continue;
		best = p;
	}
	return best;
}

size_t proctable_count(const struct proctable *pt)
{
	return pt->n;
}

struct proc *proctable_at(const struct proctable *pt, size_t i)
{
	return i < pt->n ? pt->v[i] : NULL;
}

const struct proctable_stats *proctable_stats(const struct proctable *pt)
{
	return &pt->st;
}

struct fdtable_stats *proctable_fdstats(struct proctable *pt)
{
	return &pt->fdst;
}

/* ------------------------------------------------------------------ */
/* The fd table effects of a completed call */

/* Install f as p's fd; without memory the table's error is set. */
static void set_fd(struct proctable *pt, struct proc *p, int fd,
		   struct file *f, bool cloexec)
{
	if (fdtable_set(p->fds, fd, f, cloexec))
		pt->err = -AN_E_NOMEM;
}

/* The file behind fd, made up (and counted) when the fd is unknown. */
struct file *fd_file(struct proctable *pt, struct proc *p, int fd)
{
	struct file *f;

	if (fd < 0)
		return NULL;
	f = fdtable_get(p->fds, fd);
	if (!f) {
		pt->fdst.io_unknown++;
		f = filetab_anon(pt->ft, p->pid, fd, 0);
		set_fd(pt, p, fd, f, false);
	}
	return f;
}

static struct file *do_open(struct proctable *pt, struct proc *p,
			    const struct sys_call *c,
			    const struct sys_kind_info *ki)
{
	struct file *f;
	bool cloexec = false;
	int fd = (int)c->ret;

	if (c->path && *c->path)
		f = filetab_path(pt->ft, c->path);
	else
		f = filetab_anon(pt->ft, p->pid, fd, c->start);
	if (c->paired && ki->flags_arg >= 0)
		cloexec = c->args[ki->flags_arg] & OPEN_CLOEXEC;
	set_fd(pt, p, fd, f, cloexec);
	pt->fdst.opens++;
	return f;
}

static void do_dup(struct proctable *pt, struct proc *p, int oldfd, int newfd,
		   bool cloexec)
{
	int rc = fdtable_dup(p->fds, oldfd, newfd, cloexec);

	if (rc == -1) {
		struct file *f;

		pt->fdst.dup_unknown++;
		f = filetab_anon(pt->ft, p->pid, oldfd, 0);
		set_fd(pt, p, oldfd, f, false);
		if (newfd != oldfd)
			set_fd(pt, p, newfd, f, cloexec);
	} else if (rc) {
		pt->err = -AN_E_NOMEM;
	}
}

/*
 * A rename, unlink or link that succeeded, on the files of the recording
 * known by the name it gives (as the program gave it: a name relative to
 * another directory is not the same name).
 */
static void do_names(struct proctable *pt, const struct sys_call *c)
{
	struct fdtable_stats *fst = &pt->fdst;
	struct file *f, *g;

	if (!c->path || (c->kind != SK_UNLINK && c->kind != SK_UNLINKAT &&
			 !c->path2)) {
		fst->names_unnamed++;
		return;
	}
	if (c->kind == SK_UNLINKAT && (c->args[2] & AT_REMOVEDIR_FLAG))
		return;
	f = filetab_find_path(pt->ft, c->path);
	if (!f) {
		fst->names_unknown++;
		return;
	}
	fst->names_followed++;
	switch (c->kind) {
	case SK_RENAMEAT2:
		if (c->args[4] & RENAME_EXCHANGE_FLAG) {
			g = filetab_find_path(pt->ft, c->path2);
			if (g)
				file_exchange(pt->ft, f, g);
			else
				file_rename(pt->ft, f, c->path2);
			break;
		}
		/* fall through */
	case SK_RENAME:
	case SK_RENAMEAT:
		g = filetab_find_path(pt->ft, c->path2);
		if (g && g != f)
			file_unlink(pt->ft, g);	/* replaced */
		file_rename(pt->ft, f, c->path2);
		break;
	case SK_UNLINK:
	case SK_UNLINKAT:
		file_unlink(pt->ft, f);
		break;
	case SK_LINK:
	case SK_LINKAT:
		file_link(pt->ft, f, c->path2);
		break;
	default:
		break;
	}
}

struct file *fd_apply(struct proctable *pt, struct proc *p,
		      const struct sys_call *c)
{
	const struct sys_kind_info *ki = sys_kind_info(c->kind);
	struct fdtable_stats *fst = &pt->fdst;
	int ret = (int)c->ret;
	struct file *f;

	if ((ki->flags & SKF_OPEN) && c->ret >= 0)
		return do_open(pt, p, c, ki);
	if (!c->paired)
		return NULL;
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
			do_dup(pt, p, (int)c->args[0], ret, false);
		break;
	case SK_DUP2:
		if (c->ret >= 0)
			do_dup(pt, p, (int)c->args[0], ret, false);
		break;
	case SK_DUP3:
		if (c->ret >= 0)
			do_dup(pt, p, (int)c->args[0], ret,
			       c->args[2] & OPEN_CLOEXEC);
		break;
	case SK_FCNTL:
		if (c->ret < 0)
			break;
		if (c->args[1] == FCNTL_DUPFD ||
		    c->args[1] == FCNTL_DUPFD_CLOEXEC)
			do_dup(pt, p, (int)c->args[0], ret,
			       c->args[1] == FCNTL_DUPFD_CLOEXEC);
		else if (c->args[1] == FCNTL_SETFD)
			fdtable_set_cloexec(p->fds, (int)c->args[0],
					    c->args[2] & FD_CLOEXEC_FLAG);
		break;
	case SK_RENAME:
	case SK_RENAMEAT:
	case SK_RENAMEAT2:
	case SK_UNLINK:
	case SK_UNLINKAT:
	case SK_LINK:
	case SK_LINKAT:
		if (c->ret == 0)
			do_names(pt, c);
		break;
	case SK_MMAP:
		/*
		 * a shared writable mapping of a file (MAP_SHARED, PROT_WRITE,
		 * an fd): the pages it dirties are the file's; ret the address
		 */
		if ((c->ret < 0 && c->ret > -4096) || !(c->args[3] & 1) ||
		    !(c->args[2] & 2) || (int)c->args[4] < 0)
			break;
		if (fdtable_map(p->fds, (uint64_t)c->ret, c->args[1],
				fd_file(pt, p, (int)c->args[4])))
			pt->err = -AN_E_NOMEM;
		break;
	case SK_MUNMAP:
		if (c->ret == 0)
			fdtable_unmap(p->fds, c->args[0], c->args[1]);
		break;
	case SK_MREMAP:
		if (c->ret < 0 && c->ret > -4096)
			break;
		f = fdtable_map_file(p->fds, c->args[0]);
		fdtable_unmap(p->fds, c->args[0], c->args[1]);
		if (f && fdtable_map(p->fds, (uint64_t)c->ret, c->args[2], f))
			pt->err = -AN_E_NOMEM;
		break;
	case SK_IOCTL:
		if (c->ret == 0 && (c->args[1] == IOCTL_FIOCLEX ||
				    c->args[1] == IOCTL_FIONCLEX))
			fdtable_set_cloexec(p->fds, (int)c->args[0],
					    c->args[1] == IOCTL_FIOCLEX);
		break;
	default:
		break;
	}
	return NULL;
}
