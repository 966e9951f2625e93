// SPDX-License-Identifier: MIT
/*
 * view-findings.c - the findings of a recording (stats/findings.h) as
 * ranked sentences with the command that shows more, or as JSON
 * objects of a stable shape (rule, severity, entities, numbers,
 * sentence); the top few at the head of the report, and what changed
 * between two recordings at the head of the diff (see sink.h).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/findings.h"
#include "sink/json.h"
#include "sink/sink.h"

#define WIDTH	100

/* Text wrapped at WIDTH columns, the first line after lead, the rest indented. */
static void wrap(FILE *out, const char *lead, int indent, const char *text)
{
	int col = fprintf(out, "%s", lead);

	while (*text) {
		const char *sp = strchr(text, ' ');
		int len = sp ? (int)(sp - text) : (int)strlen(text);

		if (col > indent && col + 1 + len > WIDTH) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		col += fprintf(out, "%.*s", len, text);
		text += len;
		while (*text == ' ')
			text++;
	}
	fputc('\n', out);
}

static void finding_text(FILE *out, size_t rank, const struct finding *x,
			 const char *prefix)
{
	char lead[96];

	snprintf(lead, sizeof(lead), "%3zu. %s[%s] %s:", rank, prefix,
		 x->caveat ? "caveat" : fnd_severity_name(x->sev), x->rule);
	wrap(out, lead, 7, x->sentence);
	fprintf(out, "       more: %s\n", x->more);
}

static void finding_json(struct json *j, size_t rank, const struct finding *x)
{
	json_object_begin(j, NULL);
	json_u64(j, "rank", rank);
	json_str(j, "rule", x->rule);
	json_str(j, "severity", fnd_severity_name(x->sev));
	json_bool(j, "caveat", x->caveat);
	json_u64(j, "lost_ns", x->lost_ns);
	json_array_begin(j, "entities");
	for (int k = 0; k < x->nent; k++) {
		json_object_begin(j, NULL);
		json_str(j, "kind", x->ent[k].kind);
		json_str(j, "name", x->ent[k].name);
		if (x->ent[k].id >= 0)
			json_i64(j, "id", x->ent[k].id);
		else
			json_null(j, "id");
		json_object_end(j);
	}
	json_array_end(j);
	json_object_begin(j, "numbers");
	for (int k = 0; k < x->nnum; k++)
		json_num(j, x->num[k].key, x->num[k].v);
	json_object_end(j);
	json_str(j, "sentence", x->sentence);
	json_str(j, "more", x->more);
	json_object_end(j);
}

/* Print (top < 0: all) of f, as the member "findings" in JSON. */
static void print_findings(struct sink *s, const struct findings *f, long top,
			   bool head)
{
	size_t n = sink_top(top, (long)f->n);

	if (s->j) {
		json_array_begin(s->j, "findings");
		for (size_t i = 0; i < n; i++)
			finding_json(s->j, i + 1, &f->v[i]);
		json_array_end(s->j);
		return;
	}
	if (head)
		fprintf(s->out, "findings (top %zu of %zu, ranked by time lost; ioreport findings for all):\n",
			n, f->n);
	else
		fprintf(s->out, "findings: %zu, caveats first, then ranked by the time lost\n",
			f->n);
	if (!f->n)
		fprintf(s->out, "  none: no rule of docs/findings.md matched this recording\n");
	for (size_t i = 0; i < n; i++)
		finding_text(s->out, i + 1, &f->v[i], "");
	if (head)
		fputc('\n', s->out);
}

/* The findings of st into f: true, or false with the failure in s. */
static bool compute(struct sink *s, const struct stats *st, struct findings *f)
{
	int rc = findings_compute(st, f);

	sink_fail(s, rc);
	return rc >= 0;
}

void view_findings(struct sink *s, long top)
{
	struct findings f;

	if (!compute(s, s->st, &f))
		return;
	if (s->j) {
		json_str(s->j, "file", s->st->info->path);
		json_str(s->j, "view", "findings");
		json_u64(s->j, "duration_ns", stats_duration(s->st));
	} else {
		fprintf(s->out, "%s: %.6f s\n\n", s->st->info->path,
			(double)stats_duration(s->st) / 1e9);
	}
	print_findings(s, &f, top, false);
	findings_release(&f);
}

void view_findings_top(struct sink *s, long top)
{
	struct findings f;

	if (!compute(s, s->st, &f))
		return;
	print_findings(s, &f, top, true);
	findings_release(&f);
}

static const char *change_word(const struct fnd_change *c)
{
	return !c->b ? "new" : !c->a ? "gone" : "changed";
}

void view_findings_changes(struct sink *s, const struct stats *after,
			   long top)
{
	struct findings fb, fa;
	struct fnd_change *v = NULL;
	long n;

	if (!compute(s, s->st, &fb))
		return;
	if (!compute(s, after, &fa)) {
		findings_release(&fb);
		return;
	}
	n = findings_changes(&fb, &fa, &v);
	if (n < 0) {
		sink_fail(s, n);
		goto out;
	}
	if (s->j) {
		json_array_begin(s->j, "findings");
		for (size_t i = 0; i < sink_top(top, n); i++) {
			json_object_begin(s->j, NULL);
			json_u64(s->j, "rank", i + 1);
			json_str(s->j, "change", change_word(&v[i]));
			json_str(s->j, "rule", (v[i].a ? v[i].a : v[i].b)->rule);
			json_i64(s->j, "delta_lost_ns", v[i].delta_ns);
			json_str(s->j, "before", v[i].b ? v[i].b->sentence : NULL);
			json_str(s->j, "after", v[i].a ? v[i].a->sentence : NULL);
			json_object_end(s->j);
		}
		json_array_end(s->j);
		goto out;
	}
	fprintf(s->out, "what changed (the findings of BEFORE and AFTER paired, ranked by the time lost or won):\n");
	if (!n)
		fprintf(s->out, "  no finding in either recording\n");
	for (size_t i = 0; i < sink_top(top, n); i++) {
		const struct fnd_change *c = &v[i];
		const struct finding *x = c->a ? c->a : c->b;
		char lead[128];

		snprintf(lead, sizeof(lead), "%3zu. %s %s (%+.1f ms):", i + 1,
			 change_word(c), x->rule, (double)c->delta_ns / 1e6);
		if (c->b)
			wrap(s->out, lead, 7, c->b->sentence);
		if (c->b && c->a)
			wrap(s->out, "      ->", 7, c->a->sentence);
		else if (c->a)
			wrap(s->out, lead, 7, c->a->sentence);
	}
	fputc('\n', s->out);
out:
	free(v);
	findings_release(&fb);
	findings_release(&fa);
}
