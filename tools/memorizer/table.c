// SPDX-License-Identifier: GPL-2.0
/* Report tables. See table.h. */
#include <stdlib.h>
#include <string.h>

#include "table.h"

void table_init(struct table *t, const struct col *cols, int ncols)
{
	memset(t, 0, sizeof(*t));
	t->cols = cols;
	t->ncols = ncols;
}

union cell *table_row(struct table *t)
{
	union cell *row;

	if (t->nrows == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 256;
		void *p = realloc(t->cells, cap * t->ncols * sizeof(*t->cells));

		if (!p)
			return NULL;
		t->cells = p;
		t->cap = cap;
	}
	row = &t->cells[t->nrows++ * t->ncols];
	memset(row, 0, t->ncols * sizeof(*row));
	return row;
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
	case COL_F64:
		r = (a->f > b->f) - (a->f < b->f);
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

void table_sort(struct table *t, int col)
{
	if (t->nrows < 2)	/* an empty input has no cells at all */
		return;
	sort_t = t;
	sort_c = col;
	qsort(t->cells, t->nrows, t->ncols * sizeof(*t->cells), row_cmp);
}

static int fmt_cell(const struct col *col, const union cell *c, char *buf,
		    size_t len)
{
	switch (col->type) {
	case COL_U64:
		return snprintf(buf, len, "%llu", (unsigned long long)c->u);
	case COL_F64:
		return snprintf(buf, len, "%.2f", c->f);
	default:
		return snprintf(buf, len, "%s", c->s ? c->s : "");
	}
}

/* A name in the human table: a control character would break its line. */
static int fmt_cell_shown(const struct col *col, const union cell *c,
			  char *buf, size_t len)
{
	int n = fmt_cell(col, c, buf, len);
	char *p;

	for (p = buf; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return n;
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

static void csv_str(FILE *f, const char *s)
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
 * A JSON string. Names are bytes (a comm is whatever the task set): valid
 * UTF-8 is kept, and each byte that is not part of it becomes \u00XX, so
 * the output is always valid JSON and the byte can be told.
 */
static void json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	fputc('"', f);
	while (*p) {
		if (*p == '"' || *p == '\\') {
			fprintf(f, "\\%c", *p++);
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p++);
		} else if ((n = utf8_len(p))) {
			fwrite(p, 1, n, f);
			p += n;
		} else {
			fprintf(f, "\\u%04x", *p++);
		}
	}
	fputc('"', f);
}

void table_print(const struct table *t, FILE *f, enum table_fmt fmt,
		 size_t limit, const char *json_head)
{
	size_t r, n = limit && limit < t->nrows ? limit : t->nrows;
	char buf[512];
	int c;

	if (fmt == FMT_CSV) {
		for (c = 0; c < t->ncols; c++)
			fprintf(f, "%s%s", c ? "," : "", t->cols[c].name);
		fputc('\n', f);
		for (r = 0; r < n; r++) {
			for (c = 0; c < t->ncols; c++) {
				fmt_cell(&t->cols[c], &t->cells[r * t->ncols + c],
					 buf, sizeof(buf));
				if (c)
					fputc(',', f);
				csv_str(f, buf);
			}
			fputc('\n', f);
		}
		return;
	}
	if (fmt == FMT_JSON) {
		fprintf(f, "{%s\"columns\":[", json_head ? json_head : "");
		for (c = 0; c < t->ncols; c++) {
			if (c)
				fputc(',', f);
			json_str(f, t->cols[c].name);
		}
		fputs("],\n\"rows\":[", f);
		for (r = 0; r < n; r++) {
			fputs(r ? ",\n{" : "\n{", f);
			for (c = 0; c < t->ncols; c++) {
				const union cell *v = &t->cells[r * t->ncols + c];

				if (c)
					fputc(',', f);
				json_str(f, t->cols[c].name);
				fputc(':', f);
				if (t->cols[c].type == COL_STR) {
					json_str(f, v->s ? v->s : "");
				} else {
					fmt_cell(&t->cols[c], v, buf, sizeof(buf));
					fputs(buf, f);
				}
			}
			fputc('}', f);
		}
		fputs("]}\n", f);
		return;
	}
	{
		int *w = calloc(t->ncols, sizeof(*w));

		if (!w)
			return;
		for (c = 0; c < t->ncols; c++)
			w[c] = strlen(t->cols[c].name);
		for (r = 0; r < n; r++)
			for (c = 0; c < t->ncols; c++) {
				int l = fmt_cell_shown(&t->cols[c],
						 &t->cells[r * t->ncols + c], buf,
						 sizeof(buf));
				if (l > w[c])
					w[c] = l;
			}
		for (c = 0; c < t->ncols; c++)
			fprintf(f, c ? "  %*s" : "%-*s",
				c && t->cols[c].type == COL_STR ? -w[c] : w[c],
				t->cols[c].name);
		fputc('\n', f);
		for (r = 0; r < n; r++) {
			for (c = 0; c < t->ncols; c++) {
				fmt_cell_shown(&t->cols[c], &t->cells[r * t->ncols + c],
					 buf, sizeof(buf));
				if (c == 0)
					fprintf(f, "%-*s", w[c], buf);
				else if (t->cols[c].type == COL_STR)
					fprintf(f, "  %-*s",
						c == t->ncols - 1 ? 0 : w[c], buf);
				else
					fprintf(f, "  %*s", w[c], buf);
			}
			fputc('\n', f);
		}
		free(w);
	}
}

void table_free(struct table *t)
{
	size_t r;
	int c;

	for (r = 0; r < t->nrows; r++)
		for (c = 0; c < t->ncols; c++)
			if (t->cols[c].type == COL_STR)
				free(t->cells[r * t->ncols + c].s);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}
