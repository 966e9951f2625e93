// SPDX-License-Identifier: MIT
/*
 * sqlite.c - the SQLite sink (see sqlite.h): schema creation
 * and version check, one transaction per load, prepared statements
 * reused for every row, secondary indexes built after the bulk insert.
 * Requests and syscalls are stored small (docs/schema.md, "Speed and
 * size"): what rows share is interned into request origins and call
 * shapes, and times are offsets from the base of the row's id block.
 */
#include "config.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
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
#include "out/sqlite.h"
#include "analyze/out/schema-sql.h"	/* generated from schema.sql: schema_sql[] */

#define STR_(x)	#x
#define STR(x)	STR_(x)

/* The tables whose rows belong to one recording (all but recordings). */
static const char *const rec_tables[] = {
	"recording_meta", "cpus", "config", "devices", "ops", "syscall_kinds",
	"processes", "comm_history", "threads", "process_syscalls", "files",
	"request_origins", "call_shapes", "histograms", "hist_buckets",
	"anomalies", "id_blocks",
};

enum stmt_id {
	S_REQUEST, S_SYSCALL, S_THREAD, S_PROCESS, S_COMM, S_PKIND, S_FILE,
	S_HIST, S_BUCKET, S_ANOMALY, S_CPU, S_CONFIG, S_META, S_DEVICE,
	S_OP, S_KIND, S_REQFILE, S_BLOCK, S_SHAPE, S_ORIGIN, S_ORIGIN_OF,
	S_NR
};

static const char *const stmt_sql[S_NR] = {
	[S_REQUEST] = "INSERT INTO request_rows (rowid, origin, sector, nr_sector, end_ns, device_ns, queue_ns, error, bytes_extra) VALUES (?,?,?,?,?,?,?,?,?)",
	[S_SYSCALL] = "INSERT INTO syscall_rows (rowid, shape_delta, end_ns, duration_ns) VALUES (?,?,?,?)",
	[S_THREAD] = "INSERT OR REPLACE INTO threads (rec_id, proc_id, tid, syscalls, first_ts, last_ts) VALUES (?,?,?,?,?,?)",
	[S_PROCESS] = "INSERT INTO processes (rec_id, proc_id, pid, ppid, comm, exe, at_start, guessed, exited, start_ts, exit_ts, syscalls, errors, read_bytes, write_bytes, fsyncs, fsync_ns, fsync_max_ns, blk_requests, blk_read_bytes, blk_write_bytes, blk_device_ns, journal_bytes, throttles, throttle_ns, dstates, dstate_ns) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	[S_COMM] = "INSERT OR IGNORE INTO comm_history (rec_id, proc_id, seq, comm) VALUES (?,?,?,?)",
	[S_PKIND] = "INSERT INTO process_syscalls (rec_id, proc_id, kind, calls, errors, bytes, unpaired, lat_count, lat_total_ns, lat_min_ns, lat_p50_ns, lat_p99_ns, lat_max_ns) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
	[S_FILE] = "INSERT INTO files (rec_id, file_id, ident, path, name, dev, ino, opener_pid, opener_fd, open_ts, opens, reads, writes, read_bytes, write_bytes, errors, read_p50_ns, read_p99_ns, write_p50_ns, write_p99_ns, fsyncs, fsync_ns, fsync_max_ns, blk_requests, blk_read_bytes, blk_write_bytes, blk_device_ns, journal_bytes) VALUES (?1,?2,?28,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,?19,?20,?21,?22,?23,?24,?25,?26,?27)",
	[S_HIST] = "INSERT INTO histograms (rec_id, hist_id, subject, metric, dev, op, proc_id, kind, file_id, count, sum_ns, min_ns, max_ns, p50_ns, p90_ns, p99_ns, p999_ns) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	[S_BUCKET] = "INSERT INTO hist_buckets (rec_id, hist_id, lo_ns, hi_ns, count) VALUES (?,?,?,?,?)",
	[S_ANOMALY] = "INSERT OR REPLACE INTO anomalies (rec_id, stage, name, count) VALUES (?,?,?,?)",
	[S_CPU] = "INSERT OR REPLACE INTO cpus (rec_id, cpu, events, pages, raw_bytes, stored_bytes, overrun, dropped, missed_pages, missed_events, gaps) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
	[S_CONFIG] = "INSERT OR REPLACE INTO config (rec_id, phase, kind, name, attr, value) VALUES (?,?,?,?,?,?)",
	[S_META] = "INSERT OR REPLACE INTO recording_meta (rec_id, section, key, value) VALUES (?,?,?,?)",
	[S_DEVICE] = "INSERT INTO devices (rec_id, dev, major, minor, name) VALUES (?1,?2,?3,?4,?5) ON CONFLICT (rec_id, dev) DO UPDATE SET name = coalesce(name, ?5)",
	[S_OP] = "INSERT OR REPLACE INTO ops (rec_id, op, name) VALUES (?,?,?)",
	[S_REQFILE] = "UPDATE request_rows SET origin = ?2 WHERE rowid = ?1",
	[S_ORIGIN_OF] = "SELECT origin FROM request_rows WHERE rowid = ?",
	[S_BLOCK] = "INSERT INTO id_blocks (block, rec_id, base_ts, ref) VALUES (?,?,?,?)",
	[S_SHAPE] = "INSERT INTO call_shapes (shape, rec_id, tid, proc_id, kind, fd, file_id, ret) VALUES (?,?,?,?,?,?,?,?)",
	[S_ORIGIN] = "INSERT INTO request_origins (origin, rec_id, dev, op, flags, insert_pid, issue_pid, proc_id, file_id, attrib) VALUES (?,?,?,?,?,?,?,?,?,?)",
	[S_KIND] = "INSERT OR REPLACE INTO syscall_kinds (rec_id, kind, name, is_read, is_write, is_sync, is_fsync) VALUES (?,?,?,?,?,?,?)",
};


/*
 * The two bulk tables (request_rows, syscall_rows) are numbered in id
 * blocks (see id_blocks in schema.sql) of up to 1024 rows, which wait in
 * a C array until the block is full: then the block's reference for
 * syscall shapes (block_ref()) is chosen, and each row stores its shape
 * as a difference, 0 bytes for most.  They go in BATCH rows per INSERT
 * statement: one sqlite3_step() per BATCH rows instead of per row; the
 * rest of a block row by row through the single-row statement.
 */
#define BATCH		64
#define BATCH_COLS	9	/* the widest bulk table (request_rows) */
#define IDBLK_BITS	10	/* schema.sql: block << 10 | n */
#define IDBLK_ROWS	(1 << IDBLK_BITS)
#define REF_COL		1	/* the column of the shape or origin */

struct val {
	int type;		/* 0 NULL, 1 integer */
	int64_t i;
};

struct batch {
	enum stmt_id one;	/* single-row statement */
	int ncols;
	bool use_ref;		/* REF_COL relative to the block's ref */
	sqlite3_stmt *multi;	/* BATCH rows */
	/* the current id block */
	int64_t block;		/* 0: none yet */
	int nids;		/* ids used */
	int64_t base_ts;
	bool have_ref;		/* ref chosen and the id_blocks row stored */
	int64_t ref;
	int n;			/* rows waiting */
	struct val v[IDBLK_ROWS][BATCH_COLS];
};

/*
 * Interned tuples of w integers: the call shapes of syscall_rows and the
 * origins of request_rows.  A tuple's id is base + its index.
 */
struct intern {
	int w;
	int64_t *v;		/* n tuples of w values */
	size_t n, alloc;
	uint32_t *slot;		/* index + 1; 0 empty */
	size_t nslot;		/* a power of two */
	int64_t base;		/* the id of tuple 0 */
};

static void intern_release(struct intern *in);

struct db {
	sqlite3 *h;
	char *path;
	struct an_err err;	/* the last failure */
	bool in_load;
	bool fresh;		/* no recording before this load: index after */
	sqlite3_stmt *st[S_NR];
	struct batch breq, bsys;

	/* the current recording */
	const struct source_info *in;
	int64_t rec_id;
	bool replaced;
	int64_t next_hist;
	int64_t next_block;
	struct intern shapes, origins;
	uint64_t rows;
};


/* ------------------------------------------------------------------ */
/* Errors */

static int fail(struct db *db, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A failure of the database: the message kept, -AN_E_DB returned. */
static int fail(struct db *db, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = an_vfail(&db->err, AN_E_DB, fmt, ap);
	va_end(ap);
	return rc;
}

/* A failure for memory. */
static int nomem(struct db *db)
{
	return an_nomem(&db->err, db->path);
}

/* What the failure a callee reported returns further up. */
static int failed(const struct db *db)
{
	return db->err.code ? -db->err.code : -AN_E_DB;
}

/* An SQLite failure, with a hint for the common causes. */
static int fail_sql(struct db *db, const char *what)
{
	int code = sqlite3_extended_errcode(db->h) & 0xff;
	const char *hint = "";

	if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
		hint = "; another process is writing it: wait or use another file";
	else if (code == SQLITE_FULL)
		hint = "; free some disk space or write the database elsewhere";
	else if (code == SQLITE_READONLY || code == SQLITE_CANTOPEN ||
		 code == SQLITE_PERM)
		hint = "; check the permissions of the file and its directory";
	else if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB)
		hint = "; it is damaged or not a database: use a new file";
	return fail(db, "%s: %s: %s%s", db->path, what, sqlite3_errmsg(db->h),
		    hint);
}

const char *db_errmsg(const struct db *db)
{
	return db->err.code ? db->err.msg : "";
}

static int exec(struct db *db, const char *sql)
{
	if (sqlite3_exec(db->h, sql, NULL, NULL, NULL) != SQLITE_OK)
		return fail_sql(db, sql);
	return 0;
}

/* The single integer result of sql, or -1 on error. */
static int64_t query_int(struct db *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v = -1;

	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK) {
		fail_sql(db, sql);
		return -1;
	}
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	else
		fail_sql(db, sql);
	sqlite3_finalize(st);
	return v;
}

/* ------------------------------------------------------------------ */
/* Batched inserts */

static int batch_prepare(struct db *db, struct batch *b, enum stmt_id one,
			 int ncols)
{
	const char *sql = stmt_sql[one];
	const char *values = strstr(sql, "VALUES");
	struct sbuf sb = SBUF_INIT;
	int rc;

	assert(values && ncols <= BATCH_COLS);
	b->one = one;
	b->ncols = ncols;
	b->n = 0;
	if (b->multi)
		return 0;
	sbuf_add(&sb, sql, (size_t)(values - sql));
	sbuf_addstr(&sb, "VALUES ");
	for (int r = 0; r < BATCH; r++) {
		sbuf_addstr(&sb, r ? ",(" : "(");
		for (int c = 0; c < ncols; c++)
			sbuf_addstr(&sb, c ? ",?" : "?");
		sbuf_addch(&sb, ')');
	}
	if (sb.err) {
		sbuf_release(&sb);
		return nomem(db);
	}
	rc = sqlite3_prepare_v3(db->h, sb.buf, -1, SQLITE_PREPARE_PERSISTENT,
				&b->multi, NULL);
	sbuf_release(&sb);
	return rc == SQLITE_OK ? 0 : fail_sql(db, "prepare batch");
}

static void bind_val(sqlite3_stmt *st, int i, const struct val *v)
{
	if (v->type)
		sqlite3_bind_int64(st, i, v->i);
	else
		sqlite3_bind_null(st, i);
}

/* Insert rows [from, from + n) of b with statement st (n rows each). */
static int insert_rows(struct db *db, struct batch *b, sqlite3_stmt *st,
		       int from, int n)
{
	int rc;

	for (int r = 0; r < n; r++)
		for (int c = 0; c < b->ncols; c++)
			bind_val(st, r * b->ncols + c + 1, &b->v[from + r][c]);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return fail_sql(db, "insert");
	db->rows += (uint64_t)n;
	return 0;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/*
 * A syscall block's reference: the shape c for which most of its rows
 * have c or c + 1, the two differences SQLite stores in no byte (a
 * loop that reads one fd and writes another alternates two shapes,
 * numbered one after the other when they first appeared).
 */
static int64_t block_ref(const struct batch *b)
{
	int64_t v[IDBLK_ROWS], best = 0;
	int n = b->n, best_n = -1;

	for (int r = 0; r < n; r++)
		v[r] = b->v[r][REF_COL].i;
	qsort(v, (size_t)n, sizeof(v[0]), cmp_i64);
	/* runs of equal values: count c's run and the run of c + 1 after it */
	for (int i = 0, j; i < n; i = j) {
		int k, cnt;

		for (j = i; j < n && v[j] == v[i]; j++)
			;
		for (k = j; k < n && v[k] == v[i] + 1; k++)
			;
		cnt = k - i;
		if (cnt > best_n) {
			best_n = cnt;
			best = v[i];
		}
	}
	return best;
}

/*
 * Insert the rows waiting in b: the first time for a block, choose its
 * reference and store its id_blocks row.
 */
static int batch_flush(struct db *db, struct batch *b)
{
	int r = 0;

	if (!b->n)
		return 0;
	if (!b->have_ref) {
		sqlite3_stmt *st = db->st[S_BLOCK];
		int rc;

		b->ref = b->use_ref ? block_ref(b) : 0;
		b->have_ref = true;
		sqlite3_bind_int64(st, 1, b->block);
		sqlite3_bind_int64(st, 2, db->rec_id);
		sqlite3_bind_int64(st, 3, b->base_ts);
		if (b->use_ref)
			sqlite3_bind_int64(st, 4, b->ref);
		else
			sqlite3_bind_null(st, 4);
		rc = sqlite3_step(st);
		sqlite3_reset(st);
		if (rc != SQLITE_DONE)
			return fail_sql(db, "insert id block");
		db->rows++;
	}
	for (int i = 0; i < b->n; i++)
		b->v[i][REF_COL].i -= b->ref;
	for (; r + BATCH <= b->n; r += BATCH)
		if (insert_rows(db, b, b->multi, r, BATCH))
			return failed(db);
	for (; r < b->n; r++)
		if (insert_rows(db, b, db->st[b->one], r, 1))
			return failed(db);
	b->n = 0;
	return 0;
}

static int flush_all(struct db *db)
{
	return batch_flush(db, &db->breq) || batch_flush(db, &db->bsys) ? -1 : 0;
}

static inline void vi(struct val *v, int64_t i)
{
	v->type = 1;
	v->i = i;
}

static inline void vu(struct val *v, uint64_t u)
{
	v->type = 1;
	v->i = u > INT64_MAX ? INT64_MAX : (int64_t)u;
}

static inline void vnull(struct val *v)
{
	v->type = 0;
}


/* ------------------------------------------------------------------ */
/* Opening: schema and version */

/* The schema text up to the "-- @indexes" line, or after it; NULL: no memory. */
static char *schema_part(bool indexes)
{
	const char *mark = strstr(schema_sql, "\n-- @indexes");
	size_t len = mark ? (size_t)(mark - schema_sql) : strlen(schema_sql);

	if (indexes)
		return an_strdup(mark ? mark + 1 : "");
	return an_asprintf("%.*s", (int)len, schema_sql);
}

static int create_schema(struct db *db)
{
	char *sql = schema_part(false);
	char ver[64];
	int rc;

	if (!sql)
		return nomem(db);

	/* larger pages: fewer splits and less per-page overhead in bulk loads */
	rc = exec(db, "PRAGMA page_size = 4096");
	if (!rc)
		rc = exec(db, "BEGIN IMMEDIATE");
	if (!rc)
		rc = exec(db, sql);
	free(sql);
	snprintf(ver, sizeof(ver), "PRAGMA user_version = %d",
		 DB_SCHEMA_VERSION);
	if (!rc)
		rc = exec(db, ver);
	if (!rc)
		rc = exec(db, "INSERT INTO db_info VALUES ('schema_version', '"
			  STR(DB_SCHEMA_VERSION) "'), ('created_by', 'ioreport "
			  PACKAGE_VERSION "')");
	if (!rc)
		rc = exec(db, "COMMIT");
	if (rc)
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

static int check_schema(struct db *db)
{
	int64_t ver, tables;

	ver = query_int(db, "PRAGMA user_version");
	if (ver < 0)
		return failed(db);
	tables = query_int(db, "SELECT count(*) FROM sqlite_schema");
	if (tables < 0)
		return failed(db);
	if (ver == 0 && tables == 0)
		return create_schema(db);
	if (ver == DB_SCHEMA_VERSION &&
	    query_int(db, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'recordings'") == 1)
		return 0;
	if (ver == 0 &&
	    query_int(db, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'recordings'") == 0)
		return fail(db, "%s is an SQLite database but not one of ioreport; give 'ioreport db' a new file name",
			    db->path);
	if (ver < DB_SCHEMA_VERSION)
		return fail(db, "%s has ioreport schema version %" PRId64 ", older than this ioreport's %d and not migrated; load the recordings into a new file (or delete this one)",
			    db->path, ver, DB_SCHEMA_VERSION);
	return fail(db, "%s has ioreport schema version %" PRId64 ", newer than this ioreport's %d; use a newer ioreport or a new file",
		    db->path, ver, DB_SCHEMA_VERSION);
}

struct db *db_open(const char *path, struct an_err *err)
{
	struct db *db = an_calloc(1, sizeof(*db));
	int rc;

	if (!db || !(db->path = an_strdup(path))) {
		free(db);
		an_nomem(err, path);
		return NULL;
	}
	rc = sqlite3_open_v2(path, &db->h, SQLITE_OPEN_READWRITE |
			     SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		if (db->h)
			fail_sql(db, "cannot open");
		else
			fail(db, "%s: cannot open: out of memory", path);
		goto err;
	}
	sqlite3_extended_result_codes(db->h, 1);
	/* a writer holding the lock briefly (another load's commit) */
	sqlite3_busy_timeout(db->h, 5000);
	if (check_schema(db))
		goto err;
	return db;
err:
	*err = db->err;
	db_close(db);
	return NULL;
}

void db_close(struct db *db)
{
	if (!db)
		return;
	for (int i = 0; i < S_NR; i++)
		sqlite3_finalize(db->st[i]);
	sqlite3_finalize(db->breq.multi);
	sqlite3_finalize(db->bsys.multi);
	if (db->in_load)
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_close(db->h);
	intern_release(&db->shapes);
	intern_release(&db->origins);
	free(db->path);
	free(db);
}

/* ------------------------------------------------------------------ */
/* The load transaction */

int db_load_begin(struct db *db)
{
	int64_t n;

	/*
	 * The rollback journal keeps the load atomic against a crash of
	 * ioreport or of the machine; pages appended to the file by a bulk
	 * load are not journaled, so it costs little.  A larger page cache
	 * makes the index builds sort in memory.
	 */
	if (exec(db, "PRAGMA journal_mode = DELETE") ||
	    exec(db, "PRAGMA synchronous = NORMAL") ||
	    exec(db, "PRAGMA cache_size = -65536") ||
	    exec(db, "PRAGMA temp_store = MEMORY"))
		return failed(db);
	if (exec(db, "BEGIN IMMEDIATE"))
		return failed(db);
	db->in_load = true;
	n = query_int(db, "SELECT count(*) FROM recordings");
	if (n < 0)
		return failed(db);
	db->fresh = n == 0;
	if (db->fresh) {
		/* empty: build the indexes once, after the bulk insert */
		if (exec(db, "DROP INDEX IF EXISTS request_rows_origin"))
			return failed(db);
	}
	for (int i = 0; i < S_NR; i++)
		if (!db->st[i] &&
		    sqlite3_prepare_v3(db->h, stmt_sql[i], -1,
				       SQLITE_PREPARE_PERSISTENT, &db->st[i],
				       NULL) != SQLITE_OK)
			return fail_sql(db, stmt_sql[i]);
	if (batch_prepare(db, &db->breq, S_REQUEST, 9) ||
	    batch_prepare(db, &db->bsys, S_SYSCALL, 4))
		return failed(db);
	db->bsys.use_ref = true;
	db->rows = 0;
	return 0;
}

int db_commit(struct db *db)
{
	char *sql;
	int rc;

	if (!db->in_load)
		return fail(db, "%s: no load to commit", db->path);
	sql = schema_part(true);
	rc = !sql ? nomem(db) : flush_all(db) ? failed(db) : exec(db, sql);
	free(sql);
	if (!rc)
		rc = exec(db, "COMMIT");
	if (rc) {
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
		db->in_load = false;
		return failed(db);
	}
	db->in_load = false;
	return 0;
}

uint64_t db_rows(const struct db *db)
{
	return db->rows;
}

int64_t db_rec_id(const struct db *db)
{
	return db->rec_id;
}

bool db_replaced(const struct db *db)
{
	return db->replaced;
}

/* ------------------------------------------------------------------ */
/* Binding helpers */

static void bind_i(sqlite3_stmt *st, int i, int64_t v)
{
	sqlite3_bind_int64(st, i, v);
}

static void bind_u(sqlite3_stmt *st, int i, uint64_t v)
{
	/* ns and byte counts fit in 63 bits; saturate rather than wrap */
	sqlite3_bind_int64(st, i, v > INT64_MAX ? INT64_MAX : (int64_t)v);
}

/* v, or NULL when v is the "unknown" value */
static void bind_opt(sqlite3_stmt *st, int i, int64_t v, int64_t unknown)
{
	if (v == unknown)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_int64(st, i, v);
}

static void bind_s(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

/* Step a bound insert and reset it. */
static int step(struct db *db, enum stmt_id id)
{
	sqlite3_stmt *st = db->st[id];
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return fail_sql(db, "insert");
	db->rows++;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Call shapes, request origins and id blocks: what keeps bulk rows small */

static uint64_t mix64(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 33);
}

static uint64_t tuple_hash(const int64_t *t, int w)
{
	uint64_t h = 0x9e3779b97f4a7c15ull;

	for (int i = 0; i < w; i++)
		h = mix64(h ^ (uint64_t)t[i]) + (uint64_t)i;
	return h;
}

static void intern_reset(struct intern *in, int w, int64_t base)
{
	in->w = w;
	in->n = 0;
	in->base = base;
	if (in->slot)
		memset(in->slot, 0, in->nslot * sizeof(*in->slot));
}

static void intern_release(struct intern *in)
{
	free(in->v);
	free(in->slot);
	memset(in, 0, sizeof(*in));
}

/* 0, or -AN_E_NOMEM with in unchanged. */
static int intern_rehash(struct intern *in, size_t nslot)
{
	uint32_t *slot = an_calloc(nslot, sizeof(*slot));

	if (!slot)
		return -AN_E_NOMEM;
	free(in->slot);
	in->nslot = nslot;
	in->slot = slot;
	for (size_t i = 0; i < in->n; i++) {
		size_t j = tuple_hash(in->v + i * in->w, in->w) & (nslot - 1);

		while (in->slot[j])
			j = (j + 1) & (nslot - 1);
		in->slot[j] = (uint32_t)(i + 1);
	}
	return 0;
}

/* The id of tuple t (w values), added when new; -1: no memory. */
static int64_t intern(struct intern *in, const int64_t *t)
{
	size_t w = (size_t)in->w, j;

	if ((in->n + 1) * 2 > in->nslot &&
	    intern_rehash(in, in->nslot ? in->nslot * 2 : 1024))
		return -1;
	j = tuple_hash(t, in->w) & (in->nslot - 1);
	while (in->slot[j]) {
		size_t i = in->slot[j] - 1;

		if (!memcmp(in->v + i * w, t, w * sizeof(*t)))
			return in->base + (int64_t)i;
		j = (j + 1) & (in->nslot - 1);
	}
	if (an_grow(&in->v, &in->alloc, in->n + 1, w * sizeof(*in->v), 1024))
		return -1;
	memcpy(in->v + in->n * w, t, w * sizeof(*t));
	in->slot[j] = (uint32_t)(in->n + 1);
	return in->base + (int64_t)in->n++;
}

enum { ST_TID, ST_PROC, ST_KIND, ST_FD, ST_FILE, ST_RET, ST_W };
enum { OR_DEV, OR_OP, OR_FLAGS, OR_IPID, OR_SPID, OR_PROC, OR_FILE, OR_ATTRIB,
       OR_W };

/* Id numbering for a new recording: after every block, shape and origin. */
static int ids_begin(struct db *db)
{
	int64_t b = query_int(db, "SELECT ifnull(max(block), 0) + 1 FROM id_blocks");
	int64_t s = query_int(db, "SELECT ifnull(max(shape), -1) + 1 FROM call_shapes");
	int64_t o = query_int(db, "SELECT ifnull(max(origin), -1) + 1 FROM request_origins");

	if (b < 0 || s < 0 || o < 0)
		return failed(db);
	db->next_block = b;
	db->breq.block = db->bsys.block = 0;
	db->breq.n = db->bsys.n = 0;
	intern_reset(&db->shapes, ST_W, s);
	intern_reset(&db->origins, OR_W, o);
	return 0;
}

/*
 * The id of the next row of bulk table b, a row of time ts; *off is ts
 * relative to the id block's base.  A block holds 1024 ids and a time
 * span that keeps the offsets in 32 bits.  Returns the row's values
 * (b->ncols of them, to fill), or NULL after an error.
 */
static struct val *next_row(struct db *db, struct batch *b, uint64_t ts,
			    int64_t *id, int64_t *off)
{
	int64_t t = ts > INT64_MAX ? INT64_MAX : (int64_t)ts;

	if (!b->block || b->nids == IDBLK_ROWS ||
	    t - b->base_ts >= INT32_MAX || t - b->base_ts <= INT32_MIN) {
		if (batch_flush(db, b))
			return NULL;
		b->block = db->next_block++;
		b->nids = 0;
		b->base_ts = t;
		b->have_ref = false;
	}
	*off = t - b->base_ts;
	*id = b->block << IDBLK_BITS | b->nids++;
	return b->v[b->n++];
}

/*
 * Insert the tuples of in with statement id: the tuple's id, rec_id, then
 * its values as cols says: 'i' an integer, 'o' an integer or NULL for -1,
 * 's' a string (a pointer) or NULL.
 */
static int store_tuples(struct db *db, const struct intern *in,
			enum stmt_id id, const char *cols)
{
	sqlite3_stmt *st = db->st[id];

	assert(strlen(cols) == (size_t)in->w);
	for (size_t i = 0; i < in->n; i++) {
		const int64_t *t = in->v + i * (size_t)in->w;

		bind_i(st, 1, in->base + (int64_t)i);
		bind_i(st, 2, db->rec_id);
		for (int c = 0; c < in->w; c++) {
			if (cols[c] == 's')
				bind_s(st, c + 3, (const char *)(intptr_t)t[c]);
			else if (cols[c] == 'o')
				bind_opt(st, c + 3, t[c], -1);
			else
				bind_i(st, c + 3, t[c]);
		}
		if (step(db, id))
			return failed(db);
	}
	return 0;
}

/* Store the call shapes and request origins of the current recording. */
static int store_interned(struct db *db)
{
	/* tid proc kind fd file ret; dev op flags ipid spid proc file attrib */
	return store_tuples(db, &db->shapes, S_SHAPE, "ioiooi") ||
	       store_tuples(db, &db->origins, S_ORIGIN, "iiioooos") ? -1 : 0;
}

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

	return rc == -AN_E_NOMEM ? fail(db, "%s: out of memory", db->path) :
	       rc;
}

static int add_meta(struct db *db, const char *section, const char *text)
{
	sqlite3_stmt *st = db->st[S_META];

	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		const char *eq = memchr(p, '=', len);

		if (eq) {
			bind_i(st, 1, db->rec_id);
			sqlite3_bind_text(st, 2, section, -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 3, p, (int)(eq - p),
					  SQLITE_TRANSIENT);
			sqlite3_bind_text(st, 4, eq + 1,
					  (int)(len - (size_t)(eq - p) - 1),
					  SQLITE_TRANSIENT);
			if (step(db, S_META))
				return failed(db);
		}
		p = nl ? nl + 1 : NULL;
	}
	return 0;
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
	return step(db, S_CONFIG);
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
	return step(db, S_DEVICE);
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
		rc = rest.err ? nomem(db) :
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
	return exec(db, sql);
}

static int lookup_tables(struct db *db)
{
	sqlite3_stmt *st;

	for (int op = 0; op < BLK_OP_MAX; op++) {
		st = db->st[S_OP];
		bind_i(st, 1, db->rec_id);
		bind_i(st, 2, op);
		bind_s(st, 3, blk_op_name(op));
		if (step(db, S_OP))
			return failed(db);
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
		if (step(db, S_KIND))
			return failed(db);
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
		if (exec(db, sql))
			return failed(db);
	}
	for (size_t i = 0; i < ARRAY_SIZE(rec_tables); i++) {
		snprintf(sql, sizeof(sql), "DELETE FROM %s WHERE rec_id = %" PRId64,
			 rec_tables[i], rec_id);
		if (exec(db, sql))
			return failed(db);
	}
	snprintf(sql, sizeof(sql), "DELETE FROM recordings WHERE rec_id = %" PRId64,
		 rec_id);
	return exec(db, sql);
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
		return fail(db, "%s: db_recording_begin outside a load", db->path);
	if (flush_all(db))
		return failed(db);
	db->in = in;
	content_id(in, cid);

	/* an earlier load of this recording: replace it, keeping its id */
	if (sqlite3_prepare_v2(db->h, "SELECT rec_id FROM recordings WHERE content_id = ?",
			       -1, &st, NULL) != SQLITE_OK)
		return fail_sql(db, "select");
	sqlite3_bind_text(st, 1, cid, -1, SQLITE_STATIC);
	old = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	db->replaced = old > 0;
	if (old > 0 && delete_recording(db, old))
		return failed(db);

	gmtime_r(&t, &tm);
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (sqlite3_prepare_v2(db->h,
			       "INSERT INTO recordings (rec_id, content_id, path, format, format_version, host, kernel, machine, clock, cpus, page_size, long_size, big_endian, first_ts, last_ts, events, lost_events, integrity, stop_reason, file_bytes, command, loaded_at, loaded_by) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,0,?,?,?,?,?,?,?)",
			       -1, &st, NULL) != SQLITE_OK)
		return fail_sql(db, "insert recording");
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
			return nomem(db);
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
		return fail_sql(db, "insert recording");
	db->rec_id = sqlite3_last_insert_rowid(db->h);
	db->next_hist = 1;
	if (ids_begin(db))
		return failed(db);

	if (add_meta(db, "header", in->header_text) ||
	    add_meta(db, "end", in->end_text) ||
	    lookup_tables(db) ||
	    for_lines(db, in->snapshot_start, "start") ||
	    for_lines(db, in->snapshot_end, "end") ||
	    device_attrs(db))
		return failed(db);
	return 0;
}

int db_recording_end(struct db *db, uint64_t events, uint64_t first_ts,
		     uint64_t last_ts, const char *syscall_source)
{
	sqlite3_stmt *st;
	int rc;

	if (flush_all(db) || store_interned(db))
		return failed(db);
	if (sqlite3_prepare_v2(db->h,
			       "UPDATE recordings SET events = ?2, first_ts = ?3, last_ts = ?4, syscall_source = ?5 WHERE rec_id = ?1",
			       -1, &st, NULL) != SQLITE_OK)
		return fail_sql(db, "update recording");
	bind_i(st, 1, db->rec_id);
	bind_u(st, 2, events);
	bind_u(st, 3, first_ts);
	bind_u(st, 4, last_ts);
	bind_s(st, 5, syscall_source);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return fail_sql(db, "update recording");
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
	return step(db, S_CPU);
}

/* ------------------------------------------------------------------ */
/* Rows */

int db_add_request(struct db *db, const struct blk_request *rq, int proc_id,
		   int file_id, const char *attrib, int64_t *req_id)
{
	struct val *v;
	int64_t t[OR_W], id, off, origin;

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
	origin = intern(&db->origins, t);
	if (origin < 0)
		return nomem(db);
	v = next_row(db, &db->breq, rq->complete_ts, &id, &off);
	if (!v)
		return failed(db);
	*req_id = id;
	vi(&v[0], id);
	vi(&v[1], origin);
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

	if (batch_flush(db, &db->breq))
		return failed(db);
	bind_i(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		origin = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	if (origin < db->origins.base ||
	    origin - db->origins.base >= (int64_t)db->origins.n)
		return fail(db, "%s: request %" PRId64 " is not one of this load",
			    db->path, id);
	memcpy(t, db->origins.v + (origin - db->origins.base) * OR_W, sizeof(t));
	t[OR_FILE] = file_id;
	origin = intern(&db->origins, t);
	if (origin < 0)
		return nomem(db);
	st = db->st[S_REQFILE];
	bind_i(st, 1, id);
	bind_i(st, 2, origin);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : fail_sql(db, "update request");
}

int db_add_syscall(struct db *db, const struct sys_call *c, int proc_id,
		   int fd, int file_id)
{
	struct val *v;
	int64_t t[ST_W], id, off, shape;

	t[ST_TID] = c->tid;
	t[ST_PROC] = proc_id;
	t[ST_KIND] = c->kind;
	t[ST_FD] = fd;
	t[ST_FILE] = file_id;
	t[ST_RET] = c->ret;
	shape = intern(&db->shapes, t);
	if (shape < 0)
		return nomem(db);
	v = next_row(db, &db->bsys, c->end, &id, &off);
	if (!v)
		return failed(db);
	vi(&v[0], id);
	vi(&v[1], shape);
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
	return step(db, S_THREAD);
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
	return step(db, S_HIST) ? -1 : id;
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
	return step(db, S_BUCKET);
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
		return failed(db);
	while (hist_next_bucket(h, &pos, &lo, &hi, &n))
		if (bucket_row(db, id, lo, hi, n))
			return failed(db);
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
		return failed(db);
	if (sqlite3_prepare_v2(db->h, "UPDATE devices SET requests = requests + ?3 WHERE rec_id = ?1 AND dev = ?2",
			       -1, &st, NULL) != SQLITE_OK)
		return fail_sql(db, "update device");
	bind_i(st, 1, db->rec_id);
	bind_i(st, 2, dev);
	bind_u(st, 3, reqs);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return fail_sql(db, "update device");
	if (add_hist(db, "device", "queue", dev, op, queue) ||
	    add_hist(db, "device", "device", dev, op, device) ||
	    add_hist(db, "device", "total", dev, op, total))
		return failed(db);
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
		if (step(db, S_COMM))
			return failed(db);
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
	if (step(db, S_PROCESS) || add_comms(db, p))
		return failed(db);
	if (!ps)
		return 0;
	for (int k = SK_NONE + 1; k < SK_NR; k++) {
		const struct kstat *ks = &ps->k[k];

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
		if (step(db, S_PKIND) ||
		    add_owner_hist(db, "syscall", "latency", p->id, k, -1,
				&ks->lat))
			return failed(db);
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
	if (step(db, S_FILE))
		return failed(db);
	if (!fs)
		return 0;
	if (add_owner_hist(db, "file", "read", -1, -1, f->id, &fs->rlat) ||
	    add_owner_hist(db, "file", "write", -1, -1, f->id, &fs->wlat) ||
	    add_owner_hist(db, "file", "fsync", -1, -1, f->id, &fs->fsync))
		return failed(db);
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
	return step(db, S_ANOMALY);
}
