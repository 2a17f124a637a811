// SPDX-License-Identifier: GPL-2.0
/*
 * mtrace_task: tell the mtrace QEMU plugin which task each vCPU runs.
 *
 * The plugin (tools/qemu-plugin/mtrace.c) sees instruction bytes at
 * translation and the addresses of loads, never registers or memory. This
 * module, which needs nothing of Memorizer and loads into an unmodified
 * kernel, executes marker loads it recognises: movb (%rcx),%al behind four
 * segment-override prefixes x86-64 ignores, whose order says which marker,
 * from a page-aligned 4 KiB array of its own whose offsets carry the
 * value. The convention is tools/lib/mtrace_log.h's (MTRACE_MARK_*),
 * whose bytes these are:
 *   BASE (2e 3e 26 36 8a 01): at load (and when the window parameter is
 *     set to 1), from the array's start: the plugin learns the array's
 *     address;
 *   PID_LO (2e 3e 36 26 8a 01), then PID_HI (3e 2e 36 26 8a 01): in a
 *     probe on the sched_switch tracepoint, and at load on every CPU, from
 *     array + (pid & 0xfff), then array + (pid >> 12): the vCPU now runs
 *     pid;
 *   END (3e 2e 26 36 8a 01): at unload (and when window is set to 0), from
 *     the array: the plugin forgets the array and every vCPU's pid.
 *
 * sched_switch is not exported to modules; the module finds it with
 * for_each_kernel_tracepoint() and attaches with tracepoint_probe_register(),
 * both exported. The probe runs before the switch itself: the few
 * accesses between it and the new task's first instruction are counted
 * to the new task.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

static u8 mtrace_array[4096] __aligned(4096);
static struct tracepoint *sched_switch_tp;

/* A marker: movb (%rcx),%al behind the four prefixes given. */
#define MTRACE_MARK(prefixes)	".byte " prefixes ", 0x8a, 0x01\n\t"

static noinline void mtrace_mark_base(void)
{
	asm volatile(MTRACE_MARK("0x2e, 0x3e, 0x26, 0x36")
		     : : "c" (mtrace_array) : "rax", "memory");
}

static noinline void mtrace_mark_end(void)
{
	asm volatile(MTRACE_MARK("0x3e, 0x2e, 0x26, 0x36")
		     : : "c" (mtrace_array) : "rax", "memory");
}

static noinline void mtrace_mark_pid(pid_t pid)
{
	asm volatile(MTRACE_MARK("0x2e, 0x3e, 0x36, 0x26")
		     : : "c" (mtrace_array + (pid & 0xfff)) : "rax", "memory");
	asm volatile(MTRACE_MARK("0x3e, 0x2e, 0x36, 0x26")
		     : : "c" (mtrace_array + ((pid >> 12) & 0xfff))
		     : "rax", "memory");
}

/* Markers on: between a BASE marker and an END one. */
static bool mtrace_open;
static bool mtrace_ready;

static void mtrace_probe(void *data, bool preempt, struct task_struct *prev,
			 struct task_struct *next, unsigned int prev_state)
{
	if (READ_ONCE(mtrace_open))
		mtrace_mark_pid(next->pid);
}

static void mtrace_mark_current(void *info)
{
	mtrace_mark_pid(current->pid);
}

/* Open: BASE, then the tasks running now, each on its CPU. */
static void mtrace_window_open(void)
{
	mtrace_mark_base();
	WRITE_ONCE(mtrace_open, true);
	on_each_cpu(mtrace_mark_current, NULL, 1);
}

static void mtrace_window_close(void)
{
	WRITE_ONCE(mtrace_open, false);
	mtrace_mark_end();
}

/*
 * window: 1 (the default) marks from load to unload; 0 stops the markers
 * (an END marker: with --mtrace-window task the plugin stops logging) and
 * 1 starts them again (BASE and every CPU's task), without a fork: a
 * shell's builtin echo to /sys/module/mtrace_task/parameters/window opens
 * and closes the plugin's window around a workload. Load with window=0 to
 * start closed. Writes are serialised by the parameters' lock.
 */
static bool window = true;

static int window_set(const char *val, const struct kernel_param *kp)
{
	bool on;
	int ret = kstrtobool(val, &on);

	if (ret)
		return ret;
	window = on;
	if (!mtrace_ready)
		return 0;		/* at load: init opens, or not */
	if (on && !mtrace_open)
		mtrace_window_open();
	else if (!on && mtrace_open)
		mtrace_window_close();
	return 0;
}

static const struct kernel_param_ops window_ops = {
	.set = window_set,
	.get = param_get_bool,
};
module_param_cb(window, &window_ops, &window, 0644);
MODULE_PARM_DESC(window, "Mark task switches (1) or not (0): the mtrace plugin's window");

static void mtrace_find(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_switch"))
		sched_switch_tp = tp;
}

static int __init mtrace_task_init(void)
{
	int ret;

	for_each_kernel_tracepoint(mtrace_find, NULL);
	if (!sched_switch_tp) {
		pr_err("mtrace_task: no sched_switch tracepoint (CONFIG_TRACEPOINTS?)\n");
		return -ENODEV;
	}
	ret = tracepoint_probe_register(sched_switch_tp, mtrace_probe, NULL);
	if (ret)
		return ret;
	kernel_param_lock(THIS_MODULE);
	mtrace_ready = true;
	if (window)
		mtrace_window_open();
	kernel_param_unlock(THIS_MODULE);
	pr_info("mtrace_task: marking task switches for the mtrace plugin\n");
	return 0;
}

static void __exit mtrace_task_exit(void)
{
	tracepoint_probe_unregister(sched_switch_tp, mtrace_probe, NULL);
	tracepoint_synchronize_unregister();
	kernel_param_lock(THIS_MODULE);
	if (mtrace_open)
		mtrace_window_close();
	mtrace_ready = false;
	kernel_param_unlock(THIS_MODULE);
}

module_init(mtrace_task_init);
module_exit(mtrace_task_exit);
MODULE_DESCRIPTION("Task switch markers for the mtrace QEMU plugin");
MODULE_LICENSE("GPL");
