// SPDX-License-Identifier: GPL-2.0
/*
 * mkmtrace: build an mtrace log fixture (tools/lib/mtrace_log.h) from a
 * description, as mkstream does for binary streams. One record a line,
 * "TYPE key=value..."; numbers in C notation; '#' starts a comment.
 *
 *   header [nr_cpus=N] [version=N] [magic=STR] [mode=N] [line_shift=N]
 *          [header_size=N] [nr_types=N] [rec_size.T=N]
 *   access cpu= ns= vaddr= ip= paddr= pid= size= flags=
 *          (size 8, flags 6 (paddr, shared) and pid 0xffffffff by default)
 *   switch cpu= ns= pid=
 *   raw    cpu= ns= type= size=        (a record of any type and size)
 *   cut    bytes=N                     (drop the last N bytes written)
 *
 * Every record line also takes rsize=N (written in hdr.size, the record
 * padded or cut to it). Values are written as given, in range or not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mtrace_log.h"

static unsigned char out[16 << 20];
static size_t len;

static const char *val(const char *line, const char *key)
{
	static char buf[256];
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	if (!p)
		return NULL;
	p += strlen(pat);
	snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(p, " \n"), p);
	return buf;
}

static unsigned long long num(const char *line, const char *key,
			      unsigned long long def)
{
	const char *v = val(line, key);

	return v ? strtoull(v, NULL, 0) : def;
}

static void put(const void *rec, size_t size, size_t want)
{
	if (len + want > sizeof(out)) {
		fprintf(stderr, "mkmtrace: too big\n");
		exit(1);
	}
	memset(out + len, 0, want);
	memcpy(out + len, rec, size < want ? size : want);
	len += want;
}

static void hdr(struct memorizer_rec_hdr *h, const char *line,
		unsigned int type, size_t size)
{
	h->type = type;
	h->size = num(line, "rsize", size);
	h->cpu = num(line, "cpu", 0);
	h->reserved = 0;
	h->ns = num(line, "ns", 0);
}

int main(void)
{
	char line[1024];

	while (fgets(line, sizeof(line) - 1, stdin)) {
		char type[32], *l = line;

		memmove(l + 1, l, strlen(l) + 1);
		l[0] = ' ';
		if (sscanf(l, " %31s", type) != 1 || type[0] == '#')
			continue;
		if (!strcmp(type, "header")) {
			static const __u16 sizes[MTRACE_REC_NR_TYPES] =
				MTRACE_REC_SIZES;
			struct mtrace_log_header h = { 0 };
			const char *m = val(l, "magic");
			int t;

			memcpy(h.magic, MTRACE_LOG_MAGIC, 8);
			if (m)
				memcpy(h.magic, m, strlen(m) < 8 ? strlen(m) : 8);
			h.version = num(l, "version", MTRACE_LOG_VERSION);
			h.header_size = num(l, "header_size", sizeof(h));
			h.nr_types = num(l, "nr_types", MTRACE_REC_NR_TYPES);
			h.nr_cpus = num(l, "nr_cpus", 2);
			h.mode = num(l, "mode", MTRACE_MODE_ALL);
			h.line_shift = num(l, "line_shift", MTRACE_LINE_SHIFT);
			memcpy(h.rec_size, sizes, sizeof(sizes));
			for (t = 0; t < MEMORIZER_REC_TYPES_MAX; t++) {
				char k[32];

				snprintf(k, sizeof(k), "rec_size.%d", t);
				h.rec_size[t] = num(l, k, h.rec_size[t]);
			}
			put(&h, sizeof(h), h.header_size > sizeof(h) ? h.header_size : sizeof(h));
		} else if (!strcmp(type, "access")) {
			struct mtrace_rec_access r = { 0 };

			hdr(&r.hdr, l, MTRACE_REC_ACCESS, sizeof(r));
			r.vaddr = num(l, "vaddr", 0);
			r.ip = num(l, "ip", 0);
			r.flags = num(l, "flags", MTRACE_F_PADDR | MTRACE_F_SHARED);
			r.paddr = num(l, "paddr", r.flags & MTRACE_F_PADDR ?
				      r.vaddr & 0xfffffff : 0);
			r.pid = num(l, "pid", MTRACE_PID_UNKNOWN);
			r.size = num(l, "size", 8);
			put(&r, sizeof(r), r.hdr.size);
		} else if (!strcmp(type, "switch")) {
			struct mtrace_rec_switch r = { 0 };

			hdr(&r.hdr, l, MTRACE_REC_SWITCH, sizeof(r));
			r.pid = num(l, "pid", 0);
			put(&r, sizeof(r), r.hdr.size);
		} else if (!strcmp(type, "raw")) {
			struct memorizer_rec_hdr h;

			hdr(&h, l, num(l, "type", 99), 16);
			h.size = num(l, "size", 16);
			put(&h, sizeof(h), h.size);
		} else if (!strcmp(type, "cut")) {
			size_t n = num(l, "bytes", 0);

			len = n < len ? len - n : 0;
		} else {
			fprintf(stderr, "mkmtrace: unknown line type %s\n", type);
			return 1;
		}
	}
	if (fwrite(out, 1, len, stdout) != len) {
		perror("mkmtrace");
		return 1;
	}
	return 0;
}
