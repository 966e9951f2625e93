// SPDX-License-Identifier: MIT
/*
 * driver.c - the single pass over a recording (see driver.h).
 *
 * One loop over source_next(): per event, the per-CPU lost-event
 * accounting and the task bitmap, every stage told of a lost-events gap,
 * then the decoding (decode.h) and the decoded event handed to the stages
 * that take its kind, as the rows of the stage table stages[] say: the
 * attribution's stacked requests, the block request replay (whose
 * completed requests go to the per-device aggregates, the slow heap, the
 * timed stages and the caller's hook), the write amplification and dirty
 * throttling, the syscall/process/fd replay (the completed syscalls go to
 * the slow-call heap and the caller's hook), the per-thread windows, the
 * attribution of block I/O.  The same table finishes, checks and frees
 * them.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "base/err.h"
#include "input/source.h"
#include "input/meta.h"
#include "driver.h"
#include "replay/fdtable.h"
#include "replay/uring.h"
#include "replay/aio.h"
#include "replay/proctable.h"
#include "replay/bio-owner.h"
#include "stats/wa.h"
#include "stats/dirty.h"
#include "stats/filter.h"
#include "stats/trigger.h"
#include "base/imap.h"
#include "base/strlist.h"

/*
 * Whether a syscall is I/O on a file or a block device, what the slowest
 * syscalls list by default: a call on no fd (sync) or on a regular file
 * (an absolute path outside /dev, /proc and /sys) or a block device of
 * the snapshot; not a pipe, socket, tty, eventfd or unknown fd.
 */
static bool file_io(const struct driver *a, struct file *f,
		    const struct sys_call *c)
{
	const char *p;

	if (sys_call_fd(c) < 0)
		return true;
	if (!f || !f->path)
		return false;
	/* the answer of its path, kept in the file until the path changes */
	if (!f->path_class) {
		p = f->path;
		f->path_class = meta_path_regular(p) ||
				(!strncmp(p, "/dev/", 5) &&
				 meta_bdevs_has(&a->bdevs, p + 5)) ? 1 : -1;
	}
	return f->path_class > 0;
}

/* The accounting's per-call hook: the slow heap, then the caller's hook. */
static void on_call(void *arg, struct proc *p, struct file *f,
		    const struct sys_call *c)
{
	struct driver *a = arg;

	stats_trigger_call(&a->st, p, f, c);
	/* --min-ms: the slowest and the hook see the slow calls only */
	if (a->filter && a->filter->min_ns &&
	    (!c->paired || c->end - c->start < a->filter->min_ns))
		return;
	if (a->slow_all_fds || file_io(a, f, c))
		stats_call(&a->st, p, f, c);
	if (a->on_call)
		a->on_call(a->on_call_arg, c, p->id, f ? f->id : -1);
}

/* The pid and comm of the task that inserted (else issued) a request. */
static int rq_task(const struct driver *a, const struct blk_request *rq,
		   const char **comm)
{
	int pid = rq->insert_pid >= 0 ? rq->insert_pid : rq->issue_pid;

	*comm = rq->comm[0] ? rq->comm : decode_comm(a->dec, pid);
	return pid;
}

/*
 * Whether the view filters keep a request: the time of its completion
 * and its device (known before its owner), then its owner's process and
 * file (the attribution's, else the task that queued it), then its time
 * (--min-ms).  Counts what was seen and kept.
 */
static bool keep_before(const struct driver *a, const struct blk_request *rq)
{
	const struct view_filter *f = a->filter;

	return filter_time(f, rq->complete_ts) &&
	       filter_dev(f, rq->dev, rq->dev);
}

static bool keep_after(const struct driver *a, const struct blk_done *d)
{
	const struct view_filter *f = a->filter;
	const char *comm;
	int pid;

	if (d->attributed) {
		if (!filter_proc(f, d->own.proc))
			return false;
		if (f->glob && !(d->own.file &&
				 filter_path(f, d->own.file->path)))
			return false;
	} else {
		pid = rq_task(a, &d->rq, &comm);
		if (!filter_task(f, pid, comm) || f->glob)
			return false;
	}
	return !f->min_ns || blk_total_ns(&d->rq) >= f->min_ns;
}

/*
 * A request the block replay completed: its owner, then (when the view
 * filters keep it) the per-device aggregates, the slowest, the timed
 * machines, the caller's hook.
 */
static void on_request(const struct blk_request *rq,
		       const struct blk_piece *pc, size_t npc, void *arg)
{
	struct driver *a = arg;
	struct blk_done done;
	bool keep = true;
	int seq;

	if (a->filter) {
		a->filter->requests++;
		keep = keep_before(a, rq);
	}
	if (!a->filter && !stats_keeps_requests(&a->st) && !a->on_request &&
	    !a->at && !a->dirty) {
		if (stats_request(&a->st, rq) < 0)
			a->err = -AN_E_NOMEM;
		return;
	}
	done.rq = *rq;
	done.attributed = a->at != NULL;
	if (a->at) {
		/* a request filtered out is attributed, counting nothing */
		attrib_mute(a->at, !keep);
		attrib_request(a->at, rq, pc, npc, &done.own);
		attrib_mute(a->at, false);
	} else {
		memset(&done.own, 0, sizeof(done.own));
	}
	/*
	 * the flushes an fsync waited for are its, whoever owns them: the
	 * fsync intervals see every request of the time window and devices
	 */
	if (a->wa && keep)
		wa_timed_request(a->wa, rq);
	stats_trigger_request(&a->st, &done);
	if (a->filter) {
		keep = keep && keep_after(a, &done);
		if (!keep)
			return;
		a->filter->requests_kept++;
	}
	seq = stats_request(&a->st, rq);
	if (seq < 0 || stats_proc_request(blk_done_proc(&done), rq, seq) < 0)
		a->err = -AN_E_NOMEM;
	stats_keep_request(&a->st, &done);
	/* the timed machines see each request as it completes */
	if (a->wa)
		wa_request(a->wa, &done);
	if (a->dirty)
		dirty_request(a->dirty, rq);
	if (a->on_request)
		a->on_request(&done, a->on_request_arg);
}

/*
 * A bio queued or merged (btt's Q and M), counted on its disk when the
 * view filters keep its time, device and task; merged_qts, of a merge,
 * when the merged bio was queued (its Q2M), or 0.
 */
static void bio_event(struct driver *a, const struct dec_ev *ev,
		      uint64_t merged_qts)
{
	const struct dec_bio *b = &ev->bio;
	const struct view_filter *f = a->filter;
	uint32_t disk;

	if (ev->bad || !b->nr)
		return;		/* an empty preflush carries no data */
	disk = meta_bdevs_disk_of(&a->bdevs, b->dev);
	if (f && (!filter_time(f, ev->ts) || !filter_dev(f, disk, disk) ||
		  !filter_task(f, ev->pid, b->comm) || f->glob))
		return;
	if (stats_bio(&a->st, disk, b->op, b->nr, ev->kind == DK_BIO_MERGE,
		      merged_qts ? (int64_t)(ev->ts - merged_qts) : -1) < 0 ||
	    (ev->kind == DK_BIO_QUEUE &&
	     stats_btt_queue(&a->st, disk, ev->ts) < 0))
		a->err = -AN_E_NOMEM;
}

/*
 * A request issued (btt's D), for the seek distances: counted when the
 * view filters keep its time and device (every request of the device in
 * the window, whoever queued it: a seek is the disk's).
 */
static void issue_event(struct driver *a, const struct dec_ev *ev)
{
	const struct view_filter *f = a->filter;

	if (ev->bad || !ev->rq.nr_sector)
		return;
	if (f && (!filter_time(f, ev->ts) ||
		  !filter_dev(f, ev->rq.dev, ev->rq.dev)))
		return;
	if (stats_btt_issue(&a->st, ev->rq.dev, ev->rq.sector,
			    ev->rq.nr_sector) < 0)
		a->err = -AN_E_NOMEM;
}

/* The sys replay of one exit: pair it, find its process, account it. */
static void sys_exit(struct driver *a, const struct dec_ev *ev)
{
	struct sys_call c;
	struct proc *p;

	if (!sysreplay_exit(a->sys.sr, &ev->exit, &c) &&
	    (sys_kind_info(c.kind)->flags & SKF_ENTER_FILTERED))
		return;		/* a call iorec did not mean to record */
	p = proctable_lookup(a->sys.pt, ev->pid);
	if (!p)
		p = proctable_get(a->sys.pt, ev->pid,
				  decode_comm(a->dec, ev->pid), ev->ts);
	account_call(&a->sys.acct, p, &c);
	if (c.paired && c.kind >= SK_IO_SUBMIT && c.kind <= SK_IO_DESTROY) {
		aio_call(a->sys.ar, &c);
		while (aio_next(a->sys.ar, &c)) {
			p = proctable_lookup(a->sys.pt, c.tid);
			if (p)
				account_call(&a->sys.acct, p, &c);
		}
	}
}

/*
 * The one file a process registers with its ring (docs/attribution.md,
 * "io_uring"): its open fd of the highest number on a named file that is
 * not a device nor a pseudo-file (meta_path_regular()), i.e. usually the
 * file it opened last; or -1.
 */
static int fixed_guess(struct proc *p)
{
	size_t pos = 0;
	struct file *f;
	int fd, best = -1;

	while (fdtable_next(p->fds, &pos, &fd, &f))
		if (fd > best && meta_path_regular(f->path))
			best = fd;
	return best;
}

/* An io_uring event: a request that completes is accounted as a call. */
static void uring_event(struct driver *a, const struct dec_ev *ev)
{
	struct sys_call c;
	struct proc *p;
	int tid;

	int rc;

	if (!a->sys.ur)
		return;
	rc = uring_feed(a->sys.ur, ev, &c, &tid);
	if (!rc)
		return;
	p = proctable_lookup(a->sys.pt, tid);
	if (!p)
		p = proctable_get(a->sys.pt, tid, decode_comm(a->dec, tid),
				  ev->ts);
	if (rc == URING_FIXED_GUESS)
		uring_fixed_guess(a->sys.ur, ev->uring.ctx, fixed_guess(p));
	else
		account_call(&a->sys.acct, p, &c);
}

/* The syscall, process and fd replay of one decoded event. */
/* A process event to the process table; whether ev was one. */
static bool proc_event(struct proctable *pt, struct decoder *dec,
		       const struct dec_ev *ev)
{
	const struct dec_task *t = &ev->task;

	switch (ev->kind) {
	case DK_FORK:
		proctable_fork(pt, ev->ts, t->pid, t->pid2, t->comm);
		return true;
	case DK_NEWTASK:
		proctable_get(pt, ev->pid, decode_comm(dec, ev->pid), ev->ts);
		proctable_newtask(pt, ev->ts, ev->pid, t->pid, t->comm,
				  t->clone_flags);
		return true;
	case DK_EXEC:
		proctable_exec(pt, ev->ts, t->pid, t->pid2, t->comm);
		return true;
	case DK_EXIT:
		proctable_exit(pt, ev->ts, t->pid, t->group_dead);
		return true;
	case DK_RENAME:
		if (t->comm)
			proctable_rename(pt, ev->ts, t->pid, t->comm);
		return true;
	case DK_CGROUP_ATTACH:
		if (t->comm)
			proctable_cgroup_attach(pt, ev->ts, t->pid, t->pid2,
						t->comm);
		return true;
	default:
		return false;
	}
}

static void sys_event(struct driver *a, const struct dec_ev *ev)
{
	if (proc_event(a->sys.pt, a->dec, ev))
		return;
	switch (ev->kind) {
	case DK_SYS_ENTER:
		sysreplay_enter(a->sys.sr, &ev->enter);
		break;
	case DK_SYS_EXIT:
		sys_exit(a, ev);
		break;
	case DK_PATH_HINT:
		sysreplay_set_path(a->sys.sr, ev->pid, ev->path);
		if (ev->path2)
			sysreplay_set_path2(a->sys.sr, ev->pid, ev->path2);
		break;
	case DK_AIO_SUBMIT:
		aio_hint(a->sys.ar, ev->pid, &ev->aio);
		break;
	DK_URING_CASES:
		uring_event(a, ev);
		break;
	default:
		break;
	}
}

/*
 * Whether the view filters keep a dirty-throttling event: inside the
 * time window, and a pause (balance_dirty_pages) of a process asked for.
 * The dirty state and thresholds are the machine's: only the window
 * applies to them (the view says so).
 */
static bool dirty_kept(const struct driver *a, const struct dec_ev *ev)
{
	const struct view_filter *f = a->filter;
	const struct proc *p;

	if (!f)
		return true;
	if (!filter_time(f, ev->ts))
		return false;
	if (ev->kind != DK_BDP || !(f->npids || f->ncomms))
		return true;
	p = a->st.have_sys ? proctable_lookup(a->sys.pt, ev->pid) : NULL;
	return p ? filter_proc(f, p) :
	       filter_task(f, ev->pid, decode_comm(a->dec, ev->pid));
}

/* A window of the window machine closed. */
static void window_closed(void *arg, enum win_id w, int tid,
			  const struct win *open, const struct dec_ev *ev)
{
	struct driver *a = arg;

	if (w == WIN_DSTATE && a->at)
		attrib_window_closed(a->at, w, tid, open, ev);
	if (w == WIN_DSTATE && a->st.trig && a->st.have_sys) {
		const struct proc *p = proctable_lookup(a->sys.pt, tid);

		stats_trigger_dstate(&a->st, p ? p->pid : tid, open->ts,
				     ev->ts);
	}
	if (w == WIN_WB_WORK && a->dirty && filter_time(a->filter, ev->ts))
		dirty_work_done(a->dirty, open, ev);
	if (w == WIN_EXT4_SYNC && a->wa)
		wa_fsync(a->wa, tid, open, ev);
}

/* ------------------------------------------------------------------ */
/* The stages */

static uint32_t disk_of(uint32_t fsdev, void *arg);

/*
 * Each stage of a pass is a row of stages[] below: which decoded kinds it
 * takes, what it does with one, with a lost-events gap, how it reports a
 * failure, how it finishes, which anomaly counters it lists and what it
 * frees.  The driver walks the table: the rows are set up in the order
 * of their new_rank (each after what it uses: the windows after the
 * syscall replay, the attribution after them and the block replay, whose
 * bios carry its owners, write amplification after the windows), when the command asked for them; an event goes to the rows that take its kind in the table's
 * order, which is the order that matters (the attribution learns a
 * stacked request at its issue before the block replay completes it; the
 * syscall replay and the windows know the event's thread before the
 * attribution reads them); a gap goes to every row, errors are asked of
 * every row, and the rows finish in the order of their rank (each
 * finishes after what it reads: files are named before the attribution
 * ends, requests complete after it, write amplification last but the
 * dirty-page timeline), and each lists its anomaly counters in the
 * table's order.  A stage set up for this pass has its object in struct
 * driver; a row whose object is NULL takes nothing.
 */
struct stage {
	const char *name;
	int new_rank;			/* 0: nothing to set up */
	int (*new)(struct driver *a);	/* 0 or -AN_E_NOMEM; none when not asked */
	bool (*takes)(const struct driver *a, enum dec_kind k);
	void (*feed)(struct driver *a, const struct dec_ev *ev);
	void (*gap)(struct driver *a, int cpu);		/* or NULL */
	int (*error)(const struct driver *a);		/* 0 or -AN_E_* */
	int finish_rank;		/* 0: nothing to finish */
	void (*finish)(struct driver *a);
	void (*anomalies)(struct driver *a);	/* its counters, or NULL */
	void (*release)(struct driver *a);
};

static bool is_rq(enum dec_kind k)
{
	return k == DK_RQ_INSERT || k == DK_RQ_ISSUE || k == DK_RQ_COMPLETE ||
	       k == DK_RQ_REQUEUE;
}

static bool is_bio(enum dec_kind k)
{
	return k == DK_BIO_QUEUE || k == DK_BIO_MERGE || k == DK_BIO_REMAP ||
	       k == DK_BIO_SPLIT;
}

/* Kinds of the thread's state: every one but the requests' and jbd2's. */
static bool is_task_kind(enum dec_kind k)
{
	return !is_rq(k) && k != DK_JBD2_RUN;
}

/*
 * stacked requests: the owners keep those of an upper device in flight,
 * from its issue (before the block replay completes one) to its
 * completion
 */
static bool stacked_takes(const struct driver *a, enum dec_kind k)
{
	return a->ow && (k == DK_RQ_ISSUE || k == DK_RQ_REQUEUE ||
			 k == DK_RQ_COMPLETE);
}

static void owners_feed(struct driver *a, const struct dec_ev *ev)
{
	owners_event(a->ow, ev);
}

/* block: requests insert -> issue -> complete, bios queued and merged */
static int block_new(struct driver *a)
{
	struct stats *st = &a->st;

	if (!(a->want & AN_BLOCK)) {
		st->block_why = "not asked for";
		return 0;
	}
	if (!a->caps->block) {
		st->block_why = "the recording lacks block:block_rq_issue or block:block_rq_complete (record the 'io' profile or -e block)";
		return 0;
	}
	a->rb = replay_block_new(on_request, a);
	if (!a->rb)
		return -AN_E_NOMEM;
	st->have_block = true;
	st->bio_events = a->caps->bio_events;
	st->merge_events = a->caps->merge_events;
	return 0;
}

static bool block_takes(const struct driver *a, enum dec_kind k)
{
	return a->rb && (is_rq(k) || is_bio(k));
}

static void block_feed(struct driver *a, const struct dec_ev *ev)
{
	uint64_t merged_qts;

	if (is_rq(ev->kind)) {
		replay_block_feed(a->rb, ev);
		if (ev->kind == DK_RQ_ISSUE)
			issue_event(a, ev);
		return;
	}
	merged_qts = replay_block_bio(a->rb, ev);
	if (ev->kind == DK_BIO_QUEUE || ev->kind == DK_BIO_MERGE)
		bio_event(a, ev, merged_qts);
}

static void block_gap(struct driver *a, int cpu)
{
	(void)cpu;
	replay_block_gap(a->rb);
}

static int block_error(const struct driver *a)
{
	return a->rb ? replay_block_error(a->rb) : 0;
}

static void block_finish(struct driver *a)
{
	replay_block_finish(a->rb);
}

static void block_anomalies(struct driver *a)
{
	stats_anomalies_block(&a->st, a->rb);
}

static void block_release(struct driver *a)
{
	replay_block_free(a->rb);
}

/* write amplification: jbd2 commits, ext4 fsyncs */
static int wa_new_of(struct driver *a)
{
	if (!(a->want & AN_WA))
		return 0;
	a->wa = wa_new(a->caps->jbd2_run, a->caps->ext4_sync, disk_of, a);
	if (!a->wa)
		return -AN_E_NOMEM;
	wa_set_filter(a->wa, a->filter);
	wa_set_windows(a->wa, a->win);
	a->st.wa = a->wa;
	return 0;
}

static bool wa_takes(const struct driver *a, enum dec_kind k)
{
	return a->wa && k == DK_JBD2_RUN;
}

static void wa_feed(struct driver *a, const struct dec_ev *ev)
{
	wa_event(a->wa, ev);
}

static int wa_error_of(const struct driver *a)
{
	return a->wa ? wa_error(a->wa) : 0;
}

static void wa_finish_of(struct driver *a)
{
	wa_finish(a->wa, a->st.have_sys ? a->sys.ft : NULL,
		  a->info->snapshot_start, a->info->snapshot_end, a->st.hz);
}

static void wa_release(struct driver *a)
{
	wa_free(a->wa);
}

/* dirty throttling: pauses, the dirty state and thresholds */
static int dirty_new_of(struct driver *a)
{
	struct dirty_caps dc = {
		.bdp = a->caps->bdp_pause,
		.gds = a->caps->dirty_state,
		.wb = a->caps->wb_work,
	};

	if (!(a->want & AN_DIRTY))
		return 0;
	a->dirty = dirty_new(&dc, a->info->page_size);
	if (!a->dirty)
		return -AN_E_NOMEM;
	a->st.dirty = a->dirty;
	return 0;
}

static bool dirty_takes(const struct driver *a, enum dec_kind k)
{
	return a->dirty && (k == DK_BDP || k == DK_DIRTY_STATE);
}

static void dirty_feed(struct driver *a, const struct dec_ev *ev)
{
	if (dirty_kept(a, ev))
		dirty_event(a->dirty, ev);
}

static int dirty_error_of(const struct driver *a)
{
	return a->dirty ? dirty_error(a->dirty) : 0;
}

static void dirty_finish(struct driver *a)
{
	dirty_end(a->dirty);
}

static void dirty_release(struct driver *a)
{
	dirty_free(a->dirty);
}

/* syscalls: enter -> exit, processes, fds, io_uring and libaio requests */
static int sys_new(struct driver *a)
{
	struct stats *st = &a->st;

	if (!(a->want & AN_SYS))
		return 0;
	if (!(a->caps->syscall_events || a->caps->raw_syscalls)) {
		snprintf(a->sys_why, sizeof(a->sys_why), "%s: no syscall events in the recording; record with iorec's default 'io' profile (or trace-cmd record -e syscalls -e sched)",
			 a->info->path);
		st->sys_why = a->sys_why;
		return 0;
	}
	st->have_sys = true;
	a->sys.sr = sysreplay_new();
	a->sys.ft = filetab_new();
	a->sys.pt = a->sys.ft ? proctable_new(a->sys.ft) : NULL;
	if (!a->sys.sr || !a->sys.pt)
		return -AN_E_NOMEM;
	a->sys.acct.pt = a->sys.pt;
	a->sys.acct.filter = a->filter;
	a->sys.acct.ft = a->sys.ft;
	st->pt = a->sys.pt;
	st->ft = a->sys.ft;
	if (a->info->snapshot_start)
		proctable_load_start(a->sys.pt, a->info->snapshot_start);
	if (a->info->snapshot_end)
		proctable_load_end(a->sys.pt, a->info->snapshot_end);
	a->sys.ar = aio_new();
	if (!a->sys.ar)
		return -AN_E_NOMEM;
	st->ar = a->sys.ar;
	if (a->caps->uring) {
		a->sys.ur = uring_new();
		if (!a->sys.ur)
			return -AN_E_NOMEM;
		st->ur = a->sys.ur;
	}
	if (a->slow_n || a->on_call) {
		a->sys.acct.on_call = on_call;
		a->sys.acct.on_call_arg = a;
	}
	return 0;
}

static bool sys_takes(const struct driver *a, enum dec_kind k)
{
	return a->st.have_sys && is_task_kind(k);
}

static void sys_gap(struct driver *a, int cpu)
{
	sysreplay_gap(a->sys.sr, cpu);
}

static int sys_error(const struct driver *a)
{
	if (!a->st.have_sys)
		return 0;
	return sysreplay_error(a->sys.sr) ? sysreplay_error(a->sys.sr) :
	       proctable_error(a->sys.pt) ? proctable_error(a->sys.pt) :
	       filetab_error(a->sys.ft) ? filetab_error(a->sys.ft) :
	       a->sys.ar && aio_error(a->sys.ar) ? aio_error(a->sys.ar) :
	       a->sys.ur && uring_error(a->sys.ur) ? uring_error(a->sys.ur) :
	       a->sys.acct.err;
}

static void sys_finish(struct driver *a)
{
	sysreplay_finish(a->sys.sr);
	if (a->sys.ur)
		uring_finish(a->sys.ur);
	aio_finish(a->sys.ar);
	proctable_finish(a->sys.pt);
	if (a->ow)
		owners_name_files(a->ow);
	account_end(&a->sys.acct);
	a->st.named = a->sys.acct.st;
}

static void sys_anomalies(struct driver *a)
{
	stats_anomalies_sys(&a->st, a->sys.sr, decode_stats(a->dec));
}

static void sys_release(struct driver *a)
{
	proctable_free(a->sys.pt, procstat_free);
	filetab_free(a->sys.ft, filestat_free);
	sysreplay_free(a->sys.sr);
	uring_free(a->sys.ur);
	aio_free(a->sys.ar);
}

/* windows: per-thread intervals declared as data (replay/window.c) */
static int windows_new_of(struct driver *a)
{
	if (!(a->want & (AN_ATTRIB | AN_DIRTY | AN_WA)))
		return 0;
	a->win = windows_new();
	if (!a->win)
		return -AN_E_NOMEM;
	windows_on_close(a->win, window_closed, a);
	for (int k = 0; k < DK_NR; k++)
		a->win_kind[k] = windows_use(a->win, k);
	return 0;
}

static bool windows_takes(const struct driver *a, enum dec_kind k)
{
	return a->win && a->win_kind[k] && is_task_kind(k);
}

static void windows_feed_of(struct driver *a, const struct dec_ev *ev)
{
	windows_feed(a->win, ev);
}

static void windows_gap_of(struct driver *a, int cpu)
{
	windows_gap(a->win, cpu);
}

static int windows_error_of(const struct driver *a)
{
	return a->win ? windows_error(a->win) : 0;
}

static void windows_release(struct driver *a)
{
	windows_free(a->win);
}

/* owners: whose each bio is, from the events (replay/bio-owner.h) */
static int owners_new_of(struct driver *a)
{
	if (!a->st.have_sys || !(a->want & AN_ATTRIB))
		return 0;
	a->ow = owners_new(a->sys.sr, a->sys.pt, a->sys.ft, a->win, a->dec);
	if (!a->ow)
		return -AN_E_NOMEM;
	if (owners_set_stack(a->ow, &a->bdevs) < 0 ||
	    (a->rb && owners_set_block(a->ow, a->rb) < 0))
		return -AN_E_NOMEM;
	owners_set_uring(a->ow, a->sys.ur);
	owners_set_aio(a->ow, a->sys.ar);
	return 0;
}

static bool owners_takes(const struct driver *a, enum dec_kind k)
{
	return a->ow && is_task_kind(k);
}

static int owners_error_of(const struct driver *a)
{
	return a->ow ? owners_error(a->ow) : 0;
}

static void owners_release(struct driver *a)
{
	owners_free(a->ow);
}

/* attribution: block I/O to processes and files, dirty throttling */
static int attrib_new_of(struct driver *a)
{
	if (!a->ow)
		return 0;
	a->at = attrib_new(a->ow, a->rb, a->sys.ft, a->dec);
	if (!a->at)
		return -AN_E_NOMEM;
	a->st.at = a->at;
	return 0;
}

static bool attrib_takes(const struct driver *a, enum dec_kind k)
{
	return a->at && k == DK_BDP;
}

static void attrib_feed(struct driver *a, const struct dec_ev *ev)
{
	attrib_event(a->at, ev);
}

static int attrib_error_of(const struct driver *a)
{
	return a->at ? attrib_error(a->at) : 0;
}

static void attrib_finish(struct driver *a)
{
	attrib_end(a->at);
	a->st.hz = attrib_totals(a->at)->hz;
}

static void attrib_anomalies(struct driver *a)
{
	stats_anomalies_attrib(&a->st);
}

static void attrib_release(struct driver *a)
{
	attrib_free(a->at);
}

/*
 * name, new_rank, new, takes, feed, gap, error, finish_rank, finish,
 * anomalies, release
 */
static const struct stage stages[] = {
	{ "stacked requests", 0, NULL, stacked_takes, owners_feed, NULL,
	  NULL, 0, NULL, NULL, NULL },
	{ "block", 3, block_new, block_takes, block_feed, block_gap,
	  block_error, 3, block_finish, block_anomalies, block_release },
	{ "write amplification", 6, wa_new_of, wa_takes, wa_feed, NULL,
	  wa_error_of, 4, wa_finish_of, NULL, wa_release },
	{ "dirty throttling", 7, dirty_new_of, dirty_takes, dirty_feed, NULL,
	  dirty_error_of, 5, dirty_finish, NULL, dirty_release },
	{ "syscalls", 1, sys_new, sys_takes, sys_event, sys_gap, sys_error,
	  1, sys_finish, sys_anomalies, sys_release },
	{ "windows", 2, windows_new_of, windows_takes, windows_feed_of,
	  windows_gap_of, windows_error_of, 0, NULL, NULL, windows_release },
	{ "owners", 4, owners_new_of, owners_takes, owners_feed, NULL,
	  owners_error_of, 0, NULL, NULL, owners_release },
	{ "attribution", 5, attrib_new_of, attrib_takes, attrib_feed, NULL,
	  attrib_error_of, 2, attrib_finish, attrib_anomalies,
	  attrib_release },
};

_Static_assert(ARRAY_SIZE(stages) == DRIVER_STAGES, "DRIVER_STAGES");

/* After the rows are set up: which take each kind, which are on at all. */
static void route_stages(struct driver *a)
{
	for (int k = 0; k < DK_NR; k++) {
		int n = 0;

		for (size_t i = 0; i < ARRAY_SIZE(stages); i++)
			if (k && stages[i].takes(a, (enum dec_kind)k)) {
				a->route[k][n++] = (unsigned char)(i + 1);
				a->stage_on[i] = true;
			}
		a->route[k][n] = 0;
	}
}

/* Events were lost on cpu just before this one: every stage hears. */
static void gap(struct driver *a, int cpu)
{
	for (size_t i = 0; i < ARRAY_SIZE(stages); i++)
		if (stages[i].gap && a->stage_on[i])
			stages[i].gap(a, cpu);
}

/* Calls and hints of the recorder's threads are left out (iorec(5)). */
static bool self_call(struct driver *a, const struct dec_ev *ev)
{
	enum dec_kind k = ev->kind;

	if (k == DK_NEWTASK || k == DK_FORK || k == DK_EXEC || k == DK_EXIT)
		a->self_tid = -1;	/* the answer kept for a thread ends */
	if (k != DK_SYS_ENTER && k != DK_SYS_EXIT && k != DK_PATH_HINT &&
	    k != DK_AIO_SUBMIT)
		return false;
	if (ev->pid != a->self_tid && a->sys.pt) {
		a->self_tid = ev->pid;
		a->self_is = proctable_is_self(a->sys.pt, ev->pid);
	}
	return ev->pid == a->self_tid && a->self_is;
}

/* One decoded event to the stages that take its kind, in table order. */
static void dispatch(struct driver *a, const struct dec_ev *ev)
{
	if (self_call(a, ev))
		return;
	for (const unsigned char *r = a->route[ev->kind]; *r; r++)
		stages[*r - 1].feed(a, ev);
}

/* The stages' ends, each after what it reads (finish_rank). */
static void finish_stages(struct driver *a)
{
	for (int rank = 1; rank <= (int)ARRAY_SIZE(stages); rank++)
		for (size_t i = 0; i < ARRAY_SIZE(stages); i++)
			if (stages[i].finish_rank == rank && a->stage_on[i])
				stages[i].finish(a);
}

/* The device of the mount path is under, from the start snapshot; 0. */
static uint32_t mount_of(const char *path, void *arg)
{
	struct driver *a = arg;
	uint32_t dev = 0;

	return meta_mounts_of(&a->mounts, path, &dev) ? dev : 0;
}

/* The whole disk of a file system's device, from the start snapshot. */
static uint32_t disk_of(uint32_t fsdev, void *arg)
{
	struct driver *a = arg;

	return meta_bdevs_disk_of(&a->bdevs, fsdev);
}

/* Whether process p had one of f's comms (current or earlier). */
static bool had_comm(const struct view_filter *f, const struct proc *p)
{
	for (size_t i = 0; i < f->ncomms; i++)
		if ((p->comm && !strcmp(p->comm, f->comms[i])) ||
		    strlist_has(p->comms, f->comms[i], strlen(f->comms[i])))
			return true;
	return false;
}

/* The processes of pt that had a name of f, and the threads seen in them. */
static int comms_collect(struct proctable *pt, const struct imap *tids,
			 struct view_filter *f)
{
	struct filter_span *v = NULL;
	int *tv = NULL;
	size_t n = 0, nt = 0, cap = 0, tcap = 0, pos = 0;
	bool *sel = an_calloc(proctable_count(pt) + 1, sizeof(*sel));
	void *val;
	int tid;

	if (!sel)
		return -AN_E_NOMEM;
	for (size_t i = 0; i < proctable_count(pt); i++) {
		const struct proc *p = proctable_at(pt, i);
		struct filter_span *s;

		if (!had_comm(f, p))
			continue;
		sel[i] = true;
		s = an_push((void **)&v, &n, &cap, sizeof(*v), 8);
		if (!s)
			goto nomem;
		s->pid = p->pid;
		s->from = p->start_ts;
		s->to = p->exited ? p->exit_ts : UINT64_MAX;
	}
	while (imap_next(tids, &pos, &tid, &val)) {
		size_t id = (size_t)((uintptr_t)val - 1);
		int *t;

		if (id >= proctable_count(pt) || !sel[id])
			continue;
		t = an_push((void **)&tv, &nt, &tcap, sizeof(*tv), 16);
		if (!t)
			goto nomem;
		*t = tid;
	}
	free(sel);
	filter_comms_resolve(f, v, n, tv, nt);
	return 0;
nomem:
	free(sel);
	free(v);
	free(tv);
	return -AN_E_NOMEM;
}

int driver_select_comms(const char *path, struct view_filter *f,
			struct an_err *err)
{
	struct source *src;
	const struct source_info *info;
	struct decoder *dec = NULL;
	struct filetab *ft = NULL;
	struct proctable *pt = NULL;
	struct imap tids;
	struct source_event ev;
	struct dec_ev d;
	int rc;

	if (!f || !f->ncomms)
		return 0;
	imap_init(&tids);
	src = source_open(path, err);
	if (!src)
		return -err->code;
	info = source_info(src);
	dec = decode_new(src, err);
	ft = dec ? filetab_new() : NULL;
	pt = ft ? proctable_new(ft) : NULL;
	if (!pt) {
		rc = -AN_E_NOMEM;
		goto out;
	}
	if (info->snapshot_start)
		proctable_load_start(pt, info->snapshot_start);
	if (info->snapshot_end)
		proctable_load_end(pt, info->snapshot_end);
	while ((rc = source_next(src, &ev)) > 0) {
		struct proc *p;

		if (!decode_event(dec, &ev, &d))
			continue;
		proc_event(pt, dec, &d);
		/* the process each thread was first seen in */
		if (d.pid <= 0 || imap_get(&tids, d.pid))
			continue;
		p = proctable_get(pt, d.pid, decode_comm(dec, d.pid), d.ts);
		if (imap_put(&tids, d.pid, (void *)(uintptr_t)(p->id + 1),
			     NULL) < 0) {
			rc = -AN_E_NOMEM;
			break;
		}
	}
	if (!rc)
		rc = proctable_error(pt) ? proctable_error(pt) :
		     decode_error(dec);
	if (!rc)
		rc = comms_collect(pt, &tids, f);
out:
	imap_release(&tids);
	proctable_free(pt, NULL);
	filetab_free(ft, NULL);
	decode_free(dec);
	source_close(src);
	if (rc < 0 && !err->code)
		return an_fail(err, -rc, "%s: %s while looking for the processes of -c (free memory, or read a shorter recording)",
			       path, an_strerror(rc));
	return rc < 0 ? rc : 0;
}

int driver_open(struct driver *a, const char *path, struct an_err *err)
{
	a->src = source_open(path, err);
	if (!a->src)
		return -err->code;
	a->info = source_info(a->src);
	return 0;
}

/* Make the stages a->want asks for; 0, or -AN_E_NOMEM. */
static int setup(struct driver *a, struct an_err *err)
{
	struct stats *st = &a->st;
	int n;

	if (stats_init(st, a->info->nr_cpus, a->slow_n, a->want & AN_SYS) < 0)
		return -AN_E_NOMEM;
	st->info = a->info;
	st->filter = a->filter;
	st->slow_all_fds = a->slow_all_fds;
	if (stats_trigger_load(st) < 0)
		return -AN_E_NOMEM;
	if (meta_bdevs_load(&a->bdevs, a->info->snapshot_start) < 0)
		return -AN_E_NOMEM;
	if (a->filter) {
		a->filter->disk_of = disk_of;
		a->filter->disk_arg = a;
		a->filter->mount_of = mount_of;
		if (a->filter->ndevs &&
		    meta_mounts_load(&a->mounts, a->info->snapshot_start) < 0)
			return -AN_E_NOMEM;
	}
	source_event_types(a->src, &n);
	st->event_types = n;
	a->dec = decode_new(a->src, err);
	if (!a->dec)
		return -AN_E_NOMEM;
	st->dec = a->dec;
	a->caps = decode_caps(a->dec);
	st->raw_syscalls = a->caps->raw_syscalls;
	st->compat_raw = a->caps->compat_raw;
	st->proc_events = a->caps->proc_events;
	for (int rank = 1; rank <= (int)ARRAY_SIZE(stages); rank++)
		for (size_t i = 0; i < ARRAY_SIZE(stages); i++)
			if (stages[i].new_rank == rank &&
			    stages[i].new(a) < 0)
				return -AN_E_NOMEM;
	return 0;
}

/*
 * The first failure of a stage or a hook: each keeps going without what
 * it could not allocate (spare objects, nothing dereferences NULL) and
 * keeps the error, so the pass is checked here now and then and at its
 * end, and a failed pass prints nothing.
 */
static int stage_error(const struct driver *a)
{
	int rc = a->err ? a->err : decode_error(a->dec);

	for (size_t i = 0; !rc && i < ARRAY_SIZE(stages); i++)
		if (stages[i].error)
			rc = stages[i].error(a);
	return rc;
}

/* How often the loop asks the stages for an error (events). */
#define CHECK_EVERY	65536

int driver_run(struct driver *a, struct an_err *err)
{
	struct source *src = a->src;
	struct stats *st = &a->st;
	struct source_event ev;
	struct dec_ev d;
	bool decode;
	int rc;

	if (a->want & AN_WA)
		a->want |= AN_ATTRIB;
	if (a->want & AN_ATTRIB)
		a->want |= AN_SYS | AN_BLOCK;
	rc = setup(a, err);
	if (rc < 0)
		return rc == -AN_E_NOMEM && err->code != AN_E_NOMEM ?
		       an_nomem(err, a->info->path) : rc;
	route_stages(a);

	/* no stage asked (info): the events are only counted */
	decode = a->want != 0;
	while ((rc = source_next(src, &ev)) > 0) {
		stats_event(st, ev.ts, ev.cpu, ev.pid, ev.missed);
		if (a->filter && st->events == 1)
			a->filter->base_ts = ev.ts;
		if (!decode)
			continue;
		/* the time rows begin where the window does */
		if (a->dirty && st->events == 1)
			dirty_begin(a->dirty, filter_start(a->filter, ev.ts));
		if (ev.missed)
			gap(a, ev.cpu);
		if (decode_event(a->dec, &ev, &d))
			dispatch(a, &d);
		if (!(st->events % CHECK_EVERY) && (rc = stage_error(a)))
			break;
	}
	if (!rc)
		rc = stage_error(a);
	if (rc < 0)
		return an_fail(err, -rc, "%s: %s after %llu events (free memory, or read a shorter recording)",
			       a->info->path, an_strerror(rc),
			       (unsigned long long)st->events);

	st->hz = 250;		/* the attribution's finish learns it */
	finish_stages(a);
	st->path_strings = decode_stats(a->dec)->path_strings;
	st->path_hints = decode_stats(a->dec)->path_hints;
	st->compat_calls = decode_stats(a->dec)->compat_calls;
	stats_end(st);
	for (size_t i = 0; i < ARRAY_SIZE(stages); i++)
		if (stages[i].anomalies && a->stage_on[i])
			stages[i].anomalies(a);
	rc = stage_error(a);
	if (rc < 0)
		return an_fail(err, -rc, "%s: %s at the end of the recording (free memory, or read a shorter recording)",
			       a->info->path, an_strerror(rc));
	return 0;
}

void driver_close(struct driver *a)
{
	struct source *src = a->src;

	filter_release(a->filter);
	stats_release(&a->st);
	/* every row frees what it may have set up (each takes NULL), the
	   later rows first: they hold pointers into the earlier ones' */
	for (size_t i = ARRAY_SIZE(stages); i-- > 0;)
		if (stages[i].release)
			stages[i].release(a);
	decode_free(a->dec);
	meta_bdevs_release(&a->bdevs);
	meta_mounts_release(&a->mounts);
	source_close(src);
	memset(a, 0, sizeof(*a));
}
