// SPDX-License-Identifier: GPL-2.0
/*
 * memorizer crosscheck: Memorizer's per-ip read and write counts against
 * the emulator's, from one run: a kmap or binary stream and an mtrace log
 * of mode all (vm/run --mtrace FILE --mtrace-mode all). The project's
 * independent check that Memorizer's counts are true.
 *
 * The rule (tools/qemu-plugin/README.md, "The cross-check"):
 *  - time: the log's accesses count within its window only, the host time
 *    from its first SWITCH record (mtrace_task.ko loaded: loaded just
 *    before Memorizer traces) to its last "tracking ended" one
 *    (mtrace_task.ko unloaded, just after): the two clocks are never
 *    compared, only records within the log;
 *  - space: an object's [addr, addr + size) is not attributed per
 *    lifetime: objects of the kmap whose ranges overlap (an address
 *    reused during the run) form one group, compared as one (their counts
 *    summed); an object alone in its range is compared by itself.
 * A log access belongs to the group whose range holds its vaddr; per
 * (group, ip) the two sides' reads and writes are compared.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "mtrace_log.h"
#include "table.h"

enum view { BY_KIND, BY_CALLSITE, BY_OBJECT, BY_IP };
#define MIXED		(-2)		/* a group's kind or call site: several */

/* Classes of a (group, ip) pair. */
enum cls {
	C_AGREE,		/* both, same reads and writes */
	C_SHIFTED,		/* the same, at the access after KASAN's ip */
	C_DIFFER,		/* both, not the same */
	C_MEM_ONLY,		/* Memorizer only: no log access at the ip */
	C_LOG_ASM,		/* log only, in assembly (string, user copy, entry) */
	C_LOG_TOOL,		/* log only, in KASAN's or Memorizer's own code */
	C_LOG_OTHER,		/* log only, elsewhere (noinstr, not instrumented) */
	NR_CLS,
};
static const char *const cls_name[NR_CLS] = {
	"agree", "agree-shifted", "differ", "memorizer-only", "log-only-asm",
	"log-only-kasan-memorizer", "log-only-other",
};

struct obj {
	uint64_t addr, end, alloc_ip;
	int kind, found;
	size_t acc, nacc;		/* into st->acc */
};

struct macc {
	uint64_t ip, reads, writes;
};

struct group {
	uint64_t lo, hi;
	uint64_t alloc_ip;		/* MIXED's: several */
	int kind;			/* MIXED: several */
	int found, mixed_site, selected;
	size_t nobj;
};

struct cellc {
	uint32_t group, ip;		/* ip: index into st->ips */
	uint8_t shifted;		/* the log's counts are a later ip's */
	uint8_t merged;			/* into an earlier ip's (shifted) */
	uint64_t mr, mw, lr, lw;
};

struct state {
	struct obj *objs;
	size_t nobjs, ocap;
	struct macc *acc;
	size_t nacc, acap;
	struct group *groups;
	size_t ngroups, gcap;
	struct kmap_map ipmap;		/* ip -> index */
	uint64_t *ips;
	size_t nips, ipcap;
	struct kmap_map cellmap;	/* group << 32 | ip index -> cell */
	struct cellc *cells;
	size_t ncells, ccap;
	struct kmap_sym *sym;
	char **sites;			/* --call-site */
	size_t nsites;
	struct kmap_map pids;		/* tasks Memorizer recorded accesses of */
	int all_tasks;
	/* The log's windows: [win[2i], win[2i + 1]] in host ns. */
	uint64_t *win;
	size_t nwin, wcap;
	int windowed, have_end;
	uint64_t log_accesses, in_window, in_objects, other_tasks;
};

static int obj_cmp(const void *a, const void *b)
{
	const struct obj *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

static int add_object(void *ctx, const struct kmap_object *o,
		      const struct kmap_access *a, size_t n)
{
	struct state *st = ctx;
	struct obj *ob;
	size_t i;

	if (kmap_grow((void **)&st->objs, &st->ocap, st->nobjs + 1,
		      sizeof(*st->objs)) ||
	    kmap_grow((void **)&st->acc, &st->acap, st->nacc + n + 1,
		      sizeof(*st->acc))) {
		error("out of memory");
		return -1;
	}
	ob = &st->objs[st->nobjs++];
	ob->addr = o->addr;
	ob->end = o->addr + (o->size ? o->size : 1);
	if (ob->end < ob->addr)
		ob->end = UINT64_MAX;
	ob->alloc_ip = o->alloc_ip;
	ob->kind = kmap_object_kind(o);
	ob->found = kmap_object_found(o);
	ob->acc = st->nacc;
	ob->nacc = n;
	for (i = 0; i < n; i++) {
		if (a[i].pid && !kmap_map_get(&st->pids, a[i].pid, NULL)) {
			error("out of memory");
			return -1;
		}
		st->acc[st->nacc].ip = a[i].ip;
		st->acc[st->nacc].reads = a[i].reads;
		st->acc[st->nacc++].writes = a[i].writes;
	}
	return 0;
}

/* Whether --call-site selects an object allocated at ip (all without one). */
static int site_selected(struct state *st, uint64_t ip, int found)
{
	const char *fn = NULL;
	uint64_t start, v;
	size_t i;

	if (!st->nsites)
		return 1;
	if (st->sym && !found)
		fn = kmap_sym_function(st->sym, ip, &start);
	for (i = 0; i < st->nsites; i++) {
		const char *s = st->sites[i];

		if (fn && !fnmatch(s, fn, 0))
			return 1;
		if (!kmap_parse_hex(s, strlen(s), &v) && v == ip)
			return 1;
	}
	return 0;
}

static int cell_of(struct state *st, size_t group, uint64_t ip,
		   struct cellc **c)
{
	size_t ipi, ci;
	int is_new;

	if (kmap_intern(&st->ipmap, ip, (void **)&st->ips, &st->nips,
			&st->ipcap, sizeof(*st->ips), &ipi, &is_new))
		return -1;
	if (is_new)
		st->ips[ipi] = ip;
	if (kmap_intern(&st->cellmap, (uint64_t)group << 32 | ipi,
			(void **)&st->cells, &st->ncells, &st->ccap,
			sizeof(*st->cells), &ci, &is_new))
		return -1;
	*c = &st->cells[ci];
	if (is_new) {
		memset(*c, 0, sizeof(**c));
		(*c)->group = (uint32_t)group;
		(*c)->ip = (uint32_t)ipi;
	}
	return 0;
}

/*
 * Objects whose ranges overlap form one group (sorted by address, a group
 * ends where no object reaches); Memorizer's counts per (group, ip).
 */
static int make_groups(struct state *st)
{
	size_t i, k;

	if (st->nobjs)
		qsort(st->objs, st->nobjs, sizeof(*st->objs), obj_cmp);
	for (i = 0; i < st->nobjs; i++) {
		const struct obj *o = &st->objs[i];
		struct group *g = st->ngroups ? &st->groups[st->ngroups - 1] : NULL;
		int sel = site_selected(st, o->alloc_ip, o->found);

		if (g && o->addr < g->hi) {
			if (o->end > g->hi)
				g->hi = o->end;
			if (g->kind != o->kind)
				g->kind = MIXED;
			if (g->alloc_ip != o->alloc_ip)
				g->mixed_site = 1;
			g->found &= o->found;
			g->selected |= sel;
			g->nobj++;
		} else {
			if (st->ngroups >= UINT32_MAX ||
			    kmap_grow((void **)&st->groups, &st->gcap,
				      st->ngroups + 1, sizeof(*st->groups)))
				goto oom;
			g = &st->groups[st->ngroups++];
			g->lo = o->addr;
			g->hi = o->end;
			g->alloc_ip = o->alloc_ip;
			g->kind = o->kind;
			g->found = o->found;
			g->mixed_site = 0;
			g->selected = sel;
			g->nobj = 1;
		}
	}
	/* Memorizer's counts, by (group, ip), of the selected groups. */
	for (i = 0, k = 0; i < st->nobjs; i++) {
		const struct obj *o = &st->objs[i];
		size_t j;

		while (o->addr >= st->groups[k].hi)
			k++;
		if (!st->groups[k].selected)
			continue;
		for (j = 0; j < o->nacc; j++) {
			const struct macc *a = &st->acc[o->acc + j];
			struct cellc *c;

			if (cell_of(st, k, a->ip, &c))
				goto oom;
			c->mr = kmap_add_sat(c->mr, a->reads);
			c->mw = kmap_add_sat(c->mw, a->writes);
		}
	}
	return 0;
oom:
	error("out of memory");
	return -1;
}

static struct kmap_mtrace_reader *open_log(const char *path,
					   struct kmap_src **src)
{
	char err[KMAP_ERR_MAX];

	*src = open_input(path, err);
	if (!*src) {
		error("%s", err);
		return NULL;
	}
	if (!kmap_src_mtrace(*src)) {
		error("%s: not an mtrace log (vm/run --mtrace writes one)",
		      kmap_src_name(*src));
		kmap_src_close(*src);
		*src = NULL;
		return NULL;
	}
	return kmap_src_mtrace(*src);
}

struct sw {
	uint64_t ns;
	int end;
};

static int sw_cmp(const void *a, const void *b)
{
	const struct sw *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? -1 : 1;
	return x->end - y->end;
}

/*
 * Pass 1: the windows. mtrace_task.ko opens one with a BASE marker and
 * every CPU's task (SWITCH records of a known task) and closes it with an
 * END marker (a SWITCH of no task): a window runs from the first SWITCH
 * of a known task after an END (or the log's start) to the next END, or
 * the log's end. Host times within the log; its records are in order per
 * vCPU only, so the SWITCH records are sorted by time first.
 */
static int find_window(struct state *st, const char *path)
{
	struct kmap_mtrace_rec rec;
	struct kmap_src *src;
	struct kmap_mtrace_reader *r = open_log(path, &src);
	struct sw *sw = NULL;
	size_t nsw = 0, cap = 0, i;
	int rc, open = 0;

	if (!r)
		return -1;
	if (kmap_mtrace_read_header(r) < 0) {
		error("%s", kmap_mtrace_error(r));
		kmap_src_close(src);
		return -1;
	}
	if (kmap_mtrace_header(r)->mode != MTRACE_MODE_ALL) {
		error("%s: a log of mode sharing holds only the accesses that moved lines: the cross-check needs mode all (vm/run --mtrace-mode all)",
		      kmap_src_name(src));
		kmap_src_close(src);
		return -1;
	}
	while ((rc = kmap_mtrace_next(r, &rec)) > 0) {
		if (rec.type != MTRACE_REC_SWITCH || !st->windowed)
			continue;
		if (kmap_grow((void **)&sw, &cap, nsw + 1, sizeof(*sw))) {
			error("out of memory");
			rc = -2;
			break;
		}
		sw[nsw].ns = rec.ns;
		sw[nsw++].end = rec.u.sw.pid == MTRACE_PID_UNKNOWN;
	}
	if (rc == -1)
		error("%s", kmap_mtrace_error(r));
	kmap_src_close(src);
	if (rc < 0) {
		free(sw);
		return -1;
	}
	if (nsw)
		qsort(sw, nsw, sizeof(*sw), sw_cmp);
	for (i = 0; i < nsw; i++) {
		if (sw[i].end == open) {
			if (kmap_grow((void **)&st->win, &st->wcap, st->nwin + 1,
				      sizeof(*st->win))) {
				error("out of memory");
				free(sw);
				return -1;
			}
			st->win[st->nwin++] = sw[i].ns;
			open = !open;
			st->have_end |= sw[i].end;
		}
	}
	free(sw);
	if (open) {			/* no END: to the log's end */
		if (kmap_grow((void **)&st->win, &st->wcap, st->nwin + 1,
			      sizeof(*st->win))) {
			error("out of memory");
			return -1;
		}
		st->win[st->nwin++] = UINT64_MAX;
		st->have_end = 0;
	}
	if (!st->nwin)
		st->windowed = 0;
	return 0;
}

/* The windows' time, the last one's to its last record if open. */
static uint64_t window_ns(const struct state *st)
{
	uint64_t t = 0;
	size_t i;

	for (i = 0; i + 1 < st->nwin; i += 2)
		if (st->win[i + 1] != UINT64_MAX)
			t += st->win[i + 1] - st->win[i];
	return t;
}

/* Whether ns is in a window. */
static int in_window(const struct state *st, uint64_t ns)
{
	size_t a = 0, b = st->nwin;

	while (a < b) {			/* the first bound past ns */
		size_t m = a + (b - a) / 2;

		if (st->win[m] <= ns)
			a = m + 1;
		else
			b = m;
	}
	/* Odd: ns is past an opening; or on a closing bound itself. */
	return (a & 1) || (a && st->win[a - 1] == ns);
}

/* The group holding vaddr, or -1. */
static long group_at(const struct state *st, uint64_t vaddr)
{
	size_t a = 0, b = st->ngroups;

	while (a < b) {			/* the first group starting past vaddr */
		size_t m = a + (b - a) / 2;

		if (st->groups[m].lo <= vaddr)
			a = m + 1;
		else
			b = m;
	}
	if (!a || vaddr >= st->groups[a - 1].hi)
		return -1;
	return (long)(a - 1);
}

/* Pass 2: the log's accesses, by (group, ip), within the window. */
static int count_log(struct state *st, const char *path)
{
	struct kmap_mtrace_rec rec;
	struct kmap_src *src;
	struct kmap_mtrace_reader *r = open_log(path, &src);
	int rc;

	if (!r)
		return -1;
	while ((rc = kmap_mtrace_next(r, &rec)) > 0) {
		struct cellc *c;
		long g;

		if (rec.type != MTRACE_REC_ACCESS)
			continue;
		st->log_accesses++;
		if (st->windowed && !in_window(st, rec.ns))
			continue;
		st->in_window++;
		g = group_at(st, rec.u.access.vaddr);
		if (g < 0 || !st->groups[g].selected)
			continue;
		if (!st->all_tasks && !kmap_map_find(&st->pids, rec.u.access.pid)) {
			st->other_tasks++;
			continue;
		}
		st->in_objects++;
		if (cell_of(st, (size_t)g, rec.u.access.ip, &c)) {
			error("out of memory");
			kmap_src_close(src);
			return -1;
		}
		if (rec.u.access.flags & MTRACE_F_WRITE)
			c->lw++;
		else
			c->lr++;
	}
	if (rc < 0)
		error("%s", kmap_mtrace_error(r));
	kmap_src_close(src);
	return rc < 0 ? -1 : 0;
}

/* Functions KASAN does not instrument: assembly the kernel copies with. */
static const char *const asm_funcs[] = {
	"memcpy", "memset", "memmove", "__memcpy", "__memset", "__memmove",
	"memcpy_orig", "memset_orig", "memcpy_erms", "memset_erms",
	"rep_movs_alternative", "rep_stos_alternative", "copy_user_generic*",
	"__copy_user*", "copy_mc_*", "clear_page*", "copy_page*",
	"__get_user_*", "__put_user_*", "csum_partial*", "entry_*",
	"__switch_to_asm", "ret_from_fork*", "native_*", "*_thunk*",
	"__x86_*", "asm_*", "memcmp", "bcmp", "strlen", "__sw_hweight*",
	NULL,
};
static const char *const tool_funcs[] = {
	"kasan_*", "__kasan_*", "__asan_*", "check_region*", "memorizer*",
	"__memorizer*", NULL,
};

static int matches(const char *const *pats, const char *fn)
{
	for (; *pats; pats++)
		if (!fnmatch(*pats, fn, 0))
			return 1;
	return 0;
}

static enum cls classify(struct state *st, const struct cellc *c)
{
	const char *fn;
	uint64_t start;

	if (kmap_add_sat(c->mr, c->mw) && kmap_add_sat(c->lr, c->lw))
		return c->mr == c->lr && c->mw == c->lw ?
		       (c->shifted ? C_SHIFTED : C_AGREE) : C_DIFFER;
	if (kmap_add_sat(c->mr, c->mw))
		return C_MEM_ONLY;
	fn = st->sym ? kmap_sym_function(st->sym, st->ips[c->ip], &start) : NULL;
	if (fn && matches(tool_funcs, fn))
		return C_LOG_TOOL;
	if (fn && matches(asm_funcs, fn))
		return C_LOG_ASM;
	return C_LOG_OTHER;
}

static void describe(struct state *st, uint64_t ip, char *out, size_t len)
{
	if (!st->sym || !kmap_sym_describe(st->sym, ip, out, len))
		snprintf(out, len, "%llx", (unsigned long long)ip);
}

/* A group's call site: its function, "[kind]" if found, "[several]". */
static void site_name(struct state *st, const struct group *g, char *out,
		      size_t len)
{
	if (g->mixed_site)
		snprintf(out, len, "[several]");
	else if (g->found)
		snprintf(out, len, "[%s]", kmap_kind_name(g->kind));
	else
		describe(st, g->alloc_ip, out, len);
}

static const char *group_kind(const struct group *g)
{
	return g->kind == MIXED ? "[several]" : kmap_kind_name(g->kind);
}

/* The figures of a row of the kind, callsite and object views. */
struct fig {
	uint64_t objects, groups, reused, mr, mw, lr, lw, agree;
	uint64_t pairs[NR_CLS], log_only[NR_CLS];
};

static const struct col sum_cols[] = {
	{ "objects", COL_U64 }, { "groups", COL_U64 },
	{ "mem_accesses", COL_U64 }, { "log_accesses", COL_U64 },
	{ "mem_reads", COL_U64 }, { "mem_writes", COL_U64 },
	{ "log_reads", COL_U64 }, { "log_writes", COL_U64 },
	{ "agreeing", COL_U64 }, { "mem_agree_pct", COL_F64 },
	{ "log_agree_pct", COL_F64 },
	{ "ips_agree", COL_U64 }, { "ips_shifted", COL_U64 },
	{ "ips_differ", COL_U64 },
	{ "ips_mem_only", COL_U64 }, { "ips_log_only", COL_U64 },
	{ "log_only_asm", COL_U64 }, { "log_only_kasan_memorizer", COL_U64 },
	{ "log_only_other", COL_U64 },
};
#define NSUM	(sizeof(sum_cols) / sizeof(sum_cols[0]))

static void fill_fig(union cell *r, const struct fig *f)
{
	uint64_t m = kmap_add_sat(f->mr, f->mw), l = kmap_add_sat(f->lr, f->lw);

	r[0].u = f->objects;
	r[1].u = f->groups;
	r[2].u = m;
	r[3].u = l;
	r[4].u = f->mr;
	r[5].u = f->mw;
	r[6].u = f->lr;
	r[7].u = f->lw;
	r[8].u = f->agree;
	r[9].f = m ? 100.0 * (double)f->agree / (double)m : CELL_NONE;
	r[10].f = l ? 100.0 * (double)f->agree / (double)l : CELL_NONE;
	r[11].u = f->pairs[C_AGREE];
	r[12].u = f->pairs[C_SHIFTED];
	r[13].u = f->pairs[C_DIFFER];
	r[14].u = f->pairs[C_MEM_ONLY];
	r[15].u = f->pairs[C_LOG_ASM] + f->pairs[C_LOG_TOOL] +
		  f->pairs[C_LOG_OTHER];
	r[16].u = f->log_only[C_LOG_ASM];
	r[17].u = f->log_only[C_LOG_TOOL];
	r[18].u = f->log_only[C_LOG_OTHER];
}

static void add_cell(struct fig *f, const struct cellc *c, enum cls k)
{
	f->mr = kmap_add_sat(f->mr, c->mr);
	f->mw = kmap_add_sat(f->mw, c->mw);
	f->lr = kmap_add_sat(f->lr, c->lr);
	f->lw = kmap_add_sat(f->lw, c->lw);
	f->pairs[k]++;
	if (k == C_AGREE || k == C_SHIFTED)
		f->agree = kmap_add_sat(f->agree, kmap_add_sat(c->mr, c->mw));
	if (k >= C_LOG_ASM)
		f->log_only[k] = kmap_add_sat(f->log_only[k],
						 kmap_add_sat(c->lr, c->lw));
}

static const uint64_t *sort_ips;	/* cell_cmp's: st->ips */

static int cell_cmp(const void *a, const void *b)
{
	const struct cellc *x = a, *y = b;
	uint64_t ix = sort_ips[x->ip], iy = sort_ips[y->ip];

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return ix < iy ? -1 : ix > iy;
}

/* How far after KASAN's ip (the return from __asan_*) an access may be. */
#define SHIFT_MAX	32

/*
 * KASAN's ip is the return address of its __asan_loadN/storeN call: the
 * access itself in most code, but the compiler may put other instructions
 * between (address arithmetic, another check). A pair Memorizer alone
 * counts takes the counts of the first pair of the log's alone in the
 * same group up to SHIFT_MAX bytes after it, in the same function (when
 * symbols say), when they are the same reads and writes: "agree-shifted".
 * Cells are sorted by group and ip.
 */
static void shift_pairs(struct state *st)
{
	size_t i, j;

	for (i = 0; i < st->ncells; i++) {
		struct cellc *c = &st->cells[i];
		uint64_t ip = st->ips[c->ip], start = 0, start2 = 0;
		const char *fn = NULL;

		if (c->merged || !kmap_add_sat(c->mr, c->mw) || kmap_add_sat(c->lr, c->lw))
			continue;
		if (st->sym)
			fn = kmap_sym_function(st->sym, ip, &start);
		for (j = i + 1; j < st->ncells; j++) {
			struct cellc *d = &st->cells[j];
			uint64_t ip2 = st->ips[d->ip];

			if (d->group != c->group || ip2 - ip > SHIFT_MAX)
				break;
			if (d->merged || kmap_add_sat(d->mr, d->mw) || d->lr != c->mr ||
			    d->lw != c->mw)
				continue;
			if (st->sym && (!fn || kmap_sym_function(st->sym, ip2, &start2) != fn))
				continue;
			c->lr = d->lr;
			c->lw = d->lw;
			c->shifted = 1;
			d->merged = 1;
			break;
		}
	}
}

/* The column the kind and callsite views sort by: mem_accesses. */
static size_t off_sort(enum view v)
{
	return (v == BY_OBJECT ? 4 : 1) + 2;
}

/*
 * The row of group gi in view v (its name into buf): the object view's
 * key is the group, the kind view's its kind, the callsite view's its
 * site's name (by a hash of it, names compared). NULL when out of memory.
 */
static uint64_t *row_of(struct state *st, enum view v, struct kmap_map *keys,
			char **names, size_t gi, char *buf, size_t len,
			int *is_new)
{
	const struct group *g = &st->groups[gi];
	uint64_t key, *row;

	if (v == BY_OBJECT) {
		site_name(st, g, buf, len);
		key = gi;
	} else if (v == BY_KIND) {
		snprintf(buf, len, "%s", group_kind(g));
		key = (uint64_t)(g->kind + 3);
	} else {
		site_name(st, g, buf, len);
		key = 14695981039346656037ull;	/* FNV-1a */
		for (const char *s = buf; *s; s++)
			key = (key ^ (unsigned char)*s) * 1099511628211ull;
	}
	for (;;) {
		row = kmap_map_get(keys, key, is_new);
		if (!row || *is_new || v != BY_CALLSITE || !strcmp(names[*row], buf))
			return row;
		key++;			/* another name with this hash */
	}
}

/* The rows: one per key (kind, call site name, or group). */
static int build(struct state *st, enum view v, struct table *t,
		 uint64_t *differ, uint64_t *mem_pairs, struct fig *total)
{
	static const struct col ip_cols[] = {
		{ "object", COL_HEX }, { "objects", COL_U64 },
		{ "call_site", COL_STR }, { "ip", COL_STR },
		{ "mem_reads", COL_U64 }, { "mem_writes", COL_U64 },
		{ "log_reads", COL_U64 }, { "log_writes", COL_U64 },
		{ "class", COL_STR },
	};
	struct col *cols = NULL;
	struct fig *figs = NULL;
	char **names = NULL;
	size_t *gidx = NULL;		/* BY_OBJECT: a row's group */
	struct kmap_map keys;		/* a row's key -> its index */
	size_t nkeys = 0, fcap = 0, ncap = 0, gcap = 0, i, j;
	char buf[512];
	int rc = -1;

	kmap_map_init(&keys);
	memset(total, 0, sizeof(*total));
	/* Cells in group order (the map's order is none). */
	sort_ips = st->ips;
	if (st->ncells)
		qsort(st->cells, st->ncells, sizeof(*st->cells), cell_cmp);
	shift_pairs(st);
	for (i = 0; i < st->ngroups; i++)
		if (st->groups[i].selected) {
			total->groups++;
			total->objects += st->groups[i].nobj;
			total->reused += st->groups[i].nobj > 1;
		}
	if (v == BY_IP) {
		table_init(t, ip_cols, sizeof(ip_cols) / sizeof(ip_cols[0]));
		for (i = 0; i < st->ncells; i++) {
			const struct cellc *c = &st->cells[i];
			const struct group *g = &st->groups[c->group];
			enum cls k;
			union cell *r;

			if (c->merged)
				continue;
			k = classify(st, c);
			r = table_row(t);
			add_cell(total, c, k);
			*mem_pairs += kmap_add_sat(c->mr, c->mw) > 0;
			*differ += kmap_add_sat(c->mr, c->mw) > 0 && k != C_AGREE && k != C_SHIFTED;
			if (!r)
				goto oom;
			r[0].u = g->lo;
			r[1].u = g->nobj;
			site_name(st, g, buf, sizeof(buf));
			if (cell_str(&r[2], buf))
				goto oom;
			describe(st, st->ips[c->ip], buf, sizeof(buf));
			if (cell_str(&r[3], buf) || cell_str(&r[8], cls_name[k]))
				goto oom;
			r[4].u = c->mr;
			r[5].u = c->mw;
			r[6].u = c->lr;
			r[7].u = c->lw;
		}
		return 0;
	}
	cols = malloc((NSUM + 4) * sizeof(*cols));
	if (!cols)
		goto oom;
	j = 0;
	if (v == BY_OBJECT) {
		cols[j++] = (struct col){ "object", COL_HEX };
		cols[j++] = (struct col){ "size", COL_U64 };
		cols[j++] = (struct col){ "kind", COL_STR };
		cols[j++] = (struct col){ "call_site", COL_STR };
	} else {
		cols[j++] = (struct col){ v == BY_KIND ? "kind" : "call_site",
					  COL_STR };
	}
	memcpy(cols + j, sum_cols, sizeof(sum_cols));
	/* Rows by key: a group (object view), its kind, or its site's name. */
	for (i = 0; i < st->ngroups; i++) {
		const struct group *g = &st->groups[i];
		uint64_t *row;
		int is_new;

		if (!g->selected)
			continue;
		row = row_of(st, v, &keys, names, i, buf, sizeof(buf), &is_new);
		if (!row)
			goto oom;
		if (is_new) {
			if (kmap_grow((void **)&figs, &fcap, nkeys + 1, sizeof(*figs)) ||
			    kmap_grow((void **)&names, &ncap, nkeys + 1, sizeof(*names)) ||
			    kmap_grow((void **)&gidx, &gcap, nkeys + 1, sizeof(*gidx)))
				goto oom;
			memset(&figs[nkeys], 0, sizeof(*figs));
			gidx[nkeys] = i;
			names[nkeys] = strdup(buf);
			if (!names[nkeys])
				goto oom;
			*row = nkeys++;
		}
		figs[*row].groups++;
		figs[*row].objects += g->nobj;
		figs[*row].reused += g->nobj > 1;
	}
	/* Each cell into its group's row. */
	for (i = 0; i < st->ncells; i++) {
		const struct cellc *c = &st->cells[i];
		enum cls k;
		uint64_t *row;
		int is_new;

		if (c->merged)
			continue;
		k = classify(st, c);
		add_cell(total, c, k);
		*mem_pairs += kmap_add_sat(c->mr, c->mw) > 0;
		*differ += kmap_add_sat(c->mr, c->mw) > 0 && k != C_AGREE && k != C_SHIFTED;
		row = row_of(st, v, &keys, names, c->group, buf, sizeof(buf),
			     &is_new);
		if (!row || is_new)	/* every selected group has its row */
			goto oom;
		add_cell(&figs[*row], c, k);
	}
	table_init(t, cols, (int)(NSUM + (v == BY_OBJECT ? 4 : 1)));
	cols = NULL;			/* the table's now (freed by run) */
	for (i = 0; i < nkeys; i++) {
		union cell *r = table_row(t);
		size_t off = v == BY_OBJECT ? 4 : 1;

		if (!r)
			goto oom;
		if (v == BY_OBJECT) {
			const struct group *g = &st->groups[gidx[i]];

			r[0].u = g->lo;
			r[1].u = g->hi - g->lo;
			if (cell_str(&r[2], group_kind(g)) ||
			    cell_str(&r[3], names[i]))
				goto oom;
		} else if (cell_str(&r[0], names[i])) {
			goto oom;
		}
		fill_fig(r + off, &figs[i]);
	}
	if (v != BY_OBJECT)
		table_sort(t, (int)off_sort(v));
	rc = 0;
	goto out;
oom:
	error("out of memory");
out:
	free(cols);
	free(figs);
	for (i = 0; names && i < nkeys; i++)
		free(names[i]);
	free(names);
	free(gidx);
	kmap_map_free(&keys);
	return rc;
}

static enum view view = BY_KIND;
static struct sites {
	char **v;
	size_t n, cap;
} sites;				/* --call-site */
static const char *vmlinux, *system_map;
static uint64_t top;
static unsigned int formats;
static int exact, whole_log, all_tasks;

static int view_cb(const struct opt *opt, const char *arg)
{
	enum view *v = opt->value;

	if (!strcmp(arg, "kind"))
		*v = BY_KIND;
	else if (!strcmp(arg, "callsite"))
		*v = BY_CALLSITE;
	else if (!strcmp(arg, "object"))
		*v = BY_OBJECT;
	else if (!strcmp(arg, "ip"))
		*v = BY_IP;
	else {
		error("--by %s: not kind, callsite, object or ip", arg);
		return -1;
	}
	return 0;
}

static int site_cb(const struct opt *opt, const char *arg)
{
	struct sites *s = opt->value;

	if (kmap_grow((void **)&s->v, &s->cap, s->n + 1, sizeof(*s->v))) {
		error("out of memory");
		return -1;
	}
	s->v[s->n++] = (char *)arg;
	return 0;
}

static const struct opt opts[] = {
	OPT_CALLBACK_VALUES('b', "by", &view, "VIEW", "One row per kind (the default), callsite (allocating function), object (an object, or a group of objects at one reused address) or ip (per object and instruction, with its class).", view_cb,
			    "kind callsite object ip"),
	OPT_CALLBACK('c', "call-site", &sites, "FUNC", "Only objects allocated by FUNC (a function name, shell wildcards allowed, with --system-map or --vmlinux; or an address in hex); repeatable.", site_cb),
	OPT_BOOLEAN(0, "exact", &exact, "Exit 1 unless every (object, ip) count Memorizer recorded for the objects compared is the log's, reads and writes (at the ip, or agree-shifted)."),
	OPT_BOOLEAN(0, "whole-log", &whole_log, "Count the whole log, not the window of mtrace_task.ko's markers."),
	OPT_BOOLEAN(0, "all-tasks", &all_tasks, "Count the log's accesses of every task, not only of the tasks Memorizer recorded accesses of (its pid modes trace some tasks only)."),
	OPT__SYSTEM_MAP(&system_map, "Name functions from a System.map or the guest's /proc/kallsyms (which has its modules')."),
	OPT__VMLINUX(&vmlinux, "Name functions from a vmlinux."),
	OPT_U64('n', "top", &top, "N", "Print the first N rows (default: all)."),
	OPT__CSV(&formats, "CSV: a header row, then a row per line; no summary."),
	OPT__JSON(&formats, "JSON: one object, \"columns\" and \"rows\"."),
	OPT_END(),
};

int cmd_crosscheck(int argc, char **argv)
{
	struct state st = {
		.sites = sites.v, .nsites = sites.n,
		.windowed = !whole_log, .all_tasks = all_tasks,
	};
	enum table_fmt fmt = formats == FORMAT_CSV ? FMT_CSV :
			     formats == FORMAT_JSON ? FMT_JSON : FMT_TEXT;
	enum view v = view;
	struct kmap_src *src = NULL;
	struct table t = { 0 };
	struct fig total;
	char err[KMAP_ERR_MAX];
	uint64_t differ = 0, mem_pairs = 0;
	int failed, rc = 2;
	int have_table = 0;

	if (formats == (FORMAT_CSV | FORMAT_JSON)) {
		error("--csv or --json, not both");
		goto out;
	}
	if (argc != 2) {
		error("a log and a kmap (or stream): memorizer crosscheck LOG KMAP");
		cmd_usage(&cmd_crosscheck_desc, stderr);
		goto out;
	}
	if (!strcmp(argv[0], "-")) {
		error("the log is read twice: a file, not standard input");
		goto out;
	}
	st.sym = open_symbols(vmlinux, system_map, &failed);
	if (failed)
		goto out;
	rc = 1;
	kmap_map_init(&st.ipmap);
	kmap_map_init(&st.cellmap);
	kmap_map_init(&st.pids);
	if (find_window(&st, argv[0]))
		goto out;
	src = open_input(argv[1], err);
	if (!src) {
		error("%s", err);
		goto out;
	}
	if (kmap_src_mtrace(src)) {
		error("%s: an mtrace log; the second operand is Memorizer's kmap or stream",
		      kmap_src_name(src));
		goto out;
	}
	if (read_objects(src, add_object, &st))
		goto out;
	kmap_src_close(src);
	src = NULL;
	if (make_groups(&st) || count_log(&st, argv[0]))
		goto out;
	if (build(&st, v, &t, &differ, &mem_pairs, &total))
		goto out;
	have_table = 1;
	if (fmt == FMT_TEXT) {
		uint64_t m = kmap_add_sat(total.mr, total.mw), l = kmap_add_sat(total.lr, total.lw);

		if (st.windowed)
			printf("%s: %llu of %llu accesses in %zu %s (mtrace_task.ko's markers, %llu ns%s), %llu of them in the objects compared",
			       argv[0], (unsigned long long)st.in_window,
			       (unsigned long long)st.log_accesses,
			       st.nwin / 2, plural(st.nwin / 2, "window", "windows"),
			       (unsigned long long)window_ns(&st),
			       st.have_end ? "" : ", the last to the log's end: no closing marker",
			       (unsigned long long)(st.in_objects + st.other_tasks));
		else
			printf("%s: %llu accesses, the whole log (no window), %llu of them in the objects compared",
			       argv[0], (unsigned long long)st.log_accesses,
			       (unsigned long long)(st.in_objects + st.other_tasks));
		if (st.all_tasks)
			printf(", of every task\n");
		else
			printf(", %llu of them by the %zu %s Memorizer recorded\n",
			       (unsigned long long)st.in_objects,
			       st.pids.len, plural(st.pids.len, "task", "tasks"));
		printf("%s: %zu %s, %llu compared in %llu %s (%llu of several objects at a reused address)\n",
		       argv[1], st.nobjs, plural(st.nobjs, "object", "objects"),
		       (unsigned long long)total.objects,
		       (unsigned long long)total.groups,
		       plural(total.groups, "group", "groups"),
		       (unsigned long long)total.reused);
		printf("Memorizer %llu accesses (%llu reads, %llu writes), the log %llu (%llu reads, %llu writes); %llu on (object, ip) pairs that agree: %.2f%% of Memorizer's, %.2f%% of the log's\n",
		       (unsigned long long)m, (unsigned long long)total.mr,
		       (unsigned long long)total.mw, (unsigned long long)l,
		       (unsigned long long)total.lr, (unsigned long long)total.lw,
		       (unsigned long long)total.agree,
		       m ? 100.0 * (double)total.agree / (double)m : 0.0,
		       l ? 100.0 * (double)total.agree / (double)l : 0.0);
		printf("(object, ip) pairs: %llu agree (%llu at the access after KASAN's ip), %llu differ, %llu Memorizer's only, %llu the log's only (%llu in assembly, %llu in KASAN or Memorizer, %llu elsewhere)\n\n",
		       (unsigned long long)(total.pairs[C_AGREE] + total.pairs[C_SHIFTED]),
		       (unsigned long long)total.pairs[C_SHIFTED],
		       (unsigned long long)total.pairs[C_DIFFER],
		       (unsigned long long)total.pairs[C_MEM_ONLY],
		       (unsigned long long)(total.pairs[C_LOG_ASM] + total.pairs[C_LOG_TOOL] + total.pairs[C_LOG_OTHER]),
		       (unsigned long long)total.pairs[C_LOG_ASM],
		       (unsigned long long)total.pairs[C_LOG_TOOL],
		       (unsigned long long)total.pairs[C_LOG_OTHER]);
	}
	if (table_print(&t, stdout, fmt, (size_t)top, NULL)) {
		error("out of memory");
		goto out;
	}
	if (fflush(stdout) || ferror(stdout)) {
		error("write error");
		goto out;
	}
	rc = 0;
	if (exact && differ) {
		error("%llu of %llu (object, ip) counts of Memorizer's are not the log's",
		      (unsigned long long)differ, (unsigned long long)mem_pairs);
		rc = 1;
	} else if (exact && !mem_pairs) {
		error("--exact: no count of Memorizer's to compare");
		rc = 1;
	}
out:
	kmap_src_close(src);
	if (have_table || t.cols) {
		const struct col *c = t.cols;

		table_free(&t);
		if (v != BY_IP)
			free((void *)c);
	}
	kmap_sym_close(st.sym);
	kmap_map_free(&st.ipmap);
	kmap_map_free(&st.cellmap);
	kmap_map_free(&st.pids);
	free(st.win);
	free(st.objs);
	free(st.acc);
	free(st.groups);
	free(st.ips);
	free(st.cells);
	free(st.sites);
	return rc;
}

const struct cmd cmd_crosscheck_desc = {
	.name = "crosscheck",
	.summary = "compare Memorizer's per-ip counts with an mtrace log of the same run",
	.synopsis = "[--by kind|callsite|object|ip] [-c FUNC]... [--exact] [--whole-log] [--all-tasks] [--system-map FILE | --vmlinux FILE] [-n N] [--csv | --json] LOG KMAP",
	.description =
"Compares, for each object of KMAP (a kmap or a binary stream of Memorizer's) "
"and each instruction, the reads and writes Memorizer counted with those of "
"LOG, an mtrace log of mode all of the same run (vm/run --mtrace LOG "
"--mtrace-mode all): the emulator's record of every kernel access, "
"independent of KASAN and Memorizer. A log access counts for an object when "
"its vaddr is in the object's [addr, addr + size).\n"
"\n"
"The two clocks are never compared. Time: the log counts within its window "
"only, from its first task switch record to its last \"tracking ended\" "
"one: load the guest module mtrace_task.ko just before Memorizer traces "
"and unload it just after (with --mtrace-window task the plugin logs that "
"window only). Space: objects whose ranges overlap (an address reused "
"during the run) form one group, compared as one, their counts summed; an "
"object alone at its address is compared by itself. Tasks: the log's "
"accesses count when the task the plugin names (mtrace_task.ko's "
"markers) is one Memorizer recorded accesses of (not pid 0, interrupts), "
"unless --all-tasks: Memorizer's pid modes trace some tasks only. An "
"interrupt's accesses are Memorizer's pid 0 and the log's interrupted "
"task's.\n"
"\n"
"Each (object, ip) pair is classed: agree (the same reads and writes), "
"agree-shifted (a pair Memorizer alone counts, and the first pair the log "
"alone counts up to 32 bytes after it in the same function, with the same "
"reads and writes: KASAN's ip is the return from its check, and the "
"compiler may put instructions between the check and the access), "
"differ, memorizer-only (KASAN checked a range at a call, memcpy's or a "
"user copy's, where no access is), or the log's only, by the function of "
"the ip (with symbols): in assembly (string and user copy functions, entry "
"code), in KASAN or Memorizer themselves, or elsewhere (noinstr code, files "
"KASAN does not instrument, accesses before an object's allocation or "
"after its free at its address). Rows: per allocator kind (the default), "
"call site, object group or (object, ip) pair; figures: objects, groups, "
"each side's reads and writes, the accesses on agreeing pairs and their "
"share of each side's, pairs per class, and the log's accesses per class "
"of its own pairs.\n"
"\n"
"With --exact, the exit status is 1 unless every count Memorizer recorded "
"for the objects compared (with --call-site, those allocated there) is the "
"log's: the test that Memorizer's counts are true. LOG is read twice: a "
"file, not standard input.",
	.opts = opts,
	.files_desc = "mtrace",
	.examples =
"  $ vm/run --mtrace run.mtrace --mtrace-mode all --mtrace-window task --out out/run workload.sh\n"
"  $ memorizer crosscheck --system-map out/run/kallsyms run.mtrace out/run/s.bin\n"
"  $ memorizer crosscheck --by ip -c run_write --exact --system-map out/run/kallsyms run.mtrace out/run/test.kmap",
	.run = cmd_crosscheck,
};
