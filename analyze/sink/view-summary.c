// SPDX-License-Identifier: MIT
/*
 * view-summary.c - the file line, the summary view and the anomaly
 * counters of every view, as text or JSON (see sink.h).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iorec-format.h"
#include "util.h"
#include "base/blk.h"
#include "input/meta.h"
#include "stats/summary.h"
#include "sink/json.h"
#include "sink/histtext.h"
#include "sink/sink.h"

static void print_secs(FILE *out, uint64_t ts)
{
	char buf[META_SECS_LEN];

	fputs(meta_secs(buf, sizeof(buf), ts), out);
}

/* ------------------------------------------------------------------ */
/* Head */

void view_head(struct sink *s)
{
	const struct source_info *in = s->st->info;
	char fmt[64];

	if (in->kind == SOURCE_IOREC)
		snprintf(fmt, sizeof(fmt), "iorec %u.%u", in->version_major,
			 in->version_minor);
	else
		snprintf(fmt, sizeof(fmt), "trace.dat %u", in->version_major);
	if (s->j) {
		json_str(s->j, "recording", in->path);
		json_str(s->j, "format", fmt);
		json_u64(s->j, "first_ts_ns", s->st->first_ts);
		json_u64(s->j, "last_ts_ns", s->st->last_ts);
		json_u64(s->j, "duration_ns", stats_duration(s->st));
		json_u64(s->j, "events", s->st->events);
		return;
	}
	sink_printf(s, "%s: %s, %.6f s, %" PRIu64 " events", in->path, fmt,
	       (double)stats_duration(s->st) / 1e9, s->st->events);
	/* the damage: the warning line of view_integrity() */
	sink_printf(s, "\n");
}

/* ------------------------------------------------------------------ */
/* Anomalies */

/* The syscall-side counters (lost_event_gaps has its own line above). */
static bool sys_side(const struct anomaly *x)
{
	return strcmp(x->stage, "block") && strcmp(x->stage, "attrib") &&
	       strcmp(x->key, "lost_event_gaps");
}

/*
 * The counters of one side: JSON all of them, text those that are not
 * zero (every one with --wide), "none" when all are
 */
static void anomaly_list(struct sink *s, const struct anomaly *v, size_t n,
			 bool block, const char *pre, const char *title)
{
	struct json *j = s->j;
	struct sink_line l;
	char lead[64];

	if (j)
		json_object_begin(j, title);
	else {
		snprintf(lead, sizeof(lead), "  %s:", title);
		sink_line_begin(&l, s, pre, lead);
	}
	for (size_t i = 0; i < n; i++) {
		if (block ? strcmp(v[i].stage, "block") : !sys_side(&v[i]))
			continue;
		if (j)
			json_u64(j, v[i].key, v[i].n);
		else if (v[i].n || s->wide)
			sink_line_add(&l, "%s %" PRIu64, v[i].text, v[i].n);
	}
	if (j) {
		json_object_end(j);
		return;
	}
	if (!l.items)
		sink_line_add(&l, "none");
	sink_line_end(&l);
}

void view_anomalies(struct sink *s)
{
	struct stats *a = s->st;
	const struct anomaly *v = a->anom;
	uint64_t gaps, lost = stats_lost(a, &gaps);
	size_t n = a->nanom;
	/* snoop's lines are for grep and awk: its trailer is a comment */
	const char *pre = s->snooping ? "# " : "";

	if (s->j) {
		json_object_begin(s->j, "anomalies");
		json_u64(s->j, "lost_event_gaps", gaps);
		json_u64(s->j, "lost_events_known", lost);
	} else {
		sink_printf(s, "%s\n%sanomalies: lost-event gaps %" PRIu64 " (%" PRIu64
		       " events known lost)\n", s->snooping ? "#" : "", pre,
		       gaps, lost);
	}
	if (a->have_block)
		anomaly_list(s, v, n, true, pre, "block");
	if (a->have_sys)
		anomaly_list(s, v, n, false, pre, "syscalls");
	if (s->j)
		json_object_end(s->j);
}

/* ------------------------------------------------------------------ */
/* Summary */

/*
 * The time spans events are missing from: each gap as its CPU's events
 * either side of it, in time order (the first STATS_GAPS_MAX gaps).
 */
static void summary_spans(struct sink *s, uint64_t gaps)
{
	const struct stats *a = s->st;
	uint64_t sum = 0;

	sink_printf(s, "  the spans without events (a gap: its CPU's events"
		    " either side of it):\n  %-4s %14s %14s %10s %10s\n",
		    "CPU", "FROM(s)", "TO(s)", "SPAN(ms)", "LOST");
	for (size_t g = 0; g < a->ngaps; g++) {
		const struct lostgap *x = &a->gapv[g];
		char lost[24];

		if (x->events >= 0)
			snprintf(lost, sizeof(lost), "%lld", x->events);
		else
			snprintf(lost, sizeof(lost), "?");
		sum += x->to - x->from;
		sink_printf(s, "  %-4d %+14.6f %+14.6f %10.3f %10s\n", x->cpu,
			    (double)(x->from - a->first_ts) / 1e9,
			    (double)(x->to - a->first_ts) / 1e9,
			    (double)(x->to - x->from) / 1e6, lost);
	}
	if (gaps > a->ngaps)
		sink_printf(s, "  ... %" PRIu64 " more gaps (the first %d are"
			    " listed)\n", gaps - a->ngaps, STATS_GAPS_MAX);
	sink_printf(s, "  the spans summed: %.3f s of the recording's %.3f s"
		    " (spans on different CPUs may overlap)\n",
		    (double)sum / 1e9, (double)stats_duration(a) / 1e9);
}

static void summary_lost(struct sink *s)
{
	struct stats *a = s->st;
	struct meta_kstats k;
	uint64_t gaps, lost = stats_lost(a, &gaps);
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
			sink_lostcpu_json(s->j, i, l);
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
		json_array_begin(s->j, "spans");
		for (size_t g = 0; g < a->ngaps; g++) {
			const struct lostgap *x = &a->gapv[g];

			json_object_begin(s->j, NULL);
			json_i64(s->j, "cpu", x->cpu);
			json_u64(s->j, "from_ns", x->from);
			json_u64(s->j, "to_ns", x->to);
			if (x->events >= 0)
				json_u64(s->j, "events_known",
					 (uint64_t)x->events);
			else
				json_null(s->j, "events_known");
			json_object_end(s->j);
		}
		json_array_end(s->j);
		json_u64(s->j, "spans_left_off",
			 gaps > a->ngaps ? gaps - a->ngaps : 0);
		json_object_end(s->j);
	} else {
		sink_printf(s, "\nlost events:%s\n", gaps || k.n ? "" :
		       " none seen in the data");
		if (gaps || k.n) {
			sink_printf(s, "  %-4s %8s %10s %8s %12s %12s %10s  %s\n",
			       "CPU", "GAPS", "LOST", "UNKNOWN", "K-OVERRUN",
			       "K-DROPPED", "MISSING(s)", "FIRST-GAP(s)");
			for (int i = 0; i < a->nr_cpus; i++) {
				const struct lostcpu *l = &a->lost[i];

				sink_printf(s, "  %-4d %8" PRIu64 " %10" PRIu64
				       " %8" PRIu64, i, l->gaps, l->events,
				       l->unknown);
				if (i < k.n)
					sink_printf(s, " %12" PRIu64 " %12" PRIu64,
					       k.cpu[i].overrun,
					       k.cpu[i].dropped);
				else
					sink_printf(s, " %12s %12s", "-", "-");
				sink_printf(s, " %10.3f  ", (double)l->missing_ns / 1e9);
				if (l->first_gap_ts) {
					print_secs(s->out, l->first_gap_ts);
					sink_printf(s, " (+%.6f s)", (double)(
					       l->first_gap_ts - a->first_ts) /
					       1e9);
				} else {
					sink_printf(s, "-");
				}
				sink_printf(s, "\n");
			}
		}
		if (gaps)
			summary_spans(s, gaps);
		if (!have_k)
			sink_printf(s, "  (no kernel counters: %s)\n",
			       a->info->kind == SOURCE_TRACEDAT ?
			       "trace.dat input" :
			       "the recording did not end cleanly");
	}
	meta_kstats_release(&k);
}

/* Per device totals, from the per-operation rows (sorted by device). */
static void summary_devices(struct sink *s)
{
	struct stats *a = s->st;
	size_t i = 0;

	if (s->j)
		json_array_begin(s->j, "devices");
	else
		sink_printf(s, "\ndevices with I/O:%s\n  %-20s %10s %14s %10s %10s %8s %8s\n",
		       a->have_block ? (a->ndev ? "" : " no completed requests") :
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
		blk_dev_str(dev, mm, sizeof(mm));
		if (s->j) {
			json_object_begin(s->j, NULL);
			json_str(s->j, "dev", mm);
			json_str(s->j, "device", sink_dev_name(s, dev));
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
			sink_printf(s, "  %-20s %10" PRIu64 " %14" PRIu64 " %10" PRIu64
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
 * and end snapshots, per device, next to what the trace saw complete
 * (stats/summary.h says how they compare).
 */
static void print_diskstats(struct sink *s)
{
	const struct source_info *in = s->st->info;
	struct ds_row *v;
	long n = summary_diskstats_rows(s->st, &v);

	if (s->j)
		json_array_begin(s->j, "diskstats");
	else
		sink_printf(s, "\ndiskstats (start -> end snapshot) vs trace (completed requests):%s\n",
		       !in->snapshot_start ? " none: the recording has no snapshot" :
		       !in->snapshot_end ? " none: the recording has no end snapshot (it did not end cleanly)" :
		       "");
	for (long i = 0; i < n; i++) {
		const struct ds_row *d = &v[i];
		char mm[32];

		blk_dev_str(d->dev, mm, sizeof(mm));
		if (s->j) {
			json_object_begin(s->j, NULL);
			json_str(s->j, "dev", mm);
			json_str(s->j, "device", d->name);
			if (d->disk != d->dev) {
				blk_dev_str(d->disk, mm, sizeof(mm));
				json_str(s->j, "partition_of", mm);
			} else {
				json_null(s->j, "partition_of");
			}
			json_bool(s->j, "counters_reset", d->reset);
			json_object_begin(s->j, "diskstats");
			for (int k = 0; k < DS_N; k++)
				json_u64(s->j, ds_key[k], d->delta[k]);
			json_object_end(s->j);
			json_object_begin(s->j, "trace");
			for (int k = 0; k < DS_N; k++)
				if (k != DS_IOMS)
					json_u64(s->j, ds_key[k], d->trace[k]);
			json_object_end(s->j);
			json_object_end(s->j);
			continue;
		}
		sink_printf(s, "  %-12s diskstats %" PRIu64 " reads %" PRIu64
		       " sectors, %" PRIu64 " writes %" PRIu64 " sectors, %"
		       PRIu64 " discards, %" PRIu64 " flushes; trace %" PRIu64
		       " reads %" PRIu64 " sectors, %" PRIu64 " writes %" PRIu64
		       " sectors, %" PRIu64 " discards, %" PRIu64 " flushes%s%s\n",
		       d->name, d->delta[DS_R], d->delta[DS_RS], d->delta[DS_W],
		       d->delta[DS_WS], d->delta[DS_D], d->delta[DS_F],
		       d->trace[DS_R], d->trace[DS_RS], d->trace[DS_W],
		       d->trace[DS_WS], d->trace[DS_D], d->trace[DS_F],
		       d->disk != d->dev ? " (partition: its requests are traced on its disk)" : "",
		       d->reset ? " (counters reset during the recording)" : "");
	}
	if (s->j)
		json_array_end(s->j);
	else if (n == 0 && in->snapshot_start && in->snapshot_end)
		sink_printf(s, "  no device moved\n");
	free(v);
}

static void print_mount(struct sink *s, const struct cfg_mount *m)
{
	if (s->j) {
		json_object_begin(s->j, NULL);
		json_str(s->j, "dev", m->dev);
		json_str(s->j, "source", m->source);
		json_str(s->j, "mountpoint", m->dir);
		json_str(s->j, "fstype", m->fstype);
		json_str(s->j, "options", m->options);
		json_str(s->j, "super_options", m->super);
		json_bool(s->j, "barrier", m->barrier);
		if (m->ext) {
			json_str(s->j, "data",
				 *m->data ? m->data : SUMMARY_EXT_DATA);
			json_u64(s->j, "commit_s",
				 strtoull(*m->commit ? m->commit :
					  SUMMARY_EXT_COMMIT, NULL, 10));
		}
		json_object_end(s->j);
		return;
	}
	/* one line, wrapped as a whole */
	char ext[256] = "";

	if (m->ext)
		snprintf(ext, sizeof(ext), ", data=%s%s, commit=%s%s",
			 *m->data ? m->data : SUMMARY_EXT_DATA,
			 *m->data ? "" : " (default)",
			 *m->commit ? m->commit : SUMMARY_EXT_COMMIT,
			 *m->commit ? "" : " (default)");
	sink_printf(s, "  %-16s %s on %s type %s: %s%s [%s]\n", "mount",
		    m->source, m->dir, m->fstype,
		    m->barrier ? "barrier" : "nobarrier", ext, m->super);
}

/* Config highlights: the devices that did I/O, their mounts, sysctls. */
static void print_config(struct sink *s)
{
	struct config c;

	summary_config(s->st, &c);
	if (s->j) {
		json_object_begin(s->j, "config");
		if (!c.snapshot) {
			json_null(s->j, "sysctl");
		} else {
			json_object_begin(s->j, "sysctl");
			for (size_t i = 0; i < c.nsysctl; i++)
				json_str(s->j, c.sysctl[i].key,
					 c.sysctl[i].value);
			json_object_end(s->j);
		}
		json_array_begin(s->j, "mounts");
		for (size_t i = 0; i < c.nmount; i++)
			print_mount(s, &c.mount[i]);
		json_array_end(s->j);
		json_array_begin(s->j, "blockdevs");
		for (size_t i = 0; i < c.nbdev; i++) {
			if (!c.bdev[i].io)
				continue;
			json_object_begin(s->j, NULL);
			json_str(s->j, "device", c.bdev[i].name);
			json_str(s->j, "dev", c.bdev[i].mm);
			json_str(s->j, "scheduler", c.bdev[i].scheduler);
			json_str(s->j, "rotational", c.bdev[i].rotational);
			json_str(s->j, "write_cache", c.bdev[i].write_cache);
			json_object_end(s->j);
		}
		json_array_end(s->j);
		json_object_end(s->j);
		summary_config_release(&c);
		return;
	}
	sink_printf(s, "\nconfig:%s\n", c.snapshot ? "" :
		" none (the recording has no snapshot)");
	if (c.snapshot) {
		for (size_t i = 0; i < c.nsysctl; i++)
			sink_printf(s, "  %-16s %s = %s\n", "sysctl",
				c.sysctl[i].key, c.sysctl[i].value);
		for (size_t i = 0; i < c.nmount; i++)
			print_mount(s, &c.mount[i]);
		if (!c.nmount)
			sink_printf(s, "  %-16s none on the devices that did I/O\n",
				"mount");
	}
	for (size_t i = 0; i < c.nbdev; i++) {
		const struct cfg_bdev *b = &c.bdev[i];

		if (b->io)
			sink_printf(s, "  %-16s %s (%s) scheduler=%s rotational=%s write_cache=%s\n",
				"blockdev", b->name, b->mm,
				*b->scheduler ? b->scheduler : "-",
				*b->rotational ? b->rotational : "-",
				*b->write_cache ? b->write_cache : "-");
	}
	summary_config_release(&c);
}

void view_summary(struct sink *s)
{
	struct stats *a = s->st;
	const struct source_info *in = a->info;
	static const struct { const char *label, *key; } hk[] = {
		{ "host", "hostname" }, { "kernel", "kernel" },
		{ "kversion", "kversion" }, { "machine", "machine" },
		{ "clock", "clock" }, { "profile", "profile" },
	};
	int ntypes = a->event_types;
	char buf[512];

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
				 a->processes);
		if (sink_wallclock(in, a->first_ts, true, buf, sizeof(buf)))
			json_str(s->j, "started", buf);
		else
			json_null(s->j, "started");
		if (sink_wallclock(in, a->last_ts, true, buf, sizeof(buf)))
			json_str(s->j, "ended", buf);
		else
			json_null(s->j, "ended");
		summary_lost(s);
		summary_devices(s);
		print_diskstats(s);
		print_config(s);
		json_object_end(s->j);
		return;
	}
	sink_printf(s, "\nsummary:\n");
	for (size_t i = 0; i < ARRAY_SIZE(hk); i++) {
		meta_kv(in->header_text, hk[i].key, buf, sizeof(buf));
		if (*buf)
			sink_printf(s, "  %-16s %s\n", hk[i].label, buf);
	}
	sink_printf(s, "  %-16s %u\n", "cpus", in->ncpus);
	if (in->flags & IOREC_HF_RAW_SYSCALLS)
		sink_printf(s, "  %-16s raw_syscalls (no syscalls:* events)\n",
		       "syscalls");
	if (meta_kv(in->header_text, "syscall_filter", buf, sizeof(buf)) &&
	    *buf)
		sink_printf(s, "  %-16s %s (other events: the whole machine)\n",
			    "syscalls only", buf);
	sink_printf(s, "  %-16s ", "first event");
	print_secs(s->out, a->first_ts);
	sink_printf(s, "\n  %-16s ", "last event");
	print_secs(s->out, a->last_ts);
	sink_printf(s, "\n");
	if (sink_wallclock(in, a->first_ts, true, buf, sizeof(buf)))
		sink_printf(s, "  %-16s %s\n", "started", buf);
	if (sink_wallclock(in, a->last_ts, true, buf, sizeof(buf)))
		sink_printf(s, "  %-16s %s\n", "ended", buf);
	sink_printf(s, "  %-16s %.6f s\n", "duration", (double)stats_duration(a) / 1e9);
	sink_printf(s, "  %-16s %" PRIu64 " of %d types\n", "events", a->events,
	       ntypes);
	sink_printf(s, "  %-16s %" PRIu64 " (distinct pids in the events)\n",
	       "tasks seen", a->tasks);
	if (a->have_sys)
		sink_printf(s, "  %-16s %zu (from the process replay)\n", "processes",
		       a->processes);
	summary_lost(s);
	summary_devices(s);
	print_diskstats(s);
	print_config(s);
}

