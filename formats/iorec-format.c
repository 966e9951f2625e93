// SPDX-License-Identifier: MIT
/*
 * iorec-format.c - error strings and the encoders/parsers of the fixed
 * parts of HEADER and DATA payloads.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fmt-util.h"
#include "iorec-format.h"

#define _IOREC_E(name, str) str,
static const char *const iorec_error_str[] = { IOREC_ERRORS };
#undef _IOREC_E

const char *iorec_strerror(int err)
{
	return fmt_strerror(iorec_error_str, IOREC_E_BASE, IOREC_E_MAX, err);
}

int iorec_header_encode(const struct iorec_header *h, uint8_t **out,
			size_t *out_len)
{
	size_t tlen = h->text ? h->text_len : 0;
	uint8_t *p = malloc(IOREC_HEADER_FIXED_LEN + tlen);

	if (!p)
		return -IOREC_E_NOMEM;
	memset(p, 0, IOREC_HEADER_FIXED_LEN);
	p[0] = h->endian;
	p[1] = h->long_size;
	iorec_put32(p + 4, h->page_size);
	iorec_put32(p + 8, h->subbuf_size);
	iorec_put32(p + 12, h->ncpus);
	iorec_put64(p + 16, h->flags);
	if (tlen)
		memcpy(p + IOREC_HEADER_FIXED_LEN, h->text, tlen);
	*out = p;
	*out_len = IOREC_HEADER_FIXED_LEN + tlen;
	return 0;
}

int iorec_header_parse(const uint8_t *payload, size_t len,
		       struct iorec_header *h)
{
	if (len < IOREC_HEADER_FIXED_LEN)
		return -IOREC_E_BAD_PAYLOAD;
	memset(h, 0, sizeof(*h));
	h->endian = payload[0];
	h->long_size = payload[1];
	h->page_size = iorec_get32(payload + 4);
	h->subbuf_size = iorec_get32(payload + 8);
	h->ncpus = iorec_get32(payload + 12);
	h->flags = iorec_get64(payload + 16);
	h->text = (const char *)payload + IOREC_HEADER_FIXED_LEN;
	h->text_len = len - IOREC_HEADER_FIXED_LEN;
	if (h->endian != IOREC_ENDIAN_LITTLE && h->endian != IOREC_ENDIAN_BIG)
		return -IOREC_E_BAD_PAYLOAD;
	if (h->long_size != 4 && h->long_size != 8)
		return -IOREC_E_BAD_PAYLOAD;
	if (!h->ncpus || h->ncpus > IOREC_MAX_CPUS)
		return -IOREC_E_BAD_PAYLOAD;
	if (h->subbuf_size < IOREC_MIN_SUBBUF ||
	    h->subbuf_size > IOREC_MAX_SUBBUF)
		return -IOREC_E_BAD_PAYLOAD;
	return 0;
}

int iorec_kv_get(const char *text, size_t len, const char *key, char *buf,
		 size_t bufsz)
{
	size_t klen = strlen(key);
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		if ((size_t)(eol - p) > klen && !memcmp(p, key, klen) &&
		    p[klen] == '=') {
			size_t vlen = (size_t)(eol - p) - klen - 1;
			size_t n = vlen < bufsz - 1 ? vlen : bufsz - 1;

			if (bufsz) {
				memcpy(buf, p + klen + 1, n);
				buf[n] = '\0';
			}
			return (int)vlen;
		}
		p = eol + 1;
	}
	return -1;
}

void iorec_data_desc_encode(const struct iorec_data_desc *d, uint8_t *out)
{
	iorec_put32(out, d->cpu);
	iorec_put32(out + 4, d->npages);
	iorec_put32(out + 8, d->subbuf_size);
	iorec_put32(out + 12, d->flags);
	iorec_put64(out + 16, d->first_ts);
	iorec_put64(out + 24, d->last_ts);
}

int iorec_data_desc_parse(const uint8_t *p, size_t len,
			  struct iorec_data_desc *d)
{
	if (len < IOREC_DATA_DESC_LEN)
		return -IOREC_E_BAD_PAYLOAD;
	d->cpu = iorec_get32(p);
	d->npages = iorec_get32(p + 4);
	d->subbuf_size = iorec_get32(p + 8);
	d->flags = iorec_get32(p + 12);
	d->first_ts = iorec_get64(p + 16);
	d->last_ts = iorec_get64(p + 24);
	/* CPU numbers are below the CPU count, itself at most IOREC_MAX_CPUS */
	if (d->subbuf_size < IOREC_MIN_SUBBUF ||
	    d->subbuf_size > IOREC_MAX_SUBBUF ||
	    d->cpu >= IOREC_MAX_CPUS || d->first_ts > d->last_ts)
		return -IOREC_E_BAD_PAYLOAD;
	return 0;
}

void iorec_chunk_hdr_put(uint8_t *p, const struct iorec_chunk_hdr *h)
{
	iorec_put32(p, IOREC_CHUNK_MAGIC);
	iorec_put16(p + 4, h->type);
	iorec_put16(p + 6, h->flags);
	iorec_put32(p + 8, h->seq);
	iorec_put32(p + 12, h->stored_len);
	iorec_put32(p + 16, h->raw_len);
	iorec_put32(p + 20, h->payload_crc);
	iorec_put32(p + 24, 0);		/* reserved */
	iorec_put32(p + 28, iorec_crc32c(0, p, 28));
}

int iorec_chunk_hdr_get(const uint8_t *p, struct iorec_chunk_hdr *h)
{
	h->type = iorec_get16(p + 4);
	h->flags = iorec_get16(p + 6);
	h->seq = iorec_get32(p + 8);
	h->stored_len = iorec_get32(p + 12);
	h->raw_len = iorec_get32(p + 16);
	h->payload_crc = iorec_get32(p + 20);
	if (iorec_get32(p) != IOREC_CHUNK_MAGIC)
		return -IOREC_E_CHUNK_MAGIC;
	if (iorec_get32(p + 28) != iorec_crc32c(0, p, 28))
		return -IOREC_E_HEADER_CRC;
	return 0;
}
