/* SPDX-License-Identifier: MIT */
/*
 * decode.h - the decode stage: every event type the analysis uses is
 * decoded once per record into a plain struct dec_ev, through one table
 * of system, event, kind and named fields (decode.c) whose field handles
 * are resolved once per recording.
 *
 * The only stage that reads the events of the source; the state machines
 * (replay/) and the aggregates (stats/) take struct dec_ev and never see
 * the source.  Syscalls come in two encodings, syscalls:sys_enter_NAME /
 * sys_exit_NAME and the fallback raw_syscalls:sys_enter / sys_exit whose
 * id the recording machine's syscall table names: both decode to the
 * same DK_SYS_ENTER / DK_SYS_EXIT.  Nothing here prints or exits.
 */
#ifndef IOREPORT_DECODE_H
#define IOREPORT_DECODE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/blk.h"
#include "base/syskind.h"

struct source;
struct source_event;
struct an_err;

/* What an event is, whatever its encoding. */
enum dec_kind {
	DK_NONE = 0,
	/* block layer */
	DK_RQ_INSERT,		/* block_rq_insert: .rq */
	DK_RQ_ISSUE,		/* block_rq_issue: .rq */
	DK_RQ_COMPLETE,		/* block_rq_complete: .rq (error) */
	DK_RQ_REQUEUE,		/* block_rq_requeue: .rq */
	DK_BIO_QUEUE,		/* block_bio_queue: .bio */
	DK_BIO_MERGE,		/* block_bio_back/frontmerge: .bio */
	DK_BIO_REMAP,		/* block_bio_remap: .bio (old_* in dev2, sector2) */
	DK_BIO_SPLIT,		/* block_split: .bio (new_sector in sector2) */
	/* file syscalls, either encoding */
	DK_SYS_ENTER,		/* .enter */
	DK_SYS_EXIT,		/* .exit */
	/* processes */
	DK_NEWTASK,		/* task_newtask: .task (pid, comm, clone_flags) */
	DK_FORK,		/* sched_process_fork: .task (pid, child, comm) */
	DK_EXEC,		/* sched_process_exec: .task (pid, old_pid, comm) */
	DK_EXIT,		/* sched_process_exit: .task (pid, group_dead) */
	DK_RENAME,		/* task_rename: .task (pid, comm) */
	DK_CGROUP_ATTACH,	/* cgroup_attach_task: .task (pid, pid2 =
				   dst_root, comm = dst_path) */
	DK_PATH_HINT,		/* a libc uprobe with the path string: .path */
	/* page cache, writeback, ext4, jbd2 */
	DK_DIRTY_FOLIO,		/* writeback_dirty_folio (or _page): .inode */
	DK_DIRTY_INODE,		/* writeback_dirty_inode: .inode */
	DK_FILEMAP,		/* mm_filemap_add_to_page_cache: .inode */
	DK_WRITEPAGES,		/* ext4_writepages: .inode */
	DK_WRITEPAGES_END,	/* ext4_writepages_result */
	DK_FSYNC_ENTER,		/* ext4_sync_file_enter: .inode (datasync) */
	DK_FSYNC_EXIT,		/* ext4_sync_file_exit: .ret */
	DK_COMMIT_START,	/* jbd2_start_commit */
	DK_COMMIT_END,		/* jbd2_end_commit */
	DK_JBD2_RUN,		/* jbd2_run_stats: .jbd2 */
	DK_BDP,			/* balance_dirty_pages: .pause */
	DK_DIRTY_STATE,		/* global_dirty_state: .gds */
	DK_WB_START,		/* writeback_start: .wb */
	DK_WB_WRITTEN,		/* writeback_written: .wb */
	/* scheduler */
	DK_SWITCH,		/* sched_switch: .sched */
	DK_WAKEUP,		/* sched_wakeup / sched_waking: .sched (pid) */
	/* io_uring requests */
	DK_URING_SUBMIT,	/* io_uring_submit_req (5.x: _submit_sqe): .uring */
	DK_URING_FILE,		/* io_uring_file_get: .uring (fd) */
	DK_URING_COMPLETE,	/* io_uring_complete: .uring (res) */
	DK_URING_CREATE,	/* io_uring_create: .uring (ctx, fd) */
	DK_URING_ASYNC,		/* io_uring_queue_async_work: .uring */
	DK_AIO_SUBMIT,		/* iorec's uprobe on libaio's io_submit: .aio */
	DK_URING_REGISTER,	/* io_uring_register: .uring (ctx, opcode,
				   fd = nr_files, res = ret) */
	DK_INODE_ALLOC,		/* ext4_allocate_inode: .inode (a new file) */
	DK_NR
};

/* The case labels of the io_uring kinds (their payload is .uring). */
#define DK_URING_CASES \
	case DK_URING_SUBMIT: case DK_URING_FILE: case DK_URING_COMPLETE: \
	case DK_URING_CREATE: case DK_URING_REGISTER: case DK_URING_ASYNC

/* A block_rq_* record. */
struct dec_rq {
	uint32_t dev;		/* kernel dev_t: major << 20 | minor */
	uint64_t sector;
	uint32_t nr_sector;
	uint64_t bytes;		/* the bytes field, else nr_sector * 512 */
	enum blk_op op;		/* and the flags, from rwbs */
	bool preflush, fua, sync, meta, ahead;
	int error;		/* complete: its error field, else 0 */
	char comm[16];		/* insert, issue: the comm field, or "" */
};

/* A block_bio_* record. */
struct dec_bio {
	uint32_t dev, dev2;	/* remap: dev2, sector2 are old_dev, old_sector;
				   split: sector2 is the remainder's start */
	uint64_t sector, sector2;
	uint32_t nr;		/* sectors */
	bool meta;		/* queue: REQ_META ('M' in rwbs) */
	enum blk_op op;		/* queue, merge: from rwbs (BLK_OP_OTHER
				   when absent) */
	bool front;		/* merge: a front merge (the bio ends where
				   the request started) */
	char comm[32];		/* queue: the comm field, else the task's */
};

/* A process lifecycle record (which fields: see enum dec_kind). */
struct dec_task {
	int pid;		/* the pid field (fork: parent_pid) */
	int pid2;		/* fork: child_pid; exec: old_pid (or the
				   task's when the field is absent) */
	int group_dead;		/* exit: 1/0, -1 when not recorded */
	uint64_t clone_flags;	/* newtask */
	const char *comm;	/* fork: child_comm, exec: filename,
				   newtask: comm, rename: newcomm; or NULL */
};

/* An inode of a writeback, page cache or ext4 record. */
struct dec_inode {
	uint32_t dev;		/* ext4, filemap: the file system's dev_t;
				   writeback: the bdi's ("8:0"), 0 if none */
	uint64_t ino;
	bool datasync;		/* fsync enter */
};

struct dec_jbd2 {
	uint32_t dev;
	uint64_t handles, blocks, blocks_logged, logging;	/* 0: absent */
};

struct dec_gds {
	uint64_t nr_dirty, nr_writeback, bg_thresh, thresh, limit;
	bool has_written;	/* the nr_written field is there */
	uint64_t written;
};

struct dec_wb {
	int64_t pages;		/* nr_pages */
	int64_t reason;		/* written: WB_REASON_*, -1 when absent */
};

struct dec_sched {
	int prev_pid;		/* switch */
	int64_t prev_state;
	int next_pid;
	int pid;		/* wakeup, waking */
};

/* An io_uring record: a request is known by ring and req (or, where a
 * kernel's event has no req field, by ring and user_data). */
struct dec_uring {
	uint64_t ctx;		/* the ring */
	uint64_t req;		/* the request, 0 when the event lacks it */
	uint64_t user_data;
	int opcode;		/* submit: IORING_OP_* */
	uint64_t flags;		/* submit: the request's flags */
	bool sq_thread;		/* submit: by the SQPOLL thread */
	int fd;			/* file_get: the fd; create: the ring's fd */
	int64_t res;		/* complete: the result */
};

/* The iocbs of a libaio io_submit call, as iorec's uprobe read them. */
#define DEC_AIO_MAX	8
struct dec_aio {
	int64_t nr;		/* the call's nr */
	int n;			/* iocbs read: min(nr, DEC_AIO_MAX) */
	struct {
		int fd;
		int op;		/* IOCB_CMD_* */
		uint64_t len;	/* aio_nbytes */
	} io[DEC_AIO_MAX];
};

/* One decoded event, valid until the next decode_event() call. */
struct dec_ev {
	enum dec_kind kind;
	/*
	 * A field the kind needs could not be read (a damaged record, or a
	 * format without it); the fields that could be are set, the others
	 * 0.  Each state machine decides what a bad record counts as.
	 */
	bool bad;
	uint64_t ts;
	int cpu;
	int pid;		/* common_pid: the task the event ran in */
	union {
		struct dec_rq rq;
		struct dec_bio bio;
		struct sys_enter enter;
		struct sys_exit exit;
		struct dec_task task;
		const char *path;
		struct dec_inode inode;
		int64_t ret;
		struct dec_jbd2 jbd2;
		int64_t pause;		/* ms (the tracepoint converts) */
		struct dec_gds gds;
		struct dec_wb wb;
		struct dec_sched sched;
		struct dec_uring uring;
		struct dec_aio aio;
	};
	/* DK_PATH_HINT of a rename or link: the new name, else NULL */
	const char *path2;
};

/* What the recording has, once its formats are read. */
struct dec_caps {
	bool rq[4];		/* block_rq_insert, issue, complete, requeue
				   with dev, sector and rwbs */
	bool block;		/* issue and complete: the block replay runs */
	bool syscall_events;	/* syscalls:sys_enter_* of a kind replayed */
	bool raw_syscalls;	/* raw_syscalls:* decoded (no syscalls:*) */
	bool compat_raw;	/* raw_syscalls:* decoded for 32-bit tasks
				   (compat_syscalls shadow or raw) */
	bool proc_events;	/* sched fork, exec or exit */
	bool bio_events;	/* block_bio_queue */
	bool merge_events;	/* block_bio_backmerge or _frontmerge */
	bool dirty_events;	/* writeback_dirty_folio/page */
	bool ext4_events;	/* ext4_writepages, ext4_sync_file_enter */
	bool jbd2_events;	/* jbd2_start_commit */
	bool bdp_events;	/* balance_dirty_pages */
	bool sched_events;	/* sched_switch */
	bool jbd2_run;		/* jbd2_run_stats with its dev field */
	bool ext4_sync;		/* ext4_sync_file_enter (dev, ino) and _exit */
	bool bdp_pause;		/* balance_dirty_pages with its pause field */
	bool dirty_state;	/* global_dirty_state with its thresholds */
	bool wb_work;		/* writeback_start and _written with nr_pages */
	bool uring;		/* io_uring submit and complete */
	/*
	 * The recording kernel's HZ, from the print format of
	 * writeback_single_inode (jiffies / HZ), or 0 when not there.
	 */
	int hz;
};

/* What decoding met. */
struct dec_stats {
	uint64_t errors;		/* fields of syscall and process events
					   that could not be read */
	uint64_t unknown_syscalls;	/* raw syscall ids outside the table */
	uint64_t compat_calls;		/* raw enters of 32-bit tasks */
	uint64_t compat_twins;		/* raw enters of native tasks dropped */
	bool path_strings;		/* open events carried path strings */
	uint64_t path_hints;		/* paths from uprobe events */
};

struct decoder;

/*
 * decode_new - resolve the decode table against src's event formats
 *
 * Returns NULL on allocation failure (err set).  A recording without any
 * of the table's events is not an error: decode_caps() says what it has.
 */
struct decoder *decode_new(struct source *src, struct an_err *err);
/* Free; accepts NULL. */
void decode_free(struct decoder *d);

/* 0, or -AN_E_NOMEM once something could not be kept for memory. */
int decode_error(const struct decoder *d);
const struct dec_caps *decode_caps(const struct decoder *d);
const struct dec_stats *decode_stats(const struct decoder *d);

/*
 * decode_event - decode one event of the source
 *
 * Returns true with *out filled when the event is of a type of the
 * table, false (out untouched) for the others.  Strings in *out are the
 * decoder's, valid until the next call.
 */
bool decode_event(struct decoder *d, const struct source_event *ev,
		  struct dec_ev *out);

/* The command name known for pid ("<...>" when unknown).  Never NULL. */
const char *decode_comm(struct decoder *d, int pid);

/* Parse a block event's rwbs string ("FWS", "R", "WFS", "FN"...). */
void blk_parse_rwbs(const char *rwbs, struct dec_rq *rq);

#endif /* IOREPORT_DECODE_H */
