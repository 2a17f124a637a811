// SPDX-License-Identifier: GPL-2.0
/* libkmap: the binary stream of <linux/memorizer.h>, record by record. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <linux/memorizer.h>

#include "kmap.h"
#include "kmap_records.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "libkmap reads the little-endian stream on little-endian hosts only"
#endif

_Static_assert(sizeof(struct memorizer_stream_header) == 56, "header layout");
KMAP_RECORDS_HEADER_LIKE(struct memorizer_stream_header);
_Static_assert(sizeof(struct memorizer_rec_hdr) == 16, "rec_hdr layout");
_Static_assert(sizeof(struct memorizer_rec_alloc) == 72, "alloc layout");
_Static_assert(sizeof(struct memorizer_rec_free) == 48, "free layout");
_Static_assert(sizeof(struct memorizer_rec_access) == 64, "access layout");
_Static_assert(sizeof(struct memorizer_rec_task) == 40, "task layout");
_Static_assert(sizeof(struct memorizer_rec_cache) == 56, "cache layout");
_Static_assert(sizeof(struct memorizer_rec_lost) == 40, "lost layout");

/* (cpu, pid) commands and cache names kept at most: bounds the memory. */
#define MAX_TASKS	(1u << 20)
#define MAX_CACHES	(1u << 16)

struct kmap_bin_reader {
	struct kmap_records in;
	struct memorizer_stream_header hdr;
	struct kmap_map tasks;		/* cpu << 32 | pid -> comms index */
	char (*comms)[16];
	size_t ncomms, comms_cap;
	struct kmap_map caches;		/* cache_id -> names index */
	char (*names)[33];
	size_t nnames, names_cap;
};

#define set_err(r, ...) kmap_records_error(&(r)->in, __VA_ARGS__)

/* An ACCESS record before version 5: up to reads, offset reserved. */
#define ACCESS_SIZE_V4	offsetof(struct memorizer_rec_access, offset_end)
_Static_assert(ACCESS_SIZE_V4 == 56, "version 4 access layout");

size_t kmap_bin_min_size(unsigned int version, unsigned int type)
{
	static const __u16 sizes[MEMORIZER_REC_NR_TYPES] = MEMORIZER_REC_SIZES;

	if (type == MEMORIZER_REC_ACCESS &&
	    version < KMAP_STREAM_VERSION_OFFSETS)
		return ACCESS_SIZE_V4;
	return type < MEMORIZER_REC_NR_TYPES ? sizes[type] : 0;
}

static struct kmap_bin_reader *new_reader(void)
{
	struct kmap_bin_reader *r = calloc(1, sizeof(*r));

	if (r) {
		kmap_map_init(&r->tasks);
		kmap_map_init(&r->caches);
	}
	return r;
}

struct kmap_bin_reader *kmap_bin_open_fn(kmap_read_fn fn, void *ctx,
					 const char *name)
{
	struct kmap_bin_reader *r = new_reader();

	if (r && kmap_records_init(&r->in, fn, ctx, name)) {
		free(r);
		return NULL;
	}
	return r;
}

struct kmap_bin_reader *kmap_bin_open_mem(const void *buf, size_t len,
					  const char *name)
{
	struct kmap_bin_reader *r = new_reader();

	if (r)
		kmap_records_init_mem(&r->in, buf, len, name);
	return r;
}

void kmap_bin_close(struct kmap_bin_reader *r)
{
	if (!r)
		return;
	kmap_map_free(&r->tasks);
	kmap_map_free(&r->caches);
	free(r->comms);
	free(r->names);
	kmap_records_free(&r->in);
	free(r);
}

const char *kmap_bin_error(const struct kmap_bin_reader *r)
{
	return r->in.err;
}

uint64_t kmap_bin_offset(const struct kmap_bin_reader *r)
{
	return r->in.offset;
}

uint64_t kmap_bin_skipped(const struct kmap_bin_reader *r)
{
	return r->in.skipped;
}

uint64_t kmap_bin_records(const struct kmap_bin_reader *r)
{
	return r->in.records + r->in.skipped;
}

const struct memorizer_stream_header *
kmap_bin_header(const struct kmap_bin_reader *r)
{
	return r->in.have_header ? &r->hdr : NULL;
}

static int check_stream_fields(const void *buf, char *err)
{
	struct memorizer_stream_header h;

	memcpy(&h, buf, sizeof(h));
	if (h.nr_cpus == 0) {
		snprintf(err, KMAP_ERR_MAX, "nr_cpus is 0");
		return -1;
	}
	if (h.hz == 0) {
		snprintf(err, KMAP_ERR_MAX, "hz is 0");
		return -1;
	}
	if (h.page_size < 512 || (h.page_size & (h.page_size - 1))) {
		snprintf(err, KMAP_ERR_MAX, "page_size %u is not a power of two",
			 h.page_size);
		return -1;
	}
	return 0;
}

static const char *const type_name[] = {
	[MEMORIZER_REC_ALLOC] = "ALLOC", [MEMORIZER_REC_FREE] = "FREE",
	[MEMORIZER_REC_ACCESS] = "ACCESS", [MEMORIZER_REC_TASK] = "TASK",
	[MEMORIZER_REC_CACHE] = "CACHE", [MEMORIZER_REC_LOST] = "LOST",
	[MEMORIZER_REC_CALL] = "CALL",
};

static const struct kmap_records_format bin_format = {
	.header = "stream",
	.title = "a Memorizer binary stream",
	.magic = MEMORIZER_STREAM_MAGIC,
	.version_min = KMAP_STREAM_VERSION_MIN,
	.version_max = MEMORIZER_STREAM_VERSION,
	.check_fields = check_stream_fields,
	.input = "stream",
	.cpu = "cpu",
	.cpus = "CPUs",
	.min_size = kmap_bin_min_size,
	.type_name = type_name,
};

int kmap_bin_check_header(const void *buf, size_t len, char *err)
{
	return kmap_records_check_header(buf, len, &bin_format, err);
}

int kmap_bin_read_header(struct kmap_bin_reader *r)
{
	return kmap_records_read_header(&r->in, &bin_format, &r->hdr) < 0 ?
	       -1 : 0;
}

static void copy_str(char *out, const char *in, size_t len)
{
	size_t i;

	for (i = 0; i < len && in[i]; i++)
		out[i] = in[i];
	out[i] = 0;
}

static int set_comm(struct kmap_bin_reader *r, uint16_t cpu, int32_t pid,
		    const char comm[16])
{
	int is_new;
	size_t i;

	if (!kmap_map_find(&r->tasks, (uint64_t)cpu << 32 | (uint32_t)pid) &&
	    r->ncomms >= MAX_TASKS) {
		set_err(r, r->in.offset, "more than %u (cpu, pid) commands", MAX_TASKS);
		return -1;
	}
	if (kmap_intern(&r->tasks, (uint64_t)cpu << 32 | (uint32_t)pid,
			(void **)&r->comms, &r->ncomms, &r->comms_cap,
			sizeof(*r->comms), &i, &is_new))
		goto oom;
	memcpy(r->comms[i], comm, 16);
	return 0;
oom:
	set_err(r, r->in.offset, "out of memory");
	return -1;
}

static int set_cache(struct kmap_bin_reader *r, uint32_t id,
		     const char name[32])
{
	int is_new;
	size_t i;

	if (!kmap_map_find(&r->caches, id) && r->nnames >= MAX_CACHES) {
		set_err(r, r->in.offset, "more than %u cache names", MAX_CACHES);
		return -1;
	}
	if (kmap_intern(&r->caches, id, (void **)&r->names, &r->nnames,
			&r->names_cap, sizeof(*r->names), &i, &is_new))
		goto oom;
	copy_str(r->names[i], name, 32);
	return 0;
oom:
	set_err(r, r->in.offset, "out of memory");
	return -1;
}

const char *kmap_bin_cache_name(const struct kmap_bin_reader *r, uint32_t id)
{
	uint64_t *slot = kmap_map_find(&r->caches, id);

	return slot ? r->names[*slot] : NULL;
}

static inline int pid_ok(int32_t pid)
{
	return pid >= 0 && (uint32_t)pid < KMAP_PID_MAX;
}

static int check_pid(struct kmap_bin_reader *r, int32_t pid)
{
	if (!pid_ok(pid)) {
		set_err(r, r->in.offset, "pid %d out of range", pid);
		return -1;
	}
	return 0;
}

/* writes and reads, side by side in the record and in kmap_bin_rec. */
#define WRITES_AT	offsetof(__typeof__(((struct kmap_bin_rec *)0)->u.access), writes)
_Static_assert(offsetof(struct memorizer_rec_access, reads) ==
	       offsetof(struct memorizer_rec_access, writes) + 8 &&
	       sizeof(((struct memorizer_rec_access *)0)->writes) == 8 &&
	       sizeof(((struct memorizer_rec_access *)0)->reads) == 8,
	       "record's writes, reads");
_Static_assert(offsetof(__typeof__(((struct kmap_bin_rec *)0)->u.access), reads) ==
	       WRITES_AT + 8, "kmap_bin_rec's writes, reads");

/* offset and offset_end, side by side in kmap_bin_rec (little-endian). */
#define OFFSET_AT	offsetof(__typeof__(((struct kmap_bin_rec *)0)->u.access), offset)
_Static_assert(offsetof(__typeof__(((struct kmap_bin_rec *)0)->u.access), offset_end) ==
	       OFFSET_AT + 4, "kmap_bin_rec's offset, offset_end");

/* dst = the ACCESS record at p's field, as its type in the record. */
#define ACCESS_FIELD(dst, field, p) do {				\
	__typeof__(((struct memorizer_rec_access *)0)->field) v_;	\
									\
	memcpy(&v_, (p) + offsetof(struct memorizer_rec_access, field),	\
	       sizeof(v_));						\
	(dst) = v_;							\
} while (0)

/* An ACCESS record, whole at p, into rec's fields. 0 or -1. */
static inline int decode_access(struct kmap_bin_reader *r,
				const unsigned char *p, struct kmap_bin_rec *rec)
{
	int offsets = r->hdr.version >= KMAP_STREAM_VERSION_OFFSETS;
	uint32_t off = 0, end = 0;
	uint64_t both;

	/*
	 * Field by field from the record: copied whole to the stack first,
	 * its fields were read back across two stores, which stalled (half
	 * of this function's time in perf).
	 */
	ACCESS_FIELD(rec->u.access.pid, pid, p);
	if (check_pid(r, rec->u.access.pid))
		return -1;
	ACCESS_FIELD(rec->u.access.id, id, p);
	ACCESS_FIELD(rec->u.access.ip, ip, p);
	/*
	 * writes and reads in one copy: a reader of the two (the compiler's
	 * 16-byte load) stalled on two 8-byte stores.
	 */
	memcpy((char *)&rec->u.access + WRITES_AT,
	       p + offsetof(struct memorizer_rec_access, writes), 16);
	/* Before version 5 the record ends at reads (min_size says). */
	if (offsets) {
		ACCESS_FIELD(off, offset, p);
		ACCESS_FIELD(end, offset_end, p);
	}
	/* One store too: its reader loads the two as one word. */
	both = (uint64_t)end << 32 | off;
	memcpy((char *)&rec->u.access + OFFSET_AT, &both, 8);
	return 0;
}

/*
 * A record of a known type, whole at p, into rec's fields. 0 or -1.
 * Inline in its one caller: a call per record showed in its profile.
 */
static inline __attribute__((always_inline)) int
decode(struct kmap_bin_reader *r, const struct memorizer_rec_hdr *hp,
       const unsigned char *p, struct kmap_bin_rec *rec)
{
	struct memorizer_rec_hdr h = *hp;

	/*
	 * Most records, tested first: the switch's indirect jump is
	 * mispredicted at each change of type.
	 */
	if (h.type == MEMORIZER_REC_ACCESS)
		return decode_access(r, p, rec);
	switch (h.type) {
	case MEMORIZER_REC_ALLOC: {
		struct memorizer_rec_alloc a;
		uint64_t *slot;

		memcpy(&a, p, sizeof(a));
		if (check_pid(r, a.pid))
			return -1;
		rec->u.alloc.id = a.id;
		rec->u.alloc.addr = a.addr;
		rec->u.alloc.call_site = a.call_site;
		rec->u.alloc.jiffies = a.jiffies;
		rec->u.alloc.size = a.size;
		rec->u.alloc.size_alloc = a.size_alloc;
		rec->u.alloc.pid = a.pid;
		rec->u.alloc.cache_id = a.cache_id;
		rec->u.alloc.kind = a.kind;
		rec->u.alloc.context = a.context;
		slot = kmap_map_find(&r->tasks,
				     (uint64_t)h.cpu << 32 | (uint32_t)a.pid);
		if (slot)
			copy_str(rec->u.alloc.comm, r->comms[*slot], 16);
		else
			rec->u.alloc.comm[0] = 0;
		break;
	}
	case MEMORIZER_REC_FREE: {
		struct memorizer_rec_free f;

		memcpy(&f, p, sizeof(f));
		rec->u.free.id = f.id;
		rec->u.free.call_site = f.call_site;
		rec->u.free.jiffies = f.jiffies;
		rec->u.free.api = f.api;
		rec->u.free.nr_access = f.nr_access;
		break;
	}
	case MEMORIZER_REC_TASK: {
		struct memorizer_rec_task t;

		memcpy(&t, p, sizeof(t));
		if (check_pid(r, t.pid) || set_comm(r, h.cpu, t.pid, t.comm))
			return -1;
		rec->u.task.pid = t.pid;
		copy_str(rec->u.task.comm, t.comm, 16);
		break;
	}
	case MEMORIZER_REC_CACHE: {
		struct memorizer_rec_cache c;

		memcpy(&c, p, sizeof(c));
		if (set_cache(r, c.cache_id, c.name))
			return -1;
		rec->u.cache.cache_id = c.cache_id;
		copy_str(rec->u.cache.name, c.name, 32);
		break;
	}
	case MEMORIZER_REC_LOST: {
		struct memorizer_rec_lost l;

		memcpy(&l, p, sizeof(l));
		rec->u.lost.records = l.records;
		rec->u.lost.allocs = l.allocs;
		rec->u.lost.frees = l.frees;
		rec->u.lost.accesses = l.accesses;
		rec->u.lost.other = l.other;
		break;
	}
	case MEMORIZER_REC_CALL: {
		struct memorizer_rec_call c;

		memcpy(&c, p, sizeof(c));
		if (check_pid(r, c.pid))
			return -1;
		rec->u.call.caller = c.caller;
		rec->u.call.callee = c.callee;
		rec->u.call.count = c.count;
		rec->u.call.pid = c.pid;
		break;
	}
	}
	return 0;
}

int kmap_bin_next(struct kmap_bin_reader *r, struct kmap_bin_rec *rec)
{
	struct memorizer_rec_hdr h;
	const unsigned char *p;
	int rc;

	if ((!r->in.have_header || r->in.failed) && kmap_bin_read_header(r))
		return -1;
	rc = kmap_records_next(&r->in, &bin_format, r->hdr.rec_size,
			       r->hdr.nr_cpus, &h, &p);
	if (rc <= 0)
		return rc;
	/* Every field of the type is set (no memset: this is per record). */
	rec->type = h.type;
	rec->size = h.size;
	rec->cpu = h.cpu;
	rec->ns = h.ns;
	rec->offset = r->in.offset;
	if (decode(r, &h, p, rec))
		return -1;
	r->in.offset += h.size;
	return 1;
}

size_t kmap_bin_accesses(struct kmap_bin_reader *r, uint64_t id, uint16_t cpu,
			 uint64_t *ns, uint64_t size_alloc,
			 struct kmap_access *acc, size_t room)
{
	struct kmap_records *in = &r->in;
	size_t size = in->known_size[MEMORIZER_REC_ACCESS], n;
	int offsets = r->hdr.version >= KMAP_STREAM_VERSION_OFFSETS;
	uint64_t t = *ns;

	if (in->failed || !in->have_header || !size)
		return 0;
	for (n = 0; n < room && in->end - in->start >= size; n++) {
		const unsigned char *p = in->buf + in->start;
		struct memorizer_rec_hdr h;
		uint64_t rid, wr[2];
		uint32_t off = 0, end = 0;
		int32_t pid;

		memcpy(&h, p, sizeof(h));
		if (h.type != MEMORIZER_REC_ACCESS || h.size != size ||
		    h.cpu != cpu || h.ns < t)
			break;
		ACCESS_FIELD(rid, id, p);
		ACCESS_FIELD(pid, pid, p);
		memcpy(wr, p + offsetof(struct memorizer_rec_access, writes), 16);
		if (offsets) {
			ACCESS_FIELD(off, offset, p);
			ACCESS_FIELD(end, offset_end, p);
		}
		if (rid != id || !pid_ok(pid) ||
		    !kmap_access_rec_ok(wr[0], wr[1], off, end) ||
		    end > size_alloc)
			break;
		ACCESS_FIELD(acc[n].ip, ip, p);
		acc[n].pid = (uint32_t)pid;
		acc[n].writes = wr[0];
		acc[n].reads = wr[1];
		acc[n].offset = off;
		acc[n].offset_end = end;
		t = h.ns;
		kmap_records_consume(in, size);
		in->offset += size;
	}
	in->records += n;
	*ns = t;
	return n;
}
