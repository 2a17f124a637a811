// SPDX-License-Identifier: GPL-2.0
/*
 * memorizer diff: what two runs do differently. Both inputs become
 * capability maps (libkmap's kmap_capmap_*), which are joined by subject
 * and group name: edges only in B are new, edges only in A vanished, and
 * the others changed by how many reads, writes and frees.
 */
#include <stdlib.h>
#include <string.h>

#include <json.h>

#include "capmap.h"

static int all;

static const struct opt opts[] = {
	OPT_CAPMAP_ROWS("Subjects: function (the default), file, dir, file-function or ip, as in memorizer capmap."),
	OPT_CAPMAP_COLS("Object groups: callsite (the default), cache, kind or type (with --btf, or --vmlinux's DWARF), as in memorizer capmap."),
	OPT_CAPMAP_LIMIT("Print at most N new, N vanished and N changed edges (N >= 1)."),
	OPT_BOOLEAN('a', "all", &all, "Print unchanged edges too (status same)."),
	OPT__CSV(&capmap_opts.formats, "Comma-separated values: a header line of column names, then one line per edge; no summary."),
	OPT__JSON(&capmap_opts.formats, "One JSON object: \"subject\", \"group\", \"a\", \"b\" (the inputs), \"summary\", \"columns\" and \"rows\" (one object per edge, keyed by column name)."),
	OPT__VMLINUX(&capmap_opts.vmlinux, "Name ips from a vmlinux (functions, and files and directories from DWARF)."),
	OPT__SYSTEM_MAP(&capmap_opts.system_map, "Name ips from a System.map or /proc/kallsyms (functions only)."),
	OPT__BTF(&capmap_opts.btf, OPT_BTF_HELP),
	OPT__OUTPUT(&capmap_opts.output, OPT_OUTPUT_HELP),
	OPT_END(),
};

enum status { NEW, VANISHED, CHANGED, SAME };
static const char *const status_names[] = { "new", "vanished", "changed", "same" };

/* An edge of either map: its cells in A and B (NULL where it is not). */
struct edge {
	const struct kmap_capmap_cell *a, *b;
	enum status status;
	int64_t change;			/* B's reads + writes + frees less A's */
};

static const struct kmap_capmap *sort_a, *sort_b;

static const char *edge_subject(const struct edge *e)
{
	return e->a ? kmap_capmap_subject_of(sort_a, e->a) :
		      kmap_capmap_subject_of(sort_b, e->b);
}

static const char *edge_group(const struct edge *e)
{
	return e->a ? kmap_capmap_group_of(sort_a, e->a) :
		      kmap_capmap_group_of(sort_b, e->b);
}

/* New, vanished, changed; each the biggest change first, then by name. */
static int edge_cmp(const void *x, const void *y)
{
	const struct edge *a = x, *b = y;
	uint64_t ma = a->change < 0 ? -(uint64_t)a->change : (uint64_t)a->change;
	uint64_t mb = b->change < 0 ? -(uint64_t)b->change : (uint64_t)b->change;
	int r;

	if (a->status != b->status)
		return a->status < b->status ? -1 : 1;
	if (ma != mb)
		return ma > mb ? -1 : 1;
	r = strcmp(edge_subject(a), edge_subject(b));
	return r ? r : strcmp(edge_group(a), edge_group(b));
}

/* Counts fit in int64 but for ~2^63 accesses: saturate there. */
static int64_t total(const struct kmap_capmap_cell *c)
{
	uint64_t t = c ? kmap_add_sat(kmap_add_sat(c->reads, c->writes), c->frees) : 0;

	return t > INT64_MAX ? INT64_MAX : (int64_t)t;
}

/* Every edge of a and b, sorted; NULL when out of memory. */
static struct edge *join(const struct kmap_capmap *a,
			 const struct kmap_capmap *b, size_t *n)
{
	const struct kmap_capmap_cell *ca, *cb;
	size_t na = kmap_capmap_cells(a, &ca), nb = kmap_capmap_cells(b, &cb);
	struct edge *e = malloc((na + nb + 1) * sizeof(*e));
	size_t i;

	if (!e)
		return NULL;
	*n = 0;
	for (i = 0; i < na; i++) {
		struct edge *d = &e[(*n)++];

		d->a = &ca[i];
		d->b = kmap_capmap_find(b, kmap_capmap_subject_of(a, &ca[i]),
					kmap_capmap_group_of(a, &ca[i]));
		d->status = !d->b ? VANISHED :
			    d->b->reads == d->a->reads &&
			    d->b->writes == d->a->writes &&
			    d->b->frees == d->a->frees ? SAME : CHANGED;
	}
	for (i = 0; i < nb; i++)
		if (!kmap_capmap_find(a, kmap_capmap_subject_of(b, &cb[i]),
				      kmap_capmap_group_of(b, &cb[i])))
			e[(*n)++] = (struct edge){ NULL, &cb[i], NEW, 0 };
	for (i = 0; i < *n; i++)
		e[i].change = total(e[i].b) - total(e[i].a);
	sort_a = a;
	sort_b = b;
	qsort(e, *n, sizeof(*e), edge_cmp);
	return e;
}

struct run_args {
	const struct capmap_opts *o;
	enum table_fmt fmt;
	const char *name[2];
};

static uint64_t count(const struct edge *e, size_t n, enum status s)
{
	uint64_t c = 0;
	size_t i;

	for (i = 0; i < n; i++)
		c += e[i].status == s;
	return c;
}

static void print_summary(const struct run_args *ra,
			  struct kmap_capmap *const m[2],
			  const struct edge *e, size_t n, FILE *f)
{
	int i;

	for (i = 0; i < 2; i++) {
		const struct kmap_capmap_cell *cells;
		struct kmap_capmap_totals t;
		size_t nc = kmap_capmap_cells(m[i], &cells);
		size_t ns = kmap_capmap_nsubjects(m[i]);
		size_t ng = kmap_capmap_ngroups(m[i]);

		kmap_capmap_totals(m[i], &t);
		fprintf(f, "%s: %s: %llu %s, %zu %s, %zu %s, %zu %s\n",
			i ? "B" : "A", ra->name[i],
			(unsigned long long)t.objects,
			plural(t.objects, "object", "objects"), ns,
			capmap_plural(ra->o->subject, ns), ng,
			capmap_group_plural(ra->o->group, ng), nc,
			plural(nc, "edge", "edges"));
	}
	fprintf(f, "  %llu new, %llu vanished, %llu changed, %llu unchanged\n\n",
		(unsigned long long)count(e, n, NEW),
		(unsigned long long)count(e, n, VANISHED),
		(unsigned long long)count(e, n, CHANGED),
		(unsigned long long)count(e, n, SAME));
}

static struct json_object *json_head(const struct run_args *ra,
				     const struct edge *e, size_t n)
{
	struct json_object *h = json_object_new_object();
	struct json_object *s = json_object_new_object();
	int i;

	if (!h || !s) {
		json_object_put(h);
		json_object_put(s);
		return NULL;
	}
	json_object_object_add(h, "subject", json_object_new_string(
		kmap_capmap_subject_name(ra->o->subject)));
	json_object_object_add(h, "group", json_object_new_string(
		kmap_capmap_group_name(ra->o->group)));
	json_object_object_add(h, "a", json_bytes(ra->name[0]));
	json_object_object_add(h, "b", json_bytes(ra->name[1]));
	for (i = NEW; i <= SAME; i++)
		json_object_object_add(s, status_names[i],
				       json_object_new_uint64(count(e, n, i)));
	json_object_object_add(h, "summary", s);
	return h;
}

static int print_diff(const struct run_args *ra,
		      struct kmap_capmap *const m[2], const struct edge *e,
		      size_t n, FILE *f)
{
	const struct col cols[] = {
		{ "status", COL_STR },
		{ kmap_capmap_subject_name(ra->o->subject), COL_STR },
		{ kmap_capmap_group_name(ra->o->group), COL_STR },
		{ "reads_a", COL_U64 }, { "reads_b", COL_U64 },
		{ "writes_a", COL_U64 }, { "writes_b", COL_U64 },
		{ "frees_a", COL_U64 }, { "frees_b", COL_U64 },
		{ "change", COL_I64 },
	};
	uint64_t shown[SAME + 1] = { 0 };
	struct json_object *head = NULL;
	struct table t;
	size_t i;
	int rc = 0;

	table_init(&t, cols, 10);
	for (i = 0; i < n && !rc; i++) {
		const struct kmap_capmap_cell *a = e[i].a, *b = e[i].b;
		union cell *row;

		if ((e[i].status == SAME && !all) ||
		    (ra->o->limit && shown[e[i].status] >= ra->o->limit))
			continue;
		shown[e[i].status]++;
		row = table_row(&t);
		sort_a = m[0];
		sort_b = m[1];
		if (!row || cell_str(&row[0], status_names[e[i].status]) ||
		    cell_str(&row[1], edge_subject(&e[i])) ||
		    cell_str(&row[2], edge_group(&e[i]))) {
			rc = -1;
			break;
		}
		row[3].u = a ? a->reads : 0;
		row[4].u = b ? b->reads : 0;
		row[5].u = a ? a->writes : 0;
		row[6].u = b ? b->writes : 0;
		row[7].u = a ? a->frees : 0;
		row[8].u = b ? b->frees : 0;
		row[9].i = e[i].change;
	}
	if (!rc && ra->fmt == FMT_JSON && !(head = json_head(ra, e, n)))
		rc = -1;
	if (!rc && ra->fmt == FMT_TEXT)
		print_summary(ra, m, e, n, f);
	if (!rc)
		rc = table_print(&t, f, ra->fmt, 0, head);
	if (rc)
		error("out of memory");
	json_object_put(head);
	table_free(&t);
	return rc;
}

/* Read path into m; -1 with a message. */
static int read_one(struct kmap_capmap *m, enum kmap_capmap_group group,
		    const char *path, const char **name)
{
	char err[KMAP_ERR_MAX];
	struct kmap_src *src = open_input(path, err);
	int rc;

	if (!src) {
		error("%s", err);
		return -1;
	}
	*name = strcmp(path, "-") ? path : "<stdin>";
	rc = capmap_read(m, group, src);
	kmap_src_close(src);
	return rc;
}

int cmd_diff(int argc, char **argv)
{
	const struct capmap_opts *o = &capmap_opts;
	struct kmap_capmap *m[2] = { NULL, NULL };
	struct run_args ra = { .o = o, .fmt = capmap_fmt(o) };
	int rc = -1, failed, i;
	struct edge *e = NULL;
	struct kmap_sym *sym;
	struct output out;
	size_t n;

	if (o->formats & (o->formats - 1)) {
		error("--csv or --json, not both");
		return 2;
	}
	if (o->group == KMAP_GROUP_OBJECT) {
		error("--cols object: objects of two runs are not the same objects; compare them by callsite, cache or kind");
		return 2;
	}
	if (argc != 2) {
		error("two files to compare, A and B");
		cmd_usage(&cmd_diff_desc, stderr);
		return 2;
	}
	sym = open_symbols(o->vmlinux, o->system_map, &failed);
	if (failed)
		return 2;
	for (i = 0; i < 2; i++)
		if (!(m[i] = capmap_new(o, sym))) {
			rc = -2;
			goto out;
		}
	if (output_open(&out, o->output, argv, 2))
		goto out;
	if (!read_one(m[0], o->group, argv[0], &ra.name[0]) &&
	    !read_one(m[1], o->group, argv[1], &ra.name[1])) {
		e = join(m[0], m[1], &n);
		rc = e ? print_diff(&ra, m, e, n, out.f) : -1;
		if (!e)
			error("out of memory");
	}
	if (output_close(&out, !rc) && !rc)
		rc = -1;
out:
	free(e);
	kmap_capmap_free(m[0]);
	kmap_capmap_free(m[1]);
	kmap_sym_close(sym);
	return rc == -2 ? 2 : rc ? 1 : 0;
}

const struct cmd cmd_diff_desc = {
	.name = "diff",
	.summary = "what two runs do differently: capability map edges new, vanished and changed",
	.synopsis = "A B [--rows function|file|dir|file-function|ip] [--cols callsite|cache|kind|type] [-n N] [-a] [--csv|--json] [--vmlinux FILE|--system-map FILE] [--btf FILE] [-o FILE]",
	.description =
"Reads two kmaps or streams, A and B (two workloads, two kernels, before "
"and after a change), builds the capability map of each as memorizer "
"capmap does (same --rows, --cols and symbols), and compares their edges "
"by subject and group name: an edge only in B is new (B's code touches "
"objects A's did not), one only in A vanished, one in both changed when "
"its reads, writes or frees differ. Memory grows with the two maps, not "
"with the inputs.\n"
"\n"
"Edges are printed new first, then vanished, then changed, each by the "
"size of its change (most first), then by subject and group; unchanged "
"ones only with -a. Columns, stable for scripts (CSV header and JSON "
"keys): status (new, vanished, changed or same), the subject (function, "
"file, dir or ip), the group (callsite, cache or kind), reads_a, reads_b, "
"writes_a, writes_b, frees_a, frees_b (0 where the edge is not), and "
"change: B's reads + writes + frees less A's (signed; \"+N\" in the "
"table). The JSON summary counts new, vanished, changed and same edges. "
"Objects cannot be compared one by one (--cols object): two runs do not "
"have the same objects. One --vmlinux or --system-map names the ips of "
"both inputs: A and B are runs of one kernel build, or of builds whose "
"functions are where that file says.",
	.opts = opts,
	.files_desc = "kmap",
	.examples =
"  $ memorizer diff before.kmap after.kmap --system-map out/System.map\n"
"  $ memorizer diff a.bin b.bin --vmlinux out/vmlinux --rows dir --cols cache -n 10\n"
"  $ memorizer diff a.kmap b.kmap --system-map out/System.map --json | jq '.rows[] | select(.status == \"new\")'",
	.run = cmd_diff,
};
