// SPDX-License-Identifier: GPL-2.0
/*
 * Progress on a terminal: one line on standard error, rewritten at most
 * twice a second, for long inputs (every command's, as kmap_src reads
 * them) and for stream's collection. MEMORIZER_PROGRESS=1 shows it for
 * every input, terminal or not; 0 never.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"

double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void progress_init(struct progress *p, int on, const char *name)
{
	p->on = on;
	p->name = name;
	p->t0 = now();
	p->last = p->t0 - 1;	/* the first call shows where it starts */
	p->shown = 0;
	p->tty = isatty(2);
}

/* Whether half a second went by since the last line (or it is the last). */
static int due(struct progress *p, int last)
{
	double t;

	if (!p->on)
		return 0;
	t = now();
	if (!last && t - p->last < 0.5)
		return 0;
	p->last = t;
	p->shown = 1;
	return 1;
}

void progress_count(struct progress *p, uint64_t bytes, uint64_t n,
		    const char *what, int last)
{
	if (!due(p, last))
		return;
	fprintf(stderr, "\r%s: %.1f MB, %llu %s, %.0f s%s", p->name, bytes / 1e6,
		(unsigned long long)n, what, now() - p->t0, last ? "\n" : "   ");
}

/*
 * One input's line, as kmap_src tells how far its reading is: "NAME: P%
 * of M MB, N records, S s" while it goes on (rewritten in place on a
 * terminal, a line each when forced elsewhere), "NAME: N records, M MB,
 * S s" at its end (lines for a text input). p is the input's own, freed
 * with its last call.
 */
static void input_progress(void *ctx, const struct kmap_src *src,
			   enum kmap_progress what)
{
	struct progress *p = ctx;
	uint64_t size, done = kmap_src_progress(src, &size), n;
	const char *cr = p->tty ? "\r" : "", *eol = p->tty ? "\033[K" : "\n";
	const char *unit;
	int lines;

	if (what == KMAP_PROGRESS_READ && !due(p, 0))
		return;
	n = kmap_src_records(src, &lines);
	unit = lines ? plural(n, "line", "lines") : plural(n, "record", "records");
	if (what == KMAP_PROGRESS_READ && size)
		fprintf(stderr, "%s%s: %.0f%% of %.1f MB, %llu %s, %.0f s%s", cr,
			p->name, 100.0 * (double)done / (double)size,
			size / 1e6, (unsigned long long)n, unit,
			now() - p->t0, eol);
	else if (what == KMAP_PROGRESS_READ)
		fprintf(stderr, "%s%s: %.1f MB, %llu %s, %.0f s%s", cr, p->name,
			done / 1e6, (unsigned long long)n, unit, now() - p->t0,
			eol);
	else if (what == KMAP_PROGRESS_END)
		fprintf(stderr, "%s%s: %llu %s, %.1f MB, %.0f s%s", cr, p->name,
			(unsigned long long)n, unit, done / 1e6, now() - p->t0,
			p->tty ? "\033[K\n" : "\n");
	else if (p->shown && p->tty)
		fputc('\n', stderr);	/* stopped: the line stays as it was */
	if (what != KMAP_PROGRESS_READ)
		free(p);
}

int progress_wanted(const struct kmap_src *src)
{
	const char *env = getenv("MEMORIZER_PROGRESS");
	uint64_t size;

	if (env && (!strcmp(env, "0") || !strcmp(env, "1")))
		return *env == '1';
	kmap_src_progress(src, &size);
	return size >= PROGRESS_MIN_BYTES && isatty(2);
}

struct kmap_src *open_input(const char *path, char *err)
{
	struct kmap_src *src = kmap_src_open(path, err);
	struct progress *p;

	if (!src || !progress_wanted(src))
		return src;
	p = malloc(sizeof(*p));
	if (p) {	/* without memory for it, no progress: no harm */
		progress_init(p, 1, kmap_src_name(src));
		kmap_src_on_progress(src, input_progress, p);
	}
	return src;
}

int read_objects(struct kmap_src *src, read_object_fn each, void *ctx)
{
	const struct kmap_object *o;
	const struct kmap_access *acc;
	size_t nacc;
	int rc;

	while ((rc = kmap_src_next(src, &o, &acc, &nacc)) > 0)
		if (each(ctx, o, acc, nacc))
			return -1;
	if (rc < 0) {
		error("%s", kmap_src_error(src));
		return -1;
	}
	return 0;
}
