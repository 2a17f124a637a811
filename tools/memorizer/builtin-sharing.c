// SPDX-License-Identifier: GPL-2.0
/*
 * memorizer sharing: the cache lines an mtrace log shows moving between
 * vCPUs, ranked, with the objects they hold, false sharing flagged, and
 * the instructions and functions involved.
 */
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "mtrace_log.h"
#include "table.h"

#define LINE_SIZE	(1u << MTRACE_LINE_SHIFT)
#define MAX_WRITERS	4	/* per line, the vCPUs whose bytes are kept */
#define MAX_IPS		8	/* instructions shown per line */
#define MAX_OBJS	3	/* objects shown per line */

static const char *kmap, *vmlinux, *system_map;
static struct kmap_map pids;		/* --pid: the tasks kept (none: all) */
static uint64_t top = 20;
static unsigned int formats;

/* --kmap and --stream: one of them, once. */
static int kmap_cb(const struct opt *opt, const char *arg)
{
	const char **v = opt->value;

	if (*v) {
		error("one --kmap or --stream");
		return -1;
	}
	*v = arg;
	return 0;
}

static int pid_cb(const struct opt *opt, const char *arg)
{
	uint64_t pid;

	if (parse_u64_arg("--pid", arg, &pid))
		return -1;
	if (pid >= KMAP_PID_MAX) {
		error("--pid: %s: not a pid", arg);
		return -1;
	}
	if (!kmap_map_get(opt->value, pid, NULL)) {
		error("out of memory");
		return -1;
	}
	return 0;
}

static const struct opt opts[] = {
	OPT_CALLBACK(0, "kmap", &kmap, "FILE", "Name the objects from a kmap or a binary stream of the same run (Memorizer's records).", kmap_cb),
	OPT_CALLBACK(0, "stream", &kmap, "FILE", "The same (a binary stream; any kmap input is taken).", kmap_cb),
	OPT__SYSTEM_MAP(&system_map, "Functions, and global objects when no --kmap, from a System.map or /proc/kallsyms."),
	OPT__VMLINUX(&vmlinux, "Functions (and source lines) from a vmlinux."),
	OPT_CALLBACK('p', "pid", &pids, "PID", "Only the accesses of task PID (repeatable; the plugin knows tasks from mtrace_task.ko's markers).", pid_cb),
	OPT_U64('n', "top", &top, "N", "Show the first N lines (default 20; 0: all)."),
	OPT__CSV(&formats, "CSV, a line a row, with a header row."),
	OPT__JSON(&formats, "JSON: one object, the lines in rank order."),
	OPT_END(),
};
struct line {
	uint64_t addr;			/* the line's first byte (virtual) */
	uint64_t transfers, reads, writes;
	uint64_t cpus;			/* vCPUs that moved it */
	uint8_t nw, wcpu[MAX_WRITERS];
	uint64_t wmask[MAX_WRITERS];	/* bytes each writer wrote */
	int false_sharing;
};

struct ipc {
	uint64_t ip, reads, writes;
	uint64_t cpus;
};

struct sym {
	uint64_t addr, size;
	char *name;			/* "name" or "name [module]" */
	int data;
};

struct obj {
	uint64_t addr, size, alloc_ip;
	int kind;
	uint32_t pid;
	int freed;
	char comm[KMAP_COMM_MAX];
};

struct state {
	const char *log;
	struct kmap_map lines;		/* line addr -> index */
	struct line *l;
	size_t nl, lcap;
	struct line **rank;
	size_t nrank;
	struct kmap_map ipidx;		/* rank << 32 | slot ... see collect */
	struct ipc **ips;		/* per ranked line */
	size_t *nips, *ipcap;
	struct sym *syms;		/* sorted by address */
	size_t nsyms, syms_cap;
	struct obj *objs;		/* sorted by address */
	size_t nobjs;
	struct kmap_sym *fsym;
	const struct mtrace_log_header *hdr;
	unsigned int nr_cpus, mode;
	int bytes;			/* the log's rule was on bytes, not lines */
	uint64_t accesses, flagged, unknown_task;
};

/* Whether --pid keeps an access of pid. */
static int pid_kept(uint32_t pid)
{
	return !pids.len || kmap_map_find(&pids, pid);
}

static int open_log(const char *path, struct kmap_src **src, char *err)
{
	*src = open_input(path, err);
	if (!*src)
		return -1;
	if (!kmap_src_mtrace(*src)) {
		snprintf(err, KMAP_ERR_MAX,
			 "%s: not an mtrace log (vm/run --mtrace writes one)",
			 kmap_src_name(*src));
		kmap_src_close(*src);
		*src = NULL;
		return -1;
	}
	return 0;
}

static void add_write(struct line *l, unsigned int cpu, uint64_t vaddr,
		      unsigned int size)
{
	unsigned int off = vaddr & (LINE_SIZE - 1), end = off + size, i;
	uint64_t mask;

	if (end > LINE_SIZE)
		end = LINE_SIZE;
	mask = (end - off == 64 ? ~0ull : ((1ull << (end - off)) - 1)) << off;
	for (i = 0; i < l->nw; i++)
		if (l->wcpu[i] == cpu)
			break;
	if (i == l->nw) {
		if (l->nw == MAX_WRITERS)
			return;
		l->wcpu[l->nw] = (uint8_t)cpu;
		l->wmask[l->nw++] = 0;
	}
	l->wmask[i] |= mask;
}

/* Pass 1: every flagged access, by line. */
static int pass_lines(struct state *st, struct kmap_src *src)
{
	struct kmap_mtrace_reader *r = kmap_src_mtrace(src);
	struct kmap_mtrace_rec rec;
	int rc;

	while ((rc = kmap_mtrace_next(r, &rec)) > 0) {
		struct line *l;
		size_t idx;
		int is_new;

		if (rec.type != MTRACE_REC_ACCESS)
			continue;
		st->accesses++;
		if (!(rec.u.access.flags & MTRACE_F_SHARED) ||
		    !pid_kept(rec.u.access.pid))
			continue;
		st->flagged++;
		st->unknown_task += rec.u.access.pid == MTRACE_PID_UNKNOWN;
		if (kmap_intern(&st->lines, rec.u.access.vaddr & ~(uint64_t)(LINE_SIZE - 1),
				(void **)&st->l, &st->nl, &st->lcap, sizeof(*st->l),
				&idx, &is_new)) {
			error("out of memory");
			return -1;
		}
		l = &st->l[idx];
		if (is_new) {
			memset(l, 0, sizeof(*l));
			l->addr = rec.u.access.vaddr & ~(uint64_t)(LINE_SIZE - 1);
		}
		l->transfers++;
		l->cpus |= 1ull << rec.cpu;
		if (rec.u.access.flags & MTRACE_F_WRITE) {
			l->writes++;
			add_write(l, rec.cpu, rec.u.access.vaddr, rec.u.access.size);
		} else {
			l->reads++;
		}
	}
	if (rc < 0) {
		error("%s", kmap_mtrace_error(r));
		return -1;
	}
	st->hdr = NULL;
	return 0;
}

/*
 * False sharing: two vCPUs wrote bytes of the line, and neither wrote a
 * byte the other wrote (different byte ranges of one line).
 */
static int is_false(const struct line *l)
{
	unsigned int i, j;

	for (i = 0; i < l->nw; i++)
		for (j = i + 1; j < l->nw; j++)
			if (l->wmask[i] && l->wmask[j] &&
			    !(l->wmask[i] & l->wmask[j]))
				return 1;
	return 0;
}

static int by_transfers(const void *a, const void *b)
{
	const struct line *x = *(struct line *const *)a;
	const struct line *y = *(struct line *const *)b;

	if (x->transfers != y->transfers)
		return x->transfers > y->transfers ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Pass 2: the instructions of the ranked lines. */
static int pass_ips(struct state *st, struct kmap_src *src)
{
	struct kmap_mtrace_reader *r = kmap_src_mtrace(src);
	struct kmap_mtrace_rec rec;
	struct kmap_map ranked;		/* line addr -> rank */
	int rc;

	kmap_map_init(&ranked);
	for (size_t i = 0; i < st->nrank; i++) {
		uint64_t *v = kmap_map_get(&ranked, st->rank[i]->addr, NULL);

		if (!v)
			goto oom;
		*v = i;
	}
	while ((rc = kmap_mtrace_next(r, &rec)) > 0) {
		uint64_t *v;
		struct ipc *ic;
		size_t i, k;

		if (rec.type != MTRACE_REC_ACCESS ||
		    !(rec.u.access.flags & MTRACE_F_SHARED) ||
		    !pid_kept(rec.u.access.pid))
			continue;
		v = kmap_map_find(&ranked, rec.u.access.vaddr & ~(uint64_t)(LINE_SIZE - 1));
		if (!v)
			continue;
		i = *v;
		for (k = 0; k < st->nips[i]; k++)
			if (st->ips[i][k].ip == rec.u.access.ip)
				break;
		if (k == st->nips[i]) {
			if (kmap_grow((void **)&st->ips[i], &st->ipcap[i], k + 1,
				      sizeof(**st->ips)))
				goto oom;
			memset(&st->ips[i][k], 0, sizeof(**st->ips));
			st->ips[i][k].ip = rec.u.access.ip;
			st->nips[i]++;
		}
		ic = &st->ips[i][k];
		if (rec.u.access.flags & MTRACE_F_WRITE)
			ic->writes++;
		else
			ic->reads++;
		ic->cpus |= 1ull << rec.cpu;
	}
	kmap_map_free(&ranked);
	if (rc < 0) {
		error("%s", kmap_mtrace_error(r));
		return -1;
	}
	return 0;
oom:
	kmap_map_free(&ranked);
	error("out of memory");
	return -1;
}

static int ip_cmp(const void *a, const void *b)
{
	const struct ipc *x = a, *y = b;
	uint64_t nx = x->reads + x->writes, ny = y->reads + y->writes;

	if (nx != ny)
		return nx > ny ? -1 : 1;
	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* One symbol of --system-map into st's table (data or not: sizes). */
static int add_data_sym(void *ctx, const struct kmap_ksym *k)
{
	struct state *st = ctx;
	struct sym *y;

	if (kmap_grow((void **)&st->syms, &st->syms_cap, st->nsyms + 1,
		      sizeof(*st->syms)))
		return -1;
	y = &st->syms[st->nsyms];
	y->addr = k->addr;
	y->size = 0;
	y->data = strchr("dDbBrR", k->type) != NULL;
	if (*k->module && asprintf(&y->name, "%s [%s]", k->name, k->module) < 0)
		return -1;
	if (!*k->module && !(y->name = strdup(k->name)))
		return -1;
	st->nsyms++;
	return 0;
}

/*
 * Global objects from a System.map or /proc/kallsyms (libkmap reads it):
 * data symbols (types d, b, r, and their global capitals), each up to the
 * next symbol.
 */
static int load_data_syms(struct state *st, const char *path)
{
	char err[KMAP_ERR_MAX] = "out of memory";
	size_t i;

	if (kmap_sym_read_map(path, add_data_sym, st, err)) {
		error("%s", err);
		return -1;
	}
	qsort(st->syms, st->nsyms, sizeof(*st->syms), sym_cmp);
	for (i = 0; i + 1 < st->nsyms; i++)
		st->syms[i].size = st->syms[i + 1].addr - st->syms[i].addr;
	return 0;
}

static int obj_cmp(const void *a, const void *b)
{
	const struct obj *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int load_objects(struct state *st, const char *path)
{
	const struct kmap_object *o;
	const struct kmap_access *acc;
	char err[KMAP_ERR_MAX];
	struct kmap_src *src = open_input(path, err);
	size_t nacc, cap = 0;
	int rc;

	if (!src) {
		error("%s", err);
		return -1;
	}
	while ((rc = kmap_src_next(src, &o, &acc, &nacc)) > 0) {
		struct obj *ob;

		if (kmap_grow((void **)&st->objs, &cap, st->nobjs + 1,
			      sizeof(*st->objs))) {
			error("out of memory");
			rc = -2;
			break;
		}
		ob = &st->objs[st->nobjs++];
		ob->addr = o->addr;
		ob->size = o->size;
		ob->alloc_ip = o->alloc_ip;
		ob->kind = kmap_object_kind(o);
		ob->pid = o->pid;
		ob->freed = kmap_object_freed(o);
		snprintf(ob->comm, sizeof(ob->comm), "%s", o->comm);
	}
	if (rc == -1)
		error("%s", kmap_src_error(src));
	kmap_src_close(src);
	if (rc < 0)
		return -1;
	qsort(st->objs, st->nobjs, sizeof(*st->objs), obj_cmp);
	return 0;
}

/* Up to MAX_OBJS descriptions of what line l holds, into out[]. */
static size_t describe_objects(struct state *st, const struct line *l,
			       char out[MAX_OBJS][512])
{
	uint64_t lo = l->addr, hi = l->addr + LINE_SIZE;
	size_t n = 0, a = 0, b, i, steps;

	if (st->objs) {
		b = st->nobjs;
		while (a < b) {		/* first object starting at or past hi */
			size_t m = a + (b - a) / 2;

			if (st->objs[m].addr < hi)
				a = m + 1;
			else
				b = m;
		}
		for (i = a, steps = 0; i-- > 0 && n < MAX_OBJS && steps < 4096; steps++) {
			const struct obj *o = &st->objs[i];
			char fn[192];

			if (o->addr + (o->size ? o->size : 1) <= lo)
				continue;
			if (!st->fsym || !kmap_sym_describe(st->fsym, o->alloc_ip, fn, sizeof(fn)))
				snprintf(fn, sizeof(fn), "%llx", (unsigned long long)o->alloc_ip);
			snprintf(out[n++], 512, "%s object %llx, %llu bytes, allocated at %s by %u %s%s",
				 kmap_kind_name(o->kind), (unsigned long long)o->addr,
				 (unsigned long long)o->size, fn, o->pid, o->comm,
				 o->freed ? " (later freed)" : "");
		}
		return n;
	}
	a = 0;
	b = st->nsyms;
	while (a < b) {
		size_t m = a + (b - a) / 2;

		if (st->syms[m].addr < hi)
			a = m + 1;
		else
			b = m;
	}
	for (i = a, steps = 0; i-- > 0 && n < MAX_OBJS && steps < 64; steps++) {
		const struct sym *s = &st->syms[i];

		if (s->addr + (s->size ? s->size : 1) <= lo)
			break;
		if (!s->data)
			continue;
		snprintf(out[n++], 512, "%s+0x%llx/0x%llx", s->name,
			 (unsigned long long)(lo > s->addr ? lo - s->addr : 0),
			 (unsigned long long)s->size);
	}
	return n;
}

static void cpu_list(uint64_t cpus, char *out, size_t len)
{
	size_t n = 0;
	unsigned int c;

	out[0] = 0;
	for (c = 0; c < 64 && n < len; c++)
		if (cpus >> c & 1)
			n += snprintf(out + n, len - n, "%s%u", n ? " " : "", c);
}

/* "bytes 0-3": the byte ranges of a mask. */
static void ranges(uint64_t mask, char *out, size_t len)
{
	size_t n = 0;
	unsigned int b = 0;

	out[0] = 0;
	while (b < 64 && n < len) {
		unsigned int e;

		if (!(mask >> b & 1)) {
			b++;
			continue;
		}
		for (e = b; e + 1 < 64 && (mask >> (e + 1) & 1); e++)
			;
		n += snprintf(out + n, len - n, "%s%u-%u", n ? "," : "", b, e);
		b = e + 1;
	}
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

enum { OUT_TEXT, OUT_CSV, OUT_JSON };

static void print_ip(struct state *st, const struct ipc *ic, char *out,
		     size_t len)
{
	if (!st->fsym || !kmap_sym_describe(st->fsym, ic->ip, out, len))
		snprintf(out, len, "%llx", (unsigned long long)ic->ip);
}

static void print(struct state *st, int fmt)
{
	size_t i, k;

	if (fmt == OUT_TEXT)
		printf("%s: mode %s, granularity %s, %u vCPUs, %u-byte lines: %llu %s logged, %llu flagged shared (moved %s between vCPUs) on %zu %s%s\n",
		       st->log, st->mode == MTRACE_MODE_ALL ? "all" : "sharing",
		       st->bytes ? "byte" : "line", st->nr_cpus, LINE_SIZE, (unsigned long long)st->accesses,
		       plural(st->accesses, "access", "accesses"),
		       (unsigned long long)st->flagged,
		       st->bytes ? "the bytes they touched" : "a line", st->nl,
		       plural(st->nl, "line", "lines"),
		       st->unknown_task ? " (some of no known task: load mtrace_task.ko)" : "");
	else if (fmt == OUT_CSV)
		printf("rank,line,transfers,reads,writes,vcpus,false_sharing,writers,objects,instructions\n");
	else {
		printf("{\"log\":");
		json_str(stdout, st->log);
		printf(",\"mode\":\"%s\",\"granularity\":\"%s\",\"vcpus\":%u,\"line_size\":%u,\"accesses\":%llu,\"flagged\":%llu,\"lines_shared\":%zu,\"lines\":[",
		       st->mode == MTRACE_MODE_ALL ? "all" : "sharing",
		       st->bytes ? "byte" : "line",
		       st->nr_cpus, LINE_SIZE, (unsigned long long)st->accesses,
		       (unsigned long long)st->flagged, st->nl);
	}
	for (i = 0; i < st->nrank; i++) {
		struct line *l = st->rank[i];
		char objs[MAX_OBJS][512], cpus[200], w[MAX_WRITERS][200], desc[256];
		size_t no = describe_objects(st, l, objs), j;

		cpu_list(l->cpus, cpus, sizeof(cpus));
		for (j = 0; j < l->nw; j++)
			ranges(l->wmask[j], w[j], sizeof(w[j]));
		qsort(st->ips[i], st->nips[i], sizeof(**st->ips), ip_cmp);
		if (fmt == OUT_TEXT) {
			printf("\n#%zu line %llx: %llu transfers (%llu reads, %llu writes), vCPUs %s%s\n",
			       i + 1, (unsigned long long)l->addr,
			       (unsigned long long)l->transfers,
			       (unsigned long long)l->reads,
			       (unsigned long long)l->writes, cpus,
			       l->false_sharing ? ", FALSE SHARING" : "");
			for (j = 0; j < no; j++)
				printf("  object: %s\n", objs[j]);
			if (!no)
				printf("  object: none known\n");
			for (j = 0; j < l->nw; j++)
				printf("  vCPU %u wrote bytes %s\n", l->wcpu[j], w[j]);
			for (k = 0; k < st->nips[i] && k < MAX_IPS; k++) {
				const struct ipc *ic = &st->ips[i][k];

				cpu_list(ic->cpus, cpus, sizeof(cpus));
				print_ip(st, ic, desc, sizeof(desc));
				printf("  %llu reads, %llu writes on vCPUs %s by %llx %s\n",
				       (unsigned long long)ic->reads,
				       (unsigned long long)ic->writes, cpus,
				       (unsigned long long)ic->ip, desc);
			}
			if (st->nips[i] > MAX_IPS)
				printf("  and %zu more instructions\n", st->nips[i] - MAX_IPS);
		} else if (fmt == OUT_CSV) {
			char buf[2048];
			size_t n = 0;

			printf("%zu,%llx,%llu,%llu,%llu,", i + 1,
			       (unsigned long long)l->addr,
			       (unsigned long long)l->transfers,
			       (unsigned long long)l->reads,
			       (unsigned long long)l->writes);
			csv_str(stdout, cpus);
			printf(",%s,", l->false_sharing ? "yes" : "no");
			buf[0] = 0;
			for (j = 0; j < l->nw && n < sizeof(buf); j++)
				n += snprintf(buf + n, sizeof(buf) - n, "%s%u:%s",
					      j ? ";" : "", l->wcpu[j], w[j]);
			csv_str(stdout, buf);
			putchar(',');
			n = 0;
			buf[0] = 0;
			for (j = 0; j < no && n < sizeof(buf); j++)
				n += snprintf(buf + n, sizeof(buf) - n, "%s%s",
					      j ? ";" : "", objs[j]);
			csv_str(stdout, buf);
			putchar(',');
			n = 0;
			buf[0] = 0;
			for (k = 0; k < st->nips[i] && k < MAX_IPS && n < sizeof(buf); k++) {
				print_ip(st, &st->ips[i][k], desc, sizeof(desc));
				n += snprintf(buf + n, sizeof(buf) - n, "%s%s %llu",
					      k ? ";" : "", desc,
					      (unsigned long long)(st->ips[i][k].reads +
								   st->ips[i][k].writes));
			}
			csv_str(stdout, buf);
			putchar('\n');
		} else {
			char hex[32];

			printf("%s{\"rank\":%zu,\"line\":", i ? "," : "", i + 1);
			snprintf(hex, sizeof(hex), "%llx", (unsigned long long)l->addr);
			json_str(stdout, hex);
			printf(",\"transfers\":%llu,\"reads\":%llu,\"writes\":%llu,\"vcpus\":[",
			       (unsigned long long)l->transfers,
			       (unsigned long long)l->reads,
			       (unsigned long long)l->writes);
			for (j = 0, k = 0; j < 64; j++)
				if (l->cpus >> j & 1)
					printf("%s%zu", k++ ? "," : "", j);
			printf("],\"false_sharing\":%s,\"writers\":[",
			       l->false_sharing ? "true" : "false");
			for (j = 0; j < l->nw; j++) {
				printf("%s{\"vcpu\":%u,\"bytes\":", j ? "," : "", l->wcpu[j]);
				json_str(stdout, w[j]);
				putchar('}');
			}
			printf("],\"objects\":[");
			for (j = 0; j < no; j++) {
				if (j)
					putchar(',');
				json_str(stdout, objs[j]);
			}
			printf("],\"instructions\":[");
			for (k = 0; k < st->nips[i] && k < MAX_IPS; k++) {
				const struct ipc *ic = &st->ips[i][k];
				const char *fn = NULL;
				uint64_t start;

				if (st->fsym)
					fn = kmap_sym_function(st->fsym, ic->ip, &start);
				snprintf(hex, sizeof(hex), "%llx", (unsigned long long)ic->ip);
				printf("%s{\"ip\":", k ? "," : "");
				json_str(stdout, hex);
				printf(",\"function\":");
				if (fn)
					json_str(stdout, fn);
				else
					printf("null");
				printf(",\"reads\":%llu,\"writes\":%llu}",
				       (unsigned long long)ic->reads,
				       (unsigned long long)ic->writes);
			}
			printf("]}");
		}
	}
	if (fmt == OUT_JSON)
		printf("]}\n");
}

int cmd_sharing(int argc, char **argv)
{
	int fmt = formats == FORMAT_CSV ? OUT_CSV :
		  formats == FORMAT_JSON ? OUT_JSON : OUT_TEXT;
	struct state st = { 0 };
	struct kmap_src *src = NULL;
	char err[KMAP_ERR_MAX];
	int failed, rc = 2;
	size_t i;

	if (formats == (FORMAT_CSV | FORMAT_JSON)) {
		error("--csv or --json, not both");
		goto out;
	}
	if (argc != 1) {
		error(argc ? "one log at a time" : "which log?");
		cmd_usage(&cmd_sharing_desc, stderr);
		goto out;
	}
	if (!strcmp(argv[0], "-")) {
		error("the log is read twice: a file, not standard input");
		goto out;
	}
	st.log = argv[0];
	st.fsym = open_symbols(vmlinux, system_map, &failed);
	if (failed)
		goto out;
	rc = 1;
	if (system_map && !kmap && load_data_syms(&st, system_map))
		goto out;
	if (kmap && load_objects(&st, kmap))
		goto out;
	kmap_map_init(&st.lines);
	if (open_log(st.log, &src, err)) {
		error("%s", err);
		goto out;
	}
	if (pass_lines(&st, src))
		goto out;
	st.nr_cpus = kmap_mtrace_header(kmap_src_mtrace(src))->nr_cpus;
	st.mode = kmap_mtrace_header(kmap_src_mtrace(src))->mode;
	st.bytes = kmap_mtrace_header(kmap_src_mtrace(src))->line_shift ==
		   MTRACE_BYTE_SHIFT;
	kmap_src_close(src);
	src = NULL;
	st.rank = malloc((st.nl ? st.nl : 1) * sizeof(*st.rank));
	if (!st.rank) {
		error("out of memory");
		goto out;
	}
	for (i = 0; i < st.nl; i++) {
		st.l[i].false_sharing = is_false(&st.l[i]);
		st.rank[i] = &st.l[i];
	}
	qsort(st.rank, st.nl, sizeof(*st.rank), by_transfers);
	st.nrank = top && top < st.nl ? (size_t)top : st.nl;
	st.ips = calloc(st.nrank + 1, sizeof(*st.ips));
	st.nips = calloc(st.nrank + 1, sizeof(*st.nips));
	st.ipcap = calloc(st.nrank + 1, sizeof(*st.ipcap));
	if (!st.ips || !st.nips || !st.ipcap) {
		error("out of memory");
		goto out;
	}
	if (open_log(st.log, &src, err)) {
		error("%s", err);
		goto out;
	}
	if (pass_ips(&st, src))
		goto out;
	print(&st, fmt);
	rc = 0;
out:
	kmap_src_close(src);
	kmap_sym_close(st.fsym);
	kmap_map_free(&st.lines);
	kmap_map_free(&pids);
	for (i = 0; st.ips && i < st.nrank; i++)
		free(st.ips[i]);
	free(st.ips);
	free(st.nips);
	free(st.ipcap);
	free(st.rank);
	free(st.l);
	for (i = 0; i < st.nsyms; i++)
		free(st.syms[i].name);
	free(st.syms);
	free(st.objs);
	return rc;
}

const struct cmd cmd_sharing_desc = {
	.name = "sharing",
	.summary = "rank the cache lines an mtrace log shows moving between vCPUs",
	.synopsis = "[--kmap FILE | --stream FILE] [--system-map FILE | --vmlinux FILE] [-p PID]... [-n N] [--csv | --json] LOG",
	.description =
"Reads LOG, an mtrace log (vm/run --mtrace: the QEMU plugin's record of "
"the guest kernel's memory accesses), and ranks its 64-byte cache lines "
"by the accesses that moved them between vCPUs: those the plugin flagged "
"shared by mtrace's rule (a read when another vCPU wrote the line since "
"this vCPU last read it, a write when another vCPU read or wrote it since "
"this vCPU last wrote it; the plugin applies it in execution order, on "
"physical lines, in either mode). Lines are named here by their virtual "
"address.\n"
"\n"
"The plugin applies the rule at the granularity it was given "
"(granularity=line|byte, vm/run --mtrace-granularity; the log's header "
"says which, and the first line of the output): on lines, two vCPUs "
"writing different bytes of one line move it (false sharing); on bytes, "
"an access is flagged only when another vCPU wrote (or, for a write, "
"read or wrote) one of the bytes it touches, true sharing alone. Either "
"way the flagged accesses are ranked here by their 64-byte line.\n"
"\n"
"For each line: its transfers (reads and writes), the vCPUs involved, "
"the objects it holds -- Memorizer's records of the same run with --kmap "
"or --stream (a kmap or a binary stream), else the global data symbols "
"of --system-map (a System.map, or the guest's /proc/kallsyms, which has "
"its modules' too) -- the bytes each vCPU wrote, and the instructions "
"that moved it, with their functions from --system-map or --vmlinux. A "
"line is flagged FALSE SHARING when two vCPUs wrote different byte "
"ranges of it (neither wrote a byte the other wrote): padding or "
"per-CPU data would remove its traffic; a line whose writers overlap is "
"truly shared.\n"
"\n"
"With --pid, only the accesses of those tasks count (the plugin knows "
"a vCPU's task from the guest module mtrace_task.ko's sched_switch "
"markers; accesses before its load are of no known task).\n"
"\n"
"The log is read twice (lines, then the ranked lines' instructions): "
"LOG is a file, not standard input. With --csv, a header row and a row "
"per line; with --json, one object with the lines in rank order.",
	.opts = opts,
	.files_desc = "mtrace",
	.examples =
"  $ vm/run --mtrace run.mtrace --out out/run workload.sh\n"
"  $ memorizer sharing --system-map out/run/kallsyms run.mtrace | head -20",
	.run = cmd_sharing,
};
