// SPDX-License-Identifier: GPL-2.0
/*
 * mkstream: build a binary stream fixture from a description, with the
 * structs of <linux/memorizer.h>. One record a line, "TYPE key=value...";
 * numbers in C notation (0x for hex); '#' starts a comment.
 *
 *   header [nr_cpus=N] [hz=N] [version=N] [magic=STR] [page_size=N]
 *          [header_size=N] [nr_types=N] [rec_size.T=N]
 *   task   cpu= ns= pid= comm=
 *   cache  cpu= ns= id= name=
 *   alloc  cpu= ns= id= addr= call_site= jiffies= size_req= size_alloc= pid=
 *          cache_id= kind= context=
 *   free   cpu= ns= id= call_site= jiffies= api= nr_access=
 *   access cpu= ns= id= ip= pid= writes= reads= offset= offset_end=
 *   lost   cpu= ns= records= allocs= frees= accesses= other=
 *   raw    cpu= ns= type= size=        (a record of any type and size)
 *   cut    bytes=N                     (drop the last N bytes written)
 *
 * Every record line also takes size=N (written in hdr.size, the record
 * padded or cut to it). In values, \xHH stands for the byte HH. Values
 * are written as given, in range or not: version defaults to
 * MEMORIZER_STREAM_VERSION (version=1 for a version 1 header), kind= and
 * context= take any enum value (kind=5 context=3: a global, found; kind=6
 * a per-CPU variable or area, kind=7 a stack), and api= too (api=5:
 * free_percpu, version 3's; api=6: module, a module's global freed at its
 * unload, version 4's). An ACCESS record is as long as in the header's
 * version: 56 bytes before version 5 (no offsets: offset= goes where
 * reserved was, offset_end= is cut off), 64 from it; the header's
 * rec_size.3 says so too.
 */
#include <stddef.h>
#include <string.h>

#include <linux/memorizer.h>

#include "mkrec.h"

/* An ACCESS record's size in the header's version (see above). */
static size_t access_size = sizeof(struct memorizer_rec_access);

static int stream_line(const char *type, const char *l)
{
	if (!strcmp(type, "header")) {
		__u16 sizes[MEMORIZER_REC_NR_TYPES] = MEMORIZER_REC_SIZES;
		struct memorizer_stream_header h = { 0 };
		const char *m = mkrec_val(l, "magic");

		memcpy(h.magic, MEMORIZER_STREAM_MAGIC, 8);
		if (m)
			strncpy(h.magic, m, 8);
		if (mkrec_num(l, "version", MEMORIZER_STREAM_VERSION) < 5)
			sizes[MEMORIZER_REC_ACCESS] =
				offsetof(struct memorizer_rec_access, offset_end);
		access_size = sizes[MEMORIZER_REC_ACCESS];
		mkrec_header(&h, l, MEMORIZER_STREAM_VERSION, sizes,
			     MEMORIZER_REC_NR_TYPES);
		h.hz = mkrec_num(l, "hz", 250);
		h.page_size = mkrec_num(l, "page_size", 4096);
		mkrec_put_header(&h, sizeof(h), h.header_size);
	} else if (!strcmp(type, "task")) {
		struct memorizer_rec_task r = { 0 };
		const char *c;

		mkrec_hdr(&r.hdr, l, MEMORIZER_REC_TASK, sizeof(r));
		r.pid = mkrec_num(l, "pid", 0);
		c = mkrec_val(l, "comm");
		if (c)
			strncpy(r.comm, c, sizeof(r.comm));
		mkrec_put(&r, sizeof(r), r.hdr.size);
	} else if (!strcmp(type, "cache")) {
		struct memorizer_rec_cache r = { 0 };
		const char *c;

		mkrec_hdr(&r.hdr, l, MEMORIZER_REC_CACHE, sizeof(r));
		r.cache_id = mkrec_num(l, "id", 0);
		c = mkrec_val(l, "name");
		if (c)
			strncpy(r.name, c, sizeof(r.name));
		mkrec_put(&r, sizeof(r), r.hdr.size);
	} else if (!strcmp(type, "alloc")) {
		struct memorizer_rec_alloc r = { 0 };

		mkrec_hdr(&r.hdr, l, MEMORIZER_REC_ALLOC, sizeof(r));
		r.id = mkrec_num(l, "id", 0);
		r.addr = mkrec_num(l, "addr", 0);
		r.call_site = mkrec_num(l, "call_site", 0);
		r.jiffies = mkrec_num(l, "jiffies", 0);
		r.size = mkrec_num(l, "size_req", 0);
		r.size_alloc = mkrec_num(l, "size_alloc", r.size);
		r.pid = mkrec_num(l, "pid", 0);
		r.cache_id = mkrec_num(l, "cache_id", 0);
		r.kind = mkrec_num(l, "kind", 0);
		r.context = mkrec_num(l, "context", 0);
		mkrec_put(&r, sizeof(r), r.hdr.size);
	} else if (!strcmp(type, "free")) {
		struct memorizer_rec_free r = { 0 };

		mkrec_hdr(&r.hdr, l, MEMORIZER_REC_FREE, sizeof(r));
		r.id = mkrec_num(l, "id", 0);
		r.call_site = mkrec_num(l, "call_site", 0);
		r.jiffies = mkrec_num(l, "jiffies", 0);
		r.api = mkrec_num(l, "api", 0);
		r.nr_access = mkrec_num(l, "nr_access", 0);
		mkrec_put(&r, sizeof(r), r.hdr.size);
	} else if (!strcmp(type, "access")) {
		struct memorizer_rec_access r = { 0 };

		mkrec_hdr(&r.hdr, l, MEMORIZER_REC_ACCESS, access_size);
		r.id = mkrec_num(l, "id", 0);
		r.ip = mkrec_num(l, "ip", 0);
		r.pid = mkrec_num(l, "pid", 0);
		r.writes = mkrec_num(l, "writes", 0);
		r.reads = mkrec_num(l, "reads", 0);
		r.offset = mkrec_num(l, "offset", 0);
		r.offset_end = mkrec_num(l, "offset_end", 0);
		mkrec_put(&r, sizeof(r), r.hdr.size);
	} else if (!strcmp(type, "call")) {
		struct memorizer_rec_call r = { 0 };

		mkrec_hdr(&r.hdr, l, MEMORIZER_REC_CALL, sizeof(r));
		r.caller = mkrec_num(l, "caller", 0);
		r.callee = mkrec_num(l, "callee", 0);
		r.pid = mkrec_num(l, "pid", 0);
		r.count = mkrec_num(l, "count", 0);
		mkrec_put(&r, sizeof(r), r.hdr.size);
	} else if (!strcmp(type, "lost")) {
		struct memorizer_rec_lost r = { 0 };

		mkrec_hdr(&r.hdr, l, MEMORIZER_REC_LOST, sizeof(r));
		r.allocs = mkrec_num(l, "allocs", 0);
		r.frees = mkrec_num(l, "frees", 0);
		r.accesses = mkrec_num(l, "accesses", 0);
		r.other = mkrec_num(l, "other", 0);
		r.records = mkrec_num(l, "records",
				      (unsigned long long)r.allocs + r.frees +
				      r.accesses + r.other);
		mkrec_put(&r, sizeof(r), r.hdr.size);
	} else {
		return -1;
	}
	return 0;
}

const struct mkrec_gen mkrec_gen = {
	.name = "mkstream",
	.max = 256 << 20,
	.hex_escapes = 1,
	.size_key = "size",
	.line = stream_line,
};
