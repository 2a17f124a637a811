/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memorizer: record kernel object lifetimes and the accesses to them.
 * The hooks other kernel code calls. Each costs one static branch while
 * Memorizer is off. See Documentation/dev-tools/memorizer.rst.
 */
#ifndef _LINUX_MEMORIZER_H
#define _LINUX_MEMORIZER_H

#include <linux/instruction_pointer.h>
#include <linux/jump_label.h>
#include <linux/types.h>

struct kmem_cache;

#ifdef CONFIG_MEMORIZER

DECLARE_STATIC_KEY_FALSE(memorizer_access_key);
DECLARE_STATIC_KEY_FALSE(memorizer_alloc_key);
DECLARE_STATIC_KEY_FALSE(memorizer_free_key);

void __memorizer_access(unsigned long addr, size_t size, bool write,
			unsigned long ip);
void __memorizer_alloc_bulk(struct kmem_cache *s, size_t nr, void **p,
			    unsigned long ip);
void __memorizer_free_bulk(size_t nr, void **p, unsigned long ip);
void __memorizer_vmalloc(const void *addr, unsigned long size,
			 unsigned long ip);
void __memorizer_vfree(const void *addr, unsigned long ip);
void __memorizer_page_alloc(unsigned long res, bool is_addr);
void __memorizer_krealloc(const void *p, size_t size);

/*
 * A load or store KASAN checked and found valid: @size bytes at @addr, by
 * the code at @ip. Called last, so that KASAN's __asan_loadN() and the
 * like tail-call it and save no register for it.
 */
static __always_inline void memorizer_access(const void *addr, size_t size,
					     bool write, unsigned long ip)
{
	if (static_branch_unlikely(&memorizer_access_key))
		__memorizer_access((unsigned long)addr, size, write, ip);
}

/*
 * The bulk and vfree hooks take their call site from the function they are
 * inlined into (_RET_IP_ is its return address), not from an argument: an
 * argument would be computed even when Memorizer is configured out.
 */
static __always_inline void memorizer_alloc_bulk(struct kmem_cache *s,
						 size_t nr, void **p)
{
	if (static_branch_unlikely(&memorizer_alloc_key))
		__memorizer_alloc_bulk(s, nr, p, _RET_IP_);
}

static __always_inline void memorizer_free_bulk(size_t nr, void **p)
{
	if (static_branch_unlikely(&memorizer_free_key))
		__memorizer_free_bulk(nr, p, _RET_IP_);
}

static __always_inline void memorizer_vmalloc(const void *addr,
					      unsigned long size,
					      unsigned long ip)
{
	if (static_branch_unlikely(&memorizer_alloc_key))
		__memorizer_vmalloc(addr, size, ip);
}

static __always_inline void memorizer_vfree(const void *addr)
{
	if (static_branch_unlikely(&memorizer_free_key))
		__memorizer_vfree(addr, _RET_IP_);
}

/* krealloc() kept @p, now of @size bytes: no tracepoint says so. */
static __always_inline void memorizer_krealloc(const void *p, size_t size)
{
	if (static_branch_unlikely(&memorizer_alloc_key))
		__memorizer_krealloc(p, size);
}

/*
 * Wraps the page allocator's API macros in <linux/gfp.h>, so that pages a
 * caller asked for are recorded with that caller as the call site, while
 * the pages slab, vmalloc and the page cache take for themselves (through
 * the *_noprof functions) are not. @res is a struct page *, a struct
 * folio * or, from __get_free_pages(), an address.
 */
#define memorizer_page_alloc(res) ({					\
	typeof(res) __memorizer_res = (res);				\
									\
	if (static_branch_unlikely(&memorizer_alloc_key))		\
		__memorizer_page_alloc((unsigned long)__memorizer_res,	\
			__builtin_types_compatible_p(typeof(res),	\
						     unsigned long));	\
	__memorizer_res;						\
})

struct task_struct;
void memorizer_mark_process(struct task_struct *task, bool mark);
bool memorizer_process_marked(struct task_struct *task);
extern const struct file_operations proc_memorizer_enabled_operations;

#else /* CONFIG_MEMORIZER */

static inline void memorizer_access(const void *addr, size_t size, bool write,
				    unsigned long ip) { }
static inline void memorizer_alloc_bulk(struct kmem_cache *s, size_t nr,
					void **p) { }
static inline void memorizer_free_bulk(size_t nr, void **p) { }
static inline void memorizer_vmalloc(const void *addr, unsigned long size,
				     unsigned long ip) { }
static inline void memorizer_vfree(const void *addr) { }
static inline void memorizer_krealloc(const void *p, size_t size) { }
#define memorizer_page_alloc(res) (res)

#endif /* CONFIG_MEMORIZER */

#endif /* _LINUX_MEMORIZER_H */
