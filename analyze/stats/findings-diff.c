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

/* Same rule and same first entity (by name: pids differ between runs). */
static bool same(const struct finding *x, const struct finding *y)
{
	if (strcmp(x->rule, y->rule))
		return false;
	if (!x->nent || !y->nent)
		return x->nent == y->nent;
	return !strcmp(x->ent[0].kind, y->ent[0].kind) &&
	       !strcmp(x->ent[0].name, y->ent[0].name);
}

static int cmp_change(const void *p, const void *q)
{
	const struct fnd_change *x = p, *y = q;
	const struct finding *fx = x->a ? x->a : x->b;
	const struct finding *fy = y->a ? y->a : y->b;
	int64_t dx = x->delta_ns < 0 ? -x->delta_ns : x->delta_ns;
	int64_t dy = y->delta_ns < 0 ? -y->delta_ns : y->delta_ns;

	if (fx->caveat != fy->caveat)
		return fx->caveat ? -1 : 1;
	if (dx != dy)
		return dx > dy ? -1 : 1;
	return findings_cmp(fx, fy);
}

long findings_changes(const struct findings *b, const struct findings *a,
		      struct fnd_change **out)
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
			if (!used[k] && same(&b->v[i], &a->v[k])) {
				used[k] = true;
				v[n].a = &a->v[k];
				break;
			}
		v[n].delta_ns = (int64_t)(v[n].a ? v[n].a->lost_ns : 0) -
				(int64_t)b->v[i].lost_ns;
		n++;
	}
	for (size_t k = 0; k < a->n; k++)
		if (!used[k]) {
			v[n].a = &a->v[k];
			v[n].delta_ns = (int64_t)a->v[k].lost_ns;
			n++;
		}
	free(used);
	if (n)
		qsort(v, n, sizeof(*v), cmp_change);
	return (long)n;
}
