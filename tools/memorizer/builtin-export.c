// SPDX-License-Identifier: GPL-2.0
/*
 * memorizer export: a kmap or stream as the two tables a data engine
 * reads, objects and accesses, in CSV or JSON lines. The schema (the
 * fields below, in order) is an interface: columns may be added at the
 * end, never renamed, removed or moved. Both tables are written as
 * temporary files, flushed, then renamed together (output.c), so a
 * failure leaves the directory's tables as they were.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json.h>

#include "builtin.h"
#include "kmap_types.h"
#include "table.h"

static const char *format, *dir, *vmlinux, *system_map, *btf;

static const struct opt opts[] = {
	OPT_STRING('f', "format", &format, "FORMAT", "csv (a header line, then one line per row) or jsonl (one JSON object per line)."),
	OPT_STRING('o', "output", &dir, "DIR", "Write DIR/objects.FORMAT and DIR/accesses.FORMAT (DIR is made if it does not exist; its parent must)."),
	OPT__VMLINUX(&vmlinux, "Name ips: function from the symbol table, file and line from DWARF."),
	OPT__SYSTEM_MAP(&system_map, "Name ips' functions from a System.map or /proc/kallsyms."),
	OPT__BTF(&btf, OPT_BTF_HELP),
	OPT_END(),
};

/* A column: CSV writes a null empty, JSON null; hex is a string. */
enum ftype { F_U64, F_HEX, F_STR };
struct field {
	const char *name;
	enum ftype type;
};
struct value {
	int null;
	uint64_t u;
	const char *s;
};

static const struct field object_fields[] = {
	{ "id", F_U64 }, { "kind", F_STR }, { "address", F_HEX },
	{ "size", F_U64 }, { "size_alloc", F_U64 }, { "alloc_ip", F_HEX },
	{ "alloc_function", F_STR }, { "cache", F_STR }, { "pid", F_U64 },
	{ "comm", F_STR }, { "alloc_jiffies", F_U64 },
	{ "free_jiffies", F_U64 }, { "free_ip", F_HEX },
	{ "free_function", F_STR }, { "free_api", F_STR },
	{ "type", F_STR }, { "type_way", F_STR },
};
#define NOBJECT_FIELDS	(sizeof(object_fields) / sizeof(object_fields[0]))
static const struct field access_fields[] = {
	{ "object_id", F_U64 }, { "ip", F_HEX }, { "function", F_STR },
	{ "file", F_STR }, { "line", F_U64 }, { "pid", F_U64 },
	{ "reads", F_U64 }, { "writes", F_U64 }, { "offset", F_U64 },
	{ "offset_end", F_U64 }, { "field", F_STR },
};
#define NACCESS_FIELDS	(sizeof(access_fields) / sizeof(access_fields[0]))

struct table_out {
	struct output out;
	char *path;
};

struct export {
	int jsonl;
	struct kmap_sym *sym;
	struct kmap_types *types;	/* NULL: none */
	struct table_out objects, accesses;
	uint64_t objects_read;
};

static void put_csv(FILE *f, const struct field *fields,
		    const struct value *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (i)
			fputc(',', f);
		if (v[i].null)
			continue;
		if (fields[i].type == F_U64)
			fprintf(f, "%" PRIu64, v[i].u);
		else if (fields[i].type == F_HEX)
			fprintf(f, "%" PRIx64, v[i].u);
		else
			csv_str(f, v[i].s);
	}
	fputc('\n', f);
}

/* One JSON object on one line; -1 when out of memory. */
static int put_jsonl(FILE *f, const struct field *fields,
		     const struct value *v, size_t n)
{
	struct json_object *row = json_object_new_object(), *val;
	char hex[20];
	const char *s;
	size_t i;

	if (!row)
		return -1;
	for (i = 0; i < n; i++) {
		val = NULL;
		if (!v[i].null && fields[i].type == F_U64) {
			val = json_object_new_uint64(v[i].u);
		} else if (!v[i].null && fields[i].type == F_HEX) {
			snprintf(hex, sizeof(hex), "%" PRIx64, v[i].u);
			val = json_object_new_string(hex);
		} else if (!v[i].null) {
			val = json_bytes(v[i].s);
		}
		if (!v[i].null && !val) {
			json_object_put(row);
			return -1;
		}
		json_object_object_add(row, fields[i].name, val);
	}
	s = json_object_to_json_string_ext(row, JSON_C_TO_STRING_PLAIN |
					   JSON_C_TO_STRING_NOSLASHESCAPE);
	if (s)
		fprintf(f, "%s\n", s);
	json_object_put(row);
	return s ? 0 : -1;
}

static int put_row(const struct export *x, FILE *f, const struct field *fields,
		   const struct value *v, size_t n)
{
	if (x->jsonl)
		return put_jsonl(f, fields, v, n);
	put_csv(f, fields, v, n);
	return 0;
}

#define NUM(x)		((struct value){ 0, (x), NULL })
#define STR(x)		((struct value){ !(x), 0, (x) })
#define NONE		((struct value){ 1, 0, NULL })

/* ip's function, NULL without symbols or when ip is in none. */
static const char *function(const struct export *x, uint64_t ip)
{
	uint64_t start;

	return x->sym ? kmap_sym_function(x->sym, ip, &start) : NULL;
}

static int put_object(struct export *x, const struct kmap_object *o,
		      uint64_t id, const struct kmap_access *acc, size_t nacc)
{
	int freed = kmap_object_freed(o);
	enum kmap_type_way way = KMAP_TYPE_NONE;
	long type = x->types ? kmap_types_of_object(x->types, o, &way) : -1;
	struct value v[NOBJECT_FIELDS] = {
		NUM(id), STR(kmap_kind_name(kmap_object_kind(o))),
		NUM(o->addr), NUM(o->size),
		(o->has & KMAP_HAS_SIZE_ALLOC) ? NUM(o->size_alloc) : NONE,
		NUM(o->alloc_ip),
		kmap_object_found(o) ? NONE : STR(function(x, o->alloc_ip)),
		(o->has & KMAP_HAS_CACHE) ? STR(o->cache) : NONE,
		NUM(o->pid), STR(o->comm), NUM(o->alloc_jiffies),
		freed ? NUM(o->free_jiffies) : NONE,
		freed ? NUM(o->free_ip) : NONE,
		freed && o->free_ip != KMAP_FREE_IP_MISSED ?
			STR(function(x, o->free_ip)) : NONE,
		freed && (o->has & KMAP_HAS_FREE_API) ?
			STR(kmap_free_api_name(o->free_api)) : NONE,
		type >= 0 ? STR(kmap_types_name(x->types, type)) : NONE,
		type >= 0 ? STR(kmap_type_way_names[way]) : NONE,
	};
	char field[256];
	size_t i;

	if (put_row(x, x->objects.out.f, object_fields, v, NOBJECT_FIELDS))
		return -1;
	for (i = 0; i < nacc; i++) {
		int line = 0;
		const char *file = x->sym ? kmap_sym_source(x->sym, acc[i].ip,
							    &line) : NULL;
		int named = type >= 0 && acc[i].offset_end &&
			    kmap_types_field(x->types, type, acc[i].offset,
					     acc[i].offset_end, field,
					     sizeof(field)) >= 0;
		const char *member = field;	/* STR() takes a pointer */
		struct value a[NACCESS_FIELDS] = {
			NUM(id), NUM(acc[i].ip), STR(function(x, acc[i].ip)),
			STR(file), file && line > 0 ? NUM((uint64_t)line) : NONE,
			NUM(acc[i].pid), NUM(acc[i].reads), NUM(acc[i].writes),
			acc[i].offset_end ? NUM(acc[i].offset) : NONE,
			acc[i].offset_end ? NUM(acc[i].offset_end) : NONE,
			named ? STR(member) : NONE,
		};

		if (put_row(x, x->accesses.out.f, access_fields, a,
			    NACCESS_FIELDS))
			return -1;
	}
	return 0;
}

static void put_header(FILE *f, const struct field *fields, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? "," : "", fields[i].name);
	fputc('\n', f);
}

static int open_table(struct table_out *t, const char *dir, const char *name,
		      const char *ext, char *const *inputs)
{
	if (asprintf(&t->path, "%s/%s.%s", dir, name, ext) < 0) {
		t->path = NULL;
		error("out of memory");
		return -1;
	}
	return output_open(&t->out, t->path, inputs, 1);
}

static int put_object_row(void *ctx, const struct kmap_object *o,
			  const struct kmap_access *acc, size_t nacc)
{
	struct export *x = ctx;

	x->objects_read++;	/* a text kmap's objects are numbered from 1 */
	if (put_object(x, o, (o->has & KMAP_HAS_ID) ? o->id : x->objects_read,
		       acc, nacc)) {
		error("out of memory");
		return -1;
	}
	return 0;
}

/* Read src into both tables; -1 with a message. */
static int export(struct export *x, struct kmap_src *src)
{
	if (!x->jsonl) {
		put_header(x->objects.out.f, object_fields, NOBJECT_FIELDS);
		put_header(x->accesses.out.f, access_fields, NACCESS_FIELDS);
	}
	return read_objects(src, put_object_row, x);
}

/* DIR, made when it is not there (*made set: removed if export fails). */
static int make_dir(const char *dir, int *made)
{
	struct stat st;

	*made = 0;
	if (!stat(dir, &st)) {
		if (S_ISDIR(st.st_mode))
			return 0;
		error("-o %s: not a directory", dir);
		return -1;
	}
	if (errno != ENOENT || mkdir(dir, 0777)) {
		error("-o %s: %m", dir);
		return -1;
	}
	*made = 1;
	return 0;
}

int cmd_export(int argc, char **argv)
{
	struct export x = { 0 };
	struct kmap_src *src = NULL;
	char err[KMAP_ERR_MAX];
	int rc = -1, failed, made = 0;

	if (!format || (strcmp(format, "csv") && strcmp(format, "jsonl"))) {
		if (format)
			error("--format %s: not csv or jsonl", format);
		else
			error("which format? --format csv or --format jsonl");
		return 2;
	}
	x.jsonl = !strcmp(format, "jsonl");
	if (!dir || !*dir) {
		error("where to? -o DIR (the tables go in DIR/objects.%s and DIR/accesses.%s)",
		      format, format);
		return 2;
	}
	if (argc != 1) {
		error(argc ? "one file at a time" : "which file?");
		cmd_usage(&cmd_export_desc, stderr);
		return 2;
	}
	x.sym = open_symbols(vmlinux, system_map, &failed);
	if (failed)
		return 2;
	/* A vmlinux without DWARF names functions only: types null. */
	x.types = open_types(vmlinux, btf, err, &failed);
	if (failed) {
		kmap_sym_close(x.sym);
		return 2;
	}
	if (make_dir(dir, &made))
		goto out;
	if (open_table(&x.objects, dir, "objects", format, argv) ||
	    open_table(&x.accesses, dir, "accesses", format, argv))
		goto out;
	src = open_input(argv[0], err);
	if (!src) {
		error("%s", err);
		goto out;
	}
	rc = export(&x, src);
	/* Both complete before either replaces a table. */
	if (!rc && (output_flush(&x.objects.out) ||
		    output_flush(&x.accesses.out)))
		rc = -1;
out:
	if (output_close(&x.objects.out, !rc) && !rc)
		rc = -1;
	if (output_close(&x.accesses.out, !rc) && !rc)
		rc = -1;
	if (rc && made)
		rmdir(dir);
	free(x.objects.path);
	free(x.accesses.path);
	kmap_src_close(src);
	kmap_sym_close(x.sym);
	kmap_types_close(x.types);
	return rc ? 1 : 0;
}

const struct cmd cmd_export_desc = {
	.name = "export",
	.summary = "write a kmap or stream as tables for a data engine: objects and accesses, CSV or JSON lines",
	.synopsis = "FILE --format csv|jsonl -o DIR [--vmlinux FILE|--system-map FILE] [--btf FILE]",
	.description =
"Reads FILE (- for standard input), a text kmap or a binary stream "
"(optionally zstd-compressed), through libkmap, and writes two tables into "
"DIR: objects.csv and accesses.csv (--format csv: a header line of "
"column names, then a row per line; strings quoted as RFC 4180 says "
"where they need it), or objects.jsonl and accesses.jsonl (--format "
"jsonl: one JSON object per line, keyed by column name). DuckDB, Spark or "
"pandas read them as they are; the tables of many runs, each in its own "
"DIR, read as one with a glob. Both are written as temporary files and "
"renamed into place together once complete: a failure leaves DIR's "
"tables as they were. Memory does not grow with the input.\n"
"\n"
"The schema is a stable interface: columns keep their names, types and "
"order, and new ones are only ever added at the end. An empty CSV field "
"or a JSON null is a value the input does not have. Types are SQL's "
"(DuckDB's names); an ADDRESS is a VARCHAR of lowercase hexadecimal "
"without 0x, as in the kmap (kernel addresses do not fit BIGINT).\n"
"\n"
"objects: one row per object.\n"
"  id UBIGINT: the stream's object id; in a text kmap the object's\n"
"    number in the file, from 1. Unique in the table.\n"
"  kind VARCHAR: the allocator: kmalloc, kmem_cache, kmalloc_large,\n"
"    vmalloc, pages, global, percpu, stack, or unknown (a kmap names\n"
"    globals, per-CPU objects and IRQ stacks only, a kmap_offsets of\n"
"    10-field object lines every kind; see memorizer report --by kind).\n"
"  address ADDRESS: the object's start.\n"
"  size UBIGINT: bytes requested.\n"
"  size_alloc UBIGINT: bytes allocated (binary streams; null in text).\n"
"  alloc_ip ADDRESS: the allocation's call site.\n"
"  alloc_function VARCHAR: alloc_ip's function (null without symbols,\n"
"    outside every known function, and for a found object: one no\n"
"    allocation of which was seen, whose alloc_ip is its address).\n"
"  cache VARCHAR: the slab cache's name (slab objects of binary streams\n"
"    and of a kmap_offsets whose object lines carry kind and cache).\n"
"  pid UINTEGER: the allocating task (0: no task, or found).\n"
"  comm VARCHAR: its command, as the kmap's executable field.\n"
"  alloc_jiffies UBIGINT: when it was allocated.\n"
"  free_jiffies UBIGINT: when it was freed; null while live.\n"
"  free_ip ADDRESS: who freed it; null while live, 0 when not known,\n"
"    deadbeef when the free was missed.\n"
"  free_function VARCHAR: free_ip's function (null without symbols,\n"
"    outside every known function, and for a missed free).\n"
"  free_api VARCHAR: kfree, kmem_cache_free, vfree, free_pages, missed,\n"
"    free_percpu or module (binary streams; null while live).\n"
"  type VARCHAR: the object's struct type (the struct's name, without\n"
"    \"struct\"), from --vmlinux's DWARF (or --btf's BTF) as memorizer\n"
"    capmap --cols type finds it; null without types or when not known.\n"
"  type_way VARCHAR: how type was found: cache (the slab cache's name),\n"
"    result (the call site's variable that holds the allocation), size\n"
"    (the one struct of its size in scope at the call site) or global\n"
"    (a found object: the global variable at its address); null with\n"
"    type.\n"
"\n"
"accesses: one row per access counter, an (object, ip, pid) triple.\n"
"  object_id UBIGINT: the object's id in objects.\n"
"  ip ADDRESS: the accessing instruction.\n"
"  function VARCHAR: its function (null without symbols, or outside\n"
"    every known function).\n"
"  file VARCHAR: its source file (from --vmlinux's DWARF line tables,\n"
"    relative to the kernel tree; else null).\n"
"  line UINTEGER: its line in file (null with file, and for code of no\n"
"    line: line 0 in the line table and none before it; see memorizer\n"
"    symbolize).\n"
"  pid UINTEGER: the accessing task.\n"
"  reads UBIGINT: reads by ip in pid's context.\n"
"  writes UBIGINT: writes by ip in pid's context.\n"
"  offset UINTEGER: the first byte of the object ip touched (a version 5\n"
"    stream's, the union of its ACCESS records' ranges, or a kmap_offsets';\n"
"    null when not known: a kmap, an older stream, or 0,0).\n"
"  offset_end UINTEGER: one past the last byte it touched (null with\n"
"    offset). Objects over 64 KiB have the range rounded outwards, within\n"
"    size_alloc.\n"
"  field VARCHAR: the member of the object's type those bytes are, as\n"
"    memorizer capmap --fields names it (f_path.dentry; first..last\n"
"    across members; (whole); +OFFSET in none); null without a type or\n"
"    an offset.\n"
"\n"
"Sums over these give memorizer report's figures: per alloc_ip, count(*)\n"
"is report's objects and sum(size) its bytes; joined on object_id, the\n"
"sums of reads and writes are its reads and writes (tools/tests/duckdb\n"
"checks this for every view of report it covers).",
	.opts = opts,
	.files_desc = "kmap",
	.examples =
"  $ memorizer export tar.kmap --format csv -o tar --system-map out/System.map\n"
"  $ duckdb -c \"SELECT o.alloc_function, sum(a.writes) FROM 'tar/objects.csv' o\n"
"      JOIN 'tar/accesses.csv' a ON a.object_id = o.id GROUP BY 1 ORDER BY 2 DESC\"\n"
"  $ memorizer export stream.bin --format jsonl -o run1 --vmlinux out/vmlinux\n"
"  $ duckdb -c \"SELECT a.function, o.type, a.field, sum(a.writes) FROM 'run1/objects.jsonl' o\n"
"      JOIN 'run1/accesses.jsonl' a ON a.object_id = o.id WHERE o.type = 'file' GROUP BY ALL\"",
	.run = cmd_export,
};
