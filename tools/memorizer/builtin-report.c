// SPDX-License-Identifier: GPL-2.0
/* memorizer report: summaries of a kmap or stream, per key. */
#include <stdlib.h>
#include <string.h>

#include <linux/memorizer.h>

#include "builtin.h"
#include "table.h"

static const struct opt opts[] = {
	{ "by", 'b', "KEY", "Group by callsite (the default), cache, kind, function, pid or object." },
	{ "sort", 's', "COLUMN", "Sort by this column: descending for numbers, ascending for names. Default: bytes (callsite, cache, kind, pid), accesses (function), size (object)." },
	{ "limit", 'n', "N", "Print the first N rows only." },
	{ "csv", 0, NULL, "Comma-separated values: a header line of column names, then one line per row; no summary." },
	{ "json", 0, NULL, "One JSON object: \"by\", \"input\", \"format\", \"summary\" (the totals), \"columns\" and \"rows\" (one object per row, keyed by column name)." },
	{ "vmlinux", 0, "FILE", "Name ips as function+offset (and file:line when the vmlinux has DWARF)." },
	{ "system-map", 0, "FILE", "Name ips from a System.map or /proc/kallsyms." },
	{ "output", 'o', "FILE", "Write to FILE instead of standard output." },
	{ 0 },
};

enum by { BY_CALLSITE, BY_CACHE, BY_KIND, BY_FUNCTION, BY_PID, BY_OBJECT };
#define NR_BY (BY_OBJECT + 1)
static const char *const by_name[NR_BY] = {
	"callsite", "cache", "kind", "function", "pid", "object",
};

struct row {
	uint64_t key;
	uint64_t objects, live, freed, bytes, bytes_alloc, life_sum, life_n;
	uint64_t reads, writes, never_read, never_written, cross_cpu;
	uint64_t mismatch, missed, accesses, touched, last_obj;
	uint32_t pid;
	uint64_t comm_jiffies;		/* of the object comm came from */
	char comm[KMAP_COMM_MAX];
	char name[40];
};

struct totals {
	uint64_t objects, live, bytes, bytes_alloc, lines, reads, writes;
	uint64_t never_read, never_written, missed, cross_cpu, mismatch;
	uint64_t life_sum, life_n;
	unsigned int has;
};

struct agg {
	struct kmap_map index;		/* key -> rows index */
	struct row *rows;
	size_t n, cap;
};

static struct row *agg_get(struct agg *a, uint64_t key)
{
	int is_new;
	uint64_t *slot = kmap_map_get(&a->index, key, &is_new);

	if (!slot)
		return NULL;
	if (is_new) {
		if (a->n == a->cap) {
			size_t cap = a->cap ? 2 * a->cap : 256;
			void *p = realloc(a->rows, cap * sizeof(*a->rows));

			if (!p) {
				kmap_map_del(&a->index, key);
				return NULL;
			}
			a->rows = p;
			a->cap = cap;
		}
		memset(&a->rows[a->n], 0, sizeof(*a->rows));
		a->rows[a->n].key = key;
		a->rows[a->n].last_obj = UINT64_MAX;
		*slot = a->n++;
	}
	return &a->rows[*slot];
}

/*
 * Freed by another API than its kind's (libkmap's table: a task's stack
 * goes with its pages, a per-CPU area with free_percpu(), a module's
 * global with its module); a missed free has none, nor a kind never freed.
 */
static int mismatched(const struct kmap_object *o)
{
	const struct kmap_kind *k = kmap_kind(o->kind);

	if (!(o->has & KMAP_HAS_FREE_API) || !(o->has & KMAP_HAS_KIND) ||
	    o->free_api == MEMORIZER_FREE_MISSED || !k || k->free_api < 0)
		return 0;
	return o->free_api != k->free_api;
}

/* Add one object's figures to a row. */
static void add_object(struct row *r, const struct kmap_object *o,
		       uint64_t reads, uint64_t writes)
{
	r->objects++;
	r->bytes += o->size;
	r->bytes_alloc += (o->has & KMAP_HAS_SIZE_ALLOC) ? o->size_alloc : o->size;
	if (kmap_object_freed(o)) {
		r->freed++;
		if (o->free_jiffies >= o->alloc_jiffies) {
			r->life_sum += o->free_jiffies - o->alloc_jiffies;
			r->life_n++;
		}
		if (o->free_ip == KMAP_FREE_IP_MISSED)
			r->missed++;
		if ((o->has & KMAP_HAS_CPU) && (o->has & KMAP_HAS_FREE_API) &&
		    o->alloc_cpu != o->free_cpu)
			r->cross_cpu++;
		if (mismatched(o))
			r->mismatch++;
	} else {
		r->live++;
	}
	r->reads += reads;
	r->writes += writes;
	r->never_read += reads == 0;
	r->never_written += writes == 0;
}

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

static void label_ip(struct kmap_sym *sym, uint64_t ip, char *out, size_t len)
{
	if (!sym || !kmap_sym_describe(sym, ip, out, len))
		snprintf(out, len, "%llx", (unsigned long long)ip);
}

#define MAXCOLS 24

struct out {
	struct col cols[MAXCOLS];
	int n;
};

static void addcol(struct out *o, const char *name, enum col_type t)
{
	o->cols[o->n++] = (struct col){ name, t };
}

static int run(int argc, char **argv)
{
	struct optparse p;
	const char *vmlinux = NULL, *system_map = NULL, *sort = NULL;
	const char *output = NULL;
	enum by by = BY_CALLSITE;
	enum table_fmt fmt = FMT_TEXT;
	uint64_t limit = 0;
	struct kmap_sym *sym;
	struct kmap_src *src;
	struct agg agg = { 0 };
	struct totals tot = { 0 };
	struct table t;
	struct out oc = { .n = 0 };
	const struct kmap_object *o;
	const struct kmap_access *acc;
	size_t nacc, i, j;
	char err[KMAP_ERR_MAX], label[512];
	struct output output_file;
	FILE *out;
	int rc = 0, idx, failed, sc;
	uint64_t objno = 0;

	optparse_init(&p, &cmd_report, argc, argv);
	while ((idx = opt_next(&p)) >= 0) {
		if (opt_is(&p, idx, "by")) {
			for (i = 0; i < NR_BY; i++)
				if (!strcmp(p.arg, by_name[i]))
					break;
			if (i == NR_BY) {
				error("--by %s: not callsite, cache, kind, function, pid or object",
				      p.arg);
				return 2;
			}
			by = i;
		} else if (opt_is(&p, idx, "sort")) {
			sort = p.arg;
		} else if (opt_is(&p, idx, "limit")) {
			if (parse_u64_arg("-n", p.arg, &limit))
				return 2;
		} else if (opt_is(&p, idx, "csv")) {
			fmt = FMT_CSV;
		} else if (opt_is(&p, idx, "json")) {
			fmt = FMT_JSON;
		} else if (opt_is(&p, idx, "vmlinux")) {
			vmlinux = p.arg;
		} else if (opt_is(&p, idx, "system-map")) {
			system_map = p.arg;
		} else if (opt_is(&p, idx, "output")) {
			output = p.arg;
		}
	}
	if (idx == -2)
		return 0;
	if (idx == -3)
		return 2;
	if (p.nops != 1) {
		error(p.nops ? "one file at a time" : "which file?");
		cmd_usage(&cmd_report, stderr);
		return 2;
	}
	sym = open_symbols(vmlinux, system_map, &failed);
	if (failed)
		return 2;
	if (by == BY_FUNCTION && !sym) {
		error("--by function names the functions of access ips: give --vmlinux FILE or --system-map FILE (/proc/kallsyms in the guest)");
		return 2;
	}
	if (output_open(&output_file, output, p.ops, 1)) {
		kmap_sym_close(sym);
		return 1;
	}
	out = output_file.f;
	src = kmap_src_open(p.ops[0], err);
	if (!src) {
		error("%s", err);
		output_close(&output_file, 0);
		kmap_sym_close(sym);
		return 1;
	}
	kmap_map_init(&agg.index);
	while ((rc = kmap_src_next(src, &o, &acc, &nacc)) > 0) {
		uint64_t reads = 0, writes = 0;
		struct row *r = NULL;

		for (i = 0; i < nacc; i++) {
			reads += acc[i].reads;
			writes += acc[i].writes;
		}
		tot.has |= o->has;
		tot.objects++;
		tot.live += !kmap_object_freed(o);
		tot.bytes += o->size;
		tot.bytes_alloc += (o->has & KMAP_HAS_SIZE_ALLOC) ? o->size_alloc : o->size;
		tot.lines += nacc;
		tot.reads += reads;
		tot.writes += writes;
		tot.never_read += reads == 0;
		tot.never_written += writes == 0;
		tot.missed += o->free_ip == KMAP_FREE_IP_MISSED;
		tot.cross_cpu += kmap_object_freed(o) && (o->has & KMAP_HAS_CPU) &&
				 (o->has & KMAP_HAS_FREE_API) && o->alloc_cpu != o->free_cpu;
		tot.mismatch += kmap_object_freed(o) && mismatched(o);
		if (kmap_object_freed(o) && o->free_jiffies >= o->alloc_jiffies) {
			tot.life_sum += o->free_jiffies - o->alloc_jiffies;
			tot.life_n++;
		}
		switch (by) {
		case BY_CALLSITE:
			r = agg_get(&agg, o->alloc_ip);
			if (r)
				add_object(r, o, reads, writes);
			break;
		case BY_CACHE:
			if (!(o->has & KMAP_HAS_KIND)) {
				error("%s: --by cache needs a binary stream: text kmaps name no caches",
				      p.ops[0]);
				rc = -2;
				goto done;
			}
			r = agg_get(&agg, (o->has & KMAP_HAS_CACHE) ? o->cache_id
				    : (uint64_t)1 << 32 | o->kind);
			if (!r)
				break;
			if (!r->name[0])
				snprintf(r->name, sizeof(r->name), "%s",
					 (o->has & KMAP_HAS_CACHE) && o->cache ? o->cache :
					 (o->has & KMAP_HAS_CACHE) ? "?" : kmap_kind_name(o->kind));
			add_object(r, o, reads, writes);
			break;
		case BY_KIND: {
			/*
			 * A text kmap says only which objects are globals,
			 * per-CPU objects or IRQ stacks.
			 */
			int kind = kmap_object_kind(o);

			r = agg_get(&agg, (uint64_t)(int64_t)kind);
			if (!r)
				break;
			if (!r->name[0])
				snprintf(r->name, sizeof(r->name), "%s",
					 kmap_kind_name(kind));
			add_object(r, o, reads, writes);
			break;
		}
		case BY_PID:
			r = agg_get(&agg, o->pid);
			if (!r)
				break;
			r->pid = o->pid;
			/* A pid's newest command: the one after its exec. */
			if (!r->comm[0] || o->alloc_jiffies > r->comm_jiffies) {
				snprintf(r->comm, sizeof(r->comm), "%s", o->comm);
				r->comm_jiffies = o->alloc_jiffies;
			}
			add_object(r, o, 0, 0);
			for (i = 0; i < nacc && r; i++) {
				struct row *a = agg_get(&agg, acc[i].pid);

				if (!a) {
					r = NULL;
					break;
				}
				a->pid = acc[i].pid;
				a->reads += acc[i].reads;
				a->writes += acc[i].writes;
				if (a->last_obj != objno) {
					a->last_obj = objno;
					a->touched++;
				}
				r = a;
			}
			break;
		case BY_FUNCTION:
			r = (struct row *)1;
			for (i = 0; i < nacc; i++) {
				uint64_t start;
				const char *fn = kmap_sym_function(sym, acc[i].ip, &start);
				struct row *a = agg_get(&agg, fn ? start : acc[i].ip);

				if (!a) {
					r = NULL;
					break;
				}
				if (!a->name[0])
					snprintf(a->name, sizeof(a->name), "%s",
						 fn ? fn : "?");
				if (!fn)
					snprintf(a->name, sizeof(a->name), "%llx",
						 (unsigned long long)acc[i].ip);
				a->accesses++;
				a->reads += acc[i].reads;
				a->writes += acc[i].writes;
				if (a->last_obj != objno) {
					a->last_obj = objno;
					a->objects++;
					a->bytes += o->size;
				}
			}
			break;
		case BY_OBJECT:
			r = agg_get(&agg, objno);
			if (!r)
				break;
			add_object(r, o, reads, writes);
			r->pid = o->pid;
			snprintf(r->comm, sizeof(r->comm), "%s", o->comm);
			r->accesses = nacc;
			/* keep what the row needs: addr, callsite, times */
			r->key = objno;
			r->life_sum = o->alloc_jiffies;
			r->life_n = o->free_jiffies;
			r->missed = o->addr;
			r->cross_cpu = o->alloc_ip;
			r->mismatch = (o->has & KMAP_HAS_SIZE_ALLOC) ? o->size_alloc : o->size;
			snprintf(r->name, sizeof(r->name), "%s",
				 (o->has & KMAP_HAS_CACHE) && o->cache ? o->cache :
				 (o->has & KMAP_HAS_KIND) ? kmap_kind_name(o->kind) : "");
			break;
		}
		if (!r) {
			error("out of memory");
			rc = -2;
			goto done;
		}
		objno++;
	}
	if (rc < 0) {
		error("%s", kmap_src_error(src));
		goto done;
	}

	/* Columns: documented, stable; binary-only ones only for binary input. */
	{
		int bin = !!(tot.has & KMAP_HAS_KIND);

		switch (by) {
		case BY_CALLSITE:
		case BY_CACHE:
		case BY_KIND:
			addcol(&oc, by_name[by], COL_STR);
			addcol(&oc, "objects", COL_U64);
			addcol(&oc, "live", COL_U64);
			addcol(&oc, "bytes", COL_U64);
			if (bin) {
				addcol(&oc, "bytes_alloc", COL_U64);
				addcol(&oc, "waste", COL_U64);
			}
			addcol(&oc, "avg_lifetime", COL_F64);
			addcol(&oc, "reads", COL_U64);
			addcol(&oc, "writes", COL_U64);
			addcol(&oc, "reads_per_byte", COL_F64);
			addcol(&oc, "writes_per_byte", COL_F64);
			addcol(&oc, "never_read", COL_U64);
			addcol(&oc, "never_written", COL_U64);
			addcol(&oc, "missed_free", COL_U64);
			if (bin) {
				addcol(&oc, "cross_cpu", COL_U64);
				addcol(&oc, "mismatched_free", COL_U64);
			}
			break;
		case BY_FUNCTION:
			addcol(&oc, "function", COL_STR);
			addcol(&oc, "accesses", COL_U64);
			addcol(&oc, "reads", COL_U64);
			addcol(&oc, "writes", COL_U64);
			addcol(&oc, "sites", COL_U64);
			addcol(&oc, "objects", COL_U64);
			addcol(&oc, "bytes", COL_U64);
			break;
		case BY_PID:
			addcol(&oc, "pid", COL_U64);
			addcol(&oc, "comm", COL_STR);
			addcol(&oc, "objects", COL_U64);
			addcol(&oc, "bytes", COL_U64);
			addcol(&oc, "reads", COL_U64);
			addcol(&oc, "writes", COL_U64);
			addcol(&oc, "objects_accessed", COL_U64);
			break;
		case BY_OBJECT:
			addcol(&oc, "object", COL_U64);
			addcol(&oc, "addr", COL_STR);
			addcol(&oc, "callsite", COL_STR);
			addcol(&oc, "pid", COL_U64);
			addcol(&oc, "comm", COL_STR);
			addcol(&oc, "size", COL_U64);
			if (bin) {
				addcol(&oc, "size_alloc", COL_U64);
				addcol(&oc, "cache", COL_STR);
			}
			addcol(&oc, "alloc_jiffies", COL_U64);
			addcol(&oc, "free_jiffies", COL_U64);
			addcol(&oc, "reads", COL_U64);
			addcol(&oc, "writes", COL_U64);
			addcol(&oc, "sites", COL_U64);
			break;
		}
		table_init(&t, oc.cols, oc.n);
		for (i = 0; i < agg.n; i++) {
			struct row *r = &agg.rows[i];
			union cell *c = table_row(&t);

			if (!c) {
				error("out of memory");
				rc = -2;
				goto free_table;
			}
			j = 0;
			switch (by) {
			case BY_CALLSITE:
			case BY_CACHE:
			case BY_KIND:
				if (by == BY_CALLSITE)
					label_ip(sym, r->key, label, sizeof(label));
				else
					snprintf(label, sizeof(label), "%s", r->name);
				cell_str(&c[j++], label);
				c[j++].u = r->objects;
				c[j++].u = r->live;
				c[j++].u = r->bytes;
				if (bin) {
					c[j++].u = r->bytes_alloc;
					c[j++].u = r->bytes_alloc - r->bytes;
				}
				c[j++].f = ratio(r->life_sum, r->life_n);
				c[j++].u = r->reads;
				c[j++].u = r->writes;
				c[j++].f = ratio(r->reads, r->bytes);
				c[j++].f = ratio(r->writes, r->bytes);
				c[j++].u = r->never_read;
				c[j++].u = r->never_written;
				c[j++].u = r->missed;
				if (bin) {
					c[j++].u = r->cross_cpu;
					c[j++].u = r->mismatch;
				}
				break;
			case BY_FUNCTION:
				cell_str(&c[j++], r->name);
				c[j++].u = r->reads + r->writes;
				c[j++].u = r->reads;
				c[j++].u = r->writes;
				c[j++].u = r->accesses;
				c[j++].u = r->objects;
				c[j++].u = r->bytes;
				break;
			case BY_PID:
				c[j++].u = r->pid;
				cell_str(&c[j++], r->comm);
				c[j++].u = r->objects;
				c[j++].u = r->bytes;
				c[j++].u = r->reads;
				c[j++].u = r->writes;
				c[j++].u = r->touched;
				break;
			case BY_OBJECT:
				c[j++].u = r->key;
				snprintf(label, sizeof(label), "%llx",
					 (unsigned long long)r->missed);
				cell_str(&c[j++], label);
				label_ip(sym, r->cross_cpu, label, sizeof(label));
				cell_str(&c[j++], label);
				c[j++].u = r->pid;
				cell_str(&c[j++], r->comm);
				c[j++].u = r->bytes;
				if (bin) {
					c[j++].u = r->mismatch;
					cell_str(&c[j++], r->name);
				}
				c[j++].u = r->life_sum;
				c[j++].u = r->life_n;
				c[j++].u = r->reads;
				c[j++].u = r->writes;
				c[j++].u = r->accesses;
				break;
			}
			for (j = 0; j < (size_t)oc.n; j++)
				if (oc.cols[j].type == COL_STR && !c[j].s) {
					error("out of memory");
					rc = -2;
					goto free_table;
				}
		}
		if (!sort)
			sort = by == BY_FUNCTION ? "accesses" :
			       by == BY_OBJECT ? "size" : "bytes";
		sc = table_col(&t, sort);
		if (sc < 0) {
			error("--sort %s: no such column in this report; columns:", sort);
			for (j = 0; j < (size_t)oc.n; j++)
				fprintf(stderr, " %s", oc.cols[j].name);
			fputc('\n', stderr);
			rc = -3;
			goto free_table;
		}
		table_sort(&t, sc);
		if (fmt == FMT_TEXT) {
			fprintf(out, "%s: %s, %llu objects (%llu live), %llu bytes",
				p.ops[0], kmap_src_format(src) == KMAP_FMT_TEXT ?
				"text kmap" : "binary stream",
				(unsigned long long)tot.objects,
				(unsigned long long)tot.live,
				(unsigned long long)tot.bytes);
			if (bin)
				fprintf(out, " requested, %llu allocated (%.1f%% waste)",
					(unsigned long long)tot.bytes_alloc,
					100.0 * ratio(tot.bytes_alloc - tot.bytes,
						      tot.bytes_alloc));
			fprintf(out, "\n  %llu access lines: %llu reads, %llu writes (%.2f, %.2f per byte)\n",
				(unsigned long long)tot.lines,
				(unsigned long long)tot.reads,
				(unsigned long long)tot.writes,
				ratio(tot.reads, tot.bytes),
				ratio(tot.writes, tot.bytes));
			fprintf(out, "  never read: %llu objects, never written: %llu, missed frees: %llu, average lifetime %.2f jiffies\n",
				(unsigned long long)tot.never_read,
				(unsigned long long)tot.never_written,
				(unsigned long long)tot.missed,
				ratio(tot.life_sum, tot.life_n));
			if (bin)
				fprintf(out, "  cross-CPU frees: %llu, mismatched frees: %llu, lost records: %llu, objects allocated before the stream: %llu\n",
					(unsigned long long)tot.cross_cpu,
					(unsigned long long)tot.mismatch,
					(unsigned long long)kmap_src_lost(src),
					(unsigned long long)kmap_src_orphans(src));
			fputc('\n', out);
			table_print(&t, out, fmt, limit, NULL);
		} else if (fmt == FMT_JSON) {
			char head[2048];

			snprintf(head, sizeof(head),
				 "\"by\":\"%s\",\"format\":\"%s\",\"summary\":{\"objects\":%llu,\"live\":%llu,\"bytes\":%llu,\"bytes_alloc\":%llu,\"access_lines\":%llu,\"reads\":%llu,\"writes\":%llu,\"never_read\":%llu,\"never_written\":%llu,\"missed_free\":%llu,\"cross_cpu\":%llu,\"mismatched_free\":%llu,\"lost_records\":%llu},\n",
				 by_name[by], kmap_src_format(src) == KMAP_FMT_TEXT ?
				 "text" : "binary",
				 (unsigned long long)tot.objects,
				 (unsigned long long)tot.live,
				 (unsigned long long)tot.bytes,
				 (unsigned long long)tot.bytes_alloc,
				 (unsigned long long)tot.lines,
				 (unsigned long long)tot.reads,
				 (unsigned long long)tot.writes,
				 (unsigned long long)tot.never_read,
				 (unsigned long long)tot.never_written,
				 (unsigned long long)tot.missed,
				 (unsigned long long)tot.cross_cpu,
				 (unsigned long long)tot.mismatch,
				 (unsigned long long)kmap_src_lost(src));
			table_print(&t, out, fmt, limit, head);
		} else {
			table_print(&t, out, fmt, limit, NULL);
		}
free_table:
		table_free(&t);
	}
done:
	if (output_close(&output_file, rc >= 0) && rc >= 0)
		rc = -2;
	kmap_src_close(src);
	kmap_sym_close(sym);
	kmap_map_free(&agg.index);
	free(agg.rows);
	return rc == -3 ? 2 : rc < 0 ? 1 : 0;
}

const struct cmd cmd_report = {
	.name = "report",
	.summary = "summarize a kmap or stream per call site, cache, kind, function, pid or object",
	.synopsis = "FILE [--by callsite|cache|kind|function|pid|object] [--sort COLUMN] [-n N] [--csv|--json] [--vmlinux FILE|--system-map FILE] [-o FILE]",
	.description =
"Reads FILE (- for standard input), a text kmap or a binary stream "
"(optionally zstd-compressed), through libkmap, and prints totals and one "
"row per group: the summaries of kmemtrace-report and perf kmem stat, and "
"a per-allocation-site view like DHAT's. Memory grows with the number of "
"groups, not with the input.\n"
"\n"
"Columns, stable for scripts (CSV header and JSON keys are these names; "
"lifetimes are in jiffies; per-byte figures are counts divided by bytes "
"requested):\n"
"\n"
"  --by callsite: callsite objects live bytes [bytes_alloc waste]\n"
"    avg_lifetime reads writes reads_per_byte writes_per_byte never_read\n"
"    never_written missed_free [cross_cpu mismatched_free]\n"
"  --by cache: as callsite, with cache first (binary streams only)\n"
"  --by kind: as callsite, with kind first\n"
"  --by function: function accesses reads writes sites objects bytes\n"
"  --by pid: pid comm objects bytes reads writes objects_accessed\n"
"  --by object: object addr callsite pid comm size [size_alloc cache]\n"
"    alloc_jiffies free_jiffies reads writes sites\n"
"\n"
"Bracketed columns come only from binary streams: text kmaps carry no "
"allocated size, cache, allocator kind, CPU or free function. waste is "
"bytes_alloc - bytes (internal fragmentation); cross_cpu counts objects "
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
"which was seen are found too. A text kmap names no allocator, so there "
"an object with pid 0 and its own address as alloc_ip is global, percpu "
"or stack when its executable is global, percpu or irq_stack, and any "
"other object (unseen and page ones among them: their executable does "
"not say the kind) is unknown. In --by pid, objects and bytes are what "
"the pid allocated, reads, writes and objects_accessed what it accessed, "
"comm its newest command (a pid that called exec had two). "
"In --by function, accesses are reads + writes by the function's "
"instructions, sites its distinct (ip, pid) counters. callsite and "
"function are function+offset with symbols, hexadecimal without.",
	.opts = opts,
	.files_desc = "kmap",
	.examples =
"  $ memorizer report tar.kmap --system-map out/System.map -n 5\n"
"  $ memorizer report tar.kmap --by pid --csv > pids.csv\n"
"  $ memorizer report stream.bin --by cache --sort waste --json",
	.run = run,
};
