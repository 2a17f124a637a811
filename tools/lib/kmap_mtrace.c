// SPDX-License-Identifier: GPL-2.0
/* libkmap: the mtrace plugin's log (mtrace_log.h), record by record. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "mtrace_log.h"
#include "kmap.h"
#include "kmap_records.h"

_Static_assert(sizeof(struct mtrace_log_header) == 56, "mtrace header layout");
KMAP_RECORDS_HEADER_LIKE(struct mtrace_log_header);
_Static_assert(sizeof(struct mtrace_rec_access) == 48, "mtrace access layout");
_Static_assert(sizeof(struct mtrace_rec_switch) == 24, "mtrace switch layout");

#define KERNEL_HALF	0xffff800000000000ull

struct kmap_mtrace_reader {
	struct kmap_records in;
	struct mtrace_log_header hdr;
	uint64_t *last_ns;		/* per vCPU */
};

#define set_err(r, ...) kmap_records_error(&(r)->in, __VA_ARGS__)

/* The format's: one layout in every version of the log. */
static size_t min_size(unsigned int version, unsigned int type)
{
	static const uint16_t sizes[MTRACE_REC_NR_TYPES] = MTRACE_REC_SIZES;

	(void)version;
	return type < MTRACE_REC_NR_TYPES ? sizes[type] : 0;
}

struct kmap_mtrace_reader *kmap_mtrace_open_fn(kmap_read_fn fn, void *ctx,
					       const char *name)
{
	struct kmap_mtrace_reader *r = calloc(1, sizeof(*r));

	if (r && kmap_records_init(&r->in, fn, ctx, name)) {
		free(r);
		return NULL;
	}
	return r;
}

struct kmap_mtrace_reader *kmap_mtrace_open_mem(const void *buf, size_t len,
						const char *name)
{
	struct kmap_mtrace_reader *r = calloc(1, sizeof(*r));

	if (r)
		kmap_records_init_mem(&r->in, buf, len, name);
	return r;
}

void kmap_mtrace_close(struct kmap_mtrace_reader *r)
{
	if (!r)
		return;
	free(r->last_ns);
	kmap_records_free(&r->in);
	free(r);
}

const char *kmap_mtrace_error(const struct kmap_mtrace_reader *r)
{
	return r->in.err;
}

uint64_t kmap_mtrace_skipped(const struct kmap_mtrace_reader *r)
{
	return r->in.skipped;
}

uint64_t kmap_mtrace_records(const struct kmap_mtrace_reader *r)
{
	return r->in.records + r->in.skipped;
}

const struct mtrace_log_header *
kmap_mtrace_header(const struct kmap_mtrace_reader *r)
{
	/* Read, with the vCPUs' times (none when out of memory for them). */
	return r->last_ns ? &r->hdr : NULL;
}

static int check_mtrace_fields(const void *buf, char *err)
{
	struct mtrace_log_header h;

	memcpy(&h, buf, sizeof(h));
	if (h.nr_cpus == 0 || h.nr_cpus > 64) {
		snprintf(err, KMAP_ERR_MAX, "nr_cpus %u: not from 1 to 64",
			 h.nr_cpus);
		return -1;
	}
	if (h.mode != MTRACE_MODE_ALL && h.mode != MTRACE_MODE_SHARING) {
		snprintf(err, KMAP_ERR_MAX, "mode %u: neither all (0) nor sharing (1)",
			 h.mode);
		return -1;
	}
	/* The rule's granularity: the line (every log before bytes) or the byte. */
	if (h.line_shift != MTRACE_LINE_SHIFT && h.line_shift != MTRACE_BYTE_SHIFT) {
		snprintf(err, KMAP_ERR_MAX,
			 "line_shift %u: this reader knows %u-byte lines and bytes (0) only",
			 h.line_shift, 1u << MTRACE_LINE_SHIFT);
		return -1;
	}
	return 0;
}

static const char *const type_name[] = {
	[MTRACE_REC_ACCESS] = "ACCESS", [MTRACE_REC_SWITCH] = "SWITCH",
};

static const struct kmap_records_format mtrace_format = {
	.header = "mtrace log",
	.title = "an mtrace log",
	.magic = MTRACE_LOG_MAGIC,
	.version_min = MTRACE_LOG_VERSION,
	.version_max = MTRACE_LOG_VERSION,
	.check_fields = check_mtrace_fields,
	.input = "log",
	.cpu = "vCPU",
	.cpus = "vCPUs",
	.min_size = min_size,
	.type_name = type_name,
};

int kmap_mtrace_read_header(struct kmap_mtrace_reader *r)
{
	int rc = kmap_records_read_header(&r->in, &mtrace_format, &r->hdr);

	if (rc <= 0)
		return rc;
	r->last_ns = calloc(r->hdr.nr_cpus, sizeof(*r->last_ns));
	if (!r->last_ns) {
		set_err(r, 0, "out of memory");
		return -1;
	}
	return 0;
}

/* What the plugin writes, and nothing else: the rules of one record. */
static int check_access(struct kmap_mtrace_reader *r,
			const struct kmap_mtrace_rec *rec)
{
	unsigned int sz = rec->u.access.size, fl = rec->u.access.flags;

	if (sz == 0 || sz > 32 || (sz & (sz - 1))) {
		set_err(r, r->in.offset, "access size %u: not 1, 2, 4, 8, 16 or 32",
			sz);
		return -1;
	}
	if (fl & ~MTRACE_F_KNOWN) {
		set_err(r, r->in.offset, "unknown flags 0x%x", fl & ~MTRACE_F_KNOWN);
		return -1;
	}
	if (!(fl & MTRACE_F_PADDR) && rec->u.access.paddr) {
		set_err(r, r->in.offset, "paddr %llx without its flag",
			(unsigned long long)rec->u.access.paddr);
		return -1;
	}
	if (rec->u.access.ip < KERNEL_HALF) {
		set_err(r, r->in.offset,
			"ip %llx is not in the kernel half (below ffff800000000000)",
			(unsigned long long)rec->u.access.ip);
		return -1;
	}
	if (r->hdr.mode == MTRACE_MODE_SHARING && !(fl & MTRACE_F_SHARED)) {
		set_err(r, r->in.offset,
			"an access not flagged shared in a log of mode sharing");
		return -1;
	}
	if ((fl & MTRACE_F_SHARED) && !(fl & MTRACE_F_PADDR)) {
		set_err(r, r->in.offset,
			"flagged shared without a physical address (the rule works on physical lines)");
		return -1;
	}
	if (rec->u.access.pid != MTRACE_PID_UNKNOWN &&
	    rec->u.access.pid >= KMAP_PID_MAX) {
		set_err(r, r->in.offset, "pid %u out of range", rec->u.access.pid);
		return -1;
	}
	return 0;
}

int kmap_mtrace_next(struct kmap_mtrace_reader *r, struct kmap_mtrace_rec *rec)
{
	struct memorizer_rec_hdr h;
	const unsigned char *p;
	int rc;

	if (kmap_mtrace_read_header(r))
		return -1;
	rc = kmap_records_next(&r->in, &mtrace_format, r->hdr.rec_size,
			       r->hdr.nr_cpus, &h, &p);
	if (rc <= 0)
		return rc;
	if (h.ns < r->last_ns[h.cpu]) {
		set_err(r, r->in.offset,
			"time goes backwards on vCPU %u: ns %llu after %llu",
			h.cpu, (unsigned long long)h.ns,
			(unsigned long long)r->last_ns[h.cpu]);
		return -1;
	}
	r->last_ns[h.cpu] = h.ns;
	rec->type = h.type;
	rec->size = h.size;
	rec->cpu = h.cpu;
	rec->ns = h.ns;
	rec->offset = r->in.offset;
	if (h.type == MTRACE_REC_ACCESS) {
		struct mtrace_rec_access a;

		memcpy(&a, p, sizeof(a));
		rec->u.access.vaddr = a.vaddr;
		rec->u.access.ip = a.ip;
		rec->u.access.paddr = a.paddr;
		rec->u.access.pid = a.pid;
		rec->u.access.size = a.size;
		rec->u.access.flags = a.flags;
		if (check_access(r, rec))
			return -1;
	} else {
		struct mtrace_rec_switch s;

		memcpy(&s, p, sizeof(s));
		rec->u.sw.pid = s.pid;
		if (s.pid != MTRACE_PID_UNKNOWN && s.pid >= KMAP_PID_MAX) {
			set_err(r, r->in.offset, "pid %u out of range", s.pid);
			return -1;
		}
	}
	r->in.offset += h.size;
	return 1;
}

size_t kmap_format_mtrace(char *line, const struct kmap_mtrace_rec *rec)
{
	char pid[16], paddr[24];
	int n;

	if (rec->type == MTRACE_REC_SWITCH) {
		if (rec->u.sw.pid == MTRACE_PID_UNKNOWN)
			snprintf(pid, sizeof(pid), "?");
		else
			snprintf(pid, sizeof(pid), "%u", rec->u.sw.pid);
		n = snprintf(line, KMAP_LINE_MAX, "switch,%u,%llu,%s\n", rec->cpu,
			     (unsigned long long)rec->ns, pid);
		return (size_t)n;
	}
	if (rec->u.access.pid == MTRACE_PID_UNKNOWN)
		snprintf(pid, sizeof(pid), "?");
	else
		snprintf(pid, sizeof(pid), "%u", rec->u.access.pid);
	if (rec->u.access.flags & MTRACE_F_PADDR)
		snprintf(paddr, sizeof(paddr), "%llx",
			 (unsigned long long)rec->u.access.paddr);
	else
		snprintf(paddr, sizeof(paddr), "?");
	n = snprintf(line, KMAP_LINE_MAX, "access,%u,%llu,%s,%llx,%llx,%s,%u,%c,%s\n",
		     rec->cpu, (unsigned long long)rec->ns, pid,
		     (unsigned long long)rec->u.access.ip,
		     (unsigned long long)rec->u.access.vaddr, paddr,
		     rec->u.access.size,
		     rec->u.access.flags & MTRACE_F_WRITE ? 'w' : 'r',
		     rec->u.access.flags & MTRACE_F_SHARED ? "shared" : "-");
	return (size_t)n;
}
