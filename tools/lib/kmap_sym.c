// SPDX-License-Identifier: GPL-2.0
/*
 * libkmap: kernel symbols. System.map and /proc/kallsyms by hand (the one
 * reader of their lines: kmap_sym_read_map()); a vmlinux's symbol table
 * and DWARF line tables with elfutils' libdw.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kmap.h"

#ifdef KMAP_DW
#include <elfutils/libdwfl.h>
#include <dwarf.h>

#include "kmap_dw.h"
#endif

#define SYM_LINE_MAX	1024
#define MAX_SYMS	(1u << 24)

struct sym {
	uint64_t addr, size;
	size_t name;			/* offset in names */
	int rank;			/* among aliases, the lowest is kept */
};

struct kmap_sym {
	struct sym *syms;
	size_t nsyms;
	/*
	 * Where find() bisects: the table cut into nbuckets spans of
	 * 1 << shift bytes from the first symbol's address; bucket[b] is the
	 * number of symbols below span b's start, bucket[nbuckets] nsyms.
	 * NULL when the table is small (or no memory was had): all of it.
	 */
	uint32_t *bucket;
	size_t nbuckets;
	unsigned int shift;
	const struct sym *last;		/* lookup()'s last found */
	char *names;
	size_t names_len;
#ifdef KMAP_DW
	Dwfl *dwfl;
	Dwfl_Module *mod;
	/* Line tables, by unit: read at the first line asked for. */
	Dwarf *dw;
	Dwarf_Addr bias;
	struct kmap_cu_index cus;
	int cus_read;
#endif
};

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	return (x->name > y->name) - (x->name < y->name);
}

/* Add a symbol to s's table; -1 when out of memory. */
static int add_sym(struct kmap_sym *s, size_t *cap, size_t *ncap,
		   uint64_t addr, uint64_t size, int rank, const char *name)
{
	size_t len = strlen(name) + 1;

	if (kmap_grow((void **)&s->syms, cap, s->nsyms + 1, sizeof(*s->syms)) ||
	    kmap_grow((void **)&s->names, ncap, s->names_len + len, 1))
		return -1;
	memcpy(s->names + s->names_len, name, len);
	s->syms[s->nsyms++] = (struct sym){ addr, size, s->names_len, rank };
	s->names_len += len;
	return 0;
}

/*
 * find()'s buckets over the sorted table: a lookup bisects the symbols
 * of one span (about one symbol a span), not the whole table (a cache
 * miss a step when it is large: check looks up every ip of a kmap).
 */
#define INDEX_MIN_SYMS	64
static void index_syms(struct kmap_sym *s)
{
	uint64_t span, first;
	size_t b, i;

	s->last = NULL;
	free(s->bucket);
	s->bucket = NULL;
	if (s->nsyms < INDEX_MIN_SYMS)
		return;
	first = s->syms[0].addr;
	span = s->syms[s->nsyms - 1].addr - first;
	for (s->shift = 0; (span >> s->shift) >= s->nsyms; s->shift++)
		;
	s->nbuckets = (size_t)(span >> s->shift) + 1;
	s->bucket = malloc((s->nbuckets + 1) * sizeof(*s->bucket));
	if (!s->bucket)
		return;		/* bisect the whole table */
	for (b = 0, i = 0; b < s->nbuckets; b++) {
		uint64_t start = first + ((uint64_t)b << s->shift);

		while (i < s->nsyms && s->syms[i].addr < start)
			i++;
		s->bucket[b] = (uint32_t)i;
	}
	s->bucket[s->nbuckets] = (uint32_t)s->nsyms;
}

/*
 * Sort the table and keep one symbol per address (the first by rank, then
 * by order read); a symbol without a size ends where the next begins, the
 * last at end (or a page on).
 */
static void sort_syms(struct kmap_sym *s, uint64_t end)
{
	size_t i, j;

	if (s->nsyms)	/* syms is NULL without */
		qsort(s->syms, s->nsyms, sizeof(*s->syms), sym_cmp);
	for (i = 0, j = 0; i < s->nsyms; i++)
		if (!j || s->syms[i].addr != s->syms[j - 1].addr)
			s->syms[j++] = s->syms[i];
	s->nsyms = j;
	for (i = 0; i + 1 < s->nsyms; i++)
		if (!s->syms[i].size)
			s->syms[i].size = s->syms[i + 1].addr - s->syms[i].addr;
	if (s->nsyms && !s->syms[i].size)
		s->syms[i].size = end > s->syms[i].addr ? end - s->syms[i].addr
							: 4096;
	index_syms(s);
}

/* kmap_sym_read_map()'s error at line lineno of path: -1. */
static int map_error(char *err, const char *path, unsigned long lineno,
		     const char *what)
{
	snprintf(err, KMAP_ERR_MAX, "%s:%lu: %s", path, lineno, what);
	return -1;
}

int kmap_sym_read_map(const char *path, kmap_ksym_fn fn, void *ctx,
		      char *err)
{
	FILE *f = kmap_fopen(path, err);
	char line[SYM_LINE_MAX];
	unsigned long lineno = 0;
	int rc = 0;

	if (!f)
		return -1;
	while (!rc && fgets(line, sizeof(line), f)) {
		struct kmap_ksym k = { .module = "" };
		char *p = line, *end;
		size_t len = strlen(line);

		lineno++;
		if (len == sizeof(line) - 1 && line[len - 1] != '\n') {
			rc = map_error(err, path, lineno, "line too long");
			break;
		}
		end = p + strcspn(p, " ");
		if (*end != ' ' || kmap_parse_hex(p, end - p, &k.addr) ||
		    !end[1] || end[2] != ' ') {
			rc = map_error(err, path, lineno,
				       "not a System.map line (ADDRESS TYPE NAME)");
			break;
		}
		k.type = end[1];
		k.name = p = end + 3;
		p += strcspn(p, " \t\r\n");
		if (p == k.name) {
			rc = map_error(err, path, lineno, "symbol without a name");
			break;
		}
		/* kallsyms: "\t[MODULE]" after a module's symbol. */
		end = p + strspn(p, " \t");
		*p = 0;
		if (*end == '[' && (p = strchr(end, ']'))) {
			*p = 0;
			k.module = end + 1;
		}
		rc = fn(ctx, &k);
	}
	if (!rc && ferror(f)) {
		snprintf(err, KMAP_ERR_MAX, "%s: read error", path);
		rc = -1;
	}
	fclose(f);
	return rc ? -1 : 0;
}

/* What kmap_sym_open_map() gathers from kmap_sym_read_map(). */
struct map_ctx {
	struct kmap_sym *s;
	const char *path;
	char *err;
	size_t cap, ncap;
	uint64_t etext;
	int nonzero;
};

/* One symbol of a System.map: text ones into the table. */
static int map_sym(void *ctx, const struct kmap_ksym *k)
{
	struct map_ctx *m = ctx;

	if (!strcmp(k->name, "_etext"))
		m->etext = k->addr;
	if (k->type != 't' && k->type != 'T' && k->type != 'w' && k->type != 'W')
		return 0;
	if (k->addr)
		m->nonzero = 1;
	if (m->s->nsyms >= MAX_SYMS) {
		snprintf(m->err, KMAP_ERR_MAX, "%s: more than %u symbols",
			 m->path, MAX_SYMS);
		return -1;
	}
	if (add_sym(m->s, &m->cap, &m->ncap, k->addr, 0, 0, k->name)) {
		snprintf(m->err, KMAP_ERR_MAX, "out of memory");
		return -1;
	}
	return 0;
}

struct kmap_sym *kmap_sym_open_map(const char *path, char *err)
{
	struct map_ctx m = { .path = path, .err = err };

	m.s = calloc(1, sizeof(*m.s));
	if (!m.s) {
		snprintf(err, KMAP_ERR_MAX, "out of memory");
		return NULL;
	}
	if (kmap_sym_read_map(path, map_sym, &m, err))
		goto fail;
	if (!m.s->nsyms) {
		snprintf(err, KMAP_ERR_MAX,
			 "%s: no text symbols: not a System.map or kallsyms file",
			 path);
		goto fail;
	}
	if (!m.nonzero) {
		snprintf(err, KMAP_ERR_MAX,
			 "%s: every function address is 0 (kallsyms hides them from non-root)",
			 path);
		goto fail;
	}
	/* Aliases: the first name at an address; the last ends at _etext. */
	sort_syms(m.s, m.etext);
	return m.s;
fail:
	kmap_sym_close(m.s);
	return NULL;
}

struct kmap_sym *kmap_sym_open_elf(const char *path, char *err)
{
#ifdef KMAP_DW
	static const Dwfl_Callbacks cb = {
		.find_elf = dwfl_build_id_find_elf,
		.find_debuginfo = dwfl_standard_find_debuginfo,
		.section_address = dwfl_offline_section_address,
	};
	struct kmap_sym *s = calloc(1, sizeof(*s));
	FILE *f = kmap_fopen(path, err);
	size_t cap = 0, ncap = 0;
	int i, n;

	if (!f) {
		free(s);
		return NULL;
	}
	fclose(f);
	if (!s) {
		snprintf(err, KMAP_ERR_MAX, "out of memory");
		return NULL;
	}
	s->dwfl = dwfl_begin(&cb);
	if (!s->dwfl) {
		snprintf(err, KMAP_ERR_MAX, "%s: libdw: %s", path,
			 dwfl_errmsg(-1));
		free(s);
		return NULL;
	}
	s->mod = dwfl_report_offline(s->dwfl, "vmlinux", path, -1);
	if (!s->mod || dwfl_report_end(s->dwfl, NULL, NULL)) {
		snprintf(err, KMAP_ERR_MAX, "%s: libdw: %s", path,
			 dwfl_errmsg(-1));
		kmap_sym_close(s);
		return NULL;
	}
	n = dwfl_module_getsymtab(s->mod);
	if (n <= 0) {
		snprintf(err, KMAP_ERR_MAX, "%s: no symbol table", path);
		kmap_sym_close(s);
		return NULL;
	}
	/*
	 * Functions into the table System.map fills, searched in O(log n):
	 * dwfl_module_addrinfo() scans every symbol at each call. Among
	 * aliases, global before weak before local, as libdwfl prefers.
	 */
	for (i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		const char *name = dwfl_module_getsym_info(s->mod, i, &sym,
							   &addr, NULL, NULL,
							   NULL);
		int bind;

		if (!name || !*name || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    sym.st_shndx == SHN_UNDEF)
			continue;
		bind = GELF_ST_BIND(sym.st_info);
		if (add_sym(s, &cap, &ncap, addr, sym.st_size,
			    bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2,
			    name)) {
			snprintf(err, KMAP_ERR_MAX, "out of memory");
			kmap_sym_close(s);
			return NULL;
		}
	}
	sort_syms(s, 0);
	return s;
#else
	snprintf(err, KMAP_ERR_MAX,
		 "%s: this memorizer was built without libdw: use --system-map",
		 path);
	return NULL;
#endif
}

void kmap_sym_close(struct kmap_sym *s)
{
	if (!s)
		return;
#ifdef KMAP_DW
	if (s->dwfl)
		dwfl_end(s->dwfl);
	kmap_cu_index_free(&s->cus);
#endif
	free(s->syms);
	free(s->bucket);
	free(s->names);
	free(s);
}

static const struct sym *find(const struct kmap_sym *s, uint64_t ip)
{
	size_t lo = 0, hi = s->nsyms;

	/* The symbols at or below ip number lo to hi: within ip's bucket. */
	if (s->bucket && s->nsyms && ip >= s->syms[0].addr) {
		uint64_t b = (ip - s->syms[0].addr) >> s->shift;

		if (b < s->nbuckets) {
			lo = s->bucket[b];
			hi = s->bucket[b + 1];
		} else {
			lo = s->nsyms;
		}
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->syms[mid].addr <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	if (ip - s->syms[lo - 1].addr >= s->syms[lo - 1].size)
		return NULL;
	return &s->syms[lo - 1];
}

/*
 * The one lookup: the function containing ip, its start and size, from
 * the table of a vmlinux's or a System.map's functions. NULL when none.
 */
static const char *lookup(struct kmap_sym *s, uint64_t ip, uint64_t *start,
			  uint64_t *size)
{
	const struct sym *y = s->last;

	/*
	 * ip in the function found last (an object's accesses mostly come
	 * from a few functions): what find() answers, without a search.
	 */
	if (!y || ip - y->addr >= y->size ||
	    (y + 1 < s->syms + s->nsyms && ip >= y[1].addr)) {
		y = find(s, ip);
		if (!y)
			return NULL;
		s->last = y;
	}
	*start = y->addr;
	*size = y->size;
	return s->names + y->name;
}

const char *kmap_sym_function(struct kmap_sym *s, uint64_t ip,
			      uint64_t *start)
{
	uint64_t size;

	return lookup(s, ip, start, &size);
}

#ifdef KMAP_DW
/*
 * For a row of line 0 (code the compiler made that no source line is
 * for: DWARF's "no line"), the nearest row before it in its sequence that
 * has a line, as debuggers take it; l itself (line 0) when there is none.
 * The unit's rows are sorted by address, each sequence's rows together,
 * its end_sequence row last.
 */
static Dwarf_Line *line_before(Dwarf_Die *cu, Dwarf_Line *l)
{
	Dwarf_Addr at, a;
	Dwarf_Lines *lines;
	Dwarf_Line *row;
	size_t n, lo = 0, hi, i;
	int line;

	if (dwarf_getsrclines(cu, &lines, &n) || dwarf_lineaddr(l, &at))
		return l;
	/* The first row at l's address, then l among those at it. */
	for (hi = n; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;

		row = dwarf_onesrcline(lines, mid);
		if (row && !dwarf_lineaddr(row, &a) && a < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < n && dwarf_onesrcline(lines, i) != l; i++)
		;
	if (i == n)
		return l;
	while (i-- > 0) {
		bool end;

		row = dwarf_onesrcline(lines, i);
		/* The end of the sequence before: l's starts at l's row. */
		if (!row || dwarf_lineendsequence(row, &end) || end)
			break;
		if (!dwarf_lineno(row, &line) && line > 0)
			return row;
	}
	return l;
}

/*
 * ip's source file and line from the line table of the unit whose code
 * holds it (found by its ranges: libdwfl's lookup goes by .debug_aranges,
 * which clang writes for assembly only), and the unit's build directory.
 * A row of line 0 gives the file and line of the row before it with a
 * line (line_before()), or its own file and line 0 when none has. NULL
 * when not known.
 */
static const char *line_of(struct kmap_sym *s, uint64_t ip, int *line,
			   const char **comp_dir)
{
	Dwarf_Attribute a;
	Dwarf_Line *l;
	Dwarf_Die cu;

	if (!s || !s->dwfl)
		return NULL;
	if (!s->cus_read) {
		s->cus_read = 1;
		s->dw = dwfl_module_getdwarf(s->mod, &s->bias);
		if (s->dw && kmap_cu_index_read(&s->cus, s->dw))
			kmap_cu_index_free(&s->cus);	/* no memory: none */
	}
	if (!s->dw || kmap_cu_index_find(&s->cus, s->dw, ip - s->bias, &cu))
		return NULL;
	l = dwarf_getsrc_die(&cu, ip - s->bias);
	if (!l || dwarf_lineno(l, line))
		return NULL;
	if (*line == 0) {
		l = line_before(&cu, l);
		if (dwarf_lineno(l, line))
			return NULL;
	}
	*comp_dir = dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &a));
	return dwarf_linesrc(l, NULL, NULL);
}
#endif

/*
 * " at FILE:LINE" from the DWARF line tables, when there are some; " at
 * FILE" for code of no line (line 0, no line before it in its sequence).
 */
static void describe_line(struct kmap_sym *s, uint64_t ip, char *out,
			  size_t len)
{
	const char *file;
	int lineno = 0;

	file = kmap_sym_source(s, ip, &lineno);
	if (file && lineno > 0)
		snprintf(out, len, " at %s:%d", file, lineno);
	else if (file)
		snprintf(out, len, " at %s", file);
}

int kmap_sym_has_lines(const struct kmap_sym *s)
{
#ifdef KMAP_DW
	Dwarf_Addr bias;

	return s && s->dwfl && dwfl_module_getdwarf(s->mod, &bias) != NULL;
#else
	(void)s;
	return 0;
#endif
}

const char *kmap_sym_source(struct kmap_sym *s, uint64_t ip, int *line)
{
#ifdef KMAP_DW
	const char *file, *dir = NULL;
	size_t n;

	file = line_of(s, ip, line, &dir);
	if (!file)
		return NULL;
	/* A kernel built in its tree names mm/slub.c by the tree's path. */
	n = dir ? strlen(dir) : 0;
	if (n && !strncmp(file, dir, n) && file[n] == '/' && file[n + 1])
		file += n + 1;
	return file;
#else
	(void)s, (void)ip, (void)line;
	return NULL;
#endif
}

int kmap_sym_describe(struct kmap_sym *s, uint64_t ip, char *out, size_t len)
{
	uint64_t start, size;
	const char *name = lookup(s, ip, &start, &size);
	int n;

	if (!name) {
		snprintf(out, len, "%" PRIx64, ip);
		return 0;
	}
	n = snprintf(out, len, "%s+0x%" PRIx64 "/0x%" PRIx64, name, ip - start,
		     size);
	if (n >= 0 && (size_t)n < len)
		describe_line(s, ip, out + n, len - n);
	return 1;
}
