// SPDX-License-Identifier: MIT
/*
 * sink.c - what every sink shares (see sink.h): device names and the
 * formats of devices and times.
 */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/blk.h"
#include "base/err.h"
#include "input/meta.h"
#include "sink/sink.h"
#include "sink/table.h"
#include "stats/rows.h"

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

int sink_call_pid(const struct stats *st, const struct sys_call *c,
		  int proc_id)
{
	struct proc_info pi;

	return rows_proc_at(st, proc_id, &pi) ? pi.pid : c->tid;
}

size_t sink_top(long top, long n)
{
	return top >= 0 && top < n ? (size_t)top : (size_t)(n > 0 ? n : 0);
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
		blk_dev_str(dev, name, 64);
	return name;
}

const char *sink_cut_tail(const char *str, size_t room, char *buf, size_t n)
{
	size_t len = str ? strlen(str) : 0;

	if (!str || len <= room || room < 4)
		return str;
	snprintf(buf, n, "...%s", str + len - (room - 3));
	return buf;
}

const char *sink_tail(const struct sink *s, const char *str, size_t room,
		      char *buf, size_t n)
{
	return s->wide ? str : sink_cut_tail(str, room, buf, n);
}

const char *sink_head(const struct sink *s, const char *str, size_t room,
		      char *buf, size_t n)
{
	if (!str || s->wide || strlen(str) <= room || room < 2)
		return str;
	snprintf(buf, n, "%.*s~", (int)(room - 1), str);
	return buf;
}

void sink_line_begin(struct sink_line *l, const struct sink *s,
		     const char *pre, const char *lead)
{
	l->s = s;
	l->pre = pre;
	l->items = 0;
	fprintf(s->out, "%s%s", pre, lead);
	l->col = strlen(pre) + strlen(lead);
}

void sink_line_add(struct sink_line *l, const char *fmt, ...)
{
	char buf[256];
	size_t len;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	len = strlen(buf) + (l->items ? 2 : 1);
	/* room for the comma a next item would put after this one */
	if (l->items && !l->s->wide && l->col + len + 1 > SINK_WIDTH) {
		fprintf(l->s->out, ",\n%s    %s", l->pre, buf);
		l->col = strlen(l->pre) + 4 + strlen(buf);
	} else {
		fprintf(l->s->out, "%s %s", l->items ? "," : "", buf);
		l->col += len;
	}
	l->items++;
}

void sink_line_end(struct sink_line *l)
{
	fputc('\n', l->s->out);
}

/* One line of text (no newline) wrapped at SINK_WIDTH. */
static void wrap_line(FILE *out, const char *p, size_t len)
{
	size_t width = SINK_WIDTH, indent = 0;

	while (p[indent] == ' ' && indent < len)
		indent++;
	indent += 4;
	while (len > width) {
		size_t cut = width;

		while (cut > indent && p[cut] != ' ')
			cut--;
		if (cut <= indent)
			break;		/* one word longer than the line */
		fprintf(out, "%.*s\n%*s", (int)cut, p, (int)indent, "");
		p += cut + 1;
		len -= cut + 1;
		width = SINK_WIDTH - indent;
	}
	fwrite(p, 1, len, out);
}

void sink_printf(const struct sink *s, const char *fmt, ...)
{
	char buf[8192];
	const char *p, *nl;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (s->wide) {
		fputs(buf, s->out);
		return;
	}
	for (p = buf; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		wrap_line(s->out, p, nl ? (size_t)(nl - p) : strlen(p));
		if (!nl)
			break;
		fputc('\n', s->out);
	}
}

bool sink_wallclock(const struct source_info *in, uint64_t ts, bool date,
		    char *buf, size_t n)
{
	struct meta_wall w;
	struct tm tm;
	uint64_t wall;
	time_t sec;

	if (n)
		buf[0] = '\0';
	if (!meta_wall(in->header_text, &w))
		return false;
	/* the recording machine's local time, when the header says its zone */
	wall = ts >= w.mono_ns ? w.local_ns + (ts - w.mono_ns) :
				 w.local_ns - (w.mono_ns - ts);
	sec = (time_t)(wall / 1000000000);
	if (!gmtime_r(&sec, &tm))
		return false;
	if (date)
		snprintf(buf, n, "%04d-%02d-%02d %02d:%02d:%02d.%06u%s",
			 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
			 tm.tm_hour, tm.tm_min, tm.tm_sec,
			 (unsigned)(wall % 1000000000 / 1000), w.zone);
	else
		snprintf(buf, n, "%02d:%02d:%02d.%06u", tm.tm_hour, tm.tm_min,
			 tm.tm_sec, (unsigned)(wall % 1000000000 / 1000));
	return true;
}

void sink_time(const struct sink *s, char *buf, size_t n, uint64_t ts)
{
	if (s->wallclock && sink_wallclock(s->st->info, ts, false, buf, n))
		return;
	if (s->trace_clock)
		meta_secs(buf, n, ts);
	else
		meta_secs(buf, n, ts >= s->st->first_ts ? ts - s->st->first_ts : 0);
}

void sink_csv_str(FILE *out, const char *str)
{
	if (str)
		table_csv_field(out, str);
}
