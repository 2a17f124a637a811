// SPDX-License-Identifier: GPL-2.0
/*
 * libkmap: what a kmap or a stream must satisfy beyond its syntax, in one
 * place. The object source applies the errors (so report and text refuse
 * what check refuses); memorizer check applies errors and warnings and
 * reports every problem. See kmap.h.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <linux/memorizer.h>

#include "kmap.h"

static int problem(char *err, int verdict, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int problem(char *err, int verdict, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, KMAP_ERR_MAX, fmt, ap);
	va_end(ap);
	return verdict;
}

int kmap_rule_free_time(uint64_t alloc_jiffies, uint64_t free_jiffies,
			char *err)
{
	if (free_jiffies && free_jiffies < alloc_jiffies)
		return problem(err, KMAP_RULE_ERROR,
			       "freed at jiffies %llu, before its allocation at %llu",
			       (unsigned long long)free_jiffies,
			       (unsigned long long)alloc_jiffies);
	return KMAP_RULE_OK;
}

/*
 * The kind whose found objects' word is comm; the first of the kinds that
 * share it (their rules in text are the same). NULL when comm is none.
 */
static const struct kmap_kind *found_kind(const char *comm)
{
	const struct kmap_kind *k;
	int i;

	for (i = 0; (k = kmap_kind(i)); i++)
		if (k->found_word && !strcmp(comm, k->found_word))
			return k;
	return NULL;
}

/* comm is word: its first byte tested first (a strcmp call an object). */
static int comm_is(const char *comm, const char *word)
{
	return comm[0] == word[0] && !strcmp(comm, word);
}

/*
 * A text object whose line names its kind (kmap_offsets): found (its
 * alloc_ip its own address) as its kind can be, and with pid 0 its kind's
 * word as executable, as a stream's ALLOC with context found would be.
 */
static int rule_object_kind(const struct kmap_object *o, char *err)
{
	const struct kmap_kind *k = kmap_kind(o->kind);
	int found = o->alloc_ip == o->addr;
	/*
	 * The fork's found records keep the pid and command of the task
	 * that first touched them: ours' pid 0 and word do not apply.
	 */
	int fork = o->has & KMAP_HAS_FORK;

	if (!k)
		return problem(err, KMAP_RULE_ERROR, "unknown allocator kind %u",
			       o->kind);
	if (k->only_found && !found)
		return problem(err, KMAP_RULE_ERROR,
			       "%s object %llx with alloc_ip %llx: the allocation of %s objects is never seen, their alloc_ip is their own address",
			       k->name, (unsigned long long)o->addr,
			       (unsigned long long)o->alloc_ip, k->name);
	if (found && !k->found_since)
		return problem(err, KMAP_RULE_ERROR,
			       "%s object %llx with its own address as alloc_ip (found): %s objects are never found, their allocation is always seen",
			       k->name, (unsigned long long)o->addr, k->name);
	if (fork)
		return KMAP_RULE_OK;
	if (found && o->pid != 0 && !k->found_task)
		return problem(err, KMAP_RULE_ERROR,
			       "found %s object with pid %u (no allocation was seen: pid is 0, but for a task's stack)",
			       k->name, o->pid);
	/* An idle task's stack is a task's: pid 0, swapper/CPU. */
	if (found && o->pid == 0 && strcmp(o->comm, k->found_word) &&
	    !(k->found_task && !strncmp(o->comm, "swapper/", 8)))
		return problem(err, KMAP_RULE_ERROR,
			       "found %s object with executable %s (pid 0: a found %s object's executable is %s%s)",
			       k->name, o->comm, k->name, k->found_word,
			       k->found_task ? ", or swapper/CPU for an idle task's" : "");
	return KMAP_RULE_OK;
}

/*
 * Seed 000: "Not all free_ip's could be obtained correctly and therefore
 * some of these will be 0", so a freed object may have free_ip 0; nothing
 * ties free_jiffies and free_ip together.
 */
int kmap_rule_object(const struct kmap_object *o, char *err)
{
	const struct kmap_kind *found;
	int fork = o->has & KMAP_HAS_FORK;

	/*
	 * The fork's catch-all records, one per type, made at its start: no
	 * object, address and size 0, the accesses to memory of the type
	 * that no record covers.
	 */
	if (fork && !o->alloc_ip && !o->addr && !o->size)
		return kmap_rule_free_time(o->alloc_jiffies, o->free_jiffies,
					   err) ? KMAP_RULE_ERROR : KMAP_RULE_OK;
	if (o->alloc_ip == 0)
		return problem(err, KMAP_RULE_ERROR, "alloc_ip is 0");
	if (kmap_rule_free_time(o->alloc_jiffies, o->free_jiffies, err))
		return KMAP_RULE_ERROR;
	if ((comm_is(o->comm, "hardirq") || comm_is(o->comm, "softirq")) &&
	    o->pid != 0)
		return problem(err, KMAP_RULE_ERROR,
			       "%s allocation with pid %u (interrupt context has pid 0)",
			       o->comm, o->pid);
	/*
	 * A found object: pid 0 and a found kind's word (a task's command
	 * with pid 0 is the idle task's, swapper/N; a task of another pid
	 * may well call itself global). Which kind, the word may not say
	 * (unseen, page), but every found object has its own address as
	 * alloc_ip. Any may be freed: a global may be a module's, freed when
	 * it is unloaded (a text kmap has no version to say a kernel's
	 * could not be), a percpu one an alloc_percpu() area.
	 */
	/* The fork sets free_index and free_ip together. */
	if (fork && o->free_ip && !o->free_jiffies)
		return problem(err, KMAP_RULE_ERROR,
			       "freed (free_ip %llx) at free_index 0 (the fork's free_index is 0 only while live)",
			       (unsigned long long)o->free_ip);
	/* The fork's executables are commands, never our words. */
	found = o->pid == 0 && !fork ? found_kind(o->comm) : NULL;
	if (found && o->alloc_ip != o->addr)
		return problem(err, KMAP_RULE_ERROR,
			       "found object %llx (%s, pid 0) with alloc_ip %llx: a found object's alloc_ip is its own address",
			       (unsigned long long)o->addr, o->comm,
			       (unsigned long long)o->alloc_ip);
	if (o->addr + o->size < o->addr)
		return problem(err, KMAP_RULE_ERROR,
			       "object %llx of %llu bytes wraps around the address space",
			       (unsigned long long)o->addr,
			       (unsigned long long)o->size);
	return (o->has & KMAP_HAS_KIND) ? rule_object_kind(o, err) :
					  KMAP_RULE_OK;
}

int kmap_rule_access(const struct kmap_access *a, char *err)
{
	if (a->reads == 0 && a->writes == 0)
		return problem(err, KMAP_RULE_ERROR,
			       "access line with no reads and no writes");
	if (a->ip == 0)
		return problem(err, KMAP_RULE_ERROR, "access_ip is 0");
	return kmap_rule_offsets(a->offset, a->offset_end, err);
}

int kmap_rule_offsets(uint32_t offset, uint32_t offset_end, char *err)
{
	if (!kmap_offsets_ok(offset, offset_end))
		return problem(err, KMAP_RULE_ERROR,
			       "offset %u, offset_end %u: not a range (offset below offset_end, or both 0 when not known)",
			       offset, offset_end);
	return KMAP_RULE_OK;
}

int kmap_rule_offset_end(uint32_t offset_end, uint64_t size_alloc, char *err)
{
	if (offset_end > size_alloc)
		return problem(err, KMAP_RULE_ERROR,
			       "offset_end %u past the object's end (size_alloc %llu)",
			       offset_end, (unsigned long long)size_alloc);
	return KMAP_RULE_OK;
}

struct dup_key {
	uint64_t ip;
	uint32_t pid;
	size_t index;
};

static int dup_cmp(const void *a, const void *b)
{
	const struct dup_key *x = a, *y = b;

	if (x->ip != y->ip)
		return x->ip < y->ip ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

/*
 * Whether some (ip, pid) repeats: a hash set on the stack for up to
 * DUPS_FAST counters (the common case, and no duplicate, answered without
 * sorting); -1 when there are more.
 */
#define DUPS_FAST	256
static int any_dup(const struct kmap_access *acc, size_t n)
{
	uint16_t set[4 * DUPS_FAST];
	size_t mask, i, h;

	if (n > DUPS_FAST)
		return -1;
	for (mask = 4; mask < 2 * n; mask <<= 1)
		;
	memset(set, 0, mask * sizeof(*set));
	mask--;
	for (i = 0; i < n; i++) {
		uint64_t k = (acc[i].ip ^ (uint64_t)acc[i].pid << 40) *
			     0x9e3779b97f4a7c15ull;

		for (h = k >> 40 & mask; set[h]; h = (h + 1) & mask) {
			const struct kmap_access *o = &acc[set[h] - 1];

			if (o->ip == acc[i].ip && o->pid == acc[i].pid)
				return 1;
		}
		set[h] = (uint16_t)(i + 1);
	}
	return 0;
}

long kmap_rule_dups(const struct kmap_access *acc, size_t n,
		    size_t (*pairs)[2], size_t max_pairs)
{
	struct dup_key *k;
	size_t i, found = 0;

	if (n < 2)
		return 0;
	/*
	 * Strictly increasing (ip, pid), as a kmap's lines mostly come:
	 * none repeats, seen in one pass, with no hash set.
	 */
	for (i = 1; i < n && kmap_access_before(&acc[i - 1], &acc[i]); i++)
		;
	if (i == n || !any_dup(acc, n))
		return 0;
	k = malloc(n * sizeof(*k));
	if (!k)
		return -1;
	for (i = 0; i < n; i++)
		k[i] = (struct dup_key){ acc[i].ip, acc[i].pid, i };
	qsort(k, n, sizeof(*k), dup_cmp);
	for (i = 1; i < n; i++)
		if (k[i].ip == k[i - 1].ip && k[i].pid == k[i - 1].pid) {
			if (found < max_pairs) {
				pairs[found][0] = k[i - 1].index;
				pairs[found][1] = k[i].index;
			}
			found++;
		}
	free(k);
	return (long)found;
}

static int live_cmp(const void *a, const void *b)
{
	const struct kmap_live *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (x->where > y->where) - (x->where < y->where);
}

size_t kmap_rule_overlaps(struct kmap_live *live, size_t n,
			  size_t (*pairs)[2], size_t max_pairs)
{
	size_t i, far = 0, found = 0;

	if (n < 2)
		return 0;
	qsort(live, n, sizeof(*live), live_cmp);
	for (i = 1; i < n; i++) {
		if (live[i].addr < live[far].addr + live[far].size) {
			if (found < max_pairs) {
				pairs[found][0] = far;
				pairs[found][1] = i;
			}
			found++;
		}
		if (live[i].addr + live[i].size > live[far].addr + live[far].size)
			far = i;
	}
	return found;
}

void kmap_rule_overlap_message(const struct kmap_live *earlier,
			       const struct kmap_live *later, int binary,
			       char *err)
{
	problem(err, KMAP_RULE_ERROR,
		"live object %llx (%llu bytes) overlaps the live object at %s %llu (%llx, %llu bytes)",
		(unsigned long long)later->addr,
		(unsigned long long)later->size, binary ? "byte" : "line",
		(unsigned long long)earlier->where,
		(unsigned long long)earlier->addr,
		(unsigned long long)earlier->size);
}

struct kmap_bin_rules {
	unsigned int nr_cpus;
	uint64_t last_ns[];
};

struct kmap_bin_rules *kmap_bin_rules_new(unsigned int nr_cpus)
{
	struct kmap_bin_rules *st;

	st = calloc(1, sizeof(*st) + (size_t)nr_cpus * sizeof(st->last_ns[0]));
	if (st)
		st->nr_cpus = nr_cpus;
	return st;
}

void kmap_bin_rules_free(struct kmap_bin_rules *st)
{
	free(st);
}

static const char *const context_name[] = {
	[MEMORIZER_CONTEXT_TASK] = "task",
	[MEMORIZER_CONTEXT_HARDIRQ] = "hardirq",
	[MEMORIZER_CONTEXT_SOFTIRQ] = "softirq",
	[MEMORIZER_CONTEXT_FOUND] = "found",
};

static unsigned int stream_version(const struct kmap_bin_reader *r)
{
	const struct memorizer_stream_header *h = kmap_bin_header(r);

	return h ? h->version : MEMORIZER_STREAM_VERSION;
}

static __attribute__((noinline)) int
rule_alloc(const struct kmap_bin_reader *r, const struct kmap_bin_rec *rec,
	   char *err)
{
	unsigned int version = stream_version(r);
	unsigned int kind = rec->u.alloc.kind, context = rec->u.alloc.context;
	const struct kmap_kind *k = kmap_kind(kind);
	int found = context == MEMORIZER_CONTEXT_FOUND;
	int pid = rec->u.alloc.pid;
	/* Whose TASK record names it: a task's allocation or found stack. */
	int has_task = context == MEMORIZER_CONTEXT_TASK || (found && pid);

	if (!k)
		return problem(err, KMAP_RULE_ERROR, "unknown allocator kind %u",
			       kind);
	if (context > MEMORIZER_CONTEXT_FOUND)
		return problem(err, KMAP_RULE_ERROR, "unknown context %u",
			       context);
	/* Version 2 added kind global and context found, 3 percpu and stack. */
	if (version < k->since)
		return problem(err, KMAP_RULE_ERROR,
			       "allocator kind %u (%s) in a version %u stream: new in version %u",
			       kind, k->name, version, k->since);
	if (version < 2 && found)
		return problem(err, KMAP_RULE_ERROR,
			       "context %u (found) in a version %u stream: new in version 2",
			       context, version);
	/* Globals and per-CPU objects are only found. */
	if (k->only_found && !found)
		return problem(err, KMAP_RULE_ERROR,
			       "%s object with context %s: the allocation of %s objects is never seen, their context is found",
			       k->name, context_name[context], k->name);
	if (found && !k->found_since)
		return problem(err, KMAP_RULE_ERROR,
			       "%s object with context found: %s objects are never found, their allocation is always seen",
			       k->name, k->name);
	/* Version 3 found slab objects, pages and stacks. */
	if (found && version < k->found_since)
		return problem(err, KMAP_RULE_ERROR,
			       "%s object with context found in a version %u stream: found %s objects are new in version %u",
			       k->name, version, k->name, k->found_since);
	/* A task's stack is its task's: the one found object with a pid. */
	if (found && pid != 0 && !k->found_task)
		return problem(err, KMAP_RULE_ERROR,
			       "found %s object with pid %d (no allocation was seen: pid is 0, but for a task's stack)",
			       k->name, pid);
	if ((context == MEMORIZER_CONTEXT_HARDIRQ ||
	     context == MEMORIZER_CONTEXT_SOFTIRQ) && pid != 0)
		return problem(err, KMAP_RULE_ERROR,
			       "interrupt-context allocation with pid %d", pid);
	/* The marker of an allocation not seen. */
	if (found && rec->u.alloc.call_site != rec->u.alloc.addr)
		return problem(err, KMAP_RULE_ERROR,
			       "found %s object %llx with call_site %llx: a found object's call_site is its own address",
			       k->name, (unsigned long long)rec->u.alloc.addr,
			       (unsigned long long)rec->u.alloc.call_site);
	if (rec->u.alloc.size_alloc < rec->u.alloc.size)
		return problem(err, KMAP_RULE_ERROR,
			       "allocated %u bytes, less than the %u requested",
			       rec->u.alloc.size_alloc, rec->u.alloc.size);
	if (rec->u.alloc.call_site == 0)
		return problem(err, KMAP_RULE_ERROR, "call_site is 0");
	/* Other found objects have no task: no TASK record before them. */
	if (has_task && !rec->u.alloc.comm[0])
		return problem(err, KMAP_RULE_WARNING,
			       "no TASK record for pid %d on cpu %u before its allocation",
			       pid, rec->cpu);
	if (rec->u.alloc.cache_id &&
	    !kmap_bin_cache_name(r, rec->u.alloc.cache_id))
		return problem(err, KMAP_RULE_WARNING,
			       "cache id %u has no CACHE record before it",
			       rec->u.alloc.cache_id);
	return KMAP_RULE_OK;
}

/*
 * An api known in the stream's version: free_percpu is version 3's,
 * module version 4's. A module's unload has a caller: a module free's
 * call_site is neither 0 nor the missed marker.
 */
static __attribute__((noinline)) int
rule_free(const struct kmap_bin_reader *r, const struct kmap_bin_rec *rec,
	  char *err)
{
	unsigned int api = rec->u.free.api, version = stream_version(r);
	const struct kmap_free_api *fa = kmap_free_api(api);

	if (!fa)
		return problem(err, KMAP_RULE_ERROR, "unknown free api %u", api);
	if (version < fa->since)
		return problem(err, KMAP_RULE_ERROR,
			       "free api %u (%s) in a version %u stream: new in version %u",
			       api, fa->name, version, fa->since);
	if (api == MEMORIZER_FREE_MISSED &&
	    rec->u.free.call_site != KMAP_FREE_IP_MISSED)
		return problem(err, KMAP_RULE_ERROR,
			       "missed free with call_site %llx, not deadbeef",
			       (unsigned long long)rec->u.free.call_site);
	if (api == MEMORIZER_FREE_MODULE &&
	    (rec->u.free.call_site == 0 ||
	     rec->u.free.call_site == KMAP_FREE_IP_MISSED))
		return problem(err, KMAP_RULE_ERROR,
			       "module free with call_site %llx: a module free's call_site is its unload's caller",
			       (unsigned long long)rec->u.free.call_site);
	return KMAP_RULE_OK;
}

int kmap_rule_bin_freed(unsigned int version, uint64_t id, unsigned int kind,
			unsigned int api, char *err)
{
	const struct kmap_kind *k = kmap_kind(kind);
	const struct kmap_free_api *fa = kmap_free_api(api);

	/* An unknown kind or api is the ALLOC's or the FREE's own error. */
	if (!k)
		return KMAP_RULE_OK;
	/* A global, before version 4, whatever the api. */
	if (version < k->freed_since)
		return problem(err, KMAP_RULE_ERROR,
			       "FREE of object id %llu, a %s object, in a version %u stream: %s objects are never freed before version %u",
			       (unsigned long long)id, k->name, version,
			       k->name, k->freed_since);
	if (!fa || version < fa->since)
		return KMAP_RULE_OK;
	/* module frees globals only. */
	if (fa->kind >= 0 && (int)kind != fa->kind)
		return problem(err, KMAP_RULE_ERROR,
			       "FREE of object id %llu, a %s object, by api %u (%s): api %s frees %s objects only",
			       (unsigned long long)id, k->name, api, fa->name,
			       fa->name, kmap_kind_name(fa->kind));
	/* A global: by its module's unload, or missed. */
	if (k->free_api_only && (int)api != k->free_api &&
	    api != MEMORIZER_FREE_MISSED)
		return problem(err, KMAP_RULE_ERROR,
			       "FREE of object id %llu, a %s object, by api %u (%s): %s objects are freed by api %d (%s) or missed only",
			       (unsigned long long)id, k->name, api, fa->name,
			       k->name, k->free_api,
			       kmap_free_api_name(k->free_api));
	return KMAP_RULE_OK;
}

int kmap_rule_bin_time(struct kmap_bin_rules *st,
		       const struct kmap_bin_rec *rec, char *err)
{
	uint64_t last;

	if (rec->cpu >= st->nr_cpus)	/* the reader refuses it */
		return KMAP_RULE_OK;
	last = st->last_ns[rec->cpu];
	st->last_ns[rec->cpu] = rec->ns;
	if (rec->ns < last)
		return problem(err, KMAP_RULE_ERROR,
			       "time goes backwards on cpu %u: %llu ns after %llu",
			       rec->cpu, (unsigned long long)rec->ns,
			       (unsigned long long)last);
	return KMAP_RULE_OK;
}

static int rule_access_rec(const struct kmap_bin_rec *rec, char *err)
{
	if (kmap_access_rec_ok(rec->u.access.writes, rec->u.access.reads,
			       rec->u.access.offset, rec->u.access.offset_end))
		return KMAP_RULE_OK;
	if (!rec->u.access.reads && !rec->u.access.writes)
		return problem(err, KMAP_RULE_ERROR,
			       "ACCESS record with no reads and no writes");
	/* The kernel's counters are 32-bit and stop at the top. */
	if (rec->u.access.reads > UINT32_MAX ||
	    rec->u.access.writes > UINT32_MAX)
		return problem(err, KMAP_RULE_ERROR,
			       "ACCESS record counts %llu writes, %llu reads: above 4294967295, where the kernel's counters stop",
			       (unsigned long long)rec->u.access.writes,
			       (unsigned long long)rec->u.access.reads);
	return kmap_rule_offsets(rec->u.access.offset, rec->u.access.offset_end,
				 err) ? KMAP_RULE_ERROR : KMAP_RULE_OK;
}

static int rule_lost(const struct kmap_bin_rec *rec, char *err)
{
	uint64_t sum = (uint64_t)rec->u.lost.allocs + rec->u.lost.frees +
		       rec->u.lost.accesses + rec->u.lost.other;

	if (rec->u.lost.records != sum)
		return problem(err, KMAP_RULE_ERROR,
			       "LOST record: %llu records, but its per-type counts add up to %llu",
			       (unsigned long long)rec->u.lost.records,
			       (unsigned long long)sum);
	return KMAP_RULE_OK;
}

/* The kernel writes an edge's CALL record only when it counted a call. */
static int rule_call(const struct kmap_bin_rec *rec, char *err)
{
	if (!rec->u.call.count)
		return problem(err, KMAP_RULE_ERROR,
			       "CALL record of no calls (caller %llx, callee %llx)",
			       (unsigned long long)rec->u.call.caller,
			       (unsigned long long)rec->u.call.callee);
	return KMAP_RULE_OK;
}

/*
 * A dispatch only, each type's rules apart and not inlined here: inlined,
 * ALLOC's made every record, ACCESS's too, save and restore six registers.
 */
int kmap_rule_bin(const struct kmap_bin_reader *r,
		  const struct kmap_bin_rec *rec, char *err)
{
	switch (rec->type) {
	case MEMORIZER_REC_ALLOC:
		return rule_alloc(r, rec, err);
	case MEMORIZER_REC_FREE:
		return rule_free(r, rec, err);
	case MEMORIZER_REC_ACCESS:
		return rule_access_rec(rec, err);
	case MEMORIZER_REC_LOST:
		return rule_lost(rec, err);
	case MEMORIZER_REC_CALL:
		return rule_call(rec, err);
	}
	return KMAP_RULE_OK;
}
