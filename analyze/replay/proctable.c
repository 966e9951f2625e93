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

#include "cgname.h"
#include "util.h"
#include "base/blk.h"
#include "base/err.h"
#include "base/imap.h"
#include "base/syskind.h"
#include "input/meta.h"
#include "replay/proctable.h"

#define COMM_MAX	15	/* TASK_COMM_LEN - 1 */

struct proctable {
	struct filetab *ft;
	struct proc **v;
	size_t n, alloc;
	struct imap tids;		/* tid -> current struct proc */
	struct imap by_pid;		/* pid -> its newest struct proc (->older) */
	struct imap newtask;		/* child tid -> proc, until its fork event */
	struct imap end_tgid;		/* end snapshot: tid -> tgid (as intptr) */
	char *end_text;
	/* the mount tables: the host's (ns 0) and other namespaces' */
	struct ns_mount {
		unsigned long long ns;
		unsigned int major, minor;
		char *root, *dir;
	} *mnts;
	size_t nmnts, amnts;
	unsigned long long host_ns;	/* iorec's mount namespace */
	int self_pid;
	/* container id -> name, from the snapshots' container lines */
	struct ctr_name {
		char id[CGNAME_ID_LEN + 1];
		char *name;
	} *ctrs;
	size_t nctrs, actrs;
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
	imap_init(&pt->by_pid);
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
	free(p->cgroups);
	free(p->unit);
	free(p->container);
	free(p->container_id);
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
	imap_release(&pt->by_pid);
	imap_release(&pt->newtask);
	imap_release(&pt->end_tgid);
	free(pt->end_text);
	for (size_t i = 0; i < pt->nmnts; i++) {
		free(pt->mnts[i].root);
		free(pt->mnts[i].dir);
	}
	free(pt->mnts);
	for (size_t i = 0; i < pt->nctrs; i++)
		free(pt->ctrs[i].name);
	free(pt->ctrs);
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
	if (imap_put(&pt->by_pid, pid, p, (void **)&p->older))
		pt->err = -AN_E_NOMEM;
	return p;
}

static void set_cgroups(struct proctable *pt, struct proc *p,
			const char *text);

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


/* ------------------------------------------------------------------ */
/* cgroups, units, containers and mount namespaces */

/* The name of container id, from the snapshots, or NULL. */
static const char *ctr_name(const struct proctable *pt, const char *id)
{
	for (size_t i = 0; i < pt->nctrs; i++)
		if (!strcmp(pt->ctrs[i].id, id))
			return pt->ctrs[i].name;
	return NULL;
}

/* A hierarchy line "ID:CONTROLLERS:PATH" of cgroups: its path. */
static const char *line_path(const char *line, size_t len, size_t *plen)
{
	const char *c1 = memchr(line, ':', len), *c2;

	if (!c1 || !(c2 = memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - line))))
		return NULL;
	*plen = len - (size_t)(c2 + 1 - line);
	return c2 + 1;
}

/*
 * Set p's cgroups to text and derive its unit and container: the first
 * line (v2 first, then name=systemd, then the others) whose path names
 * one.
 */
static void set_cgroups(struct proctable *pt, struct proc *p,
			const char *text)
{
	char path[4096], unit[256] = "", id[CGNAME_ID_LEN + 1] = "";
	static const char *const order[] = { "0::", "name=systemd", "" };
	char *c = dup_str(pt, text);

	if (!c)
		return;
	free(p->cgroups);
	p->cgroups = c;
	for (size_t o = 0; o < ARRAY_SIZE(order); o++) {
		for (const char *l = text; *l;) {
			const char *nl = strchr(l, '\n'), *pp;
			size_t len = nl ? (size_t)(nl - l) : strlen(l), plen;
			bool want;

			if (!strcmp(order[o], "0::"))
				want = !strncmp(l, "0::", 3);
			else if (*order[o])
				want = strstr(l, ":name=systemd:") == strchr(l, ':');
			else
				want = true;
			pp = line_path(l, len, &plen);
			if (want && pp && plen < sizeof(path)) {
				memcpy(path, pp, plen);
				path[plen] = '\0';
				if (!*id)
					cgname_container(path, id);
				if (!*unit)
					cgname_unit(path, unit, sizeof(unit));
			}
			l = nl ? nl + 1 : l + len;
		}
	}
	free(p->unit);
	p->unit = *unit ? dup_str(pt, unit) : NULL;
	free(p->container);
	free(p->container_id);
	p->container = p->container_id = NULL;
	if (*id) {
		p->container_id = dup_str(pt, id);
		const char *name = ctr_name(pt, id);

		p->container = name ? dup_str(pt, name) :
			       an_asprintf("%.12s", id);
		if (!p->container)
			pt->err = -AN_E_NOMEM;
	}
}

/* The snapshot's container, nsmount, mount and self lines. */
static int owner_load_line(char **f, int n, void *arg)
{
	struct proctable *pt = arg;
	struct ns_mount *m;
	unsigned int ma, mi;
	bool ns;

	if (n >= 4 && !strcmp(f[0], "container") &&
	    strlen(f[1]) == CGNAME_ID_LEN && *f[3]) {
		if (ctr_name(pt, f[1]))
			return 0;
		if (an_grow(&pt->ctrs, &pt->actrs, pt->nctrs + 1,
			    sizeof(*pt->ctrs), 8)) {
			pt->err = -AN_E_NOMEM;
			return 0;
		}
		memcpy(pt->ctrs[pt->nctrs].id, f[1], CGNAME_ID_LEN + 1);
		pt->ctrs[pt->nctrs].name = dup_str(pt, f[3]);
		if (pt->ctrs[pt->nctrs].name)
			pt->nctrs++;
		return 0;
	}
	if (n >= 2 && !strcmp(f[0], "self")) {
		pt->self_pid = atoi(f[1]);
		return 0;
	}
	ns = n >= 5 && !strcmp(f[0], "nsmount");
	if (!ns && !(n >= 4 && !strcmp(f[0], "mount")))
		return 0;
	if (parse_devt(f[ns ? 2 : 1], &ma, &mi))
		return 0;
	if (!ns) {
		/* the host's: once (the start snapshot's) */
		for (size_t i = 0; i < pt->nmnts; i++)
			if (!pt->mnts[i].ns && pt->mnts[i].major == ma &&
			    pt->mnts[i].minor == mi &&
			    !strcmp(pt->mnts[i].dir, f[3]))
				return 0;
	}
	if (an_grow(&pt->mnts, &pt->amnts, pt->nmnts + 1, sizeof(*pt->mnts),
		    32)) {
		pt->err = -AN_E_NOMEM;
		return 0;
	}
	m = &pt->mnts[pt->nmnts];
	m->ns = ns ? strtoull(f[1], NULL, 10) : 0;
	m->major = ma;
	m->minor = mi;
	/* mount: the root is the 7th field (older files: "/") */
	m->root = dup_str(pt, ns ? f[3] : n >= 8 ? f[7] : "/");
	m->dir = dup_str(pt, ns ? f[4] : f[3]);
	if (m->root && m->dir) {
		pt->nmnts++;
	} else {
		free(m->root);
		free(m->dir);
	}
	return 0;
}

static void load_owners(struct proctable *pt, const char *text)
{
	meta_lines(text, NULL, owner_load_line, pt);
}

/*
 * A snapshot's "cgroup PID HIERARCHY CONTROLLERS PATH" line @f as one more
 * line of @p's cgroups, after those it has when @keep, else in their place.
 */
static void add_cgroup_line(struct proctable *pt, struct proc *p, bool keep,
			    char **f)
{
	char *s = an_asprintf("%s%s:%s:%s\n",
			      keep && p->cgroups ? p->cgroups : "",
			      f[2], f[3], f[4]);

	if (!s) {
		pt->err = -AN_E_NOMEM;
		return;
	}
	set_cgroups(pt, p, s);
	free(s);
}

/* A start snapshot's cgroup and mntns lines, after its proc lines. */
static int owner_line(char **f, int n, void *arg)
{
	struct proctable *pt = arg;
	struct proc *p;
	int pid;

	if (n < 3)
		return 0;
	pid = atoi(f[1]);
	p = imap_get(&pt->tids, pid);
	if (!p || p->pid != pid)
		return 0;
	if (!strcmp(f[0], "mntns")) {
		p->mntns = strtoull(f[2], NULL, 10);
		if (pid == pt->self_pid)
			pt->host_ns = p->mntns;
	} else if (n >= 5 && !strcmp(f[0], "cgroup")) {
		add_cgroup_line(pt, p, p->at_start, f);
	}
	return 0;
}

void proctable_cgroup_attach(struct proctable *pt, uint64_t ts, int tid,
			     int root, const char *path)
{
	struct proc *p = proctable_get(pt, tid, NULL, ts);
	char head[24], *s;
	const char *l, *rest = NULL, *old = p->cgroups ? p->cgroups : "";
	size_t hl, before;

	if (!path || p == &pt->spare)
		return;
	pt->st.cgroup_moves++;
	hl = (size_t)snprintf(head, sizeof(head), "%d:", root);
	for (l = old; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l))
		if (!strncmp(l, head, hl))
			break;
	before = (size_t)(l - old);
	if (*l) {
		const char *c = strchr(l + hl, ':');

		rest = strchr(l, '\n');
		rest = rest ? rest + 1 : l + strlen(l);
		s = an_asprintf("%.*s%.*s%s\n%s", (int)before, old,
				(int)(c ? (size_t)(c + 1 - l) : hl), l,
				path, rest);
	} else {
		/* the controllers of a hierarchy not seen: left empty */
		s = an_asprintf("%s%s:%s\n", old, head, path);
	}
	if (!s) {
		pt->err = -AN_E_NOMEM;
		return;
	}
	set_cgroups(pt, p, s);
	free(s);
}

const char *proc_cgroup_key(const struct proc *p, char *buf, size_t size)
{
	size_t n = 0;

	if (!p->cgroups || !size)
		return NULL;
	buf[0] = '\0';
	for (int pass = 0; pass < 3; pass++) {
		for (const char *l = p->cgroups; *l;) {
			const char *nl = strchr(l, '\n'), *pp, *c1, *l0 = l;
			size_t len = nl ? (size_t)(nl - l) : strlen(l), plen;
			bool v2 = !strncmp(l, "0::", 3);
			bool sd = strstr(l, ":name=systemd:") == strchr(l, ':');

			pp = line_path(l, len, &plen);
			l = nl ? nl + 1 : l + len;
			if (!pp || (plen == 1 && *pp == '/'))
				continue;
			if (pass == 0 && v2)
				return snprintf(buf, size, "%.*s", (int)plen,
						pp), buf;
			if (pass == 1 && sd)
				return snprintf(buf, size, "%.*s", (int)plen,
						pp), buf;
			if (pass == 2 && !v2 && !sd) {
				c1 = strchr(l0, ':') + 1;
				if (n < size)
					n += (size_t)snprintf(buf + n, size - n,
						"%s%.*s", n ? "," : "",
						(int)(len - (size_t)(c1 - l0)),
						c1);
			}
		}
	}
	if (!n)
		snprintf(buf, size, "/");
	return buf;
}

bool proc_in_cgroup(const struct proc *p, const char *path)
{
	size_t want = strlen(path);

	while (want > 1 && path[want - 1] == '/')
		want--;
	if (!p->cgroups)
		return false;
	for (const char *l = p->cgroups; *l;) {
		const char *nl = strchr(l, '\n'), *pp;
		size_t len = nl ? (size_t)(nl - l) : strlen(l), plen;

		pp = line_path(l, len, &plen);
		l = nl ? nl + 1 : l + len;
		if (pp && plen >= want && !strncmp(pp, path, want) &&
		    (plen == want || pp[want] == '/' || want == 1))
			return true;
	}
	return false;
}

/* Whether dir is "/" or a prefix of path up to a '/'. */
static size_t under(const char *dir, const char *path)
{
	size_t l = strlen(dir);

	while (l > 1 && dir[l - 1] == '/')
		l--;
	if (l == 1 && dir[0] == '/')
		return 1;
	if (strncmp(dir, path, l) || (path[l] && path[l] != '/'))
		return 0;
	return path[l] ? l + 1 : l;
}

const char *proctable_host_path(struct proctable *pt, unsigned long long ns,
				const char *path, char *buf, size_t size)
{
	const struct ns_mount *in = NULL, *host = NULL;
	size_t best = 0, hbest = 0;
	char full[4096];
	const char *rest;

	if (!ns || !pt->host_ns || ns == pt->host_ns || !path ||
	    path[0] != '/')
		return NULL;
	for (size_t i = 0; i < pt->nmnts; i++) {
		const struct ns_mount *m = &pt->mnts[i];
		size_t l;

		if (m->ns != ns || !(l = under(m->dir, path)) || l < best)
			continue;
		best = l;
		in = m;
	}
	if (!in)
		return NULL;
	/* the path in its file system: the mount's root, then the rest */
	rest = path + best;
	snprintf(full, sizeof(full), "%s%s%s", in->root,
		 in->root[strlen(in->root) - 1] == '/' || !*rest ? "" : "/",
		 rest);
	for (size_t i = 0; i < pt->nmnts; i++) {
		const struct ns_mount *m = &pt->mnts[i];
		size_t l;

		if (m->ns || m->major != in->major || m->minor != in->minor ||
		    !(l = under(m->root, full)))
			continue;
		/* the longest root; of equal ones, the shortest mount point */
		if (l > hbest || (l == hbest && host &&
				  strlen(m->dir) < strlen(host->dir))) {
			hbest = l;
			host = m;
		}
	}
	if (!host)
		return NULL;
	rest = full + hbest;
	snprintf(buf, size, "%s%s%s", host->dir,
		 host->dir[strlen(host->dir) - 1] == '/' || !*rest ? "" : "/",
		 rest);
	return buf;
}

/* A file p named: its host path too when p is in another namespace. */
static void set_host_path(struct proctable *pt, const struct proc *p,
			  struct file *f)
{
	char buf[4096];

	if (!f || !f->path || f->host_path ||
	    !proctable_host_path(pt, p->mntns, f->path, buf, sizeof(buf)))
		return;
	file_set_host_path(pt->ft, f, buf);
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
		set_host_path(pt, p, file);
		pt->st.fds_seeded++;
	}
	return 0;
}

int proctable_load_start(struct proctable *pt, const char *text)
{
	size_t before = pt->n;

	load_owners(pt, text);
	meta_lines(text, NULL, start_line, pt);
	meta_lines(text, NULL, owner_line, pt);
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

/*
 * An inode line of the end snapshot (iorec(5)): the path of an inode that
 * had I/O, read through the file system at the end of the recording.
 */
static int end_inode_line(char **f, int n, void *arg)
{
	struct proctable *pt = arg;
	unsigned int ma, mi;
	unsigned long long ino;

	if (n < 5 || parse_devt(f[1], &ma, &mi))
		return 0;
	ino = strtoull(f[2], NULL, 10);
	filetab_inode_hint(pt->ft, ma, mi, ino, f[4],
			   n >= 6 && !strcmp(f[5], "unlinked"),
			   n >= 6 && !strcmp(f[5], "gone"),
			   n >= 7 && !strcmp(f[0], "reused") ?
			   strtoull(f[6], NULL, 10) : 0);
	return 0;
}

void proctable_load_end(struct proctable *pt, const char *text)
{
	free(pt->end_text);
	pt->end_text = text ? dup_str(pt, text) : NULL;
	if (text) {
		meta_lines(text, "thread", end_line, pt);
		meta_lines(text, "inode", end_inode_line, pt);
		meta_lines(text, "reused", end_inode_line, pt);
		load_owners(pt, text);
	}
}

struct proc *proctable_lookup(struct proctable *pt, int tid)
{
	return imap_get(&pt->tids, tid);
}

bool proctable_is_self(struct proctable *pt, int tid)
{
	const struct proc *p;

	if (pt->self_pid <= 0 || tid == pt->self_pid)
		return pt->self_pid > 0;
	p = imap_get(&pt->tids, tid);
	return p ? p->pid == pt->self_pid :
	       (int)(intptr_t)imap_get(&pt->end_tgid, tid) == pt->self_pid;
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
	if (c != &pt->spare) {
		c->mntns = parent->mntns;
		if (parent->cgroups && !c->cgroups)
			set_cgroups(pt, c, parent->cgroups);
	}
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

/*
 * A cgroup or mntns line of the end snapshot: the cgroups of a process
 * neither the start snapshot nor a fork told (first seen in an event).
 */
static int end_owner_line(char **f, int n, void *arg)
{
	struct proctable *pt = arg;
	struct proc *p;
	int pid;

	if (n < 3)
		return 0;
	pid = atoi(f[1]);
	p = imap_get(&pt->tids, pid);
	if (!p || p->exited || p->pid != pid || (p->cgroups && !p->guessed))
		return 0;
	if (!strcmp(f[0], "mntns") && !p->mntns) {
		p->mntns = strtoull(f[2], NULL, 10);
	} else if (n >= 5 && !strcmp(f[0], "cgroup")) {
		if (p->cgroups && strstr(p->cgroups, "\n") &&
		    !p->end_cgroups)
			return 0;	/* known from the events */
		p->end_cgroups = true;
		add_cgroup_line(pt, p, true, f);
	}
	return 0;
}

void proctable_finish(struct proctable *pt)
{
	if (pt->end_text) {
		meta_lines(pt->end_text, "fd", end_fd_line, pt);
		meta_lines(pt->end_text, NULL, end_owner_line, pt);
	}
}

struct proc *proctable_of_tid_at(struct proctable *pt, int tid, uint64_t ts)
{
	struct proc *p = proctable_lookup(pt, tid);

	if (p && (!p->start_ts || p->start_ts <= ts))
		return p;
	/* the processes of that pid, the newest first */
	for (p = imap_get(&pt->by_pid, tid); p; p = p->older)
		if ((!p->start_ts || p->start_ts <= ts) &&
		    !(p->exited && p->exit_ts && p->exit_ts < ts))
			return p;
	return NULL;
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
	set_host_path(pt, p, f);
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
