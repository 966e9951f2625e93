// SPDX-License-Identifier: MIT
/*
 * sqlite-rows.c - what the SQLite sink stores (see sqlite.h): a
 * recording with its metadata, configuration snapshot, devices and lookup
 * tables, and its rows: requests, syscalls, threads, processes, files,
 * histograms and their buckets, anomaly counters and CPUs.  The database
 * itself (schema, load transaction, batches) is sqlite.c.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "util.h"
#include "base/err.h"
#include "base/sbuf.h"
#include "input/source.h"
#include "input/meta.h"
#include "sink/sqlite.h"
#include "sink/sqlite-priv.h"

/* The tables whose rows belong to one recording (all but recordings). */
static const char *const rec_tables[] = {
	"recording_meta", "cpus", "config", "devices", "ops", "syscall_kinds",
	"processes", "comm_history", "threads", "process_syscalls", "files",
	"request_origins", "call_shapes", "histograms", "hist_buckets",
	"anomalies", "id_blocks",
};

/* ------------------------------------------------------------------ */
/* The recording */

static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;

	for (size_t i = 0; i < n; i++) {
		h ^= s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static uint64_t fnv_str(uint64_t h, const char *s)
{
	h = fnv1a(h, s ? s : "", s ? strlen(s) : 0);
	return fnv1a(h, "", 1);		/* separator: "ab","c" != "a","bc" */
}

/*
 * The content id: what makes a recording itself wherever its file lies,
 * known right after source_open() (trace.dat gives its first timestamps
 * then, .iorec its chunk descriptors).
 */
static void content_id(const struct source_info *in, char out[17])
{
	uint64_t h = 0xcbf29ce484222325ULL;
	uint64_t v[3] = { in->kind, in->first_ts, in->ncpus };

	h = fnv1a(h, v, sizeof(v));
	h = fnv_str(h, in->header_text);
	h = fnv_str(h, in->header_page);
	h = fnv_str(h, in->snapshot_start);
	for (int i = 0; i < in->nr_cpus; i++)
		h = fnv1a(h, &in->cpus[i].first_ts, sizeof(uint64_t));
	snprintf(out, 17, "%016" PRIx64, h);
}

/* A snapshot line walk of the database: the lines of one phase. */
struct snap_walk {
	struct db *db;
	const char *phase;
};

static int snap_line(char **f, int n, void *arg);

static int for_lines(struct db *db, const char *text, const char *phase)
{
	struct snap_walk w = { db, phase };
	int rc = meta_lines(text, NULL, snap_line, &w);

	return rc == -AN_E_NOMEM ? sq_fail(db, "%s: out of memory", db->path) :
	       rc;
}

struct meta_walk {
	struct db *db;
	const char *section;
};

static int meta_row(const char *key, size_t klen, const char *val,
		    size_t vlen, void *arg)
{
	struct meta_walk *w = arg;
	sqlite3_stmt *st = w->db->st[S_META];

	bind_i(st, 1, w->db->rec_id);
	sqlite3_bind_text(st, 2, w->section, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, key, (int)klen, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, val, (int)vlen, SQLITE_TRANSIENT);
	return sq_step(w->db, S_META) ? sq_failed(w->db) : 0;
}

/* The "key=value" lines of text as rows of section. */
static int add_meta(struct db *db, const char *section, const char *text)
{
	struct meta_walk w = { db, section };

	return meta_kv_each(text, meta_row, &w);
}

int db_add_meta(struct db *db, const char *section, const char *text)
{
	return add_meta(db, section, text) ? sq_failed(db) : 0;
}

static int config_row(struct db *db, const char *phase, const char *kind,
		      const char *name, const char *attr, const char *value)
{
	sqlite3_stmt *st = db->st[S_CONFIG];

	bind_i(st, 1, db->rec_id);
	bind_s(st, 2, phase);
	bind_s(st, 3, kind);
	bind_s(st, 4, name);
	bind_s(st, 5, attr ? attr : "");
	bind_s(st, 6, value);
	return sq_step(db, S_CONFIG);
}

static int device_row(struct db *db, unsigned int major, unsigned int minor,
		      const char *name)
{
	sqlite3_stmt *st = db->st[S_DEVICE];

	bind_i(st, 1, db->rec_id);
	bind_i(st, 2, (int64_t)major << 20 | minor);
	bind_i(st, 3, major);
	bind_i(st, 4, minor);
	bind_s(st, 5, name);
	return sq_step(db, S_DEVICE);
}

/* One snapshot line (proc, thread and fd lines live in processes/files). */
static int snap_line(char **f, int n, void *arg)
{
	struct snap_walk *w = arg;
	struct db *db = w->db;
	const char *phase = w->phase;
	struct sbuf rest = SBUF_INIT;
	unsigned int ma, mi;
	int rc = 0;

	if (!strcmp(f[0], "proc") || !strcmp(f[0], "thread") ||
	    !strcmp(f[0], "fd"))
		return 0;
	if (!strcmp(f[0], "sysctl") && n >= 3) {
		rc = config_row(db, phase, "sysctl", f[1], "", f[2]);
	} else if (!strcmp(f[0], "meminfo") && n >= 3) {
		rc = config_row(db, phase, "meminfo", f[1], "", f[2]);
	} else if (!strcmp(f[0], "mount") && n >= 7) {
		/* mount DEV SOURCE MOUNTPOINT FSTYPE OPTIONS SUPER */
		rc = config_row(db, phase, "mount", f[3], "dev", f[1]) ||
		     config_row(db, phase, "mount", f[3], "source", f[2]) ||
		     config_row(db, phase, "mount", f[3], "fstype", f[4]) ||
		     config_row(db, phase, "mount", f[3], "options", f[5]) ||
		     config_row(db, phase, "mount", f[3], "super_options", f[6]);
	} else if (!strcmp(f[0], "blockdev") && n >= 5) {
		/* blockdev NAME MAJ:MIN KEY VALUE */
		rc = config_row(db, phase, "blockdev", f[1], f[3], f[4]);
		if (!rc && !strcmp(phase, "start") &&
		    sscanf(f[2], "%u:%u", &ma, &mi) == 2)
			rc = device_row(db, ma, mi, f[1]);
	} else if (!strcmp(f[0], "diskstats") && n >= 5) {
		rc = config_row(db, phase, "diskstats", f[3], "", f[4]);
	} else {
		for (int i = 1; i < n; i++) {
			if (i > 1)
				sbuf_addch(&rest, '\t');
			sbuf_addstr(&rest, f[i]);
		}
		rc = rest.err ? sq_nomem(db) :
		     config_row(db, phase, f[0], f[0], "",
				rest.buf ? rest.buf : "");
	}
	sbuf_release(&rest);
	return rc;
}

/* Fill the device columns from the blockdev attributes of the start snapshot. */
static int device_attrs(struct db *db)
{
	char sql[1024];

	snprintf(sql, sizeof(sql),
		 "UPDATE devices SET "
		 "scheduler = (SELECT value FROM config c WHERE c.rec_id = devices.rec_id AND c.phase = 'start' AND c.kind = 'blockdev' AND c.name = devices.name AND c.attr = 'scheduler'), "
		 "rotational = (SELECT CAST(value AS INTEGER) FROM config c WHERE c.rec_id = devices.rec_id AND c.phase = 'start' AND c.kind = 'blockdev' AND c.name = devices.name AND c.attr = 'rotational'), "
		 "write_cache = (SELECT value FROM config c WHERE c.rec_id = devices.rec_id AND c.phase = 'start' AND c.kind = 'blockdev' AND c.name = devices.name AND c.attr = 'write_cache'), "
		 "parent = (SELECT value FROM config c WHERE c.rec_id = devices.rec_id AND c.phase = 'start' AND c.kind = 'blockdev' AND c.name = devices.name AND c.attr = 'parent') "
		 "WHERE rec_id = %" PRId64, db->rec_id);
	return sq_exec(db, sql);
}

static int lookup_tables(struct db *db)
{
	sqlite3_stmt *st;

	for (int op = 0; op < BLK_OP_MAX; op++) {
		st = db->st[S_OP];
		bind_i(st, 1, db->rec_id);
		bind_i(st, 2, op);
		bind_s(st, 3, blk_op_name(op));
		if (sq_step(db, S_OP))
			return sq_failed(db);
	}
	for (int k = SK_NONE + 1; k < SK_NR; k++) {
		const struct sys_kind_info *ki = sys_kind_info(k);

		st = db->st[S_KIND];
		bind_i(st, 1, db->rec_id);
		bind_i(st, 2, k);
		bind_s(st, 3, ki->name);
		bind_i(st, 4, !!(ki->flags & SKF_READ));
		bind_i(st, 5, !!(ki->flags & SKF_WRITE));
		bind_i(st, 6, !!(ki->flags & SKF_SYNC));
		bind_i(st, 7, !!(ki->flags & SKF_FSYNC));
		if (sq_step(db, S_KIND))
			return sq_failed(db);
	}
	return 0;
}

/* Delete every row of rec_id (an earlier load of the same recording). */
static int delete_recording(struct db *db, int64_t rec_id)
{
	char sql[256];

	/* the bulk tables: the range of the recording's (consecutive) blocks */
	for (int i = 0; i < 2; i++) {
		snprintf(sql, sizeof(sql),
			 "DELETE FROM %s WHERE rowid BETWEEN "
			 "(SELECT min(block) FROM id_blocks WHERE rec_id = %" PRId64 ") << %d AND "
			 "((SELECT max(block) FROM id_blocks WHERE rec_id = %" PRId64 ") + 1 << %d) - 1",
			 i ? "syscall_rows" : "request_rows", rec_id, IDBLK_BITS, rec_id,
			 IDBLK_BITS);
		if (sq_exec(db, sql))
			return sq_failed(db);
	}
	for (size_t i = 0; i < ARRAY_SIZE(rec_tables); i++) {
		snprintf(sql, sizeof(sql), "DELETE FROM %s WHERE rec_id = %" PRId64,
			 rec_tables[i], rec_id);
		if (sq_exec(db, sql))
			return sq_failed(db);
	}
	snprintf(sql, sizeof(sql), "DELETE FROM recordings WHERE rec_id = %" PRId64,
		 rec_id);
	return sq_exec(db, sql);
}

int db_recording_begin(struct db *db, const struct source_info *in,
		       const char *path)
{
	struct meta_kstats ks;
	sqlite3_stmt *st;
	char cid[17], buf[512], kern[512], now[32];
	time_t t = time(NULL);
	struct tm tm;
	int64_t old;
	int rc;

	if (!db->in_load)
		return sq_fail(db, "%s: db_recording_begin outside a load", db->path);
	if (sq_flush_all(db))
		return sq_failed(db);
	db->in = in;
	content_id(in, cid);

	/* an earlier load of this recording: replace it, keeping its id */
	if (sqlite3_prepare_v2(db->h, "SELECT rec_id FROM recordings WHERE content_id = ?",
			       -1, &st, NULL) != SQLITE_OK)
		return sq_fail_sql(db, "select");
	sqlite3_bind_text(st, 1, cid, -1, SQLITE_STATIC);
	old = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	db->replaced = old > 0;
	if (old > 0 && delete_recording(db, old))
		return sq_failed(db);

	gmtime_r(&t, &tm);
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (sqlite3_prepare_v2(db->h,
			       "INSERT INTO recordings (rec_id, content_id, path, format, format_version, host, kernel, machine, clock, cpus, page_size, long_size, big_endian, first_ts, last_ts, events, lost_events, integrity, stop_reason, file_bytes, command, loaded_at, loaded_by) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,0,?,?,?,?,?,?,?)",
			       -1, &st, NULL) != SQLITE_OK)
		return sq_fail_sql(db, "insert recording");
	if (old > 0)
		bind_i(st, 1, old);
	else
		sqlite3_bind_null(st, 1);
	bind_s(st, 2, cid);
	bind_s(st, 3, path);
	bind_s(st, 4, in->kind == SOURCE_IOREC ? "iorec" : "trace.dat");
	snprintf(buf, sizeof(buf), "%u.%u", in->version_major, in->version_minor);
	bind_s(st, 5, buf);
	bind_s(st, 6, meta_kv(in->header_text, "hostname", buf, sizeof(buf)));
	if (meta_kv(in->header_text, "kernel", kern, sizeof(kern)) &&
	    meta_kv(in->header_text, "kversion", buf, sizeof(buf))) {
		char *k = an_asprintf("%s %s", kern, buf);

		if (!k) {
			sqlite3_finalize(st);
			return sq_nomem(db);
		}
		sqlite3_bind_text(st, 7, k, -1, free);
	} else {
		bind_s(st, 7, kern[0] ? kern : NULL);
	}
	bind_s(st, 8, meta_kv(in->header_text, "machine", buf, sizeof(buf)));
	bind_s(st, 9, meta_kv(in->header_text, "clock", buf, sizeof(buf)));
	bind_i(st, 10, in->ncpus);
	bind_i(st, 11, in->page_size);
	bind_i(st, 12, in->long_size);
	bind_i(st, 13, in->big_endian);
	bind_u(st, 14, in->first_ts);
	bind_u(st, 15, in->last_ts);
	if (in->stats && !meta_kstats(in->stats, &ks)) {
		bind_u(st, 16, ks.overrun + ks.dropped);
		meta_kstats_release(&ks);
	} else {
		sqlite3_bind_null(st, 16);
	}
	bind_s(st, 17, meta_integrity(in->integrity));
	bind_s(st, 18, in->integrity == SOURCE_COMPLETE ? NULL : in->stop_reason);
	bind_u(st, 19, in->file_bytes);
	bind_s(st, 20, meta_kv(in->header_text, "command", buf, sizeof(buf)));
	bind_s(st, 21, now);
	bind_s(st, 22, "ioreport " PACKAGE_VERSION);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return sq_fail_sql(db, "insert recording");
	db->rec_id = sqlite3_last_insert_rowid(db->h);
	db->next_hist = 1;
	if (sq_ids_begin(db))
		return sq_failed(db);

	if (add_meta(db, "header", in->header_text) ||
	    add_meta(db, "end", in->end_text) ||
	    lookup_tables(db) ||
	    for_lines(db, in->snapshot_start, "start") ||
	    for_lines(db, in->snapshot_end, "end") ||
	    device_attrs(db))
		return sq_failed(db);
	return 0;
}

int db_recording_end(struct db *db, uint64_t events, uint64_t first_ts,
		     uint64_t last_ts, const char *syscall_source)
{
	sqlite3_stmt *st;
	int rc;

	if (sq_flush_all(db) || sq_store_interned(db))
		return sq_failed(db);
	if (sqlite3_prepare_v2(db->h,
			       "UPDATE recordings SET events = ?2, first_ts = ?3, last_ts = ?4, syscall_source = ?5 WHERE rec_id = ?1",
			       -1, &st, NULL) != SQLITE_OK)
		return sq_fail_sql(db, "update recording");
	bind_i(st, 1, db->rec_id);
	bind_u(st, 2, events);
	bind_u(st, 3, first_ts);
	bind_u(st, 4, last_ts);
	bind_s(st, 5, syscall_source);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return sq_fail_sql(db, "update recording");
	return 0;
}

int db_add_cpu(struct db *db, int cpu, uint64_t gaps)
{
	const struct source_info *in = db->in;
	const struct source_cpu *c;
	struct meta_kstats ks;
	sqlite3_stmt *st = db->st[S_CPU];

	if (cpu < 0 || cpu >= in->nr_cpus)
		return 0;
	c = &in->cpus[cpu];
	bind_i(st, 1, db->rec_id);
	bind_i(st, 2, cpu);
	bind_u(st, 3, c->events);
	bind_u(st, 4, c->pages);
	bind_u(st, 5, c->raw_bytes);
	bind_u(st, 6, c->stored_bytes);
	if (in->stats && !meta_kstats(in->stats, &ks)) {
		bind_u(st, 7, cpu < ks.n ? ks.cpu[cpu].overrun : 0);
		bind_u(st, 8, cpu < ks.n ? ks.cpu[cpu].dropped : 0);
		meta_kstats_release(&ks);
	} else {
		sqlite3_bind_null(st, 7);
		sqlite3_bind_null(st, 8);
	}
	bind_u(st, 9, c->missed_pages);
	bind_u(st, 10, c->missed_events);
	bind_u(st, 11, gaps);
	return sq_step(db, S_CPU);
}

/* ------------------------------------------------------------------ */
/* Rows */

/*
 * The next row of bulk table b at ts with its id and the id of its
 * interned tuple t in columns 0 and 1; NULL after a failure (said).
 */
static struct val *bulk_row(struct db *db, struct batch *b, struct intern *in,
			    const int64_t *t, uint64_t ts, int64_t *id,
			    int64_t *off)
{
	int64_t ref = sq_intern(in, t);
	struct val *v;

	if (ref < 0) {
		sq_nomem(db);
		return NULL;
	}
	v = sq_next_row(db, b, ts, id, off);
	if (v) {
		vi(&v[0], *id);
		vi(&v[1], ref);
	}
	return v;
}

int db_add_request(struct db *db, const struct blk_request *rq, int proc_id,
		   int file_id, const char *attrib, int64_t *req_id)
{
	struct val *v;
	int64_t t[OR_W], id, off;

	t[OR_DEV] = rq->dev;
	t[OR_OP] = rq->op;
	t[OR_FLAGS] = (rq->preflush ? 1 : 0) | (rq->fua ? 2 : 0) |
		      (rq->sync ? 4 : 0) | (rq->meta ? 8 : 0) |
		      (rq->ahead ? 16 : 0);
	t[OR_IPID] = rq->insert_pid;
	t[OR_SPID] = rq->issue_pid;
	t[OR_PROC] = proc_id;
	t[OR_FILE] = file_id;
	t[OR_ATTRIB] = (int64_t)(intptr_t)attrib;
	v = bulk_row(db, &db->breq, &db->origins, t, rq->complete_ts, &id,
		     &off);
	if (!v)
		return sq_failed(db);
	*req_id = id;
	vu(&v[2], rq->sector);
	vi(&v[3], rq->nr_sector);
	vi(&v[4], off);
	if (rq->issue_ts)
		vu(&v[5], rq->complete_ts - rq->issue_ts);
	else
		vnull(&v[5]);
	if (rq->insert_ts && rq->issue_ts)
		vu(&v[6], rq->issue_ts - rq->insert_ts);
	else
		vnull(&v[6]);
	vi(&v[7], rq->error);
	vi(&v[8], (int64_t)rq->bytes - (int64_t)rq->nr_sector * 512);
	return 0;
}

int db_set_request_file(struct db *db, int64_t id, int file_id)
{
	sqlite3_stmt *st = db->st[S_ORIGIN_OF];
	int64_t origin = -1, t[OR_W];
	int rc;

	if (sq_batch_flush(db, &db->breq))
		return sq_failed(db);
	bind_i(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		origin = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	if (origin < db->origins.base ||
	    origin - db->origins.base >= (int64_t)db->origins.n)
		return sq_fail(db, "%s: request %" PRId64 " is not one of this load",
			       db->path, id);
	memcpy(t, db->origins.v + (origin - db->origins.base) * OR_W, sizeof(t));
	t[OR_FILE] = file_id;
	origin = sq_intern(&db->origins, t);
	if (origin < 0)
		return sq_nomem(db);
	st = db->st[S_REQFILE];
	bind_i(st, 1, id);
	bind_i(st, 2, origin);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : sq_fail_sql(db, "update request");
}

int db_add_syscall(struct db *db, const struct sys_call *c, int proc_id,
		   int fd, int file_id)
{
	struct val *v;
	int64_t t[ST_W], id, off;

	t[ST_TID] = c->tid;
	t[ST_PROC] = proc_id;
	t[ST_KIND] = c->kind;
	t[ST_FD] = fd;
	t[ST_FILE] = file_id;
	t[ST_RET] = c->ret;
	v = bulk_row(db, &db->bsys, &db->shapes, t, c->end, &id, &off);
	if (!v)
		return sq_failed(db);
	vi(&v[2], off);
	if (c->paired)
		vu(&v[3], c->end - c->start);
	else
		vnull(&v[3]);
	return 0;
}

int db_add_thread(struct db *db, int proc_id, int tid, uint64_t calls,
		  uint64_t first_ts, uint64_t last_ts)
{
	sqlite3_stmt *st = db->st[S_THREAD];

	bind_i(st, 1, db->rec_id);
	bind_i(st, 2, proc_id);
	bind_i(st, 3, tid);
	bind_u(st, 4, calls);
	bind_u(st, 5, first_ts);
	bind_u(st, 6, last_ts);
	return sq_step(db, S_THREAD);
}

/* A histogram row; the buckets go in by the add_*_buckets helpers. */
static int64_t hist_row(struct db *db, const char *subject,
			const char *metric, int64_t dev, int64_t op,
			int64_t proc_id, int64_t kind, int64_t file_id,
			uint64_t count, uint64_t sum, uint64_t min,
			uint64_t max, const uint64_t pct[4])
{
	sqlite3_stmt *st = db->st[S_HIST];
	int64_t id = db->next_hist++;

	bind_i(st, 1, db->rec_id);
	bind_i(st, 2, id);
	sqlite3_bind_text(st, 3, subject, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, metric, -1, SQLITE_STATIC);
	bind_opt(st, 5, dev, -1);
	bind_opt(st, 6, op, -1);
	bind_opt(st, 7, proc_id, -1);
	bind_opt(st, 8, kind, -1);
	bind_opt(st, 9, file_id, -1);
	bind_u(st, 10, count);
	bind_u(st, 11, sum);
	for (int i = 0; i < 2; i++) {
		if (count)
			bind_u(st, 12 + i, i ? max : min);
		else
			sqlite3_bind_null(st, 12 + i);
	}
	for (int i = 0; i < 4; i++) {
		if (count && pct)
			bind_u(st, 14 + i, pct[i]);
		else
			sqlite3_bind_null(st, 14 + i);
	}
	return sq_step(db, S_HIST) ? -1 : id;
}

static int bucket_row(struct db *db, int64_t hist_id, uint64_t lo,
		      uint64_t hi, uint64_t count)
{
	sqlite3_stmt *st = db->st[S_BUCKET];

	bind_i(st, 1, db->rec_id);
	bind_i(st, 2, hist_id);
	bind_u(st, 3, lo);
	bind_u(st, 4, hi);
	bind_u(st, 5, count);
	return sq_step(db, S_BUCKET);
}

/* A histogram row of a device/op, process/kind or file, and its buckets. */
static int add_hist_of(struct db *db, const char *subject, const char *metric,
		       int64_t dev, int64_t op, int64_t proc_id, int64_t kind,
		       int64_t file_id, const struct hist *h)
{
	uint64_t pct[4], lo, hi, n;
	int64_t id;
	int pos = 0;

	if (!h->count)
		return 0;
	pct[0] = hist_pct(h, 50);
	pct[1] = hist_pct(h, 90);
	pct[2] = hist_pct(h, 99);
	pct[3] = hist_pct(h, 99.9);
	id = hist_row(db, subject, metric, dev, op, proc_id, kind, file_id,
		      h->count, h->sum, h->min, h->max, pct);
	if (id < 0)
		return sq_failed(db);
	while (hist_next_bucket(h, &pos, &lo, &hi, &n))
		if (bucket_row(db, id, lo, hi, n))
			return sq_failed(db);
	return 0;
}

static int add_hist(struct db *db, const char *subject, const char *metric,
		    int64_t dev, int64_t op, const struct hist *h)
{
	return add_hist_of(db, subject, metric, dev, op, -1, -1, -1, h);
}

static int add_owner_hist(struct db *db, const char *subject,
		       const char *metric, int64_t proc_id, int64_t kind,
		       int64_t file_id, const struct hist *h)
{
	return add_hist_of(db, subject, metric, -1, -1, proc_id, kind,
			   file_id, h);
}

int db_add_devstat(struct db *db, uint32_t dev, enum blk_op op,
		   uint64_t reqs, const struct hist *queue,
		   const struct hist *device, const struct hist *total)
{
	sqlite3_stmt *st;
	int rc;

	/* a device absent from the snapshot gets a row too */
	if (device_row(db, dev >> 20, dev & ((1u << 20) - 1), NULL))
		return sq_failed(db);
	if (sqlite3_prepare_v2(db->h, "UPDATE devices SET requests = requests + ?3 WHERE rec_id = ?1 AND dev = ?2",
			       -1, &st, NULL) != SQLITE_OK)
		return sq_fail_sql(db, "update device");
	bind_i(st, 1, db->rec_id);
	bind_i(st, 2, dev);
	bind_u(st, 3, reqs);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return sq_fail_sql(db, "update device");
	if (add_hist(db, "device", "queue", dev, op, queue) ||
	    add_hist(db, "device", "device", dev, op, device) ||
	    add_hist(db, "device", "total", dev, op, total))
		return sq_failed(db);
	return 0;
}

/* The five block I/O columns from i on. */
static void bind_blkio(sqlite3_stmt *st, int i, const struct blkio *b)
{
	static const struct blkio zero;

	if (!b)
		b = &zero;
	bind_u(st, i, b->requests);
	bind_u(st, i + 1, b->read_bytes);
	bind_u(st, i + 2, b->write_bytes);
	bind_u(st, i + 3, b->dev_ns);
	bind_u(st, i + 4, b->journal_bytes);
}

static int add_comms(struct db *db, const struct proc_info *p)
{
	const char *s = p->comms ? p->comms : p->comm;
	sqlite3_stmt *st = db->st[S_COMM];
	int seq = 0;

	while (s && *s) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);

		bind_i(st, 1, db->rec_id);
		bind_i(st, 2, p->id);
		bind_i(st, 3, seq++);
		sqlite3_bind_text(st, 4, s, (int)len, SQLITE_TRANSIENT);
		if (sq_step(db, S_COMM))
			return sq_failed(db);
		s = comma ? comma + 1 : NULL;
	}
	return 0;
}

int db_add_process(struct db *db, const struct proc_row *r)
{
	sqlite3_stmt *st = db->st[S_PROCESS];
	const struct proc_info *p = &r->p;
	const struct procstat *ps = r->ps;

	bind_i(st, 1, db->rec_id);
	bind_i(st, 2, p->id);
	bind_i(st, 3, p->pid);
	bind_opt(st, 4, p->ppid, 0);
	bind_s(st, 5, p->comm);
	bind_s(st, 6, p->exe);
	bind_i(st, 7, p->at_start);
	bind_i(st, 8, p->guessed);
	bind_i(st, 9, p->exited);
	bind_opt(st, 10, (int64_t)p->start_ts, 0);
	bind_opt(st, 11, (int64_t)p->exit_ts, 0);
	bind_u(st, 12, ps ? ps->calls : 0);
	bind_u(st, 13, ps ? ps->errors : 0);
	bind_u(st, 14, ps ? ps->read_bytes : 0);
	bind_u(st, 15, ps ? ps->write_bytes : 0);
	bind_u(st, 16, r->fsyncs);
	bind_u(st, 17, ps ? ps->fsync.sum : 0);
	bind_u(st, 18, ps ? ps->fsync.max : 0);
	bind_blkio(st, 19, ps ? &ps->blk : NULL);
	bind_u(st, 24, ps ? ps->throttles : 0);
	bind_u(st, 25, ps ? ps->throttle_ns : 0);
	bind_u(st, 26, ps ? ps->dstates : 0);
	bind_u(st, 27, ps ? ps->dstate_ns : 0);
	if (sq_step(db, S_PROCESS) || add_comms(db, p))
		return sq_failed(db);
	if (!ps)
		return 0;
	for (int k = SK_NONE + 1; k < SK_NR; k++) {
		const struct kstat *ks = procstat_kind(ps, k);

		if (!ks->count)
			continue;
		st = db->st[S_PKIND];
		bind_i(st, 1, db->rec_id);
		bind_i(st, 2, p->id);
		bind_i(st, 3, k);
		bind_u(st, 4, ks->count);
		bind_u(st, 5, ks->errors);
		bind_u(st, 6, ks->bytes);
		bind_u(st, 7, ks->unpaired);
		bind_u(st, 8, ks->lat.count);
		bind_u(st, 9, ks->lat.sum);
		if (ks->lat.count) {
			bind_u(st, 10, ks->lat.min);
			bind_u(st, 11, hist_pct(&ks->lat, 50));
			bind_u(st, 12, hist_pct(&ks->lat, 99));
			bind_u(st, 13, ks->lat.max);
		} else {
			for (int i = 10; i <= 13; i++)
				sqlite3_bind_null(st, i);
		}
		if (sq_step(db, S_PKIND) ||
		    add_owner_hist(db, "syscall", "latency", p->id, k, -1,
				&ks->lat))
			return sq_failed(db);
	}
	return add_owner_hist(db, "process", "fsync", p->id, -1, -1, &ps->fsync);
}

static void bind_q(sqlite3_stmt *st, int i, const struct hist *h,
		   double q)
{
	if (h->count)
		bind_u(st, i, hist_pct(h, q));
	else
		sqlite3_bind_null(st, i);
}

int db_add_file(struct db *db, const struct file_ident *r)
{
	sqlite3_stmt *st = db->st[S_FILE];
	const struct file_info *f = &r->f;
	const struct filestat *fs = r->s;

	bind_i(st, 1, db->rec_id);
	bind_i(st, 2, f->id);
	bind_i(st, 28, r->ident);
	bind_s(st, 29, f->names);
	bind_i(st, 30, f->unlinked);
	bind_s(st, 3, f->path);
	bind_s(st, 4, file_info_name(f));
	if (f->has_devino) {
		bind_i(st, 5, (int64_t)f->major << 20 | f->minor);
		bind_u(st, 6, f->ino);
	} else {
		sqlite3_bind_null(st, 5);
		sqlite3_bind_null(st, 6);
	}
	if (!f->path) {
		bind_i(st, 7, f->pid);
		bind_i(st, 8, f->fd);
	} else {
		sqlite3_bind_null(st, 7);
		sqlite3_bind_null(st, 8);
	}
	bind_opt(st, 9, (int64_t)f->open_ts, 0);
	if (fs) {
		bind_u(st, 10, fs->opens);
		bind_u(st, 11, fs->reads);
		bind_u(st, 12, fs->writes);
		bind_u(st, 13, fs->read_bytes);
		bind_u(st, 14, fs->write_bytes);
		bind_u(st, 15, fs->errors);
		bind_q(st, 16, &fs->rlat, 50);
		bind_q(st, 17, &fs->rlat, 99);
		bind_q(st, 18, &fs->wlat, 50);
		bind_q(st, 19, &fs->wlat, 99);
		bind_u(st, 20, fs->fsync.count);
		bind_u(st, 21, fs->fsync.sum);
		bind_u(st, 22, fs->fsync.max);
		bind_blkio(st, 23, &fs->blk);
	} else {
		for (int i = 10; i <= 27; i++)
			if (i >= 16 && i <= 19)
				sqlite3_bind_null(st, i);
			else
				bind_i(st, i, 0);
	}
	if (sq_step(db, S_FILE))
		return sq_failed(db);
	if (!fs)
		return 0;
	if (add_owner_hist(db, "file", "read", -1, -1, f->id, &fs->rlat) ||
	    add_owner_hist(db, "file", "write", -1, -1, f->id, &fs->wlat) ||
	    add_owner_hist(db, "file", "fsync", -1, -1, f->id, &fs->fsync))
		return sq_failed(db);
	return 0;
}

int db_add_anomaly(struct db *db, const char *stage, const char *name,
		   uint64_t count)
{
	sqlite3_stmt *st = db->st[S_ANOMALY];

	bind_i(st, 1, db->rec_id);
	sqlite3_bind_text(st, 2, stage, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, name, -1, SQLITE_STATIC);
	bind_u(st, 4, count);
	return sq_step(db, S_ANOMALY);
}
