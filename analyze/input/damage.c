// SPDX-License-Identifier: MIT
/*
 * damage.c - the damaged regions of an .iorec recording (damage.h): the
 * list source_info() carries, and their CPU and time span where the file
 * allows (meta.c puts them into words).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "input/source.h"
#include "input/damage.h"

int damage_init(struct damage_log *d, uint32_t ncpus)
{
	size_t n = ncpus ? ncpus : 1;

	memset(d, 0, sizeof(*d));
	d->ncpus = ncpus;
	d->seen = an_calloc(n, sizeof(*d->seen));
	d->last_ts = an_calloc(n, sizeof(*d->last_ts));
	d->epoch = an_calloc(n, sizeof(*d->epoch));
	if (d->seen && d->last_ts && d->epoch)
		return 0;
	damage_release(d);
	return -AN_E_NOMEM;
}

void damage_release(struct damage_log *d)
{
	free(d->v);
	free(d->seen);
	free(d->last_ts);
	free(d->epoch);
	free(d->guess);
	memset(d, 0, sizeof(*d));
}

/*
 * A new region and, in *g, its guess; when the list cannot grow, the
 * spare ones (the error is kept, the region not listed).
 */
static struct source_damage *add(struct damage_log *d, struct damage_guess **g)
{
	struct source_damage *r = &d->spare;

	*g = &d->spare_guess;
	if (d->n == d->alloc) {
		int alloc = d->alloc ? d->alloc * 2 : 8;
		struct source_damage *v;
		struct damage_guess *gv;

		v = an_reallocarray(d->v, (size_t)alloc, sizeof(*v));
		if (v)
			d->v = v;
		gv = v ? an_reallocarray(d->guess, (size_t)alloc, sizeof(*gv)) :
			 NULL;
		if (gv)
			d->guess = gv;
		if (gv)
			d->alloc = alloc;
		else
			d->err = -AN_E_NOMEM;
	}
	if (d->n < d->alloc) {
		r = &d->v[d->n];
		*g = &d->guess[d->n];
		d->n++;
	}
	memset(r, 0, sizeof(*r));
	memset(*g, 0, sizeof(**g));
	r->cpu = -1;
	return r;
}

bool damage_chunk(struct damage_log *d, const struct iorec_data_desc *desc)
{
	uint32_t cpu = desc->cpu;
	bool gap;

	if (cpu >= d->ncpus)
		return false;
	/* the regions since this CPU's previous chunk are before this one */
	for (int i = d->epoch[cpu]; i < d->n; i++) {
		struct damage_guess *g = &d->guess[i];

		if (g->have && g->desc.cpu == cpu && !g->next)
			g->next = desc->first_ts >= g->desc.last_ts ? 1 : -1;
	}
	gap = d->seen[cpu] ? d->epoch[cpu] != d->n : d->n > 0;
	d->seen[cpu] = true;
	d->last_ts[cpu] = desc->last_ts;
	d->epoch[cpu] = d->n;
	return gap;
}

void damage_add_gap(struct damage_log *d, const struct iorec_gap *gap,
		    const char *reason)
{
	struct damage_guess *g;
	struct source_damage *r = add(d, &g);

	r->offset = gap->offset;
	r->length = gap->length;
	r->chunks = gap->chunks;
	r->to_end = gap->to_end;
	r->reason = reason;
	if (gap->have_desc && gap->desc.cpu < d->ncpus) {
		uint32_t cpu = gap->desc.cpu;

		g->have = true;
		g->desc = gap->desc;
		if (d->seen[cpu])
			g->prev = d->last_ts[cpu] <= gap->desc.first_ts ? 1 : -1;
	}
}

void damage_add_chunk(struct damage_log *d, uint64_t offset, uint64_t length,
		      const struct iorec_data_desc *desc, const char *reason)
{
	struct damage_guess *g;
	struct source_damage *r = add(d, &g);

	r->offset = offset;
	r->length = length;
	r->chunks = 1;
	r->reason = reason;
	if (!desc)
		return;
	r->cpu = (int)desc->cpu;
	r->first_ts = desc->first_ts;
	r->last_ts = desc->last_ts;
	r->exact = true;
}

static int cmp_offset(const void *a, const void *b)
{
	const struct source_damage *x = a, *y = b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

void damage_publish(struct damage_log *d, struct source_info *in)
{
	for (int i = 0; i < d->n; i++) {
		struct source_damage *r = &d->v[i];
		const struct damage_guess *g = &d->guess[i];

		/* a descriptor the chunks around it do not contradict */
		if (!r->exact && g->have && g->prev >= 0 && g->next >= 0 &&
		    (g->prev > 0 || g->next > 0)) {
			r->cpu = (int)g->desc.cpu;
			r->first_ts = g->desc.first_ts;
			r->last_ts = g->desc.last_ts;
		}
	}
	/* pass 2 adds chunks out of file order */
	if (d->n > 1)
		qsort(d->v, (size_t)d->n, sizeof(*d->v), cmp_offset);
	for (int i = 0; i < d->n; i++)
		d->guess[i].have = false;	/* settled; order changed */

	in->ndamaged = d->n;
	in->damaged = d->v;
	in->damaged_bytes = in->damaged_chunks = in->damaged_ns = 0;
	for (int c = 0; c < in->nr_cpus; c++) {
		in->cpus[c].damaged_chunks = 0;
		in->cpus[c].damaged_ns = 0;
	}
	for (int i = 0; i < d->n; i++) {
		const struct source_damage *r = &d->v[i];
		uint64_t ns = r->last_ts - r->first_ts;

		in->damaged_bytes += r->length;
		in->damaged_chunks += r->chunks;
		if (r->cpu < 0)
			continue;
		in->damaged_ns += ns;
		if (r->cpu < in->nr_cpus) {
			in->cpus[r->cpu].damaged_chunks += r->chunks;
			in->cpus[r->cpu].damaged_ns += ns;
		}
	}
}
