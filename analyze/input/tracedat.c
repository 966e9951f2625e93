// SPDX-License-Identifier: MIT
/*
 * tracedat.c - trace-cmd's trace.dat files as a source (with source.c):
 * read by the formats/ trace.dat reader (versions 6 and 7, uncompressed,
 * zstd or zlib), its metadata into our own tep handle and its pages, one
 * stream per CPU, through kbuffer, so memory stays flat whatever the
 * file's length.  libtracecmd is not used: it is the tests' oracle
 * (tests/tracedat/), which this input must agree with event for event.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>

#include "util.h"
#include "tracedat.h"
#include "base/err.h"
#include "sbuf.h"
#include "input/source.h"
#include "input/source-priv.h"
#include "input/ftrace-guard.h"


/* ------------------------------------------------------------------ */
/* The formats/ reader: the only one */

/* "CPU: N" then "key: value" lines (CPUSTAT) as STATS "cpu\tN\tkey\tvalue" */
static char *cpustats_to_stats(const char *text)
{
	struct sbuf out = SBUF_INIT;
	long cpu = -1;

	sbuf_addstr(&out, "");
	while (text && *text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);
		const char *colon = memchr(text, ':', len);

		if (len > 5 && !memcmp(text, "CPU: ", 5)) {
			cpu = strtol(text + 5, NULL, 10);
		} else if (colon && cpu >= 0 && colon + 2 <= text + len) {
			const char *v = colon + 1;

			while (v < text + len && *v == ' ')
				v++;
			sbuf_addf(&out, "cpu\t%ld\t%.*s\t%.*s\n", cpu,
				  (int)(colon - text), text,
				  (int)(text + len - v), v);
		}
		text += len + (nl ? 1 : 0);
	}
	return sbuf_detach(&out);
}

/* The buffer to read: the top one, or the first instance with data. */
static int pick_buffer(struct source *src)
{
	const struct tracedat_info *ti = tracedat_reader_info(src->tdr);
	int top = tracedat_reader_top_buffer(src->tdr);
	int first = -1;

	for (uint32_t i = 0; i < ti->nbuffers; i++) {
		const struct tracedat_buffer *b =
			tracedat_reader_buffer(src->tdr, i);
		bool data = false;

		for (uint32_t c = 0; c < b->ncpus; c++)
			data |= b->cpus[c].size > 0;
		if ((int)i == top && data)
			return top;
		if (data && first < 0 && !b->latency)
			first = (int)i;
	}
	return first >= 0 ? first : top;
}

static int reader_fail(struct source *src, struct an_err *e, int err,
		       uint64_t off)
{
	if (err == -TRACEDAT_E_NOMEM)
		return an_nomem(e, src->path);
	if (err == -TRACEDAT_E_MEMLIMIT || err == -TRACEDAT_E_TOO_BIG)
		return an_fail(e, AN_E_DAMAGED, "%s: trace.dat at offset %llu: %s (a structure claims more memory than a trace.dat needs: a corrupt file)",
			       src->path, (unsigned long long)off,
			       tracedat_strerror(err));
	if (err == -TRACEDAT_E_LATENCY)
		return an_fail(e, AN_E_FORMAT, "%s: a latency trace (text, no ring-buffer pages): record it with trace-cmd record -e EVENTS, without a latency tracer",
			       src->path);
	return an_fail(e, AN_E_DAMAGED, "%s: corrupt trace.dat at offset %llu: %s",
		       src->path, (unsigned long long)off,
		       tracedat_strerror(err));
}

static int reader_meta(struct source *src, struct an_err *e)
{
	struct source_info *in = &src->info;
	struct tracedat_meta m;
	int ret;

	while ((ret = tracedat_reader_meta_next(src->tdr, &m)) > 0) {
		switch (m.kind) {
		case TRACEDAT_META_HEADER_PAGE: {
			char *text = source_dup_text(src,
						     (const uint8_t *)m.data,
						     m.len);

			if (text)
				source_header_page(src, text, m.len, m.offset,
						   "header_page");
			break;
		}
		case TRACEDAT_META_FTRACE_FORMAT:
		case TRACEDAT_META_EVENT_FORMAT:
			in->format_chunks++;
			source_event_format(src, m.system ? m.system : "ftrace",
					    m.data, m.len, m.offset, 0,
					    "event format");
			break;
		case TRACEDAT_META_PRINTK:
			source_printk(src, m.data, m.len, m.offset);
			break;
		case TRACEDAT_META_CMDLINES:
			free((char *)in->cmdlines);
			in->cmdlines = source_dup_text(src,
						       (const uint8_t *)m.data,
						       m.len);
			break;
		default:
			break;	/* header_event; kallsyms are not read */
		}
		if (src->nomem)
			return an_nomem(e, src->path);
	}
	if (ret < 0)
		return reader_fail(src, e, ret,
				   tracedat_reader_error_offset(src->tdr));
	if (!in->header_page)
		return an_fail(e, AN_E_DAMAGED, "%s: corrupt trace.dat: no header_page, so no page can be read",
			       src->path);
	return source_cmdlines(src) < 0 ? an_nomem(e, src->path) : 0;
}

static int reader_load(struct source *src, struct an_err *e)
{
	struct tracedat_read_opts ro = { .flags = TRACEDAT_R_SKIP_KALLSYMS };
	struct source_info *in = &src->info;
	const struct tracedat_info *ti;
	const struct tracedat_buffer *b;
	uint64_t off = 0;
	int err = 0, ret;

	src->tdr = tracedat_reader_open_fd(src->fd, &ro, &err, &off);
	if (!src->tdr)
		return reader_fail(src, e, err, off);
	ti = tracedat_reader_info(src->tdr);
	in->version_major = (unsigned int)ti->version;
	in->big_endian = ti->big_endian;
	in->long_size = ti->long_size;
	src->tdr_buffer = pick_buffer(src);
	b = src->tdr_buffer >= 0 ?
	    tracedat_reader_buffer(src->tdr, (uint32_t)src->tdr_buffer) : NULL;
	in->page_size = ti->page_size;
	in->subbuf_size = b && b->page_size ? b->page_size : ti->page_size;
	in->ncpus = ti->ncpus;
	in->trace_buffers = (int)ti->nbuffers -
			    (tracedat_reader_top_buffer(src->tdr) >= 0);
	if (b && *b->name)
		in->buffer_name = b->name;
	in->header_text = an_strdup("");
	in->stats = cpustats_to_stats(ti->cpustats);
	src->ts_offset = ti->ts_offset;
	if (ti->has_tsc2nsec && ti->tsc_mult && ti->tsc_shift <= 32) {
		src->tsc_mult = ti->tsc_mult;
		src->tsc_shift = ti->tsc_shift;
	}
	for (uint32_t c = 0; b && c < b->ncpus; c++)
		if (b->cpus[c].cpu >= in->ncpus)
			in->ncpus = b->cpus[c].cpu + 1;
	src->tep = tep_alloc();
	if (!in->header_text || !in->stats || !src->tep ||
	    (in->ncpus && !source_ensure_cpu(src, (int)in->ncpus - 1)))
		return an_nomem(e, src->path);
	tep_set_file_bigendian(src->tep, in->big_endian ? TEP_BIG_ENDIAN :
			       TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(src->tep, host_big_endian() ?
				TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(src->tep, in->long_size);
	tep_set_page_size(src->tep, (int)in->subbuf_size);
	tep_set_cpus(src->tep, (int)in->ncpus);
	ret = reader_meta(src, e);
	if (ret < 0)
		return ret;
	/* one stream per CPU with data */
	for (uint32_t c = 0; b && c < b->ncpus; c++) {
		struct cursor *cur = &src->cursors[b->cpus[c].cpu];

		if (!b->cpus[c].size || cur->stream)
			continue;
		cur->stream = tracedat_stream_open(src->tdr,
						   (uint32_t)src->tdr_buffer,
						   c, &err);
		if (!cur->stream)
			return reader_fail(src, e, err, b->cpus[c].offset);
		in->cpus[b->cpus[c].cpu].present = true;
		in->cpus[b->cpus[c].cpu].stored_bytes = b->cpus[c].size;
	}
	return 0;
}

/* The trace clock of ts in ns, as libtracecmd's timestamp_calc(). */
static uint64_t reader_ts(const struct source *src, uint64_t ts)
{
	if (src->tsc_mult)
		ts = (uint64_t)(((unsigned __int128)ts * src->tsc_mult) >>
				src->tsc_shift);
	return ts + (uint64_t)src->ts_offset;
}

/* A stream failed: the rest of this CPU is lost, the file corrupt. */
static void stream_failed(struct source *src, struct cursor *cur, int err)
{
	struct source_info *in = &src->info;
	uint64_t off = tracedat_stream_error_offset(cur->stream);

	source_warn(src, "%s: cpu %d data at offset %llu: %s; the rest of its events are skipped",
		    src->path, cur->cpu, (unsigned long long)off,
		    tracedat_strerror(err));
	if (err == -TRACEDAT_E_NOMEM)
		src->read_err = -AN_E_NOMEM;
	if (in->integrity == SOURCE_COMPLETE) {
		in->integrity = err == -TRACEDAT_E_TRUNCATED ?
				SOURCE_TRUNCATED : SOURCE_CORRUPT;
		in->stop_offset = off;
		in->stop_reason = tracedat_strerror(err);
	}
}

/* Load the next page of cur that has events into its kbuffer. */
static bool reader_load_page(struct source *src, struct cursor *cur)
{
	const struct tracedat_info *ti = tracedat_reader_info(src->tdr);
	struct source_cpu *sc = &src->info.cpus[cur->cpu];
	struct tracedat_page pg;

	for (;;) {
		int ret = tracedat_stream_next(cur->stream, &pg);

		if (ret <= 0) {
			if (ret < 0)
				stream_failed(src, cur, ret);
			return false;
		}
		sc->pages++;
		sc->raw_bytes += pg.len;
		source_page_lost(src, cur, pg.lost);
		if (!pg.commit)
			continue;
		/* guard: kbuffer trusts the events' lengths */
		if (!ftrace_page_events_ok(pg.data + ti->page_header_size,
					   pg.commit, ti->big_endian)) {
			source_warn(src, "%s: cpu %d page %llu at offset %llu has an event that runs past its data; page skipped",
				    src->path, cur->cpu,
				    (unsigned long long)pg.index,
				    (unsigned long long)pg.offset);
			cur->pending_missed = -1;
			continue;
		}
		if (kbuffer_load_subbuffer(cur->kbuf, (void *)pg.data) < 0)
			continue;
		cur->cur_page = (uint8_t *)pg.data;
		cur->chunk_offset = pg.offset;
		cur->page = (uint32_t)pg.index;
		cur->subbuf = ti->page_header_size + pg.commit;
		cur->page_end = cur->cur_page + cur->subbuf;
		return true;
	}
}

static void reader_next(struct source *src, struct cursor *cur)
{
	const struct tracedat_info *ti = tracedat_reader_info(src->tdr);

	if (!cur->stream) {
		cur->valid = false;
		cur->done = true;
		return;
	}
	source_kbuf_next(src, cur, reader_load_page, ti->page_header_size,
			 ti->kernel_long_size);
	if (cur->valid)
		cur->rec.ts = reader_ts(src, cur->rec.ts);
}

/* ------------------------------------------------------------------ */

int source_tracedat_load(struct source *src, const uint8_t *magic, size_t n,
			 struct an_err *e)
{
	(void)magic;
	(void)n;
	return reader_load(src, e);
}

void source_tracedat_next(struct source *src, struct cursor *cur)
{
	reader_next(src, cur);
}

void source_tracedat_close(struct source *src)
{
	for (int i = 0; i < src->info.nr_cpus; i++) {
		struct cursor *cur = &src->cursors[i];

		tracedat_stream_close(cur->stream);
		cur->stream = NULL;
	}
	tracedat_reader_close(src->tdr);
	src->tdr = NULL;
}
