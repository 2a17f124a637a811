/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _MM_MEMORIZER_POOL_H
#define _MM_MEMORIZER_POOL_H

enum memorizer_pool_class {
	MEMORIZER_POOL_OBJ,	/* struct memorizer_record */
	MEMORIZER_POOL_SMALL,	/* struct memorizer_counter */
	MEMORIZER_POOL_KEY,	/* struct memorizer_key of vmalloc pages */
	MEMORIZER_POOL_CALL,	/* a call edge (calls.c) */
	MEMORIZER_POOL_FRAME,	/* a stack frame's (ip, pid) cell */
	MEMORIZER_POOL_SHADOW,	/* a task's shadow stack */
	MEMORIZER_POOL_NR,
};

#define MEMORIZER_POOL_OBJ_SIZE		184
#define MEMORIZER_POOL_SMALL_SIZE	32
#define MEMORIZER_POOL_KEY_SIZE		40
#define MEMORIZER_POOL_CALL_SIZE	32
#define MEMORIZER_POOL_FRAME_SIZE	32
#define MEMORIZER_POOL_SHADOW_SIZE	512

struct dentry;

int memorizer_pool_init(unsigned long size);
void memorizer_pool_debugfs_init(struct dentry *dir);
bool memorizer_pool_available(enum memorizer_pool_class c);
void *memorizer_pool_alloc(enum memorizer_pool_class c);
/*
 * The access path's: with IRQs off already, and not zeroed (the caller
 * sets every field).
 */
void *memorizer_pool_alloc_irqoff(enum memorizer_pool_class c);
void memorizer_pool_free(enum memorizer_pool_class c, void *p);
void memorizer_pool_usage(unsigned long *chunks, unsigned long *used,
			  unsigned long *bound);

#endif /* _MM_MEMORIZER_POOL_H */
