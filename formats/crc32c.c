// SPDX-License-Identifier: MIT
/*
 * crc32c.c - CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the
 * checksum of every chunk header and payload.  Slicing-by-8: eight bytes a
 * step through eight 256-entry tables, several times faster than a byte at
 * a time, which matters because every payload byte is checked on reading.
 */
#include "config.h"

#include <string.h>

#include "iorec-format.h"

static uint32_t crc_table[8][256];
static int crc_ready;

static void crc_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0x82F63B78u : c >> 1;
		crc_table[0][i] = c;
	}
	for (uint32_t i = 0; i < 256; i++)
		for (int t = 1; t < 8; t++)
			crc_table[t][i] = (crc_table[t - 1][i] >> 8) ^
				crc_table[0][crc_table[t - 1][i] & 0xff];
	crc_ready = 1;
}

uint32_t iorec_crc32c(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	if (!crc_ready)
		crc_init();
	crc = ~crc;
	while (len && ((uintptr_t)p & 7)) {
		crc = crc_table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
		len--;
	}
	while (len >= 8) {
		/* little-endian order of the bytes, whatever the host */
		uint32_t lo = crc ^ iorec_get32(p);
		uint32_t hi = iorec_get32(p + 4);

		crc = crc_table[7][lo & 0xff] ^ crc_table[6][(lo >> 8) & 0xff] ^
		      crc_table[5][(lo >> 16) & 0xff] ^ crc_table[4][lo >> 24] ^
		      crc_table[3][hi & 0xff] ^ crc_table[2][(hi >> 8) & 0xff] ^
		      crc_table[1][(hi >> 16) & 0xff] ^ crc_table[0][hi >> 24];
		p += 8;
		len -= 8;
	}
	while (len--)
		crc = crc_table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

/*
 * Single-byte repair.  The CRC is affine in the data: for a fixed length,
 * crc(m ^ E) ^ crc(m) depends on E alone, and for one byte e at position
 * i it is f^(len-1-i)(T[e]), where T is crc_table[0] (the byte e fed into
 * a zero register) and f feeds a zero byte (s -> T[s & 0xff] ^ s >> 8).
 * The top byte of T[b] differs for every b, so f can be undone:
 * b = inv_top[t >> 24], s = (t ^ T[b]) << 8 | b.  Undoing f step by step
 * from the syndrome finds every (i, e) that explains it in len steps.
 */
static uint8_t inv_top[256];
static int inv_ready;	/* 1: ready, -1: the table has no such property */

static int inv_init(void)
{
	bool seen[256] = { false };

	if (!crc_ready)
		crc_init();
	for (int b = 0; b < 256; b++) {
		uint8_t top = (uint8_t)(crc_table[0][b] >> 24);

		if (seen[top])
			return inv_ready = -1;
		seen[top] = true;
		inv_top[top] = (uint8_t)b;
	}
	return inv_ready = 1;
}

int iorec_crc32c_repair1(uint8_t *buf, size_t len, uint32_t want,
			 size_t *pos)
{
	uint32_t s = want ^ iorec_crc32c(0, buf, len);
	size_t at = 0;
	uint8_t val = 0;
	int found = 0;

	if (!s)
		return 0;
	if (inv_ready == 0)
		inv_init();
	if (inv_ready < 0)
		return -1;
	for (size_t k = 0; k < len; k++) {
		uint8_t e = inv_top[s >> 24], b;

		if (crc_table[0][e] == s) {
			if (++found > 1)
				return -1;
			at = len - 1 - k;
			val = e;
		}
		b = inv_top[s >> 24];
		s = ((s ^ crc_table[0][b]) << 8) | b;
	}
	if (found != 1)
		return -1;
	buf[at] ^= val;
	*pos = at;
	return 1;
}
