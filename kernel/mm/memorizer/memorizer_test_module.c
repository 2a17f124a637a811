// SPDX-License-Identifier: GPL-2.0
/*
 * Ground truth for Memorizer's run-time tests: on demand, allocate objects
 * from a cache of this module's own, load and store them an exact number
 * of times from one instruction each, and free them.
 *
 *   echo "N WRITES READS" > /sys/kernel/debug/memorizer_test/run
 *
 * in the writing task's context. Each object is MEMORIZER_TEST_SIZE bytes,
 * a size nothing else asks for, so that tests can find them in a kmap.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#define MEMORIZER_TEST_SIZE	1999
#define MEMORIZER_TEST_MAX	100000

static struct kmem_cache *test_cache;
static struct dentry *test_dir;

static noinline void test_store(unsigned long *p, unsigned long v)
{
	WRITE_ONCE(*p, v);
}

static noinline unsigned long test_load(unsigned long *p)
{
	return READ_ONCE(*p);
}

static int run(unsigned int n, unsigned int writes, unsigned int reads)
{
	unsigned long *p, sum = 0;
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		p = kmem_cache_alloc(test_cache, GFP_KERNEL);
		if (!p)
			return -ENOMEM;
		for (j = 0; j < writes; j++)
			test_store(&p[j % 8], j);
		for (j = 0; j < reads; j++)
			sum += test_load(&p[j % 8]);
		kmem_cache_free(test_cache, p);
	}
	return sum == ULONG_MAX ? -EINVAL : 0;	/* keeps the loads */
}

static ssize_t run_write(struct file *file, const char __user *ubuf,
			 size_t count, loff_t *ppos)
{
	unsigned int n, writes, reads;
	char buf[48] = {};
	int err;

	if (count >= sizeof(buf) || copy_from_user(buf, ubuf, count))
		return -EINVAL;
	if (sscanf(buf, "%u %u %u", &n, &writes, &reads) != 3 ||
	    n > MEMORIZER_TEST_MAX)
		return -EINVAL;
	err = run(n, writes, reads);
	return err ?: count;
}

static const struct file_operations run_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = run_write,
	.llseek = default_llseek,
};

static int __init memorizer_test_init(void)
{
	test_cache = kmem_cache_create("memorizer_test", MEMORIZER_TEST_SIZE,
				       0, 0, NULL);
	if (!test_cache)
		return -ENOMEM;
	test_dir = debugfs_create_dir("memorizer_test", NULL);
	debugfs_create_file("run", 0200, test_dir, NULL, &run_fops);
	return 0;
}

static void __exit memorizer_test_exit(void)
{
	debugfs_remove(test_dir);
	kmem_cache_destroy(test_cache);
}

module_init(memorizer_test_init);
module_exit(memorizer_test_exit);
MODULE_DESCRIPTION("Memorizer test objects with known accesses");
MODULE_LICENSE("GPL");
