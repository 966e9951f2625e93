/* SPDX-License-Identifier: MIT */
/*
 * imap.h - a small int -> pointer hash map (open addressing,
 * backward-shift delete), used for thread, process and fd ids, and a
 * dense table by event id built from one.
 */
#ifndef IOREPORT_BASE_IMAP_H
#define IOREPORT_BASE_IMAP_H

#include <stdbool.h>
#include <stddef.h>


struct imap {
	size_t cap;		/* power of two, 0 when empty */
	size_t n;
	int *keys;
	void **vals;		/* NULL marks a free slot: values are never NULL */
};

void imap_init(struct imap *m);
void imap_release(struct imap *m);
/* Call fr (free when NULL) on every value, then release m. */
void imap_release_all(struct imap *m, void (*fr)(void *));
void *imap_get(const struct imap *m, int key);
/*
 * imap_put - insert or replace; val != NULL
 * @prev: set to the previous value or NULL (may be NULL itself)
 *
 * Returns 0, or -AN_E_NOMEM with m unchanged.
 */
int imap_put(struct imap *m, int key, void *val, void **prev);
/*
 * A new zeroed value of size bytes put at key (which has none): the
 * per-thread (per-id) record every stage keeps.  NULL without memory,
 * with m unchanged.
 */
void *imap_put_new(struct imap *m, int key, size_t size);
/* The value of key, or a new one as imap_put_new() makes; NULL likewise. */
void *imap_get_new(struct imap *m, int key, size_t size);
/* Remove key; returns its value or NULL. */
void *imap_del(struct imap *m, int key);
/*
 * Iterate: start with *pos = 0; returns false at the end.  The map must
 * not be changed during the walk.
 */
bool imap_next(const struct imap *m, size_t *pos, int *key, void **val);

/*
 * A dense event id -> pointer table, for the per-event handler lookups
 * (event ids are small): built once from an imap after it is filled.
 */
struct idtab {
	int n;			/* ids 0..n-1 */
	void **v;
};

#define IDTAB_MAX	65536

/*
 * Build t from m (ids beyond IDTAB_MAX are left out: see idtab_get);
 * 0, or -AN_E_NOMEM with t empty (idtab_get() then asks m).
 */
int idtab_build(struct idtab *t, const struct imap *m);
void idtab_release(struct idtab *t);
/* The value of id, from t, or from m for an id t does not cover. */
static inline void *idtab_get(const struct idtab *t, const struct imap *m,
			      int id)
{
	if ((unsigned int)id < (unsigned int)t->n)
		return t->v[id];
	return id >= IDTAB_MAX || id < 0 ? imap_get(m, id) : NULL;
}

#endif /* IOREPORT_BASE_IMAP_H */
