/* SPDX-License-Identifier: MIT */
/*
 * tdtool.h - what the trace.dat test programs share: the hash they print
 * over pages and records, so that two programs reading the same bytes
 * print the same numbers.
 */
#ifndef TDTOOL_H
#define TDTOOL_H

#include <stddef.h>
#include <stdint.h>

#define TD_FNV_INIT 0xcbf29ce484222325ull

/* FNV-1a, 64 bits, continued from h. */
static inline uint64_t td_fnv(uint64_t h, const void *data, size_t len)
{
	const uint8_t *p = data;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/* A record: its timestamp, size and data bytes, host order. */
static inline uint64_t td_fnv_record(uint64_t h, uint64_t ts, uint32_t size,
				     const void *data)
{
	h = td_fnv(h, &ts, sizeof(ts));
	h = td_fnv(h, &size, sizeof(size));
	return td_fnv(h, data, size);
}

#endif /* TDTOOL_H */
