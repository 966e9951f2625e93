// SPDX-License-Identifier: MIT
/*
 * view-procfiles.c - the processes and files views and the attribution
 * totals, as aligned tables or JSON members (see sink.h), from the rows
 * of stats/rows.h.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "base/blk.h"
#include "base/err.h"
#include "sbuf.h"
#include "input/meta.h"
#include "stats/attrib.h"
#include "stats/owner.h"
#include "stats/rows.h"
#include "sink/json.h"
#include "sink/sink.h"
#include "sink/table.h"

/* ------------------------------------------------------------------ */
/* Head and anomalies */

/*
 * The anomaly counters these views show: those of the syscall replay and
 * the attribution, then the request completions without issue.
 */
static size_t anomalies(const struct stats *a, struct anomaly *v)
{
	const struct anomaly *all = a->anom;
	size_t n = a->nanom, k = 0;

	for (size_t i = 0; i < n; i++)
		if (strcmp(all[i].stage, "block"))
			v[k++] = all[i];
	for (size_t i = 0; i < n; i++)
		if (!strcmp(all[i].key, "complete_without_issue"))
			v[k++] = all[i];
	return k;
}

/* Text: the counters that are not zero (all with --wide), wrapped. */
static void print_anomalies_text(struct sink *s)
{
	struct anomaly v[ANOMALIES_MAX];
	size_t n = anomalies(s->st, v);
	struct sink_line l;

	fputc('\n', s->out);
	sink_line_begin(&l, s, "", "anomalies:");
	for (size_t i = 0; i < n; i++)
		if (v[i].n || s->wide)
			sink_line_add(&l, "%s %" PRIu64, v[i].text, v[i].n);
	if (!l.items)
		sink_line_add(&l, "none");
	sink_line_end(&l);
}

static void print_anomalies_json(const struct stats *a, struct json *j)
{
	struct anomaly v[ANOMALIES_MAX];
	size_t n = anomalies(a, v);

	json_object_begin(j, "anomalies");
	for (size_t i = 0; i < n; i++)
		json_u64(j, v[i].key, v[i].n);
	json_object_end(j);
}

static void print_head_text(const struct sink *s)
{
	const struct stats *a = s->st;
	const struct source_info *in = a->info;
	char abi[32] = "";

	struct sbuf cs = SBUF_INIT;

	if (a->compat_raw) {
		meta_kv(in->header_text, "compat_abi", abi, sizeof(abi));
		sbuf_addf(&cs, ", 32-bit (%s) programs' from raw_syscalls: %"
			  PRIu64 " calls", abi, a->compat_calls);
	}
	sink_printf(s, "%s: %.6f s, syscalls from %s%s%s\n", in->path,
	       (double)stats_duration(a) / 1e9,
	       a->raw_syscalls ? "raw_syscalls (fallback)" :
	       "syscalls:* events", cs.buf ? cs.buf : "",
	       a->proc_events ? "" :
	       "; no process events: fork/exec/exit not followed");
	sbuf_release(&cs);
}

static void print_head_json(const struct stats *a, struct json *j)
{
	const struct source_info *in = a->info;
	char buf[1024];

	json_str(j, "recording", in->path);
	json_u64(j, "duration_ns", stats_duration(a));
	json_bool(j, "raw_syscalls", a->raw_syscalls);
	json_u64(j, "path_hints", a->path_hints);
	if (a->compat_raw)
		json_u64(j, "compat_calls", a->compat_calls);
	if (meta_kv(in->header_text, "name_sources", buf, sizeof(buf)))
		json_str(j, "name_sources", buf);
	if (meta_limit(in->header_text, 1, buf, sizeof(buf))) {
		json_array_begin(j, "limits");
		for (int i = 1; i <= META_LIMITS; i++)
			if (meta_limit(in->header_text, i, buf, sizeof(buf)))
				json_str(j, NULL, buf);
		json_array_end(j);
	}
	json_bool(j, "process_events", a->proc_events);
}

/* "comms": every name a process had (a comma-separated list) as an array. */
static void json_comms(struct json *j, const char *comms)
{
	const char *p = comms, *c;

	json_array_begin(j, "comms");
	while (p && *p) {
		c = strchr(p, ',');
		json_strn(j, NULL, p, c ? (size_t)(c - p) : strlen(p));
		p = c ? c + 1 : NULL;
	}
	json_array_end(j);
}

/* ------------------------------------------------------------------ */
/* Block I/O attribution totals */

static double pct(uint64_t part, uint64_t all)
{
	return all ? 100.0 * (double)part / (double)all : 0.0;
}

static void print_attrib_text(const struct sink *s)
{
	const struct stats *a = s->st;
	const struct attrib_totals *t = attrib_totals(a->at);
	char meta[64] = "", mm[BLK_DEV_STRLEN], up[BLK_DEV_STRLEN];
	char stk[160] = "";
	uint64_t all = attrib_counted_bytes(t);

	if (!a->have_block) {
		sink_printf(s, "I/O attributed: no block requests: %s\n",
		       a->block_why ? a->block_why : "?");
		return;
	}
	if (!t->bio_events) {
		sink_printf(s, "I/O attributed: none: the recording lacks block:block_bio_queue (record with iorec's 'io' profile)\n");
		return;
	}
	if (t->kind_bytes[AK_METADATA])
		snprintf(meta, sizeof(meta), "; file-system metadata %.1f%%",
			 pct(t->kind_bytes[AK_METADATA], all));
	if (t->kind_bytes[AK_STACKED])
		snprintf(stk, sizeof(stk), "; each byte once: %" PRIu64 " more that a device did for one stacked on it are counted on that one",
			 t->kind_bytes[AK_STACKED]);
	sink_printf(s, "I/O attributed: %.1f%% of the device bytes to a process, %.1f%% to a named file; journal %.1f%%%s; unattributed %.1f%% (of %" PRIu64 " bytes in %" PRIu64 " requests at the device%s)\n",
	       pct(t->proc_bytes, all), pct(t->file_bytes, all),
	       pct(t->kind_bytes[AK_JOURNAL], all), meta,
	       pct(t->kind_bytes[AK_UNATTRIBUTED], all), all,
	       t->requests, stk);
	sink_printf(s, "  by rule (bytes): fsync %" PRIu64 ", writeback %" PRIu64
	       " (of which no dirtier known %" PRIu64 "), syscall %" PRIu64
	       ", process context %" PRIu64
	       " (of which file-system metadata read %" PRIu64 ")"
	       ", journal %" PRIu64
	       ", metadata %" PRIu64
	       ", unattributed %" PRIu64 ", stacked %" PRIu64
	       "; on files known only by inode %" PRIu64
	       ", only by an fd %" PRIu64 "\n", t->kind_bytes[AK_FSYNC],
	       t->kind_bytes[AK_WRITEBACK], t->wb_noproc_bytes,
	       t->kind_bytes[AK_SYSCALL], t->kind_bytes[AK_CONTEXT],
	       t->fsmeta_read_bytes,
	       t->kind_bytes[AK_JOURNAL], t->kind_bytes[AK_METADATA],
	       t->kind_bytes[AK_UNATTRIBUTED], t->kind_bytes[AK_STACKED],
	       t->inode_bytes, t->nameless_bytes);
	for (size_t i = 0; i < t->njournal; i++)
		sink_printf(s, "  journal of %s: %" PRIu64 " bytes, %" PRIu64
		       " of them in commits an fsync waited for\n",
		       blk_dev_str(t->journal[i].dev, mm, sizeof(mm)),
		       t->journal[i].bytes, t->journal[i].fsync_bytes);
	for (size_t i = 0; i < t->nstacked; i++)
		sink_printf(s, "  stacked: %s did %" PRIu64
			    " bytes for %s above it\n",
			    blk_dev_str(t->stacked[i].dev, mm, sizeof(mm)),
			    t->stacked[i].bytes,
			    blk_dev_str(t->stacked[i].upper, up, sizeof(up)));
}

void view_attribution(struct sink *s)
{
	const struct stats *a = s->st;
	const struct attrib_totals *t;
	struct json *j = s->j;
	char mm[32];

	if (!j) {
		if (a->at)
			print_attrib_text(s);
		return;
	}
	if (!a->at) {
		json_null(j, "attribution");
		return;
	}
	t = attrib_totals(a->at);
	json_object_begin(j, "attribution");
	json_bool(j, "block_requests", a->have_block);
	json_bool(j, "bio_events", t->bio_events);
	json_u64(j, "requests", t->requests);
	json_u64(j, "bytes", t->bytes);
	json_u64(j, "stacked_bytes", t->kind_bytes[AK_STACKED]);
	json_u64(j, "counted_bytes", t->bytes - t->kind_bytes[AK_STACKED]);
	json_u64(j, "process_bytes", t->proc_bytes);
	json_u64(j, "named_file_bytes", t->file_bytes);
	json_u64(j, "inode_file_bytes", t->inode_bytes);
	json_u64(j, "fd_file_bytes", t->nameless_bytes);
	json_u64(j, "journal_bytes", t->kind_bytes[AK_JOURNAL]);
	json_u64(j, "unattributed_bytes", t->kind_bytes[AK_UNATTRIBUTED]);
	json_u64(j, "writeback_no_dirtier_bytes", t->wb_noproc_bytes);
	json_u64(j, "fsmeta_read_bytes", t->fsmeta_read_bytes);
	json_object_begin(j, "by_rule");
	for (int k = 0; k < AK_NR; k++)
		json_u64(j, attrib_kind_name(k), t->kind_bytes[k]);
	json_object_end(j);
	json_array_begin(j, "journal");
	for (size_t i = 0; i < t->njournal; i++) {
		json_object_begin(j, NULL);
		json_str(j, "dev", blk_dev_str(t->journal[i].dev, mm,
					       sizeof(mm)));
		json_u64(j, "bytes", t->journal[i].bytes);
		json_u64(j, "fsync_bytes", t->journal[i].fsync_bytes);
		json_object_end(j);
	}
	json_array_end(j);
	json_array_begin(j, "stacked");
	for (size_t i = 0; i < t->nstacked; i++) {
		json_object_begin(j, NULL);
		json_str(j, "dev", blk_dev_str(t->stacked[i].dev, mm,
					       sizeof(mm)));
		json_str(j, "upper", blk_dev_str(t->stacked[i].upper, mm,
						 sizeof(mm)));
		json_u64(j, "bytes", t->stacked[i].bytes);
		json_object_end(j);
	}
	json_array_end(j);
	json_i64(j, "hz", t->hz);
	json_bool(j, "hz_guessed", t->hz_guessed);
	json_bool(j, "sched_events", t->sched_events);
	json_object_end(j);
}

static void print_dstate_note(const struct sink *s)
{
	const struct stats *a = s->st;
	const struct attrib_totals *t = attrib_totals(a->at);

	sink_printf(s, "THROTTLED: time paused by balance_dirty_pages (its pause field, ms)%s; D-STATE: %s\n",
	       t->bdp_events ? "" : " (not recorded)",
	       t->sched_events ? "time blocked in D state (sched_switch -> wakeup)" :
	       "not recorded (record with iorec -p io,iowait)");
}


static const struct json_u64_field blk_fields[] = {
	JSON_U64("requests", struct blkio, requests),
	JSON_U64("read_bytes", struct blkio, read_bytes),
	JSON_U64("write_bytes", struct blkio, write_bytes),
	JSON_U64("d2c_sum_ns", struct blkio, dev_ns),
	JSON_U64("journal_bytes", struct blkio, journal_bytes),
};

static void json_blk(struct json *j, const struct blkio *b)
{
	json_object_begin(j, "block");
	json_u64s(j, b, blk_fields, ARRAY_SIZE(blk_fields));
	json_object_end(j);
}

/* ------------------------------------------------------------------ */
/* processes */

struct krow {
	const struct proc_info *p;
	enum sys_kind k;
	const struct kstat *ks;
};

/*
 * The number columns, headed h (nh in the default table, NULL: --wide
 * only): a member of the row's procstat (PS), kstat (KS) or filestat
 * (FS) in a cell format of table.h; a latency percentile in us.
 */
#define PS(h, nh, nf, member) \
	COL_AT(h, nh, nf, struct proc_row, ps, struct procstat, member)
#define KS(h, nf, member) \
	COL_AT(h, h, nf, struct krow, ks, struct kstat, member)
#define KS_PCT(h, q) \
	COL_PCT(h, h, table_us, struct krow, ks, struct kstat, lat, q)
#define FS(h, nh, nf, member) \
	COL_AT(h, nh, nf, struct file_row, s, struct filestat, member)
#define FS_PCT(h, nh, member, q) \
	COL_PCT(h, nh, table_us, struct file_row, s, struct filestat, member, \
		q)

#define PROW(r) ((const struct proc_row *)(r))
static void c_pid(const void *r, bool wide, char *b, size_t n)
{
	(void)wide;
	snprintf(b, n, "%d", PROW(r)->p.pid);
}

/* The comm, cut to 16 characters in the default table. */
static void c_comm(const void *r, bool wide, char *b, size_t n)
{
	const char *c = PROW(r)->p.comm ? PROW(r)->p.comm : "";

	if (wide)
		snprintf(b, n, "%s", PROW(r)->p.comm);
	else
		snprintf(b, n, strlen(c) > 16 ? "%.15s~" : "%s", c);
}

/* Its own reads' and writes' count, bytes and sequential ones. */
static uint64_t shape_sum(const void *r, uint64_t *bytes, uint64_t *seq)
{
	const struct blkshape *sh = PROW(r)->ps->shape;

	*bytes = sh ? sh->sizes[0].bytes + sh->sizes[1].bytes : 0;
	*seq = sh ? sh->seq[0] + sh->seq[1] : 0;
	return sh ? sh->sizes[0].count + sh->sizes[1].count : 0;
}

/*
 * Its own requests' average size and sequential share (a whole percent
 * in the default table), "-" without.
 */
static void c_rqsize(const void *r, bool wide, char *b, size_t n)
{
	uint64_t bytes, seq, c = shape_sum(r, &bytes, &seq);

	if (c)
		table_bytes(b, n, bytes / c, wide);
	else
		snprintf(b, n, "-");
}

static void c_seq(const void *r, bool wide, char *b, size_t n)
{
	uint64_t bytes, seq, c = shape_sum(r, &bytes, &seq);

	if (c)
		snprintf(b, n, wide ? "%.1f" : "%.0f",
			 100.0 * (double)seq / (double)c);
	else
		snprintf(b, n, "-");
}

static void c_comms(const void *r, bool wide, char *b, size_t n)
{
	const struct proc_info *p = &PROW(r)->p;

	(void)wide;
	snprintf(b, n, "%s%s", p->comms ? p->comms : p->comm,
		 p->exited ? " (exited)" : "");
}

static void c_unit(const void *r, bool wide, char *b, size_t n)
{
	const struct proc_info *p = &PROW(r)->p;

	(void)wide;
	snprintf(b, n, "%s", p->unit ? p->unit : "-");
}

static void c_container(const void *r, bool wide, char *b, size_t n)
{
	const struct proc_info *p = &PROW(r)->p;

	(void)wide;
	snprintf(b, n, "%s", p->container ? p->container : "-");
}

static const struct column proc_cols[] = {
	COL_FN("PID", "PID", false, c_pid),
	COL_FN("COMM", "COMM", true, c_comm),
	PS("CALLS", "CALLS", table_u64, calls),
	PS("ERRS", NULL, table_u64, errors),
	PS("READ(B)", "READ", table_bytes, read_bytes),
	PS("WRITE(B)", "WRITE", table_bytes, write_bytes),
	COL_U64("FSYNCS", "FSYNC", table_u64, struct proc_row, fsyncs),
	PS("FSYNC-SUM(ms)", NULL, table_ms, fsync.sum),
	PS("FSYNC-MAX(ms)", "FS-MAX(ms)", table_ms, fsync.max),
	PS("BLK-REQS", NULL, table_u64, blk.requests),
	PS("BLK-READ(B)", "BLK-R", table_bytes, blk.read_bytes),
	PS("BLK-WRITE(B)", "BLK-W", table_bytes, blk.write_bytes),
	PS("BLK-DEV-SUM(ms)", "DEV-SUM(ms)", table_ms, blk.dev_ns),
	COL_FN("BLK-AVG-RQ(B)", "RQ-SZ", false, c_rqsize),
	COL_FN("BLK-SEQ%", "SEQ", false, c_seq),
	PS("JRNL-FSYNC(B)", NULL, table_bytes, blk.journal_bytes),
	PS("THROTTLED-SUM(ms)", NULL, table_ms, throttle_ns),
	PS("D-STATE-SUM(ms)", NULL, table_ms, dstate_ns),
	COL_FN("UNIT", NULL, true, c_unit),
	COL_FN("CONTAINER", NULL, true, c_container),
	COL_FN("COMMS", NULL, true, c_comms),
};

#define KROW(r) ((const struct krow *)(r))
static void k_pid(const void *r, bool wide, char *b, size_t n)
{
	(void)wide;
	snprintf(b, n, "%d", KROW(r)->p->pid);
}

static void k_comm(const void *r, bool wide, char *b, size_t n)
{
	(void)wide;
	snprintf(b, n, "%s", KROW(r)->p->comm);
}

static void k_kind(const void *r, bool wide, char *b, size_t n)
{
	(void)wide;
	snprintf(b, n, "%s", sys_kind_info(KROW(r)->k)->name);
}

/* Per syscall: one layout, printed as the wide one (width 0). */
static const struct column kind_cols[] = {
	COL_FN("PID", "PID", false, k_pid),
	COL_FN("COMM", "COMM", true, k_comm),
	COL_FN("SYSCALL", "SYSCALL", true, k_kind),
	KS("COUNT", table_u64, count),
	KS("ERRS", table_u64, errors),
	KS("BYTES", table_u64, bytes),
	KS("SUM(ms)", table_ms, lat.sum),
	COL_AVG("AVG(us)", "AVG(us)", table_us, struct krow, ks, struct kstat,
		lat),
	KS_PCT("P50(us)", 50),
	KS_PCT("P99(us)", 99),
	KS("MAX(us)", table_us, lat.max),
};

static const struct json_u64_field proc_fields[] = {
	JSON_U64("calls", struct procstat, calls),
	JSON_U64("errors", struct procstat, errors),
	JSON_U64("read_bytes", struct procstat, read_bytes),
	JSON_U64("write_bytes", struct procstat, write_bytes),
};

static const struct json_u64_field kstat_fields[] = {
	JSON_U64("count", struct kstat, count),
	JSON_U64("errors", struct kstat, errors),
	JSON_U64("bytes", struct kstat, bytes),
	JSON_U64("unpaired", struct kstat, unpaired),
};

/*
 * A process's own reads and writes (it owns a request's first bio):
 * their sizes (bitesize) and how many were sequential on their device.
 */
static void json_shape(struct json *j, const struct blkshape *sh)
{
	static const char *const dir[2] = { "read", "write" };
	static const struct sizehist none;

	json_object_begin(j, "request_shape");
	for (int w = 0; w < 2; w++) {
		json_object_begin(j, dir[w]);
		json_sizes(j, "sizes", sh ? &sh->sizes[w] : &none);
		json_u64(j, "sequential", sh ? sh->seq[w] : 0);
		json_u64(j, "random", sh ? sh->sizes[w].count - sh->seq[w] : 0);
		json_object_end(j);
	}
	json_object_end(j);
}

static void processes_json(struct sink *s, const void *v, size_t n,
			   size_t total)
{
	const struct proc_row *rows = v;
	struct json *j = s->j;

	json_u64(j, "processes_with_calls", total);
	json_array_begin(j, "processes");
	for (size_t i = 0; i < n; i++) {
		const struct proc_info *p = &rows[i].p;
		const struct procstat *ps = rows[i].ps;

		json_object_begin(j, NULL);
		json_i64(j, "pid", p->pid);
		json_i64(j, "ppid", p->ppid);
		json_str(j, "comm", p->comm);
		json_comms(j, p->comms ? p->comms : p->comm);
		json_str(j, "exe", p->exe);
		json_bool(j, "exited", p->exited);
		json_str(j, "unit", p->unit);
		json_str(j, "container", p->container);
		json_str(j, "cgroup", p->cgroup[0] ? p->cgroup : NULL);
		json_u64s(j, ps, proc_fields, ARRAY_SIZE(proc_fields));
		json_u64(j, "fsyncs", rows[i].fsyncs);
		json_lat(j, "fsync", &ps->fsync);
		json_blk(j, &ps->blk);
		json_shape(j, ps->shape);
		json_u64(j, "throttled_ns", ps->throttle_ns);
		json_u64(j, "throttles", ps->throttles);
		json_u64(j, "dstate_ns", ps->dstate_ns);
		json_u64(j, "dstates", ps->dstates);
		json_object_begin(j, "syscalls");
		for (int k = 1; k < SK_NR; k++) {
			const struct kstat *ks = procstat_kind(ps, k);

			if (!ks->count)
				continue;
			json_object_begin(j, sys_kind_info(k)->name);
			json_u64s(j, ks, kstat_fields, ARRAY_SIZE(kstat_fields));
			json_lat(j, "latency", &ks->lat);
			json_object_end(j);
		}
		json_object_end(j);
		json_object_end(j);
	}
	json_array_end(j);
}

static void print_owners(struct sink *s, const struct proc_row *rows,
			 long n);

static int processes_text(struct sink *s, const void *v, size_t shown,
			  size_t n)
{
	const struct proc_row *rows = v;
	FILE *out = s->out;
	struct krow *krows;
	size_t nk = 0;
	int rc;

	print_head_text(s);
	print_attrib_text(s);
	print_dstate_note(s);
	print_owners(s, rows, (long)n);
	fprintf(out, "processes with file syscalls or block I/O: %zu", n);
	if (shown < n)
		fprintf(out, " (top %zu shown)", shown);
	fprintf(out, "\n\n");
	rc = table_print(out, s->wide ? 0 : SINK_WIDTH, proc_cols,
			 (int)ARRAY_SIZE(proc_cols), rows, shown,
			 sizeof(*rows));
	for (size_t i = 0; i < shown; i++)
		for (int k = 1; k < SK_NR; k++)
			if (procstat_kind(rows[i].ps, k)->count)
				nk++;
	krows = an_calloc(nk + 1, sizeof(*krows));
	if (!krows)
		return -AN_E_NOMEM;
	nk = 0;
	for (size_t i = 0; i < shown; i++) {
		for (int k = 1; k < SK_NR; k++) {
			if (!procstat_kind(rows[i].ps, k)->count)
				continue;
			krows[nk].p = &rows[i].p;
			krows[nk].k = k;
			krows[nk++].ks = procstat_kind(rows[i].ps, k);
		}
	}
	fprintf(out, "\nper syscall (latency enter -> exit):\n");
	if (!rc)
		rc = table_print(out, 0, kind_cols, (int)ARRAY_SIZE(kind_cols),
				 krows, nk, sizeof(*krows));
	print_anomalies_text(s);
	free(krows);
	return rc;
}

/*
 * A view of rows (processes, files): its table (CSV is its wide layout),
 * its JSON members and its text section, of the top shown of n rows.
 */
struct rows_view {
	const struct column *cols;
	size_t ncols, rowsize;
	void (*json)(struct sink *s, const void *rows, size_t shown, size_t n);
	int (*text)(struct sink *s, const void *rows, size_t shown, size_t n);
};

/* The n rows of v (n < 0: their failure), top of them (< 0: all). */
static void print_rows(struct sink *s, const struct rows_view *v,
		       const void *rows, long n, long top)
{
	size_t shown = sink_top(top, n);

	if (n < 0)
		sink_fail(s, n);
	else if (s->j)
		v->json(s, rows, shown, (size_t)n);
	else
		sink_fail(s, v->text(s, rows, shown, (size_t)n));
}

/* Without the syscall replay a view has nothing: say so (null in JSON). */
static bool no_syscalls(struct sink *s, const char *view)
{
	const struct stats *a = s->st;

	if (a->have_sys)
		return false;
	if (s->j)
		json_null(s->j, view);
	else
		fprintf(s->out, "%s: none: %s\n", view, a->sys_why ?
			a->sys_why : "the syscall replay was not run");
	return true;
}

/* The processes view: its table, JSON and text. */
static const struct rows_view processes_view = {
	proc_cols, ARRAY_SIZE(proc_cols), sizeof(struct proc_row),
	processes_json, processes_text,
};

/* --by: the processes summed per unit, container or cgroup */
#define OROW(r) ((const struct owner_row *)(r))
static void o_key(const void *r, bool wide, char *b, size_t n)
{
	(void)wide;
	snprintf(b, n, "%s", OROW(r)->key);
}

static const struct column owner_cols[] = {
	COL_U64("PROCS", "PROCS", table_u64, struct owner_row, procs),
	COL_U64("CALLS", "CALLS", table_u64, struct owner_row, calls),
	COL_U64("ERRS", NULL, table_u64, struct owner_row, errors),
	COL_U64("READ(B)", "READ", table_bytes, struct owner_row, read_bytes),
	COL_U64("WRITE(B)", "WRITE", table_bytes, struct owner_row,
		write_bytes),
	COL_U64("FSYNCS", "FSYNC", table_u64, struct owner_row, fsyncs),
	COL_U64("FSYNC-SUM(ms)", "FSYNC-SUM(ms)", table_ms, struct owner_row,
		fsync_ns),
	COL_U64("FSYNC-MAX(ms)", NULL, table_ms, struct owner_row,
		fsync_max_ns),
	COL_U64("BLK-REQS", NULL, table_u64, struct owner_row, blk.requests),
	COL_U64("BLK-READ(B)", "BLK-R", table_bytes, struct owner_row,
		blk.read_bytes),
	COL_U64("BLK-WRITE(B)", "BLK-W", table_bytes, struct owner_row,
		blk.write_bytes),
	COL_U64("BLK-DEV-SUM(ms)", "DEV-SUM(ms)", table_ms, struct owner_row,
		blk.dev_ns),
	COL_U64("JRNL-FSYNC(B)", NULL, table_bytes, struct owner_row,
		blk.journal_bytes),
	COL_U64("THROTTLED-SUM(ms)", NULL, table_ms, struct owner_row,
		throttle_ns),
	COL_U64("D-STATE-SUM(ms)", NULL, table_ms, struct owner_row,
		dstate_ns),
	COL_FN("OWNER", "OWNER", true, o_key),
};

/* The groups' members are named as the processes' members they sum. */
static void owners_json(struct json *j, const struct owner_row *v, long n,
			const char *by)
{
	json_str(j, "by", by);
	json_array_begin(j, "groups");
	for (long i = 0; i < n; i++) {
		json_object_begin(j, NULL);
		/* null as the processes' own unit, container or cgroup */
		json_str(j, by, v[i].none ? NULL : v[i].key);
		json_u64(j, "processes", v[i].procs);
		json_u64(j, "calls", v[i].calls);
		json_u64(j, "errors", v[i].errors);
		json_u64(j, "read_bytes", v[i].read_bytes);
		json_u64(j, "write_bytes", v[i].write_bytes);
		json_u64(j, "fsyncs", v[i].fsyncs);
		json_object_begin(j, "fsync");
		json_u64(j, "count", v[i].fsync_count);
		json_u64(j, "sum_ns", v[i].fsync_ns);
		json_u64(j, "max_ns", v[i].fsync_max_ns);
		json_object_end(j);
		json_blk(j, &v[i].blk);
		json_u64(j, "throttled_ns", v[i].throttle_ns);
		json_u64(j, "throttles", v[i].throttles);
		json_u64(j, "dstate_ns", v[i].dstate_ns);
		json_u64(j, "dstates", v[i].dstates);
		json_object_end(j);
	}
	json_array_end(j);
}

/*
 * --by: the processes of rows summed per owner, as text (before the
 * processes' own tables) or as the JSON members by and groups (which
 * --csv=groups prints)
 */
static void print_owners(struct sink *s, const struct proc_row *rows,
			 long n)
{
	struct column cols[ARRAY_SIZE(owner_cols)];
	const char *by = owner_by_name((enum owner_by)s->by);
	struct owner_row *v;
	char head[16];
	size_t l;
	long nv;

	if (!by || n < 0)
		return;
	nv = owner_rows(rows, (size_t)n, (enum owner_by)s->by, &v);
	if (nv < 0) {
		sink_fail(s, (int)nv);
		return;
	}
	if (s->j) {
		owners_json(s->j, v, nv, by);
		free(v);
		return;
	}
	/* the last column is headed by the owner: UNIT, CONTAINER, CGROUP */
	memcpy(cols, owner_cols, sizeof(cols));
	l = strlen(by) < sizeof(head) ? strlen(by) : sizeof(head) - 1;
	for (size_t i = 0; i < l; i++)
		head[i] = (char)(by[i] - 'a' + 'A');
	head[l] = 0;
	cols[ARRAY_SIZE(cols) - 1].head = head;
	cols[ARRAY_SIZE(cols) - 1].narrow = head;
	fprintf(s->out, "per %s: %ld, the processes of each summed "
		"(\"-\": of none)\n\n", by, nv);
	sink_fail(s, table_print(s->out, s->wide ? 0 : SINK_WIDTH, cols,
				 (int)ARRAY_SIZE(cols), v, (size_t)nv,
				 sizeof(*v)));
	fputc('\n', s->out);
	free(v);
}

void view_processes(struct sink *s, long top)
{
	struct proc_row *rows;
	long n;

	if (no_syscalls(s, "processes"))
		return;
	n = rows_processes(s->st, false, &rows);
	/* text: the table per owner is printed after the head */
	if (s->j)
		print_owners(s, rows, n);
	print_rows(s, &processes_view, rows, n, top);
	free(rows);
}


/* ------------------------------------------------------------------ */
/* files */

#define FROW(r) ((const struct file_row *)(r))
void view_file_cell(const void *r, bool wide, char *b, size_t n)
{
	const struct file_info *f = &FROW(r)->f;

	(void)wide;
	/* "cfg.json  (written as cfg.json.tmp)", "x.log  (unlinked)" */
	snprintf(b, n, "%s%s%s%s%s%s", file_info_name(f),
		 f->names || f->unlinked ? "  (" : "", f->names ? f->names : "",
		 f->names && f->unlinked ? ", " : "",
		 f->unlinked ? "unlinked" : "",
		 f->names || f->unlinked ? ")" : "");
}

static void f_devino(const void *r, bool wide, char *b, size_t n)
{
	const struct file_info *f = &FROW(r)->f;
	char mm[BLK_DEV_STRLEN];

	(void)wide;
	if (f->has_devino)
		snprintf(b, n, "%s:%" PRIu64,
			 blk_mm_str(f->major, f->minor, mm, sizeof(mm)),
			 f->ino);
	else
		snprintf(b, n, "-");
}

static const struct column file_cols[] = {
	COL_FN("DEV:INO", NULL, true, f_devino),
	FS("OPENS", NULL, table_u64, opens),
	FS("READS", "READS", table_u64, reads),
	FS("READ(B)", "READ", table_bytes, read_bytes),
	FS_PCT("R-P50(us)", NULL, rlat, 50),
	FS_PCT("R-P99(us)", NULL, rlat, 99),
	FS("WRITES", "WRITES", table_u64, writes),
	FS("WRITE(B)", "WRITE", table_bytes, write_bytes),
	FS_PCT("W-P50(us)", NULL, wlat, 50),
	FS_PCT("W-P99(us)", NULL, wlat, 99),
	FS("FSYNCS", "FSYNCS", table_u64, fsync.count),
	FS("FSYNC-SUM(ms)", NULL, table_ms, fsync.sum),
	FS("FSYNC-MAX(ms)", "FS-MAX(ms)", table_ms, fsync.max),
	FS("BLK-REQS", NULL, table_u64, blk.requests),
	FS("BLK-READ(B)", "BLK-R", table_bytes, blk.read_bytes),
	FS("BLK-WRITE(B)", "BLK-W", table_bytes, blk.write_bytes),
	FS("BLK-DEV-SUM(ms)", NULL, table_ms, blk.dev_ns),
	FS("JRNL-FSYNC(B)", NULL, table_bytes, blk.journal_bytes),
	COL_FN("FILE", "FILE", true, view_file_cell),
};

static const struct json_u64_field file_fields[] = {
	JSON_U64("opens", struct filestat, opens),
	JSON_U64("reads", struct filestat, reads),
	JSON_U64("read_bytes", struct filestat, read_bytes),
	JSON_U64("writes", struct filestat, writes),
	JSON_U64("write_bytes", struct filestat, write_bytes),
	JSON_U64("errors", struct filestat, errors),
};

static void files_json(struct sink *s, const void *v, size_t n, size_t total)
{
	const struct stats *a = s->st;
	const struct file_row *rows = v;
	struct json *j = s->j;
	char mm[32];

	json_u64(j, "syscall_path_bytes", a->named.named_bytes);
	json_u64(j, "syscall_nopath_bytes", a->named.unnamed_bytes);
	json_u64(j, "files_with_io", total);
	json_array_begin(j, "files");
	for (size_t i = 0; i < n; i++) {
		const struct file_info *f = &rows[i].f;
		const struct filestat *fs = rows[i].s;

		json_object_begin(j, NULL);
		json_str(j, "path", f->path);
		json_str(j, "name", file_info_name(f));
		/* names that changed: only on the files that have them */
		if (f->names)
			json_str(j, "other_names", f->names);
		if (f->unlinked)
			json_bool(j, "unlinked", true);
		if (f->has_devino) {
			json_str(j, "dev", blk_mm_str(f->major, f->minor, mm,
						      sizeof(mm)));
			json_u64(j, "ino", f->ino);
		} else {
			json_null(j, "dev");
			json_null(j, "ino");
		}
		json_u64s(j, fs, file_fields, ARRAY_SIZE(file_fields));
		json_lat(j, "read_latency", &fs->rlat);
		json_lat(j, "write_latency", &fs->wlat);
		json_lat(j, "fsync", &fs->fsync);
		json_blk(j, &fs->blk);
		json_object_end(j);
	}
	json_array_end(j);
}


static int files_text(struct sink *s, const void *v, size_t shown, size_t m)
{
	const struct file_row *rows = v;
	const struct stats *a = s->st;
	FILE *out = s->out;
	uint64_t all = a->named.named_bytes + a->named.unnamed_bytes;
	struct sbuf src = SBUF_INIT;
	char names[512];
	int rc;

	print_head_text(s);
	print_attrib_text(s);
	print_file_owners(s, rows, (long)m, shown < m ? (long)shown : -1);
	fprintf(out, "files with I/O: %zu", m);
	if (shown < m)
		fprintf(out, " (top %zu shown)", shown);
	fputc('\n', out);
	/* where names come from: what the recorder says, else what was seen */
	if (meta_name_sources(a->info->header_text, &src) && src.buf)
		snprintf(names, sizeof(names), "; names of files opened during the recording come from %s (%" PRIu64 " path hints)",
			 src.buf, a->path_hints);
	else
		snprintf(names, sizeof(names), "%s", a->path_strings ? "" :
			 a->path_hints ?
			 "; names of files opened during the recording come from libc uprobes" :
			 "; no path strings in the syscall events and no libc uprobes: files opened during the recording are named only from the end snapshot");
	sbuf_release(&src);
	sink_printf(s, "syscall bytes on files with a path: %" PRIu64 " of %" PRIu64
		" (%.1f%%)%s\n\n", a->named.named_bytes, all,
		all ? 100.0 * (double)a->named.named_bytes / (double)all :
		100.0, names);
	rc = table_print(out, s->wide ? 0 : SINK_WIDTH, file_cols,
			 (int)ARRAY_SIZE(file_cols), rows, shown,
			 sizeof(*rows));
	print_anomalies_text(s);
	return rc;
}

static const struct rows_view files_view = {
	file_cols, ARRAY_SIZE(file_cols), sizeof(struct file_row),
	files_json, files_text,
};


void view_files(struct sink *s, long top)
{
	struct file_row *rows;
	long m;

	if (no_syscalls(s, "files"))
		return;
	m = rows_files(s->st, &rows);
	/* text: the tables per owner are printed after the head */
	if (s->j)
		print_file_owners(s, rows, m, top);
	print_rows(s, &files_view, rows, m, top);
	rows_files_release(rows, m);
}

/* ------------------------------------------------------------------ */
/* The standalone views' JSON head and anomalies */

void view_procfiles_head(struct sink *s)
{
	if (s->j)
		print_head_json(s->st, s->j);
}

void view_procfiles_anomalies(struct sink *s)
{
	if (s->j)
		print_anomalies_json(s->st, s->j);
}
