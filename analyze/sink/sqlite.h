/* SPDX-License-Identifier: MIT */
/*
 * sqlite.h - the SQLite sink of ioreport: stores what the views show,
 * plus every block request and file syscall, in a database that holds
 * several recordings (schema: analyze/sink/schema.sql, docs/schema.md).
 * Like every sink it reads the rows the stages computed (stats/rows.h),
 * never the state machines.
 *
 * A load is one transaction: db_load_begin() ... db_commit().  Until the
 * commit nothing is visible, and a load that fails, is abandoned
 * (db_close() without db_commit()) or is killed leaves the database as it
 * was.  Loading a recording that is already in the database (same
 * content id) replaces its rows.
 *
 * Nothing here prints or exits: functions return 0 or a negative AN_E_*
 * (AN_E_DB, AN_E_NOMEM; base/err.h), after which db_errmsg() says what
 * failed and, where there is one, the fix.
 */
#ifndef IOREPORT_SINK_SQLITE_H
#define IOREPORT_SINK_SQLITE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/blk.h"
#include "base/syskind.h"
#include "stats/hist.h"
#include "stats/rows.h"

/* The schema version this ioreport writes (PRAGMA user_version). */
#define DB_SCHEMA_VERSION	5

struct db;
struct source_info;

/*
 * db_open - open or create the database at path
 * @err: on failure, filled with a one-line message naming the problem and
 *   the fix
 *
 * Creates the schema in a new (or empty) file.  An existing database of
 * another schema version, or a file that is not an ioreport database, is
 * refused (NULL) rather than changed.
 */
struct an_err;
struct db *db_open(const char *path, struct an_err *err);

/* Roll back an uncommitted load and close; accepts NULL. */
void db_close(struct db *db);

/* The message of the last failure ("" if none). */
const char *db_errmsg(const struct db *db);

/* Start the load transaction (BEGIN IMMEDIATE) and prepare statements. */
int db_load_begin(struct db *db);

/*
 * db_recording_begin - start storing the recording in
 * @in: what the recording says about itself (input/source.h); its
 *   per-CPU counts are read again by db_add_cpu() after the pass
 * @path: the name to store (as the user gave it)
 *
 * Identifies the recording by a hash of its header, start snapshot and
 * first timestamp; deletes the rows of an earlier load of the same
 * recording; stores its header, configuration snapshot, block devices and
 * lookup tables.  The rows added next belong to it, until the next
 * db_recording_begin().
 */
int db_recording_begin(struct db *db, const struct source_info *in,
		       const char *path);

/*
 * db_add_meta - the "key=value" lines of text as recording_meta rows of
 * section for the current recording; 0, or -1 (db_errmsg())
 */
int db_add_meta(struct db *db, const char *section, const char *text);

/* The rec_id of the current recording (0 before db_recording_begin). */
int64_t db_rec_id(const struct db *db);
/* Whether the current recording replaced an earlier load of itself. */
bool db_replaced(const struct db *db);

/*
 * db_add_request - one completed block request
 * @proc_id, @file_id: the attributed process and file, -1 when unknown
 * @attrib: the attribution method (a heuristic's name), or NULL; a
 *   string that lives until db_commit() (rows are inserted in batches)
 * @req_id: set to the request's id (its req_id in the database)
 */
int db_add_request(struct db *db, const struct blk_request *rq, int proc_id,
		   int file_id, const char *attrib, int64_t *req_id);

/*
 * db_set_request_file - the file of request req_id of the current
 * recording, known only once the recording is read
 */
int db_set_request_file(struct db *db, int64_t req_id, int file_id);

/*
 * db_add_syscall - one file syscall of thread c->tid
 * @proc_id, @file_id, @fd: -1 when unknown
 */
int db_add_syscall(struct db *db, const struct sys_call *c, int proc_id,
		   int fd, int file_id);

/* A thread and the process it belonged to, with its syscall count and span. */
int db_add_thread(struct db *db, int proc_id, int tid, uint64_t calls,
		  uint64_t first_ts, uint64_t last_ts);

/*
 * db_add_process - a process with its comm history and, when it made
 * calls or I/O (r->ps), its aggregates, per-kind latency and histograms
 */
int db_add_process(struct db *db, const struct proc_row *r);

/*
 * db_add_file - a file with, when it had I/O (r->s), its aggregates and
 * histograms, and the ident of its identity (dev:ino, else path; the
 * files view merges them into one row)
 */
int db_add_file(struct db *db, const struct file_ident *r);

/*
 * db_add_devstat - one device and operation: the queue, device and total
 * time histograms (hist.h) and the request counts
 */
int db_add_devstat(struct db *db, uint32_t dev, enum blk_op op,
		   uint64_t reqs, const struct hist *queue,
		   const struct hist *device, const struct hist *total);

/* An anomaly counter of a stage ("block", "syscall", "process", "fd", ...). */
int db_add_anomaly(struct db *db, const char *stage, const char *name,
		   uint64_t count);

/*
 * db_add_cpu - a CPU's data and lost-event counts; gaps are the events
 * preceded by a lost-events gap in the data
 */
int db_add_cpu(struct db *db, int cpu, uint64_t gaps);

/*
 * db_recording_end - finish the current recording: its event count and
 * time span (of the events read), the syscall source, per-device request
 * counts
 */
int db_recording_end(struct db *db, uint64_t events, uint64_t first_ts,
		     uint64_t last_ts, const char *syscall_source);

/*
 * db_commit - create the secondary indexes and commit the load
 *
 * After a failure the load is rolled back: the database is as before
 * db_load_begin().
 */
int db_commit(struct db *db);

/* Rows inserted since db_load_begin() (for the rate). */
uint64_t db_rows(const struct db *db);

#endif /* IOREPORT_SINK_SQLITE_H */
