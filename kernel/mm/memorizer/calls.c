// SPDX-License-Identifier: GPL-2.0
/*
 * Call edges: while log_calls_enabled is on, an ftrace_ops on the entry of
 * every function ftrace can patch counts each call a traced context makes,
 * per (caller, callee, pid). The caller is the call's return address, as
 * a stack trace gives it; the callee the called function's start. Calls
 * made for an instrument (KASAN, lockdep) are left out as their accesses
 * are, and Memorizer's own functions are not patched (see the Makefile).
 *
 * The edges live in a hash of (caller, callee, pid) with a bit lock per
 * bucket, as the access counters do (counters.c), in chunks of the pool:
 * a full pool drops calls and counts them. Readers walk the chains without
 * locks; clear_function_calls frees the edges a grace period after it took
 * them out. The ops are registered only while calls are logged: off, every
 * function entry is the nop ftrace leaves there.
 */

#define pr_fmt(fmt) "memorizer: " fmt

#include <linux/mm.h>
#include <linux/bit_spinlock.h>
#include <linux/debugfs.h>
#include <linux/ftrace.h>
#include <linux/hash.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "memorizer.h"
#include "pool.h"

#define BUCKET_LOCK 0
#define CALL_BITS 16

/* One edge: 32 bytes, the pool's MEMORIZER_POOL_CALL chunk. */
struct call_edge {
	u32 hash_next;		/* memorizer_ref(), in its bucket */
	s32 caller;		/* kernel and module text: the top 2 GiB */
	s32 callee;
	pid_t pid;
	atomic64_t count;
	u64 sent;		/* of count, in this binary session's records */
};

static unsigned long *call_table;	/* made at the first enable */
static DEFINE_MUTEX(calls_lock);	/* enable, clear, sweep */
static bool calls_on;			/* under calls_lock */

static struct call_edge *bucket_first(unsigned long *bucket)
{
	return (struct call_edge *)(READ_ONCE(*bucket) & ~BIT(BUCKET_LOCK));
}

static unsigned long *call_bucket(unsigned long caller, unsigned long callee,
				  pid_t pid)
{
	return &call_table[hash_long(caller ^ hash_long(callee ^ pid,
							BITS_PER_LONG),
				     CALL_BITS)];
}

static bool call_ip_fits(unsigned long ip)
{
	return (unsigned long)(long)(s32)ip == ip;
}

static struct call_edge *edge_find(unsigned long *bucket, unsigned long caller,
				   unsigned long callee, pid_t pid)
{
	struct call_edge *e;

	for (e = bucket_first(bucket); e;
	     e = memorizer_deref(READ_ONCE(e->hash_next)))
		if ((unsigned long)(long)e->caller == caller &&
		    (unsigned long)(long)e->callee == callee && e->pid == pid)
			return e;
	return NULL;
}

/* Preemption is disabled, inside Memorizer. */
static void count_call(unsigned long caller, unsigned long callee, pid_t pid)
{
	unsigned long *bucket, flags;
	struct call_edge *e;

	if (!call_ip_fits(caller) || !call_ip_fits(callee))
		goto drop;
	bucket = call_bucket(caller, callee, pid);
	e = edge_find(bucket, caller, callee, pid);
	if (likely(e))
		goto count;
	/* A full pool: drop without the lock, as counters do. */
	if (!memorizer_pool_available(MEMORIZER_POOL_CALL))
		goto drop;

	local_irq_save(flags);
	bit_spin_lock(BUCKET_LOCK, bucket);
	e = edge_find(bucket, caller, callee, pid);
	if (!e) {
		e = memorizer_pool_alloc_irqoff(MEMORIZER_POOL_CALL);
		if (e) {
			e->caller = caller;
			e->callee = callee;
			e->pid = pid;
			atomic64_set(&e->count, 0);
			e->sent = 0;
			e->hash_next = memorizer_ref(bucket_first(bucket));
			/* Publish whole, keeping the lock bit set. */
			smp_store_release(bucket, (unsigned long)e |
					  BIT(BUCKET_LOCK));
		}
	}
	bit_spin_unlock(BUCKET_LOCK, bucket);
	local_irq_restore(flags);
	if (!e)
		goto drop;
count:
	atomic64_inc(&e->count);
	memorizer_stat_inc(MEMORIZER_STAT_CALLS);
	return;
drop:
	memorizer_stat_inc(MEMORIZER_STAT_DROPPED_CALLS);
}

static void memorizer_call(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	unsigned int level = interrupt_context_level();
	unsigned int marks;

	if (level == 3 || !memorizer_level_selected(level))
		return;
	marks = memorizer_instr_marks_at(level);
	if (marks & ~READ_ONCE(memorizer_instr_counted))
		return;
	if (!memorizer_hook_enter())
		return;
#ifdef CONFIG_X86_KERNEL_IBT
	/* ftrace's ip is its call, after the function's ENDBR. */
	if (is_endbr(*(u32 *)(ip - ENDBR_INSN_SIZE)))
		ip -= ENDBR_INSN_SIZE;
#endif
	count_call(parent_ip, ip, level ? 0 : current->pid);
	memorizer_hook_exit();
}

/*
 * Without FTRACE_OPS_FL_RECURSION: that flag asks for ftrace's recursion
 * guard, ftrace_ops_assist_func(), which is instrumented, and whose loads
 * and stores in each traced call were the demo kmap's largest cells.
 * Memorizer's busy flag guards the callback, and what it runs before
 * taking that flag is inline.
 */
static struct ftrace_ops calls_ops = {
	.func = memorizer_call,
};

/* Start or stop counting calls: ftrace patches every function's entry. */
int memorizer_calls_set(bool on)
{
	int err = 0;

	mutex_lock(&calls_lock);
	if (on == calls_on)
		goto out;
	if (on && !call_table) {
		call_table = vcalloc(1UL << CALL_BITS, sizeof(*call_table));
		if (!call_table) {
			err = -ENOMEM;
			goto out;
		}
	}
	err = on ? register_ftrace_function(&calls_ops) :
		   unregister_ftrace_function(&calls_ops);
	if (!err)
		calls_on = on;
out:
	mutex_unlock(&calls_lock);
	return err;
}

/*
 * Give each edge's calls since the last sweep to @fn, IRQs off; @pace
 * between buckets (it may sleep). The binary stream's CALL records.
 */
void memorizer_calls_sweep(memorizer_call_fn fn, void (*pace)(void))
{
	unsigned long i, flags;
	struct call_edge *e;

	mutex_lock(&calls_lock);
	for (i = 0; call_table && i < 1UL << CALL_BITS; i++) {
		if (!bucket_first(&call_table[i]))
			continue;
		local_irq_save(flags);
		bit_spin_lock(BUCKET_LOCK, &call_table[i]);
		for (e = bucket_first(&call_table[i]); e;
		     e = memorizer_deref(e->hash_next)) {
			u64 count = atomic64_read(&e->count);

			if (count == e->sent)
				continue;
			fn((long)e->caller, (long)e->callee, e->pid,
			   count - e->sent);
			e->sent = count;
		}
		bit_spin_unlock(BUCKET_LOCK, &call_table[i]);
		local_irq_restore(flags);
		pace();
	}
	mutex_unlock(&calls_lock);
}

/* A new binary session: it counts the calls made from now on. */
void memorizer_calls_restart(void)
{
	unsigned long i, flags;
	struct call_edge *e;

	mutex_lock(&calls_lock);
	for (i = 0; call_table && i < 1UL << CALL_BITS; i++) {
		local_irq_save(flags);
		bit_spin_lock(BUCKET_LOCK, &call_table[i]);
		for (e = bucket_first(&call_table[i]); e;
		     e = memorizer_deref(e->hash_next))
			e->sent = atomic64_read(&e->count);
		bit_spin_unlock(BUCKET_LOCK, &call_table[i]);
		local_irq_restore(flags);
	}
	mutex_unlock(&calls_lock);
}

/*
 * clear_function_calls: "1" forgets every edge. The chains leave their
 * buckets under the locks and are freed after a grace period, when no
 * callback or reader can be on them. -ENOMEM changes nothing.
 */
static int calls_clear(void)
{
	unsigned long i, n = 1UL << CALL_BITS, flags;
	struct call_edge *e, *next;
	u32 *chains;

	mutex_lock(&calls_lock);
	if (!call_table)
		goto out;
	chains = kvmalloc_array(n, sizeof(*chains), GFP_KERNEL);
	if (!chains) {
		mutex_unlock(&calls_lock);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		local_irq_save(flags);
		bit_spin_lock(BUCKET_LOCK, &call_table[i]);
		chains[i] = memorizer_ref(bucket_first(&call_table[i]));
		/* Empty, keeping the lock bit until the unlock. */
		WRITE_ONCE(call_table[i], BIT(BUCKET_LOCK));
		bit_spin_unlock(BUCKET_LOCK, &call_table[i]);
		local_irq_restore(flags);
	}
	/* Callbacks and readers run with preemption disabled. */
	synchronize_rcu();
	for (i = 0; i < n; i++) {
		for (e = memorizer_deref(chains[i]); e; e = next) {
			next = memorizer_deref(e->hash_next);
			memorizer_pool_free(MEMORIZER_POOL_CALL, e);
		}
	}
	kvfree(chains);
out:
	mutex_unlock(&calls_lock);
	return 0;
}

static ssize_t clear_calls_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	int err = memorizer_write_one(ubuf, count, ppos);

	if (!err)
		err = calls_clear();
	if (err)
		return err;
	*ppos += count;
	return count;
}

static const struct file_operations clear_calls_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = clear_calls_write,
	.llseek = default_llseek,
};

/*
 * function_calls: one edge a line, "caller,callee,pid,count" (hex, hex,
 * decimal, decimal), a bucket at a time; each line is one edge's count
 * when it was read.
 */
static void *calls_seq_start(struct seq_file *m, loff_t *pos)
{
	rcu_read_lock();
	if (!READ_ONCE(call_table) || *pos >= 1L << CALL_BITS)
		return NULL;
	return pos;
}

static void *calls_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return *pos < 1L << CALL_BITS ? pos : NULL;
}

static void calls_seq_stop(struct seq_file *m, void *v)
{
	rcu_read_unlock();
}

static int calls_seq_show(struct seq_file *m, void *v)
{
	struct call_edge *e = bucket_first(&call_table[*(loff_t *)v]);

	for (; e; e = memorizer_deref(READ_ONCE(e->hash_next)))
		seq_printf(m, "%lx,%lx,%d,%llu\n", (unsigned long)(long)e->caller,
			   (unsigned long)(long)e->callee, e->pid,
			   (unsigned long long)atomic64_read(&e->count));
	return 0;
}

static const struct seq_operations function_calls_sops = {
	.start = calls_seq_start,
	.next = calls_seq_next,
	.stop = calls_seq_stop,
	.show = calls_seq_show,
};
DEFINE_SEQ_ATTRIBUTE(function_calls);

void __init memorizer_calls_debugfs_init(struct dentry *dir)
{
	BUILD_BUG_ON(sizeof(struct call_edge) > MEMORIZER_POOL_CALL_SIZE);
	debugfs_create_file("function_calls", 0400, dir, NULL,
			    &function_calls_fops);
	debugfs_create_file("clear_function_calls", 0200, dir, NULL,
			    &clear_calls_fops);
}
