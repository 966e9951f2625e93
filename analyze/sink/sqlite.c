// SPDX-License-Identifier: MIT
/*
 * sqlite.c - the SQLite sink's database (see sqlite.h): schema creation
 * and version check, one transaction per load, prepared statements
 * reused for every row, secondary indexes built after the bulk insert;
 * sqlite-rows.c stores the rows.
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
#include "base/hmap.h"
#include "sbuf.h"
#include "input/source.h"
#include "input/meta.h"
#include "sink/sqlite.h"
#include "sink/sqlite-priv.h"
#include "analyze/sink/schema-sql.h"	/* generated from schema.sql: schema_sql[] */

static const char *const stmt_sql[S_NR] = {
	[S_REQUEST] = "INSERT INTO request_rows (rowid, origin, sector, nr_sector, end_ns, device_ns, queue_ns, error, bytes_extra) VALUES (?,?,?,?,?,?,?,?,?)",
	[S_SYSCALL] = "INSERT INTO syscall_rows (rowid, shape_delta, end_ns, duration_ns) VALUES (?,?,?,?)",
	[S_THREAD] = "INSERT OR REPLACE INTO threads (rec_id, proc_id, tid, syscalls, first_ts, last_ts) VALUES (?,?,?,?,?,?)",
	[S_PROCESS] = "INSERT INTO processes (rec_id, proc_id, pid, ppid, comm, exe, at_start, guessed, exited, start_ts, exit_ts, syscalls, errors, read_bytes, write_bytes, fsyncs, fsync_ns, fsync_max_ns, blk_requests, blk_read_bytes, blk_write_bytes, blk_device_ns, journal_bytes, throttles, throttle_ns, dstates, dstate_ns, unit, container, cgroup) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	[S_COMM] = "INSERT OR IGNORE INTO comm_history (rec_id, proc_id, seq, comm) VALUES (?,?,?,?)",
	[S_PKIND] = "INSERT INTO process_syscalls (rec_id, proc_id, kind, calls, errors, bytes, unpaired, lat_count, lat_total_ns, lat_min_ns, lat_p50_ns, lat_p99_ns, lat_max_ns) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
	[S_FILE] = "INSERT INTO files (rec_id, file_id, ident, path, name, dev, ino, opener_pid, opener_fd, open_ts, opens, reads, writes, read_bytes, write_bytes, errors, read_p50_ns, read_p99_ns, write_p50_ns, write_p99_ns, fsyncs, fsync_ns, fsync_max_ns, blk_requests, blk_read_bytes, blk_write_bytes, blk_device_ns, journal_bytes, other_names, unlinked) VALUES (?1,?2,?28,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,?19,?20,?21,?22,?23,?24,?25,?26,?27,?29,?30)",
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

static void intern_release(struct intern *in);

/* ------------------------------------------------------------------ */
/* Errors */

/* A failure of the database: the message kept, -AN_E_DB returned. */
int sq_fail(struct db *db, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = an_vfail(&db->err, AN_E_DB, fmt, ap);
	va_end(ap);
	return rc;
}

/* A failure for memory. */
int sq_nomem(struct db *db)
{
	return an_nomem(&db->err, db->path);
}

/* What the failure a callee reported returns further up. */
int sq_failed(const struct db *db)
{
	return db->err.code ? -db->err.code : -AN_E_DB;
}

/* An SQLite failure, with a hint for the common causes. */
int sq_fail_sql(struct db *db, const char *what)
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
	return sq_fail(db, "%s: %s: %s%s", db->path, what, sqlite3_errmsg(db->h),
		       hint);
}

const char *db_errmsg(const struct db *db)
{
	return db->err.code ? db->err.msg : "";
}

int sq_exec(struct db *db, const char *sql)
{
	if (sqlite3_exec(db->h, sql, NULL, NULL, NULL) != SQLITE_OK)
		return sq_fail_sql(db, sql);
	return 0;
}

/* The single integer result of sql, or -1 on error. */
int64_t sq_query_int(struct db *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v = -1;

	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK) {
		sq_fail_sql(db, sql);
		return -1;
	}
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	else
		sq_fail_sql(db, sql);
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
	if (sb.failed) {
		sbuf_release(&sb);
		return sq_nomem(db);
	}
	rc = sqlite3_prepare_v3(db->h, sb.buf, -1, SQLITE_PREPARE_PERSISTENT,
				&b->multi, NULL);
	sbuf_release(&sb);
	return rc == SQLITE_OK ? 0 : sq_fail_sql(db, "prepare batch");
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
		return sq_fail_sql(db, "insert");
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
int sq_batch_flush(struct db *db, struct batch *b)
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
			return sq_fail_sql(db, "insert id block");
		db->rows++;
	}
	for (int i = 0; i < b->n; i++)
		b->v[i][REF_COL].i -= b->ref;
	for (; r + BATCH <= b->n; r += BATCH)
		if (insert_rows(db, b, b->multi, r, BATCH))
			return sq_failed(db);
	for (; r < b->n; r++)
		if (insert_rows(db, b, db->st[b->one], r, 1))
			return sq_failed(db);
	b->n = 0;
	return 0;
}

int sq_flush_all(struct db *db)
{
	return sq_batch_flush(db, &db->breq) || sq_batch_flush(db, &db->bsys) ? -1 : 0;
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
		return sq_nomem(db);

	/* larger pages: fewer splits and less per-page overhead in bulk loads */
	rc = sq_exec(db, "PRAGMA page_size = 4096");
	if (!rc)
		rc = sq_exec(db, "BEGIN IMMEDIATE");
	if (!rc)
		rc = sq_exec(db, sql);
	free(sql);
	snprintf(ver, sizeof(ver), "PRAGMA user_version = %d",
		 DB_SCHEMA_VERSION);
	if (!rc)
		rc = sq_exec(db, ver);
	if (!rc)
		rc = sq_exec(db, "INSERT INTO db_info VALUES ('schema_version', '"
			  STR(DB_SCHEMA_VERSION) "'), ('created_by', 'ioreport "
			  PACKAGE_VERSION "')");
	if (!rc)
		rc = sq_exec(db, "COMMIT");
	if (rc)
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

static int check_schema(struct db *db)
{
	int64_t ver, tables;

	ver = sq_query_int(db, "PRAGMA user_version");
	if (ver < 0)
		return sq_failed(db);
	tables = sq_query_int(db, "SELECT count(*) FROM sqlite_schema");
	if (tables < 0)
		return sq_failed(db);
	if (ver == 0 && tables == 0)
		return create_schema(db);
	if (ver == DB_SCHEMA_VERSION &&
	    sq_query_int(db, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'recordings'") == 1)
		return 0;
	if (ver == 0 &&
	    sq_query_int(db, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'recordings'") == 0)
		return sq_fail(db, "%s is an SQLite database but not one of ioreport; give 'ioreport db' a new file name",
			       db->path);
	if (ver < DB_SCHEMA_VERSION)
		return sq_fail(db, "%s has ioreport schema version %" PRId64 ", older than this ioreport's %d and not migrated; load the recordings into a new file (or delete this one)",
			       db->path, ver, DB_SCHEMA_VERSION);
	return sq_fail(db, "%s has ioreport schema version %" PRId64 ", newer than this ioreport's %d; use a newer ioreport or a new file",
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
			sq_fail_sql(db, "cannot open");
		else
			sq_fail(db, "%s: cannot open: out of memory", path);
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
	if (sq_exec(db, "PRAGMA journal_mode = DELETE") ||
	    sq_exec(db, "PRAGMA synchronous = NORMAL") ||
	    sq_exec(db, "PRAGMA cache_size = -65536") ||
	    sq_exec(db, "PRAGMA temp_store = MEMORY"))
		return sq_failed(db);
	if (sq_exec(db, "BEGIN IMMEDIATE"))
		return sq_failed(db);
	db->in_load = true;
	n = sq_query_int(db, "SELECT count(*) FROM recordings");
	if (n < 0)
		return sq_failed(db);
	db->fresh = n == 0;
	if (db->fresh) {
		/* empty: build the indexes once, after the bulk insert */
		if (sq_exec(db, "DROP INDEX IF EXISTS request_rows_origin"))
			return sq_failed(db);
	}
	for (int i = 0; i < S_NR; i++)
		if (!db->st[i] &&
		    sqlite3_prepare_v3(db->h, stmt_sql[i], -1,
				       SQLITE_PREPARE_PERSISTENT, &db->st[i],
				       NULL) != SQLITE_OK)
			return sq_fail_sql(db, stmt_sql[i]);
	if (batch_prepare(db, &db->breq, S_REQUEST, 9) ||
	    batch_prepare(db, &db->bsys, S_SYSCALL, 4))
		return sq_failed(db);
	db->bsys.use_ref = true;
	db->rows = 0;
	return 0;
}

int db_commit(struct db *db)
{
	char *sql;
	int rc;

	if (!db->in_load)
		return sq_fail(db, "%s: no load to commit", db->path);
	sql = schema_part(true);
	rc = !sql ? sq_nomem(db) : sq_flush_all(db) ? sq_failed(db) : sq_exec(db, sql);
	free(sql);
	if (!rc)
		rc = sq_exec(db, "COMMIT");
	if (rc) {
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
		db->in_load = false;
		return sq_failed(db);
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

/* Step a bound insert and reset it. */
int sq_step(struct db *db, enum stmt_id id)
{
	sqlite3_stmt *st = db->st[id];
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return sq_fail_sql(db, "insert");
	db->rows++;
	return 0;
}

/* The recording's id as parameter 1 of st, the n values v after it. */
static void bind_row(struct db *db, sqlite3_stmt *st, const struct sq_val *v,
		     int n)
{
	bind_i(st, 1, db->rec_id);
	for (int i = 0; i < n; i++) {
		if (v[i].type == SQ_INT)
			sqlite3_bind_int64(st, i + 2, v[i].i);
		else if (v[i].type == SQ_TEXT)
			sqlite3_bind_text(st, i + 2, v[i].s, v[i].len,
					  SQLITE_TRANSIENT);
		else
			sqlite3_bind_null(st, i + 2);
	}
}

int sq_insert(struct db *db, enum stmt_id id, const struct sq_val *v, int n)
{
	bind_row(db, db->st[id], v, n);
	return sq_step(db, id);
}

int sq_update(struct db *db, const char *sql, const char *what,
	      const struct sq_val *v, int n)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return sq_fail_sql(db, what);
	bind_row(db, st, v, n);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return sq_fail_sql(db, what);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Call shapes, request origins and id blocks: what keeps bulk rows small */

static uint64_t tuple_hash(const int64_t *t, int w)
{
	uint64_t h = 0x9e3779b97f4a7c15ull;

	for (int i = 0; i < w; i++)
		h = hash_mix(h ^ (uint64_t)t[i]) + (uint64_t)i;
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
int64_t sq_intern(struct intern *in, const int64_t *t)
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


/* Id numbering for a new recording: after every block, shape and origin. */
int sq_ids_begin(struct db *db)
{
	int64_t b = sq_query_int(db, "SELECT ifnull(max(block), 0) + 1 FROM id_blocks");
	int64_t s = sq_query_int(db, "SELECT ifnull(max(shape), -1) + 1 FROM call_shapes");
	int64_t o = sq_query_int(db, "SELECT ifnull(max(origin), -1) + 1 FROM request_origins");

	if (b < 0 || s < 0 || o < 0)
		return sq_failed(db);
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
struct val *sq_next_row(struct db *db, struct batch *b, uint64_t ts,
			int64_t *id, int64_t *off)
{
	int64_t t = ts > INT64_MAX ? INT64_MAX : (int64_t)ts;

	if (!b->block || b->nids == IDBLK_ROWS ||
	    t - b->base_ts >= INT32_MAX || t - b->base_ts <= INT32_MIN) {
		if (sq_batch_flush(db, b))
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
		if (sq_step(db, id))
			return sq_failed(db);
	}
	return 0;
}

/* Store the call shapes and request origins of the current recording. */
int sq_store_interned(struct db *db)
{
	/* tid proc kind fd file ret; dev op flags ipid spid proc file attrib */
	return store_tuples(db, &db->shapes, S_SHAPE, "ioiooi") ||
	       store_tuples(db, &db->origins, S_ORIGIN, "iiioooos") ? -1 : 0;
}
