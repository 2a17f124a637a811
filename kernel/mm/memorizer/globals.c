// SPDX-License-Identifier: GPL-2.0
/*
 * Memorizer's globals: the kernel image's data, one object per symbol,
 * from the start of .rodata to _end (.rodata, __ro_after_init, .data, init
 * data, .bss). A symbol's extent is kallsyms', from its address to the next
 * symbol's. kallsyms' own lookup is instrumented and walks more than the
 * access path can afford, so at boot the extents' starts are copied into a
 * sorted table, 4 bytes a symbol, that a plain binary search reads.
 */

#define pr_fmt(fmt) "memorizer: " fmt

#include <linux/kallsyms.h>
#include <linux/vmalloc.h>
#include <asm/sections.h>

#include "memorizer.h"

static unsigned long data_start __ro_after_init;
static unsigned long data_end __ro_after_init;
static u32 *starts __ro_after_init;	/* from data_start, ascending */
static unsigned int nr_starts __ro_after_init;

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

/*
 * The global that covers @addr: its start and size, or false. Any
 * context; no lock.
 */
bool memorizer_global_extent(unsigned long addr, unsigned long *start,
			     unsigned long *size)
{
	unsigned long off = addr - data_start;
	unsigned int lo = 0, hi = nr_starts, mid;

	if (off >= data_end - data_start || !nr_starts || off < starts[0])
		return false;
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (starts[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	*start = data_start + starts[lo];
	*size = (lo + 1 < nr_starts ? data_start + starts[lo + 1] : data_end) -
		*start;
	return true;
}
