// SPDX-License-Identifier: MIT
/*
 * scrub.c - rewrites the strings of the records in raw ring-buffer pages
 * in place, and zeroes the bytes no reader uses (see scrub.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "util.h"
#include "base/err.h"
#include "input/ftrace-guard.h"
#include "input/scrub.h"
#include "tracedat.h"

struct scrub {
	struct tep_handle *tep;
	bool big_endian;
	int long_size;
	uint32_t subbuf;
	uint8_t *used;		/* per byte of a record: a field covers it */
	const uint8_t *nargs;	/* raw syscall id -> argument registers kept */
	size_t nnargs;
	/* raw_syscalls:sys_enter, once its format is read: id and args[6] */
	int raw_type;
	struct tep_format_field *raw_id, *raw_args;
};

void scrub_raw_args(struct scrub *s, const uint8_t *nargs, size_t n)
{
	s->nargs = nargs;
	s->nnargs = n;
}

struct scrub *scrub_new(bool big_endian, int long_size, uint32_t subbuf_size)
{
	struct scrub *s = an_calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->tep = tep_alloc();
	s->used = malloc(subbuf_size ? subbuf_size : 1);
	if (!s->tep || !s->used) {
		tep_free(s->tep);
		free(s->used);
		free(s);
		return NULL;
	}
	s->big_endian = big_endian;
	s->long_size = long_size;
	s->subbuf = subbuf_size;
	tep_set_file_bigendian(s->tep, big_endian ? TEP_BIG_ENDIAN :
			       TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(s->tep, host_big_endian() ? TEP_BIG_ENDIAN :
				TEP_LITTLE_ENDIAN);
	tep_set_long_size(s->tep, long_size);
	tep_set_page_size(s->tep, (int)subbuf_size);
	return s;
}

void scrub_free(struct scrub *s)
{
	if (!s)
		return;
	tep_free(s->tep);
	free(s->used);
	free(s);
}

int scrub_header_page(struct scrub *s, const char *text, size_t len,
		      struct an_err *err)
{
	struct ftrace_verdict v;

	if (ftrace_check_header_page(text, len, s->subbuf, &v) < 0)
		return an_fail(err, AN_E_FORMAT, "header_page: %s at byte %zu",
			       v.error, v.offset);
	if (tep_parse_header_page(s->tep, (char *)text, (unsigned long)len,
				  s->long_size))
		return an_fail(err, AN_E_FORMAT, "header_page does not parse");
	return 0;
}

/* Note raw_syscalls:sys_enter's fields when they have the known shape. */
static void raw_enter(struct scrub *s, struct tep_event *ev)
{
	struct tep_format_field *id, *a;

	if (!ev || strcmp(ev->name, "sys_enter"))
		return;
	id = tep_find_field(ev, "id");
	a = tep_find_field(ev, "args");
	if (!id || !a || id->offset < 0 || id->size <= 0 || a->offset < 0 ||
	    a->size <= 0 || a->size % 6)
		return;
	s->raw_type = ev->id;
	s->raw_id = id;
	s->raw_args = a;
}

int scrub_format(struct scrub *s, const uint8_t *p, size_t len,
		 struct an_err *err)
{
	const uint8_t *nul = memchr(p, '\0', len);
	struct ftrace_verdict v = { 0 };
	const char *text;
	size_t tlen;
	enum tep_errno e;
	int g;

	if (!nul || !ftrace_check_system((const char *)p, (size_t)(nul - p)))
		return an_fail(err, AN_E_FORMAT,
			       "an event format has no valid system name");
	text = (const char *)nul + 1;
	tlen = len - (size_t)(nul + 1 - p);
	g = ftrace_check_format(text, tlen, s->subbuf,
				!strcmp((const char *)p, "ftrace"), &v);
	if (g < 0) {
		an_fail(err, AN_E_FORMAT, "event format of %s: %s at byte %zu",
			(const char *)p, v.error, v.offset);
		ftrace_verdict_release(&v);
		return -AN_E_FORMAT;
	}
	if (tep_find_event(s->tep, (int)v.id)) {
		ftrace_verdict_release(&v);
		return an_fail(err, AN_E_FORMAT,
			       "event format of %s: an event ID of an earlier format",
			       (const char *)p);
	}
	/* only the fields matter here: a neutral print fmt is as good */
	e = tep_parse_event(s->tep, v.text ? v.text : text,
			    v.text ? v.text_len : tlen, (const char *)p);
	ftrace_verdict_release(&v);
	if (e && e != TEP_ERRNO__READ_PRINT_FAILED &&
	    e != TEP_ERRNO__READ_FORMAT_FAILED)
		return an_fail(err, AN_E_FORMAT,
			       "event format of %s does not parse",
			       (const char *)p);
	if (!strcmp((const char *)p, "raw_syscalls"))
		raw_enter(s, tep_find_event(s->tep, (int)v.id));
	return 0;
}

static uint32_t get32(const struct scrub *s, const uint8_t *p)
{
	return (uint32_t)ftrace_num(p, 4, s->big_endian);
}

/* Hand one string of room cap at p to fn, then zero what follows its NUL. */
static void one_string(const struct tep_event *ev, const char *field,
		       char *p, size_t cap, scrub_fn fn, void *arg)
{
	size_t n;

	if (!cap)
		return;
	n = strnlen(p, cap);
	if (n == cap) {
		/* no NUL (a full char[N]): give the callback a terminated copy */
		char tmp[4096];

		if (cap >= sizeof(tmp))
			cap = sizeof(tmp) - 1;
		memcpy(tmp, p, cap);
		tmp[cap] = '\0';
		fn(arg, ev->system, ev->name, field, tmp, cap + 1);
		/* a shorter string leaves the original's tail after its
		 * NUL: "/usr/bin/bash" as "file-1" kept "in/bash" */
		n = strnlen(tmp, cap);
		memset(tmp + n, 0, cap - n);
		memcpy(p, tmp, cap);
		return;
	}
	fn(arg, ev->system, ev->name, field, p, cap);
	n = strnlen(p, cap);
	if (n < cap)
		memset(p + n, 0, cap - n);
}

/*
 * A raw_syscalls:sys_enter record: the argument registers its call does
 * not take are zeroed.  They hold what the program left there, and that
 * can be text: bash's lseek(255, -1346, SEEK_CUR) carried "in/bash\0" of
 * "/usr/bin/bash" in its sixth.
 */
static void raw_args(struct scrub *s, uint8_t *data, size_t size)
{
	const struct tep_format_field *a = s->raw_args;
	unsigned long long nr;
	size_t w, keep;

	if ((size_t)s->raw_id->offset + (size_t)s->raw_id->size > size ||
	    (size_t)a->offset + (size_t)a->size > size ||
	    tep_read_number_field(s->raw_id, data, &nr))
		return;
	keep = nr < s->nnargs ? s->nargs[nr] : 6;
	w = (size_t)a->size / 6;
	if (keep < 6)
		memset(data + a->offset + keep * w, 0, (6 - keep) * w);
}

/*
 * The string fields of one record; then the bytes no field covers (the
 * holes and the tail the kernel's struct leaves, which hold whatever the
 * ring buffer had there before) are zeroed.
 */
static long one_record(struct scrub *s, uint8_t *data, size_t size,
		       scrub_fn fn, void *arg)
{
	struct tep_record rec;
	struct tep_format_field *f;
	struct tep_event *ev;
	uint8_t *used = s->used;

	memset(&rec, 0, sizeof(rec));
	rec.data = data;
	rec.size = (int)size;
	if (size < 2 || size > s->subbuf)
		return 1;
	ev = tep_find_event(s->tep, tep_data_type(s->tep, &rec));
	if (!ev)
		return 1;
	memset(used, 0, size);
	/* the common fields first, then the event's own */
	for (f = ev->format.common_fields; f; f = f->next)
		if (f->offset >= 0 && f->size > 0 &&
		    (size_t)f->offset + (size_t)f->size <= size)
			memset(used + f->offset, 1, (size_t)f->size);
	for (f = ev->format.fields; f; f = f->next) {
		size_t off, cap;

		if (f->offset < 0 || f->size <= 0 ||
		    (size_t)f->offset + (size_t)f->size > size)
			continue;
		memset(used + f->offset, 1, (size_t)f->size);
		if (f->flags & TEP_FIELD_IS_DYNAMIC) {
			uint32_t loc;

			if (f->size != 4)
				continue;
			loc = get32(s, data + f->offset);
			off = loc & 0xffff;
			cap = loc >> 16;
			if (f->flags & TEP_FIELD_IS_RELATIVE)
				off += (size_t)f->offset + 4;
			if (off > size || cap > size - off)
				continue;
			memset(used + off, 1, cap);
		} else if (f->flags & TEP_FIELD_IS_ARRAY) {
			off = (size_t)f->offset;
			cap = (size_t)f->size;
		} else {
			continue;
		}
		if (strstr(f->type, "char"))
			one_string(ev, f->name, (char *)data + off, cap, fn,
				   arg);
	}
	if (s->nargs && s->raw_args && ev->id == s->raw_type)
		raw_args(s, data, size);
	for (size_t i = 0; i < size; i++)
		if (!used[i])
			data[i] = 0;
	return 0;
}

/* The events of one page's data (n bytes, checked walkable). */
static long one_page(struct scrub *s, uint8_t *d, size_t n, scrub_fn fn,
		     void *arg)
{
	size_t cur = 0;
	long unknown = 0;

	while (cur + 4 <= n) {
		uint32_t w = get32(s, d + cur), len;
		unsigned int type = s->big_endian ? w >> 27 : w & 31;

		switch (type) {
		case 29:	/* padding: a discarded event's bytes, or the end */
			len = cur + 8 <= n ? get32(s, d + cur + 4) : 0;
			if (!len || len > n - cur - 4) {
				memset(d + cur + 4, 0, n - cur - 4);
				return unknown;
			}
			if (len > 4)
				memset(d + cur + 8, 0, len - 4);
			cur += 4 + (size_t)len;
			break;
		case 30:
		case 31:
			cur += 8;
			break;
		case 0:
			if (cur + 8 > n)
				return unknown;
			len = get32(s, d + cur + 4);
			if (len < 8 || len - 4 > n - cur - 8)
				return unknown;
			unknown += one_record(s, d + cur + 8, len - 4, fn, arg);
			cur += 8 + (((size_t)len - 4 + 3) & ~(size_t)3);
			break;
		default:
			if (cur + 4 + 4 * (size_t)type > n)
				return unknown;
			unknown += one_record(s, d + cur + 4, 4 * (size_t)type,
					      fn, arg);
			cur += 4 + 4 * (size_t)type;
			break;
		}
	}
	return unknown;
}

long scrub_pages(struct scrub *s, uint8_t *pages, size_t n, scrub_fn fn,
		 void *arg, struct an_err *err)
{
	size_t hdr = 8 + (size_t)s->long_size, i;
	long unknown = 0;

	if (!s->subbuf || n % s->subbuf)
		return an_fail(err, AN_E_FORMAT,
			       "%zu bytes of pages are not whole sub-buffers of %u",
			       n, s->subbuf);
	for (i = 0; i < n / s->subbuf; i++) {
		uint8_t *page = pages + i * s->subbuf;
		struct tracedat_page pg;
		size_t size, keep;

		if (tracedat_page_header(page, s->subbuf,
					 (unsigned int)s->long_size,
					 s->big_endian, &pg) < 0)
			return an_fail(err, AN_E_FORMAT,
				       "page %zu claims %u bytes of data in a %u-byte sub-buffer",
				       i, pg.commit, s->subbuf);
		size = pg.commit;
		if (!ftrace_page_events_ok(page + hdr, size, s->big_endian))
			return an_fail(err, AN_E_FORMAT,
				       "page %zu has an event that runs past its data",
				       i);
		unknown += one_page(s, page + hdr, size, fn, arg);
		/* the lost-events count the kernel stores after the data */
		keep = hdr + size + pg.count_bytes;
		memset(page + keep, 0, s->subbuf - keep);
	}
	return unknown;
}
