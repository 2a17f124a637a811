/* SPDX-License-Identifier: GPL-2.0 */
/* What memorizer capmap and memorizer diff share (builtin-capmap.c). */
#ifndef MEMORIZER_CAPMAP_H
#define MEMORIZER_CAPMAP_H

#include "builtin.h"
#include "table.h"

/*
 * The options both take: --rows, --cols, -n, --csv, --json, symbols, -o,
 * set in capmap_opts (one command runs per process), declared by the
 * OPT_CAPMAP_* macros below.
 */
struct capmap_opts {
	enum kmap_capmap_subject subject;
	enum kmap_capmap_group group;
	const char *vmlinux, *system_map, *btf, *output;
	uint64_t limit;			/* -n; 0: no limit */
	unsigned int formats;		/* FORMAT_CSV, FORMAT_JSON, capmap's --dot */
	int fields;			/* capmap --fields */
};
extern struct capmap_opts capmap_opts;
/* The table format --csv and --json asked for (FMT_TEXT: neither). */
enum table_fmt capmap_fmt(const struct capmap_opts *o);
/* --rows, --cols and -n: their argument checked, a message when bad. */
int capmap_rows_cb(const struct opt *opt, const char *arg);
int capmap_cols_cb(const struct opt *opt, const char *arg);
int capmap_limit_cb(const struct opt *opt, const char *arg);
#define OPT_CAPMAP_ROWS(h) \
	OPT_CALLBACK('r', "rows", &capmap_opts.subject, "SUBJECT", h, capmap_rows_cb)
#define OPT_CAPMAP_COLS(h) \
	OPT_CALLBACK('c', "cols", &capmap_opts.group, "GROUP", h, capmap_cols_cb)
#define OPT_CAPMAP_LIMIT(h) \
	OPT_CALLBACK('n', "limit", &capmap_opts.limit, "N", h, capmap_limit_cb)
/*
 * A map whose subjects the symbols given can name, with the struct types
 * of --btf, else of --vmlinux's DWARF, for --cols type (which needs them) and --fields
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
