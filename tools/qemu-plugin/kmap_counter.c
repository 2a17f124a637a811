// SPDX-License-Identifier: GPL-2.0
/*
 * The mtrace plugin's mode kmap (kmap_counter.h): Memorizer's kmap counted in the
 * emulator, for any kernel mtrace_label.ko loads into.
 *
 * Objects come from the labels (slab objects, pages, vmalloc areas,
 * alloc_percpu() areas, stacks) and from System.map (the image's data
 * from __start_rodata to _end, one object per symbol up to the next, and
 * each CPU's static per-CPU variables): those, and stacks, are *found*,
 * their ALLOC written at their first access, as Memorizer does. An
 * address is looked up in a hash of 4 KiB pages, each with its objects
 * sorted by start (the innermost of nested ones wins: a stack in its
 * vmalloc area); an access is counted on the object holding its first
 * byte, per (object, ip, pid) in the object's table of counters, with the bytes it
 * touched. A free writes the object's counters (ACCESS) and its FREE, and
 * forgets both: what is kept is the live objects and their counters, up
 * to max_cells counters (past them an access is dropped, and counted as
 * such). An allocation over a live object of its kind closes it as a
 * missed free (0xdeadbeef), as Memorizer does. The slabs the kernel made
 * before the module (its SLAB_PAGES labels) are kept apart, a pointer in
 * each of their pages' slots: an access in one on no object finds the
 * object of its slot. Accesses on no object wait, run together, for
 * their vCPU's next allocation label (struct pending).
 *
 * Pages and vmalloc areas come with return addresses: their call site is
 * the first outside the allocator (by System.map's names), and pages that
 * a slab, a large kmalloc or a vmalloc area takes are not objects: their
 * users are. Nothing here is locked: one thread runs every vCPU.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/memorizer.h>

#include "kmap.h"
#include "kmap_counter.h"
#include "mtrace_label.h"
#include "mtrace_log.h"

/*
 * The kernel half of the address space with 5-level paging, which a
 * distribution's kernel uses where the CPU has it (QEMU's -cpu max does:
 * its direct map is at 0xff11000000000000); with 4 levels it starts at
 * 0xffff800000000000, and what lies between is not canonical.
 */
#define KERNEL_HALF	0xff00000000000000ull
#define PAGE_SHIFT_4K	12
#define MISSED_SITE	0xdeadbeefull
#define KMALLOC_MAX	8192u		/* larger kmallocs are pages */
/*
 * x86-64's KASAN shadow (Documentation/arch/x86/x86_64/mm.rst, 4-level
 * paging): KASAN's own accesses, not the workload's, on a KASAN kernel.
 */
#define KASAN_SHADOW_START	0xffffec0000000000ull
#define KASAN_SHADOW_END	0xfffffc0000000000ull
/* A counter's counts go out before reaching this (the unit test's less). */
#ifndef KMAP_COUNT_MAX
#define KMAP_COUNT_MAX	UINT32_MAX
#endif
/* Nested objects a lookup passes before giving up: a stack in its area. */
#define SCAN_BACK	16
/* Runs of accesses on no object a vCPU holds until its next allocation. */
#define PENDING		16
/*
 * Accesses on an object wait DEFERRED accesses of their vCPU to be
 * counted, their counter prefetched meanwhile: the counter's cache miss
 * was most of the counting's time, one at a time.
 */
#define DEFERRED	8

enum layer { L_SLAB, L_PAGES, L_VMALLOC, L_STACK, L_PERCPU, L_GLOBAL };

struct cell;

struct obj {
	uint64_t addr, size;		/* the extent looked up */
	/*
	 * Its counters, by (ip, pid), open addressing (ip 0: empty), at most
	 * three quarters full: found through the object just looked up, most
	 * in a cache line or two. A profile of hackbench under one hash of
	 * every counter had 70% of the counting's time on the misses of its
	 * bucket and of the chain's first counter. In the object's first
	 * cache line, with its extent: what every access reads.
	 */
	struct cell *cells;
	uint32_t ncells, cap;
	uint64_t id;			/* 0: found, not accessed yet */
	uint64_t call_site, jiffies;
	uint32_t size_req, size_alloc;
	int32_t pid;
	uint32_t cache_id, nr_access;
	uint8_t kind, context, layer, dynamic;
	struct obj *prev, *next;	/* every object */
};

/*
 * 32 bytes, two a cache line: counts of 32 bits, a cell's counts written
 * out as an ACCESS record (readers add up those of one (id, ip, pid))
 * before one would overflow.
 */
struct cell {
	uint64_t ip;
	uint32_t pid, lo, hi;
	uint32_t reads, writes;
	uint32_t unused;
};

struct page_slot {
	uint64_t page;			/* 0: empty */
	struct obj **v;			/* by addr, then larger first */
	uint32_t n, cap;
	struct slab *slab;		/* a slab from before the module */
};

/*
 * A slab the kernel made before mtrace_label.ko loaded: its objects were
 * allocated unlabeled, and are found at their first access, one per
 * stride from its start, of its cache's object size; but not in a slot
 * a label has allocated or freed since, whose life the labels tell (the
 * allocator writes its free list into free slots).
 */
struct slab {
	uint64_t addr, size;
	uint32_t stride, object_size, cache_id;
	uint8_t kind;
	uint8_t *labeled;		/* a bit per slot */
};

/*
 * Accesses by one (ip, pid) on no object, run together while they touch
 * adjacent bytes (or one slot of a slab from before the module): what an
 * allocator does to memory before its tracepoint fires (zeroing pages for
 * __GFP_ZERO or init_on_alloc) is the new object's, known at the label.
 */
struct pending {
	uint64_t lo, hi, ip, n;
	uint64_t slot;			/* a slab's slot, or 0 */
	uint32_t pid;
	int write;
};

struct sym {
	uint64_t addr;
	char *name;
};

/* An access on o, to be counted. */
struct deferred {
	struct obj *o;
	uint64_t vaddr, ip;
	uint32_t pid;
	uint8_t size, write;
};

struct vstate {
	int in_label, overflow;
	unsigned int nargs, bits;
	uint64_t acc;
	int64_t args[MTRACE_LABEL_MAX_ARGS];
	struct obj *last_obj;
	struct pending pend[PENDING];
	unsigned int npend;
	struct deferred defer[DEFERRED];	/* a ring, from dhead */
	unsigned int dhead, ndefer;
};

struct cache_map {
	uint64_t ptr;
	uint32_t id, size;
	uint8_t kmalloc;		/* a kmalloc-* cache */
};

struct kmap_counter {
	FILE *f;
	char *path;
	int write_errno, said_hello;
	int64_t other_version;		/* a HELLO of another convention; 0: none */
	int labeling;			/* HELLO to BYE: labels taken */
	int counting;			/* READY to BYE: accesses counted */
	unsigned int nvcpus;
	struct vstate *v;
	uint64_t lbase, max_cells, t0;
	uint32_t hz, page_size, nr_cpu_ids;
	uint64_t mod_text, mod_text_end;
	uint64_t *percpu_off;		/* by cpu; ~0: not told */
	struct sym *text;		/* kernel text symbols, by address */
	size_t ntext;
	uint64_t *data, *pcpu;		/* data and per-CPU symbol starts */
	size_t ndata, npcpu;
	uint64_t data_end, pcpu_end;
	struct page_slot *slots;
	size_t nslots, used_slots;
	size_t ncells, peak_cells;
	struct cache_map *caches;	/* open addressing by ptr */
	size_t ncaches_slots, ncaches;
	uint32_t kmalloc_cache[KMALLOC_MAX / 8 + 1];
	uint64_t next_id;
	uint32_t next_cache;
	struct obj all;			/* the list of every object */
	uint64_t nobjs;
	/* Figures for the summary. */
	uint64_t accesses, attributed, user, unattributed, dropped;
	uint64_t in_label, module_own, kasan_shadow, objects, found;
	uint64_t frees, missed;
	uint64_t frees_unknown, not_objects, labels, bad_labels, records;
	uint64_t bytes, slabs, vmalloc_early;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t jiffies_now(const struct kmap_counter *k)
{
	uint64_t ns = now_ns() - k->t0;

	return ns / 1000000000ull * k->hz + ns % 1000000000ull * k->hz / 1000000000ull;
}

/* One record out: the header's fields are set here. */
static void put(struct kmap_counter *k, void *rec, uint16_t type,
		uint16_t size, unsigned int cpu)
{
	struct memorizer_rec_hdr *h = rec;

	h->type = type;
	h->size = size;
	h->cpu = (uint16_t)cpu;
	h->reserved = 0;
	h->ns = now_ns();
	if (fwrite(rec, size, 1, k->f) != 1 && !k->write_errno)
		k->write_errno = errno ? errno : EIO;
	k->records++;
	k->bytes += size;
}

/* ---- symbols ---- */

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Sorted, without repeats; returns the new count. */
static size_t uniq_u64(uint64_t *v, size_t n)
{
	size_t i, m = 0;

	qsort(v, n, sizeof(*v), cmp_u64);
	for (i = 0; i < n; i++)
		if (!m || v[m - 1] != v[i])
			v[m++] = v[i];
	return m;
}

static int push_u64(uint64_t **v, size_t *n, size_t *cap, uint64_t x)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 4096;
		uint64_t *p = realloc(*v, c * sizeof(**v));

		if (!p)
			return -1;
		*v = p;
		*cap = c;
	}
	(*v)[(*n)++] = x;
	return 0;
}

/* What read_system_map() gathers, in two passes of libkmap's reader. */
struct map_read {
	struct kmap_counter *k;
	uint64_t stext, etext, sinit, einit, rodata, end, pstart, pend;
	int have_pcpu, oom;
	size_t tcap, dcap, pcap;
};

/* First pass: the bounds of text, data and per-CPU data. */
static int map_bound(void *ctx, const struct kmap_ksym *s)
{
	struct map_read *m = ctx;
	const char *n = s->name;

	if (!strcmp(n, "_stext"))
		m->stext = s->addr;
	else if (!strcmp(n, "_etext"))
		m->etext = s->addr;
	else if (!strcmp(n, "_sinittext"))
		m->sinit = s->addr;
	else if (!strcmp(n, "_einittext"))
		m->einit = s->addr;
	else if (!strcmp(n, "__start_rodata"))
		m->rodata = s->addr;
	else if (!strcmp(n, "_end"))
		m->end = s->addr;
	else if (!strcmp(n, "__per_cpu_start"))
		m->pstart = s->addr, m->have_pcpu = 1;
	else if (!strcmp(n, "__per_cpu_end"))
		m->pend = s->addr;
	return 0;
}

/* Second pass: the symbols within the bounds. */
static int map_take(void *ctx, const struct kmap_ksym *s)
{
	struct map_read *m = ctx;
	struct kmap_counter *k = m->k;
	uint64_t a = s->addr;
	char t = s->type;

	if ((t == 't' || t == 'T' || t == 'w' || t == 'W') &&
	    ((a >= m->stext && a < m->etext) || (a >= m->sinit && a < m->einit))) {
		if (k->ntext == m->tcap) {
			size_t c = m->tcap ? m->tcap * 2 : 65536;
			struct sym *p = realloc(k->text, c * sizeof(*p));

			if (!p)
				goto oom;
			k->text = p;
			m->tcap = c;
		}
		k->text[k->ntext].addr = a;
		if (!(k->text[k->ntext].name = strdup(s->name)))
			goto oom;
		k->ntext++;
	} else if (a >= m->rodata && a < m->end) {
		if (push_u64(&k->data, &k->ndata, &m->dcap, a))
			goto oom;
	} else if (a >= m->pstart && a < m->pend) {
		if (push_u64(&k->pcpu, &k->npcpu, &m->pcap, a - m->pstart))
			goto oom;
	}
	return 0;
oom:
	m->oom = 1;
	return -1;
}

static int read_system_map(struct kmap_counter *k, const char *path,
			   char *err, size_t len)
{
	struct map_read m = { .k = k };
	char e[KMAP_ERR_MAX];
	size_t i;

	if (kmap_sym_read_map(path, map_bound, &m, e)) {
		snprintf(err, len, "mtrace: %s", e);
		return -1;
	}
	if (!m.stext || !m.etext || !m.rodata || !m.end || !m.have_pcpu ||
	    m.pend <= m.pstart) {
		snprintf(err, len,
			 "mtrace: %s: no _stext, _etext, __start_rodata, _end, __per_cpu_start or __per_cpu_end: not a kernel's System.map",
			 path);
		return -1;
	}
	if (kmap_sym_read_map(path, map_take, &m, e)) {
		if (m.oom)
			snprintf(err, len, "mtrace: %s: out of memory", path);
		else
			snprintf(err, len, "mtrace: %s", e);
		return -1;
	}
	qsort(k->text, k->ntext, sizeof(*k->text), cmp_sym);
	k->ndata = uniq_u64(k->data, k->ndata);
	k->npcpu = uniq_u64(k->pcpu, k->npcpu);
	k->data_end = m.end;
	k->pcpu_end = m.pend - m.pstart;
	/* The per-CPU symbols are offsets from __per_cpu_start: 0 on x86-64. */
	for (i = 0; i < k->npcpu; i++)
		k->pcpu[i] += m.pstart;
	return 0;
}

/* The function holding return address ra, or NULL. */
static const char *function_of(const struct kmap_counter *k, uint64_t ra)
{
	size_t lo = 0, hi = k->ntext;

	ra--;			/* the call, not what follows it */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->text[mid].addr <= ra)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? k->text[lo - 1].name : NULL;
}

/* The address of the text symbol called name (the first), or 0. */
static uint64_t function_named(const struct kmap_counter *k, const char *name)
{
	size_t i;

	for (i = 0; i < k->ntext; i++)
		if (!strcmp(k->text[i].name, name))
			return k->text[i].addr;
	return 0;
}

static int has_prefix(const char *name, const char *const *prefixes)
{
	for (; *prefixes; prefixes++)
		if (!strncmp(name, *prefixes, strlen(*prefixes)))
			return 1;
	return 0;
}

/* The allocators' and free functions' own frames, skipped for a call site. */
static const char *const page_allocator[] = {
	"__traceiter_", "__alloc_pages", "alloc_pages", "__alloc_frozen_pages",
	"alloc_frozen_pages", "folio_alloc", "__folio_alloc", "vma_alloc_folio",
	"__get_free_pages", "get_free_pages", "get_zeroed_page",
	"get_page_from_freelist",
	"stack_trace_save", "arch_stack_walk", NULL,
};
/* A page allocation under these is its user's: no object of its own. */
static const char *const page_users[] = {
	"allocate_slab", "new_slab", "alloc_slab_page", "___kmalloc_large",
	"__kmalloc_large", "kmalloc_large", "__vmalloc_area_node",
	"vm_area_alloc_pages", "pcpu_alloc_pages", "pcpu_populate_chunk", NULL,
};
static const char *const page_free[] = {
	"__traceiter_", "__free_pages", "free_unref_page", "free_unref_folios",
	"free_pages", "__free_pages_ok", "free_pages_exact", "__folio_put",
	"folios_put_refs", "release_pages", "free_frozen_pages",
	"__free_frozen_pages", "stack_trace_save", "arch_stack_walk", NULL,
};
static const char *const vmalloc_alloc[] = {
	"__traceiter_", "alloc_vmap_area", "__get_vm_area", "get_vm_area",
	"__vmalloc", "vmalloc", "vzalloc", "__kvmalloc", "kvmalloc", "kvzalloc",
	"vmap", "__ioremap", "ioremap", "stack_trace_save", "arch_stack_walk",
	NULL,
};
/* A vmalloc area under these is a task's stack: the stack is the object. */
static const char *const vmalloc_users[] = {
	"alloc_thread_stack_node", "dup_task_struct", "copy_process",
	"kernel_clone", NULL,
};
static const char *const vmalloc_free[] = {
	"__traceiter_", "free_vmap_area_noflush", "free_unmap_vmap_area",
	"remove_vm_area", "vfree", "__vfree", "vunmap", "kvfree",
	"vm_remove_mappings", "iounmap", "free_vm_area", "stack_trace_save",
	"arch_stack_walk", NULL,
};
static const char *const module_unload[] = {
	"__traceiter_", "notifier_call_chain", "blocking_notifier_call_chain",
	"stack_trace_save", "arch_stack_walk", NULL,
};
static const char *const percpu_free[] = {
	"__traceiter_", "free_percpu", "pcpu_free_area", "stack_trace_save",
	"arch_stack_walk", NULL,
};

/*
 * The call site among return addresses args[from..nargs): the first
 * outside the labeling module and the functions @skip names; 0 if none.
 * -1 when a frame is one of @users (when given): no object of its own.
 */
static int pick_site(const struct kmap_counter *k, const struct vstate *v,
		     unsigned int from, const char *const *skip,
		     const char *const *users, uint64_t *site)
{
	unsigned int i;

	*site = 0;
	for (i = from; i < v->nargs; i++) {
		uint64_t ra = (uint64_t)v->args[i];
		const char *fn;

		if (ra >= k->mod_text && ra < k->mod_text_end)
			continue;
		fn = function_of(k, ra);
		if (users && fn && has_prefix(fn, users))
			return -1;
		if (!*site && !(fn && has_prefix(fn, skip)))
			*site = ra;
		if (*site && !users)
			break;
	}
	return 0;
}

/* ---- the page index ---- */

static size_t slot_hash(uint64_t page, size_t n)
{
	return (size_t)((page * 0x9e3779b97f4a7c15ull) >> 20) & (n - 1);
}

static struct page_slot *slot_find(const struct kmap_counter *k, uint64_t page)
{
	size_t i = slot_hash(page, k->nslots);

	for (;; i = (i + 1) & (k->nslots - 1)) {
		struct page_slot *s = &k->slots[i];

		if (s->page == page)
			return s;
		if (!s->page)
			return NULL;
	}
}

static int slots_grow(struct kmap_counter *k)
{
	size_t n = k->nslots ? k->nslots * 2 : 65536, i;
	struct page_slot *old = k->slots, *s = calloc(n, sizeof(*s));

	if (!s)
		return -1;
	for (i = 0; i < k->nslots; i++) {
		size_t j;

		if (!old[i].page)
			continue;
		for (j = slot_hash(old[i].page, n); s[j].page; j = (j + 1) & (n - 1))
			;
		s[j] = old[i];
	}
	free(old);
	k->slots = s;
	k->nslots = n;
	return 0;
}

static struct page_slot *slot_get(struct kmap_counter *k, uint64_t page)
{
	struct page_slot *s;
	size_t i;

	if (k->nslots && (s = slot_find(k, page)))
		return s;
	if ((k->used_slots + 1) * 2 > k->nslots && slots_grow(k))
		return NULL;
	for (i = slot_hash(page, k->nslots); k->slots[i].page;
	     i = (i + 1) & (k->nslots - 1))
		;
	k->slots[i].page = page;
	k->used_slots++;
	return &k->slots[i];
}

/* Before b in a page's order: by start, and the larger first. */
static int obj_before(const struct obj *a, const struct obj *b)
{
	return a->addr < b->addr || (a->addr == b->addr && a->size > b->size);
}

static int index_add(struct kmap_counter *k, struct obj *o)
{
	uint64_t p, last = (o->addr + o->size - 1) >> PAGE_SHIFT_4K;

	for (p = o->addr >> PAGE_SHIFT_4K; p <= last; p++) {
		struct page_slot *s = slot_get(k, p);
		uint32_t lo = 0, hi;

		if (!s)
			return -1;
		if (s->n == s->cap) {
			uint32_t c = s->cap ? s->cap * 2 : 4;
			struct obj **v = realloc(s->v, c * sizeof(*v));

			if (!v)
				return -1;
			s->v = v;
			s->cap = c;
		}
		hi = s->n;
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;

			if (obj_before(s->v[mid], o))
				lo = mid + 1;
			else
				hi = mid;
		}
		memmove(&s->v[lo + 1], &s->v[lo], (s->n - lo) * sizeof(*s->v));
		s->v[lo] = o;
		s->n++;
	}
	return 0;
}

static void index_remove(struct kmap_counter *k, struct obj *o)
{
	uint64_t p, last = (o->addr + o->size - 1) >> PAGE_SHIFT_4K;

	for (p = o->addr >> PAGE_SHIFT_4K; p <= last; p++) {
		struct page_slot *s = slot_find(k, p);
		uint32_t i;

		if (!s)
			continue;
		for (i = 0; i < s->n && s->v[i] != o; i++)
			;
		if (i == s->n)
			continue;
		memmove(&s->v[i], &s->v[i + 1], (s->n - i - 1) * sizeof(*s->v));
		s->n--;
	}
}

/* The innermost object holding address a, or NULL. */
static struct obj *lookup(const struct kmap_counter *k, uint64_t a)
{
	const struct page_slot *s;
	uint32_t lo = 0, hi, i;

	if (!k->nslots || !(s = slot_find(k, a >> PAGE_SHIFT_4K)))
		return NULL;
	hi = s->n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (s->v[mid]->addr <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i-- > 0 && lo - i <= SCAN_BACK;)
		if (a - s->v[i]->addr < s->v[i]->size)
			return s->v[i];
	return NULL;
}

/* The slab from before the module that holds address a, or NULL. */
static struct slab *slab_of(const struct kmap_counter *k, uint64_t a)
{
	const struct page_slot *s;

	if (!k->nslots || !(s = slot_find(k, a >> PAGE_SHIFT_4K)))
		return NULL;
	return s->slab;
}

static void slab_forget(struct kmap_counter *k, struct slab *b)
{
	uint64_t p, last = (b->addr + b->size - 1) >> PAGE_SHIFT_4K;

	for (p = b->addr >> PAGE_SHIFT_4K; p <= last; p++) {
		struct page_slot *s = slot_find(k, p);

		if (s && s->slab == b)
			s->slab = NULL;
	}
	free(b->labeled);
	free(b);
}

/* The slot of a slab from before the module at addr: labeled now. */
static void slab_labeled(const struct kmap_counter *k, uint64_t addr)
{
	struct slab *b = slab_of(k, addr);
	uint64_t i;

	if (!b)
		return;
	i = (addr - b->addr) / b->stride;
	b->labeled[i / 8] |= (uint8_t)(1u << (i % 8));
}

static int slab_slot_labeled(const struct slab *b, uint64_t slot)
{
	uint64_t i = (slot - b->addr) / b->stride;

	return b->labeled[i / 8] >> (i % 8) & 1;
}

/* ---- counters ---- */

static uint32_t cell_slot(uint64_t ip, uint32_t pid, uint32_t cap)
{
	uint64_t h = (ip ^ (uint64_t)pid << 40) * 0x9e3779b97f4a7c15ull;

	return (uint32_t)(h >> 40) & (cap - 1);
}

static int cells_grow(struct obj *o)
{
	uint32_t cap = o->cap ? o->cap * 2 : 4, i;
	struct cell *t = calloc(cap, sizeof(*t));

	if (!t)
		return -1;
	for (i = 0; i < o->cap; i++) {
		const struct cell *c = &o->cells[i];
		uint32_t j;

		if (!c->ip)
			continue;
		for (j = cell_slot(c->ip, c->pid, cap); t[j].ip; j = (j + 1) & (cap - 1))
			;
		t[j] = *c;
	}
	free(o->cells);
	o->cells = t;
	o->cap = cap;
	return 0;
}

/* o's counter of (ip, pid), made if new; NULL past max_cells. */
static struct cell *cell_get(struct kmap_counter *k, struct obj *o,
			     uint64_t ip, uint32_t pid)
{
	struct cell *c;
	uint32_t j;

	if (o->cap) {
		for (j = cell_slot(ip, pid, o->cap);; j = (j + 1) & (o->cap - 1)) {
			c = &o->cells[j];
			if (c->ip == ip && c->pid == pid)
				return c;
			if (!c->ip)
				break;
		}
	}
	if (k->ncells >= k->max_cells)
		return NULL;
	if ((o->ncells + 1) * 4 > o->cap * 3 && cells_grow(o))
		return NULL;
	for (j = cell_slot(ip, pid, o->cap); o->cells[j].ip; j = (j + 1) & (o->cap - 1))
		;
	c = &o->cells[j];
	c->ip = ip;
	c->pid = pid;
	c->lo = UINT32_MAX;
	o->ncells++;
	if (++k->ncells > k->peak_cells)
		k->peak_cells = k->ncells;
	return c;
}

/* An ACCESS record of o's counter c, with these counts. */
static void write_access(struct kmap_counter *k, struct obj *o,
			 const struct cell *c, uint64_t reads, uint64_t writes,
			 unsigned int cpu)
{
	struct memorizer_rec_access r;

	memset(&r, 0, sizeof(r));
	r.id = o->id;
	r.ip = c->ip;
	r.pid = (int32_t)c->pid;
	r.offset = c->lo;
	r.offset_end = c->hi;
	r.writes = writes;
	r.reads = reads;
	put(k, &r, MEMORIZER_REC_ACCESS, sizeof(r), cpu);
	o->nr_access++;
}

/* Write o's counters as ACCESS records and forget them. */
static void flush_cells(struct kmap_counter *k, struct obj *o, unsigned int cpu)
{
	uint32_t i;

	for (i = 0; i < o->cap; i++) {
		const struct cell *c = &o->cells[i];

		if (c->ip && (c->reads || c->writes))
			write_access(k, o, c, c->reads, c->writes, cpu);
	}
	k->ncells -= o->ncells;
	free(o->cells);
	o->cells = NULL;
	o->ncells = o->cap = 0;
}

/* ---- objects ---- */

static void write_alloc(struct kmap_counter *k, struct obj *o, unsigned int cpu)
{
	struct memorizer_rec_alloc r;

	memset(&r, 0, sizeof(r));
	o->id = ++k->next_id;
	r.id = o->id;
	r.addr = o->addr;
	r.call_site = o->call_site;
	r.jiffies = o->jiffies;
	r.size = o->size_req;
	r.size_alloc = o->size_alloc;
	r.pid = o->pid;
	r.cache_id = o->cache_id;
	r.kind = o->kind;
	r.context = o->context;
	put(k, &r, MEMORIZER_REC_ALLOC, sizeof(r), cpu);
}

static void forget(struct kmap_counter *k, struct obj *o)
{
	unsigned int i;

	index_remove(k, o);
	for (i = 0; i < k->nvcpus; i++)
		if (k->v[i].last_obj == o)
			k->v[i].last_obj = NULL;
	o->prev->next = o->next;
	o->next->prev = o->prev;
	k->nobjs--;
	free(o);
}

static void drain_all(struct kmap_counter *k);

/* o is freed (by api at site): its counters, its FREE, and it is gone. */
static void close_obj(struct kmap_counter *k, struct obj *o, unsigned int cpu,
		      uint8_t api, uint64_t site)
{
	drain_all(k);		/* an access deferred may be on o (settle()) */
	if (o->id) {
		struct memorizer_rec_free r;

		flush_cells(k, o, cpu);
		memset(&r, 0, sizeof(r));
		r.id = o->id;
		r.call_site = site;
		r.jiffies = jiffies_now(k);
		r.api = api;
		r.nr_access = o->nr_access;
		put(k, &r, MEMORIZER_REC_FREE, sizeof(r), cpu);
		k->frees++;
		if (api == MEMORIZER_FREE_MISSED)
			k->missed++;
	}
	forget(k, o);
}

#define ANY_LAYER	0xff

/*
 * Live objects of layer l (or any) over [addr, addr + size), closed by
 * api at site.
 */
static void close_layer(struct kmap_counter *k, unsigned int cpu, uint8_t l,
			uint64_t addr, uint64_t size, uint8_t api,
			uint64_t site)
{
	uint64_t p, last = (addr + size - 1) >> PAGE_SHIFT_4K;

	for (p = addr >> PAGE_SHIFT_4K; p <= last; p++) {
		struct page_slot *s = k->nslots ? slot_find(k, p) : NULL;
		uint32_t i = 0;

		while (s && i < s->n) {
			struct obj *o = s->v[i];

			if ((l == ANY_LAYER || o->layer == l) &&
			    o->addr < addr + size &&
			    addr < o->addr + o->size) {
				close_obj(k, o, cpu, api, site);
				continue;	/* s->v[i] is the next one now */
			}
			i++;
		}
	}
}

/* What [addr, addr + size) overlaps of layer l (or any): missed frees. */
static void close_overlaps(struct kmap_counter *k, unsigned int cpu,
			   uint8_t l, uint64_t addr, uint64_t size)
{
	close_layer(k, cpu, l, addr, size, MEMORIZER_FREE_MISSED, MISSED_SITE);
}

/*
 * A new object; written now unless found (its first access writes it).
 * An allocator hands out free memory: what a new allocation overlaps is
 * gone, its free missed (a stack's pages reused, a slab's own objects when
 * it is freed whole). A found object (a stack in its vmalloc area) only
 * replaces one of its kind.
 */
static struct obj *new_obj(struct kmap_counter *k, unsigned int cpu,
			   uint8_t layer, uint8_t kind, uint64_t addr,
			   uint64_t size, int found)
{
	struct obj *o;
	unsigned int i;

	if (!size || addr < KERNEL_HALF || addr + size < addr)
		return NULL;
	close_overlaps(k, cpu, found ? layer : ANY_LAYER, addr, size);
	/* Its first 40 bytes in one cache line (struct obj). */
	o = aligned_alloc(64, (sizeof(*o) + 63) & ~(size_t)63);
	if (!o)
		return NULL;
	memset(o, 0, sizeof(*o));
	o->addr = addr;
	o->size = size;
	o->size_req = o->size_alloc = size > UINT32_MAX ? UINT32_MAX : (uint32_t)size;
	o->layer = layer;
	o->kind = kind;
	o->context = found ? MEMORIZER_CONTEXT_FOUND : MEMORIZER_CONTEXT_TASK;
	o->call_site = addr;		/* a found object's marker */
	if (index_add(k, o)) {
		index_remove(k, o);
		free(o);
		return NULL;
	}
	o->next = &k->all;
	o->prev = k->all.prev;
	k->all.prev->next = o;
	k->all.prev = o;
	k->nobjs++;
	k->objects++;
	/* It may hold a vCPU's last object: look up again. */
	for (i = 0; i < k->nvcpus; i++)
		k->v[i].last_obj = NULL;
	return o;
}

/* A labelled allocation: context and pid from the label, written now. */
static void made(struct kmap_counter *k, unsigned int cpu, struct obj *o,
		 int64_t context, uint32_t pid, uint64_t site)
{
	if (!o)
		return;
	o->context = context >= 0 && context <= 2 ? (uint8_t)context : 0;
	o->pid = o->context == MEMORIZER_CONTEXT_TASK &&
		 pid != MTRACE_PID_UNKNOWN ? (int32_t)pid : 0;
	o->call_site = site;
	o->jiffies = jiffies_now(k);
	write_alloc(k, o, cpu);
}

/* The live object of @layer starting at addr (of @kind, unless -1). */
static struct obj *obj_at(const struct kmap_counter *k, uint64_t addr,
			  int layer, int kind)
{
	const struct page_slot *s;
	uint32_t i;

	if (!k->nslots || !(s = slot_find(k, addr >> PAGE_SHIFT_4K)))
		return NULL;
	for (i = 0; i < s->n; i++) {
		struct obj *o = s->v[i];

		if (o->addr == addr && o->layer == layer &&
		    (kind < 0 || o->kind == kind))
			return o;
	}
	return NULL;
}

/*
 * The slabs from before the module over [addr, addr + size) are gone
 * (their pages freed or allocated again), and the objects found in them
 * that no free closed: missed frees.
 */
static void close_slabs(struct kmap_counter *k, unsigned int cpu,
			uint64_t addr, uint64_t size)
{
	uint64_t p, last = (addr + size - 1) >> PAGE_SHIFT_4K;

	for (p = addr >> PAGE_SHIFT_4K; p <= last; p++) {
		struct slab *b = slab_of(k, p << PAGE_SHIFT_4K);

		if (!b)
			continue;
		close_layer(k, cpu, L_SLAB, b->addr, b->size,
			    MEMORIZER_FREE_MISSED, MISSED_SITE);
		slab_forget(k, b);
	}
}

static void slab_add(struct kmap_counter *k, unsigned int cpu, uint64_t addr,
		     uint64_t size, uint32_t stride, const struct cache_map *m)
{
	uint64_t p, last = (addr + size - 1) >> PAGE_SHIFT_4K;
	struct slab *b;

	if (addr < KERNEL_HALF || addr & ((1u << PAGE_SHIFT_4K) - 1) ||
	    !size || addr + size < addr || stride < m->size) {
		k->bad_labels++;
		return;
	}
	close_slabs(k, cpu, addr, size);
	b = calloc(1, sizeof(*b));
	if (!b || !(b->labeled = calloc(size / stride / 8 + 1, 1))) {
		free(b);
		return;
	}
	b->addr = addr;
	b->size = size;
	b->stride = stride;
	b->object_size = m->size;
	b->cache_id = m->id;
	b->kind = m->kmalloc ? MEMORIZER_ALLOC_KMALLOC : MEMORIZER_ALLOC_CACHE;
	for (p = addr >> PAGE_SHIFT_4K; p <= last; p++) {
		struct page_slot *s = slot_get(k, p);

		if (!s) {
			slab_forget(k, b);
			return;
		}
		s->slab = b;
	}
	k->slabs++;
}

/* n accesses by (ip, pid) to [vaddr, vend), on o. */
static inline void count_on(struct kmap_counter *k, unsigned int cpu,
			    struct obj *o, uint64_t vaddr, uint64_t vend,
			    uint64_t ip, uint32_t pid, int write, uint64_t n)
{
	struct cell *c;
	uint64_t off, end;

	if (!o->id) {
		o->jiffies = jiffies_now(k);
		write_alloc(k, o, cpu);
		k->found++;
	}
	c = cell_get(k, o, ip, pid);
	if (!c) {
		k->dropped += n;
		return;
	}
	off = vaddr - o->addr;
	end = vend - o->addr < o->size ? vend - o->addr : o->size;
	if (off < c->lo)
		c->lo = (uint32_t)off;
	if (end > c->hi)
		c->hi = (uint32_t)end;
	k->attributed += n;
	if (write) {
		if (__builtin_expect((uint64_t)c->writes + n < KMAP_COUNT_MAX, 1)) {
			c->writes += (uint32_t)n;
			return;
		}
		write_access(k, o, c, c->reads, c->writes + n, cpu);
	} else {
		if (__builtin_expect((uint64_t)c->reads + n < KMAP_COUNT_MAX, 1)) {
			c->reads += (uint32_t)n;
			return;
		}
		write_access(k, o, c, c->reads + n, c->writes, cpu);
	}
	c->reads = c->writes = 0;
}

/* Every vCPU's deferred accesses, counted now. */
static void drain_all(struct kmap_counter *k)
{
	unsigned int cpu;

	for (cpu = 0; cpu < k->nvcpus; cpu++) {
		struct vstate *v = &k->v[cpu];

		for (; v->ndefer; v->ndefer--) {
			const struct deferred *d = &v->defer[v->dhead];

			v->dhead = (v->dhead + 1) % DEFERRED;
			count_on(k, cpu, d->o, d->vaddr, d->vaddr + d->size,
				 d->ip, d->pid, d->write, 1);
		}
	}
}

/* An access on o: its counter prefetched, the oldest deferred counted. */
static inline void defer(struct kmap_counter *k, unsigned int cpu,
			 struct obj *o, uint64_t vaddr, unsigned int size,
			 uint64_t ip, uint32_t pid, int write)
{
	struct vstate *v = &k->v[cpu];
	struct deferred *d;

	if (o->cap)
		__builtin_prefetch(&o->cells[cell_slot(ip, pid, o->cap)], 1);
	if (v->ndefer == DEFERRED) {
		d = &v->defer[v->dhead];
		v->dhead = (v->dhead + 1) % DEFERRED;
		count_on(k, cpu, d->o, d->vaddr, d->vaddr + d->size, d->ip,
			 d->pid, d->write, 1);
	} else {
		d = &v->defer[(v->dhead + v->ndefer++) % DEFERRED];
	}
	d->o = o;
	d->vaddr = vaddr;
	d->ip = ip;
	d->pid = pid;
	d->size = (uint8_t)size;
	d->write = (uint8_t)write;
}

/*
 * A run of accesses on no object, now: on the object that holds it all
 * (the one a label since has made), else on a slab's slot from before the
 * module (found now), else on none.
 */
static void settle(struct kmap_counter *k, unsigned int cpu,
		   const struct pending *p)
{
	struct obj *o = lookup(k, p->lo);
	struct slab *b;

	if (!o && p->slot && (b = slab_of(k, p->slot)) &&
	    (p->slot - b->addr) % b->stride == 0 &&
	    !slab_slot_labeled(b, p->slot) &&
	    (o = new_obj(k, cpu, L_SLAB, b->kind, p->slot, b->object_size, 1)))
		o->cache_id = b->cache_id;
	if (o && p->hi - o->addr <= o->size)
		count_on(k, cpu, o, p->lo, p->hi, p->ip, p->pid, p->write,
			 p->n);
	else
		k->unattributed += p->n;
}

static void settle_all(struct kmap_counter *k, unsigned int cpu)
{
	struct vstate *v = &k->v[cpu];
	unsigned int i;

	for (i = 0; i < v->npend; i++)
		settle(k, cpu, &v->pend[i]);
	v->npend = 0;
}

/* An access on no object: held, run with the like, until settled. */
static void pend(struct kmap_counter *k, unsigned int cpu, uint64_t vaddr,
		 unsigned int size, uint64_t ip, uint32_t pid, int write)
{
	struct vstate *v = &k->v[cpu];
	uint64_t slot = 0, vend = vaddr + size;
	struct slab *b = slab_of(k, vaddr);
	struct pending *p;
	unsigned int i;

	if (b) {
		uint64_t s = b->addr + (vaddr - b->addr) / b->stride * b->stride;

		if (vend - s <= b->object_size)
			slot = s;
	}
	for (i = v->npend; i-- > 0;) {
		p = &v->pend[i];
		if (p->ip != ip || p->pid != pid || p->write != write ||
		    p->slot != slot)
			continue;
		/* A slot is one object; else adjacent bytes, in one page. */
		if (slot || (vaddr <= p->hi && vend >= p->lo &&
			     !((vaddr ^ p->lo) >> PAGE_SHIFT_4K) &&
			     !(((vend - 1) ^ p->lo) >> PAGE_SHIFT_4K))) {
			p->lo = vaddr < p->lo ? vaddr : p->lo;
			p->hi = vend > p->hi ? vend : p->hi;
			p->n++;
			return;
		}
	}
	if (v->npend == PENDING) {
		settle(k, cpu, &v->pend[0]);
		memmove(&v->pend[0], &v->pend[1],
			(PENDING - 1) * sizeof(v->pend[0]));
		v->npend--;
	}
	p = &v->pend[v->npend++];
	p->lo = vaddr;
	p->hi = vend;
	p->ip = ip;
	p->n = 1;
	p->slot = slot;
	p->pid = pid;
	p->write = write;
}

/* ---- caches ---- */

static struct cache_map *cache_slot(struct kmap_counter *k, uint64_t ptr)
{
	size_t i;

	if ((k->ncaches + 1) * 2 > k->ncaches_slots) {
		size_t n = k->ncaches_slots ? k->ncaches_slots * 2 : 1024, j;
		struct cache_map *c = calloc(n, sizeof(*c));

		if (!c)
			return NULL;
		for (j = 0; j < k->ncaches_slots; j++) {
			size_t h;

			if (!k->caches[j].ptr)
				continue;
			for (h = slot_hash(k->caches[j].ptr, n); c[h].ptr;
			     h = (h + 1) & (n - 1))
				;
			c[h] = k->caches[j];
		}
		free(k->caches);
		k->caches = c;
		k->ncaches_slots = n;
	}
	for (i = slot_hash(ptr, k->ncaches_slots); k->caches[i].ptr &&
	     k->caches[i].ptr != ptr; i = (i + 1) & (k->ncaches_slots - 1))
		;
	if (!k->caches[i].ptr) {
		k->caches[i].ptr = ptr;
		k->ncaches++;
	}
	return &k->caches[i];
}

static uint32_t write_cache(struct kmap_counter *k, unsigned int cpu,
			    const char *name)
{
	struct memorizer_rec_cache r;

	memset(&r, 0, sizeof(r));
	r.cache_id = ++k->next_cache;
	memcpy(r.name, name, strnlen(name, sizeof(r.name) - 1));
	put(k, &r, MEMORIZER_REC_CACHE, sizeof(r), cpu);
	return r.cache_id;
}

/* n values of 8 bytes from args[from], NUL-padded, as a string. */
static void args_string(const struct vstate *v, unsigned int from,
			unsigned int n, char *s, size_t len)
{
	unsigned int i, j;
	size_t at = 0;

	for (i = 0; i < n && from + i < v->nargs; i++)
		for (j = 0; j < 8 && at + 1 < len; j++)
			s[at++] = (char)((uint64_t)v->args[from + i] >> (8 * j));
	s[at] = 0;
}

/* ---- labels ---- */

static void hello(struct kmap_counter *k, const struct vstate *v)
{
	static const uint16_t sizes[MEMORIZER_REC_NR_TYPES] = MEMORIZER_REC_SIZES;
	struct memorizer_stream_header h;
	unsigned int i;

	if (v->nargs >= 1 && v->args[0] != MTRACE_LABEL_VERSION)
		k->other_version = v->args[0];
	if (v->nargs < 6 || v->args[0] != MTRACE_LABEL_VERSION || k->said_hello) {
		k->bad_labels++;
		return;
	}
	k->hz = (uint32_t)v->args[1];
	k->nr_cpu_ids = (uint32_t)v->args[2];
	k->page_size = (uint32_t)v->args[3];
	k->mod_text = (uint64_t)v->args[4];
	k->mod_text_end = k->mod_text + (uint64_t)v->args[5];
	if (!k->hz || !k->nr_cpu_ids || k->nr_cpu_ids > 65536 ||
	    !(k->percpu_off = malloc(k->nr_cpu_ids * sizeof(uint64_t)))) {
		k->bad_labels++;
		return;
	}
	memset(k->percpu_off, 0xff, k->nr_cpu_ids * sizeof(uint64_t));
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, MEMORIZER_STREAM_MAGIC, 8);
	h.version = MEMORIZER_STREAM_VERSION;
	h.header_size = sizeof(h);
	h.nr_types = MEMORIZER_REC_NR_TYPES;
	h.nr_cpus = (uint16_t)k->nvcpus;
	h.hz = k->hz;
	h.page_size = k->page_size;
	for (i = 0; i < MEMORIZER_REC_NR_TYPES; i++)
		h.rec_size[i] = sizes[i];
	if (fwrite(&h, sizeof(h), 1, k->f) != 1 && !k->write_errno)
		k->write_errno = errno ? errno : EIO;
	k->bytes += sizeof(h);
	k->t0 = now_ns();
	k->said_hello = 1;
	k->labeling = 1;
	/* The image's data: found objects, one per symbol. */
	for (i = 0; i < k->ndata; i++) {
		uint64_t end = i + 1 < k->ndata ? k->data[i + 1] : k->data_end;

		new_obj(k, 0, L_GLOBAL, MEMORIZER_ALLOC_GLOBAL, k->data[i],
			end - k->data[i], 1);
	}
}

static void percpu_area(struct kmap_counter *k, const struct vstate *v)
{
	uint64_t cpu = (uint64_t)v->args[0], off = (uint64_t)v->args[1];
	size_t i;

	if (v->nargs < 2 || cpu >= k->nr_cpu_ids) {
		k->bad_labels++;
		return;
	}
	k->percpu_off[cpu] = off;
	for (i = 0; i < k->npcpu; i++) {
		uint64_t end = i + 1 < k->npcpu ? k->pcpu[i + 1] : k->pcpu_end;

		new_obj(k, 0, L_PERCPU, MEMORIZER_ALLOC_PERCPU, k->pcpu[i] + off,
			end - k->pcpu[i], 1);
	}
}

static void task_comm(struct kmap_counter *k, const struct vstate *v)
{
	struct memorizer_rec_task r;
	unsigned int i;

	if (v->nargs < 3) {
		k->bad_labels++;
		return;
	}
	memset(&r, 0, sizeof(r));
	r.pid = (int32_t)v->args[0];
	args_string(v, 1, 2, r.comm, sizeof(r.comm));
	/* A pid's command is looked up per CPU: every vCPU's. */
	for (i = 0; i < k->nvcpus; i++)
		put(k, &r, MEMORIZER_REC_TASK, sizeof(r), i);
}

/* Arguments an event needs at least (HELLO: its version; hello() checks). */
static const unsigned int nargs_of[MTRACE_LABEL_NR_EVENTS] = {
	[MTRACE_LABEL_HELLO] = 1, [MTRACE_LABEL_PERCPU_AREA] = 2,
	[MTRACE_LABEL_CACHE] = 6, [MTRACE_LABEL_CACHE_ALLOC] = 4,
	[MTRACE_LABEL_KMALLOC] = 5, [MTRACE_LABEL_SLAB_FREE] = 4,
	[MTRACE_LABEL_PAGES] = 3, [MTRACE_LABEL_PAGES_FREE] = 2,
	[MTRACE_LABEL_VMALLOC] = 3, [MTRACE_LABEL_VFREE] = 2,
	[MTRACE_LABEL_PERCPU] = 4, [MTRACE_LABEL_PERCPU_FREE] = 2,
	[MTRACE_LABEL_STACK] = 4, [MTRACE_LABEL_STACK_FREE] = 2,
	[MTRACE_LABEL_COMM] = 3, [MTRACE_LABEL_GLOBAL] = 2,
	[MTRACE_LABEL_MODULE_GONE] = 2, [MTRACE_LABEL_SLAB_PAGES] = 4,
	[MTRACE_LABEL_VMALLOC_EARLY] = 4,
};

static const uint8_t makes_object[MTRACE_LABEL_NR_EVENTS] = {
	[MTRACE_LABEL_CACHE_ALLOC] = 1, [MTRACE_LABEL_KMALLOC] = 1,
	[MTRACE_LABEL_PAGES] = 1, [MTRACE_LABEL_VMALLOC] = 1,
	[MTRACE_LABEL_PERCPU] = 1, [MTRACE_LABEL_STACK] = 1,
};

static void event(struct kmap_counter *k, unsigned int cpu, unsigned int e,
		  uint32_t pid)
{
	const struct vstate *v = &k->v[cpu];
	const int64_t *a = v->args;
	struct slab *b;
	struct obj *o;
	uint64_t site;
	unsigned int c;

	if (e == MTRACE_LABEL_NONE)
		return;
	/* No deferred access crosses a label: the stream keeps their order. */
	drain_all(k);
	if (e >= MTRACE_LABEL_NR_EVENTS || v->nargs < nargs_of[e] ||
	    v->overflow || (e != MTRACE_LABEL_HELLO && !k->said_hello)) {
		k->bad_labels++;
		return;
	}
	k->labels++;
	if (e == MTRACE_LABEL_HELLO) {
		hello(k, v);
		return;
	}
	if (e == MTRACE_LABEL_BYE) {
		for (c = 0; c < k->nvcpus; c++)
			settle_all(k, c);
		k->counting = k->labeling = 0;
		return;
	}
	if (!k->labeling)
		return;
	if (e == MTRACE_LABEL_READY) {
		k->counting = 1;
		return;
	}
	switch (e) {
	case MTRACE_LABEL_PERCPU_AREA:
		percpu_area(k, v);
		break;
	case MTRACE_LABEL_COMM:
		task_comm(k, v);
		break;
	case MTRACE_LABEL_CACHE: {
		struct cache_map *m = cache_slot(k, (uint64_t)a[0]);
		char name[33];

		if (!m)
			break;
		args_string(v, 2, 4, name, sizeof(name));
		m->size = (uint32_t)a[1];
		m->kmalloc = !strncmp(name, "kmalloc-", 8);
		m->id = write_cache(k, cpu, name[0] ? name : "(unnamed)");
		break;
	}
	case MTRACE_LABEL_CACHE_ALLOC: {
		struct cache_map *m = cache_slot(k, (uint64_t)a[3]);

		if (!m || !m->size) {
			k->bad_labels++;
			break;
		}
		o = new_obj(k, cpu, L_SLAB, MEMORIZER_ALLOC_CACHE, (uint64_t)a[1],
			    m->size, 0);
		if (o)
			o->cache_id = m->id;
		made(k, cpu, o, a[0], pid, (uint64_t)a[2]);
		slab_labeled(k, (uint64_t)a[1]);
		break;
	}
	case MTRACE_LABEL_KMALLOC: {
		uint64_t req = (uint64_t)a[3], alloc = (uint64_t)a[4];
		int large = alloc > KMALLOC_MAX;

		o = new_obj(k, cpu, large ? L_PAGES : L_SLAB,
			    large ? MEMORIZER_ALLOC_KMALLOC_LARGE :
				    MEMORIZER_ALLOC_KMALLOC,
			    (uint64_t)a[1], alloc, 0);
		if (!o)
			break;
		o->size_req = (uint32_t)req;
		if (!large) {
			uint32_t *id = &k->kmalloc_cache[alloc / 8];
			char name[32];

			if (!*id) {
				snprintf(name, sizeof(name), "kmalloc-%" PRIu64, alloc);
				*id = write_cache(k, cpu, name);
			}
			o->cache_id = *id;
			slab_labeled(k, (uint64_t)a[1]);
		}
		made(k, cpu, o, a[0], pid, (uint64_t)a[2]);
		break;
	}
	case MTRACE_LABEL_SLAB_FREE:
		slab_labeled(k, (uint64_t)a[1]);
		o = obj_at(k, (uint64_t)a[1], L_SLAB, -1);
		if (!o)
			o = obj_at(k, (uint64_t)a[1], L_PAGES,
				   MEMORIZER_ALLOC_KMALLOC_LARGE);
		if (!o) {
			k->frees_unknown++;
			break;
		}
		close_obj(k, o, cpu, (uint8_t)a[3], (uint64_t)a[2]);
		break;
	case MTRACE_LABEL_PAGES:
		if (a[2] >= 0 && a[2] <= 20)
			close_slabs(k, cpu, (uint64_t)a[1],
				    (uint64_t)k->page_size << a[2]);
		if (pick_site(k, v, 3, page_allocator, page_users, &site) ||
		    a[2] < 0 || a[2] > 20) {
			k->not_objects++;
			break;
		}
		o = new_obj(k, cpu, L_PAGES, MEMORIZER_ALLOC_PAGES, (uint64_t)a[1],
			    (uint64_t)k->page_size << a[2], 0);
		made(k, cpu, o, a[0], pid, site);
		break;
	case MTRACE_LABEL_PAGES_FREE:
		pick_site(k, v, 2, page_free, NULL, &site);
		/* A task's stack without VMAP_STACK is pages, freed as such. */
		o = obj_at(k, (uint64_t)a[1], L_STACK, -1);
		if (o)
			close_obj(k, o, cpu, MEMORIZER_FREE_PAGES, site);
		o = obj_at(k, (uint64_t)a[1], L_PAGES, MEMORIZER_ALLOC_PAGES);
		if (o)
			close_obj(k, o, cpu, MEMORIZER_FREE_PAGES, site);
		b = slab_of(k, (uint64_t)a[1]);
		if (b && b->addr == (uint64_t)a[1])
			close_slabs(k, cpu, b->addr, b->size);
		break;
	case MTRACE_LABEL_VMALLOC:
		if (pick_site(k, v, 3, vmalloc_alloc, vmalloc_users, &site)) {
			k->not_objects++;
			break;
		}
		o = new_obj(k, cpu, L_VMALLOC, MEMORIZER_ALLOC_VMALLOC,
			    (uint64_t)a[1], (uint64_t)a[2], 0);
		made(k, cpu, o, a[0], pid, site);
		break;
	case MTRACE_LABEL_VFREE:
		pick_site(k, v, 2, vmalloc_free, NULL, &site);
		o = obj_at(k, (uint64_t)a[1], L_VMALLOC, -1);
		if (!o) {
			/* A stack's area (VMAP_STACK): the stack goes. */
			o = obj_at(k, (uint64_t)a[1], L_STACK, -1);
			if (o)
				close_obj(k, o, cpu, MEMORIZER_FREE_PAGES, site);
			else
				k->frees_unknown++;
			break;
		}
		/* A stack in it goes with it. */
		close_overlaps(k, cpu, L_STACK, o->addr, o->size);
		close_obj(k, o, cpu, MEMORIZER_FREE_VFREE, site);
		break;
	case MTRACE_LABEL_PERCPU:
		/*
		 * Found, as Memorizer's are: the stream's per-CPU objects
		 * are never seen allocated (the label's call site is not
		 * kept), only freed.
		 */
		for (c = 0; c < k->nr_cpu_ids; c++) {
			if (k->percpu_off[c] == ~0ull)
				continue;
			o = new_obj(k, cpu, L_PERCPU, MEMORIZER_ALLOC_PERCPU,
				    (uint64_t)a[1] + k->percpu_off[c],
				    (uint64_t)a[2], 1);
			if (o)
				o->dynamic = 1;
		}
		break;
	case MTRACE_LABEL_PERCPU_FREE:
		pick_site(k, v, 2, percpu_free, NULL, &site);
		for (c = 0; c < k->nr_cpu_ids; c++) {
			if (k->percpu_off[c] == ~0ull)
				continue;
			o = obj_at(k, (uint64_t)a[1] + k->percpu_off[c],
				   L_PERCPU, -1);
			if (o && o->dynamic)
				close_obj(k, o, cpu, MEMORIZER_FREE_PERCPU,
					  site);
		}
		break;
	case MTRACE_LABEL_STACK:
		o = new_obj(k, cpu, L_STACK, MEMORIZER_ALLOC_STACK,
			    (uint64_t)a[0], (uint64_t)a[1], 1);
		if (o)
			o->pid = (int32_t)a[2];
		break;
	case MTRACE_LABEL_GLOBAL:
		new_obj(k, cpu, L_GLOBAL, MEMORIZER_ALLOC_GLOBAL, (uint64_t)a[0],
			(uint64_t)a[1], 1);
		break;
	case MTRACE_LABEL_MODULE_GONE:
		pick_site(k, v, 2, module_unload, NULL, &site);
		close_layer(k, cpu, L_GLOBAL, (uint64_t)a[0], (uint64_t)a[1],
			    MEMORIZER_FREE_MODULE, site);
		break;
	case MTRACE_LABEL_SLAB_PAGES: {
		struct cache_map *m = cache_slot(k, (uint64_t)a[2]);

		if (!m || !m->size || a[3] <= 0 || a[3] > UINT32_MAX) {
			k->bad_labels++;
			break;
		}
		slab_add(k, cpu, (uint64_t)a[0], (uint64_t)a[1], (uint32_t)a[3], m);
		break;
	}
	case MTRACE_LABEL_VMALLOC_EARLY: {
		char name[49];

		args_string(v, 3, 6, name, sizeof(name));
		site = function_named(k, name);
		if (!site) {
			k->not_objects++;
			break;
		}
		o = new_obj(k, cpu, L_VMALLOC, MEMORIZER_ALLOC_VMALLOC,
			    (uint64_t)a[0], (uint64_t)a[1], 0);
		/* Made before the module, by no task it can name. */
		made(k, cpu, o, MEMORIZER_CONTEXT_TASK, 0, site + (uint64_t)a[2]);
		k->vmalloc_early += !!o;
		break;
	}
	case MTRACE_LABEL_STACK_FREE:
		o = obj_at(k, (uint64_t)a[0], L_STACK, -1);
		if (o && o->pid == (int32_t)a[1])
			close_obj(k, o, cpu, MEMORIZER_FREE_PAGES, 0);
		break;
	}
	/* What the allocator did before the tracepoint is the new object's. */
	if (makes_object[e])
		settle_all(k, cpu);
}

void kmap_counter_lbase(struct kmap_counter *k, uint64_t vaddr)
{
	k->lbase = vaddr;
}

void kmap_counter_mark(struct kmap_counter *k, unsigned int cpu, int marker,
		       uint64_t vaddr, uint32_t pid)
{
	struct vstate *v = &k->v[cpu];
	uint64_t off = vaddr - k->lbase;

	if (!k->lbase || off >= 4096) {
		k->bad_labels++;
		return;
	}
	if (marker == KMAP_MARK_EVENT) {
		if (off == MTRACE_LABEL_BEGIN) {
			v->in_label = 1;
			v->nargs = v->bits = 0;
			v->acc = 0;
			v->overflow = 0;
			return;
		}
		if (!v->in_label) {
			k->bad_labels++;
			return;
		}
		event(k, cpu, (unsigned int)off, pid);
		v->in_label = 0;
		return;
	}
	if (!v->in_label) {
		k->bad_labels++;
		return;
	}
	v->acc = v->acc << 12 | off;
	v->bits += 12;
	if (marker != KMAP_MARK_VAL_LAST)
		return;
	if (v->bits < 64 && (v->acc >> (v->bits - 1) & 1))
		v->acc |= ~0ull << v->bits;
	if (v->nargs < MTRACE_LABEL_MAX_ARGS)
		v->args[v->nargs++] = (int64_t)v->acc;
	else
		v->overflow = 1;
	v->acc = 0;
	v->bits = 0;
}

void kmap_counter_access(struct kmap_counter *k, unsigned int cpu,
			 uint64_t vaddr, unsigned int size, uint64_t ip,
			 uint32_t pid, int write)
{
	struct vstate *v = &k->v[cpu];
	struct obj *o;

	if (!k->counting)
		return;
	if (v->in_label) {
		k->in_label++;
		return;
	}
	if (ip >= k->mod_text && ip < k->mod_text_end) {
		k->module_own++;
		return;
	}
	if (vaddr - KASAN_SHADOW_START < KASAN_SHADOW_END - KASAN_SHADOW_START) {
		k->kasan_shadow++;
		return;
	}
	k->accesses++;
	if (vaddr < KERNEL_HALF) {
		k->user++;
		return;
	}
	if (pid == MTRACE_PID_UNKNOWN)
		pid = 0;
	o = v->last_obj;
	if (!o || vaddr - o->addr >= o->size) {
		o = lookup(k, vaddr);
		if (!o) {
			pend(k, cpu, vaddr, size, ip, pid, write);
			return;
		}
		v->last_obj = o;
	}
	defer(k, cpu, o, vaddr, size, ip, pid, write);
}

/* Everything k holds but its objects and its stream. */
static void free_counter(struct kmap_counter *k)
{
	size_t i;

	for (i = 0; i < k->nslots; i++) {
		const struct slab *b = k->slots[i].slab;

		if (b && b->addr >> PAGE_SHIFT_4K == k->slots[i].page) {
			free(b->labeled);
			free(k->slots[i].slab);
		}
		free(k->slots[i].v);
	}
	for (i = 0; i < k->ntext; i++)
		free(k->text[i].name);
	free(k->slots);
	free(k->caches);
	free(k->text);
	free(k->data);
	free(k->pcpu);
	free(k->percpu_off);
	free(k->path);
	free(k->v);
	free(k);
}

struct kmap_counter *kmap_counter_open(const struct kmap_counter_config *c,
				       char *err, size_t len)
{
	struct kmap_counter *k = calloc(1, sizeof(*k));

	if (!k || !(k->v = calloc(c->nr_vcpus, sizeof(*k->v))) ||
	    !(k->path = strdup(c->stream))) {
		snprintf(err, len, "mtrace: out of memory");
		goto fail;
	}
	k->nvcpus = c->nr_vcpus;
	k->max_cells = c->max_cells;
	k->all.next = k->all.prev = &k->all;
	if (read_system_map(k, c->system_map, err, len))
		goto fail;
	k->f = fopen(c->stream, "wb");
	if (!k->f) {
		snprintf(err, len, "mtrace: %s: %s", c->stream, strerror(errno));
		goto fail;
	}
	setvbuf(k->f, NULL, _IOFBF, 1 << 20);
	return k;
fail:
	if (k)
		free_counter(k);
	return NULL;
}

/*
 * At exit, the live objects' counters: a whole system's are millions of
 * records, seconds of writing, told on stderr (QEMU's: vm/run's log) at
 * most once a second. Returns the ACCESS records written.
 */
static uint64_t write_live(struct kmap_counter *k, uint64_t t0)
{
	uint64_t n = 0, records = k->records, shown = t0;
	struct obj *o;

	for (o = k->all.next; o != &k->all; o = o->next) {
		if (o->id && o->ncells)
			flush_cells(k, o, 0);
		if (!(++n & 1023) && now_ns() - shown >= 1000000000ull) {
			shown = now_ns();
			fprintf(stderr,
				"mtrace: writing kmap: %" PRIu64 " of %" PRIu64
				" objects, %.1f MiB\n", n, k->nobjs,
				k->bytes / 1048576.0);
		}
	}
	return k->records - records;
}

int kmap_counter_close(struct kmap_counter *k, char *msg, size_t len)
{
	struct obj *o, *next;
	uint64_t t0 = now_ns(), live;
	unsigned int cpu;
	int ret = 0, at;

	drain_all(k);
	for (cpu = 0; k->counting && cpu < k->nvcpus; cpu++)
		settle_all(k, cpu);
	k->counting = 0;
	/* The live objects' counters: no FREE follows them. */
	live = write_live(k, t0);
	if (fflush(k->f) && !k->write_errno)
		k->write_errno = errno;
	if (fclose(k->f) && !k->write_errno)
		k->write_errno = errno;
	if (k->write_errno) {
		snprintf(msg, len, "mtrace: %s: write error: %s", k->path,
			 strerror(k->write_errno));
		ret = -1;
	} else if (!k->said_hello && k->other_version) {
		snprintf(msg, len,
			 "mtrace: %s: no kmap: mtrace_label.ko speaks label convention %lld, this plugin %d: rebuild the module (scripts/build-mtrace-modules.sh)",
			 k->path, (long long)k->other_version,
			 MTRACE_LABEL_VERSION);
		ret = -1;
	} else if (!k->said_hello) {
		snprintf(msg, len,
			 "mtrace: %s: no kmap: mtrace_label.ko never loaded (no HELLO label)",
			 k->path);
		ret = -1;
	} else {
		/* What was written: a line of its own, then the summary. */
		at = snprintf(msg, len,
			      "mtrace: %s: kmap written: %" PRIu64 " objects, %"
			      PRIu64 " records, %.1f MiB; at exit %" PRIu64
			      " objects live, their counters %" PRIu64
			      " records, in %.1f s\n", k->path, k->next_id,
			      k->records, k->bytes / 1048576.0, k->nobjs, live,
			      (now_ns() - t0) / 1e9);
		if (at < 0 || (size_t)at >= len)
			at = 0;
		snprintf(msg + at, len - at,
			 "mtrace: %s: %" PRIu64 " kernel accesses counted, %" PRIu64
			 " on objects (%.2f%%), %" PRIu64 " to user addresses, %"
			 PRIu64 " on no object, %" PRIu64
			 " dropped (counters full); %" PRIu64 " objects (%" PRIu64
			 " found accessed), %" PRIu64 " freed (%" PRIu64
			 " missed), %" PRIu64 " frees of no object, %" PRIu64
			 " page and vmalloc allocations not objects, %" PRIu64
			 " slabs and %" PRIu64
			 " vmalloc areas from before the module; %" PRIu64 " labels, %"
			 PRIu64 " bad; not counted: %" PRIu64
			 " accesses inside labels, %" PRIu64
			 " by mtrace_label.ko, %" PRIu64
			 " to KASAN's shadow; counters: %zu at most (%zu bytes each, limit %"
			 PRIu64 "); %" PRIu64 " records, %" PRIu64 " bytes",
			 k->path, k->accesses, k->attributed,
			 k->accesses > k->user ?
			 100.0 * (double)k->attributed /
			 (double)(k->accesses - k->user) : 0.0,
			 k->user, k->unattributed, k->dropped, k->objects,
			 k->found, k->frees, k->missed, k->frees_unknown,
			 k->not_objects, k->slabs, k->vmalloc_early, k->labels,
			 k->bad_labels, k->in_label, k->module_own, k->kasan_shadow, k->peak_cells, sizeof(struct cell),
			 k->max_cells, k->records, k->bytes);
	}
	for (o = k->all.next; o != &k->all; o = next) {
		next = o->next;
		free(o->cells);
		free(o);
	}
	free_counter(k);
	return ret;
}
