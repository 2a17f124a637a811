// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/<pid>/memorizer_enabled: whether Memorizer's modes 2, 3 and pid
 * trace this process. Reads 0 or 1; writing 1 or 0 marks or unmarks every
 * thread of it. Changing another user's process takes what ptrace would.
 */

#include <linux/fs.h>
#include <linux/memorizer.h>
#include <linux/ptrace.h>
#include <linux/sched/task.h>
#include <linux/uaccess.h>

#include "internal.h"

static ssize_t memorizer_enabled_read(struct file *file, char __user *buf,
				      size_t count, loff_t *ppos)
{
	struct task_struct *task = get_proc_task(file_inode(file));
	char val[2];

	if (!task)
		return -ESRCH;
	val[0] = memorizer_process_marked(task) ? '1' : '0';
	val[1] = '\n';
	put_task_struct(task);
	return simple_read_from_buffer(buf, count, ppos, val, sizeof(val));
}

static ssize_t memorizer_enabled_write(struct file *file,
				       const char __user *buf, size_t count,
				       loff_t *ppos)
{
	struct task_struct *task;
	char val[3] = {};
	int err = 0;

	if (*ppos != 0 || count == 0 || count > 2)
		return -EINVAL;
	if (copy_from_user(val, buf, count))
		return -EFAULT;
	if ((val[0] != '0' && val[0] != '1') || (val[1] && val[1] != '\n'))
		return -EINVAL;

	task = get_proc_task(file_inode(file));
	if (!task)
		return -ESRCH;
	if (ptrace_may_access(task, PTRACE_MODE_ATTACH_REALCREDS))
		memorizer_mark_process(task, val[0] == '1');
	else
		err = -EPERM;
	put_task_struct(task);
	if (err)
		return err;
	*ppos += count;
	return count;
}

const struct file_operations proc_memorizer_enabled_operations = {
	.read = memorizer_enabled_read,
	.write = memorizer_enabled_write,
	.llseek = generic_file_llseek,
};
