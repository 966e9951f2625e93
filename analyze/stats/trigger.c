// SPDX-License-Identifier: MIT
/*
 * trigger.c - what made a black-box snapshot (trigger.h): the header's
 * keys, and the call or request that fired found in the pass by what
 * the recorder wrote of it (the thread and enter time of an fsync; the
 * device, sector and completion of a request).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/syskind.h"
#include "input/meta.h"
#include "replay/proctable.h"
#include "stats/trigger.h"
#include "util.h"

static uint64_t kv_u64(const char *h, const char *key, uint64_t dflt)
{
	char v[64];

	return meta_kv(h, key, v, sizeof(v)) && *v ?
	       strtoull(v, NULL, 10) : dflt;
}

/* "a\\tb" as written by the recorder: \\, \t, \n */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			*o++ = *s == 't' ? '\t' : *s == 'n' ? '\n' : *s;
		} else {
			*o++ = *s;
		}
	}
	*o = 0;
}

int stats_trigger_load(struct stats *st)
{
	const char *h = st->info ? st->info->header_text : NULL;
	struct stats_trigger *t;
	char v[64];
	unsigned int maj, min;

	if (!h || !meta_kv(h, "snapshot", v, sizeof(v)))
		return 0;
	t = an_calloc(1, sizeof(*t));
	if (!t)
		return -AN_E_NOMEM;
	st->trig = t;
	t->fd = -1;
	t->snap_ts = kv_u64(h, "snapshot_mono_ns", 0);
	if (strcmp(v, "trigger") ||
	    !meta_kv(h, "trigger", t->cond, sizeof(t->cond)))
		return 0;
	t->fired = true;
	t->ts = kv_u64(h, "trigger_ts", 0);
	t->value_ns = kv_u64(h, "trigger_value_ns", 0);
	t->pid = (int)kv_u64(h, "trigger_pid", 0);
	t->cpu = (int)kv_u64(h, "trigger_cpu", 0);
	meta_kv(h, "trigger_comm", t->comm, sizeof(t->comm));
	meta_kv(h, "trigger_detail", t->detail, sizeof(t->detail));
	unescape(t->comm);
	unescape(t->detail);
	if (!strncmp(t->cond, "fsync", 5)) {
		t->what = TRIG_W_CALL;
		meta_kv(h, "trigger_call", t->call, sizeof(t->call));
		if (meta_kv(h, "trigger_fd", v, sizeof(v)) && *v)
			t->fd = atoi(v);
	} else if (!strncmp(t->cond, "d2c", 3)) {
		t->what = TRIG_W_REQUEST;
		if (meta_kv(h, "trigger_dev", v, sizeof(v)) &&
		    sscanf(v, "%u:%u", &maj, &min) == 2)
			t->dev = maj << 20 | min;
		t->sector = kv_u64(h, "trigger_sector", 0);
		t->bytes = kv_u64(h, "trigger_bytes", 0);
	} else if (!strncmp(t->cond, "throttle", 8)) {
		t->what = TRIG_W_THROTTLE;
	} else if (!strncmp(t->cond, "iowait>", 7)) {
		/* iowait>TIME[/WINDOW]: fired at the end of a wait, ts */
		const char *w = strchr(t->cond, '/');
		int64_t ns = w ? parse_duration(w + 1) : 0;

		t->what = TRIG_W_IOWAIT;
		t->window_ns = ns > 0 ? (uint64_t)ns : 10000000000ull;
	}
	return 0;
}

void stats_trigger_dstate(struct stats *st, int pid, uint64_t start,
			  uint64_t end)
{
	struct stats_trigger *t = st->trig;
	uint64_t lo, hi;

	if (!t || t->what != TRIG_W_IOWAIT || pid != t->pid)
		return;
	lo = t->ts > t->window_ns ? t->ts - t->window_ns : 0;
	hi = t->ts;
	if (start < lo)
		start = lo;
	if (end > hi)
		end = hi;
	if (end <= start)
		return;
	t->found = true;
	t->dstate_ns += end - start;
}

void stats_trigger_call(struct stats *st, const struct proc *p,
			const struct file *f, const struct sys_call *c)
{
	struct stats_trigger *t = st->trig;

	if (!t || t->what != TRIG_W_CALL || t->found || !c->paired ||
	    c->tid != t->pid || c->start != t->ts ||
	    !(sys_kind_info(c->kind)->flags & SKF_FSYNC))
		return;
	t->found = true;
	memset(&t->c, 0, sizeof(t->c));
	t->c.kind = c->kind;
	t->c.pid = p->pid;
	t->c.tid = c->tid;
	snprintf(t->c.comm, sizeof(t->c.comm), "%s", p->comm ? p->comm : "");
	t->c.fd = sys_call_fd(c);
	t->c.file = f;
	t->c.start = c->start;
	t->c.end = c->end;
	t->c.ret = c->ret;
}

void stats_trigger_request(struct stats *st, const struct blk_done *d)
{
	struct stats_trigger *t = st->trig;

	/* the recorder's device time: issue to completion */
	if (!t || t->what != TRIG_W_REQUEST || t->found || !t->dev ||
	    d->rq.dev != t->dev || d->rq.sector != t->sector ||
	    d->rq.complete_ts != t->ts + t->value_ns)
		return;
	t->found = true;
	t->d = *d;
}
