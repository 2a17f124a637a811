// SPDX-License-Identifier: GPL-2.0
/*
 * Memorizer's index: from an address to the live record of the object
 * that covers it, in O(1) expected time. A hash of keys: each record's
 * start address, and for multi-page objects (vmalloc areas, multi-page
 * allocations that are not compound pages) each further page. An address
 * gives the start to look up through what the kernel knows of its memory:
 *
 *   slab object:   virt_to_slab() -> nearest_obj() -> index
 *   large kmalloc, compound pages: folio_address()   -> index
 *   per-CPU variable:  the copy's start (globals.c)  -> index
 *   other pages, vmalloc area: page address          -> index
 *   kernel image data:      the symbol's (globals.c)  -> index
 *
 * Lookups take no lock and run with preemption disabled, an RCU read-side
 * section: a record is freed a grace period after it left the index.
 */

#include <linux/mm.h>
#include <linux/hash.h>
#include <linux/irqflags.h>
#include <linux/list_bl.h>
#include <linux/rculist_bl.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "../slab.h"
#include "memorizer.h"

struct hlist_bl_head *memorizer_index_table;
unsigned int memorizer_index_bits;

int __init memorizer_index_init(unsigned int bits)
{
	memorizer_index_bits = bits;
	memorizer_index_table = vcalloc(1UL << bits,
					sizeof(*memorizer_index_table));
	return memorizer_index_table ? 0 : -ENOMEM;
}

/* Under the bucket lock. Lookups may still be walking past @key. */
static void bucket_unlink(struct memorizer_key *key)
{
	__hlist_bl_del(&key->node);
	key->node.pprev = NULL;		/* hlist_bl_unhashed() */
}

/*
 * Bucket locks are bit spinlocks that interrupts also take (objects are
 * allocated and freed in any context): IRQs stay off while one is held.
 */
static void bucket_lock(struct hlist_bl_head *head, unsigned long *flags)
{
	local_irq_save(*flags);
	hlist_bl_lock(head);
}

static void bucket_unlock(struct hlist_bl_head *head, unsigned long flags)
{
	hlist_bl_unlock(head);
	local_irq_restore(flags);
}

/* Remove @key if it is still in the index. */
void memorizer_index_remove(struct memorizer_key *key)
{
	struct hlist_bl_head *head = memorizer_index_bucket(key->addr);
	unsigned long flags;

	bucket_lock(head, &flags);
	if (!hlist_bl_unhashed(&key->node))
		bucket_unlink(key);
	bucket_unlock(head, flags);
}

/*
 * Add @key. Whatever held its address before lost a free we did not see:
 * its record is returned, for the caller to close.
 */
struct memorizer_record *memorizer_index_insert(struct memorizer_key *key)
{
	struct hlist_bl_head *head = memorizer_index_bucket(key->addr);
	struct memorizer_record *stale = NULL;
	struct memorizer_key *old;
	unsigned long flags;

	bucket_lock(head, &flags);
	old = memorizer_index_find(key->addr);
	if (old) {
		bucket_unlink(old);
		stale = old->rec;
	}
	hlist_bl_add_head_rcu(&key->node, head);
	bucket_unlock(head, flags);
	return stale;
}

/*
 * Add @key unless a key at its address is there already: then the record
 * that has it is returned, and @key is not added.
 */
struct memorizer_record *memorizer_index_insert_new(struct memorizer_key *key)
{
	struct hlist_bl_head *head = memorizer_index_bucket(key->addr);
	struct memorizer_key *old;
	unsigned long flags;

	bucket_lock(head, &flags);
	old = memorizer_index_find(key->addr);
	if (!old)
		hlist_bl_add_head_rcu(&key->node, head);
	bucket_unlock(head, flags);
	return old ? old->rec : NULL;
}

/*
 * The live record whose object covers @addr, or NULL. Preemption must be
 * disabled; the record stays valid until it is enabled again.
 */
struct memorizer_record *memorizer_index_lookup(unsigned long addr)
{
	struct memorizer_key *key;
	struct memorizer_record *rec;
	unsigned long start, size = 0;	/* size: per-CPU data's, if known */
	bool direct = false;	/* direct map, not a slab's memory */

	/*
	 * Not virt_addr_valid(): it is instrumented and takes RCU (lockdep),
	 * far too much for every access. The direct map up to high_memory
	 * is where slab and page-backed kmalloc objects live.
	 */
	if (addr >= PAGE_OFFSET && addr < (unsigned long)high_memory) {
		struct folio *folio = virt_to_folio((void *)addr);

		if (folio_test_slab(folio))
			return memorizer_slab_lookup(folio, addr);
		if (!memorizer_percpu_extent(addr, &start, &size))
			start = (unsigned long)folio_address(folio);
		direct = true;
	} else if (is_vmalloc_addr((void *)addr)) {
		start = addr & PAGE_MASK;
	} else if (!memorizer_global_extent(addr, &start, &size)) {
		return NULL;
	}

	key = memorizer_index_find(start);
	if (!key)
		return NULL;
	rec = READ_ONCE(key->rec);
	if (!rec || addr - rec->key.addr >= rec->size_alloc)
		return NULL;
	/*
	 * A slab object's record where a page is now: a found record whose
	 * free no hook could see (a slab object found while free, its slab
	 * since given back). Not this memory's object.
	 */
	if (direct && memorizer_kind_is_slab(rec->kind))
		return NULL;
	/* An alloc_percpu() area freed (unseen) and allocated anew. */
	if (size && rec->found && rec->size_alloc != size)
		return NULL;
	return rec;
}
