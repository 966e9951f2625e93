// SPDX-License-Identifier: MIT
/*
 * view-trigger.c - what made a black-box snapshot (stats/trigger.h), at
 * the head of findings (text and JSON), info and the HTML page: the
 * condition, when it fired in the clock of the views, and the call or
 * request that fired, named as the views name it.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/blk.h"
#include "base/syskind.h"
#include "base/units.h"
#include "input/meta.h"
#include "sbuf.h"
#include "stats/trigger.h"
#include "sink/json.h"
#include "sink/sink.h"

/* The time the pass measured for what fired (the recorder's if not found). */
static uint64_t trig_value(const struct stats_trigger *t)
{
	if (t->found && t->what == TRIG_W_CALL)
		return t->c.end - t->c.start;
	if (t->found && t->what == TRIG_W_REQUEST)
		return t->d.rq.complete_ts - t->d.rq.issue_ts;
	if (t->found && t->what == TRIG_W_IOWAIT)
		return t->dstate_ns;
	return t->value_ns;
}

static const char *trig_comm(const struct sink *s,
			     const struct stats_trigger *t)
{
	/* gone before the recorder looked: the events know it */
	if (!*t->comm || !strcmp(t->comm, "?"))
		return stats_comm(s->st, t->pid);
	return t->comm;
}

/* "fsync(fd 5) of /data/db took 612 ms", as the views found it */
static void what_fired(const struct sink *s, const struct stats_trigger *t,
		       struct sbuf *out)
{
	char dur[UNITS_BUF], sz[UNITS_BUF], name[64], type[BLK_RWBS_LEN];
	const char *path;

	units_dur(dur, sizeof(dur), (double)trig_value(t));
	if (t->found && t->what == TRIG_W_CALL) {
		path = stats_call_file(&t->c);
		sbuf_addf(out, "pid %d (%s) %s(fd %d)%s%s took %s", t->pid,
			  trig_comm(s, t), sys_kind_info(t->c.kind)->name,
			  t->c.fd, path ? " of " : "", path ? path : "", dur);
		return;
	}
	if (t->found && t->what == TRIG_W_REQUEST) {
		const struct blk_request *rq = &t->d.rq;

		path = stats_request_file(s->st, &t->d);
		blk_rwbs(rq, type);
		units_bytes(sz, sizeof(sz), (double)rq->bytes);
		sbuf_addf(out, "a %s %s request (%s) on %s sector %" PRIu64
			  " took %s on the device", sz, blk_op_name(rq->op),
			  type, stats_dev_name(s->st, rq->dev, name,
					       sizeof(name)),
			  rq->sector, dur);
		if (t->pid > 0)
			sbuf_addf(out, ", issued by pid %d (%s)", t->pid,
				  trig_comm(s, t));
		if (path)
			sbuf_addf(out, ", of %s", path);
		return;
	}
	if (t->what == TRIG_W_IOWAIT) {
		uint64_t first = s->st->info->first_ts;
		uint64_t from = t->ts > t->window_ns ? t->ts - t->window_ns : 0;
		char win[UNITS_BUF];

		units_dur(win, sizeof(win), (double)t->window_ns);
		sbuf_addf(out, "pid %d (%s) waited %s in D state (uninterruptible, on I/O) in the %s before",
			  t->pid, trig_comm(s, t), dur, win);
		/* a window the recording does not hold whole: how much it
		   holds, as the sentence's end says it ("%.1f s before it") */
		if (first > from && first < t->ts)
			sbuf_addf(out, ", of which the recording holds %.1f s",
				  (double)(t->ts - first) / 1e9);
		return;
	}
	if (t->pid > 0)
		sbuf_addf(out, "pid %d (%s) %s", t->pid, trig_comm(s, t),
			  t->detail);
	else
		sbuf_addstr(out, t->detail);
}

bool sink_snapshot_line(const struct sink *s, struct sbuf *out)
{
	const struct source_info *in = s->st->info;
	const struct stats_trigger *t = s->st->trig;
	char tm[64], wall[64];
	uint64_t end;

	if (!t)
		return false;
	if (!t->fired) {
		sink_time(s, tm, sizeof(tm), t->snap_ts);
		sbuf_addf(out, "snapshot asked for (SIGUSR1) at %s s", tm);
		if (sink_wallclock(in, t->snap_ts, false, wall, sizeof(wall)))
			sbuf_addf(out, " (%s)", wall);
		if (in->first_ts && t->snap_ts > in->first_ts)
			sbuf_addf(out, "; the window holds the %.1f s before it",
				  (double)(t->snap_ts - in->first_ts) / 1e9);
		return true;
	}
	sink_time(s, tm, sizeof(tm), t->ts);
	sbuf_addf(out, "snapshot triggered by %s at %s s", t->cond, tm);
	if (sink_wallclock(in, t->ts, false, wall, sizeof(wall)))
		sbuf_addf(out, " (%s)", wall);
	sbuf_addstr(out, ": ");
	what_fired(s, t, out);
	/* an iowait fires at the end of the wait that passed it */
	end = t->ts + (t->what == TRIG_W_IOWAIT ? 0 : trig_value(t));
	if (in->first_ts && t->ts >= in->first_ts && in->last_ts >= end)
		sbuf_addf(out, "; the window holds %.1f s before it and %.1f s after",
			  (double)(t->ts - in->first_ts) / 1e9,
			  (double)(in->last_ts - end) / 1e9);
	else if (t->what != TRIG_W_NONE && !t->found)
		sbuf_addstr(out, "; it is not in the window");
	return true;
}

static void opt_u64(struct json *j, const char *key, bool have, uint64_t v)
{
	if (have)
		json_u64(j, key, v);
	else
		json_null(j, key);
}

void sink_trigger_json(const struct sink *s)
{
	const struct source_info *in = s->st->info;
	const struct stats_trigger *t = s->st->trig;
	struct json *j = s->j;
	struct sbuf line = SBUF_INIT;
	bool call = t && t->what == TRIG_W_CALL, req = t && t->what ==
		    TRIG_W_REQUEST;
	char mm[32], name[64];
	uint64_t v, end, at;

	if (!t) {
		json_null(j, "trigger");
		return;
	}
	v = trig_value(t);
	at = t->fired ? t->ts : t->snap_ts;
	end = t->fired ? at + v : at;
	if (t->fired && t->what == TRIG_W_IOWAIT) {
		/* the window the D state was summed over, up to the firing */
		end = t->ts;
		at = t->ts > t->window_ns ? t->ts - t->window_ns : 0;
	}
	json_object_begin(j, "trigger");
	json_str(j, "snapshot", t->fired ? "trigger" : "request");
	json_u64(j, "snapshot_ns", t->snap_ts);
	json_str(j, "condition", t->fired ? t->cond : NULL);
	opt_u64(j, "start_ns", t->fired, at);
	opt_u64(j, "end_ns", t->fired, end);
	opt_u64(j, "value_ns", t->fired, v);
	opt_u64(j, "recorded_value_ns", t->fired, t->value_ns);
	if (t->fired && t->pid > 0) {
		json_i64(j, "pid", t->pid);
		json_str(j, "comm", trig_comm(s, t));
	} else {
		json_null(j, "pid");
		json_null(j, "comm");
	}
	json_str(j, "detail", t->fired ? t->detail : NULL);
	json_str(j, "syscall", call && t->found ?
		 sys_kind_info(t->c.kind)->name : call && *t->call ?
		 t->call : NULL);
	if (call && (t->found || t->fd >= 0))
		json_i64(j, "fd", t->found ? t->c.fd : t->fd);
	else
		json_null(j, "fd");
	if (req && t->dev) {
		blk_dev_str(t->dev, mm, sizeof(mm));
		json_str(j, "dev", mm);
		json_str(j, "device", stats_dev_name(s->st, t->dev, name,
						     sizeof(name)));
		json_u64(j, "sector", t->sector);
		json_u64(j, "bytes", t->found ? t->d.rq.bytes : t->bytes);
	} else {
		json_null(j, "dev");
		json_null(j, "device");
		json_null(j, "sector");
		json_null(j, "bytes");
	}
	json_bool(j, "found", t->found);
	json_str(j, "path", !t->found ? NULL : call ?
		 stats_call_file(&t->c) : stats_request_file(s->st, &t->d));
	opt_u64(j, "before_ns", in->first_ts && at >= in->first_ts,
		at - in->first_ts);
	opt_u64(j, "after_ns", t->fired && in->last_ts >= end,
		in->last_ts - end);
	sink_snapshot_line(s, &line);
	json_str(j, "sentence", line.buf);
	json_object_end(j);
	sbuf_release(&line);
}
