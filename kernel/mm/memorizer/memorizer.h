/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memorizer internal interfaces, shared by its own files only.
 */
#ifndef _MM_MEMORIZER_MEMORIZER_H
#define _MM_MEMORIZER_MEMORIZER_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/list_bl.h>
#include <linux/llist.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/types.h>
#include <uapi/linux/memorizer.h>

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

int memorizer_parse_enabled(const char *buf, struct memorizer_target *target);
int memorizer_parse_bool(const char *buf, bool *val);

/* Which allocator an object came from: the binary stream's values. */
enum memorizer_kind {
	MEMORIZER_KIND_KMALLOC = MEMORIZER_ALLOC_KMALLOC,
	MEMORIZER_KIND_CACHE = MEMORIZER_ALLOC_CACHE,
	MEMORIZER_KIND_KMALLOC_LARGE = MEMORIZER_ALLOC_KMALLOC_LARGE,
	MEMORIZER_KIND_VMALLOC = MEMORIZER_ALLOC_VMALLOC,
	MEMORIZER_KIND_PAGES = MEMORIZER_ALLOC_PAGES,
	MEMORIZER_KIND_NR,
};

extern const char *const memorizer_kind_names[MEMORIZER_KIND_NR];

/*
 * The address → record index: a hash keyed by an object's start address,
 * and for multi-page vmalloc areas by each further page, so that any
 * address inside an object finds it in O(1) expected time.
 */
struct memorizer_key {
	struct hlist_bl_node node;
	unsigned long addr;
	struct memorizer_obj *obj;
	struct memorizer_key *next_alias;	/* the record's further pages */
};

/*
 * Loads and stores to one object by one instruction in one pid. Found by
 * the access path in a hash of (object, ip, pid); listed on the object
 * for kmap.
 */
struct memorizer_access {
	struct memorizer_access *hash_next;	/* in its bucket */
	struct memorizer_access *next;		/* the object's, newest first */
	struct memorizer_obj *obj;
	unsigned long ip;
	pid_t pid;
	atomic_t writes;
	atomic_t reads;
};

#define MEMORIZER_FREE_IP_MISSED	0xdeadbeefUL

/* Bits of memorizer_obj.lock. */
#define MEMORIZER_OBJ_LOCK_ACCESSES	0	/* inserting a counter */
#define MEMORIZER_OBJ_LOCK_CLOSING	1	/* set by whoever closes it */
#define MEMORIZER_OBJ_COUNTERS_CLOSED	2	/* no new counter: freed */
#define MEMORIZER_OBJ_BINARY		3	/* its ALLOC went to the binary channel */

/* The record of one kernel object. */
struct memorizer_obj {
	struct memorizer_key key;		/* in the index while live */
	struct list_head list;			/* on its CPU's record list */
	struct memorizer_key *aliases;		/* vmalloc: pages after the first */
	struct memorizer_access *accesses;	/* newest first */
	struct llist_node done;			/* closed, waiting for a reader */
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
	u8 state;				/* enum memorizer_obj_state */
	u32 nr_access;				/* ACCESS records it wrote */
	char comm[TASK_COMM_LEN];
	unsigned long lock;			/* MEMORIZER_OBJ_* bits */
};

enum memorizer_obj_state {
	MEMORIZER_OBJ_LIVE,
	MEMORIZER_OBJ_FREED,
};

/* objects.c */
int memorizer_objects_init(unsigned long pool_size);
int memorizer_hooks_start(void);
void memorizer_track_alloc(enum memorizer_kind kind, const void *ptr,
			   size_t size, size_t size_alloc, unsigned long ip);
void memorizer_track_free(const void *ptr, unsigned long ip);
struct memorizer_obj *memorizer_lookup(unsigned long addr);
unsigned int memorizer_clear_dead(void);
struct llist_node *memorizer_take_done(void);
void memorizer_retire_gone(void);
bool memorizer_done_pending(int cpu);
unsigned int memorizer_retire(struct llist_node *chain);
unsigned int memorizer_sweep_live(struct memorizer_access **idle,
				  unsigned int max);
void memorizer_records_get(void);
void memorizer_records_put(void);
struct memorizer_obj *memorizer_next_record(int *cpu, struct memorizer_obj *obj);
bool memorizer_enter(void);
bool memorizer_guard(void);
void memorizer_unguard(bool entered);
void memorizer_exit(void);

/* caches.c */
#define MEMORIZER_CACHE_NAME_LEN	32
struct kmem_cache;
u16 memorizer_cache_id(struct kmem_cache *s);
const char *memorizer_cache_name(u16 id);

/* Figures show_stats reports. */
enum memorizer_stat {
	MEMORIZER_STAT_ACCESSES,		/* recorded */
	MEMORIZER_STAT_UNTRACKED_ACCESSES,	/* to no tracked object */
	MEMORIZER_STAT_DROPPED_OBJECTS,		/* pool full */
	MEMORIZER_STAT_DROPPED_ACCESSES,	/* pool full for a new counter */
	MEMORIZER_STAT_MISSED_FREES,		/* closed with 0xdeadbeef */
	MEMORIZER_STAT_NR,
};

struct memorizer_stats {
	unsigned long allocs[MEMORIZER_KIND_NR];
	unsigned long frees[MEMORIZER_KIND_NR];
	unsigned long cleared[MEMORIZER_KIND_NR];
	unsigned long counters[MEMORIZER_STAT_NR];
};

DECLARE_PER_CPU(struct memorizer_stats, memorizer_stats);

static inline void memorizer_stat_inc(enum memorizer_stat stat)
{
	this_cpu_inc(memorizer_stats.counters[stat]);
}


/* control.c */
extern enum memorizer_mode memorizer_active_mode;

/*
 * Is the code running now selected by memorizer_enabled? Inline: the
 * access path asks it for every load and store in the system.
 */
static __always_inline bool memorizer_context_selected(void)
{
	switch (READ_ONCE(memorizer_active_mode)) {
	case MEMORIZER_SYSTEM:
		return true;
	case MEMORIZER_TREE_AND_IRQ:
		if (!in_task())
			return true;
		fallthrough;
	case MEMORIZER_TREE:
	case MEMORIZER_PID:
		return in_task() && READ_ONCE(current->memorizer_marked);
	default:
		return false;
	}
}

void memorizer_control_get(struct memorizer_target *target, bool *log_access);
int memorizer_control_set(const struct memorizer_target *target,
			  bool log_access);

/* access.c */
int memorizer_counters_init(unsigned int bits);
void memorizer_counters_close(struct memorizer_obj *obj);
unsigned int memorizer_counters_sweep(struct memorizer_obj *obj,
				      struct memorizer_access **idle,
				      unsigned int n, unsigned int max);

/* kmap.c */
struct dentry;
void memorizer_kmap_debugfs_init(struct dentry *dir);
#define MEMORIZER_LINE_MAX	160	/* longer than any kmap line */
int memorizer_format_object(char *buf, const struct memorizer_obj *obj);
int memorizer_format_access(char *buf, const struct memorizer_access *a);

/* stream.c: kmap_stream, and the binary channel */
void memorizer_stream_debugfs_init(struct dentry *dir);
void memorizer_stream_kick(void);
struct llist_node *memorizer_stream_drop_queue(void);
void memorizer_binary_alloc(struct memorizer_obj *obj);
bool memorizer_binary_free(struct memorizer_obj *obj);
void memorizer_binary_counts(u64 *made, u64 *lost, u64 *unread);
void memorizer_binary_access(struct memorizer_obj *obj,
			     const struct memorizer_access *a,
			     u32 writes, u32 reads);

#endif /* _MM_MEMORIZER_MEMORIZER_H */
