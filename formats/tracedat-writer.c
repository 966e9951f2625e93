// SPDX-License-Identifier: MIT
/*
 * tracedat-writer.c - writes a trace-cmd trace.dat (version 6, or 7 with
 * optional zstd) from metadata texts and raw per-CPU pages, spooling the
 * pages so that each CPU's data ends up contiguous.
 *
 * Layout written (docs/tracedat.md): version 6 is the fixed sequence of
 * trace-cmd.dat.v6(5).  Version 7 is, in this order: the file header, the
 * sections headers (16), ftrace events (17), events format (18), kallsyms
 * (19), printk (20), command lines (21), an options section (the section
 * offsets, TRACECLOCK, the caller's options, CPUCOUNT), the buffer
 * flyrecord section (3) with each CPU's data page-aligned, an options
 * section with the BUFFER option, and the strings section (15): the order
 * trace-cmd record uses, with every section contiguous to the end of file.
 * Every offset is computed before the first byte is written, so the
 * output is written front to back and may be a pipe.
 */
#include "config.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmt-util.h"
#include "tracedat.h"
#include "tracedat-int.h"
#include "tracedat-codec.h"

#define OBUF_SIZE	(256u << 10)
#define RAW_BLOCK_MAX	(256u << 10)	/* largest spool block of raw pages */
#define SPOOL_HDR	16		/* u64 next block, u32 length, u32 0 */
#define NO_BLOCK	UINT64_MAX

struct text {
	uint8_t *p;		/* NULL until the text is given (even empty) */
	size_t len;
};

struct wsys {
	char *name;
	struct text *ev;
	size_t nev, cap;
};

struct wopt {
	uint16_t id;
	uint32_t len;
	uint8_t *data;
};

struct wcpu {
	uint8_t *buf;		/* pages gathered for the next spool block */
	uint32_t npages;	/* in buf */
	uint64_t pages;		/* added in all */
	uint64_t first_blk;	/* spool offsets of the first and last block */
	uint64_t last_blk;
	uint64_t bytes;		/* bytes of this CPU in the output (zstd: chunks) */
	uint32_t nchunks;
	uint64_t offset;	/* file offset of its data, set by finish */
};

struct tracedat_writer {
	int fd;
	struct tracedat_write_opts o;
	bool be;
	int failed;		/* negative error: the writer is stopped */
	int saved_errno;
	bool finished;
	uint32_t buf_pages;	/* pages per CPU buffer */
	struct wcpu *cpus;

	struct text header_page, header_event, kallsyms, printk, cmdlines;
	struct text *ftrace;
	size_t nftrace, ftrace_cap;
	struct wsys *sys;
	size_t nsys, sys_cap;
	struct wopt *opts;
	size_t nopts, opts_cap;
	char *clock;

	int spool;		/* -1 until the first block */
	uint64_t spool_end;

	struct td_codec_ctx codec;
	uint8_t *zbuf;
	size_t zcap;

	uint8_t *obuf;
	size_t olen;
	uint64_t written;	/* bytes handed to write() */
	uint64_t pos;		/* bytes emitted (written + buffered) */
};

/* ------------------------------------------------------------------ */
/* output */

static int fail_errno(struct tracedat_writer *w, int code)
{
	w->saved_errno = errno;
	if (code == -TRACEDAT_E_IO && fmt_write_nospc(w->saved_errno))
		code = -TRACEDAT_E_NOSPC;
	w->failed = code;
	return code;
}

static int out_flush(struct tracedat_writer *w)
{
	int ret;

	if (!w->olen)
		return 0;
	ret = fmt_write_all(w->fd, w->obuf, w->olen, NULL, &w->written);
	w->olen = 0;
	return ret ? fail_errno(w, -TRACEDAT_E_IO) : 0;
}

static int out_put(struct tracedat_writer *w, const void *data, size_t len)
{
	const uint8_t *p = data;

	w->pos += len;
	while (len) {
		size_t n = OBUF_SIZE - w->olen;

		if (!n) {
			int ret = out_flush(w);

			if (ret)
				return ret;
			continue;
		}
		if (n > len)
			n = len;
		memcpy(w->obuf + w->olen, p, n);
		w->olen += n;
		p += n;
		len -= n;
	}
	return 0;
}

static int out_zero(struct tracedat_writer *w, uint64_t len)
{
	static const uint8_t zero[4096];
	int ret = 0;

	while (len && !ret) {
		size_t n = len > sizeof(zero) ? sizeof(zero) : (size_t)len;

		ret = out_put(w, zero, n);
		len -= n;
	}
	return ret;
}

static int out_u16(struct tracedat_writer *w, uint16_t v)
{
	uint8_t b[2];

	td_put16(b, v, w->be);
	return out_put(w, b, 2);
}

static int out_u32(struct tracedat_writer *w, uint32_t v)
{
	uint8_t b[4];

	td_put32(b, v, w->be);
	return out_put(w, b, 4);
}

static int out_u64(struct tracedat_writer *w, uint64_t v)
{
	uint8_t b[8];

	td_put64(b, v, w->be);
	return out_put(w, b, 8);
}

/* ------------------------------------------------------------------ */
/* in-memory byte strings (section payloads) */

/* a fmt_buf, and the byte order its integers are appended in */
struct mbuf {
	struct fmt_buf s;
	bool be;
};

static void mb_put(struct mbuf *b, const void *data, size_t len)
{
	fmt_buf_add(&b->s, data, len);
}

static void mb_u16(struct mbuf *b, uint16_t v)
{
	uint8_t t[2];

	td_put16(t, v, b->be);
	mb_put(b, t, 2);
}

static void mb_u32(struct mbuf *b, uint32_t v)
{
	uint8_t t[4];

	td_put32(t, v, b->be);
	mb_put(b, t, 4);
}

static void mb_u64(struct mbuf *b, uint64_t v)
{
	uint8_t t[8];

	td_put64(t, v, b->be);
	mb_put(b, t, 8);
}

/* ------------------------------------------------------------------ */
/* construction and metadata */

static bool is_pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

struct tracedat_writer *tracedat_writer_new(int fd,
					    const struct tracedat_write_opts *opts,
					    int *err)
{
	struct tracedat_writer *w;
	struct tracedat_write_opts o = *opts;
	size_t per_cpu;

	*err = -TRACEDAT_E_INVAL;
	if (!o.version)
		o.version = 7;
	if (o.version == 6)
		o.compress = false;
	if (!o.compress)
		o.codec = TRACEDAT_CODEC_NONE;
	else if (o.codec == TRACEDAT_CODEC_NONE)
		o.codec = TRACEDAT_CODEC_ZSTD;
	if ((o.version != 6 && o.version != 7) ||
	    (o.long_size != 4 && o.long_size != 8) ||
	    !is_pow2(o.page_size) || o.page_size < TRACEDAT_MIN_PAGE ||
	    o.page_size > TRACEDAT_MAX_PAGE ||
	    !o.ncpus || o.ncpus > TRACEDAT_MAX_CPUS || fd < 0)
		return NULL;
	if (o.compress && td_codec_by_name(td_codec_name(o.codec)) < 0)
		return NULL;	/* zlib in a build without it */
	if (!o.chunk_pages)
		o.chunk_pages = TRACEDAT_CHUNK_PAGES;
	if ((uint64_t)o.chunk_pages * o.page_size > (64u << 20))
		return NULL;	/* a chunk's raw size is a u32; keep it sane */
	if (!o.mem_limit)
		o.mem_limit = 16u << 20;

	*err = -TRACEDAT_E_NOMEM;
	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	w->fd = fd;
	w->o = o;
	w->o.tmpdir = NULL;	/* copied below */
	w->be = o.big_endian;
	w->spool = -1;
	w->cpus = calloc(o.ncpus, sizeof(*w->cpus));
	w->obuf = malloc(OBUF_SIZE);
	w->clock = strdup("local");
	if (o.tmpdir)
		w->o.tmpdir = strdup(o.tmpdir);
	if (!w->cpus || !w->obuf || !w->clock || (o.tmpdir && !w->o.tmpdir)) {
		tracedat_writer_free(w);
		return NULL;
	}
	for (uint32_t i = 0; i < o.ncpus; i++)
		w->cpus[i].first_blk = w->cpus[i].last_blk = NO_BLOCK;

	/* Pages per CPU buffer: a chunk with zstd, else up to 256 KiB. */
	per_cpu = o.mem_limit / o.ncpus / o.page_size;
	if (!per_cpu)
		per_cpu = 1;
	if (o.compress) {
		w->buf_pages = o.chunk_pages < per_cpu ? o.chunk_pages :
			       (uint32_t)per_cpu;
	} else {
		size_t max = RAW_BLOCK_MAX / o.page_size;

		if (!max)
			max = 1;
		w->buf_pages = (uint32_t)(per_cpu < max ? per_cpu : max);
	}
	*err = 0;
	return w;
}

static int check_open(struct tracedat_writer *w)
{
	if (w->failed)
		return w->failed;
	if (w->finished)
		return -TRACEDAT_E_STATE;
	return 0;
}

/* A copy of len bytes (one byte allocated for none), or NULL. */
static uint8_t *memdup(const void *data, size_t len)
{
	uint8_t *p = malloc(len ? len : 1);

	if (p && len)
		memcpy(p, data, len);
	return p;
}

/* Keep a copy of a metadata text; max: what its size field holds. */
static int set_text(struct tracedat_writer *w, struct text *t,
		    const void *text, size_t len, size_t max)
{
	uint8_t *p;
	int ret;

	if (len > max)
		return -TRACEDAT_E_INVAL;
	ret = check_open(w);
	if (ret)
		return ret;
	if (len && !text)
		return -TRACEDAT_E_INVAL;
	p = memdup(text, len);
	if (!p)
		return -TRACEDAT_E_NOMEM;
	free(t->p);
	t->p = p;
	t->len = len;
	return 0;
}

int tracedat_writer_set_header_page(struct tracedat_writer *w,
				    const void *text, size_t len)
{
	return set_text(w, &w->header_page, text, len, SIZE_MAX);
}

int tracedat_writer_set_header_event(struct tracedat_writer *w,
				     const void *text, size_t len)
{
	return set_text(w, &w->header_event, text, len, SIZE_MAX);
}

/* kallsyms and printk have a u32 size in both versions */
int tracedat_writer_set_kallsyms(struct tracedat_writer *w,
				 const void *text, size_t len)
{
	return set_text(w, &w->kallsyms, text, len, UINT32_MAX);
}

int tracedat_writer_set_printk(struct tracedat_writer *w,
			       const void *text, size_t len)
{
	return set_text(w, &w->printk, text, len, UINT32_MAX);
}

int tracedat_writer_set_cmdlines(struct tracedat_writer *w,
				 const void *text, size_t len)
{
	return set_text(w, &w->cmdlines, text, len, SIZE_MAX);
}

static int add_text(struct text **arr, size_t *n, size_t *cap,
		    const void *text, size_t len)
{
	struct text t = { NULL, len };

	if (fmt_grow_array((void **)arr, cap, *n + 1, sizeof(**arr), 16))
		return -TRACEDAT_E_NOMEM;
	t.p = memdup(text, len);
	if (!t.p)
		return -TRACEDAT_E_NOMEM;
	(*arr)[(*n)++] = t;
	return 0;
}

int tracedat_writer_add_ftrace_format(struct tracedat_writer *w,
				      const void *text, size_t len)
{
	int ret = check_open(w);

	if (ret)
		return ret;
	if (!text || !len)
		return -TRACEDAT_E_INVAL;
	return add_text(&w->ftrace, &w->nftrace, &w->ftrace_cap, text, len);
}

int tracedat_writer_add_event_format(struct tracedat_writer *w,
				     const char *system,
				     const void *text, size_t len)
{
	struct wsys *s = NULL;
	int ret = check_open(w);

	if (ret)
		return ret;
	if (!system || !*system || !text || !len)
		return -TRACEDAT_E_INVAL;
	for (size_t i = 0; i < w->nsys; i++)
		if (!strcmp(w->sys[i].name, system)) {
			s = &w->sys[i];
			break;
		}
	if (!s) {
		if (fmt_grow_array((void **)&w->sys, &w->sys_cap, w->nsys + 1,
				   sizeof(*w->sys), 16))
			return -TRACEDAT_E_NOMEM;
		s = &w->sys[w->nsys];
		memset(s, 0, sizeof(*s));
		s->name = strdup(system);
		if (!s->name)
			return -TRACEDAT_E_NOMEM;
		w->nsys++;
	}
	return add_text(&s->ev, &s->nev, &s->cap, text, len);
}

int tracedat_writer_set_clock(struct tracedat_writer *w, const char *clock)
{
	char *c;
	int ret = check_open(w);

	if (ret)
		return ret;
	if (!clock || !*clock || strpbrk(clock, "[] \n"))
		return -TRACEDAT_E_INVAL;
	c = strdup(clock);
	if (!c)
		return -TRACEDAT_E_NOMEM;
	free(w->clock);
	w->clock = c;
	return 0;
}

int tracedat_writer_add_option(struct tracedat_writer *w, uint16_t id,
			       const void *data, size_t len)
{
	struct wopt *o;
	int ret = check_open(w);

	if (ret)
		return ret;
	switch (id) {
	case TRACEDAT_OPT_DONE:
	case TRACEDAT_OPT_BUFFER:
	case TRACEDAT_OPT_TRACECLOCK:
	case TRACEDAT_OPT_CPUCOUNT:
	case TRACEDAT_SEC_STRINGS:
	TRACEDAT_META_SEC_CASES:
	case TRACEDAT_OPT_BUFFER_TEXT:
		return -TRACEDAT_E_INVAL;
	}
	if (len > (16u << 20) || (len && !data))
		return -TRACEDAT_E_INVAL;
	if (fmt_grow_array((void **)&w->opts, &w->opts_cap, w->nopts + 1,
			   sizeof(*w->opts), 16))
		return -TRACEDAT_E_NOMEM;
	o = &w->opts[w->nopts];
	o->id = id;
	o->len = (uint32_t)len;
	o->data = memdup(data, len);
	if (!o->data)
		return -TRACEDAT_E_NOMEM;
	w->nopts++;
	return 0;
}

/* ------------------------------------------------------------------ */
/* pages and the spool */

static int spool_open(struct tracedat_writer *w)
{
	const char *dir = w->o.tmpdir;
	char *path;
	int fd;

	if (!dir)
		dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
#ifdef O_TMPFILE
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0) {
		w->spool = fd;
		return 0;
	}
#endif
	if (asprintf(&path, "%s/tracedat-spool.XXXXXX", dir) < 0)
		return -TRACEDAT_E_NOMEM;
	fd = mkstemp(path);
	if (fd >= 0)
		unlink(path);
	free(path);
	if (fd < 0)
		return fail_errno(w, -TRACEDAT_E_TMPFILE);
	w->spool = fd;
	return 0;
}

static int spool_write(struct tracedat_writer *w, const void *buf, size_t len,
		       uint64_t off)
{
	if (fmt_write_all(w->spool, buf, len, &off, NULL))
		return fail_errno(w, -TRACEDAT_E_IO);
	return 0;
}

/* Append a block to the spool and link it after the CPU's last one. */
static int spool_append(struct tracedat_writer *w, struct wcpu *c,
			const void *hdr, size_t hdr_len,
			const void *body, size_t body_len)
{
	uint8_t h[SPOOL_HDR] = { 0 };
	uint64_t next = NO_BLOCK, at;
	uint32_t len = (uint32_t)(hdr_len + body_len);
	int ret;

	if (w->spool < 0 && (ret = spool_open(w)))
		return ret;
	at = w->spool_end;
	memcpy(h, &next, 8);
	memcpy(h + 8, &len, 4);
	if ((ret = spool_write(w, h, SPOOL_HDR, at)) ||
	    (hdr_len && (ret = spool_write(w, hdr, hdr_len, at + SPOOL_HDR))) ||
	    (ret = spool_write(w, body, body_len, at + SPOOL_HDR + hdr_len)))
		return ret;
	if (c->last_blk == NO_BLOCK)
		c->first_blk = at;
	else if ((ret = spool_write(w, &at, 8, c->last_blk)))
		return ret;
	c->last_blk = at;
	w->spool_end = at + SPOOL_HDR + len;
	return 0;
}

/* Write out a CPU's gathered pages: raw, or as one zstd chunk. */
static int cpu_flush(struct tracedat_writer *w, struct wcpu *c)
{
	size_t raw = (size_t)c->npages * w->o.page_size;
	int ret;

	if (!c->npages)
		return 0;
	if (w->o.compress) {
		uint8_t zh[8];
		size_t z;

		long n;

		if (fmt_grow((void **)&w->zbuf, &w->zcap,
			     td_codec_bound(w->o.codec, raw), 0))
			return -TRACEDAT_E_NOMEM;
		n = td_codec_compress(&w->codec, w->o.codec, w->o.zstd_level,
				      w->zbuf, w->zcap, c->buf, raw);
		if (n < 0)
			return w->failed = (int)n;
		z = (size_t)n;
		td_put32(zh, (uint32_t)z, w->be);
		td_put32(zh + 4, (uint32_t)raw, w->be);
		ret = spool_append(w, c, zh, 8, w->zbuf, z);
		c->bytes += 8 + z;
		c->nchunks++;
	} else {
		ret = spool_append(w, c, NULL, 0, c->buf, raw);
		c->bytes += raw;
	}
	c->npages = 0;
	return ret;
}

int tracedat_writer_add_page(struct tracedat_writer *w, uint32_t cpu,
			     const void *page, size_t len)
{
	struct wcpu *c;
	uint8_t *dst;
	int ret = check_open(w);

	if (ret)
		return ret;
	if (cpu >= w->o.ncpus || !page || len > w->o.page_size)
		return -TRACEDAT_E_INVAL;
	c = &w->cpus[cpu];
	if (!c->buf) {
		c->buf = malloc((size_t)w->buf_pages * w->o.page_size);
		if (!c->buf)
			return -TRACEDAT_E_NOMEM;
	}
	dst = c->buf + (size_t)c->npages * w->o.page_size;
	memcpy(dst, page, len);
	memset(dst + len, 0, w->o.page_size - len);
	c->npages++;
	c->pages++;
	if (c->npages == w->buf_pages && (ret = cpu_flush(w, c)))
		return w->failed = ret;
	return 0;
}

/*
 * Read n bytes of the spool at *off, advancing it; the spool ending
 * before them is an I/O error (EIO), as it holds what this writer wrote.
 *
 * Return: 0, or -TRACEDAT_E_IO with the writer stopped (fail_errno()).
 */
static int spool_read(struct tracedat_writer *w, void *buf, size_t n,
		      uint64_t *off)
{
	ssize_t k = fmt_read_all(w->spool, buf, n, off);

	if (k >= 0 && (size_t)k == n)
		return 0;
	if (k >= 0)
		errno = EIO;
	return fail_errno(w, -TRACEDAT_E_IO);
}

/* Copy a CPU's spooled blocks to the output, in order. */
static int copy_cpu(struct tracedat_writer *w, const struct wcpu *c)
{
	uint64_t blk = c->first_blk, copied = 0;
	uint8_t h[SPOOL_HDR];
	uint8_t *buf;
	int ret = 0;

	if (blk == NO_BLOCK)
		return 0;
	buf = malloc(RAW_BLOCK_MAX);
	if (!buf)
		return -TRACEDAT_E_NOMEM;
	while (blk != NO_BLOCK && !ret) {
		uint32_t len;
		uint64_t off = blk;

		if ((ret = spool_read(w, h, SPOOL_HDR, &off)))
			break;
		memcpy(&len, h + 8, 4);
		while (len && !ret) {
			size_t n = len < RAW_BLOCK_MAX ? len : RAW_BLOCK_MAX;

			ret = spool_read(w, buf, n, &off);
			if (!ret)
				ret = out_put(w, buf, n);
			len -= (uint32_t)n;
			copied += n;
		}
		memcpy(&blk, h, 8);
	}
	free(buf);
	assert(ret || copied == c->bytes);
	return ret;
}

/* ------------------------------------------------------------------ */
/* metadata payloads, as both versions lay them out */

static void mb_header_info(struct tracedat_writer *w, struct mbuf *b)
{
	mb_put(b, "header_page", 12);
	mb_u64(b, w->header_page.len);
	mb_put(b, w->header_page.p, w->header_page.len);
	mb_put(b, "header_event", 13);
	mb_u64(b, w->header_event.len);
	mb_put(b, w->header_event.p, w->header_event.len);
}

static void mb_ftrace(struct tracedat_writer *w, struct mbuf *b)
{
	mb_u32(b, (uint32_t)w->nftrace);
	for (size_t i = 0; i < w->nftrace; i++) {
		mb_u64(b, w->ftrace[i].len);
		mb_put(b, w->ftrace[i].p, w->ftrace[i].len);
	}
}

static void mb_events(struct tracedat_writer *w, struct mbuf *b)
{
	mb_u32(b, (uint32_t)w->nsys);
	for (size_t i = 0; i < w->nsys; i++) {
		const struct wsys *s = &w->sys[i];

		mb_put(b, s->name, strlen(s->name) + 1);
		mb_u32(b, (uint32_t)s->nev);
		for (size_t j = 0; j < s->nev; j++) {
			mb_u64(b, s->ev[j].len);
			mb_put(b, s->ev[j].p, s->ev[j].len);
		}
	}
}

static void mb_text32(struct mbuf *b, const struct text *t)
{
	mb_u32(b, (uint32_t)t->len);
	mb_put(b, t->p, t->len);
}

static void mb_text64(struct mbuf *b, const struct text *t)
{
	mb_u64(b, t->len);
	mb_put(b, t->p, t->len);
}

/* "[clock]\n" and its NUL: the TRACECLOCK option */
static void mb_traceclock(struct tracedat_writer *w, struct mbuf *b)
{
	mb_put(b, "[", 1);
	mb_put(b, w->clock, strlen(w->clock));
	mb_put(b, "]\n", 3);
}

static void mb_option(struct mbuf *b, uint16_t id, const void *data, uint32_t len)
{
	mb_u16(b, id);
	mb_u32(b, len);
	mb_put(b, data, len);
}

static void mb_option_u64(struct mbuf *b, uint16_t id, uint64_t v)
{
	uint8_t t[8];

	td_put64(t, v, b->be);
	mb_option(b, id, t, 8);
}

static void free_mbuf(struct mbuf *b)
{
	fmt_buf_free(&b->s);
}

static uint64_t align_up(uint64_t v, uint32_t a)
{
	return (v + a - 1) & ~(uint64_t)(a - 1);
}

/* ------------------------------------------------------------------ */
/* version 6 */

static int finish_v6(struct tracedat_writer *w)
{
	struct mbuf head = { .be = w->be }, clk = { .be = w->be };
	uint32_t ncpus = w->o.ncpus;
	uint64_t pos;
	int ret;

	/* Everything before the CPU data is built in memory, then sized. */
	mb_put(&head, TRACEDAT_MAGIC, TRACEDAT_MAGIC_LEN);
	mb_put(&head, "6", 2);
	mb_put(&head, (uint8_t[]){ w->be ? 1 : 0, w->o.long_size }, 2);
	mb_u32(&head, w->o.page_size);
	mb_header_info(w, &head);
	mb_ftrace(w, &head);
	mb_events(w, &head);
	mb_text32(&head, &w->kallsyms);
	mb_text32(&head, &w->printk);
	mb_text64(&head, &w->cmdlines);
	mb_u32(&head, ncpus);

	mb_traceclock(w, &clk);
	mb_put(&head, "options  ", 10);
	mb_option(&head, TRACEDAT_OPT_TRACECLOCK, clk.s.p, (uint32_t)clk.s.len);
	for (size_t i = 0; i < w->nopts; i++)
		mb_option(&head, w->opts[i].id, w->opts[i].data, w->opts[i].len);
	mb_u16(&head, TRACEDAT_OPT_DONE);
	mb_put(&head, "flyrecord", 10);
	free_mbuf(&clk);

	/* After the (offset, size) table: the clock as "[name]", u64 sized. */
	pos = head.s.len + (uint64_t)ncpus * 16 + 8 + 2 + strlen(w->clock);
	for (uint32_t i = 0; i < ncpus; i++) {
		pos = align_up(pos, w->o.page_size);
		w->cpus[i].offset = pos;
		pos += w->cpus[i].bytes;
	}
	for (uint32_t i = 0; i < ncpus; i++) {
		mb_u64(&head, w->cpus[i].offset);
		mb_u64(&head, w->cpus[i].bytes);
	}
	mb_u64(&head, 2 + strlen(w->clock));
	mb_put(&head, "[", 1);
	mb_put(&head, w->clock, strlen(w->clock));
	mb_put(&head, "]", 1);
	if (head.s.oom) {
		free_mbuf(&head);
		return -TRACEDAT_E_NOMEM;
	}
	ret = out_put(w, head.s.p, head.s.len);
	free_mbuf(&head);
	for (uint32_t i = 0; i < ncpus && !ret; i++) {
		ret = out_zero(w, w->cpus[i].offset - w->pos);
		if (!ret)
			ret = copy_cpu(w, &w->cpus[i]);
	}
	return ret;
}

/* ------------------------------------------------------------------ */
/* version 7 */

/* Section descriptions: the strings section, and each one's id in it. */
enum { D_HEADERS, D_FTRACE, D_EVENTS, D_KALLSYMS, D_PRINTK, D_CMDLINES,
       D_OPTIONS, D_FLYRECORD, D_STRINGS, D_MAX };
static const char *const desc_str[D_MAX] = {
	"headers", "ftrace events", "events format", "kallsyms", "printk",
	"command lines", "options", "buffer flyrecord ", "strings",
};

struct wsec {
	uint16_t id;
	int desc;
	uint16_t flags;
	struct mbuf body;	/* as stored: [csize][rsize][zstd] when compressed */
	uint64_t offset;
};

/* Compress b in place into the stored form of a compressed section. */
static int compress_section(struct tracedat_writer *w, struct mbuf *b)
{
	size_t bound = td_codec_bound(w->o.codec, b->s.len);
	uint8_t *z;
	long n;

	if (b->s.len > UINT32_MAX)
		return -TRACEDAT_E_INVAL;
	z = malloc(bound + 8);
	if (!z)
		return -TRACEDAT_E_NOMEM;
	n = td_codec_compress(&w->codec, w->o.codec, w->o.zstd_level, z + 8,
			      bound, b->s.p, b->s.len);
	if (n < 0) {
		free(z);
		return (int)n;
	}
	td_put32(z, (uint32_t)n, w->be);
	td_put32(z + 4, (uint32_t)b->s.len, w->be);
	free(b->s.p);
	b->s.p = z;
	b->s.len = b->s.cap = n + 8;
	return 0;
}

static int sec_header(struct tracedat_writer *w, uint16_t id, uint16_t flags,
		      int desc, uint64_t size)
{
	int ret;

	if ((ret = out_u16(w, id)) || (ret = out_u16(w, flags)) ||
	    (ret = out_u32(w, (uint32_t)desc)))
		return ret;
	return out_u64(w, size);
}

static int finish_v7(struct tracedat_writer *w)
{
	struct wsec sec[6] = {
		{ TRACEDAT_SEC_HEADER_INFO, D_HEADERS, 0, { .be = w->be }, 0 },
		{ TRACEDAT_SEC_FTRACE_EVENTS, D_FTRACE, 0, { .be = w->be }, 0 },
		{ TRACEDAT_SEC_EVENT_FORMATS, D_EVENTS, 0, { .be = w->be }, 0 },
		{ TRACEDAT_SEC_KALLSYMS, D_KALLSYMS, 0, { .be = w->be }, 0 },
		{ TRACEDAT_SEC_PRINTK, D_PRINTK, 0, { .be = w->be }, 0 },
		{ TRACEDAT_SEC_CMDLINES, D_CMDLINES, 0, { .be = w->be }, 0 },
	};
	struct mbuf hdr = { .be = w->be }, opt1 = { .be = w->be };
	struct mbuf opt2 = { .be = w->be }, str = { .be = w->be };
	struct mbuf clk = { .be = w->be };
	int desc_id[D_MAX];
	const char *zname = td_codec_name(w->o.codec);
	const char *zver = td_codec_version(w->o.codec);
	uint16_t zflag = w->o.compress ? TRACEDAT_SEC_FL_COMPRESS : 0;
	uint64_t pos, opt1_off, fly_off, fly_data, opt2_off;
	uint32_t with_data = 0;
	int ret = -TRACEDAT_E_NOMEM;

	for (int i = 0; i < D_MAX; i++) {
		desc_id[i] = (int)str.s.len;
		mb_put(&str, desc_str[i], strlen(desc_str[i]) + 1);
	}
	for (int i = 0; i < 6; i++)
		sec[i].desc = desc_id[sec[i].desc];
	mb_header_info(w, &sec[0].body);
	mb_ftrace(w, &sec[1].body);
	mb_events(w, &sec[2].body);
	mb_text32(&sec[3].body, &w->kallsyms);
	mb_text32(&sec[4].body, &w->printk);
	mb_text64(&sec[5].body, &w->cmdlines);
	for (int i = 0; i < 6; i++)
		if (sec[i].body.s.oom)
			goto out;
	if (w->o.compress) {
		for (int i = 0; i < 6; i++) {
			ret = compress_section(w, &sec[i].body);
			if (ret)
				goto out;
			sec[i].flags = zflag;
		}
		ret = compress_section(w, &str);
		if (ret)
			goto out;
		ret = -TRACEDAT_E_NOMEM;
	}

	mb_put(&hdr, TRACEDAT_MAGIC, TRACEDAT_MAGIC_LEN);
	mb_put(&hdr, "7", 2);
	mb_put(&hdr, (uint8_t[]){ w->be ? 1 : 0, w->o.long_size }, 2);
	mb_u32(&hdr, w->o.page_size);
	mb_put(&hdr, zname, strlen(zname) + 1);
	mb_put(&hdr, zver, strlen(zver) + 1);
	pos = hdr.s.len + 8;
	for (int i = 0; i < 6; i++) {
		sec[i].offset = pos;
		pos += 16 + sec[i].body.s.len;
	}
	opt1_off = pos;

	/* The first options section: what trace-cmd record puts there. */
	for (int i = 0; i < 5; i++)
		mb_option_u64(&opt1, sec[i].id, sec[i].offset);
	mb_traceclock(w, &clk);
	mb_option(&opt1, TRACEDAT_OPT_TRACECLOCK, clk.s.p, (uint32_t)clk.s.len);
	for (size_t i = 0; i < w->nopts; i++)
		mb_option(&opt1, w->opts[i].id, w->opts[i].data, w->opts[i].len);
	mb_option_u64(&opt1, sec[5].id, sec[5].offset);
	{
		uint8_t t[4];

		td_put32(t, w->o.ncpus, w->be);
		mb_option(&opt1, TRACEDAT_OPT_CPUCOUNT, t, 4);
	}
	/* the flyrecord section follows DONE (14 bytes with its offset) */
	fly_off = opt1_off + 16 + opt1.s.len + 14;
	mb_option_u64(&opt1, TRACEDAT_OPT_DONE, 0);	/* patched below */

	/* The flyrecord section: each CPU's data page-aligned. */
	fly_data = fly_off + 16;
	pos = fly_data;
	for (uint32_t i = 0; i < w->o.ncpus; i++) {
		struct wcpu *c = &w->cpus[i];

		if (!c->bytes)
			continue;
		pos = align_up(pos, w->o.page_size);
		c->offset = pos;
		pos += c->bytes + (w->o.compress ? 4 : 0);
		with_data++;
	}
	opt2_off = pos;
	td_put64(opt1.s.p + opt1.s.len - 8, opt2_off, w->be);

	/* The BUFFER option of the top instance, then the last DONE. */
	{
		struct mbuf b = { .be = w->be };

		mb_u64(&b, fly_off);
		mb_put(&b, "", 1);
		mb_put(&b, w->clock, strlen(w->clock) + 1);
		mb_u32(&b, w->o.page_size);
		mb_u32(&b, with_data);
		for (uint32_t i = 0; i < w->o.ncpus; i++) {
			if (!w->cpus[i].bytes)
				continue;
			mb_u32(&b, i);
			mb_u64(&b, w->cpus[i].offset);
			mb_u64(&b, w->cpus[i].bytes);
		}
		if (b.s.oom || b.s.len > UINT32_MAX) {
			free_mbuf(&b);
			goto out;
		}
		mb_option(&opt2, TRACEDAT_OPT_BUFFER, b.s.p, (uint32_t)b.s.len);
		free_mbuf(&b);
	}
	mb_option_u64(&opt2, TRACEDAT_OPT_DONE, 0);
	if (hdr.s.oom || opt1.s.oom || opt2.s.oom || str.s.oom || clk.s.oom)
		goto out;

	/* Write it all, front to back. */
	if ((ret = out_put(w, hdr.s.p, hdr.s.len)) ||
	    (ret = out_u64(w, opt1_off)))
		goto out;
	for (int i = 0; i < 6 && !ret; i++) {
		assert(w->pos == sec[i].offset);
		ret = sec_header(w, sec[i].id, sec[i].flags, sec[i].desc,
				 sec[i].body.s.len);
		if (!ret)
			ret = out_put(w, sec[i].body.s.p, sec[i].body.s.len);
	}
	if (ret || (ret = sec_header(w, TRACEDAT_OPT_DONE, 0, desc_id[D_OPTIONS],
				     opt1.s.len)) ||
	    (ret = out_put(w, opt1.s.p, opt1.s.len)))
		goto out;
	assert(w->pos == fly_off);
	ret = sec_header(w, TRACEDAT_OPT_BUFFER, zflag, desc_id[D_FLYRECORD],
			 opt2_off - fly_data);
	for (uint32_t i = 0; i < w->o.ncpus && !ret; i++) {
		struct wcpu *c = &w->cpus[i];

		if (!c->bytes)
			continue;
		ret = out_zero(w, c->offset - w->pos);
		if (!ret && w->o.compress)
			ret = out_u32(w, c->nchunks);
		if (!ret)
			ret = copy_cpu(w, c);
	}
	if (ret)
		goto out;
	ret = out_zero(w, opt2_off - w->pos);
	if (!ret)
		ret = sec_header(w, TRACEDAT_OPT_DONE, 0, desc_id[D_OPTIONS],
				 opt2.s.len);
	if (!ret)
		ret = out_put(w, opt2.s.p, opt2.s.len);
	if (!ret)
		ret = sec_header(w, TRACEDAT_SEC_STRINGS, zflag, desc_id[D_STRINGS],
				 str.s.len);
	if (!ret)
		ret = out_put(w, str.s.p, str.s.len);
out:
	for (int i = 0; i < 6; i++)
		free_mbuf(&sec[i].body);
	free_mbuf(&hdr);
	free_mbuf(&opt1);
	free_mbuf(&opt2);
	free_mbuf(&str);
	free_mbuf(&clk);
	return ret;
}

int tracedat_writer_finish(struct tracedat_writer *w)
{
	int ret = check_open(w);

	if (ret)
		return ret;
	w->finished = true;
	if (!w->header_page.p || !w->header_event.p)
		return w->failed = -TRACEDAT_E_STATE;
	for (uint32_t i = 0; i < w->o.ncpus; i++) {
		ret = cpu_flush(w, &w->cpus[i]);
		if (ret)
			return w->failed = ret;
		free(w->cpus[i].buf);
		w->cpus[i].buf = NULL;
	}
	ret = w->o.version == 6 ? finish_v6(w) : finish_v7(w);
	if (!ret)
		ret = out_flush(w);
	if (ret)
		w->failed = ret;
	return ret;
}

uint64_t tracedat_writer_written(const struct tracedat_writer *w)
{
	return w->written;
}

uint64_t tracedat_writer_pages(const struct tracedat_writer *w,
			       const uint32_t *cpu)
{
	uint64_t n = 0;

	if (cpu)
		return *cpu < w->o.ncpus ? w->cpus[*cpu].pages : 0;
	for (uint32_t i = 0; i < w->o.ncpus; i++)
		n += w->cpus[i].pages;
	return n;
}

int tracedat_writer_errno(const struct tracedat_writer *w)
{
	return w->saved_errno;
}

void tracedat_writer_free(struct tracedat_writer *w)
{
	if (!w)
		return;
	if (w->cpus)
		for (uint32_t i = 0; i < w->o.ncpus; i++)
			free(w->cpus[i].buf);
	free(w->cpus);
	free(w->header_page.p);
	free(w->header_event.p);
	free(w->kallsyms.p);
	free(w->printk.p);
	free(w->cmdlines.p);
	for (size_t i = 0; i < w->nftrace; i++)
		free(w->ftrace[i].p);
	free(w->ftrace);
	for (size_t i = 0; i < w->nsys; i++) {
		for (size_t j = 0; j < w->sys[i].nev; j++)
			free(w->sys[i].ev[j].p);
		free(w->sys[i].ev);
		free(w->sys[i].name);
	}
	free(w->sys);
	for (size_t i = 0; i < w->nopts; i++)
		free(w->opts[i].data);
	free(w->opts);
	free(w->clock);
	free((char *)w->o.tmpdir);
	if (w->spool >= 0)
		close(w->spool);
	td_codec_release(&w->codec);
	free(w->zbuf);
	free(w->obuf);
	free(w);
}
