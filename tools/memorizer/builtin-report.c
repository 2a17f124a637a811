// SPDX-License-Identifier: GPL-2.0
/*
 * memorizer report: summaries of a kmap or stream, per key.
 *
 * Each --by is a dimension (struct dim), in the style of perf kmem's sort
 * dimensions: a key function that files an object under its rows, the
 * columns it shows (each a getter of one row's cell) and its default
 * sort. Adding a view is adding a row to dims[].
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <json.h>

#include <linux/memorizer.h>

#include "builtin.h"
#include "report.h"
#include "table.h"

/*
 * One group's figures. Each field means one thing in every view. Those
 * of a few views only are in struct about, to keep the row small: a
 * large --by callsite has hundreds of thousands (each of their pages
 * faulted in).
 */
struct row {
	uint64_t key;
	uint64_t objects, live, bytes, bytes_alloc, life_sum, life_n;
	uint64_t reads, writes, never_read, never_written, cross_cpu;
	uint64_t mismatch, missed;
};

/*
 * What a group is, beside its figures (for the views that name groups or
 * show objects: apart, so that the figures of many groups stay small),
 * and the figures of those views alone.
 */
struct about {
	uint64_t comm_jiffies;		/* of the object comm came from */
	char comm[KMAP_COMM_MAX];
	char name[40];
	/* --by object: the object itself. */
	uint64_t id, addr, alloc_ip, alloc_jiffies, free_jiffies;
	/* --by function and object: sites; --by pid: touched, pid (object). */
	uint64_t sites, touched;
	uint64_t last_obj;		/* the last object counted (function, pid) */
	uint32_t pid;
};

struct report {
	const struct dim *dim;
	struct kmap_sym *sym;
	const char *input;		/* the input's name, as libkmap says it */
	struct kmap_map index;		/* key -> rows index */
	struct row *rows;
	size_t n, cap;
	struct about *about;		/* rows' (dim->about), else NULL */
	size_t about_cap;
	uint64_t objno;			/* objects read so far */
	struct totals tot;
	struct html *html;		/* --html: the page's figures */
	/* dim->key: the object read last, filed after the next is read. */
	struct kmap_object held;
	uint64_t held_reads, held_writes;
	int holding;
};

/*
 * A column: its name, type, what the input's objects must carry for it,
 * and its cell of a row. COL_IP: an ip, named function+offset with
 * symbols (COL_STR), else in hexadecimal (COL_HEX).
 */
#define COL_IP	(-1)
/* needs: a binary stream's allocated sizes, CPUs, or any input's kinds. */
#define SIZES	KMAP_HAS_SIZE_ALLOC
#define CPUS	KMAP_HAS_CPU
#define KINDS	KMAP_HAS_KIND
struct column {
	const char *name;
	int type;			/* enum col_type, or COL_IP */
	unsigned int needs;		/* KMAP_HAS_* of the objects */
	void (*get)(const struct report *rep, const struct row *r,
		    union cell *c);
};

struct dim {
	const char *name;		/* --by NAME */
	const char *sort;		/* the default --sort */
	/* File one object (its reads and writes summed) under its rows. */
	int (*add)(struct report *rep, const struct kmap_object *o,
		   const struct kmap_access *acc, size_t nacc,
		   uint64_t reads, uint64_t writes);
	const struct column *cols;	/* ended by a zeroed entry */
	int needs_symbols, needs_kind;
	int about;			/* its rows have a struct about */
	/*
	 * The one row an object goes under, when the object alone says
	 * it (else NULL): its row's slot is then fetched while the next
	 * object is read, and add() files it after that, without its
	 * accesses (a large table's lookups each missed the cache).
	 */
	uint64_t (*key)(const struct kmap_object *o);
	/*
	 * Its rows come in the order of the accesses that make them, and
	 * rows may tie by name (functions): the accesses are read in
	 * (ip, pid) order for it; the others take them in any order
	 * (kmap_src_any_order()).
	 */
	int ordered;
};

/* The row of key, zeroed when new; NULL when out of memory. */
static struct row *row_get(struct report *rep, uint64_t key)
{
	size_t i;
	int is_new;

	if (kmap_intern(&rep->index, key, (void **)&rep->rows, &rep->n,
			&rep->cap, sizeof(*rep->rows), &i, &is_new))
		return NULL;
	if (is_new && rep->dim->about) {
		if (kmap_grow((void **)&rep->about, &rep->about_cap, rep->n,
			      sizeof(*rep->about)))
			return NULL;	/* the row stays, zeroed, unnamed */
		memset(&rep->about[i], 0, sizeof(rep->about[i]));
		rep->about[i].last_obj = UINT64_MAX;
	}
	if (is_new) {
		memset(&rep->rows[i], 0, sizeof(rep->rows[i]));
		rep->rows[i].key = key;
	}
	return &rep->rows[i];
}

/* What row r (of rep->rows) is. */
static struct about *about(const struct report *rep, const struct row *r)
{
	return &rep->about[r - rep->rows];
}

/*
 * Freed by another API than its kind's (libkmap's table: a task's stack
 * goes with its pages, a per-CPU area with free_percpu(), a module's
 * global with its module); a missed free has none, nor a kind never freed.
 */
static int mismatched(const struct kmap_object *o)
{
	const struct kmap_kind *k = kmap_kind(o->kind);

	if (!kmap_object_freed(o) || !(o->has & KMAP_HAS_FREE_API) ||
	    !(o->has & KMAP_HAS_KIND) || o->free_api == MEMORIZER_FREE_MISSED ||
	    !k || k->free_api < 0)
		return 0;
	return o->free_api != k->free_api;
}

static int cross_cpu(const struct kmap_object *o)
{
	return kmap_object_freed(o) && (o->has & KMAP_HAS_CPU) &&
	       (o->has & KMAP_HAS_FREE_API) && o->alloc_cpu != o->free_cpu;
}

static uint64_t bytes_alloc(const struct kmap_object *o)
{
	return (o->has & KMAP_HAS_SIZE_ALLOC) ? o->size_alloc : o->size;
}

/* Add one object's figures to a row. */
static void add_object(struct row *r, const struct kmap_object *o,
		       uint64_t reads, uint64_t writes)
{
	r->objects++;
	r->bytes += o->size;
	r->bytes_alloc += bytes_alloc(o);
	if (kmap_object_freed(o)) {
		if (o->free_jiffies >= o->alloc_jiffies) {
			r->life_sum += o->free_jiffies - o->alloc_jiffies;
			r->life_n++;
		}
		r->missed += o->free_ip == KMAP_FREE_IP_MISSED;
	} else {
		r->live++;
	}
	r->cross_cpu += cross_cpu(o);
	r->mismatch += mismatched(o);
	r->reads = kmap_add_sat(r->reads, reads);
	r->writes = kmap_add_sat(r->writes, writes);
	r->never_read += reads == 0;
	r->never_written += writes == 0;
}

static void add_totals(struct totals *t, const struct kmap_object *o,
		       size_t nacc, uint64_t reads, uint64_t writes)
{
	t->has |= o->has;
	t->objects++;
	t->live += !kmap_object_freed(o);
	t->bytes += o->size;
	t->bytes_alloc += bytes_alloc(o);
	t->lines += nacc;
	t->reads = kmap_add_sat(t->reads, reads);
	t->writes = kmap_add_sat(t->writes, writes);
	t->never_read += reads == 0;
	t->never_written += writes == 0;
	t->missed += o->free_ip == KMAP_FREE_IP_MISSED;
	t->cross_cpu += cross_cpu(o);
	t->mismatch += mismatched(o);
	if (kmap_object_freed(o) && o->free_jiffies >= o->alloc_jiffies) {
		t->life_sum += o->free_jiffies - o->alloc_jiffies;
		t->life_n++;
	}
}

/* a / b, 0 when b is; a mean has no value (CELL_NONE) over nothing. */
static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

static double mean(uint64_t sum, uint64_t n)
{
	return n ? (double)sum / (double)n : CELL_NONE;
}

/* Key functions: file an object under its rows. */

static int add_callsite(struct report *rep, const struct kmap_object *o,
			const struct kmap_access *acc, size_t nacc,
			uint64_t reads, uint64_t writes)
{
	struct row *r = row_get(rep, o->alloc_ip);

	(void)acc, (void)nacc;
	if (!r)
		return -1;
	add_object(r, o, reads, writes);
	return 0;
}

/* Objects without a cache are filed under their kind's name. */
static int add_cache(struct report *rep, const struct kmap_object *o,
		     const struct kmap_access *acc, size_t nacc,
		     uint64_t reads, uint64_t writes)
{
	int has_cache = !!(o->has & KMAP_HAS_CACHE);
	struct row *r = row_get(rep, has_cache ? o->cache_id :
				(uint64_t)1 << 32 | o->kind);

	(void)acc, (void)nacc;
	if (!r)
		return -1;
	if (!about(rep, r)->name[0])
		snprintf(about(rep, r)->name, sizeof(about(rep, r)->name), "%s",
			 !has_cache ? kmap_kind_name(o->kind) :
			 o->cache ? o->cache : "?");
	add_object(r, o, reads, writes);
	return 0;
}

/* A text kmap says only which objects are globals, per-CPU or IRQ stacks. */
static int add_kind(struct report *rep, const struct kmap_object *o,
		    const struct kmap_access *acc, size_t nacc,
		    uint64_t reads, uint64_t writes)
{
	int kind = kmap_object_kind(o);
	struct row *r = row_get(rep, (uint64_t)(int64_t)kind);

	(void)acc, (void)nacc;
	if (!r)
		return -1;
	if (!about(rep, r)->name[0])
		snprintf(about(rep, r)->name, sizeof(about(rep, r)->name), "%s",
			 kmap_kind_name(kind));
	add_object(r, o, reads, writes);
	return 0;
}

/* Each access counter under its function; an object counts once per row. */
static int add_function(struct report *rep, const struct kmap_object *o,
			const struct kmap_access *acc, size_t nacc,
			uint64_t reads, uint64_t writes)
{
	size_t i;

	(void)reads, (void)writes;
	for (i = 0; i < nacc; i++) {
		uint64_t start;
		const char *fn = kmap_sym_function(rep->sym, acc[i].ip, &start);
		struct row *a = row_get(rep, fn ? start : acc[i].ip);
		struct about *ab;
		char *name;

		if (!a)
			return -1;
		ab = about(rep, a);
		name = ab->name;
		if (!name[0] && fn)
			snprintf(name, sizeof(ab->name), "%s", fn);
		else if (!name[0])
			snprintf(name, sizeof(ab->name), "%llx",
				 (unsigned long long)acc[i].ip);
		ab->sites++;
		a->reads = kmap_add_sat(a->reads, acc[i].reads);
		a->writes = kmap_add_sat(a->writes, acc[i].writes);
		if (ab->last_obj != rep->objno) {
			ab->last_obj = rep->objno;
			a->objects++;
			a->bytes += o->size;
		}
	}
	return 0;
}

/* What a pid allocated, and what it accessed. */
static int add_pid(struct report *rep, const struct kmap_object *o,
		   const struct kmap_access *acc, size_t nacc,
		   uint64_t reads, uint64_t writes)
{
	struct row *r = row_get(rep, o->pid);
	struct about *ab;
	size_t i, at = 0;

	(void)reads, (void)writes;
	if (!r)
		return -1;
	ab = about(rep, r);
	ab->pid = o->pid;
	/* A pid's newest command: the one after its exec. */
	if (!ab->comm[0] || o->alloc_jiffies > ab->comm_jiffies) {
		snprintf(ab->comm, sizeof(ab->comm), "%s", o->comm);
		ab->comm_jiffies = o->alloc_jiffies;
	}
	add_object(r, o, 0, 0);
	for (i = 0; i < nacc; i++) {
		struct row *a;

		/* An object's accesses mostly have one pid: looked up once. */
		if (!i || acc[i].pid != acc[i - 1].pid) {
			a = row_get(rep, acc[i].pid);
			if (!a)
				return -1;
			at = a - rep->rows;
			about(rep, a)->pid = acc[i].pid;
		}
		a = &rep->rows[at];
		ab = about(rep, a);
		a->reads = kmap_add_sat(a->reads, acc[i].reads);
		a->writes = kmap_add_sat(a->writes, acc[i].writes);
		if (ab->last_obj != rep->objno) {
			ab->last_obj = rep->objno;
			ab->touched++;
		}
	}
	return 0;
}

/*
 * One row per object, keyed by the stream's object id (a text kmap has
 * none: there, the object's number in the file, from 1).
 */
static int add_obj(struct report *rep, const struct kmap_object *o,
		   const struct kmap_access *acc, size_t nacc,
		   uint64_t reads, uint64_t writes)
{
	uint64_t id = (o->has & KMAP_HAS_ID) ? o->id : rep->objno + 1;
	struct row *r = row_get(rep, rep->objno);
	struct about *ab;

	(void)acc;
	if (!r)
		return -1;
	add_object(r, o, reads, writes);
	ab = about(rep, r);
	ab->pid = o->pid;
	ab->sites = nacc;
	ab->id = id;
	/* Two names an object: copied, not through snprintf. */
	str_copy(ab->comm, sizeof(ab->comm), o->comm);
	ab->addr = o->addr;
	ab->alloc_ip = o->alloc_ip;
	ab->alloc_jiffies = o->alloc_jiffies;
	ab->free_jiffies = o->free_jiffies;
	str_copy(ab->name, sizeof(ab->name),
		 (o->has & KMAP_HAS_CACHE) && o->cache ? o->cache :
		 (o->has & KMAP_HAS_KIND) ? kmap_kind_name(o->kind) : "");
	return 0;
}

/* Column getters. */

/* An ip's cell: COL_HEX without symbols, else COL_STR (see COL_IP). */
static void ip_label(const struct report *rep, uint64_t ip, union cell *c)
{
	char label[512];

	if (!rep->sym) {
		c->u = ip;
		return;
	}
	if (!kmap_sym_describe(rep->sym, ip, label, sizeof(label)))
		snprintf(label, sizeof(label), "%llx", (unsigned long long)ip);
	cell_str(c, label);
}

#define GET(field_name, expr)						\
static void get_##field_name(const struct report *rep,			\
			     const struct row *r, union cell *c)	\
{									\
	(void)rep;							\
	expr;								\
}
GET(callsite, ip_label(rep, r->key, c))
GET(obj_callsite, ip_label(rep, about(rep, r)->alloc_ip, c))
GET(name, cell_str(c, about(rep, r)->name))
GET(comm, cell_str(c, about(rep, r)->comm))
GET(addr, c->u = about(rep, r)->addr)
GET(id, c->u = about(rep, r)->id)
GET(pid, c->u = about(rep, r)->pid)
GET(objects, c->u = r->objects)
GET(live, c->u = r->live)
GET(bytes, c->u = r->bytes)
GET(bytes_alloc, c->u = r->bytes_alloc)
GET(waste, c->u = r->bytes_alloc - r->bytes)
GET(avg_lifetime, c->f = mean(r->life_sum, r->life_n))
GET(reads, c->u = r->reads)
GET(writes, c->u = r->writes)
GET(accesses, c->u = kmap_add_sat(r->reads, r->writes))
GET(reads_per_byte, c->f = ratio(r->reads, r->bytes))
GET(writes_per_byte, c->f = ratio(r->writes, r->bytes))
GET(never_read, c->u = r->never_read)
GET(never_written, c->u = r->never_written)
GET(missed, c->u = r->missed)
GET(cross_cpu, c->u = r->cross_cpu)
GET(mismatch, c->u = r->mismatch)
GET(sites, c->u = about(rep, r)->sites)
GET(touched, c->u = about(rep, r)->touched)
GET(alloc_jiffies, c->u = about(rep, r)->alloc_jiffies)
GET(free_jiffies, c->u = about(rep, r)->free_jiffies)
#undef GET

/* The columns of callsite, cache and kind, after their key column. */
#define SUMMARY_COLUMNS							\
	{ "objects", COL_U64, 0, get_objects },				\
	{ "live", COL_U64, 0, get_live },				\
	{ "bytes", COL_U64, 0, get_bytes },				\
	{ "bytes_alloc", COL_U64, SIZES, get_bytes_alloc },		\
	{ "waste", COL_U64, SIZES, get_waste },				\
	{ "avg_lifetime", COL_F64, 0, get_avg_lifetime },		\
	{ "reads", COL_U64, 0, get_reads },				\
	{ "writes", COL_U64, 0, get_writes },				\
	{ "reads_per_byte", COL_F64, 0, get_reads_per_byte },		\
	{ "writes_per_byte", COL_F64, 0, get_writes_per_byte },		\
	{ "never_read", COL_U64, 0, get_never_read },			\
	{ "never_written", COL_U64, 0, get_never_written },		\
	{ "missed_free", COL_U64, 0, get_missed },			\
	{ "cross_cpu", COL_U64, CPUS, get_cross_cpu },			\
	{ "mismatched_free", COL_U64, CPUS, get_mismatch },		\
	{ 0 }

static const struct column callsite_cols[] = {
	{ "callsite", COL_IP, 0, get_callsite }, SUMMARY_COLUMNS,
};
static const struct column cache_cols[] = {
	{ "cache", COL_STR, 0, get_name }, SUMMARY_COLUMNS,
};
static const struct column kind_cols[] = {
	{ "kind", COL_STR, 0, get_name }, SUMMARY_COLUMNS,
};
static const struct column function_cols[] = {
	{ "function", COL_STR, 0, get_name },
	{ "accesses", COL_U64, 0, get_accesses },
	{ "reads", COL_U64, 0, get_reads },
	{ "writes", COL_U64, 0, get_writes },
	{ "sites", COL_U64, 0, get_sites },
	{ "objects", COL_U64, 0, get_objects },
	{ "bytes", COL_U64, 0, get_bytes },
	{ 0 },
};
static const struct column pid_cols[] = {
	{ "pid", COL_U64, 0, get_pid },
	{ "comm", COL_STR, 0, get_comm },
	{ "objects", COL_U64, 0, get_objects },
	{ "bytes", COL_U64, 0, get_bytes },
	{ "reads", COL_U64, 0, get_reads },
	{ "writes", COL_U64, 0, get_writes },
	{ "objects_accessed", COL_U64, 0, get_touched },
	{ 0 },
};
static const struct column object_cols[] = {
	{ "object", COL_U64, 0, get_id },
	{ "addr", COL_HEX, 0, get_addr },
	{ "callsite", COL_IP, 0, get_obj_callsite },
	{ "pid", COL_U64, 0, get_pid },
	{ "comm", COL_STR, 0, get_comm },
	{ "size", COL_U64, 0, get_bytes },
	{ "size_alloc", COL_U64, SIZES, get_bytes_alloc },
	{ "cache", COL_STR, KINDS, get_name },
	{ "alloc_jiffies", COL_U64, 0, get_alloc_jiffies },
	{ "free_jiffies", COL_U64, 0, get_free_jiffies },
	{ "reads", COL_U64, 0, get_reads },
	{ "writes", COL_U64, 0, get_writes },
	{ "sites", COL_U64, 0, get_sites },
	{ 0 },
};

static uint64_t callsite_key(const struct kmap_object *o)
{
	return o->alloc_ip;
}

static const struct dim dims[] = {
	{ "callsite", "bytes", add_callsite, callsite_cols, 0, 0, 0,
	  callsite_key, 0 },
	{ "cache", "bytes", add_cache, cache_cols, 0, 1, 1, NULL, 0 },
	{ "kind", "bytes", add_kind, kind_cols, 0, 0, 1, NULL, 0 },
	{ "function", "accesses", add_function, function_cols, 1, 0, 1, NULL,
	  1 },
	{ "pid", "bytes", add_pid, pid_cols, 0, 0, 1, NULL, 0 },
	{ "object", "size", add_obj, object_cols, 0, 0, 1, NULL, 0 },
	{ 0 },
};

/* --html: every object to the page's figures (report-html.c). */
static int add_html(struct report *rep, const struct kmap_object *o,
		    const struct kmap_access *acc, size_t nacc,
		    uint64_t reads, uint64_t writes)
{
	return html_add(rep->html, o, acc, nacc, reads, writes, rep->objno);
}

static const struct dim html_dim = { "html", NULL, add_html, NULL, 0, 0, 0, NULL,
				     1 };

static const struct dim *find_dim(const char *name)
{
	const struct dim *d;

	for (d = dims; d->name; d++)
		if (!strcmp(d->name, name))
			return d;
	return NULL;
}

/* File the object held (dim->key), if any; -1 with a message. */
static int file_held(struct report *rep)
{
	if (!rep->holding)
		return 0;
	rep->holding = 0;
	if (rep->dim->add(rep, &rep->held, NULL, 0, rep->held_reads,
			  rep->held_writes)) {
		error("out of memory");
		return -1;
	}
	return 0;
}

/* File one object under its rows and the totals; -1 with a message. */
static int add_to_report(void *ctx, const struct kmap_object *o,
			 const struct kmap_access *acc, size_t nacc)
{
	struct report *rep = ctx;
	uint64_t reads = 0, writes = 0;
	size_t i;

	if (rep->dim->needs_kind && !(o->has & KMAP_HAS_KIND)) {
		error("%s: --by %s needs objects that name their cache: a binary stream, or a kmap_offsets whose object lines carry kind and cache (a kmap names none)",
		      rep->input, rep->dim->name);
		return -1;
	}
	for (i = 0; i < nacc; i++) {
		reads = kmap_add_sat(reads, acc[i].reads);
		writes = kmap_add_sat(writes, acc[i].writes);
	}
	add_totals(&rep->tot, o, nacc, reads, writes);
	if (rep->dim->key) {
		kmap_map_prefetch(&rep->index, rep->dim->key(o));
		if (file_held(rep))
			return -1;
		rep->held = *o;
		rep->held_reads = reads;
		rep->held_writes = writes;
		rep->holding = 1;
	} else if (rep->dim->add(rep, o, acc, nacc, reads, writes)) {
		error("out of memory");
		return -1;
	}
	rep->objno++;
	return 0;
}

/* Fill a table row with the cells of rows[r]; -1 when out of memory. */
static int add_row(struct report *rep, struct table *t,
		   const struct column **getters, size_t r)
{
	union cell *cell = table_row(t);
	int i;

	if (!cell)
		return -1;
	for (i = 0; i < t->ncols; i++) {
		getters[i]->get(rep, &rep->rows[r], &cell[i]);
		if (t->cols[i].type == COL_STR && !cell[i].s)
			return -1;
	}
	return 0;
}

#define ROW_AHEAD	8

/*
 * The rows in order, the first limit of them (all for 0): sorted by keys
 * made from the rows, and only those printed made into table rows. 1 when
 * the columns are names this cannot sort (the table then sorts).
 */
static int add_rows_sorted(struct report *rep, struct table *t,
			   const struct column **getters, int sc,
			   uint64_t limit)
{
	size_t r, m = limit && limit < rep->n ? limit : rep->n;
	struct table_key *k;
	int rc = 0;

	if (!table_can_key(&t->cols[sc]) || !table_can_key(&t->cols[0]) ||
	    t->cols[0].type == COL_F64)
		return 1;
	k = malloc((rep->n ? rep->n : 1) * sizeof(*k));
	if (!k)
		return -1;
	for (r = 0; r < rep->n; r++) {
		union cell a = { 0 }, b = { 0 };

		getters[sc]->get(rep, &rep->rows[r], &a);
		getters[0]->get(rep, &rep->rows[r], &b);
		k[r] = (struct table_key){ table_cell_key(&t->cols[sc], &a, 1),
					   table_cell_key(&t->cols[0], &b, 0), r };
	}
	table_sort_keys(k, rep->n, m);
	if (table_reserve(t, m)) {
		free(k);
		return -1;
	}
	for (r = 0; r < m && !rc; r++) {
		/*
		 * The rows in sorted order are all over the array: each
		 * missed the cache (much of a large report's time), so
		 * the row ROW_AHEAD on is fetched meanwhile.
		 */
		if (r + ROW_AHEAD < m) {
			const char *next = (const char *)&rep->rows[k[r + ROW_AHEAD].row];

			__builtin_prefetch(next);
			__builtin_prefetch(next + sizeof(struct row) - 1);
		}
		rc = add_row(rep, t, getters, k[r].row);
	}
	free(k);
	return rc;
}

/*
 * The table of rows: the dimension's columns (those that need what not
 * every input carries when the objects carry it), sorted, the first limit
 * rows (0: all). Returns 0, -1 (out of memory), -2 (no such column).
 */
static int make_table(struct report *rep, struct table *t, struct col *cols,
		      const struct column **getters, const char *sort,
		      uint64_t limit)
{
	int n = 0, i, sc, rc;
	const struct column *c;
	size_t r;

	for (c = rep->dim->cols; c->name; c++)
		if ((c->needs & rep->tot.has) == c->needs) {
			cols[n] = (struct col){ c->name, c->type != COL_IP ?
				(enum col_type)c->type : rep->sym ? COL_STR : COL_HEX };
			getters[n++] = c;
		}
	table_init(t, cols, n);
	sc = table_col(t, sort ? sort : rep->dim->sort);
	if (sc < 0) {
		error("--sort %s: no such column in this report; columns:", sort);
		for (i = 0; i < n; i++)
			fprintf(stderr, " %s", cols[i].name);
		fputc('\n', stderr);
		return -2;
	}
	rc = add_rows_sorted(rep, t, getters, sc, limit);
	if (rc <= 0)
		return rc;
	for (r = 0; r < rep->n; r++)
		if (add_row(rep, t, getters, r))
			return -1;
	table_sort(t, sc);
	return 0;
}

static void print_summary(const struct report *rep, struct kmap_src *src,
			  FILE *out)
{
	const struct totals *t = &rep->tot;
	int bin = kmap_src_format(src) == KMAP_FMT_BINARY;
	char life[64];

	fprintf(out, "%s: %s, %llu %s (%llu live), %llu %s", rep->input,
		bin ? "binary stream" : "text kmap", (unsigned long long)t->objects,
		plural(t->objects, "object", "objects"),
		(unsigned long long)t->live, (unsigned long long)t->bytes,
		plural(t->bytes, "byte", "bytes"));
	if (bin)
		fprintf(out, " requested, %llu allocated (%.1f%% waste)",
			(unsigned long long)t->bytes_alloc,
			100.0 * ratio(t->bytes_alloc - t->bytes, t->bytes_alloc));
	/* A sum stopped at UINT64_MAX (kmap_add_sat()) says so here. */
	fprintf(out, "\n  %llu access %s: %llu %s%s, %llu %s%s (%.2f, %.2f per byte)\n",
		(unsigned long long)t->lines, plural(t->lines, "line", "lines"),
		(unsigned long long)t->reads, plural(t->reads, "read", "reads"),
		t->reads == UINT64_MAX ? " (saturated)" : "",
		(unsigned long long)t->writes, plural(t->writes, "write", "writes"),
		t->writes == UINT64_MAX ? " (saturated)" : "",
		ratio(t->reads, t->bytes), ratio(t->writes, t->bytes));
	/* The fork's kmap orders objects by its own index, not jiffies. */
	if (t->life_n)
		snprintf(life, sizeof(life), "average lifetime %.2f %s",
			 mean(t->life_sum, t->life_n),
			 t->has & KMAP_HAS_FORK ? "index steps" :
			 "jiffies");
	else
		snprintf(life, sizeof(life), "no object freed");
	fprintf(out, "  never read: %llu %s, never written: %llu, missed frees: %llu, %s\n",
		(unsigned long long)t->never_read,
		plural(t->never_read, "object", "objects"),
		(unsigned long long)t->never_written,
		(unsigned long long)t->missed, life);
	if (bin)
		fprintf(out, "  cross-CPU frees: %llu, mismatched frees: %llu, lost records: %llu, objects allocated before the stream: %llu\n",
			(unsigned long long)t->cross_cpu,
			(unsigned long long)t->mismatch,
			(unsigned long long)kmap_src_lost(src),
			(unsigned long long)kmap_src_orphans(src));
	fputc('\n', out);
}

struct json_object *report_summary_json(const struct totals *t,
					struct kmap_src *src)
{
	struct json_object *s = json_object_new_object();
	const struct { const char *key; uint64_t v; } figures[] = {
		{ "objects", t->objects }, { "live", t->live },
		{ "bytes", t->bytes }, { "bytes_alloc", t->bytes_alloc },
		{ "access_lines", t->lines }, { "reads", t->reads },
		{ "writes", t->writes }, { "never_read", t->never_read },
		{ "never_written", t->never_written },
		{ "missed_free", t->missed }, { "cross_cpu", t->cross_cpu },
		{ "mismatched_free", t->mismatch },
		{ "lost_records", kmap_src_lost(src) },
		{ "allocated_before_stream", kmap_src_orphans(src) },
	};
	size_t i;

	if (!s)
		return NULL;
	for (i = 0; i < sizeof(figures) / sizeof(figures[0]); i++)
		json_object_object_add(s, figures[i].key,
				       json_object_new_uint64(figures[i].v));
	json_object_object_add(s, "avg_lifetime",
			       json_figure(mean(t->life_sum, t->life_n)));
	return s;
}

/* The JSON head: by, input, format, summary. NULL when out of memory. */
static struct json_object *json_head(const struct report *rep,
				     struct kmap_src *src)
{
	struct json_object *h = json_object_new_object();
	struct json_object *s = report_summary_json(&rep->tot, src);

	if (!h || !s) {
		json_object_put(h);
		json_object_put(s);
		return NULL;
	}
	json_object_object_add(h, "by", json_object_new_string(rep->dim->name));
	json_object_object_add(h, "input", json_bytes(rep->input));
	json_object_object_add(h, "format", json_object_new_string(
		kmap_src_format(src) == KMAP_FMT_TEXT ? "text" : "binary"));
	json_object_object_add(h, "summary", s);
	return h;
}

static int print_report(struct report *rep, struct kmap_src *src, FILE *out,
			enum table_fmt fmt, uint64_t limit, const char *sort)
{
	struct col cols[32];
	const struct column *getters[32];
	struct json_object *head = NULL;
	struct table t;
	int rc = make_table(rep, &t, cols, getters, sort, limit);

	if (rc == -1)
		error("out of memory");
	if (!rc && fmt == FMT_TEXT)
		print_summary(rep, src, out);
	if (!rc && fmt == FMT_JSON && !(head = json_head(rep, src)))
		rc = -1;
	if (!rc && table_print(&t, out, fmt, limit, head))
		rc = -1;
	if (rc == -1 && head)
		error("out of memory");
	json_object_put(head);
	table_free(&t);
	return rc;
}

static const struct dim *by;		/* NULL: not given, callsite */
static const char *sort, *output, *stats, *vmlinux, *system_map, *btf;
static uint64_t limit, objects;		/* 0: not given */
static unsigned int formats;
static int html;

static int by_cb(const struct opt *opt, const char *arg)
{
	const struct dim **d = opt->value;

	*d = find_dim(arg);
	if (!*d) {
		error("--by %s: not callsite, cache, kind, function, pid or object",
		      arg);
		return -1;
	}
	return 0;
}

static int limit_cb(const struct opt *opt, const char *arg)
{
	uint64_t *v = opt->value;

	if (parse_u64_arg("-n", arg, v))
		return -1;
	if (!*v) {
		error("-n 0: no rows to print (leave -n out for all)");
		return -1;
	}
	return 0;
}

static int objects_cb(const struct opt *opt, const char *arg)
{
	uint64_t *v = opt->value;

	if (parse_u64_arg("--objects", arg, v))
		return -1;
	if (!*v || *v > HTML_OBJECTS_MAX) {
		error("--objects %s: from 1 to %d objects per call site",
		      arg, HTML_OBJECTS_MAX);
		return -1;
	}
	return 0;
}

static const struct opt opts[] = {
	OPT_CALLBACK_VALUES('b', "by", &by, "KEY", "Group by callsite (the default), cache, kind, function, pid or object.", by_cb,
			    "callsite cache kind function pid object"),
	OPT_STRING('s', "sort", &sort, "COLUMN", "Sort by this column: descending for numbers, ascending for names. Default: bytes (callsite, cache, kind, pid), accesses (function), size (object)."),
	OPT_CALLBACK('n', "limit", &limit, "N", "Print the first N rows only (N >= 1).", limit_cb),
	OPT__CSV(&formats, "Comma-separated values: a header line of column names, then one line per row; no summary."),
	OPT__JSON(&formats, "One JSON object: \"by\", \"input\", \"format\", \"summary\" (the totals), \"columns\" and \"rows\" (one object per row, keyed by column name)."),
	OPT_BOOLEAN(0, "html", &html, "One self-contained HTML page (no network needed) with every view: summary, allocation icicle, capability map, compartments, object explorer, lifetimes. Give -o FILE; function_calls files may follow FILE."),
	OPT_STRING(0, "stats", &stats, "FILE", "With --html: the collection's figures, a copy of debugfs memorizer/stats (\"key value\" lines), shown in the summary."),
	OPT_CALLBACK(0, "objects", &objects, "N", "With --html: the explorer's objects per call site, those with the most accesses (default 20; 20000 in all at most).", objects_cb),
	OPT__VMLINUX(&vmlinux, "Name ips as function+offset (and file:line when the vmlinux has DWARF)."),
	OPT__SYSTEM_MAP(&system_map, "Name ips from a System.map or /proc/kallsyms."),
	OPT__BTF(&btf, "With --html: struct types from this BTF instead of --vmlinux's DWARF, as memorizer capmap --btf takes them (make stock leaves Debian's kernel's in out/stock/vmlinux.btf)."),
	OPT__OUTPUT(&output, OPT_OUTPUT_HELP),
	OPT_END(),
};

/*
 * --html: the call edges of the input (a stream's CALL records) and of
 * each function_calls file after it, for the compartments view. 0, or -1
 * with a message.
 */
static int read_calls(struct html *h, struct kmap_src *src, int argc,
		      char **argv)
{
	char err[KMAP_ERR_MAX];
	int i, rc = 0;

	if (html_calls(h, kmap_src_calls(src))) {
		error("out of memory");
		return -1;
	}
	for (i = 0; !rc && i < argc; i++) {
		struct kmap_src *c = open_input(argv[i], err);

		if (!c) {
			error("%s", err);
			return -1;
		}
		if (kmap_src_format(c) != KMAP_FMT_CALLS) {
			error("%s: not a function_calls file: --html reads one kmap or stream, then function_calls files",
			      kmap_src_name(c));
			rc = -1;
		} else if (!(rc = read_objects(c, NULL, NULL)) &&
			   html_calls(h, kmap_src_calls(c))) {
			error("out of memory");
			rc = -1;
		}
		kmap_src_close(c);
	}
	return rc;
}

int cmd_report(int argc, char **argv)
{
	enum table_fmt fmt = formats & FORMAT_JSON ? FMT_JSON :
			     formats & FORMAT_CSV ? FMT_CSV : FMT_TEXT;
	struct html_opts hopts = {
		.per_site = objects ? objects : HTML_PER_SITE,
		.stats = stats,
	};
	struct report rep = { .dim = by ? by : dims };
	struct kmap_src *src = NULL;
	char err[KMAP_ERR_MAX];
	struct output out;
	int rc = -1, failed;

#ifdef M_TRIM_THRESHOLD
	/*
	 * Memory freed (the source's, after reading; a map's old slots as
	 * it grows) is taken again, from the heap, rather than given back
	 * and faulted in anew: page faults were much of a report of a
	 * stream. Arrays of more than 4 MiB (the rows, the table's cells)
	 * are mapped apart, and grow by remapping, not copying: with
	 * glibc's greatest threshold the cells found the heap too cut up
	 * to hold them and faulted more.
	 */
	mallopt(M_MMAP_THRESHOLD, 4 << 20);
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
	if (formats == (FORMAT_CSV | FORMAT_JSON)) {
		error("--csv or --json, not both");
		return 2;
	}
	if (html && formats) {
		error("--html, --csv or --json: one format at a time");
		return 2;
	}
	if (html && (by || sort || limit)) {
		error("--by, --sort and -n shape the table; --html shows every view");
		return 2;
	}
	if (html && (!output || !strcmp(output, "-")) && isatty(1)) {
		error("--html writes a page: give -o FILE");
		return 2;
	}
	if (!html && (stats || objects || btf)) {
		error("--stats, --objects and --btf are for --html");
		return 2;
	}
	if (argc != 1 && !(html && argc > 1)) {
		error(argc ? "one file at a time (with --html, a kmap or stream and function_calls files)" :
		      "which file?");
		cmd_usage(&cmd_report_desc, stderr);
		return 2;
	}
	rep.sym = open_symbols(vmlinux, system_map, &failed);
	if (failed)
		return 2;
	if (html) {
		hopts.symbols = vmlinux ? vmlinux : system_map;
		hopts.vmlinux = vmlinux;
		hopts.btf = btf;
		rep.dim = &html_dim;
		rep.html = html_new(&hopts, rep.sym);
		if (!rep.html)
			goto out;
	}
	if (rep.dim->needs_symbols && !rep.sym) {
		error("--by %s names the functions of access ips: give --vmlinux FILE or --system-map FILE (/proc/kallsyms in the guest)",
		      rep.dim->name);
		rc = -2;
		goto out;
	}
	if (output_open(&out, output, argv, 1))
		goto out;
	src = open_input(argv[0], err);
	if (!src) {
		error("%s", err);
		goto out_close;
	}
	rep.input = kmap_src_name(src);
	if (!rep.dim->ordered)
		kmap_src_any_order(src);
	rc = read_objects(src, add_to_report, &rep);
	if (!rc)
		rc = file_held(&rep);
	kmap_src_release(src);		/* its memory: the table's now */
	if (!rc && html)
		rc = read_calls(rep.html, src, argc - 1, argv + 1);
	if (!rc && html)
		rc = html_write(rep.html, &rep.tot, src, out.f);
	else if (!rc)
		rc = print_report(&rep, src, out.f, fmt, limit, sort);
out_close:
	if (output_close(&out, !rc) && !rc)
		rc = -1;
out:
	kmap_src_close(src);
	kmap_sym_close(rep.sym);
	html_free(rep.html);
	kmap_map_free(&rep.index);
	free(rep.rows);
	free(rep.about);
	return rc == -2 ? 2 : rc < 0 ? 1 : 0;
}

const struct cmd cmd_report_desc = {
	.name = "report",
	.summary = "summarize a kmap or stream per call site, cache, kind, function, pid or object",
	.synopsis = "FILE [--by callsite|cache|kind|function|pid|object] [--sort COLUMN] [-n N] [--csv|--json|--html [--stats FILE] [--objects N] [--btf FILE] [CALLS...]] [--vmlinux FILE|--system-map FILE] [-o FILE]",
	.description =
"Reads FILE (- for standard input), a text kmap or a binary stream "
"(optionally zstd-compressed), through libkmap, and prints totals and one "
"row per group: the summaries of kmemtrace-report and perf kmem stat, and "
"a per-allocation-site view like DHAT's. Memory grows with the number of "
"groups, not with the input.\n"
"\n"
"Columns, stable for scripts (CSV header and JSON keys are these names; "
"lifetimes are in jiffies, in a Memorizer fork's kmap in steps of its "
"alloc_index and free_index; per-byte figures are counts divided by bytes "
"requested, printed in CSV and JSON in full, rounded to two decimals in "
"the table):\n"
"\n"
"  --by callsite: callsite objects live bytes [bytes_alloc waste]\n"
"    avg_lifetime reads writes reads_per_byte writes_per_byte never_read\n"
"    never_written missed_free [cross_cpu mismatched_free]\n"
"  --by cache: as callsite, with cache first (binary streams and\n"
"    kmap_offsets whose object lines name kind and cache)\n"
"  --by kind: as callsite, with kind first\n"
"  --by function: function accesses reads writes sites objects bytes\n"
"  --by pid: pid comm objects bytes reads writes objects_accessed\n"
"  --by object: object addr callsite pid comm size [size_alloc cache]\n"
"    alloc_jiffies free_jiffies reads writes sites\n"
"\n"
"Bracketed columns come only from inputs that carry them: text kmaps "
"carry no allocated size, CPU or free function (bytes_alloc, waste, "
"size_alloc, cross_cpu and mismatched_free are binary streams'), and "
"only a kmap_offsets whose object lines have 10 fields names each "
"object's allocator kind and slab cache (cache); a kmap's object lines "
"name neither. waste is "
"bytes_alloc - bytes (internal fragmentation); avg_lifetime is over the "
"freed objects, and has no value (- in the table, empty in CSV, null in "
"JSON) where none was freed; cross_cpu counts objects "
"freed on another CPU than the one that allocated them; mismatched_free "
"counts objects freed by another API than their allocator's (a "
"kmem_cache_alloc freed by kfree; a stack is freed with its pages, a "
"per-CPU area by free_percpu, a module's global by its unload); "
"missed_free counts frees Memorizer did "
"not see (free_ip deadbeef); never_read and never_written count objects "
"without a single read or write. In --by kind, kind is the allocator "
"kind: kmalloc, kmem_cache, kmalloc_large, vmalloc, pages, global (a "
"kernel or module data symbol), percpu (one CPU's copy of a per-CPU "
"variable or of an alloc_percpu() area) or stack (a task's stack or a "
"CPU's IRQ stack); globals and per-CPU objects are found when first "
"accessed, the kernel's globals and per-CPU variables never freed (a "
"module's globals are when it is unloaded, from stream version 4, and "
"alloc_percpu() areas by free_percpu(): live and the lifetimes count "
"them as any freed object), and "
"from stream version 3 stacks, slab objects and pages no allocation of "
"which was seen are found too. A kmap_offsets of 10-field object lines "
"names each object's kind; a kmap (or an older kmap_offsets) names no "
"allocator, so there an object with pid 0 and its own address as "
"alloc_ip is global, percpu or stack when its executable is global, "
"percpu or irq_stack, and any other object (unseen and page ones among "
"them: their executable does not say the kind) is unknown. In --by pid, "
"objects and bytes are what "
"the pid allocated, reads, writes and objects_accessed what it accessed, "
"comm its newest command (a pid that called exec had two). "
"In --by function, accesses are reads + writes by the function's "
"instructions, sites its distinct (ip, pid) counters. In --by object, "
"object is the stream's object id (a text kmap has none: there, the "
"object's number in the file, from 1). callsite and "
"function are function+offset with symbols, hexadecimal without.\n"
"\n"
"The JSON summary has the totals of the table's summary lines: objects, "
"live, bytes, bytes_alloc, access_lines, reads, writes, never_read, "
"never_written, missed_free, cross_cpu, mismatched_free, lost_records, "
"allocated_before_stream and avg_lifetime; input is FILE as messages "
"name it (<stdin> for -).\n"
"\n"
"--html writes one HTML page that works offline from file://: the data "
"(aggregated here, not the access lines) and its code (d3, inlined when "
"memorizer was built) are in the file. Views: a summary (the totals, per "
"kind, and --stats' figures), an icicle of the allocations by kind, "
"cache, function and call site (sized by bytes or objects), the "
"capability heatmap (memorizer capmap's), an object explorer (search by "
"call site, cache, struct type, address or task; per object its "
"lifetime, the functions that touched it, reads and writes apart, and "
"the bytes each touched, from a kmap_offsets or a version 5 stream; "
"with --vmlinux's DWARF, file:line, and with it or --btf's BTF the "
"object's struct type as "
"memorizer capmap --cols type finds it, and the member each access ip's "
"bytes are), lifetime histograms per "
"call site and compartments (below); a sortable table of exact figures "
"under each. The explorer "
"holds, per call site, the --objects N objects with the most accesses "
"(20000 in all, the first of each call site first) and each object's "
"16 busiest access ips; the icicle and tables the 5000 call sites of most "
"bytes (the others summed per kind); the page says how much it holds. "
"Open it in a browser: xdg-open report.html.\n"
"\n"
"The compartments view is memorizer compartments --sweep over the same "
"objects, with code units the functions (it needs --system-map or "
"--vmlinux; without, the page says so) and data units the call sites: "
"20 design points (as --points 20), reduction against crossings, a dot "
"each, labelled with its number of compartments; select one (click, or "
"Tab and Enter) for its compartments, each named by its first function "
"by name, with its functions and the call sites it may touch, their "
"rights r, w, f (the first 50 of each, by name), and its crossing calls "
"in and out. The page holds the compartments of the design points of at "
"most 16 compartments. Calls come from FILE when it is a stream with "
"CALL records, and from the function_calls files (CALLS: debugfs "
"memorizer/function_calls, or the public Memorizer fork's) given after "
"FILE; without any, no call crosses.",
	.opts = opts,
	.files_desc = "kmap",
	.examples =
"  $ memorizer report tar.kmap --system-map out/System.map -n 5\n"
"  $ memorizer report tar.kmap --by pid --csv > pids.csv\n"
"  $ memorizer report stream.bin --by cache --sort waste --json\n"
"  $ memorizer report tar.kmap --html --system-map out/System.map -o report.html\n"
"  $ memorizer report tar.kmap function_calls --html --system-map out/System.map -o report.html",
	.run = cmd_report,
};
