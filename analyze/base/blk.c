// SPDX-License-Identifier: MIT
/*
 * blk.c - the names of block operations.
 */
#include "config.h"

#include "base/blk.h"

static const char *const op_names[BLK_OP_MAX] = {
	"read", "write", "flush", "discard", "other",
};

const char *blk_op_name(enum blk_op op)
{
	return op < BLK_OP_MAX ? op_names[op] : "?";
}
