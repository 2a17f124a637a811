// SPDX-License-Identifier: GPL-2.0
/*
 * libkmap: whole objects with their accesses, from a text kmap or a binary
 * stream (optionally zstd-compressed). See kmap.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <linux/memorizer.h>

#include "kmap.h"
#include "kmap_inline.h"
#include "mtrace_log.h"

#ifdef KMAP_ZSTD
#include <zstd.h>
#endif

/* Bounds on what one input can make us hold. */
#define MAX_ACCESSES	(1u << 24)	/* access lines of one object */
#define MAX_LIVE	(1u << 24)	/* objects live at once (binary) */
/*
 * A stream's CPUs write apart and a collector interleaves their records,
 * so an object's ALLOC may come after its other records, but not by more
 * than this many bytes of stream: an object whose first record is further
 * back with no ALLOC yet was allocated before the stream began (an orphan).
 * Its records are dropped and counted, so a stream that starts mid-run is
 * read in memory bounded by this window, not by its length.
 */
#define ORPHAN_WINDOW	(16ull << 20)	/* at least; 4 MiB per CPU */
#define ORPHAN_SWEEP	(1u << 16)	/* records between looks for them */

struct entry {
	struct kmap_object o;
	struct kmap_access *acc;
	size_t nacc, cap;
	int have_alloc;
	uint64_t alloc_offset;
	uint64_t first_offset;		/* of its first record */
	/* ACCESS records read, and how many its FREE says there are. */
	uint32_t nr_access, nr_access_all;
};

struct acc_key;

struct kmap_src {
	FILE *f;
	int own_f;
	char name[256];
	enum kmap_format fmt;
	unsigned char peek[16];		/* the input's first bytes */
	size_t npeek, peek_pos;
	kmap_read_fn dec;		/* raw_read, or zstd_read */
	/* the first bytes dec gave: 16, and a text's whole first line */
	unsigned char head[KMAP_LINE_MAX];
	size_t nhead, head_pos;
	uint64_t raw_in, raw_size;	/* bytes read, of a file's size */
	uint64_t lines;			/* of function_calls, stack_frames */
	kmap_progress_fn progress;	/* kmap_src_on_progress(); NULL once */
	void *progress_ctx;		/* it has been told the end or stop */
#ifdef KMAP_ZSTD
	ZSTD_DStream *zd;
	unsigned char *zin;
	ZSTD_inBuffer zib;
	size_t zret;
	int zeof;
#endif
	/* text */
	struct kmap_text_reader *tr;
	struct kmap_object tobj[2];	/* the object handed out, the next */
	int pend;			/* tobj[pend]: the next one, read */
	unsigned long pending_line;
	int have_pending;
	struct kmap_live *live;		/* live objects, for the overlap rule */
	size_t nlive, live_cap;
	/* mtrace log: records, no objects */
	struct kmap_mtrace_reader *mr;
	/* function_calls: edges, no objects; and the edges read */
	struct kmap_calls_reader *cr;
	struct kmap_calls *calls;
	/* stack_frames: cells, no objects (the reader keeps them) */
	struct kmap_frames_reader *fr;
	/* binary */
	struct kmap_bin_reader *br;
	struct kmap_map ids;		/* id -> entries index */
	struct entry *ent;
	size_t nent, ent_cap;
	size_t *freelist;
	size_t nfree, free_cap;
	size_t emitted;			/* entry to recycle, or -1 */
	size_t unallocated;		/* entries of ids without their ALLOC */
	size_t last_ent;		/* the entry last looked up, or -1 */
	int at_end;
	size_t end_pos;
	uint64_t lost, lost_frees, orphans;
	struct kmap_map gone;		/* orphans given up: id -> first offset */
	uint64_t since_sweep;
	struct kmap_bin_rules *rules;
	/* the object handed out: *outp (&out, or a tobj) */
	struct kmap_object out, *outp;
	struct kmap_access *acc;
	size_t nacc, acc_cap;
	struct kmap_access *tmp;	/* for sorting acc */
	size_t tmp_cap;
	struct acc_key *keys;		/* for sorting acc: 2 nacc */
	size_t keys_cap;
	int any_order;			/* kmap_src_any_order() */
	int ended;			/* kmap_src_next() returned 0 */
	char err[KMAP_ERR_MAX];
};

/* Up to len of the bytes of from[*pos .. n) into buf; how many. */
static size_t drain(const unsigned char *from, size_t n, size_t *pos,
		    void *buf, size_t len)
{
	size_t k = n - *pos < len ? n - *pos : len;

	memcpy(buf, from + *pos, k);
	*pos += k;
	return k;
}

static long raw_read(void *ctx, void *buf, size_t len)
{
	struct kmap_src *s = ctx;
	size_t n;

	if (s->peek_pos < s->npeek) {
		n = drain(s->peek, s->npeek, &s->peek_pos, buf, len);
		s->raw_in += n;
		return (long)n;
	}
	n = fread(buf, 1, len, s->f);
	if (n == 0 && ferror(s->f))
		return -1;
	s->raw_in += n;
	return (long)n;
}

#ifdef KMAP_ZSTD
#define ZIN_SIZE (128 * 1024)
static long zstd_read(void *ctx, void *buf, size_t len)
{
	struct kmap_src *s = ctx;
	ZSTD_outBuffer ob = { buf, len, 0 };

	while (ob.pos == 0) {
		if (s->zib.pos == s->zib.size) {
			long n;

			if (s->zeof)
				break;
			n = raw_read(s, s->zin, ZIN_SIZE);
			if (n < 0)
				return -1;
			if (n == 0) {
				s->zeof = 1;
				break;
			}
			s->zib.src = s->zin;
			s->zib.size = n;
			s->zib.pos = 0;
		}
		s->zret = ZSTD_decompressStream(s->zd, &ob, &s->zib);
		if (ZSTD_isError(s->zret)) {
			snprintf(s->err, sizeof(s->err), "%s: zstd: %s", s->name,
				 ZSTD_getErrorName(s->zret));
			errno = EINVAL;
			return -1;
		}
	}
	if (ob.pos == 0 && s->zeof && s->zret != 0) {
		snprintf(s->err, sizeof(s->err),
			 "%s: zstd: compressed stream cut short", s->name);
		errno = EINVAL;
		return -1;
	}
	return (long)ob.pos;
}
#endif

/*
 * Whether buf starts with a whole line that is a call edge's: 4 fields
 * between commas, or no comma and 3 between spaces (kmap_guess_format()).
 */
static int calls_line(const void *buf, size_t len)
{
	const char *p = buf, *nl = memchr(buf, '\n', len);
	size_t n, i, commas = 0, spaces = 0;
	struct kmap_call c;
	char err[KMAP_ERR_MAX];
	int fork;

	if (!nl || nl == p || p[0] == ' ')
		return 0;
	n = (size_t)(nl - p);
	for (i = 0; i < n; i++) {
		commas += p[i] == ',';
		spaces += p[i] == ' ';
	}
	if (!(commas == 3 && !spaces) && !(!commas && spaces == 2))
		return 0;
	return !kmap_parse_call(p, n, &c, &fork, err);
}

/*
 * Whether buf starts with a whole line of a stack frame cell's shape: 5
 * fields between commas, none empty, hex digits and x in the first two,
 * decimal digits and - in the rest, at most KMAP_LINE_MAX bytes with its
 * newline, as kmap_src sees first lines (kmap_guess_format()).
 */
static int frames_line(const void *buf, size_t len)
{
	const char *p = buf, *nl = memchr(buf, '\n', len);
	size_t n, i, field = 0, flen = 0;

	if (!nl || nl - p >= KMAP_LINE_MAX)
		return 0;
	n = (size_t)(nl - p);
	for (i = 0; i <= n; i++, flen++) {
		char c = i < n ? p[i] : ',';

		if (c == ',') {
			if (!flen || ++field > 5)
				return 0;
			flen = (size_t)-1;
		} else if (!((c >= '0' && c <= '9') ||
			     (field < 2 ? (c >= 'a' && c <= 'f') ||
					  (c >= 'A' && c <= 'F') ||
					  c == 'x' || c == 'X' :
					  c == '-'))) {
			return 0;
		}
	}
	return field == 5;
}

enum kmap_format kmap_guess_format(const void *buf, size_t len)
{
	static const unsigned char zmagic[4] = { 0x28, 0xb5, 0x2f, 0xfd };
	const unsigned char *p = buf;
	size_t i;

	if (len >= 4 && !memcmp(p, zmagic, 4))
		return KMAP_FMT_BINARY_ZSTD;
	if (len >= 8 && !memcmp(p, MEMORIZER_STREAM_MAGIC, 8))
		return KMAP_FMT_BINARY;
	if (len >= 8 && !memcmp(p, MTRACE_LOG_MAGIC, 8))
		return KMAP_FMT_MTRACE;
	for (i = 0; i < len && i < 16; i++)
		if ((p[i] < 0x20 && p[i] != '\n') || p[i] >= 0x7f)
			return KMAP_FMT_BINARY;
	return calls_line(buf, len) ? KMAP_FMT_CALLS :
	       frames_line(buf, len) ? KMAP_FMT_FRAMES : KMAP_FMT_TEXT;
}

static struct kmap_src *src_open(FILE *f, int own, const char *name, char *err);

struct kmap_src *kmap_src_open(const char *path, char *err)
{
	FILE *f;

	if (!strcmp(path, "-"))
		return src_open(stdin, 0, "<stdin>", err);
	f = kmap_fopen(path, err);
	if (!f)
		return NULL;
	return src_open(f, 1, path, err);
}

struct kmap_src *kmap_src_open_file(FILE *f, const char *name, char *err)
{
	return src_open(f, 0, name, err);
}

/* The first (up to 16) decoded bytes, to tell the format from. */
static int fill_head(struct kmap_src *s, size_t want)
{
	while (s->nhead < want) {
		long n = s->dec(s, s->head + s->nhead, want - s->nhead);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		s->nhead += n;
		if (want > 16 && memchr(s->head, '\n', s->nhead))
			break;
	}
	return 0;
}

/* The last call to s's progress function: the end, or a stop. */
static void progress_last(struct kmap_src *s, enum kmap_progress what)
{
	kmap_progress_fn fn = s->progress;

	s->progress = NULL;
	if (fn)
		fn(s->progress_ctx, s, what);
}

/*
 * What the readers read: the head, then the rest from dec. Every reader
 * under s reads through here, and tells its clean end here (len 0), so
 * progress is told here.
 */
static long src_read(void *ctx, void *buf, size_t len)
{
	struct kmap_src *s = ctx;
	long n;

	if (!len) {
		progress_last(s, KMAP_PROGRESS_END);
		return 0;
	}
	if (s->head_pos < s->nhead)
		return (long)drain(s->head, s->nhead, &s->head_pos, buf, len);
	n = s->dec(s, buf, len);
	if (s->progress)
		s->progress(s->progress_ctx, s, KMAP_PROGRESS_READ);
	return n;
}

static struct kmap_src *src_open(FILE *f, int own, const char *name, char *err)
{
	struct kmap_src *s = calloc(1, sizeof(*s));
	struct stat st;

	if (!s) {
		snprintf(err, KMAP_ERR_MAX, "out of memory");
		if (own)
			fclose(f);
		return NULL;
	}
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->f = f;
	s->own_f = own;
	if (!fstat(fileno(f), &st) && S_ISREG(st.st_mode))
		s->raw_size = (uint64_t)st.st_size;
	s->npeek = fread(s->peek, 1, sizeof(s->peek), s->f);
	s->emitted = (size_t)-1;
	s->last_ent = (size_t)-1;
	s->dec = raw_read;
	kmap_map_init(&s->ids);
	if (kmap_guess_format(s->peek, s->npeek) == KMAP_FMT_BINARY_ZSTD) {
#ifdef KMAP_ZSTD
		s->zd = ZSTD_createDStream();
		s->zin = malloc(ZIN_SIZE);
		if (!s->zd || !s->zin) {
			snprintf(err, KMAP_ERR_MAX, "out of memory");
			kmap_src_close(s);
			return NULL;
		}
		ZSTD_initDStream(s->zd);
		s->dec = zstd_read;
#else
		snprintf(err, KMAP_ERR_MAX,
			 "%s: zstd-compressed, and this memorizer was built without zstd",
			 s->name);
		kmap_src_close(s);
		return NULL;
#endif
	}
	/* The format is the decoded bytes': a text kmap may be compressed. */
	/*
	 * 16 bytes tell a stream from text; then text's first line tells a
	 * kmap from function_calls and stack_frames.
	 */
	if (fill_head(s, 16) ||
	    (kmap_guess_format(s->head, s->nhead) == KMAP_FMT_TEXT &&
	     s->nhead == 16 && fill_head(s, sizeof(s->head)))) {
		snprintf(err, KMAP_ERR_MAX, "%s",
			 s->err[0] ? s->err : strerror(errno));
		kmap_src_close(s);
		return NULL;
	}
	s->fmt = kmap_guess_format(s->head, s->nhead);
	if (s->fmt == KMAP_FMT_BINARY_ZSTD)	/* compressed twice: not ours */
		s->fmt = KMAP_FMT_BINARY;
	if (s->fmt == KMAP_FMT_TEXT)
		s->tr = kmap_text_open_fn(src_read, s, s->name);
	else if (s->fmt == KMAP_FMT_MTRACE)
		s->mr = kmap_mtrace_open_fn(src_read, s, s->name);
	else if (s->fmt == KMAP_FMT_CALLS)
		s->cr = kmap_calls_open_fn(src_read, s, s->name);
	else if (s->fmt == KMAP_FMT_FRAMES)
		s->fr = kmap_frames_open_fn(src_read, s, s->name);
	else
		s->br = kmap_bin_open_fn(src_read, s, s->name);
	if (!s->tr && !s->br && !s->mr && !s->cr && !s->fr) {
		snprintf(err, KMAP_ERR_MAX, "out of memory");
		kmap_src_close(s);
		return NULL;
	}
	return s;
}

uint64_t kmap_src_progress(const struct kmap_src *s, uint64_t *size)
{
	*size = s->raw_size;
	return s->raw_in;
}

uint64_t kmap_src_records(const struct kmap_src *s, int *lines)
{
	*lines = !s->br && !s->mr;
	if (s->br)
		return kmap_bin_records(s->br);
	if (s->mr)
		return kmap_mtrace_records(s->mr);
	return s->tr ? kmap_text_line(s->tr) : s->lines;
}

void kmap_src_on_progress(struct kmap_src *s, kmap_progress_fn fn, void *ctx)
{
	s->progress = fn;
	s->progress_ctx = ctx;
}

struct kmap_text_reader *kmap_src_text(struct kmap_src *s)
{
	return s->tr;
}

struct kmap_mtrace_reader *kmap_src_mtrace(struct kmap_src *s)
{
	return s->mr;
}

struct kmap_bin_reader *kmap_src_bin(struct kmap_src *s)
{
	return s->br;
}

const struct kmap_calls *kmap_src_calls(const struct kmap_src *s)
{
	return s->calls;
}

/*
 * Every edge of a function_calls file into s->calls: 0, or -1 with the
 * error. The table is the source's, one for whatever brings edges.
 */
static int emit_oom(struct kmap_src *s);
static int calls_next(struct kmap_src *s)
{
	struct kmap_call c;
	int rc;

	if (!s->calls && !(s->calls = kmap_calls_new()))
		return emit_oom(s);
	while ((rc = kmap_calls_next(s->cr, &c)) == 1) {
		s->lines++;
		if (kmap_calls_add(s->calls, &c))
			return emit_oom(s);
	}
	if (rc < 0)
		snprintf(s->err, sizeof(s->err), "%s", kmap_calls_error(s->cr));
	return rc;
}

const struct kmap_frames *kmap_src_frames(const struct kmap_src *s)
{
	return s->fr ? kmap_frames_read(s->fr) : NULL;
}

/* Every cell of a stack_frames file, into its reader: 0, or -1. */
static int frames_next(struct kmap_src *s)
{
	struct kmap_frame f;
	int rc;

	while ((rc = kmap_frames_next(s->fr, &f)) == 1)
		s->lines++;
	if (rc < 0)
		snprintf(s->err, sizeof(s->err), "%s", kmap_frames_error(s->fr));
	return rc;
}

const char *kmap_src_name(const struct kmap_src *s)
{
	return s->name;
}

enum kmap_format kmap_src_format(const struct kmap_src *s)
{
	return s->fmt;
}

uint64_t kmap_src_lost(const struct kmap_src *s)
{
	return s->lost;
}

uint64_t kmap_src_orphans(const struct kmap_src *s)
{
	return s->orphans;
}

int kmap_src_offsets(const struct kmap_src *s)
{
	const struct memorizer_stream_header *h;

	if (s->tr)
		return kmap_text_offsets(s->tr);
	if (!s->br)
		return 0;
	h = kmap_bin_header(s->br);
	return h ? h->version >= KMAP_STREAM_VERSION_OFFSETS : -1;
}

unsigned int kmap_src_hz(const struct kmap_src *s)
{
	const struct memorizer_stream_header *h = s->br ? kmap_bin_header(s->br) : NULL;

	return h ? h->hz : 0;
}

const char *kmap_src_error(const struct kmap_src *s)
{
	return s->err;
}

/* The memory objects are assembled in (kmap_src_release()). */
static void free_objects(struct kmap_src *s)
{
	size_t i;

	for (i = 0; i < s->nent; i++)
		free(s->ent[i].acc);
	free(s->ent);
	free(s->freelist);
	free(s->acc);
	free(s->tmp);
	free(s->keys);
	free(s->live);
	s->ent = NULL;
	s->freelist = NULL;
	s->acc = NULL;
	s->tmp = NULL;
	s->keys = NULL;
	s->live = NULL;
	s->nent = s->ent_cap = s->nfree = s->free_cap = 0;
	s->nacc = s->acc_cap = s->tmp_cap = s->keys_cap = 0;
	s->nlive = s->live_cap = 0;
	kmap_map_free(&s->ids);
	kmap_map_free(&s->gone);
}

void kmap_src_release(struct kmap_src *s)
{
	if (s->ended)
		free_objects(s);
}

void kmap_src_close(struct kmap_src *s)
{
	if (!s)
		return;
	progress_last(s, KMAP_PROGRESS_STOP);
	kmap_text_close(s->tr);
	kmap_bin_close(s->br);
	kmap_mtrace_close(s->mr);
	kmap_calls_close(s->cr);
	kmap_calls_free(s->calls);
	kmap_frames_close(s->fr);
	free_objects(s);
	kmap_bin_rules_free(s->rules);
#ifdef KMAP_ZSTD
	if (s->zd)
		ZSTD_freeDStream(s->zd);
	free(s->zin);
#endif
	if (s->own_f)
		fclose(s->f);
	free(s);
}

static inline int push_acc(struct kmap_access **acc, size_t *n, size_t *cap,
			   const struct kmap_access *a)
{
	if (*n >= MAX_ACCESSES)
		return -2;
	if (kmap_grow((void **)acc, cap, *n + 1, sizeof(**acc)))
		return -1;
	(*acc)[(*n)++] = *a;
	return 0;
}

static int push_live(struct kmap_src *s, const struct kmap_live *l)
{
	if (s->nlive >= MAX_LIVE) {
		snprintf(s->err, sizeof(s->err),
			 "%s: more than %u objects live at once", s->name,
			 MAX_LIVE);
		return -1;
	}
	if (kmap_grow((void **)&s->live, &s->live_cap, s->nlive + 1,
		      sizeof(*s->live))) {
		snprintf(s->err, sizeof(s->err), "%s: out of memory", s->name);
		return -1;
	}
	s->live[s->nlive++] = *l;
	return 0;
}

/*
 * The overlap rule over the live objects collected, at the end of the
 * input: -1 with the first overlap (by address) as the error, else 0.
 */
static int check_overlaps(struct kmap_src *s, int binary)
{
	size_t pair[1][2];
	char what[KMAP_ERR_MAX];

	if (!kmap_rule_overlaps(s->live, s->nlive, pair, 1))
		return 0;
	kmap_rule_overlap_message(&s->live[pair[0][0]], &s->live[pair[0][1]],
				  binary, what);
	if (binary)
		snprintf(s->err, sizeof(s->err), "%.200s: byte %llu: %.280s",
			 s->name, (unsigned long long)s->live[pair[0][1]].where,
			 what);
	else
		snprintf(s->err, sizeof(s->err), "%.200s:%llu: %.280s", s->name,
			 (unsigned long long)s->live[pair[0][1]].where, what);
	return -1;
}

/* A rule broken at text line: the error is s->err, and -1. */
static int text_rule_error(struct kmap_src *s, unsigned long line,
			   const char *what)
{
	snprintf(s->err, sizeof(s->err), "%.200s:%lu: %.280s", s->name, line, what);
	return -1;
}

/* The object read ahead, not handed out yet. */
static struct kmap_object *pending(struct kmap_src *s)
{
	return &s->tobj[s->pend];
}

/* The object just read (pending()), under the rules. */
static int text_object_rules(struct kmap_src *s)
{
	char what[KMAP_ERR_MAX];

	const struct kmap_object *o = pending(s);

	if (kmap_rule_object(o, what) == KMAP_RULE_ERROR)
		return text_rule_error(s, s->pending_line, what);
	if (!kmap_object_freed(o)) {
		struct kmap_live l = { o->addr, o->size, s->pending_line };

		return push_live(s, &l);
	}
	return 0;
}

/* The object handed out (s->out, line obj_line): no (ip, pid) twice. */
static int text_dup_rule(struct kmap_src *s, unsigned long obj_line)
{
	size_t pair[1][2];
	char what[KMAP_ERR_MAX];
	long n = kmap_rule_dups(s->acc, s->nacc, pair, 1);

	if (n < 0) {
		snprintf(s->err, sizeof(s->err), "%s: out of memory", s->name);
		return -1;
	}
	if (n == 0)
		return 0;
	snprintf(what, sizeof(what),
		 "access (%llx, pid %u) repeats line %lu under the same object",
		 (unsigned long long)s->acc[pair[0][1]].ip,
		 s->acc[pair[0][1]].pid, obj_line + 1 + pair[0][0]);
	return text_rule_error(s, obj_line + 1 + pair[0][1], what);
}

static int sort_merge(struct kmap_src *s);

static int text_next(struct kmap_src *s)
{
	struct kmap_access a;
	unsigned long obj_line;
	char what[KMAP_ERR_MAX];
	int t, sorted = 1;	/* the accesses so far in (ip, pid) order */

	if (!s->have_pending) {
		t = kmap_text_next(s->tr, pending(s), &a);
		if (t <= 0)
			goto done;
		s->pending_line = kmap_text_line(s->tr);
		if (text_object_rules(s))
			return -1;
		s->have_pending = 1;
	}
	/* Hand the one read out; read the next into the other. */
	s->outp = pending(s);
	s->pend ^= 1;
	obj_line = s->pending_line;
	s->nacc = 0;
	s->have_pending = 0;
	for (;;) {
		/* Access lines straight into the array while it has room. */
		struct kmap_access *slot;
		size_t room = s->acc_cap - s->nacc, n, i;
		int rc;

		/*
		 * Most of them: all of an object's in one call (none before
		 * the array is made: no room, and no pointer to offset).
		 */
		if (room > MAX_ACCESSES - s->nacc)
			room = MAX_ACCESSES - s->nacc;
		n = s->acc ? kmap_text_accesses(s->tr, s->acc + s->nacc, room) : 0;
		for (i = s->nacc; i < s->nacc + n; i++) {
			if (!kmap_access_ok(&s->acc[i])) {
				kmap_rule_access(&s->acc[i], what);
				return text_rule_error(s, kmap_text_line(s->tr) -
						       n + 1 + (i - s->nacc), what);
			}
			sorted = sorted && (!i || kmap_access_before(&s->acc[i - 1],
								     &s->acc[i]));
		}
		s->nacc += n;
		slot = s->nacc < s->acc_cap ? &s->acc[s->nacc] : &a;
		t = kmap_text_next(s->tr, pending(s), slot);
		if (t != KMAP_LINE_ACCESS)
			break;
		if (kmap_rule_access(slot, what) == KMAP_RULE_ERROR)
			return text_rule_error(s, kmap_text_line(s->tr), what);
		if (slot == &a &&
		    (rc = push_acc(&s->acc, &s->nacc, &s->acc_cap, &a))) {
			snprintf(s->err, sizeof(s->err), "%s:%lu: %s", s->name,
				 kmap_text_line(s->tr),
				 rc == -2 ? "more than 16777216 access lines for one object"
					  : "out of memory");
			return -1;
		}
		if (slot != &a)
			s->nacc++;
		sorted = sorted && (s->nacc < 2 ||
				    kmap_access_before(&s->acc[s->nacc - 2],
						       &s->acc[s->nacc - 1]));
	}
	/*
	 * In order, none repeats: the rule need not look (it would not). The
	 * fork's are in no order and may repeat (kmap.h): merged.
	 */
	if (!sorted && kmap_text_fork(s->tr) == 1) {
		if (sort_merge(s)) {
			snprintf(s->err, sizeof(s->err), "%s: out of memory",
				 s->name);
			return -1;
		}
	} else if (!sorted && text_dup_rule(s, obj_line)) {
		return -1;
	}
	if (t == KMAP_LINE_OBJECT) {
		s->pending_line = kmap_text_line(s->tr);
		if (text_object_rules(s))
			return -1;
		s->have_pending = 1;
		return 1;
	}
	if (t == 0)
		return check_overlaps(s, 0) ? -1 : 1;
	t = -1;
done:
	if (t == 0 && check_overlaps(s, 0))
		return -1;
	if (t < 0 && !s->err[0])
		snprintf(s->err, sizeof(s->err), "%s", kmap_text_error(s->tr));
	return t < 0 ? -1 : 0;
}

/* Binary: assemble objects by id. */

static struct entry *entry_find(struct kmap_src *s, uint64_t id, int *is_new);

/* id's entry, made when new (*is_new); NULL with the error set. */
static inline struct entry *entry_for(struct kmap_src *s, uint64_t id,
				      int *is_new)
{
	*is_new = 0;
	/* An object's records often come together: its entry again. */
	if (s->last_ent != (size_t)-1 && s->ent[s->last_ent].o.id == id)
		return &s->ent[s->last_ent];
	return entry_find(s, id, is_new);
}

static struct entry *entry_find(struct kmap_src *s, uint64_t id, int *is_new)
{
	uint64_t *slot;
	size_t i;
	int fresh;

	/* One lookup: its entry's index, or the slot a new one takes. */
	slot = kmap_map_get(&s->ids, id, &fresh);
	if (!slot)
		goto oom;
	if (!fresh) {
		s->last_ent = *slot;
		return &s->ent[*slot];
	}
	if (s->ids.len > MAX_LIVE) {
		snprintf(s->err, sizeof(s->err),
			 "%s: byte %llu: more than %u objects live at once",
			 s->name, (unsigned long long)kmap_bin_offset(s->br),
			 MAX_LIVE);
		return NULL;
	}
	if (s->nfree) {
		i = s->freelist[--s->nfree];
	} else {
		if (kmap_grow((void **)&s->ent, &s->ent_cap, s->nent + 1,
			      sizeof(*s->ent)))
			goto oom;
		i = s->nent++;
		s->ent[i].acc = NULL;
		s->ent[i].cap = 0;
	}
	*slot = i;
	s->ent[i].first_offset = kmap_bin_offset(s->br);
	memset(&s->ent[i].o, 0, sizeof(s->ent[i].o));
	s->ent[i].o.id = id;
	s->ent[i].nacc = 0;
	s->ent[i].have_alloc = 0;
	s->unallocated++;
	s->ent[i].nr_access = s->ent[i].nr_access_all = 0;
	*is_new = 1;
	s->last_ent = i;
	return &s->ent[i];
oom:
	snprintf(s->err, sizeof(s->err), "%s: out of memory", s->name);
	return NULL;
}

static void release(struct kmap_src *s, size_t i)
{
	if (s->last_ent == i)
		s->last_ent = (size_t)-1;
	if (kmap_grow((void **)&s->freelist, &s->free_cap, s->nfree + 1,
		      sizeof(*s->freelist)))
		return;	/* the slot is only leaked until close */
	s->freelist[s->nfree++] = i;
}

static int acc_cmp(const void *a, const void *b)
{
	const struct kmap_access *x = a, *y = b;

	if (x->ip != y->ip)
		return x->ip < y->ip ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/*
 * A counter's place in the sort: (ip, pid) and its index, so that keys
 * are distinct and sort as the counters do, stably; 16 bytes to move
 * rather than a counter's 40.
 */
struct acc_key {
	uint64_t ip;
	uint64_t pid_idx;		/* pid << 32 | index */
};

static inline int key_less(const struct acc_key *x, const struct acc_key *y)
{
	return x->ip < y->ip || (x->ip == y->ip && x->pid_idx < y->pid_idx);
}

/* Sort k[0 .. n) through tmp: returns k or tmp, where they are. */
KMAP_DEFINE_SORT(sort_keys, struct acc_key, key_less, 8)

void kmap_access_merge(struct kmap_access *a, const struct kmap_access *b)
{
	a->writes = kmap_add_sat(a->writes, b->writes);
	a->reads = kmap_add_sat(a->reads, b->reads);
	if (!b->offset_end)		/* none known */
		return;
	if (!a->offset_end || b->offset < a->offset)
		a->offset = b->offset;
	if (b->offset_end > a->offset_end)
		a->offset_end = b->offset_end;
}

static int emit_oom(struct kmap_src *s)
{
	snprintf(s->err, sizeof(s->err), "%s: out of memory", s->name);
	return -1;
}

/*
 * s->acc out of order: sorted by (ip, pid), stably, and repeated (ip, pid)
 * counters merged, into s->tmp, which then becomes s->acc. The keys are
 * sorted, and each counter moved once (moving them n log n times was
 * much of reading a stream). 0, or -1 out of memory.
 */
static int sort_merge(struct kmap_src *s)
{
	size_t n = s->nacc, i, j;
	struct acc_key *k;
	struct kmap_access *t, *out;

	if (kmap_grow((void **)&s->keys, &s->keys_cap, 2 * n,
		      sizeof(*s->keys)) ||
	    kmap_grow((void **)&s->tmp, &s->tmp_cap, n, sizeof(*s->tmp)))
		return -1;
	for (i = 0; i < n; i++)
		s->keys[i] = (struct acc_key){ s->acc[i].ip,
			(uint64_t)s->acc[i].pid << 32 | i };
	k = sort_keys(s->keys, s->keys + n, n);
	out = s->tmp;
	out[0] = s->acc[(uint32_t)k[0].pid_idx];
	for (i = 1, j = 0; i < n; i++) {
		const struct kmap_access *a = &s->acc[(uint32_t)k[i].pid_idx];

		if (a->ip == out[j].ip && a->pid == out[j].pid)
			kmap_access_merge(&out[j], a);
		else
			out[++j] = *a;
	}
	t = s->acc;
	s->acc = s->tmp;
	s->tmp = t;
	i = s->acc_cap;
	s->acc_cap = s->tmp_cap;
	s->tmp_cap = i;
	s->nacc = j + 1;
	return 0;
}

void kmap_src_any_order(struct kmap_src *s)
{
	s->any_order = 1;
}

/*
 * s->acc out of order, for kmap_src_any_order(): repeated (ip, pid)
 * counters merged into the first one's place, through a hash set of
 * indexes on the stack (a sort's branches, which way each comparison
 * goes, mispredicted half the time: most of emit()'s time). For up to
 * MERGE_MAX counters; 0, or -1 for more (then sorted).
 */
#define MERGE_MAX	512
static int hash_merge(struct kmap_src *s)
{
	uint16_t set[4 * MERGE_MAX];
	size_t n = s->nacc, i, j, bits = 6, mask;

	if (n > MERGE_MAX)
		return -1;
	while ((1u << bits) < 4 * n)
		bits++;
	mask = ((size_t)1 << bits) - 1;
	memset(set, 0xff, (mask + 1) * sizeof(set[0]));
	for (i = j = 0; i < n; i++) {
		const struct kmap_access *a = &s->acc[i];
		size_t h = (size_t)(((a->ip ^ (uint64_t)a->pid << 40) *
				     0x9e3779b97f4a7c15ull) >> (64 - bits));

		for (; set[h] != 0xffff; h = (h + 1) & mask)
			if (s->acc[set[h]].ip == a->ip &&
			    s->acc[set[h]].pid == a->pid)
				break;
		if (set[h] != 0xffff) {
			kmap_access_merge(&s->acc[set[h]], a);
			continue;
		}
		set[h] = (uint16_t)j;
		if (j != i)
			s->acc[j] = *a;
		j++;
	}
	s->nacc = j;
	return 0;
}

/* Hand entry i out: merge repeated (ip, pid) counters, resolve the cache. */
static int emit(struct kmap_src *s, size_t i)
{
	struct entry *e = &s->ent[i];
	size_t j, k;

	s->out = e->o;
	s->outp = &s->out;
	if ((e->o.has & KMAP_HAS_CACHE) && e->o.cache_id)
		s->out.cache = kmap_bin_cache_name(s->br, e->o.cache_id);
	/* Swap the access arrays: the entry keeps the old output buffer. */
	{
		struct kmap_access *t = s->acc;
		size_t c = s->acc_cap;

		s->acc = e->acc;
		s->acc_cap = e->cap;
		s->nacc = e->nacc;
		e->acc = t;
		e->cap = c;
		e->nacc = 0;
	}
	if (s->nacc < 2)
		return 1;
	for (k = 1; k < s->nacc && !kmap_access_before(&s->acc[k], &s->acc[k - 1]); k++)
		;
	if (k < s->nacc && s->any_order && !hash_merge(s))
		return 1;
	if (k < s->nacc)	/* out of order */
		return sort_merge(s) ? emit_oom(s) : 1;
	for (j = 0, k = 1; k < s->nacc; k++) {
		if (!acc_cmp(&s->acc[j], &s->acc[k]))
			kmap_access_merge(&s->acc[j], &s->acc[k]);
		else
			s->acc[++j] = s->acc[k];
	}
	s->nacc = j + 1;
	return 1;
}

/*
 * Whether e's life is all read: its ALLOC and its FREE, and every ACCESS
 * record its FREE counts (a sweep of a live object may have written some
 * on another CPU, which a collector can put after the FREE).
 */
static int complete(const struct entry *e)
{
	return e->have_alloc && kmap_object_freed(&e->o) &&
	       e->nr_access >= e->nr_access_all;
}

/* Hand out e, whose life is all read, and forget its id. */
static int emit_complete(struct kmap_src *s, struct entry *e)
{
	s->emitted = e - s->ent;
	kmap_map_del(&s->ids, e->o.id);
	return emit(s, s->emitted);
}

/* A rule broken at the record at byte offset: the error is s->err, -1. */
static int bin_rule_error(struct kmap_src *s, uint64_t offset,
			  const char *what)
{
	snprintf(s->err, sizeof(s->err), "%.200s: byte %llu: %.280s", s->name,
		 (unsigned long long)offset, what);
	return -1;
}

/* The per-record rules; their warnings are memorizer check's to tell. */
static int bin_rules(struct kmap_src *s, const struct kmap_bin_rec *r)
{
	char what[KMAP_ERR_MAX];

	if (!s->rules) {
		s->rules = kmap_bin_rules_new(kmap_bin_header(s->br)->nr_cpus);
		if (!s->rules) {
			snprintf(s->err, sizeof(s->err), "%s: out of memory",
				 s->name);
			return -1;
		}
	}
	if (kmap_rule_bin_time(s->rules, r, what) == KMAP_RULE_ERROR ||
	    kmap_rule_bin(s->br, r, what) == KMAP_RULE_ERROR)
		return bin_rule_error(s, r->offset, what);
	return 0;
}

/* An access's offset_end within its object (the record at offset). */
static int bin_offset_end(struct kmap_src *s, uint64_t offset,
			  uint32_t offset_end, uint64_t size_alloc)
{
	char what[KMAP_ERR_MAX];

	if (kmap_rule_offset_end(offset_end, size_alloc, what) ==
	    KMAP_RULE_ERROR)
		return bin_rule_error(s, offset, what);
	return 0;
}

/* An object freed before its allocation (its ALLOC at alloc_offset). */
static int bin_free_time(struct kmap_src *s, const struct kmap_bin_rec *r,
			 uint64_t alloc_jiffies, uint64_t free_jiffies,
			 uint64_t alloc_offset)
{
	char what[KMAP_ERR_MAX], msg[KMAP_ERR_MAX];

	if (!kmap_rule_free_time(alloc_jiffies, free_jiffies, what))
		return 0;
	snprintf(msg, sizeof(msg), "%.300s (byte %llu)", what,
		 (unsigned long long)alloc_offset);
	return bin_rule_error(s, r->offset, msg);
}

/* An object of kind with a FREE record by api, at the record r. */
static int bin_freed(struct kmap_src *s, const struct kmap_bin_rec *r,
		     uint64_t id, unsigned int kind, unsigned int api)
{
	char what[KMAP_ERR_MAX];

	if (kmap_rule_bin_freed(kmap_bin_header(s->br)->version, id, kind,
				api, what) == KMAP_RULE_ERROR)
		return bin_rule_error(s, r->offset, what);
	return 0;
}

/*
 * At the end of the stream: no two live objects overlap, unless FREE
 * records were lost (an address may then be reused unseen).
 */
static int bin_end_rules(struct kmap_src *s)
{
	size_t i;

	if (s->lost_frees)
		return 0;
	for (i = 0; i < s->nent; i++) {
		const struct entry *e = &s->ent[i];
		uint64_t *slot = kmap_map_find(&s->ids, e->o.id);
		struct kmap_live l = { e->o.addr, e->o.size, e->alloc_offset };

		if (!slot || *slot != i || !e->have_alloc ||
		    kmap_object_freed(&e->o) || e->o.addr + e->o.size < e->o.addr)
			continue;
		if (push_live(s, &l))
			return -1;
	}
	return check_overlaps(s, 1);
}

static uint64_t orphan_window(const struct kmap_src *s)
{
	uint64_t w = (uint64_t)kmap_bin_header(s->br)->nr_cpus << 22;

	return w > ORPHAN_WINDOW ? w : ORPHAN_WINDOW;
}

/*
 * Give up the objects whose first record is more than ORPHAN_WINDOW bytes
 * back and still have no ALLOC: count them, remember their ids, drop
 * their records. Looked for every ORPHAN_SWEEP records, or half as many
 * as there are entries when more (entries come one a record at most: a
 * sweep every W records keeps at most 2 W): a constant cost per record.
 */
static int sweep_orphans(struct kmap_src *s, uint64_t offset)
{
	size_t i;

	if (++s->since_sweep < ORPHAN_SWEEP || 2 * s->since_sweep < s->ids.len)
		return 0;
	s->since_sweep = 0;
	/* None without an ALLOC: nothing to look at (every entry missed). */
	if (!s->unallocated)
		return 0;
	for (i = 0; i < s->nent; i++) {
		struct entry *e = &s->ent[i];
		uint64_t *slot;

		/* Its fields first: a lookup per entry missed the cache. */
		if (e->have_alloc || e->first_offset + orphan_window(s) > offset)
			continue;
		slot = kmap_map_find(&s->ids, e->o.id);
		if (!slot || *slot != i)
			continue;
		s->orphans++;
		slot = kmap_map_get(&s->gone, e->o.id, NULL);
		if (!slot) {
			snprintf(s->err, sizeof(s->err), "%s: out of memory",
				 s->name);
			return -1;
		}
		*slot = e->first_offset;
		kmap_map_del(&s->ids, e->o.id);
		s->unallocated--;
		e->nacc = 0;
		release(s, i);
	}
	return 0;
}

/*
 * A record of an orphan given up: counted and skipped (1); its ALLOC,
 * past the window, is an error (-1); any other record 0.
 */
static int gone_record(struct kmap_src *s, const struct kmap_bin_rec *r)
{
	uint64_t id, *first;

	if (!s->gone.len)
		return 0;
	if (r->type == MEMORIZER_REC_ALLOC)
		id = r->u.alloc.id;
	else if (r->type == MEMORIZER_REC_ACCESS)
		id = r->u.access.id;
	else if (r->type == MEMORIZER_REC_FREE)
		id = r->u.free.id;
	else
		return 0;
	first = kmap_map_find(&s->gone, id);
	if (!first)
		return 0;
	if (r->type != MEMORIZER_REC_ALLOC)
		return 1;
	snprintf(s->err, sizeof(s->err),
		 "%s: byte %llu: ALLOC of object id %llu more than %llu MiB after its first record (byte %llu): records out of order",
		 s->name, (unsigned long long)r->offset, (unsigned long long)id,
		 (unsigned long long)(orphan_window(s) >> 20),
		 (unsigned long long)*first);
	return -1;
}

/*
 * One record of each type into its object's entry: -1 on an error, 1 when
 * an object is out (its life all read), 0 to read on.
 */
static int on_alloc(struct kmap_src *s, const struct kmap_bin_rec *r)
{
	int is_new;
	struct entry *e;
	size_t i;

	e = entry_for(s, r->u.alloc.id, &is_new);
	if (!e)
		return -1;
	if (e->have_alloc) {
		snprintf(s->err, sizeof(s->err),
			 "%s: byte %llu: ALLOC of object id %llu, live since byte %llu",
			 s->name, (unsigned long long)r->offset,
			 (unsigned long long)r->u.alloc.id,
			 (unsigned long long)e->alloc_offset);
		return -1;
	}
	/* Its FREE may have come first, from another CPU. */
	if (kmap_object_freed(&e->o) &&
	    (bin_freed(s, r, r->u.alloc.id, r->u.alloc.kind,
		       e->o.free_api) ||
	     bin_free_time(s, r, r->u.alloc.jiffies,
			   e->o.free_jiffies, r->offset)))
		return -1;
	e->have_alloc = 1;
	s->unallocated--;
	e->alloc_offset = r->offset;
	e->o.alloc_ip = r->u.alloc.call_site;
	e->o.addr = r->u.alloc.addr;
	e->o.size = r->u.alloc.size;
	e->o.size_alloc = r->u.alloc.size_alloc;
	e->o.alloc_jiffies = r->u.alloc.jiffies;
	e->o.pid = r->u.alloc.pid;
	e->o.cache_id = r->u.alloc.cache_id;
	e->o.kind = r->u.alloc.kind;
	e->o.context = r->u.alloc.context;
	e->o.alloc_cpu = r->cpu;
	e->o.alloc_ns = r->ns;
	/* ACCESS records read before it, from another CPU. */
	for (i = 0; i < e->nacc; i++)
		if (bin_offset_end(s, r->offset, e->acc[i].offset_end,
				   e->o.size_alloc))
			return -1;
	e->o.has |= KMAP_HAS_SIZE_ALLOC | KMAP_HAS_KIND |
		    KMAP_HAS_CPU | KMAP_HAS_NS | KMAP_HAS_ID |
		    (r->u.alloc.cache_id ? KMAP_HAS_CACHE : 0);
	if (r->u.alloc.context == MEMORIZER_CONTEXT_HARDIRQ)
		strcpy(e->o.comm, "hardirq");
	else if (r->u.alloc.context == MEMORIZER_CONTEXT_SOFTIRQ)
		strcpy(e->o.comm, "softirq");
	else if (r->u.alloc.context == MEMORIZER_CONTEXT_FOUND &&
		 r->u.alloc.pid == 0)
		/*
		 * The kernel's word for the kind (the rules
		 * refuse a found kind without one).
		 */
		snprintf(e->o.comm, sizeof(e->o.comm), "%s",
			 kmap_found_word(r->u.alloc.kind) ?
			 kmap_found_word(r->u.alloc.kind) :
			 kmap_kind_name(r->u.alloc.kind));
	else	/* a task's, its found stack too */
		kmap_sanitize_comm(e->o.comm, r->u.alloc.comm,
				   sizeof(r->u.alloc.comm));
	if (!e->o.comm[0])
		strcpy(e->o.comm, "?");
	/* The FREE may come first, from another CPU. */
	if (complete(e))
		return emit_complete(s, e);
	return 0;
}

static int on_access(struct kmap_src *s, const struct kmap_bin_rec *r)
{
	struct kmap_access a = {
		.ip = r->u.access.ip, .pid = r->u.access.pid,
		.writes = r->u.access.writes, .reads = r->u.access.reads,
		.offset = r->u.access.offset,
		.offset_end = r->u.access.offset_end,
	};
	struct entry *e;
	int is_new, rc;

	e = entry_for(s, r->u.access.id, &is_new);
	if (!e)
		return -1;
	if (e->have_alloc &&
	    bin_offset_end(s, r->offset, a.offset_end, e->o.size_alloc))
		return -1;
	rc = push_acc(&e->acc, &e->nacc, &e->cap, &a);
	if (rc) {
		snprintf(s->err, sizeof(s->err), "%s: byte %llu: %s", s->name,
			 (unsigned long long)r->offset,
			 rc == -2 ? "more than 16777216 access counters for one object"
				  : "out of memory");
		return -1;
	}
	e->nr_access++;
	if (complete(e))
		return emit_complete(s, e);
	return 0;
}

static int on_free(struct kmap_src *s, const struct kmap_bin_rec *r)
{
	int is_new;
	struct entry *e;

	e = entry_for(s, r->u.free.id, &is_new);
	if (!e)
		return -1;
	if (kmap_object_freed(&e->o)) {
		snprintf(s->err, sizeof(s->err),
			 "%s: byte %llu: second FREE of object id %llu",
			 s->name, (unsigned long long)r->offset,
			 (unsigned long long)r->u.free.id);
		return -1;
	}
	if (e->have_alloc &&
	    (bin_freed(s, r, r->u.free.id, e->o.kind,
		       r->u.free.api) ||
	     bin_free_time(s, r, e->o.alloc_jiffies,
			   r->u.free.jiffies, e->alloc_offset)))
		return -1;
	e->o.free_ip = r->u.free.api == MEMORIZER_FREE_MISSED ?
		       KMAP_FREE_IP_MISSED : r->u.free.call_site;
	e->o.free_jiffies = r->u.free.jiffies;
	if (!kmap_object_freed(&e->o))
		e->o.free_ip = KMAP_FREE_IP_MISSED;
	e->o.free_api = r->u.free.api;
	e->o.free_cpu = r->cpu;
	e->o.free_ns = r->ns;
	e->o.has |= KMAP_HAS_FREE_API;
	e->nr_access_all = r->u.free.nr_access;
	if (complete(e))
		return emit_complete(s, e);
	return 0;
}

/* A CALL record: its calls into the source's edges (kmap_src_calls()). */
static int on_call(struct kmap_src *s, const struct kmap_bin_rec *r)
{
	struct kmap_call c = {
		.caller = r->u.call.caller, .callee = r->u.call.callee,
		.pid = (uint32_t)r->u.call.pid, .count = r->u.call.count,
	};

	if (!s->calls && !(s->calls = kmap_calls_new()))
		return emit_oom(s);
	return kmap_calls_add(s->calls, &c) ? emit_oom(s) : 0;
}

/*
 * After the ACCESS record r: the run of its object's ACCESS records that
 * follows, read in one call (kmap_bin_accesses()) into its entry, as
 * on_access() would each. Not for a freed object (one of them may
 * complete it), nor once orphans are given up (their records are
 * dropped); up to the record that may sweep for orphans, which goes the
 * whole way. Any record it leaves is read the whole way, errors and all.
 */
static void more_accesses(struct kmap_src *s, struct kmap_bin_rec *r)
{
	size_t sweep = ORPHAN_SWEEP > (s->ids.len + 1) / 2 ?
		       ORPHAN_SWEEP : (s->ids.len + 1) / 2;
	size_t room, n;
	char what[KMAP_ERR_MAX];
	uint64_t ns = r->ns;
	struct entry *e;

	if (s->last_ent == (size_t)-1 || s->gone.len ||
	    s->since_sweep + 1 >= sweep)
		return;
	e = &s->ent[s->last_ent];
	if (e->o.id != r->u.access.id || kmap_object_freed(&e->o) ||
	    e->nacc >= MAX_ACCESSES ||
	    kmap_grow((void **)&e->acc, &e->cap, e->nacc + 16, sizeof(*e->acc)))
		return;
	room = e->cap - e->nacc;
	if (room > MAX_ACCESSES - e->nacc)
		room = MAX_ACCESSES - e->nacc;
	if (room > sweep - 1 - s->since_sweep)
		room = sweep - 1 - s->since_sweep;
	n = kmap_bin_accesses(s->br, e->o.id, r->cpu, &ns,
			      e->have_alloc ? e->o.size_alloc : UINT64_MAX,
			      e->acc + e->nacc, room);
	if (!n)
		return;
	e->nacc += n;
	e->nr_access += n;
	s->since_sweep += n;
	/* The CPU's time is the run's last record's (no rule broken). */
	r->ns = ns;
	kmap_rule_bin_time(s->rules, r, what);
}

static int bin_next(struct kmap_src *s)
{
	struct kmap_bin_rec r;
	int rc;

	if (s->emitted != (size_t)-1) {
		release(s, s->emitted);
		s->emitted = (size_t)-1;
	}
	while (!s->at_end) {
		rc = kmap_bin_next(s->br, &r);
		if (rc < 0) {
			if (!s->err[0])
				snprintf(s->err, sizeof(s->err), "%s",
					 kmap_bin_error(s->br));
			return -1;
		}
		if (rc == 0) {
			s->at_end = 1;
			if (bin_end_rules(s))
				return -1;
			break;
		}
		if (bin_rules(s, &r) || sweep_orphans(s, r.offset))
			return -1;
		if (r.type == MEMORIZER_REC_CALL) {
			if (on_call(s, &r))
				return -1;
			continue;
		}
		rc = gone_record(s, &r);
		if (rc < 0)
			return -1;
		if (rc > 0)
			continue;
		if (r.type == MEMORIZER_REC_ALLOC)
			rc = on_alloc(s, &r);
		else if (r.type == MEMORIZER_REC_ACCESS)
			rc = on_access(s, &r);
		else if (r.type == MEMORIZER_REC_FREE)
			rc = on_free(s, &r);
		else
			rc = 0;
		if (rc)
			return rc;
		if (r.type == MEMORIZER_REC_ACCESS)
			more_accesses(s, &r);
		if (r.type == MEMORIZER_REC_LOST) {
			s->lost += r.u.lost.records;
			s->lost_frees += r.u.lost.frees;
		}
	}
	/* The end: the objects still live, in id order of the table. */
	while (s->end_pos < s->nent) {
		size_t i = s->end_pos++;
		uint64_t *slot;

		slot = kmap_map_find(&s->ids, s->ent[i].o.id);
		if (!slot || *slot != i)
			continue;
		if (!s->ent[i].have_alloc) {
			s->orphans++;
			continue;
		}
		s->ent[i].have_alloc = 0;
		return emit(s, i);
	}
	return 0;
}

int kmap_src_next(struct kmap_src *s, const struct kmap_object **obj,
		  const struct kmap_access **acc, size_t *nacc)
{
	int rc;

	if (s->mr) {
		snprintf(s->err, sizeof(s->err),
			 "%.200s: an mtrace log (the QEMU plugin's), not a kmap or a stream: memorizer text, check and sharing read it",
			 s->name);
		return -1;
	}
	if (s->ended)
		return 0;
	rc = s->cr ? calls_next(s) : s->fr ? frames_next(s) :
	     s->tr ? text_next(s) : bin_next(s);
	s->ended = rc == 0;
	if (rc == 0)
		progress_last(s, KMAP_PROGRESS_END);
	if (rc == 1) {
		*obj = s->outp;
		*acc = s->acc;
		*nacc = s->nacc;
	}
	return rc;
}
