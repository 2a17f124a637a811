// SPDX-License-Identifier: GPL-2.0
/* libkmap: the text kmap, read line by line and written. See kmap.h. */
#include <endian.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <linux/memorizer.h>

#include "kmap.h"
#include "kmap_inline.h"

#define BUF_SIZE	(256 * 1024)
/* Cache names a reader keeps at most, as a stream's: bounds the memory. */
#define MAX_CACHES	(1u << 16)

struct kmap_text_reader {
	kmap_read_fn fn;		/* NULL for a memory buffer */
	void *ctx;
	const char *name;
	char *buf;			/* owned when f */
	const char *mem;
	size_t start, end;		/* unread bytes: buf[start..end) */
	int eof, failed, have_object;
	kmap_tee_fn tee;		/* each line read, as it was */
	void *tee_ctx;
	unsigned long line;
	/* Access lines' fields, 4 or 6 (0 before the first), and its line. */
	unsigned int acc_fields;
	unsigned long acc_fields_line;
	/*
	 * Object lines' fields, 8 or 10, 11 for the fork's (0 before the
	 * first), and its line; fork_none: the last one's type is NONE.
	 */
	unsigned int obj_fields;
	int fork_none;
	unsigned long obj_fields_line;
	/*
	 * The cache names of 10-field object lines, interned: a name's
	 * cache_id is its index + 1. Each is allocated alone, so the
	 * pointers handed out stay valid until kmap_text_close().
	 */
	struct kmap_map caches;		/* hash of a name -> its index */
	char **names;
	size_t nnames, names_cap;
	size_t last_name;		/* the index found last; nnames: none */
	uint64_t offset;		/* of buf[start] in the input */
	char err[KMAP_ERR_MAX];
};

static void set_err(struct kmap_text_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void set_err(struct kmap_text_reader *r, const char *fmt, ...)
{
	char what[KMAP_ERR_MAX - 192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(r->err, sizeof(r->err), "%.150s:%lu: %s", r->name, r->line, what);
	r->failed = 1;
}

FILE *kmap_fopen(const char *path, char *err)
{
	FILE *f = fopen(path, "rb");
	struct stat st;

	if (!f) {
		snprintf(err, KMAP_ERR_MAX, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode)) {
		snprintf(err, KMAP_ERR_MAX, "%s: is a directory", path);
		fclose(f);
		return NULL;
	}
	return f;
}

long kmap_file_read(void *ctx, void *buf, size_t len)
{
	FILE *f = ctx;
	size_t n = fread(buf, 1, len, f);

	if (n == 0 && ferror(f))
		return -1;
	return (long)n;
}

struct kmap_text_reader *kmap_text_open(FILE *f, const char *name)
{
	return kmap_text_open_fn(kmap_file_read, f, name);
}

struct kmap_text_reader *kmap_text_open_fn(kmap_read_fn fn, void *ctx,
					   const char *name)
{
	struct kmap_text_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->buf = malloc(BUF_SIZE);
	if (!r->buf) {
		free(r);
		return NULL;
	}
	r->fn = fn;
	r->ctx = ctx;
	r->name = name;
	return r;
}

struct kmap_text_reader *kmap_text_open_mem(const void *buf, size_t len,
					    const char *name)
{
	struct kmap_text_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->mem = buf;
	r->end = len;
	r->eof = 1;
	r->name = name;
	return r;
}

void kmap_text_tee(struct kmap_text_reader *r, kmap_tee_fn fn, void *ctx)
{
	r->tee = fn;
	r->tee_ctx = ctx;
}

void kmap_text_close(struct kmap_text_reader *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nnames; i++)
		free(r->names[i]);
	free(r->names);
	kmap_map_free(&r->caches);
	free(r->buf);
	free(r);
}

const char *kmap_text_error(const struct kmap_text_reader *r)
{
	return r->err;
}

unsigned long kmap_text_line(const struct kmap_text_reader *r)
{
	return r->line;
}

uint64_t kmap_text_offset(const struct kmap_text_reader *r)
{
	return r->offset;
}

/* Refill: keep the unread bytes, read more. Returns -1 on a read error. */
static int refill(struct kmap_text_reader *r)
{
	long n;

	if (r->start > 0) {
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->end -= r->start;
		r->start = 0;
	}
	do
		n = r->fn(r->ctx, r->buf + r->end, BUF_SIZE - r->end);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	r->end += n;
	if (n == 0)
		r->eof = 1;
	return 0;
}

/* Field parsers: s[0..len), strict ABI formatting, overflow-checked. */
static const char *const obj_field[] = {
	"alloc_ip", "pid", "obj_va_ptr", "size", "alloc_jiffies",
	"free_jiffies", "free_ip", "executable", "kind", "cache",
};
static const char *const acc_field[] = {
	"access_ip", "access_pid", "write_count", "read_count", "offset",
	"offset_end",
};

/* s[0..len) printable: escapes for other bytes, "..." when cut. */
static void show(char *out, size_t outlen, const char *s, size_t len)
{
	size_t i, j = 0;

	for (i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (j + 8 > outlen || i >= 40) {
			strcpy(out + j, "...");
			return;
		}
		if (c >= 0x20 && c < 0x7f)
			out[j++] = c;
		else
			j += snprintf(out + j, outlen - j, "\\x%02x", c);
	}
	out[j] = 0;
}

static int field_err(char *err, const char *field, const char *s, size_t len,
		     const char *what)
{
	char v[64];

	show(v, sizeof(v), s, len);
	snprintf(err, KMAP_ERR_MAX, "%s '%s': %s", field, v, what);
	return -1;
}

int kmap_parse_hex(const char *s, size_t len, uint64_t *v)
{
	uint64_t x = 0;
	size_t i;

	if (len == 0 || len > 16)
		return -1;
	for (i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (c >= '0' && c <= '9')
			x = x << 4 | (c - '0');
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			x = x << 4 | ((c | 0x20) - 'a' + 10);
		else
			return -1;
	}
	*v = x;
	return 0;
}

int kmap_parse_dec(const char *s, size_t len, uint64_t *v)
{
	uint64_t x = 0;
	size_t i;

	if (len == 0)
		return -1;
	for (i = 0; i < len; i++) {
		unsigned int d = (unsigned char)s[i] - '0';

		if (d > 9 || x > (UINT64_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	*v = x;
	return 0;
}

/*
 * A kmap field: what kmap_parse_hex() and kmap_parse_dec() take, and
 * stricter (lowercase hex, no leading zeros), with what is wrong said.
 */
static int parse_hex(const char *s, size_t len, uint64_t *v, const char *field,
		     char *err)
{
	size_t i;

	if (len == 0)
		return field_err(err, field, s, len, "empty");
	if (len > 16)
		return field_err(err, field, s, len, "more than 64 bits");
	if (len > 1 && s[0] == '0')
		return field_err(err, field, s, len,
				 "leading zero (hex is written without 0x or leading zeros)");
	for (i = 0; i < len; i++)
		if (s[i] >= 'A' && s[i] <= 'F')
			break;
	if (i < len || kmap_parse_hex(s, len, v))
		return field_err(err, field, s, len,
				 "not lowercase hexadecimal");
	return 0;
}

static int parse_dec(const char *s, size_t len, uint64_t *v, const char *field,
		     char *err)
{
	size_t i;

	if (len == 0)
		return field_err(err, field, s, len, "empty");
	if (len > 1 && s[0] == '0')
		return field_err(err, field, s, len, "leading zero");
	for (i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return field_err(err, field, s, len,
					 "not an unsigned decimal number");
	if (kmap_parse_dec(s, len, v))
		return field_err(err, field, s, len, "more than 64 bits");
	return 0;
}

static int parse_pid(const char *s, size_t len, uint32_t *pid,
		     const char *field, char *err)
{
	uint64_t v;

	if (parse_dec(s, len, &v, field, err))
		return -1;
	if (v >= KMAP_PID_MAX)
		return field_err(err, field, s, len,
				 "above the kernel's pid limit (4194304)");
	*pid = (uint32_t)v;
	return 0;
}

/* Split s[0..len) at commas into at most max fields; returns the count. */
static size_t split(const char *s, size_t len, const char **f, size_t *flen,
		    size_t max)
{
	size_t n = 0;
	const char *p = s, *e = s + len;

	for (;;) {
		const char *c = memchr(p, ',', e - p);

		if (n == max)
			return max + 1;
		f[n] = p;
		if (!c) {
			flen[n++] = e - p;
			return n;
		}
		flen[n++] = c - p;
		p = c + 1;
	}
}

static int parse_u32(const char *s, size_t len, uint32_t *v,
		     const char *field, char *err)
{
	uint64_t x;

	if (parse_dec(s, len, &x, field, err))
		return -1;
	if (x > UINT32_MAX)
		return field_err(err, field, s, len, "more than 32 bits");
	*v = (uint32_t)x;
	return 0;
}

/*
 * A 10-field object line's kind and cache fields (k, c: kl, cl bytes) into
 * *obj, but for the cache's name: the caller's to keep. Returns 0, or -1
 * with err set.
 */
static int parse_kind_cache(const char *k, size_t kl, const char *c,
			    size_t cl, struct kmap_object *obj, char *err)
{
	const struct kmap_kind *kd;
	int kind;
	size_t i;

	for (kind = 0; (kd = kmap_kind(kind)); kind++)
		if (kl && kd->name[0] == k[0] && strlen(kd->name) == kl &&
		    !memcmp(kd->name, k, kl))
			break;
	if (!kd)
		return field_err(err, obj_field[8], k, kl,
				 "not an allocator kind (kmalloc, kmem_cache, kmalloc_large, vmalloc, pages, global, percpu, stack)");
	if (cl > KMAP_CACHE_MAX)
		return field_err(err, obj_field[9], c, cl,
				 "longer than 32 bytes");
	for (i = 0; i < cl; i++) {
		unsigned char ch = c[i];

		if (ch < 0x20 || ch == 0x7f)
			return field_err(err, obj_field[9], c, cl,
					 "control character (the kernel writes '?')");
	}
	if (cl && kind != MEMORIZER_ALLOC_KMALLOC &&
	    kind != MEMORIZER_ALLOC_CACHE) {
		char what[128];

		snprintf(what, sizeof(what),
			 "on a %s object (only kmalloc and kmem_cache objects are in a cache; others' field is empty)",
			 kd->name);
		return field_err(err, obj_field[9], c, cl, what);
	}
	obj->kind = (uint8_t)kind;
	/* The text's marks: a found object's alloc_ip is its own address. */
	if (obj->alloc_ip == obj->addr)
		obj->context = MEMORIZER_CONTEXT_FOUND;
	else if (obj->pid == 0 && !strcmp(obj->comm, "hardirq"))
		obj->context = MEMORIZER_CONTEXT_HARDIRQ;
	else if (obj->pid == 0 && !strcmp(obj->comm, "softirq"))
		obj->context = MEMORIZER_CONTEXT_SOFTIRQ;
	else
		obj->context = MEMORIZER_CONTEXT_TASK;
	obj->has |= KMAP_HAS_KIND;
	return 0;
}

/*
 * The Memorizer fork's kmap (ITI/memorizer; kmap.h): its allocation
 * types, each as its alloc_type_str() writes it, in the order of its enum
 * AllocType (the index is the type's number, which the fork also writes
 * as alloc_ip of the records it makes at an access, not an allocation),
 * and the kind each is read as. FORK_SLAB: by the slab cache (a kmalloc-*
 * cache's objects kmalloc, another cache's kmem_cache, none kmalloc);
 * FORK_KMALLOC: kmalloc in a cache, kmalloc_large in none (no-slab: a
 * kmalloc() served from pages).
 */
#define FORK_SLAB	(-2)
#define FORK_KMALLOC	(-3)
#define FORK_TYPES	27
static const struct fork_type {
	const char *name;
	int kind;
} fork_types[FORK_TYPES] = {
	{ "STACK", MEMORIZER_ALLOC_STACK },
	{ "STACK_FRAME", MEMORIZER_ALLOC_STACK },
	{ "STACK_ARGS", MEMORIZER_ALLOC_STACK },
	{ "STACK_PAGE", MEMORIZER_ALLOC_STACK },
	{ "GEN_HEAP", FORK_SLAB },
	{ "UFO_HEAP", FORK_SLAB },
	{ "GLOBAL", MEMORIZER_ALLOC_GLOBAL },
	{ "KMALLOC", FORK_KMALLOC },
	{ "KMALLOC_ND", FORK_KMALLOC },
	{ "KMEM_CACHE", MEMORIZER_ALLOC_CACHE },
	{ "KMEM_CACHE_ND", MEMORIZER_ALLOC_CACHE },
	{ "KMEM_CACHE_BULK", MEMORIZER_ALLOC_CACHE },
	{ "VMALLOC", MEMORIZER_ALLOC_VMALLOC },
	{ "ALLOC_PAGES", MEMORIZER_ALLOC_PAGES },
	{ "ALLOC_PAGES_EXACT", MEMORIZER_ALLOC_PAGES },
	{ "ALLOC_PAGES_GETFREEPAGES", MEMORIZER_ALLOC_PAGES },
	{ "ALLOC_PAGES_FOLIO", MEMORIZER_ALLOC_PAGES },
	{ "INDUCED_ALLOC", FORK_SLAB },
	{ "BOOTMEM", MEMORIZER_ALLOC_PAGES },
	{ "MEMBLOCK", MEMORIZER_ALLOC_PAGES },
	{ "UFO_MEMBLOCK", MEMORIZER_ALLOC_PAGES },
	{ "MEMORIZER", MEMORIZER_ALLOC_PAGES },
	{ "USER", MEMORIZER_ALLOC_PAGES },
	{ "BUG", MEMORIZER_ALLOC_GLOBAL },
	{ "UFO_GLOBAL", MEMORIZER_ALLOC_GLOBAL },
	{ "UFO_NONE", MEMORIZER_ALLOC_GLOBAL },
	{ "NONE", MEMORIZER_ALLOC_GLOBAL },
};
#define FORK_STACK_PAGE	3
#define FORK_UFO_GLOBAL	24
#define FORK_NONE	26

/* The fork's type named s[0 .. len), or -1. */
static int fork_type(const char *s, size_t len)
{
	int t;

	for (t = 0; t < FORK_TYPES; t++)
		if (strlen(fork_types[t].name) == len &&
		    !memcmp(fork_types[t].name, s, len))
			return t;
	return -1;
}

static const char *const fork_field[] = {
	"alloc_ip", "pid", "obj_va_ptr", "size", "alloc_index", "free_index",
	"free_ip", "alloc_type", "command", "slabname", "new_alloc_type",
};
#define FORK_OBJECT_FIELDS \
	"alloc_ip,pid,obj_va_ptr,size,alloc_index,free_index,free_ip,alloc_type,command,slabname,new_alloc_type"

/* Lowercase hex digits s[0 .. len) into *v (1 to 16 of them). */
static int lower_hex(const char *s, size_t len, uint64_t *v)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] >= 'A' && s[i] <= 'F')
			return -1;
	return kmap_parse_hex(s, len, v);
}

/*
 * The fork's %p (no_hash_pointers, which its documentation requires):
 * 16 lowercase hex digits, zero-padded. With left, %-p (its alloc_ip):
 * vsprintf drops the zero padding of a left-justified number, so a value
 * of fewer digits is followed by spaces to the 16 ("18" and 14 spaces);
 * zero-padded is taken too.
 */
static int parse_ptr(const char *s, size_t len, uint64_t *v, int left,
		     const char *field, char *err)
{
	size_t d = len;

	if (len != 16)
		return field_err(err, field, s, len,
				 left ? "not 16 characters (the fork's %-p: hex digits, then spaces)"
				      : "not 16 hexadecimal digits (the fork's %p, zero-padded)");
	if (left) {
		for (d = 0; d < 16 && s[d] != ' '; d++)
			;
		for (len = d; len < 16; len++)
			if (s[len] != ' ')
				return field_err(err, field, s, 16,
						 "a space between digits");
	}
	if (!d || lower_hex(s, d, v))
		return field_err(err, field, s, 16, "not lowercase hexadecimal");
	return 0;
}

/* The fork's slab name for none. */
#define FORK_NO_SLAB	"no-slab"

/*
 * A fork object line; its slab cache at *cache (*cache_len bytes, 0 for
 * none), *none set when its type is NONE (whose access lines are from:
 * lines). Returns KMAP_LINE_OBJECT, or 0 with err set.
 */
static int parse_fork_object(const char *s, size_t len,
			     struct kmap_object *obj, char *err,
			     const char **cache, size_t *cache_len, int *none)
{
	const char *f[11], *p, *e = s + len, *c;
	size_t fl[11], n = 1, i;
	uint64_t free_ip;
	int type, new_type = -1, kind;

	for (p = s; p < e; p++)
		n += *p == ',';
	if (n < 11) {
		snprintf(err, KMAP_ERR_MAX,
			 "object line has %zu fields, not 11 (the Memorizer fork's: " FORK_OBJECT_FIELDS ")",
			 n);
		return 0;
	}
	/*
	 * Eight fields from the left, two from the right: the command
	 * between them is a task's comm, which the fork writes as it is,
	 * commas and all.
	 */
	for (p = s, i = 0; i < 8; i++) {
		c = memchr(p, ',', e - p);
		f[i] = p;
		fl[i] = c - p;
		p = c + 1;
	}
	c = e;
	for (i = 10; i > 8; i--) {
		const char *q = c;

		while (q[-1] != ',')
			q--;
		f[i] = q;
		fl[i] = c - q;
		c = q - 1;
	}
	f[8] = p;
	fl[8] = c - p;
	if (parse_ptr(f[0], fl[0], &obj->alloc_ip, 1, fork_field[0], err) ||
	    parse_pid(f[1], fl[1], &obj->pid, fork_field[1], err) ||
	    parse_ptr(f[2], fl[2], &obj->addr, 0, fork_field[2], err) ||
	    parse_dec(f[3], fl[3], &obj->size, fork_field[3], err) ||
	    parse_dec(f[4], fl[4], &obj->alloc_jiffies, fork_field[4], err) ||
	    parse_dec(f[5], fl[5], &obj->free_jiffies, fork_field[5], err) ||
	    parse_ptr(f[6], fl[6], &free_ip, 0, fork_field[6], err))
		return 0;
	type = fork_type(f[7], fl[7]);
	if (type < 0) {
		field_err(err, fork_field[7], f[7], fl[7],
			  "none of the Memorizer fork's 27 allocation types (Documentation/memorizer/alloc-type.csv)");
		return 0;
	}
	if (!fl[8] || fl[8] >= KMAP_COMM_MAX) {
		field_err(err, fork_field[8], f[8], fl[8],
			  fl[8] ? "too long" : "empty");
		return 0;
	}
	for (i = 0; i < fl[8]; i++) {
		unsigned char ch = f[8][i];

		if (ch < 0x20 || ch == 0x7f) {
			field_err(err, fork_field[8], f[8], fl[8],
				  "control character");
			return 0;
		}
		/* Ours never holds a comma: as our kernel writes it. */
		obj->comm[i] = ch == ',' ? '?' : ch;
	}
	obj->comm[fl[8]] = 0;
	if (!fl[9] || fl[9] > KMAP_CACHE_MAX) {
		field_err(err, fork_field[9], f[9], fl[9],
			  fl[9] ? "longer than 32 bytes" : "empty (the fork writes no-slab for none)");
		return 0;
	}
	for (i = 0; i < fl[9]; i++)
		if ((unsigned char)f[9][i] < 0x20 || f[9][i] == 0x7f) {
			field_err(err, fork_field[9], f[9], fl[9],
				  "control character");
			return 0;
		}
	if (fl[9] == strlen(FORK_NO_SLAB) && !memcmp(f[9], FORK_NO_SLAB, fl[9]))
		fl[9] = 0;
	/*
	 * 0xdeadbeef: a new allocation covered the record, its free not
	 * seen; 0xfedbeef: the same by an allocation nested in it (a slab
	 * object in its pages). Either is a free missed (KMAP_FREE_IP_MISSED)
	 * and names the covering allocation's type; a real free names none.
	 */
	if (fl[10]) {
		new_type = fork_type(f[10], fl[10]);
		if (new_type < 0) {
			field_err(err, fork_field[10], f[10], fl[10],
				  "none of the Memorizer fork's 27 allocation types");
			return 0;
		}
	}
	if ((free_ip == 0xdeadbeef || free_ip == 0xfedbeef) != (new_type >= 0)) {
		if (new_type >= 0)
			field_err(err, fork_field[10], f[10], fl[10],
				  "set, but free_ip is neither 00000000deadbeef nor 000000000fedbeef (a record closed by another allocation)");
		else
			field_err(err, fork_field[10], f[10], fl[10],
				  "empty, but free_ip marks a record closed by another allocation (deadbeef, fedbeef), whose type it names");
		return 0;
	}
	obj->free_ip = new_type >= 0 ? KMAP_FREE_IP_MISSED : free_ip;
	obj->has = KMAP_HAS_KIND | KMAP_HAS_FORK;
	obj->cache_id = 0;
	obj->cache = NULL;
	/*
	 * The fork's records made at an access, not an allocation, have as
	 * alloc_ip 0 (globals, and its catch-all records of address and size
	 * 0) or a type's number (the kind of memory found there): found
	 * objects, whose alloc_ip is their own address here as in ours. A
	 * stack page found so is recorded as UFO_GLOBAL with alloc_ip
	 * STACK_PAGE's number.
	 */
	kind = fork_types[type].kind;
	if (type == FORK_UFO_GLOBAL && obj->alloc_ip == FORK_STACK_PAGE)
		kind = MEMORIZER_ALLOC_STACK;
	if (kind == FORK_SLAB)
		kind = fl[9] && (fl[9] < 8 || memcmp(f[9], "kmalloc-", 8)) ?
		       MEMORIZER_ALLOC_CACHE : MEMORIZER_ALLOC_KMALLOC;
	else if (kind == FORK_KMALLOC)
		kind = fl[9] ? MEMORIZER_ALLOC_KMALLOC :
			       MEMORIZER_ALLOC_KMALLOC_LARGE;
	if (fl[9] && kind != MEMORIZER_ALLOC_KMALLOC &&
	    kind != MEMORIZER_ALLOC_CACHE) {
		char what[160];

		snprintf(what, sizeof(what),
			 "on a %s object (read as %s: only heap objects are in a slab cache)",
			 fork_types[type].name, kmap_kind_name(kind));
		field_err(err, fork_field[9], f[9], fl[9], what);
		return 0;
	}
	obj->kind = (uint8_t)kind;
	if (obj->alloc_ip < FORK_TYPES) {
		obj->alloc_ip = obj->addr;
		obj->context = MEMORIZER_CONTEXT_FOUND;
	} else if (obj->pid == 0 && !strcmp(obj->comm, "hardirq")) {
		obj->context = MEMORIZER_CONTEXT_HARDIRQ;
	} else if (obj->pid == 0 && !strcmp(obj->comm, "softirq")) {
		obj->context = MEMORIZER_CONTEXT_SOFTIRQ;
	} else {
		obj->context = MEMORIZER_CONTEXT_TASK;
	}
	*cache = f[9];
	*cache_len = fl[9];
	*none = type == FORK_NONE;
	return KMAP_LINE_OBJECT;
}

/*
 * A fork access line (after its two spaces): "access_ip,write_count,
 * read_count,access_pid", the pid -1 outside task context (or on every
 * line, from a fork built without CONFIG_MEMORIZER_TRACKPIDS), read as
 * pid 0 as ours writes it there; under a NONE object "from:access_ip,
 * write_count,read_count", one per calling function (with mem_track_cc),
 * pid 0 too. Returns KMAP_LINE_ACCESS, or 0 with err set.
 */
static int parse_fork_access(const char *s, size_t len,
			     struct kmap_access *acc, char *err, int none)
{
	const char *f[5];
	size_t fl[5], n;
	int from = len >= 5 && !memcmp(s, "from:", 5);

	if (from != none) {
		snprintf(err, KMAP_ERR_MAX, from ?
			 "from: access line under an object not of type NONE (the fork writes them under NONE objects only)" :
			 "access line under a NONE object without from: (the fork writes from:access_ip,write_count,read_count there)");
		return 0;
	}
	if (from) {
		s += 5;
		len -= 5;
	}
	n = split(s, len, f, fl, 4);
	if (n != (from ? 3u : 4u)) {
		snprintf(err, KMAP_ERR_MAX, from ?
			 "from: access line has %s fields, not 3 (from:access_ip,write_count,read_count)" :
			 "access line has %s fields, not 4 (the Memorizer fork's: access_ip,write_count,read_count,access_pid)",
			 n > 4 ? "more than 4" : (const char *[]){"0", "1", "2",
			 "3", "4"}[n]);
		return 0;
	}
	if (parse_ptr(f[0], fl[0], &acc->ip, 0, acc_field[0], err) ||
	    parse_dec(f[1], fl[1], &acc->writes, acc_field[2], err) ||
	    parse_dec(f[2], fl[2], &acc->reads, acc_field[3], err))
		return 0;
	acc->pid = 0;
	if (!from && !(fl[3] == 2 && !memcmp(f[3], "-1", 2)) &&
	    parse_pid(f[3], fl[3], &acc->pid, acc_field[1], err))
		return 0;
	acc->offset = acc->offset_end = 0;
	return KMAP_LINE_ACCESS;
}

/*
 * kmap_parse_line(), and the line's fields (4 or 6, 8, 10 or 11) in
 * *fields; a 10- or 11-field object line's cache at *cache, *cache_len
 * bytes (in s). obj_fields: the file's object lines' (11: the fork's,
 * whose access lines are its own; 0: not known yet, an object line of
 * 11 fields the fork's when its alloc_type is one of the fork's types).
 * *none: the last object line is the fork's of type NONE.
 */
static int parse_line(const char *s, size_t len, struct kmap_object *obj,
		      struct kmap_access *acc, char *err, unsigned int *fields,
		      const char **cache, size_t *cache_len,
		      unsigned int obj_fields, int *none)
{
	const char *f[10];
	size_t fl[10], n, i;

	if (len == 0) {
		snprintf(err, KMAP_ERR_MAX, "empty line");
		return 0;
	}
	if (s[0] == ' ') {
		uint64_t v;

		if (len < 3 || s[1] != ' ' || s[2] == ' ') {
			snprintf(err, KMAP_ERR_MAX,
				 "access line not indented by exactly two spaces");
			return 0;
		}
		if (obj_fields == 11) {
			*fields = 4;
			return parse_fork_access(s + 2, len - 2, acc, err,
						 *none);
		}
		n = split(s + 2, len - 2, f, fl, 6);
		if (n != 4 && n != 6) {
			snprintf(err, KMAP_ERR_MAX,
				 "access line has %s fields, not 4 (access_ip,access_pid,write_count,read_count) or 6 (kmap_offsets: and offset,offset_end)",
				 n > 6 ? "more than 6" : (const char *[]){"0", "1",
				 "2", "3", "4", "5"}[n]);
			return 0;
		}
		if (parse_hex(f[0], fl[0], &acc->ip, acc_field[0], err) ||
		    parse_pid(f[1], fl[1], &acc->pid, acc_field[1], err) ||
		    parse_dec(f[2], fl[2], &acc->writes, acc_field[2], err) ||
		    parse_dec(f[3], fl[3], &v, acc_field[3], err))
			return 0;
		acc->reads = v;
		acc->offset = acc->offset_end = 0;
		if (n == 6 &&
		    (parse_u32(f[4], fl[4], &acc->offset, acc_field[4], err) ||
		     parse_u32(f[5], fl[5], &acc->offset_end, acc_field[5],
			       err)))
			return 0;
		*fields = n;
		return KMAP_LINE_ACCESS;
	}
	n = split(s, len, f, fl, 10);
	/* The fork's: 11 fields, the eighth one of its types. */
	if (obj_fields == 11 ||
	    (!obj_fields && n > 10 && fork_type(f[7], fl[7]) >= 0)) {
		*fields = 11;
		return parse_fork_object(s, len, obj, err, cache, cache_len,
					 none);
	}
	if (n != 8 && n != 10) {
		char type[160] = "";

		/* Not the fork's either: say why, the file's first. */
		if (n > 10 && !obj_fields) {
			strcpy(type, ", nor the Memorizer fork's 11: its alloc_type '");
			/* show() writes at most 64 bytes: 40 shown, escaped. */
			show(type + strlen(type), 64, f[7], fl[7]);
			strcat(type, "' is none of its 27 types");
		}
		snprintf(err, KMAP_ERR_MAX,
			 "object line has %s fields, not 8 (alloc_ip,pid,obj_va_ptr,size,alloc_jiffies,free_jiffies,free_ip,executable) or 10 (kmap_offsets: and kind,cache)%s",
			 n > 10 ? "more than 10" : (const char *[]){"0", "1",
			 "2", "3", "4", "5", "6", "7", "8", "9"}[n], type);
		return 0;
	}
	if (parse_hex(f[0], fl[0], &obj->alloc_ip, obj_field[0], err) ||
	    parse_pid(f[1], fl[1], &obj->pid, obj_field[1], err) ||
	    parse_hex(f[2], fl[2], &obj->addr, obj_field[2], err) ||
	    parse_dec(f[3], fl[3], &obj->size, obj_field[3], err) ||
	    parse_dec(f[4], fl[4], &obj->alloc_jiffies, obj_field[4], err) ||
	    parse_dec(f[5], fl[5], &obj->free_jiffies, obj_field[5], err) ||
	    parse_hex(f[6], fl[6], &obj->free_ip, obj_field[6], err))
		return 0;
	if (fl[7] == 0) {
		field_err(err, obj_field[7], f[7], 0, "empty");
		return 0;
	}
	if (fl[7] >= KMAP_COMM_MAX) {
		field_err(err, obj_field[7], f[7], fl[7], "too long");
		return 0;
	}
	for (i = 0; i < fl[7]; i++) {
		unsigned char c = f[7][i];

		if (c < 0x20 || c == 0x7f) {
			field_err(err, obj_field[7], f[7], fl[7],
				  "control character (the kernel writes '?')");
			return 0;
		}
	}
	memcpy(obj->comm, f[7], fl[7]);
	obj->comm[fl[7]] = 0;
	obj->has = 0;
	obj->cache_id = 0;
	obj->cache = NULL;
	*cache = NULL;
	*cache_len = 0;
	if (n == 10) {
		if (parse_kind_cache(f[8], fl[8], f[9], fl[9], obj, err))
			return 0;
		*cache = f[9];
		*cache_len = fl[9];
	}
	*fields = n;
	return KMAP_LINE_OBJECT;
}

int kmap_parse_line(const char *s, size_t len, struct kmap_object *obj,
		    struct kmap_access *acc, char *err)
{
	unsigned int fields;
	const char *cache;
	size_t cache_len;
	int none = 0;

	return parse_line(s, len, obj, acc, err, &fields, &cache, &cache_len,
			  0, &none);
}

/*
 * The fast path: one pass over a line that is well formed, fields parsed
 * as they are split, no memchr, no copies. Each parser reads a bounded
 * number of bytes (a line of them all is far shorter than KMAP_LINE_MAX),
 * so with KMAP_LINE_MAX bytes in the buffer it never reads past them.
 * It accepts only what kmap_parse_line() accepts, with the same values;
 * anything else (errors included) goes to kmap_parse_line(), which says
 * what is wrong.
 */
static inline int hex_digit(unsigned char c, unsigned int *d)
{
	*d = c - '0';
	if (*d <= 9)
		return 1;
	*d = c - 'a';
	if (*d <= 5) {
		*d += 10;
		return 1;
	}
	return 0;
}

#define ONES	0x0101010101010101ull
#define HIGHS	0x8080808080808080ull

#ifndef __SSE2__
/*
 * Eight lowercase hex digits at p (the first the most significant), SWAR:
 * 0 with their value, or -1 when one of the bytes is not one.
 */
static inline int hex8(const unsigned char *p, uint32_t *v)
{
	uint64_t x, digit, alpha, d;

	memcpy(&x, p, 8);
	x = le64toh(x);
	if (x & HIGHS)
		return -1;
	/* High bit of each byte: in '0'..'9', in 'a'..'f'. */
	digit = (x + (0x80 - '0') * ONES) & ~(x + (0x7f - '9') * ONES) & HIGHS;
	alpha = (x + (0x80 - 'a') * ONES) & ~(x + (0x7f - 'f') * ONES) & HIGHS;
	if ((digit | alpha) != HIGHS)
		return -1;
	d = (x & 0x0f0f0f0f0f0f0f0full) + 9 * ((x >> 6) & ONES);
	d = ((d << 4) | (d >> 8)) & 0x00ff00ff00ff00ffull;
	d = ((d << 8) | (d >> 16)) & 0x0000ffff0000ffffull;
	d = ((d << 16) | (d >> 32)) & 0xffffffffull;
	*v = (uint32_t)d;
	return 0;
}
#endif

/*
 * Sixteen lowercase hex digits at p: 0 with their value, or -1 when one
 * of the bytes is not one. SSE2 (every x86-64): the 16 bytes checked and
 * converted at once; elsewhere hex8() twice.
 */
static inline int hex16(const unsigned char *p, uint64_t *v)
{
#ifdef __SSE2__
	__m128i c = _mm_loadu_si128((const __m128i *)p);
	/*
	 * A range [lo, hi] in one signed compare: c + (127 - hi) takes hi to
	 * 127, every byte above hi past it (negative), every byte below lo
	 * to at most lo + 126 - hi (wrapping, the bytes above 0x80 too).
	 */
	__m128i digit = _mm_cmpgt_epi8(_mm_add_epi8(c, _mm_set1_epi8(127 - '9')),
				       _mm_set1_epi8(127 - '9' + '0' - 1));
	__m128i alpha = _mm_cmpgt_epi8(_mm_add_epi8(c, _mm_set1_epi8(127 - 'f')),
				       _mm_set1_epi8(127 - 'f' + 'a' - 1));
	__m128i d;

	if (_mm_movemask_epi8(_mm_or_si128(digit, alpha)) != 0xffff)
		return -1;
	d = _mm_sub_epi8(_mm_sub_epi8(c, _mm_set1_epi8('0')),
			 _mm_and_si128(alpha, _mm_set1_epi8('a' - '0' - 10)));
	/* Each pair of digits a byte (the first the high nibble)... */
	d = _mm_and_si128(_mm_or_si128(_mm_slli_epi16(d, 4),
				       _mm_srli_epi16(d, 8)),
			  _mm_set1_epi16(0xff));
	/* ... the 8 of them a word, the most significant first in memory. */
	*v = __builtin_bswap64((uint64_t)_mm_cvtsi128_si64(_mm_packus_epi16(d, d)));
	return 0;
#else
	uint32_t hi, lo;

	if (hex8(p, &hi) || hex8(p + 8, &lo))
		return -1;
	*v = (uint64_t)hi << 32 | lo;
	return 0;
#endif
}

/* Lowercase hex, 1-16 digits, no leading zero, then sep. */
static inline const unsigned char *fast_hex(const unsigned char *p, char sep,
					    uint64_t *v)
{
	const unsigned char *s = p;
	uint64_t x = 0;
	unsigned int d;

	/* Kernel addresses: 16 digits. */
	if (p[16] == (unsigned char)sep && p[0] != '0' && !hex16(p, v))
		return p + 17;
	while (p - s < 17 && hex_digit(*p, &d)) {
		x = x << 4 | d;
		p++;
	}
	if (*p != (unsigned char)sep || p == s || p - s > 16 ||
	    (*s == '0' && p - s > 1))
		return NULL;
	*v = x;
	return p + 1;
}

/*
 * Decimal, 1-19 digits (no overflow possible), no leading zero, then sep.
 * Two digits a turn, each tested and nothing else (a line's numbers are
 * most of its bytes); the byte that stops it is tested as its d, the
 * separator's value less '0'.
 */
static inline const unsigned char *fast_dec(const unsigned char *p, char sep,
					    uint64_t *v)
{
	const unsigned char *stop = p + 19;	/* the 20th byte: sep */
	uint64_t x = (uint64_t)*p - '1', d, e;

	if (x > 8)	/* not 1-9: "0" alone, or no number */
		return *p == '0' && p[1] == (unsigned char)sep ?
		       (*v = 0, p + 2) : NULL;
	x++;
	for (p++; p != stop; p += 2) {
		d = (uint64_t)p[0] - '0';
		if (d > 9)
			goto end;
		e = (uint64_t)p[1] - '0';
		if (e > 9) {
			x = x * 10 + d;
			d = e;
			p++;
			goto end;
		}
		x = x * 100 + d * 10 + e;
	}
	d = (uint64_t)*p - '0';
end:
	if (d != (uint64_t)(unsigned char)sep - '0')
		return NULL;
	*v = x;
	return p + 1;
}

/*
 * An access line's length (without its newline), or 0 when the slow path
 * must; its fields (4 or 6) in *fields. p[0] is a space.
 */
static inline size_t fast_access(const char *line, struct kmap_access *acc,
				 unsigned int *fields)
{
	const unsigned char *p = (const unsigned char *)line, *q;
	uint64_t pid, off, end;

	if (p[1] != ' ' || !(p = fast_hex(p + 2, ',', &acc->ip)) ||
	    !(p = fast_dec(p, ',', &pid)) || pid >= KMAP_PID_MAX ||
	    !(p = fast_dec(p, ',', &acc->writes)))
		return 0;
	/* kmap's 4 fields first, then kmap_offsets' 6. */
	if ((q = fast_dec(p, '\n', &acc->reads))) {
		acc->offset = acc->offset_end = 0;
		*fields = 4;
	} else if (!(p = fast_dec(p, ',', &acc->reads)) ||
		   !(p = fast_dec(p, ',', &off)) || off > UINT32_MAX ||
		   !(q = fast_dec(p, '\n', &end)) || end > UINT32_MAX) {
		return 0;
	} else {
		acc->offset = (uint32_t)off;
		acc->offset_end = (uint32_t)end;
		*fields = 6;
	}
	acc->pid = (uint32_t)pid;
	return (const char *)q - 1 - line;
}

/*
 * The comm at p, up to the line's newline, into comm[] (NUL-terminated):
 * its length, or 0 when the slow path must (none, a control byte, DEL, a
 * comma, KMAP_COMM_MAX bytes or more). SSE2: a comm of up to 15 bytes
 * found and copied at once (zeros after it), not a byte a turn.
 */
static inline size_t fast_comm(const unsigned char *p, char *comm)
{
	const unsigned char *c;

#ifdef __SSE2__
	__m128i v = _mm_loadu_si128((const __m128i *)p);
	/* Below 0x20: a range in one signed compare, as in hex16(). */
	__m128i stop = _mm_or_si128(
		_mm_cmpgt_epi8(_mm_add_epi8(v, _mm_set1_epi8(127 - 0x1f)),
			       _mm_set1_epi8(127 - 0x1f - 1)),
		_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f)),
			     _mm_cmpeq_epi8(v, _mm_set1_epi8(','))));
	unsigned int at = (unsigned int)_mm_movemask_epi8(stop);

	if (at) {
		size_t len = (size_t)__builtin_ctz(at);
		__m128i keep = _mm_cmplt_epi8(
			_mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
				      13, 14, 15), _mm_set1_epi8((char)len));

		if (p[len] != '\n' || !len)
			return 0;
		_mm_storeu_si128((__m128i *)comm, _mm_and_si128(v, keep));
		return len;
	}
#endif
	for (c = p; c - p < KMAP_COMM_MAX && *c >= 0x20 && *c != 0x7f &&
	     *c != ','; c++)
		;
	if (*c != '\n' || c == p || c - p >= KMAP_COMM_MAX)
		return 0;
	memcpy(comm, p, c - p);
	comm[c - p] = 0;
	return c - p;
}

/*
 * An object line's seven numbers, each with its comma, into obj but its
 * pid (into *pid, below KMAP_PID_MAX): where the executable starts, or
 * NULL when the slow path must read the line.
 */
static inline const unsigned char *fast_numbers(const unsigned char *p,
						 struct kmap_object *obj,
						 uint64_t *pid)
{
	if (!(p = fast_hex(p, ',', &obj->alloc_ip)) ||
	    !(p = fast_dec(p, ',', pid)) || *pid >= KMAP_PID_MAX ||
	    !(p = fast_hex(p, ',', &obj->addr)) ||
	    !(p = fast_dec(p, ',', &obj->size)) ||
	    !(p = fast_dec(p, ',', &obj->alloc_jiffies)) ||
	    !(p = fast_dec(p, ',', &obj->free_jiffies)) ||
	    !(p = fast_hex(p, ',', &obj->free_ip)))
		return NULL;
	return p;
}

/* An object line's length (without its newline), or 0: the slow path. */
static inline size_t fast_object(const char *line, struct kmap_object *obj)
{
	const unsigned char *p = (const unsigned char *)line;
	uint64_t pid;
	size_t len;

	if (!(p = fast_numbers(p, obj, &pid)))
		return 0;
	len = fast_comm(p, obj->comm);
	if (!len)
		return 0;
	obj->pid = (uint32_t)pid;
	obj->has = 0;
	return (const char *)p + len - line;
}

/* FNV-1a of s[0 .. len). */
static uint64_t hash(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	return h;
}

/* Whether the name interned at i is s[0 .. len). */
static inline int cache_is(const struct kmap_text_reader *r, size_t i,
			   const char *s, size_t len)
{
	return !strncmp(r->names[i], s, len) && !r->names[i][len];
}

/*
 * The index of the name s[0 .. len) interned, or -1 when it is not. A
 * hash two names share: the key one up is the second's (a key taken by
 * another name's own hash is passed over the same way).
 */
static long find_cache(const struct kmap_text_reader *r, const char *s,
		       size_t len)
{
	uint64_t h, *slot;

	if (r->last_name < r->nnames && cache_is(r, r->last_name, s, len))
		return (long)r->last_name;
	for (h = hash(s, len); (slot = kmap_map_find(&r->caches, h)); h++)
		if (cache_is(r, *slot, s, len))
			return (long)*slot;
	return -1;
}

/* Name the interned cache i in obj. */
static inline void set_cache(struct kmap_text_reader *r, size_t i,
			     struct kmap_object *obj)
{
	r->last_name = i;
	obj->cache_id = (uint32_t)(i + 1);
	obj->cache = r->names[i];
	obj->has |= KMAP_HAS_CACHE;
}

/*
 * The cache name s[0 .. len) into obj (cache_id, cache, KMAP_HAS_CACHE),
 * interned; nothing for an empty one. Returns 0, or -1 with r's error set.
 */
static int name_cache(struct kmap_text_reader *r, const char *s, size_t len,
		      struct kmap_object *obj)
{
	uint64_t h, *slot;
	long found;
	size_t i;
	char *copy;
	int is_new;

	if (!len)
		return 0;
	found = find_cache(r, s, len);
	if (found >= 0) {
		set_cache(r, (size_t)found, obj);
		return 0;
	}
	/* Its key: the first free one from its hash up, as find_cache(). */
	for (h = hash(s, len); kmap_map_find(&r->caches, h); h++)
		;
	slot = kmap_map_get(&r->caches, h, &is_new);
	if (!slot)
		goto oom;
	if (r->nnames >= MAX_CACHES) {
		kmap_map_del(&r->caches, h);
		set_err(r, "more than %u cache names", MAX_CACHES);
		return -1;
	}
	copy = malloc(len + 1);
	if (!copy || kmap_grow((void **)&r->names, &r->names_cap,
			       r->nnames + 1, sizeof(*r->names))) {
		free(copy);
		kmap_map_del(&r->caches, h);
		goto oom;
	}
	memcpy(copy, s, len);
	copy[len] = 0;
	i = r->nnames++;
	r->names[i] = copy;
	*slot = i;
	set_cache(r, i, obj);
	return 0;
oom:
	set_err(r, "out of memory");
	return -1;
}

/*
 * How many bytes at p come before the first control byte, DEL or comma
 * (a newline, the next field), counting to max + 1 at most: a field of at
 * most max bytes is followed by its separator. SSE2: 16 bytes a turn, as
 * fast_comm() (reads up to max + 16 bytes).
 */
static inline size_t fast_span(const unsigned char *p, size_t max)
{
	size_t n = 0;

#ifdef __SSE2__
	for (; n <= max; n += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(p + n));
		__m128i stop = _mm_or_si128(
			_mm_cmpgt_epi8(_mm_add_epi8(v, _mm_set1_epi8(127 - 0x1f)),
				       _mm_set1_epi8(127 - 0x1f - 1)),
			_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f)),
				     _mm_cmpeq_epi8(v, _mm_set1_epi8(','))));
		unsigned int at = (unsigned int)_mm_movemask_epi8(stop);

		if (at)
			return n + (size_t)__builtin_ctz(at);
	}
#else
	while (n <= max && p[n] >= 0x20 && p[n] != 0x7f && p[n] != ',')
		n++;
#endif
	return n;
}

/*
 * A kmap_offsets object line of 10 fields: its length (without its
 * newline), or 0 when the slow path must read it (anything it would
 * refuse, and a cache name not interned yet: the slow path interns it).
 * Each field is read a bounded number of bytes: the line's are far fewer
 * than KMAP_LINE_MAX.
 */
static inline size_t fast_object_kinds(struct kmap_text_reader *r,
				       const char *line,
				       struct kmap_object *obj)
{
	const unsigned char *p = (const unsigned char *)line, *c, *k, *e;
	char err[KMAP_ERR_MAX];
	uint64_t pid;
	long i;

	if (!(p = fast_numbers(p, obj, &pid)))
		return 0;
	c = p + fast_span(p, KMAP_COMM_MAX - 1);
	if (*c != ',' || c == p || c - p >= KMAP_COMM_MAX)
		return 0;
	/* The kind: at most "kmalloc_large". */
	k = ++c;
	k += fast_span(k, 15);
	if (*k != ',')
		return 0;
	e = ++k;
	e += fast_span(e, KMAP_CACHE_MAX);
	if (*e != '\n' || e - k > KMAP_CACHE_MAX)
		return 0;
	memcpy(obj->comm, p, c - 1 - p);
	obj->comm[c - 1 - p] = 0;
	obj->pid = (uint32_t)pid;
	obj->has = 0;
	obj->cache_id = 0;
	obj->cache = NULL;
	if (parse_kind_cache((const char *)c, k - 1 - c, (const char *)k,
			     e - k, obj, err))
		return 0;
	if (e > k) {
		i = find_cache(r, (const char *)k, e - k);
		if (i < 0)
			return 0;
		set_cache(r, (size_t)i, obj);
	}
	return (const char *)e - line;
}

/* The line of len (newline excluded) at buf[start] is read. */
static inline void consumed(struct kmap_text_reader *r, size_t len)
{
	r->line++;
	r->start += len + 1;
	r->offset += len + 1;
}

/*
 * The fast path of kmap_text_next(), with KMAP_LINE_MAX bytes at
 * buf[start]: the line's type, or 0 when the slow path must read it.
 */
static inline int next_fast(struct kmap_text_reader *r,
			    struct kmap_object *obj, struct kmap_access *acc)
{
	const char *line = (r->mem ? r->mem : r->buf) + r->start;
	unsigned int fields;
	size_t len;
	int type;

	/* The fork's lines: the slow path (its access lines look like ours). */
	if (r->obj_fields == 11)
		return 0;
	if (line[0] == ' ') {
		len = fast_access(line, acc, &fields);
		if (!len || !r->have_object || fields != r->acc_fields)
			return 0;
		type = KMAP_LINE_ACCESS;
	} else {
		/* As many fields as the first object line's. */
		if (r->obj_fields == 8)
			len = fast_object(line, obj);
		else if (r->obj_fields == 10)
			len = fast_object_kinds(r, line, obj);
		else
			return 0;
		if (!len)
			return 0;
		r->have_object = 1;
		type = KMAP_LINE_OBJECT;
	}
	if (r->tee)
		r->tee(r->tee_ctx, line, len + 1);
	consumed(r, len);
	return type;
}

/* kmap_text_next() past its fast path: refills, and any line at all. */
static __attribute__((noinline)) int next_slow(struct kmap_text_reader *r,
					       struct kmap_object *obj,
					       struct kmap_access *acc)
{
	const char *base, *nl, *cache;
	size_t len, cache_len;
	char err[KMAP_ERR_MAX];
	unsigned int fields = 0;
	int type;

	if (r->failed)
		return -1;
	base = r->mem ? r->mem : r->buf;
	/* Keep a line's worth in the buffer: the fast path needs no more. */
	while (r->end - r->start < KMAP_LINE_MAX && !r->eof) {
		if (refill(r)) {
			set_err(r, "read error: %s", strerror(errno));
			return -1;
		}
	}
	if (r->end - r->start >= KMAP_LINE_MAX &&
	    (type = next_fast(r, obj, acc)))
		return type;
	for (;;) {
		size_t avail = r->end - r->start;

		nl = memchr(base + r->start, '\n',
			    avail < KMAP_LINE_MAX ? avail : KMAP_LINE_MAX);
		if (nl)
			break;
		if (avail >= KMAP_LINE_MAX) {
			r->line++;
			set_err(r, "line longer than %d bytes", KMAP_LINE_MAX - 1);
			return -1;
		}
		if (r->eof) {
			if (avail == 0 && r->fn)	/* told (kmap_read_fn) */
				r->fn(r->ctx, r->buf, 0);
			if (avail == 0)
				return 0;
			r->line++;
			set_err(r, "last line has no newline (input cut short?)");
			return -1;
		}
		if (refill(r)) {
			set_err(r, "read error: %s", strerror(errno));
			return -1;
		}
	}
	r->line++;
	len = nl - (base + r->start);
	type = parse_line(base + r->start, len, obj, acc, err, &fields, &cache,
			  &cache_len, r->obj_fields, &r->fork_none);
	if (!type) {
		set_err(r, "%s", err);
		return -1;
	}
	if (type == KMAP_LINE_ACCESS && !r->have_object) {
		set_err(r, "access line before any object line");
		return -1;
	}
	if (type == KMAP_LINE_ACCESS && fields != r->acc_fields) {
		if (r->acc_fields) {
			set_err(r, "access line of %u fields, but line %lu's has %u: a kmap (4) and a kmap_offsets (6) mixed",
				fields, r->acc_fields_line, r->acc_fields);
			return -1;
		}
		if (fields == 4 && r->obj_fields == 10) {
			set_err(r, "access line of 4 fields, but line %lu's object line has 10: kmap_offsets' access lines have 6 (offset,offset_end)",
				r->obj_fields_line);
			return -1;
		}
		r->acc_fields = fields;
		r->acc_fields_line = r->line;
	}
	if (type == KMAP_LINE_OBJECT && fields != r->obj_fields) {
		if (r->obj_fields) {
			set_err(r, "object line of %u fields, but line %lu's has %u: a kmap's or an older kmap_offsets' (8), a kmap_offsets' with kind and cache (10) and the Memorizer fork's (11) mixed",
				fields, r->obj_fields_line, r->obj_fields);
			return -1;
		}
		/* The first object line: no access line came before it. */
		r->obj_fields = fields;
		r->obj_fields_line = r->line;
	}
	if (type == KMAP_LINE_OBJECT && name_cache(r, cache, cache_len, obj))
		return -1;
	if (type == KMAP_LINE_OBJECT)
		r->have_object = 1;
	if (r->tee)
		r->tee(r->tee_ctx, base + r->start, len + 1);
	r->start += len + 1;
	r->offset += len + 1;
	return type;
}

int kmap_text_next(struct kmap_text_reader *r, struct kmap_object *obj,
		   struct kmap_access *acc)
{
	int type;

	if (!r->failed && r->end - r->start >= KMAP_LINE_MAX &&
	    (type = next_fast(r, obj, acc)))
		return type;
	return next_slow(r, obj, acc);
}

size_t kmap_text_accesses(struct kmap_text_reader *r, struct kmap_access *acc,
			  size_t room)
{
	const char *base = r->mem ? r->mem : r->buf;
	/*
	 * Where the lines are, in locals: r's fields, stored through at each
	 * line (acc's stores may alias them), cost more than the parsing.
	 */
	const char *run = base + r->start, *line = run;
	const char *last = base + r->end - KMAP_LINE_MAX;
	unsigned int fields, want = r->acc_fields;
	size_t n, len;

	if (r->failed || !r->have_object || r->obj_fields == 11 ||
	    r->end - r->start < KMAP_LINE_MAX)
		return 0;
	for (n = 0; n < room && line <= last; n++) {
		if (line[0] != ' ')
			break;
		len = fast_access(line, &acc[n], &fields);
		if (!len || fields != want)
			break;
		line += len + 1;
	}
	r->line += n;
	r->start += line - run;
	r->offset += line - run;
	if (n && r->tee)
		r->tee(r->tee_ctx, run, line - run);
	return n;
}

int kmap_text_offsets(const struct kmap_text_reader *r)
{
	if (r->acc_fields)
		return r->acc_fields == 6;
	return r->obj_fields == 10 ? 1 : r->obj_fields == 11 ? 0 : -1;
}

int kmap_text_fork(const struct kmap_text_reader *r)
{
	return r->obj_fields ? r->obj_fields == 11 : -1;
}

/* Writer. */

/*
 * The writers below store whole words past the digits they return (at
 * most 20 bytes from p: kmap_put_hex16()), which the line that follows
 * overwrites: lines are built in buffers of KMAP_LINE_MAX, far longer
 * than any line.
 */

static inline char *put_hex(char *p, uint64_t v)
{
	return kmap_put_hex16(p, v);
}

void kmap_sanitize_comm(char *out, const char *comm, size_t len)
{
	size_t i;

	for (i = 0; i < len && i < KMAP_COMM_MAX - 1 && comm[i]; i++) {
		unsigned char c = comm[i];

		out[i] = (c < 0x20 || c == 0x7f || c == ',') ? '?' : c;
	}
	out[i] = 0;
}

/* The object line's fields to executable, without its newline. */
static char *format_object(char *line, const struct kmap_object *o)
{
	char *p = line;
	char comm[KMAP_COMM_MAX];

	p = put_hex(p, o->alloc_ip);
	*p++ = ',';
	p = kmap_put_dec(p, o->pid);
	*p++ = ',';
	p = put_hex(p, o->addr);
	*p++ = ',';
	p = kmap_put_dec(p, o->size);
	*p++ = ',';
	p = kmap_put_dec(p, o->alloc_jiffies);
	*p++ = ',';
	p = kmap_put_dec(p, o->free_jiffies);
	*p++ = ',';
	p = put_hex(p, o->free_ip);
	*p++ = ',';
	kmap_sanitize_comm(comm, o->comm, sizeof(comm));
	if (!comm[0])
		strcpy(comm, "?");
	return stpcpy(p, comm);
}

size_t kmap_format_object(char *line, const struct kmap_object *o)
{
	char *p = format_object(line, o);

	*p++ = '\n';
	return p - line;
}

size_t kmap_format_object_offsets(char *line, const struct kmap_object *o)
{
	char *p = format_object(line, o), cache[KMAP_COMM_MAX] = "";

	if (o->has & KMAP_HAS_KIND) {
		*p++ = ',';
		p = stpcpy(p, kmap_kind_name(o->kind));
		*p++ = ',';
		if ((o->has & KMAP_HAS_CACHE) && o->cache)
			kmap_sanitize_comm(cache, o->cache, KMAP_CACHE_MAX);
		p = stpcpy(p, cache);
	}
	*p++ = '\n';
	return p - line;
}

/*
 * A pid as written last, "PID," (at most 8 bytes: below KMAP_PID_MAX):
 * an object's lines mostly have one pid, written once then copied.
 */
struct pid_text {
	uint32_t pid;
	unsigned int len;
	char text[16];
};

/*
 * An access line, with ",offset,offset_end" (kmap_offsets) or not; its
 * pid from pt when pt has it (pt NULL: none kept). Inline always: gcc
 * called it from kmap_format_accesses()' loop, the call and its
 * arguments a sixteenth of memorizer text of a stream.
 */
static inline __attribute__((always_inline)) size_t
format_access(char *line, const struct kmap_access *a, int offsets,
	      struct pid_text *pt)
{
	char *p = line;

	*p++ = ' ';
	*p++ = ' ';
	p = put_hex(p, a->ip);
	*p++ = ',';
	if (pt && a->pid < KMAP_PID_MAX) {
		if (a->pid != pt->pid) {
			pt->pid = a->pid;
			pt->len = kmap_put_dec(pt->text, a->pid) - pt->text;
			pt->text[pt->len++] = ',';
		}
		memcpy(p, pt->text, 8);
		p += pt->len;
	} else {
		p = kmap_put_dec(p, a->pid);
		*p++ = ',';
	}
	p = kmap_put_dec(p, a->writes);
	*p++ = ',';
	p = kmap_put_dec(p, a->reads);
	if (offsets) {
		*p++ = ',';
		p = kmap_put_dec(p, a->offset);
		*p++ = ',';
		p = kmap_put_dec(p, a->offset_end);
	}
	*p++ = '\n';
	return p - line;
}

size_t kmap_format_access(char *line, const struct kmap_access *a)
{
	return format_access(line, a, 0, NULL);
}

size_t kmap_format_access_offsets(char *line, const struct kmap_access *a)
{
	return format_access(line, a, 1, NULL);
}

size_t kmap_format_accesses(char *buf, size_t room,
			    const struct kmap_access *acc, size_t n,
			    int offsets, size_t *done)
{
	struct pid_text pt = { .pid = UINT32_MAX };
	char *p = buf;
	size_t i;

	for (i = 0; i < n && (size_t)(buf + room - p) >= KMAP_LINE_MAX; i++)
		p += offsets ? format_access(p, &acc[i], 1, &pt) :
			       format_access(p, &acc[i], 0, &pt);
	*done = i;
	return p - buf;
}

int kmap_write_object(FILE *f, const struct kmap_object *o)
{
	char line[KMAP_LINE_MAX];
	size_t n = kmap_format_object(line, o);

	return fwrite_unlocked(line, 1, n, f) == n ? 0 : -1;
}

static int write_access(FILE *f, const struct kmap_access *a, int offsets)
{
	char line[KMAP_LINE_MAX];
	size_t n = format_access(line, a, offsets, NULL);

	return fwrite_unlocked(line, 1, n, f) == n ? 0 : -1;
}

int kmap_write_access(FILE *f, const struct kmap_access *a)
{
	return write_access(f, a, 0);
}

int kmap_write_access_offsets(FILE *f, const struct kmap_access *a)
{
	return write_access(f, a, 1);
}
