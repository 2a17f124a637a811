// SPDX-License-Identifier: GPL-2.0
/*
 * libkmap: the allocator kinds and the free APIs of <linux/memorizer.h>,
 * and what each format says of each (struct kmap_kind, struct
 * kmap_free_api). The readers, the rules, the object source and the tools
 * all look them up here; this file looks nothing up elsewhere. See kmap.h.
 */
#include <string.h>

#include <linux/memorizer.h>

#include "kmap.h"

/*
 * The allocator kinds: see struct kmap_kind. New kinds add their row here,
 * with the stream version that brought them: one row per kind, no holes
 * (kmap_kind() is NULL from the first kind past the last on). A found slab
 * object is unseen, kmalloc's or kmem_cache's alike, and a found page is
 * a page of whatever allocator: their words do not say the kind. An IRQ
 * stack is found with pid 0, a task's stack with its task's. A percpu
 * object is a per-CPU variable (never freed) or an alloc_percpu() area
 * (freed by free_percpu()): its record does not say which, so a FREE of
 * one is valid. A global is the kernel's (never freed) or a module's
 * (freed when the module is unloaded, from version 4): a FREE of one is
 * valid from version 4, by api module or missed (a stale record closed),
 * no other.
 */
static const struct kmap_kind kinds[] = {
	[MEMORIZER_ALLOC_KMALLOC] = {
		.name = "kmalloc", .since = 1, .found_since = 3,
		.found_word = "unseen", .free_api = MEMORIZER_FREE_KFREE,
	},
	[MEMORIZER_ALLOC_CACHE] = {
		.name = "kmem_cache", .since = 1, .found_since = 3,
		.found_word = "unseen", .free_api = MEMORIZER_FREE_CACHE,
	},
	[MEMORIZER_ALLOC_KMALLOC_LARGE] = {
		.name = "kmalloc_large", .since = 1,
		.free_api = MEMORIZER_FREE_KFREE,
	},
	[MEMORIZER_ALLOC_VMALLOC] = {
		.name = "vmalloc", .since = 1, .free_api = MEMORIZER_FREE_VFREE,
	},
	[MEMORIZER_ALLOC_PAGES] = {
		.name = "pages", .since = 1, .found_since = 3,
		.found_word = "page", .free_api = MEMORIZER_FREE_PAGES,
	},
	[MEMORIZER_ALLOC_GLOBAL] = {
		.name = "global", .since = 2, .found_since = 2,
		.found_word = "global", .word_is_kind = 1, .only_found = 1,
		.freed_since = 4, .free_api = MEMORIZER_FREE_MODULE,
		.free_api_only = 1,
	},
	[MEMORIZER_ALLOC_PERCPU] = {
		.name = "percpu", .since = 3, .found_since = 3,
		.found_word = "percpu", .word_is_kind = 1, .only_found = 1,
		.free_api = MEMORIZER_FREE_PERCPU,
	},
	/* A task's stack goes with its pages when the task is freed. */
	[MEMORIZER_ALLOC_STACK] = {
		.name = "stack", .since = 3, .found_since = 3,
		.found_word = "irq_stack", .word_is_kind = 1, .found_task = 1,
		.free_api = MEMORIZER_FREE_PAGES,
	},
};
#define NR_KINDS ((int)(sizeof(kinds) / sizeof(kinds[0])))

const struct kmap_kind *kmap_kind(int kind)
{
	return kind >= 0 && kind < NR_KINDS && kinds[kind].name ?
	       &kinds[kind] : NULL;
}

const char *kmap_kind_name(int kind)
{
	return kmap_kind(kind) ? kinds[kind].name : "unknown";
}

const char *kmap_found_word(int kind)
{
	return kmap_kind(kind) ? kinds[kind].found_word : NULL;
}

int kmap_object_found(const struct kmap_object *o)
{
	if (o->has & KMAP_HAS_KIND)
		return o->context == MEMORIZER_CONTEXT_FOUND;
	return o->alloc_ip == o->addr;
}

int kmap_object_kind(const struct kmap_object *o)
{
	int k;

	if (o->has & KMAP_HAS_KIND)
		return o->kind;
	if (o->pid != 0 || o->alloc_ip != o->addr)
		return KMAP_KIND_UNKNOWN;
	for (k = 0; k < NR_KINDS; k++)
		if (kinds[k].word_is_kind &&
		    !strcmp(o->comm, kinds[k].found_word))
			return k;
	return KMAP_KIND_UNKNOWN;
}

/*
 * The free APIs: see struct kmap_free_api. New APIs add their row here,
 * with the stream version that brought them, no holes.
 */
static const struct kmap_free_api free_apis[] = {
	[MEMORIZER_FREE_KFREE] = { "kfree", 1, -1 },
	[MEMORIZER_FREE_CACHE] = { "kmem_cache_free", 1, -1 },
	[MEMORIZER_FREE_VFREE] = { "vfree", 1, -1 },
	[MEMORIZER_FREE_PAGES] = { "free_pages", 1, -1 },
	[MEMORIZER_FREE_MISSED] = { "missed", 1, -1 },
	[MEMORIZER_FREE_PERCPU] = { "free_percpu", 3, -1 },
	/* A module's globals, when it is unloaded. */
	[MEMORIZER_FREE_MODULE] = { "module", 4, MEMORIZER_ALLOC_GLOBAL },
};
#define NR_FREE_APIS ((int)(sizeof(free_apis) / sizeof(free_apis[0])))

const struct kmap_free_api *kmap_free_api(int api)
{
	return api >= 0 && api < NR_FREE_APIS && free_apis[api].name ?
	       &free_apis[api] : NULL;
}

const char *kmap_free_api_name(int api)
{
	return kmap_free_api(api) ? free_apis[api].name : "unknown";
}
