/* SPDX-License-Identifier: MIT */
/*
 * sink.h - the sinks of ioreport: every view prints what the stages
 * computed (struct stats, stats/) as text for people on a FILE * or as
 * members of one JSON object (json.h).  They are the only code that
 * prints; the analysis does not change with the output.  A sink reads
 * the stats and the recording's metadata (input/meta.h), never the state
 * machines (replay/) or the events.
 *
 * Text is deterministic: sorted rows, fixed formats, no wall clock, and
 * an anomalies line in every view.  JSON carries raw numbers (ns,
 * bytes), histograms as bucket bounds and counts, never bars.
 *
 * A new sink (CSV, HTML) is one more set of functions over the same
 * struct stats, in a file of this folder.
 */
#ifndef IOREPORT_SINK_SINK_H
#define IOREPORT_SINK_SINK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/units.h"	/* every size, rate and duration as text */
#include "input/source.h"	/* struct source_info: what a recording says */
#include "stats/stats.h"

struct an_err;

struct json;

struct sink {
	FILE *out;		/* text */
	struct json *j;		/* NULL: text */
	struct stats *st;	/* what is printed */
	bool no_hist;		/* text: tables only */
	bool wallclock;		/* text: times of day, not seconds */
	bool trace_clock;	/* text: seconds of the trace clock, not from
				   the first event */
	bool csv;		/* --csv: j writes one table as CSV
				   (json_csv_begin()); warnings to stderr */
	bool wide;		/* text: every column, exact numbers, whole
				   names (--wide); else SINK_WIDTH columns */
	int by;			/* --by: enum owner_by (stats/owner.h),
				   0: none */
	int err;		/* 0, or the first -AN_E_* of a view (no
				   memory: the view is cut short) */
	/* device names from the snapshot, cached */
	struct devname {
		uint32_t dev;
		char name[64];
	} *names;
	size_t nnames, names_alloc;
	char name_buf[64];
	/* snoop */
	bool snooping;
	uint64_t snooped;
	/* --interval: processes (else devices), rows per interval */
	bool ivl_procs;
	long ivl_top;
};

/*
 * view-interval.c: --interval of devices and processes.  Begin (in JSON
 * the "interval_ns" member and the "intervals" array), each slot as the
 * pass hands it on (an ivl_slot_fn of stats/interval.h with the sink as
 * its argument), end.
 */
struct ivl_slot;
void view_interval_begin(struct sink *s, const char *path, uint64_t width,
			 bool procs, long top);
int view_interval_slot(void *arg, const struct ivl_slot *sl);
void view_interval_end(struct sink *s);

/*
 * iostat -x's columns of one device (view-requests.c): the head line,
 * one row, and the members of a JSON object (the "iostat" rows of
 * devices and of its intervals).
 */
void sink_iostat_head(struct sink *s);
void sink_iostat_row(struct sink *s, const struct iostat *io);
void sink_iostat_json(struct sink *s, const struct iostat *io);

/* A sink of st's views to out (text) or to j (JSON, when not NULL). */
void sink_init(struct sink *s, struct stats *st, FILE *out, struct json *j);
void sink_release(struct sink *s);

/* The width of a default text view. */
#define SINK_WIDTH	100

/*
 * sink_tail - str for a column of room characters: itself when it fits
 * (or s->wide), else "..." and its end (a path's file name survives),
 * copied into buf
 */
const char *sink_tail(const struct sink *s, const char *str, size_t room,
		      char *buf, size_t n);
/* The same cut without a sink (table.c's last column): str when it fits. */
const char *sink_cut_tail(const char *str, size_t room, char *buf, size_t n);
/* The same for a name: its start and "~" (a comm, a device). */
const char *sink_head(const struct sink *s, const char *str, size_t room,
		      char *buf, size_t n);
/*
 * sink_printf - text as fprintf, its lines longer than SINK_WIDTH wrapped
 * at spaces with the rest indented (never with s->wide): for sentences,
 * not tables
 */
void sink_printf(const struct sink *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A CSV field: as is, or quoted when it holds a comma, quote or newline. */
void sink_csv_str(FILE *out, const char *str);

/*
 * A line of "item, item, ..." that wraps at SINK_WIDTH (never with
 * s->wide), the next lines indented: sink_line_begin() prints lead,
 * sink_line_add() one item, sink_line_end() the newline.
 */
struct sink_line {
	const struct sink *s;
	const char *pre;	/* before every line ("# " in snoop) */
	size_t col;
	int items;
};
void sink_line_begin(struct sink_line *l, const struct sink *s,
		     const char *pre, const char *lead);
void sink_line_add(struct sink_line *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sink_line_end(struct sink_line *l);

struct sys_call;
/*
 * sink_call_pid - the pid of the process proc_id (the driver's on_call
 * argument) that made call c, else its thread id
 */
int sink_call_pid(const struct stats *st, const struct sys_call *c,
		  int proc_id);

/* A view's failure rc (< 0) kept in s->err, the first one only. */
void sink_fail(struct sink *s, long rc);
/* How many of n rows a view shows for --top top (< 0: all). */
size_t sink_top(long top, long n);

/* "name" from the snapshot's blockdev lines, else "maj:min". */
const char *sink_dev_name(struct sink *s, uint32_t dev);
/*
 * sink_wallclock - the wall-clock time of trace time ts, from the
 * header's start_realtime_ns and start_mono_ns (a mono trace clock), in
 * UTC: "2026-12-01 13:34:56.668997 UTC" with date, else
 * "13:34:56.668997"; false (buf "") when the recording does not say
 */
bool sink_wallclock(const struct source_info *in, uint64_t ts, bool date,
		    char *buf, size_t n);
/*
 * A time for a view's rows: seconds from the first event (what --since
 * counts), or with --trace-clock of the trace clock, or with --wallclock
 * the time of day.
 */
void sink_time(const struct sink *s, char *buf, size_t n, uint64_t ts);
/*
 * sink_snapshot_line - a black-box snapshot's first line (no newline):
 * "snapshot triggered by fsync>500ms at 12.345678 s (07:45:59.5 UTC): pid
 * 12 (sqlite3) fsync(fd 5) took 612.0 ms; the window holds 40.1 s before
 * it and 5.2 s after", or "snapshot asked for (SIGUSR1) at ...", from the
 * header's snapshot and trigger keys (iorec(5)); false (nothing added)
 * for a recording that is no snapshot.
 */
struct sbuf;
bool sink_snapshot_line(const struct sink *s, struct sbuf *out);
/*
 * sink_trigger_json - the "trigger" member of findings --json: null for
 * a recording that is no snapshot, else what made it (the header's keys,
 * iorec(5)), the call or request that fired as the pass found it (its
 * path, the views' times in trace-clock ns like slow's), the window
 * around it and the sentence of sink_snapshot_line().
 */
void sink_trigger_json(const struct sink *s);

/*
 * integrity.c: what a damaged, truncated or partly unreadable recording
 * cost.  sink_damaged() says whether in is any of those;
 * sink_integrity_line() appends its one warning line (no newline) to
 * out and returns true, or appends nothing and returns false (st: the
 * pass over it, or NULL).  sink_integrity_json() writes the "integrity"
 * member of n recordings, the same object in every view (docs/json/);
 * view_integrity() writes it for the view of s (after: AFTER's pass of
 * a two-recording view, or NULL), as the JSON member or as the warning
 * lines of the damaged ones.
 */
struct sbuf;
bool sink_damaged(const struct source_info *in);
bool sink_integrity_line(const struct source_info *in,
			 const struct stats *st, struct sbuf *out);
/* A CPU's lost events (integrity's lost_cpus, summary's lost.cpus). */
struct lostcpu;
void sink_lostcpu_json(struct json *j, int cpu, const struct lostcpu *c);
void sink_integrity_json(struct json *j, const struct source_info *const *in,
			 const struct stats *const *st, int n);
void view_integrity(struct sink *s, const struct stats *after);

/* What `ioreport info` prints of one recording. */
struct info_opts {
	bool no_count;		/* the events were not read: no counts */
	bool as_json;		/* one JSON object */
	const char *csv_table;	/* the JSON's table as CSV, else NULL */
};

/*
 * view_info - the recording src (at path, with events counted) on stdout:
 * header, time span, chunks per CPU, event types, lost events, snapshot
 * summary, end reason; or its JSON, or one table of the JSON as CSV.
 * 0; 1 when stdout could not be written; or -AN_E_* with err filled.
 */
int view_info(struct source *src, const char *path, uint64_t events,
	      const struct info_opts *o, struct an_err *err);
/*
 * view_filter_kept - what the view filters of the pass kept: a text
 * line "filter: ..." (none without a filter), or the "filter" member of
 * JSON (null without one); with after (diff), both recordings' counts,
 * and "filter_after" in JSON
 */
void view_filter_kept(struct sink *s, const struct stats *after);
/*
 * sink_filter_text - what the filters of the pass st keep and kept
 * ("pid 42; kept 10 of 90 requests, 30 of 200 syscalls"), appended to
 * out; nothing without a filter
 */
struct sbuf;
void sink_filter_text(const struct stats *st, struct sbuf *out);

/* view-summary.c: the file line, the summary, the anomaly counters */
void view_head(struct sink *s);
void view_summary(struct sink *s);
void view_anomalies(struct sink *s);

/* view-requests.c: devices, the slowest requests and syscalls, snoop */
void view_devices(struct sink *s);
/*
 * view-btt.c: btt's Q2Q, phase shares and D2D seeks of the devices view
 * (its JSON's "btt" member), and the seek histograms (text only)
 */
void view_btt(struct sink *s);
void view_btt_hist(struct sink *s);
void view_slow(struct sink *s);
/*
 * Snoop: view_snoop_begin() before the pass, snoop_request() as the
 * driver's on_request hook for every completed request, then
 * view_snoop_end() after it.
 */
void view_snoop_begin(struct sink *s);
void snoop_request(const struct blk_done *d, void *sink);
void view_snoop_end(struct sink *s);

/*
 * view-procfiles.c, from stats with the attribution: the processes and
 * files views (top < 0: every row) as a text section (its head line,
 * the attribution, the table(s) and its anomalies line) or as JSON
 * members ("processes_with_calls", "processes" / "syscall_path_bytes",
 * "syscall_nopath_bytes", "files_with_io", "files"); view_attribution() writes
 * the "attribution" member (text: its lines).  The standalone views add
 * their head and anomalies (view_procfiles_head(), _anomalies()).
 */
void view_processes(struct sink *s, long top);
void view_files(struct sink *s, long top);
/* files --by: the groups and their files (view-fileowners.c), before the
 * files' own table; top as view_files()'s */
struct file_row;
/* A files row's FILE cell: its name and, in brackets, its other names
 * and "unlinked" (a table column's callback on a struct file_row). */
void view_file_cell(const void *row, bool wide, char *b, size_t n);
void print_file_owners(struct sink *s, const struct file_row *v, long n,
		       long top);
void view_attribution(struct sink *s);
void view_procfiles_head(struct sink *s);
void view_procfiles_anomalies(struct sink *s);

/* view-wa.c: write amplification, fsync cost, dirty throttling */
void view_wa(struct sink *s, long top);
void view_fsync(struct sink *s, long top);
void view_dirty(struct sink *s, long top, long rows);

/*
 * view-findings.c: the findings of s->st (stats/findings.h), top < 0
 * all: the view (text, or the JSON member "findings"); the top few at
 * the head of another view; what changed between the two recordings of
 * d (s->st is BEFORE), paired and tested (stats/diffpair.h), ranked, at
 * the head of the diff.
 */
struct diff;
void view_findings(struct sink *s, long top);
void view_findings_top(struct sink *s, long top);
void view_findings_changes(struct sink *s, const struct diff *d, long top);

/* view-diff.c: two recordings compared (s->st is BEFORE's) */
void view_diff(struct sink *s, const struct diff *d, long top);

#endif /* IOREPORT_SINK_SINK_H */
