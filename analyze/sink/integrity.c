// SPDX-License-Identifier: MIT
/*
 * integrity.c - what a damaged, truncated or partly unreadable recording
 * cost, said the same way by every view: one warning line of text, or
 * the "integrity" object of JSON (see sink.h).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbuf.h"
#include "base/err.h"
#include "input/meta.h"
#include "stats/filter.h"
#include "sink/json.h"
#include "sink/sink.h"

/* Where and why reading was cut short, if it was: false when not. */
static bool cut_at(const struct source_info *in, uint64_t *off,
		   const char **why)
{
	if (in->integrity == SOURCE_TRUNCATED) {
		*off = in->stop_offset;
		*why = in->stop_reason;
		return true;
	}
	if (in->truncated) {
		*off = in->truncated_offset;
		*why = in->truncated_reason;
		return true;
	}
	return false;
}

bool sink_damaged(const struct source_info *in)
{
	return in->integrity != SOURCE_COMPLETE || in->ndamaged ||
	       in->truncated || in->bad_formats;
}

/* The last event time read: the pass's when there was one. */
static uint64_t last_read(const struct source_info *in,
			  const struct stats *st)
{
	return st && st->last_ts ? st->last_ts : in->last_ts;
}

bool sink_integrity_line(const struct source_info *in,
			 const struct stats *st, struct sbuf *out)
{
	const char *sep = "";
	const char *why;
	uint64_t off;
	char t[META_SECS_LEN];

	if (!sink_damaged(in))
		return false;
	sbuf_addf(out, "warning: %s: ", in->path);
	if (in->ndamaged) {
		meta_damage_summary(in, out);
		sbuf_addf(out, "; %s events are missing from these figures",
			  in->ndamaged == 1 ? "its" : "their");
		sep = "; ";
	} else if (in->integrity == SOURCE_CORRUPT) {
		sbuf_addf(out, "corrupt at offset %" PRIu64 ": %s; nothing after it was read",
			  in->stop_offset, in->stop_reason ? in->stop_reason : "?");
		sep = "; ";
	}
	if (cut_at(in, &off, &why)) {
		meta_secs(t, sizeof(t), last_read(in, st));
		sbuf_addf(out, "%scut short at offset %" PRIu64 " (%s): nothing after %s s was read, so later I/O (the writeback of earlier writes too) is missing",
			  sep, off, why ? why : "?", t);
		if (in->kind == SOURCE_IOREC && !in->snapshot_end)
			sbuf_addstr(out, "; no end snapshot");
		sep = "; ";
	}
	if (in->bad_formats)
		sbuf_addf(out, "%s%u event format%s unreadable: %s events are not counted",
			  sep, in->bad_formats,
			  in->bad_formats == 1 ? "" : "s",
			  in->bad_formats == 1 ? "its" : "their");
	return true;
}

/* Lost events and gaps: the pass's, else what the reading counted. */
static uint64_t lost_of(const struct source_info *in, const struct stats *st,
			uint64_t *gaps)
{
	return st ? stats_lost(st, gaps) : source_info_missed(in, gaps);
}

void sink_lostcpu_json(struct json *j, int cpu, const struct lostcpu *c)
{
	json_i64(j, "cpu", cpu);
	json_u64(j, "gaps", c->gaps);
	json_u64(j, "events_known", c->events);
	json_u64(j, "gaps_unknown_size", c->unknown);
	json_u64(j, "missing_ns", c->missing_ns);
	json_u64(j, "longest_gap_from_ns", c->longest_from);
	json_u64(j, "longest_gap_to_ns", c->longest_to);
}

static void one_json(struct json *j, const struct source_info *in,
		     const struct stats *st)
{
	uint64_t gaps, lost = lost_of(in, st, &gaps), off;
	const char *why;
	bool cut = cut_at(in, &off, &why);

	json_object_begin(j, NULL);
	json_str(j, "path", in->path);
	json_str(j, "status", meta_integrity(in->integrity));
	if (in->integrity != SOURCE_COMPLETE) {
		json_u64(j, "stop_offset", in->stop_offset);
		json_str(j, "stop_reason", in->stop_reason);
	} else {
		json_null(j, "stop_offset");
		json_null(j, "stop_reason");
	}
	json_bool(j, "truncated", cut);
	if (cut)
		json_u64(j, "truncated_offset", off);
	else
		json_null(j, "truncated_offset");
	json_u64(j, "damaged_regions", (uint64_t)in->ndamaged);
	json_u64(j, "damaged_bytes", in->damaged_bytes);
	json_u64(j, "damaged_chunks", in->damaged_chunks);
	json_u64(j, "damaged_ns", in->damaged_ns);
	json_u64(j, "bad_formats", in->bad_formats);
	json_bool(j, "end_snapshot", in->snapshot_end != NULL ||
		  in->kind != SOURCE_IOREC);
	json_u64(j, "last_read_ns", last_read(in, st));
	json_u64(j, "lost_event_gaps", gaps);
	json_u64(j, "lost_events_known", lost);
	if (!st) {
		json_null(j, "lost_cpus");
		json_object_end(j);
		return;
	}
	/* the CPUs with a gap: how many, and the time without events */
	json_array_begin(j, "lost_cpus");
	for (int i = 0; i < st->nr_cpus; i++) {
		const struct lostcpu *c = &st->lost[i];

		if (!c->gaps)
			continue;
		json_object_begin(j, NULL);
		sink_lostcpu_json(j, i, c);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

/*
 * The events a pass saw lost, per CPU and per time span, the statement
 * every text view makes of them (after the warning line): nothing when
 * none was lost.
 */
static void lost_text(const struct stats *st, FILE *out, const char *pre)
{
	uint64_t gaps, lost = stats_lost(st, &gaps);
	struct meta_kstats k;

	if (!gaps)
		return;
	meta_kstats(st->info->stats, &k);
	fprintf(out, "%slost events: %s: %" PRIu64 " known in %" PRIu64
		" gap%s", pre, st->info->path, lost, gaps, gaps == 1 ? "" : "s");
	if (k.n)
		fprintf(out, " (the kernel counted %" PRIu64 ")",
			k.overrun + k.dropped);
	fputc('\n', out);
	for (int i = 0; i < st->nr_cpus; i++) {
		const struct lostcpu *c = &st->lost[i];
		char head[160], more[96] = "", tail[128];
		int n;

		if (!c->gaps)
			continue;
		n = snprintf(head, sizeof(head), "%s  cpu %d: %" PRIu64 " in %"
			     PRIu64 " gap%s", pre, i, c->events, c->gaps,
			     c->gaps == 1 ? "" : "s");
		if (c->unknown && i < k.n)
			snprintf(more, sizeof(more), " (%" PRIu64 " of unknown size;"
				 " the kernel counted %" PRIu64 ")", c->unknown,
				 k.cpu[i].overrun + k.cpu[i].dropped);
		else if (c->unknown)
			snprintf(more, sizeof(more), " (%" PRIu64
				 " of unknown size)", c->unknown);
		else if (i < k.n)
			snprintf(more, sizeof(more), " (the kernel counted %"
				 PRIu64 ")", k.cpu[i].overrun + k.cpu[i].dropped);
		snprintf(tail, sizeof(tail), "no events for %.3f s in all, the"
			 " longest +%.3f to +%.3f s", (double)c->missing_ns / 1e9,
			 (double)(c->longest_from - st->first_ts) / 1e9,
			 (double)(c->longest_to - st->first_ts) / 1e9);
		/* one line when it fits the width, else two */
		if ((size_t)n + strlen(more) + 2 + strlen(tail) > SINK_WIDTH)
			fprintf(out, "%s%s,\n%s    %s\n", head, more, pre, tail);
		else
			fprintf(out, "%s%s, %s\n", head, more, tail);
	}
	fprintf(out, "%s  counts and times are lower bounds where events are"
		" missing (every gap: ioreport summary)\n", pre);
	meta_kstats_release(&k);
}

void sink_integrity_json(struct json *j, const struct source_info *const *in,
			 const struct stats *const *st, int n)
{
	enum source_integrity worst = SOURCE_COMPLETE;
	struct sbuf sb = SBUF_INIT;
	bool damaged = false;

	for (int i = 0; i < n; i++) {
		if (in[i]->integrity > worst)
			worst = in[i]->integrity;
		if (sink_damaged(in[i])) {
			if (damaged)
				sbuf_addch(&sb, '\n');
			/* the text line without its "warning: " */
			sink_integrity_line(in[i], st ? st[i] : NULL, &sb);
			damaged = true;
		}
	}
	json_object_begin(j, "integrity");
	/* "partial": read to its end, but some event formats unreadable */
	json_str(j, "status", damaged && worst == SOURCE_COMPLETE ?
		 "partial" : meta_integrity(worst));
	json_bool(j, "complete", !damaged);
	json_str(j, "warning", damaged && !sb.failed ? sb.buf : NULL);
	json_array_begin(j, "recordings");
	for (int i = 0; i < n; i++)
		one_json(j, in[i], st ? st[i] : NULL);
	json_array_end(j);
	json_object_end(j);
	sbuf_release(&sb);
}

/* " kept R of N requests, C of M syscalls" of one recording's pass. */
static void kept_text(struct sbuf *out, const struct stats *st)
{
	const struct view_filter *f = st->filter;

	sbuf_addstr(out, " kept");
	if (st->have_block)
		sbuf_addf(out, " %" PRIu64 " of %" PRIu64 " requests%s",
			  f->requests_kept, f->requests,
			  st->have_sys ? "," : "");
	if (st->have_sys)
		sbuf_addf(out, " %" PRIu64 " of %" PRIu64 " syscalls",
			  f->calls_kept, f->calls);
}

void sink_filter_text(const struct stats *st, struct sbuf *out)
{
	if (!filter_active(st->filter))
		return;
	filter_text(st->filter, out);
	sbuf_addch(out, ';');
	kept_text(out, st);
}

static void filter_json(struct json *j, const char *key,
			const struct view_filter *f)
{
	if (!filter_active(f)) {
		json_null(j, key);
		return;
	}
	json_object_begin(j, key);
	json_array_begin(j, "pids");
	for (size_t i = 0; i < f->npids; i++)
		json_i64(j, NULL, f->pids[i]);
	json_array_end(j);
	json_array_begin(j, "comms");
	for (size_t i = 0; i < f->ncomms; i++)
		json_str(j, NULL, f->comms[i]);
	json_array_end(j);
	json_array_begin(j, "devices");
	for (size_t i = 0; i < f->ndevs; i++)
		json_str(j, NULL, f->devs[i]);
	json_array_end(j);
	json_array_begin(j, "units");
	for (size_t i = 0; i < f->nunits; i++)
		json_str(j, NULL, f->units[i]);
	json_array_end(j);
	json_array_begin(j, "containers");
	for (size_t i = 0; i < f->ncontainers; i++)
		json_str(j, NULL, f->containers[i]);
	json_array_end(j);
	json_array_begin(j, "cgroups");
	for (size_t i = 0; i < f->ncgroups; i++)
		json_str(j, NULL, f->cgroups[i]);
	json_array_end(j);
	json_str(j, "path", f->glob);
	if (f->have_since)
		json_u64(j, "since_ns", f->since_ns);
	else
		json_null(j, "since_ns");
	if (f->have_until)
		json_u64(j, "until_ns", f->until_ns);
	else
		json_null(j, "until_ns");
	json_u64(j, "min_ns", f->min_ns);
	json_u64(j, "requests", f->requests);
	json_u64(j, "requests_kept", f->requests_kept);
	json_u64(j, "syscalls", f->calls);
	json_u64(j, "syscalls_kept", f->calls_kept);
	json_object_end(j);
}

void view_filter_kept(struct sink *s, const struct stats *after)
{
	const struct view_filter *f = s->st->filter;
	struct sbuf sb = SBUF_INIT;

	if (s->csv)
		return;
	if (s->j) {
		filter_json(s->j, "filter", f);
		if (after)
			filter_json(s->j, "filter_after", after->filter);
		return;
	}
	if (!filter_active(f))
		return;
	sink_filter_text(s->st, &sb);
	if (after && filter_active(after->filter)) {
		sbuf_addstr(&sb, " (before);");
		kept_text(&sb, after);
		sbuf_addstr(&sb, " (after)");
	}
	fprintf(s->out, "%sfilter: %s\n", s->snooping ? "# " : "",
		sb.buf ? sb.buf : "");
	sink_fail(s, AN_SBUF_ERR(&sb));
	sbuf_release(&sb);
}

void view_integrity(struct sink *s, const struct stats *after)
{
	const struct stats *st[2] = { s->st, after };
	const struct source_info *in[2] = { s->st->info,
					    after ? after->info : NULL };
	int n = after ? 2 : 1;

	/* CSV (a JSON table) has rows only: the warning goes to stderr too */
	if (s->j)
		sink_integrity_json(s->j, in, st, n);
	if (s->j && !s->csv)
		return;
	for (int i = 0; i < n; i++) {
		struct sbuf sb = SBUF_INIT;

		if (sink_integrity_line(in[i], st[i], &sb) && !sb.failed)
			fprintf(s->csv ? stderr : s->out, "%s%s\n",
				s->snooping && !s->csv ? "# " : "", sb.buf);
		lost_text(st[i], s->csv ? stderr : s->out,
			  s->snooping && !s->csv ? "# " : "");
		sink_fail(s, AN_SBUF_ERR(&sb));
		sbuf_release(&sb);
	}
}
