// SPDX-License-Identifier: GPL-2.0
/*
 * Memorizer's globals: the kernel image's data, one object per symbol,
 * from the start of .rodata to _end (.rodata, __ro_after_init, .data, init
 * data, .bss); and per-CPU data, one object per variable or alloc_percpu()
 * area and CPU. A symbol's extent is kallsyms', from its address to the
 * next symbol's. kallsyms' own lookup is instrumented and walks more than
 * the access path can afford, so at boot the extents' starts are copied
 * into sorted tables, 4 bytes a symbol, that a plain binary search reads.
 * An alloc_percpu() area's extent is the per-CPU allocator's own, from its
 * map of the first chunk. A module's data symbols, from its load to its
 * unload, are in a table per module.
 */

#define pr_fmt(fmt) "memorizer: " fmt

#include <linux/kallsyms.h>
#include <linux/mmzone.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/vmalloc.h>
#include <asm/sections.h>

#include "../percpu-internal.h"
#include "memorizer.h"

static unsigned long data_start __ro_after_init;
static unsigned long data_end __ro_after_init;
static u32 *starts __ro_after_init;	/* from data_start, ascending */
static unsigned int nr_starts __ro_after_init;

/* The static per-CPU area's size, and every CPU's unit of the first chunk. */
static unsigned long percpu_size __ro_after_init;
static unsigned long percpu_lo __ro_after_init;
static unsigned long percpu_hi __ro_after_init;
static unsigned long percpu_unit_size __ro_after_init;
/* Per-CPU variables: offsets into the static per-CPU area, ascending. */
static u32 *percpu_starts __ro_after_init;
static unsigned int nr_percpu_starts __ro_after_init;

/* Walk the extents: count them, or with @table fill its @max entries. */
static unsigned int walk_extents(u32 *table, unsigned int max)
{
	unsigned long addr = data_start, size, offset, start;
	unsigned int n = 0;

	while (addr < data_end && n < max &&
	       kallsyms_lookup_size_offset(addr, &size, &offset) &&
	       size > offset) {
		start = max(addr - offset, data_start);
		if (table)
			table[n] = start - data_start;
		n++;
		addr = addr - offset + size;
	}
	return n;
}

void __init memorizer_globals_init(void)
{
	unsigned int n;

	data_start = (unsigned long)__start_rodata;
	data_end = (unsigned long)_end;
	if (!IS_ENABLED(CONFIG_KALLSYMS_ALL) ||
	    data_end - data_start > U32_MAX)
		return;
	n = walk_extents(NULL, UINT_MAX);
	starts = vmalloc_array(n, sizeof(*starts));
	if (!starts) {
		pr_warn("no memory for the table of %u globals: globals untracked\n",
			n);
		return;
	}
	nr_starts = walk_extents(starts, n);
	pr_info("%u globals, %lu KiB of kernel data\n", nr_starts,
		(data_end - data_start) >> 10);
}

struct percpu_walk {
	u32 *table;
	unsigned int n, max;
};

/*
 * kallsyms lists per-CPU symbols at their link addresses, inside
 * [__per_cpu_start, __per_cpu_end): zero-based on x86-64, where they come
 * first, so the walk ends early there.
 */
static int add_percpu_symbol(void *data, const char *name, unsigned long addr)
{
	struct percpu_walk *w = data;
	unsigned long off = addr - (unsigned long)__per_cpu_start;

	if (off >= percpu_size)
		return (unsigned long)__per_cpu_start == 0 &&
		       addr >= (unsigned long)__per_cpu_end;
	if (w->table) {
		if (w->n >= w->max)
			return 1;
		w->table[w->n] = off;
	}
	w->n++;
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

static unsigned long unit_base(unsigned int cpu)
{
	return (unsigned long)__per_cpu_start + per_cpu_offset(cpu);
}

void __init memorizer_percpu_init(void)
{
	struct percpu_walk w = {};
	unsigned int i, n, cpu;

	/* The first chunk maps each unit past its static part: units' ends. */
	percpu_unit_size = (unsigned long)pcpu_first_chunk->base_addr +
			   ((unsigned long)pcpu_first_chunk->nr_pages << PAGE_SHIFT) -
			   (unsigned long)pcpu_base_addr;
	percpu_lo = ULONG_MAX;
	for_each_possible_cpu(cpu) {
		percpu_lo = min(percpu_lo, unit_base(cpu));
		percpu_hi = max(percpu_hi, unit_base(cpu) + percpu_unit_size);
	}

	percpu_size = __per_cpu_end - __per_cpu_start;
	if (!IS_ENABLED(CONFIG_KALLSYMS_ALL) || !percpu_size ||
	    percpu_size > U32_MAX)
		return;
	kallsyms_on_each_symbol(add_percpu_symbol, &w);
	if (!w.n)
		return;
	w.table = vmalloc_array(w.n, sizeof(*w.table));
	if (!w.table) {
		pr_warn("no memory for the table of %u per-CPU variables: untracked\n",
			w.n);
		return;
	}
	w.max = w.n;
	w.n = 0;
	kallsyms_on_each_symbol(add_percpu_symbol, &w);
	sort(w.table, w.n, sizeof(*w.table), cmp_u32, NULL);
	/* Aliases (several names, one address) make one extent. */
	for (i = 0, n = 0; i < w.n; i++)
		if (!n || w.table[i] != w.table[n - 1])
			w.table[n++] = w.table[i];
	percpu_starts = w.table;
	nr_percpu_starts = n;
	pr_info("%u per-CPU variables, %lu KiB a CPU\n", n, percpu_size >> 10);
}

/* Is @addr in some CPU's unit of the per-CPU first chunk? */
bool memorizer_percpu_area(unsigned long addr)
{
	return addr - percpu_lo < percpu_hi - percpu_lo;
}

/* The entry of @table that covers @off: lo with @table[lo] <= @off. */
static unsigned int table_search(const u32 *table, unsigned int n, u32 off)
{
	unsigned int lo = 0, hi = n, mid;

	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (table[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The allocation of @chunk that covers @off, the offset of @addr in the
 * unit: in the allocator's maps, a bit per PCPU_MIN_ALLOC_SIZE bytes; an
 * area's bits are set in alloc_map, and bound_map marks its start and its
 * end. Read without pcpu_lock: an area allocated or freed meanwhile gives
 * an extent that a later lookup corrects (records.c replaces a found
 * record whose extent is not the memory's any more).
 */
static bool chunk_extent(struct pcpu_chunk *chunk, unsigned long addr,
			 unsigned long off, unsigned long *start,
			 unsigned long *size)
{
	unsigned long bits, bit, first, end;

	if (!chunk)
		return false;
	off -= (unsigned long)chunk->base_addr - (unsigned long)pcpu_base_addr;
	bits = pcpu_chunk_map_bits(chunk);
	bit = off / PCPU_MIN_ALLOC_SIZE;
	/* Past the chunk, or in the parts it hides at its ends. */
	if (bit >= bits || off < chunk->start_offset ||
	    off >= bits * PCPU_MIN_ALLOC_SIZE - chunk->end_offset ||
	    !test_bit(bit, chunk->alloc_map))
		return false;
	first = find_last_bit(chunk->bound_map, bit + 1);
	end = find_next_bit(chunk->bound_map, bits + 1, bit + 1);
	if (first > bit || end > bits)
		return false;
	*start = addr - off + first * PCPU_MIN_ALLOC_SIZE;
	*size = (end - first) * PCPU_MIN_ALLOC_SIZE;
	return true;
}

static bool percpu_extent_on(unsigned int cpu, unsigned long addr,
			     unsigned long *start, unsigned long *size)
{
	unsigned long off = addr - unit_base(cpu);
	unsigned int i;

	if (off >= percpu_unit_size)
		return false;
	if (off >= percpu_size)
		return chunk_extent(pcpu_reserved_chunk, addr, off, start,
				    size) ||
		       chunk_extent(pcpu_first_chunk, addr, off, start, size);
	if (!nr_percpu_starts || off < percpu_starts[0])
		return false;
	i = table_search(percpu_starts, nr_percpu_starts, off);
	*start = unit_base(cpu) + percpu_starts[i];
	*size = (i + 1 < nr_percpu_starts ? percpu_starts[i + 1] : percpu_size) -
		percpu_starts[i];
	return true;
}

/*
 * The per-CPU variable or alloc_percpu() area whose copy on some CPU
 * covers @addr: that copy's start and size, or false. This CPU's copies
 * first: most accesses are to them. Any context; no lock.
 */
bool memorizer_percpu_extent(unsigned long addr, unsigned long *start,
			     unsigned long *size)
{
	unsigned int cpu, this_cpu = raw_smp_processor_id();

	if (!memorizer_percpu_area(addr))
		return false;
	if (percpu_extent_on(this_cpu, addr, start, size))
		return true;
	for_each_possible_cpu(cpu)
		if (cpu != this_cpu && percpu_extent_on(cpu, addr, start, size))
			return true;
	return false;
}

#if defined(CONFIG_SPARSEMEM) && !defined(CONFIG_SPARSEMEM_VMEMMAP)
/* The memory sections' struct page arrays: their starts. */
static unsigned long *memmap_starts __ro_after_init;
static unsigned int nr_memmaps __ro_after_init;
#define MEMMAP_SIZE	(PAGES_PER_SECTION * sizeof(struct page))

/*
 * Sections present at boot; memory added later is not covered. An array
 * not page-aligned cannot be found by its pages, and is left out.
 */
void __init memorizer_memmap_init(void)
{
	unsigned long nr, start;
	unsigned int n = 0;

	for (nr = 0; nr != -1UL; nr = next_present_section_nr(nr))
		if (present_section_nr(nr))
			n++;
	memmap_starts = vmalloc_array(n, sizeof(*memmap_starts));
	if (!memmap_starts)
		return;
	for (nr = 0; nr != -1UL && nr_memmaps < n;
	     nr = next_present_section_nr(nr)) {
		if (!present_section_nr(nr))
			continue;
		start = (unsigned long)pfn_to_page(section_nr_to_pfn(nr));
		if (PAGE_ALIGNED(start) && PAGE_ALIGNED(MEMMAP_SIZE) &&
		    virt_addr_valid((void *)start))
			memmap_starts[nr_memmaps++] = start;
	}
	pr_info("%u arrays of struct page, %lu KiB each\n", nr_memmaps,
		MEMMAP_SIZE >> 10);
}

/*
 * The array of struct pages that covers @addr: its start and size. A
 * plain scan: only a miss comes here, one per array once it has a record.
 */
bool memorizer_memmap_extent(unsigned long addr, unsigned long *start,
			     unsigned long *size)
{
	unsigned int i;

	for (i = 0; i < nr_memmaps; i++) {
		if (addr - memmap_starts[i] < MEMMAP_SIZE) {
			*start = memmap_starts[i];
			*size = MEMMAP_SIZE;
			return true;
		}
	}
	return false;
}
#else
void __init memorizer_memmap_init(void)
{
}

bool memorizer_memmap_extent(unsigned long addr, unsigned long *start,
			     unsigned long *size)
{
	return false;
}
#endif

#ifdef CONFIG_MODULES
/*
 * A loaded module's data symbols: .data, .rodata and __ro_after_init, not
 * init data, which is gone once the module is up. ELF gives each its
 * size, so a symbol's extent is its own, not up to the next one.
 */
struct module_globals {
	struct list_head list;		/* module_globals_list, RCU */
	const struct module *mod;
	unsigned long lo, hi;		/* the first start, the last end */
	unsigned int n;
	struct module_global {
		unsigned long start, size;
	} sym[];			/* by start, ascending */
};

static LIST_HEAD(module_globals_list);
static DEFINE_MUTEX(module_globals_lock);	/* writers of the list */

static bool module_data_symbol(const struct module *mod, const Elf_Sym *sym)
{
	unsigned long addr = sym->st_value;

	if (sym->st_shndx == SHN_UNDEF || !sym->st_size ||
	    ELF_ST_TYPE(sym->st_info) != STT_OBJECT)
		return false;
	return within_module_mem_type(addr, mod, MOD_DATA) ||
	       within_module_mem_type(addr, mod, MOD_RODATA) ||
	       within_module_mem_type(addr, mod, MOD_RO_AFTER_INIT);
}

static int cmp_global(const void *a, const void *b)
{
	const struct module_global *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->size < y->size ? -1 : x->size > y->size;
}

/*
 * @mod is coming: make the table of its data symbols. From the module
 * notifier, before any of its code runs. Without memory its globals are
 * not found (their accesses count in class module).
 */
void memorizer_module_globals_add(struct module *mod)
{
	const struct mod_kallsyms *ks;
	struct module_globals *mg;
	unsigned int i, n = 0, k;
	bool guard;

	rcu_read_lock();
	ks = rcu_dereference(mod->kallsyms);
	for (i = 1; i < ks->num_symtab; i++)
		n += module_data_symbol(mod, &ks->symtab[i]);
	rcu_read_unlock();
	if (!n)
		return;
	/* Not an allocation Memorizer records: its own, in no one's name. */
	guard = memorizer_guard();
	mg = kzalloc(struct_size(mg, sym, n), GFP_NOWAIT | __GFP_NOWARN);
	memorizer_unguard(guard);
	if (!mg) {
		pr_warn("no memory for %s's %u globals: left untracked\n",
			mod->name, n);
		return;
	}
	rcu_read_lock();
	ks = rcu_dereference(mod->kallsyms);
	for (i = 1; i < ks->num_symtab && mg->n < n; i++) {
		if (!module_data_symbol(mod, &ks->symtab[i]))
			continue;
		mg->sym[mg->n].start = ks->symtab[i].st_value;
		mg->sym[mg->n++].size = ks->symtab[i].st_size;
	}
	rcu_read_unlock();
	/* Aliases of one variable: the largest; overlaps: the earlier's. */
	sort(mg->sym, mg->n, sizeof(mg->sym[0]), cmp_global, NULL);
	for (i = 0, k = 0; i < mg->n; i++) {
		if (k && mg->sym[i].start < mg->sym[k - 1].start +
					    mg->sym[k - 1].size) {
			if (mg->sym[i].start == mg->sym[k - 1].start)
				mg->sym[k - 1].size = mg->sym[i].size;
			continue;
		}
		mg->sym[k++] = mg->sym[i];
	}
	mg->n = k;
	mg->mod = mod;
	mg->lo = mg->sym[0].start;
	mg->hi = mg->sym[k - 1].start + mg->sym[k - 1].size;
	mutex_lock(&module_globals_lock);
	list_add_rcu(&mg->list, &module_globals_list);
	mutex_unlock(&module_globals_lock);
}

/*
 * @mod is going: its table leaves the list, and no lookup finds its
 * globals once this returns. The caller closes their records with
 * memorizer_module_global_start(), then frees the table (kfree()).
 */
struct module_globals *memorizer_module_globals_take(struct module *mod)
{
	struct module_globals *mg, *found = NULL;

	mutex_lock(&module_globals_lock);
	list_for_each_entry(mg, &module_globals_list, list) {
		if (mg->mod == mod) {
			list_del_rcu(&mg->list);
			found = mg;
			break;
		}
	}
	mutex_unlock(&module_globals_lock);
	if (found)
		synchronize_rcu();
	return found;
}

/* The start of @mg's @i-th global, or 0 past the last. */
unsigned long memorizer_module_global_start(const struct module_globals *mg,
					    unsigned int i)
{
	return i < mg->n ? mg->sym[i].start : 0;
}

/* Preemption disabled: an RCU reader, as the index's lookups are. */
static bool module_global_extent(unsigned long addr, unsigned long *start,
				 unsigned long *size)
{
	struct module_globals *mg;
	unsigned int lo, hi, mid;

#ifdef MODULES_VADDR
	if (addr < MODULES_VADDR || addr >= MODULES_END)
		return false;
#endif
	/*
	 * A module's data and rodata are apart; another's may lie between,
	 * so a span that holds @addr may still not be its module's.
	 */
	list_for_each_entry_rcu(mg, &module_globals_list, list) {
		if (addr - mg->lo >= mg->hi - mg->lo)
			continue;
		for (lo = 0, hi = mg->n; hi - lo > 1;) {
			mid = lo + (hi - lo) / 2;
			if (mg->sym[mid].start <= addr)
				lo = mid;
			else
				hi = mid;
		}
		if (addr - mg->sym[lo].start >= mg->sym[lo].size)
			continue;
		*start = mg->sym[lo].start;
		*size = mg->sym[lo].size;
		return true;
	}
	return false;
}
#else
void memorizer_module_globals_add(struct module *mod)
{
}

struct module_globals *memorizer_module_globals_take(struct module *mod)
{
	return NULL;
}

unsigned long memorizer_module_global_start(const struct module_globals *mg,
					    unsigned int i)
{
	return 0;
}

static bool module_global_extent(unsigned long addr, unsigned long *start,
				 unsigned long *size)
{
	return false;
}
#endif

/*
 * The global that covers @addr, the kernel's or a module's: its start and
 * size, or false. Any context with preemption disabled; no lock.
 */
bool memorizer_global_extent(unsigned long addr, unsigned long *start,
			     unsigned long *size)
{
	unsigned long off = addr - data_start;
	unsigned int lo;

	if (off >= data_end - data_start)
		return module_global_extent(addr, start, size);
	if (!nr_starts || off < starts[0])
		return false;
	lo = table_search(starts, nr_starts, off);
	*start = data_start + starts[lo];
	*size = (lo + 1 < nr_starts ? data_start + starts[lo + 1] : data_end) -
		*start;
	return true;
}
