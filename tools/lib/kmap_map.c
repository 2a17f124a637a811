// SPDX-License-Identifier: GPL-2.0
/* libkmap: an open-addressing hash map from u64 to u64. See kmap.h. */
#include <stddef.h>
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
	free(m->slots);
	kmap_map_init(m);
}

uint64_t *kmap_map_find(const struct kmap_map *m, uint64_t key)
{
	size_t i, mask = m->cap - 1;

	if (key == KMAP_MAP_FREE)
		return m->has_free_key ? (uint64_t *)&m->free_key_val : NULL;
	if (!m->cap)
		return NULL;
	for (i = hash(key) & mask; m->slots[i].key != KMAP_MAP_FREE;
	     i = (i + 1) & mask)
		if (m->slots[i].key == key)
			return &m->slots[i].val;
	return NULL;
}

void kmap_map_prefetch(const struct kmap_map *m, uint64_t key)
{
	if (m->cap)
		__builtin_prefetch(&m->slots[hash(key) & (m->cap - 1)]);
}

/* Put key (not in the table) in slots of cap (free slots: enough). */
static struct kmap_slot *place(struct kmap_slot *slots, size_t cap,
			       uint64_t key)
{
	size_t i;

	for (i = hash(key) & (cap - 1); slots[i].key != KMAP_MAP_FREE;
	     i = (i + 1) & (cap - 1))
		;
	slots[i].key = key;
	return &slots[i];
}

static int grow(struct kmap_map *m)
{
	size_t cap = m->cap ? 2 * m->cap : 64, i;
	struct kmap_slot *slots = malloc(cap * sizeof(*slots));

	if (!slots)
		return -1;
	memset(slots, 0xff, cap * sizeof(*slots));	/* every key free */
	for (i = 0; i < m->cap; i++)
		if (m->slots[i].key != KMAP_MAP_FREE)
			place(slots, cap, m->slots[i].key)->val = m->slots[i].val;
	free(m->slots);
	m->slots = slots;
	m->cap = cap;
	return 0;
}

uint64_t *kmap_map_get(struct kmap_map *m, uint64_t key, int *is_new)
{
	struct kmap_slot *s = NULL;
	size_t i, mask = m->cap - 1;

	if (key == KMAP_MAP_FREE) {
		if (is_new)
			*is_new = !m->has_free_key;
		if (!m->has_free_key) {
			m->len++;
			m->has_free_key = 1;
			m->free_key_val = 0;
		}
		return &m->free_key_val;
	}
	/* One probe: key's slot, or the free one it would take. */
	if (m->cap) {
		for (i = hash(key) & mask; m->slots[i].key != KMAP_MAP_FREE;
		     i = (i + 1) & mask)
			if (m->slots[i].key == key) {
				if (is_new)
					*is_new = 0;
				return &m->slots[i].val;
			}
		s = &m->slots[i];
	}
	if (is_new)
		*is_new = 1;
	m->len++;
	if (m->len * 4 > m->cap * 3) {
		if (grow(m)) {
			m->len--;
			return NULL;
		}
		s = place(m->slots, m->cap, key);
	}
	s->key = key;
	s->val = 0;
	return &s->val;
}

int kmap_map_del(struct kmap_map *m, uint64_t key)
{
	uint64_t *v = kmap_map_find(m, key);
	size_t i, j, mask = m->cap - 1;

	if (!v)
		return 0;
	m->len--;
	if (key == KMAP_MAP_FREE) {
		m->has_free_key = 0;
		return 1;
	}
	i = (struct kmap_slot *)((char *)v - offsetof(struct kmap_slot, val)) -
	    m->slots;
	m->slots[i].key = KMAP_MAP_FREE;
	/* Backward-shift deletion: re-place the rest of the cluster. */
	for (j = (i + 1) & mask; m->slots[j].key != KMAP_MAP_FREE;
	     j = (j + 1) & mask) {
		struct kmap_slot s = m->slots[j];

		m->slots[j].key = KMAP_MAP_FREE;
		place(m->slots, m->cap, s.key)->val = s.val;
	}
	return 1;
}

int kmap_map_next(const struct kmap_map *m, size_t *pos, uint64_t *key,
		  uint64_t **val)
{
	while (*pos < m->cap) {
		const struct kmap_slot *s = &m->slots[(*pos)++];

		if (s->key != KMAP_MAP_FREE) {
			*key = s->key;
			*val = (uint64_t *)&s->val;
			return 1;
		}
	}
	if (*pos == m->cap && m->has_free_key) {
		(*pos)++;
		*key = KMAP_MAP_FREE;
		*val = (uint64_t *)&m->free_key_val;
		return 1;
	}
	return 0;
}

int kmap_grow_to(void **p, size_t *cap, size_t n, size_t size)
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

int kmap_intern_wide(struct kmap_map *m, uint64_t h, const void *key,
		     int (*same)(const void *key, const void *elem),
		     void **arr, size_t *n, size_t *cap, size_t size,
		     size_t *idx, int *is_new)
{
	const uint64_t *v;

	for (;; h++) {
		v = kmap_map_find(m, h);
		if (!v)
			return kmap_intern(m, h, arr, n, cap, size, idx, is_new);
		if (same(key, (const char *)*arr + *v * size)) {
			*idx = (size_t)*v;
			*is_new = 0;
			return 0;
		}
	}
}
