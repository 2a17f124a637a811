// SPDX-License-Identifier: GPL-2.0
/*
 * libkmap: a file of short text lines, and their fields as the kernel
 * prints them (debugfs function_calls, stack_frames). See kmap_lines.h.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "kmap_lines.h"

#define BUF_SIZE	(64 * 1024)

void *kmap_lines_new(size_t size, kmap_read_fn fn, void *ctx,
		     const char *name)
{
	struct kmap_lines *in = calloc(1, size);

	if (!in)
		return NULL;
	in->buf = malloc(BUF_SIZE);
	if (!in->buf) {
		free(in);
		return NULL;
	}
	in->fn = fn;
	in->ctx = ctx;
	in->name = name;
	return in;
}

void kmap_lines_delete(struct kmap_lines *in)
{
	free(in->buf);
	free(in);
}

void kmap_lines_error(struct kmap_lines *in, const char *fmt, ...)
{
	char what[KMAP_ERR_MAX - 192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(in->err, sizeof(in->err), "%.150s:%lu: %s", in->name,
		 in->line, what);
	in->failed = 1;
}

/* Make room to read: move the unread bytes to the front and fill. */
static int fill(struct kmap_lines *in)
{
	long n;

	if (in->start) {
		memmove(in->buf, in->buf + in->start, in->end - in->start);
		in->end -= in->start;
		in->start = 0;
	}
	while (!in->eof && in->end < BUF_SIZE) {
		n = in->fn(in->ctx, in->buf + in->end, BUF_SIZE - in->end);
		if (n < 0) {
			kmap_lines_error(in, "read error");
			return -1;
		}
		if (n == 0)
			in->eof = 1;
		in->end += n;
		if (memchr(in->buf + in->start, '\n', in->end - in->start))
			break;
	}
	return 0;
}

int kmap_lines_next(struct kmap_lines *in, const char **s, size_t *len)
{
	char *nl;

	if (in->failed)
		return -1;
	nl = memchr(in->buf + in->start, '\n', in->end - in->start);
	if (!nl && !in->eof) {
		if (fill(in))
			return -1;
		nl = memchr(in->buf + in->start, '\n', in->end - in->start);
	}
	if (in->start == in->end && in->eof)
		return 0;
	in->line++;
	*s = in->buf + in->start;
	*len = nl ? (size_t)(nl - *s) : in->end - in->start;
	if (*len + 1 > KMAP_LINE_MAX) {
		kmap_lines_error(in, "line longer than %d bytes",
				 KMAP_LINE_MAX - 1);
		return -1;
	}
	if (!nl) {
		kmap_lines_error(in, "no newline at the end: the file is cut short");
		return -1;
	}
	in->start += *len + 1;
	return 1;
}

size_t kmap_fields(const char *s, size_t len, char sep, const char **f,
		   size_t *flen, size_t max)
{
	size_t i, n = 0, start = 0;

	for (i = 0; i <= len; i++) {
		if (i < len && s[i] != sep)
			continue;
		if (n == max)
			return max + 1;
		f[n] = s + start;
		flen[n++] = i - start;
		start = i + 1;
	}
	return n;
}

/* "FIELD 'VALUE': what" into err (the value cut at 40 bytes); -1. */
static int field_err(char *err, const char *field, const char *s, size_t len,
		     const char *what)
{
	snprintf(err, KMAP_ERR_MAX, "%s '%.*s': %s", field,
		 len > 40 ? 40 : (int)len, s, what);
	return -1;
}

int kmap_field_addr(const char *s, size_t len, uint64_t *v, const char *field,
		    char *err)
{
	size_t i;

	if (len > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return field_err(err, field, s, len,
				 "0x prefix (the kernel prints hex without one)");
	for (i = 0; i < len; i++)
		if (s[i] >= 'A' && s[i] <= 'F')
			break;
	if (!len || i < len || kmap_parse_hex(s, len, v))
		return field_err(err, field, s, len,
				 "not lowercase hexadecimal of at most 64 bits");
	if (len > 1 && s[0] == '0')
		return field_err(err, field, s, len, "leading zero");
	if (!*v) {
		snprintf(err, KMAP_ERR_MAX, "%s 0: no kernel address", field);
		return -1;
	}
	return 0;
}

int kmap_field_dec(const char *s, size_t len, uint64_t *v, const char *field,
		   char *err)
{
	if (len > 1 && s[0] == '-')
		return field_err(err, field, s, len, "negative");
	if (kmap_parse_dec(s, len, v))
		return field_err(err, field, s, len,
				 "not an unsigned decimal number of at most 64 bits");
	if (len > 1 && s[0] == '0')
		return field_err(err, field, s, len, "leading zero");
	return 0;
}

int kmap_field_pid(const char *s, size_t len, uint32_t *pid, char *err)
{
	uint64_t v;

	if (kmap_field_dec(s, len, &v, "pid", err))
		return -1;
	if (v >= KMAP_PID_MAX) {
		snprintf(err, KMAP_ERR_MAX,
			 "pid %llu: above the kernel's pid limit (4194304)",
			 (unsigned long long)v);
		return -1;
	}
	*pid = (uint32_t)v;
	return 0;
}
