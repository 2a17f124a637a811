// SPDX-License-Identifier: GPL-2.0
/* libkmap: compilation units by address (kmap_dw.h). */
#ifdef KMAP_DW
#include <stdlib.h>

#include "kmap.h"
#include "kmap_dw.h"

static int by_lo(const void *a, const void *b)
{
	const struct kmap_cu_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

int kmap_cu_index_read(struct kmap_cu_index *x, Dwarf *dw)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		Dwarf_Addr base, lo, hi;
		ptrdiff_t r = 0;

		if (dwarf_offdie(dw, off + hsize, &cu))
			while ((r = dwarf_ranges(&cu, r, &base, &lo, &hi)) > 0) {
				if (lo >= hi)
					continue;
				if (kmap_grow((void **)&x->ranges, &x->cap,
					      x->n + 1, sizeof(*x->ranges)))
					return -1;
				x->ranges[x->n++] = (struct kmap_cu_range){
					lo, hi, off + hsize };
			}
		off = next;
	}
	if (x->n)
		qsort(x->ranges, x->n, sizeof(*x->ranges), by_lo);
	return 0;
}

int kmap_cu_index_find(const struct kmap_cu_index *x, Dwarf *dw, uint64_t ip,
		       Dwarf_Die *cu)
{
	size_t lo = 0, hi = x->n;

	/* The last range starting at or below ip. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (x->ranges[mid].lo <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || ip >= x->ranges[lo - 1].hi)
		return -1;
	return dwarf_offdie(dw, x->ranges[lo - 1].cu, cu) ? 0 : -1;
}

void kmap_cu_index_free(struct kmap_cu_index *x)
{
	free(x->ranges);
	x->ranges = NULL;
	x->n = x->cap = 0;
}
#endif /* KMAP_DW */
