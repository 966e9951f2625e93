// SPDX-License-Identifier: MIT
/*
 * cmd-diff.c - `ioreport wa`, `fsync`, `dirty` and `diff BEFORE AFTER`:
 * write amplification, fsync/flush cost, dirty throttling and writeback
 * over time of one recording, and two recordings side by side with
 * their deltas and what changed in the machine between them.
 *
 * A recording is read in one pass, the attributed analysis (analysis.h
 * with AN_ATTRIB: devices, processes, files, the owner of every request),
 * whose hooks feed the timed state machines (wa.h, dirty.h: jbd2, fsync
 * intervals, throttling) every event before the replays see it and every
 * request as it completes.  So standard input works too ('-', once).
 */
#include "config.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "cmd.h"
#include "input/source.h"
#include "input/meta.h"
#include "base/err.h"
#include "driver.h"
#include "replay/fdtable.h"
#include "replay/proctable.h"
#include "out/json.h"
#include "out/report.h"
#include "stats/wa.h"
#include "stats/dirty.h"
#include "stats/snapcmp.h"

#define MB		1e6
#define MS		1e6	/* ns per ms */
#define DEFAULT_TOP	10
#define DEFAULT_ROWS	20

/* ------------------------------------------------------------------ */
/* One recording, loaded */

struct rec {
	const char *path;
	struct source *src;
	struct driver a;
	struct wa *wa;
	struct dirty *dirty;
	const char *snap;	/* start snapshot, or NULL */
	int hz;
	uint64_t app_bytes;	/* written by file syscalls, all files */
	uint64_t app_unplaced;	/* of which on files of no known device */
	struct sink sink;	/* for device names */
};

static int rec_load(struct rec *r, const char *path)
{
	struct an_err err;

	memset(r, 0, sizeof(*r));
	r->path = path;
	r->a.want = AN_WA | AN_DIRTY;
	if (driver_open(&r->a, path, &err) < 0 ||
	    driver_run(&r->a, &err) < 0) {
		error("%s", err.msg);
		return -1;
	}
	r->src = r->a.src;
	r->path = r->a.info->path;
	r->snap = r->a.info->snapshot_start;
	r->wa = r->a.wa;
	r->dirty = r->a.dirty;
	r->hz = r->a.hz;
	r->app_bytes = r->wa->app_all;
	r->app_unplaced = r->wa->app_unplaced;
	flush_warnings(r->src);
	sink_init(&r->sink, &r->a, NULL);
	return 0;
}

static void rec_release(struct rec *r)
{
	if (r->src)
		sink_release(&r->sink);
	driver_close(&r->a);
	memset(r, 0, sizeof(*r));
}

static uint64_t rec_duration(const struct rec *r)
{
	return r->a.last_ts > r->a.first_ts ? r->a.last_ts - r->a.first_ts : 0;
}

/* The COMM column of the process tables (a kworker's name with its
 * workqueue: "kworker/u8:3-writeback"). */
#define COMM_W	22

static double ratio(double num, double den)
{
	return den > 0 ? num / den : NAN;
}

/* The devices whose write amplification is overall: those with both
 * application bytes and device writes. */
static void wa_overall(const struct rec *r, uint64_t *app, uint64_t *dev,
		       uint64_t *ds)
{
	*app = *dev = *ds = 0;
	for (size_t i = 0; i < r->wa->ndev; i++) {
		const struct wa_dev *d = &r->wa->dev[i];

		if (!d->app_bytes || !d->write_bytes)
			continue;
		*app += d->app_bytes;
		*dev += d->write_bytes;
		*ds += d->ds_write_bytes;
	}
}

static const char *proc_comm(const struct proc *p)
{
	return p && p->comm ? p->comm : "?";
}

/* The process of thread tid at time ts, or NULL (see proctable.h). */
static struct proc *proc_of_tid(struct rec *r, int tid, uint64_t ts)
{
	return r->a.have_sys ? proctable_of_tid_at(r->a.sys.pt, tid, ts) :
	       NULL;
}

/* ------------------------------------------------------------------ */
/* Formatting helpers */

static void print_mb(uint64_t b)
{
	printf(" %10.3f", (double)b / MB);
}

static void print_ratio(double v)
{
	if (isnan(v))
		printf(" %7s", "-");
	else
		printf(" %6.2fx", v);
}

static void json_ratio(struct json *j, const char *key, double v)
{
	if (isnan(v))
		json_null(j, key);
	else
		json_double(j, key, v);
}

static void print_head(const struct rec *r, struct json *j, const char *view)
{
	if (j) {
		json_str(j, "file", r->path);
		json_str(j, "view", view);
		json_u64(j, "duration_ns", rec_duration(r));
		return;
	}
	printf("%s: %s, %.6f s\n", r->path, view, (double)rec_duration(r) / 1e9);
}

/*
 * The iolatency layout, for one or two distributions: rows of
 * ">=(unit) .. <(unit) : count |bar|".  Bins: [0, 1), [1, 2), [2, 4), ...
 * in the unit.
 */
#define NBINS	48

static int bin_of(uint64_t ns, uint64_t unit)
{
	uint64_t v = ns / unit;
	int b = 0;

	while (v) {
		b++;
		v >>= 1;
	}
	return b < NBINS ? b : NBINS - 1;
}

static void bins_hist(const struct hist *h, uint64_t unit, uint64_t *bins)
{
	uint64_t lo, hi, n;
	int pos = 0;

	if (!h->b) {
		/* the inline samples are exact: no bucket midpoint */
		for (uint64_t i = 0; i < h->count && i < HIST_INLINE; i++)
			bins[bin_of(h->small[i], unit)]++;
		return;
	}
	while (hist_next_bucket(h, &pos, &lo, &hi, &n))
		bins[bin_of(lo + (hi - lo) / 2, unit)] += n;
}

static void bar(uint64_t n, uint64_t max, int width)
{
	int k = max ? (int)((n * (uint64_t)width + max - 1) / max) : 0;

	putchar('|');
	for (int i = 0; i < width; i++)
		putchar(i < k ? '#' : ' ');
	putchar('|');
}

static uint64_t unit_for(uint64_t maxns)
{
	/* ms like iolatency when anything took a ms or more */
	return maxns >= 2000000 ? 1000000 : 1000;
}

static void print_bins(const char *title, uint64_t unit, const uint64_t *b1,
		       const uint64_t *b2)
{
	int first = NBINS, last = -1, width = b2 ? 24 : 40;
	uint64_t m1 = 0, m2 = 0;
	const char *u = unit == 1000000 ? "ms" : "us";

	for (int i = 0; i < NBINS; i++) {
		if (b1[i] || (b2 && b2[i])) {
			if (first == NBINS)
				first = i;
			last = i;
		}
		if (b1[i] > m1)
			m1 = b1[i];
		if (b2 && b2[i] > m2)
			m2 = b2[i];
	}
	printf("\n%s:\n", title);
	if (last < 0) {
		printf("  (no samples)\n");
		return;
	}
	if (b2)
		printf("  >=(%s) .. <(%s)     : %8s %-*s %8s %-*s\n", u, u,
		       "BEFORE", width + 2, "|Distribution|", "AFTER",
		       width + 2, "|Distribution|");
	else
		printf("  >=(%s) .. <(%s)     : %8s %-*s\n", u, u, "I/O",
		       width + 2, "|Distribution|");
	if (first > 0)
		first--;
	for (int i = first; i <= last; i++) {
		uint64_t lo = i ? 1ULL << (i - 1) : 0, hi = 1ULL << i;

		printf("  %8llu -> %-8llu : %8llu ", (unsigned long long)lo,
		       (unsigned long long)hi, (unsigned long long)b1[i]);
		bar(b1[i], m1, width);
		if (b2) {
			printf(" %8llu ", (unsigned long long)b2[i]);
			bar(b2[i], m2, width);
		}
		putchar('\n');
	}
}

/* ------------------------------------------------------------------ */
/* Options shared by the four commands */

/* ------------------------------------------------------------------ */
/* Rows of processes and files with their write amplification */

struct warow {
	const char *name;
	int pid;		/* 0 for files */
	uint64_t app, blk, journal;
};

static int cmp_warow(const void *x, const void *y)
{
	const struct warow *a = x, *b = y;
	uint64_t ta = a->blk + a->journal, tb = b->blk + b->journal;

	if (ta != tb)
		return ta > tb ? -1 : 1;
	if (a->app != b->app)
		return a->app > b->app ? -1 : 1;
	if (a->pid != b->pid)
		return a->pid - b->pid;
	return strcmp(a->name, b->name);
}

static size_t wa_proc_rows(struct rec *r, struct warow **out)
{
	struct warow *v = NULL;
	size_t n = 0;

	if (r->a.have_sys) {
		struct proctable *pt = r->a.sys.pt;

		v = xcalloc(proctable_count(pt) + 1, sizeof(*v));
		for (size_t i = 0; i < proctable_count(pt); i++) {
			struct proc *p = proctable_at(pt, i);
			struct procstat *ps = p->user;

			if (!ps || (!ps->write_bytes && !ps->blk.write_bytes &&
				    !ps->blk.journal_bytes))
				continue;
			v[n].name = proc_comm(p);
			v[n].pid = p->pid;
			v[n].app = ps->write_bytes;
			v[n].blk = ps->blk.write_bytes;
			v[n].journal = ps->blk.journal_bytes;
			n++;
		}
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_warow);
	*out = v;
	return n;
}

static size_t wa_file_rows(struct rec *r, struct warow **out,
			   char ***names)
{
	struct warow *v = NULL;
	char **nm = NULL;
	size_t n = 0;

	if (r->a.have_sys) {
		struct filetab *ft = r->a.sys.ft;

		v = xcalloc(filetab_count(ft) + 1, sizeof(*v));
		nm = xcalloc(filetab_count(ft) + 1, sizeof(*nm));
		for (size_t i = 0; i < filetab_count(ft); i++) {
			struct file *f = filetab_at(ft, i);
			struct filestat *fs = f->user;

			if (!fs || (!fs->write_bytes && !fs->blk.write_bytes &&
				    !fs->blk.journal_bytes))
				continue;
			nm[n] = xstrdup(file_name(f));
			v[n].name = nm[n];
			v[n].app = fs->write_bytes;
			v[n].blk = fs->blk.write_bytes;
			v[n].journal = fs->blk.journal_bytes;
			n++;
		}
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_warow);
	*out = v;
	*names = nm;
	return n;
}

static void free_names(char **nm, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(nm[i]);
	free(nm);
}

static void print_warows(struct json *j, const char *title,
			 const struct warow *v, size_t n, long top)
{
	size_t k = n < (size_t)top ? n : (size_t)top;

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
			json_ratio(j, "ratio", ratio((double)(v[i].blk + v[i].journal),
						   (double)v[i].app));
			json_object_end(j);
		}
		json_array_end(j);
		return;
	}
	printf("\n%s (top %zu of %zu, by device bytes):\n", title, k, n);
	if (!k) {
		printf("  (none)\n");
		return;
	}
	/* a file's name is the last column, as in `ioreport files` */
	if (v[0].pid)
		printf("  %7s %-*s", "PID", COMM_W, "COMM");
	else
		putchar(' ');
	printf(" %10s %10s %10s %7s%s\n", "APP-W(MB)", "BLK-W(MB)",
	       "JOURNAL(MB)", "RATIO", v[0].pid ? "" : "  FILE");
	for (size_t i = 0; i < k; i++) {
		if (v[i].pid)
			printf("  %7d %-*s", v[i].pid, COMM_W, v[i].name);
		else
			putchar(' ');
		print_mb(v[i].app);
		print_mb(v[i].blk);
		print_mb(v[i].journal);
		print_ratio(ratio((double)(v[i].blk + v[i].journal),
				  (double)v[i].app));
		if (!v[i].pid)
			printf("  %s", v[i].name);
		putchar('\n');
	}
}

/* ------------------------------------------------------------------ */
/* ioreport wa */

static const char wa_usage[] =
"usage: ioreport wa [--json] [--top N] FILE\n"
"\n"
"  -j, --json           one JSON object (sizes in bytes, times in ns)\n"
"  -n, --top N          rows of the process and file lists (default 10)\n"
"  -h, --help           this help\n"
"\n"
"Write amplification: the bytes applications wrote with file syscalls\n"
"against the bytes written to each device, split into file data, journal\n"
"(jbd2), metadata and other, with flush and FUA requests, jbd2 commit\n"
"statistics and the device's own count (diskstats at the start and end\n"
"snapshots).  The overall ratio covers the devices that received\n"
"application writes.  Per process and file: bytes attributed to them at\n"
"the device (attribution rules: docs/attribution.md), journal commits\n"
"their fsyncs waited for included.  Method: docs/write-amplification.md.\n";

static bool dev_shown(const struct wa_dev *d)
{
	return d->writes || d->reads || d->flushes || d->commits ||
	       (d->app_bytes && d->dev >> 20);
}

static void wa_text(struct rec *r, long top)
{
	uint64_t app, dev, ds;
	struct warow *v;
	char **nm;
	size_t n;

	print_head(r, NULL, "write amplification");
	wa_overall(r, &app, &dev, &ds);
	printf("\noverall:\n");
	printf("  application writes  %12.3f MB (file syscalls on the devices below)\n",
	       (double)app / MB);
	printf("  device writes       %12.3f MB (traced write requests)\n",
	       (double)dev / MB);
	if (ds)
		printf("  diskstats writes    %12.3f MB (start -> end snapshot)\n",
		       (double)ds / MB);
	printf("  write amplification");
	if (isnan(ratio((double)dev, (double)app)))
		printf("       -   (no application writes on a traced device)\n");
	else
		printf("  %10.2fx%s\n", ratio((double)dev, (double)app),
		       ds ? "" : "");
	if (ds && app)
		printf("  by diskstats        %10.2fx\n",
		       ratio((double)ds, (double)app));
	if (r->app_unplaced)
		printf("  not placed          %12.3f MB written to files of no known device (pipes, sockets, unnamed files)\n",
		       (double)r->app_unplaced / MB);

	printf("\ndevices:\n");
	printf("  %-10s %10s %10s %10s %10s %10s %10s %7s %6s %6s %6s %10s\n",
	       "DEVICE", "APP-W(MB)", "DEV-W(MB)", "DATA(MB)", "JOURNAL(MB)",
	       "META(MB)", "OTHER(MB)", "RATIO", "FLUSH", "PREFL", "FUA",
	       "DSTAT(MB)");
	for (size_t i = 0; i < r->wa->ndev; i++) {
		const struct wa_dev *d = &r->wa->dev[i];

		if (!dev_shown(d))
			continue;
		printf("  %-10s", sink_dev_name(&r->sink, d->dev));
		print_mb(d->app_bytes);
		print_mb(d->write_bytes);
		for (int c = 0; c < WA_NCLASS; c++)
			print_mb(d->cls[c]);
		print_ratio(ratio((double)d->write_bytes, (double)d->app_bytes));
		printf(" %6llu %6llu %6llu", (unsigned long long)d->flushes,
		       (unsigned long long)d->preflush,
		       (unsigned long long)d->fua);
		if (d->ds)
			print_mb(d->ds_write_bytes);
		else
			printf(" %10s", "-");
		putchar('\n');
	}

	printf("\njournal (jbd2_run_stats):\n");
	if (!r->wa->st.jbd2) {
		printf("  not recorded (no jbd2:jbd2_run_stats events; a file system without a journal has none)\n");
	} else {
		printf("  %-10s %8s %10s %10s %12s %12s %10s %12s\n", "DEVICE",
		       "COMMITS", "HANDLES", "BLOCKS", "LOGGED", "JOURNAL(MB)",
		       "B/LOGGED", "LOGGING(ms)");
		for (size_t i = 0; i < r->wa->ndev; i++) {
			const struct wa_dev *d = &r->wa->dev[i];

			if (!d->commits)
				continue;
			printf("  %-10s %8llu %10llu %10llu %12llu %12.3f",
			       sink_dev_name(&r->sink, d->dev),
			       (unsigned long long)d->commits,
			       (unsigned long long)d->handles,
			       (unsigned long long)d->blocks,
			       (unsigned long long)d->blocks_logged,
			       (double)d->cls[WA_JOURNAL] / MB);
			if (d->blocks_logged)
				printf(" %10.0f", (double)d->cls[WA_JOURNAL] /
				       (double)d->blocks_logged);
			else
				printf(" %10s", "-");
			printf(" %12llu\n",
			       (unsigned long long)d->commit_logging_ms);
		}
		printf("  B/LOGGED: measured journal bytes per block logged (the block size plus\n"
		       "  the descriptor and commit blocks)\n");
	}
	n = wa_proc_rows(r, &v);
	print_warows(NULL, "processes", v, n, top);
	free(v);
	n = wa_file_rows(r, &v, &nm);
	print_warows(NULL, "files", v, n, top);
	free(v);
	free_names(nm, n);
	printf("\nnotes: DATA is file data (writeback, fsync, direct I/O), JOURNAL the jbd2\n"
	       "  thread's requests, META requests flagged metadata or of no file, OTHER\n"
	       "  requests without a known owner.  Method: docs/write-amplification.md\n");
}

static void wa_json(struct rec *r, struct json *j, long top)
{
	uint64_t app, dev, ds;
	struct warow *v;
	char **nm;
	size_t n;

	json_object_begin(j, NULL);
	print_head(r, j, "wa");
	wa_overall(r, &app, &dev, &ds);
	json_object_begin(j, "overall");
	json_u64(j, "app_write_bytes", app);
	json_u64(j, "device_write_bytes", dev);
	json_u64(j, "diskstats_write_bytes", ds);
	json_ratio(j, "ratio", ratio((double)dev, (double)app));
	json_ratio(j, "diskstats_ratio", ds ? ratio((double)ds, (double)app) : NAN);
	json_u64(j, "app_write_bytes_all", r->app_bytes);
	json_u64(j, "app_write_bytes_unplaced", r->app_unplaced);
	json_object_end(j);
	json_array_begin(j, "devices");
	for (size_t i = 0; i < r->wa->ndev; i++) {
		const struct wa_dev *d = &r->wa->dev[i];
		char mm[32];

		if (!dev_shown(d))
			continue;
		snprintf(mm, sizeof(mm), "%u:%u", d->dev >> 20,
			 d->dev & 0xfffff);
		json_object_begin(j, NULL);
		json_str(j, "device", sink_dev_name(&r->sink, d->dev));
		json_str(j, "dev", mm);
		json_u64(j, "app_write_bytes", d->app_bytes);
		json_u64(j, "write_bytes", d->write_bytes);
		json_u64(j, "writes", d->writes);
		for (int c = 0; c < WA_NCLASS; c++) {
			char k[32];

			snprintf(k, sizeof(k), "%s_bytes", wa_class_name(c));
			json_u64(j, k, d->cls[c]);
		}
		json_u64(j, "read_bytes", d->read_bytes);
		json_u64(j, "flushes", d->flushes);
		json_u64(j, "preflush", d->preflush);
		json_u64(j, "fua", d->fua);
		json_u64(j, "flush_ns", d->flush_ns);
		json_ratio(j, "ratio", ratio((double)d->write_bytes,
					     (double)d->app_bytes));
		if (d->ds) {
			json_u64(j, "diskstats_write_bytes", d->ds_write_bytes);
			json_u64(j, "diskstats_writes", d->ds_writes);
			json_u64(j, "diskstats_flushes", d->ds_flushes);
		}
		json_object_begin(j, "jbd2");
		json_u64(j, "commits", d->commits);
		json_u64(j, "handles", d->handles);
		json_u64(j, "blocks", d->blocks);
		json_u64(j, "blocks_logged", d->blocks_logged);
		json_u64(j, "logging_ms", d->commit_logging_ms);
		json_object_end(j);
		json_object_end(j);
	}
	json_array_end(j);
	json_bool(j, "jbd2_recorded", r->wa->st.jbd2);
	n = wa_proc_rows(r, &v);
	print_warows(j, "processes", v, n, top);
	free(v);
	n = wa_file_rows(r, &v, &nm);
	print_warows(j, "files", v, n, top);
	free(v);
	free_names(nm, n);
	json_object_end(j);
}

/* ------------------------------------------------------------------ */
/* fsync: per process and per file */

struct fsrow {
	char *name;		/* comm or path (owned) */
	uint32_t fsdev;		/* an inode without a file: its dev:ino */
	uint64_t ino;
	int pid;
	struct proc *p;
	struct file *f;
	const struct hist *lat;	/* syscall latency (fsync+fdatasync) */
	uint64_t fsyncs, fdatasyncs, sfr;	/* syscalls */
	uint64_t k_count;	/* ext4_sync_file calls */
	uint64_t flushes, flush_ns, write_bytes;
};

static int cmp_fsrow(const void *x, const void *y)
{
	const struct fsrow *a = x, *b = y;
	uint64_t sa = a->lat ? a->lat->sum : 0, sb = b->lat ? b->lat->sum : 0;

	if (sa != sb)
		return sa > sb ? -1 : 1;
	if (a->k_count != b->k_count)
		return a->k_count > b->k_count ? -1 : 1;
	if (a->pid != b->pid)
		return a->pid - b->pid;
	return strcmp(a->name, b->name);
}

static struct fsrow *fsrow_find(struct fsrow *v, size_t n, struct proc *p,
				struct file *f, uint32_t fsdev, uint64_t ino)
{
	for (size_t i = 0; i < n; i++) {
		if (p && v[i].p == p)
			return &v[i];
		if (f && v[i].f == f)
			return &v[i];
		if (!p && !f && !v[i].p && !v[i].f && v[i].ino == ino &&
		    v[i].fsdev == fsdev)
			return &v[i];
	}
	return NULL;
}

/* by process (byproc) or by file: rows with syscall or ext4 fsyncs */
static size_t fsync_rows(struct rec *r, bool byproc, struct fsrow **out)
{
	size_t n = 0, cap = r->wa->nfs + 1;
	struct fsrow *v;

	if (r->a.have_sys)
		cap += byproc ? proctable_count(r->a.sys.pt) :
				filetab_count(r->a.sys.ft);
	v = xcalloc(cap, sizeof(*v));
	if (r->a.have_sys && byproc) {
		struct proctable *pt = r->a.sys.pt;

		for (size_t i = 0; i < proctable_count(pt); i++) {
			struct proc *p = proctable_at(pt, i);
			struct procstat *ps = p->user;

			if (!ps || !(ps->fsync.count ||
				     ps->k[SK_SYNC_FILE_RANGE].count))
				continue;
			v[n].p = p;
			v[n].pid = p->pid;
			v[n].lat = &ps->fsync;
			v[n].fsyncs = ps->k[SK_FSYNC].count;
			v[n].fdatasyncs = ps->k[SK_FDATASYNC].count;
			v[n].sfr = ps->k[SK_SYNC_FILE_RANGE].count;
			n++;
		}
	} else if (r->a.have_sys) {
		struct filetab *ft = r->a.sys.ft;

		for (size_t i = 0; i < filetab_count(ft); i++) {
			struct file *f = filetab_at(ft, i);
			struct filestat *fs = f->user;

			if (!fs || !fs->fsync.count)
				continue;
			v[n].f = f;
			v[n].lat = &fs->fsync;
			v[n].fsyncs = fs->n_fsync;
			v[n].fdatasyncs = fs->n_fdatasync;
			v[n].sfr = fs->n_sfr;
			n++;
		}
	}
	/* the ext4-level intervals and the flushes during them */
	for (size_t i = 0; i < r->wa->nfs; i++) {
		const struct wa_fsync *w = &r->wa->fs[i];
		struct proc *p = NULL;
		struct file *f = NULL;
		struct fsrow *row;

		if (byproc)
			p = proc_of_tid(r, w->tid, w->last_ts);
		if (r->a.have_sys && !byproc) {
			f = filetab_find_devino(r->a.sys.ft, w->fsdev >> 20,
						w->fsdev & 0xfffff, w->ino);
			if (!f && r->a.at)
				f = attrib_inode_file(r->a.at, w->fsdev, w->ino);
		}
		if (byproc && !p) {
			/* a thread the replay does not know: by tid */
			row = NULL;
			for (size_t k = 0; k < n && !row; k++)
				if (!v[k].p && v[k].pid == w->tid)
					row = &v[k];
		} else {
			row = fsrow_find(v, n, p, f, w->fsdev, w->ino);
		}
		if (!row) {
			row = &v[n++];
			row->p = p;
			row->f = f;
			row->pid = p ? p->pid : w->tid;
			row->fsdev = w->fsdev;
			row->ino = w->ino;
		}
		row->k_count += w->count;
		row->flushes += w->flushes;
		row->flush_ns += w->flush_ns;
		row->write_bytes += w->write_bytes;
	}
	for (size_t i = 0; i < n; i++) {
		if (byproc)
			v[i].name = xstrdup(v[i].p ? proc_comm(v[i].p) :
					    source_comm(r->src, v[i].pid));
		else if (v[i].f)
			v[i].name = xstrdup(file_name(v[i].f));
		else
			v[i].name = xasprintf("<inode %u:%u:%llu>",
					      v[i].fsdev >> 20,
					      v[i].fsdev & 0xfffff,
					      (unsigned long long)v[i].ino);
	}
	qsort(v, n, sizeof(*v), cmp_fsrow);
	*out = v;
	return n;
}

static void fsrows_free(struct fsrow *v, size_t n, bool byproc)
{
	(void)byproc;
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

static const char fsync_usage[] =
"usage: ioreport fsync [--json] [--top N] FILE\n"
"\n"
"  -j, --json           one JSON object (sizes in bytes, times in ns)\n"
"  -n, --top N          rows of the process and file lists (default 10)\n"
"  -h, --help           this help\n"
"\n"
"What fsync costs, per process and per file: fsync/fdatasync/\n"
"sync_file_range calls and their latency (syscall enter -> exit), the\n"
"ext4 fsyncs (ext4_sync_file), the device flushes that completed while\n"
"an fsync waited on the same device, and their device time (shared among\n"
"concurrent fsyncs).  Per device: flush requests, PREFLUSH and FUA\n"
"writes and their device time.  A file system mounted without barriers\n"
"(barrier=0 / nobarrier) issues no flushes.\n";

static void fsync_text_rows(struct rec *r, bool byproc, long top)
{
	struct fsrow *v;
	size_t n = fsync_rows(r, byproc, &v), k;

	k = n < (size_t)top ? n : (size_t)top;
	printf("\n%s (top %zu of %zu, by fsync time):\n",
	       byproc ? "processes" : "files", k, n);
	if (!k) {
		printf("  (none)\n");
		fsrows_free(v, n, byproc);
		return;
	}
	/* a file's name is the last column, as in `ioreport files` */
	if (byproc)
		printf("  %7s %-*s", "PID", COMM_W, "COMM");
	else
		putchar(' ');
	printf(" %7s %7s %6s %9s %9s %9s %7s %7s %10s %7s%s\n",
	       "FSYNC", "FDSYNC", "SFR", "P50(ms)", "P99(ms)", "MAX(ms)",
	       "EXT4", "FLUSH", "FLUSH(ms)", "FL/FS", byproc ? "" : "  FILE");
	for (size_t i = 0; i < k; i++) {
		const struct fsrow *w = &v[i];
		const struct hist *h = w->lat;

		if (byproc)
			printf("  %7d %-*s", w->pid, COMM_W,
			       w->name ? w->name : "?");
		else
			putchar(' ');
		printf(" %7llu %7llu %6llu", (unsigned long long)w->fsyncs,
		       (unsigned long long)w->fdatasyncs,
		       (unsigned long long)w->sfr);
		if (h && h->count)
			printf(" %9.3f %9.3f %9.3f",
			       (double)hist_pct(h, 50) / MS,
			       (double)hist_pct(h, 99) / MS,
			       (double)h->max / MS);
		else
			printf(" %9s %9s %9s", "-", "-", "-");
		printf(" %7llu %7llu %10.3f", (unsigned long long)w->k_count,
		       (unsigned long long)w->flushes,
		       (double)w->flush_ns / MS);
		if (w->k_count)
			printf(" %7.2f", (double)w->flushes / (double)w->k_count);
		else
			printf(" %7s", "-");
		if (!byproc)
			printf("  %s", w->name ? w->name : "?");
		putchar('\n');
	}
	fsrows_free(v, n, byproc);
}

static void fsync_json_rows(struct rec *r, struct json *j, bool byproc,
			    long top)
{
	struct fsrow *v;
	size_t n = fsync_rows(r, byproc, &v), k;

	k = n < (size_t)top ? n : (size_t)top;
	json_array_begin(j, byproc ? "processes" : "files");
	for (size_t i = 0; i < k; i++) {
		const struct fsrow *w = &v[i];

		json_object_begin(j, NULL);
		if (byproc) {
			json_i64(j, "pid", w->pid);
			json_str(j, "comm", w->name);
		} else {
			json_str(j, "path", w->name);
		}
		json_u64(j, "fsync", w->fsyncs);
		json_u64(j, "fdatasync", w->fdatasyncs);
		json_u64(j, "sync_file_range", w->sfr);
		if (w->lat)
			json_hist(j, "latency", w->lat);
		json_u64(j, "ext4_fsyncs", w->k_count);
		json_u64(j, "flushes", w->flushes);
		json_u64(j, "flush_ns", w->flush_ns);
		json_u64(j, "write_bytes_during", w->write_bytes);
		json_object_end(j);
	}
	json_array_end(j);
	fsrows_free(v, n, byproc);
}

/* All fsync syscall latencies merged. */
static void fsync_all(struct rec *r, struct hist *all)
{
	memset(all, 0, sizeof(*all));
	if (!r->a.have_sys)
		return;
	for (size_t i = 0; i < proctable_count(r->a.sys.pt); i++) {
		struct procstat *ps = proctable_at(r->a.sys.pt, i)->user;

		if (ps)
			hist_merge(all, &ps->fsync);
	}
}

static void fsync_devices(struct rec *r, struct json *j)
{
	if (j)
		json_array_begin(j, "devices");
	else
		printf("\ndevices:\n  %-10s %8s %8s %8s %12s %12s\n", "DEVICE",
		       "FLUSHES", "PREFLUSH", "FUA", "FLUSH(ms)", "AVG(ms)");
	for (size_t i = 0; i < r->wa->ndev; i++) {
		const struct wa_dev *d = &r->wa->dev[i];
		uint64_t n = d->flushes + d->preflush + d->fua;

		if (!d->writes && !d->flushes)
			continue;
		if (j) {
			json_object_begin(j, NULL);
			json_str(j, "device", sink_dev_name(&r->sink, d->dev));
			json_u64(j, "flushes", d->flushes);
			json_u64(j, "preflush", d->preflush);
			json_u64(j, "fua", d->fua);
			json_u64(j, "flush_ns", d->flush_ns);
			if (d->ds)
				json_u64(j, "diskstats_flushes", d->ds_flushes);
			json_object_end(j);
			continue;
		}
		printf("  %-10s %8llu %8llu %8llu %12.3f %12.3f\n",
		       sink_dev_name(&r->sink, d->dev),
		       (unsigned long long)d->flushes,
		       (unsigned long long)d->preflush,
		       (unsigned long long)d->fua, (double)d->flush_ns / MS,
		       n ? (double)d->flush_ns / (double)n / MS : 0.0);
	}
	if (j)
		json_array_end(j);
}

static void fsync_view(struct rec *r, struct json *j, long top)
{
	struct hist all;

	fsync_all(r, &all);
	if (j) {
		json_object_begin(j, NULL);
		print_head(r, j, "fsync");
		json_bool(j, "ext4_sync_recorded", r->wa->st.ext4_sync);
		json_hist(j, "fsync_latency", &all);
		fsync_devices(r, j);
		fsync_json_rows(r, j, true, top);
		fsync_json_rows(r, j, false, top);
		json_object_end(j);
		hist_release(&all);
		return;
	}
	print_head(r, NULL, "fsync, flushes and barriers");
	printf("\nfsync/fdatasync: %llu calls", (unsigned long long)all.count);
	if (all.count)
		printf(", p50 %.3f ms, p99 %.3f ms, max %.3f ms",
		       (double)hist_pct(&all, 50) / MS,
		       (double)hist_pct(&all, 99) / MS,
		       (double)all.max / MS);
	putchar('\n');
	if (!r->wa->st.ext4_sync)
		printf("  (no ext4_sync_file events: flushes are not joined to fsyncs)\n");
	fsync_devices(r, NULL);
	fsync_text_rows(r, true, top);
	fsync_text_rows(r, false, top);
	if (all.count) {
		uint64_t b[NBINS] = { 0 };
		uint64_t unit = unit_for(all.max);

		bins_hist(&all, unit, b);
		print_bins("fsync latency", unit, b, NULL);
	}
	printf("\nnotes: FSYNC/FDSYNC/SFR and the latency are syscalls; EXT4 counts\n"
	       "  ext4_sync_file calls; FLUSH the flush requests (and PREFLUSH/FUA\n"
	       "  writes) that completed on the file's device while one waited.\n");
	hist_release(&all);
}

/* ------------------------------------------------------------------ */
/* dirty */

static const char dirty_usage[] =
"usage: ioreport dirty [--json] [--top N] [--rows N] FILE\n"
"\n"
"  -j, --json           one JSON object (sizes in bytes, times in ns)\n"
"  -n, --top N          rows of the process list (default 10)\n"
"  -r, --rows N         time rows (default 20; JSON: every 100 ms slot)\n"
"  -h, --help           this help\n"
"\n"
"Dirty page throttling and writeback: the time each process was paused\n"
"in balance_dirty_pages, the global dirty state and its thresholds\n"
"(global_dirty_state: background and dirty limits, dirty and writeback\n"
"pages), the flusher's writeback by reason (writeback_written) and the\n"
"bytes that reached the devices, over time.\n";

struct dtask {
	int pid;
	const char *comm;
	uint64_t bdp, paused, pause_ms, max_ms;
};

static int cmp_dtask(const void *x, const void *y)
{
	const struct dtask *a = x, *b = y;

	if (a->pause_ms != b->pause_ms)
		return a->pause_ms > b->pause_ms ? -1 : 1;
	if (a->bdp != b->bdp)
		return a->bdp > b->bdp ? -1 : 1;
	return a->pid - b->pid;
}

/* Threads' pauses summed per process. */
static size_t dirty_procs(struct rec *r, struct dtask **out)
{
	struct dirty *d = r->dirty;
	struct dtask *v = xcalloc(d->ntask + 1, sizeof(*v));
	size_t n = 0;

	for (size_t i = 0; i < d->ntask; i++) {
		const struct dirty_task *t = &d->task[i];
		struct proc *p = proc_of_tid(r, t->tid, t->last_ts);
		int pid = p ? p->pid : t->tid;
		size_t k;

		for (k = 0; k < n; k++)
			if (v[k].pid == pid)
				break;
		if (k == n) {
			v[n].pid = pid;
			v[n].comm = p ? proc_comm(p) : source_comm(r->src, t->tid);
			n++;
		}
		v[k].bdp += t->bdp;
		v[k].paused += t->paused;
		v[k].pause_ms += t->pause_ms;
		if (t->max_pause_ms > v[k].max_ms)
			v[k].max_ms = t->max_pause_ms;
	}
	qsort(v, n, sizeof(*v), cmp_dtask);
	*out = v;
	return n;
}

static void dirty_view(struct rec *r, struct json *j, long top, long rows)
{
	struct dirty *d = r->dirty;
	uint64_t ps = d->page_size;
	struct dtask *v;
	size_t n = dirty_procs(r, &v), k = n < (size_t)top ? n : (size_t)top;

	if (j) {
		json_object_begin(j, NULL);
		print_head(r, j, "dirty");
		json_bool(j, "balance_dirty_pages_recorded", d->have_bdp);
		json_bool(j, "global_dirty_state_recorded", d->have_gds);
		json_bool(j, "writeback_written_recorded", d->have_wb);
		json_i64(j, "hz", r->hz);
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
			const struct dirty_slot *s = &d->slot[i];
			uint64_t wb = 0;

			for (int q = 0; q < DIRTY_REASONS; q++)
				wb += s->wb_pages[q];
			json_object_begin(j, NULL);
			json_u64(j, "t_ns", (uint64_t)i * DIRTY_SLOT_NS);
			if (s->gds) {
				json_u64(j, "dirty_bytes", s->nr_dirty * ps);
				json_u64(j, "writeback_bytes", s->nr_writeback * ps);
				json_u64(j, "background_thresh_bytes", s->bg_thresh * ps);
				json_u64(j, "dirty_thresh_bytes", s->thresh * ps);
				json_u64(j, "dirty_limit_bytes", s->limit * ps);
			}
			json_u64(j, "throttle_events", s->bdp);
			json_u64(j, "paused_ns", dirty_ms2ns(s->pause_ms));
			json_u64(j, "written_bytes", s->written * ps);
			json_u64(j, "flusher_bytes", wb * ps);
			json_u64(j, "device_write_bytes", s->write_bytes);
			json_u64(j, "flushes", s->flushes);
			json_object_end(j);
		}
		json_array_end(j);
		json_object_end(j);
		free(v);
		return;
	}

	print_head(r, NULL, "dirty throttling and writeback");
	printf("\nthresholds (global_dirty_state):\n");
	if (!d->have_gds || !d->gds_samples) {
		printf("  none recorded (global_dirty_state fires only when a writer is throttled\n"
		       "  or the dirty limits are checked; no samples here)\n");
	} else {
		printf("  background  %10.1f MB", (double)(d->min_bg_thresh * ps) / MB);
		if (d->max_bg_thresh != d->min_bg_thresh)
			printf(" .. %.1f MB", (double)(d->max_bg_thresh * ps) / MB);
		printf("\n  dirty       %10.1f MB", (double)(d->min_thresh * ps) / MB);
		if (d->max_thresh != d->min_thresh)
			printf(" .. %.1f MB", (double)(d->max_thresh * ps) / MB);
		printf("\n  max dirty   %10.1f MB\n", (double)(d->max_dirty * ps) / MB);
	}
	printf("\nthrottling (balance_dirty_pages):\n");
	if (!d->have_bdp)
		printf("  not recorded\n");
	else
		printf("  %llu events, %llu paused, %.3f ms paused in all, longest %.3f ms\n",
		       (unsigned long long)d->bdp,
		       (unsigned long long)d->bdp_paused,
		       (double)dirty_ms2ns(d->pause_ms) / MS,
		       (double)dirty_ms2ns(d->max_pause_ms) / MS);
	printf("\nwriteback: %.1f MB written (global_dirty_state nr_written), by the flusher (writeback_start -> writeback_written):",
	       (double)(d->written * ps) / MB);
	if (!d->have_wb) {
		printf(" not recorded\n");
	} else {
		bool any = false;

		for (int i = 0; i < DIRTY_REASONS; i++)
			if (d->wb_pages[i]) {
				printf(" %s %.1f MB", dirty_reason_name(i),
				       (double)(d->wb_pages[i] * ps) / MB);
				any = true;
			}
		printf("%s\n", any ? "" : " none");
	}
	printf("\nprocesses (top %zu of %zu, by time paused):\n", k, n);
	if (!k)
		printf("  (none throttled)\n");
	else
		printf("      PID COMM             %8s %8s %12s %12s\n", "EVENTS",
		       "PAUSED", "PAUSED(ms)", "MAX(ms)");
	for (size_t i = 0; i < k; i++)
		printf("  %7d %-16s %8llu %8llu %12.3f %12.3f\n", v[i].pid,
		       v[i].comm, (unsigned long long)v[i].bdp,
		       (unsigned long long)v[i].paused,
		       (double)dirty_ms2ns(v[i].pause_ms) / MS,
		       (double)dirty_ms2ns(v[i].max_ms) / MS);
	free(v);

	if (d->nslot) {
		struct dirty_slot *rb = xcalloc((size_t)rows, sizeof(*rb));
		uint64_t w = dirty_rebin(d, rb, (size_t)rows);
		size_t used = (d->nslot + w / DIRTY_SLOT_NS - 1) /
			      (w / DIRTY_SLOT_NS);

		printf("\nover time (rows of %.1f s from the first event; dirty and thresholds: last sample):\n",
		       (double)w / 1e9);
		printf("  %8s %10s %10s %10s %10s %8s %12s %12s %12s %12s %7s\n",
		       "T(s)", "DIRTY(MB)", "WB(MB)", "BG(MB)", "THRESH(MB)",
		       "THROTTL", "PAUSED(ms)", "WRITTEN(MB)", "FLUSHER(MB)",
		       "DEV-W(MB)", "FLUSH");
		for (size_t i = 0; i < used; i++) {
			const struct dirty_slot *s = &rb[i];
			uint64_t wb = 0;

			for (int q = 0; q < DIRTY_REASONS; q++)
				wb += s->wb_pages[q];
			printf("  %8.1f", (double)(i * w) / 1e9);
			if (s->gds)
				printf(" %10.1f %10.1f %10.1f %10.1f",
				       (double)(s->nr_dirty * ps) / MB,
				       (double)(s->nr_writeback * ps) / MB,
				       (double)(s->bg_thresh * ps) / MB,
				       (double)(s->thresh * ps) / MB);
			else
				printf(" %10s %10s %10s %10s", "-", "-", "-", "-");
			printf(" %8llu %12.3f %12.1f %12.1f %12.1f %7llu\n",
			       (unsigned long long)s->bdp,
			       (double)dirty_ms2ns(s->pause_ms) / MS,
			       (double)(s->written * ps) / MB,
			       (double)(wb * ps) / MB,
			       (double)s->write_bytes / MB,
			       (unsigned long long)s->flushes);
		}
		free(rb);
	}
}

/* ------------------------------------------------------------------ */
/* The single-recording commands */

enum view { V_WA, V_FSYNC, V_DIRTY };

static int run_one(enum view v, int argc, char **argv, const char *usage)
{
	struct json j;
	struct rec r;
	struct view_opts o = { .top = DEFAULT_TOP, .rows = DEFAULT_ROWS };
	int rc = parse_view_opts(argc, argv, usage,
				 v == V_DIRTY ? "jn:r:h" : "jn:h", 1, 100000,
				 1, &o);

	if (rc >= 0)
		return rc;
	if (rec_load(&r, o.path[0]) < 0) {
		rec_release(&r);
		return 1;
	}
	if (o.json)
		json_init(&j, stdout);
	switch (v) {
	case V_WA:
		if (o.json)
			wa_json(&r, &j, o.top);
		else
			wa_text(&r, o.top);
		break;
	case V_FSYNC:
		fsync_view(&r, o.json ? &j : NULL, o.top);
		break;
	case V_DIRTY:
		dirty_view(&r, o.json ? &j : NULL, o.top, o.rows);
		break;
	}
	rc = 0;
	if (o.json && json_finish(&j) < 0)
		rc = error("writing the JSON output failed");
	if (!o.json && (fflush(stdout) == EOF || ferror(stdout)))
		rc = error("writing the output failed: %m");
	rec_release(&r);
	return rc ? 1 : 0;
}

int cmd_wa(int argc, char **argv)
{
	return run_one(V_WA, argc, argv, wa_usage);
}

int cmd_fsync(int argc, char **argv)
{
	return run_one(V_FSYNC, argc, argv, fsync_usage);
}

int cmd_dirty(int argc, char **argv)
{
	return run_one(V_DIRTY, argc, argv, dirty_usage);
}

/* ------------------------------------------------------------------ */
/* diff: every view as rows of metrics, compared */

enum unit { U_COUNT, U_BYTES, U_NS, U_RATIO, U_RATE, U_BPS };

struct mdef {
	const char *json;	/* raw unit in the name */
	const char *label;	/* text */
	enum unit u;
};

#define MAXM	16

struct mrow {
	char *key;
	double v[MAXM];
	struct hist *h;		/* device rows: Q2C, not owned */
	struct hist lh;	/* process rows: fsync, owned */
};

struct msect {
	const char *name;
	const struct mdef *m;
	int nm;
	struct mrow *rows;
	size_t n, alloc;
};

enum { S_SUMMARY, S_DEVICES, S_PROCESSES, S_FILES, S_WA, S_FSYNC, S_DIRTY,
       S_NR };

static const struct mdef m_summary[] = {
	{ "duration_ns", "duration(s)", U_NS },
	{ "events", "events", U_COUNT },
	{ "lost_events", "lost events", U_COUNT },
	{ "block_requests", "block requests", U_COUNT },
	{ "read_bytes", "read(MB)", U_BYTES },
	{ "write_bytes", "written(MB)", U_BYTES },
	{ "flushes", "flush requests", U_COUNT },
	{ "syscalls", "file syscalls", U_COUNT },
	{ "app_write_bytes", "app writes(MB)", U_BYTES },
	{ "fsyncs", "fsync+fdatasync", U_COUNT },
	{ "throttled_ns", "throttled(ms)", U_NS },
	{ "wa_ratio", "write ampl.(x)", U_RATIO },
};

static const struct mdef m_devices[] = {
	{ "requests", "requests", U_COUNT },
	{ "bytes", "MB", U_BYTES },
	{ "iops", "IOPS", U_RATE },
	{ "bytes_per_s", "MB/s", U_BPS },
	{ "fua", "FUA", U_COUNT },
	{ "preflush", "PREFLUSH", U_COUNT },
	{ "p50_ns", "Q2C p50(ms)", U_NS },
	{ "p90_ns", "Q2C p90(ms)", U_NS },
	{ "p99_ns", "Q2C p99(ms)", U_NS },
	{ "p999_ns", "Q2C p99.9(ms)", U_NS },
	{ "max_ns", "Q2C max(ms)", U_NS },
	{ "d2c_p50_ns", "D2C p50(ms)", U_NS },
	{ "d2c_p99_ns", "D2C p99(ms)", U_NS },
	{ "q2d_p50_ns", "Q2D p50(ms)", U_NS },
};

static const struct mdef m_procs[] = {
	{ "processes", "processes", U_COUNT },
	{ "syscalls", "file syscalls", U_COUNT },
	{ "read_bytes", "read(MB)", U_BYTES },
	{ "write_bytes", "written(MB)", U_BYTES },
	{ "fsyncs", "fsync+fdatasync", U_COUNT },
	{ "fsync_p50_ns", "fsync p50(ms)", U_NS },
	{ "fsync_p90_ns", "fsync p90(ms)", U_NS },
	{ "fsync_p99_ns", "fsync p99(ms)", U_NS },
	{ "fsync_p999_ns", "fsync p99.9(ms)", U_NS },
	{ "fsync_max_ns", "fsync max(ms)", U_NS },
	{ "blk_write_bytes", "device writes(MB)", U_BYTES },
	{ "journal_bytes", "journal(MB)", U_BYTES },
	{ "throttled_ns", "throttled(ms)", U_NS },
	{ "wa_ratio", "write ampl.(x)", U_RATIO },
};

static const struct mdef m_files[] = {
	{ "writes", "writes", U_COUNT },
	{ "write_bytes", "written(MB)", U_BYTES },
	{ "reads", "reads", U_COUNT },
	{ "read_bytes", "read(MB)", U_BYTES },
	{ "fsyncs", "fsyncs", U_COUNT },
	{ "fsync_p50_ns", "fsync p50(ms)", U_NS },
	{ "fsync_p99_ns", "fsync p99(ms)", U_NS },
	{ "blk_write_bytes", "device writes(MB)", U_BYTES },
	{ "wa_ratio", "write ampl.(x)", U_RATIO },
};

static const struct mdef m_wa[] = {
	{ "app_write_bytes", "app writes(MB)", U_BYTES },
	{ "write_bytes", "device writes(MB)", U_BYTES },
	{ "data_bytes", "data(MB)", U_BYTES },
	{ "journal_bytes", "journal(MB)", U_BYTES },
	{ "metadata_bytes", "metadata(MB)", U_BYTES },
	{ "other_bytes", "other(MB)", U_BYTES },
	{ "flushes", "flushes", U_COUNT },
	{ "preflush", "PREFLUSH writes", U_COUNT },
	{ "fua", "FUA writes", U_COUNT },
	{ "flush_ns", "flush time(ms)", U_NS },
	{ "jbd2_commits", "jbd2 commits", U_COUNT },
	{ "jbd2_blocks_logged", "jbd2 blocks logged", U_COUNT },
	{ "diskstats_write_bytes", "diskstats writes(MB)", U_BYTES },
	{ "ratio", "write ampl.(x)", U_RATIO },
};

static const struct mdef m_fsync[] = {
	{ "ext4_fsyncs", "ext4 fsyncs", U_COUNT },
	{ "p50_ns", "p50(ms)", U_NS },
	{ "p90_ns", "p90(ms)", U_NS },
	{ "p99_ns", "p99(ms)", U_NS },
	{ "p999_ns", "p99.9(ms)", U_NS },
	{ "max_ns", "max(ms)", U_NS },
	{ "flushes", "flushes during", U_COUNT },
	{ "flush_ns", "flush time(ms)", U_NS },
	{ "flushes_per_fsync", "flushes/fsync", U_RATIO },
};

static const struct mdef m_dirty[] = {
	{ "throttle_events", "throttle events", U_COUNT },
	{ "paused_events", "paused events", U_COUNT },
	{ "paused_ns", "paused(ms)", U_NS },
	{ "max_pause_ns", "longest pause(ms)", U_NS },
	{ "max_dirty_bytes", "max dirty(MB)", U_BYTES },
	{ "background_thresh_bytes", "bg threshold(MB)", U_BYTES },
	{ "dirty_thresh_bytes", "dirty threshold(MB)", U_BYTES },
	{ "wb_background_bytes", "wb background(MB)", U_BYTES },
	{ "wb_periodic_bytes", "wb periodic(MB)", U_BYTES },
	{ "wb_sync_bytes", "wb sync(MB)", U_BYTES },
	{ "wb_other_bytes", "wb other(MB)", U_BYTES },
	{ "device_write_bytes", "device writes(MB)", U_BYTES },
	{ "write_slots", "slots writing(100ms)", U_COUNT },
	{ "peak_bytes_per_s", "peak MB/s", U_BPS },
};

struct profile {
	struct msect s[S_NR];
};

static struct mrow *row_get(struct msect *s, const char *key)
{
	struct mrow *r;

	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->rows[i].key, key))
			return &s->rows[i];
	if (s->n == s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 16;
		s->rows = xrealloc(s->rows, s->alloc * sizeof(*s->rows));
	}
	r = &s->rows[s->n++];
	memset(r, 0, sizeof(*r));
	r->key = xstrdup(key);
	return r;
}

static void profile_init(struct profile *p)
{
	static const struct { const char *n; const struct mdef *m; int nm; } d[S_NR] = {
		{ "summary", m_summary, ARRAY_SIZE(m_summary) },
		{ "devices", m_devices, ARRAY_SIZE(m_devices) },
		{ "processes", m_procs, ARRAY_SIZE(m_procs) },
		{ "files", m_files, ARRAY_SIZE(m_files) },
		{ "write_amplification", m_wa, ARRAY_SIZE(m_wa) },
		{ "fsync", m_fsync, ARRAY_SIZE(m_fsync) },
		{ "dirty", m_dirty, ARRAY_SIZE(m_dirty) },
	};

	memset(p, 0, sizeof(*p));
	for (int i = 0; i < S_NR; i++) {
		p->s[i].name = d[i].n;
		p->s[i].m = d[i].m;
		p->s[i].nm = d[i].nm;
	}
}

static void profile_release(struct profile *p)
{
	for (int i = 0; i < S_NR; i++) {
		for (size_t k = 0; k < p->s[i].n; k++) {
			free(p->s[i].rows[k].key);
			hist_release(&p->s[i].rows[k].lh);
		}
		free(p->s[i].rows);
	}
}

/* A device as BEFORE names it. */
static const char *dev_key(struct rec *r, const struct snapdiff *sd,
			   struct rec *before, uint32_t dev)
{
	if (sd && before) {
		uint32_t bd = snapdiff_dev(sd, dev);

		if (bd != dev)
			return sink_dev_name(&before->sink, bd);
	}
	return sink_dev_name(&r->sink, dev);
}

static void profile_fill(struct profile *p, struct rec *r,
			 const struct snapdiff *sd, struct rec *before)
{
	struct mrow *row;
	uint64_t app, dev, ds, lost = 0, fsyncs = 0, calls = 0;
	double secs = (double)rec_duration(r) / 1e9;
	struct wa_dev t;
	char key[512], pbuf[4096];

	profile_init(p);
	for (int c = 0; c < r->a.nr_cpus; c++)
		lost += r->a.lost[c].events;
	wa_total(r->wa, &t);
	wa_overall(r, &app, &dev, &ds);
	if (r->a.have_sys)
		for (size_t i = 0; i < proctable_count(r->a.sys.pt); i++) {
			struct procstat *ps = proctable_at(r->a.sys.pt, i)->user;

			if (!ps)
				continue;
			fsyncs += ps->fsync.count;
			calls += ps->calls;
		}
	row = row_get(&p->s[S_SUMMARY], "all");
	row->v[0] = (double)rec_duration(r);
	row->v[1] = (double)r->a.events;
	row->v[2] = (double)lost;
	row->v[3] = (double)(t.reads + t.writes + t.flushes);
	row->v[4] = (double)t.read_bytes;
	row->v[5] = (double)t.write_bytes;
	row->v[6] = (double)t.flushes;
	row->v[7] = (double)calls;
	row->v[8] = (double)r->app_bytes;
	row->v[9] = (double)fsyncs;
	/* the pauses of balance_dirty_pages, in ms in the event */
	row->v[10] = (double)dirty_ms2ns(r->dirty->pause_ms);
	row->v[11] = ratio((double)dev, (double)app);

	for (size_t i = 0; i < r->a.ndev; i++) {
		struct devstat *d = &r->a.dev[i];

		snprintf(key, sizeof(key), "%s %s", dev_key(r, sd, before, d->dev),
			 blk_op_name(d->op));
		row = row_get(&p->s[S_DEVICES], key);
		row->v[0] = (double)d->reqs;
		row->v[1] = (double)d->bytes;
		row->v[2] = secs > 0 ? (double)d->reqs / secs : 0;
		row->v[3] = secs > 0 ? (double)d->bytes / secs : 0;
		row->v[4] = (double)d->fua;
		row->v[5] = (double)d->preflush;
		row->v[6] = (double)hist_pct(&d->total, 50);
		row->v[7] = (double)hist_pct(&d->total, 90);
		row->v[8] = (double)hist_pct(&d->total, 99);
		row->v[9] = (double)hist_pct(&d->total, 99.9);
		row->v[10] = (double)hist_max(&d->total);
		row->v[11] = (double)hist_pct(&d->device, 50);
		row->v[12] = (double)hist_pct(&d->device, 99);
		row->v[13] = d->queue.count ? (double)hist_pct(&d->queue, 50) : NAN;
		row->h = &d->total;
	}

	if (r->a.have_sys) {
		struct proctable *pt = r->a.sys.pt;
		struct filetab *ft = r->a.sys.ft;

		for (size_t i = 0; i < proctable_count(pt); i++) {
			struct proc *pr = proctable_at(pt, i);
			struct procstat *ps = pr->user;

			if (!ps || !(ps->calls || ps->blk.write_bytes ||
				     ps->throttle_ns))
				continue;
			row = row_get(&p->s[S_PROCESSES], proc_comm(pr));
			row->v[0] += 1;
			row->v[1] += (double)ps->calls;
			row->v[2] += (double)ps->read_bytes;
			row->v[3] += (double)ps->write_bytes;
			row->v[4] += (double)ps->fsync.count;
			hist_merge(&row->lh, &ps->fsync);
			row->v[10] += (double)ps->blk.write_bytes;
			row->v[11] += (double)ps->blk.journal_bytes;
		}
		/* throttling from the events (ms), per thread's process */
		for (size_t i = 0; i < r->dirty->ntask; i++) {
			const struct dirty_task *t = &r->dirty->task[i];
			struct proc *pr = proc_of_tid(r, t->tid, t->last_ts);

			if (!t->pause_ms)
				continue;
			row = row_get(&p->s[S_PROCESSES], pr ? proc_comm(pr) :
				      source_comm(r->src, t->tid));
			row->v[12] += (double)dirty_ms2ns(t->pause_ms);
		}
		for (size_t i = 0; i < p->s[S_PROCESSES].n; i++) {
			struct mrow *m = &p->s[S_PROCESSES].rows[i];

			m->v[5] = (double)hist_pct(&m->lh, 50);
			m->v[6] = (double)hist_pct(&m->lh, 90);
			m->v[7] = (double)hist_pct(&m->lh, 99);
			m->v[8] = (double)hist_pct(&m->lh, 99.9);
			m->v[9] = (double)m->lh.max;
			m->v[13] = ratio(m->v[10] + m->v[11], m->v[3]);
		}
		for (size_t i = 0; i < filetab_count(ft); i++) {
			struct file *f = filetab_at(ft, i);
			struct filestat *fs = f->user;
			const char *path;

			if (!fs || !f->path || !(fs->writes || fs->reads ||
						 fs->blk.write_bytes ||
						 fs->fsync.count))
				continue;
			path = sd ? snapdiff_path(sd, f->path, pbuf,
						  sizeof(pbuf)) : f->path;
			row = row_get(&p->s[S_FILES], path);
			row->v[0] += (double)fs->writes;
			row->v[1] += (double)fs->write_bytes;
			row->v[2] += (double)fs->reads;
			row->v[3] += (double)fs->read_bytes;
			row->v[4] += (double)fs->fsync.count;
			hist_merge(&row->lh, &fs->fsync);
			row->v[7] += (double)(fs->blk.write_bytes +
					      fs->blk.journal_bytes);
		}
		for (size_t i = 0; i < p->s[S_FILES].n; i++) {
			struct mrow *m = &p->s[S_FILES].rows[i];

			m->v[5] = (double)hist_pct(&m->lh, 50);
			m->v[6] = (double)hist_pct(&m->lh, 99);
			m->v[8] = ratio(m->v[7], m->v[1]);
		}
	}

	for (size_t i = 0; i < r->wa->ndev; i++) {
		const struct wa_dev *d = &r->wa->dev[i];

		if (!dev_shown(d) || !(d->writes || d->app_bytes || d->flushes))
			continue;
		row = row_get(&p->s[S_WA], dev_key(r, sd, before, d->dev));
		row->v[0] = (double)d->app_bytes;
		row->v[1] = (double)d->write_bytes;
		for (int c = 0; c < WA_NCLASS; c++)
			row->v[2 + c] = (double)d->cls[c];
		row->v[6] = (double)d->flushes;
		row->v[7] = (double)d->preflush;
		row->v[8] = (double)d->fua;
		row->v[9] = (double)d->flush_ns;
		row->v[10] = (double)d->commits;
		row->v[11] = (double)d->blocks_logged;
		row->v[12] = d->ds ? (double)d->ds_write_bytes : NAN;
		row->v[13] = ratio((double)d->write_bytes, (double)d->app_bytes);
	}
	row = row_get(&p->s[S_WA], "overall");
	row->v[0] = (double)app;
	row->v[1] = (double)dev;
	for (int c = 0; c < WA_NCLASS; c++)
		row->v[2 + c] = (double)t.cls[c];
	row->v[6] = (double)t.flushes;
	row->v[7] = (double)t.preflush;
	row->v[8] = (double)t.fua;
	row->v[9] = (double)t.flush_ns;
	row->v[10] = (double)t.commits;
	row->v[11] = (double)t.blocks_logged;
	row->v[12] = ds ? (double)ds : NAN;
	row->v[13] = ratio((double)dev, (double)app);

	/* fsync per comm, from the ext4 intervals */
	for (size_t i = 0; i < r->wa->nfs; i++) {
		const struct wa_fsync *w = &r->wa->fs[i];
		struct proc *pr = proc_of_tid(r, w->tid, w->last_ts);
		struct hist *h;

		row = row_get(&p->s[S_FSYNC], pr ? proc_comm(pr) :
			      source_comm(r->src, w->tid));
		row->v[0] += (double)w->count;
		row->v[6] += (double)w->flushes;
		row->v[7] += (double)w->flush_ns;
		/* the hist of the row: merged into a private one */
		h = row->h;
		if (!h) {
			h = xcalloc(1, sizeof(*h));
			row->h = h;
		}
		hist_merge(h, &w->lat);
	}
	for (size_t i = 0; i < p->s[S_FSYNC].n; i++) {
		struct mrow *m = &p->s[S_FSYNC].rows[i];

		m->v[1] = (double)hist_pct(m->h, 50);
		m->v[2] = (double)hist_pct(m->h, 90);
		m->v[3] = (double)hist_pct(m->h, 99);
		m->v[4] = (double)hist_pct(m->h, 99.9);
		m->v[5] = (double)hist_max(m->h);
		m->v[8] = ratio(m->v[6], m->v[0]);
	}

	{
		struct dirty *d = r->dirty;
		uint64_t ps = d->page_size, other = 0, peak = 0, wslots = 0;

		for (int q = 0; q < DIRTY_REASONS; q++)
			if (q != 0 && q != 2 && q != 3)
				other += d->wb_pages[q];
		for (size_t i = 0; i < d->nslot; i++) {
			if (d->slot[i].write_bytes > peak)
				peak = d->slot[i].write_bytes;
			wslots += d->slot[i].write_bytes != 0;
		}
		row = row_get(&p->s[S_DIRTY], "all");
		row->v[0] = (double)d->bdp;
		row->v[1] = (double)d->bdp_paused;
		row->v[2] = (double)dirty_ms2ns(d->pause_ms);
		row->v[3] = (double)dirty_ms2ns(d->max_pause_ms);
		row->v[4] = (double)(d->max_dirty * ps);
		row->v[5] = d->gds_samples ? (double)(d->max_bg_thresh * ps) : NAN;
		row->v[6] = d->gds_samples ? (double)(d->max_thresh * ps) : NAN;
		row->v[7] = (double)(d->wb_pages[0] * ps);
		row->v[8] = (double)(d->wb_pages[3] * ps);
		row->v[9] = (double)(d->wb_pages[2] * ps);
		row->v[10] = (double)(other * ps);
		row->v[11] = (double)d->write_bytes;
		row->v[12] = (double)wslots;
		row->v[13] = (double)peak * 1e9 / (double)DIRTY_SLOT_NS;
	}
}

/* The fsync section's hists are owned by the rows. */
static void profile_free_fsync_hists(struct profile *p)
{
	struct msect *s = &p->s[S_FSYNC];

	for (size_t i = 0; i < s->n; i++) {
		hist_release(s->rows[i].h);
		free(s->rows[i].h);
		s->rows[i].h = NULL;
	}
}

static double scale(enum unit u, double v)
{
	switch (u) {
	case U_BYTES:
	case U_BPS:
		return v / MB;
	case U_NS:
		return v / MS;
	default:
		return v;
	}
}

static void print_val(enum unit u, const char *label, double v)
{
	if (isnan(v)) {
		printf(" %13s", "-");
		return;
	}
	v = scale(u, v);
	if (!strcmp(label, "duration(s)"))
		v /= 1000;
	if (u == U_COUNT)
		printf(" %13.0f", v);
	else if (u == U_RATIO)
		printf(" %13.2f", v);
	else
		printf(" %13.3f", v);
}

static double pct_change(double b, double a)
{
	if (isnan(a) || isnan(b))
		return NAN;
	if (b == 0)
		return a == 0 ? 0 : INFINITY;
	return (a - b) / fabs(b) * 100;
}

static void print_pct(double b, double a)
{
	double p = pct_change(b, a);

	if (isnan(p))
		printf(" %9s", "-");
	else if (isinf(p))
		printf(" %9s", "new");
	else
		printf(" %+8.1f%%", p);
}

/*
 * Weight of a row for the top-N choice: its counts plus its bytes in
 * 4 KiB units (a request, a call and a page weigh alike).
 */
static double row_weight(const struct msect *s, const struct mrow *r)
{
	double w = 0;

	for (int i = 0; i < s->nm; i++) {
		if (isnan(r->v[i]))
			continue;
		if (s->m[i].u == U_COUNT)
			w += r->v[i];
		else if (s->m[i].u == U_BYTES)
			w += r->v[i] / 4096;
	}
	return w;
}

struct pair {
	const char *key;
	struct mrow *b, *a;
	double w;
};

static int cmp_pair(const void *x, const void *y)
{
	const struct pair *a = x, *b = y;

	if (a->w != b->w)
		return a->w > b->w ? -1 : 1;
	return strcmp(a->key, b->key);
}

static int cmp_pair_key(const void *x, const void *y)
{
	const struct pair *a = x, *b = y;

	return strcmp(a->key, b->key);
}

static size_t pairs(struct msect *sb, struct msect *sa, struct pair **out,
		    long top)
{
	struct pair *v = xcalloc(sb->n + sa->n + 1, sizeof(*v));
	size_t n = 0;

	for (size_t i = 0; i < sb->n; i++) {
		v[n].key = sb->rows[i].key;
		v[n].b = &sb->rows[i];
		n++;
	}
	for (size_t i = 0; i < sa->n; i++) {
		size_t k;

		for (k = 0; k < n; k++)
			if (!strcmp(v[k].key, sa->rows[i].key))
				break;
		if (k == n) {
			v[n].key = sa->rows[i].key;
			n++;
		}
		v[k].a = &sa->rows[i];
	}
	for (size_t i = 0; i < n; i++)
		v[i].w = (v[i].b ? row_weight(sb, v[i].b) : 0) +
			 (v[i].a ? row_weight(sa, v[i].a) : 0);
	qsort(v, n, sizeof(*v), cmp_pair);
	if (top > 0 && n > (size_t)top)
		n = (size_t)top;
	/* shown in key order (devices: "loop1 flush" < "loop1 write") */
	qsort(v, n, sizeof(*v), cmp_pair_key);
	*out = v;
	return n;
}

static void diff_section_text(struct msect *sb, struct msect *sa, long top,
			      size_t *total)
{
	struct pair *v;
	size_t n = pairs(sb, sa, &v, top);

	*total = n;
	printf("\n%s:\n", sb->name);
	if (!n)
		printf("  (nothing in either recording)\n");
	for (size_t i = 0; i < n; i++) {
		printf("  %s%s\n", v[i].key, !v[i].b ? "  (only AFTER)" :
		       !v[i].a ? "  (only BEFORE)" : "");
		printf("    %-22s %13s %13s %13s %9s\n", "", "BEFORE", "AFTER",
		       "DELTA", "CHANGE");
		for (int m = 0; m < sb->nm; m++) {
			double b = v[i].b ? v[i].b->v[m] : 0;
			double a = v[i].a ? v[i].a->v[m] : 0;

			if (!v[i].b && sb->m[m].u == U_RATIO)
				b = NAN;
			if (!v[i].a && sb->m[m].u == U_RATIO)
				a = NAN;
			if ((b == 0 || isnan(b)) && (a == 0 || isnan(a)))
				continue;	/* nothing on either side */
			printf("    %-22s", sb->m[m].label);
			print_val(sb->m[m].u, sb->m[m].label, b);
			print_val(sb->m[m].u, sb->m[m].label, a);
			print_val(sb->m[m].u, sb->m[m].label,
				  isnan(a) || isnan(b) ? NAN : a - b);
			print_pct(b, a);
			putchar('\n');
		}
	}
	free(v);
}

static void json_num(struct json *j, const char *key, double v)
{
	if (isnan(v) || isinf(v))
		json_null(j, key);
	else if (v == floor(v) && fabs(v) < 9e15)
		json_i64(j, key, (int64_t)v);
	else
		json_double(j, key, v);
}

static void diff_section_json(struct json *j, struct msect *sb,
			      struct msect *sa, long top)
{
	struct pair *v;
	size_t n = pairs(sb, sa, &v, top);

	json_array_begin(j, sb->name);
	for (size_t i = 0; i < n; i++) {
		json_object_begin(j, NULL);
		json_str(j, "key", v[i].key);
		json_bool(j, "in_before", v[i].b != NULL);
		json_bool(j, "in_after", v[i].a != NULL);
		json_object_begin(j, "metrics");
		for (int m = 0; m < sb->nm; m++) {
			double b = v[i].b ? v[i].b->v[m] : 0;
			double a = v[i].a ? v[i].a->v[m] : 0;
			double p = pct_change(b, a);

			json_object_begin(j, sb->m[m].json);
			json_num(j, "before", b);
			json_num(j, "after", a);
			json_num(j, "delta", isnan(a) || isnan(b) ? NAN : a - b);
			json_num(j, "pct", p);
			json_object_end(j);
		}
		json_object_end(j);
		json_object_end(j);
	}
	json_array_end(j);
	free(v);
}

/* Histograms side by side: device Q2C per device+op, fsync (ext4) per comm. */
static void diff_hists_text(struct profile *pb, struct profile *pa, long top)
{
	static const int secs[] = { S_DEVICES, S_FSYNC };

	for (size_t s = 0; s < ARRAY_SIZE(secs); s++) {
		struct pair *v;
		size_t n = pairs(&pb->s[secs[s]], &pa->s[secs[s]], &v, top);

		for (size_t i = 0; i < n; i++) {
			uint64_t b1[NBINS] = { 0 }, b2[NBINS] = { 0 };
			const struct hist *hb = v[i].b ? v[i].b->h : NULL;
			const struct hist *ha = v[i].a ? v[i].a->h : NULL;
			uint64_t mx = 0, unit;
			char title[600];

			if ((!hb || !hb->count) && (!ha || !ha->count))
				continue;
			if (hb && hb->max > mx)
				mx = hb->max;
			if (ha && ha->max > mx)
				mx = ha->max;
			unit = unit_for(mx);
			if (hb)
				bins_hist(hb, unit, b1);
			if (ha)
				bins_hist(ha, unit, b2);
			snprintf(title, sizeof(title), "%s %s", v[i].key,
				 secs[s] == S_DEVICES ?
				 "latency (Q2C), BEFORE and AFTER" :
				 "fsync latency (ext4_sync_file), BEFORE and AFTER");
			print_bins(title, unit, b1, b2);
		}
		free(v);
	}
}

static void diff_hists_json(struct json *j, struct profile *pb,
			    struct profile *pa, long top)
{
	static const int secs[] = { S_DEVICES, S_FSYNC };

	json_array_begin(j, "histograms");
	for (size_t s = 0; s < ARRAY_SIZE(secs); s++) {
		struct pair *v;
		size_t n = pairs(&pb->s[secs[s]], &pa->s[secs[s]], &v, top);

		for (size_t i = 0; i < n; i++) {
			json_object_begin(j, NULL);
			json_str(j, "key", v[i].key);
			json_str(j, "what", secs[s] == S_DEVICES ?
				 "q2c" : "fsync");
			if (v[i].b && v[i].b->h)
				json_hist(j, "before", v[i].b->h);
			else
				json_null(j, "before");
			if (v[i].a && v[i].a->h)
				json_hist(j, "after", v[i].a->h);
			else
				json_null(j, "after");
			json_object_end(j);
		}
		free(v);
	}
	json_array_end(j);
}

static const char diff_usage[] =
"usage: ioreport diff [--json] [--top N] BEFORE AFTER\n"
"\n"
"  -j, --json           one JSON object (sizes in bytes, times in ns)\n"
"  -n, --top N          rows of each list (default 10)\n"
"  -h, --help           this help\n"
"\n"
"Two recordings side by side: what changed in the machine (kernel,\n"
"sysctls, mount options such as barrier/data=/commit=, block queue\n"
"settings), then the summary, devices (with Q2C/D2C percentiles),\n"
"processes (by comm), files (by path), write amplification, fsync cost\n"
"and dirty throttling, each metric with BEFORE, AFTER, the delta and the\n"
"relative change, and the latency histograms of both in one picture.\n"
"A file system mounted at another directory or on another device in\n"
"AFTER is matched to BEFORE's (same source, or the only one of its type\n"
"that did I/O), and its files are named as in BEFORE.\n"
"\n"
"Both recordings can also be loaded into one SQLite database (ioreport db)\n"
"and compared there.\n";

struct used_arg {
	struct rec *b, *a;
};

static bool dev_used_in(const struct rec *r, uint32_t dev)
{
	uint32_t disk = meta_disk_of(r->snap, dev);

	for (size_t i = 0; i < r->wa->ndev; i++) {
		const struct wa_dev *d = &r->wa->dev[i];

		if ((d->dev == dev || d->dev == disk) &&
		    (d->writes || d->reads || d->flushes))
			return true;
	}
	return false;
}

static bool dev_used(uint32_t dev, void *arg)
{
	struct used_arg *u = arg;

	return dev_used_in(u->b, dev) || dev_used_in(u->a, dev);
}

static void config_text(const struct snapdiff *sd)
{
	printf("\nconfig changes (start snapshots):\n");
	if (!sd->n)
		printf("  none (kernel, sysctls, mounts of the devices used, queue settings)\n");
	for (size_t i = 0; i < sd->n; i++) {
		const struct snapdiff_item *it = &sd->v[i];

		printf("  %-9s %-28s %s -> %s%s%s%s\n", it->what, it->key,
		       it->before ? it->before : "(absent)",
		       it->after ? it->after : "(absent)",
		       it->note ? "   [" : "", it->note ? it->note : "",
		       it->note ? "]" : "");
	}
}

static void config_json(struct json *j, const struct snapdiff *sd)
{
	json_array_begin(j, "config");
	for (size_t i = 0; i < sd->n; i++) {
		const struct snapdiff_item *it = &sd->v[i];

		json_object_begin(j, NULL);
		json_str(j, "what", it->what);
		json_str(j, "key", it->key);
		json_str(j, "before", it->before);
		json_str(j, "after", it->after);
		json_str(j, "note", it->note);
		json_object_end(j);
	}
	json_array_end(j);
}

int cmd_diff(int argc, char **argv)
{
	struct rec rb, ra;
	struct profile pb, pa;
	struct snapdiff sd = { 0 };
	struct used_arg ua = { &rb, &ra };
	struct json j;
	struct view_opts o = { .top = DEFAULT_TOP, .rows = DEFAULT_ROWS };
	int rc = parse_view_opts(argc, argv, diff_usage, "jn:h", 1, 100000, 2,
				 &o);
	size_t tot;

	if (rc >= 0)
		return rc;
	rc = 0;
	if (!strcmp(o.path[0], "-") && !strcmp(o.path[1], "-"))
		return usage_error(diff_usage, "standard input ('-') can be only one of the two recordings");
	if (rec_load(&rb, o.path[0]) < 0) {
		rec_release(&rb);
		return 1;
	}
	if (rec_load(&ra, o.path[1]) < 0) {
		rec_release(&rb);
		rec_release(&ra);
		return 1;
	}
	snapdiff_compute(&sd, rb.a.info->header_text, rb.snap,
			 ra.a.info->header_text, ra.snap, dev_used, &ua);
	profile_fill(&pb, &rb, NULL, NULL);
	profile_fill(&pa, &ra, &sd, &rb);

	if (o.json) {
		json_init(&j, stdout);
		json_object_begin(&j, NULL);
		json_object_begin(&j, "before");
		print_head(&rb, &j, "diff");
		json_object_end(&j);
		json_object_begin(&j, "after");
		print_head(&ra, &j, "diff");
		json_object_end(&j);
		config_json(&j, &sd);
		json_object_begin(&j, "sections");
		for (int s = 0; s < S_NR; s++)
			diff_section_json(&j, &pb.s[s], &pa.s[s], o.top);
		json_object_end(&j);
		diff_hists_json(&j, &pb, &pa, o.top);
		json_object_end(&j);
		if (json_finish(&j) < 0)
			rc = error("writing the JSON output failed");
	} else {
		printf("BEFORE: %s, %.6f s\nAFTER:  %s, %.6f s\n", rb.path,
		       (double)rec_duration(&rb) / 1e9, ra.path,
		       (double)rec_duration(&ra) / 1e9);
		config_text(&sd);
		for (int s = 0; s < S_NR; s++)
			diff_section_text(&pb.s[s], &pa.s[s], o.top, &tot);
		diff_hists_text(&pb, &pa, o.top);
		if (fflush(stdout) == EOF || ferror(stdout))
			rc = error("writing the output failed: %m");
	}
	profile_free_fsync_hists(&pb);
	profile_free_fsync_hists(&pa);
	profile_release(&pb);
	profile_release(&pa);
	snapdiff_release(&sd);
	rec_release(&rb);
	rec_release(&ra);
	return rc ? 1 : 0;
}
