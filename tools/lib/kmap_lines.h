/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libkmap, inside: a file of short text lines (debugfs function_calls and
 * stack_frames), read a line at a time from a buffer that a kmap_read_fn
 * fills, and the fields of such a line as the kernel prints them. The
 * readers of both files are built on it; it is not part of the library's
 * interface. (The text kmap has its own reader, whose fast path parses in
 * the buffer.)
 */
#ifndef KMAP_LINES_H
#define KMAP_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "kmap.h"

struct kmap_lines {
	kmap_read_fn fn;
	void *ctx;
	const char *name;
	char *buf;
	size_t start, end;		/* unread bytes: buf[start .. end) */
	int eof, failed;
	unsigned long line;		/* the last line's number, from 1 */
	char err[KMAP_ERR_MAX];
};

/*
 * A reader of size bytes whose first member is its struct kmap_lines,
 * over fn, the rest zeroed: NULL when out of memory.
 */
void *kmap_lines_new(size_t size, kmap_read_fn fn, void *ctx,
		     const char *name);
/* Free such a reader, given its first member. */
void kmap_lines_delete(struct kmap_lines *in);

/* "NAME:LINE: what" (the last line's), and the input fails from then on. */
void kmap_lines_error(struct kmap_lines *in, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The next line, without its newline: 1 with s[0 .. *len) (valid until
 * the next call), 0 at the end, -1 with the error set: a read error, a
 * line of KMAP_LINE_MAX bytes or more (newline included), a last line
 * with no newline. After -1, -1 again.
 */
int kmap_lines_next(struct kmap_lines *in, const char **s, size_t *len);

/*
 * Split s[0 .. len) at sep into at most max fields (f[i], flen[i]):
 * their count, max + 1 when there are more.
 */
size_t kmap_fields(const char *s, size_t len, char sep, const char **f,
		   size_t *flen, size_t max);

/*
 * Fields as the kernel prints them, each named field in err[KMAP_ERR_MAX]
 * (no location) when wrong (an 0x prefix and a minus sign said as such);
 * 0 or -1. An address: %lx, lowercase hex without 0x or leading zeros,
 * not 0. A count: %u or %lu, unsigned decimal without leading zeros,
 * within 64 bits. A pid: a count below KMAP_PID_MAX.
 */
int kmap_field_addr(const char *s, size_t len, uint64_t *v, const char *field,
		    char *err);
int kmap_field_dec(const char *s, size_t len, uint64_t *v, const char *field,
		   char *err);
int kmap_field_pid(const char *s, size_t len, uint32_t *pid, char *err);

#endif
