// SPDX-License-Identifier: MIT
/*
 * view-wa.c - the write amplification, fsync and dirty throttling views,
 * as text or JSON (see sink.h), from the aggregates of stats/wa.h and
 * stats/dirty.h and the rows of stats/rows.h.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "base/blk.h"
#include "base/err.h"
#include "stats/dirty.h"
#include "stats/filter.h"
#include "stats/owner.h"
#include "stats/rows.h"
#include "stats/wa.h"
#include "sink/histtext.h"
#include "sink/json.h"
#include "sink/sink.h"

#define MIB		UNITS_MIB	/* the columns' MiB */
#define MS		1e6	/* ns per ms */

/* The COMM column of the process tables (a kworker's name with its
 * workqueue: "kworker/u8:3-writeback"). */
#define COMM_W	22

static double ratio(double num, double den)
{
	return den > 0 ? num / den : NAN;
}

static void print_mb(FILE *out, uint64_t b)
{
	fprintf(out, " %10.3f", (double)b / MIB);
}

/* MIB in a column of 8 (2 decimals, 100 columns) or 10 (3, --wide). */
static void print_mbw(const struct sink *s, uint64_t b)
{
	if (s->wide)
		print_mb(s->out, b);
	else
		fprintf(s->out, " %8.2f", (double)b / MIB);
}

static void print_ratio(FILE *out, double v)
{
	if (isnan(v))
		fprintf(out, " %7s", "-");
	else
		fprintf(out, " %6.2fx", v);
}

/*
 * Why an absence may be the file's, not the system's: NULL for an
 * intact recording, else what it lost (the warning line says more).
 */
static const char *lost_what(const struct stats *st)
{
	const struct source_info *in = st->info;

	if (!sink_damaged(in))
		return NULL;
	if (in->integrity == SOURCE_TRUNCATED || in->truncated)
		return "the recording was cut short";
	return "parts of the recording are damaged";
}

/* Whether the end of the recording is missing: writeback comes late. */
static bool cut_short(const struct stats *st)
{
	return st->info->integrity == SOURCE_TRUNCATED || st->info->truncated;
}

/* The head of these views: file, view and duration. */
static void view_title(struct sink *s, const char *key, const char *text)
{
	const struct stats *st = s->st;

	if (s->j) {
		json_str(s->j, "recording", st->info->path);
		json_str(s->j, "view", key);
		json_u64(s->j, "duration_ns", stats_duration(st));
		return;
	}
	fprintf(s->out, "%s: %s, %.6f s\n", st->info->path, text,
		(double)stats_duration(st) / 1e9);
}

/* ------------------------------------------------------------------ */
/* Write amplification */

static void wa_rows(struct sink *s, bool byproc, long top)
{
	const char *title = byproc ? "processes" : "files";
	struct json *j = s->j;
	FILE *out = s->out;
	struct wa_row *v;
	long n = rows_wa(s->st, byproc, &v);
	size_t k;

	if (n < 0) {
		s->err = (int)n;
		return;
	}
	k = (size_t)n < (size_t)top ? (size_t)n : (size_t)top;
	if (j) {
		json_array_begin(j, title);
		for (size_t i = 0; i < k; i++) {
			json_object_begin(j, NULL);
			if (v[i].pid)
				json_i64(j, "pid", v[i].pid);
			json_str(j, v[i].pid ? "comm" : "path", v[i].name);
			json_u64(j, "app_write_bytes", v[i].app);
			json_u64(j, "device_write_bytes", v[i].blk);
			json_u64(j, "journal_bytes", v[i].journal);
			json_double(j, "ratio",
				    ratio((double)(v[i].blk + v[i].journal),
					  (double)v[i].app));
			json_object_end(j);
		}
		json_array_end(j);
		rows_wa_release(v, n);
		return;
	}
	fprintf(out, "\n%s (top %zu of %ld, by device bytes):\n", title, k, n);
	if (!k) {
		fprintf(out, "  (none)\n");
		rows_wa_release(v, n);
		return;
	}
	/* a file's name is the last column, as in `ioreport files` */
	if (byproc)
		fprintf(out, "  %7s %-*s", "PID", COMM_W, "COMM");
	else
		fputc(' ', out);
	fprintf(out, " %10s %10s %10s %7s%s\n", "APP-W(MiB)", "BLK-W(MiB)",
		"JRNL(MiB)", "RATIO", byproc ? "" : "  FILE");
	for (size_t i = 0; i < k; i++) {
		char nb[64], pb[256];

		if (byproc)
			fprintf(out, "  %7d %-*s", v[i].pid, COMM_W,
				sink_head(s, v[i].name, COMM_W, nb, sizeof(nb)));
		else
			fputc(' ', out);
		print_mb(out, v[i].app);
		print_mb(out, v[i].blk);
		print_mb(out, v[i].journal);
		print_ratio(out, ratio((double)(v[i].blk + v[i].journal),
				       (double)v[i].app));
		if (!byproc)
			fprintf(out, "  %s", sink_tail(s, v[i].name,
						       SINK_WIDTH - 44, pb,
						       sizeof(pb)));
		fputc('\n', out);
	}
	rows_wa_release(v, n);
}

/* --by: the processes' rows summed per unit, container or cgroup */
struct wa_group {
	char key[256];		/* owner_proc_key(), "-": of none */
	uint64_t procs, app, blk, journal;
};

static int cmp_wa_group(const void *a, const void *b)
{
	const struct wa_group *x = a, *y = b;

	if (x->blk + x->journal != y->blk + y->journal)
		return x->blk + x->journal > y->blk + y->journal ? -1 : 1;
	if (x->app != y->app)
		return x->app > y->app ? -1 : 1;
	return strcmp(x->key, y->key);
}

/*
 * wa --by: the groups, as the JSON members by and groups (named as the
 * processes' members they sum) or a table before the processes'
 */
static void wa_by(struct sink *s)
{
	const char *by = owner_by_name((enum owner_by)s->by);
	struct wa_group *g;
	struct wa_row *v;
	size_t ng = 0;
	long n;

	if (!by)
		return;
	n = rows_wa(s->st, true, &v);
	if (n < 0) {
		s->err = (int)n;
		return;
	}
	g = an_calloc((size_t)n + 1, sizeof(*g));
	if (!g) {
		rows_wa_release(v, n);
		s->err = -AN_E_NOMEM;
		return;
	}
	for (long i = 0; i < n; i++) {
		struct wa_group *x = NULL;
		char key[256];

		owner_proc_key(v[i].p, (enum owner_by)s->by, key, sizeof(key));
		for (size_t k = 0; k < ng && !x; k++)
			if (!strcmp(g[k].key, key))
				x = &g[k];
		if (!x) {
			x = &g[ng++];
			memcpy(x->key, key, sizeof(key));
		}
		x->procs++;
		x->app += v[i].app;
		x->blk += v[i].blk;
		x->journal += v[i].journal;
	}
	rows_wa_release(v, n);
	qsort(g, ng, sizeof(*g), cmp_wa_group);
	if (s->j) {
		struct json *j = s->j;

		json_str(j, "by", by);
		json_array_begin(j, "groups");
		for (size_t i = 0; i < ng; i++) {
			json_object_begin(j, NULL);
			json_str(j, by, strcmp(g[i].key, "-") ? g[i].key : NULL);
			json_u64(j, "processes", g[i].procs);
			json_u64(j, "app_write_bytes", g[i].app);
			json_u64(j, "device_write_bytes", g[i].blk);
			json_u64(j, "journal_bytes", g[i].journal);
			json_double(j, "ratio",
				    ratio((double)(g[i].blk + g[i].journal),
					  (double)g[i].app));
			json_object_end(j);
		}
		json_array_end(j);
		free(g);
		return;
	}
	fprintf(s->out, "\nper %s: %zu, the processes below summed (all of them; \"-\": of none):\n",
		by, ng);
	fprintf(s->out, "  %6s %10s %10s %10s %7s  %s\n", "PROCS", "APP-W(MiB)",
		"BLK-W(MiB)", "JRNL(MiB)", "RATIO",
		by[0] == 'u' ? "UNIT" : by[1] == 'o' ? "CONTAINER" : "CGROUP");
	for (size_t i = 0; i < ng; i++) {
		fprintf(s->out, "  %6" PRIu64, g[i].procs);
		print_mb(s->out, g[i].app);
		print_mb(s->out, g[i].blk);
		print_mb(s->out, g[i].journal);
		print_ratio(s->out, ratio((double)(g[i].blk + g[i].journal),
					  (double)g[i].app));
		fprintf(s->out, "  %s\n", g[i].key);
	}
	free(g);
}

static void wa_text(struct sink *s, long top)
{
	const struct wa *wa = s->st->wa;
	FILE *out = s->out;
	uint64_t app, dev, ds;

	view_title(s, "wa", "write amplification");
	wa_overall(wa, &app, &dev, &ds);
	fprintf(out, "\noverall:\n");
	fprintf(out, "  application writes  %12.3f MiB (file syscalls on the devices below)\n",
		(double)app / MIB);
	fprintf(out, "  device writes       %12.3f MiB (traced write requests)\n",
		(double)dev / MIB);
	if (ds)
		fprintf(out, "  diskstats writes    %12.3f MiB (start -> end snapshot)\n",
			(double)ds / MIB);
	fprintf(out, "  write amplification");
	if (cut_short(s->st) && app)
		fprintf(out, "       -   (not comparable: %s, the writeback of these writes may come after its end)\n",
			lost_what(s->st));
	else if (isnan(ratio((double)dev, (double)app)))
		fprintf(out, "       -   (no application writes on a traced device%s%s)\n",
			lost_what(s->st) ? " in what was read: " : "",
			lost_what(s->st) ? lost_what(s->st) : "");
	else
		fprintf(out, "  %10.2fx\n", ratio((double)dev, (double)app));
	if (ds && app)
		fprintf(out, "  by diskstats        %10.2fx\n",
			ratio((double)ds, (double)app));
	if (wa->st.diskstats_not_split)
		fprintf(out, "  (diskstats left out: they count whole devices from start to end)\n");
	if (wa->app_unplaced)
		sink_printf(s, "  not placed          %12.3f MiB written to files of no known device (pipes, sockets, unnamed files)\n",
			    (double)wa->app_unplaced / MIB);

	fprintf(out, "\ndevices:\n");
	if (s->wide)
		fprintf(out, "  %-10s %10s %10s %10s %10s %10s %10s %7s %6s %6s %6s %10s\n",
			"DEVICE", "APP-W(MiB)", "DEV-W(MiB)", "DATA(MiB)",
			"JRNL(MiB)", "META(MiB)", "OTHER(MiB)", "RATIO", "FLUSH",
			"PREFL", "FUA", "DSTAT(MiB)");
	else
		fprintf(out, "  %-8s %8s %8s %8s %8s %8s %8s %7s %5s %5s %5s %8s\n",
			"DEVICE", "APP-W", "DEV-W", "DATA", "JOURNAL", "META",
			"OTHER", "RATIO", "FLUSH", "PREFL", "FUA", "DSTAT");
	for (size_t i = 0; i < wa->ndev; i++) {
		const struct wa_dev *d = &wa->dev[i];
		int fw = s->wide ? 6 : 5;
		char nb[64];

		if (!wa_dev_shown(d))
			continue;
		fprintf(out, "  %-*s", s->wide ? 10 : 8,
			sink_head(s, sink_dev_name(s, d->dev), 8, nb, sizeof(nb)));
		print_mbw(s, d->app_bytes);
		print_mbw(s, d->ops.bytes[BLK_OP_WRITE]);
		for (int c = 0; c < WA_NCLASS; c++)
			print_mbw(s, d->cls[c]);
		print_ratio(out, ratio((double)d->ops.bytes[BLK_OP_WRITE],
				       (double)d->app_bytes));
		fprintf(out, " %*" PRIu64 " %*" PRIu64 " %*" PRIu64, fw,
			d->ops.n[BLK_OP_FLUSH], fw, d->preflush, fw, d->fua);
		if (d->ds)
			print_mbw(s, d->ds_write_bytes);
		else
			fprintf(out, " %*s", s->wide ? 10 : 8, "-");
		fputc('\n', out);
	}
	if (!s->wide)
		fprintf(out, "  (sizes in MiB)\n");

	fprintf(out, "\njournal (jbd2_run_stats):\n");
	if (!wa->st.jbd2) {
		if (lost_what(s->st))
			fprintf(out, "  none read (no jbd2:jbd2_run_stats events in what was read: %s)\n",
				lost_what(s->st));
		else
			fprintf(out, "  not recorded (no jbd2:jbd2_run_stats events; a file system without a journal has none)\n");
	} else if (wa->st.jbd2_not_split) {
		fprintf(out, "  left out: the commits are the file system's, not split by process or\n"
			"  file (without -p/-c/-f they are shown)\n");
	} else {
		fprintf(out, "  %-10s %8s %10s %10s %12s %12s %10s %12s\n",
			"DEVICE", "COMMITS", "HANDLES", "BLOCKS", "LOGGED",
			"JOURNAL(MiB)", "B/LOGGED", "LOGGING(ms)");
		for (size_t i = 0; i < wa->ndev; i++) {
			const struct wa_dev *d = &wa->dev[i];

			if (!d->commits)
				continue;
			fprintf(out, "  %-10s %8" PRIu64 " %10" PRIu64 " %10"
				PRIu64 " %12" PRIu64 " %12.3f",
				sink_dev_name(s, d->dev), d->commits,
				d->handles, d->blocks, d->blocks_logged,
				(double)d->cls[WA_JOURNAL] / MIB);
			if (d->blocks_logged)
				fprintf(out, " %10.0f",
					(double)d->cls[WA_JOURNAL] /
					(double)d->blocks_logged);
			else
				fprintf(out, " %10s", "-");
			fprintf(out, " %12" PRIu64 "\n", d->commit_logging_ms);
		}
		fprintf(out, "  B/LOGGED: measured journal bytes per block logged (the block size plus\n"
			"  the descriptor and commit blocks)\n");
	}
	wa_by(s);
	wa_rows(s, true, top);
	wa_rows(s, false, top);
	fprintf(out, "\nnotes: DATA is file data (writeback, fsync, direct I/O), JOURNAL the jbd2\n"
		"  thread's requests, META requests flagged metadata or of no file, OTHER\n"
		"  requests without a known owner.  Method: docs/write-amplification.md\n");
}

/* The members of a device of the wa view, in their order. */
static const struct json_u64_field dev_flush[] = {
	JSON_U64("read_bytes", struct wa_dev, ops.bytes[BLK_OP_READ]),
	JSON_U64("flushes", struct wa_dev, ops.n[BLK_OP_FLUSH]),
	JSON_U64("preflush", struct wa_dev, preflush),
	JSON_U64("fua", struct wa_dev, fua),
	JSON_U64("flush_ns", struct wa_dev, flush_ns),
};

static const struct json_u64_field dev_ds[] = {
	JSON_U64("diskstats_write_bytes", struct wa_dev, ds_write_bytes),
	JSON_U64("diskstats_writes", struct wa_dev, ds_writes),
	JSON_U64("diskstats_flushes", struct wa_dev, ds_flushes),
};

static const struct json_u64_field dev_jbd2[] = {
	JSON_U64("commits", struct wa_dev, commits),
	JSON_U64("handles", struct wa_dev, handles),
	JSON_U64("blocks", struct wa_dev, blocks),
	JSON_U64("blocks_logged", struct wa_dev, blocks_logged),
	JSON_U64("logging_ms", struct wa_dev, commit_logging_ms),
};

static void wa_json(struct sink *s, long top)
{
	const struct wa *wa = s->st->wa;
	struct json *j = s->j;
	uint64_t app, dev, ds;

	view_title(s, "wa", NULL);
	wa_overall(wa, &app, &dev, &ds);
	json_object_begin(j, "overall");
	json_u64(j, "app_write_bytes", app);
	json_u64(j, "device_write_bytes", dev);
	json_u64(j, "diskstats_write_bytes", ds);
	/* cut short: the writeback of the writes read may be missing */
	json_bool(j, "comparable", !cut_short(s->st));
	json_double(j, "ratio", cut_short(s->st) ? NAN :
		    ratio((double)dev, (double)app));
	json_double(j, "diskstats_ratio",
		    ds ? ratio((double)ds, (double)app) : NAN);
	json_u64(j, "app_write_bytes_all", wa->app_all);
	json_u64(j, "app_write_bytes_unplaced", wa->app_unplaced);
	json_object_end(j);
	json_array_begin(j, "devices");
	for (size_t i = 0; i < wa->ndev; i++) {
		const struct wa_dev *d = &wa->dev[i];
		char mm[32];

		if (!wa_dev_shown(d))
			continue;
		blk_dev_str(d->dev, mm, sizeof(mm));
		json_object_begin(j, NULL);
		json_str(j, "device", sink_dev_name(s, d->dev));
		json_str(j, "dev", mm);
		json_u64(j, "app_write_bytes", d->app_bytes);
		json_u64(j, "write_bytes", d->ops.bytes[BLK_OP_WRITE]);
		json_u64(j, "writes", d->ops.n[BLK_OP_WRITE]);
		for (int c = 0; c < WA_NCLASS; c++) {
			char k[32];

			snprintf(k, sizeof(k), "%s_bytes", wa_class_name(c));
			json_u64(j, k, d->cls[c]);
		}
		json_u64s(j, d, dev_flush, ARRAY_SIZE(dev_flush));
		json_double(j, "ratio", ratio((double)d->ops.bytes[BLK_OP_WRITE],
					      (double)d->app_bytes));
		if (d->ds)
			json_u64s(j, d, dev_ds, ARRAY_SIZE(dev_ds));
		json_object_begin(j, "jbd2");
		json_u64s(j, d, dev_jbd2, ARRAY_SIZE(dev_jbd2));
		json_object_end(j);
		json_object_end(j);
	}
	json_array_end(j);
	json_bool(j, "jbd2_recorded", wa->st.jbd2);
	/* what the view filters leave out (wa.h) */
	json_bool(j, "jbd2_left_out", wa->st.jbd2_not_split);
	json_bool(j, "diskstats_left_out", wa->st.diskstats_not_split);
	wa_by(s);
	wa_rows(s, true, top);
	wa_rows(s, false, top);
}

void view_wa(struct sink *s, long top)
{
	if (s->j)
		wa_json(s, top);
	else
		wa_text(s, top);
}

/* ------------------------------------------------------------------ */
/* fsync, flushes and barriers */

static void fsync_rows_text(struct sink *s, const struct fsync_row *v,
			    long n, bool byproc, long top)
{
	FILE *out = s->out;
	size_t k = (size_t)n < (size_t)top ? (size_t)n : (size_t)top;

	fprintf(out, "\n%s (top %zu of %ld, by fsync time):\n",
		byproc ? "processes" : "files", k, n);
	if (!k) {
		fprintf(out, "  (none)\n");
		return;
	}
	/* a file's name is the last column, as in `ioreport files` */
	int cw = s->wide ? COMM_W : 16;

	if (byproc)
		fprintf(out, "  %7s %-*s", "PID", cw, "COMM");
	else
		fputc(' ', out);
	if (s->wide)
		fprintf(out, " %7s %7s %6s", "FSYNC", "FDSYNC", "SFR");
	else
		fprintf(out, " %6s", "CALLS");
	fprintf(out, " %9s %9s %9s %6s %6s %13s %7s%s\n",
		"P50(ms)", "P99(ms)", "MAX(ms)",
		"EXT4", "FLUSH", "FLUSH-SUM(ms)", "FL/FS", byproc ? "" : "  FILE");
	for (size_t i = 0; i < k; i++) {
		const struct fsync_row *w = &v[i];
		const struct hist *h = w->lat;
		char nb[64], pb[256];

		if (byproc)
			fprintf(out, "  %7d %-*s", w->pid, cw,
				sink_head(s, w->name ? w->name : "?", 16, nb,
					  sizeof(nb)));
		else
			fputc(' ', out);
		if (s->wide)
			fprintf(out, " %7" PRIu64 " %7" PRIu64 " %6" PRIu64,
				w->fsyncs, w->fdatasyncs, w->sfr);
		else
			fprintf(out, " %6" PRIu64,
				w->fsyncs + w->fdatasyncs + w->sfr);
		if (h && h->count)
			fprintf(out, " %9.3f %9.3f %9.3f",
				(double)hist_pct(h, 50) / MS,
				(double)hist_pct(h, 99) / MS,
				(double)h->max / MS);
		else
			fprintf(out, " %9s %9s %9s", "-", "-", "-");
		fprintf(out, " %6" PRIu64 " %6" PRIu64 " %13.3f", w->k_count,
			w->flushes, (double)w->flush_ns / MS);
		if (w->k_count)
			fprintf(out, " %7.2f",
				(double)w->flushes / (double)w->k_count);
		else
			fprintf(out, " %7s", "-");
		if (!byproc)
			fprintf(out, "  %s", sink_tail(s, w->name ? w->name : "?",
						       SINK_WIDTH - 78, pb,
						       sizeof(pb)));
		fputc('\n', out);
	}
}

static const struct json_u64_field fsync_calls[] = {
	JSON_U64("fsync", struct fsync_row, fsyncs),
	JSON_U64("fdatasync", struct fsync_row, fdatasyncs),
	JSON_U64("sync_file_range", struct fsync_row, sfr),
};

static const struct json_u64_field fsync_ext4[] = {
	JSON_U64("ext4_fsyncs", struct fsync_row, k_count),
	JSON_U64("flushes", struct fsync_row, flushes),
	JSON_U64("flush_ns", struct fsync_row, flush_ns),
	JSON_U64("write_bytes_during", struct fsync_row, write_bytes),
};

static void fsync_rows_json(struct json *j, const struct fsync_row *v,
			    long n, bool byproc, long top)
{
	size_t k = (size_t)n < (size_t)top ? (size_t)n : (size_t)top;

	json_array_begin(j, byproc ? "processes" : "files");
	for (size_t i = 0; i < k; i++) {
		const struct fsync_row *w = &v[i];

		json_object_begin(j, NULL);
		if (byproc) {
			json_i64(j, "pid", w->pid);
			json_str(j, "comm", w->name);
		} else {
			json_str(j, "path", w->name);
		}
		json_u64s(j, w, fsync_calls, ARRAY_SIZE(fsync_calls));
		if (w->lat)
			json_hist(j, "latency", w->lat);
		json_u64s(j, w, fsync_ext4, ARRAY_SIZE(fsync_ext4));
		json_object_end(j);
	}
	json_array_end(j);
}

static void fsync_rows(struct sink *s, bool byproc, long top)
{
	struct fsync_row *v;
	long n = rows_fsync(s->st, byproc, &v);

	if (n < 0) {
		s->err = (int)n;
		return;
	}
	if (s->j)
		fsync_rows_json(s->j, v, n, byproc, top);
	else
		fsync_rows_text(s, v, n, byproc, top);
	rows_fsync_release(v, n);
}

/* --by: the processes' fsync rows summed per unit, container, cgroup */
struct fsync_group {
	char key[256];		/* owner_proc_key(), "-": of none */
	uint64_t procs, fsyncs, fdatasyncs, sfr;
	uint64_t count, sum_ns, max_ns;	/* the syscalls' latency */
	uint64_t k_count, flushes, flush_ns, write_bytes;
};

static int cmp_fsync_group(const void *a, const void *b)
{
	const struct fsync_group *x = a, *y = b;

	if (x->sum_ns != y->sum_ns)
		return x->sum_ns > y->sum_ns ? -1 : 1;
	if (x->flush_ns != y->flush_ns)
		return x->flush_ns > y->flush_ns ? -1 : 1;
	return strcmp(x->key, y->key);
}

/* The n process rows of v summed per owner of by, into *out; -errno. */
static long fsync_groups(const struct fsync_row *v, long n,
			 enum owner_by by, struct fsync_group **out)
{
	struct fsync_group *g = an_calloc((size_t)n + 1, sizeof(*g));
	size_t ng = 0;

	*out = g;
	if (!g)
		return -AN_E_NOMEM;
	for (long i = 0; i < n; i++) {
		const struct fsync_row *w = &v[i];
		struct fsync_group *x = NULL;
		char key[256];

		owner_proc_key(w->p, by, key, sizeof(key));
		for (size_t k = 0; k < ng && !x; k++)
			if (!strcmp(g[k].key, key))
				x = &g[k];
		if (!x) {
			x = &g[ng++];
			memcpy(x->key, key, sizeof(key));
		}
		x->procs++;
		x->fsyncs += w->fsyncs;
		x->fdatasyncs += w->fdatasyncs;
		x->sfr += w->sfr;
		if (w->lat) {
			x->count += w->lat->count;
			x->sum_ns += w->lat->sum;
			if (w->lat->max > x->max_ns)
				x->max_ns = w->lat->max;
		}
		x->k_count += w->k_count;
		x->flushes += w->flushes;
		x->flush_ns += w->flush_ns;
		x->write_bytes += w->write_bytes;
	}
	qsort(g, ng, sizeof(*g), cmp_fsync_group);
	return (long)ng;
}

/*
 * fsync --by: the groups, as the JSON members by and groups (named as
 * the processes' members they sum) or a table before the processes'
 */
static void fsync_by(struct sink *s)
{
	const char *by = owner_by_name((enum owner_by)s->by);
	struct fsync_group *g;
	struct fsync_row *v;
	long n, ng;

	if (!by)
		return;
	n = rows_fsync(s->st, true, &v);
	if (n < 0) {
		s->err = (int)n;
		return;
	}
	ng = fsync_groups(v, n, (enum owner_by)s->by, &g);
	rows_fsync_release(v, n);
	if (ng < 0) {
		s->err = (int)ng;
		free(g);
		return;
	}
	if (s->j) {
		struct json *j = s->j;

		json_str(j, "by", by);
		json_array_begin(j, "groups");
		for (long i = 0; i < ng; i++) {
			json_object_begin(j, NULL);
			json_str(j, by, strcmp(g[i].key, "-") ? g[i].key : NULL);
			json_u64(j, "processes", g[i].procs);
			json_u64(j, "fsync", g[i].fsyncs);
			json_u64(j, "fdatasync", g[i].fdatasyncs);
			json_u64(j, "sync_file_range", g[i].sfr);
			json_object_begin(j, "latency");
			json_u64(j, "count", g[i].count);
			json_u64(j, "sum_ns", g[i].sum_ns);
			json_u64(j, "max_ns", g[i].max_ns);
			json_object_end(j);
			json_u64(j, "ext4_fsyncs", g[i].k_count);
			json_u64(j, "flushes", g[i].flushes);
			json_u64(j, "flush_ns", g[i].flush_ns);
			json_u64(j, "write_bytes_during", g[i].write_bytes);
			json_object_end(j);
		}
		json_array_end(j);
		free(g);
		return;
	}
	fprintf(s->out, "\nper %s: %ld, the processes below summed (all of them; \"-\": of none):\n",
		by, ng);
	fprintf(s->out, "  %6s", "PROCS");
	if (s->wide)
		fprintf(s->out, " %7s %7s %6s", "FSYNC", "FDSYNC", "SFR");
	else
		fprintf(s->out, " %6s", "CALLS");
	fprintf(s->out, " %13s %9s %7s %7s %13s  %s\n", "FSYNC-SUM(ms)",
		"MAX(ms)", "EXT4", "FLUSH", "FLUSH-SUM(ms)",
		by[0] == 'u' ? "UNIT" : by[1] == 'o' ? "CONTAINER" : "CGROUP");
	for (long i = 0; i < ng; i++) {
		fprintf(s->out, "  %6" PRIu64, g[i].procs);
		if (s->wide)
			fprintf(s->out, " %7" PRIu64 " %7" PRIu64 " %6" PRIu64,
				g[i].fsyncs, g[i].fdatasyncs, g[i].sfr);
		else
			fprintf(s->out, " %6" PRIu64,
				g[i].fsyncs + g[i].fdatasyncs + g[i].sfr);
		fprintf(s->out, " %13.3f %9.3f %7" PRIu64 " %7" PRIu64
			" %13.3f  %s\n", (double)g[i].sum_ns / MS,
			(double)g[i].max_ns / MS, g[i].k_count, g[i].flushes,
			(double)g[i].flush_ns / MS, g[i].key);
	}
	free(g);
}

static void fsync_devices(struct sink *s)
{
	const struct wa *wa = s->st->wa;
	struct json *j = s->j;

	if (j)
		json_array_begin(j, "devices");
	else
		fprintf(s->out, "\ndevices:\n  %-10s %8s %8s %8s %13s %12s\n",
			"DEVICE", "FLUSHES", "PREFLUSH", "FUA", "FLUSH-SUM(ms)",
			"AVG(ms)");
	for (size_t i = 0; i < wa->ndev; i++) {
		const struct wa_dev *d = &wa->dev[i];
		uint64_t n = d->ops.n[BLK_OP_FLUSH] + d->preflush + d->fua;

		if (!d->ops.n[BLK_OP_WRITE] && !d->ops.n[BLK_OP_FLUSH])
			continue;
		if (j) {
			json_object_begin(j, NULL);
			json_str(j, "device", sink_dev_name(s, d->dev));
			json_u64(j, "flushes", d->ops.n[BLK_OP_FLUSH]);
			json_u64(j, "preflush", d->preflush);
			json_u64(j, "fua", d->fua);
			json_u64(j, "flush_ns", d->flush_ns);
			if (d->ds)
				json_u64(j, "diskstats_flushes", d->ds_flushes);
			json_object_end(j);
			continue;
		}
		fprintf(s->out, "  %-10s %8" PRIu64 " %8" PRIu64 " %8" PRIu64
			" %13.3f %12.3f\n", sink_dev_name(s, d->dev),
			d->ops.n[BLK_OP_FLUSH], d->preflush, d->fua,
			(double)d->flush_ns / MS,
			n ? (double)d->flush_ns / (double)n / MS : 0.0);
	}
	if (j)
		json_array_end(j);
	else if (filter_wants_owner(s->st->filter))
		fprintf(s->out, "  (the requests charged to what the filters keep; the flushes their\n"
			"  fsyncs waited for, whoever issued them, are FLUSH below)\n");
}

void view_fsync(struct sink *s, long top)
{
	FILE *out = s->out;
	struct hist all;

	if (rows_fsync_all(s->st, &all) < 0) {
		hist_release(&all);
		s->err = -AN_E_NOMEM;
		return;
	}
	if (s->j) {
		view_title(s, "fsync", NULL);
		json_bool(s->j, "ext4_sync_recorded", s->st->wa->st.ext4_sync);
		json_hist(s->j, "fsync_latency", &all);
		fsync_devices(s);
		fsync_by(s);
		fsync_rows(s, true, top);
		fsync_rows(s, false, top);
		hist_release(&all);
		return;
	}
	view_title(s, "fsync", "fsync, flushes and barriers");
	fprintf(out, "\nfsync/fdatasync: %" PRIu64 " calls", all.count);
	if (all.count)
		fprintf(out, ", p50 %.3f ms, p99 %.3f ms, max %.3f ms",
			(double)hist_pct(&all, 50) / MS,
			(double)hist_pct(&all, 99) / MS,
			(double)all.max / MS);
	fputc('\n', out);
	if (!s->st->wa->st.ext4_sync)
		fprintf(out, "  (no ext4_sync_file events%s%s: flushes are not joined to fsyncs)\n",
			lost_what(s->st) ? " read; " : "",
			lost_what(s->st) ? lost_what(s->st) : "");
	fsync_devices(s);
	fsync_by(s);
	fsync_rows(s, true, top);
	fsync_rows(s, false, top);
	if (all.count)
		hist_text_pair(out, "fsync latency", &all, NULL, 0);
	fprintf(out, "\nnotes: FSYNC/FDSYNC/SFR and the latency are syscalls; EXT4 counts\n"
		"  ext4_sync_file calls; FLUSH the flush requests (and PREFLUSH/FUA\n"
		"  writes) that completed on the file's device while one waited.\n");
	hist_release(&all);
}

/* ------------------------------------------------------------------ */
/* Dirty throttling and writeback */

static void dirty_json(struct sink *s, const struct dirty_row *v, size_t k)
{
	const struct dirty *d = s->st->dirty;
	struct json *j = s->j;
	uint64_t ps = d->page_size;

	view_title(s, "dirty", NULL);
	json_bool(j, "balance_dirty_pages_recorded", d->have_bdp);
	json_bool(j, "global_dirty_state_recorded", d->have_gds);
	json_bool(j, "writeback_written_recorded", d->have_wb);
	json_i64(j, "hz", s->st->hz);
	json_u64(j, "throttle_events", d->bdp);
	json_u64(j, "paused_events", d->bdp_paused);
	json_u64(j, "paused_ns", dirty_ms2ns(d->pause_ms));
	json_u64(j, "max_pause_ns", dirty_ms2ns(d->max_pause_ms));
	json_u64(j, "max_dirty_bytes", d->max_dirty * ps);
	json_u64(j, "background_thresh_bytes_min", d->min_bg_thresh * ps);
	json_u64(j, "background_thresh_bytes_max", d->max_bg_thresh * ps);
	json_u64(j, "dirty_thresh_bytes_min", d->min_thresh * ps);
	json_u64(j, "dirty_thresh_bytes_max", d->max_thresh * ps);
	json_u64(j, "device_write_bytes", d->write_bytes);
	json_u64(j, "written_bytes", d->written * ps);
	json_u64(j, "writeback_works", d->wb_works);
	json_object_begin(j, "flusher_bytes");
	for (int i = 0; i < DIRTY_REASONS; i++)
		json_u64(j, dirty_reason_name(i), d->wb_pages[i] * ps);
	json_object_end(j);
	json_array_begin(j, "processes");
	for (size_t i = 0; i < k; i++) {
		json_object_begin(j, NULL);
		json_i64(j, "pid", v[i].pid);
		json_str(j, "comm", v[i].comm);
		json_u64(j, "throttle_events", v[i].bdp);
		json_u64(j, "paused_events", v[i].paused);
		json_u64(j, "paused_ns", dirty_ms2ns(v[i].pause_ms));
		json_u64(j, "max_pause_ns", dirty_ms2ns(v[i].max_ms));
		json_object_end(j);
	}
	json_array_end(j);
	json_u64(j, "slot_ns", DIRTY_SLOT_NS);
	json_array_begin(j, "slots");
	for (size_t i = 0; i < d->nslot; i++) {
		const struct dirty_slot *sl = &d->slot[i];
		uint64_t wb = 0;

		for (int q = 0; q < DIRTY_REASONS; q++)
			wb += sl->wb_pages[q];
		json_object_begin(j, NULL);
		json_u64(j, "t_ns", (uint64_t)i * DIRTY_SLOT_NS);
		if (sl->gds) {
			json_u64(j, "dirty_bytes", sl->nr_dirty * ps);
			json_u64(j, "writeback_bytes", sl->nr_writeback * ps);
			json_u64(j, "background_thresh_bytes",
				 sl->bg_thresh * ps);
			json_u64(j, "dirty_thresh_bytes", sl->thresh * ps);
			json_u64(j, "dirty_limit_bytes", sl->limit * ps);
		}
		json_u64(j, "throttle_events", sl->bdp);
		json_u64(j, "paused_ns", dirty_ms2ns(sl->pause_ms));
		json_u64(j, "written_bytes", sl->written * ps);
		json_u64(j, "flusher_bytes", wb * ps);
		json_u64(j, "device_write_bytes", sl->write_bytes);
		json_u64(j, "flushes", sl->flushes);
		json_object_end(j);
	}
	json_array_end(j);
}

static void dirty_over_time(struct sink *s, long rows)
{
	const struct dirty *d = s->st->dirty;
	uint64_t ps = d->page_size, w;
	FILE *out = s->out;
	struct dirty_slot *rb;
	size_t used;

	rb = an_calloc((size_t)rows, sizeof(*rb));
	if (!rb) {
		s->err = -AN_E_NOMEM;
		return;
	}
	w = dirty_rebin(d, rb, (size_t)rows);
	used = (d->nslot + w / DIRTY_SLOT_NS - 1) / (w / DIRTY_SLOT_NS);
	fprintf(out, "\nover time (rows of %.1f s from %s; dirty and thresholds: last sample):\n",
		(double)w / 1e9, s->st->filter && s->st->filter->have_since ?
		"--since" : "the first event");
	int tw = s->wide ? 8 : 6, mw = s->wide ? 11 : 8, bw = s->wide ? 8 : 7;
	int pw = s->wide ? 12 : 9, ww = s->wide ? 12 : 8, fw = s->wide ? 7 : 6;

	if (s->wide)
		fprintf(out, "  %8s %11s %11s %11s %11s %8s %12s %12s %12s %12s %7s\n",
			"T(s)", "DIRTY(MiB)", "WB(MiB)", "BG(MiB)", "THRESH(MiB)",
			"THROTTL", "PAUSED(ms)", "WRITTEN(MiB)", "FLUSHER(MiB)",
			"DEV-W(MiB)", "FLUSH");
	else
		fprintf(out, "  %6s %8s %8s %8s %8s %7s %9s %8s %8s %8s %6s\n",
			"T(s)", "DIRTY", "WB", "BG", "THRESH", "THROTTL",
			"PAUSE(ms)", "WRITTEN", "FLUSHER", "DEV-W", "FLUSH");
	for (size_t i = 0; i < used; i++) {
		const struct dirty_slot *sl = &rb[i];
		uint64_t wb = 0;

		for (int q = 0; q < DIRTY_REASONS; q++)
			wb += sl->wb_pages[q];
		fprintf(out, "  %*.1f", tw, (double)(i * w) / 1e9);
		if (sl->gds)
			fprintf(out, " %*.1f %*.1f %*.1f %*.1f",
				mw, (double)(sl->nr_dirty * ps) / MIB,
				mw, (double)(sl->nr_writeback * ps) / MIB,
				mw, (double)(sl->bg_thresh * ps) / MIB,
				mw, (double)(sl->thresh * ps) / MIB);
		else
			fprintf(out, " %*s %*s %*s %*s", mw, "-", mw, "-",
				mw, "-", mw, "-");
		fprintf(out, " %*" PRIu64 " %*.3f %*.1f %*.1f %*.1f %*"
			PRIu64 "\n", bw, sl->bdp,
			pw, (double)dirty_ms2ns(sl->pause_ms) / MS,
			ww, (double)(sl->written * ps) / MIB,
			ww, (double)(wb * ps) / MIB,
			ww, (double)sl->write_bytes / MIB, fw, sl->flushes);
	}
	free(rb);
}

static void dirty_text(struct sink *s, const struct dirty_row *v, size_t k,
		       long n, long rows)
{
	const struct dirty *d = s->st->dirty;
	uint64_t ps = d->page_size;
	FILE *out = s->out;

	view_title(s, "dirty", "dirty throttling and writeback");
	if (filter_wants_owner(s->st->filter) || (s->st->filter &&
						  s->st->filter->ndevs))
		fprintf(out, "\nfiltered: the pauses and the bytes written are those kept; the dirty\n"
			"state, its thresholds and the flusher's work are the machine's\n");
	fprintf(out, "\nthresholds (global_dirty_state):\n");
	if (!d->have_gds || !d->gds_samples) {
		fprintf(out, "  none recorded (global_dirty_state fires only when a writer is throttled\n"
			"  or the dirty limits are checked; no samples here)\n");
	} else {
		fprintf(out, "  background  %10.1f MiB",
			(double)(d->min_bg_thresh * ps) / MIB);
		if (d->max_bg_thresh != d->min_bg_thresh)
			fprintf(out, " .. %.1f MiB",
				(double)(d->max_bg_thresh * ps) / MIB);
		fprintf(out, "\n  dirty       %10.1f MiB",
			(double)(d->min_thresh * ps) / MIB);
		if (d->max_thresh != d->min_thresh)
			fprintf(out, " .. %.1f MiB",
				(double)(d->max_thresh * ps) / MIB);
		fprintf(out, "\n  max dirty   %10.1f MiB\n",
			(double)(d->max_dirty * ps) / MIB);
	}
	fprintf(out, "\nthrottling (balance_dirty_pages):\n");
	if (!d->have_bdp)
		fprintf(out, "  not recorded\n");
	else
		fprintf(out, "  %" PRIu64 " events, %" PRIu64 " paused, %.3f ms paused in all, longest %.3f ms\n",
			d->bdp, d->bdp_paused,
			(double)dirty_ms2ns(d->pause_ms) / MS,
			(double)dirty_ms2ns(d->max_pause_ms) / MS);
	fprintf(out, "\nwriteback: %.1f MiB written (global_dirty_state nr_written);\n  by the flusher (writeback_start -> writeback_written):",
		(double)(d->written * ps) / MIB);
	if (!d->have_wb) {
		fprintf(out, " not recorded\n");
	} else {
		bool any = false;

		for (int i = 0; i < DIRTY_REASONS; i++)
			if (d->wb_pages[i]) {
				fprintf(out, " %s %.1f MiB", dirty_reason_name(i),
					(double)(d->wb_pages[i] * ps) / MIB);
				any = true;
			}
		fprintf(out, "%s\n", any ? "" : " none");
	}
	fprintf(out, "\nprocesses (top %zu of %ld, by time paused):\n", k, n);
	if (!k)
		fprintf(out, "  (none throttled)\n");
	else
		fprintf(out, "      PID COMM             %8s %8s %12s %12s\n",
			"EVENTS", "PAUSED", "PAUSED(ms)", "MAX(ms)");
	for (size_t i = 0; i < k; i++)
		fprintf(out, "  %7d %-16s %8" PRIu64 " %8" PRIu64
			" %12.3f %12.3f\n", v[i].pid, v[i].comm, v[i].bdp,
			v[i].paused, (double)dirty_ms2ns(v[i].pause_ms) / MS,
			(double)dirty_ms2ns(v[i].max_ms) / MS);
	if (d->nslot)
		dirty_over_time(s, rows);
}

void view_dirty(struct sink *s, long top, long rows)
{
	struct dirty_row *v;
	long n = rows_dirty(s->st, &v);
	size_t k;

	if (n < 0) {
		s->err = (int)n;
		return;
	}
	k = (size_t)n < (size_t)top ? (size_t)n : (size_t)top;
	if (s->j)
		dirty_json(s, v, k);
	else
		dirty_text(s, v, k, n, rows);
	free(v);
}
