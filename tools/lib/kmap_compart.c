// SPDX-License-Identifier: GPL-2.0
/*
 * libkmap: compartments, the separability of code by the data it touches
 * and the calls between it. See kmap.h for the definitions.
 *
 * Code and data units are numbers here; the caller names them. A(c) is
 * kept as sorted arrays (CSR), and the sweep's clusters hold the union of
 * their members' as sorted arrays too, so a merge costs the two arrays'
 * lengths, and the metrics follow each merge without a recount.
 */
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kmap.h"

#define RW	(KMAP_RIGHT_READ | KMAP_RIGHT_WRITE)
/*
 * A data unit touched by more code units than this makes candidate pairs
 * of each with the next HUB_NEXT in name order only: all its pairs would
 * be quadratic in them (a kind, a popular type).
 */
#define HUB		64
#define HUB_NEXT	8

struct edge {
	uint32_t a, b;
	uint64_t w;
};

struct kmap_compart {
	/* as added */
	struct kmap_compart_cell *cells;
	size_t ncells, cells_cap;
	struct edge *edges;
	size_t nedges, edges_cap;
	uint64_t *size;			/* data unit -> bytes */
	size_t ndata, size_cap;
	size_t ncode;
	/* after kmap_compart_finish(): A(c) as cells[start[c] .. start[c + 1]) */
	size_t *start;
	uint64_t calls;			/* all edges' counts */
	int finished;
};

struct kmap_compart *kmap_compart_new(void)
{
	return calloc(1, sizeof(struct kmap_compart));
}

void kmap_compart_free(struct kmap_compart *p)
{
	if (!p)
		return;
	free(p->cells);
	free(p->edges);
	free(p->size);
	free(p->start);
	free(p);
}

static int have_data(struct kmap_compart *p, uint32_t data)
{
	if (data < p->ndata)
		return 0;
	if (kmap_grow((void **)&p->size, &p->size_cap, (size_t)data + 1,
		      sizeof(*p->size)))
		return -1;
	memset(p->size + p->ndata, 0, (data + 1 - p->ndata) * sizeof(*p->size));
	p->ndata = (size_t)data + 1;
	return 0;
}

int kmap_compart_code(struct kmap_compart *p, uint32_t code)
{
	if (p->finished)
		return -1;
	if ((size_t)code + 1 > p->ncode)
		p->ncode = (size_t)code + 1;
	return 0;
}

int kmap_compart_right(struct kmap_compart *p, uint32_t code, uint32_t data,
		       unsigned int rights)
{
	if (p->finished || kmap_compart_code(p, code) || have_data(p, data) ||
	    kmap_grow((void **)&p->cells, &p->cells_cap, p->ncells + 1,
		      sizeof(*p->cells)))
		return -1;
	p->cells[p->ncells++] = (struct kmap_compart_cell){ code, data, (uint8_t)rights };
	return 0;
}

int kmap_compart_size(struct kmap_compart *p, uint32_t data, uint64_t bytes)
{
	if (p->finished || have_data(p, data))
		return -1;
	if (bytes > p->size[data])
		p->size[data] = bytes;
	return 0;
}

int kmap_compart_call(struct kmap_compart *p, uint32_t caller,
		      uint32_t callee, uint64_t count)
{
	if (p->finished || kmap_compart_code(p, caller) ||
	    kmap_compart_code(p, callee) ||
	    kmap_grow((void **)&p->edges, &p->edges_cap, p->nedges + 1,
		      sizeof(*p->edges)))
		return -1;
	/* Crossings do not care which way a call goes: a below b. */
	p->edges[p->nedges++] = (struct edge){
		caller < callee ? caller : callee,
		caller < callee ? callee : caller, count };
	return 0;
}

static int cell_cmp(const void *x, const void *y)
{
	const struct kmap_compart_cell *a = x, *b = y;

	if (a->code != b->code)
		return a->code < b->code ? -1 : 1;
	return (a->data > b->data) - (a->data < b->data);
}

static int edge_cmp(const void *x, const void *y)
{
	const struct edge *a = x, *b = y;

	if (a->a != b->a)
		return a->a < b->a ? -1 : 1;
	return (a->b > b->b) - (a->b < b->b);
}

int kmap_compart_finish(struct kmap_compart *p)
{
	size_t i, n = 0;

	if (p->finished)
		return 0;
	p->start = calloc(p->ncode + 1, sizeof(*p->start));
	if (!p->start)
		return -1;
	if (p->ncells)	/* qsort() takes no NULL, even for none */
		qsort(p->cells, p->ncells, sizeof(*p->cells), cell_cmp);
	for (i = 0; i < p->ncells; i++) {
		if (n && p->cells[n - 1].code == p->cells[i].code &&
		    p->cells[n - 1].data == p->cells[i].data)
			p->cells[n - 1].rights |= p->cells[i].rights;
		else
			p->cells[n++] = p->cells[i];
	}
	p->ncells = n;
	for (i = 0; i < n; i++)
		p->start[p->cells[i].code + 1]++;
	for (i = 0; i < p->ncode; i++)
		p->start[i + 1] += p->start[i];
	if (p->nedges)
		qsort(p->edges, p->nedges, sizeof(*p->edges), edge_cmp);
	for (i = n = 0; i < p->nedges; i++) {
		p->calls = kmap_add_sat(p->calls, p->edges[i].w);
		if (n && p->edges[n - 1].a == p->edges[i].a &&
		    p->edges[n - 1].b == p->edges[i].b)
			p->edges[n - 1].w = kmap_add_sat(p->edges[n - 1].w,
							 p->edges[i].w);
		else
			p->edges[n++] = p->edges[i];
	}
	p->nedges = n;
	p->finished = 1;
	return 0;
}

size_t kmap_compart_ncode(const struct kmap_compart *p)
{
	return p->ncode;
}

size_t kmap_compart_access(const struct kmap_compart *p, uint32_t code,
			   const struct kmap_compart_cell **cells)
{
	if (!p->finished || code >= p->ncode) {
		*cells = NULL;
		return 0;
	}
	*cells = p->cells + p->start[code];
	return p->start[code + 1] - p->start[code];
}

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

/* (mono - granted) / (mono - least); 1 when mono == least. */
static double reduction(uint64_t mono, uint64_t granted, uint64_t least)
{
	if (mono <= least)
		return 1;
	return (double)(mono - granted) / (double)(mono - least);
}

/* The figures that need no partition: least, monolithic, calls. */
static void base_point(const struct kmap_compart *p,
		       struct kmap_compart_point *pt, unsigned char *seen)
{
	uint64_t all = 0, all_bytes = 0;
	size_t i;

	memset(pt, 0, sizeof(*pt));
	for (i = 0; i < p->ncells; i++) {
		uint32_t d = p->cells[i].data;

		pt->least++;
		pt->least_bytes = kmap_add_sat(pt->least_bytes, p->size[d]);
		if (!seen[d]) {
			seen[d] = 1;
			all++;
			all_bytes = kmap_add_sat(all_bytes, p->size[d]);
		}
	}
	pt->monolithic = mul_sat(p->ncode, all);
	pt->monolithic_bytes = mul_sat(p->ncode, all_bytes);
	pt->calls = p->calls;
}

static void finish_point(struct kmap_compart_point *pt)
{
	pt->reduction = reduction(pt->monolithic, pt->granted, pt->least);
	pt->reduction_bytes = reduction(pt->monolithic_bytes,
					pt->granted_bytes, pt->least_bytes);
	pt->crossing_share = pt->calls ?
			     (double)pt->crossings / (double)pt->calls : 0;
}

int kmap_compart_eval(const struct kmap_compart *p, const uint32_t *part,
		      size_t nlabels, struct kmap_compart_point *pt)
{
	size_t *first = NULL, *next = NULL, i, j, c;
	uint32_t *stamp = NULL, *rw = NULL, *w = NULL;
	uint8_t *rights = NULL;
	unsigned char *seen = NULL;
	int rc = -1;

	if (!p->finished)
		return -1;
	first = malloc((nlabels + 1) * sizeof(*first));
	next = malloc((p->ncode + 1) * sizeof(*next));
	stamp = malloc((p->ndata + 1) * sizeof(*stamp));
	rw = calloc(p->ndata + 1, sizeof(*rw));
	w = calloc(p->ndata + 1, sizeof(*w));
	rights = calloc(p->ndata + 1, 1);
	seen = calloc(p->ndata + 1, 1);
	if (!first || !next || !stamp || !rw || !w || !rights || !seen)
		goto out;
	base_point(p, pt, seen);
	/* Members by label: a list each, in code order. */
	for (i = 0; i < nlabels; i++)
		first[i] = SIZE_MAX;
	for (c = p->ncode; c-- > 0;) {
		if (part[c] >= nlabels)
			goto out;
		next[c] = first[part[c]];
		first[part[c]] = c;
	}
	for (i = 0; i < p->ndata; i++)
		stamp[i] = UINT32_MAX;
	for (i = 0; i < nlabels; i++) {
		uint64_t members = 0, u = 0, ub = 0;

		if (first[i] == SIZE_MAX)
			continue;
		pt->compartments++;
		for (c = first[i]; c != SIZE_MAX; c = next[c]) {
			members++;
			for (j = p->start[c]; j < p->start[c + 1]; j++) {
				const struct kmap_compart_cell *e = &p->cells[j];

				if (stamp[e->data] != i) {
					stamp[e->data] = (uint32_t)i;
					rights[e->data] = 0;
					u++;
					ub = kmap_add_sat(ub, p->size[e->data]);
				}
				/* count the compartment once per right */
				if ((e->rights & RW) && !(rights[e->data] & RW))
					rw[e->data]++;
				if ((e->rights & KMAP_RIGHT_WRITE) &&
				    !(rights[e->data] & KMAP_RIGHT_WRITE))
					w[e->data]++;
				rights[e->data] |= e->rights;
			}
		}
		pt->granted = kmap_add_sat(pt->granted, mul_sat(members, u));
		pt->granted_bytes = kmap_add_sat(pt->granted_bytes,
						 mul_sat(members, ub));
	}
	for (i = 0; i < p->ndata; i++)
		pt->shared += w[i] >= 1 && rw[i] >= 2;
	for (i = 0; i < p->nedges; i++)
		if (part[p->edges[i].a] != part[p->edges[i].b])
			pt->crossings = kmap_add_sat(pt->crossings,
						     p->edges[i].w);
	finish_point(pt);
	rc = 0;
out:
	free(first);
	free(next);
	free(stamp);
	free(rw);
	free(w);
	free(rights);
	free(seen);
	return rc;
}

size_t kmap_compart_points(size_t n, size_t want, size_t *out)
{
	size_t i, k = 0;

	if (!n)
		return 0;
	if (want < 2)
		want = 2;
	/* From n down to 1, evenly spaced in log(count), each once. */
	for (i = 0; i < want; i++) {
		double e = (double)(want - 1 - i) / (double)(want - 1);
		size_t v = (size_t)llround(exp(e * log((double)n)));

		if (i == 0 || v > n)
			v = n;
		if (i == want - 1 || v < 1)
			v = 1;
		if (!k || v < out[k - 1])
			out[k++] = v;
	}
	return k;
}

/* ------------------------------------------------------------------ */
/* The sweep.                                                         */

struct nbr {
	uint32_t id;
	uint64_t w;			/* calls between the two, both ways */
};

struct cluster {
	uint32_t *data;			/* the union of A(c), sorted */
	uint8_t *rights;
	size_t n;
	uint64_t bytes;			/* the union's */
	uint64_t members;
	uint64_t callw;			/* calls to or from other clusters */
	uint32_t rank;			/* its first member's, by name */
	struct nbr *nbr;		/* may name dead clusters */
	size_t nnbr;
	int alive;
};

struct heap_ent {
	double aff;
	uint32_t lo, hi;		/* the two ranks, lo < hi */
	uint32_t a, b;
};

struct sweep {
	const struct kmap_compart *p;
	struct cluster *cl;
	size_t ncl;
	uint32_t *parent;
	struct heap_ent *heap;
	size_t nheap, heap_cap;
	uint32_t *rw, *w;		/* per data unit: clusters reading or
					 * writing it, writing it */
	struct kmap_compart_point pt;
	size_t alive;
};

/* Whether x goes before y: the higher affinity, then by name. */
static int heap_before(const struct heap_ent *x, const struct heap_ent *y)
{
	if (x->aff != y->aff)
		return x->aff > y->aff;
	if (x->lo != y->lo)
		return x->lo < y->lo;
	return x->hi < y->hi;
}

static int heap_push(struct sweep *s, const struct heap_ent *e)
{
	size_t i;

	if (kmap_grow((void **)&s->heap, &s->heap_cap, s->nheap + 1,
		      sizeof(*s->heap)))
		return -1;
	i = s->nheap++;
	while (i && heap_before(e, &s->heap[(i - 1) / 2])) {
		s->heap[i] = s->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	s->heap[i] = *e;
	return 0;
}

static void heap_pop(struct sweep *s, struct heap_ent *top)
{
	struct heap_ent last;
	size_t i = 0, c;

	*top = s->heap[0];
	last = s->heap[--s->nheap];
	for (;;) {
		c = 2 * i + 1;
		if (c >= s->nheap)
			break;
		if (c + 1 < s->nheap && heap_before(&s->heap[c + 1], &s->heap[c]))
			c++;
		if (!heap_before(&s->heap[c], &last))
			break;
		s->heap[i] = s->heap[c];
		i = c;
	}
	if (s->nheap)
		s->heap[i] = last;
}

static uint32_t find(struct sweep *s, uint32_t x)
{
	uint32_t r = x, t;

	while (s->parent[r] != r)
		r = s->parent[r];
	while (s->parent[x] != r) {
		t = s->parent[x];
		s->parent[x] = r;
		x = t;
	}
	return r;
}

/* |a's data ∩ b's| */
static size_t common(const struct cluster *a, const struct cluster *b)
{
	size_t i = 0, j = 0, n = 0;

	while (i < a->n && j < b->n) {
		if (a->data[i] < b->data[j]) {
			i++;
		} else if (a->data[i] > b->data[j]) {
			j++;
		} else {
			n++;
			i++;
			j++;
		}
	}
	return n;
}

/*
 * The affinity of two clusters: the Jaccard index of their data, |A ∩ B|
 * / |A ∪ B| (0 when both are empty), plus the share of their calls to
 * other clusters that go between them, w / (callw(a) + callw(b)).
 */
static int push_pair(struct sweep *s, uint32_t a, uint32_t b, uint64_t w)
{
	const struct cluster *x = &s->cl[a], *y = &s->cl[b];
	size_t both = common(x, y), any = x->n + y->n - both;
	uint64_t cw = kmap_add_sat(x->callw, y->callw);
	struct heap_ent e;

	e.aff = (any ? (double)both / (double)any : 0) +
		(cw ? (double)w / (double)cw : 0);
	e.lo = x->rank < y->rank ? x->rank : y->rank;
	e.hi = x->rank < y->rank ? y->rank : x->rank;
	e.a = a;
	e.b = b;
	return heap_push(s, &e);
}

static int nbr_cmp(const void *x, const void *y)
{
	const struct nbr *a = x, *b = y;

	return (a->id > b->id) - (a->id < b->id);
}

static int is_shared(const struct sweep *s, uint32_t d)
{
	return s->w[d] >= 1 && s->rw[d] >= 2;
}

/* Merge clusters a and b into a new one; its pairs into the heap. */
static int merge(struct sweep *s, uint32_t a, uint32_t b)
{
	struct cluster *x = &s->cl[a], *y = &s->cl[b], *m;
	uint32_t id = (uint32_t)s->ncl++;
	size_t i = 0, j = 0, k = 0, n;
	uint64_t inner = 0;
	struct nbr *nb;

	m = &s->cl[id];
	memset(m, 0, sizeof(*m));
	m->data = malloc((x->n + y->n + 1) * sizeof(*m->data));
	m->rights = malloc(x->n + y->n + 1);
	nb = malloc((x->nnbr + y->nnbr + 1) * sizeof(*nb));
	if (!m->data || !m->rights || !nb) {
		free(nb);
		return -1;
	}
	while (i < x->n || j < y->n) {
		uint32_t d;
		uint8_t r;

		if (j >= y->n || (i < x->n && x->data[i] < y->data[j])) {
			d = x->data[i];
			r = x->rights[i++];
		} else if (i >= x->n || y->data[j] < x->data[i]) {
			d = y->data[j];
			r = y->rights[j++];
		} else {	/* in both: one compartment fewer holds it */
			int was = is_shared(s, x->data[i]);

			d = x->data[i];
			r = x->rights[i] | y->rights[j];
			if ((x->rights[i] & RW) && (y->rights[j] & RW))
				s->rw[d]--;
			if ((x->rights[i] & y->rights[j]) & KMAP_RIGHT_WRITE)
				s->w[d]--;
			s->pt.shared -= was && !is_shared(s, d);
			i++;
			j++;
		}
		m->data[k] = d;
		m->rights[k++] = r;
		m->bytes = kmap_add_sat(m->bytes, s->p->size[d]);
	}
	m->n = k;
	m->members = x->members + y->members;
	m->rank = x->rank < y->rank ? x->rank : y->rank;
	s->pt.granted -= mul_sat(x->members, x->n) + mul_sat(y->members, y->n);
	s->pt.granted += mul_sat(m->members, m->n);
	s->pt.granted_bytes -= mul_sat(x->members, x->bytes) +
			       mul_sat(y->members, y->bytes);
	s->pt.granted_bytes += mul_sat(m->members, m->bytes);
	/* The neighbours, as they are now; calls between a and b go inside. */
	for (i = n = 0; i < x->nnbr + y->nnbr; i++) {
		const struct nbr *e = i < x->nnbr ? &x->nbr[i] :
				      &y->nbr[i - x->nnbr];
		uint32_t r = find(s, e->id);

		if (r == a || r == b) {
			if (i < x->nnbr && r == b)
				inner = kmap_add_sat(inner, e->w);
			continue;
		}
		nb[n].id = r;
		nb[n++].w = e->w;
	}
	if (n)
		qsort(nb, n, sizeof(*nb), nbr_cmp);
	for (i = k = 0; i < n; i++) {
		if (k && nb[k - 1].id == nb[i].id)
			nb[k - 1].w = kmap_add_sat(nb[k - 1].w, nb[i].w);
		else
			nb[k++] = nb[i];
	}
	m->nbr = nb;
	m->nnbr = k;
	m->callw = x->callw + y->callw - 2 * inner;
	s->pt.crossings -= inner;
	m->alive = 1;
	x->alive = y->alive = 0;
	s->parent[a] = s->parent[b] = id;
	free(x->data);
	free(x->rights);
	free(x->nbr);
	free(y->data);
	free(y->rights);
	free(y->nbr);
	memset(x, 0, sizeof(*x));
	memset(y, 0, sizeof(*y));
	s->alive--;
	for (i = 0; i < m->nnbr; i++)
		if (push_pair(s, id, m->nbr[i].id, m->nbr[i].w))
			return -1;
	return 0;
}

static int rank_cmp_ctx(const void *x, const void *y, void *ctx)
{
	const uint32_t *rank = ctx;
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return (rank[a] > rank[b]) - (rank[a] < rank[b]);
}

static int cluster_rank_cmp(const void *x, const void *y, void *ctx)
{
	const struct cluster *cl = ctx;
	uint32_t a = cl[*(const uint32_t *)x].rank;
	uint32_t b = cl[*(const uint32_t *)y].rank;

	return (a > b) - (a < b);
}

/* Candidate pairs: code units sharing a data unit (see HUB), and calls. */
static int first_pairs(struct sweep *s, const uint32_t *rank)
{
	const struct kmap_compart *p = s->p;
	size_t *dstart = NULL, i, j, k, n = 0, cap = 0;
	uint32_t *users = NULL;
	struct edge *pairs = NULL;
	int rc = -1;

	dstart = calloc(p->ndata + 2, sizeof(*dstart));
	users = malloc((p->ncells + 1) * sizeof(*users));
	if (!dstart || !users)
		goto out;
	for (i = 0; i < p->ncells; i++)
		dstart[p->cells[i].data + 2]++;
	for (i = 0; i < p->ndata; i++)
		dstart[i + 2] += dstart[i + 1];
	for (i = 0; i < p->ncells; i++)
		users[dstart[p->cells[i].data + 1]++] = p->cells[i].code;
	for (i = 0; i < p->nedges; i++) {
		if (p->edges[i].a == p->edges[i].b)
			continue;
		if (kmap_grow((void **)&pairs, &cap, n + 1, sizeof(*pairs)))
			goto out;
		pairs[n++] = p->edges[i];
	}
	for (i = 0; i < p->ndata; i++) {
		uint32_t *u = users + dstart[i];
		size_t nu = dstart[i + 1] - dstart[i];

		if (nu > HUB)
			qsort_r(u, nu, sizeof(*u), rank_cmp_ctx, (void *)rank);
		for (j = 0; j < nu; j++)
			for (k = j + 1; k < nu && (nu <= HUB || k <= j + HUB_NEXT); k++) {
				if (kmap_grow((void **)&pairs, &cap, n + 1,
					      sizeof(*pairs)))
					goto out;
				pairs[n++] = (struct edge){
					u[j] < u[k] ? u[j] : u[k],
					u[j] < u[k] ? u[k] : u[j], 0 };
			}
	}
	if (n)
		qsort(pairs, n, sizeof(*pairs), edge_cmp);
	for (i = k = 0; i < n; i++) {
		if (k && pairs[k - 1].a == pairs[i].a && pairs[k - 1].b == pairs[i].b)
			pairs[k - 1].w = kmap_add_sat(pairs[k - 1].w, pairs[i].w);
		else
			pairs[k++] = pairs[i];
	}
	n = k;
	/* Each pair in both clusters' lists; calls in callw. */
	for (i = 0; i < n; i++) {
		s->cl[pairs[i].a].nnbr++;
		s->cl[pairs[i].b].nnbr++;
	}
	for (i = 0; i < p->ncode; i++) {
		s->cl[i].nbr = malloc((s->cl[i].nnbr + 1) * sizeof(struct nbr));
		if (!s->cl[i].nbr)
			goto out;
		s->cl[i].nnbr = 0;
	}
	for (i = 0; i < n; i++) {
		uint32_t ends[2] = { pairs[i].a, pairs[i].b };

		for (j = 0; j < 2; j++) {
			struct cluster *c = &s->cl[ends[j]];

			c->nbr[c->nnbr++] = (struct nbr){ ends[!j], pairs[i].w };
			c->callw = kmap_add_sat(c->callw, pairs[i].w);
		}
	}
	for (i = 0; i < n; i++)
		if (push_pair(s, pairs[i].a, pairs[i].b, pairs[i].w))
			goto out;
	rc = 0;
out:
	free(dstart);
	free(users);
	free(pairs);
	return rc;
}

static int record(struct sweep *s, const size_t *want, size_t nwant,
		  size_t *next, kmap_compart_point_fn fn, void *ctx)
{
	uint32_t *part;
	size_t c;
	int rc;

	while (*next < nwant && want[*next] > s->alive)
		(*next)++;
	if (*next >= nwant || want[*next] != s->alive)
		return 0;
	(*next)++;
	part = malloc((s->p->ncode + 1) * sizeof(*part));
	if (!part)
		return -1;
	for (c = 0; c < s->p->ncode; c++)
		part[c] = find(s, (uint32_t)c);
	s->pt.compartments = s->alive;
	finish_point(&s->pt);
	rc = fn(ctx, &s->pt, part, s->ncl);
	free(part);
	return rc;
}

int kmap_compart_sweep(const struct kmap_compart *p, const uint32_t *rank,
		       const size_t *want, size_t nwant,
		       kmap_compart_point_fn fn, void *ctx)
{
	struct sweep s = { .p = p };
	uint32_t *queue = NULL;
	size_t i, j, next = 0, nq = 0, head = 0;
	unsigned char *seen = NULL;
	struct heap_ent e;
	int rc = -1;

	if (!p->finished)
		return -1;
	if (!p->ncode)
		return 0;
	s.cl = calloc(2 * p->ncode, sizeof(*s.cl));
	s.parent = malloc(2 * p->ncode * sizeof(*s.parent));
	s.rw = calloc(p->ndata + 1, sizeof(*s.rw));
	s.w = calloc(p->ndata + 1, sizeof(*s.w));
	seen = calloc(p->ndata + 1, 1);
	queue = malloc(2 * p->ncode * sizeof(*queue));
	if (!s.cl || !s.parent || !s.rw || !s.w || !seen || !queue)
		goto out;
	base_point(p, &s.pt, seen);
	for (i = 0; i < 2 * p->ncode; i++)
		s.parent[i] = (uint32_t)i;
	s.ncl = p->ncode;
	s.alive = p->ncode;
	for (i = 0; i < p->ncode; i++) {
		struct cluster *c = &s.cl[i];
		size_t n = p->start[i + 1] - p->start[i];

		c->data = malloc((n + 1) * sizeof(*c->data));
		c->rights = malloc(n + 1);
		if (!c->data || !c->rights)
			goto out;
		for (j = 0; j < n; j++) {
			const struct kmap_compart_cell *e = &p->cells[p->start[i] + j];

			c->data[j] = e->data;
			c->rights[j] = e->rights;
			c->bytes = kmap_add_sat(c->bytes, p->size[e->data]);
			s.rw[e->data] += !!(e->rights & RW);
			s.w[e->data] += !!(e->rights & KMAP_RIGHT_WRITE);
		}
		c->n = n;
		c->members = 1;
		c->rank = rank[i];
		c->alive = 1;
		s.pt.granted += n;
		s.pt.granted_bytes = kmap_add_sat(s.pt.granted_bytes, c->bytes);
	}
	for (i = 0; i < p->ndata; i++)
		s.pt.shared += is_shared(&s, (uint32_t)i);
	for (i = 0; i < p->nedges; i++)
		if (p->edges[i].a != p->edges[i].b)
			s.pt.crossings = kmap_add_sat(s.pt.crossings,
						      p->edges[i].w);
	if (first_pairs(&s, rank) || record(&s, want, nwant, &next, fn, ctx))
		goto out;
	while (s.nheap) {
		heap_pop(&s, &e);
		if (!s.cl[e.a].alive || !s.cl[e.b].alive)
			continue;	/* a pair of clusters merged since */
		if (merge(&s, e.a, e.b) ||
		    record(&s, want, nwant, &next, fn, ctx))
			goto out;
	}
	/*
	 * What shares nothing is left: merged in name order, the first two,
	 * then the next two, each merged one to the back of the queue.
	 */
	for (i = 0; i < s.ncl; i++)
		if (s.cl[i].alive)
			queue[nq++] = (uint32_t)i;
	qsort_r(queue, nq, sizeof(*queue), cluster_rank_cmp, s.cl);
	/* Each merge adds one to the queue's tail: 2 ncode - 1 at most. */
	while (nq - head > 1) {
		uint32_t a = queue[head++], b = queue[head++];

		if (merge(&s, a, b) || record(&s, want, nwant, &next, fn, ctx))
			goto out;
		queue[nq++] = (uint32_t)(s.ncl - 1);
	}
	rc = 0;
out:
	if (s.cl)
		for (i = 0; i < s.ncl; i++) {
			free(s.cl[i].data);
			free(s.cl[i].rights);
			free(s.cl[i].nbr);
		}
	free(s.cl);
	free(s.parent);
	free(s.heap);
	free(s.rw);
	free(s.w);
	free(seen);
	free(queue);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Split files.                                                       */

static int split_err(char *err, const char *name, unsigned long line,
		     const char *what)
{
	snprintf(err, KMAP_ERR_MAX, "%.150s:%lu: %s", name, line, what);
	return -1;
}

int kmap_split_read(FILE *f, const char *name, struct kmap_split *sp,
		    char *err)
{
	char line[KMAP_LINE_MAX + 1];
	unsigned long n = 0;

	memset(sp, 0, sizeof(*sp));
	while (fgets(line, sizeof(line), f)) {
		size_t len = strcspn(line, "\n");
		char *field[3], *p = line;
		int nf = 0;

		n++;
		if (line[len] != '\n' && !feof(f))
			return split_err(err, name, n, "line longer than 511 bytes");
		line[len] = 0;
		while (nf < 3) {
			p += strspn(p, " \t");
			if (!*p || *p == '#')
				break;
			field[nf++] = p;
			p += strcspn(p, " \t");
			if (*p)
				*p++ = 0;
		}
		if (!nf)
			continue;	/* blank, or a comment */
		if (nf == 1)
			return split_err(err, name, n,
					 "a compartment without a pattern (lines are COMPARTMENT PATTERN)");
		if (nf == 3)
			return split_err(err, name, n,
					 "more than two fields (lines are COMPARTMENT PATTERN; a pattern has no spaces)");
		if (kmap_grow((void **)&sp->rule, &sp->cap, sp->n + 1,
			      sizeof(*sp->rule)))
			goto oom;
		sp->rule[sp->n].compartment = strdup(field[0]);
		sp->rule[sp->n].pattern = strdup(field[1]);
		sp->rule[sp->n].line = n;
		sp->n++;
		if (!sp->rule[sp->n - 1].compartment ||
		    !sp->rule[sp->n - 1].pattern)
			goto oom;
	}
	if (ferror(f)) {
		snprintf(err, KMAP_ERR_MAX, "%.150s: read error", name);
		return -1;
	}
	return 0;
oom:
	snprintf(err, KMAP_ERR_MAX, "out of memory");
	return -1;
}

const char *kmap_split_match(const struct kmap_split *sp, const char *unit)
{
	size_t i;

	for (i = 0; i < sp->n; i++)
		if (!fnmatch(sp->rule[i].pattern, unit, 0))
			return sp->rule[i].compartment;
	return KMAP_SPLIT_REST;
}

void kmap_split_free(struct kmap_split *sp)
{
	size_t i;

	for (i = 0; i < sp->n; i++) {
		free(sp->rule[i].compartment);
		free(sp->rule[i].pattern);
	}
	free(sp->rule);
	memset(sp, 0, sizeof(*sp));
}
