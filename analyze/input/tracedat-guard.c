// SPDX-License-Identifier: MIT
/*
 * tracedat-guard.c - the structural check of a trace.dat file before
 * libtracecmd opens it (tracedat-guard.h).  It reads what libtracecmd
 * 3.1's tracecmd_open_fd() and its buffer instances read, in the same
 * order (trace-cmd.dat.v6(5), trace-cmd.dat.v7(5)), and refuses what
 * libtracecmd would trust into a crash, a loop or a huge allocation.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "util.h"
#include "base/err.h"
#include "input/ftrace-guard.h"
#include "input/tracedat-guard.h"
#include "tracedat.h"

/* libtracecmd's read_string() reads this much at once (BUFSIZ). */
#define STRING_MAX		8190
#define MAX_BUFFERS		64
#define MAX_OPTION_SECTIONS	64
#define MAX_SECTIONS		4096
#define BLOCK_MAX		(64u << 20)	/* one compressed block */
#define META_MAX		(256ull << 20)	/* all metadata decompressed */
#define TEXT_MAX		(64u << 20)	/* kallsyms, printk, cmdlines */
#define CHUNK_MAX		(16u << 20)	/* one compressed data chunk */
/*
 * The option and section ids, TRACEDAT_SEC_FL_COMPRESS and the CPU bound
 * (TRACEDAT_MAX_CPUS) are tracedat.h's, the reader's.
 */

struct tg {
	int fd;
	uint64_t size;
	bool be;
	int version;
	bool compressed;
	uint32_t page_size;
	int long_size;		/* of the page headers' commit word */
	uint8_t *chunk, *zchunk;	/* scratch for CPU data checks */
	uint64_t meta;		/* metadata decompressed so far */
	uint64_t data;		/* CPU data decompressed, for libtracecmd */
	uint32_t cpus;		/* v6: the header's CPU count */
	bool trace_clock;	/* v6: a TRACECLOCK option was seen */
	int nbuffers;
	uint64_t buf_off[MAX_BUFFERS];
	uint64_t sec_off[TRACEDAT_OPT_BUFFER_TEXT + 1];	/* v7: by section id */
	bool top;		/* v7: a top flyrecord buffer */
	struct tracedat_patches *patches;
	const char *why;
	uint64_t off;
	bool nomem;		/* why: an allocation failed */
};

/* A stream: a region of the file, or a decompressed block. */
struct st {
	struct tg *g;
	uint8_t *mem;		/* NULL: the file */
	uint64_t pos, end;	/* file offsets, or offsets in mem */
	uint64_t at;		/* the file offset that names a problem */
	bool dirty;		/* mem was patched */
};

static int fail(struct tg *g, const char *why, uint64_t off);

/* No memory for what the check at off needed: -1, g->nomem set. */
static int nomem(struct tg *g, uint64_t off)
{
	if (!g->why)
		g->nomem = true;
	return fail(g, "out of memory", off);
}

/* 0, or -1 (out of memory: nothing added). */
static int add_patch(struct tg *g, uint64_t off, const void *b, size_t n)
{
	struct tracedat_patches *p = g->patches;
	struct tracedat_patch *x;
	uint8_t *bytes = malloc(n ? n : 1);

	x = bytes ? an_push(&p->v, &p->n, &p->alloc, sizeof(*p->v), 8) : NULL;
	if (!x) {
		free(bytes);
		return nomem(g, off);
	}
	x->offset = off;
	x->len = n;
	x->bytes = bytes;
	memcpy(x->bytes, b, n);
	return 0;
}

void tracedat_patches_release(struct tracedat_patches *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i].bytes);
	free(p->v);
	p->v = NULL;
	p->n = p->alloc = 0;
	p->formats = 0;
}

static int fail(struct tg *g, const char *why, uint64_t off)
{
	if (!g->why) {
		g->why = why;
		g->off = off;
	}
	return -1;
}

static uint64_t where(const struct st *s)
{
	return s->mem ? s->at : s->pos;
}

static int sread(struct st *s, void *buf, uint64_t n)
{
	if (n > s->end - s->pos)
		return fail(s->g, "trace.dat ends inside a structure", where(s));
	if (s->mem) {
		memcpy(buf, s->mem + s->pos, n);
	} else {
		size_t got = 0;

		while (got < n) {
			ssize_t k = pread(s->g->fd, (char *)buf + got, n - got,
					  (off_t)(s->pos + got));

			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0)
				return fail(s->g, "cannot read the trace.dat",
					    s->pos);
			got += (size_t)k;
		}
	}
	s->pos += n;
	return 0;
}

static uint64_t num(const struct tg *g, const uint8_t *p, int n)
{
	return ftrace_num(p, n, g->be);
}

static int su(struct st *s, int n, uint64_t *v)
{
	uint8_t b[8];

	if (sread(s, b, (uint64_t)n))
		return -1;
	*v = num(s->g, b, n);
	return 0;
}

/* n bytes into a new buffer (NUL-terminated); n was checked by the caller */
static uint8_t *sblob(struct st *s, uint64_t n)
{
	uint8_t *b;

	if (n > s->end - s->pos) {
		fail(s->g, "trace.dat size runs past the end of its part",
		     where(s));
		return NULL;
	}
	b = malloc(n + 1);
	if (!b) {
		nomem(s->g, where(s));
		return NULL;
	}
	if (sread(s, b, n)) {
		free(b);
		return NULL;
	}
	b[n] = '\0';
	return b;
}

/* A string as libtracecmd's read_string() reads it. */
static int sstring(struct st *s, char *out, size_t outsz)
{
	uint64_t left = s->end - s->pos, n = left < STRING_MAX + 1 ?
		left : STRING_MAX + 1;
	uint8_t *b = malloc(n ? n : 1);
	uint8_t *nul;
	uint64_t at = where(s);

	if (!b)
		return nomem(s->g, at);
	if (sread(s, b, n)) {
		free(b);
		return -1;
	}
	nul = memchr(b, '\0', n);
	if (!nul) {
		free(b);
		return fail(s->g, "trace.dat string not terminated within 8 KiB",
			    at);
	}
	s->pos -= n - (uint64_t)(nul - b + 1);
	if (out) {
		size_t k = (size_t)(nul - b) < outsz - 1 ?
			   (size_t)(nul - b) : outsz - 1;

		memcpy(out, b, k);
		out[k] = '\0';
	}
	free(b);
	return 0;
}

static int sexpect(struct st *s, const char *what, size_t n)
{
	char b[16];
	uint64_t at = where(s);

	if (sread(s, b, n) || memcmp(b, what, n))
		return fail(s->g, "trace.dat marker missing", at);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Texts */

static int check_text(struct st *s, uint64_t n, uint64_t max, int kind,
		      const char *system)
{
	struct ftrace_verdict v = { 0 };
	uint64_t at = where(s);
	uint8_t *b;
	int ret = 0;

	if (n > max)
		return fail(s->g, "trace.dat text larger than its limit", at);
	b = sblob(s, n);
	if (!b)
		return -1;
	switch (kind) {
	case 'f': {	/* an event format */
		int r = ftrace_check_format((const char *)b, (size_t)n,
					    s->g->page_size,
					    !strcmp(system, "ftrace"), &v);
		const char *pf = r == FTRACE_REWRITTEN ?
			strstr((const char *)b, "\nprint fmt: ") : NULL;

		if (r == FTRACE_NOMEM) {
			ret = nomem(s->g, at);
		} else if (r == FTRACE_REFUSED || (r == FTRACE_REWRITTEN && !pf)) {
			ret = fail(s->g, v.error, at + v.offset);
		} else if (r == FTRACE_REWRITTEN) {
			struct tracedat_patches *tp = s->g->patches;

			if (!tp->formats++) {
				tp->first_reason = v.error;
				tp->first_offset = at + v.offset;
			}
			/* the neutral print fmt, same length */
			size_t from = (size_t)(pf + 1 - (const char *)b);
			size_t len = (size_t)n - from;
			bool nl = b[n - 1] == '\n';

			if (len < 14) {
				ret = fail(s->g, v.error, at + v.offset);
				break;
			}
			memset(b + from, ' ', len);
			memcpy(b + from, "print fmt: \"\"", 13);
			if (nl)
				b[n - 1] = '\n';
			if (s->mem) {
				memcpy(s->mem + s->pos - n + from, b + from, len);
				s->dirty = true;
			} else {
				ret = add_patch(s->g, s->pos - n + from,
						b + from, len);
			}
		}
		break;
	}
	case 'h':
		if (n && ftrace_check_header_page((const char *)b, (size_t)n,
						  s->g->page_size, &v) < 0)
			ret = fail(s->g, v.error, at + v.offset);
		break;
	case 'k':
		if (ftrace_check_kallsyms((const char *)b, (size_t)n, &v) < 0)
			ret = fail(s->g, v.error, at + v.offset);
		break;
	case 'p': {
		size_t dropped;
		char *t = ftrace_filter_lines((const char *)b, (size_t)n, true,
					      &dropped, &v);

		if (!t)
			ret = nomem(s->g, at);
		else if (dropped || memchr(b, '\0', n))
			ret = fail(s->g, v.error ? v.error :
				   "NUL byte inside the printk formats",
				   at + v.offset);
		free(t);
		break;
	}
	default:
		break;
	}
	ftrace_verdict_release(&v);
	free(b);
	return ret;
}

/* header_page and header_event */
static int header_files(struct st *s)
{
	uint64_t n, at;

	if (sexpect(s, "header_page", 12) || su(s, 8, &n))
		return -1;
	at = s->pos;
	if (check_text(s, n, 4096, 'h', NULL))
		return -1;
	if (n) {
		/* the commit word's size, as libtracecmd takes it */
		struct st c = *s;
		char *b;

		c.pos = at;
		b = (char *)sblob(&c, n);
		if (!b)
			return -1;
		s->g->long_size = strstr(b, "commit;\toffset:8;\tsize:4;") ?
				  4 : 8;
		free(b);
	}
	if (sexpect(s, "header_event", 13) || su(s, 8, &n))
		return -1;
	if (n > 4096)
		return fail(s->g, "trace.dat header_event too large", where(s));
	return check_text(s, n, 4096, 0, NULL);
}

/*
 * A u32 count, then that many u64-sized event format texts of system sys;
 * too_many: the refusal of a count the rest of the file cannot hold.
 */
static int format_files(struct st *s, const char *sys, const char *too_many)
{
	uint64_t count, n;

	if (su(s, 4, &count))
		return -1;
	if (count > (s->end - s->pos) / 8)
		return fail(s->g, too_many, where(s));
	for (uint64_t i = 0; i < count; i++)
		if (su(s, 8, &n) ||
		    check_text(s, n, FTRACE_MAX_FORMAT, 'f', sys))
			return -1;
	return 0;
}

static int ftrace_files(struct st *s)
{
	return format_files(s, "ftrace", "trace.dat count of ftrace formats larger than the file");
}

static int event_files(struct st *s)
{
	uint64_t systems;
	char sys[80];

	if (su(s, 4, &systems))
		return -1;
	if (systems > (s->end - s->pos) / 5)
		return fail(s->g, "trace.dat count of event systems larger than the file", where(s));
	for (uint64_t i = 0; i < systems; i++) {
		uint64_t at = where(s);

		if (sstring(s, sys, sizeof(sys)))
			return -1;
		if (!ftrace_check_system(sys, strlen(sys)))
			return fail(s->g, "trace.dat event system name not of [A-Za-z0-9_]", at);
		if (format_files(s, sys, "trace.dat count of event formats larger than the file"))
			return -1;
	}
	return 0;
}

static int sized_text(struct st *s, int width, int kind)
{
	uint64_t n;

	if (su(s, width, &n))
		return -1;
	return check_text(s, n, TEXT_MAX, kind, NULL);
}

/* ------------------------------------------------------------------ */
/* Compressed blocks (v7) */

/*
 * A compressed block at s: "u32 compressed size, u32 size, data"; *out
 * is a stream over its decompressed bytes (caller frees *mem).
 */
static int block(struct st *s, struct st *out, uint8_t **mem)
{
	struct tg *g = s->g;
	uint64_t at = where(s), csize, rsize;
	uint8_t *in;
	size_t got;

	*mem = NULL;
	if (!g->compressed)
		return fail(g, "trace.dat section compressed in an uncompressed file", at);
	if (su(s, 4, &csize) || su(s, 4, &rsize))
		return -1;
	if (csize > s->end - s->pos)
		return fail(g, "trace.dat compressed block runs past the end of the file", at);
	if (rsize > BLOCK_MAX || g->meta + rsize > META_MAX)
		return fail(g, "trace.dat compressed block larger than 64 MiB, or metadata beyond 256 MiB", at);
	g->meta += rsize;
	in = sblob(s, csize);
	if (!in)
		return -1;
	*mem = malloc(rsize ? rsize : 1);
	if (!*mem) {
		free(in);
		return nomem(g, at);
	}
	got = ZSTD_decompress(*mem, rsize, in, csize);
	free(in);
	if (ZSTD_isError(got)) {
		free(*mem);
		*mem = NULL;
		return fail(g, "trace.dat compressed block does not decompress", at);
	}
	out->g = g;
	out->mem = *mem;
	out->pos = 0;
	out->end = got;
	out->at = at;
	out->dirty = false;
	return 0;
}

/*
 * A patched block written back over the original at its file offset at
 * (csize bytes of room): the texts kept their length, so only the
 * compressed bytes change, and they must fit.
 */
static int reblock(struct tg *g, const struct st *b, uint64_t at)
{
	uint8_t h[8];
	uint64_t csize, rsize;
	size_t bound, z;
	uint8_t *out;
	int ret;

	if (pread(g->fd, h, sizeof(h), (off_t)at) != (ssize_t)sizeof(h))
		return fail(g, "cannot read the trace.dat", at);
	csize = num(g, h, 4);
	rsize = num(g, h + 4, 4);
	bound = ZSTD_compressBound(b->end);
	out = malloc(8 + bound);
	if (!out)
		return nomem(g, at);
	z = ZSTD_compress(out + 8, bound, b->mem, b->end, 19);
	if (ZSTD_isError(z) || z > csize) {
		free(out);
		return fail(g, "trace.dat section with a print fmt to replace does not recompress in place", at);
	}
	for (int i = 0; i < 4; i++) {
		int k = g->be ? 3 - i : i;

		out[k] = (uint8_t)(z >> (8 * i));
		out[4 + k] = (uint8_t)(rsize >> (8 * i));
	}
	ret = add_patch(g, at, out, 8 + z);
	free(out);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Options */

static bool terminated(const uint8_t *b, uint64_t n)
{
	return n && memchr(b, '\0', n);
}

static int cpu_chunks(struct tg *g, uint64_t off, uint64_t size);
static int cpu_pages(struct tg *g, uint64_t off, uint64_t size);

/* The flags of the section at off (v7); -1 when it cannot be read. */
static int section_flags(struct tg *g, uint64_t off)
{
	uint8_t h[16];

	if (off > g->size || g->size - off < 16 ||
	    pread(g->fd, h, sizeof(h), (off_t)off) != (ssize_t)sizeof(h))
		return -1;
	return (int)num(g, h + 2, 2);
}

/* The BUFFER and BUFFER_TEXT options. */
static int buffer_option(struct tg *g, int id, const uint8_t *b, uint64_t n,
			 uint64_t at)
{
	uint64_t off, cpus, p = 8;
	const uint8_t *nul;
	int flags;

	if (n < 9)
		return fail(g, "trace.dat buffer option too short", at);
	off = num(g, b, 8);
	nul = memchr(b + 8, '\0', n - 8);
	if (!nul)
		return fail(g, "trace.dat buffer name not terminated", at);
	p = (uint64_t)(nul - b) + 1;
	if (off >= g->size)
		return fail(g, "trace.dat buffer offset past the end of the file", at);
	if (g->version < 7) {
		if (b[8] == '\0')
			return 0;	/* libtracecmd ignores a top entry */
		if (g->nbuffers >= MAX_BUFFERS)
			return fail(g, "trace.dat with too many buffer instances", at);
		g->buf_off[g->nbuffers++] = off;
		return 0;
	}
	nul = p < n ? memchr(b + p, '\0', n - p) : NULL;
	if (!nul)
		return fail(g, "trace.dat buffer clock not terminated", at);
	p = (uint64_t)(nul - b) + 1;
	flags = section_flags(g, off);
	if (flags < 0)
		return fail(g, "trace.dat buffer section past the end of the file", at);
	if ((flags & TRACEDAT_SEC_FL_COMPRESS) && !g->compressed)
		return fail(g, "trace.dat section compressed in an uncompressed file", off);
	if (id == TRACEDAT_OPT_BUFFER_TEXT &&
	    (flags & TRACEDAT_SEC_FL_COMPRESS))
		return fail(g, "trace.dat compressed latency data is not read", off);
	/* libtracecmd leaves a latency top buffer without CPU data */
	if (b[8] == '\0' && id == TRACEDAT_OPT_BUFFER_TEXT)
		return fail(g, "trace.dat latency traces are not read (record with trace-cmd record)", at);
	if (b[8] == '\0')
		g->top = true;
	if (id == TRACEDAT_OPT_BUFFER) {
		uint64_t page;

		if (n - p < 8)
			return fail(g, "trace.dat buffer option too short", at);
		page = num(g, b + p, 4);
		cpus = num(g, b + p + 4, 4);
		p += 8;
		if (b[8] != '\0' && (page < 4096 || page > (1u << 20) ||
				     (page & (page - 1))))
			return fail(g, "trace.dat buffer page size not a power of two from 4 KiB to 1 MiB", at);
		if (cpus > TRACEDAT_MAX_CPUS || cpus * 20 > n - p)
			return fail(g, "trace.dat buffer CPU count larger than its option", at);
		for (uint64_t i = 0; i < cpus; i++) {
			const uint8_t *c = b + p + i * 20;
			uint64_t cpu = num(g, c, 4), o = num(g, c + 4, 8),
				 sz = num(g, c + 12, 8);

			if (cpu >= TRACEDAT_MAX_CPUS)
				return fail(g, "trace.dat buffer CPU number beyond 8192", at);
			for (uint64_t k = 0; k < i; k++)
				if (num(g, b + p + k * 20, 4) == cpu)
					return fail(g, "trace.dat buffer names a CPU twice", at);
			if (o > g->size || sz > g->size - o)
				return fail(g, "trace.dat CPU data past the end of the file", at);
			if ((flags & TRACEDAT_SEC_FL_COMPRESS) ?
			    sz && cpu_chunks(g, o, sz) : cpu_pages(g, o, sz))
				return -1;
		}
	}
	return 0;
}

static int time_shift_option(struct tg *g, const uint8_t *b, uint64_t n,
			     uint64_t at)
{
	uint64_t p = 16, cpus;

	if (n < 16)
		return 0;	/* ignored by libtracecmd */
	cpus = num(g, b + 12, 4);
	if (cpus > TRACEDAT_MAX_CPUS)
		return fail(g, "trace.dat time shift of too many CPUs", at);
	for (uint64_t i = 0; i < cpus; i++) {
		uint64_t count;

		if (n - p < 4)
			return fail(g, "trace.dat time shift option too short", at);
		count = num(g, b + p, 4);
		p += 4;
		if (count > (n - p) / 24)
			return fail(g, "trace.dat time shift samples larger than the option", at);
		p += count * 24;
	}
	return 0;
}

static int guest_option(struct tg *g, const uint8_t *b, uint64_t n,
			uint64_t at)
{
	const uint8_t *nul = n ? memchr(b, '\0', n) : NULL;
	uint64_t p, vcpus;

	if (!nul)
		return fail(g, "trace.dat guest name not terminated", at);
	p = (uint64_t)(nul - b) + 1;
	if (n - p < 12)
		return fail(g, "trace.dat guest option too short", at);
	vcpus = num(g, b + p + 8, 4);
	p += 12;
	if (vcpus > TRACEDAT_MAX_CPUS || vcpus * 8 > n - p)
		return fail(g, "trace.dat guest CPU count larger than its option", at);
	for (uint64_t i = 0; i < vcpus; i++)
		if (num(g, b + p + i * 8, 4) >= vcpus)
			return fail(g, "trace.dat guest CPU number beyond its count", at);
	return 0;
}

static int procmaps_option(struct tg *g, const uint8_t *b, uint64_t n,
			   uint64_t at)
{
	unsigned int pid, nr;
	const char *nl;
	uint64_t lines = 0;

	if (!n || b[n - 1] != '\0')
		return 0;	/* ignored by libtracecmd */
	nl = strchr((const char *)b, '\n');
	if (!nl || nl - (const char *)b > 4096 ||
	    sscanf((const char *)b, "%x %x", &pid, &nr) != 2)
		return fail(g, "trace.dat process maps not of the shape PID COUNT NAME", at);
	for (const char *q = nl; q; q = strchr(q + 1, '\n'))
		lines++;
	if (nr > lines)
		return fail(g, "trace.dat process maps count more lines than there are", at);
	for (const char *q = (const char *)b; *q; q = nl + 1) {
		nl = strchr(q, '\n');
		if (!nl)
			break;
		if (nl - q > 4096)
			return fail(g, "trace.dat process maps line longer than 4 KiB", at);
	}
	return 0;
}

/* One option's data; *next set by DONE (v7). */
static int option(struct tg *g, uint64_t id, const uint8_t *b, uint64_t n,
		  uint64_t at, uint64_t *next)
{
	switch (id) {
	case TRACEDAT_OPT_DATE:
	case TRACEDAT_OPT_OFFSET:
	case TRACEDAT_OPT_TRACECLOCK:
	case TRACEDAT_OPT_UNAME:
	case TRACEDAT_OPT_VERSION:
		if (!terminated(b, n))
			return fail(g, "trace.dat option text not terminated", at);
		if (id == TRACEDAT_OPT_TRACECLOCK)
			g->trace_clock = true;
		return 0;
	case TRACEDAT_OPT_CPUSTAT:
		if (!n)
			return fail(g, "trace.dat CPU stats option empty", at);
		return 0;
	case TRACEDAT_OPT_BUFFER:
	case TRACEDAT_OPT_BUFFER_TEXT:
		return buffer_option(g, (int)id, b, n, at);
	case TRACEDAT_OPT_HOOK:
		return fail(g, "trace.dat with an event hook option (trace-cmd record --hook) is not read", at);
	case TRACEDAT_OPT_CPUCOUNT:
		if (n < 4 || num(g, b, 4) > TRACEDAT_MAX_CPUS)
			return fail(g, "trace.dat CPU count option not a count up to 8192", at);
		return 0;
	case TRACEDAT_OPT_PROCMAPS:
		return procmaps_option(g, b, n, at);
	case TRACEDAT_OPT_TIME_SHIFT:
		return time_shift_option(g, b, n, at);
	case TRACEDAT_OPT_GUEST:
		return guest_option(g, b, n, at);
	case TRACEDAT_SEC_HEADER_INFO:
	case TRACEDAT_SEC_FTRACE_EVENTS:
	case TRACEDAT_SEC_EVENT_FORMATS:
	case TRACEDAT_SEC_KALLSYMS:
	case TRACEDAT_SEC_PRINTK:
	case TRACEDAT_SEC_CMDLINES:
		if (n < 8)
			return 0;
		if (num(g, b, 8) >= g->size)
			return fail(g, "trace.dat section offset past the end of the file", at);
		g->sec_off[id] = num(g, b, 8);
		return 0;
	case TRACEDAT_OPT_DONE:
		if (g->version < 7)
			return 0;
		if (n < 8)
			return fail(g, "trace.dat options end without the next offset", at);
		*next = num(g, b, 8);
		return 0;
	default:
		return 0;
	}
}

/* Options from s up to DONE; *next: v7's next options section, or 0. */
static int options(struct st *s, uint64_t *next)
{
	for (unsigned int k = 0;; k++) {
		uint64_t id, n, at = where(s);
		uint8_t *b;
		int ret;

		if (k > 65536)
			return fail(s->g, "trace.dat with too many options", at);
		if (su(s, 2, &id))
			return -1;
		if (s->g->version < 7 && id == TRACEDAT_OPT_DONE)
			return 0;
		if (su(s, 4, &n))
			return -1;
		b = sblob(s, n);
		if (!b)
			return -1;
		ret = option(s->g, id, b, n, at, next);
		free(b);
		if (ret)
			return -1;
		if (id == TRACEDAT_OPT_DONE)
			return 0;
	}
}

/* ------------------------------------------------------------------ */
/* Version 7: sections */

static int section_header(struct st *s, uint64_t *id, uint64_t *flags,
			  uint64_t *size)
{
	uint64_t desc;

	return su(s, 2, id) || su(s, 2, flags) || su(s, 4, &desc) ||
	       su(s, 8, size) ? -1 : 0;
}

/* read_metadata_strings(): every section header from the start on. */
static int metadata_strings(struct tg *g, uint64_t pos)
{
	struct st s = { .g = g, .pos = pos, .end = g->size };

	for (unsigned int k = 0; s.end - s.pos >= 16; k++) {
		uint64_t id, flags, size, at = s.pos;

		if (k > MAX_SECTIONS)
			return fail(g, "trace.dat with too many sections", at);
		if (section_header(&s, &id, &flags, &size))
			return -1;
		if (id == TRACEDAT_SEC_STRINGS &&
		    (flags & TRACEDAT_SEC_FL_COMPRESS)) {
			struct st b;
			uint8_t *mem;
			int ret = block(&s, &b, &mem);

			free(mem);
			if (ret)
				return -1;
			continue;
		}
		if (id == TRACEDAT_SEC_STRINGS) {
			/* read as (unsigned int)size bytes, then on from there */
			uint32_t n = (uint32_t)size;

			if (n > s.end - s.pos || n > BLOCK_MAX ||
			    (g->meta += n) > META_MAX)
				return fail(g, "trace.dat strings section larger than the file or 64 MiB", at);
			s.pos += n;
			continue;
		}
		if ((int64_t)size < 0)
			return fail(g, "trace.dat section size that seeks backwards (libtracecmd would loop)", at);
		if (size > s.end - s.pos)
			return 0;	/* libtracecmd's walk ends there too */
		s.pos += size;
	}
	return 0;
}

/* One metadata section at off, checked with its reader. */
static int section(struct tg *g, int want, uint64_t off)
{
	struct st s = { .g = g, .pos = off, .end = g->size }, b, *in = &s;
	uint64_t id, flags, size;
	uint8_t *mem = NULL;
	int ret;

	if (section_header(&s, &id, &flags, &size))
		return -1;
	if ((int)id != want)
		return fail(g, "trace.dat section not of the kind its option says", off);
	if (flags & TRACEDAT_SEC_FL_COMPRESS) {
		if (block(&s, &b, &mem))
			return -1;
		in = &b;
	} else if (size < s.end - s.pos) {
		s.end = s.pos + size;
	}
	switch (want) {
	case TRACEDAT_SEC_HEADER_INFO:
		ret = header_files(in);
		break;
	case TRACEDAT_SEC_FTRACE_EVENTS:
		ret = ftrace_files(in);
		break;
	case TRACEDAT_SEC_EVENT_FORMATS:
		ret = event_files(in);
		break;
	case TRACEDAT_SEC_KALLSYMS:
		ret = sized_text(in, 4, 'k');
		break;
	case TRACEDAT_SEC_PRINTK:
		ret = sized_text(in, 4, 'p');
		break;
	default:
		ret = sized_text(in, 8, 0);
		break;
	}
	if (!ret && in == &b && b.dirty)
		ret = reblock(g, &b, b.at);
	free(mem);
	return ret;
}

/*
 * Sub-buffers of CPU data whose commit size fits the page: libtracecmd
 * loads the first of each CPU with kbuffer before checking, and fails
 * the open (and crashes closing it) on a bad one.
 */
static int pages_ok(struct tg *g, const uint8_t *p, uint64_t n, uint64_t at)
{
	uint64_t hdr = 8 + (uint64_t)g->long_size;

	for (uint64_t o = 0; o + hdr <= n; o += g->page_size) {
		uint64_t commit = num(g, p + o + 8, g->long_size) &
				  TRACEDAT_COMMIT_MASK;

		if (commit + hdr > g->page_size || commit + hdr > n - o)
			return fail(g, "trace.dat page whose data runs past the page", at + o);
		if (!ftrace_page_events_ok(p + o + hdr, commit, g->be))
			return fail(g, "trace.dat page with an event that runs past its data or back", at + o);
	}
	return 0;
}

/* Uncompressed CPU data at off: whole pages inside the file, good headers. */
static int cpu_pages(struct tg *g, uint64_t off, uint64_t size)
{
	uint64_t pages = (size + g->page_size - 1) / g->page_size;
	uint8_t *page;
	int ret = 0;

	if (!size)
		return 0;
	if (off > g->size || pages * g->page_size > g->size - off ||
	    off % g->page_size)
		return fail(g, "trace.dat CPU data not in whole, aligned pages inside the file", off);
	page = malloc(g->page_size);
	if (!page)
		return nomem(g, off);
	for (uint64_t i = 0; i < pages && !ret; i++) {
		uint64_t at = off + i * g->page_size;

		if (pread(g->fd, page, g->page_size, (off_t)at) !=
		    (ssize_t)g->page_size)
			ret = fail(g, "cannot read the trace.dat", at);
		else
			ret = pages_ok(g, page, g->page_size, at);
	}
	free(page);
	return ret;
}

/* The chunks of one CPU's compressed data, as libtracecmd copies them. */
static int cpu_chunks(struct tg *g, uint64_t off, uint64_t size)
{
	/* libtracecmd reads the chunks past the CPU's size (the count) */
	struct st s = { .g = g, .pos = off, .end = g->size };
	uint64_t count, limit = 32 * g->size;
	size_t z;

	if (limit < (64ull << 20))
		limit = 64ull << 20;
	if (su(&s, 4, &count))
		return -1;
	for (uint64_t i = 0; i < count; i++) {
		uint64_t csize, rsize, at = s.pos;

		if (su(&s, 4, &csize) || su(&s, 4, &rsize))
			return -1;
		if (csize > s.end - s.pos)
			return fail(g, "trace.dat compressed data chunk runs past the end of the file", at);
		if (rsize > CHUNK_MAX || (g->data += rsize) > limit)
			return fail(g, "trace.dat data chunks expand beyond 32 times the file", at);
		/* libtracecmd's open fails (and crashes closing) on a bad one */
		if (!g->chunk) {
			g->chunk = malloc(CHUNK_MAX);
			g->zchunk = malloc(CHUNK_MAX + 1024);
			if (!g->chunk || !g->zchunk)
				return nomem(g, at);
		}
		if (csize > CHUNK_MAX + 1024 || sread(&s, g->zchunk, csize))
			return fail(g, "trace.dat compressed data chunk too large", at);
		z = ZSTD_decompress(g->chunk, rsize, g->zchunk, csize);
		if (ZSTD_isError(z))
			return fail(g, "trace.dat compressed data chunk does not decompress", at);
		if (pages_ok(g, g->chunk, z, at))
			return -1;
	}
	return 0;
}

static int v7(struct tg *g, struct st *s)
{
	char zname[64], zver[64];
	uint64_t opt, sec_start;
	uint64_t seen[MAX_OPTION_SECTIONS];
	int nseen = 0;

	if (sstring(s, zname, sizeof(zname)) || sstring(s, zver, sizeof(zver)))
		return -1;
	if (!strcmp(zname, "zstd"))
		g->compressed = true;
	else if (strcmp(zname, "none"))
		return fail(g, "trace.dat compressed with something other than zstd is not read", 0);
	if (su(s, 8, &opt))
		return -1;
	sec_start = s->pos;
	if (metadata_strings(g, sec_start))
		return -1;
	/* the options sections, a chain without loops */
	while (opt) {
		struct st o = { .g = g, .pos = opt, .end = g->size }, b, *in = &o;
		uint64_t id, flags, size, next = 0;
		uint8_t *mem = NULL;
		int ret;

		if (opt >= g->size)
			return fail(g, "trace.dat options offset past the end of the file", opt);
		for (int i = 0; i < nseen; i++)
			if (seen[i] == opt)
				return fail(g, "trace.dat options sections form a loop", opt);
		if (nseen == MAX_OPTION_SECTIONS)
			return fail(g, "trace.dat with too many options sections", opt);
		seen[nseen++] = opt;
		if (section_header(&o, &id, &flags, &size))
			return -1;
		if (id != TRACEDAT_OPT_DONE)
			return fail(g, "trace.dat options section of another kind", opt);
		if (flags & TRACEDAT_SEC_FL_COMPRESS) {
			if (block(&o, &b, &mem))
				return -1;
			in = &b;
		}
		ret = options(in, &next);
		free(mem);
		if (ret)
			return -1;
		opt = next;
	}
	/* without them libtracecmd's open fails, or reads no CPU data */
	if (!g->sec_off[TRACEDAT_SEC_HEADER_INFO])
		return fail(g, "trace.dat without its header info section", 0);
	if (!g->top)
		return fail(g, "trace.dat without the top buffer's flyrecord data", 0);
	for (int id = TRACEDAT_SEC_HEADER_INFO; id <= TRACEDAT_SEC_CMDLINES;
	     id++)
		if (g->sec_off[id] && section(g, id, g->sec_off[id]))
			return -1;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Version 6 */

/* "options  \0" ... then "latency  \0" or "flyrecord\0" and CPU data. */
static int v6_data(struct tg *g, struct st *s, bool top)
{
	char mark[10];
	uint64_t next = 0, at = where(s);

	if (sread(s, mark, 10))
		return -1;
	if (!memcmp(mark, "options", 7)) {
		if (options(s, &next))
			return -1;
		at = where(s);
		if (sread(s, mark, 10))
			return -1;
	}
	if (!memcmp(mark, "latency", 7)) {
		if (top)	/* libtracecmd then has no CPU data */
			return fail(g, "trace.dat latency traces are not read (record with trace-cmd record)", at);
		return 0;
	}
	if (memcmp(mark, "flyrecord", 9))
		return fail(g, "trace.dat without flyrecord or latency data", at);
	if ((uint64_t)g->cpus * 16 > s->end - s->pos)
		return fail(g, "trace.dat CPU data table runs past the end of the file", where(s));
	for (uint32_t i = 0; i < g->cpus; i++) {
		uint64_t off, size;

		at = where(s);
		if (su(s, 8, &off) || su(s, 8, &size))
			return -1;
		if (off > g->size || size > g->size - off)
			return fail(g, "trace.dat CPU data past the end of the file", at);
		if (cpu_pages(g, off, size))
			return -1;
	}
	if (top && g->trace_clock && s->end - s->pos >= 8) {
		/* read_and_parse_trace_clock(): a sized text */
		uint64_t n;

		at = where(s);
		if (su(s, 8, &n))
			return -1;
		if (n > s->end - s->pos)
			return fail(g, "trace.dat trace clock size past the end of the file", at);
	}
	return 0;
}

static int v6(struct tg *g, struct st *s)
{
	uint64_t cpus;

	if (header_files(s) || ftrace_files(s) || event_files(s) ||
	    sized_text(s, 4, 'k') || sized_text(s, 4, 'p') ||
	    sized_text(s, 8, 0) || su(s, 4, &cpus))
		return -1;
	if (cpus > TRACEDAT_MAX_CPUS)
		return fail(g, "trace.dat CPU count beyond 8192", where(s) - 4);
	g->cpus = (uint32_t)cpus;
	if (v6_data(g, s, true))
		return -1;
	for (int i = 0; i < g->nbuffers; i++) {
		struct st b = { .g = g, .pos = g->buf_off[i], .end = g->size };

		if (v6_data(g, &b, false))
			return -1;
	}
	return 0;
}

int tracedat_patched_copy(int fd, const struct tracedat_patches *p)
{
	const char *dir = getenv("TMPDIR");
	char tmpl[4096];
	char buf[65536];
	off_t at = 0;
	int out = -1, err;

	if ((size_t)snprintf(tmpl, sizeof(tmpl), "%s/ioreport-XXXXXX",
			     dir && *dir ? dir : "/tmp") >= sizeof(tmpl)) {
		errno = ENAMETOOLONG;
		goto fail;
	}
	out = mkstemp(tmpl);
	if (out < 0)
		goto fail;
	unlink(tmpl);
	for (;;) {
		ssize_t k = pread(fd, buf, sizeof(buf), at);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 || (k > 0 && write_full(out, buf, (size_t)k) < 0))
			goto fail;
		if (!k)
			break;
		at += k;
	}
	for (size_t i = 0; i < p->n; i++)
		if (pwrite(out, p->v[i].bytes, p->v[i].len,
			   (off_t)p->v[i].offset) != (ssize_t)p->v[i].len)
			goto fail;
	if (lseek(out, 0, SEEK_SET) < 0)
		goto fail;
	return out;
fail:
	err = errno;
	if (out >= 0)
		close(out);
	errno = err ? err : EIO;
	return -1;
}

int tracedat_guard(int fd, struct tracedat_patches *patches,
		   const char **why, uint64_t *off)
{
	struct tg *g = an_calloc(1, sizeof(*g));
	struct st s = { .g = g };
	struct stat st;
	char ver[16];
	uint8_t b[4];
	uint64_t v;
	int ret = -1;

	memset(patches, 0, sizeof(*patches));
	if (!g) {
		*why = "out of memory";
		*off = 0;
		return -AN_E_NOMEM;
	}
	g->fd = fd;
	g->patches = patches;
	if (fstat(fd, &st) < 0) {
		fail(g, "cannot read the trace.dat", 0);
		goto out;
	}
	g->size = (uint64_t)st.st_size;
	s.end = g->size;
	if (sexpect(&s, "\027\010\104tracing", 10) ||
	    sstring(&s, ver, sizeof(ver)))
		goto out;
	if (strcmp(ver, "6") && strcmp(ver, "7")) {
		fail(g, "trace.dat of a file version other than 6 or 7", 10);
		goto out;
	}
	g->version = ver[0] - '0';
	if (sread(&s, b, 2))
		goto out;
	if (b[0] > 1 || (b[1] != 4 && b[1] != 8)) {
		fail(g, "trace.dat endianness or long size not valid", s.pos - 2);
		goto out;
	}
	g->be = b[0];
	if (su(&s, 4, &v))
		goto out;
	/* libtracecmd mmap()s pages: at least the smallest system page */
	if (v < 4096 || v > (1u << 20) || (v & (v - 1))) {
		fail(g, "trace.dat page size not a power of two from 4 KiB to 1 MiB", s.pos - 4);
		goto out;
	}
	g->page_size = (uint32_t)v;
	g->long_size = b[1];
	ret = g->version == 7 ? v7(g, &s) : v6(g, &s);
out:
	*why = g->why;
	*off = g->off;
	if (ret && !*why)
		*why = "trace.dat not valid";
	if (ret)
		tracedat_patches_release(patches);
	if (ret)
		ret = g->nomem ? -AN_E_NOMEM : -1;
	free(g->chunk);
	free(g->zchunk);
	free(g);
	return ret;
}
