// SPDX-License-Identifier: GPL-2.0
/* Report tables. See table.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json.h>

#include "kmap.h"
#include "kmap_inline.h"
#include "table.h"

/* v in lowercase hexadecimal at p (17 bytes of room), NUL-ended; the end. */
static char *put_hex(char *p, uint64_t v)
{
	p = kmap_put_hex16(p, v);
	*p = 0;
	return p;
}

void table_init(struct table *t, const struct col *cols, int ncols)
{
	memset(t, 0, sizeof(*t));
	t->cols = cols;
	t->ncols = ncols;
}

union cell *table_row(struct table *t)
{
	union cell *row;

	if (kmap_grow((void **)&t->cells, &t->cap, t->nrows + 1,
		      t->ncols * sizeof(*t->cells)))
		return NULL;
	row = &t->cells[t->nrows++ * t->ncols];
	memset(row, 0, t->ncols * sizeof(*row));
	return row;
}

int table_reserve(struct table *t, size_t n)
{
	return kmap_grow((void **)&t->cells, &t->cap, n,
			 t->ncols * sizeof(*t->cells));
}

int cell_str(union cell *c, const char *s)
{
	c->s = strdup(s);
	return c->s ? 0 : -1;
}

int table_col(const struct table *t, const char *name)
{
	int i;

	for (i = 0; i < t->ncols; i++)
		if (!strcmp(t->cols[i].name, name))
			return i;
	return -1;
}

static const struct table *sort_t;
static int sort_c;

static int cmp_cell(const struct col *col, const union cell *a,
		    const union cell *b, int desc)
{
	int r;

	switch (col->type) {
	case COL_U64:
		r = (a->u > b->u) - (a->u < b->u);
		break;
	case COL_I64:
		r = (a->i > b->i) - (a->i < b->i);
		break;
	case COL_F64:	/* no value sorts after every value */
		if (isnan(a->f) || isnan(b->f))
			return isnan(a->f) - isnan(b->f);
		r = (a->f > b->f) - (a->f < b->f);
		break;
	case COL_U64_OPT:
		if (a->u == CELL_U64_NONE || b->u == CELL_U64_NONE)
			return (a->u == CELL_U64_NONE) - (b->u == CELL_U64_NONE);
		r = (a->u > b->u) - (a->u < b->u);
		break;
	case COL_HEX:	/* a name: ascending */
		r = (a->u > b->u) - (a->u < b->u);
		desc = 0;
		break;
	default:
		r = strcmp(a->s ? a->s : "", b->s ? b->s : "");
		desc = 0;
	}
	return desc ? -r : r;
}

static int row_cmp(const void *x, const void *y)
{
	const union cell *a = x, *b = y;
	int r = cmp_cell(&sort_t->cols[sort_c], &a[sort_c], &b[sort_c], 1);

	if (r)
		return r;
	return cmp_cell(&sort_t->cols[0], &a[0], &b[0], 0);
}

/*
 * A number cell as a key that sorts as cmp_cell() does, ascending: figures
 * descending (no value last), hexadecimal names ascending.
 */
uint64_t table_cell_key(const struct col *col, const union cell *c, int desc)
{
	uint64_t bits;
	double d;

	switch (col->type) {
	case COL_F64:
		d = c->f;
		if (isnan(d))
			return UINT64_MAX;
		d = d == 0 ? 0 : d;		/* -0 is 0 */
		memcpy(&bits, &d, sizeof(bits));
		bits = bits >> 63 ? ~bits : bits | 1ull << 63;
		return desc ? ~bits - 1 : bits;	/* below the no-value key */
	case COL_HEX:
		return c->u;
	case COL_I64:
		bits = (uint64_t)c->i ^ 1ull << 63;	/* in order, unsigned */
		return desc ? ~bits : bits;
	case COL_U64_OPT:	/* no value last: values below it either way */
		if (c->u == CELL_U64_NONE)
			return UINT64_MAX;
		return desc ? ~c->u - 1 : c->u;
	default:
		return desc ? ~c->u : c->u;
	}
}

static int key_cmp(const void *x, const void *y)
{
	const struct table_key *a = x, *b = y;

	if (a->k1 != b->k1)
		return a->k1 < b->k1 ? -1 : 1;
	if (a->k2 != b->k2)
		return a->k2 < b->k2 ? -1 : 1;
	return (a->row > b->row) - (a->row < b->row);
}

int table_can_key(const struct col *col)
{
	return col->type == COL_U64 || col->type == COL_HEX ||
	       col->type == COL_F64 || col->type == COL_I64 ||
	       col->type == COL_U64_OPT;
}

static void swap_keys(struct table_key *a, struct table_key *b)
{
	struct table_key t = *a;

	*a = *b;
	*b = t;
}

/* Put the m smallest of k[0 .. n - 1] first (in any order): quickselect. */
static void select_keys(struct table_key *k, size_t n, size_t m)
{
	size_t lo = 0, hi = n;	/* the m-th is in [lo, hi) */

	while (hi - lo > 1) {
		size_t i, store = lo;

		/* The middle one as pivot, moved to the end. */
		swap_keys(&k[lo + (hi - lo) / 2], &k[hi - 1]);
		for (i = lo; i < hi - 1; i++)
			if (key_cmp(&k[i], &k[hi - 1]) < 0)
				swap_keys(&k[i], &k[store++]);
		swap_keys(&k[store], &k[hi - 1]);
		if (store == m - 1 || store == m)
			return;
		if (store < m)
			lo = store + 1;
		else
			hi = store;
	}
}

static inline int key_less(const struct table_key *a,
			   const struct table_key *b)
{
	if (a->k1 != b->k1)
		return a->k1 < b->k1;
	if (a->k2 != b->k2)
		return a->k2 < b->k2;
	return a->row < b->row;
}

/* Sort keys as qsort(key_cmp) would (they are all distinct: by row). */
KMAP_DEFINE_SORT(sort_keys, struct table_key, key_less, 16)

/*
 * Sort k[0 .. n) through tmp (room for n), least significant byte first,
 * only the bytes of k2 and k1 that differ between keys: stable, so keys
 * equal in both stay in row order, as key_less() sorts them when rows
 * come in order. A large table's keys differ in a few bytes of each (a
 * count, a call site's low bytes): six passes, each a read and a write
 * of the keys, rather than a merge sort's branches, a pass per doubling.
 * Returns where the sorted keys are: k or tmp.
 */
static struct table_key *radix_sort_keys(struct table_key *k,
					 struct table_key *tmp, size_t n)
{
	uint64_t diff1 = 0, diff2 = 0;
	struct table_key *src = k, *dst = tmp, *t;
	size_t i, count[256];
	int b;

	for (i = 1; i < n; i++) {
		diff1 |= k[i].k1 ^ k[0].k1;
		diff2 |= k[i].k2 ^ k[0].k2;
	}
	for (b = 0; b < 16; b++) {
		uint64_t diff = b < 8 ? diff2 : diff1;
		int shift = 8 * (b & 7);
		size_t sum = 0;

		if (!(diff >> shift & 0xff))
			continue;
		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[((b < 8 ? src[i].k2 : src[i].k1) >> shift) & 0xff]++;
		for (i = 0; i < 256; i++) {
			size_t c = count[i];

			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			dst[count[((b < 8 ? src[i].k2 : src[i].k1) >> shift) &
				  0xff]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	return src;
}

/*
 * Sort k[0 .. n), in row order (k[i].row < k[i + 1].row) when ordered:
 * by radix when rows are (the ties' order), else by merging. -1 when out
 * of memory.
 */
static int merge_sort_keys(struct table_key *k, size_t n, int ordered)
{
	struct table_key *tmp = NULL, *sorted;

	if (n > 16 && !(tmp = malloc(n * sizeof(*tmp))))
		return -1;
	sorted = ordered && n > 256 ? radix_sort_keys(k, tmp, n) :
		 sort_keys(k, tmp, n);
	if (sorted != k)
		memcpy(k, sorted, n * sizeof(*k));
	free(tmp);
	return 0;
}

void table_sort_keys(struct table_key *k, size_t n, size_t m)
{
	size_t i;
	int ordered = 1;

	for (i = 1; i < n && ordered; i++)
		ordered = k[i - 1].row < k[i].row;
	if (m < n) {
		select_keys(k, n, m);
		ordered = 0;
	} else {
		m = n;
	}
	if (merge_sort_keys(k, m, ordered))
		qsort(k, m, sizeof(*k), key_cmp);
}

/*
 * Sort by keys of 16 bytes rather than rows (the common case: a number
 * column, ties by a number or hexadecimal first column), then move the
 * rows once. Returns -1 when it cannot (names, or out of memory).
 */
static int sort_by_keys(struct table *t, int col)
{
	const struct col *c = &t->cols[col], *first = &t->cols[0];
	size_t r, nc = t->ncols;
	struct table_key *k;
	union cell *cells;

	if (!table_can_key(c) || !table_can_key(first) ||
	    first->type == COL_F64)
		return -1;
	k = malloc(t->nrows * sizeof(*k));
	cells = malloc(t->nrows * nc * sizeof(*cells));
	if (!k || !cells) {
		free(k);
		free(cells);
		return -1;
	}
	for (r = 0; r < t->nrows; r++) {
		const union cell *row = &t->cells[r * nc];

		k[r] = (struct table_key){ table_cell_key(c, &row[col], 1),
					  table_cell_key(first, &row[0], 0), r };
	}
	if (merge_sort_keys(k, t->nrows, 1))
		qsort(k, t->nrows, sizeof(*k), key_cmp);
	for (r = 0; r < t->nrows; r++)
		memcpy(&cells[r * nc], &t->cells[k[r].row * nc],
		       nc * sizeof(*cells));
	free(t->cells);
	t->cells = cells;
	t->cap = t->nrows;
	free(k);
	return 0;
}

void table_sort(struct table *t, int col)
{
	if (t->nrows < 2)	/* an empty input has no cells at all */
		return;
	if (!sort_by_keys(t, col))
		return;
	sort_t = t;
	sort_c = col;
	qsort(t->cells, t->nrows, t->ncols * sizeof(*t->cells), row_cmp);
}

/*
 * The shortest "%.Ng" of d that reads back as d, with a decimal point
 * (9.0, not 9: a figure's column reads as floating point everywhere).
 */
static int fmt_exact(double d, char *buf, size_t len)
{
	int prec, n = 0;

	for (prec = 1; prec <= 17; prec++) {
		n = snprintf(buf, len, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	if (!strpbrk(buf, ".en") && n + 2 < (int)len)
		n += snprintf(buf + n, len - n, ".0");
	return n;
}

/*
 * d in hundredths, rounded as "%.2f" rounds: 0, or -1 where d * 100 is
 * too near a tie (.5) for its rounding error (below 2^-22 for d < 10^7)
 * not to change which way it rounds (printf's then).
 */
static int hundredths(double d, uint64_t *v)
{
	double x = d * 100.0, f, frac;

	if (!(d >= 0 && d < 1e7))
		return -1;
	/* floor(x): x is not negative and below 2^63 (no libm call). */
	*v = (uint64_t)x;
	f = (double)*v;
	frac = x - f;
	if (fabs(frac - 0.5) < 1e-6)
		return -1;
	*v += frac > 0.5;
	return 0;
}

/* v hundredths as "%.2f" writes them at p, no NUL; returns the end. */
static char *put_hundredths(char *p, uint64_t v)
{
	p = kmap_put_dec(p, v / 100);
	*p++ = '.';
	*p++ = '0' + v / 10 % 10;
	*p++ = '0' + v % 10;
	return p;
}

/* "%.2f" of d, without printf where hundredths() can. */
static int fmt_2f(double d, char *buf, size_t len)
{
	uint64_t v;
	int n;

	if (len < 16 || hundredths(d, &v))
		return snprintf(buf, len, "%.2f", d);
	n = (int)(put_hundredths(buf, v) - buf);
	buf[n] = 0;
	return n;
}

/* A figure for people: two decimals, or two significant digits below. */
static int fmt_shown(double d, char *buf, size_t len)
{
	if (d != 0 && fabs(d) < 0.005)
		return snprintf(buf, len, "%.2g", d);
	return fmt_2f(d, buf, len);
}

/*
 * Without printf: a cell without a value ("-") is in many rows (every
 * row of live objects alone has no avg_lifetime), and report copies two
 * names an object.
 */
int str_copy(char *buf, size_t len, const char *s)
{
	size_t n = strlen(s), m = len && n >= len ? len - 1 : n;

	if (len) {
		memcpy(buf, s, m);
		buf[m] = 0;
	}
	return (int)n;
}

/* A cell as text (human: for the table, else for CSV and JSON). */
static int fmt_cell(const struct col *col, const union cell *c, char *buf,
		    size_t len, int human)
{
	switch (col->type) {
	case COL_U64:
		if (len < 21)
			return snprintf(buf, len, "%llu", (unsigned long long)c->u);
		*kmap_put_dec(buf, c->u) = 0;
		return kmap_dec_len(c->u);
	case COL_HEX:
		return (int)(put_hex(buf, c->u) - buf);
	case COL_I64:
		return snprintf(buf, len, human && c->i > 0 ? "+%lld" : "%lld",
				(long long)c->i);
	case COL_F64:
		if (isnan(c->f))
			return str_copy(buf, len, human ? "-" : "");
		return human ? fmt_shown(c->f, buf, len) : fmt_exact(c->f, buf, len);
	case COL_U64_OPT:
		if (c->u == CELL_U64_NONE)
			return str_copy(buf, len, human ? "-" : "");
		return snprintf(buf, len, "%llu", (unsigned long long)c->u);
	default:
		return snprintf(buf, len, "%s", c->s ? c->s : "");
	}
}

/* Names are left-aligned, figures right-aligned. */
static int is_name(const struct col *col)
{
	return col->type == COL_STR || col->type == COL_HEX;
}

/* A cell's width in the table (figures formatted, the rest counted). */
static int shown_len(const struct col *col, const union cell *c, char *buf,
		     size_t len)
{
	if (col->type == COL_U64)
		return kmap_dec_len(c->u);
	if (col->type == COL_HEX)
		return c->u ? (67 - __builtin_clzll(c->u)) / 4 : 1;
	if (col->type == COL_STR)
		return c->s ? (int)strlen(c->s) : 0;
	return fmt_cell(col, c, buf, len, 1);
}

/*
 * Whether a figure of d is shown with two decimals (fmt_shown()), its
 * width growing with d: the greatest such figure of a column is its widest
 * (not so for infinity, "inf"). 0 is ("0.00", the narrowest): a lifetime
 * within one jiffy, a count of none, in many rows.
 */
static int two_decimals(double d)
{
	return (d >= 0.005 || d == 0) && !isinf(d);
}

/*
 * Widen w[] to the cells of the first n rows. A number or hexadecimal
 * column is as wide as its greatest value, and so is a column of figures
 * shown with two decimals: those are compared, not formatted (the rest
 * are). 0, or -1 when out of memory.
 */
static int column_widths(const struct table *t, size_t n, int *w)
{
	union cell *max = calloc(t->ncols, sizeof(*max));
	char buf[512];
	size_t r;
	int c;

	if (!max)
		return -1;
	for (c = 0; c < t->ncols; c++)
		if (t->cols[c].type == COL_F64)
			max[c].f = CELL_NONE;
	for (r = 0; r < n; r++)
		for (c = 0; c < t->ncols; c++) {
			const union cell *cell = &t->cells[r * t->ncols + c];
			int l;

			if (t->cols[c].type == COL_U64 ||
			    t->cols[c].type == COL_HEX) {
				if (cell->u > max[c].u)
					max[c].u = cell->u;
				continue;
			}
			if (t->cols[c].type == COL_F64 &&
			    two_decimals(cell->f)) {
				if (!(cell->f <= max[c].f))	/* NaN: none yet */
					max[c].f = cell->f;
				continue;
			}
			l = shown_len(&t->cols[c], cell, buf, sizeof(buf));
			if (l > w[c])
				w[c] = l;
		}
	for (c = 0; n && c < t->ncols; c++) {
		if (t->cols[c].type == COL_U64 || t->cols[c].type == COL_HEX ||
		    (t->cols[c].type == COL_F64 && !isnan(max[c].f))) {
			int l = shown_len(&t->cols[c], &max[c], buf, sizeof(buf));

			if (l > w[c])
				w[c] = l;
		}
	}
	free(max);
	return 0;
}

/*
 * n spaces at p: 16 at once (most pads, no loop), past them eight at a
 * time (up to 16 bytes written past p + n, 15 past the room checked for
 * the cell: the row buffer has ROW_SLACK bytes past its end); returns p + n.
 */
#define ROW_SLACK	16
static inline char *spaces(char *p, int n)
{
	int i;

	memcpy(p, "                ", 16);
	for (i = 16; i < n; i += 8)
		memcpy(p + i, "        ", 8);
	return p + n;
}

/* A row's most bytes (wider than any real row: its cells are cut). */
#define ROW_MAX	4096
#define OUT_BUF	(64 * ROW_MAX)

/*
 * One row of the table, appended to buf at len (ROW_MAX bytes of room):
 * numbers right-aligned, names left-aligned (the last one unpadded), a
 * control character in a name shown as '?' (it would break the line).
 * Returns the new length. Rows are gathered, not written one by one: a
 * report may have hundreds of thousands.
 */
static size_t print_row(const struct table *t, const union cell *row,
			const int *w, FILE *f, char *buf, size_t len)
{
	char num[512], *p = buf + len, *e = p + ROW_MAX;
	uint64_t v;
	int c, l, pad;

	for (c = 0; c < t->ncols; c++) {
		const struct col *col = &t->cols[c];
		const char *s = num;

		if (e - p < w[c] + 2 + 1) {	/* wider than any real row */
			fwrite_unlocked(buf, 1, p - buf, f);
			p = buf;
			e = buf + ROW_MAX;
			if (e - p < w[c] + 2 + 1)
				return 0;
		}
		if (c) {
			*p++ = ' ';
			*p++ = ' ';
		}
		/* Most cells: a count, written in place, right-aligned. */
		if (col->type == COL_U64 && kmap_dec_len(row[c].u) <= w[c]) {
			p = spaces(p, w[c] - kmap_dec_len(row[c].u));
			p = kmap_put_dec(p, row[c].u);
			continue;
		}
		/* And a figure of two decimals (fmt_shown()'s). */
		if (col->type == COL_F64 && two_decimals(row[c].f) &&
		    !hundredths(row[c].f, &v) &&
		    kmap_dec_len(v / 100) + 3 <= w[c]) {
			p = spaces(p, w[c] - kmap_dec_len(v / 100) - 3);
			p = put_hundredths(p, v);
			continue;
		}
		if (col->type == COL_U64)
			l = (int)(kmap_put_dec(num, row[c].u) - num);
		else if (col->type == COL_HEX)
			l = (int)(put_hex(num, row[c].u) - num);
		else if (col->type == COL_F64 || col->type == COL_I64 ||
			 col->type == COL_U64_OPT)
			l = fmt_cell(col, &row[c], num, sizeof(num), 1);
		else
			l = (int)strlen(s = row[c].s ? row[c].s : "");
		if (l > w[c])
			l = w[c];
		pad = w[c] - l;
		if (!is_name(col))
			p = spaces(p, pad);
		memcpy(p, s, l);
		/* Only strings can hold one: figures are digits and signs. */
		if (col->type == COL_STR) {
			for (; l; l--, p++)
				if ((unsigned char)*p < 0x20 || *p == 0x7f)
					*p = '?';
		} else {
			p += l;
		}
		if (is_name(col) && (c == 0 || c < t->ncols - 1))
			p = spaces(p, pad);
	}
	*p++ = '\n';
	return p - buf;
}

/* The length of the UTF-8 sequence at s, or 0 when it is not one. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* No overlong forms, no surrogates, nothing past U+10FFFF. */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

void csv_str(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/*
 * A JSON string of s. Names are bytes (a comm is whatever the task set):
 * valid UTF-8 is kept, and each byte that is not part of it becomes the
 * character U+00XX (what "\u00XX" says), so the output is always valid
 * JSON and the byte can be told. json-c escapes the rest.
 */
struct json_object *json_bytes(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n, len = strlen(s), j = 0;
	struct json_object *o;
	char *u = malloc(2 * len + 1);

	if (!u)
		return NULL;
	while (*p) {
		if ((n = utf8_len(p))) {
			memcpy(u + j, p, n);
			j += n;
			p += n;
		} else {
			u[j++] = (char)(0xc0 | *p >> 6);
			u[j++] = (char)(0x80 | (*p++ & 0x3f));
		}
	}
	o = json_object_new_string_len(u, (int)j);
	free(u);
	return o;
}

struct json_object *json_figure(double d)
{
	char buf[64];

	if (isnan(d))
		return NULL;
	fmt_exact(d, buf, sizeof(buf));
	return json_object_new_double_s(d, buf);
}

static struct json_object *json_cell(const struct col *col,
				     const union cell *c)
{
	switch (col->type) {
	case COL_U64:
		return json_object_new_uint64(c->u);
	case COL_I64:
		return json_object_new_int64(c->i);
	case COL_F64:
		return json_figure(c->f);
	case COL_U64_OPT:
		return c->u == CELL_U64_NONE ? NULL : json_object_new_uint64(c->u);
	case COL_HEX: {
		char hex[20];

		put_hex(hex, c->u);
		return json_object_new_string(hex);
	}
	default:
		return json_bytes(c->s ? c->s : "");
	}
}

#define JSON_FLAGS	(JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

/*
 * The head's members, "columns", then "rows" a row at a time (a table of
 * millions of objects is never one tree): the head is printed without
 * its closing brace and the rows follow.
 */
static int json_print(const struct table *t, FILE *f, size_t n,
		      struct json_object *json_head)
{
	struct json_object *head = json_object_new_object(), *cols, *row;
	const char *s;
	size_t r;
	int c;

	cols = json_object_new_array();
	if (!head || !cols)
		goto oom;
	if (json_head) {
		json_object_object_foreach(json_head, key, val)
			json_object_object_add(head, key, json_object_get(val));
	}
	for (c = 0; c < t->ncols; c++)
		json_object_array_add(cols, json_object_new_string(t->cols[c].name));
	json_object_object_add(head, "columns", cols);
	s = json_object_to_json_string_ext(head, JSON_FLAGS);
	if (!s)
		goto oom;
	fprintf(f, "%.*s,\n\"rows\":[", (int)strlen(s) - 1, s);
	for (r = 0; r < n; r++) {
		row = json_object_new_object();
		if (!row)
			goto oom;
		for (c = 0; c < t->ncols; c++)
			json_object_object_add(row, t->cols[c].name,
				json_cell(&t->cols[c], &t->cells[r * t->ncols + c]));
		s = json_object_to_json_string_ext(row, JSON_FLAGS);
		fprintf(f, "%s\n%s", r ? "," : "", s ? s : "{}");
		json_object_put(row);
	}
	fputs("]}\n", f);
	json_object_put(head);
	return 0;
oom:
	json_object_put(head);
	return -1;
}

int table_print(const struct table *t, FILE *f, enum table_fmt fmt,
		size_t limit, struct json_object *json_head)
{
	size_t r, n = limit && limit < t->nrows ? limit : t->nrows, len = 0;
	char buf[512], *out;
	int c, *w;

	if (fmt == FMT_JSON)
		return json_print(t, f, n, json_head);
	if (fmt == FMT_CSV) {
		for (c = 0; c < t->ncols; c++)
			fprintf(f, "%s%s", c ? "," : "", t->cols[c].name);
		fputc('\n', f);
		for (r = 0; r < n; r++) {
			for (c = 0; c < t->ncols; c++) {
				fmt_cell(&t->cols[c], &t->cells[r * t->ncols + c],
					 buf, sizeof(buf), 0);
				if (c)
					fputc(',', f);
				csv_str(f, buf);
			}
			fputc('\n', f);
		}
		return 0;
	}
	w = calloc(t->ncols, sizeof(*w));
	if (!w)
		return -1;
	for (c = 0; c < t->ncols; c++)
		w[c] = strlen(t->cols[c].name);
	if (column_widths(t, n, w)) {
		free(w);
		return -1;
	}
	for (c = 0; c < t->ncols; c++)
		fprintf(f, c ? "  %*s" : "%-*s",
			c && is_name(&t->cols[c]) ? -w[c] : w[c],
			t->cols[c].name);
	fputc('\n', f);
	out = malloc(OUT_BUF + ROW_SLACK);
	if (!out) {
		free(w);
		return -1;
	}
	for (r = 0; r < n; r++) {
		if (OUT_BUF - len < ROW_MAX) {
			fwrite_unlocked(out, 1, len, f);
			len = 0;
		}
		len = print_row(t, &t->cells[r * t->ncols], w, f, out, len);
	}
	fwrite_unlocked(out, 1, len, f);
	free(out);
	free(w);
	return 0;
}

void table_free(struct table *t)
{
	size_t r;
	int c;

	/* Column by column: most tables have no strings to free. */
	for (c = 0; c < t->ncols; c++)
		for (r = 0; t->cols[c].type == COL_STR && r < t->nrows; r++)
			free(t->cells[r * t->ncols + c].s);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}
