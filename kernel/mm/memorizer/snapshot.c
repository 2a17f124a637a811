// SPDX-License-Identifier: GPL-2.0
/*
 * The kmap file: every record in memory, live and closed, in the text
 * format (text.c), newest first per CPU.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>

#include "memorizer.h"

struct snapshot_iter {
	int cpu;
	struct memorizer_record *rec;	/* next to show */
};

/*
 * The cursor survives between read() calls: seq_file asks again for the
 * record that did not fit, which is it->rec. Position 0 starts over.
 */
static void *snapshot_start(struct seq_file *m, loff_t *pos)
{
	struct snapshot_iter *it = m->private;

	if (*pos == 0) {
		it->cpu = -1;
		it->rec = memorizer_walk_next(&it->cpu, NULL);
	}
	return it->rec;
}

static void *snapshot_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct snapshot_iter *it = m->private;

	++*pos;
	it->rec = memorizer_walk_next(&it->cpu, it->rec);
	return it->rec;
}

static void snapshot_stop(struct seq_file *m, void *v)
{
}

static int snapshot_show(struct seq_file *m, void *v)
{
	struct memorizer_record *rec = v;
	struct memorizer_counter *c;
	char line[MEMORIZER_LINE_MAX];

	memorizer_format_record(line, rec);
	seq_puts(m, line);
	/* A sweep frees the counters it unlinks after a grace period. */
	rcu_read_lock();
	/* Pairs with memorizer_counter_get(): counters are whole when listed. */
	for (c = memorizer_counters_first(rec); c; c = memorizer_counter_next(c)) {
		memorizer_format_counter(line, c);
		seq_puts(m, line);
	}
	rcu_read_unlock();
	return 0;
}

static const struct seq_operations snapshot_seq_ops = {
	.start = snapshot_start,
	.next = snapshot_next,
	.stop = snapshot_stop,
	.show = snapshot_show,
};

static int snapshot_open(struct inode *inode, struct file *file)
{
	int err = seq_open_private(file, &snapshot_seq_ops,
				   sizeof(struct snapshot_iter));

	if (!err)
		memorizer_walk_begin();
	return err;
}

static int snapshot_release(struct inode *inode, struct file *file)
{
	memorizer_walk_end();
	return seq_release_private(inode, file);
}

static const struct file_operations snapshot_fops = {
	.owner = THIS_MODULE,
	.open = snapshot_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = snapshot_release,
};

void __init memorizer_snapshot_debugfs_init(struct dentry *dir)
{
	debugfs_create_file("kmap", 0400, dir, NULL, &snapshot_fops);
}
