// SPDX-License-Identifier: MIT
/*
 * diffpair.c - the findings of two recordings paired as the diff pairs
 * its rows, each change tested (see diffpair.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "stats/diffpair.h"
#include "stats/stats.h"

/* A finding's first entity as the diff's rows name it. */
static const char *ent_key(const struct fnd_entity *e, int side, char *buf,
			   size_t n, void *arg)
{
	const struct diff *d = arg;

	if (!strcmp(e->kind, "process"))
		return dm_comm_key(e->name);
	if (!side)
		return e->name;
	if (!strcmp(e->kind, "device") && e->id >= 0) {
		uint32_t bd = snapdiff_dev(&d->sd, (uint32_t)e->id);

		return bd == (uint32_t)e->id ? e->name :
		       stats_dev_name(d->b, bd, buf, n);
	}
	if (!strcmp(e->kind, "file") || !strcmp(e->kind, "mount"))
		return snapdiff_path(&d->sd, e->name, buf, n);
	return e->name;
}

static const struct dm_row *row_of(const struct dm_section *s,
				   const char *key)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->rows[i].key, key))
			return &s->rows[i];
	return NULL;
}

static const struct dm_metric *metric_of(const struct dm_section *s,
					 const char *json)
{
	for (int i = 0; i < s->nm; i++)
		if (!strcmp(s->m[i].json, json))
			return &s->m[i];
	return NULL;
}

static double number(const struct finding *x, const char *key)
{
	for (int i = 0; i < x->nev; i++)
		if (!x->ev[i].str && !strcmp(x->ev[i].key, key))
			return x->ev[i].v;
	return -1;
}

/* What a rule's change is tested on: section, metric (json name). */
static const struct {
	const char *rule;
	int sect;
	const char *metric;
} tested[] = {
	{ "fsync", DM_PROCESSES, "fsync_p50_ns" },
	{ "slow-device", DM_DEVICES, "d2c_p50_ns" },
	{ "small-scattered-writes", DM_DEVICES, "d2c_p50_ns" },
	{ "flushes", DM_WA, "flushes" },
	{ "dirty-throttling", DM_DIRTY, "paused_events" },
};

/* The test of one change (c->section NULL when none applies). */
static void test_change(const struct diff *d, struct dp_change *c)
{
	const struct finding *x = c->c.b ? c->c.b : c->c.a;
	int side = c->c.b ? 0 : 1;
	const struct dm_section *sb, *sa;
	const struct dm_row *rb, *ra;
	char kbuf[512], key[600];
	const char *k;
	size_t t;

	for (t = 0; t < sizeof(tested) / sizeof(*tested); t++)
		if (!strcmp(tested[t].rule, x->rule))
			break;
	if (t == sizeof(tested) / sizeof(*tested) ||
	    (tested[t].sect != DM_DIRTY && !x->nent))
		return;
	sb = &d->mb.s[tested[t].sect];
	sa = &d->ma.s[tested[t].sect];
	k = tested[t].sect == DM_DIRTY ? "all" :
	    ent_key(&x->ent[0], side, kbuf, sizeof(kbuf), (void *)d);
	snprintf(key, sizeof(key), "%s", k);
	if (tested[t].sect == DM_DEVICES) {
		/* the device's operation: the row with the finding's requests */
		const struct dm_section *s = side ? sa : sb;
		double reqs = number(x, "requests");
		const char *ops[] = { "read", "write" };

		for (size_t o = 0; o < 2; o++) {
			const struct dm_row *r;

			snprintf(key, sizeof(key), "%s %s", k, ops[o]);
			r = row_of(s, key);
			if (r && r->dev && (double)r->dev->reqs == reqs)
				break;
			key[0] = '\0';
		}
		if (!key[0])
			return;
	}
	rb = row_of(sb, key);
	ra = row_of(sa, key);
	c->m = metric_of(sb, tested[t].metric);
	if (!c->m || (!rb && !ra))
		return;
	c->key = rb ? rb->key : ra->key;
	c->section = sb->name;
	dm_signif(c->m, rb, ra, (double)stats_duration(d->b) / 1e9,
		  (double)stats_duration(d->a) / 1e9, &c->sig);
}

int diff_findings(const struct diff *d, struct diff_findings *df)
{
	struct fnd_change *v = NULL;
	long n;
	int rc;

	memset(df, 0, sizeof(*df));
	rc = findings_compute_all(d->b, &df->b);
	if (!rc)
		rc = findings_compute_all(d->a, &df->a);
	if (rc < 0)
		goto fail;
	n = findings_changes_by(&df->b, &df->a, ent_key, (void *)d, &v);
	if (n < 0) {
		rc = (int)n;
		goto fail;
	}
	df->v = an_calloc((size_t)n + 1, sizeof(*df->v));
	if (!df->v) {
		rc = -AN_E_NOMEM;
		goto fail;
	}
	for (long i = 0; i < n; i++) {
		df->v[i].c = v[i];
		test_change(d, &df->v[i]);
	}
	df->n = (size_t)n;
	free(v);
	return 0;
fail:
	free(v);
	diff_findings_release(df);
	return rc;
}

void diff_findings_release(struct diff_findings *df)
{
	findings_release(&df->b);
	findings_release(&df->a);
	free(df->v);
	memset(df, 0, sizeof(*df));
}

const char *dp_change_word(const struct dp_change *c)
{
	/* a quiet side: under the rule's thresholds there */
	return !c->c.b || c->c.b->quiet ? "new" : !c->c.a ? "gone" :
	       c->c.a->quiet ? "under-threshold" : "changed";
}

const char *dp_severity(const struct finding *x)
{
	/* a quiet finding (under its rule's thresholds) has none */
	return !x || x->quiet ? "-" : x->caveat ? "caveat" :
	       fnd_severity_name(x->sev);
}

const char *dp_signif_word(const struct dp_change *c)
{
	if (!c->section || !c->sig.test)
		return "not tested";
	return c->sig.significant ? "significant" : "noise";
}
