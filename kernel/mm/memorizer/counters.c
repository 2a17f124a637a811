// SPDX-License-Identifier: GPL-2.0
/*
 * A record's counters: the loads and stores to its object, one counter per
 * accessing instruction and pid. The access path finds a counter in a
 * hash of (record, ip, pid), O(1) expected however many instructions and
 * processes touch one object, and counts with an atomic increment; a new
 * counter also goes on its record's list, which the text formats and the
 * binary stream read.
 *
 * Two bit spinlocks, both taken with IRQs off: each record's counters_lock
 * makes one counter per (ip, pid) and none after the record closes; each
 * bucket's lock (bit 0 of its head) orders writers. Readers walk chains
 * and lists without locks; counters live in the pool, which is never
 * unmapped, and are freed a grace period after they leave both.
 */

#include <linux/mm.h>
#include <linux/bit_spinlock.h>
#include <linux/hash.h>
#include <linux/irqflags.h>
#include <linux/vmalloc.h>

#include "memorizer.h"
#include "pool.h"

#define BUCKET_LOCK 0
#define RECORD_LOCK 0		/* the bit of memorizer_record.counters_lock */

unsigned long *memorizer_counter_table;
unsigned int memorizer_counter_bits;

int __init memorizer_counters_init(unsigned int bits)
{
	memorizer_counter_bits = bits;
	memorizer_counter_table = vcalloc(1UL << bits,
					  sizeof(*memorizer_counter_table));
	return memorizer_counter_table ? 0 : -ENOMEM;
}

static struct memorizer_counter *bucket_first(unsigned long *bucket)
{
	return (struct memorizer_counter *)(READ_ONCE(*bucket) &
					    ~BIT(BUCKET_LOCK));
}

/*
 * The counter for (@rec, @ip, @pid), made on first use. NULL when the pool
 * is used up or the record is closed. Preemption is disabled.
 */
struct memorizer_counter *memorizer_counter_get(struct memorizer_record *rec,
						unsigned long ip, pid_t pid)
{
	unsigned long *bucket = memorizer_counter_bucket(rec, ip, pid);
	struct memorizer_counter *c;
	unsigned long flags;

	c = memorizer_counter_find(bucket, rec, ip, pid);
	if (likely(c))
		return c;
	/* An ip a counter cannot hold (none of the kernel's): dropped. */
	if (unlikely(!memorizer_counter_ip_fits(ip))) {
		memorizer_stat_inc(MEMORIZER_STAT_DROPPED_ACCESSES);
		return NULL;
	}
	/* A full pool: drop without the locks (see pool_used_up()). */
	if (!memorizer_pool_available(MEMORIZER_POOL_SMALL)) {
		memorizer_stat_inc(MEMORIZER_STAT_DROPPED_ACCESSES);
		return NULL;
	}

	local_irq_save(flags);
	bit_spin_lock(RECORD_LOCK, &rec->counters_lock);
	if (READ_ONCE(rec->state) != MEMORIZER_RECORD_CLOSED) {
		bit_spin_lock(BUCKET_LOCK, bucket);
		c = memorizer_counter_find(bucket, rec, ip, pid);
		if (!c) {
			c = memorizer_pool_alloc_irqoff(MEMORIZER_POOL_SMALL);
			if (c) {
				c->rec = memorizer_ref(rec);
				c->ip = ip;
				c->pid = pid;
				atomic_set(&c->writes, 0);
				atomic_set(&c->reads, 0);
				c->span = MEMORIZER_SPAN_EMPTY;
				c->next = rec->counters;
				c->hash_next = memorizer_ref(bucket_first(bucket));
				/* Pairs with the readers' acquire: it is whole. */
				smp_store_release(&rec->counters,
						  memorizer_ref(c));
				/* Publish, keeping the lock bit set. */
				smp_store_release(bucket, (unsigned long)c |
						  BIT(BUCKET_LOCK));
			} else {
				memorizer_stat_inc(MEMORIZER_STAT_DROPPED_ACCESSES);
			}
		}
		bit_spin_unlock(BUCKET_LOCK, bucket);
	}
	bit_spin_unlock(RECORD_LOCK, &rec->counters_lock);
	local_irq_restore(flags);
	return c;
}

/* Take @c out of the hash; readers on it still reach what follows it. */
static void counter_unhash(struct memorizer_record *rec,
			   struct memorizer_counter *c)
{
	unsigned long *bucket = memorizer_counter_bucket(rec,
							 memorizer_counter_ip(c),
							 c->pid);
	struct memorizer_counter *cur, *prev = NULL;

	bit_spin_lock(BUCKET_LOCK, bucket);
	for (cur = bucket_first(bucket); cur && cur != c;
	     cur = memorizer_deref(cur->hash_next))
		prev = cur;
	if (cur && prev)
		WRITE_ONCE(prev->hash_next, c->hash_next);
	else if (cur)
		WRITE_ONCE(*bucket,
			   (unsigned long)memorizer_deref(c->hash_next) |
			   BIT(BUCKET_LOCK));
	bit_spin_unlock(BUCKET_LOCK, bucket);
}

/*
 * The last step of closing @rec: under its counters_lock it becomes
 * CLOSED, so that no counter is added after, and its counters leave the
 * hash. They stay on its list, and are freed with the record.
 */
void memorizer_counters_close(struct memorizer_record *rec)
{
	struct memorizer_counter *c;
	unsigned long flags;

	local_irq_save(flags);
	bit_spin_lock(RECORD_LOCK, &rec->counters_lock);
	/* Readers that see CLOSED see how the record ended. */
	smp_store_release(&rec->state, MEMORIZER_RECORD_CLOSED);
	bit_spin_unlock(RECORD_LOCK, &rec->counters_lock);

	for (c = memorizer_deref(rec->counters); c; c = memorizer_deref(c->next))
		if (c->rec)
			counter_unhash(rec, c);
	local_irq_restore(flags);
}

/*
 * Sweep the counters of live @rec, IRQs off. A counter touched since the
 * last sweep gives what it counted since to @counts, and starts again
 * from 0. One untouched since leaves the hash (->rec NULL: accesses no
 * longer find it) and, at the next sweep, a grace period later, with what
 * racing accesses still counted given, the record's list, into @idle (at
 * most @max in all, from @n) for the caller to free after another. So a
 * long-lived object keeps only the counters in use, however many
 * processes come and go. Returns the entries in @idle.
 */
unsigned int memorizer_counters_sweep(struct memorizer_record *rec,
				      memorizer_counts_fn counts,
				      struct memorizer_counter **idle,
				      unsigned int n, unsigned int max)
{
	struct memorizer_counter *c;
	u32 *link = &rec->counters;

	bit_spin_lock(RECORD_LOCK, &rec->counters_lock);
	if (READ_ONCE(rec->state) == MEMORIZER_RECORD_CLOSED)
		goto out;
	while ((c = memorizer_deref(*link))) {
		bool unhashed = !c->rec;
		u32 writes = atomic_xchg(&c->writes, 0);
		u32 reads = atomic_xchg(&c->reads, 0);

		if (writes || reads)
			counts(rec, c, writes, reads);
		if (unhashed && n < max) {
			/* Readers on @c still reach what follows it. */
			WRITE_ONCE(*link, c->next);
			idle[n++] = c;
			continue;
		}
		if (!unhashed && !writes && !reads) {
			counter_unhash(rec, c);
			WRITE_ONCE(c->rec, 0);
		}
		link = &c->next;
	}
out:
	bit_spin_unlock(RECORD_LOCK, &rec->counters_lock);
	return n;
}
