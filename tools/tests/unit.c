// SPDX-License-Identifier: GPL-2.0
/*
 * libkmap unit tests (cmocka). Run with CMOCKA_MESSAGE_OUTPUT=TAP for a
 * TAP summary (tests/run counts each case).
 */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <linux/memorizer.h>

#include "kmap.h"
#include "kmap_inline.h"
#include "kmap_types.h"
#include "kmap_counter.h"
#include "mtrace-plugin.h"
#include "mtrace_label.h"
#include "../memorizer/builtin.h"

/* Text: one line. */

static int parse(const char *s, struct kmap_object *o, struct kmap_access *a,
		 char *err)
{
	return kmap_parse_line(s, strlen(s), o, a, err);
}

static void test_parse_object(void **state)
{
	struct kmap_object o;
	struct kmap_access a;
	char err[KMAP_ERR_MAX];

	(void)state;
	assert_int_equal(parse("ffffffff812a4e74,146,ffff8880085d7e80,24,4294894610,4294894617,ffffffff812ab8a3,gzip",
			       &o, &a, err), KMAP_LINE_OBJECT);
	assert_true(o.alloc_ip == 0xffffffff812a4e74ull);
	assert_int_equal(o.pid, 146);
	assert_true(o.addr == 0xffff8880085d7e80ull);
	assert_int_equal(o.size, 24);
	assert_true(o.alloc_jiffies == 4294894610ull);
	assert_true(o.free_jiffies == 4294894617ull);
	assert_true(o.free_ip == 0xffffffff812ab8a3ull);
	assert_string_equal(o.comm, "gzip");
	assert_true(kmap_object_freed(&o));
}

static void test_parse_access(void **state)
{
	struct kmap_object o;
	struct kmap_access a;
	char err[KMAP_ERR_MAX];

	(void)state;
	assert_int_equal(parse("  ffffffff811556b9,146,1,18446744073709551615", &o, &a, err),
			 KMAP_LINE_ACCESS);
	assert_true(a.ip == 0xffffffff811556b9ull);
	assert_int_equal(a.pid, 146);
	assert_int_equal(a.writes, 1);
	assert_true(a.reads == UINT64_MAX);
}

/* kmap_offsets: two more fields, 32 bits each; the writer's form of it. */
static void test_parse_access_offsets(void **state)
{
	struct kmap_object o;
	struct kmap_access a, w = {
		.ip = 0xffffffff811556b9ull, .pid = 146, .writes = 1, .reads = 2,
		.offset = 8, .offset_end = 4294967295u,
	};
	char err[KMAP_ERR_MAX], line[KMAP_LINE_MAX];
	size_t n;

	(void)state;
	assert_int_equal(parse("  ffffffff811556b9,146,1,2,0,4294967295", &o, &a, err),
			 KMAP_LINE_ACCESS);
	assert_int_equal(a.reads, 2);
	assert_int_equal(a.offset, 0);
	assert_true(a.offset_end == 4294967295u);
	/* 4 fields: offsets 0, whatever a held. */
	assert_int_equal(parse("  ffffffff811556b9,146,1,2", &o, &a, err),
			 KMAP_LINE_ACCESS);
	assert_int_equal(a.offset, 0);
	assert_int_equal(a.offset_end, 0);
	n = kmap_format_access_offsets(line, &w);
	assert_int_equal(n, strlen("  ffffffff811556b9,146,1,2,8,4294967295\n"));
	assert_memory_equal(line, "  ffffffff811556b9,146,1,2,8,4294967295\n", n);
	n = kmap_format_access(line, &w);
	assert_memory_equal(line, "  ffffffff811556b9,146,1,2\n", n);
	/* The rule: a range, or both 0. */
	assert_int_equal(kmap_rule_offsets(0, 0, err), KMAP_RULE_OK);
	assert_int_equal(kmap_rule_offsets(0, 1, err), KMAP_RULE_OK);
	assert_int_equal(kmap_rule_offsets(4, 4, err), KMAP_RULE_ERROR);
	assert_string_equal(err, "offset 4, offset_end 4: not a range (offset below offset_end, or both 0 when not known)");
	assert_int_equal(kmap_rule_offsets(4, 0, err), KMAP_RULE_ERROR);
	assert_int_equal(kmap_rule_offset_end(16, 16, err), KMAP_RULE_OK);
	assert_int_equal(kmap_rule_offset_end(17, 16, err), KMAP_RULE_ERROR);
	assert_string_equal(err, "offset_end 17 past the object's end (size_alloc 16)");
}

/* The text reader: the first access line decides 4 or 6 fields. */
static void test_text_offsets_arity(void **state)
{
	static const char ok[] =
		"ffffffff81000000,1,ffff888000001000,8,100,0,0,sh\n"
		"  ffffffff81000010,1,1,0,0,4\n"
		"  ffffffff81000014,1,1,0,4,8\n";
	static const char mixed[] =
		"ffffffff81000000,1,ffff888000001000,8,100,0,0,sh\n"
		"ffffffff81000000,1,ffff888000002000,8,100,0,0,sh\n"
		"  ffffffff81000010,1,1,0\n"
		"  ffffffff81000014,1,1,0,4,8\n";
	struct kmap_text_reader *r;
	struct kmap_object o;
	struct kmap_access a;

	(void)state;
	r = kmap_text_open_mem(ok, strlen(ok), "ok");
	assert_int_equal(kmap_text_offsets(r), -1);
	assert_int_equal(kmap_text_next(r, &o, &a), KMAP_LINE_OBJECT);
	assert_int_equal(kmap_text_offsets(r), -1);
	assert_int_equal(kmap_text_next(r, &o, &a), KMAP_LINE_ACCESS);
	assert_int_equal(kmap_text_offsets(r), 1);
	assert_int_equal(kmap_text_next(r, &o, &a), KMAP_LINE_ACCESS);
	assert_int_equal(a.offset, 4);
	assert_int_equal(a.offset_end, 8);
	assert_int_equal(kmap_text_next(r, &o, &a), 0);
	kmap_text_close(r);
	/* Lines past the first through the fast path: the same values. */
	{
		char big[64 * 48];
		size_t len, i;

		len = (size_t)snprintf(big, sizeof(big), "%s", ok);
		for (i = 0; i < 40; i++)
			len += (size_t)snprintf(big + len, sizeof(big) - len,
						"  ffffffff81%06zx,1,%zu,0,%zu,%zu\n",
						i + 0x100, i + 1, 3 * i,
						3 * i + 1 + i);
		r = kmap_text_open_mem(big, len, "big");
		for (i = 0; i < 3; i++)
			assert_int_equal(kmap_text_next(r, &o, &a), i ? KMAP_LINE_ACCESS :
					 KMAP_LINE_OBJECT);
		for (i = 0; i < 40; i++) {
			assert_int_equal(kmap_text_next(r, &o, &a), KMAP_LINE_ACCESS);
			assert_true(a.ip == 0xffffffff81000000ull + i + 0x100);
			assert_int_equal(a.writes, i + 1);
			assert_int_equal(a.offset, 3 * i);
			assert_int_equal(a.offset_end, 3 * i + 1 + i);
		}
		assert_int_equal(kmap_text_next(r, &o, &a), 0);
		kmap_text_close(r);
	}
	r = kmap_text_open_mem(mixed, strlen(mixed), "mixed");
	assert_int_equal(kmap_text_next(r, &o, &a), KMAP_LINE_OBJECT);
	assert_int_equal(kmap_text_next(r, &o, &a), KMAP_LINE_OBJECT);
	assert_int_equal(kmap_text_next(r, &o, &a), KMAP_LINE_ACCESS);
	assert_int_equal(kmap_text_offsets(r), 0);
	assert_int_equal(kmap_text_next(r, &o, &a), -1);
	assert_string_equal(kmap_text_error(r), "mixed:4: access line of 6 fields, but line 3's has 4: a kmap (4) and a kmap_offsets (6) mixed");
	kmap_text_close(r);
}

/*
 * kmap_offsets' object lines of 10 fields: the kind (and context) from
 * the line, the cache checked; kmap_parse_line() keeps no cache name.
 */
static void test_parse_object_kinds(void **state)
{
	static const struct {
		const char *line, *err;
	} bad[] = {
		{ "ffffffff81000000,1,ffff888000001000,8,100,0,0,sh,kmalloc",
		  "object line has 9 fields, not 8 (alloc_ip,pid,obj_va_ptr,size,alloc_jiffies,free_jiffies,free_ip,executable) or 10 (kmap_offsets: and kind,cache)" },
		{ "ffffffff81000000,1,ffff888000001000,8,100,0,0,sh,kmalloc,a,b",
		  "object line has more than 10 fields, not 8 (alloc_ip,pid,obj_va_ptr,size,alloc_jiffies,free_jiffies,free_ip,executable) or 10 (kmap_offsets: and kind,cache), nor the Memorizer fork's 11: its alloc_type 'sh' is none of its 27 types" },
		{ "ffffffff81000000,1,ffff888000001000,8,100,0,0,sh,,",
		  "kind '': not an allocator kind (kmalloc, kmem_cache, kmalloc_large, vmalloc, pages, global, percpu, stack)" },
		{ "ffffffff81000000,1,ffff888000001000,8,100,0,0,sh,kmallocx,",
		  "kind 'kmallocx': not an allocator kind (kmalloc, kmem_cache, kmalloc_large, vmalloc, pages, global, percpu, stack)" },
		{ "ffffffff81000000,1,ffff888000001000,8,100,0,0,sh,kmalloc,a\tb",
		  "cache 'a\\x09b': control character (the kernel writes '?')" },
		{ "ffffffff81000000,1,ffff888000001000,8,100,0,0,sh,kmalloc,"
		  "123456789012345678901234567890123",
		  "cache '123456789012345678901234567890123': longer than 32 bytes" },
		{ "ffffffff81000000,1,ffff888000001000,8,100,0,0,sh,pages,dentry",
		  "cache 'dentry': on a pages object (only kmalloc and kmem_cache objects are in a cache; others' field is empty)" },
		{ "ffffffff81000000,1,ffff888000001000,8,100,0,0,sh\x01,kmalloc,",
		  "executable 'sh\\x01': control character (the kernel writes '?')" },
	};
	struct kmap_object o;
	struct kmap_access a;
	char err[KMAP_ERR_MAX];
	size_t i;

	(void)state;
	memset(&o, 0xa5, sizeof(o));
	assert_int_equal(parse("ffffffff812a4e74,146,ffff8880085d7e80,24,4294894610,0,0,gzip,kmem_cache,"
			       "12345678901234567890123456789012", &o, &a, err),
			 KMAP_LINE_OBJECT);
	assert_true(o.addr == 0xffff8880085d7e80ull);
	assert_string_equal(o.comm, "gzip");
	assert_int_equal(o.has, KMAP_HAS_KIND);
	assert_int_equal(o.kind, MEMORIZER_ALLOC_CACHE);
	assert_int_equal(o.context, MEMORIZER_CONTEXT_TASK);
	assert_int_equal(kmap_object_kind(&o), MEMORIZER_ALLOC_CACHE);
	assert_false(kmap_object_found(&o));
	assert_null(o.cache);
	assert_int_equal(o.cache_id, 0);
	/* Interrupts' and found objects' contexts, as a stream says them. */
	assert_int_equal(parse("ffffffff812a4e74,0,ffff8880085d7e80,24,1,0,0,hardirq,kmalloc,kmalloc-32",
			       &o, &a, err), KMAP_LINE_OBJECT);
	assert_int_equal(o.context, MEMORIZER_CONTEXT_HARDIRQ);
	assert_int_equal(parse("ffffffff812a4e74,0,ffff8880085d7e80,24,1,0,0,softirq,kmalloc,",
			       &o, &a, err), KMAP_LINE_OBJECT);
	assert_int_equal(o.context, MEMORIZER_CONTEXT_SOFTIRQ);
	assert_int_equal(parse("ffff8880085d7e80,0,ffff8880085d7e80,4096,1,0,0,page,pages,",
			       &o, &a, err), KMAP_LINE_OBJECT);
	assert_int_equal(o.context, MEMORIZER_CONTEXT_FOUND);
	assert_int_equal(kmap_object_kind(&o), MEMORIZER_ALLOC_PAGES);
	assert_true(kmap_object_found(&o));
	/* The kmap's 8 fields: no kind. */
	assert_int_equal(parse("ffff8880085d7e80,0,ffff8880085d7e80,4096,1,0,0,page",
			       &o, &a, err), KMAP_LINE_OBJECT);
	assert_int_equal(o.has, 0);
	assert_int_equal(kmap_object_kind(&o), KMAP_KIND_UNKNOWN);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse(bad[i].line, &o, &a, err), 0);
		assert_string_equal(err, bad[i].err);
	}
}

/*
 * The reader names each object's cache: one cache_id per name, from 1 in
 * the order first seen, the name valid until kmap_text_close(); none for
 * an empty field. Object lines all of 8 fields or all of 10, and 10 with
 * access lines of 6 only.
 */
static void test_reader_kinds(void **state)
{
	static const char ok[] =
		"1,1,1000,8,100,0,0,sh,kmalloc,kmalloc-8\n"
		"  2,1,0,1,0,8\n"
		"1,1,2000,8,100,0,0,sh,kmem_cache,dentry\n"
		"1,1,3000,8,100,0,0,sh,kmalloc,kmalloc-8\n"
		"1,1,4000,8,100,0,0,sh,vmalloc,\n"
		"1,1,5000,8,100,0,0,sh,kmem_cache,dentry\n";
	static const struct {
		const char *text, *err;
	} bad[] = {
		{ "1,1,1000,8,100,0,0,sh,kmalloc,kmalloc-8\n1,1,2000,8,100,0,0,sh\n",
		  "b:2: object line of 8 fields, but line 1's has 10: a kmap's or an older kmap_offsets' (8), a kmap_offsets' with kind and cache (10) and the Memorizer fork's (11) mixed" },
		{ "1,1,1000,8,100,0,0,sh\n1,1,2000,8,100,0,0,sh,kmalloc,\n",
		  "b:2: object line of 10 fields, but line 1's has 8: a kmap's or an older kmap_offsets' (8), a kmap_offsets' with kind and cache (10) and the Memorizer fork's (11) mixed" },
		{ "1,1,1000,8,100,0,0,sh,kmalloc,\n  2,1,0,1\n",
		  "b:2: access line of 4 fields, but line 1's object line has 10: kmap_offsets' access lines have 6 (offset,offset_end)" },
		{ "1,1,1000,8,100,0,0,sh,vmalloc,kmalloc-8\n",
		  "b:1: cache 'kmalloc-8': on a vmalloc object (only kmalloc and kmem_cache objects are in a cache; others' field is empty)" },
	};
	static const struct {
		const char *cache;
		uint32_t id;
		int kind;
	} want[] = {
		{ "kmalloc-8", 1, MEMORIZER_ALLOC_KMALLOC },
		{ "dentry", 2, MEMORIZER_ALLOC_CACHE },
		{ "kmalloc-8", 1, MEMORIZER_ALLOC_KMALLOC },
		{ NULL, 0, MEMORIZER_ALLOC_VMALLOC },
		{ "dentry", 2, MEMORIZER_ALLOC_CACHE },
	};
	const char *first[2] = { NULL, NULL };
	struct kmap_text_reader *r;
	struct kmap_object o;
	struct kmap_access a;
	size_t i;

	(void)state;
	r = kmap_text_open_mem(ok, strlen(ok), "ok");
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_int_equal(kmap_text_next(r, &o, &a), KMAP_LINE_OBJECT);
		assert_int_equal(o.kind, want[i].kind);
		assert_int_equal(o.cache_id, want[i].id);
		if (!want[i].cache) {
			assert_int_equal(o.has, KMAP_HAS_KIND);
			assert_null(o.cache);
		} else {
			assert_int_equal(o.has, KMAP_HAS_KIND | KMAP_HAS_CACHE);
			assert_string_equal(o.cache, want[i].cache);
			/* One copy of each name, the same pointer every time. */
			if (!first[o.cache_id - 1])
				first[o.cache_id - 1] = o.cache;
			assert_ptr_equal(o.cache, first[o.cache_id - 1]);
		}
		if (i == 0) {
			assert_int_equal(kmap_text_offsets(r), 1);
			assert_int_equal(kmap_text_next(r, &o, &a),
					 KMAP_LINE_ACCESS);
			assert_int_equal(a.offset_end, 8);
		}
	}
	assert_int_equal(kmap_text_next(r, &o, &a), 0);
	assert_string_equal(first[0], "kmalloc-8");
	kmap_text_close(r);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int t;

		r = kmap_text_open_mem(bad[i].text, strlen(bad[i].text), "b");
		while ((t = kmap_text_next(r, &o, &a)) > 0)
			;
		assert_int_equal(t, -1);
		assert_string_equal(kmap_text_error(r), bad[i].err);
		kmap_text_close(r);
	}
}

/*
 * The Memorizer fork's kmap: told apart by its first object line, its
 * fields where ours go (indices for jiffies, pid -1 as 0, found records
 * at their address, the special free_ips as a missed free), the 27 types
 * onto our kinds, caches from slabname.
 */
static void test_reader_fork(void **state)
{
	static const char ok[] =
		"ffffffff8130a1b2,412,ffff888003a1c000,64,0,57,ffffffff8130a2c0,KMALLOC,tar,kmalloc-64,\n"
		"  ffffffff8130a1f0,2,0,412\n"
		"  ffffffff81400010,0,5,-1\n"
		"18              ,9,ffffffff82a01000,8,44,0,0000000000000000,UFO_GLOBAL,a,b,c,no-slab,\n"
		"3               ,9,ffffc90000204ff0,8,45,0,0000000000000000,UFO_GLOBAL,sh,no-slab,\n"
		"0               ,0,0000000000000000,0,26,0,0000000000000000,NONE,swapper,no-slab,\n"
		"  from:ffffffff81a00000,1,2\n"
		"ffffffff81600000,0,ffff888004000000,8192,42,61,00000000deadbeef,ALLOC_PAGES_FOLIO,softirq,no-slab,KMALLOC\n"
		"0000000081800000,7,ffff888005000000,16384,47,70,000000000fedbeef,ALLOC_PAGES,kw,no-slab,KMEM_CACHE\n"
		"ffffffff81900000,7,ffff888005200000,12000,48,80,ffffffff81900100,KMALLOC_ND,kw,no-slab,\n"
		"5               ,0,ffff888003b20000,208,41,0,0000000000000000,UFO_HEAP,hardirq,filp,\n";
	/* Each of the 27 types, in the fork's order, and the kind it reads as. */
	static const struct {
		const char *type;
		int kind;
	} types[] = {
		{ "STACK", MEMORIZER_ALLOC_STACK },
		{ "STACK_FRAME", MEMORIZER_ALLOC_STACK },
		{ "STACK_ARGS", MEMORIZER_ALLOC_STACK },
		{ "STACK_PAGE", MEMORIZER_ALLOC_STACK },
		{ "GEN_HEAP", MEMORIZER_ALLOC_KMALLOC },
		{ "UFO_HEAP", MEMORIZER_ALLOC_KMALLOC },
		{ "GLOBAL", MEMORIZER_ALLOC_GLOBAL },
		{ "KMALLOC", MEMORIZER_ALLOC_KMALLOC_LARGE },
		{ "KMALLOC_ND", MEMORIZER_ALLOC_KMALLOC_LARGE },
		{ "KMEM_CACHE", MEMORIZER_ALLOC_CACHE },
		{ "KMEM_CACHE_ND", MEMORIZER_ALLOC_CACHE },
		{ "KMEM_CACHE_BULK", MEMORIZER_ALLOC_CACHE },
		{ "VMALLOC", MEMORIZER_ALLOC_VMALLOC },
		{ "ALLOC_PAGES", MEMORIZER_ALLOC_PAGES },
		{ "ALLOC_PAGES_EXACT", MEMORIZER_ALLOC_PAGES },
		{ "ALLOC_PAGES_GETFREEPAGES", MEMORIZER_ALLOC_PAGES },
		{ "ALLOC_PAGES_FOLIO", MEMORIZER_ALLOC_PAGES },
		{ "INDUCED_ALLOC", MEMORIZER_ALLOC_KMALLOC },
		{ "BOOTMEM", MEMORIZER_ALLOC_PAGES },
		{ "MEMBLOCK", MEMORIZER_ALLOC_PAGES },
		{ "UFO_MEMBLOCK", MEMORIZER_ALLOC_PAGES },
		{ "MEMORIZER", MEMORIZER_ALLOC_PAGES },
		{ "USER", MEMORIZER_ALLOC_PAGES },
		{ "BUG", MEMORIZER_ALLOC_GLOBAL },
		{ "UFO_GLOBAL", MEMORIZER_ALLOC_GLOBAL },
		{ "UFO_NONE", MEMORIZER_ALLOC_GLOBAL },
		{ "NONE", MEMORIZER_ALLOC_GLOBAL },
	};
	static const struct {
		const char *text, *err;
	} bad[] = {
		{ "ffffffff81000000,1,ffff888000001000,8,1,0,0000000000000000,KMALLOCX,sh,no-slab,\n",
		  "b:1: object line has more than 10 fields, not 8 (alloc_ip,pid,obj_va_ptr,size,alloc_jiffies,free_jiffies,free_ip,executable) or 10 (kmap_offsets: and kind,cache), nor the Memorizer fork's 11: its alloc_type 'KMALLOCX' is none of its 27 types" },
		{ "ffffffff81000000,1,ffff888000001000,8,1,0,0000000000000000,KMALLOC,sh,no-slab,\n"
		  "ffffffff81000000,1,ffff888000001000,8,1,0,0,sh\n",
		  "b:2: object line has 8 fields, not 11 (the Memorizer fork's: alloc_ip,pid,obj_va_ptr,size,alloc_index,free_index,free_ip,alloc_type,command,slabname,new_alloc_type)" },
		{ "ffffffff81000000,1,ffff888000001000,8,1,0,0,sh\n"
		  "ffffffff81000000,1,ffff888000001000,8,1,0,0000000000000000,KMALLOC,sh,no-slab,\n",
		  "b:2: object line has more than 10 fields, not 8 (alloc_ip,pid,obj_va_ptr,size,alloc_jiffies,free_jiffies,free_ip,executable) or 10 (kmap_offsets: and kind,cache)" },
		{ "ffffffff81000000,1,ffff888000001000,8,1,0,0,KMALLOC,sh,no-slab,\n",
		  "b:1: free_ip '0': not 16 hexadecimal digits (the fork's %p, zero-padded)" },
		{ "18,1,ffff888000001000,8,1,0,0000000000000000,KMALLOC,sh,no-slab,\n",
		  "b:1: alloc_ip '18': not 16 characters (the fork's %-p: hex digits, then spaces)" },
		{ "18    1         ,1,ffff888000001000,8,1,0,0000000000000000,KMALLOC,sh,no-slab,\n",
		  "b:1: alloc_ip '18    1         ': a space between digits" },
		{ "ffffffff81000000,1,FFFF888000001000,8,1,0,0000000000000000,KMALLOC,sh,no-slab,\n",
		  "b:1: obj_va_ptr 'FFFF888000001000': not lowercase hexadecimal" },
		{ "ffffffff81000000,1,ffff888000001000,8,1,2,00000000deadbeef,KMALLOC,sh,no-slab,\n",
		  "b:1: new_alloc_type '': empty, but free_ip marks a record closed by another allocation (deadbeef, fedbeef), whose type it names" },
		{ "ffffffff81000000,1,ffff888000001000,8,1,2,ffffffff81000100,KMALLOC,sh,no-slab,KMALLOC\n",
		  "b:1: new_alloc_type 'KMALLOC': set, but free_ip is neither 00000000deadbeef nor 000000000fedbeef (a record closed by another allocation)" },
		{ "ffffffff81000000,1,ffff888000001000,8,1,0,0000000000000000,KMALLOC,sh,,\n",
		  "b:1: slabname '': empty (the fork writes no-slab for none)" },
		{ "ffffffff81000000,1,ffff888000001000,8,1,0,0000000000000000,VMALLOC,sh,kmalloc-8,\n",
		  "b:1: slabname 'kmalloc-8': on a VMALLOC object (read as vmalloc: only heap objects are in a slab cache)" },
		{ "ffffffff81000000,1,ffff888000001000,8,1,0,0000000000000000,KMALLOC,sh,no-slab,\n"
		  "  ffffffff81000010,1,0\n",
		  "b:2: access line has 3 fields, not 4 (the Memorizer fork's: access_ip,write_count,read_count,access_pid)" },
		{ "ffffffff81000000,1,ffff888000001000,8,1,0,0000000000000000,KMALLOC,sh,no-slab,\n"
		  "  ffffffff81000010,1,0,-2\n",
		  "b:2: access_pid '-2': not an unsigned decimal number" },
		{ "ffffffff81000000,1,ffff888000001000,8,1,0,0000000000000000,KMALLOC,sh,no-slab,\n"
		  "  from:ffffffff81000010,1,0\n",
		  "b:2: from: access line under an object not of type NONE (the fork writes them under NONE objects only)" },
		{ "0               ,0,0000000000000000,0,26,0,0000000000000000,NONE,swapper,no-slab,\n"
		  "  ffffffff81000010,1,0,-1\n",
		  "b:2: access line under a NONE object without from: (the fork writes from:access_ip,write_count,read_count there)" },
		{ "ffffffff81000000,1,ffff888000001000,8,1,0,0000000000000000,KMALLOC,,no-slab,\n",
		  "b:1: command '': empty" },
	};
	struct kmap_text_reader *r;
	struct kmap_object o;
	struct kmap_access a;
	char line[KMAP_LINE_MAX], err[KMAP_ERR_MAX];
	size_t i;

	(void)state;
	r = kmap_text_open_mem(ok, strlen(ok), "ok");
	assert_int_equal(kmap_text_fork(r), -1);
	assert_int_equal(kmap_text_next(r, &o, &a), KMAP_LINE_OBJECT);
	assert_int_equal(kmap_text_fork(r), 1);
	assert_int_equal(kmap_text_offsets(r), 0);
	assert_int_equal(o.alloc_ip, 0xffffffff8130a1b2ull);
	assert_int_equal(o.pid, 412);
	assert_int_equal(o.addr, 0xffff888003a1c000ull);
	assert_int_equal(o.size, 64);
	assert_int_equal(o.alloc_jiffies, 0);	/* the first index */
	assert_int_equal(o.free_jiffies, 57);
	assert_int_equal(o.free_ip, 0xffffffff8130a2c0ull);
	assert_string_equal(o.comm, "tar");
	assert_int_equal(o.has, KMAP_HAS_KIND | KMAP_HAS_CACHE | KMAP_HAS_FORK);
	assert_int_equal(o.kind, MEMORIZER_ALLOC_KMALLOC);
	assert_int_equal(o.context, MEMORIZER_CONTEXT_TASK);
	assert_string_equal(o.cache, "kmalloc-64");
	assert_int_equal(o.cache_id, 1);
	assert_int_equal(kmap_text_next(r, &o, &a), KMAP_LINE_ACCESS);
	assert_int_equal(a.ip, 0xffffffff8130a1f0ull);
	assert_int_equal(a.writes, 2);
	assert_int_equal(a.reads, 0);
	assert_int_equal(a.pid, 412);
	assert_int_equal(a.offset | a.offset_end, 0);
	assert_int_equal(kmap_text_next(r, &o, &a), KMAP_LINE_ACCESS);
	assert_int_equal(a.ip, 0xffffffff81400010ull);
	assert_int_equal(a.writes, 0);
	assert_int_equal(a.reads, 5);
	assert_int_equal(a.pid, 0);		/* -1: outside task context */
	/* A global found at an access: its address, the comm's comma '?'. */
	assert_int_equal(kmap_text_next(r, &o, &a), KMAP_LINE_OBJECT);
	assert_int_equal(o.alloc_ip, 0xffffffff82a01000ull);
	assert_int_equal(o.kind, MEMORIZER_ALLOC_GLOBAL);
	assert_int_equal(o.context, MEMORIZER_CONTEXT_FOUND);
	assert_string_equal(o.comm, "a?b?c");
	assert_int_equal(o.has, KMAP_HAS_KIND | KMAP_HAS_FORK);
	assert_true(kmap_object_found(&o));
	/* UFO_GLOBAL with STACK_PAGE's number as alloc_ip: a stack. */
	assert_int_equal(kmap_text_next(r, &o, &a), KMAP_LINE_OBJECT);
	assert_int_equal(o.alloc_ip, 0xffffc90000204ff0ull);
	assert_int_equal(o.kind, MEMORIZER_ALLOC_STACK);
	assert_int_equal(o.context, MEMORIZER_CONTEXT_FOUND);
	/* A catch-all record, valid under the rules. */
	assert_int_equal(kmap_text_next(r, &o, &a), KMAP_LINE_OBJECT);
	assert_int_equal(o.alloc_ip | o.addr | o.size, 0);
	assert_int_equal(o.alloc_jiffies, 26);
	assert_int_equal(kmap_rule_object(&o, err), KMAP_RULE_OK);
	assert_int_equal(kmap_text_next(r, &o, &a), KMAP_LINE_ACCESS);
	assert_int_equal(a.ip, 0xffffffff81a00000ull);
	assert_int_equal(a.writes, 1);
	assert_int_equal(a.reads, 2);
	assert_int_equal(a.pid, 0);
	/* deadbeef and fedbeef: a missed free, either. */
	assert_int_equal(kmap_text_next(r, &o, &a), KMAP_LINE_OBJECT);
	assert_int_equal(o.free_ip, KMAP_FREE_IP_MISSED);
	assert_int_equal(o.free_jiffies, 61);
	assert_int_equal(o.kind, MEMORIZER_ALLOC_PAGES);
	assert_int_equal(o.context, MEMORIZER_CONTEXT_SOFTIRQ);
	assert_int_equal(kmap_rule_object(&o, err), KMAP_RULE_OK);
	assert_int_equal(kmap_text_next(r, &o, &a), KMAP_LINE_OBJECT);
	assert_int_equal(o.alloc_ip, 0x81800000ull);	/* zero-padded %-p */
	assert_int_equal(o.free_ip, KMAP_FREE_IP_MISSED);
	assert_true(kmap_object_freed(&o));
	/* kmalloc() of no slab: from pages. */
	assert_int_equal(kmap_text_next(r, &o, &a), KMAP_LINE_OBJECT);
	assert_int_equal(o.kind, MEMORIZER_ALLOC_KMALLOC_LARGE);
	assert_int_equal(o.has, KMAP_HAS_KIND | KMAP_HAS_FORK);
	/* A slab object found at an access: its cache says kmem_cache. */
	assert_int_equal(kmap_text_next(r, &o, &a), KMAP_LINE_OBJECT);
	assert_int_equal(o.kind, MEMORIZER_ALLOC_CACHE);
	assert_string_equal(o.cache, "filp");
	assert_int_equal(o.cache_id, 2);
	assert_int_equal(o.context, MEMORIZER_CONTEXT_FOUND);
	assert_int_equal(kmap_text_next(r, &o, &a), 0);
	kmap_text_close(r);

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		int n = snprintf(line, sizeof(line),
				 "ffffffff81000000,1,ffff888000001000,8,1,0,0000000000000000,%s,sh,no-slab,\n",
				 types[i].type);

		r = kmap_text_open_mem(line, (size_t)n, "t");
		assert_int_equal(kmap_text_next(r, &o, &a), KMAP_LINE_OBJECT);
		assert_int_equal(o.kind, types[i].kind);
		kmap_text_close(r);
	}

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int t;

		r = kmap_text_open_mem(bad[i].text, strlen(bad[i].text), "b");
		while ((t = kmap_text_next(r, &o, &a)) > 0)
			;
		assert_int_equal(t, -1);
		assert_string_equal(kmap_text_error(r), bad[i].err);
		kmap_text_close(r);
	}

	/* The rules: free_ip without free_index; ours' found conventions not. */
	r = kmap_text_open_mem(ok, strlen(ok), "ok");
	assert_int_equal(kmap_text_next(r, &o, &a), KMAP_LINE_OBJECT);
	o.free_jiffies = 0;
	assert_int_equal(kmap_rule_object(&o, err), KMAP_RULE_ERROR);
	assert_string_equal(err, "freed (free_ip ffffffff8130a2c0) at free_index 0 (the fork's free_index is 0 only while live)");
	o.has &= ~(unsigned int)KMAP_HAS_FORK;
	o.alloc_ip = 0;
	assert_int_equal(kmap_rule_object(&o, err), KMAP_RULE_ERROR);
	assert_string_equal(err, "alloc_ip is 0");
	kmap_text_close(r);
}

/*
 * The fork's access lines through kmap_src: in no order, (ip, pid)
 * repeated (pid -1 and the idle task's 0), merged and sorted.
 */
static void test_src_fork_merge(void **state)
{
	static const char text[] =
		"ffffffff81500100,412,ffff888003b20000,208,41,0,0000000000000000,KMEM_CACHE,tar,filp,\n"
		"  ffffffff81500200,1,4,412\n"
		"  ffffffff81500200,0,2,0\n"
		"  ffffffff81500100,0,1,-1\n"
		"  ffffffff81500200,0,1,-1\n";
	const struct kmap_object *o;
	const struct kmap_access *acc;
	char err[KMAP_ERR_MAX];
	struct kmap_src *src;
	size_t n;
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	(void)state;
	assert_non_null(f);
	src = kmap_src_open_file(f, "f", err);
	assert_non_null(src);
	assert_int_equal(kmap_src_next(src, &o, &acc, &n), 1);
	assert_int_equal(o->kind, MEMORIZER_ALLOC_CACHE);
	assert_int_equal(n, 3);
	assert_int_equal(acc[0].ip, 0xffffffff81500100ull);
	assert_int_equal(acc[1].ip, 0xffffffff81500200ull);
	assert_int_equal(acc[1].pid, 0);
	assert_int_equal(acc[1].reads, 3);
	assert_int_equal(acc[2].pid, 412);
	assert_int_equal(acc[2].writes, 1);
	assert_int_equal(kmap_src_next(src, &o, &acc, &n), 0);
	kmap_src_close(src);
	fclose(f);
}

/*
 * kmap_offsets' object lines of 10 fields through the reader's fast path
 * (a line with KMAP_LINE_MAX bytes after it, a 10-field line before it):
 * the lines kmap_parse_line() takes, with the same fields, the cache named
 * as the slow path names it (a name new to the reader goes the slow way);
 * every other line left to it.
 */
static void test_reader_kinds_fast(void **state)
{
	static const char head[] =
		"ffffffff81000000,1,ffff888000001000,8,100,0,0,sh,kmalloc,kmalloc-8\n";
	static const char *const lines[] = {
		"ffffffff81000000,1,ffff888000002000,8,100,0,0,sh,kmalloc,kmalloc-8",
		"ffffffff81000000,1,ffff888000002000,8,100,0,0,sh,kmem_cache,dentry",
		"ffffffff81000000,1,ffff888000002000,8,100,0,0,sh,vmalloc,",
		"ffffffff81000000,0,ffff888000002000,8,100,0,0,hardirq,kmalloc_large,",
		"ffff888000002000,0,ffff888000002000,8,100,0,0,unseen,kmalloc,kmalloc-8",
		"ffff888000002000,0,ffff888000002000,8,100,0,0,page,pages,",
		"ffffffff81000000,1,ffff888000002000,8,100,0,0,"
		"123456789012345678901234567890123456789012345678901234567890123,stack,",
		"ffffffff81000000,1,ffff888000002000,8,100,0,0,"
		"1234567890123456789012345678901234567890123456789012345678901234,stack,",
		"ffffffff81000000,1,ffff888000002000,8,100,0,0,sh,kmalloc,"
		"12345678901234567890123456789012",
		"ffffffff81000000,1,ffff888000002000,8,100,0,0,sh,kmalloc,"
		"123456789012345678901234567890123",
		"ffffffff81000000,1,ffff888000002000,8,100,0,0,sh,kmalloc,a\x7f",
		"ffffffff81000000,1,ffff888000002000,8,100,0,0,sh,kmalloc,\x80\xff",
		"ffffffff81000000,1,ffff888000002000,8,100,0,0,s\x1f,kmalloc,",
		"ffffffff81000000,1,ffff888000002000,8,100,0,0,,kmalloc,",
		"ffffffff81000000,1,ffff888000002000,8,100,0,0,sh,,",
		"ffffffff81000000,1,ffff888000002000,8,100,0,0,sh,kmalloc_largest,",
		"ffffffff81000000,1,ffff888000002000,8,100,0,0,sh,kmalloc_large",
		"ffffffff81000000,1,ffff888000002000,8,100,0,0,sh,pages,x",
		"ffffffff81000000,1,ffff888000002000,8,100,0,0,sh,kmalloc,a,b",
		"ffffffff81000000,1,ffff888000002000,8,100,0,0,sh",
		"ffffffff81000000,4194304,ffff888000002000,8,100,0,0,sh,kmalloc,",
	};
	struct kmap_object o, o2;
	struct kmap_access a, a2;
	char buf[2048], err[KMAP_ERR_MAX];
	size_t i, n;

	(void)state;
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		struct kmap_text_reader *r;
		int t, t2;

		n = (size_t)snprintf(buf, sizeof(buf), "%s%s\n", head, lines[i]);
		while (n < sizeof(buf) - 40)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n,
					      "  ffffffff81000020,1,0,1,0,8\n");
		r = kmap_text_open_mem(buf, n, "t");
		assert_int_equal(kmap_text_next(r, &o, &a), KMAP_LINE_OBJECT);
		t = kmap_text_next(r, &o, &a);
		t2 = kmap_parse_line(lines[i], strlen(lines[i]), &o2, &a2, err);
		/* An 8-field line after a 10-field one: the reader's error. */
		if (i == 19)
			assert_int_equal(t, -1);
		else
			assert_int_equal(t < 0 ? 0 : t, t2);
		if (t == KMAP_LINE_OBJECT) {
			assert_true(o.alloc_ip == o2.alloc_ip && o.addr == o2.addr &&
				    o.pid == o2.pid && o.size == o2.size &&
				    o.free_ip == o2.free_ip);
			assert_string_equal(o.comm, o2.comm);
			assert_int_equal(o.kind, o2.kind);
			assert_int_equal(o.context, o2.context);
			assert_int_equal(o.has & ~(unsigned int)KMAP_HAS_CACHE, o2.has);
			assert_string_equal(o.cache ? o.cache : "",
					    strrchr(lines[i], ',') + 1);
			assert_int_equal(!o.cache_id, !o.cache);
		}
		kmap_text_close(r);
	}
	/* Many lines, through the fast path, names interned once each. */
	n = 0;
	for (i = 0; i < 30; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n,
				      "1,1,%zx000,8,100,0,0,sh,kmem_cache,c%zu\n",
				      i + 1, i % 3);
	{
		struct kmap_text_reader *r = kmap_text_open_mem(buf, n, "m");

		for (i = 0; i < 30; i++) {
			char name[8];

			snprintf(name, sizeof(name), "c%zu", i % 3);
			assert_int_equal(kmap_text_next(r, &o, &a), KMAP_LINE_OBJECT);
			assert_true(o.addr == (i + 1) << 12);
			assert_string_equal(o.cache, name);
			assert_int_equal(o.cache_id, i % 3 + 1);
		}
		assert_int_equal(kmap_text_next(r, &o, &a), 0);
		kmap_text_close(r);
	}
}

/*
 * The rules of an object whose line names its kind: found as its kind
 * may be, pid 0 but for a task's stack, its kind's word.
 */
static void test_rules_kinds(void **state)
{
	static const struct {
		const char *line, *err;
	} lines[] = {
		{ "ffffffff81000000,1,ffff888000001000,8,100,0,0,sh,kmalloc,kmalloc-8", NULL },
		{ "ffff888000001000,0,ffff888000001000,8,100,0,0,unseen,kmalloc,kmalloc-8", NULL },
		{ "ffff888000001000,0,ffff888000001000,8,100,0,0,unseen,kmem_cache,", NULL },
		{ "ffffc90000340000,146,ffffc90000340000,16384,1,0,0,tar,stack,", NULL },
		{ "ffffc90000000000,0,ffffc90000000000,16384,1,0,0,irq_stack,stack,", NULL },
		{ "ffffffff82a01000,0,ffffffff82a01000,64,1,9,ffffffffa0001000,global,global,", NULL },
		{ "ffffffff81000000,0,ffff888000001000,8,100,0,0,softirq,kmalloc_large,", NULL },
		{ "ffffffff81000000,1,ffffffff82a01000,64,1,0,0,sh,global,",
		  "global object ffffffff82a01000 with alloc_ip ffffffff81000000: the allocation of global objects is never seen, their alloc_ip is their own address" },
		{ "ffffffff81000000,1,ffff888000001000,8,1,0,0,sh,percpu,",
		  "percpu object ffff888000001000 with alloc_ip ffffffff81000000: the allocation of percpu objects is never seen, their alloc_ip is their own address" },
		{ "ffffc90000100000,0,ffffc90000100000,8,1,0,0,unseen,vmalloc,",
		  "vmalloc object ffffc90000100000 with its own address as alloc_ip (found): vmalloc objects are never found, their allocation is always seen" },
		{ "ffff888000001000,7,ffff888000001000,8,1,0,0,sh,pages,",
		  "found pages object with pid 7 (no allocation was seen: pid is 0, but for a task's stack)" },
		{ "ffff888000001000,0,ffff888000001000,8,1,0,0,global,pages,",
		  "found pages object with executable global (pid 0: a found pages object's executable is page)" },
		{ "ffffc90000008000,0,ffffc90000008000,16384,1,0,0,swapper/1,stack,", NULL },
		{ "ffffc90000000000,0,ffffc90000000000,16384,1,0,0,sh,stack,",
		  "found stack object with executable sh (pid 0: a found stack object's executable is irq_stack, or swapper/CPU for an idle task's)" },
		/* The rules of every text object come first. */
		{ "ffffffff81000000,3,ffff888000001000,8,1,0,0,hardirq,kmalloc,",
		  "hardirq allocation with pid 3 (interrupt context has pid 0)" },
	};
	struct kmap_object o;
	struct kmap_access a;
	char err[KMAP_ERR_MAX];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		assert_int_equal(parse(lines[i].line, &o, &a, err),
				 KMAP_LINE_OBJECT);
		err[0] = 0;
		assert_int_equal(kmap_rule_object(&o, err),
				 lines[i].err ? KMAP_RULE_ERROR : KMAP_RULE_OK);
		assert_string_equal(err, lines[i].err ? lines[i].err : "");
	}
}

/* kmap_offsets' object line, as the kernel writes it. */
static void test_writer_kinds(void **state)
{
	struct kmap_object o = {
		.alloc_ip = 0xffffffff812a4e74ull, .pid = 146,
		.addr = 0xffff8880085d7e80ull, .size = 24,
		.alloc_jiffies = 1000, .comm = "tar",
	};
	char line[KMAP_LINE_MAX];
	size_t n;

	(void)state;
	/* No kind known: the kmap's line. */
	n = kmap_format_object_offsets(line, &o);
	assert_int_equal(n, strlen("ffffffff812a4e74,146,ffff8880085d7e80,24,1000,0,0,tar\n"));
	assert_memory_equal(line, "ffffffff812a4e74,146,ffff8880085d7e80,24,1000,0,0,tar\n", n);
	o.has = KMAP_HAS_KIND | KMAP_HAS_CACHE;
	o.kind = MEMORIZER_ALLOC_CACHE;
	o.cache_id = 3;
	o.cache = "my,cache\n";
	n = kmap_format_object_offsets(line, &o);
	assert_memory_equal(line, "ffffffff812a4e74,146,ffff8880085d7e80,24,1000,0,0,tar,kmem_cache,my?cache?\n", n);
	/* A cache id whose name no CACHE record gave: empty, as the kernel's. */
	o.cache = NULL;
	n = kmap_format_object_offsets(line, &o);
	assert_memory_equal(line, "ffffffff812a4e74,146,ffff8880085d7e80,24,1000,0,0,tar,kmem_cache,\n", n);
	o.has = KMAP_HAS_KIND;
	o.kind = MEMORIZER_ALLOC_KMALLOC_LARGE;
	n = kmap_format_object_offsets(line, &o);
	assert_memory_equal(line, "ffffffff812a4e74,146,ffff8880085d7e80,24,1000,0,0,tar,kmalloc_large,\n", n);
	/* kmap's writer never writes them. */
	n = kmap_format_object(line, &o);
	assert_memory_equal(line, "ffffffff812a4e74,146,ffff8880085d7e80,24,1000,0,0,tar\n", n);
}

static void test_parse_live_and_zero(void **state)
{
	struct kmap_object o;
	struct kmap_access a;
	char err[KMAP_ERR_MAX];

	(void)state;
	assert_int_equal(parse("1,0,0,0,0,0,0,softirq", &o, &a, err), KMAP_LINE_OBJECT);
	assert_false(kmap_object_freed(&o));
	assert_string_equal(o.comm, "softirq");
}

/* Every bad line is rejected, with the field named. */
static void test_parse_rejects(void **state)
{
	static const struct {
		const char *line, *want;
	} bad[] = {
		{ "", "empty line" },
		{ "FFFFFFFF812a4e74,1,1,1,1,0,0,x", "alloc_ip 'FFFFFFFF812a4e74': not lowercase" },
		{ "0x12,1,1,1,1,0,0,x", "alloc_ip '0x12': leading zero" },
		{ "012,1,1,1,1,0,0,x", "alloc_ip '012': leading zero" },
		{ "12345678901234567,1,1,1,1,0,0,x", "alloc_ip '12345678901234567': more than 64 bits" },
		{ "1,01,1,1,1,0,0,x", "pid '01': leading zero" },
		{ "1,-1,1,1,1,0,0,x", "pid '-1': not an unsigned decimal" },
		{ "1,4194304,1,1,1,0,0,x", "pid '4194304': above the kernel's pid limit" },
		{ "1,1,1,18446744073709551616,1,0,0,x", "size '18446744073709551616': more than 64 bits" },
		{ "1,1,1,1,1,0,0,", "executable '': empty" },
		{ "1,1,1,1,1,0,0,a\tb", "executable 'a\\x09b': control character" },
		{ "1,1,1,1,1,0,0,a,b", "object line has 9 fields" },
		{ "1,1,1,1,1,0,0,a,kmalloc,b,c", "object line has more than 10 fields" },
		{ "1,1,1,1,1,0,0", "object line has 7 fields" },
		{ "1,1,,1,1,0,0,x", "obj_va_ptr '': empty" },
		{ " 1,1,1,1", "not indented by exactly two spaces" },
		{ "   1,1,1,1", "not indented by exactly two spaces" },
		{ "  1,1,1", "access line has 3 fields" },
		{ "  1,1,1,1,1", "access line has 5 fields, not 4 (access_ip,access_pid,write_count,read_count) or 6" },
		{ "  1,1,1,1,1,1,1", "access line has more than 6 fields" },
		{ "  1,1,1,1,01,2", "offset '01': leading zero" },
		{ "  1,1,1,1,1,4294967296", "offset_end '4294967296': more than 32 bits" },
		{ "  1,1,1,1,1,", "offset_end '': empty" },
		{ "  1,1,1,1,-1,2", "offset '-1': not an unsigned decimal" },
		{ "  1,1,1,1 ", "read_count '1 ': not an unsigned decimal" },
		{ "  1,1,1,1\r", "read_count '1\\x0d'" },
		{ "1,1,1,1,1,0,0,0123456789012345678901234567890123456789012345678901234567890123",
		  "executable" },
	};
	struct kmap_object o;
	struct kmap_access a;
	char err[KMAP_ERR_MAX];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		if (parse(bad[i].line, &o, &a, err) != 0 || !strstr(err, bad[i].want))
			fail_msg("line '%s': got '%s', want '%s'", bad[i].line,
				 err, bad[i].want);
	}
}

/* Text: the reader over a whole input. */

/* kmap_parse_hex: 1 to 16 digits of either case, nothing else. */
static void test_parse_hex(void **state)
{
	static const char *const bad[] = {
		"", "-5", "0x1", "x1", "1 ", " 1", "12345678901234567", "g",
		"0x-1", "+1",
	};
	uint64_t v;
	size_t i;

	(void)state;
	assert_int_equal(kmap_parse_hex("0", 1, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(kmap_parse_hex("FfFfFfFf812A4e74", 16, &v), 0);
	assert_int_equal(v, 0xffffffff812a4e74ull);
	assert_int_equal(kmap_parse_hex("0001", 4, &v), 0);
	assert_int_equal(v, 1);
	/* len bounds the digits: "12" of "123". */
	assert_int_equal(kmap_parse_hex("123", 2, &v), 0);
	assert_int_equal(v, 0x12);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = 7;
		assert_int_equal(kmap_parse_hex(bad[i], strlen(bad[i]), &v), -1);
		assert_int_equal(v, 7);
	}
}

/* kmap_fopen: a directory is refused by name, not read as "line 0". */
static void test_parse_dec(void **state)
{
	static const char *const bad[] = {
		"", "-5", "+1", "1 ", " 1", "1a", "18446744073709551616",
		"99999999999999999999",
	};
	uint64_t v;
	size_t i;

	(void)state;
	assert_int_equal(kmap_parse_dec("0", 1, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(kmap_parse_dec("18446744073709551615", 20, &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(kmap_parse_dec("007", 3, &v), 0);
	assert_int_equal(v, 7);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = 7;
		assert_int_equal(kmap_parse_dec(bad[i], strlen(bad[i]), &v), -1);
		assert_int_equal(v, 7);
	}
}

/* One growth helper, one interning helper, for every array. */
/* Counts summed stop at UINT64_MAX: kmap_add_sat() and merges through it. */
static void test_add_sat(void **state)
{
	struct kmap_access a = { .ip = 1, .writes = UINT64_MAX, .reads = 5 };
	const struct kmap_access b = { .ip = 1, .writes = UINT64_MAX,
				       .reads = UINT64_MAX - 5 };

	(void)state;
	assert_true(kmap_add_sat(0, 0) == 0);
	assert_true(kmap_add_sat(2, 3) == 5);
	assert_true(kmap_add_sat(UINT64_MAX - 1, 1) == UINT64_MAX);
	assert_true(kmap_add_sat(UINT64_MAX, UINT64_MAX) == UINT64_MAX);
	assert_true(kmap_add_sat(UINT64_MAX - 1, 2) == UINT64_MAX);
	assert_true(kmap_add_sat(1, UINT64_MAX) == UINT64_MAX);
	kmap_access_merge(&a, &b);
	assert_true(a.writes == UINT64_MAX);
	assert_true(a.reads == UINT64_MAX);
	kmap_access_merge(&a, &b);
	assert_true(a.reads == UINT64_MAX);
}

static void test_grow_intern(void **state)
{
	uint32_t *a = NULL;
	size_t cap = 0, n = 0, i, idx;
	struct kmap_map m;
	int is_new;

	(void)state;
	assert_int_equal(kmap_grow((void **)&a, &cap, 1, sizeof(*a)), 0);
	assert_int_equal(cap, 4);
	assert_int_equal(kmap_grow((void **)&a, &cap, 5, sizeof(*a)), 0);
	assert_int_equal(cap, 8);
	assert_int_equal(kmap_grow((void **)&a, &cap, 3, sizeof(*a)), 0);
	assert_int_equal(cap, 8);
	/* No overflow of n * size: refused, the array unchanged. */
	assert_int_equal(kmap_grow((void **)&a, &cap, SIZE_MAX / 2, sizeof(*a)), -1);
	assert_int_equal(cap, 8);
	free(a);
	a = NULL;
	cap = 0;
	assert_int_equal(kmap_grow((void **)&a, &cap, SIZE_MAX / 2, sizeof(*a)), -1);
	assert_null(a);
	kmap_map_init(&m);
	for (i = 0; i < 1000; i++) {
		assert_int_equal(kmap_intern(&m, i * 7919, (void **)&a, &n, &cap,
					     sizeof(*a), &idx, &is_new), 0);
		assert_true(is_new);
		assert_int_equal(idx, i);
		a[idx] = (uint32_t)i;
	}
	for (i = 0; i < 1000; i++) {
		assert_int_equal(kmap_intern(&m, i * 7919, (void **)&a, &n, &cap,
					     sizeof(*a), &idx, &is_new), 0);
		assert_false(is_new);
		assert_int_equal(a[idx], i);
	}
	assert_int_equal(n, 1000);
	kmap_map_free(&m);
	free(a);
}

/*
 * line (no newline) read by the reader's fast path (an object line
 * before it, KMAP_LINE_MAX bytes after it) into *o or *a, and by
 * kmap_parse_line() into *o2 or *a2: the same type (0 for neither), which
 * it returns.
 */
static int fast_and_slow(const char *line, struct kmap_object *o,
			 struct kmap_access *a, struct kmap_object *o2,
			 struct kmap_access *a2)
{
	static const char head[] = "ffffffff81000000,1,ffff888000001000,8,100,0,0,sh\n";
	char buf[2048], err[KMAP_ERR_MAX];
	struct kmap_text_reader *r;
	size_t n;
	int t, t2;

	n = (size_t)snprintf(buf, sizeof(buf), "%s%s\n", head, line);
	while (n < sizeof(buf) - 32)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n,
				      "  ffffffff81000020,1,0,1\n");
	r = kmap_text_open_mem(buf, n, "t");
	assert_int_equal(kmap_text_next(r, o, a), KMAP_LINE_OBJECT);
	t = kmap_text_next(r, o, a);
	t2 = kmap_parse_line(line, strlen(line), o2, a2, err);
	assert_int_equal(t < 0 ? 0 : t, t2);
	kmap_text_close(r);
	return t2;
}

/*
 * The reader's fast path (a line with KMAP_LINE_MAX bytes after it) takes
 * exactly what kmap_parse_line() takes, with the same fields, and leaves
 * every other line to it.
 */
static void test_reader_fast_path(void **state)
{
	static const char *const lines[] = {
		"ffffffff81000000,1,ffff888000001000,8,100,0,0,sh",
		"ffffffff81000000,4194303,ffff888000001000,8,100,0,0,kworker/0:1",
		"ffffffff81000000,4194304,ffff888000001000,8,100,0,0,sh",
		"ffffffffffffffff,0,0,18446744073709551615,1,2,deadbeef,x",
		"ffffffffffffffff,0,0,18446744073709551616,1,2,deadbeef,x",
		"ffffffffffffffff,0,0,9999999999999999999,1,2,deadbeef,x",
		"1ffffffffffffffff,0,0,1,1,2,deadbeef,x",
		"0ffffffff,0,0,1,1,2,deadbeef,x",
		"ffffffff81000000,01,ffff888000001000,8,100,0,0,sh",
		"fFffffff81000000,1,ffff888000001000,8,100,0,0,sh",
		"ffffffff81000000,1,ffff888000001000,8,100,0,0,",
		"ffffffff81000000,1,ffff888000001000,8,100,0,0,a,b",
		"ffffffff81000000,1,ffff888000001000,8,100,0,0,caf\xc3\xa9",
		"ffffffff81000000,1,ffff888000001000,8,100,0,0,a\x7f",
		/* A comm about 16 bytes (fast_comm()'s window), a control byte. */
		"ffffffff81000000,1,ffff888000001000,8,100,0,0,123456789012345",
		"ffffffff81000000,1,ffff888000001000,8,100,0,0,1234567890123456",
		"ffffffff81000000,1,ffff888000001000,8,100,0,0,12345678901234567",
		"ffffffff81000000,1,ffff888000001000,8,100,0,0,a\tb",
		"ffffffff81000000,1,ffff888000001000,8,100,0,0,a\x1f",
		"ffffffff81000000,1,ffff888000001000,8,100,0,0,\x80\x9f\xa0\xff",
		"ffffffff81000000,1,ffff888000001000,8,100,0,0,"
		"123456789012345678901234567890123456789012345678901234567890123",
		"ffffffff81000000,1,ffff888000001000,8,100,0,0,"
		"1234567890123456789012345678901234567890123456789012345678901234",
		"ffffffff81000000,1,ffff888000001000,8,100,0",
		"  ffffffff81000010,1,0,1",
		"  ffffffff81000010,1,0,18446744073709551615",
		/* Decimal fields: 19 digits, 20, "0" alone, leading zeros. */
		"  ffffffff81000010,1,9999999999999999999,0",
		"  ffffffff81000010,1,99999999999999999999,0",
		"  ffffffff81000010,1,0,00",
		"  ffffffff81000010,1,00,1",
		"  ffffffff81000010,1,01,1",
		"  ffffffff81000010,0,1,1",
		"  ffffffff81000010,1,1,1,0,10",
		"  ffffffff81000010,1,1,1,0,4294967295",
		"  ffffffff81000010,1,1,1,0,4294967296",
		"  ffffffff81000010,1,0,",
		"  ffffffff81000010,1,0,1,2",
		"   ffffffff81000010,1,0,1",
		" ffffffff81000010,1,0,1",
		"  ffffffff81000010,4194304,0,1",
		"  ,1,0,1",
		"",
		/* 16 digits: each byte just outside 0-9 and a-f refused. */
		"ffffffff8100:000,1,ffff888000001000,8,100,0,0,sh",
		"ffffffff8100/000,1,ffff888000001000,8,100,0,0,sh",
		"ffffffff8100`000,1,ffff888000001000,8,100,0,0,sh",
		"ffffffff8100g000,1,ffff888000001000,8,100,0,0,sh",
		"ffffffff8100G000,1,ffff888000001000,8,100,0,0,sh",
		"ffffffff8100\xb0" "000,1,ffff888000001000,8,100,0,0,sh",
		"ffffffff81000000,1,ffff888000001000,8,100,0,ffffffff8100000f,sh",
		"ffffffff81000000,1,ffff888000001000,8,100,0,0fffffff8100000f,sh",
		"0123456789abcdef,1,fedcba9876543210,8,100,0,0,sh",
		"123456789abcdef0,1,fedcba9876543210,8,100,0,0,sh",
		"  123456789abcdef0,1,0,1",
		"  123456789abcdef0a,1,0,1",
	};
	struct kmap_object o, o2;
	struct kmap_access a, a2;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		int t = fast_and_slow(lines[i], &o, &a, &o2, &a2);

		if (!strncmp(lines[i], "123456789abcdef0,", 17))
			assert_true(o.alloc_ip == 0x123456789abcdef0ull &&
				    o.addr == 0xfedcba9876543210ull);
		if (t == KMAP_LINE_OBJECT) {
			assert_true(o.alloc_ip == o2.alloc_ip && o.pid == o2.pid &&
				    o.addr == o2.addr && o.size == o2.size &&
				    o.alloc_jiffies == o2.alloc_jiffies &&
				    o.free_jiffies == o2.free_jiffies &&
				    o.free_ip == o2.free_ip && o.has == o2.has);
			assert_string_equal(o.comm, o2.comm);
		} else if (t == KMAP_LINE_ACCESS) {
			assert_true(a.ip == a2.ip && a.pid == a2.pid &&
				    a.reads == a2.reads && a.writes == a2.writes);
		}
	}
}

/*
 * Every byte (but the newline) in a 16-digit hex field, at its first and
 * its last digit: the fast path takes the line when kmap_parse_line()
 * does, with the same value.
 */
static void test_reader_hex_bytes(void **state)
{
	char line[64];
	struct kmap_object o, o2;
	struct kmap_access a, a2;
	int b, at;

	(void)state;
	for (at = 0; at < 2; at++)
		for (b = 1; b < 256; b++) {
			if (b == '\n')
				continue;
			snprintf(line, sizeof(line), "  ffffffff81000010,1,0,1");
			line[at ? 17 : 2] = (char)b;
			if (fast_and_slow(line, &o, &a, &o2, &a2) ==
			    KMAP_LINE_ACCESS)
				assert_true(a.ip == a2.ip);
		}
}

/* The bytes the tee was given, gathered. */
struct tee_buf {
	char buf[8192];
	size_t len;
	unsigned int calls;
};

static void tee_gather(void *ctx, const char *line, size_t len)
{
	struct tee_buf *t = ctx;

	assert_true(t->len + len <= sizeof(t->buf));
	memcpy(t->buf + t->len, line, len);
	t->len += len;
	t->calls++;
}

/*
 * kmap_text_accesses(): the access lines kmap_text_next() would return,
 * as many as fit, none past a line it must judge (here one not well
 * formed, and an object line), the tee given them all as one run.
 */
static void test_reader_accesses(void **state)
{
	char buf[4096], err[KMAP_ERR_MAX];
	struct kmap_text_reader *r, *r2;
	struct kmap_access acc[64], a2;
	struct kmap_object o;
	struct tee_buf tee = { .len = 0 };
	size_t n = 0, got, i, total = 0;

	(void)state;
	n += (size_t)snprintf(buf + n, sizeof(buf) - n,
			      "ffffffff81000000,1,ffff888000001000,8,100,0,0,sh\n");
	for (i = 0; i < 20; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n,
				      "  ffffffff81%06zx,%zu,%zu,%zu\n", i * 97,
				      i * 1000, i, i == 7 ? 1 : i * 12345);
	/* The slow path's: not well formed (a leading zero). */
	n += (size_t)snprintf(buf + n, sizeof(buf) - n,
			      "  ffffffff81000001,1,01,1\n");
	while (n < sizeof(buf) - 128)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n,
				      "ffffffff81000000,2,ffff888000002000,8,100,0,0,sh\n");
	r = kmap_text_open_mem(buf, n, "t");
	r2 = kmap_text_open_mem(buf, n, "t");
	kmap_text_tee(r, tee_gather, &tee);
	/* None before the first object line. */
	assert_int_equal(kmap_text_accesses(r, acc, 64), 0);
	assert_int_equal(kmap_text_next(r, &o, &acc[0]), KMAP_LINE_OBJECT);
	assert_int_equal(kmap_text_next(r2, &o, &a2), KMAP_LINE_OBJECT);
	/* The first access line sets the kind (4 fields): kmap_text_next's. */
	assert_int_equal(kmap_text_accesses(r, acc, 64), 0);
	assert_int_equal(kmap_text_next(r, &o, &acc[0]), KMAP_LINE_ACCESS);
	total = 1;
	got = kmap_text_accesses(r, acc + total, 5);
	assert_int_equal(got, 5);
	total += got;
	assert_int_equal(kmap_text_line(r), 1 + total);
	got = kmap_text_accesses(r, acc + total, 64 - total);
	assert_int_equal(got, 14);
	total += got;
	assert_int_equal(kmap_text_line(r), 21);
	for (i = 0; i < total; i++) {
		assert_int_equal(kmap_text_next(r2, &o, &a2), KMAP_LINE_ACCESS);
		assert_true(a2.ip == acc[i].ip && a2.pid == acc[i].pid &&
			    a2.writes == acc[i].writes &&
			    a2.reads == acc[i].reads &&
			    a2.offset == acc[i].offset &&
			    a2.offset_end == acc[i].offset_end);
	}
	assert_true(acc[19].ip == 0xffffffff81000000ull + 19 * 97 &&
		    acc[19].pid == 19000 && acc[19].writes == 19 &&
		    acc[19].reads == 19 * 12345);
	/* The tee: the lines read, as they were; the accesses in 3 calls. */
	assert_int_equal(tee.calls, 4);
	assert_int_equal(tee.len, kmap_text_offset(r));
	assert_memory_equal(tee.buf, buf, tee.len);
	/* The line not well formed, then the object line: not taken. */
	assert_int_equal(kmap_text_accesses(r, acc, 64), 0);
	assert_int_equal(kmap_text_next(r, &o, &acc[0]), -1);
	assert_int_equal(kmap_parse_line(buf + tee.len, 25, &o, &a2, err), 0);
	kmap_text_close(r);
	kmap_text_close(r2);
}

/*
 * kmap_put_dec(): printf's digits, and no byte past them, for every value
 * up to 20,000 (its paths of 1-2 and 3-4 digits) and at each power of 10.
 */
static void check_put_dec(uint64_t v)
{
	char want[32], got[32];
	int n = snprintf(want, sizeof(want), "%llu", (unsigned long long)v);

	memset(got, 'x', sizeof(got));
	assert_int_equal(kmap_put_dec(got, v) - got, n);
	assert_int_equal(kmap_dec_len(v), n);
	assert_memory_equal(got, want, (size_t)n);
	assert_int_equal(got[n], 'x');
}

static void test_put_dec(void **state)
{
	uint64_t v, p;

	(void)state;
	for (v = 0; v <= 20000; v++)
		check_put_dec(v);
	for (p = 10; p <= 10000000000000000000ull; p *= 10) {
		check_put_dec(p - 1);
		check_put_dec(p);
		check_put_dec(p + 1);
		if (p > UINT64_MAX / 10)
			break;
	}
	check_put_dec(UINT64_MAX);
}

static void test_fopen_directory(void **state)
{
	char err[KMAP_ERR_MAX];

	(void)state;
	assert_null(kmap_fopen(".", err));
	assert_string_equal(err, ".: is a directory");
	assert_null(kmap_fopen("no/such/file", err));
	assert_string_equal(err, "no/such/file: No such file or directory");
}

/* The rules beyond syntax: verdicts and the pairs they find. */
static void test_rules(void **state)
{
	struct kmap_object o = { .alloc_ip = 0xffffffff81000000ull,
				 .addr = 0x1000, .size = 8, .alloc_jiffies = 100,
				 .free_jiffies = 120, .free_ip = 0, .pid = 1,
				 .comm = "sh" };
	struct kmap_access acc[] = {
		{ 0x10, 1, 1, 0, 0, 0 }, { 0x20, 1, 0, 1, 0, 0 }, { 0x10, 2, 1, 0, 0, 0 },
		{ 0x10, 1, 0, 3, 0, 0 }, { 0x20, 1, 1, 1, 0, 0 },
	};
	struct kmap_live live[] = {
		{ 0x3000, 16, 7 }, { 0x1000, 64, 1 }, { 0x1020, 8, 3 },
		{ 0x1038, 8, 5 }, { 0x2000, 8, 9 },
	};
	size_t pairs[4][2];
	char err[KMAP_ERR_MAX];

	(void)state;
	/* free_ip 0 on a freed object: seed 000 allows it. */
	assert_int_equal(kmap_rule_object(&o, err), KMAP_RULE_OK);
	o.free_jiffies = 90;
	assert_int_equal(kmap_rule_object(&o, err), KMAP_RULE_ERROR);
	assert_string_equal(err, "freed at jiffies 90, before its allocation at 100");
	o.free_jiffies = 0;
	strcpy(o.comm, "hardirq");
	assert_int_equal(kmap_rule_object(&o, err), KMAP_RULE_ERROR);
	o.pid = 0;
	assert_int_equal(kmap_rule_object(&o, err), KMAP_RULE_OK);
	assert_int_equal(kmap_rule_access(&(struct kmap_access){ 0x10, 1, 0, 0, 0, 0 }, err),
			 KMAP_RULE_ERROR);

	/* (0x10, 1) at 0 and 3, (0x20, 1) at 1 and 4. */
	assert_int_equal(kmap_rule_dups(acc, 5, pairs, 4), 2);
	assert_int_equal(pairs[0][0], 0);
	assert_int_equal(pairs[0][1], 3);
	assert_int_equal(pairs[1][0], 1);
	assert_int_equal(pairs[1][1], 4);
	assert_int_equal(kmap_rule_dups(acc, 3, pairs, 4), 0);

	/* 0x1000+64 covers 0x1020 and 0x1038 (0x1040 would not be). */
	assert_int_equal(kmap_rule_overlaps(live, 5, pairs, 1), 2);
	assert_int_equal(live[pairs[0][0]].where, 1);
	assert_int_equal(live[pairs[0][1]].where, 3);
	kmap_rule_overlap_message(&live[pairs[0][0]], &live[pairs[0][1]], 0, err);
	assert_string_equal(err, "live object 1020 (8 bytes) overlaps the live object at line 1 (1000, 64 bytes)");
}

/*
 * kmap_rule_dups() in order (strictly increasing: answered in one pass)
 * and out of it (the hash set, then a sort) finds as many repeats as
 * there are counters past the first of each (ip, pid), counted here.
 */
static void test_rule_dups_orders(void **state)
{
	struct kmap_access acc[300];
	size_t pairs[1][2], n, i, j, distinct;
	unsigned int seed = 1, t;

	(void)state;
	for (t = 0; t < 2000; t++) {
		n = 1 + t % 300;
		for (i = 0; i < n; i++) {
			seed = seed * 1103515245 + 12345;
			/* in order: each step 0 (a repeat, now and then) or up */
			acc[i] = (struct kmap_access){
				.ip = t % 3 == 0 ? (seed >> 8) % 64 :
				      (i ? acc[i - 1].ip : 0) +
				      ((seed >> 8) % (t % 3 == 1 ? 50 : 4) != 0),
				.pid = t % 5 == 0 ? (seed >> 20) % 2 : 1,
				.reads = 1,
			};
		}
		for (i = 0, distinct = 0; i < n; i++) {
			for (j = 0; j < i; j++)
				if (acc[j].ip == acc[i].ip && acc[j].pid == acc[i].pid)
					break;
			distinct += j == i;
		}
		assert_int_equal(kmap_rule_dups(acc, n, pairs, 1),
				 (long)(n - distinct));
	}
}

static void test_reader_lines(void **state)
{
	static const char text[] =
		"ffffffff81000000,1,ffff888000001000,8,100,0,0,sh\n"
		"  ffffffff81000010,1,0,1\n"
		"  ffffffff81000020,2,3,4\n"
		"ffffffff81000000,1,ffff888000002000,8,100,101,ffffffff81000004,sh\n";
	struct kmap_text_reader *r = kmap_text_open_mem(text, strlen(text), "t");
	struct kmap_object o;
	struct kmap_access a;

	(void)state;
	assert_int_equal(kmap_text_next(r, &o, &a), KMAP_LINE_OBJECT);
	assert_int_equal(kmap_text_next(r, &o, &a), KMAP_LINE_ACCESS);
	assert_int_equal(kmap_text_next(r, &o, &a), KMAP_LINE_ACCESS);
	assert_int_equal(a.pid, 2);
	assert_int_equal(a.reads, 4);
	assert_int_equal(kmap_text_next(r, &o, &a), KMAP_LINE_OBJECT);
	assert_int_equal(kmap_text_line(r), 4);
	assert_int_equal(kmap_text_next(r, &o, &a), 0);
	assert_int_equal(kmap_text_next(r, &o, &a), 0);
	kmap_text_close(r);
}

static void expect_error(const char *text, size_t len, const char *want)
{
	struct kmap_text_reader *r = kmap_text_open_mem(text, len, "in.kmap");
	struct kmap_object o;
	struct kmap_access a;
	int t, n = 0;

	while ((t = kmap_text_next(r, &o, &a)) > 0)
		assert_true(++n < 100);
	assert_int_equal(t, -1);
	if (!strstr(kmap_text_error(r), want))
		fail_msg("got '%s', want '%s'", kmap_text_error(r), want);
	/* Reading past an error keeps failing. */
	assert_int_equal(kmap_text_next(r, &o, &a), -1);
	kmap_text_close(r);
}

static void test_reader_errors(void **state)
{
	char longline[2000];

	(void)state;
	expect_error("  1,1,1,1\n", 10, "in.kmap:1: access line before any object line");
	expect_error("1,1,1,1,1,0,0,x\n1,1,1,1,1,0,0,x", 31, "in.kmap:2: last line has no newline");
	expect_error("1,1,1,1,1,0,0,x\n\n", 17, "in.kmap:2: empty line");
	expect_error("1,1,1,1,1,0,0,x\0\n", 17, "in.kmap:1: executable 'x\\x00': control");
	memset(longline, 'a', sizeof(longline));
	expect_error(longline, sizeof(longline), "in.kmap:1: line longer than 511 bytes");
}

/* The FILE reader refills across its buffer: a large input, line count. */
static void test_reader_file_refill(void **state)
{
	FILE *f = tmpfile();
	struct kmap_text_reader *r;
	struct kmap_object o;
	struct kmap_access a;
	unsigned long i, objects = 0, accesses = 0;
	int t;

	(void)state;
	assert_non_null(f);
	for (i = 0; i < 20000; i++) {
		fprintf(f, "ffffffff81%06lx,%lu,ffff888000%06lx,%lu,%lu,0,0,cmd%lu\n",
			i, i % 4000, i * 64, i % 4096 + 1, 4294894610ul + i, i % 10);
		fprintf(f, "  ffffffff8115%04lx,%lu,%lu,%lu\n", i % 65536, i % 4000, i, i + 1);
	}
	rewind(f);
	r = kmap_text_open(f, "big");
	while ((t = kmap_text_next(r, &o, &a)) > 0) {
		if (t == KMAP_LINE_OBJECT) {
			assert_int_equal(o.size, objects % 4096 + 1);
			objects++;
		} else {
			assert_int_equal(a.reads, accesses + 1);
			accesses++;
		}
	}
	assert_int_equal(t, 0);
	assert_int_equal(objects, 20000);
	assert_int_equal(accesses, 20000);
	assert_int_equal(kmap_text_line(r), 40000);
	kmap_text_close(r);
	fclose(f);
}

/* Writer: byte for byte the kernel's format, and back through the reader. */
static void test_writer_roundtrip(void **state)
{
	struct kmap_object o = {
		.alloc_ip = 0xffffffff812a4e74ull, .pid = 146,
		.addr = 0xffff8880085d7e80ull, .size = 24,
		.alloc_jiffies = 4294894610ull, .free_jiffies = 0, .free_ip = 0,
	}, back;
	struct kmap_access a = { .ip = 0xffffffff811556b9ull, .pid = 146, .writes = 1, .reads = 0 }, aback;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	char err[KMAP_ERR_MAX];

	(void)state;
	strcpy(o.comm, "a,b\x01");
	assert_int_equal(kmap_write_object(f, &o), 0);
	assert_int_equal(kmap_write_access(f, &a), 0);
	fclose(f);
	assert_string_equal(buf, "ffffffff812a4e74,146,ffff8880085d7e80,24,4294894610,0,0,a?b?\n"
				 "  ffffffff811556b9,146,1,0\n");
	assert_int_equal(kmap_parse_line(buf, strchr(buf, '\n') - buf, &back, &aback, err),
			 KMAP_LINE_OBJECT);
	assert_string_equal(back.comm, "a?b?");
	assert_true(back.addr == o.addr);
	free(buf);
}

/*
 * The writer's numbers at every digit-count boundary, against printf:
 * hexadecimal 0, 0xf, 0x10, ... 2^64 - 1; decimal 0, 9, 10, 99, 100, ...
 * 2^64 - 1 (the writer counts digits from the bit length).
 */
/*
 * kmap_format_accesses(): the lines kmap_format_access() and
 * kmap_format_access_offsets() write, one by one, whatever the pids (a
 * pid written once is copied to the lines after it with the same).
 */
static void test_writer_accesses(void **state)
{
	static const uint32_t pids[] = { 7, 7, 7, 12345, 7, 0, 0, 4194303,
					 4194303, 1, 99, 100 };
	struct kmap_access acc[12];
	char bulk[16384], one[16384];
	const char *nl;
	size_t i, n, len, done, last;
	int offsets;

	(void)state;
	for (i = 0; i < 12; i++)
		acc[i] = (struct kmap_access){ 0xffffffff81000000ull + i * 4097,
			pids[i], i * 1000003, UINT64_MAX - i, (uint32_t)i,
			(uint32_t)i * 7 + 1 };
	for (offsets = 0; offsets < 2; offsets++) {
		for (i = 0, n = 0; i < 12; i++)
			n += offsets ? kmap_format_access_offsets(one + n, &acc[i]) :
				       kmap_format_access(one + n, &acc[i]);
		len = kmap_format_accesses(bulk, sizeof(bulk), acc, 12, offsets,
					   &done);
		assert_int_equal(done, 12);
		assert_int_equal(len, n);
		assert_memory_equal(bulk, one, n);
		/* As many as have KMAP_LINE_MAX bytes left. */
		len = kmap_format_accesses(bulk, KMAP_LINE_MAX + 100, acc,
					   12, offsets, &done);
		assert_true(done >= 1 && done < 12);
		/* The last line began with KMAP_LINE_MAX left; no more now. */
		nl = memrchr(bulk, '\n', len - 1);
		last = nl ? (size_t)(nl - bulk) + 1 : 0;
		assert_true(KMAP_LINE_MAX + 100 - last >= KMAP_LINE_MAX);
		assert_true(KMAP_LINE_MAX + 100 - len < KMAP_LINE_MAX);
		assert_memory_equal(bulk, one, len);
	}
}

static void test_writer_numbers(void **state)
{
	char line[KMAP_LINE_MAX], want[KMAP_LINE_MAX];
	uint64_t p10 = 1;
	int i, k;

	(void)state;
	for (i = 0; i <= 64; i++) {
		uint64_t hex = i == 64 ? ~0ull : (1ull << i) - 1;

		for (k = 0; k < 2; k++) {
			uint64_t dec = (i < 20 ? p10 : ~0ull) - (uint64_t)k;
			struct kmap_access a = {
				.ip = hex + (uint64_t)k, .pid = 7,
				.writes = dec, .reads = dec / 3,
			};
			size_t n = kmap_format_access(line, &a);

			snprintf(want, sizeof(want), "  %llx,7,%llu,%llu\n",
				 (unsigned long long)a.ip,
				 (unsigned long long)a.writes,
				 (unsigned long long)a.reads);
			assert_int_equal(n, strlen(want));
			assert_memory_equal(line, want, n);
		}
		if (i < 19)
			p10 *= 10;
		else if (i == 19)
			p10 = ~0ull;
	}
}

/* Binary: fixtures built from the UAPI structs. */

struct sbuf {
	unsigned char b[1 << 16];
	size_t len;
	uint64_t ns;		/* the last record's: records are in time order */
};

static void sput(struct sbuf *s, const void *p, size_t n)
{
	assert_true(s->len + n <= sizeof(s->b));
	memcpy(s->b + s->len, p, n);
	s->len += n;
}

static void header_version(struct sbuf *s, unsigned int cpus,
			   unsigned int version)
{
	static const __u16 sizes[MEMORIZER_REC_NR_TYPES] = MEMORIZER_REC_SIZES;
	struct memorizer_stream_header h = {
		.magic = "MEMZSTR", .version = version,
		.header_size = sizeof(h), .nr_types = MEMORIZER_REC_NR_TYPES,
		.nr_cpus = cpus, .hz = 250, .page_size = 4096,
	};

	memcpy(h.magic, MEMORIZER_STREAM_MAGIC, 8);
	memcpy(h.rec_size, sizes, sizeof(sizes));
	sput(s, &h, sizeof(h));
}

static void header(struct sbuf *s, unsigned int cpus)
{
	header_version(s, cpus, MEMORIZER_STREAM_VERSION);
}

static void task(struct sbuf *s, int cpu, int pid, const char *comm)
{
	struct memorizer_rec_task t = { .hdr = { MEMORIZER_REC_TASK, sizeof(t), cpu, 0, 1 } };

	t.hdr.ns = ++s->ns;
	t.pid = pid;
	strncpy(t.comm, comm, sizeof(t.comm));
	sput(s, &t, sizeof(t));
}

/* An ALLOC of any kind and context; call_site 0: its own address. */
static void alloc_kind(struct sbuf *s, int cpu, uint64_t id, uint64_t addr,
		       uint64_t call_site, int pid, int kind, int context)
{
	struct memorizer_rec_alloc a = { .hdr = { MEMORIZER_REC_ALLOC, sizeof(a), cpu, 0, 2 } };

	a.hdr.ns = ++s->ns;
	a.id = id;
	a.addr = addr;
	a.call_site = call_site ? call_site : addr;
	a.jiffies = 1000 + id;
	a.size = 16;
	a.size_alloc = 16;
	a.pid = pid;
	a.kind = kind;
	a.context = context;
	sput(s, &a, sizeof(a));
}

static void alloc(struct sbuf *s, int cpu, uint64_t id, uint64_t addr, int pid)
{
	alloc_kind(s, cpu, id, addr, 0xffffffff81000000ull + id, pid,
		   MEMORIZER_ALLOC_KMALLOC, MEMORIZER_CONTEXT_TASK);
}

/* A global, as the kernel finds it: pid 0, call_site its address. */
static void alloc_global(struct sbuf *s, int cpu, uint64_t id, uint64_t addr)
{
	alloc_kind(s, cpu, id, addr, 0, 0, MEMORIZER_ALLOC_GLOBAL,
		   MEMORIZER_CONTEXT_FOUND);
}

/* An ACCESS record with its range (version 5's; 0, 0: none known). */
static void access_rec_off(struct sbuf *s, int cpu, uint64_t id, uint64_t ip,
			   int pid, uint64_t w, uint64_t r, uint32_t off,
			   uint32_t end)
{
	struct memorizer_rec_access a = { .hdr = { MEMORIZER_REC_ACCESS, sizeof(a), cpu, 0, 3 } };

	a.hdr.ns = ++s->ns;
	a.id = id;
	a.ip = ip;
	a.pid = pid;
	a.writes = w;
	a.reads = r;
	a.offset = off;
	a.offset_end = end;
	sput(s, &a, sizeof(a));
}

static void access_rec(struct sbuf *s, int cpu, uint64_t id, uint64_t ip, int pid,
		       uint64_t w, uint64_t r)
{
	access_rec_off(s, cpu, id, ip, pid, w, r, 0, 0);
}

static void free_rec(struct sbuf *s, int cpu, uint64_t id, int api)
{
	struct memorizer_rec_free f = { .hdr = { MEMORIZER_REC_FREE, sizeof(f), cpu, 0, 4 } };

	f.hdr.ns = ++s->ns;
	f.id = id;
	f.call_site = api == MEMORIZER_FREE_MISSED ? 0xdeadbeef : 0xffffffff81100000ull;
	f.jiffies = 2000 + id;
	f.api = api;
	sput(s, &f, sizeof(f));
}

/*
 * kmap_bin_accesses(): the run of one object's ACCESS records on one CPU,
 * decoded as kmap_bin_next() decodes them, and none past a record it
 * must leave: another object's, another CPU's, one earlier in time, one
 * of no counts, one past the object's size_alloc, another type.
 */
static void test_bin_accesses(void **state)
{
	struct sbuf s = { .len = 0 };
	struct kmap_bin_reader *r;
	struct kmap_bin_rec rec;
	struct kmap_access acc[8];
	uint64_t ns;
	size_t i;

	(void)state;
	header(&s, 2);
	alloc(&s, 0, 1, 0x1000, 7);
	for (i = 0; i < 3; i++)
		access_rec_off(&s, 0, 1, 0xffffffff81000010ull + i, 7, i, 1,
			       (uint32_t)i, 8);
	access_rec(&s, 0, 2, 0xffffffff81000020ull, 7, 1, 0);	/* object 2 */
	access_rec(&s, 1, 1, 0xffffffff81000030ull, 7, 1, 0);	/* CPU 1 */
	access_rec(&s, 0, 1, 0xffffffff81000040ull, 7, 0, 0);	/* no counts */
	access_rec_off(&s, 0, 1, 0xffffffff81000050ull, 7, 1, 0, 8, 17);
	access_rec(&s, 0, 1, 0xffffffff81000060ull, 7, 1, 0);
	s.ns -= 3;	/* back in time */
	access_rec(&s, 0, 1, 0xffffffff81000070ull, 7, 1, 0);
	free_rec(&s, 0, 1, MEMORIZER_FREE_KFREE);
	r = kmap_bin_open_mem(s.b, s.len, "t");
	assert_int_equal(kmap_bin_next(r, &rec), 1);	/* ALLOC */
	assert_int_equal(kmap_bin_next(r, &rec), 1);	/* the first ACCESS */
	ns = rec.ns;
	assert_int_equal(kmap_bin_accesses(r, 1, 0, &ns, 16, acc, 1), 1);
	assert_int_equal(kmap_bin_accesses(r, 1, 0, &ns, 16, acc + 1, 8), 1);
	assert_true(acc[1].ip == 0xffffffff81000012ull && acc[1].pid == 7 &&
		    acc[1].writes == 2 && acc[1].reads == 1 &&
		    acc[1].offset == 2 && acc[1].offset_end == 8);
	assert_true(ns == rec.ns + 2);
	/* Each record it leaves, kmap_bin_next() reads. */
	assert_int_equal(kmap_bin_accesses(r, 1, 0, &ns, 16, acc, 8), 0);
	assert_int_equal(kmap_bin_next(r, &rec), 1);
	assert_true(rec.u.access.id == 2);
	assert_int_equal(kmap_bin_accesses(r, 1, 0, &ns, 16, acc, 8), 0);
	assert_int_equal(kmap_bin_next(r, &rec), 1);
	assert_true(rec.cpu == 1);
	assert_int_equal(kmap_bin_accesses(r, 1, 0, &ns, 16, acc, 8), 0);
	assert_int_equal(kmap_bin_next(r, &rec), 1);
	assert_true(rec.u.access.reads == 0 && rec.u.access.writes == 0);
	/* Past size_alloc 16, not past a greater one. */
	assert_int_equal(kmap_bin_accesses(r, 1, 0, &ns, 16, acc, 8), 0);
	assert_int_equal(kmap_bin_accesses(r, 1, 0, &ns, 17, acc, 8), 2);
	assert_true(acc[1].ip == 0xffffffff81000060ull);
	/* Time: not before the CPU's last. */
	assert_int_equal(kmap_bin_accesses(r, 1, 0, &ns, 16, acc, 8), 0);
	assert_int_equal(kmap_bin_next(r, &rec), 1);
	assert_true(rec.u.access.ip == 0xffffffff81000070ull && rec.ns < ns);
	assert_int_equal(kmap_bin_accesses(r, 1, 0, &ns, 16, acc, 8), 0);
	assert_int_equal(kmap_bin_next(r, &rec), 1);
	assert_true(rec.type == MEMORIZER_REC_FREE);
	assert_int_equal(kmap_bin_next(r, &rec), 0);
	kmap_bin_close(r);
}

static void test_bin_header_checks(void **state)
{
	struct sbuf s = { .len = 0 };
	struct memorizer_stream_header *h = (void *)s.b;
	char err[KMAP_ERR_MAX];

	(void)state;
	header(&s, 2);
	assert_int_equal(h->version, 5);
	assert_int_equal(kmap_bin_check_header(s.b, s.len, err), 0);
	assert_int_equal(kmap_bin_check_header(s.b, 55, err), -1);
	assert_non_null(strstr(err, "cut short"));
	/* Versions 1 to 5 are read, no other. */
	h->version = 1;
	assert_int_equal(kmap_bin_check_header(s.b, s.len, err), 0);
	h->version = 2;
	assert_int_equal(kmap_bin_check_header(s.b, s.len, err), 0);
	h->version = 3;
	assert_int_equal(kmap_bin_check_header(s.b, s.len, err), 0);
	h->version = 4;
	assert_int_equal(kmap_bin_check_header(s.b, s.len, err), 0);
	h->version = 6;
	assert_int_equal(kmap_bin_check_header(s.b, s.len, err), -1);
	assert_string_equal(err, "stream version 6, this reader knows versions 1, 2, 3, 4 and 5 only");
	h->version = 0;
	assert_int_equal(kmap_bin_check_header(s.b, s.len, err), -1);
	assert_string_equal(err, "stream version 0, this reader knows versions 1, 2, 3, 4 and 5 only");
	/* ACCESS records: 56 bytes up to version 4, 64 (offsets) from 5. */
	h->rec_size[MEMORIZER_REC_ACCESS] = 56;
	h->version = 4;
	assert_int_equal(kmap_bin_check_header(s.b, s.len, err), 0);
	assert_int_equal(kmap_bin_min_size(4, MEMORIZER_REC_ACCESS), 56);
	h->version = 5;
	assert_int_equal(kmap_bin_check_header(s.b, s.len, err), -1);
	assert_string_equal(err, "rec_size[3] is 56, shorter than the 64-byte layout");
	assert_int_equal(kmap_bin_min_size(5, MEMORIZER_REC_ACCESS), 64);
	h->rec_size[MEMORIZER_REC_ACCESS] = 64;
	h->version = 1;
	h->rec_size[MEMORIZER_REC_ALLOC] = 64;
	assert_int_equal(kmap_bin_check_header(s.b, s.len, err), -1);
	assert_non_null(strstr(err, "shorter than the 72-byte layout"));
	h->rec_size[MEMORIZER_REC_ALLOC] = 72;
	h->nr_cpus = 0;
	assert_int_equal(kmap_bin_check_header(s.b, s.len, err), -1);
	h->nr_cpus = 1;
	h->magic[0] = 'X';
	assert_int_equal(kmap_bin_check_header(s.b, s.len, err), -1);
	assert_non_null(strstr(err, "magic"));
}

/* TASK state is per CPU: the same pid has another comm on another CPU. */
static void test_bin_task_per_cpu(void **state)
{
	struct sbuf s = { .len = 0 };
	struct kmap_bin_reader *r;
	struct kmap_bin_rec rec;
	int n = 0;

	(void)state;
	header(&s, 2);
	task(&s, 0, 10, "first");
	task(&s, 1, 10, "other");
	alloc(&s, 0, 1, 0x1000, 10);
	alloc(&s, 1, 2, 0x2000, 10);
	task(&s, 0, 10, "renamed");
	alloc(&s, 0, 3, 0x3000, 10);
	alloc(&s, 1, 4, 0x4000, 11);
	r = kmap_bin_open_mem(s.b, s.len, "s");
	while (kmap_bin_next(r, &rec) > 0) {
		if (rec.type != MEMORIZER_REC_ALLOC)
			continue;
		switch (rec.u.alloc.id) {
		case 1: assert_string_equal(rec.u.alloc.comm, "first"); break;
		case 2: assert_string_equal(rec.u.alloc.comm, "other"); break;
		case 3: assert_string_equal(rec.u.alloc.comm, "renamed"); break;
		case 4: assert_string_equal(rec.u.alloc.comm, ""); break;
		}
		n++;
	}
	assert_int_equal(n, 4);
	assert_string_equal(kmap_bin_error(r), "");
	kmap_bin_close(r);
}

/* Unknown types are skipped by their size; records may grow. */
static void test_bin_skip_and_grow(void **state)
{
	struct sbuf s = { .len = 0 };
	struct memorizer_rec_hdr unk = { 42, 32, 0, 0, 5 };
	unsigned char pad[16] = { 0 };
	struct kmap_bin_reader *r;
	struct kmap_bin_rec rec;

	(void)state;
	header(&s, 1);
	sput(&s, &unk, sizeof(unk));
	sput(&s, pad, 16);
	alloc(&s, 0, 1, 0x1000, 0);
	r = kmap_bin_open_mem(s.b, s.len, "s");
	assert_int_equal(kmap_bin_next(r, &rec), 1);
	assert_int_equal(rec.type, MEMORIZER_REC_ALLOC);
	assert_int_equal(rec.offset, 56 + 32);
	assert_int_equal(kmap_bin_next(r, &rec), 0);
	assert_int_equal(kmap_bin_skipped(r), 1);
	kmap_bin_close(r);
}

static void expect_bin_error(struct sbuf *s, const char *want)
{
	struct kmap_bin_reader *r = kmap_bin_open_mem(s->b, s->len, "s.bin");
	struct kmap_bin_rec rec;
	int t, n = 0;

	while ((t = kmap_bin_next(r, &rec)) > 0)
		assert_true(++n < 100);
	assert_int_equal(t, -1);
	if (!strstr(kmap_bin_error(r), want))
		fail_msg("got '%s', want '%s'", kmap_bin_error(r), want);
	kmap_bin_close(r);
}

static void test_bin_errors(void **state)
{
	struct sbuf s = { .len = 0 };
	struct memorizer_rec_hdr h = { MEMORIZER_REC_FREE, 20, 0, 0, 0 };

	(void)state;
	header(&s, 1);
	alloc(&s, 0, 1, 0x1000, 0);
	s.len -= 8;
	expect_bin_error(&s, "s.bin: byte 56: record cut short: 64 of 72 bytes");
	s.len = 0;
	header(&s, 1);
	sput(&s, &h, sizeof(h));
	expect_bin_error(&s, "byte 56: record size 20");
	s.len = 0;
	header(&s, 1);
	alloc(&s, 1, 1, 0x1000, 0);	/* cpu 1 of 1 */
	expect_bin_error(&s, "cpu 1, but the stream has 1 CPUs");
	s.len = 0;
	header(&s, 1);
	alloc(&s, 0, 1, 0x1000, -5);
	expect_bin_error(&s, "pid -5 out of range");
	s.len = 0;
	header(&s, 1);
	sput(&s, &h, 8);
	expect_bin_error(&s, "record header cut short: 8 of 16");
	s.len = 10;
	expect_bin_error(&s, "byte 0: stream header cut short");
}

/* Objects from a stream: accesses merged, cross-CPU order, live at the end. */
static void test_src_assembles(void **state)
{
	struct sbuf s = { .len = 0 };
	char path[] = "/tmp/kmap-unit-XXXXXX", err[KMAP_ERR_MAX];
	int fd = mkstemp(path);
	struct kmap_src *src;
	const struct kmap_object *o;
	const struct kmap_access *a;
	size_t n;

	(void)state;
	header(&s, 2);
	task(&s, 0, 7, "tar");
	alloc(&s, 0, 1, 0x1000, 7);
	access_rec(&s, 0, 1, 0xffffffff81000010ull, 7, 1, 2);
	access_rec(&s, 1, 1, 0xffffffff81000010ull, 7, 3, 4);
	access_rec(&s, 1, 1, 0xffffffff81000008ull, 7, 0, 1);
	free_rec(&s, 1, 1, MEMORIZER_FREE_KFREE);
	free_rec(&s, 1, 2, MEMORIZER_FREE_MISSED);	/* its ALLOC comes later */
	alloc(&s, 0, 2, 0x2000, 7);
	alloc(&s, 0, 3, 0x3000, 7);			/* stays live */
	free_rec(&s, 0, 99, MEMORIZER_FREE_KFREE);	/* before the stream */
	assert_true(fd >= 0);
	assert_int_equal(write(fd, s.b, s.len), (ssize_t)s.len);
	close(fd);
	src = kmap_src_open(path, err);
	assert_non_null(src);
	assert_int_equal(kmap_src_format(src), KMAP_FMT_BINARY);

	assert_int_equal(kmap_src_next(src, &o, &a, &n), 1);
	assert_int_equal(o->id, 1);
	assert_string_equal(o->comm, "tar");
	assert_int_equal(n, 2);
	assert_true(a[0].ip == 0xffffffff81000008ull);
	assert_true(a[1].ip == 0xffffffff81000010ull);
	assert_int_equal(a[1].writes, 4);
	assert_int_equal(a[1].reads, 6);
	assert_int_equal(o->alloc_cpu, 0);
	assert_int_equal(o->free_cpu, 1);

	assert_int_equal(kmap_src_next(src, &o, &a, &n), 1);
	assert_int_equal(o->id, 2);
	assert_true(o->free_ip == KMAP_FREE_IP_MISSED);

	assert_int_equal(kmap_src_next(src, &o, &a, &n), 1);
	assert_int_equal(o->id, 3);
	assert_false(kmap_object_freed(o));
	assert_int_equal(kmap_src_next(src, &o, &a, &n), 0);
	assert_int_equal(kmap_src_orphans(src), 1);
	kmap_src_close(src);
	unlink(path);
}

/* What kmap_src told of its reading (kmap_src_on_progress()). */
struct told {
	unsigned int reads, ends, stops;
	uint64_t records;
	int lines;
};

static void tell(void *ctx, const struct kmap_src *s, enum kmap_progress what)
{
	struct told *t = ctx;

	t->reads += what == KMAP_PROGRESS_READ;
	t->ends += what == KMAP_PROGRESS_END;
	t->stops += what == KMAP_PROGRESS_STOP;
	t->records = kmap_src_records(s, &t->lines);
}

/* src over buf[len], telling t; fp is its FILE, for the caller to close. */
static struct kmap_src *told_src(const void *buf, size_t len, struct told *t,
				 FILE **fp)
{
	char err[KMAP_ERR_MAX];
	struct kmap_src *src;

	memset(t, 0, sizeof(*t));
	*fp = fmemopen((void *)buf, len, "rb");
	assert_non_null(*fp);
	src = kmap_src_open_file(*fp, "p", err);
	assert_non_null(src);
	kmap_src_on_progress(src, tell, t);
	return src;
}

/*
 * Progress, whoever reads: each buffer read told, then the end once, when
 * the reader meets it, with every record (a text's every line) counted, or
 * a stop at the close when reading ended before the end.
 */
static void test_src_progress(void **state)
{
	static const char text[] =
		"1,1,1000,8,100,0,0,sh\n  2,1,0,1\n  3,1,1,0\n4,1,2000,8,100,0,0,sh\n";
	static const char bad[] = "1,1,1000,8,100,0,0,sh\n  2,1,0\n";
	struct sbuf s = { .len = 0 };
	const struct kmap_object *o;
	const struct kmap_access *a;
	struct kmap_bin_rec rec;
	struct kmap_src *src;
	struct told t;
	size_t n;
	FILE *f;
	int pass;

	(void)state;
	src = told_src(text, strlen(text), &t, &f);
	while (kmap_src_next(src, &o, &a, &n) > 0)
		;
	assert_true(t.reads >= 1);
	assert_int_equal(t.ends, 1);
	assert_int_equal(t.records, 4);
	assert_int_equal(t.lines, 1);
	assert_int_equal(kmap_src_next(src, &o, &a, &n), 0);
	kmap_src_close(src);
	assert_true(t.ends == 1 && t.stops == 0);
	fclose(f);

	src = told_src(bad, strlen(bad), &t, &f);
	assert_int_equal(kmap_src_next(src, &o, &a, &n), -1);
	assert_int_equal(t.ends + t.stops, 0);
	kmap_src_close(src);
	assert_true(t.ends == 0 && t.stops == 1);
	fclose(f);

	/* A stream: its objects (runs of ACCESS records in one), its records. */
	header(&s, 2);
	task(&s, 0, 7, "tar");
	alloc(&s, 0, 1, 0x1000, 7);
	for (pass = 0; pass < 3; pass++)
		access_rec(&s, 0, 1, 0xffffffff81000010ull + 8 * pass, 7, 1, 2);
	free_rec(&s, 0, 1, MEMORIZER_FREE_KFREE);
	alloc(&s, 1, 2, 0x2000, 7);
	for (pass = 0; pass < 2; pass++) {
		src = told_src(s.b, s.len, &t, &f);
		if (pass)	/* as memorizer check reads: not kmap_src_next() */
			while (kmap_bin_next(kmap_src_bin(src), &rec) > 0)
				;
		else
			while (kmap_src_next(src, &o, &a, &n) > 0)
				;
		assert_int_equal(t.ends, 1);	/* before the close */
		kmap_src_close(src);
		assert_true(t.ends == 1 && t.stops == 0);
		assert_int_equal(t.records, 7);
		assert_int_equal(t.lines, 0);
		fclose(f);
	}
}

/*
 * A version 5 stream: an (id, ip, pid)'s ranges unite over its ACCESS
 * records (sweeps), none known (0, 0) left out; one past size_alloc (16)
 * is an error, whether its ALLOC comes before or after it.
 */
static void test_src_offsets(void **state)
{
	struct sbuf s = { .len = 0 };
	char err[KMAP_ERR_MAX];
	struct kmap_src *src;
	const struct kmap_object *o;
	const struct kmap_access *a;
	size_t n, cut;
	FILE *f;

	(void)state;
	header(&s, 2);
	task(&s, 0, 7, "tar");
	alloc(&s, 0, 1, 0x1000, 7);
	access_rec_off(&s, 0, 1, 0xffffffff81000010ull, 7, 0, 1, 8, 12);
	access_rec_off(&s, 1, 1, 0xffffffff81000010ull, 7, 0, 1, 0, 0);
	access_rec_off(&s, 1, 1, 0xffffffff81000010ull, 7, 0, 1, 2, 4);
	access_rec_off(&s, 0, 1, 0xffffffff81000010ull, 7, 0, 1, 10, 16);
	access_rec_off(&s, 0, 1, 0xffffffff81000020ull, 7, 0, 1, 0, 0);
	free_rec(&s, 0, 1, MEMORIZER_FREE_KFREE);
	cut = s.len;
	access_rec_off(&s, 1, 2, 0xffffffff81000010ull, 7, 0, 1, 0, 17);
	alloc(&s, 0, 2, 0x2000, 7);
	f = fmemopen(s.b, s.len, "rb");
	src = kmap_src_open_file(f, "s", err);
	assert_non_null(src);
	assert_int_equal(kmap_src_next(src, &o, &a, &n), 1);
	assert_int_equal(kmap_src_offsets(src), 1);
	assert_int_equal(n, 2);
	assert_int_equal(a[0].reads, 4);
	assert_int_equal(a[0].offset, 2);
	assert_int_equal(a[0].offset_end, 16);
	assert_int_equal(a[1].offset, 0);
	assert_int_equal(a[1].offset_end, 0);
	assert_int_equal(kmap_src_next(src, &o, &a, &n), -1);
	snprintf(err, sizeof(err), "s: byte %zu: offset_end 17 past the object's end (size_alloc 16)",
		 cut + sizeof(struct memorizer_rec_access));
	assert_string_equal(kmap_src_error(src), err);
	kmap_src_close(src);
	fclose(f);
	/* The same past the end, its ALLOC first: the ACCESS record's byte. */
	s.len = cut;
	alloc(&s, 0, 2, 0x2000, 7);
	access_rec_off(&s, 1, 2, 0xffffffff81000010ull, 7, 0, 1, 0, 17);
	f = fmemopen(s.b, s.len, "rb");
	src = kmap_src_open_file(f, "s", err);
	assert_non_null(src);
	assert_int_equal(kmap_src_next(src, &o, &a, &n), 1);
	assert_int_equal(kmap_src_next(src, &o, &a, &n), -1);
	snprintf(err, sizeof(err), "s: byte %zu: offset_end 17", cut + sizeof(struct memorizer_rec_alloc));
	assert_non_null(strstr(kmap_src_error(src), err));
	kmap_src_close(src);
	fclose(f);
}

/*
 * An object's counters come out sorted by (ip, pid), repeated ones merged,
 * whatever their order and number (insertion runs, merges, a tail).
 */
static void test_src_sorts_counters(void **state)
{
	static const size_t sizes[] = { 2, 7, 8, 9, 16, 17, 63, 64, 65, 200, 1000 };
	size_t t;

	(void)state;
	for (t = 0; t < sizeof(sizes) / sizeof(sizes[0]); t++) {
		struct sbuf s = { .len = 0 };
		char path[] = "/tmp/kmap-unit-XXXXXX", err[KMAP_ERR_MAX];
		int fd = mkstemp(path);
		size_t k = sizes[t], i, n, distinct;
		const struct kmap_object *o;
		const struct kmap_access *a;
		struct kmap_src *src;
		uint64_t reads = 0;

		header(&s, 1);
		task(&s, 0, 7, "tar");
		alloc(&s, 0, 1, 0x1000, 7);
		/* ips in a scrambled order; every fifth one repeats an ip */
		for (i = 0; i < k; i++) {
			uint64_t ip = 0xffffffff81000000ull +
				      (i % 5 == 4 ? 0 : (i * 37 % k) * 16);

			access_rec(&s, 0, 1, ip, 7 + (uint32_t)(i % 2), 0, i + 1);
			reads += i + 1;
		}
		assert_true(fd >= 0);
		assert_int_equal(write(fd, s.b, s.len), (ssize_t)s.len);
		close(fd);
		src = kmap_src_open(path, err);
		assert_non_null(src);
		assert_int_equal(kmap_src_next(src, &o, &a, &n), 1);
		for (i = 1, distinct = n; i < n; i++)
			assert_true(a[i - 1].ip < a[i].ip ||
				    (a[i - 1].ip == a[i].ip && a[i - 1].pid < a[i].pid));
		for (i = 0; i < n; i++)
			reads -= a[i].reads;
		assert_true(reads == 0);	/* nothing lost, nothing twice */
		assert_true(distinct <= k);
		/* In any order: the same counters, merged the same. */
		{
			struct kmap_access *sorted = malloc(n * sizeof(*sorted));
			const struct kmap_access *b;
			struct kmap_src *any;
			size_t nb, x, y;

			assert_non_null(sorted);
			memcpy(sorted, a, n * sizeof(*sorted));
			any = kmap_src_open(path, err);
			assert_non_null(any);
			kmap_src_any_order(any);
			assert_int_equal(kmap_src_next(any, &o, &b, &nb), 1);
			assert_int_equal(nb, n);
			for (x = 0; x < nb; x++) {
				for (y = 0; y < n; y++)
					if (sorted[y].ip == b[x].ip &&
					    sorted[y].pid == b[x].pid)
						break;
				assert_true(y < n);
				assert_true(sorted[y].reads == b[x].reads &&
					    sorted[y].writes == b[x].writes);
				sorted[y].pid = UINT32_MAX;	/* once */
			}
			kmap_src_close(any);
			free(sorted);
		}
		kmap_src_close(src);
		unlink(path);
	}
}

static void test_src_text_objects(void **state)
{
	char path[] = "/tmp/kmap-unit-XXXXXX", err[KMAP_ERR_MAX];
	int fd = mkstemp(path);
	static const char text[] =
		"1,1,1000,8,100,0,0,sh\n  2,1,0,1\n  3,1,1,0\n4,1,2000,8,100,0,0,sh\n";
	struct kmap_src *src;
	const struct kmap_object *o;
	const struct kmap_access *a;
	size_t n;

	(void)state;
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	src = kmap_src_open(path, err);
	assert_int_equal(kmap_src_format(src), KMAP_FMT_TEXT);
	assert_int_equal(kmap_src_next(src, &o, &a, &n), 1);
	assert_int_equal(o->addr, 0x1000);
	assert_int_equal(n, 2);
	assert_int_equal(a[1].ip, 3);
	assert_int_equal(kmap_src_next(src, &o, &a, &n), 1);
	assert_int_equal(o->addr, 0x2000);
	assert_int_equal(n, 0);
	assert_int_equal(kmap_src_next(src, &o, &a, &n), 0);
	kmap_src_close(src);
	assert_null(kmap_src_open("/nonexistent/x", err));
	assert_non_null(strstr(err, "No such file"));
	unlink(path);
}

/* Kinds: names, the found word, and a text object's kind from its line. */
static void test_kinds(void **state)
{
	static const struct {
		const char *name, *word;
		unsigned int since, found_since;
		int word_is_kind, only_found;
		unsigned int freed_since;
		int found_task, free_api, free_api_only;
	} want[] = {
		[MEMORIZER_ALLOC_KMALLOC] = { "kmalloc", "unseen", 1, 3, 0, 0, 0,
					      0, MEMORIZER_FREE_KFREE, 0 },
		[MEMORIZER_ALLOC_CACHE] = { "kmem_cache", "unseen", 1, 3, 0, 0,
					    0, 0, MEMORIZER_FREE_CACHE, 0 },
		[MEMORIZER_ALLOC_KMALLOC_LARGE] = { "kmalloc_large", NULL, 1, 0,
						    0, 0, 0, 0,
						    MEMORIZER_FREE_KFREE, 0 },
		[MEMORIZER_ALLOC_VMALLOC] = { "vmalloc", NULL, 1, 0, 0, 0, 0, 0,
					      MEMORIZER_FREE_VFREE, 0 },
		[MEMORIZER_ALLOC_PAGES] = { "pages", "page", 1, 3, 0, 0, 0, 0,
					    MEMORIZER_FREE_PAGES, 0 },
		/*
		 * Only found; a global freed from version 4 (a module's, at
		 * its unload: by api module or missed only), a per-CPU area
		 * freed.
		 */
		[MEMORIZER_ALLOC_GLOBAL] = { "global", "global", 2, 2, 1, 1, 4,
					     0, MEMORIZER_FREE_MODULE, 1 },
		[MEMORIZER_ALLOC_PERCPU] = { "percpu", "percpu", 3, 3, 1, 1, 0,
					     0, MEMORIZER_FREE_PERCPU, 0 },
		[MEMORIZER_ALLOC_STACK] = { "stack", "irq_stack", 3, 3, 1, 0, 0,
					    1, MEMORIZER_FREE_PAGES, 0 },
	};
	/* A text object's kind by its word, pid 0, alloc_ip its address. */
	static const struct {
		const char *word;
		int kind;
	} text[] = {
		{ "global", MEMORIZER_ALLOC_GLOBAL },
		{ "percpu", MEMORIZER_ALLOC_PERCPU },
		{ "irq_stack", MEMORIZER_ALLOC_STACK },
		/* kmalloc's or kmem_cache's; a page of any allocator */
		{ "unseen", KMAP_KIND_UNKNOWN },
		{ "page", KMAP_KIND_UNKNOWN },
		{ "stack", KMAP_KIND_UNKNOWN },
		{ "pages", KMAP_KIND_UNKNOWN },
		{ "hardirq", KMAP_KIND_UNKNOWN },
	};
	struct kmap_object o = { .alloc_ip = 0xffffffff82a01000ull,
				 .addr = 0xffffffff82a01000ull, .size = 64,
				 .alloc_jiffies = 100, .pid = 0,
				 .comm = "global" };
	const struct kmap_kind *k;
	size_t i;

	(void)state;
	assert_int_equal(sizeof(want) / sizeof(want[0]),
			 MEMORIZER_ALLOC_STACK + 1);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		k = kmap_kind(i);
		assert_non_null(k);
		assert_string_equal(kmap_kind_name(i), want[i].name);
		assert_string_equal(k->name, want[i].name);
		if (want[i].word)
			assert_string_equal(kmap_found_word(i), want[i].word);
		else
			assert_null(kmap_found_word(i));
		assert_int_equal(k->since, want[i].since);
		assert_int_equal(k->found_since, want[i].found_since);
		assert_int_equal(k->word_is_kind, want[i].word_is_kind);
		assert_int_equal(k->only_found, want[i].only_found);
		assert_int_equal(k->freed_since, want[i].freed_since);
		assert_int_equal(k->found_task, want[i].found_task);
		assert_int_equal(k->free_api, want[i].free_api);
		assert_int_equal(k->free_api_only, want[i].free_api_only);
		/* Every kind is read, and freed, by the current version. */
		assert_true(k->since <= MEMORIZER_STREAM_VERSION);
		assert_true(k->freed_since <= MEMORIZER_STREAM_VERSION);
	}
	assert_null(kmap_kind(MEMORIZER_ALLOC_STACK + 1));
	assert_null(kmap_kind(KMAP_KIND_UNKNOWN));
	assert_string_equal(kmap_kind_name(MEMORIZER_ALLOC_STACK + 1), "unknown");
	assert_string_equal(kmap_kind_name(KMAP_KIND_UNKNOWN), "unknown");
	assert_null(kmap_found_word(KMAP_KIND_UNKNOWN));
	assert_null(kmap_found_word(200));

	/* Text: a word of one kind alone, with pid 0 at its own alloc_ip. */
	for (i = 0; i < sizeof(text) / sizeof(text[0]); i++) {
		strcpy(o.comm, text[i].word);
		if (kmap_object_kind(&o) != text[i].kind)
			fail_msg("%s: kind %d, want %d", text[i].word,
				 kmap_object_kind(&o), text[i].kind);
	}
	strcpy(o.comm, "percpu");
	o.pid = 7;			/* a task that calls itself percpu */
	assert_int_equal(kmap_object_kind(&o), KMAP_KIND_UNKNOWN);
	strcpy(o.comm, "global");
	assert_int_equal(kmap_object_kind(&o), KMAP_KIND_UNKNOWN);
	o.pid = 0;
	o.alloc_ip = 0xffffffff81000000ull;
	assert_int_equal(kmap_object_kind(&o), KMAP_KIND_UNKNOWN);
	o.alloc_ip = o.addr;
	/* A stream's ALLOC says the kind, whatever the executable. */
	o.has = KMAP_HAS_KIND;
	o.kind = MEMORIZER_ALLOC_VMALLOC;
	assert_int_equal(kmap_object_kind(&o), MEMORIZER_ALLOC_VMALLOC);
}

/* Free APIs: names, the version that brought each, the kind it frees. */
static void test_free_apis(void **state)
{
	static const struct {
		const char *name;
		unsigned int since;
		int kind;
	} want[] = {
		[MEMORIZER_FREE_KFREE] = { "kfree", 1, -1 },
		[MEMORIZER_FREE_CACHE] = { "kmem_cache_free", 1, -1 },
		[MEMORIZER_FREE_VFREE] = { "vfree", 1, -1 },
		[MEMORIZER_FREE_PAGES] = { "free_pages", 1, -1 },
		[MEMORIZER_FREE_MISSED] = { "missed", 1, -1 },
		[MEMORIZER_FREE_PERCPU] = { "free_percpu", 3, -1 },
		/* A global's module unloaded: version 4's, globals only. */
		[MEMORIZER_FREE_MODULE] = { "module", 4, MEMORIZER_ALLOC_GLOBAL },
	};
	const struct kmap_free_api *fa;
	size_t i;

	(void)state;
	assert_int_equal(sizeof(want) / sizeof(want[0]),
			 MEMORIZER_FREE_MODULE + 1);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		fa = kmap_free_api(i);
		assert_non_null(fa);
		assert_string_equal(fa->name, want[i].name);
		assert_string_equal(kmap_free_api_name(i), want[i].name);
		assert_int_equal(fa->since, want[i].since);
		assert_int_equal(fa->kind, want[i].kind);
		assert_true(fa->since <= MEMORIZER_STREAM_VERSION);
	}
	assert_null(kmap_free_api(MEMORIZER_FREE_MODULE + 1));
	assert_null(kmap_free_api(-1));
	assert_null(kmap_free_api(255));
	assert_string_equal(kmap_free_api_name(MEMORIZER_FREE_MODULE + 1),
			    "unknown");
	assert_string_equal(kmap_free_api_name(-1), "unknown");
}

/*
 * The text rules of a global: its own alloc_ip; freed or not (a module's
 * is freed when it is unloaded, and a text kmap has no version).
 */
static void test_rules_global_text(void **state)
{
	struct kmap_object o = { .alloc_ip = 0xffffffff82a01000ull,
				 .addr = 0xffffffff82a01000ull, .size = 64,
				 .alloc_jiffies = 100, .pid = 0,
				 .comm = "global" };
	char err[KMAP_ERR_MAX];

	(void)state;
	assert_int_equal(kmap_rule_object(&o, err), KMAP_RULE_OK);
	o.alloc_ip = 0xffffffff81000000ull;
	assert_int_equal(kmap_rule_object(&o, err), KMAP_RULE_ERROR);
	assert_string_equal(err, "found object ffffffff82a01000 (global, pid 0) with alloc_ip ffffffff81000000: a found object's alloc_ip is its own address");
	o.alloc_ip = o.addr;
	/* A module's, freed at its unload (free_ip the unload's caller). */
	o.free_jiffies = 120;
	o.free_ip = 0xffffffffa0001234ull;
	assert_int_equal(kmap_rule_object(&o, err), KMAP_RULE_OK);
	/* Its record closed as missed. */
	o.free_ip = KMAP_FREE_IP_MISSED;
	assert_int_equal(kmap_rule_object(&o, err), KMAP_RULE_OK);
	o.free_jiffies = 0;
	assert_int_equal(kmap_rule_object(&o, err), KMAP_RULE_OK);
	/* Freed before it was found: an error, as for any object. */
	o.free_jiffies = 99;
	assert_int_equal(kmap_rule_object(&o, err), KMAP_RULE_ERROR);
	assert_string_equal(err, "freed at jiffies 99, before its allocation at 100");
	/* Freed, its alloc_ip elsewhere: still not a found object's. */
	o.free_jiffies = 120;
	o.alloc_ip = 0xffffffff81000000ull;
	assert_int_equal(kmap_rule_object(&o, err), KMAP_RULE_ERROR);
	assert_string_equal(err, "found object ffffffff82a01000 (global, pid 0) with alloc_ip ffffffff81000000: a found object's alloc_ip is its own address");
	/* A task called global, freed and elsewhere: an ordinary object. */
	o.pid = 7;
	o.alloc_ip = 0xffffffff81000000ull;
	assert_int_equal(kmap_rule_object(&o, err), KMAP_RULE_OK);
}

/* The first ALLOC of s, through the reader, under kmap_rule_bin. */
static int alloc_verdict(struct sbuf *s, char *err)
{
	struct kmap_bin_reader *r = kmap_bin_open_mem(s->b, s->len, "s");
	struct kmap_bin_rec rec;
	int t, verdict = -1;

	err[0] = 0;
	while ((t = kmap_bin_next(r, &rec)) > 0)
		if (rec.type == MEMORIZER_REC_ALLOC) {
			verdict = kmap_rule_bin(r, &rec, err);
			break;
		}
	assert_int_equal(t, 1);
	kmap_bin_close(r);
	return verdict;
}

/* ALLOC rules of kind global and context found, exactly. */
static void test_rules_global_bin(void **state)
{
	static const struct {
		unsigned int version;
		int kind, context, pid;
		uint64_t call_site;
		int verdict;
		const char *want;
	} c[] = {
		/* No TASK record before it, and no warning: it has no task. */
		{ 2, MEMORIZER_ALLOC_GLOBAL, MEMORIZER_CONTEXT_FOUND, 0, 0,
		  KMAP_RULE_OK, "" },
		{ 2, MEMORIZER_ALLOC_GLOBAL, MEMORIZER_CONTEXT_FOUND, 5, 0,
		  KMAP_RULE_ERROR, "found global object with pid 5 (no allocation was seen: pid is 0, but for a task's stack)" },
		{ 2, MEMORIZER_ALLOC_GLOBAL, MEMORIZER_CONTEXT_TASK, 5, 0,
		  KMAP_RULE_ERROR, "global object with context task: the allocation of global objects is never seen, their context is found" },
		{ 2, MEMORIZER_ALLOC_GLOBAL, MEMORIZER_CONTEXT_SOFTIRQ, 0, 0,
		  KMAP_RULE_ERROR, "global object with context softirq: the allocation of global objects is never seen, their context is found" },
		/* Version 2 finds globals only. */
		{ 2, MEMORIZER_ALLOC_KMALLOC, MEMORIZER_CONTEXT_FOUND, 0, 0,
		  KMAP_RULE_ERROR, "kmalloc object with context found in a version 2 stream: found kmalloc objects are new in version 3" },
		{ 2, MEMORIZER_ALLOC_PAGES, MEMORIZER_CONTEXT_FOUND, 0, 0,
		  KMAP_RULE_ERROR, "pages object with context found in a version 2 stream: found pages objects are new in version 3" },
		{ 2, MEMORIZER_ALLOC_GLOBAL, MEMORIZER_CONTEXT_FOUND, 0,
		  0xffffffff81000000ull, KMAP_RULE_ERROR,
		  "found global object ffffffff82a01000 with call_site ffffffff81000000: a found object's call_site is its own address" },
		/* Kinds percpu and stack are version 3's. */
		{ 2, MEMORIZER_ALLOC_PERCPU, MEMORIZER_CONTEXT_FOUND, 0, 0,
		  KMAP_RULE_ERROR, "allocator kind 6 (percpu) in a version 2 stream: new in version 3" },
		{ 2, MEMORIZER_ALLOC_STACK, MEMORIZER_CONTEXT_FOUND, 0, 0,
		  KMAP_RULE_ERROR, "allocator kind 7 (stack) in a version 2 stream: new in version 3" },
		{ 1, MEMORIZER_ALLOC_STACK, MEMORIZER_CONTEXT_TASK, 0,
		  0xffffffff81000000ull, KMAP_RULE_ERROR,
		  "allocator kind 7 (stack) in a version 1 stream: new in version 3" },
		{ 3, MEMORIZER_ALLOC_STACK + 1, MEMORIZER_CONTEXT_FOUND, 0, 0,
		  KMAP_RULE_ERROR, "unknown allocator kind 8" },
		{ 2, MEMORIZER_ALLOC_GLOBAL, MEMORIZER_CONTEXT_FOUND + 1, 0, 0,
		  KMAP_RULE_ERROR, "unknown context 4" },
		/* Version 1: neither kind global nor context found. */
		{ 1, MEMORIZER_ALLOC_GLOBAL, MEMORIZER_CONTEXT_FOUND, 0, 0,
		  KMAP_RULE_ERROR, "allocator kind 5 (global) in a version 1 stream: new in version 2" },
		{ 1, MEMORIZER_ALLOC_KMALLOC, MEMORIZER_CONTEXT_FOUND, 0, 0,
		  KMAP_RULE_ERROR, "context 3 (found) in a version 1 stream: new in version 2" },
		/* A version 1 interrupt allocation is still fine. */
		{ 1, MEMORIZER_ALLOC_KMALLOC, MEMORIZER_CONTEXT_HARDIRQ, 0,
		  0xffffffff81000000ull, KMAP_RULE_OK, "" },
	};
	char err[KMAP_ERR_MAX];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct sbuf s = { .len = 0 };
		int v;

		header_version(&s, 1, c[i].version);
		alloc_kind(&s, 0, 1, 0xffffffff82a01000ull, c[i].call_site,
			   c[i].pid, c[i].kind, c[i].context);
		v = alloc_verdict(&s, err);
		if (v != c[i].verdict || strcmp(err, c[i].want))
			fail_msg("case %zu: got %d '%s', want %d '%s'", i, v,
				 err, c[i].verdict, c[i].want);
	}
}

/*
 * A FREE paired with its object's ALLOC: before version 4 a global's is
 * refused, whatever its api (a per-CPU object may be an alloc_percpu()
 * area, freed by free_percpu()); from version 4 a global is freed by api
 * module (its module unloaded) or missed, no other, and api module frees
 * nothing but globals.
 */
static void test_rules_bin_freed(void **state)
{
	static const struct {
		unsigned int version, kind, api;
		int verdict;
		const char *want;
	} c[] = {
		{ 3, MEMORIZER_ALLOC_GLOBAL, MEMORIZER_FREE_KFREE, KMAP_RULE_ERROR,
		  "FREE of object id 9, a global object, in a version 3 stream: global objects are never freed before version 4" },
		{ 3, MEMORIZER_ALLOC_GLOBAL, MEMORIZER_FREE_MISSED, KMAP_RULE_ERROR,
		  "FREE of object id 9, a global object, in a version 3 stream: global objects are never freed before version 4" },
		{ 2, MEMORIZER_ALLOC_GLOBAL, MEMORIZER_FREE_MISSED, KMAP_RULE_ERROR,
		  "FREE of object id 9, a global object, in a version 2 stream: global objects are never freed before version 4" },
		/* Api module in version 3 is the FREE record's own error. */
		{ 3, MEMORIZER_ALLOC_GLOBAL, MEMORIZER_FREE_MODULE, KMAP_RULE_ERROR,
		  "FREE of object id 9, a global object, in a version 3 stream: global objects are never freed before version 4" },
		{ 3, MEMORIZER_ALLOC_KMALLOC, MEMORIZER_FREE_MODULE, KMAP_RULE_OK, "" },
		{ 4, MEMORIZER_ALLOC_GLOBAL, MEMORIZER_FREE_MODULE, KMAP_RULE_OK, "" },
		{ 4, MEMORIZER_ALLOC_GLOBAL, MEMORIZER_FREE_MISSED, KMAP_RULE_OK, "" },
		{ 4, MEMORIZER_ALLOC_GLOBAL, MEMORIZER_FREE_KFREE, KMAP_RULE_ERROR,
		  "FREE of object id 9, a global object, by api 0 (kfree): global objects are freed by api 6 (module) or missed only" },
		{ 4, MEMORIZER_ALLOC_GLOBAL, MEMORIZER_FREE_PERCPU, KMAP_RULE_ERROR,
		  "FREE of object id 9, a global object, by api 5 (free_percpu): global objects are freed by api 6 (module) or missed only" },
		{ 4, MEMORIZER_ALLOC_KMALLOC, MEMORIZER_FREE_MODULE, KMAP_RULE_ERROR,
		  "FREE of object id 9, a kmalloc object, by api 6 (module): api module frees global objects only" },
		{ 4, MEMORIZER_ALLOC_PERCPU, MEMORIZER_FREE_MODULE, KMAP_RULE_ERROR,
		  "FREE of object id 9, a percpu object, by api 6 (module): api module frees global objects only" },
		{ 4, MEMORIZER_ALLOC_STACK, MEMORIZER_FREE_MODULE, KMAP_RULE_ERROR,
		  "FREE of object id 9, a stack object, by api 6 (module): api module frees global objects only" },
		/* Others: any api, a mismatched one counted by report. */
		{ 4, MEMORIZER_ALLOC_PERCPU, MEMORIZER_FREE_PERCPU, KMAP_RULE_OK, "" },
		{ 4, MEMORIZER_ALLOC_PERCPU, MEMORIZER_FREE_PAGES, KMAP_RULE_OK, "" },
		{ 4, MEMORIZER_ALLOC_CACHE, MEMORIZER_FREE_KFREE, KMAP_RULE_OK, "" },
		{ 3, MEMORIZER_ALLOC_PERCPU, MEMORIZER_FREE_PERCPU, KMAP_RULE_OK, "" },
		/* Unknown kinds and apis are their records' own errors. */
		{ 4, MEMORIZER_ALLOC_STACK + 1, MEMORIZER_FREE_MODULE, KMAP_RULE_OK, "" },
		{ 4, MEMORIZER_ALLOC_GLOBAL, MEMORIZER_FREE_MODULE + 1, KMAP_RULE_OK, "" },
	};
	char err[KMAP_ERR_MAX];
	size_t i;
	unsigned int k;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		int v;

		err[0] = 0;
		v = kmap_rule_bin_freed(c[i].version, 9, c[i].kind, c[i].api,
					err);
		if (v != c[i].verdict || (v && strcmp(err, c[i].want)))
			fail_msg("case %zu: got %d '%s', want %d '%s'", i, v,
				 v ? err : "", c[i].verdict, c[i].want);
	}
	/* Every kind but global, freed by its own api, in every version. */
	for (k = 0; k <= MEMORIZER_ALLOC_STACK; k++)
		if (k != MEMORIZER_ALLOC_GLOBAL)
			for (i = 1; i <= MEMORIZER_STREAM_VERSION; i++)
				assert_int_equal(kmap_rule_bin_freed(i, 9, k,
						 kmap_kind(k)->free_api, err),
						 KMAP_RULE_OK);
}

/*
 * Version 3's found objects in a text kmap: pid 0 and a found word mean
 * alloc_ip is the object's address; percpu ones may be freed (an
 * alloc_percpu() area), and globals (a module's, at its unload).
 */
static void test_rules_found_text(void **state)
{
	static const struct {
		const char *comm;
		uint32_t pid;
		uint64_t alloc_ip;
		int freed, verdict;
		const char *want;
	} c[] = {
		{ "percpu", 0, 0, 0, KMAP_RULE_OK, "" },
		{ "percpu", 0, 0, 1, KMAP_RULE_OK, "" },
		{ "percpu", 0, 0xffffffff81000000ull, 1, KMAP_RULE_ERROR,
		  "found object ffff88807fc1a040 (percpu, pid 0) with alloc_ip ffffffff81000000: a found object's alloc_ip is its own address" },
		{ "global", 0, 0, 1, KMAP_RULE_OK, "" },
		{ "global", 0, 0xffffffff81000000ull, 1, KMAP_RULE_ERROR,
		  "found object ffff88807fc1a040 (global, pid 0) with alloc_ip ffffffff81000000: a found object's alloc_ip is its own address" },
		{ "percpu", 0, 0xffffffff81000000ull, 0, KMAP_RULE_ERROR,
		  "found object ffff88807fc1a040 (percpu, pid 0) with alloc_ip ffffffff81000000: a found object's alloc_ip is its own address" },
		/* Found slab objects, pages and IRQ stacks may be freed. */
		{ "unseen", 0, 0, 1, KMAP_RULE_OK, "" },
		{ "unseen", 0, 0xffffffff81000000ull, 1, KMAP_RULE_ERROR,
		  "found object ffff88807fc1a040 (unseen, pid 0) with alloc_ip ffffffff81000000: a found object's alloc_ip is its own address" },
		{ "page", 0, 0, 1, KMAP_RULE_OK, "" },
		{ "page", 0, 0xffffffff81000000ull, 0, KMAP_RULE_ERROR,
		  "found object ffff88807fc1a040 (page, pid 0) with alloc_ip ffffffff81000000: a found object's alloc_ip is its own address" },
		{ "irq_stack", 0, 0, 1, KMAP_RULE_OK, "" },
		{ "irq_stack", 0, 0xffffffff81000000ull, 0, KMAP_RULE_ERROR,
		  "found object ffff88807fc1a040 (irq_stack, pid 0) with alloc_ip ffffffff81000000: a found object's alloc_ip is its own address" },
		/* Tasks of those names; the idle task; a found task stack. */
		{ "percpu", 7, 0xffffffff81000000ull, 1, KMAP_RULE_OK, "" },
		{ "unseen", 7, 0xffffffff81000000ull, 1, KMAP_RULE_OK, "" },
		{ "swapper/0", 0, 0xffffffff81000000ull, 1, KMAP_RULE_OK, "" },
		{ "tar", 146, 0, 1, KMAP_RULE_OK, "" },
	};
	char err[KMAP_ERR_MAX];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct kmap_object o = { .addr = 0xffff88807fc1a040ull,
					 .size = 8, .alloc_jiffies = 100 };
		int v;

		o.alloc_ip = c[i].alloc_ip ? c[i].alloc_ip : o.addr;
		o.pid = c[i].pid;
		strcpy(o.comm, c[i].comm);
		if (c[i].freed) {
			o.free_jiffies = 120;
			o.free_ip = 0xffffffff81100000ull;
		}
		err[0] = 0;
		v = kmap_rule_object(&o, err);
		if (v != c[i].verdict || (v && strcmp(err, c[i].want)))
			fail_msg("case %zu: got %d '%s', want %d '%s'", i, v,
				 v ? err : "", c[i].verdict, c[i].want);
	}
}

/* ALLOC rules of version 3's kinds and found objects, exactly. */
static void test_rules_found_bin(void **state)
{
	static const struct {
		int kind, context, pid, with_task;
		uint64_t addr, call_site;
		int verdict;
		const char *want;
	} c[] = {
		/* Per-CPU objects: as globals, only found, no task. */
		{ MEMORIZER_ALLOC_PERCPU, MEMORIZER_CONTEXT_FOUND, 0, 0, 0, 0,
		  KMAP_RULE_OK, "" },
		{ MEMORIZER_ALLOC_PERCPU, MEMORIZER_CONTEXT_TASK, 5, 1, 0,
		  0xffffffff81000000ull, KMAP_RULE_ERROR,
		  "percpu object with context task: the allocation of percpu objects is never seen, their context is found" },
		{ MEMORIZER_ALLOC_PERCPU, MEMORIZER_CONTEXT_FOUND, 0, 0, 0,
		  0xffffffff81000000ull, KMAP_RULE_ERROR,
		  "found percpu object ffff88807fc1a040 with call_site ffffffff81000000: a found object's call_site is its own address" },
		{ MEMORIZER_ALLOC_PERCPU, MEMORIZER_CONTEXT_FOUND, 5, 1, 0, 0,
		  KMAP_RULE_ERROR,
		  "found percpu object with pid 5 (no allocation was seen: pid is 0, but for a task's stack)" },
		/* Stacks: an IRQ stack (pid 0), a task's (its pid, its TASK). */
		{ MEMORIZER_ALLOC_STACK, MEMORIZER_CONTEXT_FOUND, 0, 0, 0, 0,
		  KMAP_RULE_OK, "" },
		{ MEMORIZER_ALLOC_STACK, MEMORIZER_CONTEXT_FOUND, 5, 1, 0, 0,
		  KMAP_RULE_OK, "" },
		{ MEMORIZER_ALLOC_STACK, MEMORIZER_CONTEXT_FOUND, 5, 0, 0, 0,
		  KMAP_RULE_WARNING,
		  "no TASK record for pid 5 on cpu 0 before its allocation" },
		{ MEMORIZER_ALLOC_STACK, MEMORIZER_CONTEXT_FOUND, 5, 1, 0,
		  0xffffffff81000000ull, KMAP_RULE_ERROR,
		  "found stack object ffff88807fc1a040 with call_site ffffffff81000000: a found object's call_site is its own address" },
		{ MEMORIZER_ALLOC_STACK, MEMORIZER_CONTEXT_TASK, 5, 1, 0,
		  0xffffffff81000000ull, KMAP_RULE_OK, "" },
		{ MEMORIZER_ALLOC_STACK, MEMORIZER_CONTEXT_HARDIRQ, 5, 1, 0,
		  0xffffffff81000000ull, KMAP_RULE_ERROR,
		  "interrupt-context allocation with pid 5" },
		/* Slab objects and pages: found with pid 0 only. */
		{ MEMORIZER_ALLOC_KMALLOC, MEMORIZER_CONTEXT_FOUND, 0, 0, 0, 0,
		  KMAP_RULE_OK, "" },
		{ MEMORIZER_ALLOC_CACHE, MEMORIZER_CONTEXT_FOUND, 0, 0, 0, 0,
		  KMAP_RULE_OK, "" },
		{ MEMORIZER_ALLOC_PAGES, MEMORIZER_CONTEXT_FOUND, 0, 0, 0, 0,
		  KMAP_RULE_OK, "" },
		{ MEMORIZER_ALLOC_CACHE, MEMORIZER_CONTEXT_FOUND, 5, 1, 0, 0,
		  KMAP_RULE_ERROR,
		  "found kmem_cache object with pid 5 (no allocation was seen: pid is 0, but for a task's stack)" },
		{ MEMORIZER_ALLOC_KMALLOC, MEMORIZER_CONTEXT_FOUND, 0, 0, 0,
		  0xffffffff81000000ull, KMAP_RULE_ERROR,
		  "found kmalloc object ffff88807fc1a040 with call_site ffffffff81000000: a found object's call_site is its own address" },
		{ MEMORIZER_ALLOC_PAGES, MEMORIZER_CONTEXT_FOUND, 0, 0, 0,
		  0xffffffff81000000ull, KMAP_RULE_ERROR,
		  "found pages object ffff88807fc1a040 with call_site ffffffff81000000: a found object's call_site is its own address" },
		/* Never found. */
		{ MEMORIZER_ALLOC_KMALLOC_LARGE, MEMORIZER_CONTEXT_FOUND, 0, 0, 0,
		  0, KMAP_RULE_ERROR,
		  "kmalloc_large object with context found: kmalloc_large objects are never found, their allocation is always seen" },
		{ MEMORIZER_ALLOC_VMALLOC, MEMORIZER_CONTEXT_FOUND, 0, 0, 0, 0,
		  KMAP_RULE_ERROR,
		  "vmalloc object with context found: vmalloc objects are never found, their allocation is always seen" },
		/* call_site 0 stays an error, even at address 0. */
		{ MEMORIZER_ALLOC_PAGES, MEMORIZER_CONTEXT_FOUND, 0, 0, 1, 0,
		  KMAP_RULE_ERROR, "call_site is 0" },
	};
	char err[KMAP_ERR_MAX];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct sbuf s = { .len = 0 };
		int v;

		header_version(&s, 1, 3);
		if (c[i].with_task)
			task(&s, 0, c[i].pid, "kworker/0:1");
		alloc_kind(&s, 0, 1, c[i].addr ? 0 : 0xffff88807fc1a040ull,
			   c[i].call_site, c[i].pid, c[i].kind, c[i].context);
		v = alloc_verdict(&s, err);
		if (v != c[i].verdict || strcmp(err, c[i].want))
			fail_msg("case %zu: got %d '%s', want %d '%s'", i, v,
				 err, c[i].verdict, c[i].want);
	}
}

/* Write s to a file and open it as an object source. */
static struct kmap_src *src_of(struct sbuf *s, char *path)
{
	char err[KMAP_ERR_MAX];
	int fd = mkstemp(path);
	struct kmap_src *src;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, s->b, s->len), (ssize_t)s->len);
	close(fd);
	src = kmap_src_open(path, err);
	assert_non_null(src);
	return src;
}

/* A global from a stream: the kernel's kmap line, byte for byte. */
static void test_src_global(void **state)
{
	struct sbuf s = { .len = 0 };
	char path[] = "/tmp/kmap-unit-XXXXXX";
	struct kmap_src *src;
	const struct kmap_object *o;
	const struct kmap_access *a;
	char *buf = NULL;
	size_t n, len = 0;
	FILE *f;

	(void)state;
	header(&s, 2);
	alloc_global(&s, 1, 1, 0xffffffff82a01000ull);
	access_rec(&s, 1, 1, 0xffffffff81000010ull, 7, 2, 3);
	access_rec(&s, 0, 1, 0xffffffff81000010ull, 7, 1, 0);
	src = src_of(&s, path);
	assert_int_equal(kmap_src_next(src, &o, &a, &n), 1);
	assert_int_equal(o->kind, MEMORIZER_ALLOC_GLOBAL);
	assert_int_equal(o->context, MEMORIZER_CONTEXT_FOUND);
	assert_int_equal(kmap_object_kind(o), MEMORIZER_ALLOC_GLOBAL);
	f = open_memstream(&buf, &len);
	assert_int_equal(kmap_write_object(f, o), 0);
	assert_int_equal(n, 1);
	assert_int_equal(kmap_write_access(f, &a[0]), 0);
	fclose(f);
	assert_string_equal(buf, "ffffffff82a01000,0,ffffffff82a01000,16,1001,0,0,global\n"
				 "  ffffffff81000010,7,3,3\n");
	free(buf);
	assert_int_equal(kmap_src_next(src, &o, &a, &n), 0);
	kmap_src_close(src);
	unlink(path);

	/* Read back as text, it is a global again. */
	{
		struct kmap_object t;
		struct kmap_access ta;
		char err[KMAP_ERR_MAX];
		static const char line[] = "ffffffff82a01000,0,ffffffff82a01000,16,1001,0,0,global";

		assert_int_equal(kmap_parse_line(line, strlen(line), &t, &ta, err),
				 KMAP_LINE_OBJECT);
		assert_int_equal(kmap_object_kind(&t), MEMORIZER_ALLOC_GLOBAL);
		assert_int_equal(kmap_rule_object(&t, err), KMAP_RULE_OK);
	}
}

/*
 * Before version 4, a FREE of a global is refused, after its ALLOC or
 * before it, missed or not.
 */
static void test_src_global_freed(void **state)
{
	struct sbuf s = { .len = 0 };
	char path[] = "/tmp/kmap-unit-XXXXXX", path2[] = "/tmp/kmap-unit-XXXXXX";
	struct kmap_src *src;
	const struct kmap_object *o;
	const struct kmap_access *a;
	size_t n;

	(void)state;
	header_version(&s, 2, 3);
	alloc_global(&s, 0, 1, 0xffffffff82a01000ull);
	free_rec(&s, 0, 1, MEMORIZER_FREE_KFREE);
	src = src_of(&s, path);
	assert_int_equal(kmap_src_next(src, &o, &a, &n), -1);
	assert_string_equal(kmap_src_error(src) + strlen(path),
			    ": byte 128: FREE of object id 1, a global object, in a version 3 stream: global objects are never freed before version 4");
	kmap_src_close(src);
	unlink(path);

	/* The FREE first, from another CPU: refused at the ALLOC. */
	s.len = 0;
	header_version(&s, 2, 3);
	free_rec(&s, 1, 1, MEMORIZER_FREE_MISSED);
	alloc_global(&s, 0, 1, 0xffffffff82a01000ull);
	src = src_of(&s, path2);
	assert_int_equal(kmap_src_next(src, &o, &a, &n), -1);
	assert_string_equal(kmap_src_error(src) + strlen(path2),
			    ": byte 104: FREE of object id 1, a global object, in a version 3 stream: global objects are never freed before version 4");
	kmap_src_close(src);
	unlink(path2);
}

/* s as an object source: its first error, after its path; "" if none. */
static const char *src_error_of(struct sbuf *s, char *buf, size_t len)
{
	char path[] = "/tmp/kmap-unit-XXXXXX";
	struct kmap_src *src = src_of(s, path);
	const struct kmap_object *o;
	const struct kmap_access *a;
	size_t n;

	while (kmap_src_next(src, &o, &a, &n) == 1)
		;
	snprintf(buf, len, "%s", kmap_src_error(src)[0] ?
		 kmap_src_error(src) + strlen(path) : "");
	kmap_src_close(src);
	unlink(path);
	return buf;
}

/*
 * Version 4: a module's global, found, accessed and freed when its module
 * is unloaded (api module, the unload's caller as call_site); its kmap
 * line is a freed global's, which the text rules take. A global closed as
 * missed, its FREE read first, is valid too; a global freed by kfree, api
 * module on a kmalloc object and api module in a version 3 stream are
 * refused.
 */
static void test_src_module_global_freed(void **state)
{
	struct sbuf s = { .len = 0 };
	char path[] = "/tmp/kmap-unit-XXXXXX", err[KMAP_ERR_MAX];
	struct kmap_src *src;
	const struct kmap_object *o;
	const struct kmap_access *a;
	struct kmap_object t;
	struct kmap_access ta;
	char *buf = NULL;
	size_t n, i, len = 0;
	FILE *f;

	(void)state;
	header(&s, 2);
	alloc_global(&s, 0, 1, 0xffffffffa0002000ull);
	access_rec(&s, 0, 1, 0xffffffffa0000010ull, 7, 1, 2);
	free_rec(&s, 0, 1, MEMORIZER_FREE_MODULE);
	free_rec(&s, 1, 2, MEMORIZER_FREE_MISSED);
	alloc_global(&s, 0, 2, 0xffffffffa0002040ull);
	alloc_global(&s, 1, 3, 0xffffffff82a01000ull);
	src = src_of(&s, path);
	f = open_memstream(&buf, &len);
	while (kmap_src_next(src, &o, &a, &n) == 1) {
		assert_int_equal(o->kind, MEMORIZER_ALLOC_GLOBAL);
		assert_int_equal(kmap_object_kind(o), MEMORIZER_ALLOC_GLOBAL);
		if (o->id == 3) {
			assert_false(kmap_object_freed(o));
			assert_false(o->has & KMAP_HAS_FREE_API);
		} else {
			assert_true(kmap_object_freed(o));
			assert_true(o->has & KMAP_HAS_FREE_API);
			assert_int_equal(o->free_api, o->id == 1 ?
					 MEMORIZER_FREE_MODULE :
					 MEMORIZER_FREE_MISSED);
		}
		assert_int_equal(kmap_write_object(f, o), 0);
		for (i = 0; i < n; i++)
			assert_int_equal(kmap_write_access(f, &a[i]), 0);
	}
	fclose(f);
	assert_string_equal(kmap_src_error(src), "");
	assert_string_equal(buf,
		"ffffffffa0002000,0,ffffffffa0002000,16,1001,2001,ffffffff81100000,global\n"
		"  ffffffffa0000010,7,1,2\n"
		"ffffffffa0002040,0,ffffffffa0002040,16,1002,2002,deadbeef,global\n"
		"ffffffff82a01000,0,ffffffff82a01000,16,1003,0,0,global\n");
	/* Read back as text: a freed global, valid. */
	assert_int_equal(kmap_parse_line(buf, strcspn(buf, "\n"), &t, &ta, err),
			 KMAP_LINE_OBJECT);
	assert_int_equal(kmap_object_kind(&t), MEMORIZER_ALLOC_GLOBAL);
	assert_true(kmap_object_freed(&t));
	assert_int_equal(kmap_rule_object(&t, err), KMAP_RULE_OK);
	free(buf);
	kmap_src_close(src);
	unlink(path);

	/* A global freed by kfree: refused, after its ALLOC or before. */
	s.len = 0;
	header(&s, 2);
	alloc_global(&s, 0, 1, 0xffffffffa0002000ull);
	free_rec(&s, 0, 1, MEMORIZER_FREE_KFREE);
	assert_string_equal(src_error_of(&s, err, sizeof(err)),
			    ": byte 128: FREE of object id 1, a global object, by api 0 (kfree): global objects are freed by api 6 (module) or missed only");
	s.len = 0;
	header(&s, 2);
	free_rec(&s, 1, 1, MEMORIZER_FREE_PAGES);
	alloc_global(&s, 0, 1, 0xffffffffa0002000ull);
	assert_string_equal(src_error_of(&s, err, sizeof(err)),
			    ": byte 104: FREE of object id 1, a global object, by api 3 (free_pages): global objects are freed by api 6 (module) or missed only");
	/* Api module frees globals only: refused on a kmalloc object. */
	s.len = 0;
	header(&s, 2);
	task(&s, 0, 7, "tar");
	alloc(&s, 0, 1, 0x1000, 7);
	free_rec(&s, 0, 1, MEMORIZER_FREE_MODULE);
	assert_string_equal(src_error_of(&s, err, sizeof(err)),
			    ": byte 168: FREE of object id 1, a kmalloc object, by api 6 (module): api module frees global objects only");
	s.len = 0;
	header(&s, 2);
	free_rec(&s, 1, 1, MEMORIZER_FREE_MODULE);
	task(&s, 0, 7, "tar");
	alloc(&s, 0, 1, 0x1000, 7);
	assert_string_equal(src_error_of(&s, err, sizeof(err)),
			    ": byte 144: FREE of object id 1, a kmalloc object, by api 6 (module): api module frees global objects only");
	/* Api module in a version 3 stream: refused at the FREE record. */
	s.len = 0;
	header_version(&s, 2, 3);
	alloc_global(&s, 0, 1, 0xffffffffa0002000ull);
	free_rec(&s, 0, 1, MEMORIZER_FREE_MODULE);
	assert_string_equal(src_error_of(&s, err, sizeof(err)),
			    ": byte 128: free api 6 (module) in a version 3 stream: new in version 4");
}

/*
 * Version 3's found objects from a stream: each kind's word, a task's
 * stack its task's command (the TASK record on its CPU), frees by the
 * kind's API.
 */
static void test_src_found(void **state)
{
	struct sbuf s = { .len = 0 };
	char path[] = "/tmp/kmap-unit-XXXXXX";
	struct kmap_src *src;
	const struct kmap_object *o;
	const struct kmap_access *a;
	char *buf = NULL;
	size_t n, len = 0;
	FILE *f;
	int kinds = 0;

	(void)state;
	header(&s, 2);
	task(&s, 0, 5, "kworker/0:1");
	task(&s, 1, 0, "swapper/1");
	alloc_kind(&s, 1, 1, 0xffff88807fc1a040ull, 0, 0,
		   MEMORIZER_ALLOC_PERCPU, MEMORIZER_CONTEXT_FOUND);
	alloc_kind(&s, 1, 2, 0xffffc90000000000ull, 0, 0,
		   MEMORIZER_ALLOC_STACK, MEMORIZER_CONTEXT_FOUND);
	alloc_kind(&s, 0, 3, 0xffffc90000340000ull, 0, 5,
		   MEMORIZER_ALLOC_STACK, MEMORIZER_CONTEXT_FOUND);
	alloc_kind(&s, 0, 4, 0xffff888003c1e080ull, 0, 0,
		   MEMORIZER_ALLOC_KMALLOC, MEMORIZER_CONTEXT_FOUND);
	alloc_kind(&s, 0, 5, 0xffff888004a2d0c0ull, 0, 0,
		   MEMORIZER_ALLOC_CACHE, MEMORIZER_CONTEXT_FOUND);
	alloc_kind(&s, 1, 6, 0xffff888005e00000ull, 0, 0,
		   MEMORIZER_ALLOC_PAGES, MEMORIZER_CONTEXT_FOUND);
	/* pid 5 has no TASK record on cpu 1: its stack found there is ?. */
	alloc_kind(&s, 1, 7, 0xffffc90000348000ull, 0, 5,
		   MEMORIZER_ALLOC_STACK, MEMORIZER_CONTEXT_FOUND);
	free_rec(&s, 0, 3, MEMORIZER_FREE_PAGES);
	free_rec(&s, 0, 4, MEMORIZER_FREE_KFREE);
	free_rec(&s, 0, 5, MEMORIZER_FREE_CACHE);
	free_rec(&s, 1, 6, MEMORIZER_FREE_MISSED);
	src = src_of(&s, path);
	f = open_memstream(&buf, &len);
	while (kmap_src_next(src, &o, &a, &n) == 1) {
		assert_int_equal(o->context, MEMORIZER_CONTEXT_FOUND);
		assert_int_equal(kmap_object_kind(o), o->kind);
		kinds |= 1 << o->kind;
		assert_int_equal(kmap_write_object(f, o), 0);
	}
	fclose(f);
	assert_string_equal(kmap_src_error(src), "");
	assert_int_equal(kinds, 1 << MEMORIZER_ALLOC_PERCPU |
			 1 << MEMORIZER_ALLOC_STACK | 1 << MEMORIZER_ALLOC_KMALLOC |
			 1 << MEMORIZER_ALLOC_CACHE | 1 << MEMORIZER_ALLOC_PAGES);
	assert_string_equal(buf,
		"ffffc90000340000,5,ffffc90000340000,16,1003,2003,ffffffff81100000,kworker/0:1\n"
		"ffff888003c1e080,0,ffff888003c1e080,16,1004,2004,ffffffff81100000,unseen\n"
		"ffff888004a2d0c0,0,ffff888004a2d0c0,16,1005,2005,ffffffff81100000,unseen\n"
		"ffff888005e00000,0,ffff888005e00000,16,1006,2006,deadbeef,page\n"
		"ffff88807fc1a040,0,ffff88807fc1a040,16,1001,0,0,percpu\n"
		"ffffc90000000000,0,ffffc90000000000,16,1002,0,0,irq_stack\n"
		"ffffc90000348000,5,ffffc90000348000,16,1007,0,0,?\n");
	free(buf);
	kmap_src_close(src);
	unlink(path);
}

/*
 * A per-CPU object may be freed: an alloc_percpu() area, by free_percpu()
 * (free api percpu, version 3's), its FREE read after its ALLOC or before
 * it (another CPU's); its kmap line is a freed percpu one, which the text
 * rules take.
 */
static void test_src_percpu_freed(void **state)
{
	struct sbuf s = { .len = 0 };
	char path[] = "/tmp/kmap-unit-XXXXXX", err[KMAP_ERR_MAX];
	struct kmap_src *src;
	const struct kmap_object *o;
	const struct kmap_access *a;
	struct kmap_object t;
	struct kmap_access ta;
	char *buf = NULL;
	size_t n, len = 0;
	FILE *f;

	(void)state;
	header(&s, 2);
	alloc_kind(&s, 0, 1, 0xffff88807fc1a040ull, 0, 0,
		   MEMORIZER_ALLOC_PERCPU, MEMORIZER_CONTEXT_FOUND);
	access_rec(&s, 0, 1, 0xffffffff81000010ull, 7, 1, 2);
	free_rec(&s, 0, 1, MEMORIZER_FREE_PERCPU);
	free_rec(&s, 1, 2, MEMORIZER_FREE_PERCPU);
	alloc_kind(&s, 0, 2, 0xffff88807fc1b040ull, 0, 0,
		   MEMORIZER_ALLOC_PERCPU, MEMORIZER_CONTEXT_FOUND);
	src = src_of(&s, path);
	f = open_memstream(&buf, &len);
	while (kmap_src_next(src, &o, &a, &n) == 1) {
		assert_int_equal(o->kind, MEMORIZER_ALLOC_PERCPU);
		assert_true(o->has & KMAP_HAS_FREE_API);
		assert_int_equal(o->free_api, MEMORIZER_FREE_PERCPU);
		assert_int_equal(kmap_write_object(f, o), 0);
	}
	fclose(f);
	assert_string_equal(kmap_src_error(src), "");
	assert_string_equal(buf,
		"ffff88807fc1a040,0,ffff88807fc1a040,16,1001,2001,ffffffff81100000,percpu\n"
		"ffff88807fc1b040,0,ffff88807fc1b040,16,1002,2002,ffffffff81100000,percpu\n");
	/* Read back as text: a freed percpu object, valid. */
	assert_int_equal(kmap_parse_line(buf, strcspn(buf, "\n"), &t, &ta, err),
			 KMAP_LINE_OBJECT);
	assert_int_equal(kmap_object_kind(&t), MEMORIZER_ALLOC_PERCPU);
	assert_true(kmap_object_freed(&t));
	assert_int_equal(kmap_rule_object(&t, err), KMAP_RULE_OK);
	free(buf);
	kmap_src_close(src);
	unlink(path);
}

/* The FREE record of one api in a stream of version, under kmap_rule_bin. */
static int free_verdict(unsigned int version, int api, uint64_t call_site,
			char *err)
{
	struct sbuf s = { .len = 0 };
	struct memorizer_rec_free *fr;
	struct kmap_bin_reader *r;
	struct kmap_bin_rec rec;
	int t, verdict = -1;

	header_version(&s, 1, version);
	free_rec(&s, 0, 1, api);
	fr = (void *)(s.b + s.len - sizeof(*fr));
	fr->call_site = call_site;
	r = kmap_bin_open_mem(s.b, s.len, "s");
	err[0] = 0;
	t = kmap_bin_next(r, &rec);
	assert_int_equal(t, 1);
	assert_int_equal(rec.type, MEMORIZER_REC_FREE);
	verdict = kmap_rule_bin(r, &rec, err);
	kmap_bin_close(r);
	return verdict;
}

/*
 * FREE api values known in the stream's version: free_percpu is 3's,
 * module 4's; a module free has its unload's caller as call_site.
 */
static void test_rules_free_api(void **state)
{
	static const struct {
		unsigned int version;
		int api;
		uint64_t call_site;
		int verdict;
		const char *want;
	} c[] = {
		{ 1, MEMORIZER_FREE_KFREE, 0xffffffff81100000ull, KMAP_RULE_OK, "" },
		{ 2, MEMORIZER_FREE_PAGES, 0xffffffff81100000ull, KMAP_RULE_OK, "" },
		{ 1, MEMORIZER_FREE_MISSED, 0xdeadbeef, KMAP_RULE_OK, "" },
		{ 3, MEMORIZER_FREE_PERCPU, 0xffffffff81100000ull, KMAP_RULE_OK, "" },
		{ 3, MEMORIZER_FREE_MISSED, 0xdeadbeef, KMAP_RULE_OK, "" },
		{ 2, MEMORIZER_FREE_PERCPU, 0xffffffff81100000ull, KMAP_RULE_ERROR,
		  "free api 5 (free_percpu) in a version 2 stream: new in version 3" },
		{ 1, MEMORIZER_FREE_PERCPU, 0xffffffff81100000ull, KMAP_RULE_ERROR,
		  "free api 5 (free_percpu) in a version 1 stream: new in version 3" },
		{ 4, MEMORIZER_FREE_PERCPU, 0xffffffff81100000ull, KMAP_RULE_OK, "" },
		{ 4, MEMORIZER_FREE_MODULE, 0xffffffff81100000ull, KMAP_RULE_OK, "" },
		{ 4, MEMORIZER_FREE_MISSED, 0xdeadbeef, KMAP_RULE_OK, "" },
		{ 3, MEMORIZER_FREE_MODULE, 0xffffffff81100000ull, KMAP_RULE_ERROR,
		  "free api 6 (module) in a version 3 stream: new in version 4" },
		{ 2, MEMORIZER_FREE_MODULE, 0xffffffff81100000ull, KMAP_RULE_ERROR,
		  "free api 6 (module) in a version 2 stream: new in version 4" },
		{ 1, MEMORIZER_FREE_MODULE, 0xffffffff81100000ull, KMAP_RULE_ERROR,
		  "free api 6 (module) in a version 1 stream: new in version 4" },
		{ 4, MEMORIZER_FREE_MODULE, 0, KMAP_RULE_ERROR,
		  "module free with call_site 0: a module free's call_site is its unload's caller" },
		{ 4, MEMORIZER_FREE_MODULE, 0xdeadbeef, KMAP_RULE_ERROR,
		  "module free with call_site deadbeef: a module free's call_site is its unload's caller" },
		{ 4, MEMORIZER_FREE_MODULE + 1, 0xffffffff81100000ull,
		  KMAP_RULE_ERROR, "unknown free api 7" },
		{ 3, MEMORIZER_FREE_MODULE + 1, 0xffffffff81100000ull,
		  KMAP_RULE_ERROR, "unknown free api 7" },
		{ 4, 255, 0xffffffff81100000ull, KMAP_RULE_ERROR,
		  "unknown free api 255" },
		{ 3, MEMORIZER_FREE_MISSED, 0xffffffff81100000ull, KMAP_RULE_ERROR,
		  "missed free with call_site ffffffff81100000, not deadbeef" },
	};
	char err[KMAP_ERR_MAX];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		int v = free_verdict(c[i].version, c[i].api, c[i].call_site,
				     err);

		if (v != c[i].verdict || strcmp(err, c[i].want))
			fail_msg("case %zu: got %d '%s', want %d '%s'", i, v,
				 err, c[i].verdict, c[i].want);
	}
}

/* api free_percpu in a version 2 stream: refused, whatever it frees. */
static void test_src_free_api_version2(void **state)
{
	struct sbuf s = { .len = 0 };
	char path[] = "/tmp/kmap-unit-XXXXXX";
	struct kmap_src *src;
	const struct kmap_object *o;
	const struct kmap_access *a;
	size_t n;

	(void)state;
	header_version(&s, 1, 2);
	task(&s, 0, 7, "tar");
	alloc(&s, 0, 1, 0x1000, 7);
	free_rec(&s, 0, 1, MEMORIZER_FREE_PERCPU);
	src = src_of(&s, path);
	assert_int_equal(kmap_src_next(src, &o, &a, &n), -1);
	assert_string_equal(kmap_src_error(src) + strlen(path),
			    ": byte 168: free api 5 (free_percpu) in a version 2 stream: new in version 3");
	kmap_src_close(src);
	unlink(path);
}

/* A version 1 stream: read as before. */
static void test_src_version1(void **state)
{
	struct sbuf s = { .len = 0 };
	char path[] = "/tmp/kmap-unit-XXXXXX";
	struct kmap_src *src;
	const struct kmap_object *o;
	const struct kmap_access *a;
	size_t n;

	(void)state;
	header_version(&s, 1, 1);
	task(&s, 0, 7, "tar");
	alloc(&s, 0, 1, 0x1000, 7);
	free_rec(&s, 0, 1, MEMORIZER_FREE_KFREE);
	src = src_of(&s, path);
	assert_int_equal(kmap_src_next(src, &o, &a, &n), 1);
	assert_string_equal(o->comm, "tar");
	assert_int_equal(kmap_object_kind(o), MEMORIZER_ALLOC_KMALLOC);
	assert_int_equal(kmap_src_next(src, &o, &a, &n), 0);
	kmap_src_close(src);
	unlink(path);
}

static void test_map(void **state)
{
	struct kmap_map m;
	uint64_t i;
	int is_new;

	(void)state;
	kmap_map_init(&m);
	for (i = 0; i < 100000; i++) {
		uint64_t *v = kmap_map_get(&m, i * 7919, &is_new);

		assert_true(is_new);
		*v = i;
	}
	for (i = 0; i < 100000; i += 2)
		assert_int_equal(kmap_map_del(&m, i * 7919), 1);
	for (i = 0; i < 100000; i++) {
		uint64_t *v = kmap_map_find(&m, i * 7919);

		if (i % 2)
			assert_true(v && *v == i);
		else
			assert_null(v);
	}
	assert_int_equal(m.len, 50000);
	assert_int_equal(kmap_map_del(&m, 12345678), 0);
	/* Any key: 0 and UINT64_MAX (the free slots' mark) too. */
	{
		uint64_t *v, key, sum = 0, n = 0;
		size_t pos = 0;

		assert_null(kmap_map_find(&m, UINT64_MAX));
		v = kmap_map_get(&m, UINT64_MAX, &is_new);
		assert_true(is_new);
		*v = 7;
		v = kmap_map_get(&m, 0, &is_new);
		assert_true(is_new);
		*v = 9;
		assert_int_equal(m.len, 50002);
		assert_true(*kmap_map_get(&m, UINT64_MAX, &is_new) == 7 && !is_new);
		while (kmap_map_next(&m, &pos, &key, &v)) {
			n++;
			sum += *v;
			assert_true(key == UINT64_MAX || key % 7919 == 0);
		}
		assert_int_equal(n, 50002);
		/* the odd i of 1..99999: 2500000000, and 7 and 9 */
		assert_true(sum == 2500000000ull + 16);
		assert_int_equal(kmap_map_del(&m, UINT64_MAX), 1);
		assert_null(kmap_map_find(&m, UINT64_MAX));
		assert_int_equal(m.len, 50001);
	}
	kmap_map_free(&m);
}

static void test_sym_map(void **state)
{
	char path[] = "/tmp/kmap-unit-XXXXXX", err[KMAP_ERR_MAX], out[256];
	int fd = mkstemp(path);
	static const char map[] =
		"ffffffff81000000 T _stext\n"
		"ffffffff81000100 t helper\n"
		"ffffffff81000100 T helper_alias\n"
		"ffffffff81000200 D some_data\n"
		"ffffffff81000300 T last\n"
		"ffffffff81000340 T _etext\n";
	struct kmap_sym *s;
	uint64_t start;

	(void)state;
	assert_int_equal(write(fd, map, strlen(map)), (ssize_t)strlen(map));
	close(fd);
	s = kmap_sym_open_map(path, err);
	assert_non_null(s);
	assert_int_equal(kmap_sym_describe(s, 0xffffffff81000104ull, out, sizeof(out)), 1);
	assert_string_equal(out, "helper+0x4/0x200");
	assert_string_equal(kmap_sym_function(s, 0xffffffff81000310ull, &start), "last");
	assert_true(start == 0xffffffff81000300ull);
	assert_int_equal(kmap_sym_describe(s, 0xffffffff81000350ull, out, sizeof(out)), 1);
	assert_string_equal(out, "_etext+0x10/0x1000");
	assert_int_equal(kmap_sym_describe(s, 0x10, out, sizeof(out)), 0);
	assert_string_equal(out, "10");
	kmap_sym_close(s);
	unlink(path);
}

/*
 * A table large enough for find()'s buckets, its functions of uneven
 * sizes (gaps of 1 to 4000 bytes, some spans with none, some with many):
 * each ip's function and start are those a scan of the table finds.
 */
static void test_sym_buckets(void **state)
{
	char path[] = "/tmp/kmap-unit-XXXXXX", err[KMAP_ERR_MAX], name[32];
	enum { NSYMS = 500 };
	uint64_t addr[NSYMS], ip, start;
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	struct kmap_sym *s;
	size_t i;

	(void)state;
	assert_non_null(f);
	addr[0] = 0xffffffff81000000ull;
	for (i = 1; i < NSYMS; i++)
		addr[i] = addr[i - 1] + 1 + (i * i * 37 % 97 == 0 ? 4000 :
					     i * 7919 % 61);
	for (i = 0; i < NSYMS; i++)
		fprintf(f, "%llx T f%zu\n", (unsigned long long)addr[i], i);
	fclose(f);
	s = kmap_sym_open_map(path, err);
	unlink(path);
	assert_non_null(s);
	assert_null(kmap_sym_function(s, addr[0] - 1, &start));
	assert_null(kmap_sym_function(s, 0, &start));
	for (i = 0, ip = addr[0]; ip < addr[NSYMS - 1]; ip++) {
		while (addr[i + 1] <= ip)
			i++;
		snprintf(name, sizeof(name), "f%zu", i);
		assert_string_equal(kmap_sym_function(s, ip, &start), name);
		assert_true(start == addr[i]);
	}
	assert_string_equal(kmap_sym_function(s, addr[NSYMS - 1], &start),
			    "f499");
	assert_null(kmap_sym_function(s, UINT64_MAX, &start));
	kmap_sym_close(s);
}

/* kmap_sym_read_map(): every line's fields, in order, as kallsyms has them. */
struct ksyms_seen {
	char line[8][80];
	int n;
};

static int ksym_seen(void *ctx, const struct kmap_ksym *k)
{
	struct ksyms_seen *seen = ctx;

	if (seen->n == 8)
		return -1;
	snprintf(seen->line[seen->n++], sizeof(seen->line[0]), "%llx %c %s [%s]",
		 (unsigned long long)k->addr, k->type, k->name, k->module);
	return 0;
}

/* Write text to a new temporary file, its name into path. */
static void tmp_text(char *path, const char *text)
{
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static void test_sym_read_map(void **state)
{
	char path[] = "/tmp/kmap-unit-XXXXXX", err[KMAP_ERR_MAX];
	struct ksyms_seen seen = { .n = 0 };

	(void)state;
	tmp_text(path,
		 "ffffffff81000000 T _stext\n"
		 "ffffffff82000040 d some_data\n"
		 "ffffffffa0020400 b true_line\t[mtrace_share_test]\n"
		 "ffffffffa0018080 t fn [m]\r\n");
	assert_int_equal(kmap_sym_read_map(path, ksym_seen, &seen, err), 0);
	assert_int_equal(seen.n, 4);
	assert_string_equal(seen.line[0], "ffffffff81000000 T _stext []");
	assert_string_equal(seen.line[1], "ffffffff82000040 d some_data []");
	assert_string_equal(seen.line[2],
			    "ffffffffa0020400 b true_line [mtrace_share_test]");
	assert_string_equal(seen.line[3], "ffffffffa0018080 t fn [m]");
	unlink(path);

	/* A line not of the format stops the reading, and says where. */
	strcpy(path, "/tmp/kmap-unit-XXXXXX");
	tmp_text(path, "ffffffff81000000 T a\nffffffff81000010 T\n");
	seen.n = 0;
	assert_int_equal(kmap_sym_read_map(path, ksym_seen, &seen, err), -1);
	assert_int_equal(seen.n, 1);
	assert_non_null(strstr(err, ":2: not a System.map line"));
	unlink(path);
	strcpy(path, "/tmp/kmap-unit-XXXXXX");
	tmp_text(path, "ffffffff81000000 T a\nzz T b\n");
	assert_int_equal(kmap_sym_read_map(path, ksym_seen, &seen, err), -1);
	assert_non_null(strstr(err, ":2: not a System.map line"));
	unlink(path);

	/* fn's -1 stops it, its error kept. */
	strcpy(path, "/tmp/kmap-unit-XXXXXX");
	tmp_text(path, "ffffffff81000000 T a\n");
	seen.n = 8;
	strcpy(err, "fn's");
	assert_int_equal(kmap_sym_read_map(path, ksym_seen, &seen, err), -1);
	assert_string_equal(err, "fn's");
	unlink(path);
}

/*
 * Every edge of text through a calls reader into c[] (room 8): how many,
 * or -1 with the reader's error in err.
 */
static int calls_of(const char *text, struct kmap_call *c, char *err)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct kmap_calls_reader *r;
	int n = 0, rc;

	assert_non_null(f);
	r = kmap_calls_open(f, "fc");
	assert_non_null(r);
	err[0] = 0;
	while (n < 8 && (rc = kmap_calls_next(r, &c[n])) == 1)
		n++;
	if (rc < 0) {
		snprintf(err, KMAP_ERR_MAX, "%s", kmap_calls_error(r));
		n = -1;
		/* an error sticks */
		assert_int_equal(kmap_calls_next(r, &c[0]), -1);
	}
	kmap_calls_close(r);
	fclose(f);
	return n;
}

static void test_calls_reader(void **state)
{
	struct kmap_call c[8];
	char err[KMAP_ERR_MAX], longer[600];

	(void)state;
	assert_int_equal(calls_of("", c, err), 0);
	assert_int_equal(calls_of("ffffffff81000010,ffffffff81000100,12,3\n"
				  "ffffffff81000020,ffffffff81000100,0,18446744073709551615\n",
				  c, err), 2);
	assert_true(c[0].caller == 0xffffffff81000010ull);
	assert_true(c[0].callee == 0xffffffff81000100ull);
	assert_int_equal(c[0].pid, 12);
	assert_true(c[0].count == 3);
	assert_int_equal(c[1].pid, 0);
	assert_true(c[1].count == UINT64_MAX);
	/* The fork's: caller callee count, no pid. */
	assert_int_equal(calls_of("ffffffff81000010 ffffffff81000100 7\n"
				  "ffffffff81000011 ffffffff81000200 1\n", c, err), 2);
	assert_true(c[0].caller == 0xffffffff81000010ull);
	assert_true(c[0].callee == 0xffffffff81000100ull);
	assert_int_equal(c[0].pid, KMAP_CALL_PID_UNKNOWN);
	assert_true(c[0].count == 7);
	assert_true(c[1].callee == 0xffffffff81000200ull);

	/* Malformed lines: the line, the field, what is wrong. */
#define CALL_ERR(text, msg) do { \
		assert_int_equal(calls_of(text, c, err), -1); \
		assert_string_equal(err, msg); \
	} while (0)
	CALL_ERR("ffffffff81000010,ffffffff81000100,1,1\nffffffff81000010,ffffffff81000100,1\n",
		 "fc:2: 3 fields, not 4 (caller,callee,pid,count)");
	CALL_ERR("a,b,1,1,1\n", "fc:1: more than 4 fields (caller,callee,pid,count)");
	CALL_ERR("\n", "fc:1: empty line");
	CALL_ERR("ffffffff81000010 ffffffff81000100\n",
		 "fc:1: not caller,callee,pid,count nor the fork's caller callee count");
	CALL_ERR("FFFFFFFF81000010,ffffffff81000100,1,1\n",
		 "fc:1: caller 'FFFFFFFF81000010': not lowercase hexadecimal of at most 64 bits");
	CALL_ERR("ffffffff81000010,1ffffffff81000100,1,1\n",
		 "fc:1: callee '1ffffffff81000100': not lowercase hexadecimal of at most 64 bits");
	CALL_ERR("0x10,ffffffff81000100,1,1\n",
		 "fc:1: caller '0x10': 0x prefix (the kernel prints hex without one)");
	CALL_ERR("010,ffffffff81000100,1,1\n", "fc:1: caller '010': leading zero");
	CALL_ERR("0,ffffffff81000100,1,1\n", "fc:1: caller 0: no kernel address");
	CALL_ERR("10,20,-1,1\n", "fc:1: pid '-1': negative");
	CALL_ERR("10,20,4194304,1\n",
		 "fc:1: pid 4194304: above the kernel's pid limit (4194304)");
	CALL_ERR("10,20,1,18446744073709551616\n",
		 "fc:1: count '18446744073709551616': not an unsigned decimal number of at most 64 bits");
	CALL_ERR("10,20,1,0\n",
		 "fc:1: count 0: the kernel prints an edge once it was called");
	CALL_ERR("10 20 0\n",
		 "fc:1: count 0: the kernel prints an edge once it was called");
	CALL_ERR("10,20,1,01\n", "fc:1: count '01': leading zero");
	CALL_ERR("10,20,1,1\n10 20 1\n",
		 "fc:2: a line of the fork's (caller callee count) among lines of caller,callee,pid,count");
	CALL_ERR("10 20 1\n10,20,1,1\n",
		 "fc:2: a line of caller,callee,pid,count among lines of the fork's (caller callee count)");
	CALL_ERR("10,20,1,1\n10,20,1,1", "fc:2: no newline at the end: the file is cut short");
	memset(longer, '1', sizeof(longer) - 2);
	longer[sizeof(longer) - 2] = '\n';
	longer[sizeof(longer) - 1] = 0;
	CALL_ERR(longer, "fc:1: line longer than 511 bytes");
#undef CALL_ERR
}

static void test_calls_table(void **state)
{
	struct kmap_calls *t = kmap_calls_new();
	const struct kmap_call *l;
	struct kmap_call c = { 0x10, 0x20, 1, 5 };
	size_t i;

	(void)state;
	assert_non_null(t);
	assert_int_equal(kmap_calls_list(NULL, &l), 0);
	assert_int_equal(kmap_calls_add(t, &c), 0);
	c.pid = 2;
	assert_int_equal(kmap_calls_add(t, &c), 0);
	c.pid = 1;
	c.count = UINT64_MAX - 1;	/* 5 + that saturates */
	assert_int_equal(kmap_calls_add(t, &c), 0);
	c.callee = 0x30;
	c.count = 1;
	assert_int_equal(kmap_calls_add(t, &c), 0);
	assert_int_equal(kmap_calls_list(t, &l), 3);
	assert_true(l[0].caller == 0x10 && l[0].callee == 0x20 && l[0].pid == 1);
	assert_true(l[0].count == UINT64_MAX);
	assert_true(l[1].pid == 2 && l[1].count == 5);
	assert_true(l[2].callee == 0x30 && l[2].count == 1);
	/* Many edges: each found again by its key. */
	for (i = 0; i < 5000; i++) {
		c.caller = 0xffffffff81000000ull + i % 100;
		c.callee = 0xffffffff82000000ull + i / 100;
		c.pid = 3;
		c.count = 2;
		assert_int_equal(kmap_calls_add(t, &c), 0);
		assert_int_equal(kmap_calls_add(t, &c), 0);
	}
	assert_int_equal(kmap_calls_list(t, &l), 5003);
	for (i = 3; i < 5003; i++)
		assert_true(l[i].count == 4);
	kmap_calls_free(t);
}

/* A function_calls file through kmap_src: told from a text kmap, no objects. */
static void test_calls_src(void **state)
{
	static const char calls[] = "ffffffff81000010,ffffffff81000100,12,3\n"
				    "ffffffff81000010,ffffffff81000100,12,4\n";
	static const char fork[] = "ffffffff81000010 ffffffff81000100 3\n";
	static const char kmap[] = "ffffffff81000000,1,ffff888000001000,8,100,0,0,sh\n";
	static const char bad[] = "ffffffff81000010,ffffffff81000100,12,3\nx,y,1,1\n";
	const struct kmap_object *o;
	const struct kmap_access *a;
	const struct kmap_call *l;
	const char *texts[] = { calls, fork, kmap, bad };
	char err[KMAP_ERR_MAX], buf[600];
	size_t i, n;

	(void)state;
	for (i = 0; i < 4; i++) {
		FILE *f = fmemopen((void *)texts[i], strlen(texts[i]), "rb");
		struct kmap_src *src = kmap_src_open_file(f, "fc", err);
		int rc;

		assert_non_null(src);
		assert_int_equal(kmap_src_format(src),
				 i == 2 ? KMAP_FMT_TEXT : KMAP_FMT_CALLS);
		assert_null(kmap_src_calls(src));
		rc = kmap_src_next(src, &o, &a, &n);
		assert_int_equal(rc, i == 3 ? -1 : i == 2 ? 1 : 0);
		if (i == 3)
			assert_string_equal(kmap_src_error(src),
				"fc:2: caller 'x': not lowercase hexadecimal of at most 64 bits");
		if (i < 2) {
			assert_int_equal(kmap_calls_list(kmap_src_calls(src), &l), 1);
			assert_true(l[0].count == (i ? 3 : 7));
			assert_int_equal(l[0].pid, i ? KMAP_CALL_PID_UNKNOWN : 12);
		}
		kmap_src_close(src);
		fclose(f);
	}
	/* Told by the whole first line: not 16 bytes, nor an access line. */
	assert_int_equal(kmap_guess_format(calls, 16), KMAP_FMT_TEXT);
	assert_int_equal(kmap_guess_format(calls, sizeof(calls) - 1), KMAP_FMT_CALLS);
	assert_int_equal(kmap_guess_format(kmap, sizeof(kmap) - 1), KMAP_FMT_TEXT);
	snprintf(buf, sizeof(buf), "  %s", calls);
	assert_int_equal(kmap_guess_format(buf, strlen(buf)), KMAP_FMT_TEXT);
	assert_int_equal(kmap_guess_format("a,b,c,d\n", 8), KMAP_FMT_TEXT);
	assert_int_equal(kmap_guess_format("10,20,1,1\n", 10), KMAP_FMT_CALLS);
	assert_int_equal(kmap_guess_format("10 20 1\n", 8), KMAP_FMT_CALLS);
	assert_int_equal(kmap_guess_format("10  20 1\n", 9), KMAP_FMT_TEXT);
}

/*
 * Every cell of text through a frames reader into c[] (room 8): how many,
 * or -1 with the reader's error in err.
 */
static int frames_of(const char *text, struct kmap_frame *c, char *err)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct kmap_frames_reader *r;
	const struct kmap_frame *l;
	int n = 0, rc;

	assert_non_null(f);
	r = kmap_frames_open(f, "sf");
	assert_non_null(r);
	err[0] = 0;
	while (n < 8 && (rc = kmap_frames_next(r, &c[n])) == 1)
		n++;
	/* the reader keeps what it handed out, in order, and no more */
	assert_int_equal(kmap_frames_list(kmap_frames_read(r), &l), n);
	assert_true(!n || !memcmp(l, c, n * sizeof(*l)));
	if (rc < 0) {
		snprintf(err, KMAP_ERR_MAX, "%s", kmap_frames_error(r));
		n = -1;
		/* an error sticks */
		assert_int_equal(kmap_frames_next(r, &c[0]), -1);
	}
	kmap_frames_close(r);
	fclose(f);
	return n;
}

static void test_frames_reader(void **state)
{
	struct kmap_frame c[8];
	char err[KMAP_ERR_MAX], longer[600];

	(void)state;
	memset(c, 0, sizeof(c));	/* padding too: compared whole */
	assert_int_equal(frames_of("", c, err), 0);
	assert_int_equal(frames_of("ffffffffc0201230,ffffffffc0201290,131,7,0\n"
				   "ffffffffc0201230,ffffffffc0201290,0,0,4294967295\n"
				   "ffffffffc0201230,ffffffffc0201291,131,1,1\n",
				   c, err), 3);
	assert_true(c[0].frame == 0xffffffffc0201230ull);
	assert_true(c[0].ip == 0xffffffffc0201290ull);
	assert_int_equal(c[0].pid, 131);
	assert_true(c[0].writes == 7 && c[0].reads == 0);
	assert_int_equal(c[1].pid, 0);
	assert_true(c[1].writes == 0 && c[1].reads == UINT32_MAX);
	assert_true(c[2].ip == 0xffffffffc0201291ull);

	/* Malformed lines: the line, the field, what is wrong. */
#define FRAME_ERR(text, msg) do { \
		assert_int_equal(frames_of(text, c, err), -1); \
		assert_string_equal(err, msg); \
	} while (0)
	FRAME_ERR("\n", "sf:1: empty line");
	FRAME_ERR("10,20,1,1\n", "sf:1: 4 fields, not 5 (frame,ip,pid,writes,reads)");
	FRAME_ERR("10\n", "sf:1: 1 field, not 5 (frame,ip,pid,writes,reads)");
	FRAME_ERR("10,20,1,1,1,1\n",
		  "sf:1: more than 5 fields (frame,ip,pid,writes,reads)");
	FRAME_ERR("10,20,1,1,1\n10 20 1 1 1\n",
		  "sf:2: 1 field, not 5 (frame,ip,pid,writes,reads)");
	FRAME_ERR("FFFFFFFFC0201230,ffffffffc0201290,131,7,0\n",
		  "sf:1: frame 'FFFFFFFFC0201230': not lowercase hexadecimal of at most 64 bits");
	FRAME_ERR("ffffffffc0201230,ffffffffc020129g,131,7,0\n",
		  "sf:1: ip 'ffffffffc020129g': not lowercase hexadecimal of at most 64 bits");
	FRAME_ERR("1ffffffffc0201230,ffffffffc0201290,131,7,0\n",
		  "sf:1: frame '1ffffffffc0201230': not lowercase hexadecimal of at most 64 bits");
	FRAME_ERR("0xffffffffc0201230,ffffffffc0201290,131,7,0\n",
		  "sf:1: frame '0xffffffffc0201230': 0x prefix (the kernel prints hex without one)");
	FRAME_ERR("0ffffffc0201230,ffffffffc0201290,131,7,0\n",
		  "sf:1: frame '0ffffffc0201230': leading zero");
	FRAME_ERR("ffffffffc0201230,0,131,7,0\n", "sf:1: ip 0: no kernel address");
	FRAME_ERR("10,20,-1,1,1\n", "sf:1: pid '-1': negative");
	FRAME_ERR("10,20,4194304,1,1\n",
		  "sf:1: pid 4194304: above the kernel's pid limit (4194304)");
	FRAME_ERR("10,20,0131,1,1\n", "sf:1: pid '0131': leading zero");
	FRAME_ERR("10,20,1,4294967296,1\n",
		  "sf:1: writes 4294967296: more than 32 bits (the kernel's counters are u32)");
	FRAME_ERR("10,20,1,1,18446744073709551616\n",
		  "sf:1: reads '18446744073709551616': not an unsigned decimal number of at most 64 bits");
	FRAME_ERR("10,20,1,1,-2\n", "sf:1: reads '-2': negative");
	FRAME_ERR("10,20,1,0,0\n",
		  "sf:1: writes 0 and reads 0: the kernel prints a cell once its frame was accessed");
	FRAME_ERR("10,20,1,1,2\n10,20,2,1,2\n10,20,1,3,0\n",
		  "sf:3: frame 10, ip 20, pid 1: on line 1 too (a cell is one line)");
	FRAME_ERR("10,20,1,1,1\n10,21,1,1,1", "sf:2: no newline at the end: the file is cut short");
	memset(longer, '1', sizeof(longer) - 2);
	longer[sizeof(longer) - 2] = '\n';
	longer[sizeof(longer) - 1] = 0;
	FRAME_ERR(longer, "sf:1: line longer than 511 bytes");
#undef FRAME_ERR
}

static void test_frames_table(void **state)
{
	struct kmap_frames *t = kmap_frames_new();
	const struct kmap_frame *l;
	struct kmap_frame f = { 0x10, 0x20, 1, 5, 0 };
	size_t i, at = 99;

	(void)state;
	assert_non_null(t);
	assert_int_equal(kmap_frames_list(NULL, &l), 0);
	assert_int_equal(kmap_frames_add(t, &f, &at), 1);
	assert_int_equal(at, 0);
	f.pid = 2;
	assert_int_equal(kmap_frames_add(t, &f, NULL), 1);
	f.pid = 1;
	f.writes = UINT64_MAX - 1;	/* 5 + that saturates */
	f.reads = 3;
	assert_int_equal(kmap_frames_add(t, &f, &at), 0);
	assert_int_equal(at, 0);
	f.ip = 0x30;
	assert_int_equal(kmap_frames_add(t, &f, &at), 1);
	assert_int_equal(at, 2);
	assert_int_equal(kmap_frames_list(t, &l), 3);
	assert_true(l[0].frame == 0x10 && l[0].ip == 0x20 && l[0].pid == 1);
	assert_true(l[0].writes == UINT64_MAX && l[0].reads == 3);
	assert_true(l[1].pid == 2 && l[1].writes == 5 && l[1].reads == 0);
	assert_true(l[2].ip == 0x30);
	/* Many cells: each found again by its key. */
	for (i = 0; i < 5000; i++) {
		f.frame = 0xffffffff81000000ull + i % 100;
		f.ip = 0xffffffff82000000ull + i / 100;
		f.pid = 3;
		f.writes = 1;
		f.reads = 2;
		assert_int_equal(kmap_frames_add(t, &f, NULL), 1);
		assert_int_equal(kmap_frames_add(t, &f, &at), 0);
		assert_int_equal(at, i + 3);
	}
	assert_int_equal(kmap_frames_list(t, &l), 5003);
	for (i = 3; i < 5003; i++)
		assert_true(l[i].writes == 2 && l[i].reads == 4);
	kmap_frames_free(t);
}

/*
 * A stack_frames file through kmap_src: told from a text kmap and from
 * function_calls by its first line's shape, no objects, its cells.
 */
static void test_frames_src(void **state)
{
	static const char frames[] = "ffffffffc0201230,ffffffffc0201290,131,7,0\n"
				     "ffffffffc0201230,ffffffffc0201290,132,0,2\n";
	/* first lines of the shape that the reader refuses */
	static const char *const bad[] = {
		"0xffffffffc0201230,ffffffffc0201290,131,7,0\n",
		"ffffffffc0201230,ffffffffc0201290,-1,7,0\n",
		"ffffffffc0201230,ffffffffc0201290,131,0,0\n",
		"ffffffffc0201230,ffffffffc0201290,131,7,0\nffffffffc0201230,ffffffffc0201290,131,7,0\n",
	};
	static const char *const bad_err[] = {
		"sf:1: frame '0xffffffffc0201230': 0x prefix (the kernel prints hex without one)",
		"sf:1: pid '-1': negative",
		"sf:1: writes 0 and reads 0: the kernel prints a cell once its frame was accessed",
		"sf:2: frame ffffffffc0201230, ip ffffffffc0201290, pid 131: on line 1 too (a cell is one line)",
	};
	const struct kmap_object *o;
	const struct kmap_access *a;
	const struct kmap_frame *l;
	char err[KMAP_ERR_MAX], buf[600];
	size_t i, n;

	(void)state;
	for (i = 0; i < 5; i++) {
		const char *text = i ? bad[i - 1] : frames;
		FILE *f = fmemopen((void *)text, strlen(text), "rb");
		struct kmap_src *src = kmap_src_open_file(f, "sf", err);

		assert_non_null(src);
		assert_int_equal(kmap_src_format(src), KMAP_FMT_FRAMES);
		assert_null(kmap_src_calls(src));
		assert_int_equal(kmap_src_next(src, &o, &a, &n), i ? -1 : 0);
		if (i) {
			assert_string_equal(kmap_src_error(src), bad_err[i - 1]);
		} else {
			assert_int_equal(kmap_frames_list(kmap_src_frames(src), &l), 2);
			assert_true(l[0].pid == 131 && l[0].writes == 7);
			assert_true(l[1].pid == 132 && l[1].reads == 2);
			/* the end stays the end */
			assert_int_equal(kmap_src_next(src, &o, &a, &n), 0);
		}
		kmap_src_close(src);
		fclose(f);
	}
	/* Other formats have no frames. */
	{
		static const char calls[] = "10,20,1,1\n";
		FILE *f = fmemopen((void *)calls, strlen(calls), "rb");
		struct kmap_src *src = kmap_src_open_file(f, "fc", err);

		assert_non_null(src);
		assert_int_equal(kmap_src_format(src), KMAP_FMT_CALLS);
		assert_null(kmap_src_frames(src));
		kmap_src_close(src);
		fclose(f);
	}
	/* The shape: the whole first line, 5 fields, no space, no empty one. */
	assert_int_equal(kmap_guess_format(frames, 16), KMAP_FMT_TEXT);
	assert_int_equal(kmap_guess_format(frames, sizeof(frames) - 1), KMAP_FMT_FRAMES);
	assert_int_equal(kmap_guess_format("10,20,1,1,1\n", 12), KMAP_FMT_FRAMES);
	assert_int_equal(kmap_guess_format("0X1,Fx,-,-,9\n", 13), KMAP_FMT_FRAMES);
	assert_int_equal(kmap_guess_format("10,20,1,1\n", 10), KMAP_FMT_CALLS);
	assert_int_equal(kmap_guess_format("10,20,1,1,1,1\n", 14), KMAP_FMT_TEXT);
	assert_int_equal(kmap_guess_format("10,20,,1,1\n", 11), KMAP_FMT_TEXT);
	assert_int_equal(kmap_guess_format("10,20,1,1,\n", 11), KMAP_FMT_TEXT);
	assert_int_equal(kmap_guess_format("10,20 ,1,1,1\n", 13), KMAP_FMT_TEXT);
	assert_int_equal(kmap_guess_format("10,20,a,1,1\n", 12), KMAP_FMT_TEXT);
	assert_int_equal(kmap_guess_format("1g,20,1,1,1\n", 12), KMAP_FMT_TEXT);
	snprintf(buf, sizeof(buf), "  %s", frames);
	assert_int_equal(kmap_guess_format(buf, strlen(buf)), KMAP_FMT_TEXT);
	/* Longer than kmap_src reads of a first line: not of the shape. */
	memset(buf, 'f', 503);
	memcpy(buf + 503, ",1,1,1,1\n", 9);	/* KMAP_LINE_MAX bytes */
	assert_int_equal(kmap_guess_format(buf, 512), KMAP_FMT_FRAMES);
	memmove(buf + 1, buf, 512);		/* one more */
	assert_int_equal(kmap_guess_format(buf, 513), KMAP_FMT_TEXT);
}

/*
 * The golden fixture's problem by numbers (tools/tests/golden.sh works it
 * out by hand): code units 0 call_rcu, 1 getname_uflags, 2 kfree,
 * 3 rb_erase, 4 xas_load, 5 xas_store; data 0 G (64 bytes), 1 V (16).
 * Code units stand for files or directories alike: the library knows
 * numbers only.
 */
static struct kmap_compart *fixture_problem(void)
{
	struct kmap_compart *p = kmap_compart_new();

	assert_non_null(p);
	assert_int_equal(kmap_compart_right(p, 4, 0, KMAP_RIGHT_READ), 0);
	assert_int_equal(kmap_compart_right(p, 5, 0, KMAP_RIGHT_WRITE), 0);
	assert_int_equal(kmap_compart_right(p, 5, 1, KMAP_RIGHT_WRITE), 0);
	assert_int_equal(kmap_compart_right(p, 3, 1, KMAP_RIGHT_READ), 0);
	assert_int_equal(kmap_compart_right(p, 3, 1, KMAP_RIGHT_WRITE), 0);
	assert_int_equal(kmap_compart_right(p, 2, 0, KMAP_RIGHT_FREE), 0);
	assert_int_equal(kmap_compart_right(p, 0, 1, KMAP_RIGHT_FREE), 0);
	assert_int_equal(kmap_compart_size(p, 0, 32), 0);
	assert_int_equal(kmap_compart_size(p, 0, 64), 0);
	assert_int_equal(kmap_compart_size(p, 1, 16), 0);
	assert_int_equal(kmap_compart_call(p, 5, 4, 5), 0);
	assert_int_equal(kmap_compart_call(p, 5, 4, 1), 0);
	assert_int_equal(kmap_compart_call(p, 3, 5, 2), 0);
	assert_int_equal(kmap_compart_call(p, 2, 0, 3), 0);
	assert_int_equal(kmap_compart_call(p, 0, 1, 4), 0);
	assert_int_equal(kmap_compart_finish(p), 0);
	assert_int_equal(kmap_compart_right(p, 0, 0, 1), -1);
	return p;
}

struct sweep_seen {
	const struct kmap_compart *p;
	size_t n;
	struct kmap_compart_point pts[8];
};

/* Each point of a sweep, checked against scoring its partition anew. */
static int sweep_point(void *ctx, const struct kmap_compart_point *pt,
		       const uint32_t *part, size_t nlabels)
{
	struct sweep_seen *seen = ctx;
	struct kmap_compart_point again;

	assert_int_equal(kmap_compart_eval(seen->p, part, nlabels, &again), 0);
	assert_int_equal(again.compartments, pt->compartments);
	assert_true(again.granted == pt->granted);
	assert_true(again.granted_bytes == pt->granted_bytes);
	assert_true(again.crossings == pt->crossings);
	assert_true(again.shared == pt->shared);
	assert_true(again.reduction == pt->reduction);
	if (seen->n < 8)
		seen->pts[seen->n++] = *pt;
	return 0;
}

static void test_compart_metrics(void **state)
{
	struct kmap_compart *p = fixture_problem();
	/* xa {4, 5}, free {0, 2}, rest {1, 3} */
	static const uint32_t split[] = { 1, 2, 1, 2, 0, 0 };
	static const uint32_t rank[] = { 0, 1, 2, 3, 4, 5 };
	static const uint32_t one[6], bad[] = { 0, 0, 0, 0, 0, 3 };
	struct kmap_compart_point pt;
	struct sweep_seen seen = { .p = p };
	size_t want[20], n;

	(void)state;
	assert_int_equal(kmap_compart_eval(p, split, 3, &pt), 0);
	assert_int_equal(pt.compartments, 3);
	assert_true(pt.least == 6 && pt.least_bytes == 240);
	assert_true(pt.monolithic == 12 && pt.monolithic_bytes == 480);
	assert_true(pt.granted == 10 && pt.granted_bytes == 352);
	assert_true(fabs(pt.reduction - 1.0 / 3) < 1e-12);
	assert_true(fabs(pt.reduction_bytes - 8.0 / 15) < 1e-12);
	assert_true(pt.crossings == 6 && pt.calls == 15);
	assert_true(fabs(pt.crossing_share - 0.4) < 1e-12);
	assert_true(pt.shared == 1);
	assert_int_equal(kmap_compart_eval(p, one, 1, &pt), 0);
	assert_true(pt.reduction == 0 && pt.crossings == 0 && pt.shared == 0);
	assert_int_equal(kmap_compart_eval(p, bad, 3, &pt), -1);

	/* Points: both ends, log-spaced, none twice. */
	n = kmap_compart_points(6, 20, want);
	assert_int_equal(n, 6);
	assert_int_equal(want[0], 6);
	assert_int_equal(want[5], 1);
	n = kmap_compart_points(10000, 5, want);
	assert_int_equal(n, 5);
	assert_int_equal(want[0], 10000);
	assert_int_equal(want[1], 1000);
	assert_int_equal(want[2], 100);
	assert_int_equal(want[3], 10);
	assert_int_equal(want[4], 1);
	assert_int_equal(kmap_compart_points(1, 20, want), 1);
	assert_int_equal(kmap_compart_points(0, 20, want), 0);

	/* The sweep of golden.sh's hand computation, 6 down to 1. */
	n = kmap_compart_points(6, 20, want);
	assert_int_equal(kmap_compart_sweep(p, rank, want, n, sweep_point, &seen), 0);
	assert_int_equal(seen.n, 6);
	assert_true(seen.pts[0].reduction == 1 && seen.pts[0].crossings == 15 &&
		    seen.pts[0].shared == 2);
	assert_true(seen.pts[2].granted == 6 && seen.pts[2].crossings == 15);
	assert_true(seen.pts[3].granted == 8 && seen.pts[3].granted_bytes == 272 &&
		    seen.pts[3].crossings == 9 && seen.pts[3].shared == 1);
	assert_true(seen.pts[4].granted == 10 && seen.pts[4].crossings == 4 &&
		    seen.pts[4].shared == 0);
	assert_true(seen.pts[5].reduction == 0 && seen.pts[5].crossings == 0);
	kmap_compart_free(p);
}

/* A larger problem, as a kernel's: 10000 code units in seconds. */
static void test_compart_sweep_large(void **state)
{
	struct kmap_compart *p = kmap_compart_new();
	struct sweep_seen seen;
	uint32_t *rank = malloc(10000 * sizeof(*rank));
	size_t want[20], n, i, j;
	uint64_t x = 1;

	(void)state;
	assert_non_null(p);
	assert_non_null(rank);
	for (i = 0; i < 10000; i++) {
		rank[i] = (uint32_t)((i * 7919) % 10000);
		for (j = 0; j < 5; j++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			assert_int_equal(kmap_compart_right(p, (uint32_t)i,
				(uint32_t)((x >> 33) % (j ? 20000 : 50)),
				1u << (x >> 61) % 3), 0);
		}
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		assert_int_equal(kmap_compart_call(p, (uint32_t)i,
			(uint32_t)((x >> 33) % 10000), 1 + (x >> 60)), 0);
	}
	for (i = 0; i < 20000; i++)
		assert_int_equal(kmap_compart_size(p, (uint32_t)i, 8 + i % 64), 0);
	assert_int_equal(kmap_compart_finish(p), 0);
	memset(&seen, 0, sizeof(seen));
	seen.p = p;
	n = kmap_compart_points(10000, 8, want);
	assert_int_equal(kmap_compart_sweep(p, rank, want, n, sweep_point, &seen), 0);
	assert_int_equal(seen.n, n);
	assert_true(seen.pts[0].reduction == 1);
	assert_true(seen.pts[n - 1].reduction == 0 &&
		    seen.pts[n - 1].crossings == 0);
	for (i = 1; i < n; i++)
		assert_true(seen.pts[i].crossings <= seen.pts[i - 1].crossings);
	free(rank);
	kmap_compart_free(p);
}

/* kmap_split_read() over text: its rules, or its error in err. */
static int split_of(const char *text, struct kmap_split *sp, char *err)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int rc;

	assert_non_null(f);
	err[0] = 0;
	rc = kmap_split_read(f, "sp", sp, err);
	fclose(f);
	return rc;
}

static void test_split_file(void **state)
{
	struct kmap_split sp;
	char err[KMAP_ERR_MAX], longer[600];

	(void)state;
	assert_int_equal(split_of("# c\n\nxa\txas_*\n  free kfree # no\nfs fs/*.c\n",
				  &sp, err), 0);
	assert_int_equal(sp.n, 3);
	assert_string_equal(kmap_split_match(&sp, "xas_load"), "xa");
	assert_string_equal(kmap_split_match(&sp, "kfree"), "free");
	assert_string_equal(kmap_split_match(&sp, "fs/namei.c"), "fs");
	assert_string_equal(kmap_split_match(&sp, "fs/sub/x.c"), "fs");
	assert_string_equal(kmap_split_match(&sp, "rb_erase"), "rest");
	kmap_split_free(&sp);
	assert_int_equal(split_of("xa xas_*\nfree\n", &sp, err), -1);
	assert_string_equal(err, "sp:2: a compartment without a pattern (lines are COMPARTMENT PATTERN)");
	kmap_split_free(&sp);
	assert_int_equal(split_of("xa xas_* y\n", &sp, err), -1);
	assert_string_equal(err, "sp:1: more than two fields (lines are COMPARTMENT PATTERN; a pattern has no spaces)");
	kmap_split_free(&sp);
	memset(longer, 'x', sizeof(longer) - 2);
	longer[1] = ' ';
	longer[sizeof(longer) - 2] = '\n';
	longer[sizeof(longer) - 1] = 0;
	assert_int_equal(split_of(longer, &sp, err), -1);
	assert_string_equal(err, "sp:1: line longer than 511 bytes");
	kmap_split_free(&sp);
}

/* kmap_stats_read() over text, its error into err ("" when none). */
static int stats_of(const char *text, struct kmap_stats *st, char *err)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int rc;

	assert_non_null(f);
	err[0] = 0;
	rc = kmap_stats_read(f, "s", st, err);
	fclose(f);
	return rc;
}

static void test_stats(void **state)
{
	char err[KMAP_ERR_MAX], longer[400];
	struct kmap_stats st;

	(void)state;
	assert_int_equal(stats_of("kmalloc_tracked 4021\n\nobjects_dropped 3\n"
				  "big 18446744073709551615\nobjects_dropped 9\n"
				  "last 0", &st, err), 0);
	assert_int_equal(st.n, 5);
	assert_string_equal(st.stat[0].key, "kmalloc_tracked");
	assert_true(st.stat[0].value == 4021);
	assert_true(*kmap_stats_find(&st, "objects_dropped") == 3);
	assert_true(*kmap_stats_find(&st, "big") == UINT64_MAX);
	assert_true(*kmap_stats_find(&st, "last") == 0);
	assert_null(kmap_stats_find(&st, "accesses_dropped"));
	assert_null(kmap_stats_find(&st, "kmalloc"));
	kmap_stats_free(&st);
	assert_int_equal(st.n, 0);

	assert_int_equal(stats_of("", &st, err), 0);
	assert_int_equal(st.n, 0);
	kmap_stats_free(&st);

	/* Not "key value": the line's number and text. */
	assert_int_equal(stats_of("a 1\nkmalloc_live many\n", &st, err), -1);
	assert_string_equal(err, "s:2: not a \"key value\" line (debugfs memorizer/stats): 'kmalloc_live many'");
	kmap_stats_free(&st);
	assert_int_equal(stats_of("a\n", &st, err), -1);
	kmap_stats_free(&st);
	assert_int_equal(stats_of(" 1\n", &st, err), -1);
	kmap_stats_free(&st);
	assert_int_equal(stats_of("a  1\n", &st, err), -1);
	kmap_stats_free(&st);
	assert_int_equal(stats_of("a -1\n", &st, err), -1);
	kmap_stats_free(&st);
	assert_int_equal(stats_of("a 18446744073709551616\n", &st, err), -1);
	kmap_stats_free(&st);
	assert_int_equal(stats_of("a 1 2\n", &st, err), -1);
	kmap_stats_free(&st);
	memset(longer, 'k', sizeof(longer) - 4);
	strcpy(longer + sizeof(longer) - 4, " 1\n");
	assert_int_equal(stats_of(longer, &st, err), -1);
	assert_string_equal(err, "s:1: line too long");
	kmap_stats_free(&st);
}

/* Capability maps. */

/* A System.map in a temporary file: f_a, f_b, f_c of 0x100 bytes each. */
static struct kmap_sym *capmap_symbols(void)
{
	char path[] = "/tmp/kmap-unit-XXXXXX", err[KMAP_ERR_MAX];
	int fd = mkstemp(path);
	static const char map[] =
		"ffffffff81000000 T f_a\n"
		"ffffffff81000100 T f_b\n"
		"ffffffff81000200 t f_c\n"
		"ffffffff81000300 T _etext\n";
	struct kmap_sym *s;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, map, strlen(map)), (ssize_t)strlen(map));
	close(fd);
	s = kmap_sym_open_map(path, err);
	unlink(path);
	assert_non_null(s);
	return s;
}

static const struct kmap_capmap_cell *
capmap_cell(const struct kmap_capmap *m, const char *subject, const char *group)
{
	const struct kmap_capmap_cell *c = kmap_capmap_find(m, subject, group);

	assert_non_null(c);
	assert_string_equal(kmap_capmap_subject_of(m, c), subject);
	assert_string_equal(kmap_capmap_group_of(m, c), group);
	return c;
}

/*
 * Three objects; by hand, function x callsite:
 *   f_b x f_a: reads 2 + 3 + 1, writes 1, objects 1 and 2
 *   f_c x f_a: writes 5 and the free of object 1: objects 1
 *   20 x 10 (no function): writes 1
 * and object 2's missed free in no cell.
 */
static void test_capmap_cells(void **state)
{
	struct kmap_sym *sym = capmap_symbols();
	char err[KMAP_ERR_MAX];
	struct kmap_capmap *m = kmap_capmap_new(KMAP_SUBJECT_FUNCTION,
						KMAP_GROUP_CALLSITE, sym, err);
	struct kmap_object o1 = { .alloc_ip = 0xffffffff81000010ull, .addr = 0x1000,
		.size = 8, .alloc_jiffies = 1, .free_jiffies = 2,
		.free_ip = 0xffffffff81000210ull };
	struct kmap_object o2 = o1, o3 = { .alloc_ip = 0x10, .addr = 0x3000,
		.size = 8, .alloc_jiffies = 1 };
	const struct kmap_access a1[] = {
		{ 0xffffffff81000104ull, 1, 1, 2, 0, 0 },
		{ 0xffffffff81000108ull, 2, 0, 3, 0, 0 },
		{ 0xffffffff81000200ull, 1, 5, 0, 0, 0 },
	};
	const struct kmap_access a2[] = { { 0xffffffff81000104ull, 1, 0, 1, 0, 0 } };
	const struct kmap_access a3[] = { { 0x20, 3, 1, 0, 0, 0 } };
	const struct kmap_capmap_cell *c, *cells;
	struct kmap_capmap_totals t;

	(void)state;
	assert_non_null(m);
	o2.addr = 0x2000;
	o2.free_ip = KMAP_FREE_IP_MISSED;
	assert_int_equal(kmap_capmap_add(m, &o1, a1, 3), 0);
	assert_int_equal(kmap_capmap_add(m, &o2, a2, 1), 0);
	assert_int_equal(kmap_capmap_add(m, &o3, a3, 1), 0);
	assert_int_equal(kmap_capmap_cells(m, &cells), 3);
	assert_int_equal(kmap_capmap_nsubjects(m), 3);
	assert_int_equal(kmap_capmap_ngroups(m), 2);
	c = capmap_cell(m, "f_b", "f_a");
	assert_int_equal(c->reads, 6);
	assert_int_equal(c->writes, 1);
	assert_int_equal(c->frees, 0);
	assert_int_equal(c->objects, 2);
	c = capmap_cell(m, "f_c", "f_a");
	assert_int_equal(c->reads, 0);
	assert_int_equal(c->writes, 5);
	assert_int_equal(c->frees, 1);
	assert_int_equal(c->objects, 1);
	c = capmap_cell(m, "20", "10");
	assert_int_equal(c->writes, 1);
	assert_int_equal(c->objects, 1);
	assert_null(kmap_capmap_find(m, "f_b", "f_b"));
	assert_null(kmap_capmap_find(m, "f_a", "f_a"));
	assert_null(kmap_capmap_find(m, "nothing", "f_a"));
	kmap_capmap_totals(m, &t);
	assert_int_equal(t.objects, 3);
	assert_int_equal(t.reads, 6);
	assert_int_equal(t.writes, 7);
	assert_int_equal(t.frees, 1);
	assert_int_equal(t.frees_unattributed, 1);
	kmap_capmap_free(m);

	/* By ip with symbols: function+offset/size. */
	m = kmap_capmap_new(KMAP_SUBJECT_IP, KMAP_GROUP_KIND, sym, err);
	assert_non_null(m);
	assert_int_equal(kmap_capmap_add(m, &o1, a1, 3), 0);
	c = capmap_cell(m, "f_b+0x4/0x100", "unknown");
	assert_int_equal(c->reads, 2);
	capmap_cell(m, "f_c+0x10/0x100", "unknown");
	kmap_capmap_free(m);
	kmap_sym_close(sym);
}

/* Groups by cache (else kind), kind and object (id, else its number). */
static void test_capmap_groups(void **state)
{
	struct kmap_object cached = { .alloc_ip = 1, .addr = 0x1000, .size = 8,
		.has = KMAP_HAS_KIND | KMAP_HAS_CACHE | KMAP_HAS_ID, .id = 70,
		.cache_id = 3, .cache = "dentry", .kind = MEMORIZER_ALLOC_CACHE };
	struct kmap_object vm = { .alloc_ip = 2, .addr = 0x9000, .size = 8,
		.has = KMAP_HAS_KIND | KMAP_HAS_ID, .id = 71,
		.kind = MEMORIZER_ALLOC_VMALLOC };
	struct kmap_object text = { .alloc_ip = 3, .addr = 0x5000, .size = 8 };
	const struct kmap_access a[] = { { 0x40, 1, 1, 1, 0, 0 } };
	const struct kmap_capmap_cell *cells;
	char err[KMAP_ERR_MAX];
	struct kmap_capmap *m;

	(void)state;
	m = kmap_capmap_new(KMAP_SUBJECT_IP, KMAP_GROUP_CACHE, NULL, err);
	assert_non_null(m);
	assert_int_equal(kmap_capmap_add(m, &cached, a, 1), 0);
	assert_int_equal(kmap_capmap_add(m, &vm, a, 1), 0);
	assert_int_equal(kmap_capmap_add(m, &cached, a, 1), 0);
	assert_int_equal(kmap_capmap_cells(m, &cells), 2);
	assert_int_equal(capmap_cell(m, "40", "dentry")->objects, 2);
	assert_int_equal(capmap_cell(m, "40", "vmalloc")->reads, 1);
	kmap_capmap_free(m);

	m = kmap_capmap_new(KMAP_SUBJECT_IP, KMAP_GROUP_KIND, NULL, err);
	assert_non_null(m);
	assert_int_equal(kmap_capmap_add(m, &cached, a, 1), 0);
	assert_int_equal(kmap_capmap_add(m, &text, a, 1), 0);
	capmap_cell(m, "40", "kmem_cache");
	capmap_cell(m, "40", "unknown");
	kmap_capmap_free(m);

	m = kmap_capmap_new(KMAP_SUBJECT_IP, KMAP_GROUP_OBJECT, NULL, err);
	assert_non_null(m);
	assert_int_equal(kmap_capmap_add(m, &text, a, 1), 0);
	assert_int_equal(kmap_capmap_add(m, &vm, a, 1), 0);
	assert_int_equal(kmap_capmap_add(m, &text, a, 1), 0);
	capmap_cell(m, "40", "1");
	capmap_cell(m, "40", "71");
	capmap_cell(m, "40", "3");
	assert_int_equal(kmap_capmap_ngroups(m), 3);
	kmap_capmap_free(m);

	/* Found objects have no call site: [kind], or the text's word. */
	struct kmap_object global = { .alloc_ip = 0xffffffff82a01000ull,
		.addr = 0xffffffff82a01000ull, .size = 64,
		.has = KMAP_HAS_KIND | KMAP_HAS_ID, .id = 2,
		.kind = MEMORIZER_ALLOC_GLOBAL, .context = MEMORIZER_CONTEXT_FOUND };
	struct kmap_object irq = { .alloc_ip = 0xffffc90000000000ull,
		.addr = 0xffffc90000000000ull, .size = 16384, .comm = "irq_stack" };
	struct kmap_object task_stack = irq;

	task_stack.pid = 146;
	snprintf(task_stack.comm, sizeof(task_stack.comm), "tar");
	assert_true(kmap_object_found(&global));
	assert_true(kmap_object_found(&irq));
	assert_false(kmap_object_found(&text));
	assert_false(kmap_object_found(&cached));
	m = kmap_capmap_new(KMAP_SUBJECT_IP, KMAP_GROUP_CALLSITE, NULL, err);
	assert_non_null(m);
	assert_int_equal(kmap_capmap_add(m, &global, a, 1), 0);
	assert_int_equal(kmap_capmap_add(m, &irq, a, 1), 0);
	assert_int_equal(kmap_capmap_add(m, &task_stack, a, 1), 0);
	assert_int_equal(kmap_capmap_add(m, &text, a, 1), 0);
	capmap_cell(m, "40", "[global]");
	capmap_cell(m, "40", "[irq_stack]");
	capmap_cell(m, "40", "[stack]");
	capmap_cell(m, "40", "3");
	kmap_capmap_free(m);
}

/* Files and directories need line tables; names parse both ways. */
static void test_capmap_subjects(void **state)
{
	struct kmap_sym *sym = capmap_symbols();
	char err[KMAP_ERR_MAX];

	(void)state;
	assert_null(kmap_capmap_new(KMAP_SUBJECT_FILE, KMAP_GROUP_CALLSITE, NULL, err));
	assert_non_null(strstr(err, "DWARF"));
	assert_false(kmap_sym_has_lines(sym));
	assert_null(kmap_capmap_new(KMAP_SUBJECT_DIR, KMAP_GROUP_CALLSITE, sym, err));
	assert_null(kmap_sym_source(sym, 0xffffffff81000104ull, &(int){ 0 }));
	assert_int_equal(kmap_capmap_subject_parse("dir"), KMAP_SUBJECT_DIR);
	assert_int_equal(kmap_capmap_subject_parse("type"), -1);
	assert_int_equal(kmap_capmap_group_parse("object"), KMAP_GROUP_OBJECT);
	assert_int_equal(kmap_capmap_group_parse(""), -1);
	assert_string_equal(kmap_capmap_subject_name(KMAP_SUBJECT_FILE), "file");
	assert_string_equal(kmap_capmap_group_name(KMAP_GROUP_CACHE), "cache");
	assert_null(kmap_capmap_new(KMAP_SUBJECT_FILE_FUNCTION, KMAP_GROUP_KIND, sym, err));
	assert_int_equal(kmap_capmap_subject_parse("file-function"), KMAP_SUBJECT_FILE_FUNCTION);
	kmap_sym_close(sym);
}

/* A subject's parent: a file's directory, a file-function's file. */
static void test_capmap_parent(void **state)
{
	static const struct {
		enum kmap_capmap_subject s;
		const char *name, *parent;
		int kind;
	} cases[] = {
		{ KMAP_SUBJECT_FILE, "mm/slub.c", "mm", KMAP_SUBJECT_DIR },
		{ KMAP_SUBJECT_FILE, "/usr/include/x.h", "/usr/include", KMAP_SUBJECT_DIR },
		{ KMAP_SUBJECT_FILE, "/init.c", "/", KMAP_SUBJECT_DIR },
		{ KMAP_SUBJECT_FILE, "init.c", ".", KMAP_SUBJECT_DIR },
		{ KMAP_SUBJECT_FILE, "[unknown]", "[unknown]", KMAP_SUBJECT_DIR },
		{ KMAP_SUBJECT_FILE_FUNCTION, "mm/slub.c:kfree", "mm/slub.c", KMAP_SUBJECT_FILE },
		{ KMAP_SUBJECT_FILE_FUNCTION, "c:/a.c:f", "c:/a.c", KMAP_SUBJECT_FILE },
		{ KMAP_SUBJECT_FILE_FUNCTION, "[unknown]:ffffffff81000000", "[unknown]", KMAP_SUBJECT_FILE },
		{ KMAP_SUBJECT_FUNCTION, "kfree", "", -1 },
		{ KMAP_SUBJECT_DIR, "mm", "", -1 },
		{ KMAP_SUBJECT_IP, "kfree+0x1/0x10", "", -1 },
	};
	char buf[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		buf[0] = 0;
		assert_int_equal(kmap_capmap_parent(cases[i].s, cases[i].name, buf, sizeof(buf)),
				 cases[i].kind);
		assert_string_equal(buf, cases[i].parent);
	}
}

/*
 * Memory follows the cells, not the input: one object added 100000 times
 * is one cell; 20000 ips are 20000 subjects, each found again by name.
 */
static void test_capmap_grows_by_cells(void **state)
{
	struct kmap_object o = { .alloc_ip = 1, .addr = 0x1000, .size = 8 };
	const struct kmap_access a[] = { { 0x40, 1, 1, 0, 0, 0 } };
	const struct kmap_capmap_cell *cells;
	char err[KMAP_ERR_MAX], name[32];
	struct kmap_capmap *m;
	struct kmap_access b;
	uint64_t i;

	(void)state;
	m = kmap_capmap_new(KMAP_SUBJECT_IP, KMAP_GROUP_CALLSITE, NULL, err);
	assert_non_null(m);
	for (i = 0; i < 100000; i++)
		assert_int_equal(kmap_capmap_add(m, &o, a, 1), 0);
	assert_int_equal(kmap_capmap_cells(m, &cells), 1);
	assert_int_equal(cells[0].writes, 100000);
	assert_int_equal(cells[0].objects, 100000);
	for (i = 0; i < 20000; i++) {
		b = (struct kmap_access){ 0x1000 + i, 1, 0, 1, 0, 0 };
		assert_int_equal(kmap_capmap_add(m, &o, &b, 1), 0);
	}
	assert_int_equal(kmap_capmap_nsubjects(m), 20001);
	for (i = 0; i < 20000; i += 997) {
		snprintf(name, sizeof(name), "%llx", (unsigned long long)(0x1000 + i));
		assert_int_equal(capmap_cell(m, name, "1")->reads, 1);
	}
	kmap_capmap_free(m);
}

/*
 * Split by range: a cell per (subject, group, range), frees and accesses
 * with no range in range 0, 0 (what kmap_capmap_find() gives); a range
 * repeated many times is one cell still; no split once cells exist.
 */
static void test_capmap_split_ranges(void **state)
{
	struct kmap_object o = { .alloc_ip = 1, .addr = 0x1000, .size = 32,
				 .free_jiffies = 2, .free_ip = 0x40 };
	const struct kmap_access a[] = {
		{ 0x40, 1, 1, 0, 0, 8 }, { 0x40, 2, 0, 2, 8, 16 },
		{ 0x40, 3, 0, 4, 0, 0 }, { 0x50, 1, 1, 0, 0, 8 },
	};
	const struct kmap_capmap_cell *cells, *c;
	char err[KMAP_ERR_MAX];
	struct kmap_capmap *m;
	int i;

	(void)state;
	m = kmap_capmap_new(KMAP_SUBJECT_IP, KMAP_GROUP_CALLSITE, NULL, err);
	assert_non_null(m);
	kmap_capmap_split_ranges(m);
	assert_true(kmap_capmap_split(m));
	for (i = 0; i < 1000; i++)
		assert_int_equal(kmap_capmap_add(m, &o, a, 4), 0);
	assert_int_equal(kmap_capmap_cells(m, &cells), 4);
	assert_int_equal(cells[0].offset, 0);
	assert_int_equal(cells[0].offset_end, 8);
	assert_int_equal(cells[0].writes, 1000);
	assert_int_equal(cells[1].offset, 8);
	assert_int_equal(cells[1].offset_end, 16);
	assert_int_equal(cells[1].reads, 2000);
	assert_int_equal(cells[1].objects, 1000);
	c = kmap_capmap_find(m, "40", "1");	/* range 0, 0 */
	assert_ptr_equal(c, &cells[2]);
	assert_int_equal(c->reads, 4000);
	assert_int_equal(c->frees, 1000);
	assert_int_equal(cells[3].subject == cells[0].subject, 0);
	assert_int_equal(cells[3].offset_end, 8);
	kmap_capmap_free(m);
	/* Not split after the first add: cells are keyed one way. */
	m = kmap_capmap_new(KMAP_SUBJECT_IP, KMAP_GROUP_CALLSITE, NULL, err);
	assert_int_equal(kmap_capmap_add(m, &o, a, 4), 0);
	kmap_capmap_split_ranges(m);
	assert_false(kmap_capmap_split(m));
	assert_int_equal(kmap_capmap_add(m, &o, a, 4), 0);
	assert_int_equal(kmap_capmap_cells(m, &cells), 2);
	assert_int_equal(cells[0].offset_end, 0);
	kmap_capmap_free(m);
}

/* The mtrace plugin's load-time checks (tools/qemu-plugin/version.c). */

static qemu_info_t qemu_72(void)
{
	qemu_info_t info;

	memset(&info, 0, sizeof(info));
	info.target_name = "x86_64";
	info.version.min = 0;
	info.version.cur = 1;
	info.system_emulation = true;
	info.system.smp_vcpus = 2;
	info.system.max_vcpus = 2;
	return info;
}

static void test_mtrace_version(void **state)
{
	qemu_info_t info = qemu_72();
	char err[512];

	(void)state;
	assert_int_equal(mtrace_check_qemu(&info, err, sizeof(err)), 0);
	/* A later QEMU (API 2, say 8.2) and an earlier one: refused, saying why. */
	info.version.cur = 2;
	info.version.min = 0;
	assert_int_equal(mtrace_check_qemu(&info, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "built for QEMU's TCG plugin API version 1 (QEMU 7.2); this QEMU implements version 2"));
	assert_non_null(strstr(err, "refusing to load"));
	info.version.cur = 0;
	assert_int_equal(mtrace_check_qemu(&info, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "implements version 0"));
	/* One that dropped version 1. */
	info = qemu_72();
	info.version.min = 2;
	info.version.cur = 3;
	assert_int_equal(mtrace_check_qemu(&info, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "supports 2 to 3"));
	info = qemu_72();
	info.system_emulation = false;
	assert_int_equal(mtrace_check_qemu(&info, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not user-mode QEMU"));
	info = qemu_72();
	info.target_name = "aarch64";
	assert_int_equal(mtrace_check_qemu(&info, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "the target is aarch64"));
	info = qemu_72();
	info.system.max_vcpus = 33;
	assert_int_equal(mtrace_check_qemu(&info, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "33 vCPUs; from 1 to 32 are supported"));
	info.system.max_vcpus = 32;
	assert_int_equal(mtrace_check_qemu(&info, err, sizeof(err)), 0);
}

/*
 * The plugin's mode kmap (tools/qemu-plugin/kmap_counter.c), fed labels
 * and accesses by hand as the plugin feeds them from mtrace_label.ko's
 * markers; its stream read back record by record.
 */
#define KC_LBASE	0xffffffffa0010000ull
#define KC_MOD_TEXT	0xffffffffa0000000ull

/* A value as the module sends it: the fewest 12-bit chunks, sign-extended. */
static void kc_send(struct kmap_counter *k, unsigned int cpu, int64_t v)
{
	int n = 1, i;

	while (n < 6 && v >> (12 * n - 1) != 0 && v >> (12 * n - 1) != -1)
		n++;
	for (i = n - 1; i > 0; i--)
		kmap_counter_mark(k, cpu, KMAP_MARK_VAL,
				  KC_LBASE + (uint64_t)((v >> (12 * i)) & 0xfff), 42);
	kmap_counter_mark(k, cpu, KMAP_MARK_VAL_LAST,
			  KC_LBASE + (uint64_t)(v & 0xfff), 42);
}

/* A label: BEGIN, the values, the event, on cpu with pid 42 running. */
static void kc_label(struct kmap_counter *k, unsigned int cpu, unsigned int e,
		     unsigned int n, ...)
{
	va_list ap;
	unsigned int i;

	kmap_counter_mark(k, cpu, KMAP_MARK_EVENT, KC_LBASE + MTRACE_LABEL_BEGIN, 42);
	va_start(ap, n);
	for (i = 0; i < n; i++)
		kc_send(k, cpu, va_arg(ap, int64_t));
	va_end(ap);
	kmap_counter_mark(k, cpu, KMAP_MARK_EVENT, KC_LBASE + e, 42);
}

#define V(x)	((int64_t)(x))

/* A kmap counter's files: its System.map and its stream, in a new directory. */
struct kc_files {
	char dir[32], smap[64], sbin[64];
	struct kmap_counter_config c;
};

/* A counter of 2 vCPUs, at most 100 counters, over System.map map. */
static struct kmap_counter *kc_open(struct kc_files *t, const char *map)
{
	struct kmap_counter *k;
	char msg[2048];
	FILE *f;

	snprintf(t->dir, sizeof(t->dir), "/tmp/kmap-counter-XXXXXX");
	assert_non_null(mkdtemp(t->dir));
	snprintf(t->smap, sizeof(t->smap), "%s/System.map", t->dir);
	snprintf(t->sbin, sizeof(t->sbin), "%s/kmap.bin", t->dir);
	f = fopen(t->smap, "w");
	assert_non_null(f);
	fputs(map, f);
	fclose(f);
	memset(&t->c, 0, sizeof(t->c));
	t->c.nr_vcpus = 2;
	t->c.max_cells = 100;
	t->c.stream = t->sbin;
	t->c.system_map = t->smap;
	k = kmap_counter_open(&t->c, msg, sizeof(msg));
	assert_non_null(k);
	return k;
}

/* The stream the counter wrote, read back into *buf. */
static struct kmap_bin_reader *kc_stream(const struct kc_files *t, char **buf)
{
	struct kmap_bin_reader *r;
	size_t len;
	FILE *f = fopen(t->sbin, "rb");

	assert_non_null(f);
	*buf = malloc(1 << 16);
	assert_non_null(*buf);
	len = fread(*buf, 1, 1 << 16, f);
	fclose(f);
	r = kmap_bin_open_mem(*buf, len, "t");
	assert_non_null(r);
	return r;
}

static void kc_remove(const struct kc_files *t)
{
	unlink(t->smap);
	unlink(t->sbin);
	rmdir(t->dir);
}

static void test_mtrace_kmap(void **state)
{
	static const char map[] =
		"0000000000000000 A __per_cpu_start\n"
		"0000000000000000 D pcpu_x\n"
		"0000000000000008 D pcpu_y\n"
		"0000000000000020 A __per_cpu_end\n"
		"ffffffff81000000 T _stext\n"
		"ffffffff81000100 T caller_fn\n"
		"ffffffff81000200 T __alloc_pages_noprof\n"
		"ffffffff81000300 t allocate_slab\n"
		"ffffffff81000400 T other_fn\n"
		"ffffffff82000000 T _etext\n"
		"ffffffff82000000 D __start_rodata\n"
		"ffffffff82000010 d glob_b\n"
		"ffffffff82000040 B _end\n";
	const uint64_t obj = 0xff11000002000040ull, pages = 0xff11000003000000ull;
	const uint64_t cache = 0xff11000001000000ull, site = 0xffffffff81000150ull;
	const uint64_t ip_w = 0xffffffff81000410ull, ip_r = 0xffffffff81000420ull;
	struct kc_files t;
	struct kmap_counter *k;
	struct kmap_bin_reader *r;
	struct kmap_bin_rec rec;
	char *buf, msg[2048];
	FILE *f;
	int i, seen;

	(void)state;
	k = kc_open(&t, map);

	/* Before HELLO, nothing counts. */
	kmap_counter_access(k, 0, obj, 8, ip_w, 42, 1);
	kmap_counter_lbase(k, KC_LBASE);
	kc_label(k, 0, MTRACE_LABEL_HELLO, 6, V(MTRACE_LABEL_VERSION), V(250),
		 V(2), V(4096), V(KC_MOD_TEXT), V(0x1000));
	kc_label(k, 0, MTRACE_LABEL_PERCPU_AREA, 2, V(0), V(0xff11000000100000ull));
	kc_label(k, 0, MTRACE_LABEL_COMM, 3, V(42), V(0x746163), V(0));
	/* Labels before READY are taken; accesses are not counted. */
	kmap_counter_access(k, 0, 0xffffffff82000014ull, 4, ip_r, 42, 0);
	kc_label(k, 0, MTRACE_LABEL_READY, 0);
	kc_label(k, 1, MTRACE_LABEL_CACHE, 6, V(cache), V(64), V(0x706c6966) /* "filp" */,
		 V(0), V(0), V(0));
	kc_label(k, 1, MTRACE_LABEL_CACHE_ALLOC, 4, V(0), V(obj), V(site), V(cache));
	for (i = 0; i < 3; i++)
		kmap_counter_access(k, 1, obj + 8, 8, ip_w, 42, 1);
	for (i = 0; i < 2; i++)
		kmap_counter_access(k, 0, obj + 0x20, 4, ip_r, 42, 0);
	/* A global, found at its first access; user memory; no object. */
	kmap_counter_access(k, 0, 0xffffffff82000014ull, 4, ip_r, 42, 0);
	kmap_counter_access(k, 0, 0x7fff0000ull, 8, ip_r, 42, 0);
	kmap_counter_access(k, 0, 0xff11000009000000ull, 8, ip_r, 42, 0);
	/* The module's own code, and a label's inside, are not counted. */
	kmap_counter_access(k, 0, obj, 8, KC_MOD_TEXT + 0x10, 42, 1);
	kc_label(k, 1, MTRACE_LABEL_SLAB_FREE, 4, V(0), V(obj),
		 V(0xffffffff81000160ull), V(MEMORIZER_FREE_CACHE));
	/* Pages: the call site past the module and the allocator. */
	kc_label(k, 0, MTRACE_LABEL_PAGES, 6, V(0), V(pages), V(1),
		 V(KC_MOD_TEXT + 0x20), V(0xffffffff81000210ull),
		 V(0xffffffff81000120ull));
	kmap_counter_access(k, 0, pages + 4096, 8, ip_w, 42, 1);
	/* A slab's pages are not an object. */
	kc_label(k, 0, MTRACE_LABEL_PAGES, 6, V(0), V(pages + 0x10000), V(0),
		 V(0xffffffff81000210ull), V(0xffffffff81000308ull),
		 V(0xffffffff81000120ull));
	/* kmalloc over the live pages: they were freed unseen. */
	kc_label(k, 0, MTRACE_LABEL_KMALLOC, 5, V(0), V(pages), V(site),
		 V(100), V(128));
	/* Too few values: a bad label, nothing made. */
	kc_label(k, 0, MTRACE_LABEL_KMALLOC, 2, V(0), V(obj));
	assert_int_equal(kmap_counter_close(k, msg, sizeof(msg)), 0);
	assert_non_null(strstr(msg, "9 kernel accesses counted, 7 on objects (87.50%), 1 to user addresses, 1 on no object, 0 dropped"));
	assert_non_null(strstr(msg, "2 freed (1 missed)"));
	assert_non_null(strstr(msg, "1 page and vmalloc allocations not objects"));
	assert_non_null(strstr(msg, "1 bad"));
	/* First the line of what was written: ALLOC records, all records. */
	assert_non_null(strstr(msg, "kmap.bin: kmap written: 4 objects, 14 records, 0.0 MiB; at exit "));
	assert_non_null(strstr(msg, " objects live, their counters 1 records, in "));

	r = kc_stream(&t, &buf);
	/* TASK on each vCPU, then the cache. */
	for (i = 0; i < 2; i++) {
		assert_int_equal(kmap_bin_next(r, &rec), 1);
		assert_int_equal(rec.type, MEMORIZER_REC_TASK);
		assert_int_equal(rec.cpu, i);
		assert_int_equal(rec.u.task.pid, 42);
		assert_string_equal(rec.u.task.comm, "cat");
	}
	assert_int_equal(kmap_bin_next(r, &rec), 1);
	assert_int_equal(rec.type, MEMORIZER_REC_CACHE);
	assert_string_equal(rec.u.cache.name, "filp");
	assert_int_equal(kmap_bin_next(r, &rec), 1);
	assert_int_equal(rec.type, MEMORIZER_REC_ALLOC);
	assert_int_equal(rec.u.alloc.id, 1);
	assert_true(rec.u.alloc.addr == obj && rec.u.alloc.call_site == site);
	assert_int_equal(rec.u.alloc.size, 64);
	assert_int_equal(rec.u.alloc.pid, 42);
	assert_int_equal(rec.u.alloc.kind, MEMORIZER_ALLOC_CACHE);
	assert_int_equal(rec.u.alloc.context, MEMORIZER_CONTEXT_TASK);
	assert_int_equal(rec.u.alloc.cache_id, 1);
	/* The global: found, its own address its call site, to _end. */
	assert_int_equal(kmap_bin_next(r, &rec), 1);
	assert_int_equal(rec.type, MEMORIZER_REC_ALLOC);
	assert_int_equal(rec.u.alloc.id, 2);
	assert_true(rec.u.alloc.addr == 0xffffffff82000010ull &&
		    rec.u.alloc.call_site == 0xffffffff82000010ull);
	assert_int_equal(rec.u.alloc.size, 0x30);
	assert_int_equal(rec.u.alloc.kind, MEMORIZER_ALLOC_GLOBAL);
	assert_int_equal(rec.u.alloc.context, MEMORIZER_CONTEXT_FOUND);
	assert_int_equal(rec.u.alloc.pid, 0);
	/* The freed object's two counters, in either order, then its FREE. */
	for (i = 0, seen = 0; i < 2; i++) {
		assert_int_equal(kmap_bin_next(r, &rec), 1);
		assert_int_equal(rec.type, MEMORIZER_REC_ACCESS);
		assert_true(rec.u.access.id == 1 && rec.u.access.pid == 42);
		seen |= rec.u.access.ip == ip_r ? 1 : 2;
		if (rec.u.access.ip == ip_r) {
			assert_true(rec.u.access.reads == 2 && rec.u.access.writes == 0);
			assert_true(rec.u.access.offset == 0x20 &&
				    rec.u.access.offset_end == 0x24);
		} else {
			assert_true(rec.u.access.ip == ip_w);
			assert_true(rec.u.access.reads == 0 && rec.u.access.writes == 3);
			assert_true(rec.u.access.offset == 8 &&
				    rec.u.access.offset_end == 16);
		}
	}
	assert_int_equal(seen, 3);
	assert_int_equal(kmap_bin_next(r, &rec), 1);
	assert_int_equal(rec.type, MEMORIZER_REC_FREE);
	assert_int_equal(rec.u.free.id, 1);
	assert_true(rec.u.free.call_site == 0xffffffff81000160ull);
	assert_int_equal(rec.u.free.api, MEMORIZER_FREE_CACHE);
	assert_int_equal(rec.u.free.nr_access, 2);
	/* The pages: 8 KiB, from caller_fn. */
	assert_int_equal(kmap_bin_next(r, &rec), 1);
	assert_int_equal(rec.type, MEMORIZER_REC_ALLOC);
	assert_int_equal(rec.u.alloc.id, 3);
	assert_true(rec.u.alloc.addr == pages &&
		    rec.u.alloc.call_site == 0xffffffff81000120ull);
	assert_int_equal(rec.u.alloc.size, 8192);
	assert_int_equal(rec.u.alloc.kind, MEMORIZER_ALLOC_PAGES);
	/* The kmalloc over them: their counter, their missed free. */
	assert_int_equal(kmap_bin_next(r, &rec), 1);
	assert_int_equal(rec.type, MEMORIZER_REC_ACCESS);
	assert_true(rec.u.access.id == 3 && rec.u.access.writes == 1 &&
		    rec.u.access.offset == 4096 && rec.u.access.offset_end == 4104);
	assert_int_equal(kmap_bin_next(r, &rec), 1);
	assert_int_equal(rec.type, MEMORIZER_REC_FREE);
	assert_true(rec.u.free.id == 3 && rec.u.free.api == MEMORIZER_FREE_MISSED &&
		    rec.u.free.call_site == 0xdeadbeefull);
	assert_int_equal(kmap_bin_next(r, &rec), 1);
	assert_int_equal(rec.type, MEMORIZER_REC_CACHE);
	assert_string_equal(rec.u.cache.name, "kmalloc-128");
	assert_int_equal(kmap_bin_next(r, &rec), 1);
	assert_int_equal(rec.type, MEMORIZER_REC_ALLOC);
	assert_true(rec.u.alloc.id == 4 && rec.u.alloc.size == 100 &&
		    rec.u.alloc.size_alloc == 128 && rec.u.alloc.cache_id == 2 &&
		    rec.u.alloc.kind == MEMORIZER_ALLOC_KMALLOC);
	/* At the end, the live global's counter. */
	assert_int_equal(kmap_bin_next(r, &rec), 1);
	assert_int_equal(rec.type, MEMORIZER_REC_ACCESS);
	assert_true(rec.u.access.id == 2 && rec.u.access.reads == 1 &&
		    rec.u.access.offset == 4 && rec.u.access.offset_end == 8);
	assert_int_equal(kmap_bin_next(r, &rec), 0);
	assert_int_equal(kmap_bin_records(r), 14);
	kmap_bin_close(r);
	free(buf);

	/* A System.map that is not one: named, nothing made. */
	f = fopen(t.smap, "w");
	assert_non_null(f);
	fputs("ffffffff81000000 T _stext\nnot a line\n", f);
	fclose(f);
	assert_null(kmap_counter_open(&t.c, msg, sizeof(msg)));
	assert_non_null(strstr(msg, "System.map:2: not a System.map line"));
	kc_remove(&t);
}

/*
 * What the kernel made before mtrace_label.ko: a slab, whose objects are
 * found at their first access, a vmalloc area from /proc/vmallocinfo;
 * and accesses before an allocation's tracepoint (zeroing), the new
 * object's once its label comes.
 */
static void test_mtrace_kmap_early(void **state)
{
	static const char map[] =
		"0000000000000000 A __per_cpu_start\n"
		"0000000000000020 A __per_cpu_end\n"
		"ffffffff81000000 T _stext\n"
		"ffffffff81000100 T caller_fn\n"
		"ffffffff81000200 T __alloc_pages_noprof\n"
		"ffffffff81000400 T other_fn\n"
		"ffffffff82000000 T _etext\n"
		"ffffffff82000000 D __start_rodata\n"
		"ffffffff82000040 B _end\n";
	const uint64_t slab = 0xff11000004000000ull, pages = 0xff11000005000000ull;
	const uint64_t cache = 0xff11000001000000ull, area = 0xffffc90000100000ull;
	const uint64_t ip_w = 0xffffffff81000410ull, ip_r = 0xffffffff81000420ull;
	const uint64_t ip_z = 0xffffffff81000430ull;
	struct kc_files t;
	struct kmap_counter *k;
	struct kmap_bin_reader *r;
	struct kmap_bin_rec rec;
	char *buf, msg[2048];
	int i, seen;

	(void)state;
	k = kc_open(&t, map);
	kmap_counter_lbase(k, KC_LBASE);
	kc_label(k, 0, MTRACE_LABEL_HELLO, 6, V(MTRACE_LABEL_VERSION), V(250),
		 V(2), V(4096), V(KC_MOD_TEXT), V(0x1000));
	kc_label(k, 0, MTRACE_LABEL_READY, 0);
	/* "caller_fn": its area is written at once; "nosuch": not taken. */
	kc_label(k, 0, MTRACE_LABEL_VMALLOC_EARLY, 9, V(area), V(0x3000),
		 V(0x20), V(0x665f72656c6c6163ull) /* "caller_f" */, V('n'),
		 V(0), V(0), V(0), V(0));
	kc_label(k, 0, MTRACE_LABEL_VMALLOC_EARLY, 4, V(area + 0x4000),
		 V(0x2000), V(0), V(0x686375736f6e) /* "nosuch" */);
	/* 12 writes: a counter goes out at 5 in this build (KMAP_COUNT_MAX). */
	for (i = 0; i < 12; i++)
		kmap_counter_access(k, 0, area + 0x10, 8, ip_w, 42, 1);
	kc_label(k, 1, MTRACE_LABEL_CACHE, 6, V(cache), V(48),
		 V(0x7972746e6564) /* "dentry" */, V(0), V(0), V(0));
	kc_label(k, 1, MTRACE_LABEL_SLAB_PAGES, 4, V(slab), V(8192), V(cache),
		 V(64));
	/* Slot 3 (at 192, 48 bytes), and past slot 5's 48 bytes. */
	kmap_counter_access(k, 1, slab + 200, 8, ip_w, 42, 1);
	kmap_counter_access(k, 1, slab + 232, 4, ip_r, 42, 0);
	kmap_counter_access(k, 1, slab + 370, 8, ip_r, 42, 0);
	/*
	 * Slot 1 freed under a label (of an object allocated unlabeled):
	 * the free list written into it after is no object's.
	 */
	kc_label(k, 1, MTRACE_LABEL_SLAB_FREE, 4, V(0), V(slab + 64),
		 V(0xffffffff81000160ull), V(MEMORIZER_FREE_CACHE));
	kmap_counter_access(k, 1, slab + 64, 8, ip_w, 42, 1);
	/* Pages zeroed before their tracepoint, then their label. */
	for (i = 0; i < 3; i++)
		kmap_counter_access(k, 0, pages + 8 * i, 8, ip_z, 42, 1);
	kc_label(k, 0, MTRACE_LABEL_PAGES, 5, V(0), V(pages), V(0),
		 V(0xffffffff81000210ull), V(0xffffffff81000120ull));
	/* An allocation on vCPU 1 settles what it held: the slot is found. */
	kc_label(k, 1, MTRACE_LABEL_KMALLOC, 5, V(0), V(pages + 0x10000),
		 V(0xffffffff81000150ull), V(64), V(64));
	/* The slab's pages freed: its found object ends, missed. */
	kc_label(k, 1, MTRACE_LABEL_PAGES_FREE, 3, V(0), V(slab),
		 V(0xffffffff81000120ull));
	kmap_counter_access(k, 1, slab + 200, 8, ip_w, 42, 1);
	assert_int_equal(kmap_counter_close(k, msg, sizeof(msg)), 0);
	assert_non_null(strstr(msg, "20 kernel accesses counted, 17 on objects (85.00%), 0 to user addresses, 3 on no object"));
	assert_non_null(strstr(msg, "1 freed (1 missed), 1 frees of no object"));
	assert_non_null(strstr(msg, "1 page and vmalloc allocations not objects, 1 slabs and 1 vmalloc areas from before the module"));
	assert_non_null(strstr(msg, " 0 bad"));

	r = kc_stream(&t, &buf);
	/* The area: caller_fn + 0x20, by no task the module could name. */
	assert_int_equal(kmap_bin_next(r, &rec), 1);
	assert_int_equal(rec.type, MEMORIZER_REC_ALLOC);
	assert_true(rec.u.alloc.id == 1 && rec.u.alloc.addr == area &&
		    rec.u.alloc.call_site == 0xffffffff81000120ull &&
		    rec.u.alloc.size == 0x3000 && rec.u.alloc.pid == 0 &&
		    rec.u.alloc.kind == MEMORIZER_ALLOC_VMALLOC &&
		    rec.u.alloc.context == MEMORIZER_CONTEXT_TASK);
	for (i = 0; i < 2; i++) {
		assert_int_equal(kmap_bin_next(r, &rec), 1);
		assert_int_equal(rec.type, MEMORIZER_REC_ACCESS);
		assert_true(rec.u.access.id == 1 && rec.u.access.writes == 5 &&
			    rec.u.access.reads == 0 &&
			    rec.u.access.offset == 0x10 &&
			    rec.u.access.offset_end == 0x18);
	}
	assert_int_equal(kmap_bin_next(r, &rec), 1);
	assert_int_equal(rec.type, MEMORIZER_REC_CACHE);
	assert_string_equal(rec.u.cache.name, "dentry");
	assert_int_equal(kmap_bin_next(r, &rec), 1);
	assert_int_equal(rec.type, MEMORIZER_REC_ALLOC);
	assert_true(rec.u.alloc.id == 2 && rec.u.alloc.addr == pages &&
		    rec.u.alloc.kind == MEMORIZER_ALLOC_PAGES);
	assert_int_equal(kmap_bin_next(r, &rec), 1);
	assert_int_equal(rec.type, MEMORIZER_REC_CACHE);
	assert_string_equal(rec.u.cache.name, "kmalloc-64");
	assert_int_equal(kmap_bin_next(r, &rec), 1);
	assert_int_equal(rec.type, MEMORIZER_REC_ALLOC);
	assert_true(rec.u.alloc.id == 3 &&
		    rec.u.alloc.kind == MEMORIZER_ALLOC_KMALLOC);
	/* Slot 3, found: the cache's object size, the cache's name. */
	assert_int_equal(kmap_bin_next(r, &rec), 1);
	assert_int_equal(rec.type, MEMORIZER_REC_ALLOC);
	assert_true(rec.u.alloc.id == 4 && rec.u.alloc.addr == slab + 192 &&
		    rec.u.alloc.call_site == slab + 192 &&
		    rec.u.alloc.size == 48 && rec.u.alloc.cache_id == 1 &&
		    rec.u.alloc.kind == MEMORIZER_ALLOC_CACHE &&
		    rec.u.alloc.context == MEMORIZER_CONTEXT_FOUND);
	for (i = 0, seen = 0; i < 2; i++) {
		assert_int_equal(kmap_bin_next(r, &rec), 1);
		assert_int_equal(rec.type, MEMORIZER_REC_ACCESS);
		assert_int_equal(rec.u.access.id, 4);
		seen |= rec.u.access.ip == ip_r ? 1 : 2;
		if (rec.u.access.ip == ip_r)
			assert_true(rec.u.access.reads == 1 &&
				    rec.u.access.offset == 40 &&
				    rec.u.access.offset_end == 44);
		else
			assert_true(rec.u.access.writes == 1 &&
				    rec.u.access.offset == 8 &&
				    rec.u.access.offset_end == 16);
	}
	assert_int_equal(seen, 3);
	assert_int_equal(kmap_bin_next(r, &rec), 1);
	assert_int_equal(rec.type, MEMORIZER_REC_FREE);
	assert_true(rec.u.free.id == 4 &&
		    rec.u.free.api == MEMORIZER_FREE_MISSED);
	/* At the end: the area's last 2 writes; the pages' zeroing's 3. */
	assert_int_equal(kmap_bin_next(r, &rec), 1);
	assert_int_equal(rec.type, MEMORIZER_REC_ACCESS);
	assert_true(rec.u.access.id == 1 && rec.u.access.writes == 2);
	assert_int_equal(kmap_bin_next(r, &rec), 1);
	assert_int_equal(rec.type, MEMORIZER_REC_ACCESS);
	assert_true(rec.u.access.id == 2 && rec.u.access.ip == ip_z &&
		    rec.u.access.writes == 3 && rec.u.access.offset == 0 &&
		    rec.u.access.offset_end == 24);
	assert_int_equal(kmap_bin_next(r, &rec), 0);
	kmap_bin_close(r);
	free(buf);
	kc_remove(&t);
}

/* No kmap without the module's HELLO; a module of another convention is named. */
static void test_mtrace_kmap_no_hello(void **state)
{
	static const char map[] =
		"0000000000000000 A __per_cpu_start\n"
		"0000000000000020 A __per_cpu_end\n"
		"ffffffff81000000 T _stext\n"
		"ffffffff82000000 T _etext\n"
		"ffffffff82000000 D __start_rodata\n"
		"ffffffff82000040 B _end\n";
	struct kc_files t;
	struct kmap_counter *k;
	char msg[2048], want[256];

	(void)state;
	k = kc_open(&t, map);
	kmap_counter_lbase(k, KC_LBASE);
	assert_int_equal(kmap_counter_close(k, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "no kmap: mtrace_label.ko never loaded (no HELLO label)"));
	kc_remove(&t);

	k = kc_open(&t, map);
	kmap_counter_lbase(k, KC_LBASE);
	kc_label(k, 0, MTRACE_LABEL_HELLO, 6, V(MTRACE_LABEL_VERSION - 1), V(250),
		 V(2), V(4096), V(KC_MOD_TEXT), V(0x1000));
	/* Everything after a refused HELLO is refused too. */
	kc_label(k, 0, MTRACE_LABEL_READY, 0);
	kmap_counter_access(k, 0, 0xffffffff82000014ull, 4, 0xffffffff81000010ull, 42, 0);
	assert_int_equal(kmap_counter_close(k, msg, sizeof(msg)), -1);
	snprintf(want, sizeof(want),
		 "no kmap: mtrace_label.ko speaks label convention %d, this plugin %d: rebuild the module",
		 MTRACE_LABEL_VERSION - 1, MTRACE_LABEL_VERSION);
	assert_non_null(strstr(msg, want));
	kc_remove(&t);
}

/* Instructions after which the plugin looks physical pages up again. */
static void test_mtrace_insn(void **state)
{
	static const struct {
		unsigned char bytes[8];
		size_t len;
		int changes;
	} cases[] = {
		{ { 0x0f, 0x01, 0x38 }, 3, 1 },		/* invlpg (%rax) */
		{ { 0x0f, 0x01, 0x7c, 0x24, 0x08 }, 5, 1 }, /* invlpg 8(%rsp) */
		{ { 0x0f, 0x22, 0xd8 }, 3, 1 },		/* mov %rax,%cr3 */
		{ { 0x0f, 0x22, 0xe0 }, 3, 1 },		/* mov %rax,%cr4 */
		{ { 0x44, 0x0f, 0x22, 0xc0 }, 4, 1 },	/* mov %rax,%cr8 */
		{ { 0x66, 0x0f, 0x38, 0x82, 0x08 }, 5, 1 }, /* invpcid */
		{ { 0x0f, 0x30 }, 2, 1 },		/* wrmsr */
		{ { 0x0f, 0xaa }, 2, 1 },		/* rsm */
		{ { 0x0f, 0x01, 0x30 }, 3, 1 },		/* lmsw (%rax) */
		{ { 0x0f, 0x01, 0xfe }, 3, 1 },		/* invlpgb */
		{ { 0x0f, 0x01, 0xff }, 3, 1 },		/* tlbsync */
		{ { 0x0f, 0x20, 0xd8 }, 3, 0 },		/* mov %cr3,%rax */
		{ { 0x0f, 0x01, 0xf8 }, 3, 0 },		/* swapgs */
		{ { 0x0f, 0x01, 0xf9 }, 3, 0 },		/* rdtscp */
		{ { 0x0f, 0x01, 0xd0 }, 3, 0 },		/* xgetbv */
		{ { 0x0f, 0x32 }, 2, 0 },		/* rdmsr */
		{ { 0x0f, 0x38, 0x80, 0x08 }, 4, 0 },	/* invept-like, not 82 */
		{ { 0x65, 0x48, 0x8b, 0x04, 0x25 }, 5, 0 }, /* mov %gs:..,%rax */
		{ { 0x48, 0x89, 0xc7 }, 3, 0 },		/* mov %rax,%rdi */
		{ { 0x0f, 0x01 }, 2, 0 },		/* cut short */
		{ { 0x0f }, 1, 0 },
		{ { 0x66, 0x66 }, 2, 0 },
		{ { 0 }, 0, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(mtrace_insn_changes_translation(cases[i].bytes,
								 cases[i].len),
				 cases[i].changes);
}

/* mtrace's rule, step by step, on a line of 2 vCPUs and one of 32. */
static void test_mtrace_line_rule(void **state)
{
	static const struct {
		unsigned int cpu;
		int write;
		uint64_t state_after;
		int shared;
	} two[] = {
		{ 0, 0, 0x20, 0 },	/* first read: no transfer; 1 must write anew */
		{ 1, 1, 0x11, 1 },	/* 0 read since 1 wrote (never) */
		{ 0, 0, 0x30, 1 },	/* 1 wrote since 0 read */
		{ 0, 0, 0x30, 0 },	/* again: nothing moved */
		{ 1, 1, 0x11, 1 },	/* 0 read since 1 wrote */
		{ 1, 1, 0x11, 0 },	/* 1's own line now */
		{ 1, 0, 0x11, 0 },	/* 1 reads its own write */
		{ 0, 1, 0x23, 1 },	/* 1 wrote since 0 wrote */
		{ 1, 0, 0x31, 1 },	/* 0 wrote since 1 read */
	};
	uint64_t line = 0, all32 = 0xffffffffull;
	size_t i;
	int shared;

	(void)state;
	for (i = 0; i < sizeof(two) / sizeof(two[0]); i++) {
		line = mtrace_line_next(line, two[i].cpu, two[i].write, 4, 3,
					&shared);
		assert_int_equal(line, two[i].state_after);
		assert_int_equal(shared, two[i].shared);
	}
	/* 32 vCPUs: masks of 32 bits, the write mask in the high half. */
	line = mtrace_line_next(0, 31, 0, 32, all32, &shared);
	assert_int_equal(line, 0x7fffffffull << 32);
	assert_int_equal(shared, 0);
	line = mtrace_line_next(line, 0, 1, 32, all32, &shared);
	assert_int_equal(shared, 1);
	assert_int_equal(line, 0xfffffffeull << 32 | 0xfffffffeull);
	line = mtrace_line_next(line, 31, 0, 32, all32, &shared);
	assert_int_equal(shared, 1);
	assert_int_equal(line, 0xffffffffull << 32 | 0x7ffffffeull);
}

static void test_mtrace_args(void **state)
{
	char a1[] = "log=/tmp/x.log", a2[] = "mode=all", a3[] = "mode=some",
	     a4[] = "file=/tmp/x", a5[] = "window=task", a6[] = "window=some";
	char *ok[] = { a1, a2 }, *bad[] = { a1, a3 }, *none[] = { a2 },
	     *file[] = { a4 }, *win[] = { a1, a5 }, *badwin[] = { a1, a6 };
	struct mtrace_args a;
	char err[512];

	(void)state;
	assert_int_equal(mtrace_parse_args(2, ok, &a, err, sizeof(err)), 0);
	assert_string_equal(a.file, "/tmp/x.log");
	assert_int_equal(a.mode, MTRACE_MODE_ALL);
	assert_int_equal(a.window_task, 0);
	assert_int_equal(mtrace_parse_args(1, ok, &a, err, sizeof(err)), 0);
	assert_int_equal(a.mode, MTRACE_MODE_SHARING);
	/* window=task: only while mtrace_task.ko is loaded. */
	assert_int_equal(mtrace_parse_args(2, win, &a, err, sizeof(err)), 0);
	assert_int_equal(a.window_task, 1);
	assert_int_equal(mtrace_parse_args(2, badwin, &a, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "window=all|task"));
	assert_int_equal(mtrace_parse_args(2, bad, &a, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "unknown argument 'mode=some'"));
	assert_int_equal(mtrace_parse_args(1, none, &a, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no log=PATH"));
	assert_int_equal(mtrace_parse_args(1, file, &a, err, sizeof(err)), -1);
	{
		/* mode=kmap: symbols=PATH needed, cells=N a positive count. */
		char k1[] = "mode=kmap", k2[] = "symbols=/tmp/System.map",
		     k3[] = "cells=1000", k4[] = "cells=0", k5[] = "cells=-3",
		     k6[] = "cells=12x";
		char *kmap[] = { a1, k1, k2, k3 }, *nosym[] = { a1, k1 },
		     *zero[] = { a1, k1, k2, k4 }, *neg[] = { a1, k1, k2, k5 },
		     *junk[] = { a1, k1, k2, k6 };

		assert_int_equal(mtrace_parse_args(4, kmap, &a, err, sizeof(err)), 0);
		assert_int_equal(a.kmap, 1);
		assert_string_equal(a.symbols, "/tmp/System.map");
		assert_int_equal(a.max_cells, 1000);
		assert_int_equal(mtrace_parse_args(3, kmap, &a, err, sizeof(err)), 0);
		assert_true(a.max_cells == MTRACE_KMAP_DEFAULT_CELLS);
		assert_int_equal(mtrace_parse_args(2, nosym, &a, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "mode=kmap needs symbols=PATH"));
		assert_int_equal(mtrace_parse_args(4, zero, &a, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "cells=0: not a positive number"));
		assert_int_equal(mtrace_parse_args(4, neg, &a, err, sizeof(err)), -1);
		assert_int_equal(mtrace_parse_args(4, junk, &a, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "cells=12x"));
	}
	{
		/* granularity=line|byte; filter=PATH.so, filter-arg=STRING. */
		char g1[] = "granularity=byte", g2[] = "granularity=line",
		     g3[] = "granularity=word", f1[] = "filter=/x/select.so",
		     f2[] = "filter-arg=pid=5;ip=1-2", f3[] = "filter-arg=",
		     f4[] = "filter=", k1[] = "mode=kmap",
		     k2[] = "symbols=/tmp/System.map";
		char *def[] = { a1 }, *byte[] = { a1, g1 },
		     *line[] = { a1, g1, g2 }, *word[] = { a1, g3 },
		     *filt[] = { a1, f1, f2 }, *noarg[] = { a1, f1 },
		     *empty[] = { a1, f3, f1 }, *orphan[] = { a1, f2 },
		     *nopath[] = { a1, f4 }, *kbyte[] = { a1, k1, k2, g1 },
		     *kfilt[] = { a1, k1, k2, f1, f2 };

		assert_int_equal(mtrace_parse_args(1, def, &a, err, sizeof(err)), 0);
		assert_int_equal(a.gran_shift, MTRACE_LINE_SHIFT);
		assert_null(a.filter);
		assert_null(a.filter_arg);
		assert_int_equal(mtrace_parse_args(2, byte, &a, err, sizeof(err)), 0);
		assert_int_equal(a.gran_shift, MTRACE_BYTE_SHIFT);
		assert_int_equal(mtrace_parse_args(3, line, &a, err, sizeof(err)), 0);
		assert_int_equal(a.gran_shift, MTRACE_LINE_SHIFT);
		assert_int_equal(mtrace_parse_args(2, word, &a, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "unknown argument 'granularity=word'"));
		assert_non_null(strstr(err, "granularity=line|byte"));
		assert_int_equal(mtrace_parse_args(3, filt, &a, err, sizeof(err)), 0);
		assert_string_equal(a.filter, "/x/select.so");
		assert_string_equal(a.filter_arg, "pid=5;ip=1-2");
		assert_int_equal(mtrace_parse_args(2, noarg, &a, err, sizeof(err)), 0);
		assert_null(a.filter_arg);
		assert_int_equal(mtrace_parse_args(3, empty, &a, err, sizeof(err)), 0);
		assert_string_equal(a.filter_arg, "");
		assert_int_equal(mtrace_parse_args(2, orphan, &a, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "without filter=PATH.so"));
		assert_int_equal(mtrace_parse_args(2, nopath, &a, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "unknown argument 'filter='"));
		/* Mode kmap applies no sharing rule; it takes a filter. */
		assert_int_equal(mtrace_parse_args(4, kbyte, &a, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "mode kmap applies no rule"));
		assert_int_equal(mtrace_parse_args(5, kfilt, &a, err, sizeof(err)), 0);
		assert_int_equal(a.kmap, 1);
		assert_string_equal(a.filter, "/x/select.so");
	}
}

/*
 * The filter policies: the built-in one (kernel code's accesses), and
 * loading one from a shared object: the example, and those the plugin
 * must refuse.
 */
static void test_mtrace_filter(void **state)
{
	struct mtrace_filter f;
	char err[512];

	(void)state;
	/* The built-in policy: on the instruction's address alone. */
	assert_null(mtrace_default_init(""));
	assert_null(mtrace_default_init(NULL));
	assert_non_null(mtrace_default_init("pid=1"));
	assert_int_equal(mtrace_default_keep(0x1000, 8, 1, 0, 7,
					     0xffffffff81000000ull), 1);
	assert_int_equal(mtrace_default_keep(0, 1, 0, 1, MTRACE_PID_UNKNOWN,
					     MTRACE_KERNEL_HALF), 1);
	assert_int_equal(mtrace_default_keep(0xffff888000000000ull, 8, 0, 0, 7,
					     MTRACE_KERNEL_HALF - 1), 0);
	assert_int_equal(mtrace_default_keep(0, 4, 1, 0, 1, 0x401000), 0);

	/* Refused: not loadable, no policy, another ABI version. */
	assert_int_equal(mtrace_filter_load("/nonexistent/f.so", NULL, &f, err,
					    sizeof(err)), -1);
	assert_non_null(strstr(err, "filter=/nonexistent/f.so: does not load"));
	assert_null(f.keep);
	assert_int_equal(mtrace_filter_load("libm.so.6", NULL, &f, err,
					    sizeof(err)), -1);
	assert_non_null(strstr(err, "not a filter policy: it lacks mtrace_filter_abi"));
	assert_int_equal(mtrace_filter_load(FILTER_ABI0_SO, NULL, &f, err,
					    sizeof(err)), -1);
	assert_non_null(strstr(err, "built for the filter ABI version 2; this plugin's is 1"));

	/* The example, select.so: its init refuses what it cannot parse. */
	assert_int_equal(mtrace_filter_load(FILTER_SELECT_SO, NULL, &f, err,
					    sizeof(err)), -1);
	assert_non_null(strstr(err, "filter-arg=: select.so: give pid="));
	assert_int_equal(mtrace_filter_load(FILTER_SELECT_SO, "ip=5-5", &f, err,
					    sizeof(err)), -1);
	assert_non_null(strstr(err, "START below END"));
	assert_int_equal(mtrace_filter_load(FILTER_SELECT_SO, "pid=1/x", &f, err,
					    sizeof(err)), -1);
	assert_int_equal(mtrace_filter_load(FILTER_SELECT_SO, "pid=1 ip=1-2", &f,
					    err, sizeof(err)), -1);
	assert_non_null(strstr(err, "separated by ';'"));
	assert_int_equal(mtrace_filter_load(FILTER_SELECT_SO, "tid=1", &f, err,
					    sizeof(err)), -1);

	/* pid=: the tasks' accesses only. */
	assert_int_equal(mtrace_filter_load(FILTER_SELECT_SO, "pid=7/9", &f, err,
					    sizeof(err)), 0);
	assert_int_equal(f.keep(0x1000, 8, 1, 0, 7, 0xffffffff81000000ull), 1);
	assert_int_equal(f.keep(0x1000, 8, 1, 1, 9, 0xffffffff81000000ull), 1);
	assert_int_equal(f.keep(0x1000, 8, 1, 0, 8, 0xffffffff81000000ull), 0);
	assert_int_equal(f.keep(0x1000, 8, 1, 0, MTRACE_PID_UNKNOWN,
				0xffffffff81000000ull), 0);
	/* ip= and addr=, [START, END), with pid=: all must hold. */
	assert_int_equal(f.init("ip=0xffffffff81000000-0xffffffff81000100;addr=0x2000-0x3000;pid=7"), NULL);
	assert_int_equal(f.keep(0x2000, 4, 0, 0, 7, 0xffffffff81000000ull), 1);
	assert_int_equal(f.keep(0x2fff, 1, 0, 0, 7, 0xffffffff810000ffull), 1);
	assert_int_equal(f.keep(0x2000, 4, 0, 0, 7, 0xffffffff81000100ull), 0);
	assert_int_equal(f.keep(0x2000, 4, 0, 0, 7, 0xffffffff80ffffffull), 0);
	assert_int_equal(f.keep(0x3000, 4, 0, 0, 7, 0xffffffff81000000ull), 0);
	assert_int_equal(f.keep(0x1fff, 4, 0, 0, 7, 0xffffffff81000000ull), 0);
	assert_int_equal(f.keep(0x2000, 4, 0, 0, 8, 0xffffffff81000000ull), 0);
	/* A second init starts over: ip= alone, any task. */
	assert_int_equal(f.init("ip=16-32"), NULL);
	assert_int_equal(f.keep(0, 1, 0, 0, 3, 16), 1);
	assert_int_equal(f.keep(0, 1, 0, 0, MTRACE_PID_UNKNOWN, 31), 1);
	assert_int_equal(f.keep(0, 1, 0, 0, 3, 32), 0);
	dlclose(f.handle);
}

/*
 * mtrace_line_quiet()'s masks say exactly which states mtrace_line_next()
 * leaves unchanged and unflagged: every state of a byte (up to 4 vCPUs),
 * every vCPU of 2 and of 4, reads and writes.
 */
static void test_mtrace_line_quiet(void **state)
{
	unsigned int nv, cpu, old;
	int write;

	(void)state;
	for (nv = 2; nv <= 4; nv += 2)
		for (cpu = 0; cpu < nv; cpu++)
			for (write = 0; write < 2; write++)
				for (old = 0; old < 256; old++) {
					uint64_t all = (1ull << nv) - 1, clear, set;
					int shared, quiet;

					quiet = mtrace_line_next(old, cpu, write, 4, all,
								 &shared) == old && !shared;
					mtrace_line_quiet(cpu, write, 4, all, &clear, &set);
					assert_int_equal(quiet, !(old & clear) &&
							 (old & set) == set);
				}
}

/* The log reader, over a log made here as the plugin writes one. */
static void test_mtrace_reader(void **state)
{
	static const uint16_t sizes[MTRACE_REC_NR_TYPES] = MTRACE_REC_SIZES;
	unsigned char buf[sizeof(struct mtrace_log_header) +
			  sizeof(struct mtrace_rec_switch) +
			  2 * sizeof(struct mtrace_rec_access)];
	struct mtrace_log_header h;
	struct mtrace_rec_switch sw;
	struct mtrace_rec_access a;
	struct kmap_mtrace_reader *r;
	struct kmap_mtrace_rec rec;
	char line[KMAP_LINE_MAX];
	size_t off = 0;

	(void)state;
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, MTRACE_LOG_MAGIC, 8);
	h.version = MTRACE_LOG_VERSION;
	h.header_size = sizeof(h);
	h.nr_types = MTRACE_REC_NR_TYPES;
	h.nr_cpus = 2;
	h.mode = MTRACE_MODE_SHARING;
	h.line_shift = MTRACE_LINE_SHIFT;
	memcpy(h.rec_size, sizes, sizeof(sizes));
	memcpy(buf, &h, sizeof(h));
	off += sizeof(h);
	memset(&sw, 0, sizeof(sw));
	sw.hdr.type = MTRACE_REC_SWITCH;
	sw.hdr.size = sizeof(sw);
	sw.hdr.cpu = 1;
	sw.hdr.ns = 10;
	sw.pid = 42;
	memcpy(buf + off, &sw, sizeof(sw));
	off += sizeof(sw);
	memset(&a, 0, sizeof(a));
	a.hdr.type = MTRACE_REC_ACCESS;
	a.hdr.size = sizeof(a);
	a.hdr.cpu = 1;
	a.hdr.ns = 11;
	a.vaddr = 0xffff888000001008ull;
	a.ip = 0xffffffff81000010ull;
	a.paddr = 0x1008;
	a.pid = 42;
	a.size = 4;
	a.flags = MTRACE_F_WRITE | MTRACE_F_PADDR | MTRACE_F_SHARED;
	memcpy(buf + off, &a, sizeof(a));
	off += sizeof(a);
	a.hdr.ns = 9;		/* before the vCPU's last record */
	memcpy(buf + off, &a, sizeof(a));
	off += sizeof(a);
	assert_int_equal(kmap_guess_format(buf, 16), KMAP_FMT_MTRACE);
	r = kmap_mtrace_open_mem(buf, off, "m.log");
	assert_non_null(r);
	assert_int_equal(kmap_mtrace_next(r, &rec), 1);
	assert_int_equal(rec.type, MTRACE_REC_SWITCH);
	assert_int_equal(rec.u.sw.pid, 42);
	assert_int_equal(kmap_mtrace_next(r, &rec), 1);
	assert_int_equal(rec.type, MTRACE_REC_ACCESS);
	assert_true(rec.u.access.vaddr == 0xffff888000001008ull);
	assert_int_equal(rec.u.access.size, 4);
	assert_int_equal(rec.offset, sizeof(h) + sizeof(sw));
	kmap_format_mtrace(line, &rec);
	assert_string_equal(line, "access,1,11,42,ffffffff81000010,ffff888000001008,1008,4,w,shared\n");
	assert_int_equal(kmap_mtrace_next(r, &rec), -1);
	assert_string_equal(kmap_mtrace_error(r),
			    "m.log: byte 128: time goes backwards on vCPU 1: ns 9 after 11");
	kmap_mtrace_close(r);
	/* Cut anywhere in its last record: an error at that record. */
	r = kmap_mtrace_open_mem(buf, off - 3, "m.log");
	assert_int_equal(kmap_mtrace_next(r, &rec), 1);
	assert_int_equal(kmap_mtrace_next(r, &rec), 1);
	assert_int_equal(kmap_mtrace_next(r, &rec), -1);
	assert_string_equal(kmap_mtrace_error(r),
			    "m.log: byte 128: record cut short: 45 of 48 bytes");
	kmap_mtrace_close(r);
	/*
	 * granularity=byte's header (line_shift 0) reads as such, and a
	 * line (every earlier log's 6) as a line; no other shift.
	 */
	h.line_shift = MTRACE_BYTE_SHIFT;
	memcpy(buf, &h, sizeof(h));
	r = kmap_mtrace_open_mem(buf, off, "m.log");
	assert_int_equal(kmap_mtrace_next(r, &rec), 1);
	assert_int_equal(kmap_mtrace_header(r)->line_shift, MTRACE_BYTE_SHIFT);
	kmap_mtrace_close(r);
	h.line_shift = 5;
	memcpy(buf, &h, sizeof(h));
	r = kmap_mtrace_open_mem(buf, off, "m.log");
	assert_int_equal(kmap_mtrace_next(r, &rec), -1);
	assert_non_null(strstr(kmap_mtrace_error(r), "line_shift 5"));
	kmap_mtrace_close(r);
}

/* kmap_types over types-prog (tests/types-prog.c, built with -g). */
static void expect_member(struct kmap_types *t, long type, uint64_t offset,
			  uint64_t end, const char *want)
{
	char got[128];

	assert_int_equal(kmap_types_member(t, type, offset, end, got,
					   sizeof(got)), (int)strlen(want));
	assert_string_equal(got, want);
}

/* What types-prog's types name, whether from DWARF or from BTF. */
static void expect_types_members(struct kmap_types *t)
{
	char err[KMAP_ERR_MAX];
	long outer, file;

	assert_non_null(t);
	outer = kmap_types_struct(t, "outer");
	assert_true(outer >= 0);
	assert_string_equal(kmap_types_name(t, outer), "outer");
	assert_int_equal(kmap_types_size(t, outer), 40);
	assert_int_equal(kmap_types_size(t, kmap_types_struct(t, "inner")), 12);
	expect_member(t, outer, 0, 8, "id");
	expect_member(t, outer, 2, 3, "id");
	expect_member(t, outer, 8, 12, "in.a");
	expect_member(t, outer, 14, 16, "in.b[1]");
	expect_member(t, outer, 12, 16, "in.b[0..1]");
	expect_member(t, outer, 12, 20, "in.b");
	expect_member(t, outer, 8, 20, "in");
	expect_member(t, outer, 0, 20, "id..in");
	expect_member(t, outer, 6, 14, "id..in");
	expect_member(t, outer, 20, 22, "u1");
	expect_member(t, outer, 24, 25, "f1");
	expect_member(t, outer, 20, 25, "{anon}..f2");
	expect_member(t, outer, 27, 28, "tail[2]");
	expect_member(t, outer, 25, 35, "tail");
	expect_member(t, outer, 36, 40, "+36");
	expect_member(t, outer, 50, 52, "+50");
	expect_member(t, outer, 0, 40, "");
	expect_member(t, outer, 0, 64, "");
	file = kmap_types_of_cache(t, "filp");
	assert_int_equal(file, kmap_types_struct(t, "file"));
	expect_member(t, file, 16, 24, "f_path.dentry");
	expect_member(t, file, 8, 24, "f_path");
	assert_int_equal(kmap_types_of_cache(t, "cred_jar"),
			 kmap_types_struct(t, "cred"));
	assert_int_equal(kmap_types_of_cache(t, "outer"), outer);
	assert_int_equal(kmap_types_of_cache(t, "kmalloc-64"), -1);
	assert_int_equal(kmap_types_of_cache(t, "no_such_cache"), -1);
	assert_int_equal(kmap_types_of_cache(t, NULL), -1);
	assert_int_equal(kmap_types_struct(t, "no_such_struct"), -1);
	assert_int_equal(kmap_types_member(t, -1, 0, 1, err, sizeof(err)), -1);
}

static void test_types_members(void **state)
{
	char err[KMAP_ERR_MAX];
	struct kmap_types *t = kmap_types_open(TYPES_PROG, err);

	(void)state;
	expect_types_members(t);
	kmap_types_close(t);

	/* Neither DWARF nor BTF: an error that says so, no types. */
	assert_null(kmap_types_open("/dev/null", err));
	assert_string_equal(err, "/dev/null: neither an ELF file nor BTF");
	assert_null(kmap_types_open("/nonexistent", err));
	assert_string_equal(err, "/nonexistent: No such file or directory");
}

/*
 * The same types from BTF (pahole's, of types-prog): raw, and an ELF
 * file's .BTF with no DWARF beside it, or DWARF of no struct. Members and caches' types as from
 * DWARF; no call site's or global's type, which BTF cannot say.
 */
static void types_btf(const char *path)
{
	char err[KMAP_ERR_MAX];
	struct kmap_types *t = kmap_types_open(path, err);
	struct kmap_object o = { .has = KMAP_HAS_CACHE, .cache = "filp" };
	enum kmap_type_way way;

	expect_types_members(t);
	assert_int_equal(kmap_types_of_object(t, &o, &way),
			 kmap_types_struct(t, "file"));
	assert_int_equal(way, KMAP_TYPE_CACHE);
	o.has = 0;
	o.alloc_ip = 0x401000;
	o.size = 40;
	assert_int_equal(kmap_types_of_object(t, &o, &way), -1);
	assert_int_equal(way, KMAP_TYPE_NONE);
	assert_int_equal(kmap_types_of_callsite(t, 0x401000, 40, &way), -1);
	assert_int_equal(way, KMAP_TYPE_NONE);
	kmap_types_close(t);
}

static void test_types_btf(void **state)
{
	(void)state;
	types_btf(TYPES_BTF);
	types_btf(TYPES_BTF_ELF);
	types_btf(TYPES_BTF_LINES);
}

/* Write the first n bytes of BTF's file, then tail, to a new file. */
static void tmp_btf(char *path, size_t n, const char *tail)
{
	char buf[64];
	int in = open(TYPES_BTF, O_RDONLY), fd = mkstemp(path);

	assert_true(in >= 0 && fd >= 0 && n <= sizeof(buf));
	assert_int_equal(read(in, buf, n), (ssize_t)n);
	assert_int_equal(write(fd, buf, n), (ssize_t)n);
	assert_int_equal(write(fd, tail, strlen(tail)), (ssize_t)strlen(tail));
	close(in);
	close(fd);
}

/* kmap_types_open(path) gives no types and err "PATH: why"; path goes. */
static void expect_types_rejected(char *path, const char *why)
{
	char err[KMAP_ERR_MAX], want[KMAP_ERR_MAX];

	assert_null(kmap_types_open(path, err));
	snprintf(want, sizeof(want), "%s: %s", path, why);
	assert_string_equal(err, want);
	unlink(path);
	strcpy(path, "/tmp/kmap-unit-XXXXXX");
}

/* BTF cut short, or its magic before garbage: an error, no types. */
static void test_types_btf_malformed(void **state)
{
	char path[] = "/tmp/kmap-unit-XXXXXX";

	(void)state;
	tmp_btf(path, 30, "");
	expect_types_rejected(path, "malformed BTF: Invalid argument");
	tmp_btf(path, 2, "not BTF past its magic, and not long enough either");
	expect_types_rejected(path, "malformed BTF: Invalid argument");
	tmp_text(path, "garbage");
	expect_types_rejected(path, "neither an ELF file nor BTF");
}

/*
 * Types by call site: types-prog run prints its three allocations' return
 * addresses (see tests/types-prog.c for what each keeps the result in),
 * then global o's address. Built by gcc, and by clang (below).
 */
/* s ends with suffix. */
static void assert_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	if (n < m || strcmp(s + n - m, suffix)) {
		print_error("'%s' does not end with '%s'\n", s, suffix);
		fail();
	}
}

/*
 * Code of line 0 (a line table row the compiler made for no source line):
 * the line of the row before it in its sequence, or no line when none has
 * one (tests/lines-prog.c says which lines).
 */
static void test_sym_line_zero(void **state)
{
	char err[KMAP_ERR_MAX], out[256];
	unsigned long long zero, none;
	struct kmap_sym *sym;
	uint64_t start, f;
	FILE *p;
	int line = -1;

	(void)state;
	p = popen(LINES_PROG, "r");
	assert_non_null(p);
	assert_int_equal(fscanf(p, "%llx %llx", &zero, &none), 2);
	assert_int_equal(pclose(p), 0);
	sym = kmap_sym_open_elf(LINES_PROG, err);
	assert_non_null(sym);
	assert_true(kmap_sym_has_lines(sym));
	/* f's first row: its own line, as ever. */
	assert_string_equal(kmap_sym_function(sym, zero, &f), "f");
	assert_string_equal(kmap_sym_source(sym, f, &line), "tests/lines-prog.c");
	assert_int_equal(line, 15);
	/* g += 2, of line 0 from its first byte to its last: g *= 3's line. */
	for (start = zero; kmap_sym_source(sym, start, &line) && line == 17 &&
	     start < zero + 64; start++)
		;
	assert_true(start > zero + 4);
	assert_string_equal(kmap_sym_source(sym, zero, &line), "tests/lines-prog.c");
	assert_int_equal(line, 17);
	assert_string_equal(kmap_sym_source(sym, start, &line), "tests/lines-prog.c");
	assert_int_equal(line, 21);
	assert_int_equal(kmap_sym_describe(sym, zero, out, sizeof(out)), 1);
	assert_ends_with(out, " at tests/lines-prog.c:17");
	assert_int_equal(strncmp(out, "f+0x", 4), 0);
	/* All of h is of line 0: the file, no line. */
	assert_string_equal(kmap_sym_function(sym, none, &start), "h");
	assert_string_equal(kmap_sym_source(sym, none, &line), "tests/lines-prog.c");
	assert_int_equal(line, 0);
	assert_string_equal(kmap_sym_source(sym, start, &line), "tests/lines-prog.c");
	assert_int_equal(line, 0);
	assert_int_equal(kmap_sym_describe(sym, none, out, sizeof(out)), 1);
	assert_ends_with(out, " at tests/lines-prog.c");
	assert_int_equal(strncmp(out, "h+0x", 4), 0);
	kmap_sym_close(sym);
}

static void types_callsites(const char *prog)
{
	char err[KMAP_ERR_MAX];
	struct kmap_types *t = kmap_types_open(prog, err);
	struct kmap_object o = { .size = 40, .pid = 1 };
	unsigned long long ip[4];
	enum kmap_type_way way;
	long outer, inner;
	FILE *f;
	int i;

	assert_non_null(t);
	f = popen(prog, "r");
	assert_non_null(f);
	for (i = 0; i < 4; i++)
		assert_int_equal(fscanf(f, "%llx", &ip[i]), 1);
	assert_int_equal(pclose(f), 0);
	outer = kmap_types_struct(t, "outer");
	inner = kmap_types_struct(t, "inner");
	assert_true(outer >= 0 && inner >= 0);

	/* The variable p holds the result: its type, whatever the size. */
	assert_int_equal(kmap_types_of_callsite(t, ip[0], 40, &way), outer);
	assert_int_equal(way, KMAP_TYPE_RESULT);
	assert_int_equal(kmap_types_of_callsite(t, ip[0], 3, &way), outer);
	assert_int_equal(way, KMAP_TYPE_RESULT);
	/* No variable holds it; struct inner is the one of 12 bytes. */
	assert_int_equal(kmap_types_of_callsite(t, ip[1], 12, &way), inner);
	assert_int_equal(way, KMAP_TYPE_SIZE);
	assert_int_equal(kmap_types_of_callsite(t, ip[1], 16, &way),
			 kmap_types_struct(t, "holder"));
	assert_int_equal(way, KMAP_TYPE_SIZE);
	assert_int_equal(kmap_types_of_callsite(t, ip[1], 13, &way), -1);
	assert_int_equal(way, KMAP_TYPE_NONE);
	/* A char buffer: no struct. */
	assert_int_equal(kmap_types_of_callsite(t, ip[2], 7, &way), -1);
	assert_int_equal(way, KMAP_TYPE_NONE);
	/* Outside any unit's code. */
	assert_int_equal(kmap_types_of_callsite(t, 16, 40, &way), -1);
	assert_int_equal(way, KMAP_TYPE_NONE);

	/* An object: its cache's type first, then its call site's. */
	o.alloc_ip = ip[0];
	assert_int_equal(kmap_types_of_object(t, &o, &way), outer);
	assert_int_equal(way, KMAP_TYPE_RESULT);
	o.has = KMAP_HAS_CACHE;
	o.cache = "cred_jar";
	assert_int_equal(kmap_types_of_object(t, &o, &way),
			 kmap_types_struct(t, "cred"));
	assert_int_equal(way, KMAP_TYPE_CACHE);
	o.cache = "kmalloc-64";
	assert_int_equal(kmap_types_of_object(t, &o, &way), outer);
	assert_int_equal(way, KMAP_TYPE_RESULT);

	/* Globals: the struct of the variable at the address, found or not. */
	assert_int_equal(kmap_types_of_global(t, ip[3]), outer);
	assert_int_equal(kmap_types_of_global(t, ip[3] + 8), -1);
	o = (struct kmap_object){ .alloc_ip = ip[3], .addr = ip[3], .size = 40 };
	assert_int_equal(kmap_types_of_object(t, &o, &way), outer);
	assert_int_equal(way, KMAP_TYPE_GLOBAL);
	o.addr = o.alloc_ip = ip[3] + 8;
	assert_int_equal(kmap_types_of_object(t, &o, &way), -1);
	assert_int_equal(way, KMAP_TYPE_NONE);
	kmap_types_close(t);
}

static void test_types_callsites(void **state)
{
	(void)state;
	types_callsites(TYPES_PROG);
}

static void test_types_callsites_clang(void **state)
{
	(void)state;
	types_callsites(TYPES_PROG_CLANG);
}

/*
 * The memorizer command's option parser (options.c): two commands of
 * test tables, a message of error() kept to be compared, standard output
 * and error (help, usage) caught in out.
 */
static char opt_error[512];

void error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(opt_error, sizeof(opt_error), fmt, ap);
	va_end(ap);
}

static const char *t_string, *t_vmlinux, *t_output;
static int t_flag;
static unsigned int t_formats;
static uint64_t t_u64, t_odd;

static int t_odd_cb(const struct opt *opt, const char *arg)
{
	uint64_t *v = opt->value;

	if (parse_u64_arg("--odd", arg, v))
		return -1;
	if (!(*v & 1)) {
		error("--odd %s: not odd", arg);
		return -1;
	}
	return 0;
}

static const struct opt t_one_opts[] = {
	OPT_STRING('s', "string", &t_string, "S", "A string."),
	OPT_BOOLEAN('f', "flag", &t_flag, "A flag."),
	OPT_U64('u', "u64", &t_u64, "N", "A number."),
	OPT_CALLBACK_VALUES(0, "odd", &t_odd, "N", "An odd number.", t_odd_cb,
			    "1 3 5"),
	OPT__VMLINUX(&t_vmlinux, "Symbols."),
	OPT__CSV(&t_formats, "CSV."),
	OPT__JSON(&t_formats, "JSON."),
	OPT__OUTPUT(&t_output, OPT_OUTPUT_HELP),
	OPT_END(),
};

static const struct opt t_two_opts[] = {
	OPT__VMLINUX(&t_vmlinux, "Symbols, in another command."),
	OPT__CSV(&t_formats, "CSV, in another command."),
	OPT_END(),
};

static const struct cmd t_one = {
	.name = "one", .summary = "the first test command",
	.synopsis = "[OPTIONS] FILE...", .description = "Tests options.",
	.opts = t_one_opts,
};
static const struct cmd t_two = {
	.name = "two", .summary = "the second test command",
	.synopsis = "[OPTIONS] CMD [ARGS]", .description = "Stops at CMD.",
	.opts = t_two_opts, .stop_at_nonopt = 1,
};
const struct cmd *const commands[] = { &t_one, &t_two, NULL };

/*
 * parse_options() on a copy of args (NULL-ended; args[0] the command's
 * name), the variables reset first; standard output and error in out,
 * the operands in ops.
 */
static int parse_args(const struct cmd *c, const char *const *args,
		      char ***ops, char *out, size_t len)
{
	static char *argv[16];
	int argc, n, fd1, fd2;
	FILE *tmp;
	size_t got;

	for (argc = 0; args[argc]; argc++)
		argv[argc] = (char *)args[argc];
	argv[argc] = NULL;
	t_string = t_vmlinux = t_output = NULL;
	t_flag = 0;
	t_formats = 0;
	t_u64 = t_odd = 0;
	opt_error[0] = 0;

	tmp = tmpfile();
	assert_non_null(tmp);
	fflush(stdout);
	fflush(stderr);
	fd1 = dup(1);
	fd2 = dup(2);
	dup2(fileno(tmp), 1);
	dup2(fileno(tmp), 2);
	n = parse_options(c, argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(fd1, 1);
	dup2(fd2, 2);
	close(fd1);
	close(fd2);
	rewind(tmp);
	got = fread(out, 1, len - 1, tmp);
	out[got] = 0;
	fclose(tmp);
	*ops = argv;
	return n;
}

static void test_options_typed(void **state)
{
	static const char *const args[] = { "one", "a", "-s", "str", "--flag",
		"--u64=42", "b", "--odd", "7", "--vmlinux", "vm", "--json",
		"-ofile", "--", "--csv", NULL };
	char out[4096], **ops;

	(void)state;
	assert_int_equal(parse_args(&t_one, args, &ops, out, sizeof(out)), 3);
	assert_string_equal(t_string, "str");
	assert_int_equal(t_flag, 1);
	assert_int_equal(t_u64, 42);
	assert_int_equal(t_odd, 7);
	assert_string_equal(t_vmlinux, "vm");
	assert_string_equal(t_output, "file");
	/* After --, --csv is an operand; --json set its bit only. */
	assert_int_equal(t_formats, FORMAT_JSON);
	assert_string_equal(ops[0], "a");
	assert_string_equal(ops[1], "b");
	assert_string_equal(ops[2], "--csv");
	assert_null(ops[3]);
	assert_string_equal(out, "");
	assert_string_equal(opt_error, "");
}

/* --vmlinux and --csv, declared once, in two commands' tables. */
static void test_options_shared(void **state)
{
	static const char *const one[] = { "one", "--csv", "--vmlinux", "v1",
		"x", NULL };
	static const char *const two[] = { "two", "--vmlinux=v2", "--csv",
		"cmd", "--csv", "-o", NULL };
	static const char *const both[] = { "one", "--csv", "--json", NULL };
	char out[4096], **ops;

	(void)state;
	assert_int_equal(parse_args(&t_one, one, &ops, out, sizeof(out)), 1);
	assert_string_equal(t_vmlinux, "v1");
	assert_int_equal(t_formats, FORMAT_CSV);
	/* Options end at CMD: its own options are operands. */
	assert_int_equal(parse_args(&t_two, two, &ops, out, sizeof(out)), 3);
	assert_string_equal(t_vmlinux, "v2");
	assert_int_equal(t_formats, FORMAT_CSV);
	assert_string_equal(ops[0], "cmd");
	assert_string_equal(ops[1], "--csv");
	assert_string_equal(ops[2], "-o");
	/* Both formats: each its bit, for the command to refuse. */
	assert_int_equal(parse_args(&t_one, both, &ops, out, sizeof(out)), 0);
	assert_int_equal(t_formats, FORMAT_CSV | FORMAT_JSON);
}

static void test_options_errors(void **state)
{
	static const struct {
		const struct cmd *c;
		const char *args[4], *error;
		int usage;
	} cases[] = {
		{ &t_one, { "one", "--frobnicate", "x" }, "unknown option --frobnicate", 1 },
		{ &t_one, { "one", "-x" }, "unknown option -x", 1 },
		{ &t_two, { "two", "--string", "s" }, "unknown option --string", 1 },
		{ &t_one, { "one", "--flag=yes" }, "--flag takes no argument", 1 },
		{ &t_one, { "one", "x", "--vmlinux" }, "--vmlinux needs FILE", 0 },
		{ &t_one, { "one", "-o" }, "-o needs FILE", 0 },
		{ &t_one, { "one", "--u64", "12x" }, "--u64: '12x' is not a number", 0 },
		{ &t_one, { "one", "-u", "x" }, "--u64: 'x' is not a number", 0 },
		{ &t_one, { "one", "--odd", "4" }, "--odd 4: not odd", 0 },
	};
	char out[4096], **ops;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(parse_args(cases[i].c, cases[i].args, &ops,
					    out, sizeof(out)), PARSE_OPT_ERROR);
		assert_string_equal(opt_error, cases[i].error);
		/* Usage after an unknown option, not after a bad argument. */
		if (cases[i].usage)
			assert_non_null(strstr(out, "Try 'memorizer help "));
		else
			assert_string_equal(out, "");
	}
}

static void test_options_help(void **state)
{
	static const char *const help[] = { "one", "--flag", "--help", "x", NULL };
	static const char *const h[] = { "two", "-h", NULL };
	static const char *const late[] = { "two", "cmd", "--help", NULL };
	char out[8192], **ops;

	(void)state;
	assert_int_equal(parse_args(&t_one, help, &ops, out, sizeof(out)),
			 PARSE_OPT_HELP);
	assert_non_null(strstr(out, "memorizer one - the first test command\n"));
	assert_non_null(strstr(out, "  -s, --string S\n        A string.\n"));
	assert_non_null(strstr(out, "  --vmlinux FILE\n        Symbols.\n"));
	assert_non_null(strstr(out, "  -o, --output FILE\n        Write to FILE instead of standard output.\n"));
	assert_non_null(strstr(out, "  -h, --help\n"));
	assert_string_equal(opt_error, "");
	assert_int_equal(parse_args(&t_two, h, &ops, out, sizeof(out)),
			 PARSE_OPT_HELP);
	assert_non_null(strstr(out, "  --vmlinux FILE\n        Symbols, in another command.\n"));
	/* After CMD, --help is CMD's. */
	assert_int_equal(parse_args(&t_two, late, &ops, out, sizeof(out)), 2);
	assert_string_equal(ops[1], "--help");
}

/*
 * Completion: every option of the table, FILE arguments to files, an
 * argument of known values to them.
 */
static void test_options_completion(void **state)
{
	char out[8192];
	FILE *f = tmpfile();
	size_t got;

	(void)state;
	assert_non_null(f);
	print_completion(f);
	rewind(f);
	got = fread(out, 1, sizeof(out) - 1, f);
	out[got] = 0;
	fclose(f);
	assert_non_null(strstr(out, "'--string --flag --u64 --odd --vmlinux --csv --json --output --help'"));
	assert_non_null(strstr(out, "\t\t--vmlinux)\n\t\t\t_filedir\n"));
	assert_non_null(strstr(out, "\t\t--output|-o)\n\t\t\t_filedir\n"));
	assert_non_null(strstr(out, "\t\t--odd)\n\t\t\tCOMPREPLY=($(compgen -W '1 3 5' -- \"$cur\"))\n"));
	assert_non_null(strstr(out, "\t\t--u64|-u)\n\t\t\treturn ;;\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_object),
		cmocka_unit_test(test_calls_reader),
		cmocka_unit_test(test_calls_table),
		cmocka_unit_test(test_calls_src),
		cmocka_unit_test(test_frames_reader),
		cmocka_unit_test(test_frames_table),
		cmocka_unit_test(test_frames_src),
		cmocka_unit_test(test_compart_metrics),
		cmocka_unit_test(test_compart_sweep_large),
		cmocka_unit_test(test_split_file),
		cmocka_unit_test(test_parse_access),
		cmocka_unit_test(test_parse_access_offsets),
		cmocka_unit_test(test_text_offsets_arity),
		cmocka_unit_test(test_parse_object_kinds),
		cmocka_unit_test(test_reader_kinds),
		cmocka_unit_test(test_reader_fork),
		cmocka_unit_test(test_src_fork_merge),
		cmocka_unit_test(test_reader_kinds_fast),
		cmocka_unit_test(test_rules_kinds),
		cmocka_unit_test(test_writer_kinds),
		cmocka_unit_test(test_parse_live_and_zero),
		cmocka_unit_test(test_parse_rejects),
		cmocka_unit_test(test_parse_hex),
		cmocka_unit_test(test_parse_dec),
		cmocka_unit_test(test_add_sat),
		cmocka_unit_test(test_grow_intern),
		cmocka_unit_test(test_reader_fast_path),
		cmocka_unit_test(test_reader_hex_bytes),
		cmocka_unit_test(test_reader_accesses),
		cmocka_unit_test(test_put_dec),
		cmocka_unit_test(test_src_offsets),
		cmocka_unit_test(test_src_sorts_counters),
		cmocka_unit_test(test_fopen_directory),
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_reader_lines),
		cmocka_unit_test(test_reader_errors),
		cmocka_unit_test(test_reader_file_refill),
		cmocka_unit_test(test_writer_roundtrip),
		cmocka_unit_test(test_writer_numbers),
		cmocka_unit_test(test_writer_accesses),
		cmocka_unit_test(test_rule_dups_orders),
		cmocka_unit_test(test_bin_header_checks),
		cmocka_unit_test(test_bin_accesses),
		cmocka_unit_test(test_bin_task_per_cpu),
		cmocka_unit_test(test_bin_skip_and_grow),
		cmocka_unit_test(test_bin_errors),
		cmocka_unit_test(test_src_assembles),
		cmocka_unit_test(test_src_text_objects),
		cmocka_unit_test(test_src_progress),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_free_apis),
		cmocka_unit_test(test_rules_global_text),
		cmocka_unit_test(test_rules_global_bin),
		cmocka_unit_test(test_rules_bin_freed),
		cmocka_unit_test(test_rules_found_text),
		cmocka_unit_test(test_rules_found_bin),
		cmocka_unit_test(test_src_global),
		cmocka_unit_test(test_src_global_freed),
		cmocka_unit_test(test_src_module_global_freed),
		cmocka_unit_test(test_src_found),
		cmocka_unit_test(test_src_percpu_freed),
		cmocka_unit_test(test_rules_free_api),
		cmocka_unit_test(test_src_free_api_version2),
		cmocka_unit_test(test_src_version1),
		cmocka_unit_test(test_map),
		cmocka_unit_test(test_sym_map),
		cmocka_unit_test(test_sym_buckets),
		cmocka_unit_test(test_sym_read_map),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_capmap_cells),
		cmocka_unit_test(test_capmap_groups),
		cmocka_unit_test(test_capmap_subjects),
		cmocka_unit_test(test_capmap_parent),
		cmocka_unit_test(test_capmap_grows_by_cells),
		cmocka_unit_test(test_capmap_split_ranges),
		cmocka_unit_test(test_mtrace_version),
		cmocka_unit_test(test_mtrace_insn),
		cmocka_unit_test(test_mtrace_line_rule),
		cmocka_unit_test(test_mtrace_line_quiet),
		cmocka_unit_test(test_mtrace_args),
		cmocka_unit_test(test_mtrace_filter),
		cmocka_unit_test(test_mtrace_kmap),
		cmocka_unit_test(test_mtrace_kmap_early),
		cmocka_unit_test(test_mtrace_kmap_no_hello),
		cmocka_unit_test(test_mtrace_reader),
		cmocka_unit_test(test_types_members),
		cmocka_unit_test(test_types_btf),
		cmocka_unit_test(test_types_btf_malformed),
		cmocka_unit_test(test_types_callsites),
		cmocka_unit_test(test_types_callsites_clang),
		cmocka_unit_test(test_sym_line_zero),
		cmocka_unit_test(test_options_typed),
		cmocka_unit_test(test_options_shared),
		cmocka_unit_test(test_options_errors),
		cmocka_unit_test(test_options_help),
		cmocka_unit_test(test_options_completion),
	};

	return cmocka_run_group_tests_name("libkmap", tests, NULL, NULL);
}
