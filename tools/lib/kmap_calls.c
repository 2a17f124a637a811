// SPDX-License-Identifier: GPL-2.0
/*
 * libkmap: call edges, debugfs memorizer/function_calls line by line, and
 * a table that sums them per (caller, callee, pid). See kmap.h.
 */
#include <stdlib.h>
#include <string.h>

#include "kmap.h"
#include "kmap_lines.h"

struct kmap_calls_reader {
	struct kmap_lines in;		/* first: kmap_lines_new() */
	int fork;			/* -1: not known yet; 1: the fork's lines */
};

struct kmap_calls_reader *kmap_calls_open(FILE *f, const char *name)
{
	return kmap_calls_open_fn(kmap_file_read, f, name);
}

struct kmap_calls_reader *kmap_calls_open_fn(kmap_read_fn fn, void *ctx,
					     const char *name)
{
	struct kmap_calls_reader *r = kmap_lines_new(sizeof(*r), fn, ctx, name);

	if (r)
		r->fork = -1;
	return r;
}

void kmap_calls_close(struct kmap_calls_reader *r)
{
	if (r)
		kmap_lines_delete(&r->in);
}

const char *kmap_calls_error(const struct kmap_calls_reader *r)
{
	return r->in.err;
}

int kmap_parse_call(const char *s, size_t len, struct kmap_call *c, int *fork,
		    char *err)
{
	static const char *const names[] = { "caller", "callee", "pid", "count" };
	const char *f[4];
	size_t flen[4], i, n;
	char sep = memchr(s, ',', len) ? ',' : ' ';
	uint32_t pid = KMAP_CALL_PID_UNKNOWN;
	uint64_t v[4];

	n = kmap_fields(s, len, sep, f, flen, 4);
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
		if (i < 2 ? kmap_field_addr(f[i], flen[i], &v[i], names[i], err) :
		    i == 2 ? kmap_field_pid(f[i], flen[i], &pid, err) :
			     kmap_field_dec(f[i], flen[i], &v[i], names[i], err))
			return -1;
	}
	if (!v[3]) {
		snprintf(err, KMAP_ERR_MAX,
			 "count 0: the kernel prints an edge once it was called");
		return -1;
	}
	c->caller = v[0];
	c->callee = v[1];
	c->pid = pid;
	c->count = v[3];
	return 0;
}

int kmap_calls_next(struct kmap_calls_reader *r, struct kmap_call *c)
{
	char err[KMAP_ERR_MAX];
	const char *s;
	size_t len;
	int fork, rc;

	rc = kmap_lines_next(&r->in, &s, &len);
	if (rc <= 0)
		return rc;
	if (kmap_parse_call(s, len, c, &fork, err)) {
		kmap_lines_error(&r->in, "%s", err);
		return -1;
	}
	if (r->fork >= 0 && fork != r->fork) {
		kmap_lines_error(&r->in, fork ? "a line of the fork's (caller callee count) among lines of caller,callee,pid,count" :
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

static int same_call(const void *key, const void *elem)
{
	const struct kmap_call *a = key, *b = elem;

	return a->caller == b->caller && a->callee == b->callee &&
	       a->pid == b->pid;
}

int kmap_calls_add(struct kmap_calls *t, const struct kmap_call *c)
{
	size_t i;
	int is_new;

	if (kmap_intern_wide(&t->index, kmap_hash3(c->caller, c->callee, c->pid),
			     c, same_call, (void **)&t->call, &t->n, &t->cap,
			     sizeof(*t->call), &i, &is_new))
		return -1;
	if (is_new)
		t->call[i] = *c;
	else
		t->call[i].count = kmap_add_sat(t->call[i].count, c->count);
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
