// SPDX-License-Identifier: GPL-2.0
/*
 * Memorizer's access path: every load and store KASAN checks comes here
 * (while access logging is on) and is counted on the record of the object
 * it falls in, per accessing instruction and pid. No global lock: a lookup
 * in the index, a lookup in the counter hash, an atomic increment; and
 * before both, a per-context cache of the last few records and a counter
 * of each, whose hit is a path of its own that calls nothing.
 */

#include <linux/memorizer.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/uaccess.h>

#include "memorizer.h"

DEFINE_STATIC_KEY_FALSE(memorizer_access_key);

/*
 * Whether the path stops after @stage (CONFIG_MEMORIZER_ACCESS_STAGES),
 * in the kernels that measure what each stage costs; never in others.
 */
#define STOP_AFTER(stage) (CONFIG_MEMORIZER_ACCESS_STAGES == (stage))

/*
 * Each context's last few records, each with the last counter used on it:
 * most accesses fall in an object one of the last few did (a slab object,
 * the task's stack, struct pages, a global), most often the one the
 * access before did (its way is looked at first), many from the same
 * instruction. A way holds a copy of its record's extent, so that a miss
 * reads no record; a record's extent is set when it is made, so its id
 * vouches for the copy. Records and counters live in the pool, which is
 * never unmapped, so a stale way is safe to read; it is used only once
 * checked against the record (id, state) and the counter (record, ip,
 * pid), checks that a record or counter freed since, or reused, fails.
 * Used with preemption off, as a lookup: nothing it returns is freed
 * before that ends; and with the level's busy flag set, so that nothing
 * that interrupts at the same level changes a way in use.
 */
#define ACCESS_WAYS 4

struct access_way {
	unsigned long start;		/* the record's extent, as cached */
	unsigned int size;
	unsigned int shift;		/* memorizer_span_shift(size) */
	struct memorizer_record *rec;
	u64 id;
	struct memorizer_counter *counter;
};

struct access_cache {
	struct access_way ways[ACCESS_WAYS];
	unsigned int victim;		/* the way to replace next */
	unsigned int last;		/* the way used last: looked at first */
};
static DEFINE_PER_CPU(struct access_cache, access_caches[4]);

/* @way's record, if @addr is still in it. */
static __always_inline struct memorizer_record *
way_record(struct access_way *way, unsigned long addr)
{
	struct memorizer_record *rec = way->rec;

	if (addr - way->start >= way->size)
		return NULL;
	if (READ_ONCE(rec->id) != way->id ||
	    READ_ONCE(rec->state) == MEMORIZER_RECORD_CLOSED)
		return NULL;
	/* Not reused while we read it. */
	smp_rmb();
	return READ_ONCE(rec->id) == way->id ? rec : NULL;
}

/* @rec in the way used least recently (of those filled since). */
static __always_inline struct access_way *
cache_record(struct access_cache *ac, struct memorizer_record *rec)
{
	struct access_way *way = &ac->ways[ac->victim];

	ac->last = ac->victim;
	ac->victim = (ac->victim + 1) % ACCESS_WAYS;
	way->rec = rec;
	way->id = rec->id;
	way->start = rec->key.addr;
	way->size = rec->size_alloc;
	way->shift = memorizer_span_shift(rec->size_alloc);
	way->counter = NULL;
	return way;
}

/*
 * The record of @addr found inline, or NULL for the slow path
 * (memorizer_index_lookup()) to look up: a slab object's, or one keyed at
 * the page of @addr in the direct map or vmalloc space (a page allocation,
 * a vmalloc area, a task's stack, struct pages) that covers @addr. Slab
 * and per-CPU records found by a page are the slow path's to judge.
 */
static __always_inline struct memorizer_record *
lookup_inline(unsigned long addr)
{
	struct memorizer_record *rec;
	struct memorizer_key *key;
	unsigned long page;

	if (addr >= PAGE_OFFSET && addr < (unsigned long)high_memory) {
		struct folio *folio = virt_to_folio((void *)addr);

		if (folio_test_slab(folio))
			return memorizer_slab_lookup(folio, addr);
		page = (unsigned long)folio_address(folio);
	} else if (addr >= VMALLOC_START && addr < VMALLOC_END) {
		/* is_vmalloc_addr(), which is out of line. */
		page = addr & PAGE_MASK;
	} else {
		return NULL;
	}
	key = memorizer_index_find(page);
	rec = key ? READ_ONCE(key->rec) : NULL;
	if (!rec || addr - rec->key.addr >= rec->size_alloc ||
	    memorizer_kind_is_slab(rec->kind) ||
	    rec->kind == MEMORIZER_KIND_PERCPU)
		return NULL;
	return rec;
}

/*
 * The fast path: the access counted on a record in this context's cache,
 * or on one found inline (lookup_inline()), with the way's counter or one
 * found in the counter hash; or false, with *@found the way of the record
 * if there is one (its counter is to be made). It calls nothing, so it
 * runs as it was entered, with AC (user access) set inside a user-copy
 * section: saving and clearing AC costs a flags push and pop, and under
 * TCG clac and popf each end a translation block, many times what the
 * rest costs.
 */
static __always_inline bool count_cached(struct access_cache *ac,
					 unsigned long addr, size_t size,
					 bool write, unsigned long ip, pid_t pid,
					 struct access_way **found)
{
	struct memorizer_record *rec = NULL;
	struct memorizer_counter *c;
	struct access_way *way;
	int i;

	/* Consecutive accesses mostly touch one object. */
	way = &ac->ways[ac->last];
	rec = way->rec ? way_record(way, addr) : NULL;
	for (i = 0; i < ACCESS_WAYS && !rec; i++) {
		way = &ac->ways[i];
		rec = way->rec ? way_record(way, addr) : NULL;
		if (rec)
			ac->last = i;
	}
	if (!rec) {
		rec = lookup_inline(addr);
		if (!rec)
			return false;
		way = cache_record(ac, rec);
	}
	*found = way;
	if (STOP_AFTER(2))
		return true;
	c = way->counter;
	if (!c || READ_ONCE(c->rec) != memorizer_ref(rec) ||
	    memorizer_counter_ip(c) != ip || c->pid != pid) {
		c = memorizer_counter_find(memorizer_counter_bucket(rec, ip, pid),
					   rec, ip, pid);
		if (!c)
			return false;
		way->counter = c;
	}
	if (STOP_AFTER(3))
		return true;
	memorizer_counter_widen(c, way->size, way->shift, addr - way->start,
				size);
	/* Saturate: a count that wrapped would be a wrong one. */
	atomic_add_unless(write ? &c->writes : &c->reads, 1, -1);
	this_cpu_inc(memorizer_stats.accesses[rec->kind]);
	return true;
}

/*
 * The slow path: the record looked up or found (unless the fast path had
 * it in @way), the counter made. AC clear.
 */
static noinline void count_access(struct access_cache *ac,
				  struct access_way *way, unsigned long addr,
				  size_t size, bool write, unsigned long ip,
				  pid_t pid)
{
	struct memorizer_record *rec;
	struct memorizer_counter *c;

	memorizer_stat_inc(MEMORIZER_STAT_SLOW_ACCESSES);
	if (way) {
		rec = way->rec;
	} else {
		rec = memorizer_index_lookup(addr);
		if (!rec)
			rec = memorizer_attribute(addr);
		if (!rec)
			return;
		way = cache_record(ac, rec);
	}
	if (STOP_AFTER(2))
		return;
	c = memorizer_counter_get(rec, ip, pid);
	way->counter = c;
	if (c && !STOP_AFTER(3)) {
		memorizer_counter_widen(c, way->size, way->shift,
					addr - way->start, size);
		atomic_add_unless(write ? &c->writes : &c->reads, 1, -1);
		this_cpu_inc(memorizer_stats.accesses[rec->kind]);
	}
}

/*
 * Whether an access made inside the instruments of @marks is left out (as
 * it is unless each is counted), and counted so: under the first of them,
 * in enum memorizer_instr's order, for a section inside another.
 */
static __always_inline bool left_out(unsigned int marks)
{
	marks &= ~READ_ONCE(memorizer_instr_counted);
	if (!marks)
		return false;
	this_cpu_inc(memorizer_stats.excluded[__ffs(marks)]);
	return true;
}

/*
 * Page-aligned, so that the whole of it (some 2 KB) is in one page: under
 * QEMU TCG a jump to another page cannot be chained to the code it
 * reaches, and looks its target up each time it runs.
 */
void __aligned(PAGE_SIZE) __memorizer_access(unsigned long addr, size_t size,
					     bool write, unsigned long ip)
{
	/*
	 * interrupt_context_level() (NMI is level 3, a task level 0), with
	 * a task's, the common case, in one test.
	 */
	unsigned long pc = preempt_count();
	unsigned int level = pc & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_OFFSET) ?
			     interrupt_context_level() : 0;
	struct access_way *way = NULL;
	struct access_cache *ac;
	unsigned long ua_flags;
	unsigned int marks;
	u8 *busy;

	if (level == 3 || !memorizer_level_selected(level))
		return;
	preempt_disable_notrace();
	/*
	 * Not inside Memorizer at this level, and from here on inside, fast
	 * path included: an interrupt's entry and exit code is instrumented
	 * and runs at this level (before irq_enter_rcu(), after
	 * irq_exit_rcu()). Its accesses, counted in the middle of ours,
	 * replaced the way the fast path had found, and the slow path then
	 * counted ours on the way's new record: lockdep's lock_classes, not
	 * the test object, which lost the count.
	 */
	busy = memorizer_busy_flag(level);
	if (*busy) {
		/* What Memorizer calls (locks, RCU) may be instrumented. */
		this_cpu_inc(memorizer_stats.excluded[MEMORIZER_INSTR_SELF]);
		goto out;
	}
	/* Work for an instrument (KASAN, lockdep) is not the workload's. */
	marks = memorizer_instr_marks_at(level);
	if (unlikely(marks) && left_out(marks))
		goto out;
	WRITE_ONCE(*busy, 1);
	barrier();
	if (STOP_AFTER(1))
		goto leave;
	ac = this_cpu_ptr(&access_caches[level]);
	if (!count_cached(ac, addr, size, write, ip, level ? 0 : current->pid,
			  &way)) {
		/* KASAN checks run inside user-copy sections too. */
		ua_flags = user_access_save();
		count_access(ac, way, addr, size, write, ip,
			     level ? 0 : current->pid);
		user_access_restore(ua_flags);
	}
	/* With calls logged: the task's own stack, by frame (calls.c). */
	if (memorizer_frames_on() && !level &&
	    addr - (unsigned long)task_stack_page(current) < THREAD_SIZE) {
		ua_flags = user_access_save();
		memorizer_frame_access(addr, write, ip);
		user_access_restore(ua_flags);
	}
leave:
	barrier();
	WRITE_ONCE(*busy, 0);
out:
#ifdef CONFIG_PREEMPTION
	/* preempt_enable_notrace(), with AC clear around the schedule. */
	barrier();
	if (unlikely(__preempt_count_dec_and_test())) {
		ua_flags = user_access_save();
		preempt_schedule_notrace();
		user_access_restore(ua_flags);
	}
#else
	preempt_enable_notrace();	/* calls nothing without CONFIG_PREEMPTION */
#endif
}
