/* SPDX-License-Identifier: MIT */
/*
 * iorec-format.h - the .iorec container for the code of this tree: the
 * public API of libiorec (iorec/format.h), which is all there is.
 */
#ifndef IOREC_FORMAT_INTERNAL_H
#define IOREC_FORMAT_INTERNAL_H

#include "iorec/format.h"

/*
 * The bounds iorec_header_parse() and iorec_data_desc_parse() hold a
 * recording to: at most IOREC_MAX_CPUS CPUs, so CPU numbers below it, and
 * sub-buffers of IOREC_MIN_SUBBUF to IOREC_MAX_SUBBUF bytes.  Not in
 * iorec/format.h: they bound what this tree reads, not the format.
 */
#define IOREC_MAX_CPUS		8192u
#define IOREC_MIN_SUBBUF	64u
#define IOREC_MAX_SUBBUF	(16u << 20)
/* The header's "trigger" value: the condition as given, NUL included. */
#define IOREC_TRIGGER_LEN	48u

/* The fields of a chunk header (32 bytes on disk, iorec(5) CHUNKS). */
struct iorec_chunk_hdr {
	uint16_t type, flags;
	uint32_t seq;
	uint32_t stored_len, raw_len;
	uint32_t payload_crc;
};
/* h as the 32 bytes at p, with the magic and the header's CRC. */
void iorec_chunk_hdr_put(uint8_t *p, const struct iorec_chunk_hdr *h);
/*
 * The chunk header at p into *h: 0, -IOREC_E_CHUNK_MAGIC (not a chunk)
 * or -IOREC_E_HEADER_CRC (a damaged one); *h is filled in every case.
 */
int iorec_chunk_hdr_get(const uint8_t *p, struct iorec_chunk_hdr *h);

/*
 * iorec_crc32c_repair1 - mend one damaged byte of buf[0..len) whose
 * CRC-32C should be want: 0 when it is, 1 when exactly one byte changed
 * explains the difference (that byte is mended, *pos says where), -1
 * when none or several do (buf unchanged).  Only the CRC vouches for the
 * result: callers check what they can (a zstd frame that decodes to its
 * size).
 */
int iorec_crc32c_repair1(uint8_t *buf, size_t len, uint32_t want,
			 size_t *pos);

#endif /* IOREC_FORMAT_INTERNAL_H */
