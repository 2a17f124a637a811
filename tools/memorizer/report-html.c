// SPDX-License-Identifier: GPL-2.0
/*
 * memorizer report --html: one self-contained page per kmap.
 *
 * The page's code is a template (tools/memorizer/report/: page.html,
 * page.css, page.js, and d3's modules from npm) that tools/Makefile
 * inlines into one file at build time, and report-page.S embeds in the
 * binary. Here the figures are gathered in one pass over the objects and
 * written as one JSON document where the template's mark is. The page
 * never sees an access line: per call site the figures and a lifetime
 * histogram, per object shipped its figures and busiest access ips.
 *
 * The JSON's sections (page.js reads them; a view is a section and a
 * render function there, so a view of another aggregation, such as the
 * capability map, is one more section here and one more view there):
 *   meta      input, format, kinds_named (every object named its kind
 *             and cache: a stream, a kmap_offsets of 10-field object
 *             lines), hz, symbols, limits (what was shipped)
 *   summary   the totals (as report --json's summary)
 *   stats     --stats' "key value" lines as [key, value] pairs, or null
 *   kinds     per allocator kind, the sums of every call site
 *   sites     one row per (call site, kind, cache): columns and rows, the
 *             HTML_SITES_MAX with the most bytes
 *   sites_other  per kind, the sums of the call sites not shipped
 *   ips       the access ips objects name: label, function, file:line
 *   objects   the explorer's objects: columns and rows; with struct
 *             types (--vmlinux's DWARF, --btf) an object's struct type and how it was known
 *             (kmap_types_of_object), and per access ip the member its
 *             bytes are
 *   capmap    the capability heatmap: libkmap's capability maps
 *             (kmap_capmap) of every row kind shipped (function; dir,
 *             file and file-function with DWARF lines) by every column
 *             kind (callsite, kind; cache when kinds_named). Per map its
 *             subject and group, its summary (as capmap --json's, and
 *             groups_touched: the groups in a cell), top, rows and cols:
 *             the first top rows and the cols are the HTML_CAPMAP_ROWS
 *             subjects and HTML_CAPMAP_COLS groups of most reads + writes
 *             + frees; a file's or file-function's map adds, for each row
 *             its parent map (dir, file) ships, its HTML_CAPMAP_CHILDREN
 *             busiest children (for the drill-down; HTML_CAPMAP_SHIP rows
 *             in all). A row or col is [name, reads, writes, frees], their
 *             sums over every cell, and in a child map the parent's name
 *             (null: not shipped). cells: [row, col, reads, writes,
 *             frees, objects], row and col indexes into those; left_out:
 *             the rows, cols and cells the top rows and the cols do not
 *             show, and the reads, writes and frees of those cells
 *   compartments  memorizer compartments --sweep (libkmap's
 *             kmap_compart_units and kmap_compart) with code = function
 *             and data = callsite, over the heatmap's function by call
 *             site map and every input's call edges (call_edges): its
 *             summary, the HTML_COMPART_POINTS design points as columns
 *             and rows (fewest compartments first), and details, per row
 *             its compartments when it has at most HTML_COMPART_DETAIL,
 *             else null: [name, code units, data units, calls in, calls
 *             out, the first HTML_COMPART_UNITS functions by name, the
 *             first HTML_COMPART_DATA [call site, rights] by name];
 *             skipped: why there are no points (no symbols), or null
 */
#include <stdlib.h>
#include <string.h>

#include <json.h>

#include "builtin.h"
#include "kmap_types.h"
#include "report.h"
#include "table.h"

/* The template (report-page.S) and where the data goes in it. */
extern const char report_page[], report_page_end[];
#define DATA_MARK	"@@MEMORIZER_REPORT_DATA@@"

/*
 * Lifetimes in jiffies, in buckets: 0 holds 0, bucket b >= 1 holds
 * [2^(b-1), 2^b).
 */
#define LIFE_BUCKETS	65

#define NONE		UINT64_MAX


/* An object the explorer may ship. */
struct cand {
	uint64_t id, addr, size, alloc_jiffies, free_jiffies, reads, writes;
	uint64_t other_ips, other_reads, other_writes;
	struct kmap_access *acc;	/* per ip (pids summed, pid not used),
				 * the busiest first */
	size_t nacc, site, rank;	/* rank: 0 for its site's busiest */
	uint32_t pid;
	char comm[KMAP_COMM_MAX];
	int freed;
	long type;			/* struct type, or -1 */
	enum kmap_type_way way;
};

/* One (call site, kind, cache): its figures and its best objects. */
struct site {
	uint64_t ip, objects, live, bytes, bytes_alloc, reads, writes;
	uint64_t never_read, never_written, missed, life_n, life_sum;
	uint64_t life_min, life_max, hist[LIFE_BUCKETS];
	uint32_t cache_id;
	int kind, has_cache;
	char cache[40];
	uint64_t next;			/* the next site of ip, or NONE */
	struct cand *heap;		/* a min-heap: the least busy first */
	size_t nheap, shipped;
};

/* Per kind, and the call sites not shipped per kind. */
struct kind_sum {
	uint64_t sites, objects, live, bytes, bytes_alloc, reads, writes;
};
#define KINDS		16	/* kmap_object_kind() + 1, room to spare */

/* One capability map of the heatmap's. */
struct capmap_view {
	enum kmap_capmap_subject subject;
	enum kmap_capmap_group group;
	struct kmap_capmap *m;
	/* Its rows shipped, by name (a child map's parents), when written. */
	const char **shipped;
	size_t nshipped, *children;	/* children: each one's, shipped */
};
#define CAPMAP_VIEWS	12	/* 4 subjects by 3 groups at most */

struct html {
	struct html_opts opts;
	struct capmap_view capmaps[CAPMAP_VIEWS];
	size_t ncapmaps;
	int cache_unnamed;		/* an object without a cache's name */
	size_t shipped_sites;		/* the first ones of sites, by bytes */
	struct kind_sum kinds[KINDS], others[KINDS];
	struct kmap_sym *sym;
	struct kmap_types *types;	/* NULL: none */
	struct json_object *stats;	/* [[key, value], ...] or NULL */
	struct kmap_map by_ip;		/* call site ip -> its first site */
	struct site *sites;
	size_t nsites, sites_cap;
	struct kmap_access *tmp;	/* one object's accesses, per ip */
	size_t tmp_cap;
	struct kmap_calls *calls;	/* every input's call edges */
};

/* Read --stats: "key value" lines, as debugfs memorizer/stats writes them. */
static struct json_object *read_stats(const char *path)
{
	char err[KMAP_ERR_MAX];
	struct kmap_stats st;
	struct json_object *a = NULL;
	FILE *f = kmap_fopen(path, err);
	size_t i;

	if (!f) {
		error("--stats %s", err);
		return NULL;
	}
	if (kmap_stats_read(f, path, &st, err)) {
		error("%s", err);
		goto out;
	}
	a = json_object_new_array();
	for (i = 0; a && i < st.n; i++) {
		struct json_object *pair = json_object_new_array();

		if (!pair || json_object_array_add(a, pair)) {
			json_object_put(pair);
			json_object_put(a);
			a = NULL;
			break;
		}
		json_object_array_add(pair, json_bytes(st.stat[i].key));
		json_object_array_add(pair,
				      json_object_new_uint64(st.stat[i].value));
	}
	if (!a)
		error("out of memory");
out:
	kmap_stats_free(&st);
	fclose(f);
	return a;
}

/*
 * The heatmap's maps: rows by function, and by directory, file and a
 * file's function when sym has DWARF lines (a parent before its
 * children); columns by call site, allocator kind and cache. -1 with a
 * message when out of memory.
 */
static int capmaps_new(struct html *h)
{
	static const enum kmap_capmap_subject subjects[] = {
		KMAP_SUBJECT_FUNCTION, KMAP_SUBJECT_DIR, KMAP_SUBJECT_FILE,
		KMAP_SUBJECT_FILE_FUNCTION,
	};
	static const enum kmap_capmap_group groups[] = {
		KMAP_GROUP_CALLSITE, KMAP_GROUP_KIND, KMAP_GROUP_CACHE,
	};
	int lines = h->sym && kmap_sym_has_lines(h->sym);
	char err[KMAP_ERR_MAX];
	size_t i, j;

	for (i = 0; i < sizeof(subjects) / sizeof(subjects[0]); i++) {
		if (subjects[i] != KMAP_SUBJECT_FUNCTION && !lines)
			continue;
		for (j = 0; j < sizeof(groups) / sizeof(groups[0]); j++) {
			struct capmap_view *v = &h->capmaps[h->ncapmaps];

			v->subject = subjects[i];
			v->group = groups[j];
			v->m = kmap_capmap_new(v->subject, v->group, h->sym, err);
			if (!v->m) {
				error("%s", err);
				return -1;
			}
			h->ncapmaps++;
		}
	}
	return 0;
}

struct html *html_new(const struct html_opts *opts, struct kmap_sym *sym)
{
	struct html *h = calloc(1, sizeof(*h));
	char err[KMAP_ERR_MAX];
	int failed;

	if (!h) {
		error("out of memory");
		return NULL;
	}
	h->opts = *opts;
	h->sym = sym;
	kmap_map_init(&h->by_ip);
	h->calls = kmap_calls_new();
	if (!h->calls) {
		error("out of memory");
		free(h);
		return NULL;
	}
	/* A vmlinux without DWARF still names functions: no types, quietly. */
	h->types = open_types(opts->vmlinux, opts->btf, err, &failed);
	if (failed) {
		html_free(h);
		return NULL;
	}
	if (opts->stats && !(h->stats = read_stats(opts->stats))) {
		html_free(h);
		return NULL;
	}
	if (capmaps_new(h)) {
		html_free(h);
		return NULL;
	}
	return h;
}

void html_free(struct html *h)
{
	size_t i, j;

	if (!h)
		return;
	for (i = 0; i < h->nsites; i++) {
		for (j = 0; j < h->sites[i].nheap; j++)
			free(h->sites[i].heap[j].acc);
		free(h->sites[i].heap);
	}
	for (i = 0; i < h->ncapmaps; i++) {
		kmap_capmap_free(h->capmaps[i].m);
		free(h->capmaps[i].shipped);
		free(h->capmaps[i].children);
	}
	free(h->sites);
	free(h->tmp);
	kmap_types_close(h->types);
	kmap_map_free(&h->by_ip);
	json_object_put(h->stats);
	kmap_calls_free(h->calls);
	free(h);
}

int html_calls(struct html *h, const struct kmap_calls *calls)
{
	const struct kmap_call *c;
	size_t i, n = kmap_calls_list(calls, &c);

	for (i = 0; i < n; i++)
		if (kmap_calls_add(h->calls, &c[i]))
			return -1;
	return 0;
}

/* The site of o: its call site, kind and cache; NULL when out of memory. */
static struct site *site_of(struct html *h, const struct kmap_object *o)
{
	int kind = kmap_object_kind(o), has_cache = !!(o->has & KMAP_HAS_CACHE);
	uint32_t cache_id = has_cache ? o->cache_id : 0;
	uint64_t *first, i;
	int is_new;
	struct site *s;

	first = kmap_map_get(&h->by_ip, o->alloc_ip, &is_new);
	if (!first)
		return NULL;
	if (is_new)
		*first = NONE;
	for (i = *first; i != NONE; i = h->sites[i].next) {
		s = &h->sites[i];
		if (s->kind == kind && s->has_cache == has_cache &&
		    s->cache_id == cache_id)
			return s;
	}
	if (kmap_grow((void **)&h->sites, &h->sites_cap, h->nsites + 1,
		      sizeof(*h->sites)))
		return NULL;
	s = &h->sites[h->nsites];
	memset(s, 0, sizeof(*s));
	s->ip = o->alloc_ip;
	s->kind = kind;
	s->has_cache = has_cache;
	s->cache_id = cache_id;
	if (has_cache)
		snprintf(s->cache, sizeof(s->cache), "%s",
			 o->cache ? o->cache : "?");
	s->life_min = UINT64_MAX;
	s->next = (size_t)*first;
	*first = h->nsites;
	return &h->sites[h->nsites++];
}

static unsigned int life_bucket(uint64_t life)
{
	unsigned int b = 0;

	while (life) {
		b++;
		life >>= 1;
	}
	return b;
}

/* Whether a is busier than b: more accesses, then the earlier object. */
static int busier(const struct cand *a, const struct cand *b)
{
	uint64_t x = kmap_add_sat(a->reads, a->writes), y = kmap_add_sat(b->reads, b->writes);

	return x != y ? x > y : a->id < b->id;
}

static void sift_down(struct cand *heap, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct cand t;

		if (l < n && busier(&heap[m], &heap[l]))
			m = l;
		if (r < n && busier(&heap[m], &heap[r]))
			m = r;
		if (m == i)
			return;
		t = heap[i];
		heap[i] = heap[m];
		heap[m] = t;
		i = m;
	}
}

static void sift_up(struct cand *heap, size_t i)
{
	while (i) {
		size_t p = (i - 1) / 2;
		struct cand t;

		if (!busier(&heap[p], &heap[i]))
			return;
		t = heap[i];
		heap[i] = heap[p];
		heap[p] = t;
		i = p;
	}
}

static int cmp_acc_ip(const void *a, const void *b)
{
	const struct kmap_access *x = a, *y = b;

	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

/* Busiest first, then by ip. */
static int cmp_acc_count(const void *a, const void *b)
{
	const struct kmap_access *x = a, *y = b;
	uint64_t cx = kmap_add_sat(x->reads, x->writes), cy = kmap_add_sat(y->reads, y->writes);

	if (cx != cy)
		return cx > cy ? -1 : 1;
	return cmp_acc_ip(a, b);
}

/*
 * Fill c's accessors from an object's access lines: per ip (pids summed),
 * the HTML_ACCESSORS_MAX busiest, the rest counted. -1 when out of memory.
 */
static int fill_accessors(struct html *h, struct cand *c,
			  const struct kmap_access *acc, size_t nacc)
{
	size_t i, n = 0, keep;

	if (kmap_grow((void **)&h->tmp, &h->tmp_cap, nacc ? nacc : 1,
		      sizeof(*h->tmp)))
		return -1;
	if (nacc)	/* acc may be NULL then */
		memcpy(h->tmp, acc, nacc * sizeof(*acc));
	qsort(h->tmp, nacc, sizeof(*h->tmp), cmp_acc_ip);
	for (i = 0; i < nacc; i++) {
		if (n && h->tmp[n - 1].ip == h->tmp[i].ip)
			kmap_access_merge(&h->tmp[n - 1], &h->tmp[i]);
		else
			h->tmp[n++] = h->tmp[i];
	}
	qsort(h->tmp, n, sizeof(*h->tmp), cmp_acc_count);
	keep = n < HTML_ACCESSORS_MAX ? n : HTML_ACCESSORS_MAX;
	c->acc = malloc((keep ? keep : 1) * sizeof(*c->acc));
	if (!c->acc)
		return -1;
	memcpy(c->acc, h->tmp, keep * sizeof(*c->acc));
	c->nacc = keep;
	for (i = keep; i < n; i++) {
		c->other_ips++;
		c->other_reads = kmap_add_sat(c->other_reads, h->tmp[i].reads);
		c->other_writes = kmap_add_sat(c->other_writes, h->tmp[i].writes);
	}
	return 0;
}

/* Offer o to its site's explorer objects. -1 when out of memory. */
static int offer(struct html *h, struct site *s, const struct kmap_object *o,
		 const struct kmap_access *acc, size_t nacc, uint64_t reads,
		 uint64_t writes, uint64_t objno)
{
	struct cand c = {
		.id = (o->has & KMAP_HAS_ID) ? o->id : objno + 1,
		.addr = o->addr, .size = o->size,
		.alloc_jiffies = o->alloc_jiffies,
		.free_jiffies = o->free_jiffies,
		.reads = reads, .writes = writes, .pid = o->pid,
		.freed = kmap_object_freed(o), .type = -1,
	};

	if (!s->heap) {
		s->heap = malloc(h->opts.per_site * sizeof(*s->heap));
		if (!s->heap)
			return -1;
	}
	if (s->nheap == h->opts.per_site && !busier(&c, &s->heap[0]))
		return 0;
	snprintf(c.comm, sizeof(c.comm), "%s", o->comm);
	if (h->types)
		c.type = kmap_types_of_object(h->types, o, &c.way);
	if (fill_accessors(h, &c, acc, nacc))
		return -1;
	if (s->nheap < h->opts.per_site) {
		s->heap[s->nheap] = c;
		sift_up(s->heap, s->nheap++);
	} else {
		free(s->heap[0].acc);
		s->heap[0] = c;
		sift_down(s->heap, s->nheap, 0);
	}
	return 0;
}

int html_add(struct html *h, const struct kmap_object *o,
	     const struct kmap_access *acc, size_t nacc, uint64_t reads,
	     uint64_t writes, uint64_t objno)
{
	struct site *s = site_of(h, o);
	size_t i;

	if (!s)
		return -1;
	/*
	 * A kmap (or an older kmap_offsets) names no cache: its cache
	 * columns would be its kinds.
	 */
	if (!(o->has & KMAP_HAS_KIND))
		h->cache_unnamed = 1;
	for (i = 0; i < h->ncapmaps; i++) {
		struct capmap_view *v = &h->capmaps[i];

		if (v->group == KMAP_GROUP_CACHE && h->cache_unnamed)
			continue;
		if (kmap_capmap_add(v->m, o, acc, nacc))
			return -1;
	}
	s->objects++;
	s->bytes += o->size;
	s->bytes_alloc += (o->has & KMAP_HAS_SIZE_ALLOC) ? o->size_alloc :
			  o->size;
	s->reads = kmap_add_sat(s->reads, reads);
	s->writes = kmap_add_sat(s->writes, writes);
	s->never_read += reads == 0;
	s->never_written += writes == 0;
	if (!kmap_object_freed(o)) {
		s->live++;
	} else {
		s->missed += o->free_ip == KMAP_FREE_IP_MISSED;
		/* As the tables count lifetimes: a free before the alloc not. */
		if (o->free_jiffies >= o->alloc_jiffies) {
			uint64_t life = o->free_jiffies - o->alloc_jiffies;

			s->life_n++;
			s->life_sum += life;
			s->life_min = life < s->life_min ? life : s->life_min;
			s->life_max = life > s->life_max ? life : s->life_max;
			s->hist[life_bucket(life)]++;
		}
	}
	return offer(h, s, o, acc, nacc, reads, writes, objno);
}

/* ------------------------------------------------------------------ */
/* The JSON document.                                                 */

/* An ip's label ("func+0xOFF/0xSIZE", else hex), function, file:line. */
struct ip_name {
	char label[768], function[768], where[768];
};

static void name_ip(struct html *h, uint64_t ip, struct ip_name *n)
{
	char full[768], *at;
	const char *fn;
	uint64_t start;

	n->where[0] = 0;
	if (!h->sym || !kmap_sym_describe(h->sym, ip, full, sizeof(full))) {
		snprintf(n->label, sizeof(n->label), "%llx",
			 (unsigned long long)ip);
		snprintf(n->function, sizeof(n->function), "%s", n->label);
		return;
	}
	at = strstr(full, " at ");
	if (at) {
		snprintf(n->where, sizeof(n->where), "%s", at + 4);
		*at = 0;
	}
	snprintf(n->label, sizeof(n->label), "%s", full);
	fn = kmap_sym_function(h->sym, ip, &start);
	snprintf(n->function, sizeof(n->function), "%s", fn ? fn : n->label);
}

static struct json_object *hex(uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%llx", (unsigned long long)v);
	return json_object_new_string(buf);
}

static struct json_object *u64(uint64_t v)
{
	return json_object_new_uint64(v);
}

/* A "columns" and "rows" object; its rows array in *rows. */
static struct json_object *table_json(const char *const *cols,
				      struct json_object **rows)
{
	struct json_object *t = json_object_new_object();
	struct json_object *c = json_object_new_array();

	*rows = json_object_new_array();
	if (!t || !c || !*rows) {
		json_object_put(t);
		json_object_put(c);
		json_object_put(*rows);
		return NULL;
	}
	for (; *cols; cols++)
		json_object_array_add(c, json_object_new_string(*cols));
	json_object_object_add(t, "columns", c);
	json_object_object_add(t, "rows", *rows);
	return t;
}

/*
 * Add v to array a: 0, or -1 when out of memory (v NULL, unless null is
 * meant: may_be_null).
 */
static int add(struct json_object *a, struct json_object *v, int may_be_null)
{
	if ((!v && !may_be_null) || json_object_array_add(a, v)) {
		json_object_put(v);
		return -1;
	}
	return 0;
}

static const char *const site_cols[] = {
	"callsite", "ip", "function", "where", "kind", "cache", "objects",
	"live", "bytes", "bytes_alloc", "reads", "writes", "never_read",
	"never_written", "missed_free", "freed", "life_sum", "life_min",
	"life_max", "life_hist", "shipped", NULL,
};

/* One site's row; NULL when out of memory. */
static struct json_object *site_json(struct html *h, const struct site *s)
{
	struct json_object *r = json_object_new_array(), *hist;
	const uint64_t fig[] = {
		s->objects, s->live, s->bytes, s->bytes_alloc, s->reads,
		s->writes, s->never_read, s->never_written, s->missed,
		s->life_n, s->life_sum,
	};
	struct ip_name n;
	size_t i;
	int last, bad = 0;

	if (!r)
		return NULL;
	name_ip(h, s->ip, &n);
	bad |= add(r, json_bytes(n.label), 0);
	bad |= add(r, hex(s->ip), 0);
	bad |= add(r, json_bytes(n.function), 0);
	bad |= add(r, n.where[0] ? json_bytes(n.where) : NULL, !n.where[0]);
	bad |= add(r, json_object_new_string(kmap_kind_name(s->kind)), 0);
	bad |= add(r, s->has_cache ? json_bytes(s->cache) : NULL,
		   !s->has_cache);
	for (i = 0; i < sizeof(fig) / sizeof(fig[0]); i++)
		bad |= add(r, u64(fig[i]), 0);
	bad |= add(r, s->life_n ? u64(s->life_min) : NULL, !s->life_n);
	bad |= add(r, s->life_n ? u64(s->life_max) : NULL, !s->life_n);
	hist = json_object_new_array();
	bad |= add(r, hist, 0);
	for (last = LIFE_BUCKETS - 1; last >= 0 && !s->hist[last]; last--)
		;
	for (i = 0; hist && (int)i <= last; i++)
		bad |= add(hist, u64(s->hist[i]), 0);
	bad |= add(r, u64(s->shipped), 0);
	if (bad) {
		json_object_put(r);
		return NULL;
	}
	return r;
}

static struct json_object *sites_json(struct html *h)
{
	struct json_object *rows, *t = table_json(site_cols, &rows);
	size_t i;

	for (i = 0; t && i < h->shipped_sites; i++)
		if (add(rows, site_json(h, &h->sites[i]), 0)) {
			json_object_put(t);
			return NULL;
		}
	return t;
}

/* Most bytes first, then most objects, then by ip. */
static int cmp_site_bytes(const void *a, const void *b)
{
	const struct site *x = a, *y = b;

	if (x->bytes != y->bytes)
		return x->bytes > y->bytes ? -1 : 1;
	if (x->objects != y->objects)
		return x->objects > y->objects ? -1 : 1;
	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

static void kind_add(struct kind_sum *k, const struct site *s)
{
	k->sites++;
	k->objects += s->objects;
	k->live += s->live;
	k->bytes += s->bytes;
	k->bytes_alloc += s->bytes_alloc;
	k->reads = kmap_add_sat(k->reads, s->reads);
	k->writes = kmap_add_sat(k->writes, s->writes);
}

static unsigned int kind_index(int kind)
{
	return kind >= -1 && kind < KINDS - 1 ? (unsigned int)(kind + 1) : 0;
}

/*
 * Sum the sites per kind; keep the HTML_SITES_MAX with the most bytes
 * (sorted so, first), the others summed per kind.
 */
static void cut_sites(struct html *h)
{
	size_t i;

	for (i = 0; i < h->nsites; i++)
		kind_add(&h->kinds[kind_index(h->sites[i].kind)], &h->sites[i]);
	h->shipped_sites = h->nsites;
	if (h->nsites <= HTML_SITES_MAX)
		return;
	qsort(h->sites, h->nsites, sizeof(*h->sites), cmp_site_bytes);
	h->shipped_sites = HTML_SITES_MAX;
	for (i = HTML_SITES_MAX; i < h->nsites; i++)
		kind_add(&h->others[kind_index(h->sites[i].kind)], &h->sites[i]);
}

static const char *const kind_cols[] = {
	"kind", "sites", "objects", "live", "bytes", "bytes_alloc", "reads",
	"writes", NULL,
};

/* The kinds' sums (of every site, or of those not shipped); NULL: OOM. */
static struct json_object *kinds_json(const struct kind_sum *k)
{
	struct json_object *rows, *t = table_json(kind_cols, &rows);
	unsigned int i, j;

	for (i = 0; t && i < KINDS; i++) {
		const uint64_t fig[] = {
			k[i].sites, k[i].objects, k[i].live, k[i].bytes,
			k[i].bytes_alloc, k[i].reads, k[i].writes,
		};
		struct json_object *r;
		int bad;

		if (!k[i].sites)
			continue;
		r = json_object_new_array();
		bad = add(rows, r, 0);
		if (!bad)
			bad = add(r, json_object_new_string(
				kmap_kind_name((int)i - 1)), 0);
		for (j = 0; !bad && j < sizeof(fig) / sizeof(fig[0]); j++)
			bad = add(r, u64(fig[j]), 0);
		if (bad) {
			json_object_put(t);
			return NULL;
		}
	}
	return t;
}

/* Busiest first within a site. */
static int cmp_busier(const void *a, const void *b)
{
	const struct cand *x = *(const struct cand *const *)a;
	const struct cand *y = *(const struct cand *const *)b;

	return busier(x, y) ? -1 : busier(y, x);
}

/* Each site's first first, then each site's second, ... */
static int cmp_rank(const void *a, const void *b)
{
	const struct cand *x = *(const struct cand *const *)a;
	const struct cand *y = *(const struct cand *const *)b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return cmp_busier(a, b);
}

/* By site, busiest first. */
static int cmp_site(const void *a, const void *b)
{
	const struct cand *x = *(const struct cand *const *)a;
	const struct cand *y = *(const struct cand *const *)b;

	if (x->site != y->site)
		return x->site < y->site ? -1 : 1;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/*
 * The objects shipped: each site's ranked, HTML_OBJECTS_MAX in all (every
 * site's busiest first). *n set; NULL when out of memory.
 */
static struct cand **choose(struct html *h, size_t *n)
{
	struct cand **all;
	size_t i, j, k = 0, total = 0;

	for (i = 0; i < h->shipped_sites; i++)
		total += h->sites[i].nheap;
	all = malloc((total ? total : 1) * sizeof(*all));
	if (!all)
		return NULL;
	for (i = 0; i < h->shipped_sites; i++) {
		struct site *s = &h->sites[i];
		size_t first = k;

		for (j = 0; j < s->nheap; j++) {
			s->heap[j].site = i;
			all[k++] = &s->heap[j];
		}
		qsort(all + first, s->nheap, sizeof(*all), cmp_busier);
		for (j = 0; j < s->nheap; j++)
			all[first + j]->rank = j;
	}
	if (total > HTML_OBJECTS_MAX) {
		qsort(all, total, sizeof(*all), cmp_rank);
		total = HTML_OBJECTS_MAX;
	}
	qsort(all, total, sizeof(*all), cmp_site);
	for (i = 0; i < total; i++)
		h->sites[all[i]->site].shipped++;
	*n = total;
	return all;
}

static const char *const object_cols[] = {
	"site", "id", "addr", "size", "pid", "comm", "alloc_jiffies",
	"free_jiffies", "reads", "writes", "accessors", "others", "type",
	"type_way", NULL,
};

/*
 * One object's row; its access ips interned in ips (ip -> index into
 * names). NULL when out of memory.
 */
static struct json_object *object_json(struct html *h, const struct cand *c,
				       struct kmap_map *ips,
				       struct json_object *names)
{
	struct json_object *r = json_object_new_array(), *accs, *others;
	const uint64_t fig[] = { c->site, c->id };
	char field[256];
	size_t i;
	int bad = 0, known;

	if (!r)
		return NULL;
	for (i = 0; i < 2; i++)
		bad |= add(r, u64(fig[i]), 0);
	bad |= add(r, hex(c->addr), 0);
	bad |= add(r, u64(c->size), 0);
	bad |= add(r, u64(c->pid), 0);
	bad |= add(r, json_bytes(c->comm), 0);
	bad |= add(r, u64(c->alloc_jiffies), 0);
	bad |= add(r, c->freed ? u64(c->free_jiffies) : NULL, !c->freed);
	bad |= add(r, u64(c->reads), 0);
	bad |= add(r, u64(c->writes), 0);
	accs = json_object_new_array();
	bad |= add(r, accs, 0);
	for (i = 0; accs && i < c->nacc; i++) {
		struct json_object *a = json_object_new_array();
		uint64_t *idx;
		int is_new;

		bad |= add(accs, a, 0);
		idx = kmap_map_get(ips, c->acc[i].ip, &is_new);
		if (!a || !idx) {
			bad = 1;
			break;
		}
		if (is_new) {
			struct json_object *nm = json_object_new_array();
			struct ip_name n;

			*idx = json_object_array_length(names);
			bad |= add(names, nm, 0);
			if (!nm)
				break;
			name_ip(h, c->acc[i].ip, &n);
			bad |= add(nm, json_bytes(n.label), 0);
			bad |= add(nm, json_bytes(n.function), 0);
			bad |= add(nm, n.where[0] ? json_bytes(n.where) : NULL,
				   !n.where[0]);
			bad |= add(nm, hex(c->acc[i].ip), 0);
		}
		bad |= add(a, u64(*idx), 0);
		bad |= add(a, u64(c->acc[i].reads), 0);
		bad |= add(a, u64(c->acc[i].writes), 0);
		/* The bytes: [offset, offset_end), or two nulls (not known). */
		known = c->acc[i].offset_end != 0;
		bad |= add(a, known ? u64(c->acc[i].offset) : NULL, !known);
		bad |= add(a, known ? u64(c->acc[i].offset_end) : NULL, !known);
		/* The member those bytes are, with a type. */
		known = known && c->type >= 0 &&
			kmap_types_field(h->types, c->type, c->acc[i].offset,
					 c->acc[i].offset_end, field,
					 sizeof(field)) >= 0;
		bad |= add(a, known ? json_object_new_string(field) : NULL,
			   !known);
	}
	others = c->other_ips ? json_object_new_array() : NULL;
	bad |= add(r, others, !c->other_ips);
	if (others) {
		bad |= add(others, u64(c->other_ips), 0);
		bad |= add(others, u64(c->other_reads), 0);
		bad |= add(others, u64(c->other_writes), 0);
	}
	bad |= add(r, c->type >= 0 ? json_bytes(kmap_types_name(h->types,
							       c->type)) : NULL,
		   c->type < 0);
	bad |= add(r, c->type >= 0 ?
		   json_object_new_string(kmap_type_way_names[c->way]) : NULL,
		   c->type < 0);
	if (bad) {
		json_object_put(r);
		return NULL;
	}
	return r;
}

/* "objects" and "ips"; -1 when out of memory. */
static int objects_json(struct html *h, struct cand **chosen, size_t n,
			struct json_object *doc)
{
	struct json_object *rows, *t = table_json(object_cols, &rows);
	struct json_object *names = json_object_new_array();
	struct kmap_map ips;
	size_t i;
	int rc = 0;

	kmap_map_init(&ips);
	if (!t || !names)
		rc = -1;
	for (i = 0; !rc && i < n; i++)
		rc = add(rows, object_json(h, chosen[i], &ips, names), 0);
	kmap_map_free(&ips);
	if (rc) {
		json_object_put(t);
		json_object_put(names);
		return -1;
	}
	json_object_object_add(doc, "objects", t);
	json_object_object_add(doc, "ips", names);
	return 0;
}

static struct json_object *meta_json(struct html *h, const struct totals *t,
				     struct kmap_src *src, size_t shipped)
{
	struct json_object *m = json_object_new_object();
	const char *sym = h->opts.symbols, *slash;
	unsigned int hz = kmap_src_hz(src);

	if (!m)
		return NULL;
	slash = sym ? strrchr(sym, '/') : NULL;
	json_object_object_add(m, "input", json_bytes(kmap_src_name(src)));
	json_object_object_add(m, "format", json_object_new_string(
		kmap_src_format(src) == KMAP_FMT_TEXT ? "text" : "binary"));
	json_object_object_add(m, "kinds_named",
			       json_object_new_boolean(!h->cache_unnamed));
	json_object_object_add(m, "hz", hz ? u64(hz) : NULL);
	json_object_object_add(m, "symbols",
			       sym ? json_bytes(slash ? slash + 1 : sym) : NULL);
	json_object_object_add(m, "generator", json_object_new_string(
		"memorizer report --html " MEMORIZER_VERSION));
	json_object_object_add(m, "per_site", u64(h->opts.per_site));
	json_object_object_add(m, "objects_max", u64(HTML_OBJECTS_MAX));
	json_object_object_add(m, "accessors_max", u64(HTML_ACCESSORS_MAX));
	json_object_object_add(m, "objects_shipped", u64(shipped));
	json_object_object_add(m, "objects_total", u64(t->objects));
	json_object_object_add(m, "sites_max", u64(HTML_SITES_MAX));
	json_object_object_add(m, "sites_shipped", u64(h->shipped_sites));
	json_object_object_add(m, "sites_total", u64(h->nsites));
	return m;
}

/* ------------------------------------------------------------------ */
/* The capability heatmap's section.                                  */

/* A subject's or group's sums over every cell it is in. */
struct cm_line {
	const char *name;
	uint64_t reads, writes, frees, traffic;
	size_t num;			/* its number in the map */
	long pos;			/* its index shipped, or -1 */
	long parent;			/* its parent's index in the parent map's
					 * shipped, or -1 */
};

/* Most reads + writes + frees first, then by name. */
static int cmp_cm_line(const void *a, const void *b)
{
	const struct cm_line *x = a, *y = b;

	if (x->traffic != y->traffic)
		return x->traffic > y->traffic ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void cm_line_add(struct cm_line *l, const char *name,
			const struct kmap_capmap_cell *c)
{
	l->name = name;
	l->reads = kmap_add_sat(l->reads, c->reads);
	l->writes = kmap_add_sat(l->writes, c->writes);
	l->frees = kmap_add_sat(l->frees, c->frees);
	l->traffic = kmap_add_sat(kmap_add_sat(l->reads, l->writes), l->frees);
}

/*
 * Sort the n lines named (by a cell: a group no object of which was
 * touched is in none and goes), ship the first max: their pos set, by[num]
 * their line. Returns how many are named.
 */
static size_t cm_rank(struct cm_line *lines, size_t n, size_t max,
		      struct cm_line **by)
{
	size_t i, named = 0;

	for (i = 0; i < n; i++)
		if (lines[i].name)
			lines[named++] = lines[i];
	qsort(lines, named, sizeof(*lines), cmp_cm_line);
	for (i = 0; i < named; i++) {
		lines[i].pos = i < max ? (long)i : -1;
		lines[i].parent = -1;
		by[lines[i].num] = &lines[i];
	}
	return named;
}

/*
 * A child map's rows (files, a file's functions) under the parent map's
 * rows shipped: each one's parent found; the HTML_CAPMAP_CHILDREN busiest
 * of each parent shipped too, after the top ones (a drill-down's rows),
 * HTML_CAPMAP_SHIP rows in all. Returns how many are shipped.
 */
static size_t cm_children(const struct capmap_view *v,
			  struct capmap_view *parent, struct cm_line *lines,
			  size_t n, size_t top)
{
	char name[KMAP_LINE_MAX];
	const char *key = name, **at;
	size_t i, next = top;

	for (i = 0; i < n; i++) {
		if (kmap_capmap_parent(v->subject, lines[i].name, name,
				       sizeof(name)) < 0)
			return top;
		at = bsearch(&key, parent->shipped, parent->nshipped,
			     sizeof(*parent->shipped), cmp_name);
		if (!at)
			continue;
		lines[i].parent = at - parent->shipped;
		if (lines[i].pos >= 0) {
			parent->children[lines[i].parent]++;
		} else if (next < HTML_CAPMAP_SHIP &&
			   parent->children[lines[i].parent] <
			   HTML_CAPMAP_CHILDREN) {
			parent->children[lines[i].parent]++;
			lines[i].pos = (long)next++;
		}
	}
	return next;
}

/*
 * [[name, reads, writes, frees(, parent)], ...] of the lines shipped, in
 * their pos order; parent: the parent's name, when named.
 */
static struct json_object *cm_lines_json(struct cm_line *lines, size_t n,
					 size_t shipped,
					 const struct capmap_view *parent)
{
	struct json_object *a = json_object_new_array();
	struct cm_line **order = calloc(shipped ? shipped : 1, sizeof(*order));
	size_t i;
	int bad = !a || !order;

	for (i = 0; !bad && i < n; i++)
		if (lines[i].pos >= 0)
			order[lines[i].pos] = &lines[i];
	for (i = 0; !bad && i < shipped; i++) {
		struct json_object *r = json_object_new_array();
		const struct cm_line *l = order[i];

		bad |= add(a, r, 0);
		if (bad)
			break;
		bad |= add(r, json_bytes(l->name), 0);
		bad |= add(r, u64(l->reads), 0);
		bad |= add(r, u64(l->writes), 0);
		bad |= add(r, u64(l->frees), 0);
		if (parent)
			bad |= add(r, l->parent < 0 ? NULL :
				   json_bytes(parent->shipped[l->parent]),
				   l->parent < 0);
	}
	free(order);
	if (bad) {
		json_object_put(a);
		return NULL;
	}
	return a;
}

/* An object of keys and figures; NULL when out of memory. */
static struct json_object *figures_json(const char *const *keys,
					const uint64_t *v, size_t n)
{
	struct json_object *o = json_object_new_object();
	size_t i;

	for (i = 0; o && i < n; i++) {
		struct json_object *x = u64(v[i]);

		if (!x || json_object_object_add(o, keys[i], x)) {
			json_object_put(x);
			json_object_put(o);
			return NULL;
		}
	}
	return o;
}

/* v's rows shipped, sorted by name, for its children. -1: out of memory. */
static int cm_keep_shipped(struct capmap_view *v, const struct cm_line *lines,
			   size_t n, size_t shipped)
{
	size_t i, k = 0;

	v->shipped = malloc((shipped ? shipped : 1) * sizeof(*v->shipped));
	v->children = calloc(shipped ? shipped : 1, sizeof(*v->children));
	if (!v->shipped || !v->children)
		return -1;
	for (i = 0; i < n; i++)
		if (lines[i].pos >= 0)
			v->shipped[k++] = lines[i].name;
	qsort(v->shipped, k, sizeof(*v->shipped), cmp_name);
	v->nshipped = k;
	return 0;
}

/*
 * One map's object (see the top of this file), its parent map's (NULL:
 * none) rows shipped known. NULL when out of memory.
 */
static struct json_object *capmap_view_json(struct capmap_view *v,
					    struct capmap_view *parent)
{
	static const char *const sum_keys[] = {
		"objects", "subjects", "groups", "groups_touched", "cells",
		"reads", "writes", "frees", "frees_unattributed",
	};
	static const char *const out_keys[] = {
		"rows", "cols", "cells", "reads", "writes", "frees",
	};
	const struct kmap_capmap_cell *cells;
	size_t nc = kmap_capmap_cells(v->m, &cells), i;
	size_t ns = kmap_capmap_nsubjects(v->m), ng = kmap_capmap_ngroups(v->m);
	struct cm_line *subj = calloc(ns ? ns : 1, sizeof(*subj));
	struct cm_line *grp = calloc(ng ? ng : 1, sizeof(*grp));
	struct cm_line **s_by = calloc(ns ? ns : 1, sizeof(*s_by));
	struct cm_line **g_by = calloc(ng ? ng : 1, sizeof(*g_by));
	struct json_object *o = NULL, *shipped = NULL, *x;
	struct kmap_capmap_totals t;
	size_t named_s, named_g, top_s, top_g, ship_s;
	uint64_t out[6] = { 0 };
	int bad = 0;

	if (!subj || !grp || !s_by || !g_by)
		goto fail;
	for (i = 0; i < ns; i++)
		subj[i].num = i;
	for (i = 0; i < ng; i++)
		grp[i].num = i;
	for (i = 0; i < nc; i++) {
		cm_line_add(&subj[cells[i].subject],
			    kmap_capmap_subject_of(v->m, &cells[i]), &cells[i]);
		cm_line_add(&grp[cells[i].group],
			    kmap_capmap_group_of(v->m, &cells[i]), &cells[i]);
	}
	named_s = cm_rank(subj, ns, HTML_CAPMAP_ROWS, s_by);
	named_g = cm_rank(grp, ng, HTML_CAPMAP_COLS, g_by);
	top_s = named_s < HTML_CAPMAP_ROWS ? named_s : HTML_CAPMAP_ROWS;
	top_g = named_g < HTML_CAPMAP_COLS ? named_g : HTML_CAPMAP_COLS;
	ship_s = parent ? cm_children(v, parent, subj, named_s, top_s) : top_s;
	out[0] = named_s - top_s;
	out[1] = named_g - top_g;
	o = json_object_new_object();
	shipped = json_object_new_array();
	if (!o || !shipped)
		goto fail;
	for (i = 0; !bad && i < nc; i++) {
		const struct kmap_capmap_cell *c = &cells[i];
		long r = s_by[c->subject]->pos, g = g_by[c->group]->pos;
		struct json_object *a;

		/* Left out: what the top rows and columns do not show. */
		if (r < 0 || r >= (long)top_s || g < 0) {
			out[2]++;
			out[3] = kmap_add_sat(out[3], c->reads);
			out[4] = kmap_add_sat(out[4], c->writes);
			out[5] = kmap_add_sat(out[5], c->frees);
		}
		if (r < 0 || g < 0)
			continue;
		a = json_object_new_array();
		bad |= add(shipped, a, 0);
		if (bad)
			break;
		bad |= add(a, u64((uint64_t)r), 0);
		bad |= add(a, u64((uint64_t)g), 0);
		bad |= add(a, u64(c->reads), 0);
		bad |= add(a, u64(c->writes), 0);
		bad |= add(a, u64(c->frees), 0);
		bad |= add(a, u64(c->objects), 0);
	}
	if (bad || cm_keep_shipped(v, subj, named_s, ship_s))
		goto fail;
	kmap_capmap_totals(v->m, &t);
	{
		const uint64_t sums[] = {
			t.objects, named_s, ng, named_g, nc, t.reads,
			t.writes, t.frees, t.frees_unattributed,
		};

		json_object_object_add(o, "subject", json_object_new_string(
			kmap_capmap_subject_name(v->subject)));
		json_object_object_add(o, "group", json_object_new_string(
			kmap_capmap_group_name(v->group)));
		if (!(x = figures_json(sum_keys, sums, 9)))
			goto fail;
		json_object_object_add(o, "summary", x);
	}
	json_object_object_add(o, "top", u64(top_s));
	if (!(x = cm_lines_json(subj, named_s, ship_s, parent)))
		goto fail;
	json_object_object_add(o, "rows", x);
	if (!(x = cm_lines_json(grp, named_g, top_g, NULL)))
		goto fail;
	json_object_object_add(o, "cols", x);
	json_object_object_add(o, "cells", shipped);
	shipped = NULL;
	if (!(x = figures_json(out_keys, out, 6)))
		goto fail;
	json_object_object_add(o, "left_out", x);
	goto done;
fail:
	json_object_put(o);
	o = NULL;
done:
	json_object_put(shipped);
	free(subj);
	free(grp);
	free(s_by);
	free(g_by);
	return o;
}

/* The map of v's parent subject by v's group, written before v; or NULL. */
static struct capmap_view *capmap_parent(struct html *h,
					 const struct capmap_view *v)
{
	char buf[2];
	int kind = kmap_capmap_parent(v->subject, "", buf, sizeof(buf));
	size_t i;

	for (i = 0; kind >= 0 && &h->capmaps[i] != v; i++)
		if ((int)h->capmaps[i].subject == kind &&
		    h->capmaps[i].group == v->group)
			return &h->capmaps[i];
	return NULL;
}

/* The "capmap" section; NULL when out of memory. */
static struct json_object *capmap_json(struct html *h)
{
	struct json_object *o = json_object_new_object();
	struct json_object *maps = json_object_new_array();
	size_t i;

	if (!o || !maps) {
		json_object_put(o);
		json_object_put(maps);
		return NULL;
	}
	json_object_object_add(o, "rows_max", u64(HTML_CAPMAP_ROWS));
	json_object_object_add(o, "cols_max", u64(HTML_CAPMAP_COLS));
	json_object_object_add(o, "children_max", u64(HTML_CAPMAP_CHILDREN));
	json_object_object_add(o, "maps", maps);
	for (i = 0; i < h->ncapmaps; i++) {
		struct capmap_view *v = &h->capmaps[i];

		if (v->group == KMAP_GROUP_CACHE && h->cache_unnamed)
			continue;
		if (add(maps, capmap_view_json(v, capmap_parent(h, v)), 0)) {
			json_object_put(o);
			return NULL;
		}
	}
	return o;
}

/* ------------------------------------------------------------------ */
/* The compartments section.                                          */

/* A call edge between code units, for each compartment's crossings. */
struct cw_edge {
	long from, to;			/* code units, -1: none */
	uint64_t count;
};

/* The sweep's design points as they come (most compartments first). */
struct cw {
	struct kmap_compart_units *u;
	uint32_t *code_order;		/* code units by name */
	uint32_t *data_order;		/* data units by name */
	struct cw_edge *edges;
	size_t nedges;
	struct kmap_compart_point *pts;
	struct json_object **details;	/* per point: compartments, or NULL */
	size_t npts;
};

static const char *const compart_cols[] = {
	"compartments", "reduction", "reduction_bytes", "crossings",
	"crossing_share", "shared", "granted", "granted_bytes",
};

/* The rights as memorizer compartments shows them: "rwf", - if not. */
static struct json_object *rights_json(unsigned int r)
{
	char buf[4] = {
		r & KMAP_RIGHT_READ ? 'r' : '-', r & KMAP_RIGHT_WRITE ? 'w' : '-',
		r & KMAP_RIGHT_FREE ? 'f' : '-', 0,
	};

	return json_object_new_string(buf);
}

/* One compartment's figures and lists, while its row is made. */
struct cw_comp {
	uint32_t first;			/* its first code unit by name */
	uint64_t units, data, in, out;
	struct json_object *code, *touch;
};

/*
 * One design point's k compartments, named by their first code unit by
 * name and in that order: [name, code units, data units, calls in, calls
 * out, [its first HTML_COMPART_UNITS code units by name], [[data unit,
 * rights], ...: its first HTML_COMPART_DATA data units by name]]. NULL
 * when out of memory.
 */
static struct json_object *compart_detail(const struct cw *w,
					  const uint32_t *part, size_t nlabels,
					  size_t k)
{
	const struct kmap_compart *p = kmap_compart_units_problem(w->u);
	size_t ncode = kmap_compart_units_ncode(w->u);
	size_t nd = kmap_compart_units_ndata(w->u), i, j, n = 0;
	long *idx = malloc((nlabels + 1) * sizeof(*idx));
	uint8_t *rights = calloc(k * nd + 1, 1);
	struct cw_comp *cp = calloc(k + 1, sizeof(*cp));
	struct json_object *a = json_object_new_array();
	int bad = !idx || !rights || !cp || !a;

	for (i = 0; !bad && i < nlabels; i++)
		idx[i] = -1;
	for (i = 0; !bad && i < ncode; i++) {
		uint32_t c = w->code_order[i];
		const struct kmap_compart_cell *cell;
		size_t m = kmap_compart_access(p, c, &cell);
		long x = idx[part[c]];

		if (x < 0) {
			if (n == k) {	/* more compartments than the point's */
				bad = 1;
				break;
			}
			x = idx[part[c]] = (long)n++;
			cp[x].first = c;
			cp[x].code = json_object_new_array();
			cp[x].touch = json_object_new_array();
			bad |= !cp[x].code || !cp[x].touch;
		}
		if (!bad && cp[x].units++ < HTML_COMPART_UNITS)
			bad |= add(cp[x].code,
				   json_bytes(kmap_compart_units_code(w->u, c)), 0);
		for (j = 0; j < m; j++)
			rights[x * nd + cell[j].data] |= cell[j].rights;
	}
	for (i = 0; !bad && i < nd; i++) {
		uint32_t d = w->data_order[i];

		for (j = 0; !bad && j < n; j++) {
			struct json_object *e;

			if (!rights[j * nd + d] || cp[j].data++ >= HTML_COMPART_DATA)
				continue;
			e = json_object_new_array();
			bad |= add(cp[j].touch, e, 0);
			if (!bad)
				bad |= add(e, json_bytes(kmap_compart_units_data(w->u, d)), 0) |
				       add(e, rights_json(rights[j * nd + d]), 0);
		}
	}
	for (i = 0; !bad && i < w->nedges; i++) {
		const struct cw_edge *e = &w->edges[i];
		long from, to;

		if (e->from < 0 || e->to < 0)
			continue;
		from = idx[part[e->from]];
		to = idx[part[e->to]];
		if (from != to) {
			cp[to].in = kmap_add_sat(cp[to].in, e->count);
			cp[from].out = kmap_add_sat(cp[from].out, e->count);
		}
	}
	for (i = 0; !bad && i < n; i++) {
		struct json_object *r = json_object_new_array();
		const uint64_t fig[] = { cp[i].units, cp[i].data, cp[i].in,
					 cp[i].out };

		bad |= add(a, r, 0);
		if (bad)
			break;
		bad |= add(r, json_bytes(kmap_compart_units_code(w->u,
								  cp[i].first)), 0);
		for (j = 0; j < 4; j++)
			bad |= add(r, u64(fig[j]), 0);
		bad |= add(r, cp[i].code, 0) | add(r, cp[i].touch, 0);
		cp[i].code = cp[i].touch = NULL;
	}
	for (i = 0; cp && i < k; i++) {
		json_object_put(cp[i].code);
		json_object_put(cp[i].touch);
	}
	free(cp);
	free(idx);
	free(rights);
	if (bad) {
		json_object_put(a);
		return NULL;
	}
	return a;
}

/* kmap_compart_sweep()'s callback: keep the figures, detail a few. */
static int compart_point(void *ctx, const struct kmap_compart_point *pt,
			 const uint32_t *part, size_t nlabels)
{
	struct cw *w = ctx;

	w->pts[w->npts] = *pt;
	w->details[w->npts] = NULL;
	if (pt->compartments <= HTML_COMPART_DETAIL) {
		w->details[w->npts] = compart_detail(w, part, nlabels,
						     pt->compartments);
		if (!w->details[w->npts])
			return -1;
	}
	w->npts++;
	return 0;
}

static const struct kmap_compart_units *order_units;
static int code_name_cmp(const void *x, const void *y)
{
	return strcmp(kmap_compart_units_code(order_units, *(const uint32_t *)x),
		      kmap_compart_units_code(order_units, *(const uint32_t *)y));
}

static int data_name_cmp(const void *x, const void *y)
{
	return strcmp(kmap_compart_units_data(order_units, *(const uint32_t *)x),
		      kmap_compart_units_data(order_units, *(const uint32_t *)y));
}

/* The units by name, and the calls by code unit. -1: out of memory. */
static int cw_prepare(struct cw *w, const struct kmap_calls *calls)
{
	size_t nc = kmap_compart_units_ncode(w->u);
	size_t nd = kmap_compart_units_ndata(w->u), i;
	const struct kmap_call *c;

	w->nedges = kmap_calls_list(calls, &c);
	w->code_order = malloc((nc + 1) * sizeof(*w->code_order));
	w->data_order = malloc((nd + 1) * sizeof(*w->data_order));
	w->edges = malloc((w->nedges + 1) * sizeof(*w->edges));
	w->pts = calloc(HTML_COMPART_POINTS + 1, sizeof(*w->pts));
	w->details = calloc(HTML_COMPART_POINTS + 1, sizeof(*w->details));
	if (!w->code_order || !w->data_order || !w->edges || !w->pts ||
	    !w->details)
		return -1;
	for (i = 0; i < nc; i++)
		w->code_order[i] = (uint32_t)i;
	for (i = 0; i < nd; i++)
		w->data_order[i] = (uint32_t)i;
	order_units = w->u;
	if (nc)
		qsort(w->code_order, nc, sizeof(*w->code_order), code_name_cmp);
	if (nd)
		qsort(w->data_order, nd, sizeof(*w->data_order), data_name_cmp);
	for (i = 0; i < w->nedges; i++)
		w->edges[i] = (struct cw_edge){
			kmap_compart_units_ip(w->u, c[i].caller),
			kmap_compart_units_ip(w->u, c[i].callee), c[i].count };
	return 0;
}

static void cw_free(struct cw *w)
{
	size_t i;

	for (i = 0; w->details && i < w->npts; i++)
		json_object_put(w->details[i]);
	free(w->details);
	free(w->pts);
	free(w->edges);
	free(w->code_order);
	free(w->data_order);
}

/* The design points, fewest compartments first, and their details. */
static int compart_rows(const struct cw *w, struct json_object *o)
{
	struct json_object *cols = json_object_new_array();
	struct json_object *rows = json_object_new_array();
	struct json_object *det = json_object_new_array();
	size_t i, j;
	int bad = !cols || !rows || !det;

	for (j = 0; !bad && j < sizeof(compart_cols) / sizeof(*compart_cols); j++)
		bad |= add(cols, json_object_new_string(compart_cols[j]), 0);
	for (i = w->npts; !bad && i-- > 0;) {
		const struct kmap_compart_point *pt = &w->pts[i];
		struct json_object *r = json_object_new_array();

		bad |= add(rows, r, 0);
		if (bad)
			break;
		bad |= add(r, u64(pt->compartments), 0);
		bad |= add(r, json_figure(pt->reduction), 0);
		bad |= add(r, json_figure(pt->reduction_bytes), 0);
		bad |= add(r, u64(pt->crossings), 0);
		bad |= add(r, json_figure(pt->crossing_share), 0);
		bad |= add(r, u64(pt->shared), 0);
		bad |= add(r, u64(pt->granted), 0);
		bad |= add(r, u64(pt->granted_bytes), 0);
		bad |= add(det, json_object_get(w->details[i]), !w->details[i]);
	}
	if (bad) {
		json_object_put(cols);
		json_object_put(rows);
		json_object_put(det);
		return -1;
	}
	json_object_object_add(o, "columns", cols);
	json_object_object_add(o, "rows", rows);
	json_object_object_add(o, "details", det);
	return 0;
}

/*
 * The "compartments" section: memorizer compartments --sweep's design
 * points of code = function, data = callsite (the heatmap's function by
 * call site map), or why there are none ("skipped"). NULL when out of
 * memory.
 */
static struct json_object *compart_json(struct html *h)
{
	struct json_object *o = json_object_new_object(), *x;
	const struct kmap_capmap *m = NULL;
	const struct kmap_call *calls;
	const struct kmap_compart *p;
	struct cw w = { 0 };
	size_t want[HTML_COMPART_POINTS], nwant, i;
	const char *skip = NULL;
	int bad = !o;

	for (i = 0; i < h->ncapmaps; i++)
		if (h->capmaps[i].subject == KMAP_SUBJECT_FUNCTION &&
		    h->capmaps[i].group == KMAP_GROUP_CALLSITE)
			m = h->capmaps[i].m;
	if (bad)
		return NULL;
	json_object_object_add(o, "code", json_object_new_string("function"));
	json_object_object_add(o, "data", json_object_new_string("callsite"));
	json_object_object_add(o, "points_max", u64(HTML_COMPART_POINTS));
	json_object_object_add(o, "detail_max", u64(HTML_COMPART_DETAIL));
	json_object_object_add(o, "units_max", u64(HTML_COMPART_UNITS));
	json_object_object_add(o, "data_max", u64(HTML_COMPART_DATA));
	json_object_object_add(o, "call_edges",
			       u64(kmap_calls_list(h->calls, &calls)));
	if (!h->sym || !m) {
		skip = "no symbols: code units are functions; give --system-map FILE or --vmlinux FILE";
		goto skipped;
	}
	w.u = kmap_compart_units_new(m, NULL, h->calls, 0);
	if (!w.u || cw_prepare(&w, h->calls))
		goto fail;
	p = kmap_compart_units_problem(w.u);
	if (!kmap_compart_ncode(p)) {
		skip = "no function accessed, called or calling: nothing to split";
		goto skipped;
	}
	nwant = kmap_compart_points(kmap_compart_ncode(p), HTML_COMPART_POINTS,
				    want);
	if (kmap_compart_sweep(p, kmap_compart_units_rank(w.u), want, nwant,
			       compart_point, &w))
		goto fail;
	{
		const struct kmap_compart_point *pt = &w.pts[0];
		static const char *const keys[] = {
			"code_units", "data_units", "calls", "least",
			"monolithic", "least_bytes", "monolithic_bytes",
		};
		const uint64_t v[] = {
			kmap_compart_units_ncode(w.u),
			kmap_compart_units_ndata(w.u), pt->calls, pt->least,
			pt->monolithic, pt->least_bytes, pt->monolithic_bytes,
		};

		if (!(x = figures_json(keys, v, 7)))
			goto fail;
		json_object_object_add(o, "summary", x);
	}
	if (compart_rows(&w, o))
		goto fail;
skipped:
	json_object_object_add(o, "skipped",
			       skip ? json_object_new_string(skip) : NULL);
	cw_free(&w);
	kmap_compart_units_free(w.u);
	return o;
fail:
	cw_free(&w);
	kmap_compart_units_free(w.u);
	json_object_put(o);
	return NULL;
}

/* Write s, every '<' as \u003c (JSON outside strings has none). */
static void write_data(FILE *out, const char *s)
{
	const char *lt;

	while ((lt = strchr(s, '<'))) {
		fwrite(s, 1, (size_t)(lt - s), out);
		fputs("\\u003c", out);
		s = lt + 1;
	}
	fputs(s, out);
}

int html_write(struct html *h, const struct totals *t, struct kmap_src *src,
	       FILE *out)
{
	size_t len = (size_t)(report_page_end - report_page), n = 0;
	const char *mark = memmem(report_page, len, DATA_MARK,
				  strlen(DATA_MARK));
	struct json_object *doc = json_object_new_object(), *v;
	struct cand **chosen;
	const char *data;
	int rc = -1;

	if (!mark) {
		error("the page built into memorizer has no data mark (a build error)");
		json_object_put(doc);
		return -1;
	}
	cut_sites(h);
	chosen = choose(h, &n);
	if (!doc || !chosen)
		goto out;
	if (!(v = kinds_json(h->kinds)))
		goto out;
	json_object_object_add(doc, "kinds", v);
	if (!(v = kinds_json(h->others)))
		goto out;
	json_object_object_add(doc, "sites_other", v);
	if (objects_json(h, chosen, n, doc))
		goto out;
	if (!(v = sites_json(h)))
		goto out;
	json_object_object_add(doc, "sites", v);
	if (!(v = meta_json(h, t, src, n)))
		goto out;
	json_object_object_add(doc, "meta", v);
	if (!(v = report_summary_json(t, src)))
		goto out;
	json_object_object_add(doc, "summary", v);
	json_object_object_add(doc, "stats", json_object_get(h->stats));
	if (!(v = capmap_json(h)))
		goto out;
	json_object_object_add(doc, "capmap", v);
	if (!(v = compart_json(h)))
		goto out;
	json_object_object_add(doc, "compartments", v);
	data = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN);
	if (!data)
		goto out;
	fwrite(report_page, 1, (size_t)(mark - report_page), out);
	write_data(out, data);
	mark += strlen(DATA_MARK);
	fwrite(mark, 1, (size_t)(report_page_end - mark), out);
	rc = 0;
out:
	if (rc)
		error("out of memory");
	free(chosen);
	json_object_put(doc);
	return rc;
}
