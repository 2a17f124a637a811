// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the reader of debugfs memorizer/stats
 * (kmap_stats.c): what it accepts has keys without spaces and every key
 * found by name (the first of its name); written back as "key value"
 * lines, it reads back the same; what it refuses is said with the file's
 * name and a line number.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmap.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	/* fmemopen() takes no empty buffer. */
	FILE *f = size ? fmemopen((void *)data, size, "r") :
			 fopen("/dev/null", "r");
	struct kmap_stats st, back;
	char err[KMAP_ERR_MAX], *buf = NULL;
	size_t i, j, len = 0;

	if (!f)
		abort();
	if (kmap_stats_read(f, "fuzz", &st, err)) {
		fclose(f);
		kmap_stats_free(&st);
		if (strncmp(err, "fuzz", 4) && strcmp(err, "out of memory"))
			abort();
		return 0;
	}
	fclose(f);
	f = open_memstream(&buf, &len);
	if (!f)
		abort();
	for (i = 0; i < st.n; i++) {
		const uint64_t *v = kmap_stats_find(&st, st.stat[i].key);

		for (j = 0; strcmp(st.stat[j].key, st.stat[i].key); j++)
			;
		if (!st.stat[i].key[0] || strchr(st.stat[i].key, ' ') ||
		    v != &st.stat[j].value)
			abort();
		fprintf(f, "%s %" PRIu64 "\n", st.stat[i].key, st.stat[i].value);
	}
	fclose(f);
	f = len ? fmemopen(buf, len, "r") : fopen("/dev/null", "r");
	if (!f)
		abort();
	if (kmap_stats_read(f, "back", &back, err) || back.n != st.n)
		abort();
	for (i = 0; i < st.n; i++)
		if (strcmp(back.stat[i].key, st.stat[i].key) ||
		    back.stat[i].value != st.stat[i].value)
			abort();
	fclose(f);
	free(buf);
	kmap_stats_free(&back);
	kmap_stats_free(&st);
	return 0;
}
