// SPDX-License-Identifier: MIT
/*
 * report.c - text and JSON sinks of the summary, devices, slow and snoop
 * views (see report.h).  Nothing here computes: it formats an analysis.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iorec-format.h"
#include "util.h"
#include "input/source.h"
#include "out/json.h"
#include "out/report.h"
#include "replay/proctable.h"
#include "replay/fdtable.h"
#include "input/meta.h"

#define DEV_MAJOR(d)	((d) >> 20)
#define DEV_MINOR(d)	((d) & ((1u << 20) - 1))

static const char bar[] = "****************************************";

void sink_init(struct sink *s, struct driver *a, struct json *j)
{
	memset(s, 0, sizeof(*s));
	s->a = a;
	s->j = j;
}

void sink_release(struct sink *s)
{
	free(s->names);
	s->names = NULL;
	s->nnames = 0;
}

const char *sink_dev_name(struct sink *s, uint32_t dev)
{
	struct devname *d;

	for (size_t i = 0; i < s->nnames; i++)
		if (s->names[i].dev == dev)
			return s->names[i].name;
	s->names = xrealloc(s->names, sizeof(*s->names) * (s->nnames + 1));
	d = &s->names[s->nnames++];
	d->dev = dev;
	if (!meta_dev_name(s->a->info->snapshot_start, dev, d->name,
			   sizeof(d->name)))
		snprintf(d->name, sizeof(d->name), "%u:%u", DEV_MAJOR(dev),
			 DEV_MINOR(dev));
	return d->name;
}

static void dev_mm(uint32_t dev, char *buf, size_t n)
{
	snprintf(buf, n, "%u:%u", DEV_MAJOR(dev), DEV_MINOR(dev));
}

static void print_secs(uint64_t ts)
{
	printf("%" PRIu64 ".%06" PRIu64, ts / 1000000000,
	       ts % 1000000000 / 1000);
}

/* A trace clock time in seconds with microseconds, as print_secs(). */
static void fmt_secs(char *buf, size_t n, uint64_t ts)
{
	snprintf(buf, n, "%" PRIu64 ".%06" PRIu64, ts / 1000000000,
		 ts % 1000000000 / 1000);
}

static uint64_t duration_ns(const struct driver *a)
{
	return a->last_ts > a->first_ts ? a->last_ts - a->first_ts : 0;
}

/* ------------------------------------------------------------------ */
/* Head */

void view_head(struct sink *s)
{
	const struct source_info *in = s->a->info;
	char fmt[64];

	if (in->kind == SOURCE_IOREC)
		snprintf(fmt, sizeof(fmt), "iorec %u.%u", in->version_major,
			 in->version_minor);
	else
		snprintf(fmt, sizeof(fmt), "trace.dat %u", in->version_major);
	if (s->j) {
		json_str(s->j, "file", in->path);
		json_str(s->j, "format", fmt);
		json_str(s->j, "integrity", meta_integrity(in->integrity));
		if (in->integrity != SOURCE_COMPLETE) {
			json_u64(s->j, "stop_offset", in->stop_offset);
			json_str(s->j, "stop_reason", in->stop_reason);
		}
		json_u64(s->j, "first_ts_ns", s->a->first_ts);
		json_u64(s->j, "last_ts_ns", s->a->last_ts);
		json_u64(s->j, "duration_ns", duration_ns(s->a));
		json_u64(s->j, "events", s->a->events);
		return;
	}
	printf("%s: %s, %.6f s, %" PRIu64 " events", in->path, fmt,
	       (double)duration_ns(s->a) / 1e9, s->a->events);
	if (in->integrity != SOURCE_COMPLETE)
		printf(" (%s at offset %" PRIu64 ": %s)",
		       meta_integrity(in->integrity), in->stop_offset,
		       in->stop_reason ? in->stop_reason : "?");
	printf("\n");
}

/* ------------------------------------------------------------------ */
/* Anomalies */

/* The syscall-side counters (lost_event_gaps has its own line above). */
static bool sys_side(const struct anomaly *x)
{
	return strcmp(x->stage, "block") && strcmp(x->stage, "attrib") &&
	       strcmp(x->key, "lost_event_gaps");
}

static void anomaly_list(const struct anomaly *v, size_t n, bool block,
			 struct json *j, const char *pre, const char *title)
{
	bool first = true;

	if (j)
		json_object_begin(j, title);
	else
		printf("%s  %s:", pre, title);
	for (size_t i = 0; i < n; i++) {
		if (block ? strcmp(v[i].stage, "block") : !sys_side(&v[i]))
			continue;
		if (j)
			json_u64(j, v[i].key, v[i].n);
		else
			printf("%s %s %" PRIu64, first ? "" : ",", v[i].text,
			       v[i].n);
		first = false;
	}
	if (j)
		json_object_end(j);
	else
		printf("\n");
}

static uint64_t lost_total(const struct driver *a, uint64_t *gaps)
{
	uint64_t t = 0;

	*gaps = 0;
	for (int i = 0; i < a->nr_cpus; i++) {
		t += a->lost[i].events;
		*gaps += a->lost[i].gaps;
	}
	return t;
}

void view_anomalies(struct sink *s)
{
	struct anomaly v[ANOMALIES_MAX];
	struct driver *a = s->a;
	uint64_t gaps, lost = lost_total(a, &gaps);
	size_t n = driver_anomalies(a, v);
	/* snoop's lines are for grep and awk: its trailer is a comment */
	const char *pre = s->snooping ? "# " : "";

	if (s->j) {
		json_object_begin(s->j, "anomalies");
		json_u64(s->j, "lost_event_gaps", gaps);
		json_u64(s->j, "lost_events_known", lost);
	} else {
		printf("%s\n%sanomalies: lost-event gaps %" PRIu64 " (%" PRIu64
		       " events known lost)\n", s->snooping ? "#" : "", pre,
		       gaps, lost);
	}
	if (a->rb)
		anomaly_list(v, n, true, s->j, pre, "block");
	if (a->have_sys)
		anomaly_list(v, n, false, s->j, pre, "syscalls");
	if (s->j)
		json_object_end(s->j);
}

/* ------------------------------------------------------------------ */
/* Summary */

static void summary_lost(struct sink *s)
{
	struct driver *a = s->a;
	struct meta_kstats k;
	uint64_t gaps, lost = lost_total(a, &gaps);
	bool have_k = a->info->stats != NULL;

	meta_kstats(a->info->stats, &k);
	if (s->j) {
		json_object_begin(s->j, "lost");
		json_u64(s->j, "gaps", gaps);
		json_u64(s->j, "events_known", lost);
		json_bool(s->j, "kernel_counters", have_k);
		json_array_begin(s->j, "cpus");
		for (int i = 0; i < a->nr_cpus; i++) {
			const struct lostcpu *l = &a->lost[i];

			json_object_begin(s->j, NULL);
			json_i64(s->j, "cpu", i);
			json_u64(s->j, "gaps", l->gaps);
			json_u64(s->j, "events_known", l->events);
			json_u64(s->j, "gaps_unknown_size", l->unknown);
			if (l->first_gap_ts)
				json_u64(s->j, "first_gap_ts_ns",
					 l->first_gap_ts);
			else
				json_null(s->j, "first_gap_ts_ns");
			if (i < k.n) {
				json_u64(s->j, "kernel_overrun", k.cpu[i].overrun);
				json_u64(s->j, "kernel_dropped", k.cpu[i].dropped);
			}
			json_object_end(s->j);
		}
		json_array_end(s->j);
		json_object_end(s->j);
	} else {
		printf("\nlost events:%s\n", gaps || k.n ? "" :
		       " none seen in the data");
		if (gaps || k.n) {
			printf("  %-4s %8s %10s %8s %12s %12s  %s\n", "CPU",
			       "GAPS", "LOST", "UNKNOWN", "K-OVERRUN",
			       "K-DROPPED", "FIRST-GAP(s)");
			for (int i = 0; i < a->nr_cpus; i++) {
				const struct lostcpu *l = &a->lost[i];

				printf("  %-4d %8" PRIu64 " %10" PRIu64
				       " %8" PRIu64, i, l->gaps, l->events,
				       l->unknown);
				if (i < k.n)
					printf(" %12" PRIu64 " %12" PRIu64,
					       k.cpu[i].overrun,
					       k.cpu[i].dropped);
				else
					printf(" %12s %12s", "-", "-");
				printf("  ");
				if (l->first_gap_ts) {
					print_secs(l->first_gap_ts);
					printf(" (+%.6f s)", (double)(
					       l->first_gap_ts - a->first_ts) /
					       1e9);
				} else {
					printf("-");
				}
				printf("\n");
			}
		}
		if (!have_k)
			printf("  (no kernel counters: %s)\n",
			       a->info->kind == SOURCE_TRACEDAT ?
			       "trace.dat input" :
			       "the recording did not end cleanly");
	}
	meta_kstats_release(&k);
}

/* Per device totals, from the per-operation rows (sorted by device). */
static void summary_devices(struct sink *s)
{
	struct driver *a = s->a;
	size_t i = 0;

	if (s->j)
		json_array_begin(s->j, "devices");
	else
		printf("\ndevices with I/O:%s\n  %-20s %10s %14s %10s %10s %8s %8s\n",
		       a->rb ? (a->ndev ? "" : " no completed requests") :
		       " no block events in the recording",
		       "DEVICE", "REQS", "BYTES", "READS", "WRITES",
		       "FLUSHES", "DISCARDS");
	while (i < a->ndev) {
		uint32_t dev = a->dev[i].dev;
		uint64_t reqs = 0, bytes = 0, n[BLK_OP_MAX] = { 0 };
		uint64_t b[BLK_OP_MAX] = { 0 };
		char mm[32];

		for (; i < a->ndev && a->dev[i].dev == dev; i++) {
			reqs += a->dev[i].reqs;
			bytes += a->dev[i].bytes;
			n[a->dev[i].op] += a->dev[i].reqs;
			b[a->dev[i].op] += a->dev[i].bytes;
		}
		dev_mm(dev, mm, sizeof(mm));
		if (s->j) {
			json_object_begin(s->j, NULL);
			json_str(s->j, "dev", mm);
			json_str(s->j, "name", sink_dev_name(s, dev));
			json_u64(s->j, "requests", reqs);
			json_u64(s->j, "bytes", bytes);
			json_u64(s->j, "read_requests", n[BLK_OP_READ]);
			json_u64(s->j, "read_bytes", b[BLK_OP_READ]);
			json_u64(s->j, "write_requests", n[BLK_OP_WRITE]);
			json_u64(s->j, "write_bytes", b[BLK_OP_WRITE]);
			json_u64(s->j, "flush_requests", n[BLK_OP_FLUSH]);
			json_u64(s->j, "discard_requests", n[BLK_OP_DISCARD]);
			json_object_end(s->j);
		} else {
			printf("  %-20s %10" PRIu64 " %14" PRIu64 " %10" PRIu64
			       " %10" PRIu64 " %8" PRIu64 " %8" PRIu64 "\n",
			       sink_dev_name(s, dev), reqs, bytes,
			       n[BLK_OP_READ], n[BLK_OP_WRITE],
			       n[BLK_OP_FLUSH], n[BLK_OP_DISCARD]);
		}
	}
	if (s->j)
		json_array_end(s->j);
}

/*
 * The recorder's own view of the devices: /proc/diskstats at the start
 * and end snapshots, per device, next to what the trace saw complete.
 * Fields after "maj min name" (Documentation/admin-guide/iostats.rst):
 * 0 reads, 2 sectors read, 4 writes, 6 sectors written, 9 ms doing I/O,
 * 11 discards, 13 sectors discarded, 15 flushes (kernels >= 5.5).
 * They count the same requests as the block events, with one known
 * difference: an empty PREFLUSH write that becomes a flush request also
 * ends as a write of 0 sectors for diskstats, so diskstats' writes may
 * exceed the trace's by up to its flushes (tests/accuracy/diskstats.sh).
 */
enum { DS_R, DS_RS, DS_W, DS_WS, DS_D, DS_DS, DS_F, DS_IOMS, DS_N };
static const int ds_index[DS_N] = { 0, 2, 4, 6, 11, 13, 15, 9 };

struct dsdev {
	uint32_t dev;
	char name[64];
	bool have_end;
	uint64_t start[DS_N], end[DS_N];
};

struct dslist {
	struct dsdev *v;
	size_t n;
	bool end;		/* filling the end values */
};

static int acc_diskstats(char **f, int n, void *arg)
{
	struct dslist *l = arg;
	struct meta_diskstats ds;
	struct dsdev *d = NULL;

	if (!meta_diskstats_line(f, n, &ds))
		return 0;
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].dev == ds.dev)
			d = &l->v[i];
	if (l->end) {
		if (!d)
			return 0;
		d->have_end = true;
		for (int i = 0; i < DS_N; i++)
			d->end[i] = ds.v[ds_index[i]];
		return 0;
	}
	if (d)
		return 0;
	l->v = xrealloc(l->v, sizeof(*l->v) * (l->n + 1));
	d = &l->v[l->n++];
	memset(d, 0, sizeof(*d));
	d->dev = ds.dev;
	snprintf(d->name, sizeof(d->name), "%s", ds.name);
	for (int i = 0; i < DS_N; i++)
		d->start[i] = ds.v[ds_index[i]];
	return 0;
}

/* What the trace saw complete on dev, in diskstats' units. */
static void trace_counts(const struct driver *a, uint32_t dev,
			 uint64_t t[DS_N])
{
	memset(t, 0, sizeof(uint64_t) * DS_N);
	for (size_t i = 0; i < a->ndev; i++) {
		const struct devstat *d = &a->dev[i];

		if (d->dev != dev)
			continue;
		switch (d->op) {
		case BLK_OP_READ:
			t[DS_R] += d->reqs;
			t[DS_RS] += d->bytes / 512;
			break;
		case BLK_OP_WRITE:
			t[DS_W] += d->reqs;
			t[DS_WS] += d->bytes / 512;
			break;
		case BLK_OP_DISCARD:
			t[DS_D] += d->reqs;
			t[DS_DS] += d->bytes / 512;
			break;
		case BLK_OP_FLUSH:
			t[DS_F] += d->reqs;
			break;
		default:
			break;
		}
	}
}

static void summary_diskstats(struct sink *s)
{
	static const char *const key[DS_N] = {
		"reads", "read_sectors", "writes", "write_sectors", "discards",
		"discard_sectors", "flushes", "io_ms",
	};
	const struct source_info *in = s->a->info;
	struct dslist l = { 0 };
	bool any = false;

	if (in->snapshot_start)
		meta_lines(in->snapshot_start, "diskstats", acc_diskstats,
			       &l);
	l.end = true;
	if (in->snapshot_end && l.n)
		meta_lines(in->snapshot_end, "diskstats", acc_diskstats,
			       &l);
	if (s->j)
		json_array_begin(s->j, "diskstats");
	else
		printf("\ndiskstats (start -> end snapshot) vs trace (completed requests):%s\n",
		       !in->snapshot_start ? " none: the recording has no snapshot" :
		       !in->snapshot_end ? " none: the recording has no end snapshot (it did not end cleanly)" :
		       "");
	for (size_t i = 0; i < l.n && in->snapshot_end; i++) {
		struct dsdev *d = &l.v[i];
		uint64_t delta[DS_N], t[DS_N], sum = 0, tsum = 0;
		uint32_t disk;
		char mm[32];
		bool reset = false;

		if (!d->have_end)
			continue;
		for (int k = 0; k < DS_N; k++) {
			reset |= d->end[k] < d->start[k];
			delta[k] = d->end[k] >= d->start[k] ?
				   d->end[k] - d->start[k] : 0;
			if (k != DS_IOMS)
				sum += delta[k];
		}
		trace_counts(s->a, d->dev, t);
		for (int k = 0; k < DS_N; k++)
			tsum += t[k];
		if (!sum && !tsum)
			continue;
		any = true;
		disk = meta_disk_of(in->snapshot_start, d->dev);
		dev_mm(d->dev, mm, sizeof(mm));
		if (s->j) {
			json_object_begin(s->j, NULL);
			json_str(s->j, "dev", mm);
			json_str(s->j, "name", d->name);
			if (disk != d->dev) {
				dev_mm(disk, mm, sizeof(mm));
				json_str(s->j, "partition_of", mm);
			} else {
				json_null(s->j, "partition_of");
			}
			json_bool(s->j, "counters_reset", reset);
			json_object_begin(s->j, "diskstats");
			for (int k = 0; k < DS_N; k++)
				json_u64(s->j, key[k], delta[k]);
			json_object_end(s->j);
			json_object_begin(s->j, "trace");
			for (int k = 0; k < DS_N; k++)
				if (k != DS_IOMS)
					json_u64(s->j, key[k], t[k]);
			json_object_end(s->j);
			json_object_end(s->j);
			continue;
		}
		printf("  %-12s diskstats %" PRIu64 " reads %" PRIu64
		       " sectors, %" PRIu64 " writes %" PRIu64 " sectors, %"
		       PRIu64 " discards, %" PRIu64 " flushes; trace %" PRIu64
		       " reads %" PRIu64 " sectors, %" PRIu64 " writes %" PRIu64
		       " sectors, %" PRIu64 " discards, %" PRIu64 " flushes%s%s\n",
		       d->name, delta[DS_R], delta[DS_RS], delta[DS_W],
		       delta[DS_WS], delta[DS_D], delta[DS_F], t[DS_R],
		       t[DS_RS], t[DS_W], t[DS_WS], t[DS_D], t[DS_F],
		       disk != d->dev ? " (partition: its requests are traced on its disk)" : "",
		       reset ? " (counters reset during the recording)" : "");
	}
	if (s->j)
		json_array_end(s->j);
	else if (!any && in->snapshot_start && in->snapshot_end)
		printf("  no device moved\n");
	free(l.v);
}

/* Config highlights: the devices that did I/O, their mounts, sysctls. */
struct bdev {
	char name[64], mm[32], parent[64];
	char scheduler[64], rotational[8], write_cache[32];
	bool io;
};

struct config {
	struct sink *s;
	struct bdev *v;
	size_t n;
	int nmounts;
};

static struct bdev *bdev_find(struct config *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].name, name))
			return &c->v[i];
	return NULL;
}

static int acc_bdev(char **f, int n, void *arg)
{
	struct config *c = arg;
	struct bdev *b;

	if (n < 5)
		return 0;
	b = bdev_find(c, f[1]);
	if (!b) {
		c->v = xrealloc(c->v, sizeof(*c->v) * (c->n + 1));
		b = &c->v[c->n++];
		memset(b, 0, sizeof(*b));
		snprintf(b->name, sizeof(b->name), "%s", f[1]);
		snprintf(b->mm, sizeof(b->mm), "%s", f[2]);
	}
	if (!strcmp(f[3], "parent"))
		snprintf(b->parent, sizeof(b->parent), "%s", f[4]);
	else if (!strcmp(f[3], "scheduler"))
		snprintf(b->scheduler, sizeof(b->scheduler), "%s", f[4]);
	else if (!strcmp(f[3], "rotational"))
		snprintf(b->rotational, sizeof(b->rotational), "%s", f[4]);
	else if (!strcmp(f[3], "write_cache"))
		snprintf(b->write_cache, sizeof(b->write_cache), "%s", f[4]);
	return 0;
}

static int print_sysctl(char **f, int n, void *arg)
{
	struct sink *s = arg;

	if (n < 3 || (strncmp(f[1], "vm.dirty_", 9) &&
		      strcmp(f[1], "vm.swappiness") &&
		      strcmp(f[1], "vm.vfs_cache_pressure")))
		return 0;
	if (s->j)
		json_str(s->j, f[1], f[2]);
	else
		printf("  %-16s %s = %s\n", "sysctl", f[1], f[2]);
	return 0;
}

static bool fs_of_interest(const char *t)
{
	return !strcmp(t, "ext4") || !strcmp(t, "ext3") || !strcmp(t, "ext2") ||
	       !strcmp(t, "xfs") || !strcmp(t, "btrfs") || !strcmp(t, "f2fs") ||
	       !strcmp(t, "vfat") || !strcmp(t, "exfat");
}

static int print_mount(char **f, int n, void *arg)
{
	struct config *c = arg;
	struct sink *s = c->s;
	char opts[2048], data[64] = "", commit[32] = "";
	bool ext, nobarrier, io = false;

	/* mount MAJ:MIN SOURCE MOUNTPOINT FSTYPE OPTS SUPEROPTS */
	if (n < 7 || !fs_of_interest(f[4]))
		return 0;
	for (size_t i = 0; i < c->n; i++) {
		struct bdev *b = &c->v[i], *p;

		if (strcmp(b->mm, f[1]))
			continue;
		p = b->parent[0] ? bdev_find(c, b->parent) : NULL;
		io = b->io || (p && p->io);
	}
	if (!io)
		return 0;
	c->nmounts++;
	snprintf(opts, sizeof(opts), "%s,%s", f[5], f[6]);
	ext = !strncmp(f[4], "ext", 3);
	nobarrier = !meta_mount_barrier(opts);
	meta_mount_opt(opts, "data", data, sizeof(data));
	meta_mount_opt(opts, "commit", commit, sizeof(commit));
	if (s->j) {
		json_object_begin(s->j, NULL);
		json_str(s->j, "dev", f[1]);
		json_str(s->j, "source", f[2]);
		json_str(s->j, "mountpoint", f[3]);
		json_str(s->j, "fstype", f[4]);
		json_str(s->j, "options", f[5]);
		json_str(s->j, "super_options", f[6]);
		json_bool(s->j, "barrier", !nobarrier);
		if (ext) {
			json_str(s->j, "data", *data ? data : "ordered");
			json_u64(s->j, "commit_s",
				 *commit ? strtoull(commit, NULL, 10) : 5);
		}
		json_object_end(s->j);
		return 0;
	}
	printf("  %-16s %s on %s type %s: %s", "mount", f[2], f[3], f[4],
	       nobarrier ? "nobarrier" : "barrier");
	if (ext)
		printf(", data=%s%s, commit=%s%s", *data ? data : "ordered",
		       *data ? "" : " (default)", *commit ? commit : "5",
		       *commit ? "" : " (default)");
	printf(" [%s]\n", f[6]);
	return 0;
}

static void summary_config(struct sink *s)
{
	const char *snap = s->a->info->snapshot_start;
	struct config c = { .s = s };

	if (snap)
		meta_lines(snap, "blockdev", acc_bdev, &c);
	for (size_t i = 0; i < s->a->ndev; i++) {
		char mm[32];

		dev_mm(s->a->dev[i].dev, mm, sizeof(mm));
		for (size_t k = 0; k < c.n; k++)
			if (!strcmp(c.v[k].mm, mm))
				c.v[k].io = true;
	}
	if (s->j) {
		json_object_begin(s->j, "config");
		if (!snap) {
			json_null(s->j, "sysctl");
		} else {
			json_object_begin(s->j, "sysctl");
			meta_lines(snap, "sysctl", print_sysctl, s);
			json_object_end(s->j);
		}
		json_array_begin(s->j, "mounts");
		if (snap)
			meta_lines(snap, "mount", print_mount, &c);
		json_array_end(s->j);
		json_array_begin(s->j, "blockdevs");
		for (size_t i = 0; i < c.n; i++) {
			if (!c.v[i].io)
				continue;
			json_object_begin(s->j, NULL);
			json_str(s->j, "name", c.v[i].name);
			json_str(s->j, "dev", c.v[i].mm);
			json_str(s->j, "scheduler", c.v[i].scheduler);
			json_str(s->j, "rotational", c.v[i].rotational);
			json_str(s->j, "write_cache", c.v[i].write_cache);
			json_object_end(s->j);
		}
		json_array_end(s->j);
		json_object_end(s->j);
	} else {
		printf("\nconfig:%s\n", snap ? "" :
		       " none (the recording has no snapshot)");
		if (snap) {
			meta_lines(snap, "sysctl", print_sysctl, s);
			meta_lines(snap, "mount", print_mount, &c);
			if (!c.nmounts)
				printf("  %-16s none on the devices that did I/O\n",
				       "mount");
		}
		for (size_t i = 0; i < c.n; i++)
			if (c.v[i].io)
				printf("  %-16s %s (%s) scheduler=%s rotational=%s write_cache=%s\n",
				       "blockdev", c.v[i].name, c.v[i].mm,
				       *c.v[i].scheduler ? c.v[i].scheduler :
				       "-", *c.v[i].rotational ?
				       c.v[i].rotational : "-",
				       *c.v[i].write_cache ?
				       c.v[i].write_cache : "-");
	}
	free(c.v);
}

void view_summary(struct sink *s)
{
	struct driver *a = s->a;
	const struct source_info *in = a->info;
	static const struct { const char *label, *key; } hk[] = {
		{ "host", "hostname" }, { "kernel", "kernel" },
		{ "kversion", "kversion" }, { "machine", "machine" },
		{ "clock", "clock" }, { "profile", "profile" },
	};
	int ntypes;
	char buf[512];

	source_event_types(a->src, &ntypes);
	if (s->j) {
		json_object_begin(s->j, "summary");
		for (size_t i = 0; i < ARRAY_SIZE(hk); i++) {
			meta_kv(in->header_text, hk[i].key, buf, sizeof(buf));
			if (*buf)
				json_str(s->j, hk[i].label, buf);
			else
				json_null(s->j, hk[i].label);
		}
		json_u64(s->j, "cpus", in->ncpus);
		json_bool(s->j, "raw_syscalls_fallback",
			  in->flags & IOREC_HF_RAW_SYSCALLS);
		json_u64(s->j, "event_types", (uint64_t)ntypes);
		json_u64(s->j, "tasks_seen", a->tasks);
		if (a->have_sys)
			json_u64(s->j, "processes",
				 proctable_count(a->sys.pt));
		summary_lost(s);
		summary_devices(s);
		summary_diskstats(s);
		summary_config(s);
		json_object_end(s->j);
		return;
	}
	printf("\nsummary:\n");
	for (size_t i = 0; i < ARRAY_SIZE(hk); i++) {
		meta_kv(in->header_text, hk[i].key, buf, sizeof(buf));
		if (*buf)
			printf("  %-16s %s\n", hk[i].label, buf);
	}
	printf("  %-16s %u\n", "cpus", in->ncpus);
	if (in->flags & IOREC_HF_RAW_SYSCALLS)
		printf("  %-16s raw_syscalls (no syscalls:* events)\n",
		       "syscalls");
	printf("  %-16s ", "first event");
	print_secs(a->first_ts);
	printf("\n  %-16s ", "last event");
	print_secs(a->last_ts);
	printf("\n  %-16s %.6f s\n", "duration", (double)duration_ns(a) / 1e9);
	printf("  %-16s %" PRIu64 " of %d types\n", "events", a->events,
	       ntypes);
	printf("  %-16s %" PRIu64 " (distinct pids in the events)\n",
	       "tasks seen", a->tasks);
	if (a->have_sys)
		printf("  %-16s %zu (from the process replay)\n", "processes",
		       proctable_count(a->sys.pt));
	summary_lost(s);
	summary_devices(s);
	summary_diskstats(s);
	summary_config(s);
}

/* ------------------------------------------------------------------ */
/* Devices */

static void print_log2(const struct hist *h)
{
	uint64_t slot[HIST_SLOTS], top = 0;
	int used = hist_log2_us(h, slot);

	if (!used)
		return;
	for (int i = 0; i < used; i++)
		if (slot[i] > top)
			top = slot[i];
	printf("%5s%-19s : count    distribution\n", "", "usecs");
	for (int i = 0; i < used; i++) {
		uint64_t lo = i ? 1ULL << i : 0, hi = (1ULL << (i + 1)) - 1;
		int stars = (int)(slot[i] * 40 / top);

		printf("%10" PRIu64 " -> %-10" PRIu64 " : %-8" PRIu64
		       " |%.*s%*s|\n", lo, hi, slot[i], stars, bar,
		       40 - stars, "");
	}
	printf("%5sn %" PRIu64 ", p50 %.3f ms, p99 %.3f ms, max %.3f ms\n",
	       "", h->count, (double)hist_pct(h, 50) / 1e6,
	       (double)hist_pct(h, 99) / 1e6, (double)h->max / 1e6);
}

static void print_ms(uint64_t ns)
{
	printf(" %10.3f", (double)ns / 1e6);
}

static void lat_table(struct sink *s, const char *title, size_t off)
{
	struct driver *a = s->a;

	printf("\n%s:\n", title);
	printf("  %-20s %-8s %9s %10s %10s %10s %10s %10s %10s\n", "DEVICE",
	       "OP", "N", "AVG(ms)", "P50(ms)", "P90(ms)", "P99(ms)",
	       "P99.9(ms)", "MAX(ms)");
	for (size_t i = 0; i < a->ndev; i++) {
		const struct hist *h =
			(const struct hist *)((const char *)&a->dev[i] + off);

		printf("  %-20s %-8s %9" PRIu64, sink_dev_name(s, a->dev[i].dev),
		       blk_op_name(a->dev[i].op), h->count);
		if (!h->count) {
			printf(" %10s %10s %10s %10s %10s %10s\n", "-", "-",
			       "-", "-", "-", "-");
			continue;
		}
		print_ms(hist_avg(h));
		print_ms(hist_pct(h, 50));
		print_ms(hist_pct(h, 90));
		print_ms(hist_pct(h, 99));
		print_ms(hist_pct(h, 99.9));
		print_ms(h->max);
		printf("\n");
	}
}

void view_devices(struct sink *s)
{
	struct driver *a = s->a;
	double secs = (double)duration_ns(a) / 1e9;

	if (s->j) {
		json_array_begin(s->j, "devices");
		for (size_t i = 0; i < a->ndev; i++) {
			const struct devstat *d = &a->dev[i];
			char mm[32];

			dev_mm(d->dev, mm, sizeof(mm));
			json_object_begin(s->j, NULL);
			json_str(s->j, "dev", mm);
			json_str(s->j, "name", sink_dev_name(s, d->dev));
			json_str(s->j, "op", blk_op_name(d->op));
			json_u64(s->j, "requests", d->reqs);
			json_u64(s->j, "bytes", d->bytes);
			json_double(s->j, "iops",
				    secs > 0 ? (double)d->reqs / secs : 0);
			json_double(s->j, "bytes_per_s",
				    secs > 0 ? (double)d->bytes / secs : 0);
			json_u64(s->j, "fua", d->fua);
			json_u64(s->j, "preflush", d->preflush);
			json_u64(s->j, "errors", d->errors);
			json_hist(s->j, "queue", &d->queue);
			json_hist(s->j, "device", &d->device);
			json_hist(s->j, "total", &d->total);
			json_object_end(s->j);
		}
		json_array_end(s->j);
		return;
	}
	printf("\ndevices:%s\n", a->rb ? "" : " no block events in the recording");
	if (!a->rb)
		return;
	printf("  %-20s %-8s %9s %14s %10s %10s %7s %7s %5s\n", "DEVICE", "OP",
	       "REQS", "BYTES", "IOPS", "MB/s", "FUA", "PREFL", "ERR");
	for (size_t i = 0; i < a->ndev; i++) {
		const struct devstat *d = &a->dev[i];

		printf("  %-20s %-8s %9" PRIu64 " %14" PRIu64 " %10.1f %10.3f %7"
		       PRIu64 " %7" PRIu64 " %5" PRIu64 "\n",
		       sink_dev_name(s, d->dev), blk_op_name(d->op), d->reqs,
		       d->bytes, secs > 0 ? (double)d->reqs / secs : 0.0,
		       secs > 0 ? (double)d->bytes / secs / 1e6 : 0.0,
		       d->fua, d->preflush, d->errors);
	}
	if (!a->ndev)
		printf("  (no completed block requests)\n");
	lat_table(s, "queue time (insert -> issue, Q2D)",
		  offsetof(struct devstat, queue));
	lat_table(s, "device time (issue -> complete, D2C)",
		  offsetof(struct devstat, device));
	lat_table(s, "total time (insert -> complete, Q2C)",
		  offsetof(struct devstat, total));
	for (size_t i = 0; !s->no_hist && i < a->ndev; i++) {
		printf("\n%s %s: device time (issue -> complete)\n",
		       sink_dev_name(s, a->dev[i].dev),
		       blk_op_name(a->dev[i].op));
		print_log2(&a->dev[i].device);
	}
}

/* ------------------------------------------------------------------ */
/* Requests: slow and snoop */

/* "W", "FWS", "RA"...: the op letter with its flags, like rwbs. */
/* The queue time in ms with 3 decimals, "-" when never inserted. */
static void rq_queue_ms(const struct blk_request *rq, char *buf, size_t n)
{
	if (rq->insert_ts)
		snprintf(buf, n, "%.3f",
			 (double)(rq->issue_ts - rq->insert_ts) / 1e6);
	else
		snprintf(buf, n, "-");
}

static void rq_type(const struct blk_request *rq, char *buf)
{
	static const char letter[BLK_OP_MAX] = { 'R', 'W', 'F', 'D', 'N' };
	char *p = buf;

	if (rq->preflush && rq->op != BLK_OP_FLUSH)
		*p++ = 'F';
	*p++ = letter[rq->op];
	if (rq->fua)
		*p++ = 'F';
	if (rq->ahead)
		*p++ = 'A';
	if (rq->sync)
		*p++ = 'S';
	if (rq->meta)
		*p++ = 'M';
	*p = '\0';
}

static int rq_pid(const struct blk_request *rq)
{
	return rq->insert_pid >= 0 ? rq->insert_pid : rq->issue_pid;
}

static const char *rq_comm(struct sink *s, const struct blk_request *rq)
{
	int pid = rq_pid(rq);

	if (rq->comm[0])
		return rq->comm;
	return pid >= 0 ? source_comm(s->a->src, pid) : "-";
}

/* The FILE column: the attributed file, else the owner kind, else "-". */
static const char *rq_file(struct sink *s, const struct blk_done *d,
			   char *buf, size_t n)
{
	const char *f = driver_file(s->a, d);

	if (f)
		return f;
	if (!d->attributed || d->own.kind == AK_UNATTRIBUTED)
		return "-";
	snprintf(buf, n, "(%s)", attrib_kind_name(d->own.kind));
	return buf;
}

static void rq_json(struct sink *s, const struct blk_done *d)
{
	const struct blk_request *rq = &d->rq;
	struct json *j = s->j;
	char type[8], mm[32], comm[17];

	rq_type(rq, type);
	dev_mm(rq->dev, mm, sizeof(mm));
	snprintf(comm, sizeof(comm), "%s", rq_comm(s, rq));
	json_object_begin(j, NULL);
	json_u64(j, "start_ns", rq->insert_ts ? rq->insert_ts : rq->issue_ts);
	json_u64(j, "issue_ns", rq->issue_ts);
	json_u64(j, "complete_ns", rq->complete_ts);
	json_str(j, "dev", mm);
	json_str(j, "name", sink_dev_name(s, rq->dev));
	json_str(j, "op", blk_op_name(rq->op));
	json_str(j, "type", type);
	json_u64(j, "sector", rq->sector);
	json_u64(j, "bytes", rq->bytes);
	if (rq->insert_ts)
		json_u64(j, "queue_ns", rq->issue_ts - rq->insert_ts);
	else
		json_null(j, "queue_ns");
	json_u64(j, "device_ns", rq->complete_ts - rq->issue_ts);
	json_u64(j, "total_ns", blk_total_ns(rq));
	json_i64(j, "pid", rq_pid(rq));
	json_str(j, "comm", comm);
	json_i64(j, "error", rq->error);
	if (!d->attributed) {
		json_null(j, "owner");
	} else {
		json_object_begin(j, "owner");
		json_str(j, "kind", attrib_kind_name(d->own.kind));
		if (d->own.proc) {
			json_i64(j, "pid", d->own.proc->pid);
			json_str(j, "comm", d->own.proc->comm);
		} else {
			json_null(j, "pid");
			json_null(j, "comm");
		}
		if (d->own.ino)
			json_u64(j, "ino", d->own.ino);
		else
			json_null(j, "ino");
		json_object_end(j);
	}
	json_str(j, "file", driver_file(s->a, d));
	json_object_end(j);
}

/* The slowest syscalls (enter -> exit), when the syscalls were replayed. */
static void slow_calls(struct sink *s)
{
	struct driver *a = s->a;
	const struct slow_call *v;
	size_t n;

	v = driver_slowest_calls(a, &n);
	if (s->j) {
		if (!a->have_sys) {
			json_null(s->j, "slow_syscalls");
			return;
		}
		json_array_begin(s->j, "slow_syscalls");
		for (size_t i = 0; i < n; i++) {
			json_object_begin(s->j, NULL);
			json_str(s->j, "syscall", sys_kind_info(v[i].kind)->name);
			json_u64(s->j, "start_ns", v[i].start);
			json_u64(s->j, "end_ns", v[i].end);
			json_u64(s->j, "latency_ns", v[i].end - v[i].start);
			json_i64(s->j, "pid", v[i].pid);
			json_i64(s->j, "tid", v[i].tid);
			json_str(s->j, "comm", v[i].comm);
			if (v[i].fd >= 0)
				json_i64(s->j, "fd", v[i].fd);
			else
				json_null(s->j, "fd");
			json_str(s->j, "file", v[i].file ?
				 file_name(v[i].file) : NULL);
			json_u64(s->j, "bytes", v[i].bytes);
			json_i64(s->j, "ret", v[i].ret);
			json_object_end(s->j);
		}
		json_array_end(s->j);
		return;
	}
	if (!a->have_sys)
		return;
	printf("\nslowest syscalls (top %zu by latency, enter -> exit):\n", n);
	if (!n)
		return;
	printf("  %-16s %-16s %7s %7s %-16s %5s %10s %10s  %s\n", "START(s)",
	       "SYSCALL", "PID", "TID", "COMM", "FD", "BYTES", "LAT(ms)",
	       "FILE");
	for (size_t i = 0; i < n; i++) {
		char ts[32], fd[16];

		fmt_secs(ts, sizeof(ts), v[i].start);
		if (v[i].fd >= 0)
			snprintf(fd, sizeof(fd), "%d", v[i].fd);
		else
			snprintf(fd, sizeof(fd), "-");
		printf("  %-16s %-16s %7d %7d %-16s %5s %10" PRIu64
		       " %10.3f  %s\n", ts, sys_kind_info(v[i].kind)->name,
		       v[i].pid, v[i].tid, v[i].comm, fd, v[i].bytes,
		       (double)(v[i].end - v[i].start) / 1e6,
		       v[i].file ? file_name(v[i].file) : "-");
	}
}

void view_slow(struct sink *s)
{
	struct driver *a = s->a;
	const struct blk_done *v;
	size_t n;

	v = driver_slowest(a, &n);
	if (s->j) {
		json_array_begin(s->j, "slow_requests");
		for (size_t i = 0; i < n; i++)
			rq_json(s, &v[i]);
		json_array_end(s->j);
		slow_calls(s);
		return;
	}
	printf("\nslowest block requests (top %zu by total time):%s\n", n,
	       a->rb ? "" : " no block events in the recording");
	if (!n) {
		slow_calls(s);
		return;
	}
	printf("  %-16s %-12s %-5s %12s %9s %10s %10s %10s %7s %-16s %s\n",
	       "COMPLETE(s)", "DEVICE", "TYPE", "SECTOR", "BYTES", "QUEUE(ms)",
	       "DEVICE(ms)", "TOTAL(ms)", "PID", "COMM", "FILE");
	for (size_t i = 0; i < n; i++) {
		const struct blk_request *rq = &v[i].rq;
		char type[8], ts[32], q[32], fb[64];
		const char *file = rq_file(s, &v[i], fb, sizeof(fb));

		rq_type(rq, type);
		fmt_secs(ts, sizeof(ts), rq->complete_ts);
		rq_queue_ms(rq, q, sizeof(q));
		printf("  %-16s %-12s %-5s %12" PRIu64 " %9" PRIu64
		       " %10s %10.3f %10.3f %7d %-16s %s\n", ts,
		       sink_dev_name(s, rq->dev), type, rq->sector, rq->bytes,
		       q, (double)(rq->complete_ts - rq->issue_ts) / 1e6,
		       (double)blk_total_ns(rq) / 1e6, rq_pid(rq),
		       rq_comm(s, rq), file);
	}
	slow_calls(s);
}

void view_snoop_begin(struct sink *s)
{
	s->snooping = true;
	if (s->j) {
		json_array_begin(s->j, "requests");
		return;
	}
	printf("%-14s %-14s %-16s %-7s %-4s %-12s %-12s %8s %9s %9s %s\n",
	       "STARTs", "ENDs", "COMM", "PID", "TYPE", "DEV", "BLOCK",
	       "BYTES", "QUEUEms", "LATms", "FILE");
}

void snoop_request(const struct blk_done *d, void *arg)
{
	const struct blk_request *rq = &d->rq;
	struct sink *s = arg;
	uint64_t start = rq->insert_ts ? rq->insert_ts : rq->issue_ts;
	const char *file;
	char type[8], st[32], et[32], q[32], fb[64];

	s->snooped++;
	if (s->j) {
		rq_json(s, d);
		return;
	}
	rq_type(rq, type);
	file = rq_file(s, d, fb, sizeof(fb));
	fmt_secs(st, sizeof(st), start);
	fmt_secs(et, sizeof(et), rq->complete_ts);
	rq_queue_ms(rq, q, sizeof(q));
	printf("%-14s %-14s %-16s %-7d %-4s %-12s %-12" PRIu64 " %8" PRIu64
	       " %9s %9.3f %s\n", st, et, rq_comm(s, rq), rq_pid(rq), type,
	       sink_dev_name(s, rq->dev), rq->sector, rq->bytes, q,
	       (double)(rq->complete_ts - rq->issue_ts) / 1e6, file);
}

void view_snoop_end(struct sink *s)
{
	if (s->j) {
		json_array_end(s->j);
		return;
	}
}
