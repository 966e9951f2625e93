// SPDX-License-Identifier: MIT
/*
 * tracedat-meta.c - the trace.dat reader's metadata items
 * (tracedat_reader_meta_next()): header page and event, ftrace and event
 * formats, kallsyms, printk formats and saved cmdlines, one at a time, from
 * a version 7 file's sections or a version 6 file's run of them.
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

/* ------------------------------------------------------------------ */
/* metadata items */

void tdr_restore_clobbered(struct tracedat_reader *r)
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
	tdr_mem_free(r, &r->sec, &r->sec_size);
	if (!off)
		return 0;
	ret = tdr_read_sec_hdr(r, off, &s);
	if (ret)
		return ret;
	if (s.flags & TRACEDAT_SEC_FL_COMPRESS) {
		ret = tdr_load_block(r, s.data, s.size, off, &r->sec, &r->sec_size, &len);
		if (ret)
			return ret;
		tdr_cur_mem(&r->mc, r->sec, len, off, -TRACEDAT_E_BAD_METADATA);
	} else {
		tdr_cur_file(&r->mc, s.data, s.data + s.size, -TRACEDAT_E_BAD_METADATA);
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
		return tdr_fail(r, -TRACEDAT_E_TOO_BIG, at);
	if (n > tdr_cur_left(c))
		return tdr_fail(r, c->overrun, at);
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
	ret = tdr_mem_grow(r, &r->item, &r->item_cap, (size_t)n + 1);
	if (ret)
		return tdr_fail(r, ret, at);
	ret = tdr_cur_read(r, c, r->item, (size_t)n);
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
	uint64_t at = tdr_cur_off(&r->mc), n;
	int ret = tdr_cur_size(r, &r->mc, width, &n);

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
			return tdr_fail(r, -TRACEDAT_E_NO_SECTION, 0);
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
				tdr_cur_file(&r->mc, r->v6_meta, r->fsize,
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
			ret = tdr_expect(r, &r->mc, hp ? "header_page" : "header_event",
					 hp ? 12 : 13, -TRACEDAT_E_BAD_METADATA);
			if (ret)
				return ret;
			return take_sized(r, m, hp ? TRACEDAT_META_HEADER_PAGE :
					  TRACEDAT_META_HEADER_EVENT, 8);
		}
		case M_FTRACE_COUNT:
		case M_EVENTS_COUNT:
			ret = tdr_cur_u32(r, &r->mc, &r->count);
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
			ret = tdr_cur_string(r, &r->mc, r->system, sizeof(r->system));
			if (!ret)
				ret = tdr_cur_u32(r, &r->mc, &r->nev);
			if (ret)
				return ret;
			r->iev = 0;
			r->phase = M_EVENT;
			break;
		case M_SINGLE:
			r->phase = M_NEXT_GROUP;
			if (groups[r->group].kind == TRACEDAT_META_KALLSYMS &&
			    (r->o.flags & TRACEDAT_R_SKIP_KALLSYMS)) {
				ret = tdr_skip_sized(r, &r->mc, 4);
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

	tdr_restore_clobbered(r);
	memset(m, 0, sizeof(*m));
	ret = meta_step(r, m);
	if (ret <= 0) {
		/* the end, or an error: free everything, start over next time */
		tdr_mem_free(r, &r->sec, &r->sec_size);
		tdr_mem_free(r, &r->item, &r->item_cap);
		r->phase = M_START;
	}
	return ret;
}
