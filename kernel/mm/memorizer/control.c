// SPDX-License-Identifier: GPL-2.0
/*
 * Memorizer control: what is traced (memorizer_enabled and the task marks
 * it sets, memorizer_log_access, log_calls_enabled), boot parameters, and
 * the debugfs files under /sys/kernel/debug/memorizer/.
 *
 * Every file is root-only. A write that is rejected returns -EINVAL and
 * leaves the previous state in place.
 */

#define pr_fmt(fmt) "memorizer: " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/jump_label.h>
#include <linux/kernel.h>
#include <linux/memorizer.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <linux/uaccess.h>

#include "memorizer.h"
#include "pool.h"

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "memorizer."

static DEFINE_MUTEX(control_lock);
static struct memorizer_control control;	/* under control_lock */
static bool memorizer_ready;

static bool enabled_boot = true;
static bool log_access_boot;
static bool log_calls_boot;
static struct memorizer_size_param pool_size = {
	.bytes = 64UL << 20,
	.max = 1UL << 34,	/* memorizer_ref() */
};

/**
 * memorizer_mark_process - mark or unmark every thread of a process
 * @task: any thread of the process
 * @mark: true to trace it in modes 2, 3 and pid
 *
 * Threads and processes it creates later inherit the mark at fork.
 */
void memorizer_mark_process(struct task_struct *task, bool mark)
{
	struct task_struct *t;

	rcu_read_lock();
	for_each_thread(task, t)
		WRITE_ONCE(t->memorizer_marked, mark);
	rcu_read_unlock();
}

bool memorizer_process_marked(struct task_struct *task)
{
	return READ_ONCE(task->memorizer_marked);
}

static void unmark_all(void)
{
	struct task_struct *p, *t;

	rcu_read_lock();
	for_each_process_thread(p, t)
		WRITE_ONCE(t->memorizer_marked, 0);
	rcu_read_unlock();
}

static void update_keys(void)
{
	bool on = control.target.mode != MEMORIZER_OFF;

	lockdep_assert_held(&control_lock);
	if (on)
		static_branch_enable(&memorizer_alloc_key);
	else
		static_branch_disable(&memorizer_alloc_key);
	if (on && control.log_access)
		static_branch_enable(&memorizer_access_key);
	else
		static_branch_disable(&memorizer_access_key);
}

/*
 * Make @target current: a new selection starts afresh, so every earlier
 * mark goes; modes 2 and 3 mark the writer, mode pid marks that process.
 */
static int set_target(const struct memorizer_target *target)
{
	struct task_struct *task = NULL;
	int err;

	lockdep_assert_held(&control_lock);
	if (target->mode == MEMORIZER_PID) {
		/* The pid as the writer sees it; gone is -EINVAL. */
		task = find_get_task_by_vpid(target->pid);
		if (!task)
			return -EINVAL;
	}
	if (target->mode != MEMORIZER_OFF) {
		err = memorizer_hooks_start();
		if (err) {
			if (task)
				put_task_struct(task);
			return err;
		}
	}

	WRITE_ONCE(memorizer_active_mode, MEMORIZER_OFF);
	unmark_all();
	if (target->mode == MEMORIZER_TREE ||
	    target->mode == MEMORIZER_TREE_AND_IRQ)
		memorizer_mark_process(current, true);
	if (task) {
		memorizer_mark_process(task, true);
		put_task_struct(task);
	}
	control.target = *target;
	WRITE_ONCE(memorizer_active_mode, target->mode);
	return 0;
}

/* What memorizer_enabled and memorizer_log_access say. */
void memorizer_control_get(struct memorizer_control *c)
{
	mutex_lock(&control_lock);
	*c = control;
	mutex_unlock(&control_lock);
}

/*
 * Set what @what selects of @c (MEMORIZER_SET_*): all of it, or nothing
 * and an error.
 */
int memorizer_control_set(const struct memorizer_control *c,
			  unsigned int what)
{
	struct memorizer_control old;
	int err = 0;

	mutex_lock(&control_lock);
	old = control;
	if (what & MEMORIZER_SET_LOG_CALLS) {
		err = memorizer_calls_set(c->log_calls);
		if (err)
			goto out;
		control.log_calls = c->log_calls;
	}
	if (what & MEMORIZER_SET_LOG_ACCESS)
		control.log_access = c->log_access;
	if (what & MEMORIZER_SET_TARGET)
		err = set_target(&c->target);
	if (err) {
		if (control.log_calls != old.log_calls)
			memorizer_calls_set(old.log_calls);
		control.log_calls = old.log_calls;
		control.log_access = old.log_access;
	} else {
		update_keys();
	}
out:
	mutex_unlock(&control_lock);
	return err;
}

/*
 * A set of names that a control file and a boot parameter both set: kinds,
 * the kinds that get records; count_instruments, the instruments whose
 * accesses are counted as the workload's ("none" by default), taken at
 * each access, so that a section already running is counted or left out
 * as the set says now.
 */
struct name_set {
	unsigned int *set;
	int (*parse)(const char *buf, unsigned int *set);
	int (*format)(char *buf, size_t size, unsigned int set);
};

static const struct name_set kinds_set = {
	&memorizer_kinds, memorizer_parse_kinds, memorizer_format_kinds,
};

static const struct name_set instrs_set = {
	&memorizer_instr_counted, memorizer_parse_instrs,
	memorizer_format_instrs,
};

/* file->private_data: the struct name_set. */
static ssize_t name_set_read(struct file *file, char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	const struct name_set *ns = file->private_data;
	char buf[MEMORIZER_WRITE_MAX];
	int len = ns->format(buf, sizeof(buf), READ_ONCE(*ns->set));

	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t name_set_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	const struct name_set *ns = file->private_data;
	char buf[MEMORIZER_WRITE_MAX];
	unsigned int set;
	int err;

	err = memorizer_copy_write(buf, ubuf, count, ppos);
	if (err)
		return err;
	if (ns->parse(buf, &set))
		return -EINVAL;
	mutex_lock(&control_lock);
	WRITE_ONCE(*ns->set, set);
	mutex_unlock(&control_lock);
	*ppos += count;
	return count;
}

static const struct file_operations name_set_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = name_set_read,
	.write = name_set_write,
	.llseek = default_llseek,
};

static ssize_t read_number(char __user *ubuf, size_t count, loff_t *ppos,
			   unsigned int val)
{
	char buf[MEMORIZER_WRITE_MAX];
	int len = scnprintf(buf, sizeof(buf), "%u\n", val);

	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

/*
 * memorizer_enabled, memorizer_log_access and log_calls_enabled: one
 * setting each, which file->private_data names (MEMORIZER_SET_TARGET,
 * _LOG_ACCESS or _LOG_CALLS).
 */
static ssize_t control_read(struct file *file, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	struct memorizer_control c;
	unsigned int val;

	memorizer_control_get(&c);
	if ((uintptr_t)file->private_data == MEMORIZER_SET_LOG_ACCESS)
		val = c.log_access;
	else if ((uintptr_t)file->private_data == MEMORIZER_SET_LOG_CALLS)
		val = c.log_calls;
	else if (c.target.mode == MEMORIZER_PID)
		val = c.target.pid;
	else
		val = c.target.mode;
	return read_number(ubuf, count, ppos, val);
}

static ssize_t control_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	unsigned int what = (uintptr_t)file->private_data;
	struct memorizer_control c;
	char buf[MEMORIZER_WRITE_MAX];
	int err;

	err = memorizer_copy_write(buf, ubuf, count, ppos);
	if (err)
		return err;
	if (what == MEMORIZER_SET_LOG_ACCESS ?
	    memorizer_parse_bool(buf, &c.log_access) :
	    what == MEMORIZER_SET_LOG_CALLS ?
	    memorizer_parse_bool(buf, &c.log_calls) :
	    memorizer_parse_enabled(buf, &c.target))
		return -EINVAL;
	if (what != MEMORIZER_SET_LOG_ACCESS && !memorizer_ready)
		return -ENOMEM;

	err = memorizer_control_set(&c, what);
	if (err)
		return err;
	*ppos += count;
	return count;
}

static const struct file_operations control_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = control_read,
	.write = control_write,
	.llseek = default_llseek,
};

/* clear_object_list and clear_dead_objects: "1" drops freed records. */
static ssize_t clear_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	int err = memorizer_write_one(ubuf, count, ppos);

	if (err)
		return err;
	if (memorizer_ready) {
		memorizer_records_free(memorizer_text_stream_take());
		memorizer_records_free(memorizer_records_take_closed());
	}
	*ppos += count;
	return count;
}

static const struct file_operations clear_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = clear_write,
	.llseek = default_llseek,
};

static int __init parse_enabled_boot(char *arg)
{
	return !memorizer_parse_bool(arg, &enabled_boot);
}
__setup("memorizer_enabled_boot=", parse_enabled_boot);

static int __init parse_log_boot(char *arg)
{
	return !memorizer_parse_bool(arg, &log_access_boot);
}
__setup("mem_log_boot=", parse_log_boot);

/* memorizer.log_calls=1: count call edges from boot (log_calls_enabled). */
module_param_named(log_calls, log_calls_boot, bool, 0400);
MODULE_PARM_DESC(log_calls, "Count call edges from boot");

/* memorizer.pool_size=: bytes, with the usual K, M, G suffixes. */
module_param_cb(pool_size, &memorizer_size_param_ops, &pool_size, 0400);
MODULE_PARM_DESC(pool_size, "Bytes Memorizer may use for its records");

static int param_set_names(const char *val, const struct kernel_param *kp)
{
	const struct name_set *ns = kp->arg;

	return ns->parse(val, ns->set);
}

static int param_get_names(char *buffer, const struct kernel_param *kp)
{
	const struct name_set *ns = kp->arg;

	return ns->format(buffer, PAGE_SIZE, READ_ONCE(*ns->set));
}

static const struct kernel_param_ops name_set_param_ops = {
	.set = param_set_names,
	.get = param_get_names,
};

/* memorizer.kinds=: the kinds file's value at boot, commas for spaces. */
module_param_cb(kinds, &name_set_param_ops, (void *)&kinds_set, 0400);
MODULE_PARM_DESC(kinds, "Kinds of object Memorizer records (default all)");
/* memorizer.count_instruments=: the file's value at boot, likewise. */
module_param_cb(count_instruments, &name_set_param_ops, (void *)&instrs_set,
		0400);
MODULE_PARM_DESC(count_instruments,
		 "Instruments whose accesses are counted (default none)");

static int __init memorizer_init(void)
{
	struct memorizer_control boot = {
		.target.mode = enabled_boot ? MEMORIZER_SYSTEM : MEMORIZER_OFF,
		.log_access = log_access_boot,
		.log_calls = log_calls_boot,
	};
	int err, calls_err;

	err = memorizer_records_init(pool_size.bytes);
	if (err) {
		pr_err("cannot reserve %lu bytes: %d; Memorizer is unavailable\n",
		       pool_size.bytes, err);
		return 0;
	}
	memorizer_globals_init();
	memorizer_percpu_init();
	memorizer_memmap_init();
	memorizer_modules_init();
	memorizer_text_stream_init();
	memorizer_binary_init();
	memorizer_ready = true;

	err = memorizer_control_set(&boot,
				    MEMORIZER_SET_TARGET | MEMORIZER_SET_LOG_ACCESS);
	calls_err = log_calls_boot ?
		    memorizer_control_set(&boot, MEMORIZER_SET_LOG_CALLS) : 0;
	pr_info("%lu KiB for records; tracking %s, access logging %s, call logging %s\n",
		pool_size.bytes >> 10, enabled_boot && !err ? "on" : "off",
		log_access_boot ? "on" : "off",
		log_calls_boot && !calls_err ? "on" : "off");
	return 0;
}
/* After smp_init(): secondary CPUs come up untraced. */
core_initcall(memorizer_init);

static int __init memorizer_debugfs_init(void)
{
	static const char *const root_links[] = {
		"memorizer_enabled", "memorizer_log_access",
		"clear_object_list", "clear_dead_objects",
	};
	struct dentry *dir = debugfs_create_dir("memorizer", NULL);
	char target[64];
	int i;

	debugfs_create_file("memorizer_enabled", 0600, dir,
			    (void *)MEMORIZER_SET_TARGET, &control_fops);
	debugfs_create_file("memorizer_log_access", 0600, dir,
			    (void *)MEMORIZER_SET_LOG_ACCESS, &control_fops);
	debugfs_create_file("log_calls_enabled", 0600, dir,
			    (void *)MEMORIZER_SET_LOG_CALLS, &control_fops);
	debugfs_create_file("kinds", 0600, dir, (void *)&kinds_set,
			    &name_set_fops);
	debugfs_create_file("count_instruments", 0600, dir, (void *)&instrs_set,
			    &name_set_fops);
	debugfs_create_file("clear_object_list", 0200, dir, NULL, &clear_fops);
	debugfs_create_file("clear_dead_objects", 0200, dir, NULL,
			    &clear_fops);
	memorizer_snapshot_debugfs_init(dir);
	memorizer_stats_debugfs_init(dir);
	memorizer_text_stream_debugfs_init(dir);
	memorizer_binary_debugfs_init(dir);
	memorizer_pool_debugfs_init(dir);
	memorizer_calls_debugfs_init(dir);

	/* The seeds' command lines also use these at the debugfs root. */
	for (i = 0; i < ARRAY_SIZE(root_links); i++) {
		snprintf(target, sizeof(target), "memorizer/%s", root_links[i]);
		debugfs_create_symlink(root_links[i], NULL, target);
	}
	return 0;
}
late_initcall(memorizer_debugfs_init);
