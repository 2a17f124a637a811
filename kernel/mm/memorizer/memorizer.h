/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memorizer's internal interfaces, shared by its own files only.
 *
 * The files, each using only the ones listed before it:
 *
 *   context.c      whether the code running now is traced, and the guard
 *                  that keeps Memorizer from observing itself
 *   parse.c        the values control files and boot parameters accept
 *   pool.c         the bounded memory that records and counters come from
 *   caches.c       slab cache names, interned
 *   stats.c        the per-CPU figures; the show_stats and stats files
 *   globals.c      the kernel's and modules' data symbols, per-CPU data
 *   index.c        address -> live record
 *   counters.c     a record's (ip, pid) counters, and their sweep
 *   calls.c        call edges, per (caller, callee, pid); stack frames
 *   records.c      a record's life, the record lists, the channels
 *   attribute.c    an access no record covers: what memory it hit
 *   access.c       the KASAN hook and its per-context cache
 *   hooks.c        the allocation and free hooks, page tracking
 *   text.c         the text format of a record (kmap, kmap_stream)
 *   snapshot.c     the kmap file
 *   text_stream.c  the kmap_stream file
 *   binary.c       the binary stream: binary/
 *   control.c      the control files, boot, debugfs
 *
 * The record store (records.c) knows its output channels only as the
 * struct memorizer_channel_ops they register.
 */
#ifndef _MM_MEMORIZER_MEMORIZER_H
#define _MM_MEMORIZER_MEMORIZER_H

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/hash.h>
#include <linux/list.h>
#include <linux/list_bl.h>
#include <linux/llist.h>
#include <linux/memorizer.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/types.h>
#include <uapi/linux/memorizer.h>

#include "../slab.h"

/*
 * What memorizer_enabled selects. The numbers 0..3 are the values users
 * write (ABI); MEMORIZER_PID stands for any larger number, a pid.
 */
enum memorizer_mode {
	MEMORIZER_OFF = 0,
	MEMORIZER_SYSTEM = 1,
	MEMORIZER_TREE_AND_IRQ = 2,
	MEMORIZER_TREE = 3,
	MEMORIZER_PID = 4,
};

struct memorizer_target {
	enum memorizer_mode mode;
	pid_t pid;		/* MEMORIZER_PID only, in the init namespace */
};

/* Which allocator an object came from: the binary stream's values. */
enum memorizer_kind {
	MEMORIZER_KIND_KMALLOC = MEMORIZER_ALLOC_KMALLOC,
	MEMORIZER_KIND_CACHE = MEMORIZER_ALLOC_CACHE,
	MEMORIZER_KIND_KMALLOC_LARGE = MEMORIZER_ALLOC_KMALLOC_LARGE,
	MEMORIZER_KIND_VMALLOC = MEMORIZER_ALLOC_VMALLOC,
	MEMORIZER_KIND_PAGES = MEMORIZER_ALLOC_PAGES,
	MEMORIZER_KIND_GLOBAL = MEMORIZER_ALLOC_GLOBAL,
	MEMORIZER_KIND_PERCPU = MEMORIZER_ALLOC_PERCPU,
	MEMORIZER_KIND_STACK = MEMORIZER_ALLOC_STACK,
	MEMORIZER_KIND_NR,
};

#define MEMORIZER_KINDS_ALL	(BIT(MEMORIZER_KIND_NR) - 1)

/* Slab objects' kinds: their memory is a slab's, and nothing else is. */
static inline bool memorizer_kind_is_slab(unsigned int kind)
{
	return kind == MEMORIZER_KIND_KMALLOC || kind == MEMORIZER_KIND_CACHE;
}

/* context.c */

extern enum memorizer_mode memorizer_active_mode;	/* set by control.c */
/* The kinds that get records, a bit per enum memorizer_kind: control.c's. */
extern unsigned int memorizer_kinds;

static inline bool memorizer_kind_tracked(enum memorizer_kind kind)
{
	return READ_ONCE(memorizer_kinds) & BIT(kind);
}

/*
 * Is the code running now, at @level (interrupt_context_level(): 0 is a
 * task), selected by memorizer_enabled? Inline: the access path asks it
 * for every load and store in the system.
 */
static __always_inline bool memorizer_level_selected(unsigned int level)
{
	switch (READ_ONCE(memorizer_active_mode)) {
	case MEMORIZER_SYSTEM:
		return true;
	case MEMORIZER_TREE_AND_IRQ:
		if (level)
			return true;
		fallthrough;
	case MEMORIZER_TREE:
	case MEMORIZER_PID:
		return !level && READ_ONCE(current->memorizer_marked);
	default:
		return false;
	}
}

static __always_inline bool memorizer_context_selected(void)
{
	return memorizer_level_selected(interrupt_context_level());
}

/*
 * The instruments (enum memorizer_instr) whose accesses are counted as the
 * workload's: control.c's. The others' are left out, and so are
 * Memorizer's own; stats counts them per instrument, Memorizer's after
 * the others.
 */
extern unsigned int memorizer_instr_counted;
#define MEMORIZER_INSTR_SELF	MEMORIZER_INSTR_NR
#define MEMORIZER_INSTRS_ALL	(BIT(MEMORIZER_INSTR_NR) - 1)

/* Marks of a CPU's interrupt levels (a bit per instrument); a task's own. */
struct memorizer_instr_cpu {
	u8 level[4];
};
DECLARE_PER_CPU(struct memorizer_instr_cpu, memorizer_instr_cpu);

/* The marks of the context at @level (interrupt_context_level()). */
static __always_inline unsigned int memorizer_instr_marks_at(unsigned int level)
{
	if (!level)
		return READ_ONCE(current->memorizer_instr);
	return READ_ONCE(this_cpu_ptr(&memorizer_instr_cpu)->level[level]);
}

/*
 * Memorizer must not observe itself: whatever it calls (RCU, timekeeping,
 * a contended lock's slow path, lockdep) may be instrumented. One flag per
 * CPU and context level (task, softirq, hardirq, NMI) stops the recursion.
 */
struct memorizer_busy {
	u8 level[4];
};
DECLARE_PER_CPU(struct memorizer_busy, memorizer_busy);

/* This CPU's flag at @level (interrupt_context_level()). */
static __always_inline u8 *memorizer_busy_flag(unsigned int level)
{
	return &this_cpu_ptr(&memorizer_busy)->level[level];
}

/* Preemption is disabled. False: Memorizer already runs at this level. */
static __always_inline bool memorizer_enter(void)
{
	u8 *busy = memorizer_busy_flag(interrupt_context_level());

	if (*busy)
		return false;
	WRITE_ONCE(*busy, 1);
	barrier();
	return true;
}

static __always_inline void memorizer_exit(void)
{
	barrier();
	WRITE_ONCE(*memorizer_busy_flag(interrupt_context_level()), 0);
}

/*
 * The way into every hook: never in NMI, preemption off, and not inside
 * Memorizer already. True: go on, and call memorizer_hook_exit() after.
 */
static __always_inline bool memorizer_hook_enter(void)
{
	if (in_nmi())
		return false;
	preempt_disable_notrace();
	if (memorizer_enter())
		return true;
	preempt_enable_notrace();
	return false;
}

static __always_inline void memorizer_hook_exit(void)
{
	memorizer_exit();
	preempt_enable_notrace();
}

/*
 * Memorizer's own work outside its hooks (freeing records, sweeping
 * counters, giving chunks back to the pool) takes locks that the hooks
 * take, and meanwhile runs instrumented code. A hook entered from there
 * would wait with interrupts off for a lock its own CPU holds or is queued
 * for, for ever (the soak test hung so, on the pool's lock). Between
 * memorizer_guard() and memorizer_unguard() the hooks stay out of this
 * CPU's context; preemption is disabled, so the section must not sleep.
 */
static __always_inline bool memorizer_guard(void)
{
	preempt_disable_notrace();
	return memorizer_enter();
}

/* @entered: what memorizer_guard() returned (false when nested). */
static __always_inline void memorizer_unguard(bool entered)
{
	if (entered)
		memorizer_exit();
	preempt_enable_notrace();
}

/* parse.c */

/* Longer than any accepted control write: every kind's name, a newline. */
#define MEMORIZER_WRITE_MAX	128

extern const char *const memorizer_kind_names[MEMORIZER_KIND_NR];
extern const char *const memorizer_instr_names[MEMORIZER_INSTR_NR + 1];
int memorizer_parse_enabled(const char *buf, struct memorizer_target *target);
int memorizer_parse_bool(const char *buf, bool *val);
int memorizer_parse_kinds(const char *buf, unsigned int *kinds);
int memorizer_format_kinds(char *buf, size_t size, unsigned int kinds);
int memorizer_parse_instrs(const char *buf, unsigned int *instrs);
int memorizer_format_instrs(char *buf, size_t size, unsigned int instrs);
int memorizer_copy_write(char *buf, const char __user *ubuf, size_t count,
			 loff_t *ppos);
int memorizer_write_one(const char __user *ubuf, size_t count, loff_t *ppos);

/* A size boot parameter: memparse() text, at least a page, at most @max. */
struct memorizer_size_param {
	unsigned long bytes;		/* first: param_get_ulong() reads it */
	unsigned long max;
};
extern const struct kernel_param_ops memorizer_size_param_ops;

/* caches.c */
#define MEMORIZER_CACHE_IDS		1024	/* ids 1..1024; 0 is none */
#define MEMORIZER_CACHE_NAME_LEN	32
struct kmem_cache;
u16 memorizer_cache_id(struct kmem_cache *s);
const char *memorizer_cache_name(u16 id);

/* stats.c */

/* Counted events, summed over CPUs for show_stats and stats. */
enum memorizer_stat {
	MEMORIZER_STAT_DROPPED_OBJECTS,		/* pool full */
	MEMORIZER_STAT_DROPPED_ACCESSES,	/* pool full for a new counter */
	MEMORIZER_STAT_MISSED_FREES,		/* closed with 0xdeadbeef */
	MEMORIZER_STAT_SLOW_ACCESSES,		/* not counted inline */
	MEMORIZER_STAT_BINARY_MADE,		/* asked of the binary stream */
	MEMORIZER_STAT_BINARY_LOST,		/* to full buffers */
	MEMORIZER_STAT_BINARY_UNREAD,		/* left when readers left */
	MEMORIZER_STAT_CALLS,			/* calls counted */
	MEMORIZER_STAT_DROPPED_CALLS,		/* pool full for a new edge */
	MEMORIZER_STAT_FRAME_ACCESSES,		/* counted on a stack frame */
	MEMORIZER_STAT_DROPPED_FRAME_ACCESSES,	/* pool full for a new cell */
	MEMORIZER_STAT_UNFRAMED_ACCESSES,	/* to the stack, in no frame */
	MEMORIZER_STAT_NR,
};

/*
 * The memory an access that no record covers fell in (attribute.c): what
 * is still unattributed, and where.
 */
enum memorizer_memory_class {
	MEMORIZER_MEM_SLAB,		/* a slab object without a record */
	MEMORIZER_MEM_STACK,		/* this task's, IRQ or exception stack */
	MEMORIZER_MEM_PERCPU,		/* the per-CPU first chunk */
	MEMORIZER_MEM_KERNEL_DATA,	/* the kernel image but its text */
	MEMORIZER_MEM_KERNEL_TEXT,
	MEMORIZER_MEM_MODULE,		/* the module area */
	MEMORIZER_MEM_PAGE,		/* other pages of the direct map */
	MEMORIZER_MEM_VMALLOC,		/* other vmalloc space */
	MEMORIZER_MEM_OTHER,		/* fixmap, cpu_entry_area, ... */
	MEMORIZER_MEM_NR,
};

struct memorizer_stats {
	unsigned long allocs[MEMORIZER_KIND_NR];
	unsigned long frees[MEMORIZER_KIND_NR];
	unsigned long freed_records[MEMORIZER_KIND_NR];
	unsigned long accesses[MEMORIZER_KIND_NR];	/* recorded */
	unsigned long untracked[MEMORIZER_MEM_NR];	/* to no record */
	/* Left out: made for an instrument, or Memorizer itself */
	unsigned long excluded[MEMORIZER_INSTR_NR + 1];
	unsigned long counters[MEMORIZER_STAT_NR];
};

DECLARE_PER_CPU(struct memorizer_stats, memorizer_stats);

static inline void memorizer_stat_inc(enum memorizer_stat stat)
{
	this_cpu_inc(memorizer_stats.counters[stat]);
}

static inline void memorizer_stat_add(enum memorizer_stat stat,
				      unsigned long n)
{
	this_cpu_add(memorizer_stats.counters[stat], n);
}

void memorizer_stats_sum(struct memorizer_stats *sum);
struct dentry;
void memorizer_stats_debugfs_init(struct dentry *dir);

/* The records: index.c, counters.c, records.c */

/*
 * The index's entry: an object's start address, or for multi-page
 * objects each further page, so that any address inside an object finds
 * its record in O(1) expected time.
 */
struct memorizer_key {
	struct hlist_bl_node node;
	unsigned long addr;
	struct memorizer_record *rec;
	struct memorizer_key *next_alias;	/* the record's further pages */
};

/*
 * A chunk of the pool in 32 bits: its offset in 8-byte units, plus one;
 * 0 is NULL. Counters link with them, to take 32 bytes. pool.c sets the
 * base at boot, and the pool is at most 16 GiB.
 */
extern char *memorizer_pool_base;

static __always_inline u32 memorizer_ref(const void *p)
{
	return p ? (u32)(((const char *)p - memorizer_pool_base) >> 3) + 1 : 0;
}

static __always_inline void *memorizer_deref(u32 ref)
{
	return ref ? memorizer_pool_base + ((unsigned long)(ref - 1) << 3) :
		     NULL;
}

/*
 * Loads and stores to one object by one instruction in one pid. Found by
 * the access path in a hash of (record, ip, pid); listed on the record
 * for the text formats and the binary stream. Links are memorizer_ref()s.
 */
struct memorizer_counter {
	u32 hash_next;			/* in its bucket */
	u32 next;			/* the record's, newest first */
	u32 rec;			/* 0: out of the hash */
#ifdef CONFIG_X86_64
	s32 ip;		/* kernel and module text: the top 2 GiB */
#else
	unsigned long ip;
#endif
	pid_t pid;
	atomic_t writes;
	atomic_t reads;
	u32 span;	/* the bytes touched: memorizer_counter_span() */
};

/*
 * A counter's span: the first and the last unit of the object its loads
 * and stores touched, 16 bits each (last << 16 | first), in units of
 * 2^memorizer_span_shift() bytes: one byte for an object of at most
 * 64 KiB, and for a larger one the least power of two that spans it in
 * 65536 units, so its range is rounded outwards to that. One instruction
 * nearly always touches one field, so the range is that field's. Empty
 * (first > last) until the first access.
 */
#define MEMORIZER_SPAN_EMPTY	0xffffU

static __always_inline unsigned int memorizer_span_shift(unsigned long size)
{
	/* fls_long(0) is 0: an object of 0 or 1 bytes has shift 0 too. */
	return max_t(unsigned int, fls_long(size - 1), 16) - 16;
}

/*
 * Widen @c's span by the @size bytes at @offset in an object of
 * @size_alloc bytes, whose memorizer_span_shift() is @shift (the access
 * path keeps it with the record's extent). Racing accesses (pid 0 runs
 * on every CPU) widen by cmpxchg; an access inside the span, nearly
 * every one, writes nothing. One branch: under TCG each ends a
 * translation block, and this runs on the access cache's hit.
 */
static __always_inline void memorizer_counter_widen(struct memorizer_counter *c,
						    unsigned long size_alloc,
						    unsigned int shift,
						    unsigned long offset,
						    size_t size)
{
	unsigned long end = min(offset + size + !size, size_alloc);
	u32 first = offset >> shift, last = (end - 1) >> shift;
	u32 old = READ_ONCE(c->span), span;

	do {
		span = max(old >> 16, last) << 16 | min(old & 0xffff, first);
		if (likely(span == old))
			return;
	} while (!try_cmpxchg(&c->span, &old, span));
}

/*
 * The bytes [*@offset, *@end) of its object of @size_alloc bytes that @c
 * saw touched; both 0 when none yet.
 */
static inline void memorizer_counter_span(const struct memorizer_counter *c,
					  unsigned long size_alloc,
					  u32 *offset, u32 *end)
{
	unsigned int shift = memorizer_span_shift(size_alloc);
	u32 span = READ_ONCE(c->span), first = span & 0xffff, last = span >> 16;

	if (first > last) {
		*offset = *end = 0;
		return;
	}
	*offset = first << shift;
	*end = min_t(unsigned long, (unsigned long)(last + 1) << shift,
		     size_alloc);
}

/* The ip @c holds, sign-extended. */
static __always_inline unsigned long
memorizer_counter_ip(const struct memorizer_counter *c)
{
	return (unsigned long)(long)c->ip;
}

/* Whether a counter can hold @ip (every ip of the kernel's text can). */
static __always_inline bool memorizer_counter_ip_fits(unsigned long ip)
{
	struct memorizer_counter c = { .ip = ip };

	return memorizer_counter_ip(&c) == ip;
}

static __always_inline struct memorizer_counter *
memorizer_counter_next(const struct memorizer_counter *c)
{
	return memorizer_deref(READ_ONCE(c->next));
}

#define MEMORIZER_FREE_IP_MISSED	0xdeadbeefUL

/*
 * A record's life. Made LIVE when its object is allocated: in the index,
 * counting accesses. CLOSING while whoever saw the free fills in how it
 * ended; CLOSED once it is whole (no new counter, out of the index). A
 * CLOSED record waits on its CPU's closed list for a reader to take it
 * (kmap_stream, clear_dead_objects), unless a channel sent it whole; then
 * it is freed, once nothing can see it any more.
 */
enum memorizer_record_state {
	MEMORIZER_RECORD_LIVE,
	MEMORIZER_RECORD_CLOSING,
	MEMORIZER_RECORD_CLOSED,
};

/* The record of one kernel object. */
struct memorizer_record {
	struct memorizer_key key;		/* in the index while live */
	struct list_head list;			/* on its CPU's record list */
	struct memorizer_key *aliases;		/* further pages' keys */
	u32 counters;				/* memorizer_ref(): newest first */
	struct llist_node closed;		/* on a closed or sent list */
	u64 id;					/* for the binary stream */
	unsigned long alloc_ip;
	unsigned long free_ip;			/* 0 while live */
	unsigned long alloc_jiffies;
	unsigned long free_jiffies;		/* 0 while live */
	u64 alloc_ns;
	u64 free_ns;
	unsigned int size;			/* as requested */
	unsigned int size_alloc;		/* as allocated */
	pid_t pid;
	u16 cpu;
	u16 cache_id;				/* 0: no slab cache */
	u8 kind;				/* enum memorizer_kind */
	u8 state;				/* enum memorizer_record_state */
	bool in_binary_stream;			/* its ALLOC went out */
	bool found;				/* on first access, not allocation */
	u32 nr_access_records;			/* ACCESS records it wrote */
	char comm[TASK_COMM_LEN];
	unsigned long counters_lock;		/* bit 0: a bit spinlock */
};

/* globals.c */
void memorizer_globals_init(void);
void memorizer_percpu_init(void);
bool memorizer_global_extent(unsigned long addr, unsigned long *start,
			     unsigned long *size);
void memorizer_memmap_init(void);
bool memorizer_memmap_extent(unsigned long addr, unsigned long *start,
			     unsigned long *size);
bool memorizer_percpu_area(unsigned long addr);
bool memorizer_percpu_extent(unsigned long addr, unsigned long *start,
			     unsigned long *size);
struct module;
struct module_globals;
void memorizer_module_globals_add(struct module *mod);
struct module_globals *memorizer_module_globals_take(struct module *mod);
unsigned long memorizer_module_global_start(const struct module_globals *mg,
					    unsigned int i);

/* index.c */
int memorizer_index_init(unsigned int bits);
struct memorizer_record *memorizer_index_insert(struct memorizer_key *key);
struct memorizer_record *memorizer_index_insert_new(struct memorizer_key *key);
void memorizer_index_remove(struct memorizer_key *key);
struct memorizer_record *memorizer_index_lookup(unsigned long addr);

/* The index's hash of keys, by address; bit 0 of a head locks. */
extern struct hlist_bl_head *memorizer_index_table;
extern unsigned int memorizer_index_bits;

static __always_inline struct hlist_bl_head *
memorizer_index_bucket(unsigned long addr)
{
	return &memorizer_index_table[hash_long(addr, memorizer_index_bits)];
}

/*
 * The key at exactly @addr, or NULL. Under the bucket lock, or with
 * preemption disabled (an RCU read-side section). Inline and calling
 * nothing: the access path's fast path.
 */
static __always_inline struct memorizer_key *
memorizer_index_find(unsigned long addr)
{
	struct hlist_bl_head *head = memorizer_index_bucket(addr);
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

/*
 * nearest_obj(), inline to the end: its fixup_red_left() is a function of
 * slub.c, which adds red_left_pad, nonzero only in caches with red zones.
 */
static __always_inline unsigned long
memorizer_slab_object(struct kmem_cache *s, const struct slab *slab,
		      unsigned long addr)
{
	unsigned long base = (unsigned long)slab_address(slab);
	unsigned long last = base + (slab->objects - 1) * s->size;
	unsigned long object = addr - (addr - base) % s->size;

	return min(object, last) + s->red_left_pad;
}

/*
 * The live record of the slab object at @addr, a direct-map address in a
 * slab folio, or NULL; @folio is its folio. Inline and calling nothing.
 */
static __always_inline struct memorizer_record *
memorizer_slab_lookup(struct folio *folio, unsigned long addr)
{
	struct kmem_cache *s = READ_ONCE(folio_slab(folio)->slab_cache);
	struct memorizer_record *rec;
	struct memorizer_key *key;

	if (!s)
		return NULL;
	key = memorizer_index_find(memorizer_slab_object(s, folio_slab(folio),
							 addr));
	rec = key ? READ_ONCE(key->rec) : NULL;
	/*
	 * A page's record where a slab object is now: a found record whose
	 * free no hook could see (memorizer_index_lookup()). Not this
	 * memory's object.
	 */
	if (!rec || addr - rec->key.addr >= rec->size_alloc ||
	    !memorizer_kind_is_slab(rec->kind))
		return NULL;
	return rec;
}

/* counters.c */

/* @rec's newest counter; listed counters are whole (memorizer_counter_get()). */
static __always_inline struct memorizer_counter *
memorizer_counters_first(const struct memorizer_record *rec)
{
	/* Pairs with memorizer_counter_get()'s release of a new counter. */
	return memorizer_deref(smp_load_acquire(&rec->counters));
}

/* Where a sweep sends what a live record's counter counted since. */
typedef void (*memorizer_counts_fn)(struct memorizer_record *rec,
				    const struct memorizer_counter *c,
				    u32 writes, u32 reads);

int memorizer_counters_init(unsigned int bits);

/* The counter hash: a bucket per hash of (record, ip, pid); bit 0 locks. */
extern unsigned long *memorizer_counter_table;
extern unsigned int memorizer_counter_bits;

static __always_inline unsigned long *
memorizer_counter_bucket(struct memorizer_record *rec, unsigned long ip,
			 pid_t pid)
{
	return &memorizer_counter_table[hash_long((unsigned long)rec ^
						  hash_long(ip ^ pid,
							    BITS_PER_LONG),
						  memorizer_counter_bits)];
}

/*
 * The counter for (@rec, @ip, @pid) in @bucket, or NULL. Inline and
 * calling nothing: the access path's fast path looks counters up so.
 */
static __always_inline struct memorizer_counter *
memorizer_counter_find(unsigned long *bucket, struct memorizer_record *rec,
		       unsigned long ip, pid_t pid)
{
	struct memorizer_counter *c;

	u32 ref = memorizer_ref(rec);

	c = (struct memorizer_counter *)(READ_ONCE(*bucket) & ~1UL);
	for (; c; c = memorizer_deref(READ_ONCE(c->hash_next)))
		if (c->rec == ref && memorizer_counter_ip(c) == ip &&
		    c->pid == pid)
			return c;
	return NULL;
}
struct memorizer_counter *memorizer_counter_get(struct memorizer_record *rec,
						unsigned long ip, pid_t pid);
void memorizer_counters_close(struct memorizer_record *rec);
unsigned int memorizer_counters_sweep(struct memorizer_record *rec,
				      memorizer_counts_fn counts,
				      struct memorizer_counter **idle,
				      unsigned int n, unsigned int max);

/* calls.c */

/* Where a sweep sends the calls an edge counted since the last. */
typedef void (*memorizer_call_fn)(unsigned long caller, unsigned long callee,
				  pid_t pid, u64 count);
#ifdef CONFIG_MEMORIZER_CALLS
int memorizer_calls_set(bool on);
void memorizer_calls_sweep(memorizer_call_fn fn, void (*pace)(void));
void memorizer_calls_restart(void);
void memorizer_calls_debugfs_init(struct dentry *dir);
/* On while calls are logged: the access path's stack frames. */
DECLARE_STATIC_KEY_FALSE(memorizer_frames_key);
void memorizer_frame_access(unsigned long addr, bool write, unsigned long ip);

static __always_inline bool memorizer_frames_on(void)
{
	return static_branch_unlikely(&memorizer_frames_key);
}
#else
static inline int memorizer_calls_set(bool on)
{
	return on ? -EOPNOTSUPP : 0;
}

static inline void memorizer_calls_sweep(memorizer_call_fn fn,
					 void (*pace)(void))
{
}

static inline void memorizer_calls_restart(void)
{
}

static inline void memorizer_calls_debugfs_init(struct dentry *dir)
{
}

static __always_inline bool memorizer_frames_on(void)
{
	return false;
}

static inline void memorizer_frame_access(unsigned long addr, bool write,
					  unsigned long ip)
{
}
#endif

/* records.c */

/*
 * An output channel, as the record store calls it. Each operation may be
 * called in any context but NMI, inside the record store's guard.
 */
struct memorizer_channel_ops {
	/* @rec was just made. */
	void (*record_made)(struct memorizer_record *rec);
	/*
	 * @rec was just closed. True: the channel sent all of it, and the
	 * record can be freed now instead of waiting on the closed list.
	 */
	bool (*record_closed)(struct memorizer_record *rec);
	/* A closed record was put on a closed list. */
	void (*record_waiting)(void);
};

int memorizer_records_init(unsigned long pool_size);
void memorizer_channel_register(const struct memorizer_channel_ops *ops);
void memorizer_record_make(enum memorizer_kind kind, unsigned long addr,
			   size_t size, size_t size_alloc, unsigned long ip,
			   u16 cache_id, unsigned int nr_aliases);
struct memorizer_record *memorizer_record_found(enum memorizer_kind kind,
					       unsigned long addr, size_t size,
					       unsigned int nr_aliases,
					       u16 cache_id, pid_t pid,
					       const char *executable);
void memorizer_record_close(struct memorizer_record *rec,
			    unsigned long free_ip);
struct memorizer_record *memorizer_record_at(unsigned long addr);
void memorizer_walk_begin(void);
void memorizer_walk_end(void);
struct memorizer_record *memorizer_walk_next(int *cpu,
					     struct memorizer_record *rec);
struct llist_node *memorizer_records_take_closed(void);
bool memorizer_records_closed_waiting(int cpu);
unsigned int memorizer_records_free(struct llist_node *chain);
int memorizer_records_sweep_init(void);
unsigned int memorizer_records_sweep(memorizer_counts_fn counts,
				     void (*pace)(void));

/* attribute.c */
struct memorizer_record *memorizer_attribute(unsigned long addr);

/* hooks.c */
int memorizer_hooks_start(void);
void memorizer_modules_init(void);

/* text.c: one line of kmap text, newline included */
#define MEMORIZER_LINE_MAX	192	/* longer than any line */
int memorizer_format_record(char *buf, const struct memorizer_record *rec);
int memorizer_format_record_offsets(char *buf,
				    const struct memorizer_record *rec);
int memorizer_format_counter(char *buf, const struct memorizer_counter *c,
			     const struct memorizer_record *offsets_of);

/* snapshot.c, text_stream.c, binary.c */
void memorizer_snapshot_debugfs_init(struct dentry *dir);
void memorizer_text_stream_init(void);
void memorizer_text_stream_debugfs_init(struct dentry *dir);
struct llist_node *memorizer_text_stream_take(void);
void memorizer_binary_init(void);
void memorizer_binary_debugfs_init(struct dentry *dir);

/* control.c */
struct memorizer_control {
	struct memorizer_target target;
	bool log_access;
	bool log_calls;
};

#define MEMORIZER_SET_TARGET		BIT(0)
#define MEMORIZER_SET_LOG_ACCESS	BIT(1)
#define MEMORIZER_SET_LOG_CALLS		BIT(2)

void memorizer_control_get(struct memorizer_control *c);
int memorizer_control_set(const struct memorizer_control *c,
			  unsigned int what);

#endif /* _MM_MEMORIZER_MEMORIZER_H */
