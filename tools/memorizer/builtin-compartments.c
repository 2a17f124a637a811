// SPDX-License-Identifier: GPL-2.0
/*
 * memorizer compartments: how well the kernel's code separates into
 * compartments by the data it touches, and what each split costs in
 * calls across compartments. The capability map (kmap_capmap) and
 * stack_frames files give A(c), function_calls files the calls; the
 * units, the metrics and the
 * sweep are libkmap's (kmap_compart_units, kmap_compart), which the HTML
 * report's compartments view shares; this file reads and prints.
 */
#include <stdlib.h>
#include <string.h>

#include <json.h>

#include "builtin.h"
#include "kmap_types.h"
#include "table.h"

enum data_unit { DATA_OBJECT, DATA_CALLSITE, DATA_TYPE, DATA_FIELD, DATA_KIND };
static const char *const data_names[] = {
	[DATA_OBJECT] = "object", [DATA_CALLSITE] = "callsite",
	[DATA_TYPE] = "type", [DATA_FIELD] = "field", [DATA_KIND] = "kind",
};
static const enum kmap_capmap_group data_group[] = {
	[DATA_OBJECT] = KMAP_GROUP_OBJECT, [DATA_CALLSITE] = KMAP_GROUP_CALLSITE,
	[DATA_TYPE] = KMAP_GROUP_TYPE, [DATA_FIELD] = KMAP_GROUP_TYPE,
	[DATA_KIND] = KMAP_GROUP_KIND,
};

static enum kmap_capmap_subject code = KMAP_SUBJECT_FUNCTION;
static enum data_unit data = DATA_CALLSITE;
static const char *vmlinux, *system_map, *btf, *output, *split_file;
static int sweep;
static uint64_t points = 20;
static unsigned int formats;

static int code_cb(const struct opt *opt, const char *arg)
{
	int v = kmap_capmap_subject_parse(arg);

	if (v != KMAP_SUBJECT_FUNCTION && v != KMAP_SUBJECT_FILE &&
	    v != KMAP_SUBJECT_DIR) {
		error("--code %s: not function, file or dir", arg);
		return -1;
	}
	*(enum kmap_capmap_subject *)opt->value = v;
	return 0;
}

static int data_cb(const struct opt *opt, const char *arg)
{
	size_t i;

	for (i = 0; i < sizeof(data_names) / sizeof(*data_names); i++)
		if (!strcmp(arg, data_names[i])) {
			*(enum data_unit *)opt->value = i;
			return 0;
		}
	error("--data %s: not object, callsite, type, field or kind", arg);
	return -1;
}

static int points_cb(const struct opt *opt, const char *arg)
{
	uint64_t *v = opt->value;

	if (parse_u64_arg("--points", arg, v))
		return -1;
	if (*v < 2) {
		error("--points %s: at least 2 (one compartment, and one per code unit)",
		      arg);
		return -1;
	}
	return 0;
}

static const struct opt opts[] = {
	OPT_CALLBACK_VALUES(0, "code", &code, "UNIT", "Code units: function (the default; needs --vmlinux or --system-map), file or dir (source files or directories, from --vmlinux's DWARF line tables).", code_cb, "function file dir"),
	OPT_CALLBACK_VALUES(0, "data", &data, "UNIT", "Data units: callsite (objects by allocating function, the default), object (each object), type (struct type, from --btf, else --vmlinux's DWARF; objects of no known type by cache, else kind), field (a type's bytes, split by the ranges accesses touched: needs offsets, a kmap_offsets or a version 5 stream) or kind (allocator kind).", data_cb, "object callsite type field kind"),
	OPT_STRING(0, "split", &split_file, "FILE", "Score the split FILE gives (lines COMPARTMENT PATTERN; see below), and show each compartment's code units, capabilities and crossings."),
	OPT_BOOLEAN(0, "sweep", &sweep, "Search design points from one compartment to one per code unit (the default without --split)."),
	OPT_CALLBACK(0, "points", &points, "N", "With --sweep, show N design points (default 20, at least 2), evenly spaced on a log scale of the compartment count, both ends always.", points_cb),
	OPT__VMLINUX(&vmlinux, "Name ips from a vmlinux: functions from its symbol table, files and directories from its DWARF line tables; struct types from its DWARF."),
	OPT__SYSTEM_MAP(&system_map, "Name ips from a System.map or /proc/kallsyms (functions only)."),
	OPT__BTF(&btf, OPT_BTF_HELP),
	OPT__CSV(&formats, "Comma-separated values: a header line, then one line per design point; no summary."),
	OPT__JSON(&formats, "One JSON object: \"code\", \"data\", \"inputs\", \"summary\", with --split \"compartments\", then \"columns\" and \"rows\" (the design points)."),
	OPT__OUTPUT(&output, OPT_OUTPUT_HELP),
	OPT_END(),
};

struct state {
	struct kmap_capmap *m;
	struct kmap_src *src;
	struct kmap_calls *calls;	/* every input's */
	struct kmap_frames *frames;	/* every input's */
	struct kmap_compart_units *u;	/* the problem, its units named */
	struct kmap_compart_point *pts;
	size_t npts;
	uint64_t objects;
};

static int add_object(void *ctx, const struct kmap_object *o,
		      const struct kmap_access *acc, size_t nacc)
{
	struct state *st = ctx;

	if (data == DATA_FIELD && kmap_src_offsets(st->src) == 0) {
		error("%s: --data field needs the bytes each access touched, and this input has none: read debugfs memorizer/kmap_offsets instead of kmap, or a version 5 stream",
		      kmap_src_name(st->src));
		return -1;
	}
	st->objects++;
	if (kmap_capmap_add(st->m, o, acc, nacc)) {
		error("out of memory");
		return -1;
	}
	return 0;
}

/*
 * Every input: objects into the map, call edges into st->calls, stack
 * frame cells into st->frames.
 */
static int read_inputs(struct state *st, int argc, char **argv)
{
	const struct kmap_frame *f;
	const struct kmap_call *c;
	char err[KMAP_ERR_MAX];
	size_t i, n;
	int j;

	for (j = 0; j < argc; j++) {
		st->src = open_input(argv[j], err);
		if (!st->src) {
			error("%s", err);
			return -1;
		}
		if (kmap_src_mtrace(st->src)) {
			error("%s: an mtrace log, not a kmap, a stream, a function_calls or a stack_frames file",
			      kmap_src_name(st->src));
			goto fail;
		}
		if (read_objects(st->src, add_object, st))
			goto fail;
		n = kmap_calls_list(kmap_src_calls(st->src), &c);
		for (i = 0; i < n; i++)
			if (kmap_calls_add(st->calls, &c[i])) {
				error("out of memory");
				goto fail;
			}
		n = kmap_frames_list(kmap_src_frames(st->src), &f);
		for (i = 0; i < n; i++)
			if (kmap_frames_add(st->frames, &f[i], NULL) < 0) {
				error("out of memory");
				goto fail;
			}
		kmap_src_close(st->src);
		st->src = NULL;
	}
	return 0;
fail:
	kmap_src_close(st->src);
	st->src = NULL;
	return -1;
}

static int keep_point(void *ctx, const struct kmap_compart_point *pt,
		      const uint32_t *part, size_t nlabels)
{
	struct state *st = ctx;

	(void)part;
	(void)nlabels;
	st->pts[st->npts++] = *pt;
	return 0;
}

static const struct col point_cols[] = {
	{ "compartments", COL_U64 }, { "reduction", COL_F64 },
	{ "reduction_bytes", COL_F64 }, { "crossings", COL_U64 },
	{ "crossing_share", COL_F64 }, { "shared", COL_U64 },
	{ "granted", COL_U64 }, { "granted_bytes", COL_U64 },
};

/* The rights as shown: "rwf", a - for each one not used. */
static void rights_str(unsigned int r, char *buf)
{
	buf[0] = r & KMAP_RIGHT_READ ? 'r' : '-';
	buf[1] = r & KMAP_RIGHT_WRITE ? 'w' : '-';
	buf[2] = r & KMAP_RIGHT_FREE ? 'f' : '-';
	buf[3] = 0;
}

/* --split: each code unit's compartment, by the file's rules. */
struct split_view {
	struct kmap_split rules;
	const char **comp;		/* compartments, file order, rest last */
	size_t ncomp, comp_cap;
	uint32_t *part;
};

/* name's compartment number, added when new; -1 when out of memory. */
static long comp_of(struct split_view *v, const char *name)
{
	size_t i;

	/* A split file has a handful of compartments: looked up in turn. */
	for (i = 0; i < v->ncomp; i++)
		if (!strcmp(v->comp[i], name))
			return (long)i;
	if (kmap_grow((void **)&v->comp, &v->comp_cap, v->ncomp + 1,
		      sizeof(*v->comp)))
		return -1;
	v->comp[v->ncomp] = name;
	return (long)v->ncomp++;
}

static int split_assign(struct state *st, struct split_view *v)
{
	size_t i;

	size_t ncode = kmap_compart_units_ncode(st->u);

	for (i = 0; i < v->rules.n; i++)
		if (comp_of(v, v->rules.rule[i].compartment) < 0)
			return -1;
	v->part = malloc((ncode + 1) * sizeof(*v->part));
	if (!v->part)
		return -1;
	for (i = 0; i < ncode; i++) {
		long n = comp_of(v, kmap_split_match(&v->rules,
					kmap_compart_units_code(st->u, i)));

		if (n < 0)
			return -1;
		v->part[i] = (uint32_t)n;
	}
	return 0;
}

struct crossing {
	uint32_t from, to;		/* code units */
	uint64_t count;
};

static const struct kmap_compart_units *cross_units;
static int crossing_cmp(const void *x, const void *y)
{
	const struct crossing *a = x, *b = y;
	int r;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	r = strcmp(kmap_compart_units_code(cross_units, a->from),
		   kmap_compart_units_code(cross_units, b->from));
	return r ? r : strcmp(kmap_compart_units_code(cross_units, a->to),
			      kmap_compart_units_code(cross_units, b->to));
}

/* Calls between code units of different compartments, summed. */
static struct crossing *crossings(const struct state *st,
				  const struct split_view *v, size_t *n)
{
	const struct kmap_call *c;
	size_t i, k, nc = kmap_calls_list(st->calls, &c);
	struct crossing *x = malloc((nc + 1) * sizeof(*x));

	if (!x)
		return NULL;
	for (i = k = 0; i < nc; i++) {
		long a = kmap_compart_units_ip(st->u, c[i].caller);
		long b = kmap_compart_units_ip(st->u, c[i].callee);

		if (a < 0 || b < 0 || v->part[a] == v->part[b])
			continue;
		x[k++] = (struct crossing){ (uint32_t)a, (uint32_t)b, c[i].count };
	}
	cross_units = st->u;
	/* The same pair under several pids: one row. */
	if (k)
		qsort(x, k, sizeof(*x), crossing_cmp);
	*n = k;
	for (i = 0; i + 1 < *n;) {
		for (k = i + 1; k < *n; k++)
			if (x[k].from == x[i].from && x[k].to == x[i].to) {
				x[i].count = kmap_add_sat(x[i].count, x[k].count);
				memmove(&x[k], &x[k + 1], (*n - k - 1) * sizeof(*x));
				(*n)--;
				k--;
			}
		i++;
	}
	if (*n)
		qsort(x, *n, sizeof(*x), crossing_cmp);
	return x;
}

static const struct col comp_cols[] = {
	{ "compartment", COL_STR }, { "code_units", COL_U64 },
	{ "data_units", COL_U64 }, { "calls_in", COL_U64 },
	{ "calls_out", COL_U64 },
};
static const struct col cap_cols[] = {
	{ "compartment", COL_STR }, { "data", COL_STR }, { "rights", COL_STR },
};
static const struct col cross_cols[] = {
	{ "from", COL_STR }, { "caller", COL_STR }, { "to", COL_STR },
	{ "callee", COL_STR }, { "count", COL_U64 },
};

static const char *code_name(const struct state *st, size_t i)
{
	return kmap_compart_units_code(st->u, i);
}

static const char *data_name(const struct state *st, size_t i)
{
	return kmap_compart_units_data(st->u, i);
}

/*
 * Per compartment: its code units, data units with rights, crossings in
 * and out: as text tables, or into the JSON head.
 */
static int split_details(struct state *st, struct split_view *v,
			 enum table_fmt fmt, FILE *f, struct json_object *head)
{
	const struct kmap_compart *p = kmap_compart_units_problem(st->u);
	size_t ncode = kmap_compart_units_ncode(st->u);
	size_t nd = kmap_compart_units_ndata(st->u), ncomp = v->ncomp;
	size_t i, j, nx = 0, *units = calloc(ncomp + 1, sizeof(size_t));
	size_t *ndata = calloc(ncomp + 1, sizeof(size_t));
	uint64_t *in = calloc(ncomp + 1, sizeof(uint64_t));
	uint64_t *out = calloc(ncomp + 1, sizeof(uint64_t));
	uint8_t *rights = calloc(ncomp * nd + 1, 1);
	struct crossing *x = crossings(st, v, &nx);
	struct table t;
	int rc = -1;

	if (!units || !ndata || !in || !out || !rights || !x)
		goto out;
	for (i = 0; i < ncode; i++) {
		const struct kmap_compart_cell *c;
		size_t k, n = kmap_compart_access(p, (uint32_t)i, &c);

		units[v->part[i]]++;
		for (k = 0; k < n; k++) {
			uint8_t *r = &rights[v->part[i] * nd + c[k].data];

			if (!*r && c[k].rights)
				ndata[v->part[i]]++;
			*r |= c[k].rights;
		}
	}
	for (i = 0; i < nx; i++) {
		out[v->part[x[i].from]] = kmap_add_sat(out[v->part[x[i].from]], x[i].count);
		in[v->part[x[i].to]] = kmap_add_sat(in[v->part[x[i].to]], x[i].count);
	}
	if (fmt == FMT_JSON) {
		struct json_object *arr = json_object_new_array();

		for (i = 0; i < ncomp; i++) {
			struct json_object *o = json_object_new_object();
			struct json_object *cu = json_object_new_array();
			struct json_object *caps = json_object_new_array();
			struct json_object *ji = json_object_new_array();
			struct json_object *jo = json_object_new_array();

			if (!units[i]) {
				json_object_put(o);
				json_object_put(cu);
				json_object_put(caps);
				json_object_put(ji);
				json_object_put(jo);
				continue;
			}
			json_object_object_add(o, "name", json_bytes(v->comp[i]));
			for (j = 0; j < ncode; j++)
				if (v->part[j] == i)
					json_object_array_add(cu, json_bytes(code_name(st, j)));
			for (j = 0; j < nd; j++) {
				struct json_object *e;
				char rs[4];

				if (!rights[i * nd + j])
					continue;
				rights_str(rights[i * nd + j], rs);
				e = json_object_new_object();
				json_object_object_add(e, "data", json_bytes(data_name(st, j)));
				json_object_object_add(e, "rights", json_object_new_string(rs));
				json_object_array_add(caps, e);
			}
			for (j = 0; j < nx; j++) {
				int is_in = v->part[x[j].to] == i;
				struct json_object *e;

				if (!is_in && v->part[x[j].from] != i)
					continue;
				e = json_object_new_object();
				json_object_object_add(e, is_in ? "from" : "to",
					json_bytes(v->comp[v->part[is_in ? x[j].from : x[j].to]]));
				json_object_object_add(e, "caller", json_bytes(code_name(st, x[j].from)));
				json_object_object_add(e, "callee", json_bytes(code_name(st, x[j].to)));
				json_object_object_add(e, "count", json_object_new_uint64(x[j].count));
				json_object_array_add(is_in ? ji : jo, e);
			}
			json_object_object_add(o, "code_units", cu);
			json_object_object_add(o, "capabilities", caps);
			json_object_object_add(o, "incoming", ji);
			json_object_object_add(o, "outgoing", jo);
			json_object_array_add(arr, o);
		}
		json_object_object_add(head, "compartments", arr);
		rc = 0;
		goto out;
	}
	/* Text: three tables, in the file's order of compartments. */
	table_init(&t, comp_cols, 5);
	for (i = 0; i < ncomp; i++) {
		union cell *row;

		if (!units[i])
			continue;
		row = table_row(&t);
		if (!row || cell_str(&row[0], v->comp[i]))
			goto out_t;
		row[1].u = units[i];
		row[2].u = ndata[i];
		row[3].u = in[i];
		row[4].u = out[i];
	}
	fputs("\ncompartments:\n", f);
	if (table_print(&t, f, FMT_TEXT, 0, NULL))
		goto out_t;
	table_free(&t);
	table_init(&t, cap_cols, 3);
	for (i = 0; i < ncomp; i++)
		for (j = 0; j < nd; j++) {
			union cell *row;
			char rs[4];

			if (!rights[i * nd + j])
				continue;
			rights_str(rights[i * nd + j], rs);
			row = table_row(&t);
			if (!row || cell_str(&row[0], v->comp[i]) ||
			    cell_str(&row[1], data_name(st, j)) ||
			    cell_str(&row[2], rs))
				goto out_t;
		}
	fputs("\ncapabilities:\n", f);
	if (table_print(&t, f, FMT_TEXT, 0, NULL))
		goto out_t;
	table_free(&t);
	table_init(&t, cross_cols, 5);
	for (i = 0; i < nx; i++) {
		union cell *row = table_row(&t);

		if (!row || cell_str(&row[0], v->comp[v->part[x[i].from]]) ||
		    cell_str(&row[1], code_name(st, x[i].from)) ||
		    cell_str(&row[2], v->comp[v->part[x[i].to]]) ||
		    cell_str(&row[3], code_name(st, x[i].to)))
			goto out_t;
		row[4].u = x[i].count;
	}
	fputs("\ncrossings:\n", f);
	if (table_print(&t, f, FMT_TEXT, 0, NULL))
		goto out_t;
	rc = 0;
out_t:
	table_free(&t);
out:
	free(units);
	free(ndata);
	free(in);
	free(out);
	free(rights);
	free(x);
	return rc;
}

static struct json_object *json_head(const struct state *st, char **argv,
				     int argc)
{
	struct json_object *h = json_object_new_object();
	struct json_object *in = json_object_new_array();
	struct json_object *s = json_object_new_object();
	const struct kmap_compart_point *pt = &st->pts[0];
	int i;

	json_object_object_add(h, "code", json_object_new_string(
		kmap_capmap_subject_name(code)));
	json_object_object_add(h, "data", json_object_new_string(data_names[data]));
	for (i = 0; i < argc; i++)
		json_object_array_add(in, json_bytes(argv[i]));
	json_object_object_add(h, "inputs", in);
	json_object_object_add(s, "code_units", json_object_new_uint64(kmap_compart_units_ncode(st->u)));
	json_object_object_add(s, "data_units", json_object_new_uint64(kmap_compart_units_ndata(st->u)));
	json_object_object_add(s, "calls", json_object_new_uint64(pt->calls));
	json_object_object_add(s, "least", json_object_new_uint64(pt->least));
	json_object_object_add(s, "monolithic", json_object_new_uint64(pt->monolithic));
	json_object_object_add(s, "least_bytes", json_object_new_uint64(pt->least_bytes));
	json_object_object_add(s, "monolithic_bytes", json_object_new_uint64(pt->monolithic_bytes));
	json_object_object_add(h, "summary", s);
	return h;
}

static const char *code_plural(uint64_t n)
{
	return code == KMAP_SUBJECT_FILE ? plural(n, "file", "files") :
	       code == KMAP_SUBJECT_DIR ? plural(n, "directory", "directories") :
	       plural(n, "function", "functions");
}

static int print(struct state *st, struct split_view *v, int argc,
		 char **argv, enum table_fmt fmt, FILE *f)
{
	struct json_object *head = NULL;
	const struct kmap_compart_point *pt = &st->pts[0];
	size_t ncode = kmap_compart_units_ncode(st->u);
	size_t ndata = kmap_compart_units_ndata(st->u);
	struct table t;
	size_t i;
	int rc = -1;

	table_init(&t, point_cols, 8);
	/* Fewest compartments first. */
	for (i = st->npts; i-- > 0;) {
		union cell *row = table_row(&t);

		if (!row)
			goto out;
		row[0].u = st->pts[i].compartments;
		row[1].f = st->pts[i].reduction;
		row[2].f = st->pts[i].reduction_bytes;
		row[3].u = st->pts[i].crossings;
		row[4].f = st->pts[i].crossing_share;
		row[5].u = st->pts[i].shared;
		row[6].u = st->pts[i].granted;
		row[7].u = st->pts[i].granted_bytes;
	}
	if (fmt == FMT_JSON) {
		head = json_head(st, argv, argc);
		if (!head || (v && split_details(st, v, fmt, f, head)))
			goto out;
	}
	if (fmt == FMT_TEXT)
		fprintf(f, "%zu %s, %zu %s, %llu %s; least %llu (%llu bytes), monolithic %llu (%llu bytes)\n\n",
			ncode, code_plural(ncode),
			ndata, plural(ndata, "data unit", "data units"),
			(unsigned long long)pt->calls, plural(pt->calls, "call", "calls"),
			(unsigned long long)pt->least,
			(unsigned long long)pt->least_bytes,
			(unsigned long long)pt->monolithic,
			(unsigned long long)pt->monolithic_bytes);
	if (table_print(&t, f, fmt, 0, head))
		goto out;
	if (fmt == FMT_TEXT && v && split_details(st, v, fmt, f, NULL))
		goto out;
	rc = 0;
out:
	if (rc)
		error("out of memory");
	json_object_put(head);
	table_free(&t);
	return rc;
}

static struct kmap_capmap *new_map(struct kmap_sym *sym)
{
	int lines = code != KMAP_SUBJECT_FUNCTION;
	struct kmap_capmap *m;
	char err[KMAP_ERR_MAX];

	if (!lines && !sym) {
		error("--code function names the functions of ips: give --vmlinux FILE or --system-map FILE (/proc/kallsyms in the guest)");
		return NULL;
	}
	if (lines && (!vmlinux || !kmap_sym_has_lines(sym))) {
		error("--code %s needs DWARF line tables: give --vmlinux FILE, a vmlinux built with debug info",
		      kmap_capmap_subject_name(code));
		return NULL;
	}
	m = kmap_capmap_new(code, data_group[data], sym, err);
	if (!m) {
		error("%s", err);
		return NULL;
	}
	if (data == DATA_FIELD)
		kmap_capmap_split_ranges(m);
	/* Without types, no object has a known type: by cache, kind. */
	if (data == DATA_TYPE || data == DATA_FIELD) {
		int failed;
		struct kmap_types *types = open_types(vmlinux, btf, err,
						      &failed);

		if (failed) {
			kmap_capmap_free(m);
			return NULL;
		}
		if (!types && vmlinux) {
			error("--data %s: %s", data_names[data], err);
			kmap_capmap_free(m);
			return NULL;
		}
		kmap_capmap_set_types(m, types);
	}
	return m;
}

int cmd_compartments(int argc, char **argv)
{
	struct state st = { 0 };
	struct split_view v = { 0 };
	const struct kmap_compart *p;
	struct kmap_sym *sym = NULL;
	char err[KMAP_ERR_MAX];
	size_t want[4096];
	struct output out;
	int rc = 2, failed, opened = 0;
	enum table_fmt fmt = formats & FORMAT_JSON ? FMT_JSON :
			     formats & FORMAT_CSV ? FMT_CSV : FMT_TEXT;

	if (formats == (FORMAT_CSV | FORMAT_JSON)) {
		error("one of --csv and --json");
		goto out;
	}
	if (split_file && sweep) {
		error("one of --split and --sweep");
		goto out;
	}
	if (!argc) {
		error("which files? (kmaps, streams, function_calls and stack_frames files)");
		cmd_usage(&cmd_compartments_desc, stderr);
		goto out;
	}
	if (points > sizeof(want) / sizeof(*want))
		points = sizeof(want) / sizeof(*want);
	sym = open_symbols(vmlinux, system_map, &failed);
	if (failed || !(st.m = new_map(sym)))
		goto out;
	rc = 1;
	if (split_file) {
		FILE *f = kmap_fopen(split_file, err);

		if (!f) {
			error("%s", err);
			goto out;
		}
		failed = kmap_split_read(f, split_file, &v.rules, err);
		fclose(f);
		if (failed) {
			error("%s", err);
			goto out;
		}
	}
	st.calls = kmap_calls_new();
	st.frames = kmap_frames_new();
	if (!st.calls || !st.frames) {
		error("out of memory");
		goto out;
	}
	if (read_inputs(&st, argc, argv))
		goto out;
	st.u = kmap_compart_units_new(st.m, st.frames, st.calls,
				      data == DATA_FIELD);
	if (!st.u) {
		error("out of memory");
		goto out;
	}
	p = kmap_compart_units_problem(st.u);
	st.pts = calloc(points + 1, sizeof(*st.pts));
	if (!st.pts) {
		error("out of memory");
		goto out;
	}
	if (split_file) {
		if (split_assign(&st, &v) ||
		    kmap_compart_eval(p, v.part, v.ncomp, &st.pts[0])) {
			error("out of memory");
			goto out;
		}
		st.npts = 1;
	} else {
		size_t n = kmap_compart_points(kmap_compart_ncode(p),
					       points, want);

		if (kmap_compart_sweep(p, kmap_compart_units_rank(st.u),
				       want, n, keep_point, &st)) {
			error("out of memory");
			goto out;
		}
		if (!st.npts)	/* no code unit: monolithic is all there is */
			kmap_compart_eval(p, NULL, 0, &st.pts[st.npts++]);
	}
	if (output_open(&out, output, argv, argc))
		goto out;
	opened = 1;
	rc = print(&st, split_file ? &v : NULL, argc, argv, fmt, out.f) ? 1 : 0;
out:
	if (opened && output_close(&out, !rc) && !rc)
		rc = 1;
	kmap_split_free(&v.rules);
	free(v.part);
	free(v.comp);
	kmap_compart_units_free(st.u);
	kmap_calls_free(st.calls);
	kmap_frames_free(st.frames);
	kmap_capmap_free(st.m);
	kmap_sym_close(sym);
	free(st.pts);
	return rc;
}

const struct cmd cmd_compartments_desc = {
	.name = "compartments",
	.summary = "how well the code separates into compartments: least privilege against calls across",
	.synopsis = "FILE... [--code function|file|dir] [--data object|callsite|type|field|kind] [--split FILE | --sweep [--points N]] [--csv|--json] [--vmlinux FILE|--system-map FILE] [--btf FILE] [-o FILE]",
	.description =
"Reads each FILE (- for standard input): kmaps, binary streams, "
"function_calls files (debugfs memorizer/function_calls, lines "
"caller,callee,pid,count; or the public Memorizer fork's, caller callee "
"count) and stack_frames files (debugfs memorizer/stack_frames, lines "
"frame,ip,pid,writes,reads: the accesses to a task's stack, by the "
"function whose frame they fall in), all through libkmap, and scores "
"splits of the code into "
"compartments: how much less each compartment may touch than the whole "
"kernel does, and how many calls then cross between compartments. This is "
"the separability analysis behind kernel compartmentalisation.\n"
"\n"
"Code units (--code) are the functions of the accessing and calling ips "
"(function, the default), or their source files or directories (file, "
"dir: DWARF line tables of --vmlinux), as memorizer capmap's rows are; a "
"code unit that only calls or is called, touching no data, is one too. "
"Data units (--data) are capmap's groups: objects by allocating function "
"(callsite), each object (object), by struct type (type), a type's bytes "
"split by the ranges the accesses touched (field: as capmap --fields "
"splits its cells; the bytes of no known range, and frees, are the whole "
"type's unit), or by allocator kind (kind). Without struct types "
"(--vmlinux's DWARF, or --btf's BTF), type and field group objects by cache, else by kind, as capmap "
"--cols type does for an object of no known type. A data unit's size in "
"bytes: a field's width; for the others the largest object of it seen "
"(an object's own size; a type's, call site's or kind's largest one).\n"
"\n"
"Stack frames are data units too: each stack_frames cell gives the code "
"unit of its ip (mapped as access ips are) r on the frame if it read it, "
"w if it wrote it. The frame of the function FUNC is the data unit "
"frame:FUNC (FUNC named as a call site is: the function at the frame's "
"address, that address in hex when none is known) under every --data "
"but kind, under which all frames are one data unit, frame. A frame "
"weighs 8 bytes, one stack slot, whatever --data is: the kernel does not "
"say where in a frame the accesses land, nor how big it is. A function "
"that writes a local of its caller (through a pointer the caller passed "
"down) so uses the caller's frame: with the two in different "
"compartments, frame:CALLER counts in shared when the caller reads or "
"writes its frame too. The cells' pids are not used; cells of several "
"files add up.\n"
"\n"
"A(c) is the set of data units code unit c reads, writes or frees. "
"For a split P of the code units into compartments, exactly:\n"
"\n"
"  least = the sum over code units c of |A(c)|\n"
"  granted(P) = the sum over compartments p of |p| * |union of A(c) over c in p| (|p|: its code units)\n"
"  monolithic = granted of the one-compartment split\n"
"  reduction(P) = (monolithic - granted(P)) / (monolithic - least): 0 for one compartment, 1 for one per code unit, and 1 when monolithic = least\n"
"  reduction_bytes: the same with |.| the sum of the data units' sizes\n"
"  crossings(P) = the sum of the counts of call edges whose caller and callee are in different compartments (caller and callee ips mapped to code units as access ips are); crossing_share = crossings / all calls' counts (0 with no calls)\n"
"  shared(P) = the number of data units one compartment writes and another reads or writes\n"
"\n"
"granted and granted_bytes are shown too. The text output starts with a "
"summary line (code units, data units, calls, least and monolithic).\n"
"\n"
"--split FILE scores one split: FILE has a line per rule, COMPARTMENT "
"PATTERN, apart by spaces or tabs; PATTERN is a glob (fnmatch(3), * "
"matching / too) over code unit names, function names or source paths; "
"blank lines and lines starting with # are skipped. A code unit goes to "
"the compartment of the first rule that matches it, an unmatched one to "
"compartment rest. A line with one field or more than two is an error "
"(FILE:LINE: what is wrong). The text output then lists each compartment "
"(code_units, data_units, calls_in, calls_out: crossing calls into and out "
"of it), its capabilities (each data unit with rights r, w, f; - for a "
"right not used) and the crossings (from, caller, to, callee, count); "
"JSON has them under \"compartments\" (name, code_units, capabilities, "
"incoming, outgoing).\n"
"\n"
"--sweep (the default) searches design points by agglomerative clustering, "
"from one compartment per code unit down to one: each step merges the two "
"compartments of the highest affinity, the Jaccard index of their data "
"units (|D(a) & D(b)| / |D(a) | D(b)|, D the union of A(c)) plus the share "
"of their crossing calls that go between them (calls(a, b) / (calls out "
"of a + calls out of b)); ties go to the pair whose names come first (a "
"compartment's name is its first code unit's in name order; the lower "
"names compared, then the higher). Candidates are the pairs that share a "
"data unit or a call (a data unit touched by more than 64 code units pairs "
"each with the next 8 in name order only), in a heap whose stale entries "
"are skipped; once none is left, the remaining compartments, which share "
"nothing, are merged in name order, the first two, then the next two, each "
"merged one to the back of the queue. The metrics follow each merge, so "
"tens of thousands of code units take seconds. --points N design points "
"are shown (default 20), evenly spaced on a log scale of the compartment "
"count, both ends always, fewest compartments first.\n"
"\n"
"Columns, stable for scripts (CSV header and JSON keys): compartments, "
"reduction, reduction_bytes, crossings, crossing_share, shared, granted, "
"granted_bytes. JSON: code, data, inputs, summary (code_units, data_units, "
"calls, least, monolithic, least_bytes, monolithic_bytes), with --split "
"compartments, then columns and rows.",
	.opts = opts,
	.files_desc = "kmap",
	.examples =
"  $ memorizer compartments run.kmap function_calls --system-map out/System.map\n"
"  $ memorizer compartments stream.bin function_calls --vmlinux out/vmlinux --code dir --data type --points 10\n"
"  $ memorizer compartments run.kmap function_calls --system-map out/System.map --split split.txt\n"
"  $ memorizer compartments run.kmap function_calls stack_frames --system-map out/System.map --split split.txt",
	.run = cmd_compartments,
};
