// SPDX-License-Identifier: MIT
/*
 * imap.c - the int -> pointer hash map and the dense id table of imap.h.
 */
#include "config.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/imap.h"


static size_t imap_hash(int key, size_t cap)
{
	uint32_t h = (uint32_t)key * 2654435761u;

	return (size_t)(h ^ (h >> 16)) & (cap - 1);
}

void imap_init(struct imap *m)
{
	memset(m, 0, sizeof(*m));
}

void imap_release(struct imap *m)
{
	free(m->keys);
	free(m->vals);
	imap_init(m);
}

void imap_release_all(struct imap *m, void (*fr)(void *))
{
	for (size_t i = 0; i < m->cap; i++)
		if (m->vals[i])
			(fr ? fr : free)(m->vals[i]);
	imap_release(m);
}

static size_t imap_find(const struct imap *m, int key)
{
	size_t i = imap_hash(key, m->cap);

	while (m->vals[i] && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	return i;
}

void *imap_get(const struct imap *m, int key)
{
	if (!m->n)
		return NULL;
	return m->vals[imap_find(m, key)];
}

/* Double the table; 0, or -AN_E_NOMEM with m unchanged. */
static int imap_grow(struct imap *m)
{
	struct imap old = *m;
	size_t cap = old.cap ? old.cap * 2 : 16;
	int *keys = an_calloc(cap, sizeof(*keys));
	void **vals = an_calloc(cap, sizeof(*vals));

	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -AN_E_NOMEM;
	}
	m->cap = cap;
	m->n = 0;
	m->keys = keys;
	m->vals = vals;
	for (size_t i = 0; i < old.cap; i++)
		if (old.vals[i])
			imap_put(m, old.keys[i], old.vals[i], NULL);
	free(old.keys);
	free(old.vals);
	return 0;
}

int imap_put(struct imap *m, int key, void *val, void **prev)
{
	size_t i;
	void *was;

	assert(val);
	/* past 3/4 full the table doubles; when it cannot, it fills up
	 * while a free slot is left (the probes end at one) */
	if ((m->n + 1) * 4 > m->cap * 3 && imap_grow(m) < 0 &&
	    m->n + 2 > m->cap)
		return -AN_E_NOMEM;
	i = imap_find(m, key);
	was = m->vals[i];
	m->keys[i] = key;
	m->vals[i] = val;
	if (!was)
		m->n++;
	if (prev)
		*prev = was;
	return 0;
}

void *imap_put_new(struct imap *m, int key, size_t size)
{
	void *v = an_calloc(1, size);

	if (v && imap_put(m, key, v, NULL)) {
		free(v);
		return NULL;
	}
	return v;
}

void *imap_get_new(struct imap *m, int key, size_t size)
{
	void *v = imap_get(m, key);

	return v ? v : imap_put_new(m, key, size);
}

void *imap_del(struct imap *m, int key)
{
	size_t i, j, k;
	void *val;

	if (!m->n)
		return NULL;
	i = imap_find(m, key);
	val = m->vals[i];
	if (!val)
		return NULL;
	m->vals[i] = NULL;
	m->n--;
	/* Backward-shift: move later entries of the probe run into the hole. */
	j = i;
	for (;;) {
		j = (j + 1) & (m->cap - 1);
		if (!m->vals[j])
			break;
		k = imap_hash(m->keys[j], m->cap);
		/* Entry j may move to i if its home k is not in (i, j]. */
		if ((j > i && (k <= i || k > j)) || (j < i && (k <= i && k > j))) {
			m->keys[i] = m->keys[j];
			m->vals[i] = m->vals[j];
			m->vals[j] = NULL;
			i = j;
		}
	}
	return val;
}

bool imap_next(const struct imap *m, size_t *pos, int *key, void **val)
{
	for (; *pos < m->cap; (*pos)++) {
		if (m->vals[*pos]) {
			*key = m->keys[*pos];
			*val = m->vals[*pos];
			(*pos)++;
			return true;
		}
	}
	return false;
}

int idtab_build(struct idtab *t, const struct imap *m)
{
	size_t pos = 0;
	int key, max = -1;
	void *val;

	while (imap_next(m, &pos, &key, &val))
		if (key >= 0 && key < IDTAB_MAX && key > max)
			max = key;
	t->v = an_calloc(max >= 0 ? (size_t)max + 1 : 1, sizeof(*t->v));
	if (!t->v) {
		t->n = 0;
		return -AN_E_NOMEM;
	}
	t->n = max + 1;
	pos = 0;
	while (imap_next(m, &pos, &key, &val))
		if (key >= 0 && key < IDTAB_MAX)
			t->v[key] = val;
	return 0;
}

void idtab_release(struct idtab *t)
{
	free(t->v);
	t->v = NULL;
	t->n = 0;
}
