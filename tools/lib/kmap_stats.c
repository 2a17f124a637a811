// SPDX-License-Identifier: GPL-2.0
/*
 * libkmap: debugfs memorizer/stats, the kernel's figures as "key value"
 * lines, read in one place for memorizer record and stream (the drops)
 * and report --html (--stats). See kmap.h.
 */
#include <stdlib.h>
#include <string.h>

#include "kmap.h"

static int stats_error(char *err, const char *name, unsigned long line,
		       const char *what, const char *text)
{
	if (text)
		snprintf(err, KMAP_ERR_MAX, "%.150s:%lu: %s: '%s'", name, line,
			 what, text);
	else
		snprintf(err, KMAP_ERR_MAX, "%.150s:%lu: %s", name, line, what);
	return -1;
}

int kmap_stats_read(FILE *f, const char *name, struct kmap_stats *st,
		    char *err)
{
	char line[KMAP_STATS_LINE_MAX];
	unsigned long n = 0;

	memset(st, 0, sizeof(*st));
	while (fgets(line, sizeof(line), f)) {
		size_t len = strcspn(line, "\n"), klen = strcspn(line, " ");
		struct kmap_stat *s;
		uint64_t v;

		n++;
		if (line[len] != '\n' && !feof(f))
			return stats_error(err, name, n, "line too long", NULL);
		line[len] = 0;
		if (!len)
			continue;
		if (!klen || klen >= len ||
		    kmap_parse_dec(line + klen + 1, len - klen - 1, &v))
			return stats_error(err, name, n,
					   "not a \"key value\" line (debugfs memorizer/stats)",
					   line);
		if (kmap_grow((void **)&st->stat, &st->cap, st->n + 1,
			      sizeof(*st->stat)))
			goto oom;
		s = &st->stat[st->n];
		s->key = strndup(line, klen);
		if (!s->key)
			goto oom;
		s->value = v;
		st->n++;
	}
	if (ferror(f)) {
		snprintf(err, KMAP_ERR_MAX, "%.150s: read error", name);
		return -1;
	}
	return 0;
oom:
	snprintf(err, KMAP_ERR_MAX, "out of memory");
	return -1;
}

const uint64_t *kmap_stats_find(const struct kmap_stats *st, const char *key)
{
	size_t i;

	for (i = 0; i < st->n; i++)
		if (!strcmp(st->stat[i].key, key))
			return &st->stat[i].value;
	return NULL;
}

void kmap_stats_free(struct kmap_stats *st)
{
	size_t i;

	for (i = 0; i < st->n; i++)
		free(st->stat[i].key);
	free(st->stat);
	memset(st, 0, sizeof(*st));
}
