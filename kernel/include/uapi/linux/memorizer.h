/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Memorizer's binary stream: the layout of its records, shared by the
 * kernel and the userspace tools. See Documentation/dev-tools/memorizer.rst.
 *
 * A stream is one struct memorizer_stream_header followed by records. The
 * kernel gives the header in debugfs memorizer/binary/header and each
 * CPU's records in memorizer/binary/cpuN; a collector writes the header
 * once and then the records of all CPUs as it reads them, whole records
 * only. Everything is little-endian and naturally aligned; every record
 * starts with struct memorizer_rec_hdr and its size is a multiple of 8.
 *
 * Compatibility. version changes only when a field changes place or
 * meaning, or takes values a reader of the previous version would refuse
 * (a new kind or context); a reader refuses a version it does not know,
 * and may read the earlier ones its own includes. Within a version,
 * records may grow at their end and new types may appear: a reader skips
 * a record of a type it does not know (hdr.size says how far), ignores the
 * bytes past the fields it knows, and rejects a record shorter than the
 * layout below. rec_size[] in the header gives each type's size in this
 * stream, so a reader can check before it parses.
 */
#ifndef _UAPI_LINUX_MEMORIZER_H
#define _UAPI_LINUX_MEMORIZER_H

#include <linux/types.h>

#define MEMORIZER_STREAM_MAGIC		"MEMZSTRM"	/* 8 bytes, no NUL */
/*
 * 1: the first. 2: kind MEMORIZER_ALLOC_GLOBAL and context
 * MEMORIZER_CONTEXT_FOUND; a version 1 stream is a version 2 one without
 * them. 3: kinds MEMORIZER_ALLOC_PERCPU and MEMORIZER_ALLOC_STACK, free
 * api MEMORIZER_FREE_PERCPU, and context found for slab objects, pages and
 * stacks too; a version 2 stream is a version 3 one without them. 4: free
 * api MEMORIZER_FREE_MODULE, by which a global (a module's) may be freed;
 * a version 3 stream is a version 4 one without it. 5: ACCESS records say
 * which bytes of the object the instruction touched (offset, where
 * reserved was, and offset_end, 8 bytes more); a version 4 stream is a
 * version 5 one with both 0 (not known).
 */
#define MEMORIZER_STREAM_VERSION	5
#define MEMORIZER_REC_TYPES_MAX		16

enum memorizer_rec_type {
	MEMORIZER_REC_ALLOC = 1,
	MEMORIZER_REC_FREE = 2,
	MEMORIZER_REC_ACCESS = 3,
	MEMORIZER_REC_TASK = 4,
	MEMORIZER_REC_CACHE = 5,
	MEMORIZER_REC_LOST = 6,
	MEMORIZER_REC_CALL = 7,		/* version 5 too: a new type */
	MEMORIZER_REC_NR_TYPES,		/* one past the largest type */
};

/* Which allocator an object came from (memorizer_rec_alloc.kind). */
enum memorizer_alloc_kind {
	MEMORIZER_ALLOC_KMALLOC = 0,		/* kmalloc() from kmalloc-* */
	MEMORIZER_ALLOC_CACHE = 1,		/* kmem_cache_alloc() */
	MEMORIZER_ALLOC_KMALLOC_LARGE = 2,	/* kmalloc() from pages */
	MEMORIZER_ALLOC_VMALLOC = 3,
	MEMORIZER_ALLOC_PAGES = 4,		/* alloc_pages() and friends */
	MEMORIZER_ALLOC_GLOBAL = 5,		/* a kernel or module data symbol */
	MEMORIZER_ALLOC_PERCPU = 6,		/* a per-CPU variable, one CPU's */
	MEMORIZER_ALLOC_STACK = 7,		/* a task's or a CPU's IRQ stack */
};

/*
 * What was running when an object was allocated. FOUND: no allocation was
 * seen; Memorizer made the record when the object was first accessed,
 * with call_site the object's own address (the marker of an allocation
 * not seen), jiffies then, and pid 0, but for a task's stack, whose pid is
 * its task's. Found are: globals and per-CPU variables (only found, never
 * freed), stacks, slab objects allocated before tracking or by a task not
 * traced (kinds KMALLOC and CACHE), and pages no allocation of which was
 * seen (kind PAGES). The kernel's globals and per-CPU variables are never
 * freed; a module's globals are, when it is unloaded (MEMORIZER_FREE_MODULE),
 * and an alloc_percpu() area (kind PERCPU) is, by free_percpu().
 */
enum memorizer_alloc_context {
	MEMORIZER_CONTEXT_TASK = 0,
	MEMORIZER_CONTEXT_HARDIRQ = 1,
	MEMORIZER_CONTEXT_SOFTIRQ = 2,
	MEMORIZER_CONTEXT_FOUND = 3,
};

struct memorizer_stream_header {
	char magic[8];			/* MEMORIZER_STREAM_MAGIC */
	__u16 version;			/* MEMORIZER_STREAM_VERSION */
	__u16 header_size;		/* sizeof(this), for later growth */
	__u16 nr_types;			/* entries of rec_size[] in use */
	__u16 nr_cpus;			/* CPUs the kernel may have */
	__u32 hz;			/* jiffies per second */
	__u32 page_size;
	__u16 rec_size[MEMORIZER_REC_TYPES_MAX];  /* by type; 0: none */
};

struct memorizer_rec_hdr {
	__u16 type;			/* enum memorizer_rec_type */
	__u16 size;			/* the whole record, in bytes */
	__u16 cpu;			/* that wrote it */
	__u16 reserved;
	__u64 ns;			/* when written: per CPU, in order */
};

/*
 * An object was allocated. id identifies it for the rest of the boot; its
 * FREE and ACCESS records carry the same id. The pid's command is the one
 * of the newest TASK record for that pid on the same CPU (the kernel
 * writes one whenever it changes, and again after lost records).
 */
struct memorizer_rec_alloc {
	struct memorizer_rec_hdr hdr;
	__u64 id;
	__u64 addr;
	__u64 call_site;
	__u64 jiffies;
	__u32 size;			/* as requested */
	__u32 size_alloc;		/* as allocated */
	__s32 pid;			/* 0 outside task context */
	__u32 cache_id;			/* 0: none; see MEMORIZER_REC_CACHE */
	__u8 kind;			/* enum memorizer_alloc_kind */
	__u8 context;			/* enum memorizer_alloc_context */
	__u8 reserved[6];
};

/* Which function freed an object (memorizer_rec_free.api). */
enum memorizer_free_api {
	MEMORIZER_FREE_KFREE = 0,		/* kfree(), kvfree() of slab */
	MEMORIZER_FREE_CACHE = 1,		/* kmem_cache_free() */
	MEMORIZER_FREE_VFREE = 2,
	MEMORIZER_FREE_PAGES = 3,		/* __free_pages() and friends */
	MEMORIZER_FREE_MISSED = 4,		/* not seen; see below */
	MEMORIZER_FREE_PERCPU = 5,		/* free_percpu() */
	MEMORIZER_FREE_MODULE = 6,		/* a global's module unloaded */
};

/*
 * An object was freed, after the ACCESS records of its counters. When a
 * new allocation covered the object before its free was seen, api is
 * MEMORIZER_FREE_MISSED and call_site 0xdeadbeef. nr_access counts the
 * object's ACCESS records in all, those of sweeps included: sweeps may
 * write theirs on another CPU, so a reader that has read fewer may see
 * the rest later (or has lost them, if a LOST record says so).
 */
struct memorizer_rec_free {
	struct memorizer_rec_hdr hdr;
	__u64 id;
	__u64 call_site;
	__u64 jiffies;
	__u8 api;			/* enum memorizer_free_api */
	__u8 reserved[3];
	__u32 nr_access;		/* ACCESS records of id in all */
};

/*
 * Loads and stores to object id by the instruction at ip in pid: since
 * the previous ACCESS record of the same (id, ip, pid), if any. While a
 * reader is attached, a live object's counters are swept out now and
 * then; a reader adds up the records of each (id, ip, pid). [offset,
 * offset_end) holds every byte of the object those loads and stores
 * touched (since the counter was made: a reader takes the union of the
 * records); for an object over 64 KiB it is rounded outwards to a power
 * of two, the least that spans the object in 65536 steps. Both 0: none
 * known.
 */
struct memorizer_rec_access {
	struct memorizer_rec_hdr hdr;
	__u64 id;
	__u64 ip;
	__s32 pid;
	__u32 offset;			/* of the first byte touched */
	__u64 writes;
	__u64 reads;
	__u32 offset_end;		/* one past the last byte touched */
	__u32 reserved;
};

/* From here on, on this CPU, pid's command is comm (NUL-padded). */
struct memorizer_rec_task {
	struct memorizer_rec_hdr hdr;
	__s32 pid;
	__u32 reserved;
	char comm[16];
};

/* Cache id is named name (NUL-padded, cut at 31 bytes) for the boot. */
struct memorizer_rec_cache {
	struct memorizer_rec_hdr hdr;
	__u32 cache_id;
	__u32 reserved;
	char name[32];
};

/*
 * Records this CPU could not write, because its buffer was full, since its
 * previous record: how many in all and of each type. hdr.ns is when the
 * first was lost.
 */
struct memorizer_rec_lost {
	struct memorizer_rec_hdr hdr;
	__u64 records;
	__u32 allocs;
	__u32 frees;
	__u32 accesses;
	__u32 other;			/* TASK, CACHE and CALL records */
};

/*
 * Calls from caller (the call's return address) to callee (the called
 * function's start) in pid (0 in interrupts), counted while call logging
 * was on: since the previous CALL record of the same (caller, callee, pid)
 * in this stream, or since the stream began. A reader adds them up. Like
 * ACCESS records of live objects, they go out at each sweep while a reader
 * is attached.
 */
struct memorizer_rec_call {
	struct memorizer_rec_hdr hdr;
	__u64 caller;
	__u64 callee;
	__s32 pid;
	__u32 reserved;
	__u64 count;
};

/*
 * Each type's record size in this version, indexed by type: what a writer
 * puts in memorizer_stream_header.rec_size[], and the least a reader
 * accepts. The one table of them, for the kernel and the tools alike:
 *	static const __u16 sizes[MEMORIZER_REC_NR_TYPES] = MEMORIZER_REC_SIZES;
 */
#define MEMORIZER_REC_SIZES {						\
	[MEMORIZER_REC_ALLOC] = sizeof(struct memorizer_rec_alloc),	\
	[MEMORIZER_REC_FREE] = sizeof(struct memorizer_rec_free),	\
	[MEMORIZER_REC_ACCESS] = sizeof(struct memorizer_rec_access),	\
	[MEMORIZER_REC_TASK] = sizeof(struct memorizer_rec_task),	\
	[MEMORIZER_REC_CACHE] = sizeof(struct memorizer_rec_cache),	\
	[MEMORIZER_REC_LOST] = sizeof(struct memorizer_rec_lost),	\
	[MEMORIZER_REC_CALL] = sizeof(struct memorizer_rec_call),	\
}

#endif /* _UAPI_LINUX_MEMORIZER_H */
