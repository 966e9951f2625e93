/* SPDX-License-Identifier: MIT */
/*
 * sqlite-priv.h - the state of an open database, shared by the two
 * halves of the SQLite sink, sqlite.c (the database: schema, load
 * transaction, batched inserts, interned tuples) and sqlite-rows.c (what
 * is stored).  Private to sink/.
 */
#ifndef IOREPORT_SINK_SQLITE_PRIV_H
#define IOREPORT_SINK_SQLITE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "base/err.h"

#define STR_(x)	#x
#define STR(x)	STR_(x)

enum stmt_id {
	S_REQUEST, S_SYSCALL, S_THREAD, S_PROCESS, S_COMM, S_PKIND, S_FILE,
	S_HIST, S_BUCKET, S_ANOMALY, S_CPU, S_CONFIG, S_META, S_DEVICE,
	S_OP, S_KIND, S_REQFILE, S_BLOCK, S_SHAPE, S_ORIGIN, S_ORIGIN_OF,
	S_NR
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

enum { ST_TID, ST_PROC, ST_KIND, ST_FD, ST_FILE, ST_RET, ST_W };
enum { OR_DEV, OR_OP, OR_FLAGS, OR_IPID, OR_SPID, OR_PROC, OR_FILE, OR_ATTRIB,
       OR_W };

/* Failures: the message kept in db->err, the negative AN_E_* returned. */
int sq_fail(struct db *db, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int sq_fail_sql(struct db *db, const char *what);	/* AN_E_DB, with a hint */
int sq_nomem(struct db *db);				/* AN_E_NOMEM */
int sq_failed(const struct db *db);	/* what a callee's failure returns up */

/* Run sql; its single integer result (-1 on error). */
int sq_exec(struct db *db, const char *sql);
int64_t sq_query_int(struct db *db, const char *sql);

/* Step a bound insert and reset it. */
int sq_step(struct db *db, enum stmt_id id);

/* A value of a row for sq_insert(): an integer, a text or NULL. */
struct sq_val {
	enum { SQ_NULL, SQ_INT, SQ_TEXT } type;
	int64_t i;
	const char *s;		/* SQ_TEXT: copied by SQLite */
	int len;		/* SQ_TEXT: its bytes, -1 up to its NUL */
};

/*
 * sq_insert - a row of the current recording: statement id with the
 * recording's id as parameter 1 and the n values v as the parameters
 * after it, stepped
 *
 * Returns 0, or a negative AN_E_* (the message in db->err).
 */
int sq_insert(struct db *db, enum stmt_id id, const struct sq_val *v, int n);
/*
 * sq_update - sql (a statement of the current recording's rows, run once)
 * with the parameters of sq_insert(); what names it in a failure
 *
 * Returns 0, or a negative AN_E_* (the message in db->err).
 */
int sq_update(struct db *db, const char *sql, const char *what,
	      const struct sq_val *v, int n);

/* The rows of a bulk table waiting in b, inserted; all of them. */
int sq_batch_flush(struct db *db, struct batch *b);
int sq_flush_all(struct db *db);
/*
 * The next row of bulk table b at ts: its id and time offset; NULL
 * after a failure.
 */
struct val *sq_next_row(struct db *db, struct batch *b, uint64_t ts,
			int64_t *id, int64_t *off);

/* The id of tuple t, interned when new; -1: no memory. */
int64_t sq_intern(struct intern *in, const int64_t *t);
/* Id numbering for a new recording; its interned tuples stored. */
int sq_ids_begin(struct db *db);
int sq_store_interned(struct db *db);

/* Binding helpers */
static inline void bind_i(sqlite3_stmt *st, int i, int64_t v)
{
	sqlite3_bind_int64(st, i, v);
}

static inline void bind_u(sqlite3_stmt *st, int i, uint64_t v)
{
	/* ns and byte counts fit in 63 bits; saturate rather than wrap */
	sqlite3_bind_int64(st, i, v > INT64_MAX ? INT64_MAX : (int64_t)v);
}

/* v, or NULL when v is the "unknown" value */
static inline void bind_opt(sqlite3_stmt *st, int i, int64_t v, int64_t unknown)
{
	if (v == unknown)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_int64(st, i, v);
}

static inline void bind_s(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

/* The values of sq_insert(): what the bind_* helpers above bind. */
static inline struct sq_val sq_i(int64_t v)
{
	return (struct sq_val){ .type = SQ_INT, .i = v };
}

static inline struct sq_val sq_u(uint64_t v)
{
	return sq_i(v > INT64_MAX ? INT64_MAX : (int64_t)v);
}

static inline struct sq_val sq_null(void)
{
	return (struct sq_val){ .type = SQ_NULL };
}

static inline struct sq_val sq_opt(int64_t v, int64_t unknown)
{
	return v == unknown ? sq_null() : sq_i(v);
}

static inline struct sq_val sq_sn(const char *s, int len)
{
	return s ? (struct sq_val){ .type = SQ_TEXT, .s = s, .len = len } :
	       sq_null();
}

static inline struct sq_val sq_s(const char *s)
{
	return sq_sn(s, -1);
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

#endif /* IOREPORT_SINK_SQLITE_PRIV_H */
