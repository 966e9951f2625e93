// SPDX-License-Identifier: MIT
/*
 * fuzz-formats.c - fuzz target for the event format texts of a recording:
 * the input is a list of NUL-separated "SYSTEM\0FORMAT\0" pairs (SYSTEM
 * "@header_page" or "@printk" puts the text into that chunk instead),
 * written with the pages, snapshots and texts of a fixed valid recording
 * (formats-template.iorec) into an .iorec file, which is then analysed as
 * `ioreport report` does and its first events printed as `ioreport dump`
 * does.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iorec-format.h"
#include "sbuf.h"
#include "util.h"
#include "fuzz.h"

#ifndef FUZZ_TEMPLATE
#define FUZZ_TEMPLATE "tests/fuzz/formats-template.iorec"
#endif

/* The chunks of the template, decompressed. */
static struct tchunk {
	uint16_t type;
	uint8_t *payload;
	size_t len;
} *tmpl;
static size_t ntmpl;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *path = getenv("FUZZ_TEMPLATE");
	struct iorec_reader *r;
	struct iorec_chunk c;
	int err;

	r = iorec_reader_open(path ? path : FUZZ_TEMPLATE, &err);
	if (!r)
		abort();
	while (iorec_reader_next(r, &c, true) > 0) {
		tmpl = xrealloc(tmpl, sizeof(*tmpl) * (ntmpl + 1));
		tmpl[ntmpl].type = c.type;
		tmpl[ntmpl].len = c.payload_len;
		tmpl[ntmpl].payload = xmalloc(c.payload_len + 1);
		memcpy(tmpl[ntmpl].payload, c.payload, c.payload_len);
		ntmpl++;
	}
	iorec_reader_close(r);
	if (!ntmpl || tmpl[0].type != IOREC_CHUNK_HEADER)
		abort();
	return 0;
}

/* Append one uncompressed chunk to out. */
static void add(struct sbuf *out, uint32_t *seq, uint16_t type,
		const void *p, size_t len)
{
	uint8_t h[IOREC_CHUNK_HEADER_LEN] = { 0 };

	iorec_put32(h, IOREC_CHUNK_MAGIC);
	iorec_put16(h + 4, type);
	iorec_put32(h + 8, (*seq)++);
	iorec_put32(h + 12, (uint32_t)len);
	iorec_put32(h + 16, (uint32_t)len);
	iorec_put32(h + 20, iorec_crc32c(0, p, len));
	iorec_put32(h + 28, iorec_crc32c(0, h, 28));
	sbuf_add(out, h, sizeof(h));
	sbuf_add(out, p, len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sbuf out = SBUF_INIT_FATAL;
	uint8_t fh[IOREC_FILE_HEADER_LEN] = { 0 };
	bool have_hp = false, have_printk = false;
	const uint8_t *p = data, *end = data + size;
	uint32_t seq = 0;

	memcpy(fh, IOREC_MAGIC, IOREC_MAGIC_LEN);
	iorec_put16(fh + 8, IOREC_VERSION_MAJOR);
	sbuf_add(&out, fh, sizeof(fh));
	add(&out, &seq, tmpl[0].type, tmpl[0].payload, tmpl[0].len);
	/* the input's texts: "SYSTEM\0TEXT\0" ... */
	while (p < end) {
		const uint8_t *sys = p, *text, *nul;
		size_t slen;
		uint16_t type = IOREC_CHUNK_EVENT_FORMAT;

		nul = memchr(p, '\0', (size_t)(end - p));
		if (!nul)
			break;
		slen = (size_t)(nul - sys) + 1;
		text = nul + 1;
		nul = text < end ? memchr(text, '\0', (size_t)(end - text)) :
		      NULL;
		if (!nul)
			nul = end;
		if (!strcmp((const char *)sys, "@header_page")) {
			add(&out, &seq, IOREC_CHUNK_HEADER_PAGE, text,
			    (size_t)(nul - text));
			have_hp = true;
		} else if (!strcmp((const char *)sys, "@printk")) {
			add(&out, &seq, IOREC_CHUNK_PRINTK, text,
			    (size_t)(nul - text));
			have_printk = true;
		} else {
			/* an EVENT_FORMAT payload is "system\0format" */
			struct sbuf f = SBUF_INIT_FATAL;

			sbuf_add(&f, sys, slen);
			sbuf_add(&f, text, (size_t)(nul - text));
			add(&out, &seq, type, f.buf, f.len);
			sbuf_release(&f);
		}
		p = nul + 1;
	}
	for (size_t i = 1; i < ntmpl; i++) {
		if ((tmpl[i].type == IOREC_CHUNK_HEADER_PAGE && have_hp) ||
		    (tmpl[i].type == IOREC_CHUNK_PRINTK && have_printk) ||
		    tmpl[i].type == IOREC_CHUNK_EVENT_FORMAT)
			continue;
		add(&out, &seq, tmpl[i].type, tmpl[i].payload, tmpl[i].len);
	}
	fuzz_keep((const uint8_t *)out.buf, out.len);
	fuzz_analyze(fuzz_file((const uint8_t *)out.buf, out.len), 64);
	sbuf_release(&out);
	return 0;
}
