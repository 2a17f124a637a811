// SPDX-License-Identifier: GPL-2.0
/*
 * Progress on a terminal: one line on standard error, rewritten at most
 * twice a second, for long inputs and for stream's collection.
 */
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

void progress_input(struct progress *p, const struct kmap_src *src, int last)
{
	uint64_t size, done;

	if (!p->on || (!last && now() - p->last < 0.5))
		return;
	done = kmap_src_progress(src, &size);
	if ((last && !p->shown) || !due(p, last))
		return;
	/* The last one is wiped: the command's own output follows. */
	if (last)
		fprintf(stderr, "\r%*s\r", 60, "");
	else
		fprintf(stderr, "\r%s: %.0f%% of %.1f MB, %.0f s   ", p->name,
			size ? 100.0 * (double)done / (double)size : 0.0,
			size / 1e6, now() - p->t0);
}

int progress_wanted(const struct kmap_src *src)
{
	uint64_t size;

	kmap_src_progress(src, &size);
	return size >= PROGRESS_MIN_BYTES && isatty(2);
}

int read_objects(struct kmap_src *src, read_object_fn each, void *ctx)
{
	const struct kmap_object *o;
	const struct kmap_access *acc;
	struct progress pg;
	uint64_t n = 0;
	size_t nacc;
	int rc;

	progress_init(&pg, progress_wanted(src), kmap_src_name(src));
	while ((rc = kmap_src_next(src, &o, &acc, &nacc)) > 0) {
		if (!(n++ & 4095))
			progress_input(&pg, src, 0);
		if (each(ctx, o, acc, nacc)) {
			progress_input(&pg, src, 1);
			return -1;
		}
	}
	progress_input(&pg, src, 1);
	if (rc < 0) {
		error("%s", kmap_src_error(src));
		return -1;
	}
	return 0;
}
