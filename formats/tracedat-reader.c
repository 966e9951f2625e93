// SPDX-License-Identifier: MIT
/*
 * tracedat-reader.c - reads a trace-cmd trace.dat (version 6, or 7
 * uncompressed, with zstd or with zlib) structure by structure in bounded memory:
 * its options and buffer descriptions at open, then its metadata items
 * and the pages of each CPU on demand.
 *
 * The file comes from strangers: every count, size and offset is checked
 * against the end of the structure that holds it and against the file
 * size before it is used, every loop consumes bytes of the file, and
 * every buffer is counted against the memory limit.  A failure names what
 * was wrong (enum tracedat_error) and the file offset where.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fmt-util.h"
#include "tracedat.h"
#include "tracedat-int.h"
#include "tracedat-codec.h"

#define RBUF_SIZE	(64u << 10)	/* readahead for sequential parsing */
#define STREAM_RA_MAX	(256u << 10)	/* readahead of an uncompressed stream */
#define MAX_BUFFERS	256u		/* instances */
#define MAX_STRING	4096u		/* names, clocks, compression strings */
#define MAX_OPT_TEXT	(64u << 10)	/* one UNAME, VERSION, TRACECLOCK, CPUSTAT */
#define MAX_CPUSTATS	(4u << 20)	/* all CPUSTAT options */
#define MAX_OPTION	(16u << 20)	/* an interpreted option's data */
#define SLACK		64u		/* zeroes after a stream's last page */

#define _TRACEDAT_E(name, str) str,
static const char *const tracedat_error_str[] = { TRACEDAT_ERRORS };
#undef _TRACEDAT_E

const char *tracedat_strerror(int err)
{
	return fmt_strerror(tracedat_error_str, TRACEDAT_E_BASE, TRACEDAT_E_MAX, err);
}

struct rbuffer {
	struct tracedat_buffer pub;
	char *name;
	char *clock;
	struct tracedat_cpu *cpus;
	uint32_t v6_ncpus;	/* v6 instances: entries in their flyrecord table */
};

/* A position in a structure: in the file, or in a decompressed section. */
struct cur {
	const uint8_t *mem;	/* NULL: the file */
	uint64_t pos, end;	/* file offsets, or indexes into mem */
	uint64_t base;		/* mem: the section's file offset, for errors */
	int overrun;		/* the error for reading past end */
};

/*
 * Where tracedat_reader_meta_next() stands.  A v7 section is opened in a
 * call of its own (M_NEXT_GROUP), never in the call that yields the last
 * item of the section before, whose data may point into that section.
 */
enum meta_phase {
	M_START, M_NEXT_GROUP, M_HEADER_PAGE, M_HEADER_EVENT,
	M_FTRACE_COUNT, M_FTRACE, M_EVENTS_COUNT, M_SYSTEM, M_EVENT,
	M_SINGLE, M_DONE,
};

struct tracedat_reader {
	int fd;
	bool own_fd;
	bool be;
	struct tracedat_read_opts o;
	struct tracedat_info info;
	uint64_t fsize;
	uint64_t err_off;
	size_t mem, mem_peak;

	char *compression, *compression_version;
	char *trace_clock, *uname, *writer_version, *clock;
	char *cpustats;
	size_t cpustats_len;
	bool v6_clock_follows;	/* a TRACECLOCK option: a v6 clock after flyrecord */

	struct rbuffer *buf;
	uint32_t nbuf;
	size_t buf_cap;		/* elements allocated in buf */
	int pending_v6_buffer;	/* v6: index of the instance a CPUCOUNT may follow */

	uint64_t sec_off[TRACEDAT_SEC_CMDLINES + 1];	/* v7 sections by id */
	uint64_t v6_meta;	/* v6: offset of "header_page" */
	uint32_t commit_size;

	/* sequential readahead */
	uint8_t *rbuf;
	size_t rbuf_cap;
	uint64_t rbuf_off;
	size_t rbuf_len;

	/* metadata iteration */
	enum meta_phase phase;
	int group;		/* index into groups[] */
	struct cur mc;
	uint8_t *sec;		/* a decompressed section */
	size_t sec_size;
	uint8_t *item;		/* an item read from the file, NUL-terminated */
	size_t item_cap;
	uint8_t *clobbered;	/* the byte replaced by an item's NUL in sec */
	uint8_t clobbered_val;
	uint32_t count, index, nev, iev;
	char system[MAX_STRING];

	enum tracedat_codec codec;	/* the header's compression */
	struct td_codec_ctx cctx;
	uint8_t *zin;		/* compressed input of a chunk */
	size_t zin_cap;

	struct tracedat_stream *streams;
};

struct tracedat_stream {
	struct tracedat_reader *r;
	struct tracedat_stream *next, **pprev;
	const struct tracedat_buffer *b;
	uint32_t cpu;
	uint32_t page_size;
	bool compressed;
	uint64_t pos, end;	/* the CPU's data still to read */
	uint32_t nchunks, chunk;
	uint8_t *buf;		/* readahead, or one decompressed chunk */
	size_t cap;
	size_t blen, bpos;
	uint64_t buf_off;	/* file offset of buf[0], or of the chunk header */
	uint64_t index;
	int err;
	uint64_t err_off;
	struct tracedat_stream_stats st;
};

/* ------------------------------------------------------------------ */
/* errors, memory */

static int fail(struct tracedat_reader *r, int err, uint64_t off)
{
	r->err_off = off;
	return err;
}

/* Count n more bytes held, or refuse them. */
static int mem_take(struct tracedat_reader *r, size_t n)
{
	if (n > r->o.mem_limit || r->mem > r->o.mem_limit - n)
		return -TRACEDAT_E_MEMLIMIT;
	r->mem += n;
	if (r->mem > r->mem_peak)
		r->mem_peak = r->mem;
	return 0;
}

static void mem_give(struct tracedat_reader *r, size_t n)
{
	r->mem -= n < r->mem ? n : r->mem;
}

/* Resize a counted buffer to at least n bytes. */
static int mem_grow(struct tracedat_reader *r, uint8_t **buf, size_t *cap,
		    size_t n)
{
	int ret;

	if (n <= *cap)
		return 0;
	ret = mem_take(r, n - *cap);
	if (ret)
		return ret;
	if (fmt_grow((void **)buf, cap, n, 0)) {
		mem_give(r, n - *cap);
		return -TRACEDAT_E_NOMEM;
	}
	return 0;
}

static void mem_free(struct tracedat_reader *r, uint8_t **buf, size_t *cap)
{
	free(*buf);
	*buf = NULL;
	mem_give(r, *cap);
	*cap = 0;
}

/* ------------------------------------------------------------------ */
/* file access */

/* Read exactly n bytes at off; a short read is a cut file. */
static int pread_all(struct tracedat_reader *r, void *dst, size_t n,
		     uint64_t off)
{
	uint64_t at = off;
	ssize_t k;

	if (off > r->fsize || n > r->fsize - off)
		return fail(r, -TRACEDAT_E_TRUNCATED, off);
	k = fmt_read_all(r->fd, dst, n, &at);
	if (k < 0)
		return fail(r, -TRACEDAT_E_IO, at);
	if ((size_t)k < n)
		return fail(r, -TRACEDAT_E_TRUNCATED, at);
	return 0;
}

/* Read n bytes at off through the readahead buffer. */
static int ra_read(struct tracedat_reader *r, void *dst, size_t n,
		   uint64_t off)
{
	uint8_t *d = dst;

	while (n) {
		size_t k;

		if (off < r->rbuf_off || off >= r->rbuf_off + r->rbuf_len) {
			size_t want = RBUF_SIZE;
			int ret;

			if (off >= r->fsize)
				return fail(r, -TRACEDAT_E_TRUNCATED, off);
			if (want > r->fsize - off)
				want = (size_t)(r->fsize - off);
			r->rbuf_len = 0;
			ret = pread_all(r, r->rbuf, want, off);
			if (ret)
				return ret;
			r->rbuf_off = off;
			r->rbuf_len = want;
		}
		k = (size_t)(r->rbuf_off + r->rbuf_len - off);
		if (k > n)
			k = n;
		memcpy(d, r->rbuf + (off - r->rbuf_off), k);
		d += k;
		off += k;
		n -= k;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* cursors */

static void cur_file(struct cur *c, uint64_t pos, uint64_t end, int overrun)
{
	c->mem = NULL;
	c->pos = pos;
	c->end = end;
	c->base = 0;
	c->overrun = overrun;
}

static void cur_mem(struct cur *c, const uint8_t *mem, size_t len,
		    uint64_t base, int overrun)
{
	c->mem = mem;
	c->pos = 0;
	c->end = len;
	c->base = base;
	c->overrun = overrun;
}

/* The file offset to report for the cursor's position. */
static uint64_t cur_off(const struct cur *c)
{
	return c->mem ? c->base : c->pos;
}

static uint64_t cur_left(const struct cur *c)
{
	return c->end > c->pos ? c->end - c->pos : 0;
}

static int cur_read(struct tracedat_reader *r, struct cur *c, void *dst,
		    size_t n)
{
	int ret;

	if (n > cur_left(c))
		return fail(r, c->overrun, cur_off(c));
	if (c->mem) {
		memcpy(dst, c->mem + c->pos, n);
	} else {
		ret = ra_read(r, dst, n, c->pos);
		if (ret)
			return ret;
	}
	c->pos += n;
	return 0;
}

static int cur_skip(struct tracedat_reader *r, struct cur *c, uint64_t n)
{
	if (n > cur_left(c))
		return fail(r, c->overrun, cur_off(c));
	c->pos += n;
	return 0;
}

static int cur_u16(struct tracedat_reader *r, struct cur *c, uint16_t *v)
{
	uint8_t b[2];
	int ret = cur_read(r, c, b, 2);

	if (!ret)
		*v = td_get16(b, r->be);
	return ret;
}

static int cur_u32(struct tracedat_reader *r, struct cur *c, uint32_t *v)
{
	uint8_t b[4];
	int ret = cur_read(r, c, b, 4);

	if (!ret)
		*v = td_get32(b, r->be);
	return ret;
}

static int cur_u64(struct tracedat_reader *r, struct cur *c, uint64_t *v)
{
	uint8_t b[8];
	int ret = cur_read(r, c, b, 8);

	if (!ret)
		*v = td_get64(b, r->be);
	return ret;
}

/* The size of width bytes (4 or 8) that precedes an item at c. */
static int cur_size(struct tracedat_reader *r, struct cur *c, int width,
		    uint64_t *n)
{
	uint32_t n32;
	int ret;

	if (width != 4)
		return cur_u64(r, c, n);
	ret = cur_u32(r, c, &n32);
	if (!ret)
		*n = n32;
	return ret;
}

/* A NUL-terminated string of at most cap - 1 bytes. */
static int cur_string(struct tracedat_reader *r, struct cur *c, char *dst,
		      size_t cap)
{
	uint64_t start = cur_off(c);

	for (size_t i = 0; i < cap; i++) {
		int ret = cur_read(r, c, dst + i, 1);

		if (ret)
			return ret;
		if (!dst[i])
			return 0;
	}
	return fail(r, -TRACEDAT_E_BAD_STRING, start);
}

/* A string inside an option's data, NUL within len. */
static const char *data_string(const uint8_t *data, size_t len, size_t *pos)
{
	const uint8_t *nul;

	if (*pos >= len)
		return NULL;
	nul = memchr(data + *pos, 0, len - *pos);
	if (!nul)
		return NULL;
	data += *pos;
	*pos += (size_t)(nul - data) + 1;
	return (const char *)data;
}

/* ------------------------------------------------------------------ */
/* compressed blocks */

/*
 * Decompress the block "u32 compressed size, u32 raw size, data" found at
 * the start of [off, off + size) into *out (counted, raw size + 1 bytes
 * for a NUL).  errs_at is the offset reported for malformed blocks.
 */
static int load_block(struct tracedat_reader *r, uint64_t off, uint64_t size,
		      uint64_t errs_at, uint8_t **out, size_t *out_cap,
		      size_t *out_len)
{
	uint8_t h[8];
	uint32_t csize, rsize;
	size_t zcap = 0;
	uint8_t *z = NULL;
	int ret;

	if (size < 8)
		return fail(r, -TRACEDAT_E_BAD_SECTION, errs_at);
	ret = pread_all(r, h, 8, off);
	if (ret)
		return ret;
	csize = td_get32(h, r->be);
	rsize = td_get32(h + 4, r->be);
	if (csize > size - 8)
		return fail(r, -TRACEDAT_E_BAD_SECTION, errs_at);
	if (rsize > r->o.item_limit)
		return fail(r, -TRACEDAT_E_TOO_BIG, errs_at);
	if (csize > td_codec_bound(r->codec, rsize))
		return fail(r, -TRACEDAT_E_DECOMPRESS, errs_at);
	if ((ret = mem_grow(r, out, out_cap, (size_t)rsize + 1)) ||
	    (ret = mem_grow(r, &z, &zcap, csize ? csize : 1)))
		goto out;
	ret = pread_all(r, z, csize, off + 8);
	if (ret)
		goto out;
	ret = td_codec_decompress(&r->cctx, r->codec, *out, rsize, z, csize);
	if (ret) {
		ret = fail(r, ret, errs_at);
		goto out;
	}
	(*out)[rsize] = 0;
	*out_len = rsize;
out:
	mem_free(r, &z, &zcap);
	if (ret)
		ret = ret == -TRACEDAT_E_MEMLIMIT || ret == -TRACEDAT_E_NOMEM ?
		      fail(r, ret, errs_at) : ret;
	return ret;
}

/* ------------------------------------------------------------------ */
/* v7 sections */

struct sec_hdr {
	uint16_t id, flags;
	uint32_t desc;
	uint64_t size;
	uint64_t data;		/* file offset of the data */
};

static int read_sec_hdr(struct tracedat_reader *r, uint64_t off,
			struct sec_hdr *s)
{
	uint8_t h[16];
	int ret;

	if (off > r->fsize || r->fsize - off < 16)
		return fail(r, -TRACEDAT_E_BAD_OFFSET, off);
	ret = ra_read(r, h, 16, off);
	if (ret)
		return ret;
	s->id = td_get16(h, r->be);
	s->flags = td_get16(h + 2, r->be);
	s->desc = td_get32(h + 4, r->be);
	s->size = td_get64(h + 8, r->be);
	s->data = off + 16;
	if (s->size > r->fsize - s->data)
		return fail(r, -TRACEDAT_E_TRUNCATED, off);
	if (s->flags & ~TRACEDAT_SEC_FL_COMPRESS)
		return fail(r, -TRACEDAT_E_BAD_SECTION, off);
	if ((s->flags & TRACEDAT_SEC_FL_COMPRESS) && !strcmp(r->compression, "none"))
		return fail(r, -TRACEDAT_E_BAD_SECTION, off);
	return 0;
}

/*
 * Every section, from the file header to the end of the file, in turn, as
 * trace-cmd reads them for their strings: a cut inside one fails here.
 * trace-cmd closes every v7 file with a strings section, so a file
 * without one was cut at a section boundary.
 */
static int walk_sections(struct tracedat_reader *r, uint64_t off)
{
	bool strings = false;

	while (off < r->fsize) {
		struct sec_hdr s;
		int ret;

		if (r->fsize - off < 16)
			return fail(r, -TRACEDAT_E_TRUNCATED, off);
		ret = read_sec_hdr(r, off, &s);
		if (ret)
			return ret;
		strings |= s.id == TRACEDAT_SEC_STRINGS;
		off = s.data + s.size;
	}
	return strings ? 0 : fail(r, -TRACEDAT_E_TRUNCATED, off);
}

/* ------------------------------------------------------------------ */
/* options */

static int keep_text(struct tracedat_reader *r, char **dst, const uint8_t *data,
		     uint32_t len, uint64_t off)
{
	char *s;

	if (len > MAX_OPT_TEXT)
		return fail(r, -TRACEDAT_E_BAD_OPTION, off);
	s = malloc((size_t)len + 1);
	if (!s)
		return fail(r, -TRACEDAT_E_NOMEM, off);
	memcpy(s, data, len);
	s[len] = 0;
	free(*dst);
	*dst = s;
	return 0;
}

/* The name inside the "[name]" of a trace_clock text, or NULL. */
static char *selected_clock(const char *text)
{
	const char *a = strchr(text, '['), *b;

	if (!a || !(b = strchr(a, ']')) || b == a + 1 || b - a > 64)
		return NULL;
	return strndup(a + 1, (size_t)(b - a - 1));
}

static int new_buffer(struct tracedat_reader *r, uint64_t off,
		      struct rbuffer **out)
{
	if (r->nbuf >= MAX_BUFFERS)
		return fail(r, -TRACEDAT_E_BAD_BUFFER, off);
	if (fmt_grow_array((void **)&r->buf, &r->buf_cap, r->nbuf + 1,
			   sizeof(*r->buf), 4))
		return fail(r, -TRACEDAT_E_NOMEM, off);
	*out = &r->buf[r->nbuf++];
	memset(*out, 0, sizeof(**out));
	return 0;
}

/*
 * A new buffer from what begins a BUFFER option in both versions: the u64
 * offset of its data, its name and (version 7) its clock; *pos is after
 * them.
 */
static int buffer_option(struct tracedat_reader *r, const uint8_t *d,
			 uint32_t len, uint64_t off, size_t *pos,
			 struct rbuffer **out)
{
	bool v7 = r->info.version == 7;
	const char *name, *clock = "";
	struct rbuffer *b;
	int ret;

	*pos = 8;
	if (len < 8 || !(name = data_string(d, len, pos)) ||
	    (v7 && !(clock = data_string(d, len, pos))) ||
	    strlen(name) >= MAX_STRING || strlen(clock) >= MAX_STRING)
		return fail(r, -TRACEDAT_E_BAD_BUFFER, off);
	ret = new_buffer(r, off, &b);
	if (ret)
		return ret;
	b->pub.offset = td_get64(d, r->be);
	b->name = strdup(name);
	if (v7)
		b->clock = strdup(clock);
	if (!b->name || (v7 && !b->clock))
		return fail(r, -TRACEDAT_E_NOMEM, off);
	*out = b;
	return 0;
}

/* v7 BUFFER and BUFFER_TEXT options. */
static int parse_buffer_v7(struct tracedat_reader *r, uint16_t id,
			   const uint8_t *d, uint32_t len, uint64_t off)
{
	struct rbuffer *b;
	struct sec_hdr s;
	size_t pos;
	uint32_t n;
	uint8_t seen[TRACEDAT_MAX_CPUS / 8] = { 0 };
	int ret = buffer_option(r, d, len, off, &pos, &b);

	if (ret)
		return ret;
	ret = read_sec_hdr(r, b->pub.offset, &s);
	if (ret)
		return ret == -TRACEDAT_E_TRUNCATED ? ret :
		       fail(r, -TRACEDAT_E_BAD_OFFSET, off);
	if (s.id != id)
		return fail(r, -TRACEDAT_E_BAD_BUFFER, b->pub.offset);
	b->pub.compressed = s.flags & TRACEDAT_SEC_FL_COMPRESS;
	if (id == TRACEDAT_OPT_BUFFER_TEXT) {
		b->pub.latency = true;
		b->pub.page_size = r->info.page_size;
		return 0;
	}
	if (len - pos < 8)
		return fail(r, -TRACEDAT_E_BAD_BUFFER, off);
	b->pub.page_size = td_get32(d + pos, r->be);
	n = td_get32(d + pos + 4, r->be);
	pos += 8;
	if (b->pub.page_size < TRACEDAT_MIN_PAGE ||
	    b->pub.page_size > TRACEDAT_MAX_PAGE || n > TRACEDAT_MAX_CPUS ||
	    (len - pos) / 20 < n)
		return fail(r, -TRACEDAT_E_BAD_BUFFER, off);
	b->cpus = calloc(n ? n : 1, sizeof(*b->cpus));
	if (!b->cpus)
		return fail(r, -TRACEDAT_E_NOMEM, off);
	for (uint32_t i = 0; i < n; i++, pos += 20) {
		struct tracedat_cpu *c = &b->cpus[i];
		uint64_t need;

		c->cpu = td_get32(d + pos, r->be);
		c->offset = td_get64(d + pos + 4, r->be);
		c->size = td_get64(d + pos + 12, r->be);
		need = c->size + (b->pub.compressed && c->size ? 4 : 0);
		if (c->cpu >= TRACEDAT_MAX_CPUS || (seen[c->cpu / 8] & (1 << c->cpu % 8)))
			return fail(r, -TRACEDAT_E_BAD_BUFFER, off);
		seen[c->cpu / 8] |= 1 << c->cpu % 8;
		if (need < c->size || c->offset > r->fsize ||
		    need > r->fsize - c->offset)
			return fail(r, -TRACEDAT_E_BAD_OFFSET, off);
	}
	b->pub.ncpus = n;
	return 0;
}

static int parse_option(struct tracedat_reader *r, uint16_t id,
			const uint8_t *d, uint32_t len, uint64_t off)
{
	char num[64];
	int ret = 0;

	r->info.options++;
	if (id != TRACEDAT_OPT_CPUCOUNT)
		r->pending_v6_buffer = -1;
	switch (id) {
	case TRACEDAT_OPT_DATE:
	case TRACEDAT_OPT_OFFSET: {
		long long v;
		size_t n = len < sizeof(num) - 1 ? len : sizeof(num) - 1;

		memcpy(num, d, n);
		num[n] = 0;
		errno = 0;
		v = strtoll(num, NULL, 0);
		if (errno)
			return fail(r, -TRACEDAT_E_BAD_OPTION, off);
		if (id == TRACEDAT_OPT_DATE) {
			r->info.has_date = true;
			v *= 1000;
		}
		r->info.ts_offset += v;
		break;
	}
	case TRACEDAT_OPT_CPUSTAT: {
		char *ns;

		if (len > MAX_OPT_TEXT || r->cpustats_len + len + 2 > MAX_CPUSTATS)
			return fail(r, -TRACEDAT_E_BAD_OPTION, off);
		ns = realloc(r->cpustats, r->cpustats_len + len + 2);
		if (!ns)
			return fail(r, -TRACEDAT_E_NOMEM, off);
		r->cpustats = ns;
		/* as libtracecmd: the NUL becomes the separating newline */
		if (len && !d[len - 1])
			len--;
		memcpy(ns + r->cpustats_len, d, len);
		r->cpustats_len += len;
		if (!r->cpustats_len || ns[r->cpustats_len - 1] != '\n')
			ns[r->cpustats_len++] = '\n';
		ns[r->cpustats_len] = 0;
		break;
	}
	case TRACEDAT_OPT_BUFFER:
	case TRACEDAT_OPT_BUFFER_TEXT:
		if (r->info.version == 7)
			return parse_buffer_v7(r, id, d, len, off);
		if (id == TRACEDAT_OPT_BUFFER) {
			struct rbuffer *b;
			size_t pos;

			ret = buffer_option(r, d, len, off, &pos, &b);
			if (ret)
				return ret;
			b->v6_ncpus = r->info.ncpus;
			r->pending_v6_buffer = (int)(r->nbuf - 1);
		}
		break;
	case TRACEDAT_OPT_TRACECLOCK:
		ret = keep_text(r, &r->trace_clock, d, len, off);
		r->v6_clock_follows = true;
		break;
	case TRACEDAT_OPT_UNAME:
		ret = keep_text(r, &r->uname, d, len, off);
		break;
	case TRACEDAT_OPT_VERSION:
		ret = keep_text(r, &r->writer_version, d, len, off);
		break;
	case TRACEDAT_OPT_CPUCOUNT:
		if (len < 4 || td_get32(d, r->be) > TRACEDAT_MAX_CPUS)
			return fail(r, -TRACEDAT_E_BAD_OPTION, off);
		if (r->info.version == 7)
			r->info.ncpus = td_get32(d, r->be);
		else if (r->pending_v6_buffer >= 0)
			r->buf[r->pending_v6_buffer].v6_ncpus = td_get32(d, r->be);
		r->pending_v6_buffer = -1;
		break;
	case TRACEDAT_OPT_TRACEID:
		if (len >= 8)
			r->info.trace_id = td_get64(d, r->be);
		break;
	case TRACEDAT_OPT_TSC2NSEC:
		if (len >= 16) {
			r->info.has_tsc2nsec = true;
			r->info.tsc_mult = td_get32(d, r->be);
			r->info.tsc_shift = td_get32(d + 4, r->be);
			r->info.tsc_offset = td_get64(d + 8, r->be);
		}
		break;
	TRACEDAT_META_SEC_CASES: {
		struct sec_hdr s;
		uint64_t at;

		if (r->info.version != 7 || len < 8)
			return fail(r, -TRACEDAT_E_BAD_OPTION, off);
		at = td_get64(d, r->be);
		ret = read_sec_hdr(r, at, &s);
		if (ret)
			return ret == -TRACEDAT_E_TRUNCATED ? ret :
			       fail(r, -TRACEDAT_E_BAD_OFFSET, off);
		if (s.id != id)
			return fail(r, -TRACEDAT_E_BAD_SECTION, at);
		r->sec_off[id] = at;
		break;
	}
	default:
		r->info.unknown_options++;
		break;
	}
	return ret;
}

/* Is the option's data needed (read) or skipped (seeked over)? */
static bool option_wanted(uint16_t id)
{
	switch (id) {
	case TRACEDAT_OPT_DATE:
	case TRACEDAT_OPT_OFFSET:
	case TRACEDAT_OPT_CPUSTAT:
	case TRACEDAT_OPT_BUFFER:
	case TRACEDAT_OPT_BUFFER_TEXT:
	case TRACEDAT_OPT_TRACECLOCK:
	case TRACEDAT_OPT_UNAME:
	case TRACEDAT_OPT_VERSION:
	case TRACEDAT_OPT_CPUCOUNT:
	case TRACEDAT_OPT_TRACEID:
	case TRACEDAT_OPT_TSC2NSEC:
	TRACEDAT_META_SEC_CASES:
		return true;
	}
	return false;
}

/*
 * Read an options list from c.  v6: ends at an option id 0 (no size).
 * v7: ends at the DONE option, whose u64 is stored in *next.
 */
static int parse_options(struct tracedat_reader *r, struct cur *c,
			 uint64_t *next, uint64_t *next_at)
{
	uint8_t *data = NULL;
	size_t cap = 0;
	int ret;

	r->pending_v6_buffer = -1;
	for (;;) {
		uint64_t at = cur_off(c);
		uint16_t id;
		uint32_t len;

		if ((ret = cur_u16(r, c, &id)))
			break;
		if (r->info.version == 6 && id == TRACEDAT_OPT_DONE)
			break;
		if ((ret = cur_u32(r, c, &len)))
			break;
		if (len > cur_left(c)) {
			ret = fail(r, -TRACEDAT_E_BAD_OPTION, at);
			break;
		}
		if (id == TRACEDAT_OPT_DONE) {
			uint8_t b[8];

			if (len < 8) {
				ret = fail(r, -TRACEDAT_E_BAD_OPTION, at);
				break;
			}
			*next_at = cur_off(c);
			ret = cur_read(r, c, b, 8);
			if (!ret)
				*next = td_get64(b, r->be);
			break;
		}
		if (!option_wanted(id)) {
			r->info.options++;
			r->info.unknown_options += id > TRACEDAT_OPT_BUFFER_TEXT;
			r->pending_v6_buffer = -1;
			if ((ret = cur_skip(r, c, len)))
				break;
			continue;
		}
		if (len > MAX_OPTION) {
			ret = fail(r, -TRACEDAT_E_BAD_OPTION, at);
			break;
		}
		if ((ret = mem_grow(r, &data, &cap, len ? len : 1))) {
			ret = fail(r, ret, at);
			break;
		}
		if ((ret = cur_read(r, c, data, len)) ||
		    (ret = parse_option(r, id, data, len, at)))
			break;
	}
	mem_free(r, &data, &cap);
	return ret;
}

/*
 * The chain of v7 options sections, from the one at off (whose offset is
 * stored at ref: the file header, then each DONE option).
 */
static int read_options_v7(struct tracedat_reader *r, uint64_t off, uint64_t ref)
{
	uint64_t prev = 0;
	int ret = 0;

	while (off) {
		struct sec_hdr s;
		struct cur c;
		uint8_t *mem = NULL;
		size_t cap = 0, len = 0;
		uint64_t next = 0;

		/* each section further on: the chain cannot loop */
		if (off <= prev)
			return fail(r, -TRACEDAT_E_BAD_OPTION, ref);
		ret = read_sec_hdr(r, off, &s);
		if (ret == -TRACEDAT_E_BAD_OFFSET)
			return fail(r, ret, ref);
		if (ret)
			return ret;
		if (s.id != TRACEDAT_OPT_DONE)
			return fail(r, -TRACEDAT_E_BAD_SECTION, off);
		if (s.flags & TRACEDAT_SEC_FL_COMPRESS) {
			ret = load_block(r, s.data, s.size, off, &mem, &cap, &len);
			if (ret)
				return ret;
			cur_mem(&c, mem, len, off, -TRACEDAT_E_BAD_OPTION);
		} else {
			cur_file(&c, s.data, s.data + s.size, -TRACEDAT_E_BAD_OPTION);
		}
		ret = parse_options(r, &c, &next, &ref);
		mem_free(r, &mem, &cap);
		if (ret)
			return ret;
		if (s.flags & TRACEDAT_SEC_FL_COMPRESS)
			ref = off;	/* the DONE option is inside the block */
		prev = off;
		off = next;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* version 6 */

/* Skip "u32|u64 size, data" at c. */
static int skip_sized(struct tracedat_reader *r, struct cur *c, int width)
{
	uint64_t at = cur_off(c), n;
	int ret = cur_size(r, c, width, &n);

	if (ret)
		return ret;
	if (n > cur_left(c))
		return fail(r, -TRACEDAT_E_TRUNCATED, at);
	return cur_skip(r, c, n);
}

static int expect(struct tracedat_reader *r, struct cur *c, const char *tag,
		  size_t len, int err)
{
	char b[16];
	uint64_t at = cur_off(c);
	int ret = cur_read(r, c, b, len);

	if (ret)
		return ret;
	if (memcmp(b, tag, len))
		return fail(r, err, at);
	return 0;
}

/* "flyrecord\0" done: the (offset, size) table of ncpus CPUs. */
static int read_flyrecord_v6(struct tracedat_reader *r, struct cur *c,
			     struct rbuffer *b, uint32_t ncpus)
{
	b->cpus = calloc(ncpus ? ncpus : 1, sizeof(*b->cpus));
	if (!b->cpus)
		return fail(r, -TRACEDAT_E_NOMEM, cur_off(c));
	for (uint32_t i = 0; i < ncpus; i++) {
		struct tracedat_cpu *cpu = &b->cpus[i];
		uint64_t at = cur_off(c);
		int ret;

		if ((ret = cur_u64(r, c, &cpu->offset)) ||
		    (ret = cur_u64(r, c, &cpu->size)))
			return ret;
		cpu->cpu = i;
		if (cpu->size && (cpu->offset > r->fsize ||
				  cpu->size > r->fsize - cpu->offset))
			return fail(r, -TRACEDAT_E_BAD_OFFSET, at);
	}
	b->pub.ncpus = ncpus;
	b->pub.page_size = r->info.page_size;
	return 0;
}

static int read_v6(struct tracedat_reader *r, uint64_t off)
{
	struct cur c;
	uint32_t n, ncpus;
	int ret;

	cur_file(&c, off, r->fsize, -TRACEDAT_E_TRUNCATED);
	r->v6_meta = off;
	if ((ret = expect(r, &c, "header_page", 12, -TRACEDAT_E_BAD_METADATA)) ||
	    (ret = skip_sized(r, &c, 8)) ||
	    (ret = expect(r, &c, "header_event", 13, -TRACEDAT_E_BAD_METADATA)) ||
	    (ret = skip_sized(r, &c, 8)) || (ret = cur_u32(r, &c, &n)))
		return ret;
	for (uint32_t i = 0; i < n; i++)
		if ((ret = skip_sized(r, &c, 8)))
			return ret;
	if ((ret = cur_u32(r, &c, &n)))
		return ret;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t nev;

		if ((ret = cur_string(r, &c, r->system, sizeof(r->system))) ||
		    (ret = cur_u32(r, &c, &nev)))
			return ret;
		for (uint32_t j = 0; j < nev; j++)
			if ((ret = skip_sized(r, &c, 8)))
				return ret;
	}
	if ((ret = skip_sized(r, &c, 4)) || (ret = skip_sized(r, &c, 4)) ||
	    (ret = skip_sized(r, &c, 8)))
		return ret;
	if ((ret = cur_u32(r, &c, &ncpus)))
		return ret;
	if (ncpus > TRACEDAT_MAX_CPUS)
		return fail(r, -TRACEDAT_E_BAD_METADATA, cur_off(&c) - 4);
	r->info.ncpus = ncpus;

	for (;;) {
		char tag[10];
		uint64_t at = cur_off(&c);

		if ((ret = cur_read(r, &c, tag, 10)))
			return ret;
		if (!memcmp(tag, "options  ", 10)) {
			uint64_t unused, unused_at;

			ret = parse_options(r, &c, &unused, &unused_at);
			if (ret)
				return ret;
			continue;
		}
		if (!memcmp(tag, "latency  ", 10) || !memcmp(tag, "flyrecord", 10)) {
			struct rbuffer *b;
			int top;

			/* the top buffer goes first */
			if ((ret = new_buffer(r, at, &b)))
				return ret;
			top = (int)r->nbuf - 1;
			memmove(&r->buf[1], &r->buf[0], top * sizeof(*r->buf));
			b = &r->buf[0];
			memset(b, 0, sizeof(*b));
			b->name = strdup("");
			if (!b->name)
				return fail(r, -TRACEDAT_E_NOMEM, at);
			b->pub.offset = at;
			if (tag[0] == 'l') {
				b->pub.latency = true;
				b->pub.page_size = r->info.page_size;
				return 0;
			}
			ret = read_flyrecord_v6(r, &c, b, ncpus);
			if (ret)
				return ret;
			if (r->v6_clock_follows) {
				uint64_t clen;
				char text[MAX_STRING];

				at = cur_off(&c);
				if ((ret = cur_u64(r, &c, &clen)))
					return ret;
				if (clen >= sizeof(text))
					return fail(r, -TRACEDAT_E_BAD_BUFFER, at);
				if ((ret = cur_read(r, &c, text, (size_t)clen)))
					return ret;
				text[clen] = 0;
				free(r->clock);
				r->clock = selected_clock(text);
			}
			return 0;
		}
		return fail(r, -TRACEDAT_E_BAD_BUFFER, at);
	}
}

/* The flyrecord tables of the v6 instances (BUFFER options). */
static int read_instances_v6(struct tracedat_reader *r)
{
	for (uint32_t i = 1; i < r->nbuf; i++) {
		struct rbuffer *b = &r->buf[i];
		struct cur c;
		int ret;

		if (b->pub.offset > r->fsize)
			return fail(r, -TRACEDAT_E_BAD_OFFSET, b->pub.offset);
		cur_file(&c, b->pub.offset, r->fsize, -TRACEDAT_E_TRUNCATED);
		ret = expect(r, &c, "flyrecord", 10, -TRACEDAT_E_BAD_BUFFER);
		if (!ret)
			ret = read_flyrecord_v6(r, &c, b, b->v6_ncpus);
		if (ret)
			return ret;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* the page header layout, from header_page */

/* The value of "key:N;" in one line of a format text, or -1. */
static long field_attr(const char *line, const char *end, const char *key)
{
	size_t kl = strlen(key);

	for (const char *p = line; p + kl < end; p++)
		if (!memcmp(p, key, kl)) {
			long v = 0;

			p += kl;
			if (p >= end || *p < '0' || *p > '9')
				return -1;
			while (p < end && *p >= '0' && *p <= '9' && v < 1000000)
				v = v * 10 + (*p++ - '0');
			return v;
		}
	return -1;
}

/* The commit field's size in the header_page text, or 0. */
static uint32_t commit_size_of(const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		for (const char *q = p; q + 8 <= le; q++)
			if (!memcmp(q, " commit;", 8)) {
				long size = field_attr(q, le, "size:");

				return size == 4 || size == 8 ? (uint32_t)size : 0;
			}
		p = le + 1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* metadata items */

static void restore_clobbered(struct tracedat_reader *r)
{
	if (r->clobbered) {
		*r->clobbered = r->clobbered_val;
		r->clobbered = NULL;
	}
}

/* Open the metadata section with id for the cursor; 0 when absent. */
static int open_section(struct tracedat_reader *r, uint16_t id, bool *present)
{
	struct sec_hdr s;
	uint64_t off = r->sec_off[id];
	size_t len = 0;
	int ret;

	*present = false;
	mem_free(r, &r->sec, &r->sec_size);
	if (!off)
		return 0;
	ret = read_sec_hdr(r, off, &s);
	if (ret)
		return ret;
	if (s.flags & TRACEDAT_SEC_FL_COMPRESS) {
		ret = load_block(r, s.data, s.size, off, &r->sec, &r->sec_size, &len);
		if (ret)
			return ret;
		cur_mem(&r->mc, r->sec, len, off, -TRACEDAT_E_BAD_METADATA);
	} else {
		cur_file(&r->mc, s.data, s.data + s.size, -TRACEDAT_E_BAD_METADATA);
	}
	*present = true;
	return 0;
}

/* Take an item of n bytes at the cursor into m: 1, or an error. */
static int take_item(struct tracedat_reader *r, struct tracedat_meta *m,
		     uint64_t n, uint64_t at)
{
	struct cur *c = &r->mc;
	int ret;

	if (n > r->o.item_limit)
		return fail(r, -TRACEDAT_E_TOO_BIG, at);
	if (n > cur_left(c))
		return fail(r, c->overrun, at);
	m->len = (size_t)n;
	m->offset = c->mem ? c->base : c->pos;
	if (c->mem) {
		/* the byte after the item becomes its NUL until the next call */
		uint8_t *p = (uint8_t *)c->mem + c->pos;

		r->clobbered = p + n;
		r->clobbered_val = p[n];
		p[n] = 0;
		m->data = (const char *)p;
		c->pos += n;
		return 1;
	}
	ret = mem_grow(r, &r->item, &r->item_cap, (size_t)n + 1);
	if (ret)
		return fail(r, ret, at);
	ret = cur_read(r, c, r->item, (size_t)n);
	if (ret)
		return ret;
	r->item[n] = 0;
	m->data = (const char *)r->item;
	return 1;
}

/* Take an item preceded by its size (width 4 or 8 bytes): 1, or an error. */
static int take_sized(struct tracedat_reader *r, struct tracedat_meta *m,
		      enum tracedat_meta_kind kind, int width)
{
	uint64_t at = cur_off(&r->mc), n;
	int ret = cur_size(r, &r->mc, width, &n);

	if (ret)
		return ret;
	m->kind = kind;
	m->system = kind == TRACEDAT_META_FTRACE_FORMAT ? "ftrace" :
		    kind == TRACEDAT_META_EVENT_FORMAT ? r->system : NULL;
	return take_item(r, m, n, at);
}

/*
 * Count one more entry of a list of n (*i taken so far); false when the
 * list is done, and the iteration goes on at phase then.
 */
static bool list_next(struct tracedat_reader *r, uint32_t *i, uint32_t n,
		      enum meta_phase then)
{
	if (*i == n) {
		r->phase = then;
		return false;
	}
	(*i)++;
	return true;
}

/* The groups of metadata items, in file order: a v7 section each. */
static const struct {
	uint16_t sec;
	enum meta_phase phase;		/* the group's first phase */
	enum tracedat_meta_kind kind;	/* but the headers': the items' kind */
	int width;			/* and their size's width */
} groups[] = {
	{ TRACEDAT_SEC_HEADER_INFO, M_HEADER_PAGE, 0, 0 },
	{ TRACEDAT_SEC_FTRACE_EVENTS, M_FTRACE_COUNT, TRACEDAT_META_FTRACE_FORMAT, 8 },
	{ TRACEDAT_SEC_EVENT_FORMATS, M_EVENTS_COUNT, TRACEDAT_META_EVENT_FORMAT, 8 },
	{ TRACEDAT_SEC_KALLSYMS, M_SINGLE, TRACEDAT_META_KALLSYMS, 4 },
	{ TRACEDAT_SEC_PRINTK, M_SINGLE, TRACEDAT_META_PRINTK, 4 },
	{ TRACEDAT_SEC_CMDLINES, M_SINGLE, TRACEDAT_META_CMDLINES, 8 },
};
#define NGROUPS ((int)(sizeof(groups) / sizeof(groups[0])))

/*
 * Enter the next group: v6 items all follow each other in the file; a v7
 * group is its section, skipped when the file has none (the headers are
 * required) and, for kallsyms the caller does not want, never read.
 */
static int next_group(struct tracedat_reader *r)
{
	bool skip = r->o.flags & TRACEDAT_R_SKIP_KALLSYMS;

	while (++r->group < NGROUPS) {
		uint16_t id = groups[r->group].sec;
		bool present = true;
		int ret;

		r->phase = groups[r->group].phase;
		if (r->info.version == 6)
			return 0;
		if (skip && id == TRACEDAT_SEC_KALLSYMS)
			continue;
		ret = open_section(r, id, &present);
		if (ret)
			return ret;
		if (present)
			return 0;
		if (id == TRACEDAT_SEC_HEADER_INFO)
			return fail(r, -TRACEDAT_E_NO_SECTION, 0);
	}
	r->phase = M_DONE;
	return 0;
}

/* One step: 1 with an item, 0 at the end, or an error. */
static int meta_step(struct tracedat_reader *r, struct tracedat_meta *m)
{
	int ret;

	for (;;) {
		switch (r->phase) {
		case M_START:
			if (r->info.version == 6)
				cur_file(&r->mc, r->v6_meta, r->fsize,
					 -TRACEDAT_E_TRUNCATED);
			r->group = -1;
			r->phase = M_NEXT_GROUP;
			break;
		case M_NEXT_GROUP:
			ret = next_group(r);
			if (ret)
				return ret;
			break;
		case M_HEADER_PAGE:
		case M_HEADER_EVENT: {
			bool hp = r->phase == M_HEADER_PAGE;

			r->phase = hp ? M_HEADER_EVENT : M_NEXT_GROUP;
			ret = expect(r, &r->mc, hp ? "header_page" : "header_event",
				     hp ? 12 : 13, -TRACEDAT_E_BAD_METADATA);
			if (ret)
				return ret;
			return take_sized(r, m, hp ? TRACEDAT_META_HEADER_PAGE :
					  TRACEDAT_META_HEADER_EVENT, 8);
		}
		case M_FTRACE_COUNT:
		case M_EVENTS_COUNT:
			ret = cur_u32(r, &r->mc, &r->count);
			if (ret)
				return ret;
			r->index = 0;
			r->phase = r->phase == M_FTRACE_COUNT ? M_FTRACE : M_SYSTEM;
			break;
		case M_FTRACE:
		case M_EVENT: {
			/* the next format of ftrace's list, or of a system's */
			bool ev = r->phase == M_EVENT;

			if (!list_next(r, ev ? &r->iev : &r->index,
				       ev ? r->nev : r->count,
				       ev ? M_SYSTEM : M_NEXT_GROUP))
				break;
			return take_sized(r, m, groups[r->group].kind,
					  groups[r->group].width);
		}
		case M_SYSTEM:
			if (!list_next(r, &r->index, r->count, M_NEXT_GROUP))
				break;
			ret = cur_string(r, &r->mc, r->system, sizeof(r->system));
			if (!ret)
				ret = cur_u32(r, &r->mc, &r->nev);
			if (ret)
				return ret;
			r->iev = 0;
			r->phase = M_EVENT;
			break;
		case M_SINGLE:
			r->phase = M_NEXT_GROUP;
			if (groups[r->group].kind == TRACEDAT_META_KALLSYMS &&
			    (r->o.flags & TRACEDAT_R_SKIP_KALLSYMS)) {
				ret = skip_sized(r, &r->mc, 4);
				if (ret)
					return ret;
				break;
			}
			return take_sized(r, m, groups[r->group].kind,
					  groups[r->group].width);
		case M_DONE:
			return 0;
		}
	}
}

int tracedat_reader_meta_next(struct tracedat_reader *r, struct tracedat_meta *m)
{
	int ret;

	restore_clobbered(r);
	memset(m, 0, sizeof(*m));
	ret = meta_step(r, m);
	if (ret <= 0) {
		/* the end, or an error: free everything, start over next time */
		mem_free(r, &r->sec, &r->sec_size);
		mem_free(r, &r->item, &r->item_cap);
		r->phase = M_START;
	}
	return ret;
}

/* ------------------------------------------------------------------ */
/* open and close */

static int read_header(struct tracedat_reader *r, uint64_t *end)
{
	struct cur c;
	char s[MAX_STRING];
	uint8_t b[6];
	int ret;

	cur_file(&c, 0, r->fsize, -TRACEDAT_E_TRUNCATED);
	if (r->fsize < TRACEDAT_MAGIC_LEN)
		return fail(r, -TRACEDAT_E_BAD_MAGIC, 0);
	if ((ret = expect(r, &c, TRACEDAT_MAGIC, TRACEDAT_MAGIC_LEN,
			  -TRACEDAT_E_BAD_MAGIC)))
		return ret;
	ret = cur_string(r, &c, s, 16);
	if (ret)
		return ret == -TRACEDAT_E_BAD_STRING ?
		       fail(r, -TRACEDAT_E_BAD_VERSION, TRACEDAT_MAGIC_LEN) : ret;
	if (strcmp(s, "6") && strcmp(s, "7"))
		return fail(r, -TRACEDAT_E_BAD_VERSION, TRACEDAT_MAGIC_LEN);
	r->info.version = s[0] - '0';
	if ((ret = cur_read(r, &c, b, 6)))
		return ret;
	if (b[0] > 1 || (b[1] != 4 && b[1] != 8))
		return fail(r, -TRACEDAT_E_BAD_HEADER, cur_off(&c) - 6);
	r->be = b[0] == 1;
	r->info.big_endian = r->be;
	r->info.long_size = b[1];
	r->info.page_size = td_get32(b + 2, r->be);
	if (r->info.page_size < TRACEDAT_MIN_PAGE ||
	    r->info.page_size > TRACEDAT_MAX_PAGE)
		return fail(r, -TRACEDAT_E_BAD_HEADER, cur_off(&c) - 4);
	if (r->info.version == 7) {
		uint64_t at = cur_off(&c);
		uint64_t opt;

		if ((ret = cur_string(r, &c, s, 64)))
			return ret;
		r->compression = strdup(s);
		if ((ret = cur_string(r, &c, s, 64)))
			return ret;
		r->compression_version = strdup(s);
		if (!r->compression || !r->compression_version)
			return fail(r, -TRACEDAT_E_NOMEM, at);
		ret = td_codec_by_name(r->compression);
		if (ret < 0)
			return fail(r, ret, at);
		r->codec = (enum tracedat_codec)ret;
		if ((ret = cur_u64(r, &c, &opt)))
			return ret;
		*end = cur_off(&c);
		if (!opt)
			return fail(r, -TRACEDAT_E_NO_SECTION, *end - 8);
		r->sec_off[0] = opt;	/* the first options section */
		return 0;
	}
	r->compression = strdup("none");
	r->compression_version = strdup("");
	if (!r->compression || !r->compression_version)
		return fail(r, -TRACEDAT_E_NOMEM, 0);
	*end = cur_off(&c);
	return 0;
}

/* header_page's commit field gives the kernel's long and the page header. */
static int read_page_layout(struct tracedat_reader *r)
{
	struct tracedat_meta m;
	int ret;

	r->phase = M_START;
	ret = tracedat_reader_meta_next(r, &m);
	if (ret > 0 && m.kind == TRACEDAT_META_HEADER_PAGE)
		r->commit_size = commit_size_of(m.data, m.len);
	restore_clobbered(r);
	mem_free(r, &r->sec, &r->sec_size);
	mem_free(r, &r->item, &r->item_cap);
	r->phase = M_START;
	if (ret < 0)
		return ret;
	if (!r->commit_size)
		r->commit_size = r->info.long_size;
	r->info.kernel_long_size = (uint8_t)r->commit_size;
	r->info.page_header_size = 8 + r->commit_size;
	if (r->info.page_header_size >= r->info.page_size)
		return fail(r, -TRACEDAT_E_BAD_HEADER, 0);
	for (uint32_t i = 0; i < r->nbuf; i++)
		if (!r->buf[i].pub.latency &&
		    r->buf[i].pub.page_size <= r->info.page_header_size)
			return fail(r, -TRACEDAT_E_BAD_BUFFER, r->buf[i].pub.offset);
	return 0;
}

static void fill_info(struct tracedat_reader *r)
{
	struct tracedat_info *i = &r->info;
	int top = tracedat_reader_top_buffer(r);

	/* the top buffer first */
	if (top > 0) {
		struct rbuffer t = r->buf[top];

		memmove(&r->buf[1], &r->buf[0], (size_t)top * sizeof(*r->buf));
		r->buf[0] = t;
	}
	for (uint32_t k = 0; k < r->nbuf; k++) {
		struct rbuffer *b = &r->buf[k];

		b->pub.name = b->name;
		b->pub.cpus = b->cpus;
		b->pub.clock = b->clock ? b->clock : r->clock ? r->clock : "";
	}
	if (r->info.version == 7 && !r->clock) {
		if (r->trace_clock)
			r->clock = selected_clock(r->trace_clock);
		if (!r->clock && r->nbuf && !*r->buf[0].name && r->buf[0].clock)
			r->clock = strdup(r->buf[0].clock);
	} else if (!r->clock && r->trace_clock) {
		r->clock = selected_clock(r->trace_clock);
	}
	if (r->info.version == 6)
		for (uint32_t k = 0; k < r->nbuf; k++)
			r->buf[k].pub.clock = r->clock ? r->clock : "";
	i->compression = r->compression;
	i->compression_version = r->compression_version;
	i->file_size = r->fsize;
	i->clock = r->clock ? r->clock : "";
	i->trace_clock = r->trace_clock;
	i->uname = r->uname;
	i->writer_version = r->writer_version;
	i->cpustats = r->cpustats ? r->cpustats : "";
	i->nbuffers = r->nbuf;
}

static int open_file(struct tracedat_reader *r)
{
	struct stat st;
	uint64_t end = 0;
	int ret;

	if (fstat(r->fd, &st) < 0)
		return fail(r, -TRACEDAT_E_IO, 0);
	if (!S_ISREG(st.st_mode))
		return fail(r, -TRACEDAT_E_NOT_SEEKABLE, 0);
	r->fsize = (uint64_t)st.st_size;
	ret = mem_grow(r, &r->rbuf, &r->rbuf_cap, RBUF_SIZE);
	if (ret)
		return fail(r, ret, 0);
	if ((ret = read_header(r, &end)))
		return ret;
	if (r->info.version == 7) {
		if ((ret = walk_sections(r, end)) ||
		    (ret = read_options_v7(r, r->sec_off[0], end - 8)))
			return ret;
		if (!r->sec_off[TRACEDAT_SEC_HEADER_INFO])
			return fail(r, -TRACEDAT_E_NO_SECTION, r->sec_off[0]);
	} else {
		if ((ret = read_v6(r, end)) || (ret = read_instances_v6(r)))
			return ret;
	}
	fill_info(r);
	return read_page_layout(r);
}

static struct tracedat_reader *open_common(int fd, bool own,
					   const struct tracedat_read_opts *opts,
					   int *err, uint64_t *err_offset)
{
	struct tracedat_reader *r = calloc(1, sizeof(*r));
	int ret;

	if (err_offset)
		*err_offset = 0;
	if (!r) {
		if (own)
			close(fd);
		*err = -TRACEDAT_E_NOMEM;
		return NULL;
	}
	r->fd = fd;
	r->own_fd = own;
	r->pending_v6_buffer = -1;
	if (opts)
		r->o = *opts;
	if (!r->o.mem_limit)
		r->o.mem_limit = 48u << 20;
	if (!r->o.item_limit)
		r->o.item_limit = 32u << 20;
	ret = open_file(r);
	if (ret) {
		*err = ret;
		if (err_offset)
			*err_offset = r->err_off;
		tracedat_reader_close(r);
		return NULL;
	}
	*err = 0;
	return r;
}

struct tracedat_reader *tracedat_reader_open(const char *path,
					     const struct tracedat_read_opts *opts,
					     int *err, uint64_t *err_offset)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		if (err_offset)
			*err_offset = 0;
		*err = -TRACEDAT_E_IO;
		return NULL;
	}
	return open_common(fd, true, opts, err, err_offset);
}

struct tracedat_reader *tracedat_reader_open_fd(int fd,
						const struct tracedat_read_opts *opts,
						int *err, uint64_t *err_offset)
{
	return open_common(fd, false, opts, err, err_offset);
}

const struct tracedat_info *tracedat_reader_info(const struct tracedat_reader *r)
{
	return &r->info;
}

const struct tracedat_buffer *tracedat_reader_buffer(const struct tracedat_reader *r,
						     uint32_t i)
{
	return i < r->nbuf ? &r->buf[i].pub : NULL;
}

int tracedat_reader_top_buffer(const struct tracedat_reader *r)
{
	for (uint32_t i = 0; i < r->nbuf; i++)
		if (r->buf[i].name && !*r->buf[i].name)
			return (int)i;
	return -1;
}

uint64_t tracedat_reader_error_offset(const struct tracedat_reader *r)
{
	return r->err_off;
}

size_t tracedat_reader_mem(const struct tracedat_reader *r, size_t *peak)
{
	if (peak)
		*peak = r->mem_peak;
	return r->mem;
}

void tracedat_reader_close(struct tracedat_reader *r)
{
	if (!r)
		return;
	while (r->streams)
		tracedat_stream_close(r->streams);
	for (uint32_t i = 0; i < r->nbuf; i++) {
		free(r->buf[i].name);
		free(r->buf[i].clock);
		free(r->buf[i].cpus);
	}
	free(r->buf);
	free(r->compression);
	free(r->compression_version);
	free(r->trace_clock);
	free(r->uname);
	free(r->writer_version);
	free(r->clock);
	free(r->cpustats);
	free(r->rbuf);
	free(r->sec);
	free(r->item);
	free(r->zin);
	td_codec_release(&r->cctx);
	if (r->own_fd)
		close(r->fd);
	free(r);
}

/* ------------------------------------------------------------------ */
/* pages */

int tracedat_page_parse(const struct tracedat_reader *r, const uint8_t *page,
			uint32_t len, struct tracedat_page *pg)
{
	uint32_t hs = r->info.page_header_size, cs = r->commit_size;
	uint64_t commit;
	uint32_t size;

	if (len < hs)
		return -TRACEDAT_E_BAD_PAGE;
	pg->ts = td_get64(page, r->be);
	commit = cs == 8 ? td_get64(page + 8, r->be) : td_get32(page + 8, r->be);
	size = (uint32_t)commit & TRACEDAT_COMMIT_MASK;
	if (size > len - hs)
		return -TRACEDAT_E_BAD_PAGE;
	pg->commit = size;
	pg->lost = 0;
	if (commit & TRACEDAT_MISSED_EVENTS) {
		if (commit & TRACEDAT_MISSED_STORED) {
			/* the count follows the events */
			if (cs > len - hs - size)
				return -TRACEDAT_E_BAD_PAGE;
			pg->lost = cs == 8 ? (int64_t)td_get64(page + hs + size, r->be) :
				   (int64_t)td_get32(page + hs + size, r->be);
			if (pg->lost < 0)
				pg->lost = INT64_MAX;
		} else {
			pg->lost = -1;
		}
	}
	return 0;
}

struct tracedat_stream *tracedat_stream_open(struct tracedat_reader *r,
					     uint32_t buffer, uint32_t cpu_index,
					     int *err)
{
	const struct tracedat_buffer *b = tracedat_reader_buffer(r, buffer);
	const struct tracedat_cpu *c;
	struct tracedat_stream *s;

	if (!b || (!b->latency && cpu_index >= b->ncpus)) {
		*err = -TRACEDAT_E_INVAL;
		return NULL;
	}
	if (b->latency) {
		*err = -TRACEDAT_E_LATENCY;
		return NULL;
	}
	c = &b->cpus[cpu_index];
	s = calloc(1, sizeof(*s));
	if (!s) {
		*err = -TRACEDAT_E_NOMEM;
		return NULL;
	}
	s->r = r;
	s->b = b;
	s->cpu = c->cpu;
	s->page_size = b->page_size;
	s->compressed = b->compressed && c->size;
	s->pos = c->offset;
	s->end = c->offset + c->size;
	if (s->compressed) {
		uint8_t n[4];
		int ret = pread_all(r, n, 4, c->offset);

		if (ret) {
			free(s);
			*err = ret;
			return NULL;
		}
		s->nchunks = td_get32(n, r->be);
		s->pos += 4;
		s->end += 4;
		/* every chunk has at least its 8-byte header */
		if (s->nchunks > c->size / 8) {
			free(s);
			*err = fail(r, -TRACEDAT_E_BAD_CHUNK, c->offset);
			return NULL;
		}
	}
	s->next = r->streams;
	if (s->next)
		s->next->pprev = &s->next;
	s->pprev = &r->streams;
	r->streams = s;
	*err = 0;
	return s;
}

static int stream_fail(struct tracedat_stream *s, int err, uint64_t off)
{
	s->err = err;
	s->err_off = off;
	s->r->err_off = off;
	return err;
}

/* Fill the readahead of an uncompressed stream. */
static int refill_raw(struct tracedat_stream *s)
{
	struct tracedat_reader *r = s->r;
	size_t want;
	int ret;

	if (!s->buf) {
		uint64_t ncpus = s->b->ncpus ? s->b->ncpus : 1;
		uint64_t share = r->o.mem_limit / 4 / ncpus;
		size_t cap = STREAM_RA_MAX;

		if (cap > share)
			cap = (size_t)share;
		cap -= cap % s->page_size;
		if (cap < s->page_size)
			cap = s->page_size;
		ret = mem_grow(r, &s->buf, &s->cap, cap + SLACK);
		if (ret)
			return stream_fail(s, ret, s->pos);
		memset(s->buf + cap, 0, SLACK);
	}
	want = s->cap - SLACK;
	if (s->end - s->pos < want)
		want = (size_t)(s->end - s->pos);
	ret = pread_all(r, s->buf, want, s->pos);
	if (ret)
		return stream_fail(s, ret, r->err_off);
	s->buf_off = s->pos;
	s->pos += want;
	s->blen = want;
	s->bpos = 0;
	s->st.bytes += want;
	return 0;
}

/* Read and decompress the next chunk of a compressed stream. */
static int refill_chunk(struct tracedat_stream *s)
{
	struct tracedat_reader *r = s->r;
	uint64_t at = s->pos;
	uint8_t h[8];
	uint32_t zsize, rsize;
	size_t need;
	int ret;

	if (s->end - s->pos < 8)
		return stream_fail(s, -TRACEDAT_E_BAD_CHUNK, at);
	if ((ret = pread_all(r, h, 8, at)))
		return stream_fail(s, ret, at);
	zsize = td_get32(h, r->be);
	rsize = td_get32(h + 4, r->be);
	if (zsize > s->end - s->pos - 8 || zsize > td_codec_bound(r->codec, rsize))
		return stream_fail(s, -TRACEDAT_E_BAD_CHUNK, at);
	need = (size_t)rsize + s->page_size - 1;
	need -= need % s->page_size;
	if (!need)
		need = s->page_size;
	if ((ret = mem_grow(r, &s->buf, &s->cap, need + SLACK)) ||
	    (ret = mem_grow(r, &r->zin, &r->zin_cap, zsize ? zsize : 1)))
		return stream_fail(s, ret, at);
	memset(s->buf + need, 0, s->cap - need);
	if ((ret = pread_all(r, r->zin, zsize, at + 8)))
		return stream_fail(s, ret, at);
	ret = td_codec_decompress(&r->cctx, r->codec, s->buf, rsize, r->zin,
				  zsize);
	if (ret)
		return stream_fail(s, ret, at);
	s->pos += 8 + (uint64_t)zsize;
	s->chunk++;
	s->buf_off = at;
	s->blen = rsize;
	s->bpos = 0;
	s->st.chunks++;
	s->st.bytes += 8 + (uint64_t)zsize;
	return 0;
}

int tracedat_stream_next(struct tracedat_stream *s, struct tracedat_page *pg)
{
	size_t len;
	uint8_t *p;
	int ret;

	if (s->err)
		return s->err;
	while (s->bpos >= s->blen) {
		if (s->compressed) {
			if (s->chunk == s->nchunks)
				return 0;
			ret = refill_chunk(s);
		} else {
			if (s->pos >= s->end)
				return 0;
			ret = refill_raw(s);
		}
		if (ret)
			return ret;
	}
	p = s->buf + s->bpos;
	len = s->blen - s->bpos;
	if (len < s->page_size) {
		/* a short last page: zero the rest, inside buf's page multiple */
		memset(p + len, 0, s->page_size - len);
	} else {
		len = s->page_size;
	}
	memset(pg, 0, sizeof(*pg));
	ret = tracedat_page_parse(s->r, p, (uint32_t)len, pg);
	if (ret)
		return stream_fail(s, ret, s->compressed ? s->buf_off :
				   s->buf_off + s->bpos);
	pg->data = p;
	pg->len = (uint32_t)len;
	pg->offset = s->compressed ? s->buf_off : s->buf_off + s->bpos;
	pg->index = s->index++;
	s->bpos += s->page_size;
	s->st.pages++;
	if (pg->lost) {
		s->st.lost_pages++;
		if (pg->lost < 0)
			s->st.lost_unknown++;
		else
			s->st.lost_events += (uint64_t)pg->lost;
	}
	return 1;
}

uint64_t tracedat_stream_error_offset(const struct tracedat_stream *s)
{
	return s->err_off;
}

const struct tracedat_stream_stats *tracedat_stream_stats(const struct tracedat_stream *s)
{
	return &s->st;
}

uint32_t tracedat_stream_cpu(const struct tracedat_stream *s)
{
	return s->cpu;
}

void tracedat_stream_close(struct tracedat_stream *s)
{
	if (!s)
		return;
	*s->pprev = s->next;
	if (s->next)
		s->next->pprev = s->pprev;
	mem_free(s->r, &s->buf, &s->cap);
	free(s);
}
