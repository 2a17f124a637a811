// SPDX-License-Identifier: GPL-2.0
/*
 * Memorizer's miss path: an access that no record covers. Memory whose
 * object Memorizer can bound without seeing it allocated gets its record
 * now, a found one (records.c): a global of the kernel or of a module or
 * per-CPU data (globals.c), a task's or a CPU's IRQ stack, a slab object
 * allocated before tracking or by a task not traced, the arrays of struct
 * pages.
 * Anything else is counted by the class of memory it fell in
 * (enum memorizer_memory_class), so that show_stats says what is still
 * unattributed and where; so is an access whose found record found no
 * memory in the pool.
 *
 * The class comes from the address range first, with what the kernel
 * already knows of its memory, and from the page's own flags in the direct
 * map: no lookup in any table, no lock. The stack test comes first because
 * without VMAP_STACK a task's stack is pages of the direct map.
 */

#include <linux/err.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/sched/task_stack.h>
#include <linux/vmalloc.h>
#include <asm/sections.h>
#ifdef CONFIG_X86_64
#include <asm/stacktrace.h>
#endif

#include "../slab.h"
#include "memorizer.h"
#include "pool.h"

/*
 * The stack @addr is on, if any: this task's, or this CPU's IRQ, exception
 * or entry stack. @task: it is this task's.
 */
static bool stack_extent(unsigned long addr, unsigned long *start,
			 unsigned long *size, bool *task)
{
#ifdef CONFIG_X86_64
	struct stack_info info;

	if (!get_stack_info_noinstr((unsigned long *)addr, current, &info))
		return false;
	*start = (unsigned long)info.begin;
	*size = (unsigned long)info.end - *start;
	*task = info.type == STACK_TYPE_TASK;
	return true;
#else
	*start = (unsigned long)task_stack_page(current);
	*size = THREAD_SIZE;
	*task = true;
	return addr - *start < THREAD_SIZE;
#endif
}

static bool in_direct_map(unsigned long addr)
{
	/* As memorizer_index_lookup(): not the instrumented virt_addr_valid(). */
	return addr >= PAGE_OFFSET && addr < (unsigned long)high_memory;
}

/* A direct-map address that no record covers. */
static enum memorizer_memory_class direct_map_class(unsigned long addr)
{
	if (folio_test_slab(virt_to_folio((void *)addr)))
		return MEMORIZER_MEM_SLAB;
	if (memorizer_percpu_area(addr))
		return MEMORIZER_MEM_PERCPU;
	return MEMORIZER_MEM_PAGE;
}

/* What memory @addr is, when no record covers it. */
static enum memorizer_memory_class memorizer_memory_class(unsigned long addr)
{
	unsigned long start, size;
	bool task;

	if (stack_extent(addr, &start, &size, &task))
		return MEMORIZER_MEM_STACK;
	if (in_direct_map(addr))
		return direct_map_class(addr);
	if (addr >= (unsigned long)_stext && addr < (unsigned long)_etext)
		return MEMORIZER_MEM_KERNEL_TEXT;
	if (addr >= (unsigned long)_text && addr < (unsigned long)_end)
		return MEMORIZER_MEM_KERNEL_DATA;
#ifdef MODULES_VADDR
	if (addr >= MODULES_VADDR && addr < MODULES_END)
		return MEMORIZER_MEM_MODULE;
#endif
	if (is_vmalloc_addr((void *)addr))
		return MEMORIZER_MEM_VMALLOC;
	return MEMORIZER_MEM_OTHER;
}

/*
 * A stack's record: one object per task stack (owned by its task) or IRQ
 * stack. The index must find it as it finds any object there: a task's
 * stack by its pages (aliases), an IRQ stack as the per-CPU variable it
 * is. Exception and entry stacks lie outside what the index covers.
 */
static struct memorizer_record *found_stack(unsigned long addr)
{
	unsigned long start, size;
	bool task;

	if (!stack_extent(addr, &start, &size, &task))
		return NULL;
	if (task && (in_direct_map(start) || is_vmalloc_addr((void *)start)))
		return memorizer_record_found(MEMORIZER_KIND_STACK, start, size,
					      size / PAGE_SIZE - 1, 0,
					      task_pid_nr(current),
					      current->comm);
	/* The boot CPU's idle task's: init_stack, a global as the index sees it. */
	if (task && memorizer_global_extent(addr, &start, &size))
		return memorizer_record_found(MEMORIZER_KIND_STACK, start, size,
					      0, 0, task_pid_nr(current),
					      current->comm);
	if (!task && memorizer_percpu_extent(addr, &start, &size))
		return memorizer_record_found(MEMORIZER_KIND_STACK, start, size,
					      0, 0, 0, "irq_stack");
	return NULL;
}

/*
 * A slab object's record. Not in a slab that holds no object yet: its
 * constructor, run when the slab is made, touches free objects.
 */
static struct memorizer_record *found_slab_object(struct folio *folio,
						  unsigned long addr)
{
	struct slab *slab = folio_slab(folio);
	struct kmem_cache *s = READ_ONCE(slab->slab_cache);
	unsigned long start;

	/* Racy, as any peek at a slab's state: a count, read whole. */
	if (!s || !data_race((unsigned int)slab->inuse))
		return NULL;
	start = (unsigned long)nearest_obj(s, slab, (void *)addr);
	return memorizer_record_found(s->flags & SLAB_KMALLOC ?
				      MEMORIZER_KIND_KMALLOC :
				      MEMORIZER_KIND_CACHE,
				      start, s->object_size, 0,
				      memorizer_cache_id(s), 0, "unseen");
}

/* The record of a direct-map object of @class. */
static struct memorizer_record *found_direct(unsigned long addr,
					     enum memorizer_memory_class class)
{
	unsigned long start, size;
	struct folio *folio;

	switch (class) {
	case MEMORIZER_MEM_SLAB:
		return found_slab_object(virt_to_folio((void *)addr), addr);
	case MEMORIZER_MEM_PERCPU:
		if (!memorizer_percpu_extent(addr, &start, &size))
			return NULL;	/* free, or the chunk's own */
		return memorizer_record_found(MEMORIZER_KIND_PERCPU, start,
					      size, 0, 0, 0, "percpu");
	default:
		/*
		 * struct pages, shared by everything that handles memory: an
		 * object per array, not per page of it, or a page's counters
		 * would be repeated for each.
		 */
		if (memorizer_memmap_extent(addr, &start, &size))
			return memorizer_record_found(MEMORIZER_KIND_PAGES,
						      start, size,
						      size / PAGE_SIZE - 1, 0,
						      0, "page");
		/*
		 * Any other page (page cache, anonymous, page tables, boot
		 * memory): an object per folio, keyed where the index looks
		 * pages up (its first page), closed when its block is freed.
		 */
		folio = virt_to_folio((void *)addr);
		return memorizer_record_found(MEMORIZER_KIND_PAGES,
					      (unsigned long)folio_address(folio),
					      folio_size(folio), 0, 0, 0, "page");
	}
}

/*
 * An access that no record covers: the record made for its object now,
 * or NULL, the access counted by the class of memory it hit, or as
 * dropped when the pool had no room for the record. Preemption is
 * disabled.
 */
struct memorizer_record *memorizer_attribute(unsigned long addr)
{
	enum memorizer_memory_class class;
	struct memorizer_record *rec = NULL;
	unsigned long start, size;

	/*
	 * A full pool makes no record: dropped before any work. Once the
	 * pool fills, most accesses of a busy system come here, and finding
	 * their object only to fail the allocation (a slab cache's name, an
	 * IRQ-off pool lock, the aliases) slowed a guest several-fold: it
	 * looked hung.
	 */
	if (!memorizer_pool_available(MEMORIZER_POOL_OBJ)) {
		memorizer_stat_inc(MEMORIZER_STAT_DROPPED_ACCESSES);
		return NULL;
	}
	class = memorizer_memory_class(addr);
	if (class == MEMORIZER_MEM_STACK)
		rec = found_stack(addr);
	else if ((class == MEMORIZER_MEM_KERNEL_DATA ||
		  class == MEMORIZER_MEM_MODULE) &&
		 memorizer_global_extent(addr, &start, &size))
		rec = memorizer_record_found(MEMORIZER_KIND_GLOBAL, start, size,
					     0, 0, 0, "global");
	else if (in_direct_map(addr))
		rec = found_direct(addr, class);

	if (IS_ERR(rec)) {
		memorizer_stat_inc(MEMORIZER_STAT_DROPPED_ACCESSES);
		return NULL;
	}
	if (!rec)
		this_cpu_inc(memorizer_stats.untracked[class]);
	return rec;
}
