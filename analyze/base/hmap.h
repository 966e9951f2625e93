/* SPDX-License-Identifier: MIT */
/*
 * hmap.h - an intrusive hash multimap with chaining, keyed by a u64: the
 * entries embed a struct hnode and belong to the caller, several may
 * share a key (the caller compares what the key does not say).
 */
#ifndef IOREPORT_BASE_HMAP_H
#define IOREPORT_BASE_HMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hnode {
	struct hnode *next;
	uint64_t key;
};

struct hmap {
	struct hnode **b;
	size_t cap, n;
};

/*
 * The hashes every table of the analyzer keys by: hash_mix() spreads a
 * u64 over all its bits (murmur3's finalizer), hash_str() continues an
 * FNV-1a hash h over the bytes of s (HASH_SEED to start one), and
 * hash_bytes() over the n bytes at p, NULs too.  The values are stored
 * (the content_id of a recording in the SQLite database): never change
 * them.
 */
#define HASH_SEED	0xcbf29ce484222325ULL	/* FNV-1a's offset basis */
uint64_t hash_mix(uint64_t h);
uint64_t hash_str(uint64_t h, const char *s);
uint64_t hash_bytes(uint64_t h, const void *p, size_t n);

/* The bucket of key in a table of cap buckets (a power of two). */
size_t hslot(uint64_t key, size_t cap);
/*
 * Add e (e->key set); the table doubles past one entry per bucket.
 * Returns 0, or -AN_E_NOMEM (e not added).
 */
int hmap_add(struct hmap *m, struct hnode *e);
/*
 * A new zeroed entry of size bytes (a struct beginning with its hnode)
 * with key, added; NULL without memory.
 */
void *hmap_add_new(struct hmap *m, uint64_t key, size_t size);
/*
 * The link to the first entry with key, or NULL (further ones: follow
 * ->next and compare keys).
 */
struct hnode **hmap_slot(const struct hmap *m, uint64_t key);
/*
 * For a map whose keys are unique: the entry with key, or NULL; and the
 * entry with key, or a new one as hmap_add_new() makes (NULL likewise).
 */
void *hmap_get(const struct hmap *m, uint64_t key);
void *hmap_get_new(struct hmap *m, uint64_t key, size_t size);
/*
 * An index of the rows of an array by a key the caller hashes them to:
 * each entry holds a row's position (entries of the map's own, freed by
 * hmap_release(m, NULL)).  hmap_index_add() indexes row i under key, 0 or
 * -AN_E_NOMEM; hmap_index_find() returns the position of the first row
 * under key that same(arg, i) takes, or none.
 */
int hmap_index_add(struct hmap *m, uint64_t key, size_t i);
size_t hmap_index_find(const struct hmap *m, uint64_t key,
		       bool (*same)(const void *arg, size_t i),
		       const void *arg, size_t none);
/* Unlink the entry *pp points at (it stays the caller's). */
void hmap_unlink(struct hmap *m, struct hnode **pp);
/* Call fr (free when NULL) on every entry, free the buckets and zero m. */
void hmap_release(struct hmap *m, void (*fr)(struct hnode *));

#endif /* IOREPORT_BASE_HMAP_H */
