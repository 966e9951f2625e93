// SPDX-License-Identifier: MIT
/*
 * fio.c - fio iolog version 3 files and a job file that replays them
 * (see fio.h).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/err.h"
#include "base/hmap.h"
#include "base/imap.h"
#include "input/meta.h"
#include "input/source.h"
#include "sink/fio.h"
#include "sink/sink.h"
#include "stats/rows.h"

/* iologs open at once; the others are reopened for appending */
#define OPEN_LOGS	64

#define FALLOC_PUNCH_HOLE	0x02

#define FLAT_NAME	96	/* the room of a file's flat name */

struct flog {			/* the iolog of one process, or one file */
	int key;		/* its pid, or its file id */
	char name[FLAT_NAME];	/* "PID-COMM", or the file's flat name */
	FILE *f;
	uint64_t used;		/* last use, for closing the oldest */
	uint64_t last_us;
	struct imap files;	/* file id -> 1: added and opened */
	uint64_t lines;
};

struct fdpos {
	struct hnode n;		/* key: pid << 32 | fd */
	uint64_t pos;
};

struct fentry {			/* a file of the iologs */
	uint64_t read_end;	/* end of the furthest read: laid out first */
};

struct fio_export {
	char *dir;
	struct stats *st;
	struct flog **logs;
	size_t nlogs, logs_alloc;
	struct imap log_of;	/* pid (file id) -> index + 1 in logs */
	bool per_file;		/* an iolog per file, not per process */
	struct hmap pos;	/* read/write positions */
	int nopen;
	uint64_t clock;
	struct imap fnames;	/* file id -> its struct fentry */
	struct fio_counts n;
	int err;		/* -AN_E_* of a hook */
	int err_errno;
	char *err_path;
};

struct fio_export *fio_export_new(const char *dir, struct stats *st,
				  bool per_file, struct an_err *e)
{
	struct fio_export *fx;

	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		an_fail(e, AN_E_IO, "cannot create the directory '%s': %s",
			dir, strerror(errno));
		return NULL;
	}
	fx = an_calloc(1, sizeof(*fx));
	if (!fx || !(fx->dir = an_strdup(dir))) {
		free(fx);
		an_nomem(e, dir);
		return NULL;
	}
	fx->st = st;
	fx->per_file = per_file;
	imap_init(&fx->log_of);
	imap_init(&fx->fnames);
	return fx;
}

void fio_export_free(struct fio_export *fx)
{
	if (!fx)
		return;
	for (size_t i = 0; i < fx->nlogs; i++) {
		if (fx->logs[i]->f)
			fclose(fx->logs[i]->f);
		imap_release(&fx->logs[i]->files);
		free(fx->logs[i]);
	}
	free(fx->logs);
	imap_release(&fx->log_of);
	imap_release_all(&fx->fnames, free);
	hmap_release(&fx->pos, NULL);
	free(fx->err_path);
	free(fx->dir);
	free(fx);
}

static void io_fail(struct fio_export *fx, const char *path)
{
	if (fx->err)
		return;
	fx->err = -AN_E_IO;
	fx->err_errno = errno;
	fx->err_path = an_strdup(path);
}

/* c in a name of the iologs and job files: itself, or '_' */
static char name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '.' || c == '-' ? c : '_';
}

/* The flat name of file id under fio's --directory: "fID-BASENAME". */
static void flat_name(const struct file_info *fi, char *buf, size_t n)
{
	const char *base = strrchr(fi->path, '/');
	size_t k;

	k = (size_t)snprintf(buf, n, "f%d-", fi->id);
	for (base = base ? base + 1 : fi->path; *base && k + 1 < n; base++)
		buf[k++] = name_char(*base);
	buf[k] = '\0';
}

/* A walk over a map of file ids (file id -> v) with next_file(). */
struct file_walk {
	struct imap *ids;
	size_t pos;
	void *v;
	struct file_info fi;	/* the file */
	char name[FLAT_NAME];	/* its flat name */
};

/* The next file of w->ids that the rows know; false after the last. */
static bool next_file(struct fio_export *fx, struct file_walk *w)
{
	int id;

	while (imap_next(w->ids, &w->pos, &id, &w->v)) {
		if (!rows_file_at(fx->st, id, &w->fi))
			continue;
		flat_name(&w->fi, w->name, sizeof(w->name));
		return true;
	}
	return false;
}

static FILE *log_file(struct fio_export *fx, struct flog *l)
{
	char *path;

	l->used = ++fx->clock;
	if (l->f)
		return l->f;
	if (fx->nopen >= OPEN_LOGS) {
		struct flog *old = NULL;

		for (size_t i = 0; i < fx->nlogs; i++)
			if (fx->logs[i]->f && (!old ||
			    fx->logs[i]->used < old->used))
				old = fx->logs[i];
		if (old) {
			if (fclose(old->f))
				io_fail(fx, old->name);
			old->f = NULL;
			fx->nopen--;
		}
	}
	path = an_asprintf("%s/%s.iolog", fx->dir, l->name);
	if (!path) {
		fx->err = -AN_E_NOMEM;
		return NULL;
	}
	l->f = fopen(path, l->lines ? "a" : "w");
	if (!l->f) {
		io_fail(fx, path);
	} else {
		fx->nopen++;
		if (!l->lines++)
			fputs("fio version 3 iolog\n", l->f);
	}
	free(path);
	return l->f;
}

/*
 * The iolog of process pid, or with --per-file of the file fi (named
 * as the file); NULL without memory.
 */
static struct flog *log_of(struct fio_export *fx, int pid,
			   const struct file_info *fi)
{
	int key = fx->per_file ? fi->id : pid;
	void *v = imap_get(&fx->log_of, key);
	struct flog *l;
	const char *comm;

	if (v)
		return fx->logs[(intptr_t)v - 1];
	if (an_grow(&fx->logs, &fx->logs_alloc, fx->nlogs + 1,
		    sizeof(*fx->logs), 16) ||
	    !(l = an_calloc(1, sizeof(*l)))) {
		fx->err = -AN_E_NOMEM;
		return NULL;
	}
	fx->logs[fx->nlogs++] = l;
	if (imap_put(&fx->log_of, key, (void *)(intptr_t)fx->nlogs, NULL))
		fx->err = -AN_E_NOMEM;
	l->key = key;
	imap_init(&l->files);
	if (fx->per_file) {
		flat_name(fi, l->name, sizeof(l->name));
		fx->n.iologs++;
		return l;
	}
	comm = stats_comm(fx->st, pid);
	snprintf(l->name, sizeof(l->name), "%d-", pid);
	for (size_t k = strlen(l->name); *comm && k + 1 < sizeof(l->name);
	     comm++, k++) {
		l->name[k] = name_char(*comm);
		l->name[k + 1] = '\0';
	}
	fx->n.iologs++;
	return l;
}

static struct fdpos *fdpos(struct fio_export *fx, int pid, int fd)
{
	uint64_t key = (uint64_t)(uint32_t)pid << 32 | (uint32_t)fd;
	struct fdpos *p = hmap_get_new(&fx->pos, key, sizeof(*p));

	if (!p)
		fx->err = -AN_E_NOMEM;
	return p;
}

void fio_export_call(void *arg, const struct sys_call *c, int proc_id,
		     int file_id)
{
	struct fio_export *fx = arg;
	const struct sys_kind_info *k = sys_kind_info(c->kind);
	struct file_info fi;
	const char *act = NULL;
	uint64_t off = 0, len = 0, us;
	char name[FLAT_NAME];
	struct fentry *fe;
	struct fdpos *p;
	struct flog *l;
	int pid, fd = sys_call_fd(c);
	FILE *f;

	if (fx->err || !c->paired)
		return;
	pid = sink_call_pid(fx->st, c, proc_id);
	if (k->flags & SKF_OPEN) {
		/* a new fd reads and writes from 0 */
		if (c->ret >= 0 && (p = fdpos(fx, pid, (int)c->ret)))
			p->pos = 0;
		return;
	}
	if (!(k->flags & (SKF_READ | SKF_WRITE | SKF_SYNC)) &&
	    c->kind != SK_FALLOCATE)
		return;
	if (!rows_file_at(fx->st, file_id, &fi) || !meta_path_regular(fi.path)) {
		fx->n.skipped++;
		return;
	}
	if (k->flags & (SKF_READ | SKF_WRITE)) {
		if (c->ret <= 0 || c->kind == SK_SENDFILE ||
		    c->kind == SK_COPY_FILE_RANGE)
			return;
		act = k->flags & SKF_READ ? "read" : "write";
		len = (uint64_t)c->ret;
		if (c->kind == SK_PREAD64 || c->kind == SK_PWRITE64 ||
		    c->kind == SK_PREADV || c->kind == SK_PWRITEV ||
		    c->kind == SK_PREADV2 || c->kind == SK_PWRITEV2) {
			off = c->args[3];	/* pos (pos_l of the vector forms) */
		} else if ((p = fdpos(fx, pid, fd))) {
			off = p->pos;
			p->pos += len;
		}
		if (*act == 'r') {
			fx->n.reads++;
			fx->n.read_bytes += len;
		} else {
			fx->n.writes++;
			fx->n.write_bytes += len;
		}
	} else if (c->kind == SK_FSYNC) {
		act = "sync";
		fx->n.syncs++;
	} else if (c->kind == SK_FDATASYNC || c->kind == SK_SYNC_FILE_RANGE) {
		/* fio 3.33 replays no "datasync" action: an fsync instead */
		act = "sync";
		fx->n.datasyncs++;
	} else if (c->kind == SK_FALLOCATE) {
		if (c->ret || !(c->args[1] & FALLOC_PUNCH_HOLE) || !c->args[3])
			return;
		act = "trim";
		off = c->args[2];
		len = c->args[3];
		fx->n.trims++;
	} else {
		return;		/* sync, syncfs: no file */
	}
	if (!(l = log_of(fx, pid, &fi)) || !(f = log_file(fx, l)))
		return;
	flat_name(&fi, name, sizeof(name));
	us = (c->start - fx->st->first_ts) / 1000;
	if (us < l->last_us)
		us = l->last_us;	/* fio wants them in order */
	l->last_us = us;
	if (!imap_get(&l->files, fi.id)) {
		if (imap_put(&l->files, fi.id, (void *)1, NULL))
			fx->err = -AN_E_NOMEM;
		fprintf(f, "%" PRIu64 " %s add\n%" PRIu64 " %s open\n", us,
			name, us, name);
	}
	fe = imap_get(&fx->fnames, fi.id);
	if (!fe) {
		fe = imap_put_new(&fx->fnames, fi.id, sizeof(*fe));
		if (!fe) {
			fx->err = -AN_E_NOMEM;
			return;
		}
		fx->n.files++;
	}
	if (*act == 'r' && off + len > fe->read_end)
		fe->read_end = off + len;
	/* fio reads sync and datasync as actions with an offset and length */
	fprintf(f, "%" PRIu64 " %s %s %" PRIu64 " %" PRIu64 "\n", us, name,
		act, off, len);
	if (ferror(f))
		io_fail(fx, l->name);
}

/* Close the files of every iolog, then the iolog. */
static int close_logs(struct fio_export *fx)
{
	for (size_t i = 0; i < fx->nlogs; i++) {
		struct flog *l = fx->logs[i];
		struct file_walk w = { .ids = &l->files };

		if (!log_file(fx, l))
			break;
		while (next_file(fx, &w))
			fprintf(l->f, "%" PRIu64 " %s close\n", l->last_us,
				w.name);
		if (fclose(l->f))
			io_fail(fx, l->name);
		l->f = NULL;
		fx->nopen--;
	}
	return fx->err;
}

/* Open DIR/name for writing; NULL after io_fail(). */
static FILE *job_file(struct fio_export *fx, const char *name)
{
	char *path = an_asprintf("%s/%s", fx->dir, name);
	FILE *f;

	if (!path) {
		fx->err = -AN_E_NOMEM;
		return NULL;
	}
	f = fopen(path, "w");
	if (!f)
		io_fail(fx, path);
	free(path);
	return f;
}

static void job_close(struct fio_export *fx, FILE *f, const char *name)
{
	if (fclose(f))
		io_fail(fx, name);
}

/*
 * DIR/layout.fio: the files the replay reads, written to the end of their
 * furthest read, so that the reads find data; a job file of its own, as
 * a replay job cannot wait for several others.
 */
static void write_layout(struct fio_export *fx)
{
	FILE *f = job_file(fx, "layout.fio");
	struct file_walk w = { .ids = &fx->fnames };

	if (!f)
		return;
	fprintf(f, "; the files the replay of %s reads, written first\n"
		"; (ioreport export --fio): see replay.fio\n"
		"\n[global]\nioengine=psync\nrw=write\n",
		fx->st->info->path);
	while (next_file(fx, &w)) {
		const struct fentry *fe = w.v;
		uint64_t bs;

		if (!fe->read_end)
			continue;
		bs = fe->read_end < 65536 ? fe->read_end : 65536;
		fprintf(f, "\n[layout-%s]\nbs=%" PRIu64 "\nfilename=%s\nsize=%"
			PRIu64 "\n", w.name, bs, w.name,
			(fe->read_end + bs - 1) / bs * bs);
	}
	job_close(fx, f, "layout.fio");
}

static int write_job(struct fio_export *fx)
{
	FILE *f = job_file(fx, "replay.fio");
	struct file_walk w = { .ids = &fx->fnames };

	if (!f)
		return fx->err;
	/*
	 * fio 3.33 crashes replaying a version 3 iolog under --directory:
	 * the names are relative to fio's working directory instead, and
	 * the iologs found through $IOLOGS.
	 */
	fprintf(f, "; replays the file I/O of %s (ioreport export --fio)\n"
		"; in the directory D the files are to be created in:\n"
		";   cd D && export IOLOGS=THIS_DIRECTORY\n"
		";   fio $IOLOGS/layout.fio && fio $IOLOGS/replay.fio\n"
		"; layout.fio writes the files the replay reads, up to the end\n"
		"; of their furthest read.  One job per %s, its iolog's\n"
		"; timestamps kept (add replay_no_stall=1 to the global section\n"
		"; to go as fast as the device allows; fio skips an fsync that\n"
		"; follows no write).  The files, as named in the iologs:\n",
		fx->st->info->path, fx->per_file ? "file" : "process");
	while (next_file(fx, &w))
		fprintf(f, ";   %s  %s\n", w.name, w.fi.path);
	fputs("\n[global]\nioengine=psync\n", f);
	for (size_t i = 0; i < fx->nlogs; i++)
		fprintf(f, "\n[%s]\nread_iolog=${IOLOGS}/%s.iolog\n",
			fx->logs[i]->name, fx->logs[i]->name);
	job_close(fx, f, "replay.fio");
	if (!fx->err)
		write_layout(fx);
	return fx->err;
}

int fio_export_finish(struct fio_export *fx, struct fio_counts *counts,
		      struct an_err *e)
{
	int ret = fx->err;

	if (!ret)
		ret = close_logs(fx);
	if (!ret)
		ret = write_job(fx);
	if (counts)
		*counts = fx->n;
	if (ret == -AN_E_NOMEM)
		return an_nomem(e, fx->dir);
	if (ret)
		return an_fail(e, AN_E_IO, "cannot write '%s' in %s: %s",
			       fx->err_path ? fx->err_path : "?", fx->dir,
			       strerror(fx->err_errno));
	return 0;
}
