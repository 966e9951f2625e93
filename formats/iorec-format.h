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

#endif /* IOREC_FORMAT_INTERNAL_H */
