// SPDX-License-Identifier: GPL-2.0
/*
 * Memorizer control interface: the files under /sys/kernel/debug/memorizer/.
 *
 * Every file is root-only. A write that is rejected returns -EINVAL and
 * leaves the previous state in place.
 */

#define pr_fmt(fmt) "memorizer: " fmt

#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/threads.h>
#include <linux/uaccess.h>
#include <kunit/visibility.h>

#include "memorizer.h"

/* Longest accepted write: a pid below PID_MAX_LIMIT and a newline. */
#define ENABLED_BUF_LEN 16

static DEFINE_MUTEX(control_lock);
static struct memorizer_target current_target;	/* under control_lock */

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
EXPORT_SYMBOL_IF_KUNIT(memorizer_parse_enabled);

static bool pid_exists(pid_t nr)
{
	bool exists;

	rcu_read_lock();
	exists = pid_task(find_pid_ns(nr, &init_pid_ns), PIDTYPE_PID);
	rcu_read_unlock();
	return exists;
}

static ssize_t enabled_read(struct file *file, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	char buf[ENABLED_BUF_LEN];
	unsigned int val;
	int len;

	mutex_lock(&control_lock);
	val = current_target.mode == MEMORIZER_PID ? current_target.pid :
						      current_target.mode;
	mutex_unlock(&control_lock);

	len = scnprintf(buf, sizeof(buf), "%u\n", val);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t enabled_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	struct memorizer_target target;
	char buf[ENABLED_BUF_LEN];

	if (*ppos != 0 || count == 0 || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';

	if (memorizer_parse_enabled(buf, &target))
		return -EINVAL;
	if (target.mode == MEMORIZER_PID && !pid_exists(target.pid))
		return -EINVAL;

	mutex_lock(&control_lock);
	current_target = target;
	mutex_unlock(&control_lock);

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

static int __init memorizer_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("memorizer", NULL);

	debugfs_create_file("memorizer_enabled", 0600, dir, NULL,
			    &enabled_fops);
	return 0;
}
late_initcall(memorizer_debugfs_init);
