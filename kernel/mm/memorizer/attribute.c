// SPDX-License-Identifier: GPL-2.0
/*
 * Memorizer's miss path: an access that no record covers. Memory whose
 * objects Memorizer knows without seeing them allocated gets its record
 * now: a global (globals.c). Anything else is counted by the class of
 * memory it fell in (enum memorizer_memory_class), so that show_stats says
 * what is still unattributed and where.
 *
 * The class comes from the address range first, with what the kernel
 * already knows of its memory, and from the page's own flags in the direct
 * map: no lookup in any table, no lock. The stack test comes first because
 * without VMAP_STACK a task's stack is pages of the direct map.
 */

#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/sched/task_stack.h>
#include <linux/vmalloc.h>
#include <asm/sections.h>
#ifdef CONFIG_X86_64
#include <asm/stacktrace.h>
#endif

#include "../percpu-internal.h"
#include "memorizer.h"

/* Every CPU's unit of the per-CPU first chunk lies in [start, end). */
static unsigned long percpu_start __ro_after_init;
static unsigned long percpu_end __ro_after_init;

void __init memorizer_attribute_init(void)
{
	unsigned long unit_size, unit;
	unsigned int cpu;

	/* The first chunk maps each unit past its static part: units' ends. */
	unit_size = (unsigned long)pcpu_first_chunk->base_addr +
		    ((unsigned long)pcpu_first_chunk->nr_pages << PAGE_SHIFT) -
		    (unsigned long)pcpu_base_addr;
	percpu_start = ULONG_MAX;
	for_each_possible_cpu(cpu) {
		unit = (unsigned long)per_cpu_ptr((void __percpu *)__per_cpu_start,
						  cpu);
		percpu_start = min(percpu_start, unit);
		percpu_end = max(percpu_end, unit + unit_size);
	}
}

static bool on_a_stack(unsigned long addr)
{
#ifdef CONFIG_X86_64
	struct stack_info info;

	/* This task's stack, and this CPU's IRQ, exception and entry stacks. */
	return get_stack_info_noinstr((unsigned long *)addr, current, &info);
#else
	return addr - (unsigned long)task_stack_page(current) < THREAD_SIZE;
#endif
}

/* A direct-map address that no record covers. */
static enum memorizer_memory_class direct_map_class(unsigned long addr)
{
	struct page *page = virt_to_page((void *)addr);
	struct folio *folio = page_folio(page);

	if (folio_test_slab(folio))
		return MEMORIZER_MEM_SLAB;
	if (PageReserved(page))
		return addr - percpu_start < percpu_end - percpu_start ?
		       MEMORIZER_MEM_PERCPU : MEMORIZER_MEM_BOOT;
	if (folio_test_pgtable(folio))
		return MEMORIZER_MEM_PAGE_TABLE;
	if (folio_test_anon(folio))
		return MEMORIZER_MEM_ANON_PAGE;
	if (READ_ONCE(folio->mapping))
		return MEMORIZER_MEM_FILE_PAGE;
	return MEMORIZER_MEM_PAGE;
}

/* What memory @addr is, when no record covers it. */
static enum memorizer_memory_class memorizer_memory_class(unsigned long addr)
{
	if (on_a_stack(addr))
		return MEMORIZER_MEM_STACK;
	/* As memorizer_index_lookup(): not the instrumented virt_addr_valid(). */
	if (addr >= PAGE_OFFSET && addr < (unsigned long)high_memory)
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
 * An access that no record covers: the record made for its object now,
 * or NULL, the access counted by the class of memory it hit (or, when the
 * pool is full, as dropped).
 */
struct memorizer_record *memorizer_attribute(unsigned long addr)
{
	enum memorizer_memory_class class = memorizer_memory_class(addr);
	struct memorizer_record *rec;
	unsigned long start, size;

	if (class == MEMORIZER_MEM_KERNEL_DATA &&
	    memorizer_global_extent(addr, &start, &size)) {
		/* Its address is its call site: symbolized, it names it. */
		rec = memorizer_record_found(MEMORIZER_KIND_GLOBAL, start, size,
					     start, "global");
		if (!rec)
			memorizer_stat_inc(MEMORIZER_STAT_DROPPED_ACCESSES);
		return rec;
	}
	this_cpu_inc(memorizer_stats.untracked[class]);
	return NULL;
}
