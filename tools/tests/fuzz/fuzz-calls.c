// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the reader of debugfs memorizer/function_calls
 * (kmap_calls.c): the reader over the whole buffer and, in pieces of 1 to
 * 13 bytes, over a read function gives the same edges and the same
 * verdict; every edge it hands out keeps the rules it claims (caller and
 * callee not 0, pid below KMAP_PID_MAX or unknown for the fork's lines,
 * count above 0, one format a file) and is what kmap_parse_call() makes
 * of its line; it refuses a line only when kmap_parse_call() does, or the
 * line is too long, cut short or of the other format, and says where.
 * The edges summed into a struct kmap_calls give one entry per (caller,
 * callee, pid), in the order first seen, each its edges' saturating sum.
 * kmap_guess_format() calls the first line a call edge's exactly when
 * kmap_parse_call() takes it, and kmap_src reads what the reader reads.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmap.h"

/*
 * The most edges kept: a line of an edge is 6 bytes at least ("1 1 1\n"),
 * so inputs of up to 6 * MAX_EDGES bytes (-max_len=4096 and more) fit.
 */
#define MAX_EDGES	8192

struct pieces {
	const unsigned char *data;
	size_t size, at;
	int whole;
};

/* All of it at once, or pieces of 1 to 13 bytes sized by the bytes. */
static long read_piece(void *ctx, void *buf, size_t len)
{
	struct pieces *p = ctx;
	size_t n = p->size - p->at;

	if (!p->whole && n)
		n = p->data[p->at] % 13 + 1;
	if (n > len)
		n = len;
	if (n > p->size - p->at)
		n = p->size - p->at;
	memcpy(buf, p->data + p->at, n);
	p->at += n;
	return (long)n;
}

static int same_call(const struct kmap_call *a, const struct kmap_call *b)
{
	return a->caller == b->caller && a->callee == b->callee &&
	       a->pid == b->pid && a->count == b->count;
}

static int same_key(const struct kmap_call *a, const struct kmap_call *b)
{
	return a->caller == b->caller && a->callee == b->callee &&
	       a->pid == b->pid;
}

/*
 * Read every edge: returns the reader's last answer (0 or -1), the edges
 * in e[0 .. *n - 1], the error in err.
 */
static int read_all(const unsigned char *data, size_t size, int whole,
		    struct kmap_call *e, size_t *n, char *err)
{
	struct pieces p = { data, size, 0, whole };
	struct kmap_calls_reader *r = kmap_calls_open_fn(read_piece, &p, "fuzz");
	struct kmap_call c;
	int rc;

	if (!r)
		abort();
	*n = 0;
	err[0] = 0;
	while ((rc = kmap_calls_next(r, &c)) == 1) {
		if (*n == MAX_EDGES)
			abort();
		e[(*n)++] = c;
	}
	if (rc < 0) {
		snprintf(err, KMAP_ERR_MAX, "%s", kmap_calls_error(r));
		/* Once failed, it stays failed, with the same error. */
		if (kmap_calls_next(r, &c) != -1 ||
		    strcmp(err, kmap_calls_error(r)))
			abort();
	} else if (kmap_calls_next(r, &c) != 0) {
		abort();	/* the end stays the end */
	}
	kmap_calls_close(r);
	return rc;
}

/* The first line is a call edge's for kmap_guess_format() iff it parses. */
static void check_guess(const unsigned char *data, size_t size)
{
	const unsigned char *nl = memchr(data, '\n', size);
	enum kmap_format whole = kmap_guess_format(data, size);
	struct kmap_call c;
	char err[KMAP_ERR_MAX], line[KMAP_LINE_MAX + 1];
	size_t len, i;
	int fork, parses, printable = 1;

	if (whole == KMAP_FMT_CALLS &&
	    (!nl || kmap_parse_call((const char *)data, nl - data, &c, &fork,
				    err)))
		abort();
	if (!nl || (size_t)(nl - data) >= sizeof(line))
		return;
	len = nl - data;
	parses = !kmap_parse_call((const char *)data, len, &c, &fork, err);
	/* The first line alone, its newline kept. */
	memcpy(line, data, len + 1);
	for (i = 0; i < len + 1 && i < 16; i++)
		if ((line[i] < 0x20 && line[i] != '\n') ||
		    (unsigned char)line[i] >= 0x7f)
			printable = 0;
	/* A line kmap_parse_call() takes is printable, and no magic. */
	if (parses && !printable)
		abort();
	if (printable &&
	    (kmap_guess_format(line, len + 1) == KMAP_FMT_CALLS) != parses)
		abort();
	/* What comes after the first line only matters as binary bytes. */
	if (parses && whole != KMAP_FMT_CALLS && whole != KMAP_FMT_BINARY)
		abort();
}

/*
 * The table of the edges e[0 .. n - 1]: one entry per key, in the order
 * first seen, its count the edges' saturating sum; and the entries'
 * counts sum to the edges' (saturating both).
 */
static void check_table(const struct kmap_calls *t, const struct kmap_call *e,
			size_t n)
{
	const struct kmap_call *calls;
	size_t m = kmap_calls_list(t, &calls), i, j, first, last_first = 0;
	uint64_t total = 0, table_total = 0, sum;

	if (m > n || (n && !m))
		abort();
	for (i = 0; i < n; i++)
		total = kmap_add_sat(total, e[i].count);
	for (i = 0; i < m; i++) {
		if (!calls[i].count)
			abort();
		table_total = kmap_add_sat(table_total, calls[i].count);
		for (j = 0; j < i; j++)
			if (same_key(&calls[j], &calls[i]))
				abort();
		first = n;
		sum = 0;
		for (j = 0; j < n; j++) {
			if (!same_key(&e[j], &calls[i]))
				continue;
			if (first == n)
				first = j;
			sum = kmap_add_sat(sum, e[j].count);
		}
		if (first == n || sum != calls[i].count ||
		    (i && first <= last_first))
			abort();
		last_first = first;
	}
	if (table_total != total)
		abort();
	/* Every edge has its entry. */
	for (j = 0; j < n; j++) {
		for (i = 0; i < m && !same_key(&calls[i], &e[j]); i++)
			;
		if (i == m)
			abort();
	}
}

/* Through kmap_src, as the commands read: the same edges and verdict. */
static void check_src(const unsigned char *data, size_t size,
		      const struct kmap_calls *t, int rc, const char *rerr)
{
	FILE *f = size ? fmemopen((void *)data, size, "rb") :
			 fopen("/dev/null", "rb");
	enum kmap_format guess = kmap_guess_format(data, size);
	const struct kmap_object *o;
	const struct kmap_access *a;
	const struct kmap_call *want, *got;
	char err[KMAP_ERR_MAX];
	struct kmap_src *s;
	size_t n, m, i;
	int src_rc;

	if (!f)
		abort();
	s = kmap_src_open_file(f, "fuzz", err);
	if (!s) {	/* only a compressed input fails to open here */
		if (guess != KMAP_FMT_BINARY_ZSTD)
			abort();
		fclose(f);
		return;
	}
	/* A compressed input's format is its contents'. */
	if (guess != KMAP_FMT_BINARY_ZSTD &&
	    (kmap_src_format(s) == KMAP_FMT_CALLS) != (guess == KMAP_FMT_CALLS))
		abort();
	if (guess == KMAP_FMT_CALLS) {
		src_rc = kmap_src_next(s, &o, &a, &n);
		if (src_rc != rc)
			abort();	/* no objects: 0 at once, or the error */
		if (rc < 0 && strcmp(kmap_src_error(s), rerr))
			abort();
		if (!rc) {
			n = kmap_calls_list(t, &want);
			m = kmap_calls_list(kmap_src_calls(s), &got);
			if (n != m)
				abort();
			for (i = 0; i < n; i++)
				if (!same_call(&want[i], &got[i]))
					abort();
		}
	}
	kmap_src_close(s);
	fclose(f);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static struct kmap_call e[MAX_EDGES], e2[MAX_EDGES];
	char err[KMAP_ERR_MAX], err2[KMAP_ERR_MAX], perr[KMAP_ERR_MAX];
	char where[32];
	const char *s = (const char *)data, *nl;
	struct kmap_calls *t;
	struct kmap_call c;
	size_t n, n2, i, at = 0, len;
	int rc, rc2, fork, first_fork = -1;

	if (size > 6 * MAX_EDGES)
		return 0;
	check_guess(data, size);

	rc = read_all(data, size, 1, e, &n, err);
	rc2 = read_all(data, size, 0, e2, &n2, err2);
	if (rc != rc2 || n != n2 || strcmp(err, err2))
		abort();
	for (i = 0; i < n; i++)
		if (!same_call(&e[i], &e2[i]))
			abort();

	/* Each edge is its line's, as kmap_parse_call() reads it. */
	for (i = 0; i < n; i++) {
		if (!e[i].caller || !e[i].callee || !e[i].count ||
		    (e[i].pid >= KMAP_PID_MAX &&
		     e[i].pid != KMAP_CALL_PID_UNKNOWN))
			abort();
		nl = memchr(s + at, '\n', size - at);
		if (!nl)
			abort();
		len = nl - (s + at);
		if (len + 1 > KMAP_LINE_MAX ||
		    kmap_parse_call(s + at, len, &c, &fork, perr) ||
		    !same_call(&c, &e[i]) ||
		    fork != (e[i].pid == KMAP_CALL_PID_UNKNOWN) ||
		    (first_fork >= 0 && fork != first_fork))
			abort();
		first_fork = fork;
		at += len + 1;
	}
	if (!rc && at != size)
		abort();	/* the end is the input's */
	if (rc < 0) {
		/*
		 * The line after the last edge is refused: "fuzz:LINE: ", and
		 * for one of the reasons the reader has.
		 */
		snprintf(where, sizeof(where), "fuzz:%zu: ", n + 1);
		if (strncmp(err, where, strlen(where)) || at >= size)
			abort();
		nl = memchr(s + at, '\n', size - at);
		len = nl ? (size_t)(nl - (s + at)) : size - at;
		if (nl && len + 1 <= KMAP_LINE_MAX &&
		    !kmap_parse_call(s + at, len, &c, &fork, perr) &&
		    (first_fork < 0 || fork == first_fork))
			abort();
	}

	t = kmap_calls_new();
	if (!t)
		abort();
	for (i = 0; i < n; i++)
		if (kmap_calls_add(t, &e[i]))
			abort();
	check_table(t, e, n);
	check_src(data, size, t, rc, err);
	kmap_calls_free(t);
	return 0;
}
