// SPDX-License-Identifier: MIT
/*
 * cmd-db.c - `ioreport db DB.sqlite REC...`: replay recordings and store
 * the results, every block request and every file syscall in an SQLite
 * database (sink/sqlite.h), all recordings in one transaction.
 *
 * Each recording goes through the driver (driver.h) like every view, and
 * the rows come from the same stats/rows.h, so the database holds the
 * same numbers as `ioreport processes`, `files` and `devices`.  The
 * request and syscall rows come from the driver's hooks (on_request,
 * on_call) as the pass completes them.
 */
#include "config.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"
#include "cmd.h"
#include "base/err.h"
#include "base/imap.h"
#include "driver.h"
#include "stats/attrib.h"
#include "stats/rows.h"
#include "sbuf.h"
#include "sink/sqlite.h"

static const char db_usage[] =
"usage: ioreport db [-q] [FILTERS] DB.sqlite RECORDING...\n"
"\n"
"  -q, --quiet          print nothing but errors\n"
"  -h, --help           this help\n"
VIEW_FILTER_HELP
"      --min-ms MS      only requests and syscalls that took MS ms or more\n"
"                       (the filters keep what they keep in the views, for\n"
"                       each recording; the recording's recording_meta rows\n"
"                       of section 'filter' say what was kept)\n"
"\n"
"Replay each RECORDING (.iorec or trace.dat) and store in the SQLite\n"
"database DB.sqlite (created if needed) what the views show, plus every\n"
"block request and every file syscall: recordings, processes (pid reuse\n"
"kept apart, comm history), threads, files, devices, requests, syscalls,\n"
"histogram buckets, anomaly counters and the configuration snapshot.\n"
"Several recordings live in one database; loading a recording again\n"
"replaces its rows.  The load is one transaction: if it fails or is\n"
"interrupted the database keeps its previous content.\n"
"\n"
"Schema, views and example queries: docs/schema.md.\n"
"\n"
"Examples:\n"
"  ioreport db io.sqlite before.iorec after.iorec\n"
"  sqlite3 io.sqlite 'SELECT * FROM device_latency'\n";

/* A thread and its process, while its syscalls are stored. */
struct thr {
	int tid, proc_id;
	uint64_t calls, first_ts, last_ts;
};

/* A request whose file is known only by inode until attrib_end(). */
struct ino_req {
	int64_t req_id;		/* as db_add_request() stored it */
	uint32_t dev;
	uint64_t ino;
};

struct load {
	struct db *db;
	struct driver a;	/* the same single pass as the views */
	int failed;		/* 1: a database error, or AN_E_NOMEM */

	struct imap thr_of;		/* tid -> index + 1 in thr */
	struct thr *thr;
	size_t nthr, thr_alloc;

	struct ino_req *ireq;
	size_t nireq, ireq_alloc;
};

/* ------------------------------------------------------------------ */
/* Block requests */


static void on_request(const struct blk_done *d, void *arg)
{
	struct load *l = arg;
	int proc_id, file_id;
	const char *how;
	int64_t req_id;
	struct ino_req *r;
	uint32_t dev;
	uint64_t ino;
	bool by_inode;

	if (l->failed)
		return;
	by_inode = stats_request_ids(d, &proc_id, &file_id, &how, &dev, &ino);
	if (db_add_request(l->db, &d->rq, proc_id, file_id, how, &req_id)) {
		l->failed = 1;
		return;
	}
	if (!by_inode)
		return;
	/* a file known by inode only: tied to its name at the end */
	if (an_grow(&l->ireq, &l->ireq_alloc, l->nireq + 1, sizeof(*l->ireq),
		    256)) {
		l->failed = AN_E_NOMEM;
		return;
	}
	r = &l->ireq[l->nireq++];
	r->req_id = req_id;
	r->dev = dev;
	r->ino = ino;
}

/* ------------------------------------------------------------------ */
/* Syscalls: the driver's per-call hook */

static void note_thread(struct load *l, int tid, int proc_id, uint64_t ts)
{
	void *v = imap_get(&l->thr_of, tid);
	struct thr *t = v ? &l->thr[(intptr_t)v - 1] : NULL;

	if (!t || t->proc_id != proc_id) {
		/* new thread, or the tid now belongs to another process */
		if (an_grow(&l->thr, &l->thr_alloc, l->nthr + 1,
			    sizeof(*l->thr), 64)) {
			l->failed = AN_E_NOMEM;
			return;
		}
		t = &l->thr[l->nthr++];
		memset(t, 0, sizeof(*t));
		t->tid = tid;
		t->proc_id = proc_id;
		t->first_ts = ts;
		if (imap_put(&l->thr_of, tid, (void *)(intptr_t)l->nthr,
			     NULL))
			l->failed = AN_E_NOMEM;
	}
	t->calls++;
	t->last_ts = ts;
}

/* Every call the syscall replay completes (driver.on_call). */
static void on_call(void *arg, const struct sys_call *c, int proc_id,
		    int file_id)
{
	struct load *l = arg;

	note_thread(l, c->tid, proc_id, c->paired ? c->start : c->end);
	if (!l->failed && db_add_syscall(l->db, c, proc_id, sys_call_fd(c),
					 file_id))
		l->failed = 1;
}

/* ------------------------------------------------------------------ */
/* One recording */

static int store_anomalies(struct load *l)
{
	const struct stats *st = &l->a.st;
	int rc = 0;

	for (size_t i = 0; i < st->nanom && !rc; i++)
		rc = db_add_anomaly(l->db, st->anom[i].stage, st->anom[i].key,
				    st->anom[i].n);
	if (st->at && !rc) {
		/* attribution totals of bytes, beside its anomalies */
		const struct attrib_totals *t = attrib_totals(st->at);

		rc = db_add_anomaly(l->db, "attrib", "writeback_without_dirtier_bytes",
				    t->wb_noproc_bytes) ||
		     db_add_anomaly(l->db, "attrib", "unattributed_bytes",
				    t->kind_bytes[AK_UNATTRIBUTED]);
	}
	return rc;
}

/* Every process, and every file with the ident of its identity. */
static int store_rows(struct load *l)
{
	struct proc_row *p;
	struct file_ident *f;
	long n;
	int rc = 0;

	n = rows_processes(&l->a.st, true, &p);
	for (long i = 0; i < n && !rc; i++)
		rc = db_add_process(l->db, &p[i]);
	free(p);
	if (n < 0 || rc)
		return n < 0 ? (int)n : -1;
	n = rows_file_idents(&l->a.st, &f);
	for (long i = 0; i < n && !rc; i++)
		rc = db_add_file(l->db, &f[i]);
	free(f);
	return n < 0 ? (int)n : rc;
}

static int store_results(struct load *l)
{
	const struct stats *st = &l->a.st;
	struct db *db = l->db;
	int rc;

	for (size_t i = 0; i < st->ndev; i++)
		if (db_add_devstat(db, st->dev[i].dev, st->dev[i].op,
				   st->dev[i].reqs, &st->dev[i].queue,
				   &st->dev[i].device, &st->dev[i].total))
			return -1;
	if (st->have_sys) {
		rc = store_rows(l);
		if (rc)
			return rc;
	}
	for (size_t i = 0; i < l->nthr; i++)
		if (db_add_thread(db, l->thr[i].proc_id, l->thr[i].tid,
				  l->thr[i].calls, l->thr[i].first_ts,
				  l->thr[i].last_ts))
			return -1;
	for (size_t i = 0; i < l->nireq; i++) {
		int id = stats_inode_file_id(st, l->ireq[i].dev,
					     l->ireq[i].ino);

		if (id >= 0 && db_set_request_file(db, l->ireq[i].req_id, id))
			return -1;
	}
	for (int i = 0; i < st->nr_cpus; i++)
		if (db_add_cpu(db, i, st->lost[i].gaps))
			return -1;
	if (store_anomalies(l))
		return -1;
	return db_recording_end(db, st->events, st->first_ts, st->last_ts,
				!st->have_sys ? NULL :
				st->raw_syscalls ? "raw_syscalls" :
				"syscalls");
}

static void load_release(struct load *l)
{
	imap_release(&l->thr_of);
	free(l->thr);
	free(l->ireq);
	driver_close(&l->a);
}

/* The filters of a load, and what they kept, as recording_meta rows. */
static int store_filter(struct db *db, const struct view_filter *f)
{
	struct sbuf sb = SBUF_INIT, what = SBUF_INIT;
	int rc;

	filter_text(f, &what);
	sbuf_addf(&sb, "filter=%s\nrequests=%" PRIu64 "\nrequests_kept=%"
		  PRIu64 "\nsyscalls=%" PRIu64 "\nsyscalls_kept=%" PRIu64 "\n",
		  what.buf ? what.buf : "", f->requests, f->requests_kept,
		  f->calls, f->calls_kept);
	rc = sb.failed || what.failed ? -AN_E_NOMEM : db_add_meta(db, "filter", sb.buf);
	sbuf_release(&sb);
	sbuf_release(&what);
	return rc;
}

/*
 * Replay path and store it, with the filters (a copy of *filter: each
 * recording counts for itself).  Returns 0, or -1 after printing the
 * error.
 */
static int load_one(struct db *db, const char *path,
		    const struct view_filter *filter, bool quiet)
{
	struct view_filter f = *filter;
	struct load l;
	uint64_t rows0 = db_rows(db);
	int rc;

	memset(&l, 0, sizeof(l));
	l.db = db;
	imap_init(&l.thr_of);
	if (cmd_open(&l.a, path, AN_ATTRIB, &f)) {
		load_release(&l);
		return -1;
	}
	if (db_recording_begin(db, l.a.info, path)) {
		error("%s", db_errmsg(db));
		load_release(&l);
		return -1;
	}
	if (cmd_run(&l.a, on_request, on_call, &l)) {
		load_release(&l);
		return -1;
	}
	if (!l.a.st.have_block && !l.a.st.have_sys) {
		error("%s: neither block nor syscall events: nothing to store (%s)",
		      path, l.a.st.block_why);
		load_release(&l);
		return -1;
	}
	/* a recording of block events only: store what there is */
	if (!l.a.st.have_sys && !quiet && l.a.st.sys_why)
		note("%s", l.a.st.sys_why);
	rc = l.failed ? l.failed : store_results(&l);
	if (!rc && l.a.filter)
		rc = store_filter(db, l.a.filter);
	if (rc) {
		if (rc == AN_E_NOMEM || (rc == -AN_E_NOMEM && !*db_errmsg(db)))
			error("%s: %s", path, an_strerror(rc));
		else
			error("%s", db_errmsg(db));
		load_release(&l);
		return -1;
	}
	flush_warnings(l.a.src);
	if (!quiet)
		printf("%s: recording %" PRId64 "%s, %" PRIu64 " events, %"
		       PRIu64 " rows\n", path, db_rec_id(db),
		       db_replaced(db) ? " (replaced)" : "", l.a.st.events,
		       db_rows(db) - rows0);
	if (!quiet && l.a.filter)
		print_filter_kept(stdout, &l.a.st);
	/* a line per recording as it is stored, not at the end */
	fflush(stdout);
	load_release(&l);
	return 0;
}

/* ------------------------------------------------------------------ */

/* What the first bytes of an existing file say it is. */
enum file_kind { FK_NONE, FK_EMPTY, FK_SQLITE, FK_RECORDING, FK_OTHER,
		 FK_SPECIAL };

static enum file_kind file_kind(const char *path)
{
	static const char sqlite_magic[16] = "SQLite format 3";
	char b[16] = { 0 };
	struct stat st;
	size_t n;
	FILE *f;

	if (stat(path, &st))
		return FK_NONE;
	if (!S_ISREG(st.st_mode))
		return FK_SPECIAL;
	if (!st.st_size)
		return FK_EMPTY;
	f = fopen(path, "rb");
	if (!f)
		return FK_OTHER;	/* sqlite names the error */
	n = fread(b, 1, sizeof(b), f);
	fclose(f);
	if (n == sizeof(b) && !memcmp(b, sqlite_magic, sizeof(b)))
		return FK_SQLITE;
	if ((n >= 5 && !memcmp(b, "IOREC", 5)) ||
	    (n >= 10 && !memcmp(b, "\027\010\104tracing", 10)))
		return FK_RECORDING;
	return FK_OTHER;
}

/*
 * The database argument, checked before SQLite sees it: never a device,
 * directory or fifo (SQLite would write DB-journal beside it), never a
 * recording (the arguments swapped), never a file of something else.
 * Returns 0, or 1 after the error.
 */
static int check_db_path(const char *path, char **recs, int nrecs)
{
	switch (file_kind(path)) {
	case FK_SPECIAL:
		return error("%s is not a regular file (a device, directory or fifo): give the path of a database file to create or to add to, e.g. run.sqlite",
			     path);
	case FK_RECORDING:
		return error("%s is a recording, not a database: the database comes first (ioreport db DB.sqlite %s)",
			     path, path);
	case FK_OTHER:
		return error("%s is not an SQLite database: give a new file or a database ioreport db wrote",
			     path);
	default:
		break;
	}
	for (int i = 0; i < nrecs; i++)
		if (file_kind(recs[i]) == FK_SQLITE)
			return error("%s is an SQLite database, not a recording: the database comes first, once (ioreport db %s RECORDING...)",
				     recs[i], recs[i]);
	return 0;
}

int cmd_db(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "quiet", no_argument, NULL, 'q' },
		{ "help",  no_argument, NULL, 'h' },
		FILTER_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct view_filter filter = { 0 };
	bool quiet = false;
	struct db *db;
	struct an_err err;
	uint64_t t0, t1;
	struct stat st;
	int c, code, rc = 0;

	optind = 1;
	opterr = 0;		/* the messages below name the option */
	while ((c = getopt_long(argc, argv, ":qhp:c:d:f:", opts, NULL)) != -1) {
		switch (c) {
		case 'q':
			quiet = true;
			break;
		default:
			code = cmd_option(db_usage, c, argv, &filter);
			if (code >= 0)
				return code;
		}
	}
	if (check_filter(db_usage, &filter))
		return 2;
	if (argc - optind < 2)
		return usage_error(db_usage,
				   "db wants a database file and at least one recording");

	if (check_db_path(argv[optind], argv + optind + 1, argc - optind - 1))
		return 1;
	t0 = now_mono_ns();
	db = db_open(argv[optind], &err);
	if (!db) {
		error("%s", err.msg);
		return 1;
	}
	if (db_load_begin(db)) {
		error("%s", db_errmsg(db));
		db_close(db);
		return 1;
	}
	for (int i = optind + 1; i < argc && !rc; i++)
		rc = load_one(db, argv[i], &filter, quiet);
	if (!rc && db_commit(db)) {
		error("%s", db_errmsg(db));
		rc = -1;
	}
	t1 = now_mono_ns();
	if (!rc && !quiet) {
		double secs = (double)(t1 - t0) / 1e9;

		printf("%s: %" PRIu64 " rows in %.3f s (%.0f rows/s), %lld bytes\n",
		       argv[optind], db_rows(db), secs,
		       secs > 0 ? (double)db_rows(db) / secs : 0.0,
		       stat(argv[optind], &st) ? -1LL : (long long)st.st_size);
	}
	if (rc)
		error("%s: nothing stored: the database keeps its previous content",
		      argv[optind]);
	db_close(db);
	return rc ? 1 : 0;
}
