// SPDX-License-Identifier: GPL-2.0
/*
 * libkmap: stack frame cells, debugfs memorizer/stack_frames line by line,
 * and a table that sums them per (frame, ip, pid). See kmap.h.
 */
#include <stdlib.h>
#include <string.h>

#include "kmap.h"
#include "kmap_lines.h"

#define FIELDS	"(frame,ip,pid,writes,reads)"

struct kmap_frames_reader {
	struct kmap_lines in;		/* first: kmap_lines_new() */
	struct kmap_frames *cells;	/* the cells read: one a line */
};

struct kmap_frames {
	struct kmap_map index;		/* kmap_hash3(frame, ip, pid), +1 per
					 * clash -> index in cell */
	struct kmap_frame *cell;
	size_t n, cap;
};

static int same_cell(const void *key, const void *elem)
{
	const struct kmap_frame *a = key, *b = elem;

	return a->frame == b->frame && a->ip == b->ip && a->pid == b->pid;
}

/*
 * f's entry, *at: 1 when new (f copied in), 0 when there (unchanged), -1
 * when out of memory.
 */
static int intern(struct kmap_frames *t, const struct kmap_frame *f,
		  size_t *at)
{
	int is_new;

	if (kmap_intern_wide(&t->index, kmap_hash3(f->frame, f->ip, f->pid),
			     f, same_cell, (void **)&t->cell, &t->n, &t->cap,
			     sizeof(*t->cell), at, &is_new))
		return -1;
	if (is_new)
		t->cell[*at] = *f;
	return is_new;
}

int kmap_parse_frame(const char *s, size_t len, struct kmap_frame *fr,
		     char *err)
{
	static const char *const names[] = { "frame", "ip", "pid", "writes", "reads" };
	const char *f[5];
	size_t flen[5], i, n = kmap_fields(s, len, ',', f, flen, 5);
	uint64_t v[5];
	uint32_t pid;

	if (!len) {
		snprintf(err, KMAP_ERR_MAX, "empty line");
		return -1;
	}
	if (n > 5) {
		snprintf(err, KMAP_ERR_MAX, "more than 5 fields " FIELDS);
		return -1;
	}
	if (n < 5) {
		snprintf(err, KMAP_ERR_MAX, "%zu %s, not 5 " FIELDS, n,
			 n == 1 ? "field" : "fields");
		return -1;
	}
	for (i = 0; i < 5; i++) {
		if (i < 2 ? kmap_field_addr(f[i], flen[i], &v[i], names[i], err) :
		    i == 2 ? kmap_field_pid(f[i], flen[i], &pid, err) :
			     kmap_field_dec(f[i], flen[i], &v[i], names[i], err))
			return -1;
		if (i > 2 && v[i] > UINT32_MAX) {
			snprintf(err, KMAP_ERR_MAX,
				 "%s %llu: more than 32 bits (the kernel's counters are u32)",
				 names[i], (unsigned long long)v[i]);
			return -1;
		}
	}
	if (!v[3] && !v[4]) {
		snprintf(err, KMAP_ERR_MAX,
			 "writes 0 and reads 0: the kernel prints a cell once its frame was accessed");
		return -1;
	}
	fr->frame = v[0];
	fr->ip = v[1];
	fr->pid = pid;
	fr->writes = v[3];
	fr->reads = v[4];
	return 0;
}

struct kmap_frames_reader *kmap_frames_open(FILE *f, const char *name)
{
	return kmap_frames_open_fn(kmap_file_read, f, name);
}

struct kmap_frames_reader *kmap_frames_open_fn(kmap_read_fn fn, void *ctx,
					       const char *name)
{
	struct kmap_frames_reader *r = kmap_lines_new(sizeof(*r), fn, ctx, name);

	if (r && !(r->cells = kmap_frames_new())) {
		kmap_lines_delete(&r->in);
		return NULL;
	}
	return r;
}

void kmap_frames_close(struct kmap_frames_reader *r)
{
	if (!r)
		return;
	kmap_frames_free(r->cells);
	kmap_lines_delete(&r->in);
}

const char *kmap_frames_error(const struct kmap_frames_reader *r)
{
	return r->in.err;
}

const struct kmap_frames *kmap_frames_read(const struct kmap_frames_reader *r)
{
	return r->cells;
}

int kmap_frames_next(struct kmap_frames_reader *r, struct kmap_frame *f)
{
	char err[KMAP_ERR_MAX];
	const char *s;
	size_t len, at;
	int rc;

	rc = kmap_lines_next(&r->in, &s, &len);
	if (rc <= 0)
		return rc;
	if (kmap_parse_frame(s, len, f, err)) {
		kmap_lines_error(&r->in, "%s", err);
		return -1;
	}
	rc = intern(r->cells, f, &at);
	if (rc < 0) {
		kmap_lines_error(&r->in, "out of memory");
		return -1;
	}
	/* Every line before is a cell of its own: entry at is line at + 1. */
	if (!rc) {
		kmap_lines_error(&r->in, "frame %llx, ip %llx, pid %u: on line %zu too (a cell is one line)",
				 (unsigned long long)f->frame,
				 (unsigned long long)f->ip, f->pid, at + 1);
		return -1;
	}
	return 1;
}

/* ------------------------------------------------------------------ */

struct kmap_frames *kmap_frames_new(void)
{
	struct kmap_frames *t = calloc(1, sizeof(*t));

	if (t)
		kmap_map_init(&t->index);
	return t;
}

int kmap_frames_add(struct kmap_frames *t, const struct kmap_frame *f,
		    size_t *at)
{
	size_t i;
	int rc = intern(t, f, &i);

	if (rc == 0) {
		t->cell[i].writes = kmap_add_sat(t->cell[i].writes, f->writes);
		t->cell[i].reads = kmap_add_sat(t->cell[i].reads, f->reads);
	}
	if (at)
		*at = i;
	return rc;
}

size_t kmap_frames_list(const struct kmap_frames *t,
			const struct kmap_frame **frames)
{
	*frames = t ? t->cell : NULL;
	return t ? t->n : 0;
}

void kmap_frames_free(struct kmap_frames *t)
{
	if (!t)
		return;
	kmap_map_free(&t->index);
	free(t->cell);
	free(t);
}
