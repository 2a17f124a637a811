// SPDX-License-Identifier: GPL-2.0
/* memorizer check: validate a text kmap or a binary stream. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <linux/memorizer.h>

#include "builtin.h"

#define MAX_SHOWN	20

static const struct opt opts[] = {
	{ "vmlinux", 0, "FILE", "Also check that every ip is inside a function of this vmlinux (a warning when not)." },
	{ "system-map", 0, "FILE", "The same, with a System.map or /proc/kallsyms." },
	{ "quiet", 'q', NULL, "Print errors only, no summary." },
	{ 0 },
};

/* The input, with the bytes read to tell its format put back in front. */
struct peek {
	FILE *f;
	char buf[16];
	size_t n, pos;
};

static long peek_read(void *ctx, void *buf, size_t len)
{
	struct peek *p = ctx;
	size_t n;

	if (p->pos < p->n) {
		n = p->n - p->pos < len ? p->n - p->pos : len;
		memcpy(buf, p->buf + p->pos, n);
		p->pos += n;
		return (long)n;
	}
	n = fread(buf, 1, len, p->f);
	if (n == 0 && ferror(p->f))
		return -1;
	return (long)n;
}

struct checker {
	const char *name;
	int binary, quiet;
	unsigned long errors, warnings;
	struct kmap_sym *sym;
	uint64_t unknown_ips;
	struct kmap_live *live;
	size_t nlive, live_cap;
	uint64_t lost_frees;	/* binary: FREE records the kernel could not write */
};

static void problem(struct checker *c, int warn, const char *where,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void problem(struct checker *c, int warn, const char *where,
		    const char *fmt, ...)
{
	unsigned long n = warn ? c->warnings++ : c->errors++;
	va_list ap;

	if (n == MAX_SHOWN)
		fprintf(stderr, "%s: further %s not shown\n", c->name,
			warn ? "warnings" : "errors");
	if (n >= MAX_SHOWN)
		return;
	fprintf(stderr, "%s%s", where, warn ? "warning: " : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*
 * The rules return the first MAX_SHOWN + 1 of n problems of a kind (enough
 * for problem() to show MAX_SHOWN and say more follow): count the rest.
 */
static void count_unshown(struct checker *c, int warn, size_t n)
{
	if (n > MAX_SHOWN + 1)
		*(warn ? &c->warnings : &c->errors) += n - (MAX_SHOWN + 1);
}

static int push_live(struct checker *c, uint64_t addr, uint64_t size,
		     uint64_t where)
{
	if (c->nlive == c->live_cap) {
		size_t cap = c->live_cap ? 2 * c->live_cap : 1024;
		void *p = realloc(c->live, cap * sizeof(*c->live));

		if (!p) {
			error("out of memory");
			return -1;
		}
		c->live = p;
		c->live_cap = cap;
	}
	c->live[c->nlive++] = (struct kmap_live){ addr, size, where };
	return 0;
}

/* Overlapping live objects (a warning once FREE records were lost). */
static void check_overlaps(struct checker *c)
{
	size_t pairs[MAX_SHOWN + 1][2], n, i;
	char where[300], what[KMAP_ERR_MAX];

	n = kmap_rule_overlaps(c->live, c->nlive, pairs, MAX_SHOWN + 1);
	count_unshown(c, c->lost_frees > 0, n);
	for (i = 0; i < n && i <= MAX_SHOWN; i++) {
		const struct kmap_live *a, *b;

		a = &c->live[pairs[i][0]];
		b = &c->live[pairs[i][1]];
		if (c->binary)
			snprintf(where, sizeof(where), "%s: byte %llu: ",
				 c->name, (unsigned long long)b->where);
		else
			snprintf(where, sizeof(where), "%s:%llu: ", c->name,
				 (unsigned long long)b->where);
		kmap_rule_overlap_message(a, b, c->binary, what);
		/* With FREEs lost, an address may be reused unseen. */
		problem(c, c->lost_frees > 0, where, "%s%s", what,
			c->lost_frees ? " (its FREE may be among the lost records)" : "");
	}
}

static void check_ip(struct checker *c, const char *where, const char *field,
		     uint64_t ip)
{
	uint64_t start;

	if (!c->sym || ip == KMAP_FREE_IP_MISSED || ip == 0)
		return;
	if (!kmap_sym_function(c->sym, ip, &start)) {
		c->unknown_ips++;
		problem(c, 1, where, "%s %llx is in no known function", field,
			(unsigned long long)ip);
	}
}

/* Duplicate (ip, pid) under the object of line obj_line. */
static int check_dups(struct checker *c, const struct kmap_access *acc,
		      size_t n, uint64_t obj_line)
{
	size_t pairs[MAX_SHOWN + 1][2];
	long found = kmap_rule_dups(acc, n, pairs, MAX_SHOWN + 1), i;
	char where[300];

	if (found < 0) {
		error("out of memory");
		return -1;
	}
	count_unshown(c, 0, found);
	for (i = 0; i < found && i <= MAX_SHOWN; i++) {
		snprintf(where, sizeof(where), "%s:%llu: ", c->name,
			 (unsigned long long)(obj_line + 1 + pairs[i][1]));
		problem(c, 0, where,
			"access (%llx, pid %u) repeats line %llu under the same object",
			(unsigned long long)acc[pairs[i][1]].ip,
			acc[pairs[i][1]].pid,
			(unsigned long long)(obj_line + 1 + pairs[i][0]));
	}
	return 0;
}

/* A rule's verdict on the line or record at where. */
static void apply_rule(struct checker *c, const char *where, int verdict,
		       const char *what)
{
	if (verdict != KMAP_RULE_OK)
		problem(c, verdict == KMAP_RULE_WARNING, where, "%s", what);
}

static int check_text(struct checker *c, struct peek *pk)
{
	struct kmap_text_reader *r = kmap_text_open_fn(peek_read, pk, c->name);
	struct kmap_object o;
	struct kmap_access a, *acc = NULL;
	size_t nacc = 0, acc_cap = 0;
	uint64_t objects = 0, accesses = 0, live = 0, obj_line = 0;
	char where[300], what[KMAP_ERR_MAX];
	int t, rc = 0;

	if (!r) {
		error("out of memory");
		return 1;
	}
	while ((t = kmap_text_next(r, &o, &a)) > 0) {
		snprintf(where, sizeof(where), "%s:%lu: ", c->name,
			 kmap_text_line(r));
		if (t == KMAP_LINE_OBJECT) {
			if (check_dups(c, acc, nacc, obj_line)) {
				rc = 1;
				break;
			}
			nacc = 0;
			obj_line = kmap_text_line(r);
			objects++;
			apply_rule(c, where, kmap_rule_object(&o, what), what);
			if (!kmap_object_freed(&o) && o.addr + o.size >= o.addr) {
				live++;
				if (push_live(c, o.addr, o.size, obj_line)) {
					rc = 1;
					break;
				}
			}
			check_ip(c, where, "alloc_ip", o.alloc_ip);
			check_ip(c, where, "free_ip", o.free_ip);
		} else {
			accesses++;
			apply_rule(c, where, kmap_rule_access(&a, what), what);
			check_ip(c, where, "access_ip", a.ip);
			if (nacc == acc_cap) {
				size_t cap = acc_cap ? 2 * acc_cap : 64;
				void *p = realloc(acc, cap * sizeof(*acc));

				if (!p) {
					error("out of memory");
					rc = 1;
					break;
				}
				acc = p;
				acc_cap = cap;
			}
			acc[nacc++] = a;
		}
	}
	if (t < 0) {
		fprintf(stderr, "%s\n", kmap_text_error(r));
		c->errors++;
	} else if (!rc && !check_dups(c, acc, nacc, obj_line)) {
		check_overlaps(c);
	} else {
		rc = 1;
	}
	if (!c->quiet && !c->errors && !rc)
		printf("%s: valid kmap: %llu objects (%llu live), %llu access lines%s\n",
		       c->name, (unsigned long long)objects,
		       (unsigned long long)live, (unsigned long long)accesses,
		       c->warnings ? " (with warnings)" : "");
	free(acc);
	kmap_text_close(r);
	return rc;
}

struct bin_live {
	uint64_t addr, size, jiffies, offset;
	unsigned int kind;
};

static int check_binary(struct checker *c, struct peek *pk)
{
	struct kmap_bin_reader *r = kmap_bin_open_fn(peek_read, pk, c->name);
	struct kmap_bin_rec rec;
	struct kmap_map ids;
	struct kmap_map early;	/* FREE read before its ALLOC (another CPU's) */
	struct kmap_map early_api;	/* and that FREE's api */
	struct bin_live *lv = NULL;
	size_t nlv = 0, lv_cap = 0;
	uint64_t *free_slots = NULL;
	size_t nfree = 0;
	uint64_t count[MEMORIZER_REC_NR_TYPES] = { 0 }, lost = 0, orphans = 0;
	struct kmap_bin_rules *rules = NULL;
	const struct memorizer_stream_header *h;
	char where[300], what[KMAP_ERR_MAX];
	int rc = 0, t;
	size_t i;

	kmap_map_init(&ids);
	kmap_map_init(&early);
	kmap_map_init(&early_api);
	if (!r) {
		error("out of memory");
		return 1;
	}
	if (kmap_bin_read_header(r)) {
		fprintf(stderr, "%s\n", kmap_bin_error(r));
		c->errors++;
		goto out;
	}
	h = kmap_bin_header(r);
	rules = kmap_bin_rules_new(h->nr_cpus);
	if (!rules) {
		error("out of memory");
		rc = 1;
		goto out;
	}
	while ((t = kmap_bin_next(r, &rec)) > 0) {
		uint64_t *slot;
		int is_new;

		snprintf(where, sizeof(where), "%s: byte %llu: ", c->name,
			 (unsigned long long)rec.offset);
		count[rec.type]++;
		apply_rule(c, where, kmap_rule_bin_time(rules, &rec, what), what);
		apply_rule(c, where, kmap_rule_bin(r, &rec, what), what);
		switch (rec.type) {
		case MEMORIZER_REC_ALLOC:
			check_ip(c, where, "call_site", rec.u.alloc.call_site);
			/*
			 * CPUs' records interleave by chunk: the FREE of an
			 * object made on another CPU may come first. Dead.
			 */
			slot = kmap_map_find(&early, rec.u.alloc.id);
			if (slot) {
				uint64_t *api = kmap_map_find(&early_api,
							      rec.u.alloc.id);

				apply_rule(c, where,
					   kmap_rule_bin_freed(h->version,
							       rec.u.alloc.id,
							       rec.u.alloc.kind,
							       (unsigned int)*api,
							       what), what);
				if (kmap_rule_free_time(rec.u.alloc.jiffies,
							*slot, what))
					problem(c, 0, where, "%s", what);
				kmap_map_del(&early, rec.u.alloc.id);
				kmap_map_del(&early_api, rec.u.alloc.id);
				orphans--;
				break;
			}
			slot = kmap_map_get(&ids, rec.u.alloc.id, &is_new);
			if (!slot) {
				error("out of memory");
				rc = 1;
				goto out;
			}
			if (!is_new) {
				problem(c, 0, where,
					"ALLOC of object id %llu, live since byte %llu",
					(unsigned long long)rec.u.alloc.id,
					(unsigned long long)lv[*slot].offset);
				break;
			}
			if (nfree) {
				*slot = free_slots[--nfree];
			} else {
				if (nlv == lv_cap) {
					size_t cap = lv_cap ? 2 * lv_cap : 1024;
					void *p = realloc(lv, cap * sizeof(*lv));

					if (!p) {
						error("out of memory");
						rc = 1;
						goto out;
					}
					lv = p;
					lv_cap = cap;
					p = realloc(free_slots, cap * sizeof(*free_slots));
					if (!p) {
						error("out of memory");
						rc = 1;
						goto out;
					}
					free_slots = p;
				}
				*slot = nlv++;
			}
			lv[*slot] = (struct bin_live){ rec.u.alloc.addr,
				rec.u.alloc.size, rec.u.alloc.jiffies, rec.offset,
				rec.u.alloc.kind };
			break;
		case MEMORIZER_REC_FREE:
			if (rec.u.free.api != MEMORIZER_FREE_MISSED)
				check_ip(c, where, "call_site", rec.u.free.call_site);
			slot = kmap_map_find(&ids, rec.u.free.id);
			if (!slot) {
				/* Its ALLOC may follow, from another CPU. */
				slot = kmap_map_get(&early, rec.u.free.id, &is_new);
				if (!slot) {
					error("out of memory");
					rc = 1;
					goto out;
				}
				if (is_new) {
					uint64_t *api;

					orphans++;
					*slot = rec.u.free.jiffies;
					api = kmap_map_get(&early_api,
							   rec.u.free.id, NULL);
					if (!api) {
						error("out of memory");
						rc = 1;
						goto out;
					}
					*api = rec.u.free.api;
				} else {
					/* Freed twice before its ALLOC. */
					problem(c, 0, where,
						"second FREE of object id %llu",
						(unsigned long long)rec.u.free.id);
				}
				break;
			}
			apply_rule(c, where,
				   kmap_rule_bin_freed(h->version, rec.u.free.id,
						       lv[*slot].kind,
						       rec.u.free.api, what),
				   what);
			if (kmap_rule_free_time(lv[*slot].jiffies,
						rec.u.free.jiffies, what))
				problem(c, 0, where, "%s (byte %llu)", what,
					(unsigned long long)lv[*slot].offset);
			free_slots[nfree++] = *slot;
			kmap_map_del(&ids, rec.u.free.id);
			break;
		case MEMORIZER_REC_ACCESS:
			check_ip(c, where, "ip", rec.u.access.ip);
			break;
		case MEMORIZER_REC_LOST:
			lost += rec.u.lost.records;
			c->lost_frees += rec.u.lost.frees;
			break;
		}
	}
	if (t < 0) {
		fprintf(stderr, "%s\n", kmap_bin_error(r));
		c->errors++;
		goto out;
	}
	for (i = 0; i < ids.cap; i++)
		if (ids.used[i]) {
			struct bin_live *l = &lv[ids.vals[i]];

			if (l->addr + l->size < l->addr)
				continue;
			if (push_live(c, l->addr, l->size, l->offset)) {
				rc = 1;
				goto out;
			}
		}
	check_overlaps(c);
	if (!c->quiet && !c->errors) {
		printf("%s: valid stream (version %u, %u CPUs, HZ %u): %llu allocs, %llu frees, %llu accesses, %llu tasks, %llu caches, %llu lost records",
		       c->name, h->version, h->nr_cpus, h->hz,
		       (unsigned long long)count[MEMORIZER_REC_ALLOC],
		       (unsigned long long)count[MEMORIZER_REC_FREE],
		       (unsigned long long)count[MEMORIZER_REC_ACCESS],
		       (unsigned long long)count[MEMORIZER_REC_TASK],
		       (unsigned long long)count[MEMORIZER_REC_CACHE],
		       (unsigned long long)lost);
		if (orphans)
			printf(", %llu frees of objects allocated before the stream",
			       (unsigned long long)orphans);
		if (kmap_bin_skipped(r))
			printf(", %llu records of unknown types skipped",
			       (unsigned long long)kmap_bin_skipped(r));
		printf("%s\n", c->warnings ? " (with warnings)" : "");
	}
	if (lost)
		warning("%s: %llu records were lost: the kernel's buffers were full",
			c->name, (unsigned long long)lost);
out:
	kmap_map_free(&ids);
	kmap_map_free(&early);
	kmap_map_free(&early_api);
	free(lv);
	free(free_slots);
	kmap_bin_rules_free(rules);
	kmap_bin_close(r);
	return rc;
}

static int run(int argc, char **argv)
{
	struct optparse p;
	struct checker c = { 0 };
	const char *vmlinux = NULL, *system_map = NULL;
	int i, rc = 0, failed;

	optparse_init(&p, &cmd_check, argc, argv);
	while ((i = opt_next(&p)) >= 0) {
		if (opt_is(&p, i, "vmlinux"))
			vmlinux = p.arg;
		else if (opt_is(&p, i, "system-map"))
			system_map = p.arg;
		else if (opt_is(&p, i, "quiet"))
			c.quiet = 1;
	}
	if (i == -2)
		return 0;
	if (i == -3)
		return 2;
	if (p.nops < 1) {
		error("which file?");
		cmd_usage(&cmd_check, stderr);
		return 2;
	}
	c.sym = open_symbols(vmlinux, system_map, &failed);
	if (failed)
		return 2;
	for (i = 0; i < p.nops; i++) {
		const char *path = p.ops[i];
		char magic[16], err[KMAP_ERR_MAX];
		FILE *f = strcmp(path, "-") ? kmap_fopen(path, err) : stdin;
		size_t n;
		struct peek pk;
		enum kmap_format fmt;

		if (!f) {
			error("%s", err);
			rc = 1;
			continue;
		}
		c.name = strcmp(path, "-") ? path : "<stdin>";
		c.errors = c.warnings = c.unknown_ips = 0;
		c.nlive = 0;
		c.lost_frees = 0;
		n = fread(magic, 1, sizeof(magic), f);
		fmt = kmap_guess_format(magic, n);
		c.binary = fmt == KMAP_FMT_BINARY;
		if (fmt == KMAP_FMT_BINARY_ZSTD) {
			error("%s: zstd-compressed: check 'zstd -dc %s | memorizer check -'",
			      c.name, path);
			rc = 1;
			if (f != stdin)
				fclose(f);
			continue;
		}
		pk.f = f;
		pk.n = n;
		pk.pos = 0;
		memcpy(pk.buf, magic, n);
		if (c.binary ? check_binary(&c, &pk) : check_text(&c, &pk))
			rc = 1;
		if (f != stdin)
			fclose(f);
		if (c.errors)
			rc = 1;
		if (c.errors && !c.quiet)
			printf("%s: invalid: %lu error%s\n", c.name, c.errors,
			       c.errors == 1 ? "" : "s");
		if (c.unknown_ips)
			warning("%s: %llu ips in no known function (a symbol file of another kernel?)",
				c.name, (unsigned long long)c.unknown_ips);
	}
	kmap_sym_close(c.sym);
	free(c.live);
	return rc;
}

const struct cmd cmd_check = {
	.name = "check",
	.summary = "validate a kmap or a binary stream",
	.synopsis = "[--vmlinux FILE | --system-map FILE] [-q] FILE...",
	.description =
"Reads each FILE (- for standard input), a text kmap or a binary stream "
"(told apart by the stream's magic), and checks it the way the kernel "
"documentation defines it. Exits 0 only when every FILE is valid; prints "
"each problem as FILE:LINE: what is wrong (text) or FILE: byte OFFSET: what "
"is wrong (binary), at most 20 of each kind, then a summary line.\n"
"\n"
"Text kmaps: the syntax of every line (number formats are ABI: lowercase "
"hexadecimal without 0x or leading zeros, unsigned decimal without leading "
"zeros, numbers in range, pids below 4194304), access lines after an "
"object line and indented by exactly two spaces, alloc_ip set, no free "
"before its allocation (a freed object may have free_ip 0: seed 000 says "
"not every free_ip is obtained), no interrupt-context "
"allocation with a pid, a found object (pid 0, executable global, "
"percpu, irq_stack, unseen or page) with its own address as alloc_ip "
"(any may be freed: a global may be a module's, freed when the module "
"is unloaded, a percpu one an alloc_percpu() area), "
"no access line without reads or "
"writes, no (ip, pid) twice under one object, no two live objects "
"overlapping.\n"
"\n"
"Binary streams: magic, ABI version (1, 2, 3 or 4; version 1 has no "
"kind global and no context found, version 2 no kinds percpu and stack, "
"no free api percpu and no found objects but globals, version 3 no free "
"api module), header and record sizes (records of "
"unknown types are skipped by their size, short records rejected), CPU "
"numbers, per-CPU time order, known enum values, no pid in interrupt "
"context, context found always for globals and per-CPU objects and "
"never for kmalloc_large and vmalloc objects, a found object's call_site "
"its own address and its pid 0 but for a task's stack (whose ALLOC, "
"like a task's, needs a TASK record for its pid), one live ALLOC per "
"id, frees after their allocation, no FREE of a global before version "
"4 and from then on only by free api module (6: its module unloaded, "
"the call_site the unload's caller) or missed, api module for globals "
"only (a per-CPU object's FREE is valid: an alloc_percpu() area's), "
"missed frees marked deadbeef, LOST records "
"consistent, no two live objects overlapping (a warning, not an error, "
"once FREE records were lost); lost records are reported as a warning.\n"
"\n"
"The rules are libkmap's, and the same for every command: report and text "
"refuse, with the same message, any input check calls invalid (they stop "
"at its first error; check goes on and reports each).\n"
"\n"
"With --vmlinux or --system-map, every ip must also fall inside a known "
"function; ips that do not are warnings (they do not make the file "
"invalid: modules are not in System.map).",
	.opts = opts,
	.files_desc = "kmap",
	.examples =
"  $ memorizer check tar.kmap\n"
"  tar.kmap: valid kmap: 365 objects (8 live), 16582 access lines",
	.run = run,
};
