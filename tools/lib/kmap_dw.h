/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libkmap's own DWARF helpers (with libdw, KMAP_DW only): compilation
 * units by address. libdw finds a unit by .debug_aranges, which clang
 * writes for assembly units only, so a kernel built with clang has its C
 * code in none; this index reads every unit's own ranges instead.
 */
#ifndef KMAP_DW_H
#define KMAP_DW_H

#ifdef KMAP_DW
#include <stddef.h>
#include <stdint.h>

#include <elfutils/libdw.h>

struct kmap_cu_range {
	uint64_t lo, hi;		/* [lo, hi) */
	Dwarf_Off cu;			/* the unit's DIE */
};

struct kmap_cu_index {
	struct kmap_cu_range *ranges;	/* sorted by lo */
	size_t n, cap;
};

/* Read every unit's ranges of dw into x (empty); 0, or -1 out of memory. */
int kmap_cu_index_read(struct kmap_cu_index *x, Dwarf *dw);
/* The unit whose code holds ip into *cu: 0, or -1 when none does. */
int kmap_cu_index_find(const struct kmap_cu_index *x, Dwarf *dw, uint64_t ip,
		       Dwarf_Die *cu);
void kmap_cu_index_free(struct kmap_cu_index *x);

#endif /* KMAP_DW */
#endif /* KMAP_DW_H */
