// SPDX-License-Identifier: GPL-2.0
/*
 * memorizer check: validate a text kmap, a binary stream, an mtrace log,
 * a function_calls or a stack_frames file.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <linux/memorizer.h>

#include "builtin.h"
#include "mtrace_log.h"

#define MAX_SHOWN	20

static const char *vmlinux, *system_map;
static int quiet;

static const struct opt opts[] = {
	OPT__VMLINUX(&vmlinux, "Also check that every ip is inside a function of this vmlinux (a warning when not)."),
	OPT__SYSTEM_MAP(&system_map, "The same, with a System.map or /proc/kallsyms."),
	OPT__QUIET(&quiet, "Print errors only, no summary."),
	OPT_END(),
};

struct checker {
	const char *name;
	int binary, quiet;
	unsigned long errors, warnings;
	struct kmap_sym *sym;
	uint64_t unknown_ips;
	struct kmap_live *live;
	size_t nlive, live_cap;
	uint64_t lost_frees;	/* binary: FREE records the kernel could not write */
};

static void problem(struct checker *c, int warn, uint64_t at,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void problem(struct checker *c, int warn, uint64_t at,
		    const char *fmt, ...)
{
	unsigned long n = warn ? c->warnings++ : c->errors++;
	va_list ap;

	if (n == MAX_SHOWN)
		fprintf(stderr, "%s: further %s not shown\n", c->name,
			warn ? "warnings" : "errors");
	if (n >= MAX_SHOWN)
		return;
	if (c->binary)
		fprintf(stderr, "%s: byte %llu: ", c->name, (unsigned long long)at);
	else
		fprintf(stderr, "%s:%llu: ", c->name, (unsigned long long)at);
	fputs(warn ? "warning: " : "", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*
 * The rules return the first MAX_SHOWN + 1 of n problems of a kind (enough
 * for problem() to show MAX_SHOWN and say more follow): count the rest.
 */
static void count_unshown(struct checker *c, int warn, size_t n)
{
	if (n > MAX_SHOWN + 1)
		*(warn ? &c->warnings : &c->errors) += n - (MAX_SHOWN + 1);
}

static int push_live(struct checker *c, uint64_t addr, uint64_t size,
		     uint64_t at)
{
	if (kmap_grow((void **)&c->live, &c->live_cap, c->nlive + 1,
		      sizeof(*c->live))) {
		error("out of memory");
		return -1;
	}
	c->live[c->nlive++] = (struct kmap_live){ addr, size, at };
	return 0;
}

/* Overlapping live objects (a warning once FREE records were lost). */
static void check_overlaps(struct checker *c)
{
	size_t pairs[MAX_SHOWN + 1][2], n, i;
	char what[KMAP_ERR_MAX];

	n = kmap_rule_overlaps(c->live, c->nlive, pairs, MAX_SHOWN + 1);
	count_unshown(c, c->lost_frees > 0, n);
	for (i = 0; i < n && i <= MAX_SHOWN; i++) {
		const struct kmap_live *a, *b;

		a = &c->live[pairs[i][0]];
		b = &c->live[pairs[i][1]];
		kmap_rule_overlap_message(a, b, c->binary, what);
		/* With FREEs lost, an address may be reused unseen. */
		problem(c, c->lost_frees > 0, b->where, "%s%s", what,
			c->lost_frees ? " (its FREE may be among the lost records)" : "");
	}
}

static void check_ip(struct checker *c, uint64_t at, const char *field,
		     uint64_t ip)
{
	uint64_t start;

	if (!c->sym || ip == KMAP_FREE_IP_MISSED || ip == 0)
		return;
	if (!kmap_sym_function(c->sym, ip, &start)) {
		c->unknown_ips++;
		problem(c, 1, at, "%s %llx is in no known function", field,
			(unsigned long long)ip);
	}
}

/* Duplicate (ip, pid) under the object of line obj_line. */
static int check_dups(struct checker *c, const struct kmap_access *acc,
		      size_t n, uint64_t obj_line)
{
	size_t pairs[MAX_SHOWN + 1][2];
	long found = kmap_rule_dups(acc, n, pairs, MAX_SHOWN + 1), i;

	if (found < 0) {
		error("out of memory");
		return -1;
	}
	count_unshown(c, 0, found);
	for (i = 0; i < found && i <= MAX_SHOWN; i++) {
		problem(c, 0, obj_line + 1 + pairs[i][1],
			"access (%llx, pid %u) repeats line %llu under the same object",
			(unsigned long long)acc[pairs[i][1]].ip,
			acc[pairs[i][1]].pid,
			(unsigned long long)(obj_line + 1 + pairs[i][0]));
	}
	return 0;
}

/* A rule's verdict on the line or record at at. */
static void apply_rule(struct checker *c, uint64_t at, int verdict,
		       const char *what)
{
	if (verdict != KMAP_RULE_OK)
		problem(c, verdict == KMAP_RULE_WARNING, at, "%s", what);
}

static int check_text(struct checker *c, struct kmap_text_reader *r)
{
	struct kmap_object o;
	struct kmap_access a, *acc = NULL;
	size_t nacc = 0, acc_cap = 0;
	uint64_t objects = 0, accesses = 0, live = 0, obj_line = 0;
	char what[KMAP_ERR_MAX];
	int t, rc = 0;

	while ((t = kmap_text_next(r, &o, &a)) > 0) {
		uint64_t at = kmap_text_line(r);

		if (t == KMAP_LINE_OBJECT) {
			/* The fork's repeat legitimately (kmap.h). */
			if (kmap_text_fork(r) != 1 &&
			    check_dups(c, acc, nacc, obj_line)) {
				rc = 1;
				break;
			}
			nacc = 0;
			obj_line = kmap_text_line(r);
			objects++;
			apply_rule(c, at, kmap_rule_object(&o, what), what);
			if (!kmap_object_freed(&o) && o.addr + o.size >= o.addr) {
				live++;
				if (push_live(c, o.addr, o.size, obj_line)) {
					rc = 1;
					break;
				}
			}
			check_ip(c, at, "alloc_ip", o.alloc_ip);
			check_ip(c, at, "free_ip", o.free_ip);
		} else {
			accesses++;
			apply_rule(c, at, kmap_rule_access(&a, what), what);
			check_ip(c, at, "access_ip", a.ip);
			if (kmap_grow((void **)&acc, &acc_cap, nacc + 1,
				      sizeof(*acc))) {
				error("out of memory");
				rc = 1;
				break;
			}
			acc[nacc++] = a;
		}
	}
	if (t < 0) {
		fprintf(stderr, "%s\n", kmap_text_error(r));
		c->errors++;
	} else if (!rc && (kmap_text_fork(r) == 1 ||
			   !check_dups(c, acc, nacc, obj_line))) {
		check_overlaps(c);
	} else {
		rc = 1;
	}
	if (!c->quiet && !c->errors && !rc)
		printf("%s: valid %s: %llu %s (%llu live), %llu access %s%s\n",
		       c->name, kmap_text_fork(r) == 1 ?
		       "Memorizer fork kmap (11 fields)" :
		       kmap_text_offsets(r) == 1 ? "kmap_offsets" :
		       "kmap", (unsigned long long)objects,
		       plural(objects, "object", "objects"),
		       (unsigned long long)live, (unsigned long long)accesses,
		       plural(accesses, "line", "lines"),
		       c->warnings ? " (with warnings)" : "");
	free(acc);
	return rc;
}

/*
 * A binary stream's objects, as check follows them: the live ones (by id),
 * those whose FREE came before their ALLOC (another CPU's records read
 * first), ACCESS records of ids not (yet) allocated, and the ACCESS
 * records a freed object's FREE says are still to come (sweeps written on
 * another CPU, read after the FREE).
 */
struct bin_live {
	uint64_t addr, size, size_alloc, jiffies, offset;
	unsigned int kind;
	uint32_t nr_access;		/* its ACCESS records read */
};

struct bin_state {
	struct checker *c;
	struct kmap_bin_reader *r;
	unsigned int version;
	struct kmap_map ids;		/* live id -> lv index */
	struct bin_live *lv;
	size_t nlv, lv_cap;
	uint64_t *free_slots;		/* lv entries to reuse */
	size_t nfree, free_cap;
	struct kmap_map early;		/* FREE before ALLOC: id -> jiffies */
	struct kmap_map early_api;	/* its api | nr_access << 8 */
	struct kmap_map early_acc;	/* ACCESS with no ALLOC: id -> records */
	struct kmap_map early_end;	/* their greatest offset_end */
	/* freed: id -> size_alloc << 32 | ACCESS records to come */
	struct kmap_map swept;
	uint64_t lost, early_frees;
};

static void *oom(void)
{
	error("out of memory");
	return NULL;
}

/*
 * ACCESS records still to come for id, freed with nr_access in all (their
 * offsets checked against its size_alloc).
 */
static int expect_sweeps(struct bin_state *st, uint64_t id, uint32_t nr_access,
			 uint64_t seen, uint32_t size_alloc)
{
	uint64_t *slot;

	if (nr_access <= seen)
		return 0;
	slot = kmap_map_get(&st->swept, id, NULL);
	if (!slot)
		return oom(), -1;
	*slot = (uint64_t)size_alloc << 32 | (nr_access - seen);
	return 0;
}

/* The ACCESS records of id read before its ALLOC (and forget them). */
static uint64_t take_early_accesses(struct bin_state *st, uint64_t id)
{
	uint64_t *n = kmap_map_find(&st->early_acc, id), v = n ? *n : 0;

	kmap_map_del(&st->early_acc, id);
	return v;
}

static int on_alloc(struct bin_state *st, const struct kmap_bin_rec *rec,
		    uint64_t at)
{
	struct checker *c = st->c;
	uint64_t id = rec->u.alloc.id, accesses, *slot, *api;
	char what[KMAP_ERR_MAX];
	int is_new;

	check_ip(c, at, "call_site", rec->u.alloc.call_site);
	accesses = take_early_accesses(st, id);
	/* Its ACCESS records read first (another CPU's), as kmap_src does. */
	slot = kmap_map_find(&st->early_end, id);
	if (slot) {
		apply_rule(c, at, kmap_rule_offset_end((uint32_t)*slot,
			   rec->u.alloc.size_alloc, what), what);
		kmap_map_del(&st->early_end, id);
	}
	/* Its FREE read first (another CPU's): dead already. */
	slot = kmap_map_find(&st->early, id);
	if (slot) {
		api = kmap_map_find(&st->early_api, id);
		apply_rule(c, at, kmap_rule_bin_freed(st->version, id,
			   rec->u.alloc.kind, (unsigned int)(*api & 0xff), what),
			   what);
		if (kmap_rule_free_time(rec->u.alloc.jiffies, *slot, what))
			problem(c, 0, at, "%s", what);
		if (expect_sweeps(st, id, (uint32_t)(*api >> 8), accesses,
				  rec->u.alloc.size_alloc))
			return -1;
		kmap_map_del(&st->early, id);
		kmap_map_del(&st->early_api, id);
		st->early_frees--;
		return 0;
	}
	slot = kmap_map_get(&st->ids, id, &is_new);
	if (!slot)
		return oom(), -1;
	if (!is_new) {
		problem(c, 0, at, "ALLOC of object id %llu, live since byte %llu",
			(unsigned long long)id,
			(unsigned long long)st->lv[*slot].offset);
		return 0;
	}
	if (st->nfree) {
		*slot = st->free_slots[--st->nfree];
	} else {
		if (kmap_grow((void **)&st->lv, &st->lv_cap, st->nlv + 1,
			      sizeof(*st->lv)) ||
		    kmap_grow((void **)&st->free_slots, &st->free_cap,
			      st->nlv + 1, sizeof(*st->free_slots)))
			return oom(), -1;
		*slot = st->nlv++;
	}
	st->lv[*slot] = (struct bin_live){ rec->u.alloc.addr, rec->u.alloc.size,
		rec->u.alloc.size_alloc, rec->u.alloc.jiffies, rec->offset, rec->u.alloc.kind,
		(uint32_t)accesses };
	return 0;
}

static int on_free(struct bin_state *st, const struct kmap_bin_rec *rec,
		   uint64_t at)
{
	struct checker *c = st->c;
	uint64_t id = rec->u.free.id, *slot, *api;
	char what[KMAP_ERR_MAX];
	struct bin_live *l;
	int is_new;

	if (rec->u.free.api != MEMORIZER_FREE_MISSED)
		check_ip(c, at, "call_site", rec->u.free.call_site);
	slot = kmap_map_find(&st->ids, id);
	if (!slot && kmap_map_find(&st->swept, id)) {
		/* Freed, its last ACCESS records still to come. */
		problem(c, 0, at, "second FREE of object id %llu",
			(unsigned long long)id);
		return 0;
	}
	if (!slot) {
		/* Its ALLOC may follow, from another CPU. */
		slot = kmap_map_get(&st->early, id, &is_new);
		if (!slot)
			return oom(), -1;
		if (!is_new) {	/* freed twice before its ALLOC */
			problem(c, 0, at, "second FREE of object id %llu",
				(unsigned long long)id);
			return 0;
		}
		st->early_frees++;
		*slot = rec->u.free.jiffies;
		api = kmap_map_get(&st->early_api, id, NULL);
		if (!api)
			return oom(), -1;
		*api = rec->u.free.api | (uint64_t)rec->u.free.nr_access << 8;
		return 0;
	}
	l = &st->lv[*slot];
	apply_rule(c, at, kmap_rule_bin_freed(st->version, id, l->kind,
						 rec->u.free.api, what), what);
	if (kmap_rule_free_time(l->jiffies, rec->u.free.jiffies, what))
		problem(c, 0, at, "%s (byte %llu)", what,
			(unsigned long long)l->offset);
	if (expect_sweeps(st, id, rec->u.free.nr_access, l->nr_access,
			  (uint32_t)l->size_alloc))
		return -1;
	st->free_slots[st->nfree++] = *slot;
	kmap_map_del(&st->ids, id);
	return 0;
}

static int on_access(struct bin_state *st, const struct kmap_bin_rec *rec,
		     uint64_t at)
{
	uint64_t id = rec->u.access.id, *slot;
	char what[KMAP_ERR_MAX];

	check_ip(st->c, at, "ip", rec->u.access.ip);
	slot = kmap_map_find(&st->ids, id);
	if (slot) {
		st->lv[*slot].nr_access++;
		apply_rule(st->c, at, kmap_rule_offset_end(
			   rec->u.access.offset_end, st->lv[*slot].size_alloc,
			   what), what);
		return 0;
	}
	slot = kmap_map_find(&st->swept, id);
	if (slot) {	/* a sweep of a freed object, read after its FREE */
		apply_rule(st->c, at, kmap_rule_offset_end(
			   rec->u.access.offset_end, *slot >> 32, what), what);
		if (!(uint32_t)--*slot)
			kmap_map_del(&st->swept, id);
		return 0;
	}
	/* Its ALLOC may follow, from another CPU; else allocated before. */
	slot = kmap_map_get(&st->early_acc, id, NULL);
	if (!slot)
		return oom(), -1;
	++*slot;
	if (rec->u.access.offset_end) {
		slot = kmap_map_get(&st->early_end, id, NULL);
		if (!slot)
			return oom(), -1;
		if (rec->u.access.offset_end > *slot)
			*slot = rec->u.access.offset_end;
	}
	return 0;
}

/*
 * Objects allocated before the stream began: FREE or ACCESS records and no
 * ALLOC.
 */
static void print_orphans(const struct bin_state *st)
{
	uint64_t objects = st->early_frees, accesses = 0;
	size_t i = 0;
	uint64_t key, *val;

	while (kmap_map_next(&st->early_acc, &i, &key, &val)) {
		accesses += *val;
		objects += !kmap_map_find(&st->early, key);
	}
	if (!objects)
		return;
	printf(", %llu %s allocated before the stream (%llu FREE, %llu ACCESS %s)",
	       (unsigned long long)objects, plural(objects, "object", "objects"),
	       (unsigned long long)st->early_frees, (unsigned long long)accesses,
	       plural(accesses, "record", "records"));
}

static void print_stream_summary(const struct bin_state *st,
				 const uint64_t *count)
{
	static const struct {
		unsigned int type;
		const char *one, *many;
	} counted[] = {
		{ MEMORIZER_REC_ALLOC, "alloc", "allocs" },
		{ MEMORIZER_REC_FREE, "free", "frees" },
		{ MEMORIZER_REC_ACCESS, "access", "accesses" },
		{ MEMORIZER_REC_TASK, "task", "tasks" },
		{ MEMORIZER_REC_CACHE, "cache", "caches" },
		{ MEMORIZER_REC_CALL, "call", "calls" },
	};
	const struct memorizer_stream_header *h = kmap_bin_header(st->r);
	uint64_t skipped = kmap_bin_skipped(st->r);
	size_t i;

	printf("%s: valid stream (version %u, %u %s, HZ %u): ", st->c->name,
	       h->version, h->nr_cpus, plural(h->nr_cpus, "CPU", "CPUs"), h->hz);
	for (i = 0; i < sizeof(counted) / sizeof(counted[0]); i++)
		printf("%llu %s, ", (unsigned long long)count[counted[i].type],
		       plural(count[counted[i].type], counted[i].one,
			      counted[i].many));
	printf("%llu lost %s", (unsigned long long)st->lost,
	       plural(st->lost, "record", "records"));
	print_orphans(st);
	if (skipped)
		printf(", %llu %s of unknown types skipped",
		       (unsigned long long)skipped,
		       plural(skipped, "record", "records"));
	printf("%s\n", st->c->warnings ? " (with warnings)" : "");
}

/* The live objects at the end, for the overlap rule. */
static int bin_overlaps(struct bin_state *st)
{
	size_t i = 0;
	uint64_t key, *val;

	while (kmap_map_next(&st->ids, &i, &key, &val)) {
		struct bin_live *l = &st->lv[*val];

		if (l->addr + l->size >= l->addr &&
		    push_live(st->c, l->addr, l->size, l->offset))
			return -1;
	}
	check_overlaps(st->c);
	return 0;
}

static int check_binary(struct checker *c, struct kmap_bin_reader *r)
{
	struct bin_state st = { .c = c, .r = r };
	/* Per type, and (the last) all. */
	uint64_t count[MEMORIZER_REC_NR_TYPES] = { 0 };
	struct kmap_bin_rules *rules = NULL;
	struct kmap_bin_rec rec;
	char what[KMAP_ERR_MAX];
	int rc = 0, t;

	if (kmap_bin_read_header(r)) {
		fprintf(stderr, "%s\n", kmap_bin_error(r));
		c->errors++;
		return 0;
	}
	st.version = kmap_bin_header(r)->version;
	rules = kmap_bin_rules_new(kmap_bin_header(r)->nr_cpus);
	if (!rules)
		return !oom();
	while (!rc && (t = kmap_bin_next(r, &rec)) > 0) {
		uint64_t at = rec.offset;

		count[rec.type]++;
		apply_rule(c, at, kmap_rule_bin_time(rules, &rec, what), what);
		apply_rule(c, at, kmap_rule_bin(r, &rec, what), what);
		if (rec.type == MEMORIZER_REC_ALLOC)
			rc = on_alloc(&st, &rec, at);
		else if (rec.type == MEMORIZER_REC_FREE)
			rc = on_free(&st, &rec, at);
		else if (rec.type == MEMORIZER_REC_ACCESS)
			rc = on_access(&st, &rec, at);
		else if (rec.type == MEMORIZER_REC_LOST) {
			st.lost += rec.u.lost.records;
			c->lost_frees += rec.u.lost.frees;
		}
	}
	if (!rc && t < 0) {
		fprintf(stderr, "%s\n", kmap_bin_error(r));
		c->errors++;
	} else if (!rc) {
		rc = bin_overlaps(&st);
		if (!rc && !c->quiet && !c->errors)
			print_stream_summary(&st, count);
		if (st.lost)
			warning("%s: %llu %s lost: the kernel's buffers were full",
				c->name, (unsigned long long)st.lost,
				plural(st.lost, "record was", "records were"));
	}
	kmap_map_free(&st.ids);
	kmap_map_free(&st.early);
	kmap_map_free(&st.early_api);
	kmap_map_free(&st.early_acc);
	kmap_map_free(&st.early_end);
	kmap_map_free(&st.swept);
	free(st.lv);
	free(st.free_slots);
	kmap_bin_rules_free(rules);
	return rc ? 1 : 0;
}

/* A function_calls file's summary: its edges (repeats summed) and calls. */
static void print_calls(const struct checker *c, const struct kmap_calls *t)
{
	const struct kmap_call *calls;
	size_t n = kmap_calls_list(t, &calls), i;
	uint64_t total = 0;

	for (i = 0; i < n; i++)
		total = kmap_add_sat(total, calls[i].count);
	printf("%s: valid function_calls file: %zu %s, %llu %s\n", c->name, n,
	       plural(n, "edge", "edges"), (unsigned long long)total,
	       plural(total, "call", "calls"));
}

/*
 * A stack_frames file's summary: its cells, the frames (functions) and
 * pids they name, their writes and reads. 0, or -1 when out of memory.
 */
static int print_frames(const struct checker *c, const struct kmap_frames *t)
{
	const struct kmap_frame *f;
	size_t n = kmap_frames_list(t, &f), i;
	uint64_t writes = 0, reads = 0;
	struct kmap_map frames, pids;
	int is_new, rc = -1;

	kmap_map_init(&frames);
	kmap_map_init(&pids);
	for (i = 0; i < n; i++) {
		if (!kmap_map_get(&frames, f[i].frame, &is_new) ||
		    !kmap_map_get(&pids, f[i].pid, &is_new))
			goto out;
		writes = kmap_add_sat(writes, f[i].writes);
		reads = kmap_add_sat(reads, f[i].reads);
	}
	printf("%s: valid stack_frames file: %zu %s, %zu %s, %zu %s, %llu %s, %llu %s\n",
	       c->name, n, plural(n, "cell", "cells"),
	       frames.len, plural(frames.len, "frame", "frames"),
	       pids.len, plural(pids.len, "pid", "pids"),
	       (unsigned long long)writes, plural(writes, "write", "writes"),
	       (unsigned long long)reads, plural(reads, "read", "reads"));
	rc = 0;
out:
	kmap_map_free(&frames);
	kmap_map_free(&pids);
	return rc;
}

/*
 * A function_calls or stack_frames file: the reader checks each line (and
 * that no stack frame cell is on two), the summary says what it holds.
 */
static int check_lines(struct checker *c, struct kmap_src *src)
{
	const struct kmap_object *o;
	const struct kmap_access *a;
	size_t n;

	if (kmap_src_next(src, &o, &a, &n) < 0) {
		fprintf(stderr, "%s\n", kmap_src_error(src));
		if (!c->quiet)
			printf("%s: invalid: 1 error\n", c->name);
		return -1;
	}
	if (c->quiet)
		return 0;
	if (kmap_src_format(src) == KMAP_FMT_CALLS) {
		print_calls(c, kmap_src_calls(src));
	} else if (print_frames(c, kmap_src_frames(src))) {
		error("out of memory");
		return -1;
	}
	return 0;
}

/*
 * An mtrace log: the reader checks each record (what the plugin
 * guarantees); check adds the ips' functions and the summary.
 */
static int check_mtrace(struct checker *c, struct kmap_mtrace_reader *r)
{
	uint64_t accesses = 0, writes = 0, shared = 0, unknown = 0;
	uint64_t switches = 0;
	const struct mtrace_log_header *h;
	struct kmap_mtrace_rec rec;
	int t;

	while ((t = kmap_mtrace_next(r, &rec)) > 0) {
		if (rec.type == MTRACE_REC_SWITCH) {
			switches++;
			continue;
		}
		accesses++;
		writes += !!(rec.u.access.flags & MTRACE_F_WRITE);
		shared += !!(rec.u.access.flags & MTRACE_F_SHARED);
		unknown += rec.u.access.pid == MTRACE_PID_UNKNOWN;
		check_ip(c, rec.offset, "ip", rec.u.access.ip);
	}
	if (t < 0) {
		fprintf(stderr, "%s\n", kmap_mtrace_error(r));
		c->errors++;
		return 0;
	}
	h = kmap_mtrace_header(r);
	if (!h) {	/* an empty input: no header */
		kmap_mtrace_read_header(r);
		fprintf(stderr, "%s\n", kmap_mtrace_error(r));
		c->errors++;
		return 0;
	}
	if (!c->quiet && !c->errors)
		printf("%s: valid mtrace log (version %u, mode %s, %u %s, %u-byte lines): %llu %s (%llu %s, %llu flagged shared, %llu of no known task), %llu task %s%s%s\n",
		       c->name, h->version,
		       h->mode == MTRACE_MODE_ALL ? "all" : "sharing",
		       h->nr_cpus, plural(h->nr_cpus, "vCPU", "vCPUs"),
		       1u << h->line_shift, (unsigned long long)accesses,
		       plural(accesses, "access", "accesses"),
		       (unsigned long long)writes, plural(writes, "write", "writes"),
		       (unsigned long long)shared, (unsigned long long)unknown,
		       (unsigned long long)switches,
		       plural(switches, "switch", "switches"),
		       kmap_mtrace_skipped(r) ? ", records of unknown types skipped" : "",
		       c->warnings ? " (with warnings)" : "");
	return 0;
}

int cmd_check(int argc, char **argv)
{
	struct checker c = { .quiet = quiet };
	int i, rc = 0, failed;

	if (argc < 1) {
		error("which file?");
		cmd_usage(&cmd_check_desc, stderr);
		return 2;
	}
	c.sym = open_symbols(vmlinux, system_map, &failed);
	if (failed)
		return 2;
	for (i = 0; i < argc; i++) {
		char err[KMAP_ERR_MAX];
		struct kmap_src *src = open_input(argv[i], err);

		if (!src) {
			error("%s", err);
			rc = 1;
			continue;
		}
		c.name = kmap_src_name(src);
		if (kmap_src_format(src) == KMAP_FMT_CALLS ||
		    kmap_src_format(src) == KMAP_FMT_FRAMES) {
			if (check_lines(&c, src))
				rc = 1;
			kmap_src_close(src);
			continue;
		}
		c.errors = c.warnings = c.unknown_ips = 0;
		c.nlive = 0;
		c.lost_frees = 0;
		c.binary = kmap_src_format(src) != KMAP_FMT_TEXT;
		if (kmap_src_mtrace(src) ? check_mtrace(&c, kmap_src_mtrace(src)) :
		    c.binary ? check_binary(&c, kmap_src_bin(src)) :
		    check_text(&c, kmap_src_text(src)))
			rc = 1;
		if (c.errors)
			rc = 1;
		if (c.errors && !c.quiet)
			printf("%s: invalid: %lu %s\n", c.name, c.errors,
			       plural(c.errors, "error", "errors"));
		if (c.unknown_ips)
			warning("%s: %llu %s in no known function (a symbol file of another kernel?)",
				c.name, (unsigned long long)c.unknown_ips,
				plural(c.unknown_ips, "ip", "ips"));
		kmap_src_close(src);
	}
	kmap_sym_close(c.sym);
	free(c.live);
	return rc;
}

const struct cmd cmd_check_desc = {
	.name = "check",
	.summary = "validate a kmap, a binary stream, an mtrace log, call edges or stack frames",
	.synopsis = "[--vmlinux FILE | --system-map FILE] [-q] FILE...",
	.description =
"Reads each FILE (- for standard input), a text kmap, a binary stream, "
"an mtrace log, a function_calls file of call edges or a stack_frames "
"file of stack accesses by frame (told apart by the stream's and the "
"log's magic and the first line of a calls or frames file; any may be "
"zstd-compressed), "
"through libkmap's record readers, and checks it the way the kernel "
"documentation defines it. Exits 0 only when every FILE is valid; prints "
"each problem as FILE:LINE: what is wrong (text) or FILE: byte OFFSET: what "
"is wrong (binary), at most 20 of each kind, then a summary line.\n"
"\n"
"Text kmaps: the syntax of every line (number formats are ABI: lowercase "
"hexadecimal without 0x or leading zeros, unsigned decimal without leading "
"zeros, numbers in range, pids below 4194304), access lines after an "
"object line and indented by exactly two spaces, alloc_ip set, no free "
"before its allocation (a freed object may have free_ip 0: seed 000 says "
"not every free_ip is obtained), no interrupt-context "
"allocation with a pid, a found object (pid 0, executable global, "
"percpu, irq_stack, unseen or page) with its own address as alloc_ip "
"(any may be freed: a global may be a module's, freed when the module "
"is unloaded, a percpu one an alloc_percpu() area), "
"no access line without reads or "
"writes, no (ip, pid) twice under one object, no two live objects "
"overlapping. A kmap_offsets (access lines of 6 fields: "
"access_ip,access_pid,write_count,read_count,offset,offset_end) has "
"offset below offset_end, or both 0 (not known), on every line; a file "
"has access lines of 4 fields or of 6, not both. A kmap_offsets' object "
"lines may have two more fields after executable, kind and cache (the "
"kernel writes them in kmap_offsets, never in kmap): kind an allocator kind (kmalloc, kmem_cache, kmalloc_large, vmalloc, "
"pages, global, percpu or stack), cache at most 32 bytes without control "
"characters, empty but for kmalloc and kmem_cache objects; a file's "
"object lines have 8 fields or 10, not both, and 10 only with access "
"lines of 6; with the kind known, an object is found (its own address "
"as alloc_ip) always for globals and per-CPU objects and never for "
"kmalloc_large and vmalloc ones, with pid 0 but for a task's stack, and "
"then with its kind's word as executable (unseen for slab objects, page, "
"global, percpu, irq_stack). The summary says kmap_offsets for one.\n"
"\n"
"The public Memorizer fork's kmaps (ITI/memorizer) are read too, by check "
"and every other command: object lines "
"alloc_ip,pid,obj_va_ptr,size,alloc_index,free_index,free_ip,alloc_type,"
"command,slabname,new_alloc_type and access lines "
"access_ip,write_count,read_count,access_pid (the pid last). A file is "
"the fork's when its first object line has 11 fields (more when the "
"command holds commas, which are read as ?) and its alloc_type is one of "
"the fork's types; the summary then says Memorizer fork kmap (11 fields). "
"Addresses are 16 hexadecimal digits, zero-padded, alloc_ip left-justified "
"(digits, then spaces); alloc_index and free_index, the fork's ordering "
"indices (serial numbers from 0, or jiffies with "
"memorizer_index_type=time), are read where jiffies go, free_index 0 "
"while live and set whenever free_ip is; access_pid -1 (outside task "
"context, or every line when the fork was built without "
"CONFIG_MEMORIZER_TRACKPIDS) is read as pid 0, as ours has it; a NONE "
"object's access lines are from:access_ip,write_count,read_count, pid 0. "
"slabname is the object's cache (no-slab: none). free_ip 00000000deadbeef "
"(a new allocation covered the record, its free not seen) and "
"000000000fedbeef (the same by an allocation nested in it) are both read "
"as a missed free (deadbeef), new_alloc_type naming the covering "
"allocation's type (empty otherwise). Records the fork made at an "
"access, not an allocation (alloc_ip 0 or a type's number), are found "
"objects, their alloc_ip their own address, with the pid and command of "
"the task that touched them; its catch-all records (address and size 0, "
"one per type) are valid. Its access lines are in no order, and an "
"(ip, pid) may repeat (pid -1 and the idle task's 0; from: lines one per "
"caller): they are merged, not errors. The 27 types map onto kinds: "
"STACK, STACK_FRAME, STACK_ARGS (call-frame records, not meant for a "
"kmap) and STACK_PAGE: stack; GEN_HEAP, UFO_HEAP (a slab object found "
"at an access) and INDUCED_ALLOC (Memorizer's own, mostly slab): "
"kmalloc in a kmalloc-* cache or in none, kmem_cache in another cache; "
"GLOBAL: global; KMALLOC and KMALLOC_ND: kmalloc, or kmalloc_large with "
"no slab; KMEM_CACHE, KMEM_CACHE_ND, KMEM_CACHE_BULK: kmem_cache; "
"VMALLOC: vmalloc; ALLOC_PAGES, ALLOC_PAGES_EXACT, "
"ALLOC_PAGES_GETFREEPAGES, ALLOC_PAGES_FOLIO: pages; BOOTMEM, MEMBLOCK, "
"UFO_MEMBLOCK (boot memory), MEMORIZER (its own pool) and USER (user "
"memory): pages, the nearest; BUG, UFO_NONE and NONE (memory of no known "
"allocator): global, the nearest, found; UFO_GLOBAL: global, found, but "
"stack with alloc_ip 3 (STACK_PAGE's number: an access to a stack page "
"no record covered). A slabname on an object of another kind than "
"kmalloc and kmem_cache is an error.\n"
"\n"
"Binary streams: magic, ABI version (1 to 5; version 1 has no "
"kind global and no context found, version 2 no kinds percpu and stack, "
"no free api percpu and no found objects but globals, version 3 no free "
"api module, version 4 no offsets: its ACCESS records are 56 bytes, "
"version 5's 64), header and record sizes (records of "
"unknown types are skipped by their size, short records rejected), CPU "
"numbers, per-CPU time order, known enum values, no pid in interrupt "
"context, context found always for globals and per-CPU objects and "
"never for kmalloc_large and vmalloc objects, a found object's call_site "
"its own address and its pid 0 but for a task's stack (whose ALLOC, "
"like a task's, needs a TASK record for its pid), one live ALLOC per "
"id, frees after their allocation, no FREE of a global before version "
"4 and from then on only by free api module (6: its module unloaded, "
"the call_site the unload's caller) or missed, api module for globals "
"only (a per-CPU object's FREE is valid: an alloc_percpu() area's), "
"missed frees marked deadbeef, ACCESS offsets offset below offset_end "
"or both 0 (not known) and offset_end within the object's size_alloc "
"(checked against a live object's ALLOC), LOST records "
"consistent, no two live objects overlapping (a warning, not an error, "
"once FREE records were lost); lost records are reported as a warning, "
"and objects allocated before the stream (FREE or ACCESS records without "
"an ALLOC; ACCESS records a FREE's nr_access says follow it are its "
"object's) are counted in the summary.\n"
"\n"
"function_calls files (debugfs memorizer/function_calls): lines "
"caller,callee,pid,count, or the public Memorizer fork's caller callee "
"count (no pid), one format a file; caller and callee lowercase "
"hexadecimal without 0x or leading zeros and not 0, pid below 4194304, "
"count above 0. The summary gives the edges (one per caller, callee and "
"pid, repeats summed) and the calls.\n"
"\n"
"stack_frames files (debugfs memorizer/stack_frames, written while call "
"logging is on: each access to the current task's stack counted against "
"the frame it falls in): lines frame,ip,pid,writes,reads, an access "
"line (access_ip,access_pid,write_count,read_count) on the frame of the "
"function that starts at frame. frame and ip as caller and callee are, "
"pid below 4194304 (0: the idle task), writes and reads unsigned "
"decimal within 32 bits, not both 0, and no (frame, ip, pid) on two "
"lines (the message names the first). A file whose first line has 5 "
"comma-separated fields, hexadecimal digits and x in the first two, "
"decimal digits and - in the others, is read as one, so that a first "
"line with an 0x, a negative pid or counts both 0 is refused for it. "
"The summary gives the cells, the frames (functions) and pids they name, "
"and the writes and reads. Both files stop at their first error. An "
"empty file is valid as an empty kmap: it holds no edge and no cell.\n"
"\n"
"mtrace logs (the QEMU plugin's, vm/run --mtrace): magic, version, header "
"and record sizes as for streams, vCPU numbers, per-vCPU time order, "
"known flags, access sizes (1 to 32 bytes, powers of two), ips in the "
"kernel half, a physical address only with its flag, and in a log of "
"mode sharing every access flagged shared (by the rule, on a known "
"physical line).\n"
"\n"
"The rules are libkmap's, and the same for every command: report and text "
"refuse, with the same message, any input check calls invalid (they stop "
"at its first error; check goes on and reports each).\n"
"\n"
"With --vmlinux or --system-map, every ip must also fall inside a known "
"function; ips that do not are warnings (they do not make the file "
"invalid: modules are not in System.map).",
	.opts = opts,
	.files_desc = "kmap",
	.examples =
"  $ memorizer check tar.kmap\n"
"  tar.kmap: valid kmap: 365 objects (8 live), 16582 access lines\n"
"  $ memorizer check stack_frames\n"
"  stack_frames: valid stack_frames file: 3 cells, 2 frames, 2 pids, 8 writes, 4 reads",
	.run = cmd_check,
};
