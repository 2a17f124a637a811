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
 *   access cpu= ns= id= ip= pid= writes= reads=
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
 * unload, version 4's).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/memorizer.h>

static unsigned char out[256 << 20];	/* whole streams, cut from the end */
static size_t len;

static const char *val(char *line, const char *key)
{
	static char buf[256];
	char pat[64], *p;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	if (!p)
		return NULL;
	p += strlen(pat);
	snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(p, " \n"), p);
	/* \xHH: any byte, for names and comms of every kind. */
	for (p = buf; (p = strstr(p, "\\x")) && p[2] && p[3]; p++) {
		char hex[3] = { p[2], p[3], 0 };

		*p = (char)strtoul(hex, NULL, 16);
		memmove(p + 1, p + 4, strlen(p + 4) + 1);
	}
	return buf;
}

static unsigned long long num(char *line, const char *key, unsigned long long def)
{
	const char *v = val(line, key);

	return v ? strtoull(v, NULL, 0) : def;
}

static void put(const void *rec, size_t size, size_t want)
{
	if (len + want > sizeof(out)) {
		fprintf(stderr, "mkstream: too big\n");
		exit(1);
	}
	memset(out + len, 0, want);
	memcpy(out + len, rec, size < want ? size : want);
	len += want;
}

static void hdr(struct memorizer_rec_hdr *h, char *line, unsigned int type,
		size_t size)
{
	h->type = type;
	h->size = num(line, "size", size);
	h->cpu = num(line, "cpu", 0);
	h->ns = num(line, "ns", 0);
}

int main(void)
{
	char line[1024];

	while (fgets(line, sizeof(line), stdin)) {
		char type[32], *l = line;

		memmove(l + 1, l, strlen(l) + 1);
		l[0] = ' ';
		if (sscanf(l, " %31s", type) != 1 || type[0] == '#')
			continue;
		if (!strcmp(type, "header")) {
			static const __u16 sizes[MEMORIZER_REC_NR_TYPES] =
				MEMORIZER_REC_SIZES;
			struct memorizer_stream_header h = { 0 };
			const char *m = val(l, "magic");
			int t;

			memcpy(h.magic, MEMORIZER_STREAM_MAGIC, 8);
			if (m)
				strncpy(h.magic, m, 8);
			h.version = num(l, "version", MEMORIZER_STREAM_VERSION);
			h.header_size = num(l, "header_size", sizeof(h));
			h.nr_types = num(l, "nr_types", MEMORIZER_REC_NR_TYPES);
			h.nr_cpus = num(l, "nr_cpus", 2);
			h.hz = num(l, "hz", 250);
			h.page_size = num(l, "page_size", 4096);
			memcpy(h.rec_size, sizes, sizeof(sizes));
			for (t = 0; t < MEMORIZER_REC_TYPES_MAX; t++) {
				char k[32];

				snprintf(k, sizeof(k), "rec_size.%d", t);
				h.rec_size[t] = num(l, k, h.rec_size[t]);
			}
			put(&h, sizeof(h), h.header_size > sizeof(h) ? h.header_size : sizeof(h));
		} else if (!strcmp(type, "task")) {
			struct memorizer_rec_task r = { 0 };
			const char *c;

			hdr(&r.hdr, l, MEMORIZER_REC_TASK, sizeof(r));
			r.pid = num(l, "pid", 0);
			c = val(l, "comm");
			if (c)
				strncpy(r.comm, c, sizeof(r.comm));
			put(&r, sizeof(r), r.hdr.size);
		} else if (!strcmp(type, "cache")) {
			struct memorizer_rec_cache r = { 0 };
			const char *c;

			hdr(&r.hdr, l, MEMORIZER_REC_CACHE, sizeof(r));
			r.cache_id = num(l, "id", 0);
			c = val(l, "name");
			if (c)
				strncpy(r.name, c, sizeof(r.name));
			put(&r, sizeof(r), r.hdr.size);
		} else if (!strcmp(type, "alloc")) {
			struct memorizer_rec_alloc r = { 0 };

			hdr(&r.hdr, l, MEMORIZER_REC_ALLOC, sizeof(r));
			r.id = num(l, "id", 0);
			r.addr = num(l, "addr", 0);
			r.call_site = num(l, "call_site", 0);
			r.jiffies = num(l, "jiffies", 0);
			r.size = num(l, "size_req", 0);
			r.size_alloc = num(l, "size_alloc", r.size);
			r.pid = num(l, "pid", 0);
			r.cache_id = num(l, "cache_id", 0);
			r.kind = num(l, "kind", 0);
			r.context = num(l, "context", 0);
			put(&r, sizeof(r), r.hdr.size);
		} else if (!strcmp(type, "free")) {
			struct memorizer_rec_free r = { 0 };

			hdr(&r.hdr, l, MEMORIZER_REC_FREE, sizeof(r));
			r.id = num(l, "id", 0);
			r.call_site = num(l, "call_site", 0);
			r.jiffies = num(l, "jiffies", 0);
			r.api = num(l, "api", 0);
			r.nr_access = num(l, "nr_access", 0);
			put(&r, sizeof(r), r.hdr.size);
		} else if (!strcmp(type, "access")) {
			struct memorizer_rec_access r = { 0 };

			hdr(&r.hdr, l, MEMORIZER_REC_ACCESS, sizeof(r));
			r.id = num(l, "id", 0);
			r.ip = num(l, "ip", 0);
			r.pid = num(l, "pid", 0);
			r.writes = num(l, "writes", 0);
			r.reads = num(l, "reads", 0);
			put(&r, sizeof(r), r.hdr.size);
		} else if (!strcmp(type, "lost")) {
			struct memorizer_rec_lost r = { 0 };

			hdr(&r.hdr, l, MEMORIZER_REC_LOST, sizeof(r));
			r.allocs = num(l, "allocs", 0);
			r.frees = num(l, "frees", 0);
			r.accesses = num(l, "accesses", 0);
			r.other = num(l, "other", 0);
			r.records = num(l, "records",
					(unsigned long long)r.allocs + r.frees +
					r.accesses + r.other);
			put(&r, sizeof(r), r.hdr.size);
		} else if (!strcmp(type, "raw")) {
			struct memorizer_rec_hdr h;

			hdr(&h, l, num(l, "type", 99), 16);
			put(&h, sizeof(h), h.size);
		} else if (!strcmp(type, "cut")) {
			size_t n = num(l, "bytes", 0);

			len = n < len ? len - n : 0;
		} else {
			fprintf(stderr, "mkstream: unknown line type %s\n", type);
			return 1;
		}
	}
	return fwrite(out, 1, len, stdout) == len ? 0 : 1;
}
