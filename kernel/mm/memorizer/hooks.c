// SPDX-License-Identifier: GPL-2.0
/*
 * Memorizer's allocation and free hooks: the probes on the kmem
 * tracepoints, the hooks <linux/memorizer.h> gives the allocators that
 * have no tracepoint (bulk, vmalloc, krealloc() in place, the page
 * allocator's API), and page tracking. Each turns what it saw into a
 * record made or closed (records.c).
 */

#define pr_fmt(fmt) "memorizer: " fmt

#include <linux/export.h>
#include <linux/kallsyms.h>
#include <linux/memorizer.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>
#include <linux/vmalloc.h>
#include <trace/events/kmem.h>
#include <trace/events/percpu.h>

#include "../slab.h"
#include "memorizer.h"

DEFINE_STATIC_KEY_FALSE(memorizer_alloc_key);
/*
 * Modules use it in memorizer_page_alloc(), inline in the page allocator's
 * API macros. Those macros are for every module, as the functions behind
 * them are (EXPORT_SYMBOL): a GPL-only export would make them GPL-only.
 */
EXPORT_SYMBOL(memorizer_alloc_key);
DEFINE_STATIC_KEY_FALSE(memorizer_free_key);

static void track_alloc(enum memorizer_kind kind, const void *ptr,
			size_t size, size_t size_alloc, unsigned long ip,
			struct kmem_cache *s, unsigned int nr_aliases)
{
	if (ZERO_OR_NULL_PTR(ptr) || !memorizer_context_selected() ||
	    !memorizer_hook_enter())
		return;
	memorizer_record_make(kind, (unsigned long)ptr, size, size_alloc, ip,
			      memorizer_cache_id(s), nr_aliases);
	memorizer_hook_exit();
}

/* Frees are recorded whatever is selected: every record's life completes. */
static void track_free(const void *ptr, unsigned long ip)
{
	struct memorizer_record *rec;

	if (ZERO_OR_NULL_PTR(ptr) || !memorizer_hook_enter())
		return;
	rec = memorizer_record_at((unsigned long)ptr);
	if (rec)
		memorizer_record_close(rec, ip);
	memorizer_hook_exit();
}

/* The kmem tracepoints carry the allocator's caller: our call site. */
static void probe_kmalloc(void *ignore, unsigned long call_site,
			  const void *ptr, size_t bytes_req,
			  size_t bytes_alloc, gfp_t gfp_flags, int node)
{
	struct folio *folio;

	if (!static_branch_unlikely(&memorizer_alloc_key) || ZERO_OR_NULL_PTR(ptr))
		return;
	/* bytes_alloc counts KASAN's redzones; the usable size is wanted. */
	folio = virt_to_folio(ptr);
	if (folio_test_slab(folio)) {
		struct kmem_cache *s = folio_slab(folio)->slab_cache;

		track_alloc(MEMORIZER_KIND_KMALLOC, ptr, bytes_req,
			    s->object_size, call_site, s, 0);
	} else {
		track_alloc(MEMORIZER_KIND_KMALLOC_LARGE, ptr, bytes_req,
			    bytes_alloc, call_site, NULL, 0);
	}
}

static void probe_kmem_cache_alloc(void *ignore, unsigned long call_site,
				   const void *ptr, struct kmem_cache *s,
				   gfp_t gfp_flags, int node)
{
	if (!static_branch_unlikely(&memorizer_alloc_key))
		return;
	track_alloc(MEMORIZER_KIND_CACHE, ptr, s->object_size, s->object_size,
		    call_site, s, 0);
}

static void probe_kfree(void *ignore, unsigned long call_site,
			const void *ptr)
{
	track_free(ptr, call_site);
}

static void probe_kmem_cache_free(void *ignore, unsigned long call_site,
				  const void *ptr, const struct kmem_cache *s)
{
	track_free(ptr, call_site);
}

void __memorizer_alloc_bulk(struct kmem_cache *s, size_t nr, void **p,
			    unsigned long ip)
{
	size_t i;

	for (i = 0; i < nr; i++)
		track_alloc(MEMORIZER_KIND_CACHE, p[i], s->object_size,
			    s->object_size, ip, s, 0);
}

void __memorizer_free_bulk(size_t nr, void **p, unsigned long ip)
{
	size_t i;

	for (i = 0; i < nr; i++)
		track_free(p[i], ip);
}

/*
 * Not the areas execmem allocates outside the vmalloc range (a module's
 * memory, BPF and kprobe code): a module's memory is an image as the
 * kernel's is, whose objects are its globals (globals.c), found inside it.
 * A record of the whole area would overlap them.
 */
void __memorizer_vmalloc(const void *addr, unsigned long size,
			 unsigned long ip)
{
	if (!is_vmalloc_addr(addr))
		return;
	track_alloc(MEMORIZER_KIND_VMALLOC, addr, size, PAGE_ALIGN(size), ip,
		    NULL, DIV_ROUND_UP(size, PAGE_SIZE) - 1);
}

void __memorizer_vfree(const void *addr, unsigned long ip)
{
	track_free(addr, ip);
}

void __memorizer_krealloc(const void *p, size_t size)
{
	struct memorizer_record *rec;

	if (ZERO_OR_NULL_PTR(p) || !memorizer_hook_enter())
		return;
	rec = memorizer_record_at((unsigned long)p);
	if (rec && size <= rec->size_alloc)
		WRITE_ONCE(rec->size, size);
	memorizer_hook_exit();
}

/*
 * Page allocations. The mm_page_alloc tracepoint knows the page and its
 * order but not who asked; memorizer_page_alloc() in the API macros knows
 * who asked but not the order. The tracepoint leaves the pair in a slot of
 * the running context (the task, or this CPU's interrupt level), where the
 * macro's hook finds it when the allocation returns: nothing can come in
 * between in that context but nested allocations, which finish first.
 */
#define PAGE_ORDER_MASK	15UL

struct irq_page_allocs {
	unsigned long level[4];		/* by interrupt_context_level() */
};
static DEFINE_PER_CPU(struct irq_page_allocs, irq_page_allocs);

static unsigned long *page_alloc_slot(void)
{
	unsigned int level = interrupt_context_level();

	if (!level)
		return &current->memorizer_page_alloc;
	return &this_cpu_ptr(&irq_page_allocs)->level[level];
}

static void probe_mm_page_alloc(void *ignore, struct page *page,
				unsigned int order, gfp_t gfp, int migratetype)
{
	if (static_branch_unlikely(&memorizer_alloc_key) && !in_nmi())
		*page_alloc_slot() = (unsigned long)page | order;
}

void __memorizer_page_alloc(unsigned long res, bool is_addr)
{
	struct page *page;
	unsigned long slot;
	unsigned int order;

	if (!res || in_nmi())
		return;
	page = is_addr ? virt_to_page((void *)res) : (struct page *)res;
	if (PageHighMem(page))
		return;
	slot = *page_alloc_slot();
	if ((slot & ~PAGE_ORDER_MASK) != (unsigned long)page) {
		/* Started tracing between the allocation and here. */
		memorizer_stat_inc(MEMORIZER_STAT_DROPPED_OBJECTS);
		return;
	}
	order = slot & PAGE_ORDER_MASK;
	track_alloc(MEMORIZER_KIND_PAGES, page_address(page), PAGE_SIZE << order,
		    PAGE_SIZE << order, _RET_IP_, NULL,
		    PageHead(page) ? 0 : (1U << order) - 1);
}
/* For modules, as memorizer_alloc_key is. */
EXPORT_SYMBOL(__memorizer_page_alloc);

/*
 * The page and per-CPU allocators' free functions, and the module
 * notifiers' chain. A page's free call site is the first caller outside
 * them: pages are freed through put_page() as often as through
 * __free_pages(), and mm_page_free, deep inside, carries none; nor does
 * percpu_free_percpu. A module's globals are freed by what unloads it.
 */
static const char *const free_functions[] = {
	"__traceiter_mm_page_free", "__free_pages_ok", "free_unref_page",
	"free_unref_folios", "__free_pages", "free_pages", "free_pages_exact",
	"__folio_put", "folios_put_refs", "release_pages",
	"__traceiter_percpu_free_percpu", "free_percpu",
	"notifier_call_chain", "blocking_notifier_call_chain",
};

static struct {
	unsigned long start, end;
} free_text[ARRAY_SIZE(free_functions)];

static void find_free_functions(void)
{
	unsigned long size, offset;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(free_functions); i++) {
		unsigned long addr = kallsyms_lookup_name(free_functions[i]);

		/* Inlined in this build: it will not be on the stack either. */
		if (!addr || !kallsyms_lookup_size_offset(addr, &size, &offset))
			continue;
		free_text[i].start = addr;
		free_text[i].end = addr + size;
	}
}

static bool in_free_function(unsigned long ip)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(free_text); i++)
		if (ip >= free_text[i].start && ip < free_text[i].end)
			return true;
	return false;
}

static unsigned long free_site(void)
{
	unsigned long entries[16];
	unsigned int n, i;
	bool inside = false;

	n = stack_trace_save(entries, ARRAY_SIZE(entries), 0);
	for (i = 0; i < n; i++) {
		if (in_free_function(entries[i]))
			inside = true;
		else if (inside)
			return entries[i];
	}
	return 0;
}

/*
 * Pages freed: the records that start in the block, that of its
 * allocation, or of a stack or pages found there: a block allocated
 * without __GFP_COMP is a folio per page, each found on its own. A slab
 * object's record there lost its free (memorizer_index_lookup()).
 */
static void probe_mm_page_free(void *ignore, struct page *page,
			       unsigned int order)
{
	unsigned long addr, end, size, free_ip = 0;
	struct memorizer_record *rec;

	if (PageHighMem(page) || !memorizer_hook_enter())
		return;
	addr = (unsigned long)page_address(page);
	for (end = addr + (PAGE_SIZE << order); addr < end; addr += size) {
		rec = memorizer_record_at(addr);
		if (!rec) {
			size = PAGE_SIZE;
			continue;
		}
		/* Its further pages are its own; read before it may go. */
		size = PAGE_ALIGN(rec->size_alloc) ?: PAGE_SIZE;
		if (memorizer_kind_is_slab(rec->kind)) {
			memorizer_record_close(rec, MEMORIZER_FREE_IP_MISSED);
			continue;
		}
		if (!free_ip)
			free_ip = free_site();
		memorizer_record_close(rec, free_ip);
	}
	memorizer_hook_exit();
}

/*
 * An alloc_percpu() area freed: each CPU's copy found (attribute.c) is
 * closed. Under pcpu_lock, with interrupts off.
 */
static void probe_percpu_free(void *ignore, void *base_addr, int off,
			      void __percpu *ptr)
{
	struct memorizer_record *rec;
	unsigned long free_ip = 0;
	int cpu;

	if (!memorizer_hook_enter())
		return;
	for_each_possible_cpu(cpu) {
		rec = memorizer_record_at((unsigned long)per_cpu_ptr(ptr, cpu));
		if (!rec || rec->kind != MEMORIZER_KIND_PERCPU)
			continue;
		if (!free_ip)
			free_ip = free_site();
		memorizer_record_close(rec, free_ip);
	}
	memorizer_hook_exit();
}

/*
 * A module's globals: found from its load on, as the kernel's are (their
 * table is made before any of its code runs), and freed when it goes.
 */
static int module_notify(struct notifier_block *nb, unsigned long state,
			 void *data)
{
	struct module_globals *mg;
	struct memorizer_record *rec;
	unsigned long start, free_ip = 0;
	unsigned int i;

	if (state == MODULE_STATE_COMING)
		memorizer_module_globals_add(data);
	if (state != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	mg = memorizer_module_globals_take(data);
	if (mg && memorizer_hook_enter()) {
		for (i = 0; (start = memorizer_module_global_start(mg, i)); i++) {
			rec = memorizer_record_at(start);
			if (!rec || rec->kind != MEMORIZER_KIND_GLOBAL)
				continue;
			/* Never 0, which would read as still live. */
			if (!free_ip)
				free_ip = free_site() ?: _RET_IP_;
			memorizer_record_close(rec, free_ip);
		}
		memorizer_hook_exit();
	}
	kfree(mg);
	return NOTIFY_DONE;
}

static struct notifier_block module_nb = {
	.notifier_call = module_notify,
};

/* From boot: modules loaded before Memorizer is first enabled count too. */
void memorizer_modules_init(void)
{
	if (IS_ENABLED(CONFIG_MODULES))
		register_module_notifier(&module_nb);
}

/*
 * Start observing allocations and frees, on first use only: a kernel
 * booted with Memorizer off pays nothing for it until then. From here on
 * frees are always recorded, so that every record's life completes.
 */
int memorizer_hooks_start(void)
{
	static DEFINE_MUTEX(start_lock);
	static bool started;
	int err = 0;

	/* struct page pointers leave room for the order in page_alloc_slot(). */
	BUILD_BUG_ON(sizeof(struct page) % (PAGE_ORDER_MASK + 1) ||
		     MAX_PAGE_ORDER > PAGE_ORDER_MASK);

	mutex_lock(&start_lock);
	if (!started) {
		find_free_functions();
		err = register_trace_kmalloc(probe_kmalloc, NULL) ?:
		      register_trace_kmem_cache_alloc(probe_kmem_cache_alloc,
						      NULL) ?:
		      register_trace_kfree(probe_kfree, NULL) ?:
		      register_trace_kmem_cache_free(probe_kmem_cache_free,
						     NULL) ?:
		      register_trace_mm_page_alloc(probe_mm_page_alloc, NULL) ?:
		      register_trace_mm_page_free(probe_mm_page_free, NULL) ?:
		      register_trace_percpu_free_percpu(probe_percpu_free, NULL);
		if (!err) {
			static_branch_enable(&memorizer_free_key);
			started = true;
		}
	}
	mutex_unlock(&start_lock);
	return err;
}
