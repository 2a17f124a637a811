// SPDX-License-Identifier: GPL-2.0
/*
 * Memorizer control: what is traced (memorizer_enabled and the task marks
 * it sets, memorizer_log_access), boot parameters, and the debugfs files
 * under /sys/kernel/debug/memorizer/.
 *
 * Every file is root-only. A write that is rejected returns -EINVAL and
 * leaves the previous state in place.
 */

#define pr_fmt(fmt) "memorizer: " fmt

#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/export.h>
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
#include <linux/threads.h>
#include <linux/uaccess.h>

#include "memorizer.h"

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "memorizer."

/* Longest accepted write: a pid below PID_MAX_LIMIT and a newline. */
#define CONTROL_BUF_LEN 16

DEFINE_STATIC_KEY_FALSE(memorizer_alloc_key);
/*
 * Modules use it in memorizer_page_alloc(), inline in the page allocator's
 * API macros. Those macros are for every module, as the functions behind
 * them are (EXPORT_SYMBOL): a GPL-only export would make them GPL-only.
 */
EXPORT_SYMBOL(memorizer_alloc_key);
DEFINE_STATIC_KEY_FALSE(memorizer_free_key);

static DEFINE_MUTEX(control_lock);
static struct memorizer_target current_target;	/* under control_lock */
enum memorizer_mode memorizer_active_mode;	/* read locklessly */
static bool memorizer_log_access;		/* under control_lock */
static bool memorizer_ready;

static bool enabled_boot = true;
static bool log_access_boot;
static unsigned long pool_size = 64UL << 20;

/**
 * memorizer_parse_enabled - parse a value written to memorizer_enabled
 * @buf: NUL-terminated text, optionally ending in one newline
 * @target: filled in on success, untouched on failure
 *
 * Accepts a decimal number: 0..3 select a mode, anything larger names a
 * pid. Whether that pid exists is for the caller to check.
 *
 * Return: 0 or -EINVAL.
 */
int memorizer_parse_enabled(const char *buf, struct memorizer_target *target)
{
	unsigned int val;

	/* kstrtouint() would take a leading '+'; only digits are ABI. */
	if (!isdigit(buf[0]))
		return -EINVAL;
	if (kstrtouint(buf, 10, &val) || val >= PID_MAX_LIMIT)
		return -EINVAL;

	if (val < MEMORIZER_PID) {
		target->mode = val;
		target->pid = 0;
	} else {
		target->mode = MEMORIZER_PID;
		target->pid = val;
	}
	return 0;
}

/**
 * memorizer_parse_bool - parse an on/off value
 * @buf: NUL-terminated text, optionally ending in one newline
 * @val: set on success, untouched on failure
 *
 * Accepts, in any case, 1/0, y/n, yes/no, on/off and true/false.
 *
 * Return: 0 or -EINVAL.
 */
int memorizer_parse_bool(const char *buf, bool *val)
{
	static const char *const words[][2] = {
		{ "0", "1" }, { "n", "y" }, { "no", "yes" },
		{ "off", "on" }, { "false", "true" },
	};
	size_t len = strlen(buf);
	int i, v;

	if (len && buf[len - 1] == '\n')
		len--;
	for (i = 0; i < ARRAY_SIZE(words); i++) {
		for (v = 0; v < 2; v++) {
			if (strlen(words[i][v]) == len &&
			    !strncasecmp(buf, words[i][v], len)) {
				*val = v;
				return 0;
			}
		}
	}
	return -EINVAL;
}

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
	bool on = current_target.mode != MEMORIZER_OFF;

	lockdep_assert_held(&control_lock);
	if (on)
		static_branch_enable(&memorizer_alloc_key);
	else
		static_branch_disable(&memorizer_alloc_key);
	if (on && memorizer_log_access)
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
	current_target = *target;
	WRITE_ONCE(memorizer_active_mode, target->mode);
	update_keys();
	return 0;
}

/* For the KUnit tests: what memorizer_enabled and _log_access say. */
void memorizer_control_get(struct memorizer_target *target, bool *log_access)
{
	mutex_lock(&control_lock);
	*target = current_target;
	*log_access = memorizer_log_access;
	mutex_unlock(&control_lock);
}

int memorizer_control_set(const struct memorizer_target *target,
			  bool log_access)
{
	bool old_log_access;
	int err;

	mutex_lock(&control_lock);
	old_log_access = memorizer_log_access;
	memorizer_log_access = log_access;
	err = set_target(target);
	if (err)	/* set_target() left the keys as they were */
		memorizer_log_access = old_log_access;
	mutex_unlock(&control_lock);
	return err;
}

static ssize_t read_number(char __user *ubuf, size_t count, loff_t *ppos,
			   unsigned int val)
{
	char buf[CONTROL_BUF_LEN];
	int len = scnprintf(buf, sizeof(buf), "%u\n", val);

	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

/* Copy a short write into @buf, NUL-terminated; reject anything longer. */
static int copy_control_write(char *buf, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	if (*ppos != 0 || count == 0 || count >= CONTROL_BUF_LEN)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	return 0;
}

static ssize_t enabled_read(struct file *file, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	unsigned int val;

	mutex_lock(&control_lock);
	val = current_target.mode == MEMORIZER_PID ? current_target.pid :
						      current_target.mode;
	mutex_unlock(&control_lock);
	return read_number(ubuf, count, ppos, val);
}

static ssize_t enabled_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	struct memorizer_target target;
	char buf[CONTROL_BUF_LEN];
	int err;

	err = copy_control_write(buf, ubuf, count, ppos);
	if (err)
		return err;
	if (memorizer_parse_enabled(buf, &target))
		return -EINVAL;
	if (!memorizer_ready)
		return -ENOMEM;

	mutex_lock(&control_lock);
	err = set_target(&target);
	mutex_unlock(&control_lock);
	if (err)
		return err;
	*ppos += count;
	return count;
}

static const struct file_operations enabled_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = enabled_read,
	.write = enabled_write,
	.llseek = default_llseek,
};

static ssize_t log_access_read(struct file *file, char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	return read_number(ubuf, count, ppos, READ_ONCE(memorizer_log_access));
}

static ssize_t log_access_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	char buf[CONTROL_BUF_LEN];
	bool val;
	int err;

	err = copy_control_write(buf, ubuf, count, ppos);
	if (err)
		return err;
	if (memorizer_parse_bool(buf, &val))
		return -EINVAL;

	mutex_lock(&control_lock);
	memorizer_log_access = val;
	update_keys();
	mutex_unlock(&control_lock);
	*ppos += count;
	return count;
}

static const struct file_operations log_access_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = log_access_read,
	.write = log_access_write,
	.llseek = default_llseek,
};

/* clear_object_list and clear_dead_objects: "1" drops freed records. */
static ssize_t clear_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	char buf[CONTROL_BUF_LEN];
	int err;

	err = copy_control_write(buf, ubuf, count, ppos);
	if (err)
		return err;
	if (strcmp(buf, "1") && strcmp(buf, "1\n"))
		return -EINVAL;
	if (memorizer_ready)
		memorizer_clear_dead();
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

/* memorizer.pool_size=: bytes, with the usual K, M, G suffixes. */
static int param_set_pool_size(const char *val, const struct kernel_param *kp)
{
	unsigned long size;
	char *end;

	size = memparse(val, &end);
	if (end == val || (*end && *end != '\n') || size < PAGE_SIZE)
		return -EINVAL;
	*(unsigned long *)kp->arg = size;
	return 0;
}

static const struct kernel_param_ops pool_size_ops = {
	.set = param_set_pool_size,
	.get = param_get_ulong,
};
module_param_cb(pool_size, &pool_size_ops, &pool_size, 0400);
MODULE_PARM_DESC(pool_size, "Bytes Memorizer may use for its records");

static int __init memorizer_init(void)
{
	struct memorizer_target target = { .mode = MEMORIZER_SYSTEM };
	int err;

	err = memorizer_objects_init(pool_size);
	if (err) {
		pr_err("cannot reserve %lu bytes: %d; Memorizer is unavailable\n",
		       pool_size, err);
		return 0;
	}
	memorizer_ready = true;

	mutex_lock(&control_lock);
	memorizer_log_access = log_access_boot;
	if (enabled_boot)
		err = set_target(&target);
	else
		update_keys();
	mutex_unlock(&control_lock);
	pr_info("%lu KiB for records; tracking %s, access logging %s\n",
		pool_size >> 10, enabled_boot && !err ? "on" : "off",
		log_access_boot ? "on" : "off");
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

	debugfs_create_file("memorizer_enabled", 0600, dir, NULL,
			    &enabled_fops);
	debugfs_create_file("memorizer_log_access", 0600, dir, NULL,
			    &log_access_fops);
	debugfs_create_file("clear_object_list", 0200, dir, NULL, &clear_fops);
	debugfs_create_file("clear_dead_objects", 0200, dir, NULL,
			    &clear_fops);
	memorizer_kmap_debugfs_init(dir);
	memorizer_stream_debugfs_init(dir);

	/* The seeds' command lines also use these at the debugfs root. */
	for (i = 0; i < ARRAY_SIZE(root_links); i++) {
		snprintf(target, sizeof(target), "memorizer/%s", root_links[i]);
		debugfs_create_symlink(root_links[i], NULL, target);
	}
	return 0;
}
late_initcall(memorizer_debugfs_init);
