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
#include <stdbool.h>
#include <string.h>

#include "base/err.h"
#include "base/units.h"
#include "input/meta.h"
#include "sbuf.h"
#include "util.h"
#include "stats/diffpair.h"
#include "stats/findings.h"
#include "stats/owner.h"
#include "stats/rows.h"
#include "stats/signif.h"
#include "sink/json.h"
#include "sink/sink.h"
#include "sink/table.h"

#define WIDTH	100

/* Text wrapped at WIDTH columns, the first line after lead, the rest indented. */
/*
 * The words of text from column *col on, a line at most WIDTH wide; *mid:
 * a word is on the line already (the next one goes after a space).
 */
static void wrap_words(FILE *out, int *col, bool *mid, int indent,
		       const char *text)
{
	while (*text) {
		const char *sp = strchr(text, ' ');
		int len = sp ? (int)(sp - text) : (int)strlen(text);

		if (*mid && *col + 1 + len > WIDTH) {
			fprintf(out, "\n%*s", indent, "");
			*col = indent;
		} else if (*mid) {
			fputc(' ', out);
			(*col)++;
		}
		*col += fprintf(out, "%.*s", len, text);
		*mid = true;
		text += len;
		while (*text == ' ')
			text++;
	}
}

/* lead (its own leading spaces kept), then text, wrapped, indented. */
static void wrap(FILE *out, const char *lead, int indent, const char *text)
{
	int col = fprintf(out, "%.*s", (int)strspn(lead, " "), lead);
	bool mid = false;

	/* a lead wider than its line is wrapped too */
	if (col + (int)strlen(lead + col) > WIDTH) {
		wrap_words(out, &col, &mid, indent, lead + col);
	} else {
		col += fprintf(out, "%s", lead + col);
		mid = col > indent;
	}
	wrap_words(out, &col, &mid, indent, text);
	fputc('\n', out);
}

static void finding_text(FILE *out, size_t rank, const struct finding *x,
			 const char *prefix)
{
	char lead[96];

	snprintf(lead, sizeof(lead), "%3zu. %s[%s] %s:", rank, prefix,
		 fnd_label(x), x->rule);
	wrap(out, lead, 7, x->sentence);
	fprintf(out, "       more: %s\n", x->more);
}

/*
 * The evidence of x: the view its numbers come from and that view's
 * members (JSON names, dotted into nested objects) with their values;
 * null when the finding cites no view.
 */
static void evidence_json(struct json *j, const struct finding *x)
{
	if (!x->view) {
		json_null(j, "evidence");
		return;
	}
	json_object_begin(j, "evidence");
	json_str(j, "view", x->view);
	for (int k = 0; k < x->nev; k++)
		if (x->ev[k].str)
			json_str(j, x->ev[k].key, x->ev[k].str);
		else
			json_num(j, x->ev[k].key, x->ev[k].v);
	json_object_end(j);
}

/* The CSV columns of the findings: fixed ones, then every evidence key. */
#define CSV_FIXED	"rank,rule,severity,caveat,lost_ns,view"
#define CSV_MAXKEYS	(FND_EVIDENCE * 8)

static size_t csv_keys(const struct findings *f, size_t n, const char **keys)
{
	size_t nk = 0;

	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < f->v[i].nev; k++) {
			size_t m;

			for (m = 0; m < nk; m++)
				if (!strcmp(keys[m], f->v[i].ev[k].key))
					break;
			if (m == nk && nk < CSV_MAXKEYS)
				keys[nk++] = f->v[i].ev[k].key;
		}
	return nk;
}

/* One row per finding: its rank, rule, severity, evidence, sentence. */
static void findings_csv(FILE *out, const struct findings *f, size_t n)
{
	const char *keys[CSV_MAXKEYS];
	size_t nk = csv_keys(f, n, keys);

	fputs(CSV_FIXED, out);
	for (size_t m = 0; m < nk; m++)
		fprintf(out, ",%s", keys[m]);
	fputs(",sentence\n", out);
	for (size_t i = 0; i < n; i++) {
		const struct finding *x = &f->v[i];

		fprintf(out, "%zu,%s,%s,%s,%" PRIu64 ",%s", i + 1, x->rule,
			fnd_label(x), x->caveat ? "true" : "false",
			x->lost_ns, x->view ? x->view : "");
		for (size_t m = 0; m < nk; m++) {
			int k;

			for (k = 0; k < x->nev; k++)
				if (!strcmp(x->ev[k].key, keys[m]))
					break;
			fputc(',', out);
			if (k == x->nev)
				continue;
			if (x->ev[k].str)
				sink_csv_str(out, x->ev[k].str);
			else
				fprintf(out, "%.17g", x->ev[k].v);
		}
		fputc(',', out);
		sink_csv_str(out, x->sentence);
		fputc('\n', out);
	}
}

static void finding_json(struct json *j, size_t rank, const struct finding *x)
{
	json_object_begin(j, NULL);
	json_u64(j, "rank", rank);
	json_str(j, "rule", x->rule);
	json_str(j, "severity", fnd_label(x));
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
	evidence_json(j, x);
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
	if (s->csv) {
		findings_csv(s->out, f, n);
		return;
	}
	if (head)
		fprintf(s->out, "findings (top %zu of %zu, ranked by time lost; ioreport findings for all):\n",
			n, f->n);
	else
		fprintf(s->out, "findings: %zu, ranked by the time lost, caveats last\n",
			f->n);
	if (!f->n)
		fprintf(s->out, "  none: no rule of docs/findings.md matched this recording\n");
	for (size_t i = 0; i < n; i++)
		finding_text(s->out, i + 1, &f->v[i], "");
	if (head)
		fputc('\n', s->out);
}

/* The findings of st into f (all: the quiet ones too): true, or false
 * with the failure in s. */
static bool compute(struct sink *s, const struct stats *st, struct findings *f,
		    bool all)
{
	int rc = all ? findings_compute_all(st, f) : findings_compute(st, f);

	sink_fail(s, rc);
	return rc >= 0;
}

/*
 * findings --by: the findings grouped by the unit, container or cgroup
 * of the process each names (its first "process" entity, keyed as
 * processes --by keys it); a finding of no process (a device, the
 * machine, a caveat) is in no group.
 */
struct fgroup {
	const char *key;	/* owner_key(): "-" for processes of none */
	uint64_t n;		/* findings */
	uint64_t lost_ns;	/* their time lost, summed */
	size_t *ranks;		/* their ranks (1-based), n of them */
	const char **rules;	/* the rules, each once, in rank order */
	size_t nrules;
};

/* The process of a finding: its pid and name (comm), or -1. */
static int fnd_pid(const struct finding *x, const char **comm)
{
	for (int k = 0; k < x->nent; k++)
		if (!strcmp(x->ent[k].kind, "process")) {
			*comm = x->ent[k].name;
			return (int)x->ent[k].id;
		}
	return -1;
}

/* The groups of f into *out (to free with fgroups_free): their number,
 * or -AN_E_NOMEM; *none: the findings of no process. */
static long fgroups(const struct stats *st, const struct findings *f,
		    enum owner_by by, struct proc_row **rowsp,
		    struct fgroup **out, size_t *none)
{
	struct proc_row *rows;
	long nr = rows_processes(st, true, &rows);
	struct fgroup *g;
	size_t ng = 0;

	*out = NULL;
	*none = 0;
	if (nr < 0)
		return nr;
	g = an_calloc(f->n + 1, sizeof(*g));
	if (!g) {
		free(rows);
		return -AN_E_NOMEM;
	}
	for (size_t i = 0; i < f->n; i++) {
		const struct finding *x = &f->v[i];
		const char *comm = NULL;
		int pid = fnd_pid(x, &comm);
		const char *key = NULL;
		struct fgroup *y = NULL;
		long at = -1;

		/* a pid used twice (reused): the process of the finding's name */
		for (long r = 0; pid >= 0 && r < nr; r++)
			if (rows[r].p.pid == pid &&
			    (at < 0 || (comm && rows[r].p.comm &&
					!strcmp(rows[r].p.comm, comm)))) {
				at = r;
				if (comm && rows[r].p.comm &&
				    !strcmp(rows[r].p.comm, comm))
					break;
			}
		if (at >= 0)
			key = owner_key(&rows[at].p, by);
		if (!key) {
			(*none)++;
			continue;
		}
		for (size_t k = 0; k < ng && !y; k++)
			if (!strcmp(g[k].key, key))
				y = &g[k];
		if (!y) {
			y = &g[ng++];
			y->key = key;
			y->ranks = an_calloc(f->n, sizeof(*y->ranks));
			y->rules = an_calloc(f->n, sizeof(*y->rules));
			if (!y->ranks || !y->rules) {
				*out = g;
				*rowsp = rows;
				return -AN_E_NOMEM;
			}
		}
		y->ranks[y->n++] = i + 1;
		y->lost_ns += x->lost_ns;
		size_t m;

		for (m = 0; m < y->nrules; m++)
			if (!strcmp(y->rules[m], x->rule))
				break;
		if (m == y->nrules)
			y->rules[y->nrules++] = x->rule;
	}
	/* the most time lost first; ranks and keys break ties */
	for (size_t a = 1; a < ng; a++)
		for (size_t b = a; b > 0 && (g[b].lost_ns > g[b - 1].lost_ns ||
		     (g[b].lost_ns == g[b - 1].lost_ns &&
		      strcmp(g[b].key, g[b - 1].key) < 0)); b--) {
			struct fgroup t = g[b];

			g[b] = g[b - 1];
			g[b - 1] = t;
		}
	*out = g;
	*rowsp = rows;
	return (long)ng;
}

static void fgroups_free(struct fgroup *g, long n, struct proc_row *rows)
{
	for (long i = 0; g && i < n; i++) {
		free(g[i].ranks);
		free(g[i].rules);
	}
	free(g);
	free(rows);
}

#define FGROUP(r) ((const struct fgroup *)(r))
static void fg_ranks(const void *r, bool wide, char *b, size_t n)
{
	size_t l = 0;

	(void)wide;
	b[0] = 0;
	for (uint64_t k = 0; k < FGROUP(r)->n && l < n; k++)
		l += (size_t)snprintf(b + l, n - l, "%s%zu", k ? "," : "",
				      FGROUP(r)->ranks[k]);
}

static void fg_rules(const void *r, bool wide, char *b, size_t n)
{
	size_t l = 0;

	(void)wide;
	b[0] = 0;
	for (size_t k = 0; k < FGROUP(r)->nrules && l < n; k++)
		l += (size_t)snprintf(b + l, n - l, "%s%s", k ? "," : "",
				      FGROUP(r)->rules[k]);
}

static void fg_key(const void *r, bool wide, char *b, size_t n)
{
	(void)wide;
	snprintf(b, n, "%s", FGROUP(r)->key);
}

static const struct column fgroup_cols[] = {
	COL_U64("FINDINGS", "FINDINGS", table_u64, struct fgroup, n),
	COL_U64("LOST-SUM(ms)", "LOST-SUM(ms)", table_ms, struct fgroup,
		lost_ns),
	COL_FN("RANKS", "RANKS", true, fg_ranks),
	COL_FN("RULES", "RULES", true, fg_rules),
	COL_FN("OWNER", "OWNER", true, fg_key),
};

static void print_fgroups(struct sink *s, const struct findings *f)
{
	const char *by = owner_by_name((enum owner_by)s->by);
	struct proc_row *rows = NULL;
	struct fgroup *g;
	size_t none;
	long ng;

	if (!by)
		return;
	ng = fgroups(s->st, f, (enum owner_by)s->by, &rows, &g, &none);
	if (ng < 0) {
		sink_fail(s, (int)ng);
		fgroups_free(g, g ? (long)f->n : 0, rows);
		return;
	}
	if (s->j) {
		struct json *j = s->j;

		json_str(j, "by", by);
		json_u64(j, "findings_of_no_process", none);
		json_array_begin(j, "groups");
		for (long i = 0; i < ng; i++) {
			json_object_begin(j, NULL);
			json_str(j, by, strcmp(g[i].key, "-") ? g[i].key : NULL);
			json_u64(j, "findings", g[i].n);
			json_u64(j, "lost_ns", g[i].lost_ns);
			json_array_begin(j, "ranks");
			for (size_t k = 0; k < g[i].n; k++)
				json_u64(j, NULL, g[i].ranks[k]);
			json_array_end(j);
			json_array_begin(j, "rules");
			for (size_t k = 0; k < g[i].nrules; k++)
				json_str(j, NULL, g[i].rules[k]);
			json_array_end(j);
			json_object_end(j);
		}
		json_array_end(j);
	} else {
		fprintf(s->out, "per %s: %ld, the findings that name a process of each (\"-\": of none);\n"
			"  %zu name%s no process (devices, the machine, caveats)\n",
			by, ng, none, none == 1 ? "s" : "");
		struct column cols[ARRAY_SIZE(fgroup_cols)];

		/* the last column is headed by the owner, as processes --by */
		memcpy(cols, fgroup_cols, sizeof(cols));
		cols[ARRAY_SIZE(cols) - 1].head = cols[ARRAY_SIZE(cols) - 1].narrow =
			by[0] == 'u' ? "UNIT" : by[1] == 'o' ? "CONTAINER" : "CGROUP";
		sink_fail(s, table_print(s->out, s->wide ? 0 : SINK_WIDTH, cols,
					 (int)ARRAY_SIZE(cols), g, (size_t)ng,
					 sizeof(*g)));
		fputc('\n', s->out);
	}
	fgroups_free(g, ng, rows);
}

void view_findings(struct sink *s, long top)
{
	struct sbuf snap = SBUF_INIT;
	struct findings f;

	if (!compute(s, s->st, &f, false))
		return;
	if (s->j) {
		json_str(s->j, "file", s->st->info->path);
		json_str(s->j, "view", "findings");
		json_u64(s->j, "duration_ns", stats_duration(s->st));
		sink_trigger_json(s);
	} else if (!s->csv) {
		fprintf(s->out, "%s: %.6f s\n\n", s->st->info->path,
			(double)stats_duration(s->st) / 1e9);
		if (sink_snapshot_line(s, &snap))
			wrap(s->out, "", 2, snap.buf);
		if (snap.buf)
			fputc('\n', s->out);
	}
	sbuf_release(&snap);
	/* --by --csv: the JSON's groups are the table (cmd-view.c) */
	print_fgroups(s, &f);
	print_findings(s, &f, top, false);
	findings_release(&f);
}

void view_findings_top(struct sink *s, long top)
{
	struct findings f;

	if (!compute(s, s->st, &f, false))
		return;
	print_findings(s, &f, top, true);
	findings_release(&f);
}

static void signif_json(struct json *j, const struct dp_change *c)
{
	if (!c->section || !c->sig.test) {
		json_null(j, "significant");
		json_null(j, "significance");
		return;
	}
	json_bool(j, "significant", c->sig.significant);
	json_object_begin(j, "significance");
	json_str(j, "section", c->section);
	json_str(j, "key", c->key);
	json_str(j, "metric", c->m->json);
	json_str(j, "test", sig_test_name(c->sig.test));
	json_num(j, "p", c->sig.p);
	if (c->sig.test == SIG_MWU)
		json_num(j, "after_larger", c->sig.after_larger);
	else
		json_null(j, "after_larger");
	json_object_end(j);
}

/* "(-636.8 ms; high -> -; fsync p50(ms) significant *)" */
static void change_lead(char *buf, size_t n, size_t rank,
			const struct dp_change *c)
{
	const struct finding *x = c->c.a ? c->c.a : c->c.b;
	char test[96];

	if (c->section && c->sig.test)
		snprintf(test, sizeof(test), "%s %s%s", c->m->label,
			 dp_signif_word(c), c->sig.significant ? " *" : "");
	else
		snprintf(test, sizeof(test), "%s", dp_signif_word(c));
	char b1[UNITS_BUF], b2[UNITS_BUF];

	char rule[72];

	/* a finding whose rule differs on the two sides names both */
	if (c->c.a && c->c.b && strcmp(c->c.a->rule, c->c.b->rule))
		snprintf(rule, sizeof(rule), "%s -> %s", c->c.b->rule,
			 c->c.a->rule);
	else
		snprintf(rule, sizeof(rule), "%s", x->rule);
	snprintf(buf, n, "%3zu. %s %s (time lost %s -> %s; %s -> %s; %s):",
		 rank, dp_change_word(c), rule,
		 c->c.b ? units_dur(b1, sizeof(b1), (double)c->c.b->lost_ns) : "none",
		 c->c.a ? units_dur(b2, sizeof(b2), (double)c->c.a->lost_ns) : "none",
		 dp_severity(c->c.b), dp_severity(c->c.a), test);
}

void view_findings_changes(struct sink *s, const struct diff *d, long top)
{
	struct diff_findings df;
	int rc = diff_findings(d, &df);

	if (rc < 0) {
		sink_fail(s, rc);
		return;
	}
	if (s->j) {
		/* every change: the text shows the first top */
		json_array_begin(s->j, "findings");
		for (size_t i = 0; i < df.n; i++) {
			const struct dp_change *c = &df.v[i];

			json_object_begin(s->j, NULL);
			json_u64(s->j, "rank", i + 1);
			json_str(s->j, "change", dp_change_word(c));
			json_str(s->j, "rule", (c->c.a ? c->c.a : c->c.b)->rule);
			json_str(s->j, "rule_before", c->c.b ? c->c.b->rule : NULL);
			json_str(s->j, "rule_after", c->c.a ? c->c.a->rule : NULL);
			json_i64(s->j, "delta_lost_ns", c->c.delta_ns);
			if (c->c.b)
				json_u64(s->j, "before_lost_ns", c->c.b->lost_ns);
			else
				json_null(s->j, "before_lost_ns");
			if (c->c.a)
				json_u64(s->j, "after_lost_ns", c->c.a->lost_ns);
			else
				json_null(s->j, "after_lost_ns");
			json_str(s->j, "severity_before", c->c.b && !c->c.b->quiet ? dp_severity(c->c.b) : NULL);
			json_str(s->j, "severity_after", c->c.a && !c->c.a->quiet ? dp_severity(c->c.a) : NULL);
			signif_json(s->j, c);
			json_str(s->j, "before", c->c.b ? c->c.b->sentence : NULL);
			json_str(s->j, "after", c->c.a ? c->c.a->sentence : NULL);
			json_object_end(s->j);
		}
		json_array_end(s->j);
		goto out;
	}
	fprintf(s->out, "what changed (the findings of BEFORE and AFTER paired, ranked by the time lost or won;\n"
		"severity BEFORE -> AFTER; the test of the change, * beyond run-to-run noise;\n"
		"  under-threshold: AFTER has it still, under the rule's thresholds):\n");
	if (!df.n)
		fprintf(s->out, "  no finding in either recording\n");
	for (size_t i = 0; i < sink_top(top, (long)df.n); i++) {
		const struct dp_change *c = &df.v[i];
		char lead[512];

		change_lead(lead, sizeof(lead), i + 1, c);
		if (c->c.b)
			wrap(s->out, lead, 7, c->c.b->sentence);
		if (c->c.b && c->c.a)
			wrap(s->out, "      ->", 7, c->c.a->sentence);
		else if (c->c.a)
			wrap(s->out, lead, 7, c->c.a->sentence);
	}
	if (df.n > sink_top(top, (long)df.n))
		fprintf(s->out, "  %zu more, smaller changes: ioreport diff --json lists them all (findings)\n",
			df.n - sink_top(top, (long)df.n));
	fputc('\n', s->out);
out:
	diff_findings_release(&df);
}
