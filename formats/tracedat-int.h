/* SPDX-License-Identifier: MIT */
/*
 * tracedat-int.h - byte-order helpers and id lists shared by the trace.dat
 * writer and reader (not installed): a trace.dat stores its numbers in the
 * byte order its header names.  Little-endian numbers are those of the .iorec
 * container (iorec_put32(), iorec_get32(), ...); only the big-endian order
 * is written out here.
 */
#ifndef TRACEDAT_INT_H
#define TRACEDAT_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "iorec/format.h"
#include "tracedat.h"

/*
 * The case labels of the v7 metadata sections a v7 file finds through an
 * option of the same id holding the section's offset (the reader follows
 * them; the writer writes them itself, so no caller may add one).
 */
#define TRACEDAT_META_SEC_CASES \
	case TRACEDAT_SEC_HEADER_INFO: case TRACEDAT_SEC_FTRACE_EVENTS: \
	case TRACEDAT_SEC_EVENT_FORMATS: case TRACEDAT_SEC_KALLSYMS: \
	case TRACEDAT_SEC_PRINTK: case TRACEDAT_SEC_CMDLINES

static inline void td_put16(uint8_t *p, uint16_t v, bool be)
{
	if (be) {
		p[0] = v >> 8; p[1] = v;
	} else {
		iorec_put16(p, v);
	}
}

static inline void td_put32(uint8_t *p, uint32_t v, bool be)
{
	if (be) {
		p[0] = v >> 24; p[1] = v >> 16; p[2] = v >> 8; p[3] = v;
	} else {
		iorec_put32(p, v);
	}
}

static inline void td_put64(uint8_t *p, uint64_t v, bool be)
{
	if (be) {
		td_put32(p, (uint32_t)(v >> 32), true);
		td_put32(p + 4, (uint32_t)v, true);
	} else {
		iorec_put64(p, v);
	}
}

static inline uint16_t td_get16(const uint8_t *p, bool be)
{
	return be ? (uint16_t)(p[0] << 8 | p[1]) : iorec_get16(p);
}

static inline uint32_t td_get32(const uint8_t *p, bool be)
{
	if (be)
		return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		       (uint32_t)p[2] << 8 | (uint32_t)p[3];
	return iorec_get32(p);
}

static inline uint64_t td_get64(const uint8_t *p, bool be)
{
	if (be)
		return (uint64_t)td_get32(p, true) << 32 | td_get32(p + 4, true);
	return iorec_get64(p);
}

#endif /* TRACEDAT_INT_H */
