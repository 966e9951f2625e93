// SPDX-License-Identifier: MIT
/*
 * iorec-tracedat.c - converts a .iorec recording to a trace.dat, chunk by
 * chunk, through the trace.dat writer (its pages spooled, so the memory
 * stays bounded whatever the recording's length).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt-util.h"
#include "iorec-tracedat.h"

/* Field n of a tab-separated line (escapes kept), and its length. */
static size_t field(const char *line, size_t len, int n, const char **f)
{
	const char *p = line, *end = line + len, *t;

	*f = line;
	for (int i = 0; i < n; i++) {
		t = memchr(p, '\t', (size_t)(end - p));
		if (!t)
			return 0;
		p = t + 1;
	}
	*f = p;
	t = memchr(p, '\t', (size_t)(end - p));
	return (size_t)((t ? t : end) - p);
}

/* UNAME "sysname nodename release machine" from the start snapshot's
 * "uname SYSNAME RELEASE VERSION MACHINE NODENAME" line. */
static int add_uname(struct tracedat_writer *w, const uint8_t *pl, size_t len)
{
	const char *p = (const char *)pl + 8, *end = (const char *)pl + len;

	if (len < 8 || iorec_get32(pl) != IOREC_SNAP_START)
		return 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = (size_t)((nl ? nl : end) - p);

		if (ll > 6 && !memcmp(p, "uname\t", 6)) {
			const char *sys, *rel, *mach, *node;
			size_t ls = field(p, ll, 1, &sys), lr = field(p, ll, 2, &rel);
			size_t lm = field(p, ll, 4, &mach), ln = field(p, ll, 5, &node);
			struct fmt_buf t = { 0 };
			int ret;

			fmt_buf_add(&t, sys, ls);
			fmt_buf_add(&t, " ", 1);
			fmt_buf_add(&t, node, ln);
			fmt_buf_add(&t, " ", 1);
			fmt_buf_add(&t, rel, lr);
			fmt_buf_add(&t, " ", 1);
			fmt_buf_add(&t, mach, lm);
			ret = t.oom ? -TRACEDAT_E_NOMEM :
			      tracedat_writer_add_option(w, TRACEDAT_OPT_UNAME, t.p,
							 t.len + 1);
			fmt_buf_free(&t);
			return ret;
		}
		p += ll + 1;
	}
	return 0;
}

/*
 * CPUSTAT options from the STATS chunk's "cpu\tN\tKEY\tVALUE" lines, the
 * kernel's keys in their order, as trace-cmd stores per_cpu/cpuN/stats
 * ("CPU: N" first); the recorder's own keys (pages, missed_pages) are not
 * the kernel's and are left out.
 */
static int add_cpustats(struct tracedat_writer *w, const uint8_t *pl,
			size_t len, uint32_t ncpus)
{
	for (uint32_t cpu = 0; cpu < ncpus; cpu++) {
		const char *p = (const char *)pl, *end = p + len;
		struct fmt_buf t = { 0 };
		char head[32];
		int lines = 0, ret = 0;

		snprintf(head, sizeof(head), "CPU: %u\n", cpu);
		fmt_buf_add(&t, head, strlen(head));
		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t ll = (size_t)((nl ? nl : end) - p);
			const char *c, *k, *v;
			size_t lc = field(p, ll, 1, &c), lk = field(p, ll, 2, &k);
			size_t lv = field(p, ll, 3, &v);
			char *ce;

			if (lc && lk && lv && strtoul(c, &ce, 10) == cpu && ce == c + lc &&
			    !(lk == 5 && !memcmp(k, "pages", 5)) &&
			    !(lk == 12 && !memcmp(k, "missed_pages", 12))) {
				fmt_buf_add(&t, k, lk);
				fmt_buf_add(&t, ": ", 2);
				fmt_buf_add(&t, v, lv);
				fmt_buf_add(&t, "\n", 1);
				lines++;
			}
			p += ll + 1;
		}
		if (t.oom)
			ret = -TRACEDAT_E_NOMEM;
		else if (lines)
			ret = tracedat_writer_add_option(w, TRACEDAT_OPT_CPUSTAT, t.p,
							 t.len + 1);
		fmt_buf_free(&t);
		if (ret)
			return ret;
	}
	return 0;
}

/* The writer for the recording's HEADER payload. */
static int start(struct tracedat_writer **wp, int fd, const uint8_t *pl,
		 size_t len, const struct iorec_tracedat_opts *o,
		 struct iorec_header *h)
{
	struct tracedat_write_opts wo = {
		.version = o->version, .compress = o->compress,
		.codec = o->codec, .zstd_level = o->zstd_level, .chunk_pages = o->chunk_pages,
		.tmpdir = o->tmpdir,
	};
	char clock[64];
	int err;

	if (iorec_header_parse(pl, len, h))
		return -TRACEDAT_E_BAD_HEADER;
	wo.big_endian = h->endian == IOREC_ENDIAN_BIG;
	wo.long_size = h->long_size;
	wo.page_size = h->subbuf_size;
	wo.ncpus = h->ncpus;
	*wp = tracedat_writer_new(fd, &wo, &err);
	if (!*wp)
		return err == -TRACEDAT_E_INVAL ? -TRACEDAT_E_BAD_HEADER : err;
	if (iorec_kv_get(h->text, h->text_len, "clock", clock, sizeof(clock)) > 0 &&
	    tracedat_writer_set_clock(*wp, clock))
		return -TRACEDAT_E_BAD_HEADER;
	if (o->writer_version)
		return tracedat_writer_add_option(*wp, TRACEDAT_OPT_VERSION,
						  o->writer_version,
						  strlen(o->writer_version) + 1);
	return 0;
}

/* One chunk after the header into the writer. */
static int add_chunk(struct tracedat_writer *w, const struct iorec_chunk *c,
		     const struct iorec_header *h, struct fmt_buf *cmdlines,
		     bool *have_hp, bool *have_he,
		     const struct iorec_tracedat_opts *o,
		     struct iorec_tracedat_result *res)
{
	const uint8_t *pl = c->payload;
	size_t len = c->payload_len;

	switch (c->type) {
	case IOREC_CHUNK_HEADER_PAGE:
		*have_hp = true;
		return tracedat_writer_set_header_page(w, pl, len);
	case IOREC_CHUNK_HEADER_EVENT:
		*have_he = true;
		return tracedat_writer_set_header_event(w, pl, len);
	case IOREC_CHUNK_EVENT_FORMAT: {
		const uint8_t *nul = memchr(pl, 0, len);

		/* "system\0format"; without a system it is no format */
		if (!nul || nul == pl || nul + 1 == pl + len)
			return 0;
		return tracedat_writer_add_event_format(w, (const char *)pl, nul + 1,
							len - (size_t)(nul + 1 - pl));
	}
	case IOREC_CHUNK_PRINTK:
		return tracedat_writer_set_printk(w, pl, len);
	case IOREC_CHUNK_CMDLINES:
		cmdlines->len = 0;
		fmt_buf_add(cmdlines, pl, len);
		return cmdlines->oom ? -TRACEDAT_E_NOMEM : 0;
	case IOREC_CHUNK_SNAPSHOT:
		return add_uname(w, pl, len);
	case IOREC_CHUNK_STATS:
		return add_cpustats(w, pl, len, h->ncpus);
	case IOREC_CHUNK_DATA: {
		const uint8_t *pg = pl + IOREC_DATA_DESC_LEN;
		uint32_t sb = h->subbuf_size;

		if (c->data.cpu >= h->ncpus || c->data.subbuf_size != sb)
			return -TRACEDAT_E_INVAL;
		for (uint32_t i = 0; i < c->data.npages; i++, pg += sb) {
			int ret = tracedat_writer_add_page(w, c->data.cpu, pg, sb);

			if (ret)
				return ret;
			if (o->on_page)
				o->on_page(o->arg, c->data.cpu, pg, sb);
			res->pages++;
		}
		return 0;
	}
	}
	return 0;
}

int iorec_to_tracedat(struct iorec_reader *r, int fd,
		      const struct iorec_tracedat_opts *o,
		      struct iorec_tracedat_result *res)
{
	struct tracedat_writer *w = NULL;
	struct iorec_header h;
	struct iorec_chunk c;
	struct fmt_buf cmdlines = { 0 };
	bool have_hp = false, have_he = false;
	int ret, err = 0;

	memset(res, 0, sizeof(*res));
	while ((ret = iorec_reader_next(r, &c, true)) > 0) {
		res->chunks++;
		if (c.type == IOREC_CHUNK_HEADER)
			err = w ? 0 : start(&w, fd, c.payload, c.payload_len, o, &h);
		else if (w)
			err = add_chunk(w, &c, &h, &cmdlines, &have_hp, &have_he, o, res);
		if (err)
			break;
	}
	if (ret < 0) {
		res->read_err = ret;
		res->read_err_offset = iorec_reader_error_offset(r);
	}
	if (!err && (!w || !have_hp || !have_he))
		err = -TRACEDAT_E_BAD_HEADER;
	if (!err && o->extra_cmdlines && o->extra_cmdlines_len) {
		if (cmdlines.len && cmdlines.p[cmdlines.len - 1] != '\n')
			fmt_buf_add(&cmdlines, "\n", 1);
		fmt_buf_add(&cmdlines, o->extra_cmdlines,
			    o->extra_cmdlines_len);
		if (cmdlines.oom)
			err = -TRACEDAT_E_NOMEM;
	}
	if (!err)
		err = tracedat_writer_set_cmdlines(w, cmdlines.p, cmdlines.len);
	if (!err)
		err = tracedat_writer_finish(w);
	if (w) {
		res->written = tracedat_writer_written(w);
		res->write_errno = tracedat_writer_errno(w);
	}
	tracedat_writer_free(w);
	fmt_buf_free(&cmdlines);
	return err;
}
