// SPDX-License-Identifier: GPL-2.0
/*
 * libkmap: a compartments problem (kmap_compart) from a capability map,
 * stack frame cells and call edges, its units named. memorizer
 * compartments and the HTML report's compartments view both sweep this
 * one problem.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmap.h"

/* Interned names, numbered in order (code units, data units). */
struct names {
	struct kmap_map index;		/* FNV hash (+1 per clash) -> number */
	char **name;
	size_t n, cap;
};

struct kmap_compart_units {
	const struct kmap_capmap *m;
	struct names code, data;
	struct kmap_map data_of;	/* fields: (group, range) -> data unit */
	struct kmap_map range_of;	/* fields: offset << 32 | end -> range */
	struct kmap_compart *p;
	uint32_t *rank;
	int fields;
};

static uint64_t name_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

/* name's number, -1 when not there; *h its free slot's key then. */
static long lookup(const struct names *t, const char *name, uint64_t *h)
{
	const uint64_t *v;

	for (*h = name_hash(name);; (*h)++) {
		v = kmap_map_find(&t->index, *h);
		if (!v)
			return -1;
		if (!strcmp(t->name[*v], name))
			return (long)*v;
	}
}

/* name's number, added when new; -1 when out of memory. */
static long intern(struct names *t, const char *name)
{
	uint64_t h, *v;
	long n = lookup(t, name, &h);
	int is_new;

	if (n >= 0)
		return n;
	if (kmap_grow((void **)&t->name, &t->cap, t->n + 1, sizeof(*t->name)))
		return -1;
	t->name[t->n] = strdup(name);
	if (!t->name[t->n] || !(v = kmap_map_get(&t->index, h, &is_new))) {
		free(t->name[t->n]);
		return -1;
	}
	*v = t->n;
	return (long)t->n++;
}

static void names_free(struct names *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->name[i]);
	free(t->name);
	kmap_map_free(&t->index);
}

/* A cell's data unit: its group, or with fields its group and range. */
static long data_unit(struct kmap_compart_units *u,
		      const struct kmap_capmap_cell *c)
{
	char name[KMAP_LINE_MAX + 64], field[KMAP_LINE_MAX];
	const char *group = kmap_capmap_group_of(u->m, c);
	uint64_t *r, *d, key;
	int is_new;
	long n;

	if (!u->fields)
		return intern(&u->data, group);
	r = kmap_map_get(&u->range_of,
			 (uint64_t)c->offset << 32 | c->offset_end, &is_new);
	if (!r)
		return -1;
	if (is_new)
		*r = u->range_of.len - 1;
	key = (uint64_t)c->group << 32 | *r;
	d = kmap_map_find(&u->data_of, key);
	if (d)
		return (long)*d;
	if (!c->offset_end)
		snprintf(name, sizeof(name), "%s", group);
	else if (kmap_capmap_field(u->m, c, field, sizeof(field)))
		snprintf(name, sizeof(name), "%s+%u..%u (%s)", group, c->offset,
			 c->offset_end, field);
	else
		snprintf(name, sizeof(name), "%s+%u..%u", group, c->offset,
			 c->offset_end);
	n = intern(&u->data, name);
	if (n < 0 || !(d = kmap_map_get(&u->data_of, key, &is_new)))
		return -1;
	*d = (uint64_t)n;
	return n;
}

/* A data unit's bytes: its range's width, else its largest object. */
static uint64_t data_size(const struct kmap_compart_units *u,
			  const struct kmap_capmap_cell *c)
{
	if (u->fields && c->offset_end)
		return c->offset_end - c->offset;
	return kmap_capmap_group_size(u->m, c->group);
}

static long code_unit(struct kmap_compart_units *u, uint64_t ip)
{
	char name[KMAP_LINE_MAX];
	long n;

	kmap_capmap_subject_ip(u->m, ip, name, sizeof(name));
	n = intern(&u->code, name);
	if (n < 0 || kmap_compart_code(u->p, (uint32_t)n))
		return -1;
	return n;
}

static const char *const *sort_names;
static int name_cmp(const void *x, const void *y)
{
	return strcmp(sort_names[*(const uint32_t *)x],
		      sort_names[*(const uint32_t *)y]);
}

/* Each frame cell: its ip's code unit's rights on its frame. */
static int add_frames(struct kmap_compart_units *u,
		      const struct kmap_frames *frames)
{
	char name[KMAP_LINE_MAX];
	const struct kmap_frame *f;
	size_t i, n = kmap_frames_list(frames, &f);

	for (i = 0; i < n; i++) {
		long cu = code_unit(u, f[i].ip), du;
		unsigned int r = (f[i].reads ? KMAP_RIGHT_READ : 0) |
				 (f[i].writes ? KMAP_RIGHT_WRITE : 0);

		kmap_capmap_frame_group(u->m, f[i].frame, name, sizeof(name));
		du = intern(&u->data, name);
		if (cu < 0 || du < 0 ||
		    kmap_compart_right(u->p, (uint32_t)cu, (uint32_t)du, r) ||
		    kmap_compart_size(u->p, (uint32_t)du, KMAP_FRAME_BYTES))
			return -1;
	}
	return 0;
}

/* The problem: code units, A(c), sizes, calls, name ranks. */
static int build(struct kmap_compart_units *u, const struct kmap_frames *frames,
		 const struct kmap_calls *calls)
{
	const struct kmap_capmap_cell *cells;
	const struct kmap_call *c;
	size_t i, n = kmap_capmap_cells(u->m, &cells);
	uint32_t *order;

	for (i = 0; i < n; i++) {
		long cu = intern(&u->code, kmap_capmap_subject_of(u->m, &cells[i]));
		long du = data_unit(u, &cells[i]);
		unsigned int r = (cells[i].reads ? KMAP_RIGHT_READ : 0) |
				 (cells[i].writes ? KMAP_RIGHT_WRITE : 0) |
				 (cells[i].frees ? KMAP_RIGHT_FREE : 0);

		if (cu < 0 || du < 0 ||
		    kmap_compart_right(u->p, (uint32_t)cu, (uint32_t)du, r) ||
		    kmap_compart_size(u->p, (uint32_t)du, data_size(u, &cells[i])))
			return -1;
	}
	if (add_frames(u, frames))
		return -1;
	n = kmap_calls_list(calls, &c);
	for (i = 0; i < n; i++) {
		long a = code_unit(u, c[i].caller), b = code_unit(u, c[i].callee);

		if (a < 0 || b < 0 ||
		    kmap_compart_call(u->p, (uint32_t)a, (uint32_t)b, c[i].count))
			return -1;
	}
	if (kmap_compart_finish(u->p))
		return -1;
	n = u->code.n;
	u->rank = malloc((n + 1) * sizeof(*u->rank));
	order = malloc((n + 1) * sizeof(*order));
	if (!u->rank || !order) {
		free(order);
		return -1;
	}
	for (i = 0; i < n; i++)
		order[i] = (uint32_t)i;
	sort_names = (const char *const *)u->code.name;
	if (n)
		qsort(order, n, sizeof(*order), name_cmp);
	for (i = 0; i < n; i++)
		u->rank[order[i]] = (uint32_t)i;
	free(order);
	return 0;
}

struct kmap_compart_units *kmap_compart_units_new(const struct kmap_capmap *m,
						  const struct kmap_frames *frames,
						  const struct kmap_calls *calls,
						  int fields)
{
	struct kmap_compart_units *u = calloc(1, sizeof(*u));

	if (!u)
		return NULL;
	u->m = m;
	u->fields = fields;
	kmap_map_init(&u->code.index);
	kmap_map_init(&u->data.index);
	kmap_map_init(&u->data_of);
	kmap_map_init(&u->range_of);
	u->p = kmap_compart_new();
	if (!u->p || build(u, frames, calls)) {
		kmap_compart_units_free(u);
		return NULL;
	}
	return u;
}

const struct kmap_compart *
kmap_compart_units_problem(const struct kmap_compart_units *u)
{
	return u->p;
}

const uint32_t *kmap_compart_units_rank(const struct kmap_compart_units *u)
{
	return u->rank;
}

size_t kmap_compart_units_ncode(const struct kmap_compart_units *u)
{
	return u->code.n;
}

size_t kmap_compart_units_ndata(const struct kmap_compart_units *u)
{
	return u->data.n;
}

const char *kmap_compart_units_code(const struct kmap_compart_units *u,
				    size_t i)
{
	return i < u->code.n ? u->code.name[i] : NULL;
}

const char *kmap_compart_units_data(const struct kmap_compart_units *u,
				    size_t i)
{
	return i < u->data.n ? u->data.name[i] : NULL;
}

long kmap_compart_units_ip(const struct kmap_compart_units *u, uint64_t ip)
{
	char name[KMAP_LINE_MAX];
	uint64_t h;

	kmap_capmap_subject_ip(u->m, ip, name, sizeof(name));
	return lookup(&u->code, name, &h);
}

void kmap_compart_units_free(struct kmap_compart_units *u)
{
	if (!u)
		return;
	names_free(&u->code);
	names_free(&u->data);
	kmap_map_free(&u->data_of);
	kmap_map_free(&u->range_of);
	kmap_compart_free(u->p);
	free(u->rank);
	free(u);
}
