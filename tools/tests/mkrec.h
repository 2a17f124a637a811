/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mkrec: what the fixture generators mkstream and mkmtrace share. Both
 * read a description, one record a line, "TYPE key=value..." (numbers in
 * C notation, '#' starts a comment), and write records under the stream's
 * header rules (struct memorizer_rec_hdr first, rec_size[] in the header).
 * Lines of types every generator knows:
 *
 *   raw    cpu= ns= type= size=        (a record of any type and size)
 *   cut    bytes=N                     (drop the last N bytes written)
 */
#ifndef MKREC_H
#define MKREC_H

#include <stddef.h>

#include <linux/memorizer.h>

struct mkrec_gen {
	const char *name;		/* "mkstream": in messages */
	size_t max;			/* bytes written at most */
	int hex_escapes;		/* \xHH in values stands for the byte */
	const char *size_key;		/* the key of hdr.size: "size" */
	/* One line of the generator's own type: 0, or -1 a type unknown. */
	int (*line)(const char *type, const char *line);
};

/*
 * The generator's, defined by each: mkrec.c's main() reads every line of
 * standard input by it, then writes what they made to standard output.
 */
extern const struct mkrec_gen mkrec_gen;

/* The value of key= on the line (up to a space; until the next call), or NULL. */
const char *mkrec_val(const char *line, const char *key);
/* The number of key= on the line, or def. */
unsigned long long mkrec_num(const char *line, const char *key,
			     unsigned long long def);

/* A record's header: its type, size (the size key's, or size), cpu, ns. */
void mkrec_hdr(struct memorizer_rec_hdr *h, const char *line,
	       unsigned int type, size_t size);
/* want bytes: rec's first size, zeros after them. */
void mkrec_put(const void *rec, size_t size, size_t want);

/*
 * A header line's keys that both formats' headers have, into h (laid out
 * as struct kmap_records_header; the magic and the format's own fields
 * are the caller's): version= (the format's version), header_size= (the
 * struct's), nr_types= (nr), nr_cpus= (2), rec_size.T= (the format's
 * sizes[], nr of them).
 */
void mkrec_header(void *h, const char *line, unsigned int version,
		  const __u16 *sizes, size_t nr);
/* A header of size bytes, written padded to header_size when longer. */
void mkrec_put_header(const void *h, size_t size, size_t header_size);

#endif
