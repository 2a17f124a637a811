// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of Memorizer's records: exact records and counts for
 * objects the tests allocate and touch themselves, checked in the kmap
 * lines users read wherever kmap shows them. A file of its own, not
 * included into the code it tests as tests/parse-kunit.h is: Memorizer's
 * files are not KASAN-instrumented, and these tests' loads and stores must
 * be, for Memorizer to see them.
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/kallsyms.h>
#include <linux/kasan.h>
#include <linux/kthread.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/memorizer.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/threads.h>
#include <linux/vmalloc.h>

#include "../slab.h"
#include "memorizer.h"

/*
 * Records: each test traces only itself (mode 3 marks the test's thread),
 * allocates, touches and frees objects from functions of its own, then
 * finds the records and checks every field and every count exactly.
 */

#define WRITES 7
#define READS 5

#define SET_ALL (MEMORIZER_SET_TARGET | MEMORIZER_SET_LOG_ACCESS)

struct trace_state {
	struct memorizer_control saved;
};

static void trace_self_begin(struct kunit *test, struct trace_state *st)
{
	const struct memorizer_control self = {
		.target.mode = MEMORIZER_TREE,
		.log_access = true,
	};

	memorizer_control_get(&st->saved);
	KUNIT_ASSERT_EQ(test, memorizer_control_set(&self, SET_ALL), 0);
}

static void trace_self_end(struct kunit *test, struct trace_state *st)
{
	KUNIT_EXPECT_EQ(test, memorizer_control_set(&st->saved, SET_ALL), 0);
}

/*
 * One store and one load site, each in a function of its own that the
 * compiler cannot unroll into several sites: every access has one ip.
 */
static noinline void write_word(unsigned long *p, unsigned long v)
{
	WRITE_ONCE(*p, v);
}

static noinline unsigned long read_word(unsigned long *p)
{
	return READ_ONCE(*p);
}

static void write_words(unsigned long *p, size_t stride, int n)
{
	int i;

	for (i = 0; i < n; i++)
		write_word(&p[(i % 3) * stride], i);
}

static unsigned long read_words(unsigned long *p, size_t stride, int n)
{
	unsigned long sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += read_word(&p[(i % 3) * stride]);
	return sum;
}

/* The newest record for @va, or NULL. Between walk_begin() and walk_end(). */
static struct memorizer_record *find_record(unsigned long va)
{
	struct memorizer_record *rec = NULL, *best = NULL;
	int cpu = -1;

	while ((rec = memorizer_walk_next(&cpu, rec)))
		if (rec->key.addr == va &&
		    (!best || rec->alloc_ns > best->alloc_ns))
			best = rec;
	return best;
}

/* The record for @va made at @alloc_ip, or NULL. Between walk_begin() and _end(). */
static struct memorizer_record *record_made_at(unsigned long va,
					    unsigned long alloc_ip)
{
	struct memorizer_record *rec = NULL;
	int cpu = -1;

	while ((rec = memorizer_walk_next(&cpu, rec)))
		if (rec->key.addr == va && rec->alloc_ip == alloc_ip)
			return rec;
	return NULL;
}

/* The function @ip is in, without a ".constprop.0"-style clone suffix. */
static void ip_function(char *sym, unsigned long ip)
{
	sprint_symbol_no_offset(sym, ip);
	sym[strcspn(sym, ".")] = '\0';
}

static void expect_ip_in(struct kunit *test, unsigned long ip,
			 const char *func)
{
	char sym[KSYM_SYMBOL_LEN];

	ip_function(sym, ip);
	KUNIT_EXPECT_STREQ(test, sym, func);
}

struct expected_access {
	const char *func;
	pid_t pid;
	unsigned int writes, reads;
	unsigned int offset, end;	/* the bytes touched; end 0: any */
};

/*
 * Exactly the expected access lines, in any order, as kmap_offsets shows
 * them: each matches one expectation in function, pid, both counts and,
 * where it gives them, the bytes touched.
 */
static void expect_accesses(struct kunit *test, struct memorizer_record *rec,
			    const struct expected_access *exp, int n)
{
	struct memorizer_counter *c;
	bool seen[4] = {};
	int lines = 0, fields, i;

	for (c = memorizer_deref(rec->counters); c;
	     c = memorizer_deref(c->next)) {
		char line[MEMORIZER_LINE_MAX], sym[KSYM_SYMBOL_LEN];
		unsigned int writes, reads, offset, end;
		unsigned long ip;
		int pid;

		/* An empty line: a counter the sweep is freeing. */
		if (!memorizer_format_counter(line, c, rec))
			continue;
		lines++;
		fields = sscanf(line, "  %lx,%d,%u,%u,%u,%u\n", &ip, &pid,
				&writes, &reads, &offset, &end);
		KUNIT_ASSERT_EQ_MSG(test, fields, 6, "access line: %s", line);
		ip_function(sym, ip);
		for (i = 0; i < n; i++) {
			if (!seen[i] && !strcmp(sym, exp[i].func) &&
			    pid == exp[i].pid && writes == exp[i].writes &&
			    reads == exp[i].reads &&
			    (!exp[i].end || (offset == exp[i].offset &&
					     end == exp[i].end)))
				break;
		}
		KUNIT_EXPECT_LT_MSG(test, i, n,
				    "unexpected access line: %s pid %d, %u writes, %u reads, bytes %u-%u",
				    sym, pid, writes, reads, offset, end);
		if (i < n)
			seen[i] = true;
	}
	KUNIT_EXPECT_EQ(test, lines, n);
}

/* An object line of kmap, read back. */
struct object_line {
	unsigned long alloc_ip, addr, alloc_jiffies, free_jiffies, free_ip;
	int pid;
	unsigned int size;
	char comm[TASK_COMM_LEN];
};

static void read_object_line(struct kunit *test,
			     const struct memorizer_record *rec,
			     struct object_line *o)
{
	char line[MEMORIZER_LINE_MAX];
	int fields;

	memorizer_format_record(line, rec);
	fields = sscanf(line, "%lx,%d,%lx,%u,%lu,%lu,%lx,%15[^\n]",
			&o->alloc_ip, &o->pid, &o->addr, &o->size,
			&o->alloc_jiffies, &o->free_jiffies, &o->free_ip,
			o->comm);
	KUNIT_ASSERT_EQ_MSG(test, fields, 8, "object line: %s", line);
}

/*
 * The freed object at @va: its kmap lines, and what only the binary
 * stream shows (kind, usable size, times in ns).
 */
static void expect_record(struct kunit *test, unsigned long va,
			  enum memorizer_kind kind, unsigned int size,
			  unsigned int size_alloc, const char *func,
			  const struct expected_access *exp, int n)
{
	struct memorizer_record *rec;
	struct object_line o;

	memorizer_walk_begin();
	rec = find_record(va);
	KUNIT_EXPECT_NOT_NULL(test, rec);
	if (rec) {
		read_object_line(test, rec, &o);
		KUNIT_EXPECT_EQ(test, o.addr, va);
		KUNIT_EXPECT_EQ(test, rec->kind, kind);
		KUNIT_EXPECT_EQ(test, o.size, size);
		KUNIT_EXPECT_EQ(test, rec->size_alloc, size_alloc);
		KUNIT_EXPECT_EQ(test, o.pid, current->pid);
		KUNIT_EXPECT_STREQ(test, o.comm, current->comm);
		KUNIT_EXPECT_EQ(test, rec->state, MEMORIZER_RECORD_CLOSED);
		expect_ip_in(test, o.alloc_ip, func);
		expect_ip_in(test, o.free_ip, func);
		KUNIT_EXPECT_NE(test, o.free_jiffies, 0UL);
		KUNIT_EXPECT_LE(test, o.alloc_jiffies, o.free_jiffies);
		KUNIT_EXPECT_LE(test, rec->alloc_ns, rec->free_ns);
		expect_accesses(test, rec, exp, n);
	}
	memorizer_walk_end();
}

/* The record for @va was made with slab cache @name (NULL: none). */
static void expect_cache(struct kunit *test, unsigned long va,
			 const char *name)
{
	struct memorizer_record *rec;

	memorizer_walk_begin();
	rec = find_record(va);
	KUNIT_EXPECT_NOT_NULL(test, rec);
	if (rec && name)
		KUNIT_EXPECT_STREQ(test, memorizer_cache_name(rec->cache_id),
				   name);
	else if (rec)
		KUNIT_EXPECT_EQ(test, rec->cache_id, 0);
	memorizer_walk_end();
}

static void kmem_cache_record_test(struct kunit *test)
{
	const struct expected_access exp[] = {
		{ "write_word", current->pid, WRITES, 0, 0, 24 },
		{ "read_word", current->pid, 0, READS, 0, 24 },
	};
	struct kmem_cache *cache;
	struct trace_state st;
	unsigned long *p;

	cache = kmem_cache_create("memorizer_kunit", 72, 0, 0, NULL);
	KUNIT_ASSERT_NOT_NULL(test, cache);
	trace_self_begin(test, &st);
	p = kmem_cache_alloc(cache, GFP_KERNEL);
	if (p) {
		write_words(p, 1, WRITES);
		read_words(p, 1, READS);
		kmem_cache_free(cache, p);
	}
	trace_self_end(test, &st);
	KUNIT_ASSERT_NOT_NULL(test, p);
	expect_record(test, (unsigned long)p, MEMORIZER_KIND_CACHE, 72, 72,
		      "kmem_cache_record_test", exp, 2);
	expect_cache(test, (unsigned long)p, "memorizer_kunit");
	kmem_cache_destroy(cache);
}

static void kmalloc_record_test(struct kunit *test)
{
	const struct expected_access exp[] = {
		{ "write_word", current->pid, WRITES, 0, 0, 24 },
		{ "read_word", current->pid, 0, READS, 0, 24 },
	};
	struct trace_state st;
	unsigned long *p;

	trace_self_begin(test, &st);
	p = kmalloc(100, GFP_KERNEL);
	if (p) {
		write_words(p, 1, WRITES);
		read_words(p, 1, READS);
		kfree(p);
	}
	trace_self_end(test, &st);
	KUNIT_ASSERT_NOT_NULL(test, p);
	expect_record(test, (unsigned long)p, MEMORIZER_KIND_KMALLOC, 100, 128,
		      "kmalloc_record_test", exp, 2);
	expect_cache(test, (unsigned long)p, "kmalloc-128");
}

static void kmalloc_large_record_test(struct kunit *test)
{
	const struct expected_access exp[] = {
		{ "write_word", current->pid, WRITES, 0, 0, 2 * PAGE_SIZE + 8 },
		{ "read_word", current->pid, 0, READS, 0, 2 * PAGE_SIZE + 8 },
	};
	size_t size = 3 * PAGE_SIZE + 8;
	struct trace_state st;
	unsigned long *p;

	trace_self_begin(test, &st);
	p = kmalloc(size, GFP_KERNEL);
	if (p) {
		/* One word in each of the first three pages. */
		write_words(p, PAGE_SIZE / sizeof(*p), WRITES);
		read_words(p, PAGE_SIZE / sizeof(*p), READS);
		kfree(p);
	}
	trace_self_end(test, &st);
	KUNIT_ASSERT_NOT_NULL(test, p);
	expect_record(test, (unsigned long)p, MEMORIZER_KIND_KMALLOC_LARGE,
		      size, 4 * PAGE_SIZE, "kmalloc_large_record_test", exp, 2);
}

static void vmalloc_record_test(struct kunit *test)
{
	const struct expected_access exp[] = {
		{ "write_word", current->pid, WRITES, 0, 0, 4 * PAGE_SIZE + 8 },
		{ "read_word", current->pid, 0, READS, 0, 4 * PAGE_SIZE + 8 },
	};
	size_t size = 5 * PAGE_SIZE - 100;
	struct trace_state st;
	unsigned long *p;

	trace_self_begin(test, &st);
	p = vmalloc(size);
	if (p) {
		/* Pages 0, 2 and 4: the start and two alias pages. */
		write_words(p, 2 * PAGE_SIZE / sizeof(*p), WRITES);
		read_words(p, 2 * PAGE_SIZE / sizeof(*p), READS);
		vfree(p);
	}
	trace_self_end(test, &st);
	KUNIT_ASSERT_NOT_NULL(test, p);
	expect_record(test, (unsigned long)p, MEMORIZER_KIND_VMALLOC, size,
		      5 * PAGE_SIZE, "vmalloc_record_test", exp, 2);
}

/* Two pages, not a compound page: the second finds the record too. */
static void pages_record_test(struct kunit *test)
{
	const struct expected_access exp[] = {
		{ "write_word", current->pid, WRITES, 0 },
		{ "read_word", current->pid, 0, READS },
	};
	struct trace_state st;
	unsigned long *p = NULL;
	struct page *page;

	trace_self_begin(test, &st);
	page = alloc_pages(GFP_KERNEL, 1);
	if (page) {
		p = page_address(page);
		/* Offsets 0, half a page, one page. */
		write_words(p, PAGE_SIZE / sizeof(*p) / 2, WRITES);
		read_words(p, PAGE_SIZE / sizeof(*p) / 2, READS);
		__free_pages(page, 1);
	}
	trace_self_end(test, &st);
	KUNIT_ASSERT_NOT_NULL(test, page);
	expect_record(test, (unsigned long)p, MEMORIZER_KIND_PAGES,
		      2 * PAGE_SIZE, 2 * PAGE_SIZE, "pages_record_test", exp, 2);
	expect_cache(test, (unsigned long)p, NULL);
}

/* A compound page, freed by its last folio_put(). */
static void folio_record_test(struct kunit *test)
{
	const struct expected_access exp[] = {
		{ "write_word", current->pid, WRITES, 0 },
		{ "read_word", current->pid, 0, READS },
	};
	struct trace_state st;
	unsigned long *p = NULL;
	struct folio *folio;

	trace_self_begin(test, &st);
	folio = folio_alloc(GFP_KERNEL, 2);
	if (folio) {
		p = folio_address(folio);
		/* Pages 0, 1 and 2 of 4. */
		write_words(p, PAGE_SIZE / sizeof(*p), WRITES);
		read_words(p, PAGE_SIZE / sizeof(*p), READS);
		folio_put(folio);
	}
	trace_self_end(test, &st);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	expect_record(test, (unsigned long)p, MEMORIZER_KIND_PAGES,
		      4 * PAGE_SIZE, 4 * PAGE_SIZE, "folio_record_test", exp, 2);
}

static void free_pages_record_test(struct kunit *test)
{
	const struct expected_access exp[] = {
		{ "write_word", current->pid, WRITES, 0 },
	};
	struct trace_state st;
	unsigned long addr;

	trace_self_begin(test, &st);
	addr = __get_free_pages(GFP_KERNEL, 0);
	if (addr) {
		write_words((unsigned long *)addr, 1, WRITES);
		free_pages(addr, 0);
	}
	trace_self_end(test, &st);
	KUNIT_ASSERT_NE(test, addr, 0UL);
	expect_record(test, addr, MEMORIZER_KIND_PAGES, PAGE_SIZE, PAGE_SIZE,
		      "free_pages_record_test", exp, 1);
}

/* krealloc() within the object's slot keeps the record, with the new size. */
static void krealloc_record_test(struct kunit *test)
{
	struct memorizer_record *rec;
	struct object_line o;
	struct trace_state st;
	void *p, *q;

	trace_self_begin(test, &st);
	p = kmalloc(100, GFP_KERNEL);
	q = krealloc(p, 120, GFP_KERNEL);
	trace_self_end(test, &st);
	KUNIT_ASSERT_NOT_NULL(test, q);
	if (q != p)
		kfree(p);
	KUNIT_EXPECT_PTR_EQ(test, p, q);

	memorizer_walk_begin();
	rec = find_record((unsigned long)q);
	KUNIT_EXPECT_NOT_NULL(test, rec);
	if (rec) {
		read_object_line(test, rec, &o);
		KUNIT_EXPECT_EQ(test, o.size, 120);
		KUNIT_EXPECT_EQ(test, rec->size_alloc, 128);
		KUNIT_EXPECT_EQ(test, rec->state, MEMORIZER_RECORD_LIVE);
		KUNIT_EXPECT_EQ(test, o.free_ip, 0UL);
		KUNIT_EXPECT_EQ(test, o.free_jiffies, 0UL);
	}
	memorizer_walk_end();
	kfree(q);
}

static void bulk_record_test(struct kunit *test)
{
	const struct expected_access exp[] = {
		{ "write_word", current->pid, WRITES, 0 },
	};
	struct kmem_cache *cache;
	struct trace_state st;
	void *objs[4] = {};
	int i, n;

	cache = kmem_cache_create("memorizer_kunit_bulk", 48, 0, 0, NULL);
	KUNIT_ASSERT_NOT_NULL(test, cache);
	trace_self_begin(test, &st);
	n = kmem_cache_alloc_bulk(cache, GFP_KERNEL, ARRAY_SIZE(objs), objs);
	for (i = 0; i < n; i++)
		write_words(objs[i], 1, WRITES);
	if (n)
		kmem_cache_free_bulk(cache, n, objs);
	trace_self_end(test, &st);
	KUNIT_ASSERT_EQ(test, n, (int)ARRAY_SIZE(objs));
	for (i = 0; i < n; i++)
		expect_record(test, (unsigned long)objs[i],
			      MEMORIZER_KIND_CACHE, 48, 48,
			      "bulk_record_test", exp, 1);
	kmem_cache_destroy(cache);
}

/* memset() and memcpy() count once per call, on each object they touch. */
static void memintrinsics_record_test(struct kunit *test)
{
	const struct expected_access exp_src[] = {
		{ "memintrinsics_record_test", current->pid, 1, 0, 0, 64 },
		{ "memintrinsics_record_test", current->pid, 0, 1, 0, 64 },
	};
	const struct expected_access exp_dst[] = {
		{ "memintrinsics_record_test", current->pid, 1, 0, 0, 64 },
	};
	struct trace_state st;
	size_t len = 64;
	char *src, *dst;

	/* A length the compiler cannot see, so that real calls are made. */
	OPTIMIZER_HIDE_VAR(len);
	trace_self_begin(test, &st);
	src = kmalloc(64, GFP_KERNEL);
	dst = kmalloc(64, GFP_KERNEL);
	if (src && dst) {
		memset(src, 0x5a, len);
		/* Or the compiler turns the copy into a second memset(). */
		OPTIMIZER_HIDE_VAR(src);
		memcpy(dst, src, len);
	}
	kfree(dst);
	kfree(src);
	trace_self_end(test, &st);
	KUNIT_ASSERT_NOT_NULL(test, src);
	KUNIT_ASSERT_NOT_NULL(test, dst);
	expect_record(test, (unsigned long)src, MEMORIZER_KIND_KMALLOC, 64, 64,
		      "memintrinsics_record_test", exp_src, 2);
	expect_record(test, (unsigned long)dst, MEMORIZER_KIND_KMALLOC, 64, 64,
		      "memintrinsics_record_test", exp_dst, 1);
}

static noinline void write_u8(u8 *p, u8 v)
{
	WRITE_ONCE(*p, v);
}

static noinline void write_u16(u16 *p, u16 v)
{
	WRITE_ONCE(*p, v);
}

static noinline u8 read_u8(u8 *p)
{
	return READ_ONCE(*p);
}

/*
 * Each counter's span: the bytes its instruction touched, exact in an
 * object of at most 64 KiB (an unaligned 2-byte store, a 1-byte store at
 * the last byte), rounded outwards to 4 bytes in one of 256 KiB.
 */
static void offsets_test(struct kunit *test)
{
	const struct expected_access exp_small[] = {
		{ "write_u16", current->pid, 1, 0, 33, 35 },
		{ "write_u8", current->pid, 2, 0, 40, 100 },
	};
	const struct expected_access exp_large[] = {
		{ "write_u8", current->pid, 2, 0, 0x1234, 0x20004 },
		{ "read_u8", current->pid, 0, 1, 4, 8 },
	};
	size_t large = 256 * 1024;
	struct trace_state st;
	u8 *small, *big;

	trace_self_begin(test, &st);
	small = kmalloc(100, GFP_KERNEL);
	big = vmalloc(large);
	if (small && big) {
		write_u16((u16 *)(small + 33), 1);
		write_u8(small + 99, 2);
		write_u8(small + 40, 3);
		write_u8(big + 0x1235, 4);
		write_u8(big + 0x20001, 5);
		read_u8(big + 5);
	}
	kfree(small);
	vfree(big);
	trace_self_end(test, &st);
	KUNIT_ASSERT_NOT_NULL(test, small);
	KUNIT_ASSERT_NOT_NULL(test, big);
	expect_record(test, (unsigned long)small, MEMORIZER_KIND_KMALLOC, 100,
		      128, "offsets_test", exp_small, 2);
	expect_record(test, (unsigned long)big, MEMORIZER_KIND_VMALLOC, large,
		      large, "offsets_test", exp_large, 2);
}

/* Two threads on two CPUs at once, same object, same code: exact sums. */
struct smp_worker {
	unsigned long *p;
	struct completion *go;
	struct completion done;
	pid_t pid;
};

#define SMP_WRITES 20000

static int smp_worker_fn(void *arg)
{
	struct smp_worker *w = arg;

	w->pid = current->pid;
	wait_for_completion(w->go);
	write_words(w->p, 1, SMP_WRITES);
	complete(&w->done);
	return 0;
}

static void smp_counts_test(struct kunit *test)
{
	struct smp_worker w[2];
	struct task_struct *t[2];
	struct expected_access exp[2];
	DECLARE_COMPLETION_ONSTACK(go);
	struct trace_state st;
	unsigned long *p;
	int i, cpu = -1;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");

	trace_self_begin(test, &st);
	p = kmalloc(64, GFP_KERNEL);
	for (i = 0; i < 2 && p; i++) {
		w[i].p = p;
		w[i].go = &go;
		init_completion(&w[i].done);
		cpu = cpumask_next(cpu, cpu_online_mask);
		t[i] = kthread_create(smp_worker_fn, &w[i], "memorizer_kunit/%d", i);
		if (IS_ERR(t[i]))
			break;
		kthread_bind(t[i], cpu);
		memorizer_mark_process(t[i], true);
		wake_up_process(t[i]);
	}
	if (p && i == 2) {
		complete_all(&go);
		wait_for_completion(&w[0].done);
		wait_for_completion(&w[1].done);
	}
	kfree(p);
	trace_self_end(test, &st);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, i, 2);

	for (i = 0; i < 2; i++)
		exp[i] = (struct expected_access){ "write_word", w[i].pid,
						   SMP_WRITES, 0 };
	expect_record(test, (unsigned long)p, MEMORIZER_KIND_KMALLOC, 64, 64,
		      "smp_counts_test", exp, 2);
}

/* An allocation over a live record closes it with free_ip 0xdeadbeef. */
static void missed_free_test(struct kunit *test)
{
	struct memorizer_record *first, *second;
	struct object_line o;
	struct trace_state st;
	struct kmem_cache *s;
	void *p;

	p = kmalloc(32, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	s = virt_to_slab(p)->slab_cache;
	trace_self_begin(test, &st);
	__memorizer_alloc_bulk(s, 1, &p, 0x1000);
	__memorizer_alloc_bulk(s, 1, &p, 0x2000);
	__memorizer_free_bulk(1, &p, 0x3000);
	trace_self_end(test, &st);
	kfree(p);

	memorizer_walk_begin();
	first = record_made_at((unsigned long)p, 0x1000);
	second = record_made_at((unsigned long)p, 0x2000);
	KUNIT_EXPECT_NOT_NULL(test, first);
	KUNIT_EXPECT_NOT_NULL(test, second);
	if (first) {
		read_object_line(test, first, &o);
		KUNIT_EXPECT_EQ(test, o.free_ip, 0xdeadbeefUL);
	}
	if (second) {
		read_object_line(test, second, &o);
		KUNIT_EXPECT_EQ(test, o.free_ip, 0x3000UL);
	}
	memorizer_walk_end();
}

/*
 * A new record at the address of one just closed, touched from the same
 * instructions: its counts are its own, none go to the closed record
 * (which each CPU's last-access cache held).
 */
static void reused_address_test(struct kunit *test)
{
	struct memorizer_record *first, *second;
	const struct expected_access exp_first[] = {
		{ "write_word", current->pid, WRITES, 0 },
	};
	const struct expected_access exp_second[] = {
		{ "write_word", current->pid, 3, 0 },
		{ "read_word", current->pid, 0, READS },
	};
	struct trace_state st;
	struct kmem_cache *s;
	void *p;

	p = kmalloc(64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	s = virt_to_slab(p)->slab_cache;
	trace_self_begin(test, &st);
	__memorizer_alloc_bulk(s, 1, &p, 0x1000);
	write_words(p, 1, WRITES);
	__memorizer_free_bulk(1, &p, 0x3000);
	__memorizer_alloc_bulk(s, 1, &p, 0x2000);
	write_words(p, 1, 3);
	read_words(p, 1, READS);
	__memorizer_free_bulk(1, &p, 0x4000);
	trace_self_end(test, &st);
	kfree(p);

	memorizer_walk_begin();
	first = record_made_at((unsigned long)p, 0x1000);
	second = record_made_at((unsigned long)p, 0x2000);
	KUNIT_EXPECT_NOT_NULL(test, first);
	KUNIT_EXPECT_NOT_NULL(test, second);
	if (first)
		expect_accesses(test, first, exp_first, 1);
	if (second)
		expect_accesses(test, second, exp_second, 2);
	memorizer_walk_end();
}

/*
 * A global of this file: an object of its own, made on its first access,
 * covering the symbol's extent as kallsyms gives it, with its address as
 * call site, pid 0, executable "global", and exact counts; never freed.
 */
static unsigned long kunit_global[3];

static void global_record_test(struct kunit *test)
{
	const struct expected_access exp[] = {
		{ "write_word", current->pid, WRITES, 0 },
		{ "read_word", current->pid, 0, READS },
	};
	unsigned long va = (unsigned long)kunit_global, size, offset;
	struct memorizer_record *rec;
	struct trace_state st;
	struct object_line o;

	trace_self_begin(test, &st);
	write_words(kunit_global, 1, WRITES);
	read_words(kunit_global, 1, READS);
	trace_self_end(test, &st);
	KUNIT_ASSERT_TRUE(test, kallsyms_lookup_size_offset(va, &size,
							    &offset));
	KUNIT_EXPECT_EQ(test, offset, 0UL);
	KUNIT_EXPECT_GE(test, size, sizeof(kunit_global));

	memorizer_walk_begin();
	rec = find_record(va);
	KUNIT_EXPECT_NOT_NULL(test, rec);
	if (rec) {
		read_object_line(test, rec, &o);
		KUNIT_EXPECT_EQ(test, o.alloc_ip, va);
		KUNIT_EXPECT_EQ(test, o.pid, 0);
		KUNIT_EXPECT_EQ(test, o.addr, va);
		KUNIT_EXPECT_EQ(test, (unsigned long)o.size, size);
		KUNIT_EXPECT_EQ(test, o.free_jiffies, 0UL);
		KUNIT_EXPECT_EQ(test, o.free_ip, 0UL);
		KUNIT_EXPECT_STREQ(test, o.comm, "global");
		KUNIT_EXPECT_EQ(test, rec->kind, MEMORIZER_KIND_GLOBAL);
		KUNIT_EXPECT_TRUE(test, rec->found);
		KUNIT_EXPECT_EQ(test, rec->state, MEMORIZER_RECORD_LIVE);
		expect_accesses(test, rec, exp, 2);
	}
	memorizer_walk_end();
}

/*
 * Objects whose allocation Memorizer did not see, each with a record made
 * on its first access (a found record): a per-CPU variable, an
 * alloc_percpu() area, a slab object, allocated while tracking was off,
 * and the stack of a thread forked then; none counted as untracked. Each
 * touched on one CPU with preemption off, so that nothing else this task
 * does (the scheduler runs in its context) touches them too.
 */
static DEFINE_PER_CPU(unsigned long [3], kunit_percpu);

struct found_case {
	unsigned long *p;
	enum memorizer_memory_class class;
	unsigned long untracked;
	pid_t pid;
	unsigned long stack;	/* the thread's stack */
	struct completion done;
};

static void touch_found(struct found_case *fc)
{
	enum memorizer_memory_class class = fc->class;
	unsigned long *p = fc->p, before, after;

	preempt_disable();
	if (!p)
		p = *this_cpu_ptr(&kunit_percpu);
	before = this_cpu_read(memorizer_stats.untracked[class]);
	write_words(p, 1, WRITES);
	read_words(p, 1, READS);
	after = this_cpu_read(memorizer_stats.untracked[class]);
	fc->p = p;
	preempt_enable();
	fc->untracked = after - before;
}

static int stack_found_fn(void *arg)
{
	struct found_case *fc = arg;
	unsigned long local[3];

	fc->p = local;
	fc->pid = current->pid;
	fc->stack = (unsigned long)task_stack_page(current);
	touch_found(fc);
	complete(&fc->done);
	return 0;
}

/* @rec's kmap line and kind, as a found record of @kind at @va. */
static bool expect_found(struct kunit *test, struct memorizer_record *rec,
			 enum memorizer_kind kind, unsigned long va,
			 unsigned long size, pid_t pid, const char *comm)
{
	struct object_line o;

	KUNIT_EXPECT_NOT_NULL_MSG(test, rec, "no record of kind %d", kind);
	if (!rec)
		return false;
	read_object_line(test, rec, &o);
	KUNIT_EXPECT_EQ(test, o.alloc_ip, va);
	KUNIT_EXPECT_EQ(test, o.addr, va);
	KUNIT_EXPECT_EQ(test, (unsigned long)o.size, size);
	KUNIT_EXPECT_EQ(test, o.pid, pid);
	KUNIT_EXPECT_STREQ(test, o.comm, comm);
	KUNIT_EXPECT_EQ(test, rec->kind, kind);
	KUNIT_EXPECT_TRUE(test, rec->found);
	return true;
}

/* The (ip, pid) counter of @func and @pid on @rec, or NULL. */
static struct memorizer_counter *counter_of(struct memorizer_record *rec,
					    const char *func, pid_t pid)
{
	struct memorizer_counter *c;
	char sym[KSYM_SYMBOL_LEN];

	for (c = memorizer_deref(rec->counters); c;
	     c = memorizer_deref(c->next)) {
		ip_function(sym, memorizer_counter_ip(c));
		if (c->pid == pid && !strcmp(sym, func))
			return c;
	}
	return NULL;
}

static void found_records_test(struct kunit *test)
{
	const struct memorizer_control off = { .target.mode = MEMORIZER_OFF };
	const struct expected_access exp[] = {
		{ "write_word", current->pid, WRITES, 0 },
		{ "read_word", current->pid, 0, READS },
	};
	struct found_case percpu = { NULL, MEMORIZER_MEM_PERCPU };
	struct found_case slab = { NULL, MEMORIZER_MEM_SLAB };
	struct found_case stack = { NULL, MEMORIZER_MEM_STACK };
	struct found_case dynamic = { NULL, MEMORIZER_MEM_PERCPU };
	unsigned long start, size;
	unsigned long __percpu *area;
	struct memorizer_counter *w, *r;
	struct memorizer_control saved;
	struct memorizer_record *rec;
	struct task_struct *t;
	struct trace_state st;
	struct kmem_cache *s;

	memorizer_control_get(&saved);
	KUNIT_ASSERT_EQ(test, memorizer_control_set(&off, SET_ALL), 0);
	slab.p = kmalloc(3 * sizeof(unsigned long), GFP_KERNEL);
	area = __alloc_percpu(3 * sizeof(unsigned long), sizeof(unsigned long));
	init_completion(&stack.done);
	t = kthread_create(stack_found_fn, &stack, "mz_kunit_stack");
	if (!IS_ERR(t))
		get_task_struct(t);

	trace_self_begin(test, &st);
	touch_found(&percpu);
	if (slab.p)
		touch_found(&slab);
	if (area) {
		dynamic.p = raw_cpu_ptr(area);
		touch_found(&dynamic);
	}
	if (!IS_ERR(t)) {
		memorizer_mark_process(t, true);
		wake_up_process(t);
		wait_for_completion(&stack.done);
	}
	trace_self_end(test, &st);
	KUNIT_EXPECT_EQ(test, memorizer_control_set(&saved, SET_ALL), 0);
	KUNIT_ASSERT_NOT_NULL(test, slab.p);
	KUNIT_ASSERT_NOT_NULL(test, area);
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));

	memorizer_walk_begin();
	/* The variable's copy on the CPU that touched it, kallsyms' extent. */
	KUNIT_EXPECT_TRUE(test, memorizer_percpu_extent((unsigned long)percpu.p,
							&start, &size));
	KUNIT_EXPECT_EQ(test, start, (unsigned long)percpu.p);
	KUNIT_EXPECT_GE(test, size, sizeof(unsigned long [3]));
	rec = find_record((unsigned long)percpu.p);
	if (expect_found(test, rec, MEMORIZER_KIND_PERCPU, start, size, 0,
			 "percpu"))
		expect_accesses(test, rec, exp, 2);
	KUNIT_EXPECT_EQ(test, percpu.untracked, 0UL);

	/* The slab object: its cache's object size and name. */
	s = virt_to_slab(slab.p)->slab_cache;
	rec = find_record((unsigned long)slab.p);
	if (expect_found(test, rec, MEMORIZER_KIND_KMALLOC,
			 (unsigned long)slab.p, s->object_size, 0, "unseen")) {
		KUNIT_EXPECT_STREQ(test, memorizer_cache_name(rec->cache_id),
				   s->name);
		KUNIT_EXPECT_EQ(test, rec->state, MEMORIZER_RECORD_LIVE);
		expect_accesses(test, rec, exp, 2);
	}
	KUNIT_EXPECT_EQ(test, slab.untracked, 0UL);

	/*
	 * The thread's stack, its own: its pid and command. The thread's
	 * exit touches its stack too, so only our two lines are exact.
	 */
	rec = find_record(stack.stack);
	if (expect_found(test, rec, MEMORIZER_KIND_STACK, stack.stack,
			 THREAD_SIZE, stack.pid, "mz_kunit_stack")) {
		w = counter_of(rec, "write_word", stack.pid);
		r = counter_of(rec, "read_word", stack.pid);
		KUNIT_EXPECT_TRUE(test, w && atomic_read(&w->writes) == WRITES &&
					!atomic_read(&w->reads));
		KUNIT_EXPECT_TRUE(test, r && atomic_read(&r->reads) == READS &&
					!atomic_read(&r->writes));
	}
	KUNIT_EXPECT_EQ(test, stack.untracked, 0UL);
	put_task_struct(t);

	/* An alloc_percpu() area: its copy on that CPU, as allocated. */
	rec = find_record((unsigned long)dynamic.p);
	if (expect_found(test, rec, MEMORIZER_KIND_PERCPU,
			 (unsigned long)dynamic.p, 3 * sizeof(unsigned long), 0,
			 "percpu"))
		expect_accesses(test, rec, exp, 2);
	KUNIT_EXPECT_EQ(test, dynamic.untracked, 0UL);
	memorizer_walk_end();
	free_percpu(area);

	/* The found slab object's free is an ordinary one. */
	kfree(slab.p);
	memorizer_walk_begin();
	rec = find_record((unsigned long)slab.p);
	KUNIT_EXPECT_TRUE(test, rec && rec->found &&
				rec->state == MEMORIZER_RECORD_CLOSED);
	if (rec) {
		char sym[KSYM_SYMBOL_LEN];

		ip_function(sym, rec->free_ip);
		KUNIT_EXPECT_STREQ(test, sym, "found_records_test");
	}
	memorizer_walk_end();
}

/* The record at @va is closed, freed from found_pages_test(). */
static void expect_closed_here(struct kunit *test, unsigned long va)
{
	struct memorizer_record *rec;
	char sym[KSYM_SYMBOL_LEN];

	memorizer_walk_begin();
	rec = find_record(va);
	KUNIT_EXPECT_TRUE_MSG(test, rec && rec->state == MEMORIZER_RECORD_CLOSED,
			      "record at %lx not closed", va);
	if (rec) {
		ip_function(sym, rec->free_ip);
		KUNIT_EXPECT_STREQ(test, sym, "found_pages_test");
	}
	memorizer_walk_end();
}

/*
 * Pages allocated unseen (while tracking was off, as page cache,
 * anonymous pages and page tables always are: they come from no hooked
 * API) are found at their first access, one object per folio: a
 * compound folio's whole, touched in its last page; each page of a block
 * allocated without __GFP_COMP on its own. Freeing the block closes
 * every record in it, not only the first page's.
 */
static void found_pages_test(struct kunit *test)
{
	const struct memorizer_control off = { .target.mode = MEMORIZER_OFF };
	const struct expected_access exp[] = {
		{ "write_word", current->pid, WRITES, 0, 0, 24 },
		{ "read_word", current->pid, 0, READS, 0, 24 },
	};
	struct found_case in_folio = { NULL, MEMORIZER_MEM_PAGE };
	struct found_case in_block[2] = {
		{ NULL, MEMORIZER_MEM_PAGE }, { NULL, MEMORIZER_MEM_PAGE },
	};
	const struct expected_access exp_last[] = {
		{ "write_word", current->pid, WRITES, 0, 3 * PAGE_SIZE,
		  3 * PAGE_SIZE + 24 },
		{ "read_word", current->pid, 0, READS, 3 * PAGE_SIZE,
		  3 * PAGE_SIZE + 24 },
	};
	struct memorizer_control saved;
	struct memorizer_record *rec;
	struct trace_state st;
	struct folio *folio;
	struct page *block;
	char *f, *b;
	int i;

	memorizer_control_get(&saved);
	KUNIT_ASSERT_EQ(test, memorizer_control_set(&off, SET_ALL), 0);
	folio = folio_alloc(GFP_KERNEL, 2);
	block = alloc_pages(GFP_KERNEL, 2);
	trace_self_begin(test, &st);
	if (folio && block) {
		f = folio_address(folio);
		b = page_address(block);
		in_folio.p = (unsigned long *)(f + 3 * PAGE_SIZE);
		touch_found(&in_folio);
		in_block[0].p = (unsigned long *)(b + PAGE_SIZE);
		in_block[1].p = (unsigned long *)(b + 3 * PAGE_SIZE);
		touch_found(&in_block[0]);
		touch_found(&in_block[1]);
	}
	trace_self_end(test, &st);
	KUNIT_EXPECT_EQ(test, memorizer_control_set(&saved, SET_ALL), 0);
	if (!folio || !block) {
		if (folio)
			folio_put(folio);
		if (block)
			__free_pages(block, 2);
		KUNIT_FAIL(test, "no pages");
		return;
	}

	memorizer_walk_begin();
	rec = find_record((unsigned long)f);
	if (expect_found(test, rec, MEMORIZER_KIND_PAGES, (unsigned long)f,
			 4 * PAGE_SIZE, 0, "page")) {
		KUNIT_EXPECT_EQ(test, rec->state, MEMORIZER_RECORD_LIVE);
		expect_accesses(test, rec, exp_last, 2);
	}
	KUNIT_EXPECT_EQ(test, in_folio.untracked, 0UL);
	/*
	 * Pages 0 and 2, untouched, hold no live record; a closed one may be
	 * an earlier test's, whose pages the allocator gave back here.
	 */
	for (i = 0; i < 4; i += 2) {
		rec = find_record((unsigned long)b + i * PAGE_SIZE);
		KUNIT_EXPECT_TRUE(test, !rec ||
				  rec->state != MEMORIZER_RECORD_LIVE);
	}
	for (i = 0; i < 2; i++) {
		rec = find_record((unsigned long)in_block[i].p);
		if (expect_found(test, rec, MEMORIZER_KIND_PAGES,
				 (unsigned long)in_block[i].p, PAGE_SIZE, 0,
				 "page"))
			expect_accesses(test, rec, exp, 2);
		KUNIT_EXPECT_EQ(test, in_block[i].untracked, 0UL);
	}
	memorizer_walk_end();

	folio_put(folio);
	__free_pages(block, 2);
	expect_closed_here(test, (unsigned long)f);
	expect_closed_here(test, (unsigned long)in_block[0].p);
	expect_closed_here(test, (unsigned long)in_block[1].p);
}

/*
 * A kind left out of the kinds file gets no record, allocated or found:
 * its accesses count as untracked, each one; the other kinds are kept.
 */
static void kinds_test(struct kunit *test)
{
	unsigned int saved = READ_ONCE(memorizer_kinds);
	struct found_case slab = { NULL, MEMORIZER_MEM_SLAB };
	struct memorizer_record *rec, *kept;
	struct trace_state st;
	unsigned long *q;

	WRITE_ONCE(memorizer_kinds, saved & ~BIT(MEMORIZER_KIND_KMALLOC));
	trace_self_begin(test, &st);
	slab.p = kmalloc(3 * sizeof(unsigned long), GFP_KERNEL);
	q = vmalloc(PAGE_SIZE);
	if (slab.p)
		touch_found(&slab);
	trace_self_end(test, &st);
	WRITE_ONCE(memorizer_kinds, saved);
	KUNIT_ASSERT_NOT_NULL(test, slab.p);
	KUNIT_ASSERT_NOT_NULL(test, q);

	memorizer_walk_begin();
	rec = find_record((unsigned long)slab.p);
	kept = find_record((unsigned long)q);
	KUNIT_EXPECT_TRUE(test, !rec || rec->state != MEMORIZER_RECORD_LIVE);
	KUNIT_EXPECT_TRUE(test, kept && kept->kind == MEMORIZER_KIND_VMALLOC &&
				kept->state == MEMORIZER_RECORD_LIVE);
	memorizer_walk_end();
	KUNIT_EXPECT_EQ(test, slab.untracked, (unsigned long)WRITES + READS);
	kfree(slab.p);
	vfree(q);
}

/* The accesses left out for each instrument and Memorizer, and all seen. */
struct instr_figures {
	unsigned long excluded[MEMORIZER_INSTR_NR + 1];
	unsigned long seen;	/* recorded or untracked */
};

/*
 * Not instrumented, as set_counted(): their own accesses would be in what
 * the tests measure.
 */
static __no_sanitize_address void set_counted(unsigned int instrs)
{
	WRITE_ONCE(memorizer_instr_counted, instrs);
}

static __no_sanitize_address void read_instr_figures(struct instr_figures *f)
{
	struct memorizer_stats sum;
	int i;

	memorizer_stats_sum(&sum);
	for (i = 0; i <= MEMORIZER_INSTR_NR; i++)
		f->excluded[i] = sum.excluded[i];
	f->seen = 0;
	for (i = 0; i < MEMORIZER_KIND_NR; i++)
		f->seen += sum.accesses[i];
	for (i = 0; i < MEMORIZER_MEM_NR; i++)
		f->seen += sum.untracked[i];
}

/* @after - @before, in place in @after. */
static void instr_delta(struct instr_figures *after,
			const struct instr_figures *before)
{
	int i;

	for (i = 0; i <= MEMORIZER_INSTR_NR; i++)
		after->excluded[i] -= before->excluded[i];
	after->seen -= before->seen;
}

/*
 * Accesses inside an instrument's section are left out and counted under
 * it (under the first, in enum memorizer_instr's order, when nested),
 * unless the instrument is counted; then they are ordinary counts. The
 * sections run with interrupts off, so that nothing else is in them.
 */
static void instruments_test(struct kunit *test)
{
	const struct expected_access exp[] = {
		{ "write_word", current->pid, WRITES, 0, 0, 24 },
		{ "read_word", current->pid, 0, 2, 0, 16 },
	};
	unsigned int saved = READ_ONCE(memorizer_instr_counted);
	struct instr_figures before, after;
	unsigned int kasan, lockdep;
	struct trace_state st;
	unsigned long flags;
	unsigned long *p;

	set_counted(0);
	trace_self_begin(test, &st);
	p = kmalloc(64, GFP_KERNEL);
	if (p) {
		write_words(p, 1, WRITES);
		local_irq_save(flags);
		read_instr_figures(&before);
		kasan = memorizer_instr_enter(MEMORIZER_INSTR_KASAN);
		read_words(p, 1, READS);
		memorizer_instr_exit(MEMORIZER_INSTR_KASAN, kasan);

		set_counted(BIT(MEMORIZER_INSTR_LOCKDEP));
		lockdep = memorizer_instr_enter(MEMORIZER_INSTR_LOCKDEP);
		read_words(p, 1, 2);
		memorizer_instr_exit(MEMORIZER_INSTR_LOCKDEP, lockdep);
		set_counted(0);

		kasan = memorizer_instr_enter(MEMORIZER_INSTR_KASAN);
		lockdep = memorizer_instr_enter(MEMORIZER_INSTR_LOCKDEP);
		read_words(p, 1, 1);
		memorizer_instr_exit(MEMORIZER_INSTR_LOCKDEP, lockdep);
		read_words(p, 1, 1);
		memorizer_instr_exit(MEMORIZER_INSTR_KASAN, kasan);

		lockdep = memorizer_instr_enter(MEMORIZER_INSTR_LOCKDEP);
		write_words(p, 1, 4);
		memorizer_instr_exit(MEMORIZER_INSTR_LOCKDEP, lockdep);
		read_instr_figures(&after);
		local_irq_restore(flags);
		kfree(p);
	}
	trace_self_end(test, &st);
	set_counted(saved);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_EQ(test, current->memorizer_instr, 0);
	instr_delta(&after, &before);
	KUNIT_EXPECT_EQ(test, after.excluded[MEMORIZER_INSTR_KASAN],
			(unsigned long)READS + 2);
	KUNIT_EXPECT_EQ(test, after.excluded[MEMORIZER_INSTR_LOCKDEP], 4UL);
	/* The two counted reads: set_counted() is not instrumented. */
	KUNIT_EXPECT_EQ(test, after.seen, 2UL);
	expect_record(test, (unsigned long)p, MEMORIZER_KIND_KMALLOC, 64, 64,
		      "instruments_test", exp, 2);
}

/* Whether a counter of @pid on any record was made in one of @funcs. */
static bool counted_in(pid_t pid, const char *const *funcs, int n)
{
	struct memorizer_record *rec = NULL;
	struct memorizer_counter *c;
	char sym[KSYM_SYMBOL_LEN];
	bool found = false;
	int cpu = -1, i;

	memorizer_walk_begin();
	while (!found && (rec = memorizer_walk_next(&cpu, rec))) {
		for (c = memorizer_deref(rec->counters); c && !found;
		     c = memorizer_deref(c->next)) {
			if (c->pid != pid)
				continue;
			ip_function(sym, memorizer_counter_ip(c));
			for (i = 0; i < n && !found; i++)
				found = !strcmp(sym, funcs[i]);
		}
	}
	memorizer_walk_end();
	return found;
}

static const char *const unwinder[] = {
	"unwind_next_frame", "__unwind_start", "stack_trace_consume_entry",
};

/*
 * KASAN's own stack saving, as it runs: the unwinder's accesses are left
 * out as KASAN's, and when KASAN is counted the same accesses are counted
 * instead, as many as were left out. The same call each time, from the
 * same stack, with interrupts off: the unwinder walks the same frames,
 * and after the first call the stack depot has the stack (the first
 * stores it, under a lock lockdep checks).
 */
static void kasan_stack_test(struct kunit *test)
{
	unsigned int saved = READ_ONCE(memorizer_instr_counted);
	struct instr_figures before, run[4];
	struct trace_state st;
	unsigned long flags;
	void *p;
	int i;

	p = kmalloc(64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	set_counted(0);
	trace_self_begin(test, &st);
	for (i = 0; i < 4; i++) {
		if (i == 3)
			set_counted(BIT(MEMORIZER_INSTR_KASAN));
		local_irq_save(flags);
		read_instr_figures(&before);
		kasan_record_aux_stack_noalloc(p);
		read_instr_figures(&run[i]);
		local_irq_restore(flags);
		instr_delta(&run[i], &before);
		if (i == 2)
			KUNIT_EXPECT_FALSE(test, counted_in(current->pid,
					unwinder, ARRAY_SIZE(unwinder)));
	}
	trace_self_end(test, &st);
	set_counted(saved);
	kfree(p);

	for (i = 0; i < 4; i++)
		kunit_info(test, "run %d: kasan %lu lockdep %lu seen %lu\n", i,
			   run[i].excluded[MEMORIZER_INSTR_KASAN],
			   run[i].excluded[MEMORIZER_INSTR_LOCKDEP], run[i].seen);
	KUNIT_EXPECT_GT(test, run[1].excluded[MEMORIZER_INSTR_KASAN], 0UL);
	KUNIT_EXPECT_EQ(test, run[1].excluded[MEMORIZER_INSTR_KASAN],
			run[2].excluded[MEMORIZER_INSTR_KASAN]);
	KUNIT_EXPECT_EQ(test, run[1].seen, run[2].seen);
	KUNIT_EXPECT_EQ(test, run[3].excluded[MEMORIZER_INSTR_KASAN], 0UL);
	/*
	 * What was left out is counted now, besides what always was; a lock
	 * the stack depot takes is lockdep's once KASAN is counted.
	 */
	KUNIT_EXPECT_EQ(test, run[3].seen - run[2].seen +
			run[3].excluded[MEMORIZER_INSTR_LOCKDEP] -
			run[2].excluded[MEMORIZER_INSTR_LOCKDEP],
			run[2].excluded[MEMORIZER_INSTR_KASAN]);
	KUNIT_EXPECT_TRUE(test, counted_in(current->pid, unwinder,
					   ARRAY_SIZE(unwinder)));
}

static DEFINE_SPINLOCK(instr_test_lock);

/*
 * lockdep's own work: functions that run only inside its recursion
 * sections (lock_acquire() and lock_release() check whether to go in
 * first, outside).
 */
static const char *const lockdep_functions[] = {
	"__lock_acquire", "__lock_release", "validate_chain", "mark_lock",
	"check_prev_add", "lookup_chain_cache_add", "mark_usage",
};

/* Lock and unlock a lock 3 times, traced, with @instrs counted. */
static void lock_traced(struct kunit *test, unsigned int instrs,
			struct instr_figures *delta)
{
	unsigned int saved = READ_ONCE(memorizer_instr_counted);
	struct instr_figures before;
	struct trace_state st;
	int i;

	set_counted(instrs);
	trace_self_begin(test, &st);
	read_instr_figures(&before);
	for (i = 0; i < 3; i++) {
		spin_lock(&instr_test_lock);
		spin_unlock(&instr_test_lock);
	}
	read_instr_figures(delta);
	trace_self_end(test, &st);
	set_counted(saved);
	instr_delta(delta, &before);
}

/*
 * lockdep's checking of a lock is left out as lockdep's; counted, it is
 * in the kmap under lockdep's own functions.
 */
static void lockdep_test(struct kunit *test)
{
	bool prove = IS_ENABLED(CONFIG_PROVE_LOCKING);
	struct instr_figures delta;

	lock_traced(test, 0, &delta);
	KUNIT_EXPECT_FALSE(test, counted_in(current->pid, lockdep_functions,
					    ARRAY_SIZE(lockdep_functions)));
	KUNIT_EXPECT_EQ(test, delta.excluded[MEMORIZER_INSTR_LOCKDEP] > 0,
			prove);

	lock_traced(test, BIT(MEMORIZER_INSTR_LOCKDEP), &delta);
	KUNIT_EXPECT_EQ(test, delta.excluded[MEMORIZER_INSTR_LOCKDEP], 0UL);
	KUNIT_EXPECT_EQ(test, counted_in(current->pid, lockdep_functions,
					 ARRAY_SIZE(lockdep_functions)),
			prove);
}

/*
 * Every path of the access code counts exactly: the same loop of loads
 * with access logging off (KASAN's check alone), with it on for another
 * task (the context test), on one object from one instruction (the cache
 * hit), from two instructions in turn (the counter looked up), on two
 * objects in turn (both in the cache), on more slab objects or vmalloc
 * areas in turn than the cache holds (the record looked up: inline for
 * slab objects, in the slow path for the rest), and once on each of many
 * objects (a counter made for each: the slow path's). What each path
 * costs is bench/stages' to measure, under a real workload.
 */
#define COST_LOADS 20000
#define COST_ROUNDS 3
#define COST_OBJECTS 8		/* more than the access cache's ways */
#define COST_FRESH 1000		/* objects a round of new-counter reads */

static noinline unsigned long read_word_other(unsigned long *p)
{
	return READ_ONCE(*p);
}

enum cost_stage {
	COST_KASAN, COST_UNSELECTED, COST_HIT, COST_COUNTER, COST_TWO,
	COST_SLAB, COST_VMALLOC, COST_NEW, COST_NR
};

struct cost_objects {
	unsigned long *p, *q;
	unsigned long *slab[COST_OBJECTS];
	unsigned long *vmalloc[COST_OBJECTS];
	unsigned long **fresh;		/* COST_FRESH a round */
	unsigned long fresh_ends[COST_ROUNDS][2];	/* checked after */
};

static unsigned long cost_loop(enum cost_stage stage,
			       const struct cost_objects *o, int round)
{
	unsigned long sum = 0;
	int i;

	if (stage == COST_NEW) {
		for (i = 0; i < COST_FRESH; i++)
			sum += read_word(o->fresh[round * COST_FRESH + i]);
		return sum;
	}
	for (i = 0; i < COST_LOADS; i++) {
		if (stage == COST_COUNTER && (i & 1))
			sum += read_word_other(o->p);
		else if (stage == COST_TWO && (i & 1))
			sum += read_word(o->q);
		else if (stage == COST_SLAB)
			sum += read_word(o->slab[i % COST_OBJECTS]);
		else if (stage == COST_VMALLOC)
			sum += read_word(o->vmalloc[i % COST_OBJECTS]);
		else
			sum += read_word(o->p);
	}
	return sum;
}

/* Inline: the records name access_paths_test as call site and free site. */
static __always_inline bool cost_objects_alloc(struct cost_objects *o)
{
	bool ok;
	int i;

	o->p = kmalloc(64, GFP_KERNEL);
	o->q = kmalloc(64, GFP_KERNEL);
	ok = o->p && o->q;
	for (i = 0; i < COST_OBJECTS; i++) {
		o->slab[i] = kmalloc(64, GFP_KERNEL);
		o->vmalloc[i] = vmalloc(PAGE_SIZE);
		ok = ok && o->slab[i] && o->vmalloc[i];
	}
	o->fresh = kcalloc(COST_ROUNDS * COST_FRESH, sizeof(*o->fresh),
			   GFP_KERNEL);
	for (i = 0; o->fresh && i < COST_ROUNDS * COST_FRESH; i++) {
		o->fresh[i] = kmalloc(64, GFP_KERNEL);
		ok = ok && o->fresh[i];
	}
	return ok && o->fresh;
}

static __always_inline void cost_objects_free(struct cost_objects *o)
{
	int i;

	kfree(o->p);
	kfree(o->q);
	for (i = 0; i < COST_OBJECTS; i++) {
		kfree(o->slab[i]);
		vfree(o->vmalloc[i]);
	}
	for (i = 0; o->fresh && i < COST_ROUNDS * COST_FRESH; i++) {
		if (i % COST_FRESH == 0 || i % COST_FRESH == COST_FRESH - 1)
			o->fresh_ends[i / COST_FRESH][i % COST_FRESH != 0] =
				(unsigned long)o->fresh[i];
		kfree(o->fresh[i]);
	}
	kfree(o->fresh);
}

static void access_paths_test(struct kunit *test)
{
	const unsigned int loads = COST_ROUNDS * COST_LOADS;
	/* p: all of hit, half of counter-lookup and of two-objects. */
	const struct expected_access exp_p[] = {
		{ "read_word", current->pid, 0, loads + loads / 2 + loads / 2 },
		{ "read_word_other", current->pid, 0, loads / 2 },
	};
	const struct expected_access exp_q[] = {
		{ "read_word", current->pid, 0, loads / 2 },
	};
	const struct expected_access exp_each[] = {
		{ "read_word", current->pid, 0, loads / COST_OBJECTS },
	};
	const struct expected_access exp_once[] = {
		{ "read_word", current->pid, 0, 1 },
	};
	struct cost_objects o = {};
	struct memorizer_control c;
	struct trace_state st;
	int stage, round, i;
	bool ok;

	trace_self_begin(test, &st);
	ok = cost_objects_alloc(&o);
	memorizer_control_get(&c);
	for (stage = 0; stage < COST_NR && ok; stage++) {
		c.log_access = stage != COST_KASAN;
		c.target.mode = stage == COST_UNSELECTED ? MEMORIZER_PID :
							   MEMORIZER_TREE;
		c.target.pid = 1;	/* init: not this thread */
		/* No assertion here: it would leave tracing on. */
		if (memorizer_control_set(&c, SET_ALL)) {
			KUNIT_FAIL(test, "stage %d: the control refused", stage);
			ok = false;
			break;
		}
		for (round = 0; round < COST_ROUNDS; round++)
			cost_loop(stage, &o, round);
	}
	cost_objects_free(&o);
	trace_self_end(test, &st);
	/* Cleared (as clear_dead_objects does) on every path, below too. */
	if (!ok)
		goto out;
	expect_record(test, (unsigned long)o.p, MEMORIZER_KIND_KMALLOC, 64, 64,
		      "access_paths_test", exp_p, 2);
	expect_record(test, (unsigned long)o.q, MEMORIZER_KIND_KMALLOC, 64, 64,
		      "access_paths_test", exp_q, 1);
	for (i = 0; i < COST_OBJECTS; i++) {
		expect_record(test, (unsigned long)o.slab[i],
			      MEMORIZER_KIND_KMALLOC, 64, 64,
			      "access_paths_test", exp_each, 1);
		expect_record(test, (unsigned long)o.vmalloc[i],
			      MEMORIZER_KIND_VMALLOC, PAGE_SIZE, PAGE_SIZE,
			      "access_paths_test", exp_each, 1);
	}
	/* new-counter: each object read once; the ends of each round's. */
	for (round = 0; round < COST_ROUNDS; round++)
		for (i = 0; i < 2; i++)
			expect_record(test, o.fresh_ends[round][i],
				      MEMORIZER_KIND_KMALLOC, 64, 64,
				      "access_paths_test", exp_once, 1);
out:
	/*
	 * KUnit runs at every boot of the test kernel: the thousands of
	 * records closed here would stay in each guest's memory (the
	 * stream-binary test counts it).
	 */
	memorizer_records_free(memorizer_records_take_closed());
	KUNIT_EXPECT_TRUE_MSG(test, ok, "objects or control refused");
}

/*
 * kmap_offsets' object line: kmap's, then the allocator kind and the slab
 * cache's name, its comma made '?'; empty for an object in no cache.
 */
static void offsets_object_line_test(struct kunit *test)
{
	const char *slab_tail = ",kmem_cache,memorizer_kunit?offsets\n";
	char line[MEMORIZER_LINE_MAX], offsets[MEMORIZER_LINE_MAX];
	struct memorizer_record *rec;
	struct kmem_cache *cache;
	struct trace_state st;
	void *p, *v;
	int len;

	cache = kmem_cache_create("memorizer_kunit,offsets", 40, 0, 0, NULL);
	KUNIT_ASSERT_NOT_NULL(test, cache);
	trace_self_begin(test, &st);
	p = kmem_cache_alloc(cache, GFP_KERNEL);
	v = vmalloc(100);
	trace_self_end(test, &st);
	KUNIT_EXPECT_NOT_NULL(test, p);
	KUNIT_EXPECT_NOT_NULL(test, v);

	memorizer_walk_begin();
	rec = p ? find_record((unsigned long)p) : NULL;
	KUNIT_EXPECT_NOT_NULL(test, rec);
	if (rec) {
		len = memorizer_format_record(line, rec);
		KUNIT_EXPECT_EQ(test,
				memorizer_format_record_offsets(offsets, rec),
				len - 1 + (int)strlen(slab_tail));
		KUNIT_EXPECT_EQ(test, strncmp(offsets, line, len - 1), 0);
		KUNIT_EXPECT_STREQ(test, offsets + len - 1, slab_tail);
	}
	rec = v ? find_record((unsigned long)v) : NULL;
	KUNIT_EXPECT_NOT_NULL(test, rec);
	if (rec) {
		len = memorizer_format_record(line, rec);
		memorizer_format_record_offsets(offsets, rec);
		KUNIT_EXPECT_EQ(test, strncmp(offsets, line, len - 1), 0);
		KUNIT_EXPECT_STREQ(test, offsets + len - 1, ",vmalloc,\n");
	}
	memorizer_walk_end();

	if (p)
		kmem_cache_free(cache, p);
	vfree(v);
	kmem_cache_destroy(cache);
}

/* What a sweep sent (memorizer_counts_fn): the sum of the counts. */
static u32 swept_sum;

static void sum_swept(struct memorizer_record *rec,
		      const struct memorizer_counter *c, u32 writes, u32 reads)
{
	swept_sum += writes + reads;
}

/*
 * While a binary reader is attached, a sweep sends each counter's counts
 * and zeroes it; the counter stays in the hash for the next accesses. The
 * kmap then has no line for it: an access line with no reads and no
 * writes says nothing, and memorizer check refuses it (the guest fuzzer,
 * tests/vm/fuzz-control.sh, found such lines).
 */
static void swept_counter_line_test(struct kunit *test)
{
	char line[MEMORIZER_LINE_MAX];
	struct memorizer_record *rec;
	struct memorizer_counter *c;
	struct trace_state st;
	unsigned long flags, *p;
	int counters = 0;
	bool guard;

	trace_self_begin(test, &st);
	p = kmalloc(64, GFP_KERNEL);
	if (p) {
		read_word(p);
		read_word(p);
	}
	trace_self_end(test, &st);
	KUNIT_ASSERT_NOT_NULL(test, p);

	swept_sum = 0;
	memorizer_walk_begin();
	rec = find_record((unsigned long)p);
	KUNIT_EXPECT_NOT_NULL(test, rec);
	if (rec) {
		guard = memorizer_guard();
		local_irq_save(flags);
		memorizer_counters_sweep(rec, sum_swept, NULL, 0, 0);
		local_irq_restore(flags);
		memorizer_unguard(guard);
		for (c = memorizer_deref(rec->counters); c;
		     c = memorizer_deref(c->next)) {
			counters++;
			KUNIT_EXPECT_EQ(test, atomic_read(&c->reads), 0);
			KUNIT_EXPECT_EQ(test, memorizer_format_counter(line, c, NULL), 0);
			KUNIT_EXPECT_EQ(test, memorizer_format_counter(line, c, rec), 0);
		}
	}
	memorizer_walk_end();
	KUNIT_EXPECT_GE(test, counters, 1);
	KUNIT_EXPECT_GE(test, swept_sum, 2U);

	trace_self_begin(test, &st);
	kfree(p);
	trace_self_end(test, &st);
}

static struct kunit_case memorizer_records_cases[] = {
	KUNIT_CASE(kmem_cache_record_test),
	KUNIT_CASE(kmalloc_record_test),
	KUNIT_CASE(kmalloc_large_record_test),
	KUNIT_CASE(vmalloc_record_test),
	KUNIT_CASE(pages_record_test),
	KUNIT_CASE(folio_record_test),
	KUNIT_CASE(free_pages_record_test),
	KUNIT_CASE(krealloc_record_test),
	KUNIT_CASE(bulk_record_test),
	KUNIT_CASE(memintrinsics_record_test),
	KUNIT_CASE(offsets_test),
	KUNIT_CASE(smp_counts_test),
	KUNIT_CASE(missed_free_test),
	KUNIT_CASE(reused_address_test),
	KUNIT_CASE(global_record_test),
	KUNIT_CASE(found_records_test),
	KUNIT_CASE(found_pages_test),
	KUNIT_CASE(kinds_test),
	KUNIT_CASE(instruments_test),
	KUNIT_CASE(kasan_stack_test),
	KUNIT_CASE(lockdep_test),
	KUNIT_CASE(offsets_object_line_test),
	KUNIT_CASE(swept_counter_line_test),
	KUNIT_CASE(access_paths_test),
	{}
};

static struct kunit_suite memorizer_records_suite = {
	.name = "memorizer_records",
	.test_cases = memorizer_records_cases,
};

kunit_test_suite(memorizer_records_suite);

MODULE_DESCRIPTION("KUnit tests for Memorizer");
MODULE_LICENSE("GPL");
