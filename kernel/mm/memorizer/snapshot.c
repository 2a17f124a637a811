// SPDX-License-Identifier: GPL-2.0
/*
 * The kmap file: every record in memory, live and closed, in the text
 * format (text.c), newest first per CPU. kmap_offsets: the same, each
 * object line with its allocator kind and cache too, each access line
 * with the bytes of the object it touched (a view a reader asks for: the
 * seeds' kmap stays as it is).
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>

#include "memorizer.h"

struct snapshot_iter {
	int cpu;
	struct memorizer_record *rec;	/* next to show */
	bool offsets;			/* kmap_offsets */
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
	struct snapshot_iter *it = m->private;
	struct memorizer_record *rec = v;
	struct memorizer_counter *c;
	char line[MEMORIZER_LINE_MAX];

	if (it->offsets)
		memorizer_format_record_offsets(line, rec);
	else
		memorizer_format_record(line, rec);
	seq_puts(m, line);
	/* A sweep frees the counters it unlinks after a grace period. */
	rcu_read_lock();
	/* Pairs with memorizer_counter_get(): counters are whole when listed. */
	for (c = memorizer_counters_first(rec); c; c = memorizer_counter_next(c)) {
		memorizer_format_counter(line, c, it->offsets ? rec : NULL);
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
	struct seq_file *m = file->private_data;
	struct snapshot_iter *it;

	if (err)
		return err;
	it = m->private;
	it->offsets = inode->i_private != NULL;
	memorizer_walk_begin();
	return 0;
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
	static char offsets;	/* any non-NULL i_private */

	debugfs_create_file("kmap", 0400, dir, NULL, &snapshot_fops);
	debugfs_create_file("kmap_offsets", 0400, dir, &offsets,
			    &snapshot_fops);
}
