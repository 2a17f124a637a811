// SPDX-License-Identifier: GPL-2.0
/* libkmap: an open-addressing hash map from u64 to u64. See kmap.h. */
#include <stdlib.h>
#include <string.h>

#include "kmap.h"

static size_t hash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ull;
	k ^= k >> 33;
	return (size_t)k;
}

void kmap_map_init(struct kmap_map *m)
{
	memset(m, 0, sizeof(*m));
}

void kmap_map_free(struct kmap_map *m)
{
	free(m->keys);
	free(m->vals);
	free(m->used);
	kmap_map_init(m);
}

uint64_t *kmap_map_find(const struct kmap_map *m, uint64_t key)
{
	size_t i;

	if (!m->cap)
		return NULL;
	for (i = hash(key) & (m->cap - 1); m->used[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key)
			return &m->vals[i];
	return NULL;
}

static int grow(struct kmap_map *m)
{
	struct kmap_map n;
	size_t i;

	n.cap = m->cap ? 2 * m->cap : 64;
	n.len = 0;
	n.keys = malloc(n.cap * sizeof(*n.keys));
	n.vals = malloc(n.cap * sizeof(*n.vals));
	n.used = calloc(n.cap, 1);
	if (!n.keys || !n.vals || !n.used) {
		free(n.keys);
		free(n.vals);
		free(n.used);
		return -1;
	}
	for (i = 0; i < m->cap; i++) {
		size_t j;

		if (!m->used[i])
			continue;
		for (j = hash(m->keys[i]) & (n.cap - 1); n.used[j];
		     j = (j + 1) & (n.cap - 1))
			;
		n.used[j] = 1;
		n.keys[j] = m->keys[i];
		n.vals[j] = m->vals[i];
		n.len++;
	}
	kmap_map_free(m);
	*m = n;
	return 0;
}

uint64_t *kmap_map_get(struct kmap_map *m, uint64_t key, int *is_new)
{
	size_t i;
	uint64_t *v = kmap_map_find(m, key);

	if (is_new)
		*is_new = 0;
	if (v)
		return v;
	if ((m->len + 1) * 4 > m->cap * 3 && grow(m))
		return NULL;
	for (i = hash(key) & (m->cap - 1); m->used[i]; i = (i + 1) & (m->cap - 1))
		;
	m->used[i] = 1;
	m->keys[i] = key;
	m->vals[i] = 0;
	m->len++;
	if (is_new)
		*is_new = 1;
	return &m->vals[i];
}

int kmap_map_del(struct kmap_map *m, uint64_t key)
{
	size_t i, j;
	uint64_t *v = kmap_map_find(m, key);

	if (!v)
		return 0;
	i = v - m->vals;
	m->used[i] = 0;
	m->len--;
	/* Backward-shift deletion: re-place the rest of the cluster. */
	for (j = (i + 1) & (m->cap - 1); m->used[j]; j = (j + 1) & (m->cap - 1)) {
		uint64_t k = m->keys[j], val = m->vals[j];
		size_t h;

		m->used[j] = 0;
		for (h = hash(k) & (m->cap - 1); m->used[h];
		     h = (h + 1) & (m->cap - 1))
			;
		m->used[h] = 1;
		m->keys[h] = k;
		m->vals[h] = val;
	}
	return 1;
}

int kmap_grow(void **p, size_t *cap, size_t n, size_t size)
{
	size_t c = *cap ? *cap : n < 4 ? 4 : n;
	void *q;

	if (n <= *cap)
		return 0;
	while (c < n) {
		if (c > SIZE_MAX / 2 / size)
			return -1;
		c *= 2;
	}
	if (c > SIZE_MAX / size)
		return -1;
	q = realloc(*p, c * size);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

int kmap_intern(struct kmap_map *m, uint64_t key, void **arr, size_t *n,
		size_t *cap, size_t size, size_t *idx, int *is_new)
{
	uint64_t *slot = kmap_map_get(m, key, is_new);

	if (!slot)
		return -1;
	if (*is_new) {
		if (kmap_grow(arr, cap, *n + 1, size)) {
			kmap_map_del(m, key);
			return -1;
		}
		*slot = (*n)++;
	}
	*idx = (size_t)*slot;
	return 0;
}
