// SPDX-License-Identifier: GPL-2.0
/*
 * Memorizer's access path: every load and store KASAN checks comes here
 * (while access logging is on) and is counted on the object it falls in,
 * per accessing instruction and pid. No global lock: a lookup in the
 * object index, a lookup in the counter hash, an atomic increment. Both
 * lookups are O(1) expected, however many instructions and processes
 * touch one object.
 */

#include <linux/hash.h>
#include <linux/irqflags.h>
#include <linux/memorizer.h>
#include <linux/preempt.h>
#include <linux/processor.h>
#include <linux/bit_spinlock.h>
#include <linux/sched.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "memorizer.h"
#include "pool.h"

DEFINE_STATIC_KEY_FALSE(memorizer_access_key);

/*
 * Counter buckets: a singly linked chain each, bit 0 of the head is the
 * bucket's lock. Readers walk chains without it.
 */
#define BUCKET_LOCK 0
static unsigned long *counter_table;
static unsigned int counter_bits;

int __init memorizer_counters_init(unsigned int bits)
{
	counter_bits = bits;
	counter_table = vcalloc(1UL << bits, sizeof(*counter_table));
	return counter_table ? 0 : -ENOMEM;
}

static unsigned long *counter_bucket(struct memorizer_obj *obj,
				     unsigned long ip, pid_t pid)
{
	return &counter_table[hash_long((unsigned long)obj ^ hash_long(ip ^ pid,
						BITS_PER_LONG), counter_bits)];
}

static struct memorizer_access *bucket_first(unsigned long *bucket)
{
	return (struct memorizer_access *)(READ_ONCE(*bucket) &
					   ~BIT(BUCKET_LOCK));
}

static struct memorizer_access *find_counter(unsigned long *bucket,
					     struct memorizer_obj *obj,
					     unsigned long ip, pid_t pid)
{
	struct memorizer_access *a;

	for (a = bucket_first(bucket); a; a = READ_ONCE(a->hash_next))
		if (a->obj == obj && a->ip == ip && a->pid == pid)
			return a;
	return NULL;
}

/*
 * The counter for (@obj, @ip, @pid), made on first use. NULL when the pool
 * is used up or the object has been freed. New counters are made under the
 * object's lock, so that there is one per (ip, pid) and none is added
 * after memorizer_counters_close().
 */
static struct memorizer_access *get_counter(struct memorizer_obj *obj,
					    unsigned long ip, pid_t pid)
{
	unsigned long *bucket = counter_bucket(obj, ip, pid);
	struct memorizer_access *a;
	unsigned long flags;

	a = find_counter(bucket, obj, ip, pid);
	if (likely(a))
		return a;
	/* A full pool: drop without the locks (see pool_used_up()). */
	if (!memorizer_pool_available(MEMORIZER_POOL_SMALL)) {
		memorizer_stat_inc(MEMORIZER_STAT_DROPPED_ACCESSES);
		return NULL;
	}

	local_irq_save(flags);
	bit_spin_lock(MEMORIZER_OBJ_LOCK_ACCESSES, &obj->lock);
	if (!test_bit(MEMORIZER_OBJ_COUNTERS_CLOSED, &obj->lock)) {
		bit_spin_lock(BUCKET_LOCK, bucket);
		a = find_counter(bucket, obj, ip, pid);
		if (!a) {
			a = memorizer_pool_alloc(MEMORIZER_POOL_SMALL);
			if (a) {
				a->obj = obj;
				a->ip = ip;
				a->pid = pid;
				a->next = obj->accesses;
				a->hash_next = bucket_first(bucket);
				/* Pairs with kmap's acquire: a whole counter. */
				smp_store_release(&obj->accesses, a);
				/* Publish, keeping the lock bit set. */
				smp_store_release(bucket, (unsigned long)a |
						  BIT(BUCKET_LOCK));
			} else {
				memorizer_stat_inc(MEMORIZER_STAT_DROPPED_ACCESSES);
			}
		}
		bit_spin_unlock(BUCKET_LOCK, bucket);
	}
	bit_spin_unlock(MEMORIZER_OBJ_LOCK_ACCESSES, &obj->lock);
	local_irq_restore(flags);
	return a;
}

/* Take @a out of the hash; readers on it still reach what follows it. */
static void counter_unhash(struct memorizer_obj *obj,
			   struct memorizer_access *a)
{
	unsigned long *bucket = counter_bucket(obj, a->ip, a->pid);
	struct memorizer_access *cur, *prev = NULL;

	bit_spin_lock(BUCKET_LOCK, bucket);
	for (cur = bucket_first(bucket); cur && cur != a; cur = cur->hash_next)
		prev = cur;
	if (cur && prev)
		WRITE_ONCE(prev->hash_next, a->hash_next);
	else if (cur)
		WRITE_ONCE(*bucket, (unsigned long)a->hash_next |
			   BIT(BUCKET_LOCK));
	bit_spin_unlock(BUCKET_LOCK, bucket);
}

/*
 * @obj was freed: take its counters out of the hash. They stay on the
 * object's list for kmap and are freed with the record.
 */
void memorizer_counters_close(struct memorizer_obj *obj)
{
	struct memorizer_access *a;
	unsigned long flags;

	local_irq_save(flags);
	bit_spin_lock(MEMORIZER_OBJ_LOCK_ACCESSES, &obj->lock);
	set_bit(MEMORIZER_OBJ_COUNTERS_CLOSED, &obj->lock);
	bit_spin_unlock(MEMORIZER_OBJ_LOCK_ACCESSES, &obj->lock);

	for (a = obj->accesses; a; a = a->next)
		if (a->obj)
			counter_unhash(obj, a);
	local_irq_restore(flags);
}

/*
 * The binary channel's sweep of live @obj, IRQs off. A counter touched
 * since the last sweep goes out as an ACCESS record of what it counted
 * since, and starts again from 0. One untouched since leaves the hash
 * (->obj NULL: accesses no longer find it) and, at the next sweep, a
 * grace period later, with what racing accesses still counted sent, the
 * object's list, into @idle (at most @max in all) for the caller to free
 * after another. So a long-lived object keeps only the counters in use,
 * however many processes come and go. Returns the entries in @idle.
 */
unsigned int memorizer_counters_sweep(struct memorizer_obj *obj,
				      struct memorizer_access **idle,
				      unsigned int n, unsigned int max)
{
	struct memorizer_access *a, **link = &obj->accesses;

	bit_spin_lock(MEMORIZER_OBJ_LOCK_ACCESSES, &obj->lock);
	if (test_bit(MEMORIZER_OBJ_COUNTERS_CLOSED, &obj->lock))
		goto out;
	while ((a = *link)) {
		bool unhashed = !a->obj;
		u32 writes = atomic_xchg(&a->writes, 0);
		u32 reads = atomic_xchg(&a->reads, 0);

		if (writes || reads)
			memorizer_binary_access(obj, a, writes, reads);
		if (unhashed && n < max) {
			/* kmap readers on @a still reach what follows it. */
			WRITE_ONCE(*link, a->next);
			idle[n++] = a;
			continue;
		}
		if (!unhashed && !writes && !reads) {
			counter_unhash(obj, a);
			WRITE_ONCE(a->obj, NULL);
		}
		link = &a->next;
	}
out:
	bit_spin_unlock(MEMORIZER_OBJ_LOCK_ACCESSES, &obj->lock);
	return n;
}

/*
 * Each context's last object and counter: most accesses fall in the
 * object the previous one did, many from the same instruction. Records
 * and counters live in the pool, which is never unmapped, so a stale entry
 * is safe to read; it is used only once checked against the record (id,
 * state, range) and the counter (object, ip, pid), checks that a record or
 * counter freed since, or reused, fails. Used with preemption off, as a
 * lookup: nothing it returns is freed before that ends.
 */
struct access_cache {
	struct memorizer_obj *obj;
	u64 id;
	struct memorizer_access *counter;
};
static DEFINE_PER_CPU(struct access_cache, access_caches[4]);

static struct memorizer_obj *cached_object(struct access_cache *c,
					   unsigned long addr)
{
	struct memorizer_obj *obj = c->obj;

	if (!obj || READ_ONCE(obj->id) != c->id)
		return NULL;
	if (READ_ONCE(obj->state) != MEMORIZER_OBJ_LIVE ||
	    addr - READ_ONCE(obj->key.addr) >= READ_ONCE(obj->size_alloc))
		return NULL;
	/* Not reused while we read it. */
	smp_rmb();
	return READ_ONCE(obj->id) == c->id ? obj : NULL;
}

void __memorizer_access(unsigned long addr, size_t size, bool write,
			unsigned long ip)
{
	struct memorizer_access *a;
	struct memorizer_obj *obj;
	struct access_cache *c;
	unsigned long ua_flags;
	pid_t pid;

	if (in_nmi() || !memorizer_context_selected())
		return;

	/* KASAN checks run inside user-copy sections too. */
	ua_flags = user_access_save();
	preempt_disable_notrace();
	if (!memorizer_enter())
		goto out;

	c = this_cpu_ptr(&access_caches[interrupt_context_level()]);
	obj = cached_object(c, addr);
	if (!obj) {
		obj = memorizer_lookup(addr);
		if (!obj) {
			memorizer_stat_inc(MEMORIZER_STAT_UNTRACKED_ACCESSES);
			goto done;
		}
		c->obj = obj;
		c->id = obj->id;
		c->counter = NULL;
	}
	pid = in_task() ? current->pid : 0;
	a = c->counter;
	if (!a || READ_ONCE(a->obj) != obj || a->ip != ip || a->pid != pid) {
		a = get_counter(obj, ip, pid);
		c->counter = a;
	}
	if (a) {
		/* Saturate: a count that wrapped would be a wrong one. */
		atomic_add_unless(write ? &a->writes : &a->reads, 1, -1);
		memorizer_stat_inc(MEMORIZER_STAT_ACCESSES);
	}
done:
	memorizer_exit();
out:
	preempt_enable_notrace();
	user_access_restore(ua_flags);
}
