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

/*
 * The work a debugging facility does on the workload's behalf (KASAN
 * saving an allocation stack, lockdep checking a lock) is not the
 * workload's. The facility marks the section where it runs with
 * memorizer_instr_enter() and memorizer_instr_exit(), and Memorizer leaves
 * the accesses made inside out of its kmap and counts them per instrument
 * instead, unless told to count them (count_instruments). A context, not a
 * list of functions: the unwinder a workload calls is the workload's, the
 * same unwinder called from kasan_save_stack() is KASAN's.
 */
enum memorizer_instr {
	MEMORIZER_INSTR_KASAN,
	MEMORIZER_INSTR_LOCKDEP,
	MEMORIZER_INSTR_NR,
};

#ifdef CONFIG_MEMORIZER

/*
 * Returns the marks before, for memorizer_instr_exit(), which restores
 * @instr's mark as it was (a section that does not nest in itself, as
 * lockdep's, may pass 0) and leaves the others as they are. Out of line
 * and noinstr: callable from noinstr code, and their own accesses are
 * not seen.
 */
unsigned int memorizer_instr_enter(enum memorizer_instr instr);
void memorizer_instr_exit(enum memorizer_instr instr, unsigned int old);

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

static inline unsigned int memorizer_instr_enter(enum memorizer_instr instr)
{
	return 0;
}

static inline void memorizer_instr_exit(enum memorizer_instr instr,
					unsigned int old) { }

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
