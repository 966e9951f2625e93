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
#include "base/blk.h"
#include "base/err.h"
#include "base/hmap.h"
#include "sbuf.h"
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

/* h continued over s (NULL: "") and its NUL: "ab","c" != "a","bc". */
static uint64_t hash_field(uint64_t h, const char *s)
{
	return hash_bytes(hash_str(h, s ? s : ""), "", 1);
}

/*
 * The content id: what makes a recording itself wherever its file lies,
 * known right after source_open() (trace.dat gives its first timestamps
 * then, .iorec its chunk descriptors).
 */
static void content_id(const struct source_info *in, char out[17])
{
	uint64_t h = HASH_SEED;
	uint64_t v[3] = { in->kind, in->first_ts, in->ncpus };

	h = hash_bytes(h, v, sizeof(v));
	h = hash_field(h, in->header_text);
	h = hash_field(h, in->header_page);
	h = hash_field(h, in->snapshot_start);
	for (int i = 0; i < in->nr_cpus; i++)
		h = hash_bytes(h, &in->cpus[i].first_ts, sizeof(uint64_t));
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
	const struct sq_val v[] = {
		sq_s(w->section), sq_sn(key, (int)klen), sq_sn(val, (int)vlen),
	};

	return sq_insert(w->db, S_META, v, ARRAY_SIZE(v)) ? sq_failed(w->db) :
	       0;
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
	const struct sq_val v[] = {
		sq_s(phase), sq_s(kind), sq_s(name), sq_s(attr ? attr : ""),
		sq_s(value),
	};

	return sq_insert(db, S_CONFIG, v, ARRAY_SIZE(v));
}

/*
 * The dev column joins major and minor in 64 bits, not in blk_mkdev()'s
 * 32: a major above 4095 that a snapshot says keeps its high bits (the
 * files' dev in db_add_file() likewise).
 */
static int device_row(struct db *db, unsigned int major, unsigned int minor,
		      const char *name)
{
	const struct sq_val v[] = {
		sq_i((int64_t)major << BLK_MINOR_BITS | minor), sq_i(major),
		sq_i(minor), sq_s(name),
	};

	return sq_insert(db, S_DEVICE, v, ARRAY_SIZE(v));
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
		    blk_dev_parse(f[2], BLK_DEV_SCANF, &ma, &mi))
			rc = device_row(db, ma, mi, f[1]);
	} else if (!strcmp(f[0], "diskstats") && n >= 5) {
		rc = config_row(db, phase, "diskstats", f[3], "", f[4]);
	} else {
		for (int i = 1; i < n; i++) {
			if (i > 1)
				sbuf_addch(&rest, '\t');
			sbuf_addstr(&rest, f[i]);
		}
		rc = rest.failed ? sq_nomem(db) :
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
	for (int op = 0; op < BLK_OP_MAX; op++) {
		const struct sq_val v[] = { sq_i(op), sq_s(blk_op_name(op)) };

		if (sq_insert(db, S_OP, v, ARRAY_SIZE(v)))
			return sq_failed(db);
	}
	for (int k = SK_NONE + 1; k < SK_NR; k++) {
		const struct sys_kind_info *ki = sys_kind_info(k);
		const struct sq_val v[] = {
			sq_i(k), sq_s(ki->name),
			sq_i(!!(ki->flags & SKF_READ)),
			sq_i(!!(ki->flags & SKF_WRITE)),
			sq_i(!!(ki->flags & SKF_SYNC)),
			sq_i(!!(ki->flags & SKF_FSYNC)),
		};

		if (sq_insert(db, S_KIND, v, ARRAY_SIZE(v)))
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
	const struct sq_val v[] = { sq_u(events), sq_u(first_ts),
				    sq_u(last_ts), sq_s(syscall_source) };

	if (sq_flush_all(db) || sq_store_interned(db))
		return sq_failed(db);
	return sq_update(db, "UPDATE recordings SET events = ?2, first_ts = ?3, last_ts = ?4, syscall_source = ?5 WHERE rec_id = ?1",
			 "update recording", v, ARRAY_SIZE(v));
}

int db_add_cpu(struct db *db, int cpu, uint64_t gaps)
{
	const struct source_info *in = db->in;
	const struct source_cpu *c;
	struct meta_kstats ks;
	struct sq_val kern[2] = { sq_null(), sq_null() };

	if (cpu < 0 || cpu >= in->nr_cpus)
		return 0;
	c = &in->cpus[cpu];
	/* the kernel's overrun and dropped counts, when recorded */
	if (in->stats && !meta_kstats(in->stats, &ks)) {
		kern[0] = sq_u(cpu < ks.n ? ks.cpu[cpu].overrun : 0);
		kern[1] = sq_u(cpu < ks.n ? ks.cpu[cpu].dropped : 0);
		meta_kstats_release(&ks);
	}

	const struct sq_val v[] = {
		sq_i(cpu), sq_u(c->events), sq_u(c->pages), sq_u(c->raw_bytes),
		sq_u(c->stored_bytes), kern[0], kern[1], sq_u(c->missed_pages),
		sq_u(c->missed_events), sq_u(gaps),
	};

	return sq_insert(db, S_CPU, v, ARRAY_SIZE(v));
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
	vi(&v[8], (int64_t)rq->bytes -
		  (int64_t)rq->nr_sector * BLK_SECTOR_SIZE);
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
	const struct sq_val v[] = {
		sq_i(proc_id), sq_i(tid), sq_u(calls), sq_u(first_ts),
		sq_u(last_ts),
	};

	return sq_insert(db, S_THREAD, v, ARRAY_SIZE(v));
}

/* The percentile q of h, NULL when h is empty. */
static struct sq_val sq_pct(const struct hist *h, double q)
{
	return h->count ? sq_u(hist_pct(h, q)) : sq_null();
}

/* A histogram row of a device/op, process/kind or file, and its buckets. */
static int add_hist_of(struct db *db, const char *subject, const char *metric,
		       int64_t dev, int64_t op, int64_t proc_id, int64_t kind,
		       int64_t file_id, const struct hist *h)
{
	int64_t id = db->next_hist;
	uint64_t lo, hi, n;
	int pos = 0;

	if (!h->count)
		return 0;
	db->next_hist++;

	const struct sq_val v[] = {
		sq_i(id), sq_s(subject), sq_s(metric), sq_opt(dev, -1),
		sq_opt(op, -1), sq_opt(proc_id, -1), sq_opt(kind, -1),
		sq_opt(file_id, -1), sq_u(h->count), sq_u(h->sum),
		sq_u(h->min), sq_u(h->max), sq_pct(h, 50), sq_pct(h, 90),
		sq_pct(h, 99), sq_pct(h, 99.9),
	};

	if (sq_insert(db, S_HIST, v, ARRAY_SIZE(v)))
		return sq_failed(db);
	while (hist_next_bucket(h, &pos, &lo, &hi, &n)) {
		const struct sq_val b[] = { sq_i(id), sq_u(lo), sq_u(hi),
					    sq_u(n) };

		if (sq_insert(db, S_BUCKET, b, ARRAY_SIZE(b)))
			return sq_failed(db);
	}
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
	const struct sq_val v[] = { sq_i(dev), sq_u(reqs) };

	/* a device absent from the snapshot gets a row too */
	if (device_row(db, blk_major(dev), blk_minor(dev), NULL) ||
	    sq_update(db, "UPDATE devices SET requests = requests + ?3 WHERE rec_id = ?1 AND dev = ?2",
		      "update device", v, ARRAY_SIZE(v)))
		return sq_failed(db);
	if (add_hist(db, "device", "queue", dev, op, queue) ||
	    add_hist(db, "device", "device", dev, op, device) ||
	    add_hist(db, "device", "total", dev, op, total))
		return sq_failed(db);
	return 0;
}

static int add_comms(struct db *db, const struct proc_info *p)
{
	const char *s = p->comms ? p->comms : p->comm;
	int seq = 0;

	while (s && *s) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);
		const struct sq_val v[] = { sq_i(p->id), sq_i(seq++),
					    sq_sn(s, (int)len) };

		if (sq_insert(db, S_COMM, v, ARRAY_SIZE(v)))
			return sq_failed(db);
		s = comma ? comma + 1 : NULL;
	}
	return 0;
}

/*
 * The block I/O columns a process and a file row share (blk_requests to
 * journal_bytes), of the struct blkio b: values of an initializer.
 */
#define SQ_BLKIO(b) \
	sq_u((b)->requests), sq_u((b)->read_bytes), sq_u((b)->write_bytes), \
	sq_u((b)->dev_ns), sq_u((b)->journal_bytes)

int db_add_process(struct db *db, const struct proc_row *r)
{
	/* a process without calls or I/O: its counts are 0 */
	static const struct procstat none;
	const struct proc_info *p = &r->p;
	const struct procstat *ps = r->ps ? r->ps : &none;
	const struct sq_val v[] = {
		sq_i(p->id), sq_i(p->pid), sq_opt(p->ppid, 0), sq_s(p->comm),
		sq_s(p->exe), sq_i(p->at_start), sq_i(p->guessed),
		sq_i(p->exited), sq_opt((int64_t)p->start_ts, 0),
		sq_opt((int64_t)p->exit_ts, 0),
		sq_u(ps->calls), sq_u(ps->errors), sq_u(ps->read_bytes),
		sq_u(ps->write_bytes), sq_u(r->fsyncs), sq_u(ps->fsync.sum),
		sq_u(ps->fsync.max),
		SQ_BLKIO(&ps->blk),
		sq_u(ps->throttles), sq_u(ps->throttle_ns), sq_u(ps->dstates),
		sq_u(ps->dstate_ns), sq_s(p->unit), sq_s(p->container),
		p->cgroup[0] ? sq_s(p->cgroup) : sq_null(),
	};

	if (sq_insert(db, S_PROCESS, v, ARRAY_SIZE(v)) || add_comms(db, p))
		return sq_failed(db);
	if (!r->ps)
		return 0;
	for (int k = SK_NONE + 1; k < SK_NR; k++) {
		const struct kstat *ks = procstat_kind(ps, k);
		const struct hist *h = &ks->lat;

		if (!ks->count)
			continue;

		const struct sq_val kv[] = {
			sq_i(p->id), sq_i(k), sq_u(ks->count), sq_u(ks->errors),
			sq_u(ks->bytes), sq_u(ks->unpaired), sq_u(h->count),
			sq_u(h->sum), h->count ? sq_u(h->min) : sq_null(),
			sq_pct(h, 50), sq_pct(h, 99),
			h->count ? sq_u(h->max) : sq_null(),
		};

		if (sq_insert(db, S_PKIND, kv, ARRAY_SIZE(kv)) ||
		    add_owner_hist(db, "syscall", "latency", p->id, k, -1, h))
			return sq_failed(db);
	}
	return add_owner_hist(db, "process", "fsync", p->id, -1, -1, &ps->fsync);
}

int db_add_file(struct db *db, const struct file_ident *r)
{
	/* a file without calls or I/O: its counts are 0, no percentiles */
	static const struct filestat none;
	const struct file_info *f = &r->f;
	const struct filestat *fs = r->s ? r->s : &none;
	/* the parameters in their order: ident (?28) is the third column */
	const struct sq_val v[] = {
		sq_i(f->id), sq_s(f->path), sq_s(file_info_name(f)),
		f->has_devino ?
		sq_i((int64_t)f->major << BLK_MINOR_BITS | f->minor) :
		sq_null(),
		f->has_devino ? sq_u(f->ino) : sq_null(),
		/* a file known by no path: the fd that opened it */
		f->path ? sq_null() : sq_i(f->pid),
		f->path ? sq_null() : sq_i(f->fd),
		sq_opt((int64_t)f->open_ts, 0),
		sq_u(fs->opens), sq_u(fs->reads), sq_u(fs->writes),
		sq_u(fs->read_bytes), sq_u(fs->write_bytes), sq_u(fs->errors),
		sq_pct(&fs->rlat, 50), sq_pct(&fs->rlat, 99),
		sq_pct(&fs->wlat, 50), sq_pct(&fs->wlat, 99),
		sq_u(fs->fsync.count), sq_u(fs->fsync.sum),
		sq_u(fs->fsync.max),
		SQ_BLKIO(&fs->blk),
		sq_i(r->ident), sq_s(f->names), sq_i(f->unlinked),
	};

	if (sq_insert(db, S_FILE, v, ARRAY_SIZE(v)))
		return sq_failed(db);
	if (!r->s)
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
	const struct sq_val v[] = { sq_s(stage), sq_s(name), sq_u(count) };

	return sq_insert(db, S_ANOMALY, v, ARRAY_SIZE(v));
}
