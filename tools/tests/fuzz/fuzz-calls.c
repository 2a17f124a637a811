// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the readers of call logging's two debugfs files,
 * function_calls (kmap_calls.c) and stack_frames (kmap_frames.c), on the
 * line reader they share: each input is read as both. Each reader over
 * the whole buffer and, in pieces of 1 to 13 bytes, over a read function
 * gives the same records and the same verdict; every record it hands out
 * keeps the rules it claims and is what kmap_parse_call() or
 * kmap_parse_frame() makes of its line; it refuses a line only when the
 * parser does, or the line is too long or cut short, or (calls) of the
 * other format or (frames) a (frame, ip, pid) of an earlier line, and
 * says where.
 *
 * function_calls: caller and callee not 0, pid below KMAP_PID_MAX or
 * unknown for the fork's lines, count above 0, one format a file. The
 * edges summed into a struct kmap_calls give one entry per (caller,
 * callee, pid), in the order first seen, each its edges' saturating sum.
 * kmap_guess_format() calls the first line a call edge's exactly when
 * kmap_parse_call() takes it.
 *
 * stack_frames: frame and ip not 0, pid below KMAP_PID_MAX, counts within
 * 32 bits and not both 0, no (frame, ip, pid) twice; the reader keeps
 * the cells it handed out (kmap_frames_read()), and a struct kmap_frames
 * given them twice holds each once, its counts doubled (saturating).
 * kmap_guess_format() calls the first line a frame cell's exactly when it
 * has the shape (5 comma fields, hex digits and x in the first two,
 * digits and - in the rest, none empty, at most KMAP_LINE_MAX bytes),
 * which every line kmap_parse_frame() takes has.
 *
 * Both: kmap_src reads what the reader of its format reads.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmap.h"

/*
 * The most records kept: a line is 6 bytes at least ("1 1 1\n"), so
 * inputs of up to 6 * MAX_RECS bytes (-max_len=4096 and more) fit.
 */
#define MAX_RECS	8192

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

union rec {
	struct kmap_call c;
	struct kmap_frame f;
};

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

static int same_cell_key(const struct kmap_frame *a, const struct kmap_frame *b)
{
	return a->frame == b->frame && a->ip == b->ip && a->pid == b->pid;
}

static int same_cell(const struct kmap_frame *a, const struct kmap_frame *b)
{
	return same_cell_key(a, b) && a->writes == b->writes &&
	       a->reads == b->reads;
}

/*
 * A reader of either format (fmt KMAP_FMT_CALLS or KMAP_FMT_FRAMES), as
 * the harness drives it.
 */
static void *rec_open(enum kmap_format fmt, struct pieces *p)
{
	return fmt == KMAP_FMT_CALLS ?
		(void *)kmap_calls_open_fn(read_piece, p, "fuzz") :
		(void *)kmap_frames_open_fn(read_piece, p, "fuzz");
}

static int rec_next(enum kmap_format fmt, void *r, union rec *rec)
{
	return fmt == KMAP_FMT_CALLS ? kmap_calls_next(r, &rec->c) :
				       kmap_frames_next(r, &rec->f);
}

static const char *rec_error(enum kmap_format fmt, const void *r)
{
	return fmt == KMAP_FMT_CALLS ? kmap_calls_error(r) :
				       kmap_frames_error(r);
}

static void rec_close(enum kmap_format fmt, void *r)
{
	if (fmt == KMAP_FMT_CALLS)
		kmap_calls_close(r);
	else
		kmap_frames_close(r);
}

static int rec_same(enum kmap_format fmt, const union rec *a,
		    const union rec *b)
{
	return fmt == KMAP_FMT_CALLS ? same_call(&a->c, &b->c) :
				       same_cell(&a->f, &b->f);
}

/*
 * Read every record: returns the reader's last answer (0 or -1), the
 * records in e[0 .. *n - 1], the error in err. A frames reader's kept
 * cells are its records, in order.
 */
static int read_all(enum kmap_format fmt, const unsigned char *data,
		    size_t size, int whole, union rec *e, size_t *n, char *err)
{
	struct pieces p = { data, size, 0, whole };
	void *r = rec_open(fmt, &p);
	const struct kmap_frame *kept;
	union rec rec;
	size_t i;
	int rc;

	if (!r)
		abort();
	*n = 0;
	err[0] = 0;
	while ((rc = rec_next(fmt, r, &rec)) == 1) {
		if (*n == MAX_RECS)
			abort();
		e[(*n)++] = rec;
	}
	if (rc < 0) {
		snprintf(err, KMAP_ERR_MAX, "%s", rec_error(fmt, r));
		/* Once failed, it stays failed, with the same error. */
		if (rec_next(fmt, r, &rec) != -1 ||
		    strcmp(err, rec_error(fmt, r)))
			abort();
	} else if (rec_next(fmt, r, &rec) != 0) {
		abort();	/* the end stays the end */
	}
	if (fmt == KMAP_FMT_FRAMES) {
		if (kmap_frames_list(kmap_frames_read(r), &kept) != *n)
			abort();
		for (i = 0; i < *n; i++)
			if (!same_cell(&kept[i], &e[i].f))
				abort();
	}
	rec_close(fmt, r);
	return rc;
}

/* Whole and in pieces: the same records, verdict and error. */
static int read_both(enum kmap_format fmt, const unsigned char *data,
		     size_t size, union rec *e, size_t *n, char *err)
{
	static union rec e2[MAX_RECS];
	char err2[KMAP_ERR_MAX];
	size_t n2, i;
	int rc = read_all(fmt, data, size, 1, e, n, err);

	if (read_all(fmt, data, size, 0, e2, &n2, err2) != rc || n2 != *n ||
	    strcmp(err, err2))
		abort();
	for (i = 0; i < *n; i++)
		if (!rec_same(fmt, &e[i], &e2[i]))
			abort();
	return rc;
}

/*
 * The shape of a frame cell's line, without its newline
 * (kmap_guess_format()), on its own.
 */
static int frame_shape(const char *s, size_t len)
{
	size_t field = 0, flen = 0, i;

	if (len + 1 > KMAP_LINE_MAX)
		return 0;

	for (i = 0; i < len; i++) {
		char c = s[i];

		if (c == ',') {
			if (!flen || field == 4)
				return 0;
			field++;
			flen = 0;
			continue;
		}
		flen++;
		if (field < 2 ? !strchr("0123456789abcdefABCDEFxX", c) :
				!strchr("0123456789-", c))
			return 0;
		if (!c)
			return 0;	/* strchr() finds the NUL */
	}
	return field == 4 && flen;
}

/*
 * The first line is a call edge's for kmap_guess_format() iff it parses,
 * a frame cell's iff it has the shape (and not a call edge's).
 */
static void check_guess(const unsigned char *data, size_t size)
{
	const unsigned char *nl = memchr(data, '\n', size);
	enum kmap_format whole = kmap_guess_format(data, size);
	struct kmap_call c;
	struct kmap_frame f;
	char err[KMAP_ERR_MAX], line[KMAP_LINE_MAX + 1];
	size_t len, i;
	int fork, parses, shaped, printable = 1;

	if (whole == KMAP_FMT_CALLS &&
	    (!nl || kmap_parse_call((const char *)data, nl - data, &c, &fork,
				    err)))
		abort();
	if (whole == KMAP_FMT_FRAMES &&
	    (!nl || !frame_shape((const char *)data, nl - data)))
		abort();
	if (!nl || (size_t)(nl - data) >= sizeof(line))
		return;
	len = nl - data;
	parses = !kmap_parse_call((const char *)data, len, &c, &fork, err);
	shaped = frame_shape((const char *)data, len);
	/* A line kmap_parse_frame() takes has the shape. */
	if (!kmap_parse_frame((const char *)data, len, &f, err) && !shaped)
		abort();
	/* The first line alone, its newline kept. */
	memcpy(line, data, len + 1);
	for (i = 0; i < len + 1 && i < 16; i++)
		if ((line[i] < 0x20 && line[i] != '\n') ||
		    (unsigned char)line[i] >= 0x7f)
			printable = 0;
	/* A line either takes is printable, and no magic; not both. */
	if ((parses || shaped) && (!printable || (parses && shaped)))
		abort();
	if (printable &&
	    (kmap_guess_format(line, len + 1) == KMAP_FMT_CALLS) != parses)
		abort();
	if (printable &&
	    (kmap_guess_format(line, len + 1) == KMAP_FMT_FRAMES) != shaped)
		abort();
	/* What comes after the first line only matters as binary bytes. */
	if (parses && whole != KMAP_FMT_CALLS && whole != KMAP_FMT_BINARY)
		abort();
	if (shaped && whole != KMAP_FMT_FRAMES && whole != KMAP_FMT_BINARY)
		abort();
}

/*
 * The table of the edges e[0 .. n - 1]: one entry per key, in the order
 * first seen, its count the edges' saturating sum; and the entries'
 * counts sum to the edges' (saturating both).
 */
static void check_table(const struct kmap_calls *t, const union rec *e,
			size_t n)
{
	const struct kmap_call *calls;
	size_t m = kmap_calls_list(t, &calls), i, j, first, last_first = 0;
	uint64_t total = 0, table_total = 0, sum;

	if (m > n || (n && !m))
		abort();
	for (i = 0; i < n; i++)
		total = kmap_add_sat(total, e[i].c.count);
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
			if (!same_key(&e[j].c, &calls[i]))
				continue;
			if (first == n)
				first = j;
			sum = kmap_add_sat(sum, e[j].c.count);
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
		for (i = 0; i < m && !same_key(&calls[i], &e[j].c); i++)
			;
		if (i == m)
			abort();
	}
}

/*
 * The cells c[0 .. n - 1] (none twice, the reader says) added twice to a
 * table: each once, in order, its counts doubled (saturating).
 */
static void check_frames_table(const union rec *c, size_t n)
{
	struct kmap_frames *t = kmap_frames_new();
	const struct kmap_frame *l;
	size_t i, at;

	if (!t)
		abort();
	for (i = 0; i < 2 * n; i++)
		if (kmap_frames_add(t, &c[i % n].f, &at) != (i < n) ||
		    at != i % n)
			abort();
	if (kmap_frames_list(t, &l) != n)
		abort();
	for (i = 0; i < n; i++)
		if (!same_cell_key(&l[i], &c[i].f) ||
		    l[i].writes != kmap_add_sat(c[i].f.writes, c[i].f.writes) ||
		    l[i].reads != kmap_add_sat(c[i].f.reads, c[i].f.reads))
			abort();
	kmap_frames_free(t);
}

/*
 * Through kmap_src, as the commands read: an input of fmt's format gives
 * the same records (want[0 .. n - 1]: the calls' table, the frames'
 * cells) and verdict as its reader (rc, rerr).
 */
static void check_src(enum kmap_format fmt, const unsigned char *data,
		      size_t size, const union rec *want, size_t n, int rc,
		      const char *rerr)
{
	FILE *f = size ? fmemopen((void *)data, size, "rb") :
			 fopen("/dev/null", "rb");
	enum kmap_format guess = kmap_guess_format(data, size);
	const struct kmap_object *o;
	const struct kmap_access *a;
	const struct kmap_call *gc;
	const struct kmap_frame *gf;
	char err[KMAP_ERR_MAX];
	struct kmap_src *s;
	size_t m, i;

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
	    (kmap_src_format(s) == fmt) != (guess == fmt))
		abort();
	if (guess == fmt) {
		if (kmap_src_next(s, &o, &a, &m) != rc)
			abort();	/* no objects: 0 at once, or the error */
		if (rc < 0 && strcmp(kmap_src_error(s), rerr))
			abort();
		if (fmt == KMAP_FMT_FRAMES) {
			m = kmap_frames_list(kmap_src_frames(s), &gf);
			if (!rc && m != n)
				abort();
			for (i = 0; !rc && i < n; i++)
				if (!same_cell(&want[i].f, &gf[i]))
					abort();
		} else if (!rc) {
			if (kmap_calls_list(kmap_src_calls(s), &gc) != n)
				abort();
			for (i = 0; i < n; i++)
				if (!same_call(&want[i].c, &gc[i]))
					abort();
		}
	}
	kmap_src_close(s);
	fclose(f);
}

/*
 * The line after the last record (line n + 1, at at) refused: "fuzz:LINE:
 * ", and the line too long, cut short or not one parse() takes, unless
 * taken() says it may be refused anyway.
 */
static void check_refused(const char *s, size_t size, size_t at, size_t n,
			  const char *err,
			  int (*taken)(const char *line, size_t len, void *ctx),
			  void *ctx)
{
	const char *nl;
	char where[32];
	size_t len;

	snprintf(where, sizeof(where), "fuzz:%zu: ", n + 1);
	if (strncmp(err, where, strlen(where)) || at >= size)
		abort();
	nl = memchr(s + at, '\n', size - at);
	len = nl ? (size_t)(nl - (s + at)) : size - at;
	if (nl && len + 1 <= KMAP_LINE_MAX && taken(s + at, len, ctx))
		abort();
}

/* The next line of s from *at, without its newline; abort when none. */
static size_t next_line(const char *s, size_t size, size_t *at)
{
	const char *nl = memchr(s + *at, '\n', size - *at);
	size_t len;

	if (!nl)
		abort();
	len = nl - (s + *at);
	if (len + 1 > KMAP_LINE_MAX)
		abort();
	*at += len + 1;
	return len;
}

/* A calls line the reader should have taken: parses, of the file's format. */
static int call_taken(const char *line, size_t len, void *ctx)
{
	const int *first_fork = ctx;
	char err[KMAP_ERR_MAX];
	struct kmap_call c;
	int fork;

	return !kmap_parse_call(line, len, &c, &fork, err) &&
	       (*first_fork < 0 || fork == *first_fork);
}

static void fuzz_calls(const unsigned char *data, size_t size)
{
	static union rec e[MAX_RECS], sum[MAX_RECS];
	char err[KMAP_ERR_MAX], perr[KMAP_ERR_MAX];
	const char *s = (const char *)data;
	const struct kmap_call *l;
	struct kmap_calls *t;
	struct kmap_call c;
	size_t n, m, i, at = 0, len;
	int rc, fork, first_fork = -1;

	rc = read_both(KMAP_FMT_CALLS, data, size, e, &n, err);
	/* Each edge is its line's, as kmap_parse_call() reads it. */
	for (i = 0; i < n; i++) {
		if (!e[i].c.caller || !e[i].c.callee || !e[i].c.count ||
		    (e[i].c.pid >= KMAP_PID_MAX &&
		     e[i].c.pid != KMAP_CALL_PID_UNKNOWN))
			abort();
		len = next_line(s, size, &at);
		if (kmap_parse_call(s + at - len - 1, len, &c, &fork, perr) ||
		    !same_call(&c, &e[i].c) ||
		    fork != (e[i].c.pid == KMAP_CALL_PID_UNKNOWN) ||
		    (first_fork >= 0 && fork != first_fork))
			abort();
		first_fork = fork;
	}
	if (!rc && at != size)
		abort();	/* the end is the input's */
	if (rc < 0)
		check_refused(s, size, at, n, err, call_taken, &first_fork);

	t = kmap_calls_new();
	if (!t)
		abort();
	for (i = 0; i < n; i++)
		if (kmap_calls_add(t, &e[i].c))
			abort();
	check_table(t, e, n);
	m = kmap_calls_list(t, &l);
	for (i = 0; i < m; i++)
		sum[i].c = l[i];
	check_src(KMAP_FMT_CALLS, data, size, sum, m, rc, err);
	kmap_calls_free(t);
}

/* A frames line the reader should have taken: parses, a new cell. */
struct cells {
	const union rec *c;
	size_t n;
};

static int frame_taken(const char *line, size_t len, void *ctx)
{
	const struct cells *cs = ctx;
	char err[KMAP_ERR_MAX];
	struct kmap_frame f;
	size_t i;

	if (kmap_parse_frame(line, len, &f, err))
		return 0;
	for (i = 0; i < cs->n; i++)
		if (same_cell_key(&cs->c[i].f, &f))
			return 0;
	return 1;
}

static void fuzz_frames(const unsigned char *data, size_t size)
{
	static union rec e[MAX_RECS];
	char err[KMAP_ERR_MAX], perr[KMAP_ERR_MAX];
	const char *s = (const char *)data;
	struct cells cs = { e, 0 };
	struct kmap_frame f;
	size_t n, i, j, at = 0, len;
	int rc;

	rc = read_both(KMAP_FMT_FRAMES, data, size, e, &n, err);
	/* Each cell is its line's, as kmap_parse_frame() reads it. */
	for (i = 0; i < n; i++) {
		if (!e[i].f.frame || !e[i].f.ip || e[i].f.pid >= KMAP_PID_MAX ||
		    e[i].f.writes > UINT32_MAX || e[i].f.reads > UINT32_MAX ||
		    !(e[i].f.writes | e[i].f.reads))
			abort();
		for (j = 0; j < i; j++)
			if (same_cell_key(&e[j].f, &e[i].f))
				abort();
		len = next_line(s, size, &at);
		if (kmap_parse_frame(s + at - len - 1, len, &f, perr) ||
		    !same_cell(&f, &e[i].f))
			abort();
	}
	if (!rc && at != size)
		abort();	/* the end is the input's */
	if (rc < 0) {
		cs.n = n;
		check_refused(s, size, at, n, err, frame_taken, &cs);
	}
	if (n)
		check_frames_table(e, n);
	check_src(KMAP_FMT_FRAMES, data, size, e, n, rc, err);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	if (size > 6 * MAX_RECS)
		return 0;
	check_guess(data, size);
	fuzz_calls(data, size);
	fuzz_frames(data, size);
	return 0;
}
