// SPDX-License-Identifier: GPL-2.0
/*
 * Memorizer's access path: every load and store KASAN checks comes here
 * (while access logging is on) and is counted on the record of the object
 * it falls in, per accessing instruction and pid. No global lock: a lookup
 * in the index, a lookup in the counter hash, an atomic increment; and
 * before both, a per-context cache of the last record and counter.
 */

#include <linux/memorizer.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/uaccess.h>

#include "memorizer.h"

DEFINE_STATIC_KEY_FALSE(memorizer_access_key);

/*
 * Each context's last record and counter: most accesses fall in the
 * object the previous one did, many from the same instruction. Records
 * and counters live in the pool, which is never unmapped, so a stale entry
 * is safe to read; it is used only once checked against the record (id,
 * state, range) and the counter (record, ip, pid), checks that a record or
 * counter freed since, or reused, fails. Used with preemption off, as a
 * lookup: nothing it returns is freed before that ends.
 */
struct access_cache {
	struct memorizer_record *rec;
	u64 id;
	struct memorizer_counter *counter;
};
static DEFINE_PER_CPU(struct access_cache, access_caches[4]);

static struct memorizer_record *cached_record(struct access_cache *ac,
					      unsigned long addr)
{
	struct memorizer_record *rec = ac->rec;

	if (!rec || READ_ONCE(rec->id) != ac->id)
		return NULL;
	if (READ_ONCE(rec->state) == MEMORIZER_RECORD_CLOSED ||
	    addr - READ_ONCE(rec->key.addr) >= READ_ONCE(rec->size_alloc))
		return NULL;
	/* Not reused while we read it. */
	smp_rmb();
	return READ_ONCE(rec->id) == ac->id ? rec : NULL;
}

static void count_access(unsigned long addr, bool write, unsigned long ip)
{
	struct access_cache *ac;
	struct memorizer_record *rec;
	struct memorizer_counter *c;
	pid_t pid;

	ac = this_cpu_ptr(&access_caches[interrupt_context_level()]);
	rec = cached_record(ac, addr);
	if (!rec) {
		rec = memorizer_index_lookup(addr);
		if (!rec)
			rec = memorizer_attribute(addr);
		if (!rec)
			return;
		ac->rec = rec;
		ac->id = rec->id;
		ac->counter = NULL;
	}
	pid = in_task() ? current->pid : 0;
	c = ac->counter;
	if (!c || READ_ONCE(c->rec) != rec || c->ip != ip || c->pid != pid) {
		c = memorizer_counter_get(rec, ip, pid);
		ac->counter = c;
	}
	if (c) {
		/* Saturate: a count that wrapped would be a wrong one. */
		atomic_add_unless(write ? &c->writes : &c->reads, 1, -1);
		this_cpu_inc(memorizer_stats.accesses[rec->kind]);
	}
}

void __memorizer_access(unsigned long addr, size_t size, bool write,
			unsigned long ip)
{
	unsigned long ua_flags;

	if (!memorizer_context_selected())
		return;
	/* KASAN checks run inside user-copy sections too. */
	ua_flags = user_access_save();
	if (memorizer_hook_enter()) {
		count_access(addr, write, ip);
		memorizer_hook_exit();
	}
	user_access_restore(ua_flags);
}
