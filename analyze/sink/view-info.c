// SPDX-License-Identifier: MIT
/*
 * view-info.c - the view of `ioreport info`: what a recording holds
 * (header, events, chunks per CPU, time span, lost events, snapshot
 * summary, end reason) and whether it is complete, as text, JSON or a CSV
 * table of the JSON.  Output is deterministic: it depends on the file
 * only.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iorec-format.h"
#include "util.h"
#include "sbuf.h"
#include "base/err.h"
#include "base/units.h"
#include "input/source.h"
#include "input/meta.h"
#include "stats/summary.h"
#include "sink/json.h"
#include "sink/sink.h"

/* The options of this call (view_info()). */
static bool no_count;
static const char *csv_table;	/* --csv: the JSON's table, else NULL */

/* Print "  label: value" when the header has key. */
static void header_line(const char *text, const char *label, const char *key)
{
	char buf[1024];

	if (meta_kv(text, key, buf, sizeof(buf)))
		printf("  %-16s %s\n", label, buf);
}

/* A key of the header or end text and its label, for header_lines(). */
struct header_key {
	const char *label, *key;
};

static void header_lines(const char *text, const struct header_key *k,
			 size_t n)
{
	for (size_t i = 0; i < n; i++)
		header_line(text, k[i].label, k[i].key);
}

/* What iorec says of its run (before the output line) and of its probes. */
static const struct header_key iorec_run_keys[] = {
	{ "iorec version:", "iorec_version" },
	{ "profile:", "profile" },
	{ "buffer kb:", "buffer_kb" },
	{ "instance:", "instance" },
	{ "command line:", "cmdline" },
	{ "command:", "command" },
};
static const struct header_key iorec_abi_keys[] = {
	{ "recorder pid:", "self_pid" },
	{ "probe group:", "probe_group" },
	{ "name sources:", "name_sources" },
	{ "syscall ABI:", "syscall_abi" },
	{ "compat ABI:", "compat_abi" },
	{ "compat calls:", "compat_syscalls" },
	{ "unshadowed ids:", "compat_unshadowed" },
	{ "compat start:", "compat_start" },
	{ "exec ABI probes:", "exec_abi_probes" },
	{ "iorec ABI:", "iorec_abi" },
};
/* A black-box snapshot's (iorec --snapshot-dir). */
static const struct header_key snapshot_keys[] = {
	{ "snapshot:", "snapshot" },
	{ "trigger:", "trigger" },
	{ "trigger pid:", "trigger_pid" },
	{ "trigger comm:", "trigger_comm" },
	{ "trigger detail:", "trigger_detail" },
};
/*
 * A black-box snapshot's first line, before the header: what fired, when
 * (trace clock and time of day), on which process ('ioreport findings'
 * says it in seconds from the first event, with the process's name from
 * the events when the recorder found it gone).
 */
static void print_snapshot_line(const struct source_info *in)
{
	const char *h = in->header_text;
	char kind[32], cond[64], v[64], pid[32], comm[64], detail[256],
	     t[META_SECS_LEN], wall[64];
	uint64_t ts;

	if (!meta_kv(h, "snapshot", kind, sizeof(kind)))
		return;
	if (strcmp(kind, "trigger") || !meta_kv(h, "trigger", cond,
						sizeof(cond))) {
		meta_kv(h, "snapshot_mono_ns", v, sizeof(v));
		ts = strtoull(v, NULL, 10);
		printf("snapshot:          asked for (SIGUSR1) at %s",
		       meta_secs(t, sizeof(t), ts));
	} else {
		meta_kv(h, "trigger_ts", v, sizeof(v));
		ts = strtoull(v, NULL, 10);
		meta_kv(h, "trigger_pid", pid, sizeof(pid));
		meta_kv(h, "trigger_comm", comm, sizeof(comm));
		meta_kv(h, "trigger_detail", detail, sizeof(detail));
		unescape_field(comm);
		unescape_field(detail);
		printf("snapshot:          triggered by %s at %s", cond,
		       meta_secs(t, sizeof(t), ts));
	}
	if (sink_wallclock(in, ts, false, wall, sizeof(wall)))
		printf(" (%s)", wall);
	if (!strcmp(kind, "trigger") && *cond) {
		if (*pid && strcmp(pid, "0"))
			printf(": pid %s%s%s%s", pid,
			       strcmp(comm, "?") && *comm ? " (" : "",
			       strcmp(comm, "?") && *comm ? comm : "",
			       strcmp(comm, "?") && *comm ? ")" : "");
		printf("%s%s", *pid && strcmp(pid, "0") ? " " : ": ", detail);
	}
	printf("\n");
}

/* The end chunk's. */
static const struct header_key end_keys[] = {
	{ "reason:", "reason" },
	{ "pages:", "pages" },
	{ "raw bytes:", "raw_bytes" },
	{ "lost events:", "lost_events" },
	{ "flight discarded:", "flight_discarded_chunks" },
	{ "flight cutoff ts:", "flight_cutoff_ts" },
};

static void print_ts(const char *label, uint64_t ts)
{
	char t[META_SECS_LEN];

	printf("  %-16s %s\n", label, meta_secs(t, sizeof(t), ts));
}

struct snap_count {
	unsigned long procs, threads, fds, mounts, blockdevs, sysctls;
	char lastdev[64];
};

static int count_snap(char **f, int n, void *arg)
{
	struct snap_count *s = arg;

	if (!strcmp(f[0], "proc"))
		s->procs++;
	else if (!strcmp(f[0], "thread"))
		s->threads++;
	else if (!strcmp(f[0], "fd"))
		s->fds++;
	else if (!strcmp(f[0], "mount"))
		s->mounts++;
	else if (!strcmp(f[0], "sysctl"))
		s->sysctls++;
	else if (!strcmp(f[0], "blockdev") && n > 1 &&
		 strcmp(f[1], s->lastdev)) {
		/* lines of one device are adjacent */
		s->blockdevs++;
		snprintf(s->lastdev, sizeof(s->lastdev), "%s", f[1]);
	}
	return 0;
}

static void print_snap_count(const char *label, const char *text)
{
	struct snap_count s = { 0 };

	if (!text) {
		printf("  %-16s none\n", label);
		return;
	}
	meta_lines(text, NULL, count_snap, &s);
	printf("  %-16s %lu processes, %lu threads, %lu fds, %lu mounts, %lu block devices, %lu sysctls\n",
	       label, s.procs, s.threads, s.fds, s.mounts, s.blockdevs,
	       s.sysctls);
}

static int print_highlight(char **f, int n, void *arg)
{
	if (!strcmp(f[0], "sysctl") && n >= 3 &&
	    summary_sysctl_of_interest(f[1]))
		printf("  %-16s %s = %s\n", "sysctl", f[1], f[2]);
	else if (!strcmp(f[0], "mount") && n >= 7 &&
		 summary_fs_of_interest(f[4]))
		printf("  %-16s %s on %s type %s (%s) super (%s) dev %s\n",
		       "mount", f[2], f[3], f[4], f[5], f[6], f[1]);
	return 0;
}

/*
 * One line per whole disk with its queue settings; the lines of one
 * device are adjacent in the snapshot.  Unused loop devices (no
 * backing_file) and partitions are left out.
 */
struct bdev_acc {
	char name[64], mm[32];
	struct sbuf line;
	bool partition, loop_backed;
};

static void flush_bdev(struct bdev_acc *b)
{
	if (b->name[0] && !b->partition &&
	    (strncmp(b->name, "loop", 4) || b->loop_backed))
		printf("  %-16s %s (%s)%s\n", "blockdev", b->name, b->mm,
		       b->line.buf ? b->line.buf : "");
	sbuf_reset(&b->line);
	b->name[0] = '\0';
	b->partition = b->loop_backed = false;
}

static int print_bdev(char **f, int n, void *arg)
{
	struct bdev_acc *b = arg;

	if (strcmp(f[0], "blockdev") || n < 4)
		return 0;
	if (strcmp(f[1], b->name)) {
		flush_bdev(b);
		snprintf(b->name, sizeof(b->name), "%s", f[1]);
		snprintf(b->mm, sizeof(b->mm), "%s", f[2]);
	}
	if (!strcmp(f[3], "parent"))
		b->partition = true;
	if (!strcmp(f[3], "backing_file") && n >= 5 && *f[4])
		b->loop_backed = true;
	if (n >= 5 && (!strcmp(f[3], "scheduler") ||
		       !strcmp(f[3], "rotational") ||
		       !strcmp(f[3], "write_cache") ||
		       !strcmp(f[3], "backing_file") ||
		       !strcmp(f[3], "backing_dev") ||
		       !strcmp(f[3], "backing_inode")))
		sbuf_addf(&b->line, " %s=%s", f[3], f[4]);
	return 0;
}

static void print_lost(struct source *src, bool counted)
{
	const struct source_info *in = source_info(src);
	struct meta_kstats k;
	uint64_t total = 0, pages = 0;

	printf("lost events:\n");
	if (in->stats && !meta_kstats(in->stats, &k)) {
		for (int i = 0; i < k.n; i++) {
			const struct meta_kcpu *c = &k.cpu[i];

			if (!c->seen)
				continue;
			printf("  cpu %-3d overrun %" PRIu64 ", dropped %" PRIu64
			       ", pages with lost events %" PRIu64 "\n", i,
			       c->overrun, c->dropped, c->missed_pages);
			total += c->overrun + c->dropped;
		}
		printf("  %-16s %" PRIu64 " (kernel ring-buffer counters)\n",
		       "total", total);
		meta_kstats_release(&k);
	} else {
		printf("  %-16s none (no stats chunk%s)\n", "kernel counters",
		       in->kind == SOURCE_TRACEDAT ? " in trace.dat input" :
		       ": the recording did not end cleanly");
	}
	if (counted) {
		total = source_info_missed(in, &pages);
		printf("  %-16s %" PRIu64 " pages flagged, %" PRIu64
		       " events counted in them\n", "in the data", pages,
		       total);
	}
}

static int json_kv(const char *key, size_t klen, const char *val,
		   size_t vlen, void *arg)
{
	char k[128];

	snprintf(k, sizeof(k), "%.*s", (int)klen, key);
	json_strn(arg, k, val, vlen);
	return 0;
}

/* damage: each damaged region reading skipped, and the totals */
static void print_damage(const struct source_info *in)
{
	struct sbuf sb = SBUF_INIT;

	if (in->truncated && in->ndamaged)
		printf("  %-16s at offset %" PRIu64 ": %s\n", "also truncated",
		       in->truncated_offset, in->truncated_reason);
	if (!in->ndamaged)
		return;
	meta_damage_summary(in, &sb);
	printf("%s\n", sb.buf ? sb.buf : "");
	for (int i = 0; i < in->ndamaged; i++) {
		sbuf_reset(&sb);
		meta_damage_text(&in->damaged[i], &sb);
		printf("  %s\n", sb.buf ? sb.buf : "");
	}
	sbuf_release(&sb);
}

/*
 * A rotated set read as one: its files, what each holds and what is
 * missing between them (a single file: nothing).
 */
static void print_rotation(const struct source_info *in)
{
	char keep[32] = "";

	if (!in->set_files)
		return;
	meta_kv(in->header_text, "rotation_keep", keep, sizeof(keep));
	printf("rotation:          %d file%s of iorec -S --keep %s, read as one recording\n",
	       in->set_files, in->set_files > 1 ? "s" : "",
	       *keep ? keep : "?");
	if (in->set[0].index > 1)
		printf("  %-16s file%s 0001%s%04u (removed by --keep, or not here): the set starts later than the recording\n",
		       "missing:", in->set[0].index > 2 ? "s" : "",
		       in->set[0].index > 2 ? "-" : "",
		       in->set[0].index > 2 ? in->set[0].index - 1 : 0);
	for (int i = 0; i < in->set_files; i++) {
		const struct source_set_file *f = &in->set[i];
		char span[32], size[32];

		if (f->missing_before) {
			units_dur(span, sizeof(span), (double)f->gap_ns);
			printf("  %-16s %u file%s before %s: at least %s of the recording not read\n",
			       "missing:", f->missing_before,
			       f->missing_before > 1 ? "s" : "", f->path,
			       span);
		}
		units_dur(span, sizeof(span), f->last_ts > f->first_ts ?
			  (double)(f->last_ts - f->first_ts) : 0.0);
		units_bytes(size, sizeof(size), (double)f->bytes);
		printf("  file %04u:       %s, %s, %" PRIu64 " data chunks over %s%s\n",
		       f->index, f->path, size, f->chunks, span,
		       f->end ? "" : ", no end chunk (cut short)");
		if (f->overlap_ns) {
			units_dur(span, sizeof(span), (double)f->overlap_ns);
			printf("  %-16s %s starts %s before the previous file ends on a CPU\n",
			       "overlap:", f->path, span);
		}
	}
}

static void json_rotation(struct json *j, const struct source_info *in)
{
	if (!in->set_files) {
		json_null(j, "rotation");
		return;
	}
	json_array_begin(j, "rotation");
	for (int i = 0; i < in->set_files; i++) {
		const struct source_set_file *f = &in->set[i];

		json_object_begin(j, NULL);
		json_str(j, "path", f->path);
		json_u64(j, "index", f->index);
		json_u64(j, "file_bytes", f->bytes);
		json_u64(j, "chunks", f->chunks);
		json_u64(j, "first_ts_ns", f->first_ts);
		json_u64(j, "last_ts_ns", f->last_ts);
		json_bool(j, "end", f->end);
		json_u64(j, "missing_before", f->missing_before);
		json_u64(j, "gap_ns", f->gap_ns);
		json_u64(j, "overlap_ns", f->overlap_ns);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_damage(struct json *j, const struct source_info *in)
{
	json_array_begin(j, "damaged");
	for (int i = 0; i < in->ndamaged; i++) {
		const struct source_damage *r = &in->damaged[i];

		json_object_begin(j, NULL);
		json_u64(j, "offset", r->offset);
		json_u64(j, "length", r->length);
		json_u64(j, "chunks", r->chunks);
		json_bool(j, "to_end", r->to_end);
		if (r->cpu >= 0) {
			json_i64(j, "cpu", r->cpu);
			json_u64(j, "first_ts_ns", r->first_ts);
			json_u64(j, "last_ts_ns", r->last_ts);
		} else {
			json_null(j, "cpu");
		}
		json_str(j, "reason", r->reason);
		json_object_end(j);
	}
	json_array_end(j);
	json_u64(j, "damaged_bytes", in->damaged_bytes);
	json_u64(j, "damaged_chunks", in->damaged_chunks);
	json_u64(j, "damaged_ns", in->damaged_ns);
}

/* "key=value" lines as members of an object. */
static void json_kv_lines(struct json *j, const char *key, const char *text)
{
	if (!text) {
		json_null(j, key);
		return;
	}
	json_object_begin(j, key);
	meta_kv_each(text, json_kv, j);
	json_object_end(j);
}

static void json_snap_count(struct json *j, const char *key, const char *text)
{
	struct snap_count s = { 0 };

	if (!text) {
		json_null(j, key);
		return;
	}
	meta_lines(text, NULL, count_snap, &s);
	json_object_begin(j, key);
	json_u64(j, "processes", s.procs);
	json_u64(j, "threads", s.threads);
	json_u64(j, "fds", s.fds);
	json_u64(j, "mounts", s.mounts);
	json_u64(j, "blockdevs", s.blockdevs);
	json_u64(j, "sysctls", s.sysctls);
	json_object_end(j);
}

/* The JSON of info, or its table csv_table as CSV; 0, or 1 after an error. */
static int info_json(struct source *src, const char *path, uint64_t events,
		     struct an_err *err)
{
	const struct source_info *in = source_info(src);
	struct source_event_type *types;
	struct meta_kstats k;
	struct json j;
	int ntypes;

	json_init(&j, stdout);
	j.compact = true;
	if (csv_table && json_csv_begin(&j, csv_table, stdout) < 0)
		return an_fail(err, AN_E_NOMEM, "out of memory");
	json_object_begin(&j, NULL);
	json_u64(&j, "schema_version", JSON_SCHEMA_VERSION);
	json_str(&j, "recording", path);
	json_str(&j, "format", in->kind == SOURCE_IOREC ? "iorec" : "trace.dat");
	json_u64(&j, "version_major", in->version_major);
	json_u64(&j, "version_minor", in->version_minor);
	sink_integrity_json(&j, &in, NULL, 1);
	json_damage(&j, in);
	json_kv_lines(&j, "header", in->header_text);
	json_u64(&j, "cpus", in->ncpus);
	json_u64(&j, "page_size", in->page_size);
	json_u64(&j, "subbuf_size", in->subbuf_size);
	json_i64(&j, "long_size", in->long_size);
	json_bool(&j, "big_endian", in->big_endian);
	json_u64(&j, "flags", in->flags);
	json_u64(&j, "first_ts_ns", in->first_ts);
	{
		char wall[64];

		if (sink_wallclock(in, in->first_ts, true, wall, sizeof(wall)))
			json_str(&j, "started", wall);
		else
			json_null(&j, "started");
		if (sink_wallclock(in, in->last_ts, true, wall, sizeof(wall)))
			json_str(&j, "ended", wall);
		else
			json_null(&j, "ended");
	}
	json_u64(&j, "last_ts_ns", in->last_ts);
	json_array_begin(&j, "cpu");
	for (int i = 0; i < in->nr_cpus; i++) {
		const struct source_cpu *c = &in->cpus[i];

		json_object_begin(&j, NULL);
		json_i64(&j, "cpu", i);
		json_u64(&j, "chunks", c->chunks);
		json_u64(&j, "pages", c->pages);
		json_u64(&j, "raw_bytes", c->raw_bytes);
		json_u64(&j, "stored_bytes", c->stored_bytes);
		if (no_count) {
			json_null(&j, "events");
		} else {
			json_u64(&j, "events", c->events);
			json_u64(&j, "lost_pages", c->missed_pages);
			json_u64(&j, "lost_events", c->missed_events);
		}
		json_object_end(&j);
	}
	json_array_end(&j);
	if (in->kind == SOURCE_IOREC) {
		json_u64(&j, "chunks", in->chunks);
		json_u64(&j, "file_bytes", in->file_bytes);
	}
	json_rotation(&j, in);
	if (no_count)
		json_null(&j, "events");
	else
		json_u64(&j, "events", events);
	json_u64(&j, "bad_formats", in->bad_formats);
	json_u64(&j, "replaced_print_fmts", in->replaced_prints);
	types = source_event_types(src, &ntypes);
	json_array_begin(&j, "event_types");
	for (int i = 0; i < ntypes; i++) {
		char name[256];

		/* trace.dat holds every format of the kernel: only used ones */
		if (in->kind == SOURCE_TRACEDAT && (no_count || !types[i].count))
			continue;
		snprintf(name, sizeof(name), "%s:%s", types[i].system,
			 types[i].name);
		json_object_begin(&j, NULL);
		json_str(&j, "name", name);
		if (no_count)
			json_null(&j, "count");
		else
			json_u64(&j, "count", types[i].count);
		json_object_end(&j);
	}
	json_array_end(&j);
	if (in->stats && !meta_kstats(in->stats, &k)) {
		json_array_begin(&j, "kernel_lost");
		for (int i = 0; i < k.n; i++) {
			if (!k.cpu[i].seen)
				continue;
			json_object_begin(&j, NULL);
			json_i64(&j, "cpu", i);
			json_u64(&j, "overrun", k.cpu[i].overrun);
			json_u64(&j, "dropped", k.cpu[i].dropped);
			json_u64(&j, "lost_pages", k.cpu[i].missed_pages);
			json_object_end(&j);
		}
		json_array_end(&j);
		meta_kstats_release(&k);
	} else {
		json_null(&j, "kernel_lost");
	}
	json_snap_count(&j, "snapshot_start", in->snapshot_start);
	json_snap_count(&j, "snapshot_end", in->snapshot_end);
	json_kv_lines(&j, "end", in->end_text);
	json_object_end(&j);
	json_finish(&j);
	if (csv_table) {
		char *why;
		int rc = json_csv_finish(&j, &why), ret = 0;

		if (rc == -2)
			ret = an_fail(err, AN_E_INVAL, "--csv=%s: info has no table %s in this recording; its tables: %s",
				      csv_table, csv_table, why);
		else if (rc < 0)
			ret = an_fail(err, AN_E_IO, "cannot write the CSV output (out of memory or a write error)");
		free(why);
		return ret;
	}
	return 0;
}

int view_info(struct source *src, const char *path, uint64_t events,
	      const struct info_opts *o, struct an_err *err)
{
	const struct source_info *in = source_info(src);
	struct source_event_type *types;
	uint64_t raw = 0, stored = 0;
	char buf[512];
	int ntypes;

	no_count = o->no_count;
	csv_table = o->csv_table;
	if (o->as_json || csv_table) {
		int rc = info_json(src, path, events, err);

		return rc < 0 ? rc : ferror(stdout) ? 1 : 0;
	}

	printf("file:              %s\n", path);
	if (in->kind == SOURCE_IOREC)
		printf("format:            iorec %u.%u\n", in->version_major,
		       in->version_minor);
	else
		printf("format:            trace.dat version %u\n",
		       in->version_major);
	if (in->integrity == SOURCE_COMPLETE)
		printf("integrity:         complete\n");
	else
		printf("integrity:         %s at offset %" PRIu64 ": %s\n",
		       meta_integrity(in->integrity), in->stop_offset,
		       in->stop_reason);
	print_damage(in);
	print_rotation(in);
	if (meta_kv(in->header_text, "redacted", buf, sizeof(buf)) &&
	    !strcmp(buf, "1"))
		printf("redacted:          yes (names are pseudonyms, made by ioreport redact)\n");

	print_snapshot_line(in);
	printf("header:\n");
	header_line(in->header_text, "host:", "hostname");
	meta_kv(in->header_text, "kernel", buf, sizeof(buf));
	if (*buf) {
		char ver[256];

		meta_kv(in->header_text, "kversion", ver, sizeof(ver));
		printf("  %-16s %s%s%s\n", "kernel:", buf, *ver ? " " : "",
		       ver);
	}
	header_line(in->header_text, "machine:", "machine");
	header_line(in->header_text, "clock:", "clock");
	printf("  %-16s %u\n", "cpus:", in->ncpus);
	printf("  %-16s %u\n", "page size:", in->page_size);
	printf("  %-16s %u\n", "sub-buffer size:", in->subbuf_size);
	printf("  %-16s %d\n", "long size:", in->long_size);
	printf("  %-16s %s\n", "endianness:", in->big_endian ? "big" : "little");
	if (in->kind == SOURCE_IOREC) {
		printf("  %-16s %s%s%s\n", "flags:",
		       !in->flags ? "none" : "",
		       in->flags & IOREC_HF_RAW_SYSCALLS ?
		       "raw_syscalls fallback (no syscalls:* events) " : "",
		       in->flags & IOREC_HF_FLIGHT ?
		       "flight mode (head of the recording discarded)" : "");
		header_lines(in->header_text, iorec_run_keys,
			     ARRAY_SIZE(iorec_run_keys));
		if (meta_kv(in->header_text, "syscall_filter", buf,
			    sizeof(buf)) && *buf)
			printf("  %-16s %s (other events: the whole machine)\n",
			       "syscalls only:", buf);
		meta_kv(in->header_text, "output_dev", buf, sizeof(buf));
		if (*buf) {
			char ino[64];

			meta_kv(in->header_text, "output_ino", ino, sizeof(ino));
			printf("  %-16s dev %s ino %s\n", "output:", buf, ino);
		} else {
			printf("  %-16s standard output or pipe\n", "output:");
		}
		header_lines(in->header_text, iorec_abi_keys,
			     ARRAY_SIZE(iorec_abi_keys));
		for (int i = 1; i <= META_LIMITS; i++) {
			char key[16];

			snprintf(key, sizeof(key), "limit_%d", i);
			header_line(in->header_text, "limit:", key);
		}
		if (meta_kv(in->header_text, "snapshot", buf, sizeof(buf))) {
			header_lines(in->header_text, snapshot_keys,
				     ARRAY_SIZE(snapshot_keys));
			if (meta_kv(in->header_text, "trigger_ts", buf,
				    sizeof(buf)))
				print_ts("trigger at:",
					 strtoull(buf, NULL, 10));
			if (meta_kv(in->header_text, "snapshot_mono_ns", buf,
				    sizeof(buf)))
				print_ts("snapshot at:",
					 strtoull(buf, NULL, 10));
		}
	}
	if (in->trace_buffers > 0)
		printf("  %-16s %d; read: %s\n", "buffer instances:",
		       in->trace_buffers,
		       in->buffer_name ? in->buffer_name :
		       "the top buffer only");

	printf("time:\n");
	if (in->first_ts || in->last_ts) {
		uint64_t d = in->last_ts - in->first_ts;
		char wall[64], t[META_SECS_LEN];

		print_ts("first event:", in->first_ts);
		print_ts("last event:", in->last_ts);
		if (sink_wallclock(in, in->first_ts, true, wall, sizeof(wall)))
			printf("  %-16s %s\n", "started:", wall);
		if (sink_wallclock(in, in->last_ts, true, wall, sizeof(wall)))
			printf("  %-16s %s\n", "ended:", wall);
		printf("  %-16s %s s\n", "duration:", meta_secs(t, sizeof(t), d));
	} else {
		printf("  %-16s no events\n", "span:");
	}

	printf("cpus:\n");
	printf("  %-5s %8s %10s %14s %14s %7s %12s %8s\n", "CPU", "CHUNKS",
	       "PAGES", "RAW(B)", "STORED(B)", "RATIO", "EVENTS", "LOSTPG");
	for (int i = 0; i < in->nr_cpus; i++) {
		const struct source_cpu *c = &in->cpus[i];
		char ev_s[32];

		if (no_count)
			snprintf(ev_s, sizeof(ev_s), "-");
		else
			snprintf(ev_s, sizeof(ev_s), "%" PRIu64, c->events);
		printf("  %-5d %8u %10" PRIu64 " %14" PRIu64 " %14" PRIu64
		       " %7.2f %12s %8" PRIu64 "\n", i, c->chunks, c->pages,
		       c->raw_bytes, c->stored_bytes,
		       c->stored_bytes ? (double)c->raw_bytes /
		       (double)c->stored_bytes : 0.0, ev_s, c->missed_pages);
		raw += c->raw_bytes;
		stored += c->stored_bytes;
	}
	if (in->kind == SOURCE_IOREC)
		printf("  %-16s %" PRIu64 " chunks, %" PRIu64
		       " bytes read, raw pages %" PRIu64 " B stored as %"
		       PRIu64 " B (%.2fx)\n", "file:", in->chunks,
		       in->file_bytes, raw, stored,
		       stored ? (double)raw / (double)stored : 0.0);

	types = source_event_types(src, &ntypes);
	printf("events: %d types", ntypes);
	if (!no_count)
		printf(", %" PRIu64 " events", events);
	if (in->bad_formats)
		printf(", %u formats unreadable", in->bad_formats);
	printf("\n");
	/* guard: print fmts replaced by neutral ones */
	if (in->replaced_prints)
		printf("  %-16s %u, the first at offset %" PRIu64 ": %s\n",
		       "print fmts replaced:", in->replaced_prints,
		       in->replaced_offset, in->replaced_reason);
	for (int i = 0; i < ntypes; i++) {
		char name[256];

		snprintf(name, sizeof(name), "%s:%s", types[i].system,
			 types[i].name);
		if (no_count && in->kind == SOURCE_TRACEDAT)
			break;	/* every format of the kernel: too many */
		if (no_count)
			printf("  %s\n", name);
		else if (in->kind == SOURCE_IOREC || types[i].count)
			/* trace.dat holds every format of the kernel:
			 * list only the ones with events. */
			printf("  %-48s %12" PRIu64 "\n", name,
			       types[i].count);
	}

	print_lost(src, !no_count);

	if (in->kind == SOURCE_IOREC) {
		printf("snapshot:\n");
		print_snap_count("start:", in->snapshot_start);
		print_snap_count("end:", in->snapshot_end);
		meta_lines(in->snapshot_start, NULL, print_highlight,
			       NULL);
		{
			struct bdev_acc b = { .line = SBUF_INIT };

			meta_lines(in->snapshot_start, NULL, print_bdev,
				       &b);
			flush_bdev(&b);
			sbuf_release(&b.line);
		}
		printf("end:\n");
		if (in->end_text) {
			header_lines(in->end_text, end_keys,
				     ARRAY_SIZE(end_keys));
		} else {
			printf("  %-16s none (no end chunk)\n", "reason:");
		}
	}
	return 0;
}
