// SPDX-License-Identifier: MIT
/*
 * owner.c - a process's service or container in words and as a key.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "base/err.h"

#include "sbuf.h"
#include "replay/proctable.h"
#include "stats/owner.h"
#include "stats/rows.h"

const char *owner_by_name(enum owner_by by)
{
	switch (by) {
	case OWNER_UNIT:
		return "unit";
	case OWNER_CONTAINER:
		return "container";
	case OWNER_CGROUP:
		return "cgroup";
	default:
		return NULL;
	}
}

enum owner_by owner_by_parse(const char *word)
{
	for (int b = OWNER_UNIT; b <= OWNER_CGROUP; b++)
		if (!strcmp(word, owner_by_name((enum owner_by)b)))
			return (enum owner_by)b;
	return OWNER_NONE;
}

static bool is_service(const char *unit)
{
	size_t l = unit ? strlen(unit) : 0;

	return l > 8 && !strcmp(unit + l - 8, ".service");
}

void owner_words(struct sbuf *sb, const char *comm, int pid,
		 const char *unit, const char *container)
{
	if (container)
		sbuf_addf(sb, "the %s container (%s, pid %d)", container, comm,
			  pid);
	else if (is_service(unit))
		sbuf_addf(sb, "%s (%s, pid %d)", unit, comm, pid);
	else
		sbuf_addf(sb, "%s (pid %d)", comm, pid);
}

void owner_who(struct sbuf *sb, const struct proc_info *p)
{
	owner_words(sb, p->comm, p->pid, p->unit, p->container);
}

const char *owner_key(const struct proc_info *p, enum owner_by by)
{
	const char *k = NULL;

	switch (by) {
	case OWNER_UNIT:
		k = p->unit;
		break;
	case OWNER_CONTAINER:
		k = p->container;
		break;
	case OWNER_CGROUP:
		k = p->cgroup[0] ? p->cgroup : NULL;
		break;
	default:
		break;
	}
	return k ? k : "-";
}

const char *owner_proc_key(const struct proc *p, enum owner_by by,
			   char *buf, size_t size)
{
	const char *k = NULL;

	if (p && by == OWNER_UNIT)
		k = p->unit;
	else if (p && by == OWNER_CONTAINER)
		k = p->container;
	else if (p && by == OWNER_CGROUP &&
		 proc_cgroup_key(p, buf, size) && *buf)
		return buf;
	snprintf(buf, size, "%s", k ? k : "-");
	return buf;
}

static uint64_t moved(const struct owner_row *r)
{
	return r->read_bytes + r->write_bytes + r->blk.read_bytes +
	       r->blk.write_bytes;
}

static int cmp_owner(const void *a, const void *b)
{
	const struct owner_row *x = a, *y = b;
	uint64_t mx = moved(x), my = moved(y);

	if (mx != my)
		return mx > my ? -1 : 1;
	return strcmp(x->key, y->key);
}

long owner_rows(const struct proc_row *rows, size_t n, enum owner_by by,
		struct owner_row **out)
{
	struct owner_row *v = an_calloc(n + 1, sizeof(*v));
	size_t nv = 0;

	*out = NULL;
	if (!v)
		return -AN_E_NOMEM;
	for (size_t i = 0; i < n; i++) {
		const char *key = owner_key(&rows[i].p, by);
		const struct procstat *ps = rows[i].ps;
		struct owner_row *g = NULL;

		for (size_t k = 0; k < nv && !g; k++)
			if (!strcmp(v[k].key, key))
				g = &v[k];
		if (!g) {
			g = &v[nv++];
			g->key = key;
			g->none = !strcmp(key, "-");
		}
		g->procs++;
		g->fsyncs += rows[i].fsyncs;
		if (!ps)
			continue;
		g->calls += ps->calls;
		g->errors += ps->errors;
		g->read_bytes += ps->read_bytes;
		g->write_bytes += ps->write_bytes;
		g->fsync_count += ps->fsync.count;
		g->fsync_ns += ps->fsync.sum;
		if (ps->fsync.max > g->fsync_max_ns)
			g->fsync_max_ns = ps->fsync.max;
		blkio_add(&g->blk, &ps->blk);
		g->throttles += ps->throttles;
		g->throttle_ns += ps->throttle_ns;
		g->dstates += ps->dstates;
		g->dstate_ns += ps->dstate_ns;
	}
	qsort(v, nv, sizeof(*v), cmp_owner);
	*out = v;
	return (long)nv;
}
