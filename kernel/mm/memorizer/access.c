// SPDX-License-Identifier: GPL-2.0
/*
 * Memorizer's access path: every load and store KASAN checks comes here
 * (while access logging is on) and is counted on the object it falls in,
 * per accessing instruction and pid. No global lock: a lookup in the
 * index, a walk of the object's short counter list, an atomic increment.
 */

#include <linux/irqflags.h>
#include <linux/memorizer.h>
#include <linux/preempt.h>
#include <linux/processor.h>
#include <linux/bit_spinlock.h>
#include <linux/sched.h>
#include <linux/uaccess.h>

#include "memorizer.h"
#include "pool.h"

DEFINE_STATIC_KEY_FALSE(memorizer_access_key);

static struct memorizer_access *find_counter(struct memorizer_access *a,
					     unsigned long ip, pid_t pid)
{
	for (; a; a = READ_ONCE(a->next))
		if (a->ip == ip && a->pid == pid)
			return a;
	return NULL;
}

/*
 * Counters are only ever added, at the head; the insertion lock keeps one
 * counter per (ip, pid) when two CPUs see a new pair at once.
 */
static struct memorizer_access *get_counter(struct memorizer_obj *obj,
					    unsigned long ip, pid_t pid)
{
	struct memorizer_access *a, *head;
	unsigned long flags;

	head = smp_load_acquire(&obj->accesses);
	a = find_counter(head, ip, pid);
	if (likely(a))
		return a;

	local_irq_save(flags);
	bit_spin_lock(MEMORIZER_OBJ_LOCK_ACCESSES, &obj->lock);
	a = find_counter(obj->accesses, ip, pid);
	if (!a) {
		a = memorizer_pool_alloc(MEMORIZER_POOL_SMALL);
		if (a) {
			a->ip = ip;
			a->pid = pid;
			a->next = obj->accesses;
			smp_store_release(&obj->accesses, a);
		}
	}
	bit_spin_unlock(MEMORIZER_OBJ_LOCK_ACCESSES, &obj->lock);
	local_irq_restore(flags);
	return a;
}

void __memorizer_access(unsigned long addr, size_t size, bool write,
			unsigned long ip)
{
	struct memorizer_access *a;
	struct memorizer_obj *obj;
	unsigned long ua_flags;

	if (in_nmi())
		return;

	/* KASAN checks run inside user-copy sections too. */
	ua_flags = user_access_save();
	preempt_disable_notrace();
	if (!memorizer_context_selected() || !memorizer_enter())
		goto out;

	obj = memorizer_lookup(addr);
	if (!obj) {
		memorizer_stat_inc(MEMORIZER_STAT_UNTRACKED_ACCESSES);
	} else {
		a = get_counter(obj, ip, in_task() ? current->pid : 0);
		if (!a) {
			memorizer_stat_inc(MEMORIZER_STAT_DROPPED_ACCESSES);
		} else {
			atomic_inc(write ? &a->writes : &a->reads);
			memorizer_stat_inc(MEMORIZER_STAT_ACCESSES);
		}
	}
	memorizer_exit();
out:
	preempt_enable_notrace();
	user_access_restore(ua_flags);
}
