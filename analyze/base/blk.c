// SPDX-License-Identifier: MIT
/*
 * blk.c - the names of block operations and of a request's flags, device
 * numbers as text.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/blk.h"

char *blk_mm_str(unsigned int major, unsigned int minor, char *buf, size_t n)
{
	snprintf(buf, n, "%u:%u", major, minor);
	return buf;
}

/* One number of "MAJ:MIN" into *v: the character after it, or NULL. */
static const char *dev_num(const char *s, enum blk_dev_syntax syn,
			   unsigned int *v)
{
	unsigned long n = 0;
	char *end;

	if (syn == BLK_DEV_SCANF) {
		/* all sscanf's %u does: strtoul() after its own blanks */
		n = strtoul(s, &end, 10);
		if (end == s)
			return NULL;
		*v = (unsigned int)n;
		return end;
	}
	if (*s < '0' || *s > '9')
		return NULL;
	while (*s >= '0' && *s <= '9') {
		n = n * 10 + (unsigned long)(*s++ - '0');
		if (n > 0xffffffffUL)
			return NULL;
	}
	*v = (unsigned int)n;
	return s;
}

const char *blk_dev_parse(const char *s, enum blk_dev_syntax syn,
			  unsigned int *major, unsigned int *minor)
{
	unsigned int ma, mi;

	s = dev_num(s, syn, &ma);
	if (!s || *s != ':')
		return NULL;
	s = dev_num(s + 1, syn, &mi);
	if (!s)
		return NULL;
	*major = ma;
	*minor = mi;
	return s;
}

static const char *const op_names[BLK_OP_MAX] = {
	"read", "write", "flush", "discard", "other",
};

const char *blk_op_name(enum blk_op op)
{
	return op < BLK_OP_MAX ? op_names[op] : "?";
}

char *blk_rwbs(const struct blk_request *rq, char *buf)
{
	static const char letter[BLK_OP_MAX] = { 'R', 'W', 'F', 'D', 'N' };
	char *p = buf;

	/* a flush request is its own 'F': no preflush letter before it */
	if (rq->preflush && rq->op != BLK_OP_FLUSH)
		*p++ = 'F';
	*p++ = (unsigned int)rq->op < BLK_OP_MAX ? letter[rq->op] : 'N';
	if (rq->fua)
		*p++ = 'F';
	if (rq->ahead)
		*p++ = 'A';
	if (rq->sync)
		*p++ = 'S';
	if (rq->meta)
		*p++ = 'M';
	*p = '\0';
	return buf;
}

void blk_tally_add(struct blk_tally *t, const struct blk_request *rq)
{
	t->n[rq->op]++;
	t->bytes[rq->op] += rq->bytes;
}

void blk_tally_sum(struct blk_tally *t, const struct blk_tally *o)
{
	for (int op = 0; op < BLK_OP_MAX; op++) {
		t->n[op] += o->n[op];
		t->bytes[op] += o->bytes[op];
	}
}

uint64_t blk_tally_requests(const struct blk_tally *t)
{
	uint64_t n = 0;

	for (int op = 0; op < BLK_OP_MAX; op++)
		n += t->n[op];
	return n;
}
