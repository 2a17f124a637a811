/* SPDX-License-Identifier: GPL-2.0 */
/* A table of rows for reports: sorted, cut, printed as text, CSV or JSON. */
#ifndef MEMORIZER_TABLE_H
#define MEMORIZER_TABLE_H

#include <stdint.h>
#include <stdio.h>

/*
 * COL_HEX: a u64 named in hexadecimal (an address): a name, not a figure.
 * COL_I64: a signed figure (a change), "+N" in the text table.
 * COL_U64_OPT: a u64 that may have no value (CELL_U64_NONE): "-" in
 * text, empty in CSV, JSON null; sorted after every value.
 */
enum col_type { COL_U64, COL_F64, COL_STR, COL_HEX, COL_I64, COL_U64_OPT };

struct col {
	const char *name;
	enum col_type type;
};

/* A COL_F64 cell without a value (NaN): "-" in text, empty in CSV, JSON null. */
union cell {
	uint64_t u;
	int64_t i;
	double f;
	char *s;			/* owned by the table */
};
#define CELL_NONE	(__builtin_nan(""))
#define CELL_U64_NONE	UINT64_MAX

struct table {
	const struct col *cols;
	int ncols;
	union cell *cells;		/* nrows * ncols */
	size_t nrows, cap;
};

void table_init(struct table *t, const struct col *cols, int ncols);
/* A new zeroed row; NULL when out of memory. */
union cell *table_row(struct table *t);
/* Room for n rows in all, made at once (a table of known size); -1: OOM. */
int table_reserve(struct table *t, size_t n);
/* Set a string cell (copied); -1 when out of memory. */
int cell_str(union cell *c, const char *s);
int table_col(const struct table *t, const char *name);
/* Sort by column (descending for numbers, ascending for strings), ties by
 * the first column ascending. */
void table_sort(struct table *t, int col);
/*
 * Sorting without building every row first: a row's key is its sort
 * column's cell (table_cell_key(desc 1)), ties by its first column's
 * (desc 0), then by its number; table_sort_keys() puts the m smallest
 * keys first, in order (all n when m >= n). For columns table_can_key().
 */
struct table_key {
	uint64_t k1, k2;
	size_t row;
};
int table_can_key(const struct col *col);
uint64_t table_cell_key(const struct col *col, const union cell *c, int desc);
void table_sort_keys(struct table_key *k, size_t n, size_t m);
enum table_fmt { FMT_TEXT, FMT_CSV, FMT_JSON };
struct json_object;
/*
 * Print at most limit rows (0: all). JSON: one object, json_head's members
 * (if any; json_head is not freed), then "columns" and "rows", written
 * through json-c a row at a time. Figures: text rounds to two decimals
 * (a non-zero figure that would show 0.00 keeps two significant digits);
 * CSV and JSON print the shortest form that reads back the same double.
 * Returns 0, or -1 when out of memory.
 */
int table_print(const struct table *t, FILE *f, enum table_fmt fmt,
		size_t limit, struct json_object *json_head);
/* A CSV field of s: quoted (its quotes doubled) when it has , " CR or LF. */
void csv_str(FILE *f, const char *s);
/* s into buf as snprintf(buf, len, "%s", s) puts it; returns strlen(s). */
int str_copy(char *buf, size_t len, const char *s);
/* A JSON string of s (any bytes: not UTF-8 ones become U+00XX); NULL: OOM. */
struct json_object *json_bytes(const char *s);
/* A JSON number of d, as CSV prints it; null for CELL_NONE. */
struct json_object *json_figure(double d);
void table_free(struct table *t);

#endif
