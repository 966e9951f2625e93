// SPDX-License-Identifier: MIT
/*
 * tdat-walk.c - walks a trace.dat with the formats/ reader and a minimal
 * kbuffer event walk, and prints what it found per CPU (a test and
 * benchmark program, not installed).
 *
 * The events of all CPUs are taken in timestamp order, as an analyzer
 * merges them, so every CPU's stream is open at once.  Per CPU it prints
 * pages, events, the lost-event accounting of the page headers and the
 * one kbuffer gives (libtracecmd's record->missed_events), a hash of the
 * records (timestamp, size, bytes) and a hash of the page bytes.  A bad
 * file is one line naming the error and its offset, exit status 1.
 */
#include "config.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/kbuffer.h>

#include "tracedat.h"
#include "tdtool.h"

static const char usage[] =
"usage: tdat-walk [-m] [-S] [-p] [-s] [-M] [-b BUFFER] FILE\n"
"  -m  print the file's description and its metadata items\n"
"  -S  print the CPUSTAT options (the kernel's per-CPU buffer stats)\n"
"  -p  pages only: no kbuffer event walk\n"
"  -s  skip kallsyms\n"
"  -M  print the reader's peak memory\n"
"  -b  the buffer (instance) name; default the top one\n";

static struct {
	bool meta, stats, pages_only, mem;
	const char *buffer;
	const char *file;
} env;

struct cpu {
	struct tracedat_stream *s;
	struct kbuffer *kb;
	bool live;		/* an event is current */
	bool first;		/* the current event is its page's first */
	struct tracedat_page pg;	/* the current page */
	void *data;
	unsigned long long ts;
	uint64_t pages, events, kb_lost, kb_lost_events;
	uint64_t rec_hash, page_hash;
};

static const struct tracedat_info *info;

static int errorf(struct tracedat_reader *r, int err, uint64_t off)
{
	fprintf(stderr, "tdat-walk: %s: %s at offset %" PRIu64 "\n", env.file,
		tracedat_strerror(err), r ? tracedat_reader_error_offset(r) : off);
	return 1;
}

static unsigned long long conv_ts(unsigned long long ts)
{
	if (info->has_tsc2nsec && info->tsc_mult)
		ts = (unsigned long long)(((unsigned __int128)ts * info->tsc_mult) >>
					  info->tsc_shift);
	return ts + (unsigned long long)info->ts_offset;
}

/* Make the CPU's next event current, loading pages as needed; <0 error. */
static int advance(struct cpu *c, bool next)
{
	struct tracedat_page *pg = &c->pg;
	int ret;

	if (next && c->live) {
		c->data = kbuffer_next_event(c->kb, &c->ts);
		c->first = false;
		if (c->data)
			return 0;
	}
	for (;;) {
		ret = tracedat_stream_next(c->s, pg);
		if (ret <= 0) {
			c->live = false;
			return ret;
		}
		c->pages++;
		c->page_hash = td_fnv(c->page_hash, pg->data, info->page_size);
		if (env.pages_only)
			continue;
		kbuffer_load_subbuffer(c->kb, (void *)pg->data);
		c->data = kbuffer_read_event(c->kb, &c->ts);
		if (c->data) {
			c->live = c->first = true;
			return 0;
		}
	}
}

/*
 * Count the current event; 1 when it does not lie inside its page's
 * events (kbuffer trusts the lengths in the page: a damaged one would
 * have us read far past the page).
 */
static int take(struct cpu *c)
{
	int missed = c->first ? kbuffer_missed_events(c->kb) : 0;
	int size = kbuffer_event_size(c->kb);
	size_t at = (size_t)((const uint8_t *)c->data - c->pg.data);

	if (size < 0 || at < info->page_header_size ||
	    at + (size_t)size > info->page_header_size + c->pg.commit)
		return 1;
	c->events++;
	if (missed) {
		c->kb_lost++;
		if (missed > 0)
			c->kb_lost_events += (uint64_t)missed;
	}
	c->rec_hash = td_fnv_record(c->rec_hash, conv_ts(c->ts), (uint32_t)size,
				    c->data);
	return 0;
}

static int print_meta(struct tracedat_reader *r)
{
	struct tracedat_meta m;
	uint64_t n[TRACEDAT_META_CMDLINES + 1] = { 0 };
	uint64_t bytes[TRACEDAT_META_CMDLINES + 1] = { 0 };
	int ret;

	printf("version %d endian %s long %u kernel_long %u page_size %u compression %s ncpus %u clock %s buffers %u options %u unknown_options %u\n",
	       info->version, info->big_endian ? "big" : "little", info->long_size,
	       info->kernel_long_size, info->page_size, info->compression,
	       info->ncpus, info->clock, info->nbuffers, info->options,
	       info->unknown_options);
	if (info->uname)
		printf("uname %s\n", info->uname);
	for (uint32_t i = 0; i < info->nbuffers; i++) {
		const struct tracedat_buffer *b = tracedat_reader_buffer(r, i);

		printf("buffer \"%s\" clock %s page_size %u cpus %u%s%s\n", b->name,
		       b->clock, b->page_size, b->ncpus,
		       b->compressed ? " zstd" : "", b->latency ? " latency" : "");
	}
	while ((ret = tracedat_reader_meta_next(r, &m)) > 0) {
		n[m.kind]++;
		bytes[m.kind] += m.len;
	}
	if (ret < 0)
		return ret;
	printf("meta header_page %" PRIu64 " header_event %" PRIu64
	       " ftrace %" PRIu64 "/%" PRIu64 " events %" PRIu64 "/%" PRIu64
	       " kallsyms %" PRIu64 "/%" PRIu64 " printk %" PRIu64 " cmdlines %" PRIu64 "\n",
	       bytes[TRACEDAT_META_HEADER_PAGE], bytes[TRACEDAT_META_HEADER_EVENT],
	       n[TRACEDAT_META_FTRACE_FORMAT], bytes[TRACEDAT_META_FTRACE_FORMAT],
	       n[TRACEDAT_META_EVENT_FORMAT], bytes[TRACEDAT_META_EVENT_FORMAT],
	       n[TRACEDAT_META_KALLSYMS], bytes[TRACEDAT_META_KALLSYMS],
	       bytes[TRACEDAT_META_PRINTK], bytes[TRACEDAT_META_CMDLINES]);
	if (*info->cpustats)
		printf("cpustats %zu bytes\n", strlen(info->cpustats));
	return 0;
}

static int walk(struct tracedat_reader *r, uint32_t bi)
{
	const struct tracedat_buffer *b = tracedat_reader_buffer(r, bi);
	struct cpu *cpus = calloc(b->ncpus ? b->ncpus : 1, sizeof(*cpus));
	uint64_t total = 0;
	int ret = 0;

	if (!cpus)
		return -TRACEDAT_E_NOMEM;
	for (uint32_t i = 0; i < b->ncpus && !ret; i++) {
		struct cpu *c = &cpus[i];

		c->rec_hash = c->page_hash = TD_FNV_INIT;
		c->s = tracedat_stream_open(r, bi, i, &ret);
		c->kb = kbuffer_alloc(info->kernel_long_size == 8 ? KBUFFER_LSIZE_8 :
				      KBUFFER_LSIZE_4, info->big_endian ?
				      KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
		if (!ret && !c->kb)
			ret = -TRACEDAT_E_NOMEM;
		if (!ret)
			ret = advance(c, false);
	}
	/* all CPUs merged in timestamp order */
	while (!ret) {
		struct cpu *min = NULL;

		for (uint32_t i = 0; i < b->ncpus; i++)
			if (cpus[i].live && (!min || cpus[i].ts < min->ts))
				min = &cpus[i];
		if (!min)
			break;
		if (take(min)) {
			fprintf(stderr, "tdat-walk: %s: an event runs past its page at offset %" PRIu64 "\n",
				env.file, min->pg.offset);
			ret = 1;
			break;
		}
		ret = advance(min, true);
	}
	if (ret < 0)
		errorf(r, ret, 0);
	for (uint32_t i = 0; i < b->ncpus; i++) {
		struct cpu *c = &cpus[i];
		const struct tracedat_stream_stats *st;

		if (!c->s)
			continue;
		st = tracedat_stream_stats(c->s);
		if (!ret)
			printf("cpu %u pages %" PRIu64 " events %" PRIu64
			       " lost_pages %" PRIu64 " lost_events %" PRIu64
			       " lost_unknown %" PRIu64 " kb_lost %" PRIu64
			       " kb_lost_events %" PRIu64 " rec_hash %016" PRIx64
			       " page_hash %016" PRIx64 "\n",
			       tracedat_stream_cpu(c->s), c->pages, c->events,
			       st->lost_pages, st->lost_events, st->lost_unknown,
			       c->kb_lost, c->kb_lost_events, c->rec_hash,
			       c->page_hash);
		total += c->events;
		tracedat_stream_close(c->s);
		if (c->kb)
			kbuffer_free(c->kb);
	}
	if (!ret)
		printf("events %" PRIu64 "\n", total);
	free(cpus);
	return ret ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct tracedat_read_opts o = { 0 };
	struct tracedat_reader *r;
	uint64_t off;
	int opt, err, bi = -1, ret;

	while ((opt = getopt(argc, argv, "mSpsMb:h")) != -1) {
		switch (opt) {
		case 'm': env.meta = true; break;
		case 'S': env.stats = true; break;
		case 'p': env.pages_only = true; break;
		case 's': o.flags |= TRACEDAT_R_SKIP_KALLSYMS; break;
		case 'M': env.mem = true; break;
		case 'b': env.buffer = optarg; break;
		default:
			fputs(usage, opt == 'h' ? stdout : stderr);
			return opt == 'h' ? 0 : 2;
		}
	}
	if (optind != argc - 1) {
		fputs(usage, stderr);
		return 2;
	}
	env.file = argv[optind];
	r = tracedat_reader_open(env.file, &o, &err, &off);
	if (!r)
		return errorf(NULL, err, off);
	info = tracedat_reader_info(r);
	if (env.meta && (err = print_meta(r))) {
		errorf(r, err, 0);
		tracedat_reader_close(r);
		return 1;
	}
	if (env.stats)
		fputs(info->cpustats, stdout);
	for (uint32_t i = 0; i < info->nbuffers; i++) {
		const struct tracedat_buffer *b = tracedat_reader_buffer(r, i);

		if (env.buffer ? !strcmp(b->name, env.buffer) : !*b->name) {
			bi = (int)i;
			break;
		}
	}
	if (bi < 0) {
		fprintf(stderr, "tdat-walk: %s: no buffer \"%s\"\n", env.file,
			env.buffer ? env.buffer : "");
		tracedat_reader_close(r);
		return 1;
	}
	if (tracedat_reader_buffer(r, (uint32_t)bi)->latency) {
		errorf(NULL, -TRACEDAT_E_LATENCY,
		       tracedat_reader_buffer(r, (uint32_t)bi)->offset);
		tracedat_reader_close(r);
		return 1;
	}
	ret = walk(r, (uint32_t)bi);
	if (env.mem) {
		size_t peak;

		tracedat_reader_mem(r, &peak);
		printf("reader_peak_bytes %zu\n", peak);
	}
	tracedat_reader_close(r);
	return ret;
}
