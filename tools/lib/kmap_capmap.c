// SPDX-License-Identifier: GPL-2.0
/*
 * libkmap: capability maps, a sparse (subject, object group) matrix of
 * reads, writes and frees. See kmap.h.
 *
 * Subjects and groups are names, interned once each; each access counter
 * of an object finds its subject through a cache keyed by ip (symbol and
 * DWARF lookups are the cost here, and a kernel has far fewer distinct ips
 * than access counters), and its cell through a map keyed by the pair.
 * Split by range, the pair's group is a (group, range) number instead,
 * interned alike: the maps grow with the cells, not the input.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kmap.h"
#include "kmap_types.h"

#define UNKNOWN_SOURCE	"[unknown]"
/* A group whose objects' struct types differ: none to name bytes in. */
#define GROUP_TYPES_DIFFER	(-2L)

/* Interned names: each one once in pool, numbered in order. */
struct names {
	struct kmap_map index;		/* a name's hash (+1 per clash) -> number */
	size_t *off;			/* number -> offset in pool */
	size_t n, cap;
	char *pool;
	size_t len, pool_cap;
};

struct kmap_capmap {
	enum kmap_capmap_subject subject;
	enum kmap_capmap_group group;
	struct kmap_sym *sym;
	struct kmap_types *types;	/* NULL: none */
	struct names subjects, groups;
	long *group_types;		/* group -> struct type, -1: none */
	uint64_t *group_size;		/* group -> its largest object's size */
	size_t ngroup_size, group_size_cap;
	size_t ngroup_types, group_types_cap;
	struct kmap_map subject_of_ip;	/* ip -> subject number */
	struct kmap_map group_of_key;	/* group's key (see group_key) -> number */
	struct kmap_map cell_of;	/* subject << 32 | group -> cell index */
	/*
	 * Split by range: offset << 32 | offset_end -> range number, and
	 * group << 32 | range number -> the number cell_of's keys have for
	 * group (cell_of holds subject << 32 | that).
	 */
	int split;
	struct kmap_map range_of, group_range_of;
	struct kmap_capmap_cell *cells;
	size_t ncells, cells_cap;
	struct kmap_capmap_totals tot;
};

static const char *const subject_names[] = {
	[KMAP_SUBJECT_FUNCTION] = "function",
	[KMAP_SUBJECT_FILE] = "file",
	[KMAP_SUBJECT_DIR] = "dir",
	[KMAP_SUBJECT_IP] = "ip",
	[KMAP_SUBJECT_FILE_FUNCTION] = "file-function",
};
static const char *const group_names[] = {
	[KMAP_GROUP_CALLSITE] = "callsite",
	[KMAP_GROUP_CACHE] = "cache",
	[KMAP_GROUP_KIND] = "kind",
	[KMAP_GROUP_OBJECT] = "object",
	[KMAP_GROUP_TYPE] = "type",
};
#define COUNT(a)	(sizeof(a) / sizeof((a)[0]))

const char *kmap_capmap_subject_name(enum kmap_capmap_subject s)
{
	return (unsigned int)s < COUNT(subject_names) ? subject_names[s] : "?";
}

const char *kmap_capmap_group_name(enum kmap_capmap_group g)
{
	return (unsigned int)g < COUNT(group_names) ? group_names[g] : "?";
}

static int parse_name(const char *const *names, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return (int)i;
	return -1;
}

int kmap_capmap_subject_parse(const char *name)
{
	return parse_name(subject_names, COUNT(subject_names), name);
}

int kmap_capmap_group_parse(const char *name)
{
	return parse_name(group_names, COUNT(group_names), name);
}

/* FNV-1a: names are short, and the map mixes the bits again. */
static uint64_t name_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

/*
 * The number of name in t: inserted when new and insert is set. Returns 0,
 * 1 when not there (insert 0), -1 when out of memory.
 */
static int names_find(struct names *t, const char *name, int insert,
		      uint32_t *num)
{
	uint64_t h = name_hash(name), *v;
	size_t len = strlen(name) + 1;
	int is_new;

	for (;; h++) {
		v = kmap_map_find(&t->index, h);
		if (!v)
			break;
		if (!strcmp(t->pool + t->off[*v], name)) {
			*num = (uint32_t)*v;
			return 0;
		}
	}
	if (!insert)
		return 1;
	if (t->n >= UINT32_MAX ||
	    kmap_grow((void **)&t->off, &t->cap, t->n + 1, sizeof(*t->off)) ||
	    kmap_grow((void **)&t->pool, &t->pool_cap, t->len + len, 1))
		return -1;
	v = kmap_map_get(&t->index, h, &is_new);
	if (!v)
		return -1;
	memcpy(t->pool + t->len, name, len);
	t->off[t->n] = t->len;
	t->len += len;
	*v = t->n;
	*num = (uint32_t)t->n++;
	return 0;
}

static void names_free(struct names *t)
{
	kmap_map_free(&t->index);
	free(t->off);
	free(t->pool);
}

struct kmap_capmap *kmap_capmap_new(enum kmap_capmap_subject subject,
				    enum kmap_capmap_group group,
				    struct kmap_sym *sym, char *err)
{
	struct kmap_capmap *m;

	if ((unsigned int)subject >= COUNT(subject_names) ||
	    (unsigned int)group >= COUNT(group_names)) {
		snprintf(err, KMAP_ERR_MAX, "no such subject or object group");
		return NULL;
	}
	if ((subject == KMAP_SUBJECT_FILE || subject == KMAP_SUBJECT_DIR ||
	     subject == KMAP_SUBJECT_FILE_FUNCTION) && !kmap_sym_has_lines(sym)) {
		snprintf(err, KMAP_ERR_MAX,
			 "%s subjects need DWARF line tables: a vmlinux built with debug info",
			 subject_names[subject]);
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		snprintf(err, KMAP_ERR_MAX, "out of memory");
		return NULL;
	}
	m->subject = subject;
	m->group = group;
	m->sym = sym;
	kmap_map_init(&m->subjects.index);
	kmap_map_init(&m->groups.index);
	kmap_map_init(&m->subject_of_ip);
	kmap_map_init(&m->group_of_key);
	kmap_map_init(&m->cell_of);
	kmap_map_init(&m->range_of);
	kmap_map_init(&m->group_range_of);
	return m;
}

void kmap_capmap_set_types(struct kmap_capmap *m, struct kmap_types *types)
{
	kmap_types_close(m->types);
	m->types = types;
}

int kmap_capmap_has_types(const struct kmap_capmap *m)
{
	return m->types != NULL;
}

int kmap_capmap_field(const struct kmap_capmap *m,
		      const struct kmap_capmap_cell *c, char *buf, size_t len)
{
	long type;
	int n;

	buf[0] = '\0';
	if (!m->types || !c->offset_end)
		return 0;
	type = m->group_types[c->group];
	if (type < 0)
		return 0;
	n = kmap_types_field(m->types, type, c->offset, c->offset_end, buf,
			     len);
	return n < 0 ? 0 : n;
}

void kmap_capmap_free(struct kmap_capmap *m)
{
	if (!m)
		return;
	kmap_types_close(m->types);
	names_free(&m->subjects);
	names_free(&m->groups);
	free(m->group_types);
	free(m->group_size);
	kmap_map_free(&m->subject_of_ip);
	kmap_map_free(&m->group_of_key);
	kmap_map_free(&m->cell_of);
	kmap_map_free(&m->range_of);
	kmap_map_free(&m->group_range_of);
	free(m->cells);
	free(m);
}

/* ip's function's name, or ip in hex, into buf[len]. */
static void function_name(struct kmap_sym *sym, uint64_t ip, char *buf,
			  size_t len)
{
	uint64_t start;
	const char *fn = sym ? kmap_sym_function(sym, ip, &start) : NULL;

	if (fn)
		snprintf(buf, len, "%s", fn);
	else
		snprintf(buf, len, "%" PRIx64, ip);
}

/* file's directory into buf[len]. */
static void dir_name(const char *file, char *buf, size_t len)
{
	const char *slash = strrchr(file, '/');

	/* An unknown one's is unknown; the root's files are under "/",
	 * top-level ones ".". */
	if (!strcmp(file, UNKNOWN_SOURCE))
		snprintf(buf, len, "%s", UNKNOWN_SOURCE);
	else if (!slash)
		snprintf(buf, len, ".");
	else
		snprintf(buf, len, "%.*s",
			 slash == file ? 1 : (int)(slash - file), file);
}

int kmap_capmap_parent(enum kmap_capmap_subject s, const char *name,
		       char *buf, size_t len)
{
	const char *colon;

	switch (s) {
	case KMAP_SUBJECT_FILE:
		dir_name(name, buf, len);
		return KMAP_SUBJECT_DIR;
	case KMAP_SUBJECT_FILE_FUNCTION:
		/* Function names hold no colon; a file's may. */
		colon = strrchr(name, ':');
		snprintf(buf, len, "%.*s",
			 colon ? (int)(colon - name) : (int)strlen(name), name);
		return KMAP_SUBJECT_FILE;
	default:
		return -1;
	}
}

/* The name of ip's subject into buf[len]. */
static void subject_name(const struct kmap_capmap *m, uint64_t ip, char *buf,
			 size_t len)
{
	const char *file;
	size_t n;
	int line;

	switch (m->subject) {
	case KMAP_SUBJECT_FUNCTION:
		function_name(m->sym, ip, buf, len);
		break;
	case KMAP_SUBJECT_IP:
		if (m->sym)
			kmap_sym_describe(m->sym, ip, buf, len);
		else
			snprintf(buf, len, "%" PRIx64, ip);
		break;
	default:
		file = kmap_sym_source(m->sym, ip, &line);
		if (!file)
			file = UNKNOWN_SOURCE;
		if (m->subject == KMAP_SUBJECT_DIR) {
			dir_name(file, buf, len);
		} else if (m->subject == KMAP_SUBJECT_FILE) {
			snprintf(buf, len, "%s", file);
		} else {
			snprintf(buf, len, "%s:", file);
			n = strlen(buf);
			function_name(m->sym, ip, buf + n, len - n);
		}
	}
}

/* ip's subject number, looked up once per ip. */
static int subject_of(struct kmap_capmap *m, uint64_t ip, uint32_t *num)
{
	char name[KMAP_LINE_MAX];
	uint64_t *v;
	int is_new;

	v = kmap_map_get(&m->subject_of_ip, ip, &is_new);
	if (!v)
		return -1;
	if (!is_new) {
		*num = (uint32_t)*v;
		return 0;
	}
	subject_name(m, ip, name, sizeof(name));
	if (names_find(&m->subjects, name, 1, num)) {
		kmap_map_del(&m->subject_of_ip, ip);
		return -1;
	}
	*v = *num;
	return 0;
}

/*
 * What makes o's group: a key for the group cache (the call site's ip, a
 * cache id, a struct type, a kind) and its name into buf[len]. type is
 * o's struct type, or -1. Returns 0 when the group has no key to cache
 * (an object is its own).
 */
static int group_key(const struct kmap_capmap *m, const struct kmap_object *o,
		     long type, uint64_t *key, char *buf, size_t len)
{
	int has_cache = (o->has & KMAP_HAS_CACHE) && o->cache;
	int kind;

	switch (m->group) {
	case KMAP_GROUP_CALLSITE:
		/*
		 * A found object's alloc_ip is its own address, no code: it
		 * goes under what it is, [global], [stack] and so on (in a
		 * text kmap its executable word; a task's found stack has
		 * its task's).
		 */
		if (kmap_object_found(o)) {
			snprintf(buf, len, "[%s]",
				 (o->has & KMAP_HAS_KIND) ? kmap_kind_name(o->kind) :
				 o->pid ? "stack" : o->comm);
			return 0;
		}
		*key = o->alloc_ip;
		function_name(m->sym, o->alloc_ip, buf, len);
		return 1;
	case KMAP_GROUP_TYPE:
		if (type >= 0) {
			*key = (uint64_t)2 << 32 | (uint64_t)type;
			snprintf(buf, len, "struct %s",
				 kmap_types_name(m->types, type));
			return 1;
		}
		/* untyped objects go under their cache */
		__attribute__((fallthrough));
	case KMAP_GROUP_CACHE:
		/* Objects without a cache go under their kind's name. */
		kind = kmap_object_kind(o);
		*key = has_cache ? o->cache_id : (uint64_t)1 << 32 | (uint32_t)kind;
		snprintf(buf, len, "%s",
			 has_cache ? o->cache : kmap_kind_name(kind));
		return 1;
	case KMAP_GROUP_KIND:
		kind = kmap_object_kind(o);
		*key = (uint32_t)kind;
		snprintf(buf, len, "%s", kmap_kind_name(kind));
		return 1;
	default:
		snprintf(buf, len, "%" PRIu64,
			 (o->has & KMAP_HAS_ID) ? o->id : m->tot.objects);
		return 0;
	}
}

/*
 * The struct type a group's bytes are named in (kmap_capmap_field()), as
 * o says: a cache's, a type's, an object's, or a call site's unless known
 * by size (a call site's objects may differ in size).
 */
static long group_type(const struct kmap_capmap *m,
		       const struct kmap_object *o, long type,
		       enum kmap_type_way way)
{
	if (m->group == KMAP_GROUP_KIND ||
	    (m->group == KMAP_GROUP_CALLSITE && way == KMAP_TYPE_SIZE))
		return -1;
	if (m->group == KMAP_GROUP_CACHE)
		return (o->has & KMAP_HAS_CACHE) ?
		       kmap_types_of_cache(m->types, o->cache) : -1;
	return type;
}

/*
 * Group num's struct type with o's: its first object's, kept while every
 * object agrees (GROUP_TYPES_DIFFER once two differ: a call site's objects
 * of a typed cache and of another, say). -1 when out of memory.
 */
static int settle_type(struct kmap_capmap *m, uint32_t num,
		       const struct kmap_object *o, long type,
		       enum kmap_type_way way)
{
	long t = m->types ? group_type(m, o, type, way) : -1;

	if (num < m->ngroup_types) {
		if (m->group_types[num] != t)
			m->group_types[num] = GROUP_TYPES_DIFFER;
		return 0;
	}
	if (kmap_grow((void **)&m->group_types, &m->group_types_cap,
		      (size_t)num + 1, sizeof(*m->group_types)))
		return -1;
	m->group_types[m->ngroup_types++] = t;
	return 0;
}

static int group_of(struct kmap_capmap *m, const struct kmap_object *o,
		    long type, enum kmap_type_way way, uint32_t *num)
{
	char name[KMAP_LINE_MAX];
	uint64_t key, *v = NULL;
	int is_new = 1;

	if (group_key(m, o, type, &key, name, sizeof(name))) {
		v = kmap_map_get(&m->group_of_key, key, &is_new);
		if (!v)
			return -1;
		if (!is_new) {
			*num = (uint32_t)*v;
			return settle_type(m, *num, o, type, way);
		}
	}
	if (names_find(&m->groups, name, 1, num) ||
	    settle_type(m, *num, o, type, way)) {
		if (v)
			kmap_map_del(&m->group_of_key, key);
		return -1;
	}
	if (v)
		*v = *num;
	return 0;
}

/* key's number in map, the next one (map->len) when new; -1: no memory. */
static int number_of(struct kmap_map *map, uint64_t key, uint32_t *num)
{
	int is_new;
	uint64_t *v = kmap_map_get(map, key, &is_new);

	if (!v)
		return -1;
	if (is_new)
		*v = map->len - 1;
	*num = (uint32_t)*v;
	return 0;
}

/*
 * The cell of (subject, group) and, split by range, [offset, offset_end);
 * zeroed when new; NULL when out of memory.
 */
static struct kmap_capmap_cell *cell_of(struct kmap_capmap *m,
					uint32_t subject, uint32_t group,
					uint32_t offset, uint32_t offset_end)
{
	struct kmap_capmap_cell *c;
	uint32_t key = group, range;
	size_t i;
	int is_new;

	if (m->split &&
	    (number_of(&m->range_of, (uint64_t)offset << 32 | offset_end,
		       &range) ||
	     number_of(&m->group_range_of, (uint64_t)group << 32 | range, &key)))
		return NULL;
	if (kmap_intern(&m->cell_of, (uint64_t)subject << 32 | key,
			(void **)&m->cells, &m->ncells, &m->cells_cap,
			sizeof(*m->cells), &i, &is_new))
		return NULL;
	c = &m->cells[i];
	if (is_new) {
		memset(c, 0, sizeof(*c));
		c->subject = subject;
		c->group = group;
		if (m->split) {
			c->offset = offset;
			c->offset_end = offset_end;
		}
		c->last_object = UINT64_MAX;
	}
	if (c->last_object != m->tot.objects) {
		c->last_object = m->tot.objects;
		c->objects++;
	}
	return c;
}

void kmap_capmap_split_ranges(struct kmap_capmap *m)
{
	if (!m->ncells)		/* cells keyed one way only */
		m->split = 1;
}

int kmap_capmap_split(const struct kmap_capmap *m)
{
	return m->split;
}

int kmap_capmap_add(struct kmap_capmap *m, const struct kmap_object *o,
		    const struct kmap_access *acc, size_t nacc)
{
	enum kmap_type_way way = KMAP_TYPE_NONE;
	struct kmap_capmap_cell *c;
	uint32_t group, subject;
	long type = -1;
	size_t i;

	m->tot.objects++;	/* the object's number, from 1 */
	if (m->types) {
		type = kmap_types_of_object(m->types, o, &way);
		m->tot.typed[way]++;
	}
	if (group_of(m, o, type, way, &group) ||
	    kmap_grow((void **)&m->group_size, &m->group_size_cap,
		      (size_t)group + 1, sizeof(*m->group_size)))
		return -1;
	for (; m->ngroup_size <= group; m->ngroup_size++)
		m->group_size[m->ngroup_size] = 0;
	if (o->size > m->group_size[group])
		m->group_size[group] = o->size;
	for (i = 0; i < nacc; i++) {
		if (subject_of(m, acc[i].ip, &subject) ||
		    !(c = cell_of(m, subject, group, acc[i].offset,
				  acc[i].offset_end)))
			return -1;
		c->reads = kmap_add_sat(c->reads, acc[i].reads);
		c->writes = kmap_add_sat(c->writes, acc[i].writes);
		m->tot.reads = kmap_add_sat(m->tot.reads, acc[i].reads);
		m->tot.writes = kmap_add_sat(m->tot.writes, acc[i].writes);
	}
	if (!kmap_object_freed(o))
		return 0;
	if (!o->free_ip || o->free_ip == KMAP_FREE_IP_MISSED) {
		m->tot.frees_unattributed++;
		return 0;
	}
	if (subject_of(m, o->free_ip, &subject) ||
	    !(c = cell_of(m, subject, group, 0, 0)))
		return -1;
	c->frees++;
	m->tot.frees++;
	return 0;
}

size_t kmap_capmap_cells(const struct kmap_capmap *m,
			 const struct kmap_capmap_cell **cells)
{
	*cells = m->cells;
	return m->ncells;
}

const char *kmap_capmap_subject_of(const struct kmap_capmap *m,
				   const struct kmap_capmap_cell *c)
{
	return m->subjects.pool + m->subjects.off[c->subject];
}

const char *kmap_capmap_group_of(const struct kmap_capmap *m,
				 const struct kmap_capmap_cell *c)
{
	return m->groups.pool + m->groups.off[c->group];
}

const struct kmap_capmap_cell *kmap_capmap_find(const struct kmap_capmap *m,
						const char *subject,
						const char *group)
{
	uint32_t s, g;
	uint64_t *v;

	/* names_find() does not change a table it does not insert into. */
	if (names_find((struct names *)&m->subjects, subject, 0, &s) ||
	    names_find((struct names *)&m->groups, group, 0, &g))
		return NULL;
	if (m->split) {		/* range 0, 0's key for the group */
		v = kmap_map_find(&m->range_of, 0);
		if (!v || !(v = kmap_map_find(&m->group_range_of,
					      (uint64_t)g << 32 | *v)))
			return NULL;
		g = (uint32_t)*v;
	}
	v = kmap_map_find(&m->cell_of, (uint64_t)s << 32 | g);
	return v ? &m->cells[*v] : NULL;
}

void kmap_capmap_totals(const struct kmap_capmap *m,
			struct kmap_capmap_totals *t)
{
	*t = m->tot;
}

size_t kmap_capmap_nsubjects(const struct kmap_capmap *m)
{
	return m->subjects.n;
}

size_t kmap_capmap_ngroups(const struct kmap_capmap *m)
{
	return m->groups.n;
}

uint64_t kmap_capmap_group_size(const struct kmap_capmap *m, uint32_t group)
{
	return group < m->ngroup_size ? m->group_size[group] : 0;
}

void kmap_capmap_subject_ip(const struct kmap_capmap *m, uint64_t ip,
			    char *buf, size_t len)
{
	subject_name(m, ip, buf, len);
}

void kmap_capmap_frame_group(const struct kmap_capmap *m, uint64_t frame,
			     char *buf, size_t len)
{
	int n;

	if (m->group == KMAP_GROUP_KIND) {
		snprintf(buf, len, "frame");
		return;
	}
	n = snprintf(buf, len, "frame:");
	if (n > 0 && (size_t)n < len)
		function_name(m->sym, frame, buf + n, len - n);
}
