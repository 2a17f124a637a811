// SPDX-License-Identifier: GPL-2.0
/* mkrec: the description parser of mkstream and mkmtrace (mkrec.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmap_records.h"
#include "mkrec.h"

static unsigned char out[256 << 20];	/* whole files, cut from the end */
static size_t len;
static const struct mkrec_gen *const gen = &mkrec_gen;

const char *mkrec_val(const char *line, const char *key)
{
	static char buf[256];
	char pat[64], *q;
	const char *p;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	if (!p)
		return NULL;
	p += strlen(pat);
	snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(p, " \n"), p);
	if (!gen->hex_escapes)
		return buf;
	/* \xHH: any byte, for names and comms of every kind. */
	for (q = buf; (q = strstr(q, "\\x")) && q[2] && q[3]; q++) {
		char hex[3] = { q[2], q[3], 0 };

		*q = (char)strtoul(hex, NULL, 16);
		memmove(q + 1, q + 4, strlen(q + 4) + 1);
	}
	return buf;
}

unsigned long long mkrec_num(const char *line, const char *key,
			     unsigned long long def)
{
	const char *v = mkrec_val(line, key);

	return v ? strtoull(v, NULL, 0) : def;
}

void mkrec_put(const void *rec, size_t size, size_t want)
{
	if (len + want > gen->max) {
		fprintf(stderr, "%s: too big\n", gen->name);
		exit(1);
	}
	memset(out + len, 0, want);
	memcpy(out + len, rec, size < want ? size : want);
	len += want;
}

void mkrec_hdr(struct memorizer_rec_hdr *h, const char *line,
	       unsigned int type, size_t size)
{
	h->type = type;
	h->size = mkrec_num(line, gen->size_key, size);
	h->cpu = mkrec_num(line, "cpu", 0);
	h->reserved = 0;
	h->ns = mkrec_num(line, "ns", 0);
}

void mkrec_header(void *hp, const char *line, unsigned int version,
		  const __u16 *sizes, size_t nr)
{
	struct kmap_records_header h;
	int t;

	memcpy(&h, hp, sizeof(h));
	h.version = mkrec_num(line, "version", version);
	h.header_size = mkrec_num(line, "header_size", sizeof(h));
	h.nr_types = mkrec_num(line, "nr_types", nr);
	h.nr_cpus = mkrec_num(line, "nr_cpus", 2);
	memset(h.rec_size, 0, sizeof(h.rec_size));
	memcpy(h.rec_size, sizes, nr * sizeof(*sizes));
	for (t = 0; t < MEMORIZER_REC_TYPES_MAX; t++) {
		char k[32];

		snprintf(k, sizeof(k), "rec_size.%d", t);
		h.rec_size[t] = mkrec_num(line, k, h.rec_size[t]);
	}
	memcpy(hp, &h, sizeof(h));
}

void mkrec_put_header(const void *h, size_t size, size_t header_size)
{
	mkrec_put(h, size, header_size > size ? header_size : size);
}

int main(void)
{
	/* One more byte: each line moves up one, behind a space. */
	char line[1024 + 1];

	while (fgets(line, sizeof(line) - 1, stdin)) {
		char type[32], *l = line;

		/* " key=" then finds the first key too. */
		memmove(l + 1, l, strlen(l) + 1);
		l[0] = ' ';
		if (sscanf(l, " %31s", type) != 1 || type[0] == '#')
			continue;
		if (!strcmp(type, "raw")) {
			struct memorizer_rec_hdr h;

			mkrec_hdr(&h, l, mkrec_num(l, "type", 99), 16);
			h.size = mkrec_num(l, "size", 16);
			mkrec_put(&h, sizeof(h), h.size);
		} else if (!strcmp(type, "cut")) {
			size_t n = mkrec_num(l, "bytes", 0);

			len = n < len ? len - n : 0;
		} else if (gen->line(type, l)) {
			fprintf(stderr, "%s: unknown line type %s\n", gen->name,
				type);
			return 1;
		}
	}
	if (fwrite(out, 1, len, stdout) != len) {
		perror(gen->name);
		return 1;
	}
	return 0;
}
