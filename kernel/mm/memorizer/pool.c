// SPDX-License-Identifier: GPL-2.0
/*
 * Memorizer's memory: one region of memorizer.pool_size bytes, reserved at
 * boot, carved into fixed-size chunks. Records never come from the kernel's
 * allocators, so recording an allocation or an access can never recurse
 * into, or deadlock with, the allocator it observes, whatever locks the
 * observed code holds. When the region is used up, allocation fails and the
 * caller counts a drop; cleared records give their chunks back.
 */

#define pr_fmt(fmt) "memorizer: " fmt

#include <linux/debugfs.h>
#include <linux/fault-inject.h>
#include <linux/init.h>
#include <linux/irqflags.h>
#include <linux/percpu.h>
#include <linux/prandom.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "memorizer.h"
#include "pool.h"

/* Chunks a CPU keeps for itself, so most allocations take no shared lock. */
#define CPU_BATCH 32

struct pool_cpu {
	void *free[MEMORIZER_POOL_NR];
	long used[MEMORIZER_POOL_NR];	/* chunks handed out here, net */
};

static const unsigned int chunk_size[MEMORIZER_POOL_NR] = {
	[MEMORIZER_POOL_OBJ] = MEMORIZER_POOL_OBJ_SIZE,
	[MEMORIZER_POOL_SMALL] = MEMORIZER_POOL_SMALL_SIZE,
	[MEMORIZER_POOL_KEY] = MEMORIZER_POOL_KEY_SIZE,
	[MEMORIZER_POOL_CALL] = MEMORIZER_POOL_CALL_SIZE,
	[MEMORIZER_POOL_FRAME] = MEMORIZER_POOL_FRAME_SIZE,
	[MEMORIZER_POOL_SHADOW] = MEMORIZER_POOL_SHADOW_SIZE,
};

/*
 * An arch spinlock, which lockdep does not track: the access path takes it
 * from inside lockdep (lockdep's code is instrumented), and a tracked lock
 * there made lockdep take its graph lock under our bit locks while another
 * CPU, holding the graph lock, waited in the access path for those bit
 * locks (stream-overrun hung so in a CI run). Taken with IRQs off.
 */
static arch_spinlock_t pool_lock = __ARCH_SPIN_LOCK_UNLOCKED;
/* Written under pool_lock; pool_used_up() reads them without it. */
static void *global_free[MEMORIZER_POOL_NR];
static char *region, *region_next, *region_end;
char *memorizer_pool_base __read_mostly;	/* memorizer_ref()'s */
static unsigned long region_size;
static DEFINE_PER_CPU(struct pool_cpu, pool_cpu);

/*
 * The kernel's fault injection (Documentation/fault-injection/) on this
 * pool, as failslab is on the slab allocator: the tests aim it at a
 * module's code (the stack-trace filter) and check that every chunk
 * refused is a drop counted. Boot parameter fail_memorizer_pool=
 * (interval,probability,space,times); debugfs memorizer/fail_pool/.
 *
 * The attributes are the kernel's, the decision is made here: the access
 * path runs inside any code, random.c's and printk's included, so it
 * cannot take should_fail_ex()'s get_random_u32_below() (lockdep saw the
 * pool's call inside crng_make_state() invert random's locks) nor print.
 * A per-CPU prandom state, used with IRQs off, takes no lock. Not
 * fail-nth: that is the task's next fault point, not the pool's.
 */
#ifdef CONFIG_FAULT_INJECTION
static DECLARE_FAULT_ATTR(fail_pool);
static DEFINE_PER_CPU(struct rnd_state, fail_pool_rnd);

static int __init setup_fail_pool(char *str)
{
	return setup_fault_attr(&fail_pool, str);
}
__setup("fail_memorizer_pool=", setup_fail_pool);

static void fail_pool_seed(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		prandom_seed_state(per_cpu_ptr(&fail_pool_rnd, cpu),
				   get_random_u64());
}

#ifdef CONFIG_FAULT_INJECTION_STACKTRACE_FILTER
/* As lib/fault-inject.c's filter: a frame in the required range. */
static bool fail_pool_stack_wanted(void)
{
	unsigned long entries[32];
	unsigned int i, n, depth = min_t(unsigned long,
					 fail_pool.stacktrace_depth, 32);
	bool found = fail_pool.require_start == 0 &&
		     fail_pool.require_end == ULONG_MAX;

	if (!depth || (found && !fail_pool.reject_start &&
		       !fail_pool.reject_end))
		return found;
	n = stack_trace_save(entries, depth, 1);
	for (i = 0; i < n; i++) {
		if (entries[i] >= fail_pool.reject_start &&
		    entries[i] < fail_pool.reject_end)
			return false;
		if (entries[i] >= fail_pool.require_start &&
		    entries[i] < fail_pool.require_end)
			found = true;
	}
	return found;
}
#else
static bool fail_pool_stack_wanted(void)
{
	return true;
}
#endif

/* IRQs off. */
static bool fail_pool_now(unsigned int size)
{
	struct fault_attr *a = &fail_pool;

	if (likely(!READ_ONCE(a->probability)))
		return false;
	if (a->task_filter && (!in_task() || !current->make_it_fail))
		return false;
	if (atomic_read(&a->times) == 0 || !fail_pool_stack_wanted())
		return false;
	if (atomic_read(&a->space) > size) {
		atomic_sub(size, &a->space);
		return false;
	}
	if (a->interval > 1 && ++a->count % a->interval)
		return false;
	if (a->probability <=
	    prandom_u32_state(this_cpu_ptr(&fail_pool_rnd)) % 100)
		return false;
	if (atomic_read(&a->times) != -1)
		atomic_add_unless(&a->times, -1, 0);
	return true;
}

void __init memorizer_pool_debugfs_init(struct dentry *dir)
{
	fault_create_debugfs_attr("fail_pool", dir, &fail_pool);
}
#else
static void fail_pool_seed(void)
{
}

static bool fail_pool_now(unsigned int size)
{
	return false;
}

void __init memorizer_pool_debugfs_init(struct dentry *dir)
{
}
#endif

int memorizer_pool_init(unsigned long size)
{
	region = vmalloc(size);
	if (!region)
		return -ENOMEM;
	region_size = size;
	memorizer_pool_base = region;
	fail_pool_seed();
	region_next = region;
	region_end = region + size;
	return 0;
}

/*
 * No chunk of class @c left to share: none freed, and the region used up.
 * Read without pool_lock, so that a full pool costs its callers two loads
 * and no lock. With the pool full, every allocation fails, and the access
 * path allocates in every context with interrupts off: when each failure
 * took pool_lock, both CPUs of a guest spent nearly all their time queued
 * on it, timer interrupts waited minutes, and tests timed out.
 */
static bool pool_used_up(enum memorizer_pool_class c)
{
	return !READ_ONCE(global_free[c]) &&
	       READ_ONCE(region_next) + chunk_size[c] > region_end;
}

/*
 * Whether an allocation of class @c may succeed on this CPU now (a racing
 * free or allocation can make the answer stale). Preemption is disabled.
 */
bool memorizer_pool_available(enum memorizer_pool_class c)
{
	return this_cpu_ptr(&pool_cpu)->free[c] || !pool_used_up(c);
}

/* Move up to CPU_BATCH chunks of class @c to this CPU. IRQs are off. */
static void refill(struct pool_cpu *pc, enum memorizer_pool_class c)
{
	unsigned int size = chunk_size[c];
	unsigned int n;

	if (pool_used_up(c))
		return;
	arch_spin_lock(&pool_lock);
	for (n = 0; n < CPU_BATCH; n++) {
		void *p = global_free[c];

		if (p) {
			WRITE_ONCE(global_free[c], *(void **)p);
		} else if (region_next + size <= region_end) {
			p = region_next;
			WRITE_ONCE(region_next, region_next + size);
		} else {
			break;
		}
		*(void **)p = pc->free[c];
		pc->free[c] = p;
	}
	arch_spin_unlock(&pool_lock);
}

void *memorizer_pool_alloc_irqoff(enum memorizer_pool_class c)
{
	struct pool_cpu *pc = this_cpu_ptr(&pool_cpu);
	void *p;

	if (fail_pool_now(chunk_size[c]))
		return NULL;
	if (!pc->free[c])
		refill(pc, c);
	p = pc->free[c];
	if (p) {
		pc->free[c] = *(void **)p;
		pc->used[c]++;
	}
	return p;
}

void *memorizer_pool_alloc(enum memorizer_pool_class c)
{
	unsigned long flags;
	void *p;

	/* Full: fail without the IRQ-off section (see pool_used_up()). */
	if (!raw_cpu_read(pool_cpu.free[c]) && pool_used_up(c))
		return NULL;
	local_irq_save(flags);
	p = memorizer_pool_alloc_irqoff(c);
	local_irq_restore(flags);
	if (p)
		memset(p, 0, chunk_size[c]);
	return p;
}

/*
 * Freed chunks go straight back to the shared list, not to this CPU's
 * cache: frees come in batches from process context (clearing records),
 * and with a small pool a chunk stranded on one CPU is a record another
 * CPU must drop.
 */
void memorizer_pool_free(enum memorizer_pool_class c, void *p)
{
	/* The access path takes pool_lock too. */
	bool guard = memorizer_guard();
	unsigned long flags;

	local_irq_save(flags);
	arch_spin_lock(&pool_lock);
	*(void **)p = global_free[c];
	WRITE_ONCE(global_free[c], p);
	arch_spin_unlock(&pool_lock);
	local_irq_restore(flags);
	this_cpu_dec(pool_cpu.used[c]);
	memorizer_unguard(guard);
}

/* Chunks of each class in use (@chunks), bytes in use and the bound. */
void memorizer_pool_usage(unsigned long *chunks, unsigned long *used,
			  unsigned long *bound)
{
	long n, sum = 0;
	int cpu, c;

	for (c = 0; c < MEMORIZER_POOL_NR; c++) {
		n = 0;
		for_each_possible_cpu(cpu)
			n += per_cpu_ptr(&pool_cpu, cpu)->used[c];
		chunks[c] = n > 0 ? n : 0;
		sum += chunks[c] * chunk_size[c];
	}
	*used = sum;
	*bound = region_size;
}
