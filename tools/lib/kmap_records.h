/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libkmap, inside: a file of records under the stream's header rules (the
 * binary stream, the mtrace log), read in place from a buffer that a
 * kmap_read_fn fills, or from memory. The readers of both formats are
 * built on it; it is not part of the library's interface.
 */
#ifndef KMAP_RECORDS_H
#define KMAP_RECORDS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <linux/memorizer.h>

#include "kmap.h"

/* Bytes read at a time (a record is at most 64 KiB; more is no faster). */
#define KMAP_RECORDS_BUF	(256 * 1024)

struct kmap_records {
	kmap_read_fn fn;
	void *ctx;
	/* Unread bytes: buf[start .. end) (own: the buffer fn fills). */
	const unsigned char *buf;
	unsigned char *own;
	size_t start, end;
	int eof, failed;
	int have_header;		/* kmap_records_read_header() done */
	unsigned int version;		/* the header's, once read */
	/* By type: its records' size, if known here and in the header. */
	uint16_t known_size[MEMORIZER_REC_TYPES_MAX];
	uint64_t skipped;		/* records of types unknown here */
	uint64_t records;		/* and of known ones, handed out */
	const char *name;
	uint64_t offset;		/* of the next record: for messages */
	char err[KMAP_ERR_MAX];
};

/* Over fn (a buffer of KMAP_RECORDS_BUF): 0, or -1 out of memory. */
int kmap_records_init(struct kmap_records *in, kmap_read_fn fn, void *ctx,
		      const char *name);
void kmap_records_init_mem(struct kmap_records *in, const void *buf,
			   size_t len, const char *name);
void kmap_records_free(struct kmap_records *in);

/* "NAME: byte OFF: what", and the input fails from then on. */
void kmap_records_error(struct kmap_records *in, uint64_t off,
			const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static inline void kmap_records_consume(struct kmap_records *in, size_t len)
{
	in->start += len;
}

/*
 * The header the two formats share the layout of: these fields at these
 * offsets, 8 bytes of the format's own between (each reader asserts its
 * header struct matches), rec_size[] after them.
 */
struct kmap_records_header {
	char magic[8];
	uint16_t version;
	uint16_t header_size;
	uint16_t nr_types;
	uint16_t nr_cpus;
	unsigned char own[8];
	uint16_t rec_size[MEMORIZER_REC_TYPES_MAX];
};

/* A format's header struct is laid out as struct kmap_records_header. */
#define KMAP_RECORDS_SAME_AT(type, field)				\
	(offsetof(type, field) == offsetof(struct kmap_records_header, field))
#define KMAP_RECORDS_HEADER_LIKE(type)					\
	_Static_assert(sizeof(type) == sizeof(struct kmap_records_header) && \
		       KMAP_RECORDS_SAME_AT(type, version) &&		\
		       KMAP_RECORDS_SAME_AT(type, header_size) &&	\
		       KMAP_RECORDS_SAME_AT(type, nr_types) &&		\
		       KMAP_RECORDS_SAME_AT(type, nr_cpus) &&		\
		       KMAP_RECORDS_SAME_AT(type, rec_size),		\
		       #type " is not laid out as kmap_records_header")

/* What tells one format apart, for kmap_records_check_header() and _next(). */
struct kmap_records_format {
	const char *header;		/* "stream", "mtrace log": its header's */
	const char *title;		/* "a Memorizer binary stream" */
	const char *magic;		/* 8 bytes, no NUL */
	unsigned int version_min, version_max;	/* the versions read */
	/* The format's own header fields, checked after the shared ones. */
	int (*check_fields)(const void *hdr, char *err);
	const char *input;		/* "stream", "log" */
	const char *cpu, *cpus;		/* "cpu", "CPUs" */
	/* 0: a type unknown here (in the input's version) */
	size_t (*min_size)(unsigned int version, unsigned int type);
	const char *const *type_name;
};

/*
 * A header of the format, len bytes at buf: its length, magic, version,
 * header_size and nr_types, then fmt->check_fields(), then rec_size[]:
 * each entry 0 or a multiple of 8 of at least a record header and of the
 * type's layout (fmt->min_size()). 0, or -1 with err.
 */
int kmap_records_check_header(const void *buf, size_t len,
			      const struct kmap_records_format *fmt, char *err);

/*
 * The input's header, once: checked (kmap_records_check_header()) into
 * hdr (the format's header struct), what a later, longer header has past
 * it skipped, in->offset then the first record's. 1 when read now, 0 when
 * read before, -1 with the error set (or set before).
 */
int kmap_records_read_header(struct kmap_records *in,
			     const struct kmap_records_format *fmt, void *hdr);

/*
 * The next record of a type the format knows, whole and in place: 1 with
 * *h and *body (h->size bytes, consumed; in->offset still the record's,
 * for the caller's messages: it adds h->size when done), 0 at a clean
 * end, -1 with the error set. Records of unknown types are skipped and
 * counted in in->skipped. rec_size[] and nr_cpus: the input's header's.
 */
int kmap_records_next_slow(struct kmap_records *in,
			   const struct kmap_records_format *fmt,
			   const uint16_t *rec_size, unsigned int nr_cpus,
			   struct memorizer_rec_hdr *h,
			   const unsigned char **body);

/*
 * Inline for most records (a call per record showed in a report's
 * instructions): whole in the buffer, of a known type at the size the
 * header gives (which check_sizes() found right for it). Any other is
 * kmap_records_next_slow()'s, which says what is wrong.
 */
static inline int kmap_records_next(struct kmap_records *in,
				    const struct kmap_records_format *fmt,
				    const uint16_t *rec_size,
				    unsigned int nr_cpus,
				    struct memorizer_rec_hdr *h,
				    const unsigned char **body)
{
	if (in->end - in->start >= sizeof(*h)) {
		const unsigned char *p = in->buf + in->start;

		memcpy(h, p, sizeof(*h));
		if (h->type < MEMORIZER_REC_TYPES_MAX && h->size &&
		    h->size == in->known_size[h->type] && h->cpu < nr_cpus &&
		    in->end - in->start >= h->size) {
			kmap_records_consume(in, h->size);
			in->records++;
			*body = p;
			return 1;
		}
	}
	return kmap_records_next_slow(in, fmt, rec_size, nr_cpus, h, body);
}

#endif
