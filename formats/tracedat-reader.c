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
#include "tracedat-rd.h"

#define _TRACEDAT_E(name, str) str,
static const char *const tracedat_error_str[] = { TRACEDAT_ERRORS };
#undef _TRACEDAT_E

const char *tracedat_strerror(int err)
{
	return fmt_strerror(tracedat_error_str, TRACEDAT_E_BASE, TRACEDAT_E_MAX, err);
}

/* ------------------------------------------------------------------ */
/* v7 sections */

int tdr_read_sec_hdr(struct tracedat_reader *r, uint64_t off,
		     struct sec_hdr *s)
{
	uint8_t h[16];
	int ret;

	if (off > r->fsize || r->fsize - off < 16)
		return tdr_fail(r, -TRACEDAT_E_BAD_OFFSET, off);
	ret = tdr_ra_read(r, h, 16, off);
	if (ret)
		return ret;
	s->id = td_get16(h, r->be);
	s->flags = td_get16(h + 2, r->be);
	s->desc = td_get32(h + 4, r->be);
	s->size = td_get64(h + 8, r->be);
	s->data = off + 16;
	if (s->size > r->fsize - s->data)
		return tdr_fail(r, -TRACEDAT_E_TRUNCATED, off);
	if (s->flags & ~TRACEDAT_SEC_FL_COMPRESS)
		return tdr_fail(r, -TRACEDAT_E_BAD_SECTION, off);
	if ((s->flags & TRACEDAT_SEC_FL_COMPRESS) && !strcmp(r->compression, "none"))
		return tdr_fail(r, -TRACEDAT_E_BAD_SECTION, off);
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
			return tdr_fail(r, -TRACEDAT_E_TRUNCATED, off);
		ret = tdr_read_sec_hdr(r, off, &s);
		if (ret)
			return ret;
		strings |= s.id == TRACEDAT_SEC_STRINGS;
		off = s.data + s.size;
	}
	return strings ? 0 : tdr_fail(r, -TRACEDAT_E_TRUNCATED, off);
}

/* ------------------------------------------------------------------ */
/* options */

static int keep_text(struct tracedat_reader *r, char **dst, const uint8_t *data,
		     uint32_t len, uint64_t off)
{
	char *s;

	if (len > MAX_OPT_TEXT)
		return tdr_fail(r, -TRACEDAT_E_BAD_OPTION, off);
	s = malloc((size_t)len + 1);
	if (!s)
		return tdr_fail(r, -TRACEDAT_E_NOMEM, off);
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
		return tdr_fail(r, -TRACEDAT_E_BAD_BUFFER, off);
	if (fmt_grow_array((void **)&r->buf, &r->buf_cap, r->nbuf + 1,
			   sizeof(*r->buf), 4))
		return tdr_fail(r, -TRACEDAT_E_NOMEM, off);
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
	if (len < 8 || !(name = tdr_data_string(d, len, pos)) ||
	    (v7 && !(clock = tdr_data_string(d, len, pos))) ||
	    strlen(name) >= MAX_STRING || strlen(clock) >= MAX_STRING)
		return tdr_fail(r, -TRACEDAT_E_BAD_BUFFER, off);
	ret = new_buffer(r, off, &b);
	if (ret)
		return ret;
	b->pub.offset = td_get64(d, r->be);
	b->name = strdup(name);
	if (v7)
		b->clock = strdup(clock);
	if (!b->name || (v7 && !b->clock))
		return tdr_fail(r, -TRACEDAT_E_NOMEM, off);
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
	ret = tdr_read_sec_hdr(r, b->pub.offset, &s);
	if (ret)
		return ret == -TRACEDAT_E_TRUNCATED ? ret :
		       tdr_fail(r, -TRACEDAT_E_BAD_OFFSET, off);
	if (s.id != id)
		return tdr_fail(r, -TRACEDAT_E_BAD_BUFFER, b->pub.offset);
	b->pub.compressed = s.flags & TRACEDAT_SEC_FL_COMPRESS;
	if (id == TRACEDAT_OPT_BUFFER_TEXT) {
		b->pub.latency = true;
		b->pub.page_size = r->info.page_size;
		return 0;
	}
	if (len - pos < 8)
		return tdr_fail(r, -TRACEDAT_E_BAD_BUFFER, off);
	b->pub.page_size = td_get32(d + pos, r->be);
	n = td_get32(d + pos + 4, r->be);
	pos += 8;
	if (b->pub.page_size < TRACEDAT_MIN_PAGE ||
	    b->pub.page_size > TRACEDAT_MAX_PAGE || n > TRACEDAT_MAX_CPUS ||
	    (len - pos) / 20 < n)
		return tdr_fail(r, -TRACEDAT_E_BAD_BUFFER, off);
	b->cpus = calloc(n ? n : 1, sizeof(*b->cpus));
	if (!b->cpus)
		return tdr_fail(r, -TRACEDAT_E_NOMEM, off);
	for (uint32_t i = 0; i < n; i++, pos += 20) {
		struct tracedat_cpu *c = &b->cpus[i];
		uint64_t need;

		c->cpu = td_get32(d + pos, r->be);
		c->offset = td_get64(d + pos + 4, r->be);
		c->size = td_get64(d + pos + 12, r->be);
		need = c->size + (b->pub.compressed && c->size ? 4 : 0);
		if (c->cpu >= TRACEDAT_MAX_CPUS || (seen[c->cpu / 8] & (1 << c->cpu % 8)))
			return tdr_fail(r, -TRACEDAT_E_BAD_BUFFER, off);
		seen[c->cpu / 8] |= 1 << c->cpu % 8;
		if (need < c->size || c->offset > r->fsize ||
		    need > r->fsize - c->offset)
			return tdr_fail(r, -TRACEDAT_E_BAD_OFFSET, off);
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
			return tdr_fail(r, -TRACEDAT_E_BAD_OPTION, off);
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
			return tdr_fail(r, -TRACEDAT_E_BAD_OPTION, off);
		ns = realloc(r->cpustats, r->cpustats_len + len + 2);
		if (!ns)
			return tdr_fail(r, -TRACEDAT_E_NOMEM, off);
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
			return tdr_fail(r, -TRACEDAT_E_BAD_OPTION, off);
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
			return tdr_fail(r, -TRACEDAT_E_BAD_OPTION, off);
		at = td_get64(d, r->be);
		ret = tdr_read_sec_hdr(r, at, &s);
		if (ret)
			return ret == -TRACEDAT_E_TRUNCATED ? ret :
			       tdr_fail(r, -TRACEDAT_E_BAD_OFFSET, off);
		if (s.id != id)
			return tdr_fail(r, -TRACEDAT_E_BAD_SECTION, at);
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
		uint64_t at = tdr_cur_off(c);
		uint16_t id;
		uint32_t len;

		if ((ret = tdr_cur_u16(r, c, &id)))
			break;
		if (r->info.version == 6 && id == TRACEDAT_OPT_DONE)
			break;
		if ((ret = tdr_cur_u32(r, c, &len)))
			break;
		if (len > tdr_cur_left(c)) {
			ret = tdr_fail(r, -TRACEDAT_E_BAD_OPTION, at);
			break;
		}
		if (id == TRACEDAT_OPT_DONE) {
			uint8_t b[8];

			if (len < 8) {
				ret = tdr_fail(r, -TRACEDAT_E_BAD_OPTION, at);
				break;
			}
			*next_at = tdr_cur_off(c);
			ret = tdr_cur_read(r, c, b, 8);
			if (!ret)
				*next = td_get64(b, r->be);
			break;
		}
		if (!option_wanted(id)) {
			r->info.options++;
			r->info.unknown_options += id > TRACEDAT_OPT_BUFFER_TEXT;
			r->pending_v6_buffer = -1;
			if ((ret = tdr_cur_skip(r, c, len)))
				break;
			continue;
		}
		if (len > MAX_OPTION) {
			ret = tdr_fail(r, -TRACEDAT_E_BAD_OPTION, at);
			break;
		}
		if ((ret = tdr_mem_grow(r, &data, &cap, len ? len : 1))) {
			ret = tdr_fail(r, ret, at);
			break;
		}
		if ((ret = tdr_cur_read(r, c, data, len)) ||
		    (ret = parse_option(r, id, data, len, at)))
			break;
	}
	tdr_mem_free(r, &data, &cap);
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
			return tdr_fail(r, -TRACEDAT_E_BAD_OPTION, ref);
		ret = tdr_read_sec_hdr(r, off, &s);
		if (ret == -TRACEDAT_E_BAD_OFFSET)
			return tdr_fail(r, ret, ref);
		if (ret)
			return ret;
		if (s.id != TRACEDAT_OPT_DONE)
			return tdr_fail(r, -TRACEDAT_E_BAD_SECTION, off);
		if (s.flags & TRACEDAT_SEC_FL_COMPRESS) {
			ret = tdr_load_block(r, s.data, s.size, off, &mem, &cap, &len);
			if (ret)
				return ret;
			tdr_cur_mem(&c, mem, len, off, -TRACEDAT_E_BAD_OPTION);
		} else {
			tdr_cur_file(&c, s.data, s.data + s.size, -TRACEDAT_E_BAD_OPTION);
		}
		ret = parse_options(r, &c, &next, &ref);
		tdr_mem_free(r, &mem, &cap);
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
int tdr_skip_sized(struct tracedat_reader *r, struct cur *c, int width)
{
	uint64_t at = tdr_cur_off(c), n;
	int ret = tdr_cur_size(r, c, width, &n);

	if (ret)
		return ret;
	if (n > tdr_cur_left(c))
		return tdr_fail(r, -TRACEDAT_E_TRUNCATED, at);
	return tdr_cur_skip(r, c, n);
}

int tdr_expect(struct tracedat_reader *r, struct cur *c, const char *tag,
	       size_t len, int err)
{
	char b[16];
	uint64_t at = tdr_cur_off(c);
	int ret = tdr_cur_read(r, c, b, len);

	if (ret)
		return ret;
	if (memcmp(b, tag, len))
		return tdr_fail(r, err, at);
	return 0;
}

/* "flyrecord\0" done: the (offset, size) table of ncpus CPUs. */
static int read_flyrecord_v6(struct tracedat_reader *r, struct cur *c,
			     struct rbuffer *b, uint32_t ncpus)
{
	b->cpus = calloc(ncpus ? ncpus : 1, sizeof(*b->cpus));
	if (!b->cpus)
		return tdr_fail(r, -TRACEDAT_E_NOMEM, tdr_cur_off(c));
	for (uint32_t i = 0; i < ncpus; i++) {
		struct tracedat_cpu *cpu = &b->cpus[i];
		uint64_t at = tdr_cur_off(c);
		int ret;

		if ((ret = tdr_cur_u64(r, c, &cpu->offset)) ||
		    (ret = tdr_cur_u64(r, c, &cpu->size)))
			return ret;
		cpu->cpu = i;
		if (cpu->size && (cpu->offset > r->fsize ||
				  cpu->size > r->fsize - cpu->offset))
			return tdr_fail(r, -TRACEDAT_E_BAD_OFFSET, at);
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

	tdr_cur_file(&c, off, r->fsize, -TRACEDAT_E_TRUNCATED);
	r->v6_meta = off;
	if ((ret = tdr_expect(r, &c, "header_page", 12, -TRACEDAT_E_BAD_METADATA)) ||
	    (ret = tdr_skip_sized(r, &c, 8)) ||
	    (ret = tdr_expect(r, &c, "header_event", 13, -TRACEDAT_E_BAD_METADATA)) ||
	    (ret = tdr_skip_sized(r, &c, 8)) || (ret = tdr_cur_u32(r, &c, &n)))
		return ret;
	for (uint32_t i = 0; i < n; i++)
		if ((ret = tdr_skip_sized(r, &c, 8)))
			return ret;
	if ((ret = tdr_cur_u32(r, &c, &n)))
		return ret;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t nev;

		if ((ret = tdr_cur_string(r, &c, r->system, sizeof(r->system))) ||
		    (ret = tdr_cur_u32(r, &c, &nev)))
			return ret;
		for (uint32_t j = 0; j < nev; j++)
			if ((ret = tdr_skip_sized(r, &c, 8)))
				return ret;
	}
	if ((ret = tdr_skip_sized(r, &c, 4)) || (ret = tdr_skip_sized(r, &c, 4)) ||
	    (ret = tdr_skip_sized(r, &c, 8)))
		return ret;
	if ((ret = tdr_cur_u32(r, &c, &ncpus)))
		return ret;
	if (ncpus > TRACEDAT_MAX_CPUS)
		return tdr_fail(r, -TRACEDAT_E_BAD_METADATA, tdr_cur_off(&c) - 4);
	r->info.ncpus = ncpus;

	for (;;) {
		char tag[10];
		uint64_t at = tdr_cur_off(&c);

		if ((ret = tdr_cur_read(r, &c, tag, 10)))
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
				return tdr_fail(r, -TRACEDAT_E_NOMEM, at);
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

				at = tdr_cur_off(&c);
				if ((ret = tdr_cur_u64(r, &c, &clen)))
					return ret;
				if (clen >= sizeof(text))
					return tdr_fail(r, -TRACEDAT_E_BAD_BUFFER, at);
				if ((ret = tdr_cur_read(r, &c, text, (size_t)clen)))
					return ret;
				text[clen] = 0;
				free(r->clock);
				r->clock = selected_clock(text);
			}
			return 0;
		}
		return tdr_fail(r, -TRACEDAT_E_BAD_BUFFER, at);
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
			return tdr_fail(r, -TRACEDAT_E_BAD_OFFSET, b->pub.offset);
		tdr_cur_file(&c, b->pub.offset, r->fsize, -TRACEDAT_E_TRUNCATED);
		ret = tdr_expect(r, &c, "flyrecord", 10, -TRACEDAT_E_BAD_BUFFER);
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
/* open and close */

static int read_header(struct tracedat_reader *r, uint64_t *end)
{
	struct cur c;
	char s[MAX_STRING];
	uint8_t b[6];
	int ret;

	tdr_cur_file(&c, 0, r->fsize, -TRACEDAT_E_TRUNCATED);
	if (r->fsize < TRACEDAT_MAGIC_LEN)
		return tdr_fail(r, -TRACEDAT_E_BAD_MAGIC, 0);
	if ((ret = tdr_expect(r, &c, TRACEDAT_MAGIC, TRACEDAT_MAGIC_LEN,
			      -TRACEDAT_E_BAD_MAGIC)))
		return ret;
	ret = tdr_cur_string(r, &c, s, 16);
	if (ret)
		return ret == -TRACEDAT_E_BAD_STRING ?
		       tdr_fail(r, -TRACEDAT_E_BAD_VERSION, TRACEDAT_MAGIC_LEN) : ret;
	if (strcmp(s, "6") && strcmp(s, "7"))
		return tdr_fail(r, -TRACEDAT_E_BAD_VERSION, TRACEDAT_MAGIC_LEN);
	r->info.version = s[0] - '0';
	if ((ret = tdr_cur_read(r, &c, b, 6)))
		return ret;
	if (b[0] > 1 || (b[1] != 4 && b[1] != 8))
		return tdr_fail(r, -TRACEDAT_E_BAD_HEADER, tdr_cur_off(&c) - 6);
	r->be = b[0] == 1;
	r->info.big_endian = r->be;
	r->info.long_size = b[1];
	r->info.page_size = td_get32(b + 2, r->be);
	if (r->info.page_size < TRACEDAT_MIN_PAGE ||
	    r->info.page_size > TRACEDAT_MAX_PAGE)
		return tdr_fail(r, -TRACEDAT_E_BAD_HEADER, tdr_cur_off(&c) - 4);
	if (r->info.version == 7) {
		uint64_t at = tdr_cur_off(&c);
		uint64_t opt;

		if ((ret = tdr_cur_string(r, &c, s, 64)))
			return ret;
		r->compression = strdup(s);
		if ((ret = tdr_cur_string(r, &c, s, 64)))
			return ret;
		r->compression_version = strdup(s);
		if (!r->compression || !r->compression_version)
			return tdr_fail(r, -TRACEDAT_E_NOMEM, at);
		ret = td_codec_by_name(r->compression);
		if (ret < 0)
			return tdr_fail(r, ret, at);
		r->codec = (enum tracedat_codec)ret;
		if ((ret = tdr_cur_u64(r, &c, &opt)))
			return ret;
		*end = tdr_cur_off(&c);
		if (!opt)
			return tdr_fail(r, -TRACEDAT_E_NO_SECTION, *end - 8);
		r->sec_off[0] = opt;	/* the first options section */
		return 0;
	}
	r->compression = strdup("none");
	r->compression_version = strdup("");
	if (!r->compression || !r->compression_version)
		return tdr_fail(r, -TRACEDAT_E_NOMEM, 0);
	*end = tdr_cur_off(&c);
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
	tdr_restore_clobbered(r);
	tdr_mem_free(r, &r->sec, &r->sec_size);
	tdr_mem_free(r, &r->item, &r->item_cap);
	r->phase = M_START;
	if (ret < 0)
		return ret;
	if (!r->commit_size)
		r->commit_size = r->info.long_size;
	r->info.kernel_long_size = (uint8_t)r->commit_size;
	r->info.page_header_size = 8 + r->commit_size;
	if (r->info.page_header_size >= r->info.page_size)
		return tdr_fail(r, -TRACEDAT_E_BAD_HEADER, 0);
	for (uint32_t i = 0; i < r->nbuf; i++)
		if (!r->buf[i].pub.latency &&
		    r->buf[i].pub.page_size <= r->info.page_header_size)
			return tdr_fail(r, -TRACEDAT_E_BAD_BUFFER, r->buf[i].pub.offset);
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
		return tdr_fail(r, -TRACEDAT_E_IO, 0);
	if (!S_ISREG(st.st_mode))
		return tdr_fail(r, -TRACEDAT_E_NOT_SEEKABLE, 0);
	r->fsize = (uint64_t)st.st_size;
	ret = tdr_mem_grow(r, &r->rbuf, &r->rbuf_cap, RBUF_SIZE);
	if (ret)
		return tdr_fail(r, ret, 0);
	if ((ret = read_header(r, &end)))
		return ret;
	if (r->info.version == 7) {
		if ((ret = walk_sections(r, end)) ||
		    (ret = read_options_v7(r, r->sec_off[0], end - 8)))
			return ret;
		if (!r->sec_off[TRACEDAT_SEC_HEADER_INFO])
			return tdr_fail(r, -TRACEDAT_E_NO_SECTION, r->sec_off[0]);
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

