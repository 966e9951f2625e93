// SPDX-License-Identifier: MIT
/*
 * sink.c - what every sink shares (see sink.h): device names and the
 * formats of devices and times.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "input/meta.h"
#include "sink/sink.h"

void sink_init(struct sink *s, struct stats *st, FILE *out, struct json *j)
{
	memset(s, 0, sizeof(*s));
	s->st = st;
	s->out = out;
	s->j = j;
}

void sink_release(struct sink *s)
{
	free(s->names);
	s->names = NULL;
	s->nnames = s->names_alloc = 0;
}

void sink_fail(struct sink *s, long rc)
{
	if (rc < 0 && !s->err)
		s->err = (int)rc;
}

size_t sink_top(long top, long n)
{
	return top >= 0 && top < n ? (size_t)top : (size_t)(n > 0 ? n : 0);
}

void sink_dev_mm(uint32_t dev, char *buf, size_t n)
{
	snprintf(buf, n, "%u:%u", dev >> 20, dev & ((1u << 20) - 1));
}

void sink_secs(char *buf, size_t n, uint64_t ts)
{
	snprintf(buf, n, "%" PRIu64 ".%06" PRIu64, ts / 1000000000,
		 ts % 1000000000 / 1000);
}

const char *sink_dev_name(struct sink *s, uint32_t dev)
{
	struct devname *d;
	char *name;

	for (size_t i = 0; i < s->nnames; i++)
		if (s->names[i].dev == dev)
			return s->names[i].name;
	/* the cache cannot grow: name it without keeping it */
	if (an_grow(&s->names, &s->names_alloc, s->nnames + 1,
		    sizeof(*s->names), 8)) {
		name = s->name_buf;
	} else {
		d = &s->names[s->nnames++];
		d->dev = dev;
		name = d->name;
	}
	if (!meta_dev_name(s->st->info->snapshot_start, dev, name, 64))
		sink_dev_mm(dev, name, 64);
	return name;
}
