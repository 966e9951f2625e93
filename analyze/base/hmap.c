// SPDX-License-Identifier: MIT
/*
 * hmap.c - the intrusive u64-keyed hash multimap of hmap.h.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/hmap.h"

uint64_t hash_mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 33);
}

/* FNV-1a's 64-bit prime */
#define FNV_PRIME	1099511628211ULL

uint64_t hash_str(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * FNV_PRIME;
	return h;
}

uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
	const uint8_t *s = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * FNV_PRIME;
	return h;
}

/* the first half of hash_mix(): enough for a bucket */
size_t hslot(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return (size_t)key & (cap - 1);
}

/* Double the buckets; 0, or -AN_E_NOMEM with m unchanged. */
static int hmap_grow(struct hmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 1024, i;
	struct hnode **b = an_calloc(cap, sizeof(*b));

	if (!b)
		return -AN_E_NOMEM;
	for (size_t j = 0; j < m->cap; j++) {
		struct hnode *x;

		while ((x = m->b[j])) {
			m->b[j] = x->next;
			i = hslot(x->key, cap);
			x->next = b[i];
			b[i] = x;
		}
	}
	free(m->b);
	m->b = b;
	m->cap = cap;
	return 0;
}

int hmap_add(struct hmap *m, struct hnode *e)
{
	size_t i;

	/* past one entry per bucket the buckets double; when they cannot,
	 * the chains grow longer */
	if (m->n >= m->cap && hmap_grow(m) < 0 && !m->cap)
		return -AN_E_NOMEM;
	i = hslot(e->key, m->cap);
	e->next = m->b[i];
	m->b[i] = e;
	m->n++;
	return 0;
}

void *hmap_add_new(struct hmap *m, uint64_t key, size_t size)
{
	struct hnode *e = an_calloc(1, size);

	if (e) {
		e->key = key;
		if (hmap_add(m, e)) {
			free(e);
			return NULL;
		}
	}
	return e;
}

/* The first entry with key (further ones: ->next with the same key). */
struct hnode **hmap_slot(const struct hmap *m, uint64_t key)
{
	struct hnode **pp;

	if (!m->cap)
		return NULL;
	for (pp = &m->b[hslot(key, m->cap)]; *pp; pp = &(*pp)->next)
		if ((*pp)->key == key)
			return pp;
	return NULL;
}

void *hmap_get(const struct hmap *m, uint64_t key)
{
	struct hnode **pp = hmap_slot(m, key);

	return pp ? *pp : NULL;
}

void *hmap_get_new(struct hmap *m, uint64_t key, size_t size)
{
	void *e = hmap_get(m, key);

	return e ? e : hmap_add_new(m, key, size);
}

struct hmap_pos {
	struct hnode h;
	size_t i;
};

int hmap_index_add(struct hmap *m, uint64_t key, size_t i)
{
	struct hmap_pos *x = hmap_add_new(m, key, sizeof(*x));

	if (!x)
		return -AN_E_NOMEM;
	x->i = i;
	return 0;
}

size_t hmap_index_find(const struct hmap *m, uint64_t key,
		       bool (*same)(const void *arg, size_t i),
		       const void *arg, size_t none)
{
	for (struct hnode **pp = hmap_slot(m, key); pp && *pp;
	     pp = &(*pp)->next)
		if ((*pp)->key == key && same(arg, ((struct hmap_pos *)*pp)->i))
			return ((struct hmap_pos *)*pp)->i;
	return none;
}

void hmap_unlink(struct hmap *m, struct hnode **pp)
{
	*pp = (*pp)->next;
	m->n--;
}

void hmap_release(struct hmap *m, void (*fr)(struct hnode *))
{
	for (size_t i = 0; i < m->cap; i++) {
		struct hnode *x;

		while ((x = m->b[i])) {
			m->b[i] = x->next;
			if (fr)
				fr(x);
			else
				free(x);
		}
	}
	free(m->b);
	memset(m, 0, sizeof(*m));
}
