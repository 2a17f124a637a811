// SPDX-License-Identifier: GPL-2.0
/*
 * Memorizer's object records: creating them as the kernel allocates,
 * closing them as it frees, finding the record that covers an address, and
 * dropping the records of freed objects on request.
 *
 * Records live in the pool (pool.c). Each CPU keeps a list of the records
 * created on it; kmap readers walk those lists without locks. A live
 * record is also in the index, a hash of start addresses (and, for
 * vmalloc areas, of every further page), which is how an access finds its
 * object in O(1) expected time:
 *
 *   slab object:   virt_to_slab() -> nearest_obj() -> index
 *   large kmalloc, compound pages: folio_address()   -> index
 *   other pages, vmalloc area: page address          -> index
 *
 * Lifetimes: lookups run with preemption disabled, which is an RCU
 * read-side section; freeing a record waits for a grace period, and for
 * kmap readers to close, since they keep a cursor into the lists.
 */

#define pr_fmt(fmt) "memorizer: " fmt

#include <linux/bitops.h>
#include <linux/export.h>
#include <linux/hash.h>
#include <linux/irqflags.h>
#include <linux/kallsyms.h>
#include <linux/jiffies.h>
#include <linux/list_bl.h>
#include <linux/log2.h>
#include <linux/memorizer.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/rculist_bl.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include <trace/events/kmem.h>

#include "../slab.h"
#include "memorizer.h"
#include "pool.h"

const char *const memorizer_kind_names[MEMORIZER_KIND_NR] = {
	[MEMORIZER_KIND_KMALLOC] = "kmalloc",
	[MEMORIZER_KIND_CACHE] = "kmem_cache",
	[MEMORIZER_KIND_KMALLOC_LARGE] = "kmalloc_large",
	[MEMORIZER_KIND_VMALLOC] = "vmalloc",
	[MEMORIZER_KIND_PAGES] = "pages",
};

DEFINE_PER_CPU(struct memorizer_stats, memorizer_stats);

struct record_list {
	raw_spinlock_t lock;		/* writers; readers use RCU */
	struct list_head head;
};
static DEFINE_PER_CPU(struct record_list, record_lists);

/* Closed records: for kmap_stream, and already streamed (binary). */
static DEFINE_PER_CPU(struct llist_head, done_records);
static DEFINE_PER_CPU(struct llist_head, gone_records);
static DEFINE_PER_CPU(u64, record_ids);

static struct hlist_bl_head *index_table;
static unsigned int index_bits;

/* Unlinked records wait here until no kmap reader can hold them. */
static DEFINE_MUTEX(reap_lock);
static struct memorizer_obj *reap_pending;	/* under reap_lock */
static unsigned int records_readers;		/* under reap_lock */

/*
 * Memorizer must not observe itself: whatever it calls (RCU, timekeeping)
 * may be instrumented. One flag per CPU and context level (task, softirq,
 * hardirq, NMI) stops the recursion. Callers have preemption disabled.
 */
struct memorizer_busy {
	u8 level[4];
};
static DEFINE_PER_CPU(struct memorizer_busy, memorizer_busy);

bool memorizer_enter(void)
{
	u8 *busy = &this_cpu_ptr(&memorizer_busy)->level[interrupt_context_level()];

	if (*busy)
		return false;
	WRITE_ONCE(*busy, 1);
	barrier();
	return true;
}

void memorizer_exit(void)
{
	barrier();
	WRITE_ONCE(this_cpu_ptr(&memorizer_busy)->level[interrupt_context_level()], 0);
}

/*
 * Memorizer's own work outside its hooks (retiring records, sweeping
 * counters, giving chunks back to the pool) takes locks that the hooks
 * take, and meanwhile runs instrumented code: a contended lock's slow
 * path, lockdep, irq_work. A hook entered from there waits for a lock its
 * own CPU holds or is queued for, with interrupts off, for ever (the soak
 * test hung so, on pool_lock). Between memorizer_guard() and
 * memorizer_unguard() the hooks stay out of this CPU's context; preemption
 * is disabled, so the section must not sleep.
 */
bool memorizer_guard(void)
{
	preempt_disable_notrace();
	return memorizer_enter();
}

/* @entered: what memorizer_guard() returned (false when nested). */
void memorizer_unguard(bool entered)
{
	if (entered)
		memorizer_exit();
	preempt_enable_notrace();
}

static struct hlist_bl_head *index_bucket(unsigned long addr)
{
	return &index_table[hash_long(addr, index_bits)];
}

/* Under the bucket lock, or in an RCU read-side section. */
static struct memorizer_key *index_find(struct hlist_bl_head *head,
					unsigned long addr)
{
	struct hlist_bl_node *node;

	node = (struct hlist_bl_node *)
		((unsigned long)READ_ONCE(head->first) & ~LIST_BL_LOCKMASK);
	for (; node; node = READ_ONCE(node->next)) {
		struct memorizer_key *key;

		key = container_of(node, struct memorizer_key, node);
		if (READ_ONCE(key->addr) == addr)
			return key;
	}
	return NULL;
}

/* Under the bucket lock. Lookups may still be walking past @key. */
static void index_unlink(struct memorizer_key *key)
{
	__hlist_bl_del(&key->node);
	key->node.pprev = NULL;		/* hlist_bl_unhashed() */
}

/*
 * Bucket locks are bit spinlocks that interrupts also take (objects are
 * allocated and freed in any context): IRQs stay off while one is held.
 */
static void bucket_lock(struct hlist_bl_head *head, unsigned long *flags)
{
	local_irq_save(*flags);
	hlist_bl_lock(head);
}

static void bucket_unlock(struct hlist_bl_head *head, unsigned long flags)
{
	hlist_bl_unlock(head);
	local_irq_restore(flags);
}

/* Remove @key if it is still in the index. */
static void index_remove(struct memorizer_key *key)
{
	struct hlist_bl_head *head = index_bucket(key->addr);
	unsigned long flags;

	bucket_lock(head, &flags);
	if (!hlist_bl_unhashed(&key->node))
		index_unlink(key);
	bucket_unlock(head, flags);
}

/*
 * Add @key. Whatever held its address before lost a free we did not see:
 * its record is returned, for the caller to close.
 */
static struct memorizer_obj *index_insert(struct memorizer_key *key)
{
	struct hlist_bl_head *head = index_bucket(key->addr);
	struct memorizer_obj *stale = NULL;
	struct memorizer_key *old;
	unsigned long flags;

	bucket_lock(head, &flags);
	old = index_find(head, key->addr);
	if (old) {
		index_unlink(old);
		stale = old->obj;
	}
	hlist_bl_add_head_rcu(&key->node, head);
	bucket_unlock(head, flags);
	return stale;
}

static void close_record(struct memorizer_obj *obj, unsigned long free_ip)
{
	struct memorizer_key *alias;

	if (test_and_set_bit(MEMORIZER_OBJ_LOCK_CLOSING, &obj->lock))
		return;		/* someone else closes it */

	obj->free_ip = free_ip;
	obj->free_jiffies = jiffies;
	obj->free_ns = ktime_get_mono_fast_ns();
	index_remove(&obj->key);
	for (alias = obj->aliases; alias; alias = alias->next_alias)
		index_remove(alias);
	memorizer_counters_close(obj);
	/* Readers that see FREED see the free fields filled in. */
	smp_store_release(&obj->state, MEMORIZER_OBJ_FREED);
	this_cpu_inc(memorizer_stats.frees[obj->kind]);
	if (free_ip == MEMORIZER_FREE_IP_MISSED)
		memorizer_stat_inc(MEMORIZER_STAT_MISSED_FREES);

	/*
	 * A closed record waits for kmap_stream or clear_dead_objects; one
	 * the binary channel took leaves at once, so that memory stays flat.
	 */
	if (memorizer_binary_free(obj))
		llist_add(&obj->done, this_cpu_ptr(&gone_records));
	else
		llist_add(&obj->done, this_cpu_ptr(&done_records));
	memorizer_stream_kick();
}

static void free_record(struct memorizer_obj *obj)
{
	struct memorizer_key *alias, *next_alias;
	struct memorizer_access *a, *next;

	for (a = obj->accesses; a; a = next) {
		next = a->next;
		memorizer_pool_free(MEMORIZER_POOL_SMALL, a);
	}
	for (alias = obj->aliases; alias; alias = next_alias) {
		next_alias = alias->next_alias;
		memorizer_pool_free(MEMORIZER_POOL_KEY, alias);
	}
	this_cpu_inc(memorizer_stats.cleared[obj->kind]);
	memorizer_pool_free(MEMORIZER_POOL_OBJ, obj);
}

/* Give back a record that never got published, with its alias chain. */
static void discard_record(struct memorizer_obj *obj,
			   struct memorizer_key *aliases)
{
	struct memorizer_key *next;

	for (; aliases; aliases = next) {
		next = aliases->next_alias;
		memorizer_pool_free(MEMORIZER_POOL_KEY, aliases);
	}
	memorizer_pool_free(MEMORIZER_POOL_OBJ, obj);
	memorizer_stat_inc(MEMORIZER_STAT_DROPPED_OBJECTS);
}

static void fill_identity(struct memorizer_obj *obj)
{
	if (in_task()) {
		obj->pid = current->pid;
		/* Unlocked, as tracers do: task_lock() could be ours already. */
		memcpy(obj->comm, current->comm, sizeof(obj->comm));
		obj->comm[sizeof(obj->comm) - 1] = '\0';
	} else {
		obj->pid = 0;
		strscpy(obj->comm, in_hardirq() ? "hardirq" : "softirq",
			sizeof(obj->comm));
	}
}

/*
 * Record an allocation. @aliases further pages must find the record too:
 * those of a vmalloc area or of a multi-page allocation that is not a
 * compound page (whose folio does not lead to its start).
 */
static void track_alloc_locked(enum memorizer_kind kind, unsigned long addr,
			       size_t size, size_t size_alloc,
			       unsigned long ip, u16 cache_id,
			       unsigned int nr_aliases)
{
	struct memorizer_key *aliases = NULL, *alias;
	struct memorizer_obj *obj, *stale;
	struct record_list *rl;
	unsigned long flags;
	unsigned int i;

	obj = memorizer_pool_alloc(MEMORIZER_POOL_OBJ);
	if (!obj) {
		memorizer_stat_inc(MEMORIZER_STAT_DROPPED_OBJECTS);
		return;
	}
	obj->key.addr = addr;
	obj->key.obj = obj;
	obj->id = this_cpu_inc_return(record_ids) * nr_cpu_ids +
		  raw_smp_processor_id();
	obj->alloc_ip = ip;
	obj->alloc_jiffies = jiffies;
	obj->alloc_ns = ktime_get_mono_fast_ns();
	obj->size = min_t(size_t, size, UINT_MAX);
	obj->size_alloc = min_t(size_t, size_alloc, UINT_MAX);
	obj->cpu = raw_smp_processor_id();
	obj->cache_id = cache_id;
	obj->kind = kind;
	obj->state = MEMORIZER_OBJ_LIVE;
	fill_identity(obj);

	/* Every page must find the record, or none. */
	for (i = nr_aliases; i > 0; i--) {
		alias = memorizer_pool_alloc(MEMORIZER_POOL_KEY);
		if (!alias) {
			discard_record(obj, aliases);
			return;
		}
		alias->addr = addr + i * PAGE_SIZE;
		alias->obj = obj;
		alias->next_alias = aliases;
		aliases = alias;
	}
	obj->aliases = aliases;

	rl = this_cpu_ptr(&record_lists);
	raw_spin_lock_irqsave(&rl->lock, flags);
	list_add_rcu(&obj->list, &rl->head);
	raw_spin_unlock_irqrestore(&rl->lock, flags);
	this_cpu_inc(memorizer_stats.allocs[kind]);
	memorizer_binary_alloc(obj);

	stale = index_insert(&obj->key);
	if (stale)
		close_record(stale, MEMORIZER_FREE_IP_MISSED);
	for (alias = aliases; alias; alias = alias->next_alias) {
		stale = index_insert(alias);
		if (stale)
			close_record(stale, MEMORIZER_FREE_IP_MISSED);
	}
}

static void track_alloc(enum memorizer_kind kind, const void *ptr,
			size_t size, size_t size_alloc, unsigned long ip,
			struct kmem_cache *s, unsigned int nr_aliases)
{
	if (ZERO_OR_NULL_PTR(ptr) || in_nmi() || !memorizer_context_selected())
		return;

	preempt_disable_notrace();
	if (memorizer_enter()) {
		track_alloc_locked(kind, (unsigned long)ptr, size, size_alloc,
				   ip, memorizer_cache_id(s), nr_aliases);
		memorizer_exit();
	}
	preempt_enable_notrace();
}

void memorizer_track_alloc(enum memorizer_kind kind, const void *ptr,
			   size_t size, size_t size_alloc, unsigned long ip)
{
	track_alloc(kind, ptr, size, size_alloc, ip, NULL, 0);
}

/*
 * The live record that starts at @addr (not an alias page of one), if it
 * is of @kind (any with MEMORIZER_KIND_NR). Call inside memorizer_enter().
 */
static struct memorizer_obj *record_at(unsigned long addr,
				       enum memorizer_kind kind)
{
	struct memorizer_key *key = index_find(index_bucket(addr), addr);
	struct memorizer_obj *obj = key ? READ_ONCE(key->obj) : NULL;

	if (!obj || key != &obj->key)
		return NULL;
	if (kind != MEMORIZER_KIND_NR && obj->kind != kind)
		return NULL;
	return obj;
}

void memorizer_track_free(const void *ptr, unsigned long ip)
{
	struct memorizer_obj *obj;

	if (ZERO_OR_NULL_PTR(ptr) || in_nmi())
		return;

	preempt_disable_notrace();
	if (memorizer_enter()) {
		obj = record_at((unsigned long)ptr, MEMORIZER_KIND_NR);
		if (obj)
			close_record(obj, ip);
		memorizer_exit();
	}
	preempt_enable_notrace();
}

/*
 * The live record whose object covers @addr, or NULL. Preemption must be
 * disabled; the record stays valid until it is enabled again.
 */
struct memorizer_obj *memorizer_lookup(unsigned long addr)
{
	struct memorizer_key *key;
	struct memorizer_obj *obj;
	unsigned long start;

	/*
	 * Not virt_addr_valid(): it is instrumented and takes RCU (lockdep),
	 * far too much for every access. The direct map up to high_memory
	 * is where slab and page-backed kmalloc objects live.
	 */
	if (addr >= PAGE_OFFSET && addr < (unsigned long)high_memory) {
		struct folio *folio = virt_to_folio((void *)addr);

		if (folio_test_slab(folio)) {
			struct slab *slab = folio_slab(folio);
			struct kmem_cache *s = READ_ONCE(slab->slab_cache);

			if (!s)
				return NULL;
			start = (unsigned long)nearest_obj(s, slab, (void *)addr);
		} else {
			start = (unsigned long)folio_address(folio);
		}
	} else if (is_vmalloc_addr((void *)addr)) {
		start = addr & PAGE_MASK;
	} else {
		return NULL;
	}

	key = index_find(index_bucket(start), start);
	if (!key)
		return NULL;
	obj = READ_ONCE(key->obj);
	if (!obj || addr - obj->key.addr >= obj->size_alloc)
		return NULL;
	return obj;
}

/*
 * Walk every record, CPU by CPU, newest first. Start with @obj NULL and
 * *@cpu -1. The caller holds memorizer_records_get().
 */
struct memorizer_obj *memorizer_next_record(int *cpu, struct memorizer_obj *obj)
{
	struct list_head *head, *next;

	for (;;) {
		if (*cpu >= 0) {
			head = &per_cpu_ptr(&record_lists, *cpu)->head;
			next = obj ? READ_ONCE(obj->list.next) : READ_ONCE(head->next);
			if (next != head)
				return list_entry(next, struct memorizer_obj, list);
		}
		*cpu = cpumask_next(*cpu, cpu_possible_mask);
		if (*cpu >= nr_cpu_ids)
			return NULL;
		obj = NULL;
	}
}

/*
 * The records waiting to be freed, for the caller to free once it has let
 * go of reap_lock: sweeps let hundreds of thousands pile up, and freeing
 * them under the lock kept the retiring worker waiting for minutes.
 */
static struct memorizer_obj *take_reapable(void)
{
	struct memorizer_obj *dead = reap_pending;

	lockdep_assert_held(&reap_lock);
	reap_pending = NULL;
	return dead;
}

/* Free what take_reapable() returned. */
static void reap(struct memorizer_obj *dead)
{
	struct memorizer_obj *obj;

	while (dead) {
		obj = dead;
		dead = (struct memorizer_obj *)obj->list.prev;
		free_record(obj);
		cond_resched();
	}
}

void memorizer_records_get(void)
{
	mutex_lock(&reap_lock);
	records_readers++;
	mutex_unlock(&reap_lock);
}

void memorizer_records_put(void)
{
	struct memorizer_obj *dead = NULL;

	mutex_lock(&reap_lock);
	if (!--records_readers)
		dead = take_reapable();
	mutex_unlock(&reap_lock);
	reap(dead);
}

/* Take every closed record, each CPU's oldest first, chained by ->done. */
static struct llist_node *take(struct llist_head __percpu *lists)
{
	struct llist_node *chain = NULL, *first, *last;
	int cpu;

	for_each_possible_cpu(cpu) {
		first = llist_reverse_order(llist_del_all(per_cpu_ptr(lists, cpu)));
		if (!first)
			continue;
		for (last = first; last->next; last = last->next)
			;
		last->next = chain;
		chain = first;
	}
	return chain;
}

struct llist_node *memorizer_take_done(void)
{
	return take(&done_records);
}

bool memorizer_done_pending(int cpu)
{
	return !llist_empty(per_cpu_ptr(&done_records, cpu));
}

/*
 * Drop the closed records of @chain: off the lists, then, once no lookup
 * and no kmap reader can see them, back to the pool. Returns how many.
 */
unsigned int memorizer_retire(struct llist_node *chain)
{
	struct memorizer_obj *obj, *tmp, *dead = NULL;
	unsigned int n = 0;
	unsigned long flags;
	bool guard;

	if (!chain)
		return 0;
	mutex_lock(&reap_lock);
	llist_for_each_entry_safe(obj, tmp, chain, done) {
		struct record_list *rl = per_cpu_ptr(&record_lists, obj->cpu);

		guard = memorizer_guard();
		raw_spin_lock_irqsave(&rl->lock, flags);
		list_del_rcu(&obj->list);
		raw_spin_unlock_irqrestore(&rl->lock, flags);
		memorizer_unguard(guard);
		/* ->next must stay intact for readers; ->prev is free. */
		obj->list.prev = (struct list_head *)reap_pending;
		reap_pending = obj;
		n++;
	}
	synchronize_rcu();
	if (!records_readers)
		dead = take_reapable();
	mutex_unlock(&reap_lock);
	reap(dead);
	return n;
}

/*
 * Sweep the counters of the live objects whose ALLOC went to the binary
 * channel (memorizer_counters_sweep()). Returns the entries of @idle.
 */
unsigned int memorizer_sweep_live(struct memorizer_access **idle,
				  unsigned int max)
{
	struct memorizer_obj *obj = NULL;
	unsigned int n = 0;
	unsigned long flags;
	bool guard;
	int cpu = -1;

	memorizer_records_get();
	while ((obj = memorizer_next_record(&cpu, obj))) {
		if (READ_ONCE(obj->state) != MEMORIZER_OBJ_LIVE ||
		    !test_bit(MEMORIZER_OBJ_BINARY, &obj->lock) ||
		    !READ_ONCE(obj->accesses))
			continue;
		guard = memorizer_guard();
		local_irq_save(flags);
		n = memorizer_counters_sweep(obj, idle, n, max);
		local_irq_restore(flags);
		memorizer_unguard(guard);
		cond_resched();
	}
	memorizer_records_put();
	return n;
}

/* The records the binary channel took, retired from a worker. */
static void retire_gone(struct work_struct *work)
{
	memorizer_retire(take(&gone_records));
}
static DECLARE_WORK(retire_work, retire_gone);

void memorizer_retire_gone(void)
{
	int cpu;

	/* High priority: under load, a starved worker lets memory grow. */
	for_each_possible_cpu(cpu)
		if (!llist_empty(per_cpu_ptr(&gone_records, cpu))) {
			queue_work(system_highpri_wq, &retire_work);
			return;
		}
}

/*
 * Drop the records of freed objects; live ones stay. Returns how many
 * were dropped.
 */
unsigned int memorizer_clear_dead(void)
{
	return memorizer_retire(memorizer_stream_drop_queue()) +
	       memorizer_retire(memorizer_take_done());
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
	memorizer_track_free(ptr, call_site);
}

static void probe_kmem_cache_free(void *ignore, unsigned long call_site,
				  const void *ptr, const struct kmem_cache *s)
{
	memorizer_track_free(ptr, call_site);
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
		memorizer_track_free(p[i], ip);
}

void __memorizer_vmalloc(const void *addr, unsigned long size,
			 unsigned long ip)
{
	track_alloc(MEMORIZER_KIND_VMALLOC, addr, size, PAGE_ALIGN(size), ip,
		    NULL, DIV_ROUND_UP(size, PAGE_SIZE) - 1);
}

void __memorizer_vfree(const void *addr, unsigned long ip)
{
	memorizer_track_free(addr, ip);
}

void __memorizer_krealloc(const void *p, size_t size)
{
	struct memorizer_obj *obj;

	if (ZERO_OR_NULL_PTR(p) || in_nmi())
		return;

	preempt_disable_notrace();
	if (memorizer_enter()) {
		obj = record_at((unsigned long)p, MEMORIZER_KIND_NR);
		if (obj && size <= obj->size_alloc)
			WRITE_ONCE(obj->size, size);
		memorizer_exit();
	}
	preempt_enable_notrace();
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
/* For modules, as memorizer_alloc_key (control.c) is. */
EXPORT_SYMBOL(__memorizer_page_alloc);

/*
 * The page allocator's free functions. A page's free call site is the
 * first caller outside them: pages are freed through put_page() as often
 * as through __free_pages(), and mm_page_free, deep inside, carries none.
 */
static const char *const page_free_functions[] = {
	"__traceiter_mm_page_free", "__free_pages_ok", "free_unref_page",
	"free_unref_folios", "__free_pages", "free_pages", "free_pages_exact",
	"__folio_put", "folios_put_refs", "release_pages",
};

static struct {
	unsigned long start, end;
} page_free_text[ARRAY_SIZE(page_free_functions)];

static void __init find_page_free_functions(void)
{
	unsigned long size, offset;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(page_free_functions); i++) {
		unsigned long addr = kallsyms_lookup_name(page_free_functions[i]);

		/* Inlined in this build: it will not be on the stack either. */
		if (!addr || !kallsyms_lookup_size_offset(addr, &size, &offset))
			continue;
		page_free_text[i].start = addr;
		page_free_text[i].end = addr + size;
	}
}

static bool in_page_free_function(unsigned long ip)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(page_free_text); i++)
		if (ip >= page_free_text[i].start && ip < page_free_text[i].end)
			return true;
	return false;
}

static unsigned long page_free_site(void)
{
	unsigned long entries[16];
	unsigned int n, i;
	bool inside = false;

	n = stack_trace_save(entries, ARRAY_SIZE(entries), 0);
	for (i = 0; i < n; i++) {
		if (in_page_free_function(entries[i]))
			inside = true;
		else if (inside)
			return entries[i];
	}
	return 0;
}

static void probe_mm_page_free(void *ignore, struct page *page,
			       unsigned int order)
{
	struct memorizer_obj *obj;

	if (in_nmi() || PageHighMem(page))
		return;

	preempt_disable_notrace();
	if (memorizer_enter()) {
		obj = record_at((unsigned long)page_address(page),
				MEMORIZER_KIND_PAGES);
		if (obj)
			close_record(obj, page_free_site());
		memorizer_exit();
	}
	preempt_enable_notrace();
}

int __init memorizer_objects_init(unsigned long pool_size)
{
	int cpu, err;

	BUILD_BUG_ON(sizeof(struct memorizer_obj) > MEMORIZER_POOL_OBJ_SIZE);
	BUILD_BUG_ON(sizeof(struct memorizer_access) > MEMORIZER_POOL_SMALL_SIZE);
	BUILD_BUG_ON(sizeof(struct memorizer_key) > MEMORIZER_POOL_KEY_SIZE);
	/* struct page pointers leave room for the order in page_alloc_slot(). */
	BUILD_BUG_ON(sizeof(struct page) % (PAGE_ORDER_MASK + 1) ||
		     MAX_PAGE_ORDER > PAGE_ORDER_MASK);
	find_page_free_functions();

	err = memorizer_pool_init(pool_size);
	if (err)
		return err;

	/*
	 * Chains stay short with the pool full: a bucket per record the pool
	 * can hold, and one per two counters (the counters of hackbench
	 * filled a 64 MiB pool, 900k of them, and walking chains of 14 made
	 * up much of the access path). The tables cost at most 1/23 and 1/12
	 * of the pool.
	 */
	index_bits = clamp_t(unsigned int,
			     ilog2(pool_size / MEMORIZER_POOL_OBJ_SIZE), 10, 22);
	index_table = vcalloc(1UL << index_bits, sizeof(*index_table));
	if (!index_table)
		return -ENOMEM;
	err = memorizer_counters_init(clamp_t(unsigned int,
		ilog2(pool_size / MEMORIZER_POOL_SMALL_SIZE) - 1, 10, 24));
	if (err)
		return err;

	for_each_possible_cpu(cpu) {
		struct record_list *rl = per_cpu_ptr(&record_lists, cpu);

		raw_spin_lock_init(&rl->lock);
		INIT_LIST_HEAD(&rl->head);
	}
	return 0;
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

	mutex_lock(&start_lock);
	if (!started) {
		err = register_trace_kmalloc(probe_kmalloc, NULL) ?:
		      register_trace_kmem_cache_alloc(probe_kmem_cache_alloc,
						      NULL) ?:
		      register_trace_kfree(probe_kfree, NULL) ?:
		      register_trace_kmem_cache_free(probe_kmem_cache_free,
						     NULL) ?:
		      register_trace_mm_page_alloc(probe_mm_page_alloc, NULL) ?:
		      register_trace_mm_page_free(probe_mm_page_free, NULL);
		if (!err) {
			static_branch_enable(&memorizer_free_key);
			started = true;
		}
	}
	mutex_unlock(&start_lock);
	return err;
}
