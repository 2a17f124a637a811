// SPDX-License-Identifier: GPL-2.0
/*
 * Struct types from DWARF or BTF (kmap_types.h). Opening reads the
 * top-level DIEs of every compilation unit once (or every type of the
 * BTF) and keeps, per struct name, where its first complete definition
 * is: a sorted table of names and DIE offsets (BTF type ids), bsearched.
 * Members are read from the DIE (BTF type) when asked, through the few
 * node_*() and member_at() that tell the two apart: naming bytes is one
 * code for both.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kmap_types.h"

/* Types read DWARF and BTF: a build has libdw and libbpf, or neither. */
#if defined(KMAP_DW) && defined(KMAP_BTF)
#include <elf.h>
#include <elfutils/libdw.h>
#include <dwarf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "kmap_dw.h"

struct type_entry {
	const char *name;		/* in the DWARF's (BTF's) strings */
	uint64_t ref;			/* DIE offset, or BTF type id */
	uint64_t size;
};

/* What the DWARF at one call site says (kmap_types_of_callsite). */
struct site {
	long result;			/* the result's struct type, or -1 */
	size_t cand, ncand;		/* structs in scope: cands[cand..] */
};

/* A global variable of a struct type, at its address. */
struct global {
	uint64_t addr;
	const char *type_name;		/* resolved to type once read */
	long type;
};

struct kmap_types {
	int fd;
	Dwarf *dw;			/* one of dw and btf */
	struct btf *btf;
	struct type_entry *types;
	size_t n, cap;
	struct global *globals;		/* sorted by address */
	size_t nglobals, globals_cap;
	/* Read at the first call site asked about. */
	struct kmap_cu_index cus;
	int cus_read;
	struct kmap_map site_of_ip;	/* ip -> index in sites */
	struct site *sites;
	size_t nsites, sites_cap;
	long *cands;			/* struct types, by site */
	size_t ncands, cands_cap;
};

static int by_name(const void *a, const void *b)
{
	const struct type_entry *x = a, *y = b;
	int r = strcmp(x->name, y->name);

	/* The first definition read stays first among equals. */
	if (r)
		return r;
	return x->ref < y->ref ? -1 : x->ref > y->ref;
}

static int add_type(struct kmap_types *t, const char *name, uint64_t ref,
		    uint64_t size)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 4096;
		struct type_entry *p = realloc(t->types, cap * sizeof(*p));

		if (!p)
			return -1;
		t->types = p;
		t->cap = cap;
	}
	t->types[t->n++] = (struct type_entry){ name, ref, size };
	return 0;
}

static int add_dwarf_type(struct kmap_types *t, Dwarf_Die *die)
{
	const char *name = dwarf_diename(die);
	Dwarf_Word size;

	if (!name || dwarf_hasattr(die, DW_AT_declaration) ||
	    dwarf_aggregate_size(die, &size))
		return 0;
	return add_type(t, name, dwarf_dieoffset(die), size);
}

/* The type DIE of @die's DW_AT_type, typedefs and qualifiers peeled. */
static int type_of(Dwarf_Die *die, Dwarf_Die *type);

/* A global variable's address and struct type name, if it has both. */
static int add_global(struct kmap_types *t, Dwarf_Die *die)
{
	Dwarf_Attribute a, at;
	Dwarf_Die type;
	Dwarf_Addr addr;
	Dwarf_Op *expr;
	size_t len;
	const char *name;

	if (!dwarf_attr(die, DW_AT_location, &a) ||
	    dwarf_getlocation(&a, &expr, &len) || len != 1 ||
	    type_of(die, &type) || dwarf_tag(&type) != DW_TAG_structure_type ||
	    !(name = dwarf_diename(&type)))
		return 0;
	/* DWARF 5 keeps the address in .debug_addr (clang's DW_OP_addrx). */
	if (expr[0].atom == DW_OP_addr)
		addr = expr[0].number;
	else if ((expr[0].atom != DW_OP_addrx &&
		  expr[0].atom != DW_OP_GNU_addr_index) ||
		 dwarf_getlocation_attr(&a, &expr[0], &at) ||
		 dwarf_formaddr(&at, &addr))
		return 0;
	if (kmap_grow((void **)&t->globals, &t->globals_cap, t->nglobals + 1,
		      sizeof(*t->globals)))
		return -1;
	t->globals[t->nglobals++] = (struct global){ addr, name, -1 };
	return 0;
}

static int by_addr(const void *a, const void *b)
{
	const struct global *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Every compilation unit's structs and globals: 0, or -1 out of memory. */
static int read_dwarf(struct kmap_types *t)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (dwarf_nextcu(t->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, die;

		if (dwarf_offdie(t->dw, off + hsize, &cu) &&
		    dwarf_child(&cu, &die) == 0) {
			do {
				int tag = dwarf_tag(&die);

				if ((tag == DW_TAG_structure_type &&
				     add_dwarf_type(t, &die)) ||
				    (tag == DW_TAG_variable &&
				     add_global(t, &die)))
					return -1;
			} while (dwarf_siblingof(&die, &die) == 0);
		}
		off = next;
	}
	return 0;
}

/*
 * The structs of the BTF in path, raw or an ELF file's .BTF: 0, or -1
 * with err. BTF has no variables' addresses (a vmlinux's lists per-CPU
 * ones only): no globals.
 */
static int read_btf(struct kmap_types *t, const char *path, int raw,
		    char *err)
{
	/* libbpf would print its own warnings: err says what was wrong. */
	libbpf_print_fn_t print = libbpf_set_print(NULL);
	uint32_t id, n;
	int e;

	t->btf = raw ? btf__parse_raw(path) : btf__parse_elf(path, NULL);
	e = errno;
	libbpf_set_print(print);
	if (!t->btf) {
		if (!raw && (e == ENOENT || e == ENODATA))
			snprintf(err, KMAP_ERR_MAX,
				 "%s: no DWARF (build it with debug info) nor BTF",
				 path);
		else
			snprintf(err, KMAP_ERR_MAX, "%s: malformed BTF: %s",
				 path, strerror(e));
		return -1;
	}
	n = btf__type_cnt(t->btf);
	for (id = 1; id < n; id++) {
		const struct btf_type *bt = btf__type_by_id(t->btf, id);
		const char *name = btf__name_by_offset(t->btf, bt->name_off);

		if (!btf_is_struct(bt) || !name || !*name)
			continue;
		if (add_type(t, name, id, bt->size)) {
			snprintf(err, KMAP_ERR_MAX, "out of memory");
			/* Nothing of it kept (DWARF's empty table stays). */
			btf__free(t->btf);
			t->btf = NULL;
			t->n = 0;
			return -1;
		}
	}
	return 0;
}

/* Raw BTF's first bytes: its magic, 0xeB9F, in the file's byte order. */
static int is_raw_btf(const unsigned char *b, ssize_t n)
{
	return n >= 2 && ((b[0] == 0x9f && b[1] == 0xeb) ||
			  (b[0] == 0xeb && b[1] == 0x9f));
}

struct kmap_types *kmap_types_open(const char *path, char *err)
{
	struct kmap_types *t = calloc(1, sizeof(*t));
	unsigned char magic[SELFMAG];
	ssize_t got;
	size_t i, j;

	if (!t) {
		snprintf(err, KMAP_ERR_MAX, "out of memory");
		return NULL;
	}
	kmap_map_init(&t->site_of_ip);
	t->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (t->fd < 0) {
		snprintf(err, KMAP_ERR_MAX, "%s: %s", path, strerror(errno));
		free(t);
		return NULL;
	}
	got = pread(t->fd, magic, sizeof(magic), 0);
	if (is_raw_btf(magic, got)) {
		if (read_btf(t, path, 1, err))
			goto fail;
	} else if (got == SELFMAG && !memcmp(magic, ELFMAG, SELFMAG)) {
		/* DWARF where there is, else the ELF file's .BTF. */
		t->dw = dwarf_begin(t->fd, DWARF_C_READ);
		if (t->dw && read_dwarf(t)) {
			snprintf(err, KMAP_ERR_MAX, "out of memory");
			goto fail;
		}
		if (!t->dw && read_btf(t, path, 0, err))
			goto fail;
		/* DWARF with no struct (line tables only): its .BTF, if any. */
		if (t->dw && !t->n && !read_btf(t, path, 0, err)) {
			dwarf_end(t->dw);
			t->dw = NULL;
		}
	} else {
		snprintf(err, KMAP_ERR_MAX,
			 "%s: neither an ELF file nor BTF%s%s", path,
			 got < 0 ? ": " : "", got < 0 ? strerror(errno) : "");
		goto fail;
	}
	if (t->n)	/* types is NULL without */
		qsort(t->types, t->n, sizeof(*t->types), by_name);
	/* One entry per name: the first definition. */
	for (i = j = 0; i < t->n; i++)
		if (!j || strcmp(t->types[j - 1].name, t->types[i].name))
			t->types[j++] = t->types[i];
	t->n = j;
	/* Globals whose struct has a definition, by address. */
	for (i = j = 0; i < t->nglobals; i++) {
		t->globals[i].type = kmap_types_struct(t,
						       t->globals[i].type_name);
		if (t->globals[i].type >= 0)
			t->globals[j++] = t->globals[i];
	}
	t->nglobals = j;
	if (t->nglobals)
		qsort(t->globals, t->nglobals, sizeof(*t->globals), by_addr);
	return t;
fail:
	kmap_types_close(t);
	return NULL;
}

void kmap_types_close(struct kmap_types *t)
{
	if (!t)
		return;
	if (t->dw)
		dwarf_end(t->dw);
	btf__free(t->btf);
	if (t->fd >= 0)
		close(t->fd);
	free(t->types);
	free(t->globals);
	kmap_cu_index_free(&t->cus);
	kmap_map_free(&t->site_of_ip);
	free(t->sites);
	free(t->cands);
	free(t);
}

long kmap_types_struct(const struct kmap_types *t, const char *name)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int r = strcmp(name, t->types[mid].name);

		if (!r)
			return (long)mid;
		if (r < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

const char *kmap_types_name(const struct kmap_types *t, long type)
{
	return type >= 0 && (size_t)type < t->n ? t->types[type].name : NULL;
}

uint64_t kmap_types_size(const struct kmap_types *t, long type)
{
	return type >= 0 && (size_t)type < t->n ? t->types[type].size : 0;
}

/* The type DIE of @die's DW_AT_type, typedefs and qualifiers peeled. */
static int type_of(Dwarf_Die *die, Dwarf_Die *type)
{
	Dwarf_Attribute a;

	if (!dwarf_attr_integrate(die, DW_AT_type, &a) ||
	    !dwarf_formref_die(&a, type))
		return -1;
	return dwarf_peel_type(type, type);
}

/* Where member @m starts in its struct, in bytes. */
static int member_offset(Dwarf_Die *m, uint64_t *offset)
{
	Dwarf_Attribute a;
	Dwarf_Word w;

	if (dwarf_attr(m, DW_AT_data_member_location, &a)) {
		if (dwarf_formudata(&a, &w))
			return -1;
		*offset = w;
		return 0;
	}
	if (dwarf_attr(m, DW_AT_data_bit_offset, &a)) {
		if (dwarf_formudata(&a, &w))
			return -1;
		*offset = w / 8;
		return 0;
	}
	*offset = 0;		/* a union's members */
	return 0;
}

/* A bit field's bytes: those its bits lie in, not its type's. */
static void bitfield_bytes(Dwarf_Die *m, uint64_t *offset, uint64_t *size)
{
	Dwarf_Attribute a;
	Dwarf_Word bits, at;

	if (!dwarf_attr(m, DW_AT_bit_size, &a) || dwarf_formudata(&a, &bits) ||
	    !dwarf_attr(m, DW_AT_data_bit_offset, &a) ||
	    dwarf_formudata(&a, &at))
		return;
	*offset = at / 8;
	*size = (at % 8 + bits + 7) / 8;
}

/*
 * A type that bytes are named in, typedefs and qualifiers peeled: its
 * DIE, or its BTF type id (t->btf).
 */
struct node {
	Dwarf_Die die;
	uint32_t id;
};

enum node_kind { NODE_OTHER, NODE_ARRAY, NODE_AGGREGATE };

static enum node_kind node_kind(const struct kmap_types *t, struct node *n)
{
	if (t->btf) {
		const struct btf_type *bt = btf__type_by_id(t->btf, n->id);

		if (!bt)
			return NODE_OTHER;
		return btf_is_array(bt) ? NODE_ARRAY :
		       btf_is_composite(bt) ? NODE_AGGREGATE : NODE_OTHER;
	}
	switch (dwarf_tag(&n->die)) {
	case DW_TAG_array_type:
		return NODE_ARRAY;
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
		return NODE_AGGREGATE;
	default:
		return NODE_OTHER;
	}
}

/* An array's element type and its size: 0, or -1 when not known. */
static int node_elem(const struct kmap_types *t, struct node *array,
		     struct node *elem, uint64_t *esize)
{
	Dwarf_Word size;

	if (t->btf) {
		const struct btf_array *a =
			btf_array(btf__type_by_id(t->btf, array->id));
		int id = btf__resolve_type(t->btf, a->type);
		long long bytes = id < 0 ? -1 : btf__resolve_size(t->btf, id);

		if (bytes <= 0)
			return -1;
		elem->id = id;
		*esize = bytes;
		return 0;
	}
	if (type_of(&array->die, &elem->die) ||
	    dwarf_aggregate_size(&elem->die, &size) || !size)
		return -1;
	*esize = size;
	return 0;
}

struct member {
	struct node type;
	uint64_t offset, size;
	const char *name;	/* NULL: anonymous */
};

static int dwarf_member_at(Dwarf_Die *agg, int i, struct member *m)
{
	Dwarf_Die die;
	Dwarf_Word size;
	int k = 0;

	if (dwarf_child(agg, &die))
		return -1;
	do {
		if (dwarf_tag(&die) != DW_TAG_member)
			continue;
		if (k++ < i)
			continue;
		if (type_of(&die, &m->type.die) ||
		    member_offset(&die, &m->offset))
			return -1;
		m->size = dwarf_aggregate_size(&m->type.die, &size) ? 0 : size;
		m->name = dwarf_diename(&die);
		bitfield_bytes(&die, &m->offset, &m->size);
		return 0;
	} while (dwarf_siblingof(&die, &die) == 0);
	return -1;
}

static int btf_member_at(const struct btf *btf, uint32_t agg, int i,
			 struct member *m)
{
	const struct btf_type *bt = btf__type_by_id(btf, agg);
	const struct btf_member *bm;
	uint32_t bit, bits;
	long long size;
	const char *name;
	int id;

	if (i >= btf_vlen(bt))
		return -1;
	bm = btf_members(bt) + i;
	id = btf__resolve_type(btf, bm->type);
	if (id < 0)
		return -1;
	size = btf__resolve_size(btf, id);
	bit = btf_member_bit_offset(bt, i);
	bits = btf_member_bitfield_size(bt, i);
	m->type.id = id;
	m->offset = bit / 8;
	/* A bit field's bytes: those its bits lie in, not its type's. */
	m->size = bits ? (bit % 8 + bits + 7) / 8 : size < 0 ? 0 : size;
	name = btf__name_by_offset(btf, bm->name_off);
	m->name = name && *name ? name : NULL;
	return 0;
}

/* @agg's members, one at a time: @i from 0; 0, or -1 after the last. */
static int member_at(const struct kmap_types *t, struct node *agg, int i,
		     struct member *m)
{
	if (t->btf)
		return btf_member_at(t->btf, agg->id, i, m);
	return dwarf_member_at(&agg->die, i, m);
}

/* Append @s to out at *pos, cut to len - 1. */
static void put(char *out, size_t len, size_t *pos, const char *s)
{
	size_t n = strlen(s);

	if (*pos + n >= len)
		n = len - 1 - *pos;
	memcpy(out + *pos, s, n);
	*pos += n;
	out[*pos] = '\0';
}

/* A member's name, after a dot when it is not the first. */
static void put_name(char *out, size_t len, size_t *pos, const char *name)
{
	if (*pos)
		put(out, len, pos, ".");
	put(out, len, pos, name);
}

/*
 * Name [offset, end) inside @type (peeled) of @size bytes, appending to
 * out: descends while one member or element holds every byte.
 */
static void name_range(const struct kmap_types *t, struct node *type,
		       uint64_t size, uint64_t offset, uint64_t end, char *out,
		       size_t len, size_t *pos)
{
	char buf[64];
	enum node_kind kind;

	for (;;) {
		if (offset == 0 && end >= size)
			return;		/* the whole of it */
		kind = node_kind(t, type);
		if (kind == NODE_ARRAY) {
			struct node elem = { .id = 0 };
			uint64_t esize, i, j;

			if (node_elem(t, type, &elem, &esize))
				return;
			i = offset / esize;
			j = (end - 1) / esize;
			if (i != j) {
				snprintf(buf, sizeof(buf), "[%llu..%llu]",
					 (unsigned long long)i,
					 (unsigned long long)j);
				put(out, len, pos, buf);
				return;
			}
			snprintf(buf, sizeof(buf), "[%llu]",
				 (unsigned long long)i);
			put(out, len, pos, buf);
			offset -= i * esize;
			end -= i * esize;
			*type = elem;
			size = esize;
			continue;
		}
		if (kind != NODE_AGGREGATE)
			return;
		{
			struct member m, first = { .name = NULL }, last = first;
			int i, holder = -1, nfirst = -1, nlast = -1;

			for (i = 0; member_at(t, type, i, &m) == 0; i++) {
				if (m.offset <= offset &&
				    end <= m.offset + m.size) {
					holder = i;
					break;
				}
				if (m.offset < end && offset < m.offset + m.size) {
					if (nfirst < 0) {
						first = m;
						nfirst = i;
					}
					last = m;
					nlast = i;
				}
			}
			if (holder < 0 && nfirst >= 0) {
				/* Across members: name the two ends. */
				put_name(out, len, pos,
					 first.name ? first.name : "{anon}");
				put(out, len, pos, "..");
				put(out, len, pos, nlast >= 0 && last.name ?
				    last.name : "{anon}");
				return;
			}
			if (holder < 0) {
				snprintf(buf, sizeof(buf), "+%llu",
					 (unsigned long long)offset);
				put(out, len, pos, buf);
				return;
			}
			if (m.name)
				put_name(out, len, pos, m.name);
			offset -= m.offset;
			end -= m.offset;
			*type = m.type;
			size = m.size;
		}
	}
}

int kmap_types_member(struct kmap_types *t, long type, uint64_t offset,
		      uint64_t end, char *out, size_t len)
{
	struct node node;
	size_t pos = 0;

	if (type < 0 || (size_t)type >= t->n || !len)
		return -1;
	out[0] = '\0';
	if (t->btf)
		node.id = t->types[type].ref;
	else if (!dwarf_offdie(t->dw, t->types[type].ref, &node.die))
		return -1;
	if (offset >= t->types[type].size) {
		snprintf(out, len, "+%llu", (unsigned long long)offset);
		return (int)strlen(out);
	}
	if (end > t->types[type].size)
		end = t->types[type].size;
	name_range(t, &node, t->types[type].size, offset, end, out, len, &pos);
	return (int)pos;
}

/* The struct that @var (a variable or parameter) points to, or -1. */
static long pointee_struct(const struct kmap_types *t, Dwarf_Die *var)
{
	Dwarf_Die type;
	const char *name;

	if (type_of(var, &type) || dwarf_tag(&type) != DW_TAG_pointer_type ||
	    type_of(&type, &type) || dwarf_tag(&type) != DW_TAG_structure_type)
		return -1;
	name = dwarf_diename(&type);
	return name ? kmap_types_struct(t, name) : -1;
}

/* Whether @var's location at ip is the return register (rax: reg0). */
static int holds_result(Dwarf_Die *var, uint64_t ip)
{
	Dwarf_Attribute a;
	Dwarf_Op *expr;
	size_t len;

	return dwarf_attr(var, DW_AT_location, &a) &&
	       dwarf_getlocation_addr(&a, ip, &expr, &len, 1) == 1 &&
	       len == 1 && expr[0].atom == DW_OP_reg0;
}

/* Read what the scopes at ip say into site; -1 when out of memory. */
static int read_site(struct kmap_types *t, uint64_t ip, struct site *site)
{
	Dwarf_Die cu, *scopes = NULL, var;
	int i, n;

	site->result = -1;
	site->cand = t->ncands;
	site->ncand = 0;
	if (kmap_cu_index_find(&t->cus, t->dw, ip, &cu))
		return 0;
	n = dwarf_getscopes(&cu, ip, &scopes);
	for (i = 0; i < n; i++) {
		if (dwarf_child(&scopes[i], &var))
			continue;
		do {
			int tag = dwarf_tag(&var);
			long type;
			size_t k;

			if (tag != DW_TAG_variable &&
			    tag != DW_TAG_formal_parameter)
				continue;
			type = pointee_struct(t, &var);
			if (type < 0)
				continue;
			if (site->result < 0 && holds_result(&var, ip))
				site->result = type;
			for (k = site->cand; k < t->ncands; k++)
				if (t->cands[k] == type)
					break;
			if (k < t->ncands)
				continue;
			if (kmap_grow((void **)&t->cands, &t->cands_cap,
				      t->ncands + 1, sizeof(*t->cands))) {
				free(scopes);
				return -1;
			}
			t->cands[t->ncands++] = type;
			site->ncand++;
		} while (dwarf_siblingof(&var, &var) == 0);
	}
	free(scopes);
	return 0;
}

long kmap_types_of_callsite(struct kmap_types *t, uint64_t ip, uint64_t size,
			    enum kmap_type_way *way)
{
	struct site *site;
	long found = -1;
	size_t i, k;
	int is_new;

	*way = KMAP_TYPE_NONE;
	if (!t->dw)
		return -1;	/* BTF: no variables' locations */
	if (!t->cus_read) {
		t->cus_read = 1;
		if (kmap_cu_index_read(&t->cus, t->dw))
			return -1;
	}
	if (kmap_intern(&t->site_of_ip, ip, (void **)&t->sites, &t->nsites,
			&t->sites_cap, sizeof(*t->sites), &i, &is_new))
		return -1;
	if (is_new && read_site(t, ip, &t->sites[i])) {
		/* Out of memory: nothing known, asked again next time. */
		kmap_map_del(&t->site_of_ip, ip);
		t->nsites--;
		return -1;
	}
	site = &t->sites[i];
	if (site->result >= 0) {
		*way = KMAP_TYPE_RESULT;
		return site->result;
	}
	for (k = site->cand; k < site->cand + site->ncand; k++) {
		if (t->types[t->cands[k]].size != size)
			continue;
		if (found >= 0)
			return -1;	/* two structs of that size */
		found = t->cands[k];
	}
	if (found >= 0)
		*way = KMAP_TYPE_SIZE;
	return found;
}

long kmap_types_of_global(const struct kmap_types *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nglobals;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->globals[mid].addr == addr)
			return t->globals[mid].type;
		if (t->globals[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

#else /* !(KMAP_DW && KMAP_BTF) */

struct kmap_types {
	int unused;
};

struct kmap_types *kmap_types_open(const char *path, char *err)
{
	snprintf(err, KMAP_ERR_MAX,
		 "%s: this memorizer was built without libdw and libbpf: no types",
		 path);
	return NULL;
}

void kmap_types_close(struct kmap_types *t)
{
	(void)t;
}

long kmap_types_struct(const struct kmap_types *t, const char *name)
{
	(void)t;
	(void)name;
	return -1;
}

const char *kmap_types_name(const struct kmap_types *t, long type)
{
	(void)t;
	(void)type;
	return NULL;
}

uint64_t kmap_types_size(const struct kmap_types *t, long type)
{
	(void)t;
	(void)type;
	return 0;
}

int kmap_types_member(struct kmap_types *t, long type, uint64_t offset,
		      uint64_t end, char *out, size_t len)
{
	(void)t;
	(void)type;
	(void)offset;
	(void)end;
	(void)out;
	(void)len;
	return -1;
}

long kmap_types_of_global(const struct kmap_types *t, uint64_t addr)
{
	(void)t;
	(void)addr;
	return -1;
}

long kmap_types_of_callsite(struct kmap_types *t, uint64_t ip, uint64_t size,
			    enum kmap_type_way *way)
{
	(void)t;
	(void)ip;
	(void)size;
	*way = KMAP_TYPE_NONE;
	return -1;
}

#endif /* KMAP_DW && KMAP_BTF */

/*
 * Caches not named after their struct (the rest are: KMEM_CACHE() names
 * them so). Sorted by cache name.
 */
static const struct {
	const char *cache, *type;
} cache_types[] = {
	{ "TCP", "tcp_sock" },
	{ "TCPv6", "tcp6_sock" },
	{ "UDP", "udp_sock" },
	{ "UDPv6", "udp6_sock" },
	{ "UNIX", "unix_sock" },
	{ "cred_jar", "cred" },
	{ "eventpoll_epi", "epitem" },
	{ "eventpoll_pwq", "eppoll_entry" },
	{ "ext4_inode_cache", "ext4_inode_info" },
	{ "files_cache", "files_struct" },
	{ "filp", "file" },
	{ "fs_cache", "fs_struct" },
	{ "inode_cache", "inode" },
	{ "kernfs_node_cache", "kernfs_node" },
	{ "mnt_cache", "mount" },
	{ "proc_inode_cache", "proc_inode" },
	{ "shmem_inode_cache", "shmem_inode_info" },
	{ "sighand_cache", "sighand_struct" },
	{ "signal_cache", "signal_struct" },
	{ "skbuff_fclone_cache", "sk_buff_fclones" },
	{ "skbuff_head_cache", "sk_buff" },
	{ "sock_inode_cache", "socket_alloc" },
	{ "uid_cache", "user_struct" },
};

long kmap_types_of_cache(const struct kmap_types *t, const char *cache)
{
	size_t lo = 0, hi = sizeof(cache_types) / sizeof(cache_types[0]);
	long type;

	if (!cache || !strncmp(cache, "kmalloc-", 8))
		return -1;
	type = kmap_types_struct(t, cache);
	if (type >= 0)
		return type;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int r = strcmp(cache, cache_types[mid].cache);

		if (!r)
			return kmap_types_struct(t, cache_types[mid].type);
		if (r < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

int kmap_types_field(struct kmap_types *t, long type, uint64_t offset,
		     uint64_t end, char *out, size_t len)
{
	int n = kmap_types_member(t, type, offset, end, out, len);

	return n == 0 ? snprintf(out, len, "(whole)") : n;
}

const char *const kmap_type_way_names[KMAP_TYPE_WAYS] = {
	[KMAP_TYPE_NONE] = "none",
	[KMAP_TYPE_CACHE] = "cache",
	[KMAP_TYPE_RESULT] = "result",
	[KMAP_TYPE_SIZE] = "size",
	[KMAP_TYPE_GLOBAL] = "global",
};

long kmap_types_of_object(struct kmap_types *t, const struct kmap_object *o,
			  enum kmap_type_way *way)
{
	long type = (o->has & KMAP_HAS_CACHE) ?
		    kmap_types_of_cache(t, o->cache) : -1;

	if (type >= 0) {
		*way = KMAP_TYPE_CACHE;
		return type;
	}
	*way = KMAP_TYPE_NONE;
	if (kmap_object_found(o)) {
		/* A global found at its first access: its variable's. */
		type = kmap_types_of_global(t, o->addr);
		if (type >= 0)
			*way = KMAP_TYPE_GLOBAL;
		return type;
	}
	return kmap_types_of_callsite(t, o->alloc_ip, o->size, way);
}
