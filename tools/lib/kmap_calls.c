// SPDX-License-Identifier: GPL-2.0
/*
 * libkmap: call edges, debugfs memorizer/function_calls line by line, and
 * a table that sums them per (caller, callee, pid). See kmap.h.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "kmap.h"

#define BUF_SIZE	(64 * 1024)

struct kmap_calls_reader {
	kmap_read_fn fn;
	void *ctx;
	const char *name;
	char *buf;
	size_t start, end;		/* unread bytes: buf[start .. end) */
	int eof, failed;
	int fork;			/* -1: not known yet; 1: the fork's lines */
	unsigned long line;
	char err[KMAP_ERR_MAX];
};

static void set_err(struct kmap_calls_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void set_err(struct kmap_calls_reader *r, const char *fmt, ...)
{
	char what[KMAP_ERR_MAX - 192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(r->err, sizeof(r->err), "%.150s:%lu: %s", r->name, r->line,
		 what);
	r->failed = 1;
}

struct kmap_calls_reader *kmap_calls_open(FILE *f, const char *name)
{
	return kmap_calls_open_fn(kmap_file_read, f, name);
}

struct kmap_calls_reader *kmap_calls_open_fn(kmap_read_fn fn, void *ctx,
					     const char *name)
{
	struct kmap_calls_reader *r = calloc(1, sizeof(*r));

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
	r->fork = -1;
	return r;
}

void kmap_calls_close(struct kmap_calls_reader *r)
{
	if (!r)
		return;
	free(r->buf);
	free(r);
}

const char *kmap_calls_error(const struct kmap_calls_reader *r)
{
	return r->err;
}

/* A field as the kernel prints it: lowercase hex, no 0x, no leading zero. */
static int hex_field(const char *s, size_t len, uint64_t *v, const char *field,
		     char *err)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] >= 'A' && s[i] <= 'F')
			break;
	if (!len || i < len || kmap_parse_hex(s, len, v)) {
		snprintf(err, KMAP_ERR_MAX, "%s '%.*s': not lowercase hexadecimal of at most 64 bits",
			 field, len > 40 ? 40 : (int)len, s);
		return -1;
	}
	if (len > 1 && s[0] == '0') {
		snprintf(err, KMAP_ERR_MAX, "%s '%.*s': leading zero", field,
			 (int)len, s);
		return -1;
	}
	if (!*v) {
		snprintf(err, KMAP_ERR_MAX, "%s 0: no kernel address", field);
		return -1;
	}
	return 0;
}

static int dec_field(const char *s, size_t len, uint64_t *v, const char *field,
		     char *err)
{
	if (kmap_parse_dec(s, len, v)) {
		snprintf(err, KMAP_ERR_MAX, "%s '%.*s': not an unsigned decimal number of at most 64 bits",
			 field, len > 40 ? 40 : (int)len, s);
		return -1;
	}
	if (len > 1 && s[0] == '0') {
		snprintf(err, KMAP_ERR_MAX, "%s '%.*s': leading zero", field,
			 (int)len, s);
		return -1;
	}
	return 0;
}

int kmap_parse_call(const char *s, size_t len, struct kmap_call *c, int *fork,
		    char *err)
{
	static const char *const names[] = { "caller", "callee", "pid", "count" };
	const char *f[4];
	size_t flen[4], i, n = 0, start = 0;
	char sep = memchr(s, ',', len) ? ',' : ' ';
	uint64_t v[4];

	for (i = 0; i <= len; i++) {
		if (i < len && s[i] != sep)
			continue;
		if (n == 4) {
			n++;
			break;
		}
		f[n] = s + start;
		flen[n++] = i - start;
		start = i + 1;
	}
	if (!len) {
		snprintf(err, KMAP_ERR_MAX, "empty line");
		return -1;
	}
	if (sep == ',' && n != 4) {
		if (n > 4)
			snprintf(err, KMAP_ERR_MAX, "more than 4 fields (caller,callee,pid,count)");
		else
			snprintf(err, KMAP_ERR_MAX, "%zu fields, not 4 (caller,callee,pid,count)", n);
		return -1;
	}
	if (sep == ' ' && n != 3) {
		snprintf(err, KMAP_ERR_MAX, "not caller,callee,pid,count nor the fork's caller callee count");
		return -1;
	}
	*fork = sep == ' ';
	if (*fork) {		/* no pid: count is the third */
		f[3] = f[2];
		flen[3] = flen[2];
	}
	for (i = 0; i < 4; i++) {
		if (i == 2 && *fork)
			continue;
		if (i < 2 ? hex_field(f[i], flen[i], &v[i], names[i], err) :
			    dec_field(f[i], flen[i], &v[i], names[i], err))
			return -1;
	}
	if (!*fork && v[2] >= KMAP_PID_MAX) {
		snprintf(err, KMAP_ERR_MAX,
			 "pid %llu: above the kernel's pid limit (4194304)",
			 (unsigned long long)v[2]);
		return -1;
	}
	if (!v[3]) {
		snprintf(err, KMAP_ERR_MAX,
			 "count 0: the kernel prints an edge once it was called");
		return -1;
	}
	c->caller = v[0];
	c->callee = v[1];
	c->pid = *fork ? KMAP_CALL_PID_UNKNOWN : (uint32_t)v[2];
	c->count = v[3];
	return 0;
}

/* Make room to read: move the unread bytes to the front and fill. */
static int fill(struct kmap_calls_reader *r)
{
	long n;

	if (r->start) {
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->end -= r->start;
		r->start = 0;
	}
	while (!r->eof && r->end < BUF_SIZE) {
		n = r->fn(r->ctx, r->buf + r->end, BUF_SIZE - r->end);
		if (n < 0) {
			set_err(r, "read error");
			return -1;
		}
		if (n == 0)
			r->eof = 1;
		r->end += n;
		if (memchr(r->buf + r->start, '\n', r->end - r->start))
			break;
	}
	return 0;
}

int kmap_calls_next(struct kmap_calls_reader *r, struct kmap_call *c)
{
	char err[KMAP_ERR_MAX];
	char *s, *nl;
	size_t len;
	int fork;

	if (r->failed)
		return -1;
	nl = memchr(r->buf + r->start, '\n', r->end - r->start);
	if (!nl && !r->eof) {
		if (fill(r))
			return -1;
		nl = memchr(r->buf + r->start, '\n', r->end - r->start);
	}
	if (r->start == r->end && r->eof)
		return 0;
	r->line++;
	s = r->buf + r->start;
	len = nl ? (size_t)(nl - s) : r->end - r->start;
	if (len + 1 > KMAP_LINE_MAX) {
		set_err(r, "line longer than %d bytes", KMAP_LINE_MAX - 1);
		return -1;
	}
	if (!nl) {
		set_err(r, "no newline at the end: the file is cut short");
		return -1;
	}
	r->start += len + 1;
	if (kmap_parse_call(s, len, c, &fork, err)) {
		set_err(r, "%s", err);
		return -1;
	}
	if (r->fork >= 0 && fork != r->fork) {
		set_err(r, fork ? "a line of the fork's (caller callee count) among lines of caller,callee,pid,count" :
				  "a line of caller,callee,pid,count among lines of the fork's (caller callee count)");
		return -1;
	}
	r->fork = fork;
	return 1;
}

/* ------------------------------------------------------------------ */

struct kmap_calls {
	struct kmap_map index;		/* hash of (caller, callee, pid), +1
					 * per clash -> index in call */
	struct kmap_call *call;
	size_t n, cap;
};

struct kmap_calls *kmap_calls_new(void)
{
	struct kmap_calls *t = calloc(1, sizeof(*t));

	if (t)
		kmap_map_init(&t->index);
	return t;
}

static uint64_t call_hash(const struct kmap_call *c)
{
	uint64_t h = c->caller * 0x9e3779b97f4a7c15ull;

	h ^= c->callee + 0x632be59bd9b4e019ull + (h << 6) + (h >> 2);
	h ^= (uint64_t)c->pid * 0xff51afd7ed558ccdull;
	return h;
}

int kmap_calls_add(struct kmap_calls *t, const struct kmap_call *c)
{
	uint64_t h = call_hash(c), *v;
	struct kmap_call *e;
	int is_new;

	for (;; h++) {
		v = kmap_map_find(&t->index, h);
		if (!v)
			break;
		e = &t->call[*v];
		if (e->caller == c->caller && e->callee == c->callee &&
		    e->pid == c->pid) {
			e->count = kmap_add_sat(e->count, c->count);
			return 0;
		}
	}
	if (kmap_grow((void **)&t->call, &t->cap, t->n + 1, sizeof(*t->call)))
		return -1;
	v = kmap_map_get(&t->index, h, &is_new);
	if (!v)
		return -1;
	*v = t->n;
	t->call[t->n++] = *c;
	return 0;
}

size_t kmap_calls_list(const struct kmap_calls *t,
		       const struct kmap_call **calls)
{
	*calls = t ? t->call : NULL;
	return t ? t->n : 0;
}

void kmap_calls_free(struct kmap_calls *t)
{
	if (!t)
		return;
	kmap_map_free(&t->index);
	free(t->call);
	free(t);
}
