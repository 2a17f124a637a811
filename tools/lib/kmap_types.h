/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Struct types from DWARF or BTF, to name what an access touched: the
 * type of an object (from its slab cache's name) and the member at a byte
 * range of it ("struct cred" and [4, 8): "uid"). BTF (a distribution's
 * kernel has it where it has no DWARF) gives the same structs, members
 * and names; it has no variables' locations nor addresses, so call sites
 * and globals get no type from it. Built with libdw and libbpf (KMAP_DW,
 * KMAP_BTF); without them, kmap_types_open() says so and the rest is
 * never reached.
 */
#ifndef KMAP_TYPES_H
#define KMAP_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "kmap.h"

struct kmap_types;

/*
 * The complete struct types that path defines, by name (the first
 * definition of each): raw BTF (magic 0xeB9F, as /sys/kernel/btf/vmlinux),
 * or an ELF file's DWARF, else (no DWARF, or DWARF of no struct) its .BTF.
 * NULL, with err ("PATH: what is wrong"), when the file cannot be read,
 * is malformed BTF, or has neither DWARF nor BTF.
 */
struct kmap_types *kmap_types_open(const char *path, char *err);
void kmap_types_close(struct kmap_types *t);

/* A struct type: an index into t, or -1 for none. */
long kmap_types_struct(const struct kmap_types *t, const char *name);
/*
 * The struct type of a slab cache's objects: the struct of the cache's
 * own name (caches made with KMEM_CACHE() are named after their struct),
 * else of a name from a table of caches named otherwise ("filp": file,
 * "cred_jar": cred, ...). -1: none known (kmalloc-* caches hold any type).
 */
long kmap_types_of_cache(const struct kmap_types *t, const char *cache);
const char *kmap_types_name(const struct kmap_types *t, long type);
uint64_t kmap_types_size(const struct kmap_types *t, long type);

/* How an object's struct type was known: enum kmap_type_way (kmap.h). */
extern const char *const kmap_type_way_names[KMAP_TYPE_WAYS];

/*
 * The struct type of what an allocation call returned (DWARF only: -1,
 * way NONE, from BTF), from the DWARF of
 * the code at ip, the call's return address (a kmap's alloc_ip): the
 * struct that a variable there points to whose location at ip is the
 * return register (the compiler says that variable holds the result),
 * innermost scope first; else, among the pointers to structs in scope at
 * ip, the one struct whose size is the request's. -1 (way NONE) when
 * neither says. Remembered per ip.
 */
long kmap_types_of_callsite(struct kmap_types *t, uint64_t ip, uint64_t size,
			    enum kmap_type_way *way);
/*
 * The struct type of the global variable at addr (its start), or -1;
 * always -1 from BTF (a vmlinux's lists per-CPU variables only, with no
 * addresses).
 */
long kmap_types_of_global(const struct kmap_types *t, uint64_t addr);
/*
 * An object's struct type: its cache's, else (an allocation seen) its
 * call site's, else (an object found at its first access) that of the
 * global variable it is.
 */
long kmap_types_of_object(struct kmap_types *t, const struct kmap_object *o,
			  enum kmap_type_way *way);

/*
 * Name the bytes [offset, end) of an object of type: the member path that
 * holds them all, innermost last ("f_path.dentry", "b[1]"); members of an
 * anonymous struct or union take no part of their own; where several
 * members of a union hold the bytes, the first. Bytes across members of
 * one struct: "first..last" at the level where they part ("uid..gid"),
 * elements of an array "[i..j]". The whole object: "" (empty). Bytes in
 * no member (padding, or past the type's end): "+OFFSET". Returns the
 * length written (cut to len - 1), or -1 when type is not one of t's.
 */
int kmap_types_member(struct kmap_types *t, long type, uint64_t offset,
		      uint64_t end, char *out, size_t len);
/* The same, the whole object named "(whole)": what tables print. */
int kmap_types_field(struct kmap_types *t, long type, uint64_t offset,
		     uint64_t end, char *out, size_t len);

#endif /* KMAP_TYPES_H */
