// SPDX-License-Identifier: GPL-2.0
/*
 * Call edges and stack frames: while log_calls_enabled is on, an ftrace_ops
 * on the entry of every function ftrace can patch counts each call a
 * traced context makes, per (caller, callee, pid). The caller is the
 * call's return address, as a stack trace gives it; the callee the called
 * function's start. Calls made for an instrument (KASAN, lockdep) are left
 * out as their accesses are, and Memorizer's own functions are not patched
 * (see the Makefile).
 *
 * The same callback keeps, for each traced task, a shadow stack of the
 * activations it entered: (function, the slot of its return address).
 * An access to the task's own stack is then attributed to the frame that
 * holds it, the activation with the lowest slot at or above the address,
 * and counted per (frame's function, ip, pid): a callee writing its
 * caller's local shows as its ip on the caller's frame. No hook sees a
 * return; an entry leaves the shadow stack when a call is entered at or
 * above its slot, which is when its frame is surely gone.
 *
 * Edges and frame cells live in hashes of (two addresses, pid) with a bit
 * lock per bucket, as the access counters do (counters.c), in chunks of
 * the pool: a full pool drops calls and accesses and counts them. Readers
 * walk the chains without locks; clear_function_calls frees the cells a
 * grace period after it took them out. The ops are registered only while
 * calls are logged: off, every function entry is the nop ftrace leaves
 * there.
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
#include <linux/sched/task_stack.h>
#include <linux/vmalloc.h>

#include "memorizer.h"
#include "pool.h"

#include <trace/events/sched.h>

#define BUCKET_LOCK 0
#define CALL_BITS 16
#define FRAME_BITS 14

/*
 * A cell of either table, 32 bytes: the pool's MEMORIZER_POOL_CALL chunk
 * for an edge, MEMORIZER_POOL_FRAME for a frame cell. Addresses are
 * kernel or module text, in the top 2 GiB.
 */
struct call_cell {
	u32 hash_next;		/* memorizer_ref(), in its bucket */
	s32 from;		/* the caller; a frame cell's ip */
	s32 to;			/* the callee; the frame's function */
	pid_t pid;
	union {
		struct {	/* an edge */
			atomic64_t count;
			u64 sent;	/* of count, in this binary session */
		};
		struct {	/* a frame cell */
			atomic_t writes;
			atomic_t reads;
		};
	};
};

struct call_table {
	unsigned long *buckets;		/* made at the first enable */
	unsigned int bits;
	enum memorizer_pool_class class;
};

static struct call_table edges = {
	.bits = CALL_BITS, .class = MEMORIZER_POOL_CALL,
};
static struct call_table frames = {
	.bits = FRAME_BITS, .class = MEMORIZER_POOL_FRAME,
};
static DEFINE_MUTEX(calls_lock);	/* enable, clear, sweep */
static bool calls_on;			/* under calls_lock */

static struct call_cell *bucket_first(unsigned long *bucket)
{
	return (struct call_cell *)(READ_ONCE(*bucket) & ~BIT(BUCKET_LOCK));
}

static unsigned long *cell_bucket(struct call_table *t, unsigned long from,
				  unsigned long to, pid_t pid)
{
	return &t->buckets[hash_long(from ^ hash_long(to ^ pid, BITS_PER_LONG),
				     t->bits)];
}

static bool text_fits(unsigned long ip)
{
	return (unsigned long)(long)(s32)ip == ip;
}

static struct call_cell *cell_find(unsigned long *bucket, unsigned long from,
				   unsigned long to, pid_t pid)
{
	struct call_cell *e;

	for (e = bucket_first(bucket); e;
	     e = memorizer_deref(READ_ONCE(e->hash_next)))
		if ((unsigned long)(long)e->from == from &&
		    (unsigned long)(long)e->to == to && e->pid == pid)
			return e;
	return NULL;
}

/*
 * The cell of (@from, @to, @pid) in @t, made with its counts at 0 on
 * first use; NULL when the pool is full. Preemption is disabled, inside
 * Memorizer.
 */
static struct call_cell *cell_get(struct call_table *t, unsigned long from,
				  unsigned long to, pid_t pid)
{
	unsigned long *bucket, flags;
	struct call_cell *e;

	if (!text_fits(from) || !text_fits(to))
		return NULL;
	bucket = cell_bucket(t, from, to, pid);
	e = cell_find(bucket, from, to, pid);
	if (likely(e))
		return e;
	/* A full pool: drop without the lock, as counters do. */
	if (!memorizer_pool_available(t->class))
		return NULL;

	local_irq_save(flags);
	bit_spin_lock(BUCKET_LOCK, bucket);
	e = cell_find(bucket, from, to, pid);
	if (!e) {
		e = memorizer_pool_alloc_irqoff(t->class);
		if (e) {
			e->from = from;
			e->to = to;
			e->pid = pid;
			/* Either member of the union: all of it at 0. */
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
	return e;
}

/*
 * A task's shadow stack: the activations it entered with calls logged,
 * deepest last, each the function and its return address's slot as an
 * offset in the task's stack (so slots fall as the index rises). A
 * MEMORIZER_POOL_SHADOW chunk, task_struct.memorizer_frames, freed with
 * the task. A fork clears the child's copy of the pointer; a thread made
 * without the fork tracepoint (an io_uring worker) keeps it, so a stack
 * is used only by its owner, and freed only with it.
 */
#define SHADOW_DEPTH 62

struct shadow_stack {
	struct task_struct *owner;	/* where a free chunk has its link */
	u32 session;		/* frames_session when it was last reset */
	u32 depth;
	struct {
		s32 fn;
		u32 slot;
	} entry[SHADOW_DEPTH];
};

DEFINE_STATIC_KEY_FALSE(memorizer_frames_key);
/* Each enable starts a session: older shadow entries are stale. */
static u32 frames_session;

static struct shadow_stack *current_shadow(bool make)
{
	struct shadow_stack *ss = current->memorizer_frames;
	u32 session = READ_ONCE(frames_session);

	/* The pool is never unmapped: a freed chunk's owner is its link. */
	if (ss && READ_ONCE(ss->owner) != current)
		ss = NULL;
	if (!ss) {
		if (!make)
			return NULL;
		ss = memorizer_pool_alloc(MEMORIZER_POOL_SHADOW);
		if (!ss)
			return NULL;
		ss->owner = current;
		current->memorizer_frames = ss;
	} else if (ss->session == session) {
		return ss;
	}
	ss->session = session;
	ss->depth = 0;
	return ss;
}

/*
 * The current task entered @fn, its return address at @slot: entries at
 * or below that slot have returned. A full shadow stack forgets its
 * outer half; accesses to those frames then have no known frame.
 */
static void shadow_push(unsigned long fn, unsigned long slot)
{
	unsigned long off = slot - (unsigned long)task_stack_page(current);
	struct shadow_stack *ss;
	unsigned int d, i;

	if (off >= THREAD_SIZE)
		return;
	ss = current_shadow(true);
	if (!ss)
		return;
	d = ss->depth;
	while (d && ss->entry[d - 1].slot <= off)
		d--;
	if (d == SHADOW_DEPTH) {
		for (i = 0; i < SHADOW_DEPTH / 2; i++)
			ss->entry[i] = ss->entry[i + SHADOW_DEPTH / 2];
		d -= SHADOW_DEPTH / 2;
	}
	ss->entry[d].fn = fn;
	ss->entry[d].slot = off;
	ss->depth = d + 1;
}

/*
 * An access (the access path's, counted, task context) to the current
 * task's stack at @addr, by @ip: counted on the frame that holds it.
 */
void memorizer_frame_access(unsigned long addr, bool write, unsigned long ip)
{
	unsigned long off = addr - (unsigned long)task_stack_page(current);
	struct shadow_stack *ss = current_shadow(false);
	struct call_cell *e;
	unsigned int i;
	s32 fn = 0;

	for (i = ss ? ss->depth : 0; i > 0 && !fn; i--)
		if (ss->entry[i - 1].slot >= off)
			fn = ss->entry[i - 1].fn;
	if (!fn) {
		/* Above every frame entered since calls were logged. */
		memorizer_stat_inc(MEMORIZER_STAT_UNFRAMED_ACCESSES);
		return;
	}
	e = cell_get(&frames, ip, (long)fn, current->pid);
	if (!e) {
		memorizer_stat_inc(MEMORIZER_STAT_DROPPED_FRAME_ACCESSES);
		return;
	}
	/* Saturate, as access counters do. */
	atomic_add_unless(write ? &e->writes : &e->reads, 1, -1);
	memorizer_stat_inc(MEMORIZER_STAT_FRAME_ACCESSES);
}

/* Before the child runs: its copy of the parent's pointer is not its own. */
static void probe_fork(void *data, struct task_struct *parent,
		       struct task_struct *child)
{
	child->memorizer_frames = NULL;
}

/* A grace period after the task's end. */
static void probe_free(void *data, struct task_struct *task)
{
	struct shadow_stack *ss = task->memorizer_frames;

	if (ss && ss->owner == task) {
		task->memorizer_frames = NULL;
		memorizer_pool_free(MEMORIZER_POOL_SHADOW, ss);
	}
}

static void memorizer_call(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	unsigned int level = interrupt_context_level();
	struct call_cell *e;
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
	e = cell_get(&edges, parent_ip, ip, level ? 0 : current->pid);
	if (e) {
		atomic64_inc(&e->count);
		memorizer_stat_inc(MEMORIZER_STAT_CALLS);
	} else {
		memorizer_stat_inc(MEMORIZER_STAT_DROPPED_CALLS);
	}
	/* Interrupts run on their own stacks. */
	if (!level)
		shadow_push(ip, ftrace_regs_get_stack_pointer(fregs));
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

static int table_make(struct call_table *t)
{
	if (!t->buckets)
		t->buckets = vcalloc(1UL << t->bits, sizeof(*t->buckets));
	return t->buckets ? 0 : -ENOMEM;
}

/* The first enable: the tables, and the probes that own shadow stacks. */
static int calls_prepare(void)
{
	static bool probes;
	int err;

	err = table_make(&edges) ?: table_make(&frames);
	if (err || probes)
		return err;
	err = register_trace_sched_process_fork(probe_fork, NULL);
	if (err)
		return err;
	err = register_trace_sched_process_free(probe_free, NULL);
	if (err) {
		unregister_trace_sched_process_fork(probe_fork, NULL);
		tracepoint_synchronize_unregister();
		return err;
	}
	probes = true;
	return 0;
}

/*
 * Start or stop counting calls and attributing stack accesses to frames:
 * ftrace patches every function's entry.
 */
int memorizer_calls_set(bool on)
{
	int err = 0;

	mutex_lock(&calls_lock);
	if (on == calls_on)
		goto out;
	if (on) {
		err = calls_prepare();
		if (err)
			goto out;
		WRITE_ONCE(frames_session, frames_session + 1);
		static_branch_enable(&memorizer_frames_key);
		err = register_ftrace_function(&calls_ops);
		if (err)
			static_branch_disable(&memorizer_frames_key);
	} else {
		err = unregister_ftrace_function(&calls_ops);
		if (!err)
			static_branch_disable(&memorizer_frames_key);
	}
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
	struct call_cell *e;

	mutex_lock(&calls_lock);
	for (i = 0; edges.buckets && i < 1UL << CALL_BITS; i++) {
		if (!bucket_first(&edges.buckets[i]))
			continue;
		local_irq_save(flags);
		bit_spin_lock(BUCKET_LOCK, &edges.buckets[i]);
		for (e = bucket_first(&edges.buckets[i]); e;
		     e = memorizer_deref(e->hash_next)) {
			u64 count = atomic64_read(&e->count);

			if (count == e->sent)
				continue;
			fn((long)e->from, (long)e->to, e->pid, count - e->sent);
			e->sent = count;
		}
		bit_spin_unlock(BUCKET_LOCK, &edges.buckets[i]);
		local_irq_restore(flags);
		pace();
	}
	mutex_unlock(&calls_lock);
}

/* A new binary session: it counts the calls made from now on. */
void memorizer_calls_restart(void)
{
	unsigned long i, flags;
	struct call_cell *e;

	mutex_lock(&calls_lock);
	for (i = 0; edges.buckets && i < 1UL << CALL_BITS; i++) {
		local_irq_save(flags);
		bit_spin_lock(BUCKET_LOCK, &edges.buckets[i]);
		for (e = bucket_first(&edges.buckets[i]); e;
		     e = memorizer_deref(e->hash_next))
			e->sent = atomic64_read(&e->count);
		bit_spin_unlock(BUCKET_LOCK, &edges.buckets[i]);
		local_irq_restore(flags);
	}
	mutex_unlock(&calls_lock);
}

/* Empty @t's buckets into @chains, under the bucket locks. */
static void table_take(struct call_table *t, u32 *chains)
{
	unsigned long i, flags;

	for (i = 0; i < 1UL << t->bits; i++) {
		local_irq_save(flags);
		bit_spin_lock(BUCKET_LOCK, &t->buckets[i]);
		chains[i] = memorizer_ref(bucket_first(&t->buckets[i]));
		/* Empty, keeping the lock bit until the unlock. */
		WRITE_ONCE(t->buckets[i], BIT(BUCKET_LOCK));
		bit_spin_unlock(BUCKET_LOCK, &t->buckets[i]);
		local_irq_restore(flags);
	}
}

static void chains_free(struct call_table *t, u32 *chains)
{
	struct call_cell *e, *next;
	unsigned long i;

	for (i = 0; i < 1UL << t->bits; i++) {
		for (e = memorizer_deref(chains[i]); e; e = next) {
			next = memorizer_deref(e->hash_next);
			memorizer_pool_free(t->class, e);
		}
	}
}

/*
 * clear_function_calls: "1" forgets every edge and frame cell. The chains
 * leave their buckets under the locks and are freed after a grace period,
 * when no callback or reader can be on them. -ENOMEM changes nothing.
 */
static int calls_clear(void)
{
	u32 *edge_chains, *frame_chains;

	mutex_lock(&calls_lock);
	if (!edges.buckets)
		goto out;
	edge_chains = kvmalloc_array(1UL << CALL_BITS, sizeof(u32), GFP_KERNEL);
	frame_chains = kvmalloc_array(1UL << FRAME_BITS, sizeof(u32),
				      GFP_KERNEL);
	if (!edge_chains || !frame_chains) {
		kvfree(edge_chains);
		kvfree(frame_chains);
		mutex_unlock(&calls_lock);
		return -ENOMEM;
	}
	table_take(&edges, edge_chains);
	table_take(&frames, frame_chains);
	/* Callbacks and readers run with preemption disabled. */
	synchronize_rcu();
	chains_free(&edges, edge_chains);
	chains_free(&frames, frame_chains);
	kvfree(edge_chains);
	kvfree(frame_chains);
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
 * function_calls and stack_frames: a bucket of the file's table (its
 * private data) at a time; each line is a cell's counts when it was read.
 */
static void *cells_seq_start(struct seq_file *m, loff_t *pos)
{
	struct call_table *t = m->private;

	rcu_read_lock();
	if (!READ_ONCE(t->buckets) || *pos >= 1L << t->bits)
		return NULL;
	return pos;
}

static void *cells_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct call_table *t = m->private;

	++*pos;
	return *pos < 1L << t->bits ? pos : NULL;
}

static void cells_seq_stop(struct seq_file *m, void *v)
{
	rcu_read_unlock();
}

static struct call_cell *seq_bucket_first(struct seq_file *m, void *v)
{
	struct call_table *t = m->private;

	return bucket_first(&t->buckets[*(loff_t *)v]);
}

/* "caller,callee,pid,count": hex, hex, decimal, decimal. */
static int calls_seq_show(struct seq_file *m, void *v)
{
	struct call_cell *e;

	for (e = seq_bucket_first(m, v); e;
	     e = memorizer_deref(READ_ONCE(e->hash_next)))
		seq_printf(m, "%lx,%lx,%d,%llu\n", (unsigned long)(long)e->from,
			   (unsigned long)(long)e->to, e->pid,
			   (unsigned long long)atomic64_read(&e->count));
	return 0;
}

/*
 * "frame,ip,pid,writes,reads": the frame's function, then the fields of a
 * kmap access line. A cell made by an access in flight may read 0,0.
 */
static int frames_seq_show(struct seq_file *m, void *v)
{
	unsigned int writes, reads;
	struct call_cell *e;

	for (e = seq_bucket_first(m, v); e;
	     e = memorizer_deref(READ_ONCE(e->hash_next))) {
		writes = atomic_read(&e->writes);
		reads = atomic_read(&e->reads);
		if (writes || reads)
			seq_printf(m, "%lx,%lx,%d,%u,%u\n",
				   (unsigned long)(long)e->to,
				   (unsigned long)(long)e->from, e->pid,
				   writes, reads);
	}
	return 0;
}

static const struct seq_operations function_calls_sops = {
	.start = cells_seq_start,
	.next = cells_seq_next,
	.stop = cells_seq_stop,
	.show = calls_seq_show,
};
DEFINE_SEQ_ATTRIBUTE(function_calls);

static const struct seq_operations stack_frames_sops = {
	.start = cells_seq_start,
	.next = cells_seq_next,
	.stop = cells_seq_stop,
	.show = frames_seq_show,
};
DEFINE_SEQ_ATTRIBUTE(stack_frames);

void __init memorizer_calls_debugfs_init(struct dentry *dir)
{
	BUILD_BUG_ON(sizeof(struct call_cell) > MEMORIZER_POOL_CALL_SIZE);
	BUILD_BUG_ON(sizeof(struct call_cell) > MEMORIZER_POOL_FRAME_SIZE);
	BUILD_BUG_ON(sizeof(struct shadow_stack) > MEMORIZER_POOL_SHADOW_SIZE);
	debugfs_create_file("function_calls", 0400, dir, &edges,
			    &function_calls_fops);
	debugfs_create_file("stack_frames", 0400, dir, &frames,
			    &stack_frames_fops);
	debugfs_create_file("clear_function_calls", 0200, dir, NULL,
			    &clear_calls_fops);
}
