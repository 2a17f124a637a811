// SPDX-License-Identifier: GPL-2.0
/*
 * Slab cache names, interned. A record keeps a small id rather than the
 * name: a kmem_cache and its name may be gone long before the record is
 * read (kmem_cache_destroy()), and a copy per record would cost 32 bytes.
 *
 * An open-addressed table keyed by the cache pointer; an entry also holds
 * the name it was made with, since a destroyed cache's memory can come back
 * as another cache. Entries are never removed, so lookups take no lock.
 */

#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "../slab.h"
#include "memorizer.h"

#define CACHE_TABLE_SIZE	MEMORIZER_CACHE_IDS
#define CACHE_TABLE_BITS	ilog2(CACHE_TABLE_SIZE)

struct cache_name {
	struct kmem_cache *s;		/* set last, with release */
	char name[MEMORIZER_CACHE_NAME_LEN];
};

static struct cache_name cache_names[CACHE_TABLE_SIZE];
static DEFINE_RAW_SPINLOCK(cache_names_lock);

static bool same_cache(const struct cache_name *c, struct kmem_cache *s)
{
	return c->name[0] && !strncmp(c->name, s->name, sizeof(c->name) - 1);
}

/*
 * The slot holding @s under its current name, or with @insert the empty
 * slot where it goes; -1 when the table is full.
 */
static int cache_slot(struct kmem_cache *s, bool insert)
{
	unsigned int i = hash_ptr(s, CACHE_TABLE_BITS), n;

	for (n = 0; n < CACHE_TABLE_SIZE; n++, i = (i + 1) % CACHE_TABLE_SIZE) {
		/* Pairs with the release below: the name is complete. */
		struct kmem_cache *cs = smp_load_acquire(&cache_names[i].s);

		if (!cs)
			return insert ? i : -1;
		if (cs == s && same_cache(&cache_names[i], s))
			return i;
	}
	return -1;
}

/* The id of @s's name, 1 and up; 0 when there is no room left. */
u16 memorizer_cache_id(struct kmem_cache *s)
{
	unsigned long flags;
	int i;

	if (!s || !s->name)
		return 0;
	i = cache_slot(s, false);
	if (i >= 0)
		return i + 1;

	raw_spin_lock_irqsave(&cache_names_lock, flags);
	i = cache_slot(s, true);
	if (i >= 0 && !cache_names[i].s) {
		strscpy(cache_names[i].name, s->name,
			sizeof(cache_names[i].name));
		/* Lockless readers see the name before the entry. */
		smp_store_release(&cache_names[i].s, s);
	}
	raw_spin_unlock_irqrestore(&cache_names_lock, flags);
	return i >= 0 ? i + 1 : 0;
}

/* The name behind @id, or NULL for id 0. */
const char *memorizer_cache_name(u16 id)
{
	if (!id || id > CACHE_TABLE_SIZE)
		return NULL;
	/* Pairs with the release in memorizer_cache_id(). */
	if (!smp_load_acquire(&cache_names[id - 1].s))
		return NULL;
	return cache_names[id - 1].name;
}
