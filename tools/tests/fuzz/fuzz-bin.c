// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the binary stream parser: the record reader, then
 * the object source (assembly by id, per-CPU commands, cache names) over
 * the same bytes, writing each object as text (a found object's line must
 * read back as its kind's when its word says the kind: global, percpu,
 * irq_stack), and each freed object freed as its stream's version allows
 * (a global from version 4, by api module or missed; api module frees
 * globals only).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/memorizer.h>

#include "kmap.h"

/* o, written as a kmap line and read back: of kind again. */
static void kind_line(const struct kmap_object *o, int kind)
{
	char line[KMAP_LINE_MAX + 8], err[KMAP_ERR_MAX];
	struct kmap_object back;
	struct kmap_access acc;
	FILE *f = fmemopen(line, sizeof(line), "w");
	long n;

	if (!f)
		abort();
	kmap_write_object(f, o);
	fflush(f);
	n = ftell(f);
	fclose(f);
	if (n <= 0 || line[n - 1] != '\n' ||
	    kmap_parse_line(line, n - 1, &back, &acc, err) != KMAP_LINE_OBJECT ||
	    kmap_object_kind(&back) != kind)
		abort();
}

/* The stream's version from its header; 0 when the input is no stream. */
static unsigned int stream_version(const unsigned char *data, size_t size)
{
	struct memorizer_stream_header h;

	if (size < sizeof(h) || memcmp(data, MEMORIZER_STREAM_MAGIC, 8))
		return 0;
	memcpy(&h, data, sizeof(h));
	return h.version;
}

/* o, handed out freed from a stream of version (0: not known). */
static void freed_as_allowed(const struct kmap_object *o, unsigned int version)
{
	const struct kmap_kind *k = kmap_kind(o->kind);
	const struct kmap_free_api *fa = kmap_free_api(o->free_api);

	/* Only a FREE record frees an object, and its api is known. */
	if (!(o->has & KMAP_HAS_FREE_API) || !k || !fa)
		abort();
	if (!version)		/* zstd-compressed: not looked into */
		return;
	if (version < fa->since || version < k->freed_since)
		abort();
	/* module frees globals only; a global goes by module or missed. */
	if (fa->kind >= 0 && fa->kind != o->kind)
		abort();
	if (k->free_api_only && o->free_api != k->free_api &&
	    o->free_api != MEMORIZER_FREE_MISSED)
		abort();
	/* A module's unload has a caller. */
	if (o->free_api == MEMORIZER_FREE_MODULE &&
	    (o->free_ip == 0 || o->free_ip == KMAP_FREE_IP_MISSED))
		abort();
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct kmap_bin_reader *r = kmap_bin_open_mem(data, size, "fuzz");
	struct kmap_bin_rec rec;
	char err[KMAP_ERR_MAX];
	uint64_t last = 0;
	int t;

	while ((t = kmap_bin_next(r, &rec)) > 0) {
		/* Records come in order, whole, within the input. */
		if (rec.offset < last || rec.offset + rec.size > size)
			abort();
		last = rec.offset + rec.size;
		if (rec.size < kmap_bin_min_size(kmap_bin_header(r)->version,
						 rec.type))
			abort();
		/* Offsets: none before version 5. */
		if (rec.type == MEMORIZER_REC_ACCESS &&
		    kmap_bin_header(r)->version < KMAP_STREAM_VERSION_OFFSETS &&
		    (rec.u.access.offset || rec.u.access.offset_end))
			abort();
	}
	if (t < 0 && strncmp(kmap_bin_error(r), "fuzz: byte ", 11))
		abort();
	kmap_bin_close(r);

	if (size) {
		FILE *f = fmemopen((void *)data, size, "rb");
		FILE *out = fopen("/dev/null", "w");
		struct kmap_src *s;
		const struct kmap_object *o;
		const struct kmap_access *a;
		size_t n, i;

		if (!f || !out)
			abort();
		s = kmap_src_open_file(f, "fuzz", err);
		if (s) {
			while (kmap_src_next(s, &o, &a, &n) > 0) {
				kmap_write_object(out, o);
				for (i = 0; i < n; i++)
					kmap_write_access(out, &a[i]);
				/* The input may be text: no kind, then. */
				if (!(o->has & KMAP_HAS_KIND))
					continue;
				if (kmap_object_kind(o) != o->kind)
					abort();
				if (kmap_object_freed(o))
					freed_as_allowed(o,
						stream_version(data, size));
				/*
				 * A found object with pid 0 has its kind's
				 * word, which may say the kind.
				 */
				if (o->context == MEMORIZER_CONTEXT_FOUND &&
				    o->pid == 0 && kmap_kind(o->kind) &&
				    kmap_kind(o->kind)->word_is_kind)
					kind_line(o, o->kind);
			}
			kmap_src_close(s);
		}
		fclose(f);
		fclose(out);
	}
	return 0;
}
