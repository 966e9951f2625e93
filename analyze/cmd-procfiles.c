// SPDX-License-Identifier: MIT
/*
 * cmd-procfiles.c - `ioreport processes` and `ioreport files`: per
 * process and per file syscall counts, bytes, latency percentiles and
 * fsync cost, from the syscall/process/fd replay (sysreplay.h) of the
 * one-pass analysis (analysis.h), as aligned tables or JSON members.
 * view_processes(), view_files() and view_attribution() are sinks of
 * report.h: `ioreport report` prints them from its own pass.
 */
#include "config.h"

#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "cmd.h"
#include "input/source.h"
#include "replay/syscall.h"
#include "stats/account.h"
#include "replay/proctable.h"
#include "replay/block.h"
#include "stats/attrib.h"
#include "stats/fileid.h"
#include "base/err.h"
#include "driver.h"
#include "out/json.h"
#include "out/report.h"

static const char processes_usage[] =
"usage: ioreport processes [--json] [--top N] FILE\n"
"\n"
"  -j, --json           one JSON object (times in ns, sizes in bytes)\n"
"  -n, --top N          only the N processes that moved the most bytes\n"
"  -h, --help           this help\n"
"\n"
"Per process (by pid, comm after exec/rename): file syscall counts,\n"
"errors, bytes read and written, fsync cost; the block I/O attributed to\n"
"it at the device (requests, bytes, device time, journal bytes its fsyncs\n"
"waited for), time throttled by the dirty limits and blocked in D state\n"
"(iorec -p io,iowait); then per syscall kind the latency (enter -> exit)\n"
"total, average, p50, p99 and max.  Attribution rules: docs/attribution.md.\n";

static const char files_usage[] =
"usage: ioreport files [--json] [--top N] FILE\n"
"\n"
"  -j, --json           one JSON object (times in ns, sizes in bytes)\n"
"  -n, --top N          only the N files that moved the most bytes\n"
"  -h, --help           this help\n"
"\n"
"Per file: opens, reads and writes (count, bytes, latency p50/p99),\n"
"fsync cost and the block I/O attributed to it at the device.  Files are named from the start snapshot (files already\n"
"open), from the path strings of the syscall events when the kernel\n"
"gives them, from iorec's uprobes on the C library's open functions, and\n"
"from the end snapshot (files still open); a file none of these name is\n"
"listed as <unknown fd N of pid P>.  Files with the same dev:ino or path\n"
"are one row.\n";

/* ------------------------------------------------------------------ */
/* Tables: one column spec gives the header and the cells */

struct column {
	const char *head;
	bool left;
	void (*fmt)(const void *row, char *buf, size_t n);
};

static void print_table(const struct column *cols, int ncols,
			const void *rows, size_t nrows, size_t rowsize)
{
	char ***cells = xcalloc(nrows ? nrows : 1, sizeof(*cells));
	int *w = xcalloc((size_t)ncols, sizeof(*w));
	char buf[4096];

	for (int c = 0; c < ncols; c++)
		w[c] = (int)strlen(cols[c].head);
	for (size_t r = 0; r < nrows; r++) {
		cells[r] = xcalloc((size_t)ncols, sizeof(char *));
		for (int c = 0; c < ncols; c++) {
			cols[c].fmt((const char *)rows + r * rowsize, buf,
				    sizeof(buf));
			cells[r][c] = xstrdup(buf);
			if ((int)strlen(buf) > w[c])
				w[c] = (int)strlen(buf);
		}
	}
	for (int c = 0; c < ncols; c++) {
		bool last = c == ncols - 1;

		printf("%s%*s", c ? "  " : "", cols[c].left ? -(last ? 0 : w[c]) : w[c],
		       cols[c].head);
	}
	putchar('\n');
	for (size_t r = 0; r < nrows; r++) {
		for (int c = 0; c < ncols; c++) {
			bool last = c == ncols - 1;

			printf("%s%*s", c ? "  " : "",
			       cols[c].left ? -(last ? 0 : w[c]) : w[c],
			       cells[r][c]);
			free(cells[r][c]);
		}
		putchar('\n');
		free(cells[r]);
	}
	free(cells);
	free(w);
}

static void fmt_ms(char *buf, size_t n, uint64_t ns)
{
	snprintf(buf, n, "%.3f", (double)ns / 1e6);
}

static void fmt_us(char *buf, size_t n, uint64_t ns)
{
	snprintf(buf, n, "%.1f", (double)ns / 1e3);
}

static void fmt_u64(char *buf, size_t n, uint64_t v)
{
	snprintf(buf, n, "%" PRIu64, v);
}

/* ------------------------------------------------------------------ */
/* Shared: options, running the replay, the anomalies */

/*
 * The anomaly counters these views show: those of the syscall replay and
 * the attribution, then the request completions without issue.
 */
static size_t anomalies(const struct driver *a, struct anomaly *v)
{
	struct anomaly all[ANOMALIES_MAX];
	size_t n = driver_anomalies(a, all), k = 0;

	for (size_t i = 0; i < n; i++)
		if (strcmp(all[i].stage, "block"))
			v[k++] = all[i];
	for (size_t i = 0; i < n; i++)
		if (!strcmp(all[i].key, "complete_without_issue"))
			v[k++] = all[i];
	return k;
}

static void print_anomalies_text(const struct driver *a)
{
	struct anomaly v[ANOMALIES_MAX];
	size_t n = anomalies(a, v);

	printf("\nanomalies:");
	for (size_t i = 0; i < n; i++)
		printf("%s %s %" PRIu64, i ? "," : "", v[i].text, v[i].n);
	putchar('\n');
}

static void print_anomalies_json(const struct driver *a, struct json *j)
{
	struct anomaly v[ANOMALIES_MAX];
	size_t n = anomalies(a, v);

	json_object_begin(j, "anomalies");
	for (size_t i = 0; i < n; i++)
		json_u64(j, v[i].key, v[i].n);
	json_object_end(j);
}

static void print_head_text(const struct driver *a)
{
	const struct source_info *in = a->info;

	printf("%s: %.6f s, syscalls from %s%s\n", in->path,
	       a->last_ts > a->first_ts ?
	       (double)(a->last_ts - a->first_ts) / 1e9 : 0.0,
	       a->caps->raw_syscalls ? "raw_syscalls (fallback)" :
	       "syscalls:* events",
	       a->caps->proc_events ? "" :
	       "; no process events: fork/exec/exit not followed");
	if (in->integrity != SOURCE_COMPLETE)
		printf("%s at offset %" PRIu64 ": %s\n",
		       in->integrity == SOURCE_TRUNCATED ? "truncated" :
		       "corrupt", in->stop_offset,
		       in->stop_reason ? in->stop_reason : "?");
}

static void print_head_json(const struct driver *a, struct json *j)
{
	const struct source_info *in = a->info;

	json_str(j, "file", in->path);
	json_u64(j, "duration_ns", a->last_ts > a->first_ts ?
		 a->last_ts - a->first_ts : 0);
	json_bool(j, "raw_syscalls", a->caps->raw_syscalls);
	json_u64(j, "path_hints", a->dstats->path_hints);
	json_bool(j, "process_events", a->caps->proc_events);
	json_bool(j, "complete", in->integrity == SOURCE_COMPLETE);
}

/* ------------------------------------------------------------------ */
/* Block I/O attribution totals */

static double pct(uint64_t part, uint64_t all)
{
	return all ? 100.0 * (double)part / (double)all : 0.0;
}

static void print_attrib_text(const struct driver *a)
{
	const struct attrib_totals *t = attrib_totals(a->at);

	if (!a->rb) {
		printf("I/O attributed: no block requests: %s\n",
		       a->block_why ? a->block_why : "?");
		return;
	}
	if (!t->bio_events) {
		printf("I/O attributed: none: the recording lacks block:block_bio_queue (record with iorec's 'io' profile)\n");
		return;
	}
	printf("I/O attributed: %.1f%% of bytes to a process, %.1f%% to a named file; journal %.1f%%; unattributed %.1f%% (of %" PRIu64 " bytes in %" PRIu64 " requests at the device)\n",
	       pct(t->proc_bytes, t->bytes), pct(t->file_bytes, t->bytes),
	       pct(t->kind_bytes[AK_JOURNAL], t->bytes),
	       pct(t->kind_bytes[AK_UNATTRIBUTED], t->bytes), t->bytes,
	       t->requests);
	printf("  by rule (bytes): fsync %" PRIu64 ", writeback %" PRIu64
	       " (of which no dirtier known %" PRIu64 "), syscall %" PRIu64
	       ", process context %" PRIu64 ", journal %" PRIu64
	       ", unattributed %" PRIu64 "; on files known only by inode %"
	       PRIu64 "\n", t->kind_bytes[AK_FSYNC],
	       t->kind_bytes[AK_WRITEBACK], t->wb_noproc_bytes,
	       t->kind_bytes[AK_SYSCALL], t->kind_bytes[AK_CONTEXT],
	       t->kind_bytes[AK_JOURNAL], t->kind_bytes[AK_UNATTRIBUTED],
	       t->inode_bytes);
	for (size_t i = 0; i < t->njournal; i++)
		printf("  journal of %u:%u: %" PRIu64 " bytes, %" PRIu64
		       " of them in commits an fsync waited for\n",
		       t->journal[i].dev >> 20, t->journal[i].dev & 0xfffff,
		       t->journal[i].bytes, t->journal[i].fsync_bytes);
}

void view_attribution(struct sink *s)
{
	const struct driver *a = s->a;
	const struct attrib_totals *t;
	struct json *j = s->j;
	char mm[32];

	if (!j) {
		if (a->at)
			print_attrib_text(a);
		return;
	}
	if (!a->at) {
		json_null(j, "attribution");
		return;
	}
	t = attrib_totals(a->at);
	json_object_begin(j, "attribution");
	json_bool(j, "block_requests", a->rb != NULL);
	json_bool(j, "bio_events", t->bio_events);
	json_u64(j, "requests", t->requests);
	json_u64(j, "bytes", t->bytes);
	json_u64(j, "process_bytes", t->proc_bytes);
	json_u64(j, "named_file_bytes", t->file_bytes);
	json_u64(j, "inode_file_bytes", t->inode_bytes);
	json_u64(j, "journal_bytes", t->kind_bytes[AK_JOURNAL]);
	json_u64(j, "unattributed_bytes", t->kind_bytes[AK_UNATTRIBUTED]);
	json_u64(j, "writeback_no_dirtier_bytes", t->wb_noproc_bytes);
	json_object_begin(j, "by_rule");
	for (int k = 0; k < AK_NR; k++)
		json_u64(j, attrib_kind_name(k), t->kind_bytes[k]);
	json_object_end(j);
	json_array_begin(j, "journal");
	for (size_t i = 0; i < t->njournal; i++) {
		json_object_begin(j, NULL);
		snprintf(mm, sizeof(mm), "%u:%u", t->journal[i].dev >> 20,
			 t->journal[i].dev & 0xfffff);
		json_str(j, "dev", mm);
		json_u64(j, "bytes", t->journal[i].bytes);
		json_u64(j, "fsync_bytes", t->journal[i].fsync_bytes);
		json_object_end(j);
	}
	json_array_end(j);
	json_i64(j, "hz", t->hz);
	json_bool(j, "hz_guessed", t->hz_guessed);
	json_bool(j, "sched_events", t->sched_events);
	json_object_end(j);
}

static void print_dstate_note(const struct driver *a)
{
	const struct attrib_totals *t = attrib_totals(a->at);

	printf("THROTTLED: time paused by balance_dirty_pages (its pause field, ms)%s; D-STATE: %s\n",
	       t->bdp_events ? "" : " (not recorded)",
	       t->sched_events ? "time blocked in D state (sched_switch -> wakeup)" :
	       "not recorded (record with iorec -p io,iowait)");
}

static void json_lat(struct json *j, const char *key, const struct hist *h)
{
	json_object_begin(j, key);
	json_u64(j, "count", h->count);
	json_u64(j, "total_ns", h->sum);
	json_u64(j, "avg_ns", hist_avg(h));
	json_u64(j, "p50_ns", hist_pct(h, 50));
	json_u64(j, "p99_ns", hist_pct(h, 99));
	json_u64(j, "max_ns", h->max);
	json_object_end(j);
}

static void json_blk(struct json *j, const struct blkio *b)
{
	json_object_begin(j, "block");
	json_u64(j, "requests", b->requests);
	json_u64(j, "read_bytes", b->read_bytes);
	json_u64(j, "write_bytes", b->write_bytes);
	json_u64(j, "device_ns", b->dev_ns);
	json_u64(j, "journal_bytes", b->journal_bytes);
	json_object_end(j);
}

/*
 * Run the attributed analysis of the one FILE of a standalone view.
 * Returns 0, or 1 after printing the error (d closed).
 */
static int run_analysis(const char *path, struct driver *d)
{
	struct an_err err;

	memset(d, 0, sizeof(*d));
	d->want = AN_ATTRIB;
	if (driver_open(d, path, &err) < 0 || driver_run(d, &err) < 0) {
		error("%s", err.msg);
		driver_close(d);
		return 1;
	}
	if (!d->have_sys) {
		error("%s", d->sys_why);
		driver_close(d);
		return 1;
	}
	return 0;
}

/*
 * A standalone view: the head, the attribution and the view's members
 * (JSON), or the view's text section; then the warnings.
 */
static int run_standalone(int argc, char **argv, const char *usage,
			  void (*view)(struct sink *, long))
{
	struct driver a;
	struct json j;
	struct sink s;
	struct view_opts o = { .top = -1 };
	int rc = parse_view_opts(argc, argv, usage, "jn:h", 0, LONG_MAX, 1,
				 &o);

	if (rc >= 0)
		return rc;
	if (run_analysis(o.path[0], &a))
		return 1;
	rc = 0;
	sink_init(&s, &a, o.json ? &j : NULL);
	if (o.json) {
		json_init(&j, stdout);
		json_object_begin(&j, NULL);
		print_head_json(&a, &j);
		view_attribution(&s);
		view(&s, o.top);
		print_anomalies_json(&a, &j);
		json_object_end(&j);
		if (json_finish(&j) < 0)
			rc = error("cannot write the JSON output");
	} else {
		view(&s, o.top);
	}
	fflush(stdout);
	flush_warnings(a.src);
	sink_release(&s);
	driver_close(&a);
	return rc || ferror(stdout) ? 1 : 0;
}

/* ------------------------------------------------------------------ */
/* processes */

struct prow {
	const struct proc *p;
	const struct procstat *ps;
	uint64_t fsyncs;
};

struct krow {
	const struct proc *p;
	enum sys_kind k;
	const struct kstat *ks;
};

static uint64_t prow_bytes(const struct prow *r)
{
	return r->ps->read_bytes + r->ps->write_bytes +
	       r->ps->blk.read_bytes + r->ps->blk.write_bytes;
}

static int cmp_prow(const void *a, const void *b)
{
	const struct prow *x = a, *y = b;
	uint64_t bx = prow_bytes(x), by = prow_bytes(y);
	int c;

	if (bx != by)
		return bx > by ? -1 : 1;
	if (x->ps->calls != y->ps->calls)
		return x->ps->calls > y->ps->calls ? -1 : 1;
	c = strcmp(x->p->comm, y->p->comm);
	if (c)
		return c;
	if (x->p->pid != y->p->pid)
		return x->p->pid < y->p->pid ? -1 : 1;
	return x->p->id < y->p->id ? -1 : x->p->id > y->p->id;
}

#define PROW(r) ((const struct prow *)(r))
static void c_pid(const void *r, char *b, size_t n) { snprintf(b, n, "%d", PROW(r)->p->pid); }
static void c_comm(const void *r, char *b, size_t n) { snprintf(b, n, "%s", PROW(r)->p->comm); }
static void c_calls(const void *r, char *b, size_t n) { fmt_u64(b, n, PROW(r)->ps->calls); }
static void c_errs(const void *r, char *b, size_t n) { fmt_u64(b, n, PROW(r)->ps->errors); }
static void c_rbytes(const void *r, char *b, size_t n) { fmt_u64(b, n, PROW(r)->ps->read_bytes); }
static void c_wbytes(const void *r, char *b, size_t n) { fmt_u64(b, n, PROW(r)->ps->write_bytes); }
static void c_fsyncs(const void *r, char *b, size_t n) { fmt_u64(b, n, PROW(r)->fsyncs); }
static void c_fsync_tot(const void *r, char *b, size_t n) { fmt_ms(b, n, PROW(r)->ps->fsync.sum); }
static void c_fsync_max(const void *r, char *b, size_t n) { fmt_ms(b, n, PROW(r)->ps->fsync.max); }
static void c_breqs(const void *r, char *b, size_t n) { fmt_u64(b, n, PROW(r)->ps->blk.requests); }
static void c_brbytes(const void *r, char *b, size_t n) { fmt_u64(b, n, PROW(r)->ps->blk.read_bytes); }
static void c_bwbytes(const void *r, char *b, size_t n) { fmt_u64(b, n, PROW(r)->ps->blk.write_bytes); }
static void c_bdev(const void *r, char *b, size_t n) { fmt_ms(b, n, PROW(r)->ps->blk.dev_ns); }
static void c_bjrnl(const void *r, char *b, size_t n) { fmt_u64(b, n, PROW(r)->ps->blk.journal_bytes); }
static void c_throttle(const void *r, char *b, size_t n) { fmt_ms(b, n, PROW(r)->ps->throttle_ns); }
static void c_dstate(const void *r, char *b, size_t n) { fmt_ms(b, n, PROW(r)->ps->dstate_ns); }
static void c_comms(const void *r, char *b, size_t n)
{
	const struct proc *p = PROW(r)->p;

	snprintf(b, n, "%s%s", p->comms ? p->comms : p->comm,
		 p->exited ? " (exited)" : "");
}

static const struct column proc_cols[] = {
	{ "PID", false, c_pid },
	{ "COMM", true, c_comm },
	{ "CALLS", false, c_calls },
	{ "ERRS", false, c_errs },
	{ "READ(B)", false, c_rbytes },
	{ "WRITE(B)", false, c_wbytes },
	{ "FSYNCS", false, c_fsyncs },
	{ "FSYNC(ms)", false, c_fsync_tot },
	{ "FSYNC-MAX(ms)", false, c_fsync_max },
	{ "BLK-REQS", false, c_breqs },
	{ "BLK-READ(B)", false, c_brbytes },
	{ "BLK-WRITE(B)", false, c_bwbytes },
	{ "BLK-DEV(ms)", false, c_bdev },
	{ "JRNL-FSYNC(B)", false, c_bjrnl },
	{ "THROTTLED(ms)", false, c_throttle },
	{ "D-STATE(ms)", false, c_dstate },
	{ "COMMS", true, c_comms },
};

#define KROW(r) ((const struct krow *)(r))
static void k_pid(const void *r, char *b, size_t n) { snprintf(b, n, "%d", KROW(r)->p->pid); }
static void k_comm(const void *r, char *b, size_t n) { snprintf(b, n, "%s", KROW(r)->p->comm); }
static void k_kind(const void *r, char *b, size_t n) { snprintf(b, n, "%s", sys_kind_info(KROW(r)->k)->name); }
static void k_count(const void *r, char *b, size_t n) { fmt_u64(b, n, KROW(r)->ks->count); }
static void k_errs(const void *r, char *b, size_t n) { fmt_u64(b, n, KROW(r)->ks->errors); }
static void k_bytes(const void *r, char *b, size_t n) { fmt_u64(b, n, KROW(r)->ks->bytes); }
static void k_total(const void *r, char *b, size_t n) { fmt_ms(b, n, KROW(r)->ks->lat.sum); }
static void k_avg(const void *r, char *b, size_t n)
{
	const struct hist *h = &KROW(r)->ks->lat;

	fmt_us(b, n, h->count ? h->sum / h->count : 0);
}
static void k_p50(const void *r, char *b, size_t n) { fmt_us(b, n, hist_pct(&KROW(r)->ks->lat, 50)); }
static void k_p99(const void *r, char *b, size_t n) { fmt_us(b, n, hist_pct(&KROW(r)->ks->lat, 99)); }
static void k_max(const void *r, char *b, size_t n) { fmt_us(b, n, KROW(r)->ks->lat.max); }

static const struct column kind_cols[] = {
	{ "PID", false, k_pid },
	{ "COMM", true, k_comm },
	{ "SYSCALL", true, k_kind },
	{ "COUNT", false, k_count },
	{ "ERRS", false, k_errs },
	{ "BYTES", false, k_bytes },
	{ "TOTAL(ms)", false, k_total },
	{ "AVG(us)", false, k_avg },
	{ "P50(us)", false, k_p50 },
	{ "P99(us)", false, k_p99 },
	{ "MAX(us)", false, k_max },
};

/* The rows of the processes view, sorted; returns how many. */
static size_t proc_rows(const struct driver *a, struct prow **out)
{
	const struct sys_replay *run = &a->sys;
	struct prow *rows;
	size_t n = 0;

	rows = xcalloc(proctable_count(run->pt) + 1, sizeof(*rows));
	for (size_t i = 0; i < proctable_count(run->pt); i++) {
		struct proc *p = proctable_at(run->pt, i);
		struct procstat *ps = p->user;

		if (!ps || !(ps->calls || ps->blk.read_bytes ||
			     ps->blk.write_bytes || ps->blk.journal_bytes ||
			     ps->throttles || ps->dstates))
			continue;
		rows[n].p = p;
		rows[n].ps = ps;
		rows[n].fsyncs = ps->k[SK_FSYNC].count + ps->k[SK_FDATASYNC].count;
		n++;
	}
	qsort(rows, n, sizeof(*rows), cmp_prow);
	*out = rows;
	return n;
}

static void processes_json(struct json *j, const struct prow *rows,
			   size_t n, size_t total)
{
	json_u64(j, "processes_with_calls", total);
	json_array_begin(j, "processes");
	for (size_t i = 0; i < n; i++) {
		const struct proc *p = rows[i].p;
		const struct procstat *ps = rows[i].ps;

		json_object_begin(j, NULL);
		json_i64(j, "pid", p->pid);
		json_i64(j, "ppid", p->ppid);
		json_str(j, "comm", p->comm);
		json_str(j, "comms", p->comms ? p->comms : p->comm);
		json_str(j, "exe", p->exe);
		json_bool(j, "exited", p->exited);
		json_u64(j, "calls", ps->calls);
		json_u64(j, "errors", ps->errors);
		json_u64(j, "read_bytes", ps->read_bytes);
		json_u64(j, "write_bytes", ps->write_bytes);
		json_u64(j, "fsyncs", rows[i].fsyncs);
		json_lat(j, "fsync", &ps->fsync);
		json_blk(j, &ps->blk);
		json_u64(j, "throttled_ns", ps->throttle_ns);
		json_u64(j, "throttles", ps->throttles);
		json_u64(j, "dstate_ns", ps->dstate_ns);
		json_u64(j, "dstates", ps->dstates);
		json_object_begin(j, "syscalls");
		for (int k = 1; k < SK_NR; k++) {
			const struct kstat *ks = &ps->k[k];

			if (!ks->count)
				continue;
			json_object_begin(j, sys_kind_info(k)->name);
			json_u64(j, "count", ks->count);
			json_u64(j, "errors", ks->errors);
			json_u64(j, "bytes", ks->bytes);
			json_u64(j, "unpaired", ks->unpaired);
			json_lat(j, "latency", &ks->lat);
			json_object_end(j);
		}
		json_object_end(j);
		json_object_end(j);
	}
	json_array_end(j);
}

static void processes_text(const struct driver *a, const struct prow *rows,
			   size_t shown, size_t n)
{
	struct krow *krows;
	size_t nk = 0;

	print_head_text(a);
	print_attrib_text(a);
	print_dstate_note(a);
	printf("processes with file syscalls or block I/O: %zu", n);
	if (shown < n)
		printf(" (top %zu shown)", shown);
	printf("\n\n");
	print_table(proc_cols, (int)ARRAY_SIZE(proc_cols), rows, shown,
		    sizeof(*rows));
	for (size_t i = 0; i < shown; i++)
		for (int k = 1; k < SK_NR; k++)
			if (rows[i].ps->k[k].count)
				nk++;
	krows = xcalloc(nk + 1, sizeof(*krows));
	nk = 0;
	for (size_t i = 0; i < shown; i++) {
		for (int k = 1; k < SK_NR; k++) {
			if (!rows[i].ps->k[k].count)
				continue;
			krows[nk].p = rows[i].p;
			krows[nk].k = k;
			krows[nk++].ks = &rows[i].ps->k[k];
		}
	}
	printf("\nper syscall (latency enter -> exit):\n");
	print_table(kind_cols, (int)ARRAY_SIZE(kind_cols), krows, nk,
		    sizeof(*krows));
	print_anomalies_text(a);
	free(krows);
}

void view_processes(struct sink *s, long top)
{
	struct driver *a = s->a;
	struct prow *rows;
	size_t n, shown;

	if (!a->have_sys) {
		if (s->j)
			json_null(s->j, "processes");
		else
			printf("processes: none: %s\n", a->sys_why ?
			       a->sys_why : "the syscall replay was not run");
		return;
	}
	n = proc_rows(a, &rows);
	shown = top >= 0 && (size_t)top < n ? (size_t)top : n;
	if (s->j)
		processes_json(s->j, rows, shown, n);
	else
		processes_text(a, rows, shown, n);
	free(rows);
}

int cmd_processes(int argc, char **argv)
{
	return run_standalone(argc, argv, processes_usage, view_processes);
}

/* ------------------------------------------------------------------ */
/* files */

/* One line of the files view: the files of one identity merged. */
struct frow {
	const struct file *f;		/* the first (names the row) */
	struct filestat s;
};

static int cmp_ident(const void *a, const void *b)
{
	return fileid_cmp(((const struct frow *)a)->f,
			  ((const struct frow *)b)->f);
}

static uint64_t frow_bytes(const struct frow *r)
{
	return r->s.read_bytes + r->s.write_bytes + r->s.blk.read_bytes +
	       r->s.blk.write_bytes;
}

static int cmp_frow(const void *a, const void *b)
{
	const struct frow *x = a, *y = b;
	uint64_t bx = frow_bytes(x), by = frow_bytes(y);
	char nx[4096];
	int c;

	if (bx != by)
		return bx > by ? -1 : 1;
	/* file_name() may return a static buffer: copy one side. */
	snprintf(nx, sizeof(nx), "%s", file_name(x->f));
	c = strcmp(nx, file_name(y->f));
	if (c)
		return c;
	return (x->f->id > y->f->id) - (x->f->id < y->f->id);
}

static void frow_release(struct frow *r)
{
	hist_release(&r->s.rlat);
	hist_release(&r->s.wlat);
	hist_release(&r->s.fsync);
}

static void merge_filestat(struct filestat *d, const struct filestat *s)
{
	d->opens += s->opens;
	d->reads += s->reads;
	d->writes += s->writes;
	d->read_bytes += s->read_bytes;
	d->write_bytes += s->write_bytes;
	d->errors += s->errors;
	hist_merge(&d->rlat, &s->rlat);
	hist_merge(&d->wlat, &s->wlat);
	hist_merge(&d->fsync, &s->fsync);
	d->blk.requests += s->blk.requests;
	d->blk.read_bytes += s->blk.read_bytes;
	d->blk.write_bytes += s->blk.write_bytes;
	d->blk.dev_ns += s->blk.dev_ns;
	d->blk.journal_bytes += s->blk.journal_bytes;
}

#define FROW(r) ((const struct frow *)(r))
static void f_name(const void *r, char *b, size_t n) { snprintf(b, n, "%s", file_name(FROW(r)->f)); }
static void f_devino(const void *r, char *b, size_t n)
{
	const struct file *f = FROW(r)->f;

	if (f->has_devino)
		snprintf(b, n, "%u:%u:%" PRIu64, f->major, f->minor, f->ino);
	else
		snprintf(b, n, "-");
}
static void f_opens(const void *r, char *b, size_t n) { fmt_u64(b, n, FROW(r)->s.opens); }
static void f_reads(const void *r, char *b, size_t n) { fmt_u64(b, n, FROW(r)->s.reads); }
static void f_rbytes(const void *r, char *b, size_t n) { fmt_u64(b, n, FROW(r)->s.read_bytes); }
static void f_rp50(const void *r, char *b, size_t n) { fmt_us(b, n, hist_pct(&FROW(r)->s.rlat, 50)); }
static void f_rp99(const void *r, char *b, size_t n) { fmt_us(b, n, hist_pct(&FROW(r)->s.rlat, 99)); }
static void f_writes(const void *r, char *b, size_t n) { fmt_u64(b, n, FROW(r)->s.writes); }
static void f_wbytes(const void *r, char *b, size_t n) { fmt_u64(b, n, FROW(r)->s.write_bytes); }
static void f_wp50(const void *r, char *b, size_t n) { fmt_us(b, n, hist_pct(&FROW(r)->s.wlat, 50)); }
static void f_wp99(const void *r, char *b, size_t n) { fmt_us(b, n, hist_pct(&FROW(r)->s.wlat, 99)); }
static void f_fsyncs(const void *r, char *b, size_t n) { fmt_u64(b, n, FROW(r)->s.fsync.count); }
static void f_fsync_tot(const void *r, char *b, size_t n) { fmt_ms(b, n, FROW(r)->s.fsync.sum); }
static void f_fsync_max(const void *r, char *b, size_t n) { fmt_ms(b, n, FROW(r)->s.fsync.max); }

static void f_breqs(const void *r, char *b, size_t n) { fmt_u64(b, n, FROW(r)->s.blk.requests); }
static void f_brbytes(const void *r, char *b, size_t n) { fmt_u64(b, n, FROW(r)->s.blk.read_bytes); }
static void f_bwbytes(const void *r, char *b, size_t n) { fmt_u64(b, n, FROW(r)->s.blk.write_bytes); }
static void f_bdev(const void *r, char *b, size_t n) { fmt_ms(b, n, FROW(r)->s.blk.dev_ns); }
static void f_bjrnl(const void *r, char *b, size_t n) { fmt_u64(b, n, FROW(r)->s.blk.journal_bytes); }

static const struct column file_cols[] = {
	{ "DEV:INO", true, f_devino },
	{ "OPENS", false, f_opens },
	{ "READS", false, f_reads },
	{ "READ(B)", false, f_rbytes },
	{ "R-P50(us)", false, f_rp50 },
	{ "R-P99(us)", false, f_rp99 },
	{ "WRITES", false, f_writes },
	{ "WRITE(B)", false, f_wbytes },
	{ "W-P50(us)", false, f_wp50 },
	{ "W-P99(us)", false, f_wp99 },
	{ "FSYNCS", false, f_fsyncs },
	{ "FSYNC(ms)", false, f_fsync_tot },
	{ "FSYNC-MAX(ms)", false, f_fsync_max },
	{ "BLK-REQS", false, f_breqs },
	{ "BLK-READ(B)", false, f_brbytes },
	{ "BLK-WRITE(B)", false, f_bwbytes },
	{ "BLK-DEV(ms)", false, f_bdev },
	{ "JRNL-FSYNC(B)", false, f_bjrnl },
	{ "FILE", true, f_name },
};

/* The rows of the files view, merged by identity and sorted. */
static size_t file_rows(const struct driver *a, struct frow **out)
{
	const struct sys_replay *run = &a->sys;
	size_t n = 0, m = 0, nf = filetab_count(run->ft);
	struct frow *rows = xcalloc(nf + 1, sizeof(*rows));

	for (size_t i = 0; i < nf; i++) {
		struct file *f = filetab_at(run->ft, i);
		const struct filestat *s = f->user;

		if (!s || !(s->opens || s->reads || s->writes ||
			    s->fsync.count || s->blk.read_bytes ||
			    s->blk.write_bytes || s->blk.journal_bytes))
			continue;
		rows[n].f = f;
		merge_filestat(&rows[n].s, s);
		n++;
	}
	/* Merge the files of one identity (dev:ino, or path). */
	qsort(rows, n, sizeof(*rows), cmp_ident);
	for (size_t i = 0; i < n; i++) {
		if (m && fileid_same(rows[m - 1].f, rows[i].f)) {
			merge_filestat(&rows[m - 1].s, &rows[i].s);
			frow_release(&rows[i]);
			continue;
		}
		if (m != i)
			rows[m] = rows[i];
		m++;
	}
	qsort(rows, m, sizeof(*rows), cmp_frow);
	*out = rows;
	return m;
}

static void files_json(const struct driver *a, struct json *j,
		       const struct frow *rows, size_t n, size_t total)
{
	const struct sys_replay *run = &a->sys;
	char mm[32];

	json_u64(j, "named_bytes", run->acct.st.named_bytes);
	json_u64(j, "unnamed_bytes", run->acct.st.unnamed_bytes);
	json_u64(j, "files_with_io", total);
	json_array_begin(j, "files");
	for (size_t i = 0; i < n; i++) {
		const struct file *f = rows[i].f;
		const struct filestat *s = &rows[i].s;

		json_object_begin(j, NULL);
		json_str(j, "path", f->path);
		json_str(j, "name", file_name(f));
		if (f->has_devino) {
			snprintf(mm, sizeof(mm), "%u:%u", f->major, f->minor);
			json_str(j, "dev", mm);
			json_u64(j, "ino", f->ino);
		} else {
			json_null(j, "dev");
			json_null(j, "ino");
		}
		json_u64(j, "opens", s->opens);
		json_u64(j, "reads", s->reads);
		json_u64(j, "read_bytes", s->read_bytes);
		json_u64(j, "writes", s->writes);
		json_u64(j, "write_bytes", s->write_bytes);
		json_u64(j, "errors", s->errors);
		json_lat(j, "read_latency", &s->rlat);
		json_lat(j, "write_latency", &s->wlat);
		json_lat(j, "fsync", &s->fsync);
		json_blk(j, &s->blk);
		json_object_end(j);
	}
	json_array_end(j);
}

static void files_text(const struct driver *a, const struct frow *rows,
		       size_t shown, size_t m)
{
	const struct sys_replay *run = &a->sys;
	uint64_t all = run->acct.st.named_bytes + run->acct.st.unnamed_bytes;

	print_head_text(a);
	print_attrib_text(a);
	printf("files with I/O: %zu", m);
	if (shown < m)
		printf(" (top %zu shown)", shown);
	printf("; bytes on named files: %" PRIu64 " of %" PRIu64
	       " (%.1f%%)%s\n\n", run->acct.st.named_bytes, all,
	       all ? 100.0 * (double)run->acct.st.named_bytes / (double)all :
	       100.0,
	       a->dstats->path_strings ? "" : a->dstats->path_hints ?
	       "; names of files opened during the recording come from libc uprobes" :
	       "; no path strings in the syscall events and no libc uprobes: files opened during the recording are named only from the end snapshot");
	print_table(file_cols, (int)ARRAY_SIZE(file_cols), rows, shown,
		    sizeof(*rows));
	print_anomalies_text(a);
}

void view_files(struct sink *s, long top)
{
	struct driver *a = s->a;
	struct frow *rows;
	size_t m, shown;

	if (!a->have_sys) {
		if (s->j)
			json_null(s->j, "files");
		else
			printf("files: none: %s\n", a->sys_why ?
			       a->sys_why : "the syscall replay was not run");
		return;
	}
	m = file_rows(a, &rows);
	shown = top >= 0 && (size_t)top < m ? (size_t)top : m;
	if (s->j)
		files_json(a, s->j, rows, shown, m);
	else
		files_text(a, rows, shown, m);
	for (size_t i = 0; i < m; i++)
		frow_release(&rows[i]);
	free(rows);
}

int cmd_files(int argc, char **argv)
{
	return run_standalone(argc, argv, files_usage, view_files);
}
