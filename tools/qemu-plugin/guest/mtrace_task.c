// SPDX-License-Identifier: GPL-2.0
/*
 * mtrace_task: tell the mtrace QEMU plugin which task each vCPU runs.
 *
 * The plugin (tools/qemu-plugin/mtrace.c) sees instruction bytes at
 * translation and the addresses of loads, never registers or memory. This
 * module, which needs nothing of Memorizer and loads into an unmodified
 * kernel, executes markers it recognises: a magic 8-byte NOP
 * (nopl disp32(%rax,%rax,1), disp32 the marker's kind), then loads from a
 * page-aligned 4 KiB array of its own whose offsets carry the value. The
 * convention is tools/lib/mtrace_log.h's (MTRACE_MARK_*), whose values
 * these are:
 *   BASE ("MZTB"): at load, one load from the array's start: the plugin
 *     learns the array's address;
 *   PID ("MZTP"): in a probe on the sched_switch tracepoint, and at load
 *     on every CPU, two loads: array + (pid & 0xfff), then
 *     array + (pid >> 12): the vCPU now runs pid;
 *   END ("MZTE"): at unload, one load from the array: the plugin forgets
 *     the array and every vCPU's pid.
 * Each sequence is 16-byte aligned and at most 16 bytes long: it never
 * crosses a page.
 *
 * sched_switch is not exported to modules; the module finds it with
 * for_each_kernel_tracepoint() and attaches with tracepoint_probe_register(),
 * both exported. The probe runs before the switch itself: the few
 * accesses between it and the new task's first instruction are counted
 * to the new task.
 */
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

static u8 mtrace_array[4096] __aligned(4096);
static struct tracepoint *sched_switch_tp;

/* The marker NOP, nopl disp32(%rax,%rax,1), with disp32 magic. */
#define MTRACE_NOP(magic)	".balign 16\n\t.byte 0x0f, 0x1f, 0x84, 0x00\n\t.long " magic "\n\t"

static noinline void mtrace_mark_base(void)
{
	asm volatile(MTRACE_NOP("0x42545a4d")
		     "movb (%0), %%al\n\t"
		     : : "r" (mtrace_array) : "rax", "memory");
}

static noinline void mtrace_mark_end(void)
{
	asm volatile(MTRACE_NOP("0x45545a4d")
		     "movb (%0), %%al\n\t"
		     : : "r" (mtrace_array) : "rax", "memory");
}

static noinline void mtrace_mark_pid(pid_t pid)
{
	const u8 *lo = mtrace_array + (pid & 0xfff);
	const u8 *hi = mtrace_array + ((pid >> 12) & 0xfff);

	asm volatile(MTRACE_NOP("0x50545a4d")
		     "movb (%0), %%al\n\t"
		     "movb (%1), %%al\n\t"
		     : : "r" (lo), "r" (hi) : "rax", "memory");
}

static void mtrace_probe(void *data, bool preempt, struct task_struct *prev,
			 struct task_struct *next, unsigned int prev_state)
{
	mtrace_mark_pid(next->pid);
}

static void mtrace_mark_current(void *info)
{
	mtrace_mark_pid(current->pid);
}

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
	mtrace_mark_base();
	ret = tracepoint_probe_register(sched_switch_tp, mtrace_probe, NULL);
	if (ret) {
		mtrace_mark_end();
		return ret;
	}
	/* The tasks running now, each on its CPU. */
	on_each_cpu(mtrace_mark_current, NULL, 1);
	pr_info("mtrace_task: marking task switches for the mtrace plugin\n");
	return 0;
}

static void __exit mtrace_task_exit(void)
{
	tracepoint_probe_unregister(sched_switch_tp, mtrace_probe, NULL);
	tracepoint_synchronize_unregister();
	mtrace_mark_end();
}

module_init(mtrace_task_init);
module_exit(mtrace_task_exit);
MODULE_DESCRIPTION("Task switch markers for the mtrace QEMU plugin");
MODULE_LICENSE("GPL");
