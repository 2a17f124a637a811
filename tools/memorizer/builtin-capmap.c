// SPDX-License-Identifier: GPL-2.0
/*
 * memorizer capmap: the capability map of a kmap or stream, which code
 * (function, file, directory, ip) reads, writes and frees which objects
 * (by allocation call site, cache, kind, or one by one). The matrix is
 * libkmap's (kmap_capmap_*), so that other views can build it alike; this
 * file reads the input into it and prints it as a table or a graph.
 * memorizer diff builds two through capmap_read().
 */
#include <stdlib.h>
#include <string.h>

#include <json.h>

#include <linux/memorizer.h>

#include "capmap.h"
#include "kmap_types.h"

struct capmap_opts capmap_opts = {
	.subject = KMAP_SUBJECT_FUNCTION,
	.group = KMAP_GROUP_CALLSITE,
};
/* capmap's --dot, in capmap_opts.formats with --csv and --json. */
#define FORMAT_DOT	(1u << 3)

static const struct opt opts[] = {
	OPT_CAPMAP_ROWS("One row per function (the default), file, dir (directory), file-function (a file's code in one function) or ip that read, wrote or freed."),
	OPT_CAPMAP_COLS("Group the objects by callsite (the allocating function, the default), cache, kind, object or type (the struct type of a slab cache's objects, from --btf, else --vmlinux's DWARF: the struct of the cache's name, or of a known other name such as filp's file; other objects by cache or kind)."),
	OPT_CAPMAP_LIMIT("Print the first N cells only (N >= 1)."),
	OPT__CSV(&capmap_opts.formats, "Comma-separated values: a header line of column names, then one line per cell; no summary."),
	OPT__JSON(&capmap_opts.formats, "One JSON object: \"subject\", \"group\", \"input\", \"summary\" (the totals), \"columns\" and \"rows\" (one object per cell, keyed by column name)."),
	OPT_BIT(0, "dot", &capmap_opts.formats, "A Graphviz graph: subjects (boxes) to object groups (ellipses), one edge per cell.", FORMAT_DOT),
	OPT_BOOLEAN(0, "fields", &capmap_opts.fields, "Split each cell by the bytes of the objects its accesses touched (+OFFSET..END): needs offsets, a kmap_offsets or a version 5 stream. With struct types (--btf, or --vmlinux's DWARF; --cols other than kind), a field column names the struct member those bytes are (f_path.dentry)."),
	OPT__VMLINUX(&capmap_opts.vmlinux, "Name ips from a vmlinux: functions from its symbol table, files and directories from its DWARF line tables."),
	OPT__SYSTEM_MAP(&capmap_opts.system_map, "Name ips from a System.map or /proc/kallsyms (functions only)."),
	OPT__BTF(&capmap_opts.btf, OPT_BTF_HELP),
	OPT__OUTPUT(&capmap_opts.output, OPT_OUTPUT_HELP),
	OPT_END(),
};

enum table_fmt capmap_fmt(const struct capmap_opts *o)
{
	if (o->formats & FORMAT_CSV)
		return FMT_CSV;
	if (o->formats & FORMAT_JSON)
		return FMT_JSON;
	return FMT_TEXT;
}

int capmap_rows_cb(const struct opt *opt, const char *arg)
{
	int v = kmap_capmap_subject_parse(arg);

	if (v < 0) {
		error("--rows %s: not function, file, dir, file-function or ip",
		      arg);
		return -1;
	}
	*(enum kmap_capmap_subject *)opt->value = v;
	return 0;
}

int capmap_cols_cb(const struct opt *opt, const char *arg)
{
	int v = kmap_capmap_group_parse(arg);

	if (v < 0) {
		error("--cols %s: not callsite, cache, kind, object or type",
		      arg);
		return -1;
	}
	*(enum kmap_capmap_group *)opt->value = v;
	return 0;
}

int capmap_limit_cb(const struct opt *opt, const char *arg)
{
	uint64_t *limit = opt->value;

	if (parse_u64_arg("-n", arg, limit))
		return -1;
	if (!*limit) {
		error("-n 0: nothing to print (leave -n out for all)");
		return -1;
	}
	return 0;
}

struct kmap_capmap *capmap_new(const struct capmap_opts *o,
			       struct kmap_sym *sym)
{
	const char *rows = kmap_capmap_subject_name(o->subject);
	int lines = o->subject == KMAP_SUBJECT_FILE ||
		    o->subject == KMAP_SUBJECT_DIR ||
		    o->subject == KMAP_SUBJECT_FILE_FUNCTION;
	struct kmap_capmap *m;
	char err[KMAP_ERR_MAX];

	if (o->subject == KMAP_SUBJECT_FUNCTION && !sym) {
		error("--rows function names the functions of access ips: give --vmlinux FILE or --system-map FILE (/proc/kallsyms in the guest), or use --rows ip");
		return NULL;
	}
	if (lines && !o->vmlinux) {
		error("--rows %s needs DWARF line tables: give --vmlinux FILE (a vmlinux built with debug info); a System.map names functions only (--rows function)",
		      rows);
		return NULL;
	}
	if (lines && !kmap_sym_has_lines(sym)) {
		error("%s: no DWARF line tables: --rows %s needs a vmlinux built with debug info (CONFIG_DEBUG_INFO)",
		      o->vmlinux, rows);
		return NULL;
	}
	if (o->group == KMAP_GROUP_TYPE && !o->vmlinux && !o->btf) {
		error("--cols type needs struct types: give --vmlinux FILE (a vmlinux built with debug info) or --btf FILE (the kernel's BTF)");
		return NULL;
	}
	m = kmap_capmap_new(o->subject, o->group, sym, err);
	if (!m) {
		error("%s", err);
		return NULL;
	}
	if (o->group == KMAP_GROUP_TYPE || o->fields) {
		int failed;
		struct kmap_types *types = open_types(o->vmlinux, o->btf, err,
						      &failed);

		if (failed) {
			kmap_capmap_free(m);
			return NULL;
		}
		if (!types && o->group == KMAP_GROUP_TYPE) {
			error("--cols type: %s", err);
			kmap_capmap_free(m);
			return NULL;
		}
		kmap_capmap_set_types(m, types);
	}
	return m;
}

struct capmap_reader {
	struct kmap_capmap *m;
	enum kmap_capmap_group group;
	struct kmap_src *src;
	const char *name;
};

/* A map split by range (--fields) of an input without offsets: -1. */
static int fields_unknown(const struct capmap_reader *r)
{
	struct kmap_bin_reader *b = kmap_src_bin(r->src);

	if (!kmap_capmap_split(r->m) || kmap_src_offsets(r->src) != 0)
		return 0;
	if (b)
		error("%s: --fields needs the bytes each access touched, and a version %u stream has none: record a version 5 stream (memorizer stream --binary, from a kernel that writes them) or read debugfs memorizer/kmap_offsets",
		      r->name, kmap_bin_header(b)->version);
	else
		error("%s: --fields needs the bytes each access touched, and this kmap has none (access lines of 4 fields): read debugfs memorizer/kmap_offsets instead of kmap, or a version 5 stream",
		      r->name);
	return -1;
}

static int add_object(void *ctx, const struct kmap_object *o,
		      const struct kmap_access *acc, size_t nacc)
{
	const struct capmap_reader *r = ctx;

	if (r->group == KMAP_GROUP_CACHE && !(o->has & KMAP_HAS_KIND)) {
		error("%s: --cols cache needs objects that name their cache: a binary stream, or a kmap_offsets whose object lines carry kind and cache (a kmap names none: --cols callsite or kind)",
		      r->name);
		return -1;
	}
	if (fields_unknown(r))
		return -1;
	if (kmap_capmap_add(r->m, o, acc, nacc)) {
		error("out of memory");
		return -1;
	}
	return 0;
}

int capmap_read(struct kmap_capmap *m, enum kmap_capmap_group group,
		struct kmap_src *src)
{
	struct capmap_reader r = { m, group, src, kmap_src_name(src) };

	return read_objects(src, add_object, &r);
}

const char *capmap_plural(enum kmap_capmap_subject subject, uint64_t n)
{
	static const char *const names[][2] = {
		[KMAP_SUBJECT_FUNCTION] = { "function", "functions" },
		[KMAP_SUBJECT_FILE] = { "file", "files" },
		[KMAP_SUBJECT_DIR] = { "directory", "directories" },
		[KMAP_SUBJECT_IP] = { "ip", "ips" },
		[KMAP_SUBJECT_FILE_FUNCTION] = { "function in a file",
						 "functions in files" },
	};

	return names[subject][n != 1];
}

const char *capmap_group_plural(enum kmap_capmap_group group, uint64_t n)
{
	static const char *const names[][2] = {
		[KMAP_GROUP_CALLSITE] = { "call site", "call sites" },
		[KMAP_GROUP_CACHE] = { "cache", "caches" },
		[KMAP_GROUP_KIND] = { "kind", "kinds" },
		[KMAP_GROUP_OBJECT] = { "object", "objects" },
		[KMAP_GROUP_TYPE] = { "type", "types" },
	};

	return names[group][n != 1];
}

/* Cells in order: most reads, writes and frees first, then by name. */
static const struct kmap_capmap *sort_map;
static const struct kmap_capmap_cell *sort_cells;

static uint64_t cell_total(const struct kmap_capmap_cell *c)
{
	return kmap_add_sat(kmap_add_sat(c->reads, c->writes), c->frees);
}

static int cell_cmp(const void *x, const void *y)
{
	const struct kmap_capmap_cell *a = &sort_cells[*(const size_t *)x];
	const struct kmap_capmap_cell *b = &sort_cells[*(const size_t *)y];
	uint64_t ta = cell_total(a), tb = cell_total(b);
	int r;

	if (ta != tb)
		return ta > tb ? -1 : 1;
	r = strcmp(kmap_capmap_subject_of(sort_map, a),
		   kmap_capmap_subject_of(sort_map, b));
	if (!r)
		r = strcmp(kmap_capmap_group_of(sort_map, a),
			   kmap_capmap_group_of(sort_map, b));
	/* Split by range: by range, the first bytes first. */
	if (!r && a->offset != b->offset)
		r = a->offset < b->offset ? -1 : 1;
	if (!r && a->offset_end != b->offset_end)
		r = a->offset_end < b->offset_end ? -1 : 1;
	return r;
}

/* A cell's range as shown: "+OFFSET..END", "-" when none is known. */
static void range_str(const struct kmap_capmap_cell *c, char *buf, size_t len)
{
	if (c->offset_end)
		snprintf(buf, len, "+%u..%u", c->offset, c->offset_end);
	else
		snprintf(buf, len, "-");
}

/* The cells' indexes, sorted; NULL when out of memory. */
static size_t *sorted_cells(const struct kmap_capmap *m, size_t *n)
{
	const struct kmap_capmap_cell *cells;
	size_t i, *order;

	*n = kmap_capmap_cells(m, &cells);
	order = malloc((*n ? *n : 1) * sizeof(*order));
	if (!order)
		return NULL;
	for (i = 0; i < *n; i++)
		order[i] = i;
	sort_map = m;
	sort_cells = cells;
	qsort(order, *n, sizeof(*order), cell_cmp);
	return order;
}

/* A DOT string: quoted, its quotes and backslashes escaped. */
static void dot_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc((unsigned char)*s < 0x20 ? '?' : *s, f);
	}
	fputc('"', f);
}

/* Edges drawn wider with each decade of accesses and frees. */
static int decades(uint64_t v)
{
	int n = 0;

	for (; v >= 10; v /= 10)
		n++;
	return n;
}

/*
 * The graph: one node per subject and group that an edge shown names,
 * an edge per cell, labelled with its counts and coloured by the
 * strongest right it shows (free, then write, then read).
 */
static int print_dot(const struct kmap_capmap *m, const size_t *order,
		     size_t n, FILE *f)
{
	const struct kmap_capmap_cell *cells;
	unsigned char *seen_s, *seen_g;
	size_t i;

	kmap_capmap_cells(m, &cells);
	seen_s = calloc(kmap_capmap_nsubjects(m) + 1, 1);
	seen_g = calloc(kmap_capmap_ngroups(m) + 1, 1);
	if (!seen_s || !seen_g) {
		free(seen_s);
		free(seen_g);
		error("out of memory");
		return -1;
	}
	fputs("digraph capmap {\n\trankdir=LR;\n\tnode [fontname=\"Helvetica\"];\n\tedge [fontname=\"Helvetica\", fontsize=10];\n", f);
	for (i = 0; i < n; i++) {
		const struct kmap_capmap_cell *c = &cells[order[i]];

		if (!seen_s[c->subject]++) {
			fprintf(f, "\ts%u [shape=box, label=", c->subject);
			dot_str(f, kmap_capmap_subject_of(m, c));
			fputs("];\n", f);
		}
		if (!seen_g[c->group]++) {
			fprintf(f, "\tg%u [shape=ellipse, label=", c->group);
			dot_str(f, kmap_capmap_group_of(m, c));
			fputs("];\n", f);
		}
		fprintf(f, "\ts%u -> g%u [label=\"", c->subject, c->group);
		if (kmap_capmap_split(m)) {
			char range[32];

			range_str(c, range, sizeof(range));
			fprintf(f, "%s ", range);
		}
		fprintf(f, "r %llu w %llu f %llu\", color=%s, penwidth=%d];\n",
			(unsigned long long)c->reads,
			(unsigned long long)c->writes,
			(unsigned long long)c->frees,
			c->frees ? "red" : c->writes ? "darkorange" : "steelblue",
			1 + decades(cell_total(c)) / 2);
	}
	fputs("}\n", f);
	free(seen_s);
	free(seen_g);
	return 0;
}

static void print_summary(const struct kmap_capmap *m,
			  enum kmap_capmap_subject subject,
			  enum kmap_capmap_group group, const char *input,
			  FILE *f)
{
	struct kmap_capmap_totals t;
	const struct kmap_capmap_cell *cells;
	size_t ns = kmap_capmap_nsubjects(m), ng = kmap_capmap_ngroups(m);
	size_t nc = kmap_capmap_cells(m, &cells);

	kmap_capmap_totals(m, &t);
	fprintf(f, "%s: %llu %s in %zu %s, touched by %zu %s: %zu %s\n",
		input, (unsigned long long)t.objects,
		plural(t.objects, "object", "objects"), ng,
		capmap_group_plural(group, ng), ns, capmap_plural(subject, ns),
		nc, plural(nc, "cell", "cells"));
	fprintf(f, "  %llu %s, %llu %s, %llu %s",
		(unsigned long long)t.reads, plural(t.reads, "read", "reads"),
		(unsigned long long)t.writes, plural(t.writes, "write", "writes"),
		(unsigned long long)t.frees, plural(t.frees, "free", "frees"));
	if (t.frees_unattributed)
		fprintf(f, " (and %llu without a free ip, in no cell)",
			(unsigned long long)t.frees_unattributed);
	if (kmap_capmap_has_types(m))
		fprintf(f, "\n  struct types: %llu by cache, %llu by the call site's variable, %llu by size, %llu by global variable, %llu not known",
			(unsigned long long)t.typed[KMAP_TYPE_CACHE],
			(unsigned long long)t.typed[KMAP_TYPE_RESULT],
			(unsigned long long)t.typed[KMAP_TYPE_SIZE],
			(unsigned long long)t.typed[KMAP_TYPE_GLOBAL],
			(unsigned long long)t.typed[KMAP_TYPE_NONE]);
	fputs("\n\n", f);
}

static struct json_object *json_head(const struct kmap_capmap *m,
				     enum kmap_capmap_subject subject,
				     enum kmap_capmap_group group,
				     const char *input)
{
	struct json_object *h = json_object_new_object();
	struct json_object *s = json_object_new_object();
	const struct kmap_capmap_cell *cells;
	struct kmap_capmap_totals t;
	size_t i, nc = kmap_capmap_cells(m, &cells);
	const struct { const char *key; uint64_t v; } figures[] = {
		{ "objects", 0 }, { "subjects", kmap_capmap_nsubjects(m) },
		{ "groups", kmap_capmap_ngroups(m) }, { "cells", nc },
		{ "reads", 0 }, { "writes", 0 }, { "frees", 0 },
		{ "frees_unattributed", 0 },
	};
	uint64_t v[8];

	if (!h || !s) {
		json_object_put(h);
		json_object_put(s);
		return NULL;
	}
	kmap_capmap_totals(m, &t);
	for (i = 0; i < 8; i++)
		v[i] = figures[i].v;
	v[0] = t.objects;
	v[4] = t.reads;
	v[5] = t.writes;
	v[6] = t.frees;
	v[7] = t.frees_unattributed;
	json_object_object_add(h, "subject", json_object_new_string(
		kmap_capmap_subject_name(subject)));
	json_object_object_add(h, "group", json_object_new_string(
		kmap_capmap_group_name(group)));
	json_object_object_add(h, "input", json_bytes(input));
	for (i = 0; i < 8; i++)
		json_object_object_add(s, figures[i].key,
				       json_object_new_uint64(v[i]));
	if (kmap_capmap_has_types(m)) {
		struct json_object *ty = json_object_new_object();

		for (i = 0; i < KMAP_TYPE_WAYS; i++)
			json_object_object_add(ty, kmap_type_way_names[i],
				json_object_new_uint64(t.typed[i]));
		json_object_object_add(s, "types", ty);
	}
	json_object_object_add(h, "summary", s);
	return h;
}

static int print_table(const struct kmap_capmap *m, const size_t *order,
		       size_t n, enum kmap_capmap_subject subject,
		       enum kmap_capmap_group group, const char *input,
		       enum table_fmt fmt, FILE *f)
{
	/*
	 * Split by range (--fields), after the group: its range, one column
	 * in text (+OFFSET..END), two in CSV and JSON (offset, offset_end;
	 * empty or null when not known).
	 */
	int split = kmap_capmap_split(m), text = fmt == FMT_TEXT;
	/* With struct types, a third: the member (empty where none is known). */
	int named = split && group != KMAP_GROUP_KIND &&
		    kmap_capmap_has_types(m);
	int nr = split ? (text ? 1 : 2) + named : 0;
	const struct col cols[] = {
		{ kmap_capmap_subject_name(subject), COL_STR },
		{ kmap_capmap_group_name(group), COL_STR },
		{ text ? "range" : "offset", text ? COL_STR : COL_U64_OPT },
		{ "offset_end", COL_U64_OPT },
		{ "field", COL_STR },
		{ "reads", COL_U64 }, { "writes", COL_U64 },
		{ "frees", COL_U64 }, { "objects", COL_U64 },
	};
	struct col shown[9];
	const struct kmap_capmap_cell *cells;
	struct json_object *head = NULL;
	struct table t;
	size_t i;
	int rc = 0;

	memcpy(shown, cols, 2 * sizeof(*cols));
	memcpy(shown + 2, cols + 2, (nr - named) * sizeof(*cols));
	if (named)
		shown[1 + nr] = cols[4];
	memcpy(shown + 2 + nr, cols + 5, 4 * sizeof(*cols));
	kmap_capmap_cells(m, &cells);
	table_init(&t, shown, 6 + nr);
	for (i = 0; i < n && !rc; i++) {
		const struct kmap_capmap_cell *c = &cells[order[i]];
		union cell *row = table_row(&t);
		char range[32];

		if (!row || cell_str(&row[0], kmap_capmap_subject_of(m, c)) ||
		    cell_str(&row[1], kmap_capmap_group_of(m, c))) {
			rc = -1;
			break;
		}
		if (split && text) {
			range_str(c, range, sizeof(range));
			if (cell_str(&row[2], range)) {
				rc = -1;
				break;
			}
		} else if (split) {
			row[2].u = c->offset_end ? c->offset : CELL_U64_NONE;
			row[3].u = c->offset_end ? c->offset_end : CELL_U64_NONE;
		}
		if (named) {
			char field[KMAP_LINE_MAX];

			kmap_capmap_field(m, c, field, sizeof(field));
			if (cell_str(&row[1 + nr], field)) {
				rc = -1;
				break;
			}
		}
		row[2 + nr].u = c->reads;
		row[3 + nr].u = c->writes;
		row[4 + nr].u = c->frees;
		row[5 + nr].u = c->objects;
	}
	if (!rc && fmt == FMT_JSON &&
	    !(head = json_head(m, subject, group, input)))
		rc = -1;
	if (!rc && fmt == FMT_TEXT)
		print_summary(m, subject, group, input, f);
	if (!rc)
		rc = table_print(&t, f, fmt, 0, head);
	if (rc)
		error("out of memory");
	json_object_put(head);
	table_free(&t);
	return rc;
}

int cmd_capmap(int argc, char **argv)
{
	const struct capmap_opts *o = &capmap_opts;
	int rc = -1, failed;
	struct kmap_capmap *m = NULL;
	struct kmap_src *src = NULL;
	struct kmap_sym *sym;
	char err[KMAP_ERR_MAX];
	size_t n, *order = NULL;
	struct output out;

	if (o->formats & (o->formats - 1)) {
		error("one of --csv, --json and --dot");
		return 2;
	}
	if (argc != 1) {
		error(argc ? "one file at a time (memorizer diff compares two)" :
		      "which file?");
		cmd_usage(&cmd_capmap_desc, stderr);
		return 2;
	}
	sym = open_symbols(o->vmlinux, o->system_map, &failed);
	if (failed)
		return 2;
	m = capmap_new(o, sym);
	if (!m) {
		rc = -2;
		goto out;
	}
	if (o->fields)
		kmap_capmap_split_ranges(m);
	if (output_open(&out, o->output, argv, 1))
		goto out;
	src = open_input(argv[0], err);
	if (!src)
		error("%s", err);
	else if (!capmap_read(m, o->group, src) &&
		 !(order = sorted_cells(m, &n)))
		error("out of memory");
	if (order) {
		if (o->limit && o->limit < n)
			n = o->limit;
		rc = o->formats & FORMAT_DOT ? print_dot(m, order, n, out.f) :
		     print_table(m, order, n, o->subject, o->group,
				 kmap_src_name(src), capmap_fmt(o), out.f);
	}
	if (output_close(&out, !rc) && !rc)
		rc = -1;
out:
	free(order);
	kmap_src_close(src);
	kmap_capmap_free(m);
	kmap_sym_close(sym);
	return rc == -2 ? 2 : rc ? 1 : 0;
}

const struct cmd cmd_capmap_desc = {
	.name = "capmap",
	.summary = "which code reads, writes and frees which objects: a capability map",
	.synopsis = "FILE [--rows function|file|dir|file-function|ip] [--cols callsite|cache|kind|object|type] [--fields] [-n N] [--csv|--json|--dot] [--vmlinux FILE|--system-map FILE] [--btf FILE] [-o FILE]",
	.description =
"Reads FILE (- for standard input), a text kmap or a binary stream "
"(optionally zstd-compressed), through libkmap, and prints its capability "
"map: a sparse matrix with one cell per (subject, object group) pair that "
"some access or free joins, giving how often the subject read, wrote and "
"freed objects of the group. This is the question behind kernel "
"compartments and least privilege: who may touch what. Memory grows with "
"the number of subjects, groups and cells, not with the input.\n"
"\n"
"A subject (--rows) is the code: the function of the accessing "
"instruction (function, the default; needs --vmlinux or --system-map, an "
"ip in no known function stays in hexadecimal), its source file or its "
"directory (file, dir: from the DWARF line tables of --vmlinux, a vmlinux "
"built with debug info; paths relative to the kernel tree, and "
"[unknown] for an ip with no line), the file's code in one function "
"(file-function: FILE:FUNCTION, as fs/read.c:vfs_read; a header's "
"inlined code under the function it is in), or the instruction itself (ip: "
"function+offset/size with symbols, hexadecimal without). An object "
"group (--cols) is what was touched: objects by the function that "
"allocated them (callsite, the default; the call site's address in "
"hexadecimal without symbols; an object no allocation of which was seen, "
"found at its first access, has no call site and goes under what it is: "
"[global], [percpu], [stack], or in a text kmap that names no kinds its "
"executable word, such as [irq_stack] or [unseen]), by slab cache (cache: "
"binary streams, and kmap_offsets whose object lines carry kind and cache; "
"a kmap names no caches; objects that are in no cache are filed under "
"their kind), by allocator kind (kind; see memorizer report --by kind), or "
"each object alone (object: the stream's object id, or in a text kmap the "
"object's number in the file, from 1), or by struct type (type: needs "
"--vmlinux with DWARF, or --btf; objects of no known type go under their "
"cache, or kind).\n"
"\n"
"An object's struct type, with --vmlinux's DWARF: the struct its slab "
"cache is named after (caches made with KMEM_CACHE(), and a table of "
"others such as filp for struct file and cred_jar for struct cred); else, "
"for an allocation seen (kmalloc and the like), what the DWARF of the "
"code at its call site says: the struct that a variable there points to "
"whose location, at the call's return address, is the return register, "
"so the variable holding the call's result (the call site's variable); "
"else the one struct, among those that pointers in scope there point "
"to, whose size is the object's requested size (by size); for an object "
"found at its first access (no allocation seen), the struct of the global "
"variable at its address (by global variable; not per-CPU data, whose "
"copies are elsewhere). The summary line \"struct types\" (JSON: "
"summary.types, keys cache, result, size, global and none) counts the "
"objects typed each way. --btf FILE takes struct types from a kernel's "
"BTF instead (/sys/kernel/btf/vmlinux, as for a distribution's kernel, "
"which ships no DWARF; make stock leaves Debian's in out/stock/vmlinux.btf), "
"with --system-map or --vmlinux for names: the same structs and members, "
"but BTF has no variables' locations nor addresses, so only slab caches' "
"objects get a type.\n"
"\n"
"Reads and writes are the access counts of the object's counters whose "
"ip is the subject's. Frees count against the subject of the object's "
"free ip; a free whose ip is not known (0, or deadbeef: missed) is in no "
"cell, and the summary counts it apart. objects is the number of "
"distinct objects of the group the subject read, wrote or freed. Cells "
"are sorted by reads + writes + frees, most first, then by subject and "
"group name.\n"
"\n"
"Columns, stable for scripts (CSV header and JSON keys): the subject "
"(function, file, dir, file-function or ip), the group (callsite, cache, kind or "
"object; a name, a string in JSON), reads, writes, frees, objects. The "
"JSON summary has objects (read from FILE), subjects, groups (of every "
"object read, touched or not), cells, reads, writes, frees and "
"frees_unattributed. --dot writes a graph for Graphviz (dot -Tsvg): a "
"box per subject, an ellipse per group, an edge per cell labelled "
"\"r READS w WRITES f FREES\", red where the subject frees, orange where "
"it writes, blue where it only reads, wider per two decades of counts; "
"-n keeps the first N edges.\n"
"\n"
"--fields splits each cell by the bytes of the group's objects that its "
"accesses touched: one row per (subject, group, range), the range "
"[OFFSET, END) as +OFFSET..END in decimal bytes from the object's start, "
"as the input gives it for each access counter (a kmap_offsets' "
"offset,offset_end, or the union of a version 5 stream's ACCESS records "
"for an (object, ip, pid)). One instruction nearly always touches one "
"field, so a struct's rows are its fields; an instruction that walks an "
"object (memset(), a loop) has the stretch it walked, and an object over "
"64 KiB has ranges rounded outwards by the kernel. Frees, and accesses "
"with no range known (0,0), go in the row of range -. The text table's "
"range column comes after the group; CSV and JSON have two columns there, "
"offset and offset_end (empty, or null, for -); --dot labels each edge "
"\"+OFFSET..END r READS w WRITES f FREES\". An input without offsets (a "
"kmap, a version 1 to 4 stream) is an error: read debugfs "
"memorizer/kmap_offsets, or record a version 5 stream. Memory still grows "
"with the cells only. With struct types (--vmlinux with DWARF, or --btf), a field "
"column (after the range) names the member of the group's struct type "
"that holds the range (in.a, f_path.dentry, b[1]; first..last for a range "
"across members; (whole) for all of the object; +OFFSET for bytes in no "
"member): the type of a type group, of a cache group's cache, of an "
"object, or of a call site's objects where its variable says it (not by "
"size: a call site's objects may differ in size); empty where none is "
"known.",
	.opts = opts,
	.files_desc = "kmap",
	.examples =
"  $ memorizer capmap tar.kmap --system-map out/System.map -n 10\n"
"  $ memorizer capmap stream.bin --vmlinux out/vmlinux --rows dir --cols cache\n"
"  $ memorizer capmap tar.kmap --system-map out/System.map --dot -n 40 | dot -Tsvg > capmap.svg\n"
"  $ memorizer capmap run.kmap_offsets --system-map out/System.map --cols kind --fields\n"
"  $ memorizer capmap out/debian/kmap.bin --system-map out/stock/System.map --btf out/stock/vmlinux.btf --cols cache --fields",
	.run = cmd_capmap,
};
