// SPDX-License-Identifier: GPL-2.0
/* libkmap: files of records under the stream's header rules (kmap_records.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/memorizer.h>

#include "kmap_records.h"

int kmap_records_init(struct kmap_records *in, kmap_read_fn fn, void *ctx,
		      const char *name)
{
	memset(in, 0, sizeof(*in));
	in->buf = in->own = malloc(KMAP_RECORDS_BUF);
	if (!in->own)
		return -1;
	in->fn = fn;
	in->ctx = ctx;
	in->name = name;
	return 0;
}

void kmap_records_init_mem(struct kmap_records *in, const void *buf,
			   size_t len, const char *name)
{
	memset(in, 0, sizeof(*in));
	in->buf = buf;
	in->end = len;
	in->eof = 1;
	in->name = name;
}

void kmap_records_free(struct kmap_records *in)
{
	free(in->own);
	in->own = NULL;
}

void kmap_records_error(struct kmap_records *in, uint64_t off,
			const char *fmt, ...)
{
	char what[KMAP_ERR_MAX - 192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(in->err, sizeof(in->err), "%.150s: byte %llu: %s", in->name,
		 (unsigned long long)off, what);
	in->failed = 1;
}

/* kmap_records_peek() when the buffer holds fewer than len bytes. */
static const unsigned char *kmap_records_fill(struct kmap_records *in,
					      size_t len, size_t *got)
{
	while (in->end - in->start < len && !in->eof) {
		long n;

		if (in->start) {
			memmove(in->own, in->own + in->start,
				in->end - in->start);
			in->end -= in->start;
			in->start = 0;
		}
		n = in->fn(in->ctx, in->own + in->end,
			   KMAP_RECORDS_BUF - in->end);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return NULL;
		if (n == 0)
			in->eof = 1;
		in->end += n;
	}
	*got = in->end - in->start < len ? in->end - in->start : len;
	return in->buf + in->start;
}

/*
 * The next len unread bytes (len <= KMAP_RECORDS_BUF), in place: *got of
 * them, fewer only at the end of the input; NULL on a read error. They
 * stay unread until kmap_records_consume().
 */
static inline const unsigned char *
kmap_records_peek(struct kmap_records *in, size_t len, size_t *got)
{
	if (in->end - in->start >= len) {
		*got = len;
		return in->buf + in->start;
	}
	return kmap_records_fill(in, len, got);
}

/*
 * rec_size[] of nr_types entries, each 0 or a multiple of 8 of at least a
 * record header and of the type's layout (min_size()). 0, or -1 with err.
 */
static int check_sizes(const uint16_t *rec_size, unsigned int nr_types,
		       unsigned int version,
		       size_t (*min_size)(unsigned int version,
					  unsigned int type), char *err)
{
	unsigned int t;

	for (t = 0; t < MEMORIZER_REC_TYPES_MAX; t++) {
		unsigned int sz = rec_size[t];

		if (t >= nr_types && sz) {
			snprintf(err, KMAP_ERR_MAX,
				 "rec_size[%u] is %u beyond nr_types %u", t, sz,
				 nr_types);
			return -1;
		}
		if (!sz)
			continue;
		if (sz % 8 || sz < sizeof(struct memorizer_rec_hdr)) {
			snprintf(err, KMAP_ERR_MAX,
				 "rec_size[%u] is %u: not a multiple of 8 of at least 16",
				 t, sz);
			return -1;
		}
		if (sz < min_size(version, t)) {
			snprintf(err, KMAP_ERR_MAX,
				 "rec_size[%u] is %u, shorter than the %zu-byte layout",
				 t, sz, min_size(version, t));
			return -1;
		}
	}
	return 0;
}

int kmap_records_next_slow(struct kmap_records *in,
			   const struct kmap_records_format *fmt,
			   const uint16_t *rec_size, unsigned int nr_cpus,
			   struct memorizer_rec_hdr *h,
			   const unsigned char **body)
{
	const unsigned char *p;
	size_t n, min;

	for (;;) {
		p = kmap_records_peek(in, sizeof(*h), &n);
		if (!p) {
			kmap_records_error(in, in->offset, "read error: %s",
					   strerror(errno));
			return -1;
		}
		if (n == 0) {
			if (in->fn)	/* the clean end: told (kmap_read_fn) */
				in->fn(in->ctx, in->own, 0);
			return 0;
		}
		if (n < sizeof(*h)) {
			kmap_records_error(in, in->offset,
					   "record header cut short: %zu of %zu bytes",
					   n, sizeof(*h));
			return -1;
		}
		memcpy(h, p, sizeof(*h));
		if (h->size < sizeof(*h) || h->size % 8) {
			kmap_records_error(in, in->offset,
					   "record size %u: not a multiple of 8 of at least 16",
					   h->size);
			return -1;
		}
		if (h->cpu >= nr_cpus) {
			kmap_records_error(in, in->offset,
					   "%s %u, but the %s has %u %s", fmt->cpu,
					   h->cpu, fmt->input, nr_cpus, fmt->cpus);
			return -1;
		}
		p = kmap_records_peek(in, h->size, &n);
		if (!p) {
			kmap_records_error(in, in->offset, "read error: %s",
					   strerror(errno));
			return -1;
		}
		if (n < h->size) {
			kmap_records_error(in, in->offset,
					   "record cut short: %zu of %u bytes", n,
					   h->size);
			return -1;
		}
		kmap_records_consume(in, h->size);
		min = fmt->min_size(in->version, h->type);
		if (min)
			break;
		in->offset += h->size;
		in->skipped++;
	}
	if (h->size < min) {
		kmap_records_error(in, in->offset,
				   "%s record of %u bytes, shorter than its %zu-byte layout",
				   fmt->type_name[h->type], h->size, min);
		return -1;
	}
	if (h->type < MEMORIZER_REC_TYPES_MAX && rec_size[h->type] != h->size) {
		kmap_records_error(in, in->offset,
				   "%s record of %u bytes, but the header says %u",
				   fmt->type_name[h->type], h->size,
				   rec_size[h->type]);
		return -1;
	}
	in->records++;
	*body = p;
	return 1;
}

int kmap_records_check_header(const void *buf, size_t len,
			      const struct kmap_records_format *fmt, char *err)
{
	struct kmap_records_header h;

	if (len < sizeof(h)) {
		snprintf(err, KMAP_ERR_MAX,
			 "%s header cut short: %zu of %zu bytes", fmt->header,
			 len, sizeof(h));
		return -1;
	}
	memcpy(&h, buf, sizeof(h));
	if (memcmp(h.magic, fmt->magic, 8)) {
		snprintf(err, KMAP_ERR_MAX, "not %s (magic is not %s)",
			 fmt->title, fmt->magic);
		return -1;
	}
	if (h.version < fmt->version_min || h.version > fmt->version_max) {
		char known[64];
		unsigned int v;
		size_t n = 0;

		/* "1", "1 and 2", "1, 2 and 3": the versions this reader reads. */
		for (v = fmt->version_min;
		     v <= fmt->version_max && n < sizeof(known); v++)
			n += snprintf(known + n, sizeof(known) - n, "%s%u",
				      v == fmt->version_min ? "" :
				      v == fmt->version_max ? " and " : ", ",
				      v);
		snprintf(err, KMAP_ERR_MAX,
			 "%s version %u, this reader knows version%s %s only",
			 fmt->header, h.version,
			 fmt->version_min == fmt->version_max ? "" : "s",
			 known);
		return -1;
	}
	if (h.header_size < sizeof(h) || h.header_size % 8) {
		snprintf(err, KMAP_ERR_MAX,
			 "header_size %u: below %zu or not a multiple of 8",
			 h.header_size, sizeof(h));
		return -1;
	}
	if (h.nr_types > MEMORIZER_REC_TYPES_MAX) {
		snprintf(err, KMAP_ERR_MAX, "nr_types %u above %u", h.nr_types,
			 MEMORIZER_REC_TYPES_MAX);
		return -1;
	}
	if (fmt->check_fields(buf, err))
		return -1;
	return check_sizes(h.rec_size, h.nr_types, h.version, fmt->min_size,
			   err);
}

int kmap_records_read_header(struct kmap_records *in,
			     const struct kmap_records_format *fmt, void *hdr)
{
	struct kmap_records_header h;
	const unsigned char *p;
	char err[KMAP_ERR_MAX];
	unsigned int t;
	size_t got;

	if (in->failed)
		return -1;
	if (in->have_header)
		return 0;
	p = kmap_records_peek(in, sizeof(h), &got);
	if (!p) {
		kmap_records_error(in, 0, "read error: %s", strerror(errno));
		return -1;
	}
	if (kmap_records_check_header(p, got, fmt, err)) {
		kmap_records_error(in, 0, "%s", err);
		return -1;
	}
	memcpy(&h, p, sizeof(h));
	memcpy(hdr, p, sizeof(h));
	kmap_records_consume(in, sizeof(h));
	in->offset = sizeof(h);
	/* A later, longer header: skip what this reader does not know. */
	if (h.header_size > sizeof(h)) {
		size_t extra = h.header_size - sizeof(h);

		if (!kmap_records_peek(in, extra, &got) || got < extra) {
			kmap_records_error(in, in->offset,
					   "%s header cut short", fmt->header);
			return -1;
		}
		kmap_records_consume(in, extra);
		in->offset += extra;
	}
	in->version = h.version;
	for (t = 0; t < MEMORIZER_REC_TYPES_MAX; t++)
		in->known_size[t] = fmt->min_size(h.version, t) ?
				    h.rec_size[t] : 0;
	in->have_header = 1;
	return 1;
}
