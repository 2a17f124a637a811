// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the text kmap parser: the line reader over the
 * input, then the object source (text_next) over the same bytes, and the
 * writer on whatever parses (its output must parse back identically, of
 * the same kind; a kmap_offsets object line of 10 fields with the same
 * kind and cache).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmap.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct kmap_text_reader *r = kmap_text_open_mem(data, size, "fuzz");
	struct kmap_object o, o2;
	struct kmap_access a, a2;
	char line[KMAP_LINE_MAX + 8], err[KMAP_ERR_MAX];
	uint64_t at = 0;
	int t, fork;

	while ((t = kmap_text_next(r, &o, &a)) > 0) {
		FILE *f;

		/*
		 * The reader's fast path and kmap_parse_line() agree on the
		 * line's bytes: its type and every field. A fork kmap's
		 * access lines are the reader's alone (the object lines
		 * before them say whose they are): parsed as ours, they
		 * may not parse, or parse to other fields.
		 */
		fork = kmap_text_fork(r) == 1;
		if (fork && t == KMAP_LINE_ACCESS) {
			at = kmap_text_offset(r);
			goto write;
		}
		if (kmap_parse_line((const char *)data + at,
				    kmap_text_offset(r) - at - 1, &o2, &a2,
				    err) != t)
			abort();
		at = kmap_text_offset(r);
		/*
		 * Only the reader names a cache (kmap_parse_line() checks it
		 * and has nowhere to keep it): when the line has one.
		 */
		if (t == KMAP_LINE_OBJECT &&
		    (o2.alloc_ip != o.alloc_ip || o2.pid != o.pid ||
		     o2.addr != o.addr || o2.size != o.size ||
		     o2.alloc_jiffies != o.alloc_jiffies ||
		     o2.free_jiffies != o.free_jiffies ||
		     o2.free_ip != o.free_ip ||
		     o2.has != (o.has & ~(unsigned int)KMAP_HAS_CACHE) ||
		     strcmp(o2.comm, o.comm)))
			abort();
		if (t == KMAP_LINE_OBJECT && (o.has & KMAP_HAS_KIND) &&
		    (o2.kind != o.kind || o2.context != o.context ||
		     !(o.has & KMAP_HAS_CACHE) != !o.cache_id ||
		     !(o.has & KMAP_HAS_CACHE) != !o.cache ||
		     (o.cache && !o.cache[0])))
			abort();
		if (t == KMAP_LINE_ACCESS &&
		    (a2.ip != a.ip || a2.pid != a.pid || a2.reads != a.reads ||
		     a2.writes != a.writes || a2.offset != a.offset ||
		     a2.offset_end != a.offset_end))
			abort();
write:
		f = fmemopen(line, sizeof(line), "w");

		if (!f)
			abort();
		if (t == KMAP_LINE_OBJECT) {
			char l[KMAP_LINE_MAX];

			fwrite(l, 1, kmap_format_object_offsets(l, &o), f);
		} else if (a.offset || a.offset_end)	/* kmap_offsets */
			kmap_write_access_offsets(f, &a);
		else
			kmap_write_access(f, &a);
		fflush(f);
		{
			long n = ftell(f);

			fclose(f);
			if (n <= 0 || line[n - 1] != '\n')
				abort();
			/* What the writer writes, the parser reads back the same. */
			if (kmap_parse_line(line, n - 1, &o2, &a2, err) != t)
				abort();
			if (t == KMAP_LINE_OBJECT &&
			    (o2.addr != o.addr || o2.size != o.size ||
			     o2.alloc_ip != o.alloc_ip || strcmp(o2.comm, o.comm)))
				abort();
			/* And finds the same kind in it, and cache. */
			/* A fork's object is written as ours: not the fork's. */
			if (t == KMAP_LINE_OBJECT &&
			    (kmap_object_kind(&o2) != kmap_object_kind(&o) ||
			     o2.has != (o.has & ~(unsigned int)(KMAP_HAS_CACHE |
								 KMAP_HAS_FORK))))
				abort();
			if (t == KMAP_LINE_OBJECT && (o.has & KMAP_HAS_KIND)) {
				line[n - 1] = 0;
				if (strcmp(strrchr(line, ',') + 1,
					   o.cache ? o.cache : ""))
					abort();
			}
			if (t == KMAP_LINE_ACCESS &&
			    (a2.ip != a.ip || a2.reads != a.reads || a2.writes != a.writes ||
			     a2.offset != a.offset || a2.offset_end != a.offset_end))
				abort();
		}
	}
	if (t < 0 && strncmp(kmap_text_error(r), "fuzz:", 5))
		abort();	/* every error says where */
	kmap_text_close(r);

	{
		FILE *f = fmemopen((void *)data, size ? size : 1, "rb");
		struct kmap_src *s;
		const struct kmap_object *po;
		const struct kmap_access *pa;
		size_t n;

		if (!f || !size) {
			if (f)
				fclose(f);
			return 0;
		}
		s = kmap_src_open_file(f, "fuzz", err);
		if (s) {
			while (kmap_src_next(s, &po, &pa, &n) > 0) {
				/*
				 * A text object's kind is its line's, or one
				 * its word names, or none (of any kind, it
				 * may be freed: a global may be a module's).
				 * A found one of pid 0 has its kind's word
				 * (but the fork's: its command).
				 */
				int k = kmap_object_kind(po);

				if ((po->has & KMAP_HAS_KIND) &&
				    (!kmap_kind(k) ||
				     (kmap_object_found(po) && !po->pid &&
				      !(po->has & KMAP_HAS_FORK) &&
				      strcmp(po->comm, kmap_found_word(k)))))
					abort();
				if (!(po->has & KMAP_HAS_KIND) &&
				    k != KMAP_KIND_UNKNOWN &&
				    (!kmap_kind(k) || !kmap_kind(k)->word_is_kind ||
				     strcmp(po->comm, kmap_found_word(k))))
					abort();
			}
			kmap_src_close(s);
		}
		fclose(f);
	}
	return 0;
}
