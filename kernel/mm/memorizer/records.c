// SPDX-License-Identifier: GPL-2.0
/*
 * Memorizer's record store: a record's life, from made (its object was
 * allocated) through closed (freed) to freed itself, and the lists that
 * hold records on the way (see enum memorizer_record_state).
 *
 * Records live in the pool (pool.c). Each CPU keeps a list of the records
 * made on it, which walkers (kmap, the sweep) read without locks. A
 * closed record goes on its CPU's closed list, where a reader takes it
 * (kmap_stream, clear_dead_objects), or on the sent list when a channel
 * sent it whole; a worker frees those at once, so that memory stays flat
 * while a binary reader is attached.
 *
 * The store knows its output channels only through the operations they
 * register (struct memorizer_channel_ops), as DAMON's core knows its
 * operations sets.
 *
 * A record is freed once nothing can see it: it leaves its list, then a
 * grace period passes (lookups run with preemption disabled), and no
 * walker may still hold a cursor into the list.
 */

#define pr_fmt(fmt) "memorizer: " fmt

#include <linux/err.h>
#include <linux/irq_work.h>
#include <linux/irqflags.h>
#include <linux/jiffies.h>
#include <linux/llist.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include "memorizer.h"
#include "pool.h"

struct record_list {
	raw_spinlock_t lock;		/* writers; walkers use RCU */
	struct list_head head;
};
static DEFINE_PER_CPU(struct record_list, record_lists);

/* Closed records waiting for a reader, and sent ones, to be freed. */
static DEFINE_PER_CPU(struct llist_head, closed_records);
static DEFINE_PER_CPU(struct llist_head, sent_records);
static DEFINE_PER_CPU(u64, record_ids);

/* Unlinked records wait here until no walker can hold them. */
static DEFINE_MUTEX(walkers_lock);
static struct memorizer_record *unlinked;	/* under walkers_lock */
static unsigned int walkers;			/* under walkers_lock */

#define MAX_CHANNELS 2
static const struct memorizer_channel_ops *channels[MAX_CHANNELS];
static unsigned int nr_channels;

/* Before tracking starts: the channels are read without a lock. */
void __init memorizer_channel_register(const struct memorizer_channel_ops *ops)
{
	if (!WARN_ON(nr_channels == MAX_CHANNELS))
		channels[nr_channels++] = ops;
}

static void free_sent(struct work_struct *work);
static DECLARE_WORK(free_sent_work, free_sent);

/*
 * From any context, a worker to free sent records. High priority: under
 * load, a starved worker lets memory grow.
 */
static void free_sent_kick(struct irq_work *work)
{
	int cpu;

	for_each_possible_cpu(cpu)
		if (!llist_empty(per_cpu_ptr(&sent_records, cpu))) {
			queue_work(system_highpri_wq, &free_sent_work);
			return;
		}
}
static DEFINE_IRQ_WORK(free_sent_irq_work, free_sent_kick);

/* Free a record that nothing can see, with its counters and keys. */
static void free_record(struct memorizer_record *rec)
{
	struct memorizer_key *alias, *next_alias;
	struct memorizer_counter *c, *next;

	for (c = memorizer_deref(rec->counters); c; c = next) {
		next = memorizer_deref(c->next);
		memorizer_pool_free(MEMORIZER_POOL_SMALL, c);
	}
	for (alias = rec->aliases; alias; alias = next_alias) {
		next_alias = alias->next_alias;
		memorizer_pool_free(MEMORIZER_POOL_KEY, alias);
	}
	memorizer_pool_free(MEMORIZER_POOL_OBJ, rec);
}

/*
 * Close @rec: its object was freed at @free_ip (MEMORIZER_FREE_IP_MISSED:
 * a new allocation covered it before its free was seen). Inside the guard.
 */
void memorizer_record_close(struct memorizer_record *rec,
			    unsigned long free_ip)
{
	struct memorizer_key *alias;
	bool sent = false;
	unsigned int i;

	if (cmpxchg(&rec->state, MEMORIZER_RECORD_LIVE,
		    MEMORIZER_RECORD_CLOSING) != MEMORIZER_RECORD_LIVE)
		return;		/* someone else closes it */

	rec->free_ip = free_ip;
	rec->free_jiffies = jiffies;
	rec->free_ns = ktime_get_mono_fast_ns();
	memorizer_index_remove(&rec->key);
	for (alias = rec->aliases; alias; alias = alias->next_alias)
		memorizer_index_remove(alias);
	memorizer_counters_close(rec);
	this_cpu_inc(memorizer_stats.frees[rec->kind]);
	if (free_ip == MEMORIZER_FREE_IP_MISSED)
		memorizer_stat_inc(MEMORIZER_STAT_MISSED_FREES);

	for (i = 0; i < nr_channels; i++)
		if (channels[i]->record_closed &&
		    channels[i]->record_closed(rec))
			sent = true;
	if (sent) {
		llist_add(&rec->closed, this_cpu_ptr(&sent_records));
		irq_work_queue(&free_sent_irq_work);
		return;
	}
	llist_add(&rec->closed, this_cpu_ptr(&closed_records));
	for (i = 0; i < nr_channels; i++)
		if (channels[i]->record_waiting)
			channels[i]->record_waiting();
}

static void fill_identity(struct memorizer_record *rec)
{
	if (in_task()) {
		rec->pid = current->pid;
		/* Unlocked, as tracers do: task_lock() could be ours already. */
		memcpy(rec->comm, current->comm, sizeof(rec->comm));
		rec->comm[sizeof(rec->comm) - 1] = '\0';
	} else {
		rec->pid = 0;
		strscpy(rec->comm, in_hardirq() ? "hardirq" : "softirq",
			sizeof(rec->comm));
	}
}

/* Keys for @rec's @n further pages, after @addr's. False: no memory. */
static bool add_aliases(struct memorizer_record *rec, unsigned long addr,
			unsigned int n)
{
	struct memorizer_key *alias;

	for (; n > 0; n--) {
		alias = memorizer_pool_alloc(MEMORIZER_POOL_KEY);
		if (!alias)
			return false;
		alias->addr = addr + n * PAGE_SIZE;
		alias->rec = rec;
		alias->next_alias = rec->aliases;
		rec->aliases = alias;
	}
	return true;
}

/* What every new record holds, from a pool chunk (zeroed). */
static void fill_record(struct memorizer_record *rec, enum memorizer_kind kind,
			unsigned long addr, size_t size, size_t size_alloc,
			unsigned long ip)
{
	rec->key.addr = addr;
	rec->key.rec = rec;
	rec->id = this_cpu_inc_return(record_ids) * nr_cpu_ids +
		  raw_smp_processor_id();
	rec->alloc_ip = ip;
	rec->alloc_jiffies = jiffies;
	rec->alloc_ns = ktime_get_mono_fast_ns();
	rec->size = min_t(size_t, size, UINT_MAX);
	rec->size_alloc = min_t(size_t, size_alloc, UINT_MAX);
	rec->cpu = raw_smp_processor_id();
	rec->kind = kind;
	rec->state = MEMORIZER_RECORD_LIVE;
}

/* On this CPU's list, counted, and told to the channels. */
static void publish_record(struct memorizer_record *rec)
{
	struct record_list *rl = this_cpu_ptr(&record_lists);
	unsigned long flags;
	unsigned int i;

	raw_spin_lock_irqsave(&rl->lock, flags);
	list_add_rcu(&rec->list, &rl->head);
	raw_spin_unlock_irqrestore(&rl->lock, flags);
	this_cpu_inc(memorizer_stats.allocs[rec->kind]);
	for (i = 0; i < nr_channels; i++)
		if (channels[i]->record_made)
			channels[i]->record_made(rec);
}

/*
 * Make the record of an allocation; inside the guard. @nr_aliases further
 * pages must find the record too: those of a vmalloc area or of a
 * multi-page allocation that is not a compound page (whose folio does not
 * lead to its start). Without the memory for all of it, it is dropped.
 * None for a kind not tracked (the kinds file).
 */
void memorizer_record_make(enum memorizer_kind kind, unsigned long addr,
			   size_t size, size_t size_alloc, unsigned long ip,
			   u16 cache_id, unsigned int nr_aliases)
{
	struct memorizer_record *rec, *stale;
	struct memorizer_key *alias;

	if (!memorizer_kind_tracked(kind))
		return;
	rec = memorizer_pool_alloc(MEMORIZER_POOL_OBJ);
	if (rec && !add_aliases(rec, addr, nr_aliases)) {
		free_record(rec);
		rec = NULL;
	}
	if (!rec) {
		memorizer_stat_inc(MEMORIZER_STAT_DROPPED_OBJECTS);
		return;
	}
	fill_record(rec, kind, addr, size, size_alloc, ip);
	rec->cache_id = cache_id;
	fill_identity(rec);
	publish_record(rec);

	stale = memorizer_index_insert(&rec->key);
	if (stale)
		memorizer_record_close(stale, MEMORIZER_FREE_IP_MISSED);
	for (alias = rec->aliases; alias; alias = alias->next_alias) {
		stale = memorizer_index_insert(alias);
		if (stale)
			memorizer_record_close(stale, MEMORIZER_FREE_IP_MISSED);
	}
}

/*
 * The record @first holds the start of an object found of @kind and
 * @size, yet the index did not give it for the access: its object is gone
 * unseen. A slab object's record where a page is now, or the reverse
 * (memorizer_index_lookup()); a found record of another extent (an
 * alloc_percpu() area freed unseen and allocated again). Allocated records
 * are replaced by allocations only.
 */
static bool stale(struct memorizer_record *first, enum memorizer_kind kind,
		  size_t size)
{
	if (memorizer_kind_is_slab(first->kind) != memorizer_kind_is_slab(kind))
		return true;
	return first->found && first->size_alloc != size;
}

/*
 * Make the record of an object whose allocation was not seen, when an
 * access first finds it; inside the guard. Its call site is its own
 * address, the marker of an allocation not seen (symbolized, a global's
 * names it); @pid and @executable are the owner's (a task's stack) or pid
 * 0 and a word saying what the object is; the time is now. @nr_aliases
 * further pages find it too, as for memorizer_record_make(). Two CPUs may
 * find the object at once: the record already in the index wins, and is
 * returned. ERR_PTR(-ENOMEM) without memory; NULL for a kind not tracked.
 */
struct memorizer_record *memorizer_record_found(enum memorizer_kind kind,
					       unsigned long addr, size_t size,
					       unsigned int nr_aliases,
					       u16 cache_id, pid_t pid,
					       const char *executable)
{
	struct memorizer_record *rec, *first;
	struct memorizer_key *alias;

	if (!memorizer_kind_tracked(kind))
		return NULL;
	rec = memorizer_pool_alloc(MEMORIZER_POOL_OBJ);
	if (!rec)
		return ERR_PTR(-ENOMEM);
	if (!add_aliases(rec, addr, nr_aliases)) {
		free_record(rec);
		return ERR_PTR(-ENOMEM);
	}
	fill_record(rec, kind, addr, size, size, addr);
	rec->found = true;
	rec->cache_id = cache_id;
	rec->pid = pid;
	strscpy(rec->comm, executable, sizeof(rec->comm));

	first = memorizer_index_insert_new(&rec->key);
	if (first && stale(first, kind, size)) {
		memorizer_record_close(first, MEMORIZER_FREE_IP_MISSED);
		first = memorizer_index_insert_new(&rec->key);
	}
	if (first) {
		free_record(rec);	/* never seen by anyone */
		return first;
	}
	publish_record(rec);
	/* Its further pages held no live record: the start had none. */
	for (alias = rec->aliases; alias; alias = alias->next_alias) {
		first = memorizer_index_insert(alias);
		if (first)
			memorizer_record_close(first, MEMORIZER_FREE_IP_MISSED);
	}
	return rec;
}

/* The live record that starts at @addr (not an alias page of one). */
struct memorizer_record *memorizer_record_at(unsigned long addr)
{
	struct memorizer_key *key = memorizer_index_find(addr);
	struct memorizer_record *rec = key ? READ_ONCE(key->rec) : NULL;

	return rec && key == &rec->key ? rec : NULL;
}

/*
 * Walk every record, CPU by CPU, newest first. Start with @rec NULL and
 * *@cpu -1, between memorizer_walk_begin() and memorizer_walk_end().
 */
struct memorizer_record *memorizer_walk_next(int *cpu,
					     struct memorizer_record *rec)
{
	struct list_head *head, *next;

	for (;;) {
		if (*cpu >= 0) {
			head = &per_cpu_ptr(&record_lists, *cpu)->head;
			next = rec ? READ_ONCE(rec->list.next) :
				     READ_ONCE(head->next);
			if (next != head)
				return list_entry(next, struct memorizer_record,
						  list);
		}
		*cpu = cpumask_next(*cpu, cpu_possible_mask);
		if (*cpu >= nr_cpu_ids)
			return NULL;
		rec = NULL;
	}
}

/*
 * The unlinked records, for the caller to free once it has let go of
 * walkers_lock: sweeps let hundreds of thousands pile up, and freeing
 * them under the lock kept the freeing worker waiting for minutes.
 */
static struct memorizer_record *take_unlinked(void)
{
	struct memorizer_record *dead = unlinked;

	lockdep_assert_held(&walkers_lock);
	unlinked = NULL;
	return dead;
}

/* Free what take_unlinked() returned. */
static void free_unlinked(struct memorizer_record *dead)
{
	struct memorizer_record *rec;

	while (dead) {
		rec = dead;
		dead = (struct memorizer_record *)rec->list.prev;
		this_cpu_inc(memorizer_stats.freed_records[rec->kind]);
		free_record(rec);
		cond_resched();
	}
}

void memorizer_walk_begin(void)
{
	mutex_lock(&walkers_lock);
	walkers++;
	mutex_unlock(&walkers_lock);
}

void memorizer_walk_end(void)
{
	struct memorizer_record *dead = NULL;

	mutex_lock(&walkers_lock);
	if (!--walkers)
		dead = take_unlinked();
	mutex_unlock(&walkers_lock);
	free_unlinked(dead);
}

/* Take every record of @lists, each CPU's oldest first, chained. */
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

/* Every closed record, chained by ->closed, for memorizer_records_free(). */
struct llist_node *memorizer_records_take_closed(void)
{
	return take(&closed_records);
}

bool memorizer_records_closed_waiting(int cpu)
{
	return !llist_empty(per_cpu_ptr(&closed_records, cpu));
}

/*
 * Free the closed records of @chain: off the lists, then, once no lookup
 * and no walker can see them, back to the pool. Returns how many.
 */
unsigned int memorizer_records_free(struct llist_node *chain)
{
	struct memorizer_record *rec, *tmp, *dead = NULL;
	unsigned int n = 0;
	unsigned long flags;
	bool guard;

	if (!chain)
		return 0;
	mutex_lock(&walkers_lock);
	llist_for_each_entry_safe(rec, tmp, chain, closed) {
		struct record_list *rl = per_cpu_ptr(&record_lists, rec->cpu);

		guard = memorizer_guard();
		raw_spin_lock_irqsave(&rl->lock, flags);
		list_del_rcu(&rec->list);
		raw_spin_unlock_irqrestore(&rl->lock, flags);
		memorizer_unguard(guard);
		/* ->next must stay intact for walkers; ->prev is free. */
		rec->list.prev = (struct list_head *)unlinked;
		unlinked = rec;
		n++;
	}
	synchronize_rcu();
	if (!walkers)
		dead = take_unlinked();
	mutex_unlock(&walkers_lock);
	free_unlinked(dead);
	return n;
}

static void free_sent(struct work_struct *work)
{
	memorizer_records_free(take(&sent_records));
}

/*
 * Counters freed per sweep, at most (1 MiB of pointers, outside the
 * pool). Found objects (globals, stacks, struct pages, ...) are touched by
 * every process: a workload that forks leaves tens of thousands of idle
 * counters a second, and a smaller cap let them pile up.
 */
#define SWEEP_IDLE_MAX		(1U << 17)
static struct memorizer_counter **sweep_idle;

/* Before the first sweep; may sleep. Only the sweep's caller calls it. */
int memorizer_records_sweep_init(void)
{
	if (!sweep_idle)
		sweep_idle = vmalloc(array_size(SWEEP_IDLE_MAX,
						sizeof(*sweep_idle)));
	return sweep_idle ? 0 : -ENOMEM;
}

/*
 * Sweep the counters of the live records whose ALLOC went out on the
 * binary stream, and of the found ones (memorizer_counters_sweep()):
 * @counts sends what each counted since the last sweep, and the counters
 * it found idle for a whole interval are freed. Sleeps. Returns how many
 * were freed.
 */
unsigned int memorizer_records_sweep(memorizer_counts_fn counts,
				     void (*pace)(void))
{
	struct memorizer_record *rec = NULL;
	unsigned int i, n = 0;
	unsigned long flags;
	bool guard;
	int cpu = -1;

	memorizer_walk_begin();
	while ((rec = memorizer_walk_next(&cpu, rec))) {
		/*
		 * A found record (a global) lives for ever: swept even if
		 * it was made before the reader came; @counts sends its
		 * ALLOC first.
		 */
		if (READ_ONCE(rec->state) == MEMORIZER_RECORD_CLOSED ||
		    (!READ_ONCE(rec->in_binary_stream) && !rec->found) ||
		    !READ_ONCE(rec->counters))
			continue;
		guard = memorizer_guard();
		local_irq_save(flags);
		n = memorizer_counters_sweep(rec, counts, sweep_idle, n,
					     SWEEP_IDLE_MAX);
		local_irq_restore(flags);
		memorizer_unguard(guard);
		pace();
		cond_resched();
	}
	memorizer_walk_end();
	/*
	 * After this, no access holds a counter the sweep took out of the
	 * hash (the next sweep sends its last counts and unlinks it), and
	 * no kmap reader one it unlinked.
	 */
	synchronize_rcu();
	for (i = 0; i < n; i++)
		memorizer_pool_free(MEMORIZER_POOL_SMALL, sweep_idle[i]);
	return n;
}

int __init memorizer_records_init(unsigned long pool_size)
{
	int cpu, err;

	BUILD_BUG_ON(sizeof(struct memorizer_record) > MEMORIZER_POOL_OBJ_SIZE);
	BUILD_BUG_ON(sizeof(struct memorizer_counter) > MEMORIZER_POOL_SMALL_SIZE);
	BUILD_BUG_ON(sizeof(struct memorizer_key) > MEMORIZER_POOL_KEY_SIZE);

	err = memorizer_pool_init(pool_size);
	if (err)
		return err;
	/*
	 * Chains stay short with the pool full: a bucket per record the pool
	 * can hold, and one per two counters (hackbench fills a pool with
	 * counters, and walking long chains made up much of the access
	 * path). The tables cost at most 1/23 and 1/12 of the pool.
	 */
	err = memorizer_index_init(clamp_t(unsigned int,
		ilog2(pool_size / MEMORIZER_POOL_OBJ_SIZE), 10, 22)) ?:
	      memorizer_counters_init(clamp_t(unsigned int,
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
