// SPDX-License-Identifier: GPL-2.0
/*
 * Ground truth for Memorizer's run-time tests: on demand, allocate objects,
 * load and store them an exact number of times from one instruction each,
 * and free them, in the writing task's context.
 *
 *   echo "N WRITES READS" > /sys/kernel/debug/memorizer_test/run
 *
 * allocates N objects from a cache of this module's own (an allocation
 * that fails is passed by; the log says how many did). Each is
 * MEMORIZER_TEST_SIZE bytes, a size nothing else asks for, so that tests
 * can find them in a kmap.
 *
 *   echo "WRITES READS" > /sys/kernel/debug/memorizer_test/apis
 *
 * goes once through every allocation API that Memorizer hooks, as a module
 * calls it: each api_<name>() function below allocates, touches and frees
 * with one API, so that tests tell the objects apart by call site; and
 * touches test_global, a global of the module's own. An API whose
 * allocation fails is named in the log, and the others still run. A
 * module that links is one that every inline hook's symbols are exported
 * to; the project builds this file both in the tree and out of it.
 *
 *   echo "N M" > /sys/kernel/debug/memorizer_test/calls
 *
 * calls test_call_a(), which calls test_call_b() N times, the first M of
 * which (at most N) call test_call_c(): with call logging on, the edges
 * a -> b and b -> c count N and M in the writer's pid. b also writes a
 * local variable of a's through a pointer, as a callee filling in its
 * caller's struct does. No call is a tail call, so each has a return
 * address in its caller.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#define MEMORIZER_TEST_SIZE	1999
#define MEMORIZER_TEST_MAX	100000
#define BULK_NR			3

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
	unsigned int i, j, failed = 0;

	for (i = 0; i < n; i++) {
		p = kmem_cache_alloc(test_cache, GFP_KERNEL);
		if (!p) {
			failed++;
			continue;
		}
		for (j = 0; j < writes; j++)
			test_store(&p[j % 8], j);
		for (j = 0; j < reads; j++)
			sum += test_load(&p[j % 8]);
		kmem_cache_free(test_cache, p);
		/*
		 * Traced by Memorizer under an emulator that logs every
		 * access, one object takes seconds: without a quiescent
		 * state, RCU and the soft-lockup watchdog report a stall.
		 */
		cond_resched();
	}
	if (failed) {
		pr_info("%u of %u allocations failed\n", failed, n);
		return -ENOMEM;
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

static unsigned long calls_sink;

static noinline void test_call_c(void)
{
	WRITE_ONCE(calls_sink, READ_ONCE(calls_sink) + 1);
}

static noinline void test_call_b(unsigned long *callers_local, unsigned int i,
				 unsigned int m)
{
	if (i < m)
		test_call_c();
	WRITE_ONCE(*callers_local, i);
}

static noinline void test_call_a(unsigned int n, unsigned int m)
{
	unsigned long local = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		test_call_b(&local, i, m);
	WRITE_ONCE(calls_sink, READ_ONCE(calls_sink) + READ_ONCE(local));
}

static ssize_t calls_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	unsigned int n, m;
	char buf[32] = {};

	if (count >= sizeof(buf) || copy_from_user(buf, ubuf, count))
		return -EINVAL;
	if (sscanf(buf, "%u %u", &n, &m) != 2 || m > n ||
	    n > MEMORIZER_TEST_MAX)
		return -EINVAL;
	test_call_a(n, m);
	return count;
}

static const struct file_operations calls_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = calls_write,
	.llseek = default_llseek,
};

/* The apis file: one writer at a time, with these counts. */
static DEFINE_MUTEX(apis_lock);
static unsigned int apis_writes, apis_reads;
static unsigned long apis_sum;

/*
 * apis_writes stores to and apis_reads loads from the first 64 bytes: every
 * object touched is at least that big.
 */
static noinline void touch(void *obj)
{
	unsigned long *p = obj;
	unsigned int j;

	for (j = 0; j < apis_writes; j++)
		test_store(&p[j % 8], j);
	for (j = 0; j < apis_reads; j++)
		apis_sum += test_load(&p[j % 8]);
}

static noinline int api_kmalloc(void)
{
	void *p = kmalloc(2001, GFP_KERNEL);

	if (!p)
		return -ENOMEM;
	touch(p);
	kfree(p);
	return 0;
}

static noinline int api_kzalloc(void)
{
	void *p = kzalloc(2002, GFP_KERNEL);

	if (!p)
		return -ENOMEM;
	touch(p);
	kfree(p);
	return 0;
}

static noinline int api_kcalloc(void)
{
	void *p = kcalloc(3, 667, GFP_KERNEL);

	if (!p)
		return -ENOMEM;
	touch(p);
	kfree(p);
	return 0;
}

static noinline int api_kmalloc_array(void)
{
	void *p = kmalloc_array(4, 501, GFP_KERNEL);

	if (!p)
		return -ENOMEM;
	touch(p);
	kfree(p);
	return 0;
}

static noinline int api_kmalloc_node(void)
{
	void *p = kmalloc_node(2005, GFP_KERNEL, numa_mem_id());

	if (!p)
		return -ENOMEM;
	touch(p);
	kfree(p);
	return 0;
}

static noinline int api_kmemdup(void)
{
	static const char src[2006];
	void *p = kmemdup(src, sizeof(src), GFP_KERNEL);

	if (!p)
		return -ENOMEM;
	touch(p);
	kfree(p);
	return 0;
}

/* In place: 200 bytes come from kmalloc-256, which has room for 250. */
static noinline int api_krealloc(void)
{
	void *p = kmalloc(200, GFP_KERNEL), *q;

	if (!p)
		return -ENOMEM;
	q = krealloc(p, 250, GFP_KERNEL);
	if (!q) {
		kfree(p);
		return -ENOMEM;
	}
	touch(q);
	kfree(q);
	return 0;
}

/* Beyond the largest kmalloc cache: pages, with a kmalloc tracepoint. */
static noinline int api_kmalloc_large(void)
{
	void *p = kmalloc(20008, GFP_KERNEL);

	if (!p)
		return -ENOMEM;
	touch(p);
	kfree(p);
	return 0;
}

static noinline int api_kmem_cache_alloc(void)
{
	void *p = kmem_cache_alloc(test_cache, GFP_KERNEL);

	if (!p)
		return -ENOMEM;
	touch(p);
	kmem_cache_free(test_cache, p);
	return 0;
}

static noinline int api_kmem_cache_zalloc(void)
{
	void *p = kmem_cache_zalloc(test_cache, GFP_KERNEL);

	if (!p)
		return -ENOMEM;
	touch(p);
	kmem_cache_free(test_cache, p);
	return 0;
}

static noinline int api_kmem_cache_alloc_node(void)
{
	void *p = kmem_cache_alloc_node(test_cache, GFP_KERNEL, numa_mem_id());

	if (!p)
		return -ENOMEM;
	touch(p);
	kmem_cache_free(test_cache, p);
	return 0;
}

static noinline int api_kmem_cache_alloc_bulk(void)
{
	void *p[BULK_NR];
	int i;

	if (kmem_cache_alloc_bulk(test_cache, GFP_KERNEL, BULK_NR, p) != BULK_NR)
		return -ENOMEM;
	for (i = 0; i < BULK_NR; i++)
		touch(p[i]);
	kmem_cache_free_bulk(test_cache, BULK_NR, p);
	return 0;
}

static noinline int api_vmalloc(void)
{
	void *p = vmalloc(3 * PAGE_SIZE + 9);

	if (!p)
		return -ENOMEM;
	touch(p);
	vfree(p);
	return 0;
}

static noinline int api_vzalloc(void)
{
	void *p = vzalloc(PAGE_SIZE + 10);

	if (!p)
		return -ENOMEM;
	touch(p);
	vfree(p);
	return 0;
}

static noinline int api_vmalloc_node(void)
{
	void *p = vmalloc_node(2 * PAGE_SIZE + 11, numa_mem_id());

	if (!p)
		return -ENOMEM;
	touch(p);
	vfree(p);
	return 0;
}

static noinline int api_alloc_pages(void)
{
	struct page *page = alloc_pages(GFP_KERNEL, 1);

	if (!page)
		return -ENOMEM;
	touch(page_address(page));
	__free_pages(page, 1);
	return 0;
}

static noinline int api_alloc_page(void)
{
	struct page *page = alloc_page(GFP_KERNEL);

	if (!page)
		return -ENOMEM;
	touch(page_address(page));
	__free_page(page);
	return 0;
}

static noinline int api_alloc_pages_node(void)
{
	struct page *page = alloc_pages_node(numa_mem_id(), GFP_KERNEL, 2);

	if (!page)
		return -ENOMEM;
	touch(page_address(page));
	__free_pages(page, 2);
	return 0;
}

static noinline int api___alloc_pages(void)
{
	struct page *page = __alloc_pages(GFP_KERNEL | __GFP_COMP, 1,
					  numa_mem_id(), NULL);

	if (!page)
		return -ENOMEM;
	touch(page_address(page));
	__free_pages(page, 1);
	return 0;
}

static noinline int api___alloc_pages_node(void)
{
	struct page *page = __alloc_pages_node(numa_mem_id(), GFP_KERNEL, 0);

	if (!page)
		return -ENOMEM;
	touch(page_address(page));
	__free_pages(page, 0);
	return 0;
}

static noinline int api___get_free_pages(void)
{
	unsigned long addr = __get_free_pages(GFP_KERNEL, 2);

	if (!addr)
		return -ENOMEM;
	touch((void *)addr);
	free_pages(addr, 2);
	return 0;
}

static noinline int api___get_free_page(void)
{
	unsigned long addr = __get_free_page(GFP_KERNEL);

	if (!addr)
		return -ENOMEM;
	touch((void *)addr);
	free_page(addr);
	return 0;
}

static noinline int api_get_zeroed_page(void)
{
	unsigned long addr = get_zeroed_page(GFP_KERNEL);

	if (!addr)
		return -ENOMEM;
	touch((void *)addr);
	free_page(addr);
	return 0;
}

static noinline int api_folio_alloc(void)
{
	struct folio *folio = folio_alloc(GFP_KERNEL, 1);

	if (!folio)
		return -ENOMEM;
	touch(folio_address(folio));
	folio_put(folio);
	return 0;
}

static noinline int api___folio_alloc(void)
{
	struct folio *folio = __folio_alloc(GFP_KERNEL, 2, numa_mem_id(), NULL);

	if (!folio)
		return -ENOMEM;
	touch(folio_address(folio));
	folio_put(folio);
	return 0;
}

static noinline int api___folio_alloc_node(void)
{
	struct folio *folio = __folio_alloc_node(GFP_KERNEL, 0, numa_mem_id());

	if (!folio)
		return -ENOMEM;
	touch(folio_address(folio));
	folio_put(folio);
	return 0;
}

/* Found on first access, each CPU's copy; closed by free_percpu(). */
static noinline int api_alloc_percpu(void)
{
	void __percpu *p = __alloc_percpu(8 * sizeof(unsigned long),
					  sizeof(unsigned long));
	int cpu;

	if (!p)
		return -ENOMEM;
	for_each_possible_cpu(cpu)
		touch(per_cpu_ptr(p, cpu));
	free_percpu(p);
	return 0;
}

/* A module's global: found on first access, freed when the module goes. */
static unsigned long test_global[8];

static noinline int api_global(void)
{
	touch(test_global);
	return 0;
}

static int (*const apis[])(void) = {
	api_kmalloc, api_kzalloc, api_kcalloc, api_kmalloc_array,
	api_kmalloc_node, api_kmemdup, api_krealloc, api_kmalloc_large,
	api_kmem_cache_alloc, api_kmem_cache_zalloc, api_kmem_cache_alloc_node,
	api_kmem_cache_alloc_bulk,
	api_vmalloc, api_vzalloc, api_vmalloc_node,
	api_alloc_pages, api_alloc_page, api_alloc_pages_node,
	api___alloc_pages, api___alloc_pages_node,
	api___get_free_pages, api___get_free_page, api_get_zeroed_page,
	api_folio_alloc, api___folio_alloc, api___folio_alloc_node,
	api_alloc_percpu, api_global,
};

static ssize_t apis_write(struct file *file, const char __user *ubuf,
			  size_t count, loff_t *ppos)
{
	unsigned int writes, reads, i;
	char buf[32] = {};
	int err = 0;

	if (count >= sizeof(buf) || copy_from_user(buf, ubuf, count))
		return -EINVAL;
	if (sscanf(buf, "%u %u", &writes, &reads) != 2)
		return -EINVAL;
	mutex_lock(&apis_lock);
	apis_writes = writes;
	apis_reads = reads;
	for (i = 0; i < ARRAY_SIZE(apis); i++) {
		if (apis[i]()) {
			pr_info("apis: %ps failed\n", apis[i]);
			err = -ENOMEM;
		}
		cond_resched();	/* as in run() */
	}
	mutex_unlock(&apis_lock);
	return err ?: count;
}

static const struct file_operations apis_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = apis_write,
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
	debugfs_create_file("apis", 0200, test_dir, NULL, &apis_fops);
	debugfs_create_file("calls", 0200, test_dir, NULL, &calls_fops);
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
