// SPDX-License-Identifier: GPL-2.0
/*
 * Memorizer's output files: kmap, the records in the text format of
 * Documentation/dev-tools/memorizer.rst (ABI), and show_stats.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>

#include "memorizer.h"
#include "pool.h"

struct kmap_iter {
	int cpu;
	struct memorizer_obj *obj;	/* next to show */
};

/*
 * The cursor survives between read() calls: seq_file asks again for the
 * record that did not fit, which is it->obj. Position 0 starts over.
 */
static void *kmap_start(struct seq_file *m, loff_t *pos)
{
	struct kmap_iter *it = m->private;

	if (*pos == 0) {
		it->cpu = -1;
		it->obj = memorizer_next_record(&it->cpu, NULL);
	}
	return it->obj;
}

static void *kmap_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct kmap_iter *it = m->private;

	++*pos;
	it->obj = memorizer_next_record(&it->cpu, it->obj);
	return it->obj;
}

static void kmap_stop(struct seq_file *m, void *v)
{
}

/* comm is the last field: only a newline or a comma could break a line. */
static void safe_comm(char *safe, const char *comm)
{
	int i;

	for (i = 0; i < TASK_COMM_LEN - 1 && comm[i]; i++)
		safe[i] = (comm[i] < 0x20 || comm[i] == 0x7f ||
			   comm[i] == ',') ? '?' : comm[i];
	safe[i] = '\0';
}

/*
 * One kmap line into @buf (MEMORIZER_LINE_MAX bytes), newline included;
 * returns its length. The object line of a record, then its access lines:
 * the format is ABI (Documentation/dev-tools/memorizer.rst).
 */
int memorizer_format_object(char *buf, const struct memorizer_obj *obj)
{
	/* Pairs with close_record(): free_ip and free_jiffies are set. */
	bool freed = smp_load_acquire(&obj->state) == MEMORIZER_OBJ_FREED;
	char comm[TASK_COMM_LEN];

	safe_comm(comm, obj->comm);
	return scnprintf(buf, MEMORIZER_LINE_MAX, "%lx,%d,%lx,%u,%lu,%lu,%lx,%s\n",
			 obj->alloc_ip, obj->pid, obj->key.addr,
			 READ_ONCE(obj->size), obj->alloc_jiffies,
			 freed ? obj->free_jiffies : 0,
			 freed ? obj->free_ip : 0, comm);
}

int memorizer_format_access(char *buf, const struct memorizer_access *a)
{
	u32 writes = atomic_read(&a->writes), reads = atomic_read(&a->reads);

	/*
	 * Nothing for a counter a sweep is retiring (out of the hash, so its
	 * (ip, pid) may have a new counter) that counted nothing since.
	 */
	if (!READ_ONCE(a->obj) && !writes && !reads) {
		buf[0] = '\0';
		return 0;
	}
	return scnprintf(buf, MEMORIZER_LINE_MAX, "  %lx,%d,%u,%u\n", a->ip,
			 a->pid, writes, reads);
}

static int kmap_show(struct seq_file *m, void *v)
{
	struct memorizer_obj *obj = v;
	struct memorizer_access *a;
	char line[MEMORIZER_LINE_MAX];

	memorizer_format_object(line, obj);
	seq_puts(m, line);
	/* A sweep frees the counters it unlinks after a grace period. */
	rcu_read_lock();
	/* Pairs with get_counter(): counters are whole when listed. */
	for (a = smp_load_acquire(&obj->accesses); a; a = READ_ONCE(a->next)) {
		memorizer_format_access(line, a);
		seq_puts(m, line);
	}
	rcu_read_unlock();
	return 0;
}

static const struct seq_operations kmap_seq_ops = {
	.start = kmap_start,
	.next = kmap_next,
	.stop = kmap_stop,
	.show = kmap_show,
};

static int kmap_open(struct inode *inode, struct file *file)
{
	int err = seq_open_private(file, &kmap_seq_ops,
				   sizeof(struct kmap_iter));

	if (!err)
		memorizer_records_get();
	return err;
}

static int kmap_release(struct inode *inode, struct file *file)
{
	memorizer_records_put();
	return seq_release_private(inode, file);
}

static const struct file_operations kmap_fops = {
	.owner = THIS_MODULE,
	.open = kmap_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = kmap_release,
};

static int stats_show(struct seq_file *m, void *v)
{
	struct memorizer_stats sum = {};
	unsigned long chunks[MEMORIZER_POOL_NR], used, bound;
	u64 made, lost, unread;
	int cpu, k, i;

	for_each_possible_cpu(cpu) {
		struct memorizer_stats *s = per_cpu_ptr(&memorizer_stats, cpu);

		for (k = 0; k < MEMORIZER_KIND_NR; k++) {
			sum.allocs[k] += READ_ONCE(s->allocs[k]);
			sum.frees[k] += READ_ONCE(s->frees[k]);
			sum.cleared[k] += READ_ONCE(s->cleared[k]);
		}
		for (i = 0; i < MEMORIZER_STAT_NR; i++)
			sum.counters[i] += READ_ONCE(s->counters[i]);
	}
	memorizer_pool_usage(chunks, &used, &bound);

	seq_printf(m, "%-16s %12s %12s %12s %12s\n", "objects", "tracked",
		   "live", "freed", "cleared");
	for (k = 0; k < MEMORIZER_KIND_NR; k++)
		seq_printf(m, "%-16s %12lu %12lu %12lu %12lu\n",
			   memorizer_kind_names[k], sum.allocs[k],
			   sum.allocs[k] - sum.frees[k],
			   sum.frees[k] - sum.cleared[k], sum.cleared[k]);
	seq_printf(m, "accesses recorded:            %lu\n",
		   sum.counters[MEMORIZER_STAT_ACCESSES]);
	seq_printf(m, "accesses to untracked memory: %lu\n",
		   sum.counters[MEMORIZER_STAT_UNTRACKED_ACCESSES]);
	seq_printf(m, "objects dropped (no memory):  %lu\n",
		   sum.counters[MEMORIZER_STAT_DROPPED_OBJECTS]);
	seq_printf(m, "accesses dropped (no memory): %lu\n",
		   sum.counters[MEMORIZER_STAT_DROPPED_ACCESSES]);
	seq_printf(m, "frees missed (0xdeadbeef):    %lu\n",
		   sum.counters[MEMORIZER_STAT_MISSED_FREES]);
	seq_printf(m, "records in memory:            %lu\n",
		   chunks[MEMORIZER_POOL_OBJ]);
	seq_printf(m, "access counters in memory:    %lu\n",
		   chunks[MEMORIZER_POOL_SMALL]);
	seq_printf(m, "memory used (bytes):          %lu\n", used);
	seq_printf(m, "memory bound (bytes):         %lu\n", bound);
	memorizer_binary_counts(&made, &lost, &unread);
	seq_printf(m, "binary records made:          %llu\n", made);
	seq_printf(m, "binary records lost:          %llu\n", lost);
	seq_printf(m, "binary records left unread:   %llu\n", unread);
	seq_printf(m, "bytes per record:             object %u, access counter %u, page key %u\n",
		   MEMORIZER_POOL_OBJ_SIZE, MEMORIZER_POOL_SMALL_SIZE,
		   MEMORIZER_POOL_KEY_SIZE);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

void memorizer_kmap_debugfs_init(struct dentry *dir)
{
	debugfs_create_file("kmap", 0400, dir, NULL, &kmap_fops);
	debugfs_create_file("show_stats", 0400, dir, NULL, &stats_fops);
}
