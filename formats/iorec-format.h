/* SPDX-License-Identifier: MIT */
/*
 * iorec-format.h - the .iorec container for the code of this tree: the
 * public API of libiorec (iorec/format.h), which is all there is.
 */
#ifndef IOREC_FORMAT_INTERNAL_H
#define IOREC_FORMAT_INTERNAL_H

#include "iorec/format.h"

#endif /* IOREC_FORMAT_INTERNAL_H */
