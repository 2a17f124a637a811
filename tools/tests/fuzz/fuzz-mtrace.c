// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the mtrace log reader (kmap_mtrace.c): what it
 * hands out keeps the rules it claims (known types, vCPUs below nr_cpus,
 * time in order per vCPU, access sizes and flags, records within the
 * input and in order), each record formats to one line, and the same
 * bytes read through a read function in uneven pieces give the same
 * records and the same verdict.
 */
#include <stdlib.h>
#include <string.h>

#include "kmap.h"
#include "mtrace_log.h"

struct pieces {
	const unsigned char *data;
	size_t size, at;
};

/* Pieces of 1 to 13 bytes, their sizes from the bytes themselves. */
static long read_piece(void *ctx, void *buf, size_t len)
{
	struct pieces *p = ctx;
	size_t n = p->at < p->size ? p->data[p->at] % 13 + 1 : 0;

	if (n > len)
		n = len;
	if (n > p->size - p->at)
		n = p->size - p->at;
	memcpy(buf, p->data + p->at, n);
	p->at += n;
	return (long)n;
}

static void check_rec(const struct kmap_mtrace_rec *rec,
		      const struct mtrace_log_header *h, uint64_t *last_ns,
		      uint64_t *last_off, size_t size)
{
	char line[KMAP_LINE_MAX];
	size_t n;

	if (rec->type != MTRACE_REC_ACCESS && rec->type != MTRACE_REC_SWITCH)
		abort();
	if (rec->cpu >= h->nr_cpus || rec->ns < last_ns[rec->cpu])
		abort();
	last_ns[rec->cpu] = rec->ns;
	if (rec->offset < *last_off || rec->offset + rec->size > size)
		abort();
	*last_off = rec->offset + rec->size;
	if (rec->type == MTRACE_REC_ACCESS) {
		unsigned int sz = rec->u.access.size;

		if (!sz || sz > 32 || (sz & (sz - 1)) ||
		    (rec->u.access.flags & ~MTRACE_F_KNOWN))
			abort();
		if (h->mode == MTRACE_MODE_SHARING &&
		    !(rec->u.access.flags & MTRACE_F_SHARED))
			abort();
	}
	n = kmap_format_mtrace(line, rec);
	if (!n || n >= KMAP_LINE_MAX || line[n - 1] != '\n' ||
	    strlen(line) != n || memchr(line, '\n', n - 1))
		abort();
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct kmap_mtrace_reader *r = kmap_mtrace_open_mem(data, size, "fuzz");
	struct pieces p = { data, size, 0 };
	struct kmap_mtrace_reader *r2 = kmap_mtrace_open_fn(read_piece, &p,
							    "fuzz");
	const struct mtrace_log_header *h;
	struct kmap_mtrace_rec rec, rec2;
	uint64_t last_ns[64] = { 0 }, last_off = 0;
	int t, t2;

	if (!r || !r2)
		abort();
	for (;;) {
		t = kmap_mtrace_next(r, &rec);
		t2 = kmap_mtrace_next(r2, &rec2);
		if (t != t2)
			abort();
		if (t <= 0)
			break;
		if (rec.type != rec2.type || rec.size != rec2.size ||
		    rec.cpu != rec2.cpu || rec.ns != rec2.ns ||
		    rec.offset != rec2.offset)
			abort();
		if (rec.type == MTRACE_REC_ACCESS &&
		    (rec.u.access.vaddr != rec2.u.access.vaddr ||
		     rec.u.access.ip != rec2.u.access.ip ||
		     rec.u.access.paddr != rec2.u.access.paddr ||
		     rec.u.access.pid != rec2.u.access.pid ||
		     rec.u.access.size != rec2.u.access.size ||
		     rec.u.access.flags != rec2.u.access.flags))
			abort();
		if (rec.type == MTRACE_REC_SWITCH && rec.u.sw.pid != rec2.u.sw.pid)
			abort();
		h = kmap_mtrace_header(r);
		if (!h || h->nr_cpus > 64)
			abort();
		check_rec(&rec, h, last_ns, &last_off, size);
	}
	if (t < 0 && (strncmp(kmap_mtrace_error(r), "fuzz", 4) ||
		      strcmp(kmap_mtrace_error(r), kmap_mtrace_error(r2))))
		abort();	/* every error says where, the same both ways */
	if (kmap_mtrace_skipped(r) != kmap_mtrace_skipped(r2))
		abort();
	kmap_mtrace_close(r);
	kmap_mtrace_close(r2);
	return 0;
}
