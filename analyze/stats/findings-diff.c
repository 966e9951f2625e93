// SPDX-License-Identifier: MIT
/*
 * findings-diff.c - the findings of two recordings paired and ranked by
 * the time they lose or win (see findings.h).
 */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "stats/findings.h"

/* The first entity's name of x of side (0 BEFORE, 1 AFTER), as key says. */
static const char *first(const struct finding *x, int side, fnd_key_fn key,
			 void *arg, char *buf, size_t n)
{
	return key ? key(&x->ent[0], side, buf, n, arg) : x->ent[0].name;
}

/* The rules of a slow device are one: its writes may change shape. */
static const char *family(const char *rule)
{
	return !strcmp(rule, "small-scattered-writes") ? "slow-device" : rule;
}

/* Same rule and same first entity (by name: pids differ between runs). */
static bool same(const struct finding *x, const struct finding *y,
		 fnd_key_fn key, void *arg)
{
	char bx[512], by[512];

	if (strcmp(family(x->rule), family(y->rule)))
		return false;
	/* a device's reads and its writes are two findings */
	if (x->nev > 1 && y->nev > 1 && !strcmp(x->ev[1].key, "op") &&
	    !strcmp(y->ev[1].key, "op") && x->ev[1].str && y->ev[1].str &&
	    strcmp(x->ev[1].str, y->ev[1].str))
		return false;
	if (!x->nent || !y->nent)
		return x->nent == y->nent;
	return !strcmp(x->ent[0].kind, y->ent[0].kind) &&
	       !strcmp(first(x, 0, key, arg, bx, sizeof(bx)),
		       first(y, 1, key, arg, by, sizeof(by)));
}

static int cmp_change(const void *p, const void *q)
{
	const struct fnd_change *x = p, *y = q;
	const struct finding *fx = x->a ? x->a : x->b;
	const struct finding *fy = y->a ? y->a : y->b;
	int64_t dx = x->delta_ns < 0 ? -x->delta_ns : x->delta_ns;
	int64_t dy = y->delta_ns < 0 ? -y->delta_ns : y->delta_ns;

	if (fx->caveat != fy->caveat)
		return fx->caveat ? 1 : -1;
	if (dx != dy)
		return dx > dy ? -1 : 1;
	return findings_cmp(fx, fy);
}

long findings_changes(const struct findings *b, const struct findings *a,
		      struct fnd_change **out)
{
	return findings_changes_by(b, a, NULL, NULL, out);
}

long findings_changes_by(const struct findings *b, const struct findings *a,
			 fnd_key_fn key, void *arg, struct fnd_change **out)
{
	struct fnd_change *v = an_calloc(b->n + a->n + 1, sizeof(*v));
	bool *used = an_calloc(a->n + 1, sizeof(*used));
	size_t n = 0;

	*out = v;
	if (!v || !used) {
		free(used);
		return -AN_E_NOMEM;
	}
	for (size_t i = 0; i < b->n; i++) {
		v[n].b = &b->v[i];
		for (size_t k = 0; k < a->n; k++)
			if (!used[k] && same(&b->v[i], &a->v[k], key, arg)) {
				used[k] = true;
				v[n].a = &a->v[k];
				break;
			}
		/* under its thresholds on both sides (or gone): no finding */
		if (b->v[i].quiet && (!v[n].a || v[n].a->quiet)) {
			v[n].a = NULL;
			continue;
		}
		v[n].delta_ns = (int64_t)(v[n].a ? v[n].a->lost_ns : 0) -
				(int64_t)b->v[i].lost_ns;
		n++;
	}
	v[n].b = NULL;
	for (size_t k = 0; k < a->n; k++)
		if (!used[k] && !a->v[k].quiet) {
			v[n].a = &a->v[k];
			v[n].delta_ns = (int64_t)a->v[k].lost_ns;
			n++;
		}
	free(used);
	if (n)
		qsort(v, n, sizeof(*v), cmp_change);
	return (long)n;
}
