// SPDX-License-Identifier: GPL-2.0
/*
 * mtrace_share_test: known cache-line sharing, for the mtrace plugin's
 * test (tests/vm/mtrace-sharing.sh). At load, two kthreads bound to CPUs 0
 * and 1 start together and, for msecs milliseconds (long enough for the
 * two vCPU threads of QEMU to overlap on a busy host), repeatedly:
 *   - write their own field of mtrace_false_line (a, bytes 0-3, from
 *     mtrace_share_write_a on CPU 0; b, bytes 32-35, from
 *     mtrace_share_write_b on CPU 1): one line, different bytes, written
 *     by different CPUs: false sharing;
 *   - every sixteenth time, increment and read the one counter of
 *     mtrace_true_line (mtrace_share_count): true sharing, fewer
 *     transfers.
 * Loading returns when both are done; the module then only waits to be
 * unloaded.
 */
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched/task.h>

static unsigned int msecs = 2000;
module_param(msecs, uint, 0444);
MODULE_PARM_DESC(msecs, "how long the threads run (default 2000 ms)");

struct mtrace_false {
	u32 a;
	u32 pad[7];
	u32 b;
	u32 pad2[7];
} __aligned(64);

struct mtrace_true {
	atomic_t count;
} __aligned(64);

static struct mtrace_false mtrace_false_line;
static struct mtrace_true mtrace_true_line;
static atomic_t mtrace_started;
static DECLARE_COMPLETION(mtrace_done_a);
static DECLARE_COMPLETION(mtrace_done_b);
static unsigned int mtrace_seen;
static unsigned long mtrace_deadline;
static unsigned int mtrace_loops[2];

static noinline void mtrace_share_count(void)
{
	atomic_inc(&mtrace_true_line.count);
	WRITE_ONCE(mtrace_seen, atomic_read(&mtrace_true_line.count));
}

static noinline void mtrace_share_write_a(void)
{
	unsigned int i;

	for (i = 0; time_before(jiffies, mtrace_deadline); i++) {
		WRITE_ONCE(mtrace_false_line.a, i);
		if (!(i & 15))
			mtrace_share_count();
	}
	mtrace_loops[0] = i;
}

static noinline void mtrace_share_write_b(void)
{
	unsigned int i;

	for (i = 0; time_before(jiffies, mtrace_deadline); i++) {
		WRITE_ONCE(mtrace_false_line.b, i);
		if (!(i & 15))
			mtrace_share_count();
	}
	mtrace_loops[1] = i;
}

static int mtrace_share_thread(void *arg)
{
	bool a = arg == &mtrace_done_a;

	/* Start together, so that the two loops overlap. */
	atomic_inc(&mtrace_started);
	while (atomic_read(&mtrace_started) < 2)
		cpu_relax();
	if (a)
		mtrace_share_write_a();
	else
		mtrace_share_write_b();
	complete(arg);
	return 0;
}

static int __init mtrace_share_init(void)
{
	struct task_struct *ta, *tb;

	if (!cpu_online(0) || !cpu_online(1)) {
		pr_err("mtrace_share_test: needs CPUs 0 and 1 online\n");
		return -ENODEV;
	}
	ta = kthread_create(mtrace_share_thread, &mtrace_done_a, "mtrace_share_a");
	if (IS_ERR(ta))
		return PTR_ERR(ta);
	tb = kthread_create(mtrace_share_thread, &mtrace_done_b, "mtrace_share_b");
	if (IS_ERR(tb)) {
		/* Not woken yet: stopping it returns without running it. */
		kthread_stop(ta);
		return PTR_ERR(tb);
	}
	mtrace_deadline = jiffies + msecs_to_jiffies(msecs);
	kthread_bind(ta, 0);
	kthread_bind(tb, 1);
	get_task_struct(ta);
	get_task_struct(tb);
	wake_up_process(ta);
	wake_up_process(tb);
	wait_for_completion(&mtrace_done_a);
	wait_for_completion(&mtrace_done_b);
	pr_info("mtrace_share_test: pids %d and %d, %u and %u writes, counter %d\n",
		ta->pid, tb->pid, mtrace_loops[0],
		mtrace_loops[1], atomic_read(&mtrace_true_line.count));
	return 0;
}

static void __exit mtrace_share_exit(void)
{
}

module_init(mtrace_share_init);
module_exit(mtrace_share_exit);
MODULE_DESCRIPTION("Known false and true cache-line sharing for the mtrace plugin's test");
MODULE_LICENSE("GPL");
