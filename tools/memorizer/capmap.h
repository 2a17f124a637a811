/* SPDX-License-Identifier: GPL-2.0 */
/* What memorizer capmap and memorizer diff share (builtin-capmap.c). */
#ifndef MEMORIZER_CAPMAP_H
#define MEMORIZER_CAPMAP_H

#include "builtin.h"
#include "table.h"

/* The options both take: --rows, --cols, -n, --csv, --json, symbols, -o. */
struct capmap_opts {
	enum kmap_capmap_subject subject;
	enum kmap_capmap_group group;
	const char *vmlinux, *system_map, *output;
	uint64_t limit;			/* -n; 0: no limit */
	enum table_fmt fmt;
	int formats;			/* how many format options were given */
	int fields;			/* capmap --fields */
};
/* Rows function, cols callsite, a text table. */
void capmap_opts_init(struct capmap_opts *o);
/*
 * Apply option idx of p if it is one of those: 1; -1 after a message when
 * its argument is bad (the command returns 2); 0 when it is another.
 */
int capmap_option(const struct optparse *p, int idx, struct capmap_opts *o);
/*
 * A map whose subjects the symbols given can name, with the struct types
 * of --vmlinux's DWARF for --cols type (which needs them) and --fields
 * (which names members with them); NULL after a message saying which
 * option the subject or group needs.
 */
struct kmap_capmap *capmap_new(const struct capmap_opts *o,
			       struct kmap_sym *sym);
/* Fill m from src: 0, or -1 after a message. */
int capmap_read(struct kmap_capmap *m, enum kmap_capmap_group group,
		struct kmap_src *src);
/* "function" or "functions", "call site" or "call sites", ... for n. */
const char *capmap_plural(enum kmap_capmap_subject subject, uint64_t n);
const char *capmap_group_plural(enum kmap_capmap_group group, uint64_t n);

#endif
