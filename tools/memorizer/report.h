/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memorizer report's parts: the command (builtin-report.c: options, the
 * totals, the tables of --by) and its HTML page (report-html.c).
 */
#ifndef MEMORIZER_REPORT_H
#define MEMORIZER_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "kmap.h"

struct json_object;

/* The input's totals: the summary lines of the table, JSON and page. */
struct totals {
	uint64_t objects, live, bytes, bytes_alloc, lines, reads, writes;
	uint64_t never_read, never_written, missed, cross_cpu, mismatch;
	uint64_t life_sum, life_n;
	unsigned int has;
};

/* The JSON "summary" object of the totals (NULL when out of memory). */
struct json_object *report_summary_json(const struct totals *t,
					struct kmap_src *src);

/*
 * The HTML page (report-html.c): html_new() before reading (NULL with a
 * message when stats cannot be read), html_add() for every object in the
 * order read (objno from 0), html_write() at the end; html_free() always.
 */
struct html_opts {
	const char *stats;		/* a debugfs stats file, or NULL */
	uint64_t per_site;		/* objects shipped per call site */
	const char *symbols;		/* the symbol file given, or NULL */
	const char *vmlinux;		/* for struct types, or NULL */
	const char *btf;		/* struct types instead, or NULL */
};
struct html;
struct html *html_new(const struct html_opts *opts, struct kmap_sym *sym);
int html_add(struct html *h, const struct kmap_object *o,
	     const struct kmap_access *acc, size_t nacc, uint64_t reads,
	     uint64_t writes, uint64_t objno);
/*
 * Call edges for the compartments view (a stream's CALL records, a
 * function_calls file's), after reading: 0, or -1 when out of memory.
 */
int html_calls(struct html *h, const struct kmap_calls *calls);
/* Returns 0, or -1 with a message (out of memory). */
int html_write(struct html *h, const struct totals *t, struct kmap_src *src,
	       FILE *out);
void html_free(struct html *h);

/* Defaults and bounds of what the page ships. */
#define HTML_PER_SITE		20	/* objects per call site (--objects) */
#define HTML_OBJECTS_MAX	20000	/* objects in all */
#define HTML_ACCESSORS_MAX	16	/* access ips per object */
#define HTML_SITES_MAX		5000	/* call sites, those of most bytes */
#define HTML_CAPMAP_ROWS	60	/* heatmap rows per map, most traffic */
#define HTML_CAPMAP_COLS	40	/* heatmap columns per map, alike */
#define HTML_CAPMAP_CHILDREN	10	/* a drill-down's rows per parent row */
#define HTML_CAPMAP_SHIP	600	/* rows per map in all, with those */
#define HTML_COMPART_POINTS	20	/* the sweep's design points */
#define HTML_COMPART_DETAIL	16	/* a point's compartments listed when
					 * it has at most this many */
#define HTML_COMPART_UNITS	50	/* functions listed per compartment */
#define HTML_COMPART_DATA	50	/* data units listed per compartment */

#endif
