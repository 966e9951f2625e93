// SPDX-License-Identifier: MIT
/*
 * anomalies.c - the one list of the stages' anomaly counters: what each
 * state machine could not pair or place, under the stage's name and the
 * key the JSON and the database use.  The driver asks each stage of its
 * table for its counters at the end of the pass (its `anomalies` hook),
 * in the table's order; the views print the list as it is.
 */
#include "config.h"

#include "decode/decode.h"
#include "replay/aio.h"
#include "replay/block.h"
#include "replay/fdtable.h"
#include "replay/proctable.h"
#include "replay/syscall.h"
#include "replay/uring.h"
#include "stats/attrib.h"
#include "stats/stats.h"

void stats_anomaly(struct stats *st, const char *stage, const char *key,
		   const char *text, uint64_t n)
{
	if (st->nanom < ANOMALIES_MAX)
		st->anom[st->nanom++] = (struct anomaly){ stage, key, text, n };
}

#define A(stage, k, t, x) stats_anomaly(st, (stage), (k), (t), (x))

void stats_anomalies_block(struct stats *st, const struct replay_block *rb)
{
	const struct blk_anomalies *b = replay_block_anomalies(rb);

	A("block", "complete_without_issue",
	  "request completions without issue",
	  b->complete_without_issue);
	A("block", "issue_without_insert", "issued without insert",
	  b->issue_without_insert);
	A("block", "duplicate", "duplicate", b->duplicate);
	A("block", "negative_time", "negative time", b->negative_time);
	A("block", "requeued", "requeued", b->requeued);
	A("block", "empty_preflush_completions",
	  "empty preflush completions", b->empty_complete);
	A("block", "dropped_at_lost_events", "dropped at lost events",
	  b->dropped_at_gap);
	A("block", "open_at_end", "still open at end", b->still_open);
	A("block", "evicted", "evicted (too many pending)", b->evicted);
	A("block", "unreadable", "unreadable", b->unreadable);
}

void stats_anomalies_sys(struct stats *st, const struct sysreplay *sr,
			 const struct dec_stats *ds)
{
	const struct sysreplay_stats *s = sysreplay_stats(sr);
	const struct proctable_stats *p = proctable_stats(st->pt);
	const struct fdtable_stats *f = proctable_fdstats(st->pt);
	uint64_t gaps;

	stats_lost(st, &gaps);

	A("syscall", "exit_without_enter", "exit without enter",
	  s->exit_without_enter);
	A("syscall", "enter_without_exit", "enter without exit",
	  s->enter_without_exit);
	A("syscall", "mismatched", "exit of another syscall",
	  s->mismatched);
	A("syscall", "negative_time", "negative time", s->negative_time);
	A("syscall", "dropped_at_lost_events", "dropped at lost events",
	  s->lost_gap);
	A("syscall", "open_at_end", "still open at end", s->open_at_end);
	A("syscall", "lost_event_gaps", "lost-event gaps", gaps);
	A("process", "unknown_tids", "threads without fork or snapshot",
	  p->unknown_tids);
	A("process", "pid_reuse", "pid reused without exit",
	  p->pid_reuse);
	A("process", "exit_unknown", "exit of unknown thread",
	  p->exit_unknown);
	A("fd", "io_unknown_fd", "I/O on unknown fd", f->io_unknown);
	A("fd", "close_unknown_fd", "close of unknown fd",
	  f->close_unknown);
	A("fd", "dup_unknown_fd", "dup of unknown fd", f->dup_unknown);
	A("fd", "names_unrecorded",
	  "renames, unlinks and links whose names were not recorded",
	  f->names_unnamed);
	A("fd", "names_unknown",
	  "renames, unlinks and links of a name no file has",
	  f->names_unknown);
	A("syscall", "unknown_syscalls", "unnamed raw syscall ids",
	  ds->unknown_syscalls);
	A("decode", "decode_errors", "unreadable fields",
	  ds->errors);
	if (st->ar && aio_stats(st->ar)->submitted) {
		const struct aio_stats *x = aio_stats(st->ar);

		A("aio", "aio_unnamed",
		  "libaio requests without their iocb (no file known)",
		  x->unnamed);
		A("aio", "aio_reaped_unknown",
		  "libaio reaps of requests not seen submitted",
		  x->reaped_unknown);
		A("aio", "aio_cancelled", "libaio requests cancelled",
		  x->cancelled);
		A("aio", "aio_open_at_end",
		  "libaio requests not reaped at end", x->open_at_end);
		A("aio", "aio_evicted",
		  "libaio requests dropped (too many queued)", x->evicted);
	}
	if (st->ur) {
		const struct uring_stats *u = uring_stats(st->ur);

		A("io_uring", "uring_complete_unknown",
		  "io_uring completions without their submit",
		  u->complete_unknown);
		A("io_uring", "uring_resubmitted",
		  "io_uring requests submitted again before completing",
		  u->resubmitted);
		A("io_uring", "uring_fixed_file",
		  "io_uring requests on registered files (no file known)",
		  u->fixed_file);
		A("io_uring", "uring_fixed_file_guessed",
		  "io_uring requests on the one registered file, taken as the last opened",
		  u->fixed_guessed);
		A("io_uring", "uring_no_file",
		  "io_uring requests whose fd was not seen", u->no_file);
		A("io_uring", "uring_fd_ops_unfollowed",
		  "opens and closes through io_uring not followed", u->fd_ops);
		A("io_uring", "uring_name_ops_unfollowed",
		  "renames and unlinks through io_uring not followed",
		  u->name_ops);
		A("io_uring", "uring_open_at_end",
		  "io_uring requests still in flight at end", u->open_at_end);
		A("io_uring", "uring_evicted",
		  "io_uring requests dropped (too many in flight)", u->evicted);
	}
}

void stats_anomalies_attrib(struct stats *st)
{
	const struct attrib_totals *t = attrib_totals(st->at);

	A("attrib", "bio_replaced", "bio queued over a pending one",
	  t->bio_replaced);
	A("attrib", "request_sectors_without_bio",
	  "request sectors without a bio", t->bio_unmatched);
	A("attrib", "bios_pending_at_end",
	  "bios without a completed request", t->bio_pending_end);
}
