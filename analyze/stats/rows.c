// SPDX-License-Identifier: MIT
/*
 * rows.c - the rows of processes and files of the views and the
 * database (see rows.h).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/blk.h"
#include "base/err.h"
#include "base/hmap.h"
#include "replay/fdtable.h"
#include "replay/proctable.h"
#include "stats/attrib.h"
#include "stats/dirty.h"
#include "stats/fileid.h"
#include "stats/filter.h"
#include "stats/rows.h"
#include "stats/stats.h"
#include "stats/wa.h"

static void proc_info(const struct proc *p, struct proc_info *i)
{
	i->id = p->id;
	i->pid = p->pid;
	i->ppid = p->ppid;
	i->comm = p->comm;
	i->comms = p->comms;
	i->exe = p->exe;
	i->at_start = p->at_start;
	i->guessed = p->guessed;
	i->exited = p->exited;
	i->start_ts = p->start_ts;
	i->exit_ts = p->exit_ts;
	i->unit = p->unit;
	i->container = p->container;
	if (!proc_cgroup_key(p, i->cgroup, sizeof(i->cgroup)))
		i->cgroup[0] = '\0';
}

static void file_info(const struct file *f, struct file_info *i)
{
	i->id = f->id;
	i->path = f->path;
	i->has_devino = f->has_devino;
	i->major = f->major;
	i->minor = f->minor;
	i->ino = f->ino;
	i->pid = f->pid;
	i->fd = f->fd;
	i->open_ts = f->open_ts;
	i->names = f->names;
	i->unlinked = f->unlinked;
	/* file_name() of an unnamed file is a static buffer: keep a copy */
	snprintf(i->unnamed, sizeof(i->unnamed), "%s",
		 f->path ? "" : file_name(f));
}

bool rows_proc_at(const struct stats *st, int id, struct proc_info *out)
{
	struct proc *p;

	if (!st->pt || id < 0 || (size_t)id >= proctable_count(st->pt))
		return false;
	p = proctable_at(st->pt, (size_t)id);
	if (!p || p->id != id)
		return false;
	proc_info(p, out);
	return true;
}

bool rows_file_at(const struct stats *st, int id, struct file_info *out)
{
	struct file *f;

	if (!st->ft || id < 0 || (size_t)id >= filetab_count(st->ft))
		return false;
	f = filetab_at(st->ft, (size_t)id);
	if (!f || f->id != id)
		return false;
	file_info(f, out);
	return true;
}

const char *rows_comm_at(const struct stats *st, int tid, uint64_t ts)
{
	struct proc *p = st->pt ? proctable_of_tid_at(st->pt, tid, ts) : NULL;

	return p ? (p->comm ? p->comm : "?") : stats_comm(st, tid);
}

/* ------------------------------------------------------------------ */
/* Processes */

/* More bytes first, then by name, then by id: the order of the views. */
static int by_bytes(uint64_t bx, uint64_t by, const char *nx,
		    const char *ny, int ix, int iy)
{
	int c = strcmp(nx, ny);

	if (bx != by)
		return bx > by ? -1 : 1;
	return c ? c : (ix > iy) - (ix < iy);
}

static uint64_t prow_bytes(const struct proc_row *r)
{
	return r->ps->read_bytes + r->ps->write_bytes +
	       r->ps->blk.read_bytes + r->ps->blk.write_bytes;
}

static int cmp_prow(const void *a, const void *b)
{
	const struct proc_row *x = a, *y = b;
	uint64_t bx = prow_bytes(x), by = prow_bytes(y);

	/* bytes, then calls, comm, pid and id */
	if (bx == by && x->ps->calls != y->ps->calls)
		return x->ps->calls > y->ps->calls ? -1 : 1;
	if (bx == by && !strcmp(x->p.comm, y->p.comm) && x->p.pid != y->p.pid)
		return x->p.pid < y->p.pid ? -1 : 1;
	return by_bytes(bx, by, x->p.comm, y->p.comm, x->p.id, y->p.id);
}

long rows_processes(const struct stats *st, bool all, struct proc_row **out)
{
	size_t np = st->pt ? proctable_count(st->pt) : 0, n = 0;
	struct proc_row *rows = an_calloc(np + 1, sizeof(*rows));

	*out = rows;
	if (!rows)
		return -AN_E_NOMEM;
	for (size_t i = 0; i < np; i++) {
		const struct proc *p = proctable_at(st->pt, i);
		const struct procstat *ps = p->user;

		if (!all && (!ps || !(ps->calls || ps->blk.read_bytes ||
				      ps->blk.write_bytes ||
				      ps->blk.journal_bytes ||
				      ps->throttles || ps->dstates)))
			continue;
		/* -p/-c: the processes asked for only */
		if (!filter_proc(st->filter, p))
			continue;
		proc_info(p, &rows[n].p);
		rows[n].ps = ps;
		if (ps)
			rows[n].fsyncs = procstat_kind(ps, SK_FSYNC)->count +
					 procstat_kind(ps, SK_FDATASYNC)->count +
					 procstat_kind(ps, SK_URING_FSYNC)->count +
					 procstat_kind(ps, SK_AIO_FSYNC)->count;
		n++;
	}
	if (!all)
		qsort(rows, n, sizeof(*rows), cmp_prow);
	return (long)n;
}

/* ------------------------------------------------------------------ */
/* Files */

/* Files by identity (fileid.h), then id. */
static int cmp_file(const void *a, const void *b)
{
	return fileid_cmp(*(const struct file *const *)a,
			  *(const struct file *const *)b);
}

static uint64_t frow_bytes(const struct file_row *r)
{
	return r->s->read_bytes + r->s->write_bytes + r->s->blk.read_bytes +
	       r->s->blk.write_bytes;
}

static int cmp_frow(const void *a, const void *b)
{
	const struct file_row *x = a, *y = b;

	return by_bytes(frow_bytes(x), frow_bytes(y), file_info_name(&x->f),
			file_info_name(&y->f), x->f.id, y->f.id);
}

static void filestat_release(struct filestat *s)
{
	hist_release(&s->rlat);
	hist_release(&s->wlat);
	hist_release(&s->fsync);
	fileproc_free(s);
}

/* 0, or -AN_E_NOMEM (d partly merged). */
static int merge_filestat(struct filestat *d, const struct filestat *s)
{
	d->opens += s->opens;
	d->reads += s->reads;
	d->writes += s->writes;
	d->read_bytes += s->read_bytes;
	d->write_bytes += s->write_bytes;
	d->errors += s->errors;
	if (hist_merge(&d->rlat, &s->rlat) < 0 ||
	    hist_merge(&d->wlat, &s->wlat) < 0 ||
	    hist_merge(&d->fsync, &s->fsync) < 0)
		return -AN_E_NOMEM;
	blkio_add(&d->blk, &s->blk);
	return fileproc_merge(d, s);
}

/* Whether f is a row: it did something, and -f/-d keep it. */
static bool file_kept(const struct stats *st, const struct file *f)
{
	const struct filestat *s = f->user;

	if (!s || !(s->opens || s->reads || s->writes ||
		    s->fsync.count || s->blk.read_bytes ||
		    s->blk.write_bytes || s->blk.journal_bytes))
		return false;
	return filter_path(st->filter, f->path) &&
	       !(st->filter && st->filter->ndevs &&
		 !filter_file_dev(st->filter, f));
}

long rows_files(const struct stats *st, struct file_row **out)
{
	size_t nf = st->ft ? filetab_count(st->ft) : 0, m = 0;
	const struct file **v;
	struct file_row *rows;
	int rc = 0;

	*out = NULL;
	v = an_calloc(nf + 1, sizeof(*v));
	if (!v)
		return -AN_E_NOMEM;
	for (size_t i = 0; i < nf; i++)
		v[i] = filetab_at(st->ft, i);
	/*
	 * the files of one identity (dev:ino, or path) merged into one row,
	 * straight from their aggregates: a row per identity, not per open.
	 * The row is there when a file of it is kept, but its name comes from
	 * all the files of its identity (its oldest, the path of its oldest
	 * named one, what the newest says the path is now), so that no view
	 * filter changes which file a row is or what it is called.
	 */
	qsort(v, nf, sizeof(*v), cmp_file);
	for (size_t i = 0, j; i < nf; i = j) {
		bool kept = false;

		for (j = i; j < nf && fileid_same(v[i], v[j]); j++)
			kept = kept || file_kept(st, v[j]);
		m += kept;
	}
	rows = an_calloc(m + 1, sizeof(*rows));
	if (!rows) {
		free(v);
		return -AN_E_NOMEM;
	}
	*out = rows;
	m = 0;
	for (size_t i = 0, j; i < nf && !rc; i = j) {
		struct file_row *r = NULL;

		for (j = i; j < nf && fileid_same(v[i], v[j]); j++)
			;
		for (size_t k = i; k < j && !rc; k++) {
			if (!file_kept(st, v[k]))
				continue;
			if (!r) {
				r = &rows[m++];
				r->s = v[k]->user;
				continue;
			}
			if (!r->merged) {
				r->merged = an_calloc(1, sizeof(*r->merged));
				if (!r->merged) {
					rc = -AN_E_NOMEM;
					break;
				}
				rc = merge_filestat(r->merged, r->s);
				r->s = r->merged;
			}
			if (!rc)
				rc = merge_filestat(r->merged, v[k]->user);
		}
		if (!r)
			continue;
		file_info(v[i], &r->f);
		for (size_t k = i + 1; k < j; k++) {
			if (!r->f.path && v[k]->path) {
				r->f.path = v[k]->path;
				r->f.unnamed[0] = '\0';
			}
			/* the newest file of a path says what the path is now */
			if (v[k]->names)
				r->f.names = v[k]->names;
			r->f.unlinked = v[k]->unlinked;
		}
	}
	free(v);
	if (rc) {
		rows_files_release(rows, (long)m);
		*out = NULL;
		return rc;
	}
	qsort(rows, m, sizeof(*rows), cmp_frow);
	return (long)m;
}

void rows_files_release(struct file_row *v, long n)
{
	for (long i = 0; v && i < n; i++) {
		if (v[i].merged)
			filestat_release(v[i].merged);
		free(v[i].merged);
	}
	free(v);
}

long rows_file_idents(const struct stats *st, struct file_ident **out)
{
	size_t n = st->ft ? filetab_count(st->ft) : 0;
	const struct file **v = an_calloc(n + 1, sizeof(*v));
	struct file_ident *rows = an_calloc(n + 1, sizeof(*rows));
	int ident = 0;

	*out = NULL;
	if (!v || !rows) {
		free(v);
		free(rows);
		return -AN_E_NOMEM;
	}
	*out = rows;
	for (size_t i = 0; i < n; i++)
		v[i] = filetab_at(st->ft, i);
	qsort(v, n, sizeof(*v), cmp_file);
	for (size_t i = 0; i < n; i++) {
		if (!i || !fileid_same(v[i - 1], v[i]))
			ident = v[i]->id;
		file_info(v[i], &rows[i].f);
		rows[i].ident = ident;
		rows[i].s = v[i]->user;
	}
	free(v);
	return (long)n;
}

/* ------------------------------------------------------------------ */
/* Write amplification per process and file */

static int cmp_warow(const void *x, const void *y)
{
	const struct wa_row *a = x, *b = y;
	uint64_t ta = a->blk + a->journal, tb = b->blk + b->journal;

	if (ta != tb)
		return ta > tb ? -1 : 1;
	if (a->app != b->app)
		return a->app > b->app ? -1 : 1;
	if (a->pid != b->pid)
		return a->pid - b->pid;
	return strcmp(a->name, b->name);
}

long rows_wa(const struct stats *st, bool byproc, struct wa_row **out)
{
	size_t cnt = !st->have_sys ? 0 : byproc ? proctable_count(st->pt) :
		     filetab_count(st->ft), n = 0;
	struct wa_row *v = an_calloc(cnt + 1, sizeof(*v));

	*out = v;
	if (!v)
		return -AN_E_NOMEM;
	for (size_t i = 0; i < cnt; i++) {
		const struct procstat *ps = NULL;
		const struct filestat *fs = NULL;
		const struct proc *p = NULL;
		const struct file *f = NULL;
		uint64_t w, bw, bj;

		if (byproc) {
			p = proctable_at(st->pt, i);
			ps = p->user;
			if (!ps)
				continue;
			w = ps->write_bytes;
			bw = ps->blk.write_bytes;
			bj = ps->blk.journal_bytes;
		} else {
			f = filetab_at(st->ft, i);
			fs = f->user;
			if (!fs)
				continue;
			w = fs->write_bytes;
			bw = fs->blk.write_bytes;
			bj = fs->blk.journal_bytes;
		}
		if (!w && !bw && !bj)
			continue;
		/* the processes and files the view filters ask for only */
		if (p ? !filter_proc(st->filter, p) :
			!filter_path(st->filter, f->path) ||
			(st->filter && st->filter->ndevs &&
			 !filter_file_dev(st->filter, f)))
			continue;
		v[n].name = an_strdup(p ? (p->comm ? p->comm : "?") :
				      file_name(f));
		if (!v[n].name) {
			rows_wa_release(v, (long)n);
			*out = NULL;
			return -AN_E_NOMEM;
		}
		v[n].pid = p ? p->pid : 0;
		v[n].p = p;
		v[n].app = w;
		v[n].blk = bw;
		v[n].journal = bj;
		n++;
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_warow);
	return (long)n;
}

/* Free n rows of size bytes at v whose name (owned) comes first. */
_Static_assert(offsetof(struct wa_row, name) == 0 &&
	       offsetof(struct fsync_row, name) == 0, "name first");
static void release_named(void *v, long n, size_t size)
{
	for (long i = 0; v && i < n; i++)
		free(*(char **)((char *)v + (size_t)i * size));
	free(v);
}

void rows_wa_release(struct wa_row *v, long n)
{
	release_named(v, n, sizeof(*v));
}

/* ------------------------------------------------------------------ */
/* fsync per process and file */

static int cmp_fsrow(const void *x, const void *y)
{
	const struct fsync_row *a = x, *b = y;
	uint64_t sa = a->lat ? a->lat->sum : 0, sb = b->lat ? b->lat->sum : 0;

	if (sa != sb)
		return sa > sb ? -1 : 1;
	if (a->k_count != b->k_count)
		return a->k_count > b->k_count ? -1 : 1;
	if (a->pid != b->pid)
		return a->pid - b->pid;
	return strcmp(a->name, b->name);
}

/*
 * The rows of the fsync view by what makes one: its process (by pid when
 * the replay does not know the thread), or its file (by dev:ino when no
 * file is known); a row per file fsynced once each (a package's install:
 * thousands) must not make each interval scan them all.
 */
static uint64_t fsrow_key(const struct fsync_row *r, bool byproc)
{
	if (r->p || r->f)
		return hash_mix((uint64_t)(uintptr_t)(r->p ? r->p : r->f));
	return hash_mix(byproc ? (uint64_t)(uint32_t)r->pid | 1ULL << 63 :
			hash_mix(r->ino) ^ r->fsdev);
}

/* A row asked for among the rows v, by process or by file. */
struct fsrow_q {
	const struct fsync_row *r, *v;
	bool byproc;
};

static bool fsrow_same(const void *arg, size_t i)
{
	const struct fsrow_q *q = arg;
	const struct fsync_row *a = q->r, *b = &q->v[i];

	if (a->p || a->f)
		return a->p == b->p && a->f == b->f;
	return !b->p && !b->f && (q->byproc ? a->pid == b->pid :
				  a->ino == b->ino && a->fsdev == b->fsdev);
}

const struct file *rows_fsync_file(const struct stats *st,
				   const struct wa_fsync *w)
{
	const struct file *f = NULL;

	if (st->have_sys)
		f = filetab_find_devino(st->ft, blk_major(w->fsdev),
					blk_minor(w->fsdev), w->ino);
	if (!f && st->at)
		f = attrib_inode_file(st->at, w->fsdev, w->ino);
	return f;
}

/*
 * Whether the view filters keep an ext4 fsync interval's thread and file
 * (p, f: those already found, else NULL); its time and device were
 * decided as it was recorded (wa.c).
 */
static bool fsync_kept(const struct stats *st, const struct wa_fsync *w,
		       const struct proc *p, const struct file *f)
{
	const struct view_filter *flt = st->filter;

	if (!filter_wants_owner(flt))
		return true;
	if (flt->npids || flt->ncomms) {
		if (!p && st->have_sys)
			p = proctable_of_tid_at(st->pt, w->tid, w->last_ts);
		if (p ? !filter_proc(flt, p) :
			!filter_task(flt, w->tid, stats_comm(st, w->tid)))
			return false;
	}
	if (flt->glob) {
		if (!f && st->have_sys)
			f = rows_fsync_file(st, w);
		if (!f || !filter_path(flt, f->path))
			return false;
	}
	return true;
}

long rows_fsync(const struct stats *st, bool byproc, struct fsync_row **out)
{
	size_t nfs = st->wa ? st->wa->nfs : 0, n = 0, cap = nfs + 1;
	struct hmap at = { 0 };
	struct fsync_row *v;

	if (st->have_sys)
		cap += byproc ? proctable_count(st->pt) :
				filetab_count(st->ft);
	v = an_calloc(cap, sizeof(*v));
	*out = v;
	if (!v)
		return -AN_E_NOMEM;
	for (size_t i = 0; st->have_sys && byproc &&
	     i < proctable_count(st->pt); i++) {
		const struct proc *p = proctable_at(st->pt, i);
		const struct procstat *ps = p->user;

		if (!ps || !(ps->fsync.count ||
			     procstat_kind(ps, SK_SYNC_FILE_RANGE)->count))
			continue;
		v[n].p = p;
		v[n].pid = p->pid;
		v[n].lat = &ps->fsync;
		v[n].fsyncs = procstat_kind(ps, SK_FSYNC)->count +
			      procstat_kind(ps, SK_URING_FSYNC)->count +
			      procstat_kind(ps, SK_AIO_FSYNC)->count;
		v[n].fdatasyncs = procstat_kind(ps, SK_FDATASYNC)->count;
		v[n].sfr = procstat_kind(ps, SK_SYNC_FILE_RANGE)->count;
		n++;
	}
	for (size_t i = 0; st->have_sys && !byproc &&
	     i < filetab_count(st->ft); i++) {
		const struct file *f = filetab_at(st->ft, i);
		const struct filestat *fs = f->user;

		if (!fs || !fs->fsync.count)
			continue;
		v[n].f = f;
		v[n].lat = &fs->fsync;
		v[n].fsyncs = fs->n_fsync;
		v[n].fdatasyncs = fs->n_fdatasync;
		v[n].sfr = fs->n_sfr;
		n++;
	}
	/* the ext4-level intervals and the flushes during them */
	for (size_t i = 0; i < n; i++)
		if (hmap_index_add(&at, fsrow_key(&v[i], byproc), i))
			goto nomem;
	for (size_t i = 0; i < nfs; i++) {
		const struct wa_fsync *w = &st->wa->fs[i];
		struct fsync_row r = { .pid = w->tid, .fsdev = w->fsdev,
				       .ino = w->ino };
		struct fsrow_q q = { &r, v, byproc };
		size_t k;

		if (byproc && st->have_sys)
			r.p = proctable_of_tid_at(st->pt, w->tid, w->last_ts);
		if (st->have_sys && !byproc)
			r.f = rows_fsync_file(st, w);
		if (!fsync_kept(st, w, r.p, r.f))
			continue;
		k = hmap_index_find(&at, fsrow_key(&r, byproc), fsrow_same,
				    &q, n);
		if (k == n) {
			v[n] = r;
			if (r.p)
				v[n].pid = ((const struct proc *)r.p)->pid;
			if (hmap_index_add(&at, fsrow_key(&r, byproc), n++))
				goto nomem;
		}
		v[k].k_count += w->count;
		v[k].flushes += w->flushes;
		v[k].flush_ns += w->flush_ns;
		v[k].write_bytes += w->write_bytes;
	}
	hmap_release(&at, NULL);
	for (size_t i = 0; i < n; i++) {
		const struct proc *p = v[i].p;
		char buf[FILE_DEVINO_LEN];

		if (byproc)
			v[i].name = an_strdup(p ? (p->comm ? p->comm : "?") :
					      stats_comm(st, v[i].pid));
		else if (v[i].f)
			v[i].name = an_strdup(file_name(v[i].f));
		else
			v[i].name = an_strdup(file_devino_name(v[i].fsdev,
					v[i].ino, buf, sizeof(buf)));
		if (!v[i].name)
			goto nomem;
	}
	qsort(v, n, sizeof(*v), cmp_fsrow);
	return (long)n;
nomem:
	hmap_release(&at, NULL);
	rows_fsync_release(v, (long)n);
	*out = NULL;
	return -AN_E_NOMEM;
}

void rows_fsync_release(struct fsync_row *v, long n)
{
	release_named(v, n, sizeof(*v));
}

int rows_fsync_all(const struct stats *st, struct hist *all)
{
	memset(all, 0, sizeof(*all));
	for (size_t i = 0; st->have_sys && i < proctable_count(st->pt); i++) {
		const struct procstat *ps = proctable_at(st->pt, i)->user;

		if (ps && hist_merge(all, &ps->fsync) < 0)
			return -AN_E_NOMEM;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Dirty throttling per process */

static int cmp_dtask(const void *x, const void *y)
{
	const struct dirty_row *a = x, *b = y;

	return dirty_cmp(a->pause_ms, a->bdp, a->pid, b->pause_ms, b->bdp,
			 b->pid);
}

long rows_dirty(const struct stats *st, struct dirty_row **out)
{
	const struct dirty *d = st->dirty;
	size_t nt = d ? d->ntask : 0, n = 0;
	struct dirty_row *v = an_calloc(nt + 1, sizeof(*v));

	*out = v;
	if (!v)
		return -AN_E_NOMEM;
	for (size_t i = 0; i < nt; i++) {
		const struct dirty_task *t = &d->task[i];
		const struct proc *p = st->have_sys ?
			proctable_of_tid_at(st->pt, t->tid, t->last_ts) : NULL;
		int pid = p ? p->pid : t->tid;
		size_t k;

		for (k = 0; k < n; k++)
			if (v[k].pid == pid)
				break;
		if (k == n) {
			v[n].pid = pid;
			v[n].comm = p ? (p->comm ? p->comm : "?") :
				    stats_comm(st, t->tid);
			n++;
		}
		v[k].bdp += t->bdp;
		v[k].paused += t->paused;
		v[k].pause_ms += t->pause_ms;
		if (t->max_pause_ms > v[k].max_ms)
			v[k].max_ms = t->max_pause_ms;
	}
	qsort(v, n, sizeof(*v), cmp_dtask);
	return (long)n;
}
