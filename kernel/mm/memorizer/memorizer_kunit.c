// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for Memorizer's control interface.
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/kallsyms.h>
#include <linux/kthread.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/memorizer.h>
#include <linux/slab.h>
#include <linux/threads.h>
#include <linux/vmalloc.h>

#include "../slab.h"
#include "memorizer.h"

struct parse_case {
	const char *input;
	int ret;
	enum memorizer_mode mode;
	pid_t pid;
};

static const struct parse_case parse_cases[] = {
	{ "0", 0, MEMORIZER_OFF, 0 },
	{ "1", 0, MEMORIZER_SYSTEM, 0 },
	{ "2", 0, MEMORIZER_TREE_AND_IRQ, 0 },
	{ "3", 0, MEMORIZER_TREE, 0 },
	{ "3\n", 0, MEMORIZER_TREE, 0 },
	{ "4", 0, MEMORIZER_PID, 4 },
	{ "1234\n", 0, MEMORIZER_PID, 1234 },
	{ "007", 0, MEMORIZER_PID, 7 },
	{ "99999999999999999999", -EINVAL },
	{ "", -EINVAL },
	{ "\n", -EINVAL },
	{ "on", -EINVAL },
	{ "-1", -EINVAL },
	{ "+1", -EINVAL },
	{ " 1", -EINVAL },
	{ "1 ", -EINVAL },
	{ "1x", -EINVAL },
	{ "1\n\n", -EINVAL },
	{ "0x3", -EINVAL },
	{ "1 2", -EINVAL },
};

static void parse_case_desc(const struct parse_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%*pE\"",
		 (int)strlen(c->input), c->input);
}

KUNIT_ARRAY_PARAM(parse, parse_cases, parse_case_desc);

/* Each input gives exactly the expected target, or -EINVAL and no change. */
static void parse_enabled_test(struct kunit *test)
{
	const struct parse_case *c = test->param_value;
	const struct memorizer_target poison = { .mode = 0x5a, .pid = -7 };
	struct memorizer_target target = poison;
	int ret = memorizer_parse_enabled(c->input, &target);

	KUNIT_EXPECT_EQ(test, ret, c->ret);
	if (c->ret) {
		KUNIT_EXPECT_EQ(test, target.mode, poison.mode);
		KUNIT_EXPECT_EQ(test, target.pid, poison.pid);
	} else {
		KUNIT_EXPECT_EQ(test, target.mode, c->mode);
		KUNIT_EXPECT_EQ(test, target.pid, c->pid);
	}
}

/* The largest pid the kernel can hand out is accepted; one more is not. */
static void parse_pid_limit_test(struct kunit *test)
{
	struct memorizer_target target = {};
	char buf[16];

	snprintf(buf, sizeof(buf), "%u\n", (unsigned int)PID_MAX_LIMIT - 1);
	KUNIT_EXPECT_EQ(test, memorizer_parse_enabled(buf, &target), 0);
	KUNIT_EXPECT_EQ(test, target.mode, MEMORIZER_PID);
	KUNIT_EXPECT_EQ(test, target.pid, PID_MAX_LIMIT - 1);

	snprintf(buf, sizeof(buf), "%u", (unsigned int)PID_MAX_LIMIT);
	KUNIT_EXPECT_EQ(test, memorizer_parse_enabled(buf, &target), -EINVAL);
	KUNIT_EXPECT_EQ(test, target.pid, PID_MAX_LIMIT - 1);
}

struct bool_case {
	const char *input;
	int ret;
	bool val;
};

static const struct bool_case bool_cases[] = {
	{ "1", 0, true }, { "0", 0, false }, { "1\n", 0, true },
	{ "y", 0, true }, { "N", 0, false }, { "yes", 0, true },
	{ "No\n", 0, false }, { "on", 0, true }, { "OFF", 0, false },
	{ "true", 0, true }, { "false", 0, false },
	{ "", -EINVAL }, { "2", -EINVAL }, { "ye", -EINVAL },
	{ "onn", -EINVAL }, { "1\n\n", -EINVAL }, { " 1", -EINVAL },
	{ "truex", -EINVAL }, { "-1", -EINVAL },
};

static void bool_case_desc(const struct bool_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%*pE\"",
		 (int)strlen(c->input), c->input);
}

KUNIT_ARRAY_PARAM(parse_bool, bool_cases, bool_case_desc);

static void parse_bool_test(struct kunit *test)
{
	const struct bool_case *c = test->param_value;
	bool val = !c->val;
	int ret = memorizer_parse_bool(c->input, &val);

	KUNIT_EXPECT_EQ(test, ret, c->ret);
	/* Set on success; untouched on failure. */
	KUNIT_EXPECT_EQ(test, val, c->ret ? !c->val : c->val);
}

static struct kunit_case memorizer_control_cases[] = {
	KUNIT_CASE_PARAM(parse_enabled_test, parse_gen_params),
	KUNIT_CASE(parse_pid_limit_test),
	KUNIT_CASE_PARAM(parse_bool_test, parse_bool_gen_params),
	{}
};

static struct kunit_suite memorizer_control_suite = {
	.name = "memorizer_control",
	.test_cases = memorizer_control_cases,
};

/*
 * Records: each test traces only itself (mode 3 marks the test's thread),
 * allocates, touches and frees objects from functions of its own, then
 * finds the records and checks every field and every count exactly.
 */

#define WRITES 7
#define READS 5

struct trace_state {
	struct memorizer_target saved;
	bool saved_log;
};

static void trace_self_begin(struct kunit *test, struct trace_state *st)
{
	struct memorizer_target self = { .mode = MEMORIZER_TREE };

	memorizer_control_get(&st->saved, &st->saved_log);
	KUNIT_ASSERT_EQ(test, memorizer_control_set(&self, true), 0);
}

static void trace_self_end(struct kunit *test, struct trace_state *st)
{
	KUNIT_EXPECT_EQ(test, memorizer_control_set(&st->saved, st->saved_log),
			0);
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

/* The newest record for @va, or NULL. The caller holds records_get(). */
static struct memorizer_obj *find_record(unsigned long va)
{
	struct memorizer_obj *obj = NULL, *best = NULL;
	int cpu = -1;

	while ((obj = memorizer_next_record(&cpu, obj)))
		if (obj->key.addr == va &&
		    (!best || obj->alloc_ns > best->alloc_ns))
			best = obj;
	return best;
}

/* The record for @va made at @alloc_ip, or NULL. Under records_get(). */
static struct memorizer_obj *record_made_at(unsigned long va,
					    unsigned long alloc_ip)
{
	struct memorizer_obj *obj = NULL;
	int cpu = -1;

	while ((obj = memorizer_next_record(&cpu, obj)))
		if (obj->key.addr == va && obj->alloc_ip == alloc_ip)
			return obj;
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
};

/*
 * Exactly the expected (ip, pid) lines, in any order: each access line
 * matches one expectation in function, pid and both counts.
 */
static void expect_accesses(struct kunit *test, struct memorizer_obj *obj,
			    const struct expected_access *exp, int n)
{
	struct memorizer_access *a;
	bool seen[4] = {};
	int lines = 0, i;

	for (a = obj->accesses; a; a = a->next) {
		unsigned int writes = atomic_read(&a->writes);
		unsigned int reads = atomic_read(&a->reads);
		char sym[KSYM_SYMBOL_LEN];

		lines++;
		ip_function(sym, a->ip);
		for (i = 0; i < n; i++) {
			if (!seen[i] && !strcmp(sym, exp[i].func) &&
			    a->pid == exp[i].pid && writes == exp[i].writes &&
			    reads == exp[i].reads)
				break;
		}
		KUNIT_EXPECT_LT_MSG(test, i, n,
				    "unexpected access line: %s pid %d, %u writes, %u reads",
				    sym, a->pid, writes, reads);
		if (i < n)
			seen[i] = true;
	}
	KUNIT_EXPECT_EQ(test, lines, n);
}

static void expect_record(struct kunit *test, unsigned long va,
			  enum memorizer_kind kind, unsigned int size,
			  unsigned int size_alloc, const char *func,
			  const struct expected_access *exp, int n)
{
	struct memorizer_obj *obj;

	memorizer_records_get();
	obj = find_record(va);
	KUNIT_EXPECT_NOT_NULL(test, obj);
	if (obj) {
		KUNIT_EXPECT_EQ(test, obj->kind, kind);
		KUNIT_EXPECT_EQ(test, obj->size, size);
		KUNIT_EXPECT_EQ(test, obj->size_alloc, size_alloc);
		KUNIT_EXPECT_EQ(test, obj->pid, current->pid);
		KUNIT_EXPECT_STREQ(test, obj->comm, current->comm);
		KUNIT_EXPECT_EQ(test, obj->state, MEMORIZER_OBJ_FREED);
		expect_ip_in(test, obj->alloc_ip, func);
		expect_ip_in(test, obj->free_ip, func);
		KUNIT_EXPECT_LE(test, obj->alloc_jiffies, obj->free_jiffies);
		KUNIT_EXPECT_LE(test, obj->alloc_ns, obj->free_ns);
		expect_accesses(test, obj, exp, n);
	}
	memorizer_records_put();
}

/* The record for @va was made with slab cache @name (NULL: none). */
static void expect_cache(struct kunit *test, unsigned long va,
			 const char *name)
{
	struct memorizer_obj *obj;

	memorizer_records_get();
	obj = find_record(va);
	KUNIT_EXPECT_NOT_NULL(test, obj);
	if (obj && name)
		KUNIT_EXPECT_STREQ(test, memorizer_cache_name(obj->cache_id),
				   name);
	else if (obj)
		KUNIT_EXPECT_EQ(test, obj->cache_id, 0);
	memorizer_records_put();
}

static void kmem_cache_record_test(struct kunit *test)
{
	const struct expected_access exp[] = {
		{ "write_word", current->pid, WRITES, 0 },
		{ "read_word", current->pid, 0, READS },
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
		{ "write_word", current->pid, WRITES, 0 },
		{ "read_word", current->pid, 0, READS },
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
		{ "write_word", current->pid, WRITES, 0 },
		{ "read_word", current->pid, 0, READS },
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
		{ "write_word", current->pid, WRITES, 0 },
		{ "read_word", current->pid, 0, READS },
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
	struct memorizer_obj *obj;
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

	memorizer_records_get();
	obj = find_record((unsigned long)q);
	KUNIT_EXPECT_NOT_NULL(test, obj);
	if (obj) {
		KUNIT_EXPECT_EQ(test, obj->size, 120);
		KUNIT_EXPECT_EQ(test, obj->size_alloc, 128);
		KUNIT_EXPECT_EQ(test, obj->state, MEMORIZER_OBJ_LIVE);
	}
	memorizer_records_put();
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
		{ "memintrinsics_record_test", current->pid, 1, 0 },
		{ "memintrinsics_record_test", current->pid, 0, 1 },
	};
	const struct expected_access exp_dst[] = {
		{ "memintrinsics_record_test", current->pid, 1, 0 },
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
	struct memorizer_obj *first, *second;
	struct trace_state st;
	void *p;

	p = kmalloc(32, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	trace_self_begin(test, &st);
	memorizer_track_alloc(MEMORIZER_KIND_KMALLOC, p, 32, 32, 0x1000);
	memorizer_track_alloc(MEMORIZER_KIND_KMALLOC, p, 16, 32, 0x2000);
	memorizer_track_free(p, 0x3000);
	trace_self_end(test, &st);
	kfree(p);

	memorizer_records_get();
	first = record_made_at((unsigned long)p, 0x1000);
	second = record_made_at((unsigned long)p, 0x2000);
	KUNIT_EXPECT_NOT_NULL(test, first);
	KUNIT_EXPECT_NOT_NULL(test, second);
	if (first)
		KUNIT_EXPECT_EQ(test, first->free_ip, MEMORIZER_FREE_IP_MISSED);
	if (second)
		KUNIT_EXPECT_EQ(test, second->free_ip, 0x3000UL);
	memorizer_records_put();
}

/*
 * A new record at the address of one just closed, touched from the same
 * instructions: its counts are its own, none go to the closed record
 * (which each CPU's last-access cache held).
 */
static void reused_address_test(struct kunit *test)
{
	struct memorizer_obj *first, *second;
	const struct expected_access exp_first[] = {
		{ "write_word", current->pid, WRITES, 0 },
	};
	const struct expected_access exp_second[] = {
		{ "write_word", current->pid, 3, 0 },
		{ "read_word", current->pid, 0, READS },
	};
	struct trace_state st;
	void *p;

	p = kmalloc(64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	trace_self_begin(test, &st);
	memorizer_track_alloc(MEMORIZER_KIND_KMALLOC, p, 64, 64, 0x1000);
	write_words(p, 1, WRITES);
	memorizer_track_free(p, 0x3000);
	memorizer_track_alloc(MEMORIZER_KIND_KMALLOC, p, 64, 64, 0x2000);
	write_words(p, 1, 3);
	read_words(p, 1, READS);
	memorizer_track_free(p, 0x4000);
	trace_self_end(test, &st);
	kfree(p);

	memorizer_records_get();
	first = record_made_at((unsigned long)p, 0x1000);
	second = record_made_at((unsigned long)p, 0x2000);
	KUNIT_EXPECT_NOT_NULL(test, first);
	KUNIT_EXPECT_NOT_NULL(test, second);
	if (first)
		expect_accesses(test, first, exp_first, 1);
	if (second)
		expect_accesses(test, second, exp_second, 2);
	memorizer_records_put();
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
	KUNIT_CASE(smp_counts_test),
	KUNIT_CASE(missed_free_test),
	KUNIT_CASE(reused_address_test),
	{}
};

static struct kunit_suite memorizer_records_suite = {
	.name = "memorizer_records",
	.test_cases = memorizer_records_cases,
};

kunit_test_suites(&memorizer_control_suite, &memorizer_records_suite);

MODULE_DESCRIPTION("KUnit tests for Memorizer");
MODULE_LICENSE("GPL");
