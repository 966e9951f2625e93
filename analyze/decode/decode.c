// SPDX-License-Identifier: MIT
/*
 * decode.c - the decode table (see decode.h): one row per event type the
 * analysis uses, with the kind it decodes to and the fields it reads,
 * resolved once per recording into a table indexed by event id; then
 * one switch that reads each kind's fields into struct dec_ev.
 *
 * Families of events are matched by name: syscalls:sys_enter_NAME and
 * sys_exit_NAME of the kinds base/syskind.c knows, raw_syscalls (when the
 * recording has no syscalls:* of those kinds, or when it recorded 32-bit
 * programs' calls beside them), and the probe events of iorec (group
 * iorec_PID) or of any "uprobes" group that carry a path string.
 *
 * On a kernel with a compat ABI a raw_syscalls event is a 32-bit task's
 * or a native one's (docs/iorec.5, COMPAT TASKS): the twin rule (in
 * shadow mode) and each task's ABI (snapshot, fork, exec) tell them
 * apart; a compat id is named by the COMPAT_SYSCALLS table and its
 * arguments cut to 32 bits.
 */
#include "config.h"

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "base/blk.h"
#include "base/err.h"
#include "base/imap.h"
#include "input/meta.h"
#include "input/source.h"
#include "decode/decode.h"
#include "decode/compat.h"

#define NF		8	/* fields of a row, at most */
#define F(i)		(1u << (i))
#define PATH_MAX_LEN	4096

/* How a row's fields are read (struct row_def). */
#define ROW_FALLBACK	0x01	/* used only when the previous row's event is absent */
#define ROW_FRONT	0x02	/* block_bio_frontmerge: dec_bio.front */

/*
 * Rows that decode to no dec_ev but feed the compat bookkeeping: a
 * syscalls:sys_enter_* event of a call not replayed (a marker of the
 * twin rule), and iorec's exec_native / exec_compat kprobes.
 */
enum row_role { ROLE_NONE = 0, ROLE_MARK, ROLE_EXEC_NATIVE, ROLE_EXEC_COMPAT };

struct row_def {
	const char *system, *event;
	enum dec_kind kind;
	const char *fields[NF];
	unsigned int need;	/* F(i): the row is used only with field i */
	unsigned int count;	/* F(i): a failed read of i is a decode error */
	unsigned int absent;	/* F(i): and so is its absence */
	unsigned int flags;
	size_t cap;		/* CAP(m): the dec_caps flag m its presence sets */
};

#define CAP(m)	(offsetof(struct dec_caps, m) + 1)

/* Field positions, per kind. */
enum { RQ_DEV, RQ_SECTOR, RQ_NR, RQ_BYTES, RQ_RWBS, RQ_ERROR, RQ_COMM };
enum { BIO_DEV, BIO_SECTOR, BIO_NR, BIO_COMM, BIO_RWBS };
enum { REMAP_DEV, REMAP_SECTOR, REMAP_OLD_DEV, REMAP_OLD_SECTOR };
enum { TASK_PID, TASK_PID2, TASK_COMM, TASK_FLAGS };
enum { INO_DEV, INO_INO, INO_DATASYNC };
enum { BDI_NAME, BDI_INO };
enum { JBD2_DEV, JBD2_HANDLES, JBD2_BLOCKS, JBD2_LOGGED, JBD2_LOGGING };
enum { GDS_DIRTY, GDS_WB, GDS_BG, GDS_THRESH, GDS_LIMIT, GDS_WRITTEN };
enum { WB_PAGES, WB_REASON };
enum { SW_PREV, SW_STATE, SW_NEXT };
enum { RAW_ID, RAW_ARGS };
enum { UR_CTX, UR_REQ, UR_DATA, UR_OP, UR_FLAGS, UR_SQT, UR_FD, UR_RES };

#define UR_FIELDS { "ctx", "req", "user_data", "opcode", "flags", \
		    "sq_thread", "fd", "res" }

#define RQ_FIELDS { "dev", "sector", "nr_sector", "bytes", "rwbs", "error", "comm" }
#define RQ_NEED (F(RQ_DEV) | F(RQ_SECTOR) | F(RQ_RWBS))

/*
 * The table.  A row whose event the recording lacks, or whose needed
 * fields it lacks, is left out; what the recording has is in dec_caps.
 */
#define ROW(sys, ev, k)	.system = (sys), .event = (ev), .kind = (k)

static const struct row_def defs[] = {
	{ ROW("block", "block_rq_insert", DK_RQ_INSERT),
	  .fields = RQ_FIELDS, .need = RQ_NEED },
	{ ROW("block", "block_rq_issue", DK_RQ_ISSUE),
	  .fields = RQ_FIELDS, .need = RQ_NEED },
	{ ROW("block", "block_rq_complete", DK_RQ_COMPLETE),
	  .fields = RQ_FIELDS, .need = RQ_NEED },
	{ ROW("block", "block_rq_requeue", DK_RQ_REQUEUE),
	  .fields = RQ_FIELDS, .need = RQ_NEED },
	{ ROW("block", "block_bio_queue", DK_BIO_QUEUE),
	  .cap = CAP(bio_events),
	  .fields = { "dev", "sector", "nr_sector", "comm", "rwbs" } },
	{ ROW("block", "block_bio_backmerge", DK_BIO_MERGE),
	  .cap = CAP(merge_events),
	  .fields = { "dev", "sector", "nr_sector", "comm", "rwbs" } },
	{ ROW("block", "block_bio_frontmerge", DK_BIO_MERGE),
	  .cap = CAP(merge_events),
	  .fields = { "dev", "sector", "nr_sector", "comm", "rwbs" },
	  .flags = ROW_FRONT },
	{ ROW("block", "block_bio_remap", DK_BIO_REMAP),
	  .fields = { "dev", "sector", "old_dev", "old_sector" } },
	{ ROW("block", "block_split", DK_BIO_SPLIT),
	  .fields = { "dev", "sector", NULL, "new_sector" },
	  .need = F(REMAP_DEV) | F(REMAP_SECTOR) | F(REMAP_OLD_SECTOR) },
	{ ROW("task", "task_newtask", DK_NEWTASK),
	  .fields = { "pid", NULL, "comm", "clone_flags" },
	  .count = F(TASK_PID) | F(TASK_FLAGS), .absent = F(TASK_PID) },
	{ ROW("sched", "sched_process_fork", DK_FORK),
	  .cap = CAP(proc_events),
	  .fields = { "parent_pid", "child_pid", "child_comm" },
	  .count = F(TASK_PID) | F(TASK_PID2),
	  .absent = F(TASK_PID) | F(TASK_PID2) },
	{ ROW("sched", "sched_process_exec", DK_EXEC),
	  .cap = CAP(proc_events),
	  .fields = { "pid", "old_pid", "filename" },
	  .count = F(TASK_PID) | F(TASK_PID2), .absent = F(TASK_PID) },
	{ ROW("sched", "sched_process_exit", DK_EXIT),
	  .cap = CAP(proc_events),
	  .fields = { "pid", "group_dead" },
	  .count = F(TASK_PID) | F(TASK_PID2), .absent = F(TASK_PID) },
	{ ROW("task", "task_rename", DK_RENAME),
	  .fields = { "pid", NULL, "newcomm" },
	  .count = F(TASK_PID), .absent = F(TASK_PID) },
	{ ROW("cgroup", "cgroup_attach_task", DK_CGROUP_ATTACH),
	  .fields = { "pid", "dst_root", "dst_path" },
	  .count = F(TASK_PID) | F(TASK_PID2),
	  .absent = F(TASK_PID) | F(TASK_PID2) },
	{ ROW("writeback", "writeback_dirty_folio", DK_DIRTY_FOLIO),
	  .cap = CAP(dirty_events),
	  .fields = { "name", "ino" } },
	{ ROW("writeback", "writeback_dirty_page", DK_DIRTY_FOLIO),
	  .cap = CAP(dirty_events),
	  .fields = { "name", "ino" }, .flags = ROW_FALLBACK },
	{ ROW("writeback", "writeback_dirty_inode", DK_DIRTY_INODE),
	  .fields = { "name", "ino" } },
	{ ROW("filemap", "mm_filemap_add_to_page_cache", DK_FILEMAP),
	  .fields = { "s_dev", "i_ino" } },
	{ ROW("ext4", "ext4_writepages", DK_WRITEPAGES),
	  .cap = CAP(ext4_events),
	  .fields = { "dev", "ino" } },
	{ ROW("ext4", "ext4_writepages_result", DK_WRITEPAGES_END) },
	{ ROW("ext4", "ext4_sync_file_enter", DK_FSYNC_ENTER),
	  .cap = CAP(ext4_events),
	  .fields = { "dev", "ino", "datasync" } },
	{ ROW("ext4", "ext4_allocate_inode", DK_INODE_ALLOC),
	  .fields = { "dev", "ino" } },
	{ ROW("ext4", "ext4_sync_file_exit", DK_FSYNC_EXIT),
	  .fields = { "ret" } },
	{ ROW("jbd2", "jbd2_start_commit", DK_COMMIT_START),
	  .cap = CAP(jbd2_events) },
	{ ROW("jbd2", "jbd2_end_commit", DK_COMMIT_END) },
	{ ROW("jbd2", "jbd2_run_stats", DK_JBD2_RUN),
	  .fields = { "dev", "handle_count", "blocks", "blocks_logged",
		      "logging" } },
	{ ROW("writeback", "balance_dirty_pages", DK_BDP),
	  .cap = CAP(bdp_events),
	  .fields = { "pause" } },
	{ ROW("writeback", "global_dirty_state", DK_DIRTY_STATE),
	  .fields = { "nr_dirty", "nr_writeback", "background_thresh",
		      "dirty_thresh", "dirty_limit", "nr_written" } },
	{ ROW("writeback", "writeback_start", DK_WB_START),
	  .fields = { "nr_pages" } },
	{ ROW("writeback", "writeback_written", DK_WB_WRITTEN),
	  .fields = { "nr_pages", "reason" } },
	{ ROW("sched", "sched_switch", DK_SWITCH),
	  .cap = CAP(sched_events),
	  .fields = { "prev_pid", "prev_state", "next_pid" } },
	{ ROW("sched", "sched_wakeup", DK_WAKEUP), .fields = { "pid" } },
	{ ROW("sched", "sched_waking", DK_WAKEUP), .fields = { "pid" } },
	{ ROW("io_uring", "io_uring_submit_req", DK_URING_SUBMIT),
	  .fields = UR_FIELDS, .need = F(UR_CTX) | F(UR_OP) },
	{ ROW("io_uring", "io_uring_submit_sqe", DK_URING_SUBMIT),
	  .fields = UR_FIELDS, .need = F(UR_CTX) | F(UR_OP),
	  .flags = ROW_FALLBACK },
	{ ROW("io_uring", "io_uring_file_get", DK_URING_FILE),
	  .fields = UR_FIELDS, .need = F(UR_CTX) | F(UR_FD) },
	{ ROW("io_uring", "io_uring_complete", DK_URING_COMPLETE),
	  .cap = CAP(uring),
	  .fields = UR_FIELDS, .need = F(UR_CTX) | F(UR_RES) },
	{ ROW("io_uring", "io_uring_queue_async_work", DK_URING_ASYNC),
	  .fields = UR_FIELDS, .need = F(UR_CTX) },
	{ ROW("io_uring", "io_uring_create", DK_URING_CREATE),
	  .fields = UR_FIELDS, .need = F(UR_CTX) | F(UR_FD) },
	{ ROW("io_uring", "io_uring_register", DK_URING_REGISTER),
	  .fields = { "ctx", NULL, NULL, "opcode", NULL, NULL, "nr_files",
		      "ret" },
	  .need = F(UR_CTX) | F(UR_OP) | F(UR_FD) | F(UR_RES) },
};

/* The families matched by name (match()). */
static const struct row_def sys_enter_def = {
	ROW("syscalls", "sys_enter_*", DK_SYS_ENTER),
};
static const struct row_def sys_exit_def = {
	ROW("syscalls", "sys_exit_*", DK_SYS_EXIT),
	.fields = { "ret" }, .count = F(0), .absent = F(0),
};
static const struct row_def raw_enter_def = {
	ROW("raw_syscalls", "sys_enter", DK_SYS_ENTER),
	.fields = { "id", "args" },
	.count = F(RAW_ID) | F(RAW_ARGS), .absent = F(RAW_ID),
};
static const struct row_def raw_exit_def = {
	ROW("raw_syscalls", "sys_exit", DK_SYS_EXIT),
	.fields = { "id", "ret" }, .count = F(0) | F(1), .absent = F(0) | F(1),
};
static const struct row_def aio_def = {
	ROW("iorec_*", "libaio_io_submit", DK_AIO_SUBMIT),
};
static const struct row_def hint_def = {
	ROW("*uprobe*", "*", DK_PATH_HINT),
};
static const struct row_def mark_def = {
	ROW("syscalls", "sys_enter_*", DK_NONE),
};
static const struct row_def exec_native_def = {
	ROW("iorec_*", "exec_native", DK_NONE),
};
static const struct row_def exec_compat_def = {
	ROW("iorec_*", "exec_compat", DK_NONE),
};

/* A row resolved against the recording. */
struct row {
	enum dec_kind kind;
	enum row_role role;
	bool raw;			/* raw_syscalls encoding */
	bool front;			/* block_bio_frontmerge */
	enum sys_kind sk;		/* syscalls:*: the kind of the name */
	unsigned int count, absent;
	struct source_field *f[NF];
	struct source_field *args[SYS_MAX_ARGS];	/* syscalls:sys_enter_* */
	struct source_field *nr;	/* and their __syscall_nr */
	struct source_field *aio[3 * DEC_AIO_MAX];	/* fdI, opI, lenI */
};

struct decoder {
	struct source *src;
	struct row *rows;
	size_t nrows;
	struct imap by_id_map;		/* event id -> struct row */
	struct idtab by_id;		/* the same, dense */
	struct imap raw_kinds;		/* raw syscall id -> (intptr) kind + 1 */
	struct imap compat_kinds;	/* the same, of the compat ABI */
	struct compat cx;		/* whose raw events are whose */
	struct dec_caps caps;
	struct dec_stats st;
	char str[PATH_MAX_LEN];		/* the string fields of one event */
	char str2[PATH_MAX_LEN];	/* and a second path (renames, links) */
	int err;			/* sticky: -AN_E_NOMEM */
};

/* ------------------------------------------------------------------ */
/* Resolution */

static bool has_syscall_events(const struct source_event_type *t, int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(t[i].system, "syscalls") &&
		    !strncmp(t[i].name, "sys_enter_", 10) &&
		    sys_kind_lookup(t[i].name + 10) != SK_NONE)
			return true;
	return false;
}

/* The row def of an event type, or NULL; *sk for the syscalls family. */
static const struct row_def *match(const struct source_event_type *t,
				   bool use_raw, bool marks, enum sys_kind *sk)
{
	*sk = SK_NONE;
	for (size_t i = 0; i < ARRAY_SIZE(defs); i++) {
		if (!strcmp(defs[i].system, t->system) &&
		    !strcmp(defs[i].event, t->name))
			return &defs[i];
	}
	if (!strcmp(t->system, "syscalls")) {
		if (!strncmp(t->name, "sys_enter_", 10)) {
			*sk = sys_kind_lookup(t->name + 10);
			return *sk != SK_NONE ? &sys_enter_def :
			       marks ? &mark_def : NULL;
		}
		if (!strncmp(t->name, "sys_exit_", 9)) {
			*sk = sys_kind_lookup(t->name + 9);
			return *sk != SK_NONE ? &sys_exit_def : NULL;
		}
		return NULL;
	}
	if (use_raw && !strcmp(t->system, "raw_syscalls"))
		return !strcmp(t->name, "sys_enter") ? &raw_enter_def :
		       !strcmp(t->name, "sys_exit") ? &raw_exit_def : NULL;
	/*
	 * The late-path hook: a uprobe on the C library's open functions
	 * (iorec's group iorec_PID) carrying the path string names the
	 * thread's open that is waiting or comes next; iorec's exec probes
	 * (no fields) say which ABI the exec'ing thread runs next.
	 */
	if (!strncmp(t->system, "iorec_", 6) && !strcmp(t->name, "exec_native"))
		return &exec_native_def;
	if (!strncmp(t->system, "iorec_", 6) && !strcmp(t->name, "exec_compat"))
		return &exec_compat_def;
	if (!strncmp(t->system, "iorec_", 6) &&
	    !strcmp(t->name, "libaio_io_submit"))
		return &aio_def;
	if (strstr(t->system, "uprobe") || !strncmp(t->system, "iorec_", 6))
		return &hint_def;
	return NULL;
}

/* Whether the recording has SYSTEM:EVENT. */
static bool has_event(struct source *src, const char *system,
		      const char *event)
{
	return source_event_id(src, system, event) >= 0;
}

/* Fill r from def for event id; false when the row is not usable. */
static bool resolve_row(struct decoder *d, const struct row_def *def,
			enum sys_kind sk, int id, struct row *r)
{
	struct source *src = d->src;

	memset(r, 0, sizeof(*r));
	r->kind = def->kind;
	r->sk = sk;
	r->count = def->count;
	r->absent = def->absent;
	r->raw = def == &raw_enter_def || def == &raw_exit_def;
	r->front = def->flags & ROW_FRONT;
	if (def == &mark_def || def == &exec_native_def ||
	    def == &exec_compat_def) {
		r->role = def == &mark_def ? ROLE_MARK :
			  def == &exec_native_def ? ROLE_EXEC_NATIVE :
			  ROLE_EXEC_COMPAT;
		r->nr = source_field(src, id, "__syscall_nr");
		return def != &mark_def || r->nr;
	}
	if (def->kind == DK_PATH_HINT) {
		r->f[0] = source_field(src, id, "path");
		if (!r->f[0])
			r->f[0] = source_field(src, id, "filename");
		r->f[1] = source_field(src, id, "path2");
		return r->f[0] != NULL;
	}
	if (def->kind == DK_AIO_SUBMIT) {
		char name[16];

		r->f[0] = source_field(src, id, "nr");
		for (int j = 0; j < DEC_AIO_MAX; j++) {
			snprintf(name, sizeof(name), "fd%d", j);
			r->aio[3 * j] = source_field(src, id, name);
			snprintf(name, sizeof(name), "op%d", j);
			r->aio[3 * j + 1] = source_field(src, id, name);
			snprintf(name, sizeof(name), "len%d", j);
			r->aio[3 * j + 2] = source_field(src, id, name);
		}
		return r->f[0] && r->aio[0] && r->aio[1] && r->aio[2];
	}
	if (def->kind == DK_SYS_ENTER && !r->raw) {
		const struct sys_kind_info *ki = sys_kind_info(sk);

		for (int j = 0; j < SYS_MAX_ARGS && ki->fields[j]; j++)
			r->args[j] = source_field(src, id, ki->fields[j]);
		r->nr = source_field(src, id, "__syscall_nr");
		return true;
	}
	for (int i = 0; i < NF; i++)
		if (def->fields[i])
			r->f[i] = source_field(src, id, def->fields[i]);
	for (int i = 0; i < NF; i++)
		if ((def->need & F(i)) && !r->f[i])
			return false;
	return true;
}

static void note_caps(struct decoder *d, const struct row_def *def,
		      const struct row *r)
{
	struct dec_caps *c = &d->caps;

	if (def->cap)
		*(bool *)((char *)c + def->cap - 1) = true;
	/* what depends on the encoding or on the fields found */
	switch (r->kind) {
	case DK_RQ_INSERT:
	case DK_RQ_ISSUE:
	case DK_RQ_COMPLETE:
	case DK_RQ_REQUEUE:
		c->rq[r->kind - DK_RQ_INSERT] = true;
		break;
	case DK_SYS_ENTER:
		if (r->raw)
			c->raw_syscalls = true;
		else
			c->syscall_events = true;
		break;
	case DK_JBD2_RUN:
		c->jbd2_run = r->f[JBD2_DEV] != NULL;
		break;
	case DK_BDP:
		c->bdp_pause = r->f[0] != NULL;
		break;
	case DK_DIRTY_STATE:
		c->dirty_state = r->f[GDS_DIRTY] && r->f[GDS_BG] &&
				 r->f[GDS_THRESH];
		break;
	default:
		break;
	}
}

/* The kinds of the table that need a partner event to be of use. */
static void pair_caps(struct decoder *d)
{
	struct dec_caps *c = &d->caps;
	struct source *src = d->src;
	int en = source_event_id(src, "ext4", "ext4_sync_file_enter");
	int wbs = source_event_id(src, "writeback", "writeback_start");
	int wbw = source_event_id(src, "writeback", "writeback_written");
	long hz;
	int id;

	c->block = c->rq[DK_RQ_ISSUE - DK_RQ_INSERT] &&
		   c->rq[DK_RQ_COMPLETE - DK_RQ_INSERT];
	c->ext4_sync = en >= 0 && source_field(src, en, "dev") &&
		       source_field(src, en, "ino") &&
		       has_event(src, "ext4", "ext4_sync_file_exit");
	c->wb_work = wbs >= 0 && wbw >= 0 &&
		     source_field(src, wbs, "nr_pages") &&
		     source_field(src, wbw, "nr_pages");
	/* HZ from writeback_single_inode's "(jiffies - REC->dirtied_when) / 250" */
	id = source_event_id(src, "writeback", "writeback_single_inode");
	hz = id >= 0 ? source_event_print_divisor(src, id, "dirtied_when") : 0;
	c->hz = hz > 0 && hz <= 10000 ? (int)hz : 0;
}

struct decoder *decode_new(struct source *src, struct an_err *err)
{
	struct decoder *d = an_calloc(1, sizeof(*d));
	const struct source_event_type *t;
	bool use_raw;
	int n;

	if (!d) {
		an_nomem(err, "decoding");
		return NULL;
	}
	d->src = src;
	imap_init(&d->by_id_map);
	imap_init(&d->raw_kinds);
	imap_init(&d->compat_kinds);
	t = source_event_types(src, &n);
	d->rows = an_calloc(n > 0 ? (size_t)n : 1, sizeof(*d->rows));
	if (!d->rows || compat_init(&d->cx, source_info(src)))
		goto nomem;
	/*
	 * Both encodings present (trace.dat with everything): syscalls:*,
	 * unless the raw events are 32-bit programs' (compat_syscalls)
	 */
	use_raw = !has_syscall_events(t, n) || d->cx.mode != META_COMPAT_NONE;
	for (int i = 0; i < n; i++) {
		enum sys_kind sk;
		const struct row_def *def = match(&t[i], use_raw,
						  d->cx.mode == META_COMPAT_SHADOW,
						  &sk);
		struct row *r = &d->rows[d->nrows];

		/* writeback_dirty_page only without writeback_dirty_folio */
		if (def && (def->flags & ROW_FALLBACK) &&
		    has_event(src, def[-1].system, def[-1].event))
			continue;
		if (!def || !resolve_row(d, def, sk, t[i].id, r))
			continue;
		if (imap_put(&d->by_id_map, t[i].id, r, NULL))
			goto nomem;
		note_caps(d, def, r);
		d->nrows++;
	}
	pair_caps(d);
	d->caps.compat_raw = d->caps.raw_syscalls &&
			     d->cx.mode != META_COMPAT_NONE;
	if (d->caps.syscall_events)
		d->caps.raw_syscalls = false;
	if (idtab_build(&d->by_id, &d->by_id_map))
		goto nomem;
	return d;
nomem:
	an_nomem(err, "decoding");
	decode_free(d);
	return NULL;
}

void decode_free(struct decoder *d)
{
	if (!d)
		return;
	imap_release(&d->by_id_map);
	idtab_release(&d->by_id);
	imap_release(&d->raw_kinds);
	imap_release(&d->compat_kinds);
	compat_release(&d->cx);
	free(d->rows);
	free(d);
}

int decode_error(const struct decoder *d)
{
	return d->err ? d->err : d->cx.err;
}

const struct dec_caps *decode_caps(const struct decoder *d)
{
	return &d->caps;
}

const struct dec_stats *decode_stats(const struct decoder *d)
{
	return &d->st;
}

const char *decode_comm(struct decoder *d, int pid)
{
	return source_comm(d->src, pid);
}

/* ------------------------------------------------------------------ */
/* Field reading */

/*
 * Field i of r as a number, sign-extended when is_signed; 0 when absent
 * or unreadable, which the row says whether to count as decode errors;
 * *bad (when given) is set when it could not be read.
 */
static inline uint64_t num_at(struct decoder *d, const struct row *r,
			      int i, const struct source_event *ev, bool *bad,
			      bool is_signed)
{
	uint64_t v = 0;
	int rc;

	if (!r->f[i]) {
		if (r->absent & F(i))
			d->st.errors++;
		return 0;
	}
	rc = is_signed ? source_field_s64(r->f[i], ev, (int64_t *)&v) :
	     source_field_u64(r->f[i], ev, &v);
	if (rc) {
		if (r->count & F(i))
			d->st.errors++;
		if (bad)
			*bad = true;
		return 0;
	}
	return v;
}

/* The __syscall_nr of a syscalls:sys_enter_* event, or -1. */
static int64_t sysnr_at(const struct row *r, const struct source_event *ev)
{
	int64_t v;

	return r->nr && !source_field_s64(r->nr, ev, &v) ? v : -1;
}

static uint64_t u64_at(struct decoder *d, const struct row *r, int i,
		       const struct source_event *ev, bool *bad)
{
	return num_at(d, r, i, ev, bad, false);
}

static int64_t s64_at(struct decoder *d, const struct row *r, int i,
		      const struct source_event *ev, bool *bad)
{
	return (int64_t)num_at(d, r, i, ev, bad, true);
}

/* A string field into buf, or NULL when absent or unreadable. */
static const char *str_at(const struct source_field *f,
			  const struct source_event *ev, char *buf, size_t n)
{
	if (!f || source_field_str(f, ev, buf, n))
		return NULL;
	return buf;
}

/*
 * A path string from a field that is a string (char[], __data_loc, on
 * kernels whose syscall events copy it, and libc uprobes' ustring), or
 * NULL when the field is only a user pointer (this kernel's syscalls).
 */
static const char *path_in(const struct source_field *f,
			   const struct source_event *ev, char *buf, size_t n)
{
	const char *s;

	if (!source_field_is_string(f))
		return NULL;
	s = str_at(f, ev, buf, n);
	if (!s || !*s)
		return NULL;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return NULL;
	return s;
}

static const char *path_at(struct decoder *d, const struct source_field *f,
			   const struct source_event *ev)
{
	return path_in(f, ev, d->str, sizeof(d->str));
}

void blk_parse_rwbs(const char *s, struct dec_rq *rq)
{
	size_t i = 0;

	rq->preflush = rq->fua = rq->sync = rq->meta = rq->ahead = false;
	rq->op = BLK_OP_OTHER;
	/* A leading 'F' followed by an op letter is REQ_PREFLUSH. */
	if (s[0] == 'F' && s[1] && strchr("WRDFN", s[1])) {
		rq->preflush = true;
		i = 1;
	}
	switch (s[i]) {
	case 'W': rq->op = BLK_OP_WRITE; break;
	case 'R': rq->op = BLK_OP_READ; break;
	case 'D': rq->op = BLK_OP_DISCARD; break;
	case 'F': rq->op = BLK_OP_FLUSH; break;
	default: rq->op = rq->preflush ? BLK_OP_FLUSH : BLK_OP_OTHER; break;
	}
	if (!s[i])
		return;
	for (i++; s[i]; i++) {
		switch (s[i]) {
		case 'F': rq->fua = true; break;
		case 'S': rq->sync = true; break;
		case 'M': rq->meta = true; break;
		case 'A': rq->ahead = true; break;
		default: break;
		}
	}
	/* An empty flush ("FN") is a flush request. */
	if (rq->preflush && rq->op == BLK_OP_OTHER)
		rq->op = BLK_OP_FLUSH;
}

/* The kind of a raw syscall id, named by the recording's table of its ABI. */
static enum sys_kind raw_kind(struct decoder *d, int64_t id, bool compat)
{
	struct imap *cache = compat ? &d->compat_kinds : &d->raw_kinds;
	enum sys_kind k;
	void *v;

	if (id < 0 || id > INT_MAX)
		return SK_NONE;
	v = imap_get(cache, (int)id);
	if (v)
		return (enum sys_kind)((intptr_t)v - 1);
	k = sys_kind_lookup(compat ?
			    source_compat_syscall_name(d->src, (long)id) :
			    source_syscall_name(d->src, (long)id));
	if (k == SK_NONE)
		d->st.unknown_syscalls++;
	/* a cache; without memory the next call counts it again: an error */
	if (imap_put(cache, (int)id, (void *)(intptr_t)(k + 1), NULL))
		d->err = -AN_E_NOMEM;
	return k;
}

/* ------------------------------------------------------------------ */
/* Decoding */

static void decode_rq(struct decoder *d, const struct row *r,
		      const struct source_event *ev, struct dec_ev *out)
{
	struct dec_rq *rq = &out->rq;
	char rwbs[16];
	int64_t err = 0;

	memset(rq, 0, sizeof(*rq));
	rq->dev = (uint32_t)u64_at(d, r, RQ_DEV, ev, &out->bad);
	rq->sector = u64_at(d, r, RQ_SECTOR, ev, &out->bad);
	rq->nr_sector = (uint32_t)u64_at(d, r, RQ_NR, ev, NULL);
	if (r->f[RQ_BYTES] && !source_field_u64(r->f[RQ_BYTES], ev, &rq->bytes))
		;
	else
		rq->bytes = (uint64_t)rq->nr_sector * BLK_SECTOR_SIZE;
	if (source_field_str(r->f[RQ_RWBS], ev, rwbs, sizeof(rwbs)))
		out->bad = true;
	else
		blk_parse_rwbs(rwbs, rq);
	if (out->kind == DK_RQ_COMPLETE && r->f[RQ_ERROR] &&
	    !source_field_s64(r->f[RQ_ERROR], ev, &err))
		rq->error = (int)err;
	if ((out->kind == DK_RQ_INSERT || out->kind == DK_RQ_ISSUE) &&
	    r->f[RQ_COMM])
		source_field_str(r->f[RQ_COMM], ev, rq->comm, sizeof(rq->comm));
}

/* syscalls:sys_enter_NAME (fields by name) or raw_syscalls:sys_enter. */
static bool decode_enter(struct decoder *d, const struct row *r,
			 const struct source_event *ev, struct dec_ev *out)
{
	struct sys_enter *e = &out->enter;
	const struct sys_kind_info *ki;

	memset(e, 0, sizeof(*e));
	if (r->raw) {
		int64_t id = s64_at(d, r, RAW_ID, ev, NULL);
		enum compat_call v = !d->cx.mode ? CALL_NATIVE :
				     compat_enter(&d->cx, ev->pid, ev->cpu, id);

		if (v == CALL_TWIN) {
			d->st.compat_twins++;
			return false;
		}
		e->kind = raw_kind(d, id, v == CALL_COMPAT);
		if (e->kind == SK_NONE)
			return false;
		/* unsigned long args[6], in ABI order */
		for (int i = 0; i < SYS_MAX_ARGS; i++)
			if (source_field_array_u64(r->f[RAW_ARGS], ev, i,
						   &e->args[i])) {
				d->st.errors++;
				return false;
			}
		/* 32-bit values zero-extended: int arguments (AT_FDCWD) */
		if (v == CALL_COMPAT) {
			for (int i = 0; i < SYS_MAX_ARGS; i++)
				e->args[i] = (uint64_t)(int64_t)
					     (int32_t)(uint32_t)e->args[i];
			d->st.compat_calls++;
		}
	} else {
		e->kind = r->sk;
		if (d->cx.mode == META_COMPAT_SHADOW)
			compat_mark(&d->cx, ev->pid, ev->cpu, sysnr_at(r, ev));
		for (int i = 0; i < SYS_MAX_ARGS; i++)
			if (r->args[i] &&
			    source_field_u64(r->args[i], ev, &e->args[i])) {
				d->st.errors++;
				e->args[i] = 0;
			}
		ki = sys_kind_info(r->sk);
		if (ki->path_arg >= 0) {
			e->path = path_at(d, r->args[ki->path_arg], ev);
			if (e->path)
				d->st.path_strings = true;
		}
	}
	e->ts = ev->ts;
	e->tid = ev->pid;
	e->cpu = ev->cpu;
	return true;
}

static bool decode_exit(struct decoder *d, const struct row *r,
			const struct source_event *ev, struct dec_ev *out)
{
	struct sys_exit *x = &out->exit;

	memset(x, 0, sizeof(*x));
	if (r->raw) {
		enum compat_call v = !d->cx.mode ? CALL_NATIVE :
				     compat_exit(&d->cx, ev->pid);

		if (v == CALL_TWIN)
			return false;
		x->kind = raw_kind(d, s64_at(d, r, 0, ev, NULL),
				   v == CALL_COMPAT);
		if (x->kind == SK_NONE)
			return false;
		x->ret = s64_at(d, r, 1, ev, NULL);
	} else {
		x->kind = r->sk;
		x->ret = s64_at(d, r, 0, ev, NULL);
	}
	x->ts = ev->ts;
	x->tid = ev->pid;
	x->cpu = ev->cpu;
	return true;
}

static void decode_task(struct decoder *d, const struct row *r,
			const struct source_event *ev, struct dec_ev *out)
{
	struct dec_task *t = &out->task;

	memset(t, 0, sizeof(*t));
	t->comm = str_at(r->f[TASK_COMM], ev, d->str, sizeof(d->str));
	t->pid = (int)s64_at(d, r, TASK_PID, ev, NULL);
	switch (out->kind) {
	case DK_NEWTASK:
		t->clone_flags = u64_at(d, r, TASK_FLAGS, ev, NULL);
		break;
	case DK_FORK:
	case DK_CGROUP_ATTACH:
		t->pid2 = (int)s64_at(d, r, TASK_PID2, ev, NULL);
		break;
	case DK_EXEC:
		t->pid2 = r->f[TASK_PID2] ?
			  (int)s64_at(d, r, TASK_PID2, ev, NULL) : ev->pid;
		break;
	case DK_EXIT:
		t->group_dead = r->f[TASK_PID2] ?
				(int)s64_at(d, r, TASK_PID2, ev, NULL) : -1;
		break;
	default:
		break;
	}
}

static void decode_bio(struct decoder *d, const struct row *r,
		       const struct source_event *ev, struct dec_ev *out)
{
	struct dec_bio *b = &out->bio;

	b->dev2 = 0;
	b->sector2 = 0;
	b->dev = (uint32_t)u64_at(d, r, BIO_DEV, ev, NULL);
	b->sector = u64_at(d, r, BIO_SECTOR, ev, NULL);
	if (out->kind == DK_BIO_REMAP || out->kind == DK_BIO_SPLIT) {
		b->nr = 0;
		b->meta = false;
		b->front = false;
		b->op = BLK_OP_OTHER;
		b->comm[0] = '\0';
		b->dev2 = out->kind == DK_BIO_SPLIT ? b->dev :
			  (uint32_t)u64_at(d, r, REMAP_OLD_DEV, ev, NULL);
		b->sector2 = u64_at(d, r, REMAP_OLD_SECTOR, ev, NULL);
		return;
	}
	b->nr = (uint32_t)u64_at(d, r, BIO_NR, ev, NULL);
	b->meta = false;
	b->front = r->front;
	b->op = BLK_OP_OTHER;
	if (r->f[BIO_RWBS]) {
		char rwbs[16];
		struct dec_rq q;

		if (!source_field_str(r->f[BIO_RWBS], ev, rwbs, sizeof(rwbs))) {
			b->meta = strchr(rwbs, 'M') != NULL;
			blk_parse_rwbs(rwbs, &q);
			b->op = q.op;
		}
	}
	b->comm[0] = '\0';
	if (r->f[BIO_COMM])
		source_field_str(r->f[BIO_COMM], ev, b->comm, sizeof(b->comm));
	if (!b->comm[0])
		snprintf(b->comm, sizeof(b->comm), "%s",
			 source_comm(d->src, ev->pid));
}

/* A row of no dec_ev: a marker of the twin rule, an exec probe. */
static bool compat_role(struct decoder *d, const struct row *r,
			const struct source_event *ev)
{
	switch (r->role) {
	case ROLE_MARK:
		if (d->cx.mode == META_COMPAT_SHADOW)
			compat_mark(&d->cx, ev->pid, ev->cpu, sysnr_at(r, ev));
		break;
	case ROLE_EXEC_NATIVE:
		compat_set(&d->cx, ev->pid, META_ABI_NATIVE);
		break;
	case ROLE_EXEC_COMPAT:
		compat_set(&d->cx, ev->pid, META_ABI_COMPAT);
		break;
	default:
		break;
	}
	return false;
}

static void decode_aio(struct decoder *d, const struct row *r,
		       const struct source_event *ev, struct dec_ev *out)
{
	struct dec_aio *a = &out->aio;
	int64_t v;
	uint64_t u;

	a->nr = s64_at(d, r, 0, ev, &out->bad);
	a->n = 0;
	for (int j = 0; j < DEC_AIO_MAX && j < a->nr; j++) {
		if (!r->aio[3 * j] || !r->aio[3 * j + 1] || !r->aio[3 * j + 2] ||
		    source_field_s64(r->aio[3 * j], ev, &v))
			break;
		a->io[j].fd = (int)v;
		a->io[j].op = source_field_u64(r->aio[3 * j + 1], ev, &u) ?
			      -1 : (int)u;
		a->io[j].len = source_field_u64(r->aio[3 * j + 2], ev, &u) ?
			       0 : u;
		a->n = j + 1;
	}
}

bool decode_event(struct decoder *d, const struct source_event *ev,
		  struct dec_ev *out)
{
	const struct row *r = idtab_get(&d->by_id, &d->by_id_map, ev->id);
	char bdi[40];
	unsigned int ma, mi;

	if (d->cx.mode)
		compat_clock(&d->cx, ev->ts, ev->cpu, ev->missed != 0);
	if (!r)
		return false;
	if (r->role)
		return d->cx.mode && compat_role(d, r, ev);
	out->kind = r->kind;
	out->bad = false;
	out->ts = ev->ts;
	out->cpu = ev->cpu;
	out->pid = ev->pid;
	switch (r->kind) {
	case DK_RQ_INSERT:
	case DK_RQ_ISSUE:
	case DK_RQ_COMPLETE:
	case DK_RQ_REQUEUE:
		decode_rq(d, r, ev, out);
		break;
	case DK_BIO_QUEUE:
	case DK_BIO_MERGE:
	case DK_BIO_REMAP:
	case DK_BIO_SPLIT:
		decode_bio(d, r, ev, out);
		break;
	case DK_SYS_ENTER:
		return decode_enter(d, r, ev, out);
	case DK_SYS_EXIT:
		return decode_exit(d, r, ev, out);
	case DK_NEWTASK:
	case DK_FORK:
	case DK_EXEC:
	case DK_EXIT:
	case DK_RENAME:
	case DK_CGROUP_ATTACH:
		decode_task(d, r, ev, out);
		if (d->cx.mode && r->kind == DK_FORK)
			compat_fork(&d->cx, out->task.pid, out->task.pid2);
		else if (d->cx.mode && r->kind == DK_EXEC)
			compat_exec(&d->cx, out->task.pid, out->task.pid2,
				    ev->ts);
		break;
	case DK_PATH_HINT:
		out->path = path_at(d, r->f[0], ev);
		if (!out->path)
			return false;
		out->path2 = r->f[1] ? path_in(r->f[1], ev, d->str2,
					       sizeof(d->str2)) : NULL;
		d->st.path_hints++;
		break;
	case DK_DIRTY_FOLIO:
	case DK_DIRTY_INODE:
		out->inode.ino = u64_at(d, r, BDI_INO, ev, NULL);
		out->inode.dev = 0;
		out->inode.datasync = false;
		if (str_at(r->f[BDI_NAME], ev, bdi, sizeof(bdi)) &&
		    blk_dev_parse(bdi, BLK_DEV_DIGITS, &ma, &mi))
			out->inode.dev = blk_mkdev(ma, mi);
		break;
	case DK_FILEMAP:
	case DK_WRITEPAGES:
	case DK_FSYNC_ENTER:
	case DK_INODE_ALLOC:
		out->inode.dev = (uint32_t)u64_at(d, r, INO_DEV, ev, &out->bad);
		out->inode.ino = u64_at(d, r, INO_INO, ev, &out->bad);
		out->inode.datasync = u64_at(d, r, INO_DATASYNC, ev, NULL) != 0;
		break;
	case DK_FSYNC_EXIT:
		out->ret = s64_at(d, r, 0, ev, NULL);
		break;
	case DK_JBD2_RUN:
		out->jbd2.dev = (uint32_t)u64_at(d, r, JBD2_DEV, ev, &out->bad);
		out->jbd2.handles = u64_at(d, r, JBD2_HANDLES, ev, NULL);
		out->jbd2.blocks = u64_at(d, r, JBD2_BLOCKS, ev, NULL);
		out->jbd2.blocks_logged = u64_at(d, r, JBD2_LOGGED, ev, NULL);
		out->jbd2.logging = u64_at(d, r, JBD2_LOGGING, ev, NULL);
		break;
	case DK_BDP:
		out->pause = s64_at(d, r, 0, ev, NULL);
		break;
	case DK_DIRTY_STATE:
		out->gds.nr_dirty = u64_at(d, r, GDS_DIRTY, ev, NULL);
		out->gds.nr_writeback = u64_at(d, r, GDS_WB, ev, NULL);
		out->gds.bg_thresh = u64_at(d, r, GDS_BG, ev, NULL);
		out->gds.thresh = u64_at(d, r, GDS_THRESH, ev, NULL);
		out->gds.limit = u64_at(d, r, GDS_LIMIT, ev, NULL);
		out->gds.has_written = r->f[GDS_WRITTEN] &&
			!source_field_u64(r->f[GDS_WRITTEN], ev,
					  &out->gds.written);
		break;
	case DK_WB_START:
	case DK_WB_WRITTEN:
		out->wb.pages = s64_at(d, r, WB_PAGES, ev, &out->bad);
		out->wb.reason = r->f[WB_REASON] ?
			s64_at(d, r, WB_REASON, ev, NULL) : -1;
		break;
	case DK_SWITCH:
		out->sched.prev_pid = (int)s64_at(d, r, SW_PREV, ev, NULL);
		out->sched.prev_state = s64_at(d, r, SW_STATE, ev, NULL);
		out->sched.next_pid = (int)s64_at(d, r, SW_NEXT, ev, NULL);
		out->sched.pid = 0;
		break;
	case DK_WAKEUP:
		out->sched.pid = (int)s64_at(d, r, 0, ev, NULL);
		break;
	case DK_AIO_SUBMIT:
		decode_aio(d, r, ev, out);
		break;
	DK_URING_CASES:
		out->uring.ctx = u64_at(d, r, UR_CTX, ev, &out->bad);
		out->uring.req = u64_at(d, r, UR_REQ, ev, NULL);
		out->uring.user_data = u64_at(d, r, UR_DATA, ev, NULL);
		out->uring.opcode = (int)u64_at(d, r, UR_OP, ev, NULL);
		out->uring.flags = u64_at(d, r, UR_FLAGS, ev, NULL);
		out->uring.sq_thread = u64_at(d, r, UR_SQT, ev, NULL) != 0;
		out->uring.fd = (int)s64_at(d, r, UR_FD, ev, NULL);
		out->uring.res = s64_at(d, r, UR_RES, ev, NULL);
		break;
	default:
		break;
	}
	return true;
}
