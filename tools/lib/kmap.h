/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libkmap: read and write Memorizer's kmaps.
 *
 * Three formats, one library (every tool reads kmaps through it and nothing
 * else):
 *
 *  - the text kmap of debugfs memorizer/kmap and kmap_stream, whose exact
 *    formatting is ABI (kernel/Documentation/dev-tools/memorizer.rst):
 *
 *      alloc_ip,pid,obj_va_ptr,size,alloc_jiffies,free_jiffies,free_ip,executable
 *        access_ip,access_pid,write_count,read_count
 *
 *    and kmap_offsets, the same with two more fields on each access line
 *    (,offset,offset_end: the bytes of the object its instruction
 *    touched) and, from the kernel that brought them, two more on each
 *    object line (,kind,cache: its allocator kind and slab cache, the
 *    cache empty for an object in no cache); one file has one or the
 *    other, never both, and its object lines all of 8 fields or all of
 *    10;
 *
 *  - the text kmap of the public Memorizer fork (ITI/memorizer, its
 *    Documentation/memorizer/reference.rst), read only:
 *
 *      alloc_ip,pid,obj_va_ptr,size,alloc_index,free_index,free_ip,alloc_type,command,slabname,new_alloc_type
 *        access_ip,write_count,read_count,access_pid
 *
 *    told apart by its first object line: 11 fields (or more: command is
 *    a comm, written with its commas), its eighth, alloc_type, one of the
 *    fork's 27 type names (STACK ... NONE). Ours never have more than 10
 *    fields, so no kmap of ours reads as the fork's; from then on every
 *    line is read as the fork's. Addresses are %p with no_hash_pointers:
 *    16 hex digits, zero-padded; alloc_ip is %-p, left-justified (digits,
 *    then spaces to 16). alloc_index and free_index go where jiffies go:
 *    the fork's ordering indices (a serial number by default, counted
 *    from 0; jiffies with memorizer_index_type=time), free_index 0 while
 *    live. The access line's pid comes last, -1 outside task context
 *    (and on every line without CONFIG_MEMORIZER_TRACKPIDS): read as pid
 *    0, as ours writes it there. NONE objects' access lines are
 *    "from:access_ip,write_count,read_count", pid 0 too. Objects have
 *    KMAP_HAS_FORK, KMAP_HAS_KIND (the types' kinds: see the check
 *    command's help), KMAP_HAS_CACHE from slabname (no-slab: none); the
 *    fork's records made at an access rather than an allocation (alloc_ip
 *    0 or a type's number) are found, their alloc_ip their address;
 *    free_ip 00000000deadbeef and 000000000fedbeef (a record closed by
 *    another allocation, or by one nested in it, new_alloc_type naming
 *    it) are both KMAP_FREE_IP_MISSED. Its access lines are in no order
 *    and (ip, pid) may repeat (-1 and the idle task's 0; from: lines
 *    one per caller): kmap_src merges them;
 *
 *  - the binary stream of <linux/memorizer.h>: one struct
 *    memorizer_stream_header, then records (versions 1 to 5; ACCESS
 *    records carry offsets from version 5).
 *
 * Three levels:
 *
 *  1. record readers (kmap_text_*, kmap_bin_*): one line or one record at a
 *     time, in constant memory per record. The text reader bounds a line at
 *     KMAP_LINE_MAX bytes and checks every number for overflow; the binary
 *     reader checks magic, version and sizes, skips records of unknown type
 *     by their hdr.size and rejects short ones. Errors are one line,
 *     "FILE:LINE: what is wrong" (text) or "FILE: byte OFFSET: what is
 *     wrong" (binary), from kmap_*_error().
 *  2. the object source (kmap_src_*): whole objects with their accesses,
 *     from either format (told apart by the first bytes; zstd-compressed
 *     input, a stream or a text kmap, is decompressed when libkmap was
 *     built with zstd). memorizer check reads the record readers under a
 *     source (kmap_src_text(), kmap_src_bin()): one way to open any input.
 *     Binary records are assembled per object id: an object comes out when
 *     its FREE is read, live ones at the end of the stream.
 *  3. writers (kmap_write_*): the text format, byte for byte as the kernel
 *     writes it.
 *
 * No function here prints, exits or aborts; all return an error instead.
 * Memory is bounded by the input's structure (a line, a record, one
 * object's accesses, the live objects of a binary stream), never by a
 * number the input claims.
 */
#ifndef KMAP_H
#define KMAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The longest text line accepted, newline included. */
#define KMAP_LINE_MAX		512
/* The longest executable field accepted (the kernel's comm is 15). */
#define KMAP_COMM_MAX		64
/*
 * The longest cache field accepted, in bytes (the kernel keeps 31, a
 * stream's CACHE record 32).
 */
#define KMAP_CACHE_MAX		32
/* pids are below the kernel's PID_MAX_LIMIT. */
#define KMAP_PID_MAX		4194304u
/* free_ip of an object whose free was missed. */
#define KMAP_FREE_IP_MISSED	0xdeadbeefull
/* Errors are at most this long. */
#define KMAP_ERR_MAX		512

/* Which optional fields a struct kmap_object carries (has). */
enum {
	KMAP_HAS_SIZE_ALLOC	= 1 << 0,	/* size_alloc */
	KMAP_HAS_CACHE		= 1 << 1,	/* cache_id, cache */
	KMAP_HAS_KIND		= 1 << 2,	/* kind, context */
	KMAP_HAS_CPU		= 1 << 3,	/* alloc_cpu (and free_cpu if freed) */
	KMAP_HAS_FREE_API	= 1 << 4,	/* free_api (if freed) */
	KMAP_HAS_NS		= 1 << 5,	/* alloc_ns (and free_ns if freed) */
	KMAP_HAS_ID		= 1 << 6,	/* id */
	/*
	 * Read from the Memorizer fork's kmap: alloc_jiffies and
	 * free_jiffies are its indices, not jiffies.
	 */
	KMAP_HAS_FORK		= 1 << 7,
};

/* One object: a text object line, or what binary records say about it. */
struct kmap_object {
	uint64_t alloc_ip;
	uint64_t addr;
	uint64_t size;			/* as requested */
	uint64_t alloc_jiffies;
	uint64_t free_jiffies;		/* 0 while live */
	uint64_t free_ip;		/* 0 while live; KMAP_FREE_IP_MISSED */
	uint32_t pid;
	char comm[KMAP_COMM_MAX];	/* NUL-terminated, as in the kmap */
	/*
	 * Binary streams, and kind and cache_id, cache from a kmap_offsets
	 * object line of 10 fields (context then says found or not, and
	 * for pid 0 an interrupt's from executable hardirq or softirq);
	 * see has. A text cache_id numbers the file's cache names from 1.
	 */
	unsigned int has;
	uint64_t id;
	uint64_t size_alloc;
	uint32_t cache_id;
	const char *cache;		/* cache name, NULL if none known */
	uint8_t kind;			/* enum memorizer_alloc_kind */
	uint8_t context;		/* enum memorizer_alloc_context */
	uint8_t free_api;		/* enum memorizer_free_api */
	uint16_t alloc_cpu, free_cpu;
	uint64_t alloc_ns, free_ns;
};

/*
 * One access line: (ip, pid) and its counts, and the bytes of the object
 * the counted loads and stores touched: [offset, offset_end), both 0 when
 * not known (a seeds' kmap, a stream of version 4 or less). A stream's
 * range is the union of its ACCESS records' (kmap_src merges them); in an
 * object over 64 KiB it is rounded outwards by the kernel, offset_end at
 * most size_alloc.
 */
struct kmap_access {
	uint64_t ip;
	uint32_t pid;
	uint64_t writes;
	uint64_t reads;
	uint32_t offset, offset_end;
};

/*
 * True when no allocation of the object was seen: Memorizer found it at
 * its first access (a global, per-CPU data, a stack, ...; struct
 * kmap_kind), and its alloc_ip is its own address, not a call site. A
 * stream's ALLOC says so (context found); in a text kmap, its alloc_ip
 * is its address (kmap_rule_object() requires that of found objects, and
 * no call site is a heap address).
 */
int kmap_object_found(const struct kmap_object *o);

/*
 * Merge b's counts and bytes into a's: counts add (saturating at
 * UINT64_MAX), ranges unite (a range of 0, 0, none known, adds nothing).
 */
void kmap_access_merge(struct kmap_access *a, const struct kmap_access *b);

/* True when an object has been freed (free_jiffies or free_ip set). */
static inline int kmap_object_freed(const struct kmap_object *o)
{
	return o->free_jiffies != 0 || o->free_ip != 0;
}

/*
 * Allocator kinds (enum memorizer_alloc_kind), in one table (kmap_kinds.c):
 * what the stream and the text kmap say of each, for the readers and the
 * rules alike. A kind is found (context MEMORIZER_CONTEXT_FOUND) when
 * Memorizer saw no allocation of the object and made its record at its
 * first access: globals and per-CPU objects always (their allocation is
 * never seen; the kernel's globals and per-CPU variables are never freed,
 * a module's globals are when it is unloaded, from version 4, and
 * alloc_percpu() areas by free_percpu()), from version 3 also stacks, slab
 * objects and pages; kmalloc_large and vmalloc objects never. A found
 * object's executable in the text kmap is its kind's word, but for a
 * task's stack, which has its task's pid and command. KMAP_KIND_UNKNOWN: a
 * text object whose line does not say (a kmap's object line, or a
 * kmap_offsets' of 8 fields, names no allocator).
 */
#define KMAP_KIND_UNKNOWN	(-1)
struct kmap_kind {
	/*
	 * The kernel's stats' names: kmalloc, kmem_cache, kmalloc_large,
	 * vmalloc, pages, global, percpu, stack.
	 */
	const char *name;
	unsigned int since;		/* the stream version that brought it */
	unsigned int found_since;	/* found from this version on; 0: never */
	/* A found one's executable when its pid is 0 (NULL: never found). */
	const char *found_word;
	int word_is_kind;		/* no other kind's found have that word */
	int only_found;			/* allocation never seen: always found */
	/*
	 * A FREE of one is valid from this stream version on; 0: in every
	 * version. Globals: 4 (a module's, when it is unloaded).
	 */
	unsigned int freed_since;
	int found_task;			/* found with a task's pid (a task stack) */
	int free_api;			/* what frees one; -1: nothing does */
	/*
	 * Freed by free_api or missed only: a FREE by another API is an
	 * error (a global's), not a mismatched free.
	 */
	int free_api_only;
};
/* kind's row; NULL for KMAP_KIND_UNKNOWN or a kind not known. */
const struct kmap_kind *kmap_kind(int kind);
/* The kind's name; "unknown" for KMAP_KIND_UNKNOWN or a kind not known. */
const char *kmap_kind_name(int kind);
/* The executable word of a found object of kind, pid 0; NULL when none. */
const char *kmap_found_word(int kind);
/*
 * An object's kind: a binary stream's ALLOC or a kmap_offsets object line
 * of 10 fields says it (KMAP_HAS_KIND); another text object is of a found
 * kind when its pid is 0, its alloc_ip its own
 * address and its executable a word of that kind alone (global, percpu,
 * irq_stack); unseen (kmalloc or kmem_cache), page and any other text
 * object are KMAP_KIND_UNKNOWN.
 */
int kmap_object_kind(const struct kmap_object *o);

/*
 * Free APIs (enum memorizer_free_api), in one table (kmap_kinds.c): each
 * one's name (as messages print it), the stream version that brought it
 * and the one kind it frees, if it frees one kind only.
 */
struct kmap_free_api {
	/*
	 * kfree, kmem_cache_free, vfree, free_pages, missed, free_percpu,
	 * module (a global's module unloaded).
	 */
	const char *name;
	unsigned int since;		/* the stream version that brought it */
	int kind;			/* the kind it alone frees; -1: any */
};
/* api's row; NULL for an api not known. */
const struct kmap_free_api *kmap_free_api(int api);
/* api's name; "unknown" for an api not known. */
const char *kmap_free_api_name(int api);

/* ------------------------------------------------------------------ */
/* Text kmap, line by line.                                           */

enum kmap_line_type {
	KMAP_LINE_OBJECT = 1,
	KMAP_LINE_ACCESS = 2,
};

struct kmap_text_reader;

/*
 * Read text from f (not closed by kmap_text_close); name is used in error
 * messages. Returns NULL only when out of memory.
 */
struct kmap_text_reader *kmap_text_open(FILE *f, const char *name);
/*
 * Reads up to len bytes into buf; returns the count, 0 at end, -1 on error.
 * The text kmap's and the record formats' readers call it with len 0 when
 * they reach the input's clean end (its every line or record read): a
 * source that tells progress (kmap_src) takes that for the end.
 */
typedef long (*kmap_read_fn)(void *ctx, void *buf, size_t len);
/* A kmap_read_fn over a FILE * (ctx). */
long kmap_file_read(void *ctx, void *buf, size_t len);

/* The same, over a read function. */
struct kmap_text_reader *kmap_text_open_fn(kmap_read_fn fn, void *ctx,
					   const char *name);
/* The same, over a buffer of len bytes (not copied; must outlive r). */
struct kmap_text_reader *kmap_text_open_mem(const void *buf, size_t len,
					    const char *name);
/*
 * The next line: KMAP_LINE_OBJECT fills *obj, KMAP_LINE_ACCESS fills *acc.
 * Returns 0 at the end of the input, -1 on error (kmap_text_error() says
 * what; reading further returns -1 again). Checks the syntax and the
 * ranges of one line; the order of lines is checked by the caller
 * (memorizer check), except that an access line needs an object line
 * before it.
 */
int kmap_text_next(struct kmap_text_reader *r, struct kmap_object *obj,
		   struct kmap_access *acc);
/*
 * The access lines that follow, up to room of them, into acc[]: as many
 * as come before anything kmap_text_next() must judge itself (an object
 * line, a line not well formed or of the other kind, the end of what is
 * buffered), each as kmap_text_next() would return it. Returns how many
 * (0: read the next line with kmap_text_next()); the last is line
 * kmap_text_line(). For a reader of whole objects: a call per object
 * rather than per line.
 */
size_t kmap_text_accesses(struct kmap_text_reader *r, struct kmap_access *acc,
			  size_t room);
/*
 * Call fn with the lines read (newlines included), as they are in the
 * input, once they parsed: a valid kmap is copied as read (memorizer text
 * of a text kmap), in the order its lines were read. A call is one line,
 * or the access lines of one kmap_text_accesses() call.
 */
typedef void (*kmap_tee_fn)(void *ctx, const char *line, size_t len);
void kmap_text_tee(struct kmap_text_reader *r, kmap_tee_fn fn, void *ctx);
/* The number of the line last returned (1-based). */
unsigned long kmap_text_line(const struct kmap_text_reader *r);
/*
 * Whether the access lines read so far have offsets: 1 (6 fields,
 * kmap_offsets), 0 (4 fields, kmap), -1 before the first access line.
 * The first access line decides; one of the other kind is an error. So
 * does the first object line for the object lines (8 fields, or 10 with
 * kind and cache); object lines of 10 fields take access lines of 6
 * only (they are kmap_offsets').
 */
int kmap_text_offsets(const struct kmap_text_reader *r);
/*
 * Whether the file is the Memorizer fork's kmap (object lines of 11
 * fields; see the top): 1 or 0 once the first object line was read, -1
 * before. A fork's kmap has no offsets (kmap_text_offsets() 0).
 */
int kmap_text_fork(const struct kmap_text_reader *r);
/* Bytes consumed so far. */
uint64_t kmap_text_offset(const struct kmap_text_reader *r);
const char *kmap_text_error(const struct kmap_text_reader *r);
void kmap_text_close(struct kmap_text_reader *r);

/*
 * Parse one line (without its newline) into *obj or *acc. Returns the
 * line type, or 0 with a description (no location) in err[KMAP_ERR_MAX].
 * An access line has 4 fields (offsets 0) or 6; this alone does not say
 * which (kmap_text_offsets() does, for a reader). An object line has 8
 * fields, or 10 (kmap_offsets: kind, set with KMAP_HAS_KIND, and cache);
 * the cache, checked (at most KMAP_CACHE_MAX bytes, no control character;
 * only kmalloc and kmem_cache objects have one), has nowhere to live here:
 * cache is NULL, cache_id 0 and KMAP_HAS_CACHE unset. A reader's
 * kmap_text_next() gives them.
 */
int kmap_parse_line(const char *s, size_t len, struct kmap_object *obj,
		    struct kmap_access *acc, char *err);

/* ------------------------------------------------------------------ */
/* Text kmap writer: the kernel's formatting exactly.                 */

/* Returns 0, or -1 with errno set when the write failed. */
int kmap_write_object(FILE *f, const struct kmap_object *o);
/*
 * The same line into line[KMAP_LINE_MAX] (newline included, no NUL);
 * returns its length. For a writer that gathers lines in a buffer.
 */
size_t kmap_format_object(char *line, const struct kmap_object *o);
/*
 * The same, as kmap_offsets writes it: ",kind,cache" appended when o
 * has a kind (KMAP_HAS_KIND; the cache sanitized as comm is, empty when
 * o has none or its name is not known), else kmap's line.
 */
size_t kmap_format_object_offsets(char *line, const struct kmap_object *o);
size_t kmap_format_access(char *line, const struct kmap_access *a);
int kmap_write_access(FILE *f, const struct kmap_access *a);
/* The same, as kmap_offsets writes it: ",offset,offset_end" appended. */
size_t kmap_format_access_offsets(char *line, const struct kmap_access *a);
/*
 * The lines of acc[0 .. n) into buf, room bytes, each as
 * kmap_format_access() (or, offsets set, kmap_format_access_offsets())
 * writes it, as many as find KMAP_LINE_MAX bytes left for them (all of an
 * object's, a call rather than one a line); how many in *done. Returns
 * the bytes written.
 */
size_t kmap_format_accesses(char *buf, size_t room,
			    const struct kmap_access *acc, size_t n,
			    int offsets, size_t *done);
int kmap_write_access_offsets(FILE *f, const struct kmap_access *a);
/*
 * Copy comm into out (KMAP_COMM_MAX bytes) as the kmap writes it: commas
 * and control characters become '?'; at most KMAP_COMM_MAX - 1 bytes.
 */
void kmap_sanitize_comm(char *out, const char *comm, size_t len);

/* ------------------------------------------------------------------ */
/* Binary stream, record by record.                                   */

struct memorizer_stream_header;

/* A record as decoded: the fields of <linux/memorizer.h>, host order. */
struct kmap_bin_rec {
	uint16_t type;			/* enum memorizer_rec_type */
	uint16_t size;
	uint16_t cpu;
	uint64_t ns;
	uint64_t offset;		/* of the record in the stream */
	union {
		struct {
			uint64_t id, addr, call_site, jiffies;
			uint32_t size, size_alloc;
			int32_t pid;
			uint32_t cache_id;
			uint8_t kind, context;
			/* The pid's command on this CPU, "" if unknown. */
			char comm[17];
		} alloc;
		struct {
			uint64_t id, call_site, jiffies;
			uint8_t api;
			/* The object's ACCESS records in all (sweeps too). */
			uint32_t nr_access;
		} free;
		struct {
			uint64_t id, ip;
			int32_t pid;
			uint64_t writes, reads;
			/* Version 5 on; both 0 before (not known). */
			uint32_t offset, offset_end;
		} access;
		struct {
			int32_t pid;
			char comm[17];
		} task;
		struct {
			uint32_t cache_id;
			char name[33];
		} cache;
		struct {
			uint64_t records;
			uint32_t allocs, frees, accesses, other;
		} lost;
		struct {
			/* caller a return address, callee a function */
			uint64_t caller, callee, count;
			int32_t pid;
		} call;
	} u;
};

struct kmap_bin_reader;

/* Over a buffer, or a read function. NULL only when out of memory. */
struct kmap_bin_reader *kmap_bin_open_mem(const void *buf, size_t len,
					  const char *name);
struct kmap_bin_reader *kmap_bin_open_fn(kmap_read_fn fn, void *ctx,
					 const char *name);
/*
 * Read and check the stream header (done by the first kmap_bin_next() if
 * not called). Returns 0 or -1.
 */
int kmap_bin_read_header(struct kmap_bin_reader *r);
/* The header as read, or NULL before it was. */
const struct memorizer_stream_header *
kmap_bin_header(const struct kmap_bin_reader *r);
/*
 * The next record of a known type (unknown types are skipped and counted).
 * Returns 1, 0 at a clean end of the stream, -1 on error (including a
 * record cut short by the end). TASK records update the per-CPU command
 * table that ALLOC records are resolved against; CACHE records the cache
 * names (kmap_bin_cache_name()).
 */
int kmap_bin_next(struct kmap_bin_reader *r, struct kmap_bin_rec *rec);
const char *kmap_bin_cache_name(const struct kmap_bin_reader *r, uint32_t id);
/*
 * The ACCESS records that follow, of object id on cpu, up to room of them
 * into acc[] (as struct kmap_access), while each would pass what
 * kmap_bin_next(), kmap_rule_bin() and kmap_rule_bin_time() check of it
 * (the last time on cpu is *ns) and its offset_end is within size_alloc;
 * *ns is then the last one's time. Anything else (another type, object or
 * CPU, a record a rule refuses or not whole in the buffer) is left to
 * kmap_bin_next(). Returns how many. For a reader of whole objects: a
 * call per run of an object's records rather than per record.
 */
size_t kmap_bin_accesses(struct kmap_bin_reader *r, uint64_t id, uint16_t cpu,
			 uint64_t *ns, uint64_t size_alloc,
			 struct kmap_access *acc, size_t room);
uint64_t kmap_bin_offset(const struct kmap_bin_reader *r);
uint64_t kmap_bin_skipped(const struct kmap_bin_reader *r);
/* The records read so far, of every type (those skipped too). */
uint64_t kmap_bin_records(const struct kmap_bin_reader *r);
const char *kmap_bin_error(const struct kmap_bin_reader *r);
void kmap_bin_close(struct kmap_bin_reader *r);

/*
 * The stream versions this reader knows: KMAP_STREAM_VERSION_MIN to
 * MEMORIZER_STREAM_VERSION (each a later one without what the later one
 * added: version 2 kind global and context found, version 3 kinds percpu
 * and stack, free api percpu and found slab objects, pages and stacks,
 * version 4 free api module, by which a module's globals are freed,
 * version 5 offset and offset_end in ACCESS records, 8 bytes longer); it
 * refuses any other.
 */
#define KMAP_STREAM_VERSION_MIN	1
/*
 * Check a stream header of len bytes; returns 0, or -1 with what is wrong
 * in err[KMAP_ERR_MAX]. Used by the reader and by memorizer stream.
 */
int kmap_bin_check_header(const void *buf, size_t len, char *err);
/*
 * The smallest size of a record of each known type in a stream of
 * version (an ACCESS record: 56 bytes before version 5, 64 from it); 0
 * for others.
 */
size_t kmap_bin_min_size(unsigned int version, unsigned int type);
/* The first stream version whose ACCESS records carry offsets. */
#define KMAP_STREAM_VERSION_OFFSETS	5

/* ------------------------------------------------------------------ */
/* The mtrace plugin's log (mtrace_log.h), record by record.          */

/*
 * A sibling of the binary stream, with the same header rules (its own
 * magic MEMZMTRC, version, rec_size[] per type; records start with struct
 * memorizer_rec_hdr, unknown types skipped by their size, short ones
 * rejected). The reader also checks what the plugin guarantees: known
 * flags, access sizes 1 to 32 (powers of two), ips in the kernel half,
 * paddr set only with its flag, every record of a mode sharing log
 * flagged shared, vCPUs below nr_cpus and per-vCPU time in order. Errors
 * are "FILE: byte OFFSET: what is wrong".
 */
struct mtrace_log_header;
struct kmap_mtrace_rec {
	uint16_t type;			/* enum mtrace_rec_type */
	uint16_t size;
	uint16_t cpu;			/* the vCPU */
	uint64_t ns;
	uint64_t offset;		/* of the record in the log */
	union {
		struct {
			uint64_t vaddr, ip, paddr;
			uint32_t pid;	/* MTRACE_PID_UNKNOWN: not known */
			uint8_t size, flags;	/* MTRACE_F_* */
		} access;
		struct {
			uint32_t pid;
		} sw;
	} u;
};
struct kmap_mtrace_reader;
struct kmap_mtrace_reader *kmap_mtrace_open_mem(const void *buf, size_t len,
						const char *name);
struct kmap_mtrace_reader *kmap_mtrace_open_fn(kmap_read_fn fn, void *ctx,
					       const char *name);
int kmap_mtrace_read_header(struct kmap_mtrace_reader *r);
const struct mtrace_log_header *
kmap_mtrace_header(const struct kmap_mtrace_reader *r);
/* 1 with *rec, 0 at a clean end, -1 on error (kmap_mtrace_error()). */
int kmap_mtrace_next(struct kmap_mtrace_reader *r, struct kmap_mtrace_rec *rec);
uint64_t kmap_mtrace_skipped(const struct kmap_mtrace_reader *r);
/* The records read so far, of every type (those skipped too). */
uint64_t kmap_mtrace_records(const struct kmap_mtrace_reader *r);
const char *kmap_mtrace_error(const struct kmap_mtrace_reader *r);
void kmap_mtrace_close(struct kmap_mtrace_reader *r);
/*
 * One record as a text line into line[KMAP_LINE_MAX] (newline included,
 * NUL-terminated); returns its length. memorizer text's format:
 *   access,CPU,NS,PID,IP,VADDR,PADDR,SIZE,r|w,shared|-
 *   switch,CPU,NS,PID
 * numbers hexadecimal for addresses, decimal otherwise; ? for a pid or
 * paddr not known.
 */
size_t kmap_format_mtrace(char *line, const struct kmap_mtrace_rec *rec);

/* ------------------------------------------------------------------ */
/* Objects, from either format.                                       */

enum kmap_format {
	KMAP_FMT_TEXT = 1,
	KMAP_FMT_BINARY = 2,
	KMAP_FMT_BINARY_ZSTD = 3,
	KMAP_FMT_MTRACE = 4,		/* the mtrace plugin's log */
	KMAP_FMT_CALLS = 5,		/* function_calls (struct kmap_call) */
	KMAP_FMT_FRAMES = 6,		/* stack_frames (struct kmap_frame) */
};

struct kmap_src;

/*
 * Open path for reading, as every reader here does: NULL with err set
 * ("PATH: reason") when it cannot be, or is a directory.
 */
FILE *kmap_fopen(const char *path, char *err);

/*
 * Open path ("-" is stdin) and tell its format from its first bytes
 * (those decompressed, when zstd-compressed: a text kmap or a stream).
 * Returns NULL with err[KMAP_ERR_MAX] set when the file cannot be opened
 * or is compressed and libkmap has no zstd.
 */
struct kmap_src *kmap_src_open(const char *path, char *err);
/* The same over an open FILE (not closed by kmap_src_close). */
struct kmap_src *kmap_src_open_file(FILE *f, const char *name, char *err);
/*
 * KMAP_FMT_TEXT, KMAP_FMT_BINARY, KMAP_FMT_MTRACE, KMAP_FMT_CALLS or
 * KMAP_FMT_FRAMES: what the (decompressed) input holds.
 */
enum kmap_format kmap_src_format(const struct kmap_src *s);
/*
 * How far reading is: the input's bytes read so far (compressed ones, for
 * compressed input); *size is the file's size, 0 when not a regular file.
 */
uint64_t kmap_src_progress(const struct kmap_src *s, uint64_t *size);
/*
 * What has been read of the input so far: records of a stream or an mtrace
 * log (every type's), lines of a text kmap, function_calls or
 * stack_frames file. *lines says which (1: lines).
 */
uint64_t kmap_src_records(const struct kmap_src *s, int *lines);
/*
 * Progress while s is read, whoever reads it (kmap_src_next() or the
 * readers under s): fn(ctx, s, KMAP_PROGRESS_READ) each time a buffer of
 * input comes in, then once either KMAP_PROGRESS_END, when the input has
 * been read to its clean end (the reader under s met it, or
 * kmap_src_next() returned 0), or KMAP_PROGRESS_STOP at kmap_src_close()
 * when it was not. fn can ask kmap_src_progress() and kmap_src_records()
 * how far it is; after the last call it is not called again.
 */
enum kmap_progress { KMAP_PROGRESS_READ, KMAP_PROGRESS_END, KMAP_PROGRESS_STOP };
typedef void (*kmap_progress_fn)(void *ctx, const struct kmap_src *s,
				 enum kmap_progress what);
void kmap_src_on_progress(struct kmap_src *s, kmap_progress_fn fn, void *ctx);
/*
 * The record reader under s (the text one for a text kmap, else NULL; the
 * binary one for a stream), for a validator that wants every record and
 * line, not objects (memorizer check): read either through it, or objects
 * through kmap_src_next(), not both.
 */
struct kmap_text_reader *kmap_src_text(struct kmap_src *s);
struct kmap_bin_reader *kmap_src_bin(struct kmap_src *s);
/*
 * An mtrace log (KMAP_FMT_MTRACE): its record reader, else NULL. It holds
 * no objects: kmap_src_next() on it is an error.
 */
struct kmap_mtrace_reader *kmap_src_mtrace(struct kmap_src *s);
/*
 * The call edges a source has read (KMAP_FMT_CALLS: all of them by the
 * time kmap_src_next() returned 0, which it does at once with no objects);
 * NULL when it has read none.
 */
const struct kmap_calls *kmap_src_calls(const struct kmap_src *s);
/*
 * The stack frame cells of a stack_frames file (KMAP_FMT_FRAMES): all of
 * them by the time kmap_src_next() returned 0, which it does at once with
 * no objects, or -1 at the first line kmap_frames_next() refuses. NULL
 * for another format.
 */
const struct kmap_frames *kmap_src_frames(const struct kmap_src *s);
/* The input's name in messages: the path, or <stdin> for "-". */
const char *kmap_src_name(const struct kmap_src *s);
/*
 * For a reader that only sums an object's accesses (memorizer report):
 * kmap_src_next() may hand them out in any order, not by (ip, pid) (a
 * stream's repeated (ip, pid) counters are still merged, into the first
 * one's place; the rest stay in the order read). Before the first
 * kmap_src_next().
 */
void kmap_src_any_order(struct kmap_src *s);
/*
 * The next object and its accesses (*acc[0 .. *nacc - 1]); valid until the
 * next call. Returns 1, 0 at the end, -1 on error (kmap_src_error()).
 * The object's has says which optional fields the input gave.
 */
int kmap_src_next(struct kmap_src *s, const struct kmap_object **obj,
		  const struct kmap_access **acc, size_t *nacc);
/* For binary input: LOST records seen, the records they count. */
uint64_t kmap_src_lost(const struct kmap_src *s);
/*
 * For binary input, at the end: objects with FREE or ACCESS records but no
 * ALLOC (allocated before the stream began); they are not handed out, and
 * are held only while their ALLOC may still come (the stream's next 4 MiB
 * per CPU, at least 16 MiB, after their first record: the kernel's
 * per-CPU buffers, 4 MiB by default, interleave): memory stays
 * bounded whatever the number of orphans. An ALLOC later than that is an
 * error.
 */
uint64_t kmap_src_orphans(const struct kmap_src *s);
/*
 * Whether the input's accesses carry offsets: 1 for a stream of version 5
 * or later and a kmap_offsets text, 0 for an older stream and a seeds'
 * kmap, -1 while not known (a text kmap before its first access line).
 */
int kmap_src_offsets(const struct kmap_src *s);
/* For binary input: the stream header's hz, else 0. */
unsigned int kmap_src_hz(const struct kmap_src *s);
const char *kmap_src_error(const struct kmap_src *s);
/*
 * Once kmap_src_next() returned 0 (the end): free the memory objects were
 * assembled in (a stream's live objects, the most of it), for a reader
 * that goes on to other work with s still open (memorizer report's table,
 * which the memory can then go to). The functions above still answer;
 * kmap_src_next() returns 0. Does nothing before the end.
 */
void kmap_src_release(struct kmap_src *s);
void kmap_src_close(struct kmap_src *s);

/*
 * Tell a format from the first bytes of an input: the stream magic, the
 * mtrace log's, the zstd magic, or -- since a text kmap is printable
 * ASCII -- binary when one of the first 16 bytes is neither printable nor
 * a newline (a stream whose magic is damaged is then reported as such, not
 * as bad text). Printable input is a text kmap unless buf holds its whole
 * first line (up to its newline) and that line is a call edge's
 * (KMAP_FMT_CALLS): it starts with no space (an access line has two) and
 * has 4 fields between commas (a kmap object line has 8 or 10), or no
 * comma and 3 fields between single spaces (the fork's), and
 * kmap_parse_call() takes it; or has the shape of a stack frame cell's
 * (KMAP_FMT_FRAMES): 5 fields between commas, none empty, the first two
 * of hexadecimal digits and x (either case), the other three of decimal
 * digits and -, the line at most KMAP_LINE_MAX bytes with its newline
 * (what kmap_src reads of it). The shape, not kmap_parse_frame(),
 * decides, so that a stack_frames file whose first line is wrong (an 0x,
 * a negative pid, counts both 0) is refused for what is wrong with it,
 * not as a kmap. kmap_src passes the whole first line; an empty file is
 * a text kmap (holding no objects, no calls and no frames).
 */
enum kmap_format kmap_guess_format(const void *buf, size_t len);

/* ------------------------------------------------------------------ */
/* The rules beyond syntax: one set, for every reader (kmap_rules.c). */

/*
 * What the kernel documentation's format and seed 000 require of a kmap
 * or a stream beyond what the record readers check (syntax, ranges,
 * sizes). kmap_src applies the errors, so every command that reads
 * objects refuses what memorizer check calls invalid; check applies
 * errors and warnings and reports each problem. The kmap_rule_*()
 * functions return KMAP_RULE_OK, or KMAP_RULE_WARNING or KMAP_RULE_ERROR
 * with the problem (no location) in err[KMAP_ERR_MAX].
 */
enum {
	KMAP_RULE_OK = 0,
	KMAP_RULE_WARNING = 1,
	KMAP_RULE_ERROR = 2,
};
/* A text object line: alloc_ip set, not freed before its allocation, no
 * pid in interrupt context, no wrap around the address space; a found
 * object (pid 0, executable global, percpu, irq_stack, unseen or page) has
 * its own address as alloc_ip. Any may be freed: a text kmap has no
 * version, and a global may be a module's, freed at its unload (a percpu
 * one an alloc_percpu() area). A freed object may have free_ip 0 (seed
 * 000: not every free_ip is obtained). One whose line names its kind
 * (kmap_offsets, KMAP_HAS_KIND) is found (its own address as alloc_ip)
 * always for globals and per-CPU objects, never for kmalloc_large and
 * vmalloc ones, with pid 0 but for a task's stack, and then with its
 * kind's word as executable (struct kmap_kind). */
int kmap_rule_object(const struct kmap_object *o, char *err);
/*
 * An access line: some reads or writes, access_ip set, and its offsets
 * (kmap_rule_offsets()).
 */
int kmap_rule_access(const struct kmap_access *a, char *err);
/*
 * Whether kmap_rule_access() finds a right (kmap_offsets_ok(): what
 * kmap_rule_offsets() finds right): inline, for readers that test
 * millions of lines and want its message only for a line it refuses.
 */
static inline int kmap_offsets_ok(uint32_t offset, uint32_t offset_end)
{
	return offset < offset_end || !(offset | offset_end);
}
static inline int kmap_access_ok(const struct kmap_access *a)
{
	return (a->reads || a->writes) && a->ip &&
	       kmap_offsets_ok(a->offset, a->offset_end);
}
/* The same of an ACCESS record's counts and bytes, for kmap_rule_bin(). */
static inline int kmap_access_rec_ok(uint64_t writes, uint64_t reads,
				     uint32_t offset, uint32_t offset_end)
{
	return (writes | reads) && writes <= UINT32_MAX && reads <= UINT32_MAX &&
	       kmap_offsets_ok(offset, offset_end);
}
/*
 * A byte range of an access (a line's, an ACCESS record's): both 0 (none
 * known), or offset below offset_end (offset may be 0).
 */
int kmap_rule_offsets(uint32_t offset, uint32_t offset_end, char *err);
/*
 * An access's offset_end within its object's size_alloc (the kernel
 * rounds a large object's range outwards, never past it); checked where
 * the object's size_alloc is known: a stream's ALLOC (a text kmap's size
 * is the requested one, which an access may pass).
 */
int kmap_rule_offset_end(uint32_t offset_end, uint64_t size_alloc, char *err);
/* free_jiffies, when set, is not before alloc_jiffies. */
int kmap_rule_free_time(uint64_t alloc_jiffies, uint64_t free_jiffies,
			char *err);
/*
 * Whether a's (ip, pid) comes before b's: a kmap's order mostly, in which
 * none can repeat (kmap_rule_dups() looks no further when all are so).
 */
static inline int kmap_access_before(const struct kmap_access *a,
				     const struct kmap_access *b)
{
	return a->ip < b->ip || (a->ip == b->ip && a->pid < b->pid);
}
/*
 * No (ip, pid) twice under one object: the pairs of indexes into acc that
 * repeat one (up to max_pairs of them, each first < second); returns how
 * many there are, -1 when out of memory.
 */
long kmap_rule_dups(const struct kmap_access *acc, size_t n,
		    size_t (*pairs)[2], size_t max_pairs);
/* A live object, for the overlap rule; where: its line or byte offset. */
struct kmap_live {
	uint64_t addr, size, where;
};
/*
 * No two live objects overlap: sorts live by address and returns how many
 * overlapping pairs there are, the first max_pairs as indexes into the
 * sorted live (the earlier-starting object first).
 */
size_t kmap_rule_overlaps(struct kmap_live *live, size_t n,
			  size_t (*pairs)[2], size_t max_pairs);
/* The overlap rule's message for one pair (binary: where is a byte). */
void kmap_rule_overlap_message(const struct kmap_live *earlier,
			       const struct kmap_live *later, int binary,
			       char *err);
/*
 * Per-record rules of a binary stream: ACCESS offsets (kmap_rule_offsets()),
 * enum values known in the stream's version (kind global and context found are version 2's, kinds percpu
 * and stack, free api percpu and found slab objects, pages and stacks
 * version 3's, free api module version 4's; see struct kmap_kind and
 * struct kmap_free_api), no pid in interrupt context, context
 * found exactly for the kinds found in the stream's version and always
 * for globals and per-CPU objects, a found object's call_site its own
 * address and its pid 0 but for a task's stack, size_alloc >= size, call
 * sites set, missed frees marked deadbeef, a module free's call_site its
 * unload's caller (neither 0 nor deadbeef), ACCESS counts set and within 32
 * bits (the kernel's counters; merged, an object's counts may pass that
 * and stop at 2^64 - 1), LOST counts consistent; warnings: an ALLOC of a
 * task's (task context, or its found stack) with no TASK record for its
 * pid, a cache id with no CACHE record.
 */
int kmap_rule_bin(const struct kmap_bin_reader *r,
		  const struct kmap_bin_rec *rec, char *err);
/*
 * An object of kind with a FREE record by api (whichever of its ALLOC and
 * FREE came first) in a stream of version: an error for a kind not freed
 * in that version (a global before version 4), for an api that frees
 * another kind alone (module frees globals only), and for a FREE by
 * another API than its kind's, or missed, of a kind freed by those alone
 * (a global from version 4: its module unloaded, or its record closed as
 * missed). A per-CPU object may
 * be freed (an alloc_percpu() area, by free_percpu(); a per-CPU variable
 * never is, but its record does not say which it is). Otherwise a FREE by
 * another API than the kind's is no error: kfree() frees any slab object;
 * memorizer report counts them as mismatched. An api or kind not known
 * (in the version) is kmap_rule_bin()'s error, not this one's.
 */
int kmap_rule_bin_freed(unsigned int version, uint64_t id, unsigned int kind,
			unsigned int api, char *err);
/*
 * Time never goes backwards on one CPU: state per stream, from
 * kmap_bin_rules_new(the header's nr_cpus); every record goes through it.
 */
struct kmap_bin_rules;
struct kmap_bin_rules *kmap_bin_rules_new(unsigned int nr_cpus);
int kmap_rule_bin_time(struct kmap_bin_rules *st,
		       const struct kmap_bin_rec *rec, char *err);
void kmap_bin_rules_free(struct kmap_bin_rules *st);

/* ------------------------------------------------------------------ */
/* debugfs memorizer/stats (kmap_stats.c).                            */

/*
 * The kernel's figures (kernel/Documentation/dev-tools/memorizer.rst):
 * one "KEY VALUE" line each, KEY without a space, VALUE unsigned decimal
 * within 64 bits; empty lines are skipped. Keys are looked up by name
 * (new ones may come), in file order.
 */
#define KMAP_STATS_LINE_MAX	256	/* newline included */
struct kmap_stat {
	char *key;
	uint64_t value;
};
struct kmap_stats {
	struct kmap_stat *stat;
	size_t n, cap;
};
/*
 * Read f (name in errors; f not closed) into *st. Returns 0, or -1 with
 * err[KMAP_ERR_MAX] set ("NAME:LINE: what is wrong", the line quoted when
 * it is not a "key value" one). kmap_stats_free() *st either way.
 */
int kmap_stats_read(FILE *f, const char *name, struct kmap_stats *st,
		    char *err);
/* The value of key (the first line's, if repeated); NULL when none has it. */
const uint64_t *kmap_stats_find(const struct kmap_stats *st, const char *key);
void kmap_stats_free(struct kmap_stats *st);

/* ------------------------------------------------------------------ */
/* Call edges: debugfs memorizer/function_calls (kmap_calls.c).       */

/*
 * One call edge a line, as the kernel prints it, "%lx,%lx,%d,%lu":
 *
 *   caller,callee,pid,count
 *
 * caller the call's return address in the calling function, callee the
 * called function's start, both lowercase hex without 0x or leading
 * zeros and not 0; pid below KMAP_PID_MAX; count above 0. The public
 * Memorizer fork's file has "%lx %lx %ld" lines, caller callee count,
 * no pid: read as pid KMAP_CALL_PID_UNKNOWN (no pid the kernel gives).
 * One file holds lines of one format, the first line's.
 */
#define KMAP_CALL_PID_UNKNOWN	UINT32_MAX
struct kmap_call {
	uint64_t caller, callee;
	uint32_t pid;
	uint64_t count;
};
/*
 * Parse one line (without its newline) into *c; *fork says which format
 * it is in (1: the fork's). Returns 0, or -1 with what is wrong (no
 * location) in err[KMAP_ERR_MAX].
 */
int kmap_parse_call(const char *s, size_t len, struct kmap_call *c, int *fork,
		    char *err);
struct kmap_calls_reader;
/*
 * Read call lines from f (not closed by kmap_calls_close), or through a
 * read function; name is used in errors. NULL only when out of memory.
 */
struct kmap_calls_reader *kmap_calls_open(FILE *f, const char *name);
struct kmap_calls_reader *kmap_calls_open_fn(kmap_read_fn fn, void *ctx,
					     const char *name);
/*
 * The next line's edge: 1, 0 at the end, -1 on error (kmap_calls_error():
 * "FILE:LINE: what is wrong"; reading further returns -1 again). Lines are
 * at most KMAP_LINE_MAX bytes, newline included, and end in one.
 */
int kmap_calls_next(struct kmap_calls_reader *r, struct kmap_call *c);
const char *kmap_calls_error(const struct kmap_calls_reader *r);
void kmap_calls_close(struct kmap_calls_reader *r);

/*
 * Call edges summed: one entry per (caller, callee, pid), its counts
 * added (saturating, kmap_add_sat()), in the order first seen. O(1) per
 * edge added; memory grows with the distinct edges.
 */
struct kmap_calls;
/* NULL when out of memory. */
struct kmap_calls *kmap_calls_new(void);
/* Returns 0, or -1 when out of memory. */
int kmap_calls_add(struct kmap_calls *t, const struct kmap_call *c);
/* The edges (*calls[0 .. n - 1]), valid until the next add; t may be NULL. */
size_t kmap_calls_list(const struct kmap_calls *t,
		       const struct kmap_call **calls);
void kmap_calls_free(struct kmap_calls *t);

/* ------------------------------------------------------------------ */
/* Stack frames: debugfs memorizer/stack_frames (kmap_frames.c).      */

/*
 * While call logging is on, the kernel attributes each load and store
 * KASAN checks on the current task's stack to the frame it falls in: the
 * activation of the function whose frame holds the address, found on a
 * shadow stack of the task's calls. One cell a line, "%lx,%lx,%d,%u,%u":
 *
 *   frame,ip,pid,writes,reads
 *
 * frame the start of the function whose frame was accessed, ip the
 * accessing instruction, both lowercase hex without 0x or leading zeros
 * and not 0; pid below KMAP_PID_MAX (0: the idle task); writes and reads
 * within 32 bits (the kernel's counters), not both 0. After frame, the
 * fields are an access line's (access_ip,access_pid,write_count,
 * read_count): a cell is an access line on the frame of the function at
 * frame. A (frame, ip, pid) is on one line at most. An empty file holds
 * no cell (kmap_guess_format() calls it an empty text kmap, which holds
 * nothing either).
 *
 * A frame's bytes are not known: the kernel counts accesses per frame,
 * not where in it they land, nor how big it is. Where data units are
 * weighed in bytes (kmap_compart_units), a frame weighs KMAP_FRAME_BYTES,
 * one stack slot: the least a frame holds (its return address), so that
 * frames count in the byte metrics without outweighing the objects whose
 * sizes are known.
 */
#define KMAP_FRAME_BYTES	8
struct kmap_frame {
	uint64_t frame, ip;
	uint32_t pid;
	uint64_t writes, reads;
};
/*
 * Parse one line (without its newline) into *f. Returns 0, or -1 with
 * what is wrong (no location) in err[KMAP_ERR_MAX].
 */
int kmap_parse_frame(const char *s, size_t len, struct kmap_frame *f,
		     char *err);
struct kmap_frames_reader;
/*
 * Read stack frame lines from f (not closed by kmap_frames_close), or
 * through a read function; name is used in errors. NULL only when out of
 * memory.
 */
struct kmap_frames_reader *kmap_frames_open(FILE *f, const char *name);
struct kmap_frames_reader *kmap_frames_open_fn(kmap_read_fn fn, void *ctx,
					       const char *name);
/*
 * The next line's cell: 1, 0 at the end, -1 on error (kmap_frames_error():
 * "FILE:LINE: what is wrong"; reading further returns -1 again). Lines are
 * at most KMAP_LINE_MAX bytes, newline included, and end in one. The
 * reader keeps the cells it read, to refuse a (frame, ip, pid) on a second
 * line: its memory grows with the cells.
 */
int kmap_frames_next(struct kmap_frames_reader *r, struct kmap_frame *f);
/*
 * The cells handed out so far, one a line in file order (a line refused
 * is not among them); valid while r is.
 */
const struct kmap_frames *kmap_frames_read(const struct kmap_frames_reader *r);
const char *kmap_frames_error(const struct kmap_frames_reader *r);
void kmap_frames_close(struct kmap_frames_reader *r);

/*
 * Frame cells summed: one entry per (frame, ip, pid), its counts added
 * (saturating, kmap_add_sat()), in the order first seen. O(1) per cell
 * added; memory grows with the distinct cells.
 */
struct kmap_frames;
/* NULL when out of memory. */
struct kmap_frames *kmap_frames_new(void);
/*
 * Returns 1 when f's (frame, ip, pid) is new, 0 when an entry had it (f's
 * counts added to it), -1 when out of memory; *at (when not NULL) is the
 * entry's index.
 */
int kmap_frames_add(struct kmap_frames *t, const struct kmap_frame *f,
		    size_t *at);
/* The entries (*frames[0 .. n - 1]), valid until the next add; t: NULL ok. */
size_t kmap_frames_list(const struct kmap_frames *t,
			const struct kmap_frame **frames);
void kmap_frames_free(struct kmap_frames *t);

/* ------------------------------------------------------------------ */
/* Compartments: how well code separates (kmap_compart.c).            */

/*
 * Code units (functions, files, directories: numbers 0 .. ncode - 1 here)
 * and data units (call sites, types, fields, objects: 0 .. ndata - 1),
 * the rights each code unit c used on each data unit, A(c), and the calls
 * between code units. A partition P of the code units into compartments
 * is scored, exactly:
 *
 *   least         = sum over code units c of |A(c)|
 *   granted(P)    = sum over compartments p of |p| * |union of A(c), c in p|
 *                   (|p|: its code units)
 *   monolithic    = granted of the one-compartment partition
 *   reduction(P)  = (monolithic - granted(P)) / (monolithic - least):
 *                   0 for one compartment, 1 for one per code unit; 1
 *                   when monolithic = least
 *   the same three with |.| the sum of the data units' sizes in bytes
 *   crossings(P)  = the counts of calls whose caller and callee are in
 *                   different compartments; as a share of all calls' counts
 *                   (0 when there are none)
 *   shared(P)     = the data units that one compartment writes and another
 *                   reads or writes
 *
 * Sums saturate at UINT64_MAX.
 */
#define KMAP_RIGHT_READ		1u
#define KMAP_RIGHT_WRITE	2u
#define KMAP_RIGHT_FREE		4u
struct kmap_compart;
struct kmap_compart_point {
	size_t compartments;
	uint64_t least, granted, monolithic;
	uint64_t least_bytes, granted_bytes, monolithic_bytes;
	double reduction, reduction_bytes;
	uint64_t crossings, calls;
	double crossing_share;
	uint64_t shared;
};
/* NULL when out of memory. */
struct kmap_compart *kmap_compart_new(void);
/*
 * Before kmap_compart_finish(), each returning 0 or -1 (out of memory,
 * or after finish): code unit code exists (one with no data still
 * counts in |p|); code used rights (KMAP_RIGHT_*, ORed with earlier
 * ones) on data; data is at least bytes long (the largest given counts);
 * caller called callee count times (counts of a pair add up).
 */
int kmap_compart_code(struct kmap_compart *p, uint32_t code);
int kmap_compart_right(struct kmap_compart *p, uint32_t code, uint32_t data,
		       unsigned int rights);
int kmap_compart_size(struct kmap_compart *p, uint32_t data, uint64_t bytes);
int kmap_compart_call(struct kmap_compart *p, uint32_t caller,
		      uint32_t callee, uint64_t count);
/* Sort and merge what was added. 0, or -1 when out of memory. */
int kmap_compart_finish(struct kmap_compart *p);
size_t kmap_compart_ncode(const struct kmap_compart *p);
/* A(code) after kmap_compart_finish(): its cells, by data unit. */
struct kmap_compart_cell {
	uint32_t code, data;
	uint8_t rights;			/* KMAP_RIGHT_* */
};
size_t kmap_compart_access(const struct kmap_compart *p, uint32_t code,
			   const struct kmap_compart_cell **cells);
/*
 * Score the partition part[code] (labels below nlabels; compartments are
 * the labels used). 0, or -1 when out of memory or a label is too big.
 */
int kmap_compart_eval(const struct kmap_compart *p, const uint32_t *part,
		      size_t nlabels, struct kmap_compart_point *pt);
/*
 * The compartment counts to show of a sweep over n code units: at most
 * want (at least 2) of them, n down to 1, evenly spaced in log(count),
 * both ends always, none twice, into out[want]. Returns how many.
 */
size_t kmap_compart_points(size_t n, size_t want, size_t *out);
/*
 * A design point of a sweep: its figures and part[code], each code unit's
 * compartment (labels below nlabels). Returns 0 to go on, -1 to stop.
 */
typedef int (*kmap_compart_point_fn)(void *ctx,
				     const struct kmap_compart_point *pt,
				     const uint32_t *part, size_t nlabels);
/*
 * Agglomerative clustering, from one compartment per code unit down to
 * one: fn is called at each count in want[0 .. nwant - 1] (descending;
 * kmap_compart_points()). Each step merges the two compartments of the
 * highest affinity:
 *
 *   affinity(a, b) = |D(a) & D(b)| / |D(a) | D(b)|
 *                    + calls(a, b) / (calls out of a + calls out of b)
 *
 * D(x) the union of its code units' A(c), calls(a, b) the calls between
 * them either way, "calls out of x" those between x and any other
 * compartment; each term 0 where its denominator is. Ties go to the pair
 * whose first names come first: rank[code] is each code unit's place in
 * name order (distinct), a compartment's name its first code unit's, the
 * pair (lower name, higher name) compared. Only pairs that share a data
 * unit or a call are candidates (a data unit touched by more than 64 code
 * units pairs each with the next 8 in name order only); when none is
 * left, the remaining compartments, which share nothing, are merged in
 * name order: the first two, then the next two, each merged one going to
 * the back of the queue. Candidates sit in a heap, stale ones (a
 * compartment merged since) skipped as they come up; the metrics follow
 * each merge. Returns 0, -1 when out of memory or fn stopped it.
 */
int kmap_compart_sweep(const struct kmap_compart *p, const uint32_t *rank,
		       const size_t *want, size_t nwant,
		       kmap_compart_point_fn fn, void *ctx);
void kmap_compart_free(struct kmap_compart *p);

/*
 * The problem of a capability map m (kmap_capmap), stack frame cells
 * frames and call edges calls (kmap_compart_units.c), its units named:
 * m's subjects are the code units, its groups the data units (with
 * fields, a map split by range, kmap_capmap_split_ranges(): a group's
 * bytes of each range apart, "GROUP+OFF..END (FIELD)", the bytes of no
 * known range the group's own), numbered in the order m's cells name
 * them; then the frames': each cell gives the code unit of its ip (named
 * as m names access ips) r on its frame if it read it, w if it wrote it,
 * the frame a data unit named as m names frames
 * (kmap_capmap_frame_group(): frame:FUNC, or frame for all of them when
 * m groups by kind); then the calls' callers and callees, their ips named
 * as m names access ips (one that only calls or is called is a code unit
 * too). A data unit's bytes: its range's width, else its group's largest
 * object; a frame's KMAP_FRAME_BYTES. rank: each code unit's place in
 * name order, for kmap_compart_sweep(). m must outlive u; frames and
 * calls may be NULL. NULL when out of memory.
 */
struct kmap_capmap;
struct kmap_compart_units;
struct kmap_compart_units *kmap_compart_units_new(const struct kmap_capmap *m,
						  const struct kmap_frames *frames,
						  const struct kmap_calls *calls,
						  int fields);
const struct kmap_compart *
kmap_compart_units_problem(const struct kmap_compart_units *u);
const uint32_t *kmap_compart_units_rank(const struct kmap_compart_units *u);
size_t kmap_compart_units_ncode(const struct kmap_compart_units *u);
size_t kmap_compart_units_ndata(const struct kmap_compart_units *u);
/* Unit i's name; NULL when there is none. */
const char *kmap_compart_units_code(const struct kmap_compart_units *u,
				    size_t i);
const char *kmap_compart_units_data(const struct kmap_compart_units *u,
				    size_t i);
/* The code unit of ip (as a call's caller or callee), -1 when none. */
long kmap_compart_units_ip(const struct kmap_compart_units *u, uint64_t ip);
void kmap_compart_units_free(struct kmap_compart_units *u);

/*
 * A split file: a partition given by hand. One rule a line,
 *
 *   COMPARTMENT PATTERN
 *
 * two fields apart by spaces or tabs; PATTERN a glob (fnmatch(3), no
 * flags: * matches / too) over code unit names, function names or source
 * paths. Blank lines and lines starting with # are skipped. A code unit
 * goes to the first rule's compartment whose pattern matches it, else to
 * KMAP_SPLIT_REST.
 */
#define KMAP_SPLIT_REST		"rest"
struct kmap_split_rule {
	char *compartment, *pattern;
	unsigned long line;
};
struct kmap_split {
	struct kmap_split_rule *rule;
	size_t n, cap;
};
/*
 * Read f (name in errors) into *sp. 0, or -1 with err[KMAP_ERR_MAX]
 * ("NAME:LINE: what is wrong"); kmap_split_free() *sp either way.
 */
int kmap_split_read(FILE *f, const char *name, struct kmap_split *sp,
		    char *err);
/* unit's compartment: the first match's, or KMAP_SPLIT_REST. */
const char *kmap_split_match(const struct kmap_split *sp, const char *unit);
void kmap_split_free(struct kmap_split *sp);

/* ------------------------------------------------------------------ */
/* Small helpers the tools share.                                     */

/*
 * A hexadecimal number of 1 to 16 digits, either case, in s[0 .. len - 1]:
 * no sign, no 0x, no space. Returns 0, or -1 when s is not one. (Kmap
 * fields are stricter: kmap_parse_line() takes lowercase only, without
 * leading zeros.)
 */
int kmap_parse_hex(const char *s, size_t len, uint64_t *v);

/*
 * An unsigned decimal number of 1 to 20 digits in s[0 .. len - 1], no
 * sign, no space, within 64 bits. Returns 0, or -1 when s is not one.
 * (Kmap fields are stricter: no leading zeros.)
 */
int kmap_parse_dec(const char *s, size_t len, uint64_t *v);

/*
 * Make the array *p (of elements of size bytes, *cap of them) hold at
 * least n, doubling (from n, at least 4). Returns 0, or -1 when out of memory (*p
 * is then unchanged). Every growing array here goes through it.
 */
int kmap_grow_to(void **p, size_t *cap, size_t n, size_t size);

/* Inline: most calls find room (a call per element appended). */
static inline int kmap_grow(void **p, size_t *cap, size_t n, size_t size)
{
	return n <= *cap ? 0 : kmap_grow_to(p, cap, n, size);
}

/*
 * a + b, or UINT64_MAX when the sum does not fit: counts of accesses
 * (reads, writes, frees) summed stop at the top rather than wrap, as the
 * kernel's own do. Every sum of counts read from a kmap goes through it.
 */
static inline uint64_t kmap_add_sat(uint64_t a, uint64_t b)
{
	uint64_t s = a + b;

	return s < a ? UINT64_MAX : s;
}

/*
 * A hash map from u64 keys (any) to u64 values; grows. Open addressing,
 * a key and its value side by side (one cache line per lookup); a free
 * slot holds KMAP_MAP_FREE, and that key, should it be used, lives apart.
 */
#define KMAP_MAP_FREE	UINT64_MAX
struct kmap_slot {
	uint64_t key, val;
};
struct kmap_map {
	struct kmap_slot *slots;
	size_t cap, len;		/* len counts the key apart too */
	int has_free_key;
	uint64_t free_key_val;
};
void kmap_map_init(struct kmap_map *m);
/* A pointer to key's value (inserted as 0 when new), NULL when out of memory. */
uint64_t *kmap_map_get(struct kmap_map *m, uint64_t key, int *is_new);
/* key's value or NULL; never inserts. */
uint64_t *kmap_map_find(const struct kmap_map *m, uint64_t key);
/*
 * Start fetching key's slot into the cache (a large map's lookups each
 * miss it): for a caller that knows the key an item ahead.
 */
void kmap_map_prefetch(const struct kmap_map *m, uint64_t key);
int kmap_map_del(struct kmap_map *m, uint64_t key);
void kmap_map_free(struct kmap_map *m);
/*
 * Every entry, in no order: start with *pos 0; returns 1 with *key and
 * *val (a pointer into the map), 0 after the last.
 */
int kmap_map_next(const struct kmap_map *m, size_t *pos, uint64_t *key,
		  uint64_t **val);
/*
 * Intern key in a dense array *arr (*n elements of size bytes, room for
 * *cap) indexed through m: *idx is key's index; a new key gets the next
 * element (*is_new set, its contents the caller's to fill). Returns 0, or
 * -1 when out of memory.
 */
int kmap_intern(struct kmap_map *m, uint64_t key, void **arr, size_t *n,
		size_t *cap, size_t size, size_t *idx, int *is_new);
/*
 * The same for a key wider than 64 bits: h its hash (kmap_hash3() for two
 * u64 and a u32), same(key, elem) whether an element of *arr holds key;
 * hashes that clash go to h + 1, h + 2, ... in m. A new key's element is
 * the caller's to fill (with key) before the next call.
 */
int kmap_intern_wide(struct kmap_map *m, uint64_t h, const void *key,
		     int (*same)(const void *key, const void *elem),
		     void **arr, size_t *n, size_t *cap, size_t size,
		     size_t *idx, int *is_new);
static inline uint64_t kmap_hash3(uint64_t a, uint64_t b, uint32_t c)
{
	uint64_t h = a * 0x9e3779b97f4a7c15ull;

	h ^= b + 0x632be59bd9b4e019ull + (h << 6) + (h >> 2);
	return h ^ (uint64_t)c * 0xff51afd7ed558ccdull;
}

/*
 * Symbols: ip -> function+offset, and file:line where a vmlinux has DWARF.
 * kmap_sym_open_map() reads System.map or /proc/kallsyms ("ADDR TYPE NAME
 * [MODULE]" lines; text symbols only); kmap_sym_open_elf() reads a
 * vmlinux's symbol table and DWARF with libdw (when built with it).
 * Returns NULL with err set.
 */
struct kmap_sym;
struct kmap_sym *kmap_sym_open_map(const char *path, char *err);
struct kmap_sym *kmap_sym_open_elf(const char *path, char *err);
/*
 * One line of a System.map or /proc/kallsyms: "ADDR TYPE NAME", and in
 * kallsyms "\t[MODULE]" after a module's symbol. name and module (""
 * when none) are valid during the call only.
 */
struct kmap_ksym {
	uint64_t addr;
	char type;			/* nm's: T, t, D, d, B, b, R, r, W, ... */
	const char *name;
	const char *module;
};
typedef int (*kmap_ksym_fn)(void *ctx, const struct kmap_ksym *k);
/*
 * Read path's lines, every symbol of every type, in file order, calling
 * fn on each; fn returns 0 to go on, or -1 with err[KMAP_ERR_MAX] set
 * (err is the one given here) to stop. Returns 0, or -1 with err set: a
 * line not of the format ("PATH:LINE: what is wrong"), the file not
 * readable, or fn's. kmap_sym_open_map() reads its text symbols so;
 * a tool that wants other symbols (data) reads them so too.
 */
int kmap_sym_read_map(const char *path, kmap_ksym_fn fn, void *ctx,
		      char *err);
/*
 * Describe ip: "func+0xOFF/0xSIZE" (and " at FILE:LINE" when known, " at
 * FILE" for code of no line: kmap_sym_source()'s line 0) into out. Returns 1 when ip is inside a known function, 0 otherwise (out is
 * then the bare hex address).
 */
int kmap_sym_describe(struct kmap_sym *s, uint64_t ip, char *out, size_t len);
/*
 * The function containing ip: its name (valid while s is open) and start,
 * or NULL when unknown.
 */
const char *kmap_sym_function(struct kmap_sym *s, uint64_t ip,
			      uint64_t *start);
/*
 * Whether s has DWARF line tables (a vmlinux built with debug info, read
 * with libdw): what kmap_sym_source() needs.
 */
int kmap_sym_has_lines(const struct kmap_sym *s);
/*
 * The source file of the instruction at ip and its line in *line, from
 * the DWARF line tables: relative to the compilation directory when under
 * it (mm/slub.c for a kernel built in its tree), else as DWARF says. NULL
 * when unknown (no line tables, or none for ip). Code the compiler made
 * for no line (a row of line 0) has the file and line of the row before
 * it in its sequence that has one, as debuggers say; *line is 0 when no
 * row before it has one. Valid while s is open.
 */
const char *kmap_sym_source(struct kmap_sym *s, uint64_t ip, int *line);
void kmap_sym_close(struct kmap_sym *s);

/* ------------------------------------------------------------------ */
/* Capability maps: who reads, writes and frees what (kmap_capmap.c). */

/*
 * A sparse matrix of cells, one per (subject, object group) pair that
 * some access or free joins, built one object at a time from
 * kmap_src_next(): memory grows with the subjects, groups and cells, not
 * with the input. The subject is the code: the function, source file or
 * directory of the accessing (or freeing) ip, or the ip itself; the group
 * is what was touched: the function that allocated it (its call site),
 * its slab cache, its allocator kind, or the object itself. Frees count
 * against the free ip's subject; a free without a known free ip (0, or
 * KMAP_FREE_IP_MISSED) counts in no cell (kmap_capmap_totals()).
 */
enum kmap_capmap_subject {
	KMAP_SUBJECT_FUNCTION,	/* the ip's function; the ip in hex if none */
	KMAP_SUBJECT_FILE,	/* its source file (DWARF); "[unknown]" */
	KMAP_SUBJECT_DIR,	/* that file's directory; "[unknown]" */
	KMAP_SUBJECT_IP,	/* the ip: function+off/size with symbols */
	KMAP_SUBJECT_FILE_FUNCTION,	/* "FILE:FUNCTION": its source file
					 * (DWARF) in its function */
};
enum kmap_capmap_group {
	KMAP_GROUP_CALLSITE,	/* the alloc_ip's function; the ip in hex;
				 * a found object's "[kind]" */
	KMAP_GROUP_CACHE,	/* the cache's name; no cache: its kind's */
	KMAP_GROUP_KIND,	/* kmap_kind_name(kmap_object_kind()) */
	KMAP_GROUP_OBJECT,	/* the object id (text: its number, from 1) */
	KMAP_GROUP_TYPE,	/* "struct NAME": its slab cache's struct type
				 * (kmap_capmap_set_types()); objects of no
				 * known type as KMAP_GROUP_CACHE */
};
/* What a subject or group option says: "function", "callsite", ... */
const char *kmap_capmap_subject_name(enum kmap_capmap_subject s);
const char *kmap_capmap_group_name(enum kmap_capmap_group g);
/* The value of a name; -1 when none has it. */
int kmap_capmap_subject_parse(const char *name);
/*
 * The name of the subject that holds subject name of kind s, into
 * buf[len]: a file's directory, a file-function's file. Returns the
 * parent's kind, or -1 when s has none (function, dir, ip).
 */
int kmap_capmap_parent(enum kmap_capmap_subject s, const char *name,
		       char *buf, size_t len);
int kmap_capmap_group_parse(const char *name);

struct kmap_capmap_cell {
	uint32_t subject, group;	/* kmap_capmap_subject_of() and _group_of() */
	/*
	 * A map split by range (kmap_capmap_split_ranges()): the bytes of the
	 * group's objects that the cell's accesses touched, [offset,
	 * offset_end) as the accesses say (one cell per subject, group and
	 * range); both 0 for accesses with no range known, and for frees,
	 * which touch the whole object. Both 0 in a map not split.
	 */
	uint32_t offset, offset_end;
	uint64_t reads, writes, frees;
	uint64_t objects;		/* distinct objects read, written or freed */
	uint64_t last_object;		/* the library's: the last one counted */
};
/* How an object's struct type was known (kmap_types.h). */
enum kmap_type_way {
	KMAP_TYPE_NONE,
	KMAP_TYPE_CACHE,	/* its slab cache's name */
	KMAP_TYPE_RESULT,	/* the variable its call site keeps it in */
	KMAP_TYPE_SIZE,		/* the one struct in scope of its size */
	KMAP_TYPE_GLOBAL,	/* the global variable it is */
	KMAP_TYPE_WAYS
};
struct kmap_capmap_totals {
	uint64_t objects;		/* objects added */
	uint64_t typed[KMAP_TYPE_WAYS];	/* objects by way, with types */
	uint64_t reads, writes, frees;	/* in cells */
	uint64_t frees_unattributed;	/* freed, free ip 0 or missed */
};
struct kmap_capmap;
/*
 * A new, empty map. sym names ips (NULL: none, ips in hex); file and
 * directory subjects need line tables (kmap_sym_has_lines()). NULL with
 * err set when they are missing or memory is.
 */
struct kmap_capmap *kmap_capmap_new(enum kmap_capmap_subject subject,
				    enum kmap_capmap_group group,
				    struct kmap_sym *sym, char *err);
/*
 * Split each (subject, group) cell by the byte range of the objects its
 * accesses touched (struct kmap_access's offset and offset_end): before
 * the first kmap_capmap_add() (no effect after). Memory still grows with
 * the cells.
 */
void kmap_capmap_split_ranges(struct kmap_capmap *m);
/* Whether m is split by range. */
int kmap_capmap_split(const struct kmap_capmap *m);
/*
 * Struct types (kmap_types.h) for group type and for naming a split
 * cell's bytes (kmap_capmap_field()); m owns them from here on.
 */
struct kmap_types;
void kmap_capmap_set_types(struct kmap_capmap *m, struct kmap_types *types);
int kmap_capmap_has_types(const struct kmap_capmap *m);
/*
 * The member a cell of a split map touched, into buf[len]: the path within
 * the struct type of its group that holds the cell's bytes ("cred.uid" as
 * "uid"; "(whole)" for all of it). A group's type: a type group's own, a
 * cache group's cache's, an object's (kmap_types_of_object()), a call
 * site's objects' when all agree and none was known by size. 0 with buf
 * "" when m has no types, the group no struct type or the cell no range;
 * else the length.
 */
int kmap_capmap_field(const struct kmap_capmap *m,
		      const struct kmap_capmap_cell *c, char *buf, size_t len);
/* Add one object and its accesses. Returns 0, or -1 when out of memory. */
int kmap_capmap_add(struct kmap_capmap *m, const struct kmap_object *o,
		    const struct kmap_access *acc, size_t nacc);
/* The cells, in the order they were made; valid until the next add. */
size_t kmap_capmap_cells(const struct kmap_capmap *m,
			 const struct kmap_capmap_cell **cells);
/* A cell's subject and group names; valid while m is. */
const char *kmap_capmap_subject_of(const struct kmap_capmap *m,
				   const struct kmap_capmap_cell *c);
const char *kmap_capmap_group_of(const struct kmap_capmap *m,
				 const struct kmap_capmap_cell *c);
/*
 * The cell of a subject and a group by name (another map's); NULL: none.
 * In a map split by range, the cell of range 0, 0.
 */
const struct kmap_capmap_cell *kmap_capmap_find(const struct kmap_capmap *m,
						const char *subject,
						const char *group);
void kmap_capmap_totals(const struct kmap_capmap *m,
			struct kmap_capmap_totals *t);
/* The largest size (as requested) of an object of group (a cell's). */
uint64_t kmap_capmap_group_size(const struct kmap_capmap *m, uint32_t group);
/* The name of ip's subject, as m names its cells', into buf[len]. */
void kmap_capmap_subject_ip(const struct kmap_capmap *m, uint64_t ip,
			    char *buf, size_t len);
/*
 * The name of the group of the stack frame of the function that starts
 * at frame (struct kmap_frame), into buf[len]: "frame" when m groups by
 * kind (the frames are one kind of data), else "frame:FUNC", FUNC named
 * as a call site is (its function, its address in hex without one).
 */
void kmap_capmap_frame_group(const struct kmap_capmap *m, uint64_t frame,
			     char *buf, size_t len);
/* How many subjects and groups the cells name. */
size_t kmap_capmap_nsubjects(const struct kmap_capmap *m);
size_t kmap_capmap_ngroups(const struct kmap_capmap *m);
void kmap_capmap_free(struct kmap_capmap *m);

#endif /* KMAP_H */
