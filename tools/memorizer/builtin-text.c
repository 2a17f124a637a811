// SPDX-License-Identifier: GPL-2.0
/* memorizer text: a binary stream (or a kmap) as kmap text. */
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "mtrace_log.h"

static const char *output;
static int offsets;

static const struct opt opts[] = {
	OPT__OUTPUT(&output, OPT_OUTPUT_HELP),
	OPT_BOOLEAN(0, "offsets", &offsets, "Write kmap_offsets: each access line with offset,offset_end (0,0 where the input has none)."),
	OPT_END(),
};

#define BUF_SIZE	(256 * 1024)

/* Write buf[0 .. *len - 1] out; -1 on a write error. */
static int flush(struct output *out, const char *buf, size_t *len)
{
	size_t n = *len;

	*len = 0;
	return fwrite_unlocked(buf, 1, n, out->f) == n ? 0 : -1;
}

/*
 * A text kmap's lines as read (libkmap's tee), into buf: those of the
 * objects handed out are written, as formatted ones would be; the line
 * read ahead (the next object's) waits for its object.
 */
struct copy {
	struct output *out;
	char *buf;		/* grows to hold one object's lines */
	size_t cap, len;	/* bytes in buf */
	size_t done;		/* of them, the objects handed out's */
	size_t obj_at;		/* where the last object line starts */
	size_t objs;		/* object lines in buf after done */
	int failed;
};

/* Write the lines of the objects handed out, keep the rest. */
static int copy_flush(struct copy *c)
{
	size_t rest = c->len - c->done;

	if (!c->done)	/* nothing handed out yet (or no input at all) */
		return 0;
	if (fwrite_unlocked(c->buf, 1, c->done, c->out->f) != c->done)
		return -1;
	memmove(c->buf, c->buf + c->done, rest);
	c->len = rest;
	c->obj_at = c->obj_at > c->done ? c->obj_at - c->done : 0;
	c->done = 0;
	return 0;
}

/* A line, or a run of access lines (libkmap's tee). */
static void copy_line(void *ctx, const char *line, size_t n)
{
	struct copy *c = ctx;

	if (c->failed)
		return;
	if (c->len + n > c->cap && c->done && copy_flush(c))
		c->failed = 1;
	if (!c->failed && kmap_grow((void **)&c->buf, &c->cap,
				    c->len + n > BUF_SIZE ? c->len + n : BUF_SIZE, 1))
		c->failed = -1;		/* out of memory */
	if (c->failed)
		return;
	if (line[0] != ' ') {
		c->obj_at = c->len;
		c->objs++;
	}
	memcpy(c->buf + c->len, line, n);
	c->len += n;
}

/*
 * The copy is given up (a text kmap whose access lines are not of the
 * output's kind): write the lines of the objects handed out before, drop
 * the rest (the current object's, which is formatted instead, and the
 * line read ahead, whose object will be). 0, or -1 on a write error.
 */
static int copy_stop(struct copy *c)
{
	int rc = copy_flush(c);

	c->len = c->done = c->objs = 0;
	return rc;
}

/* An object handed out: its lines are done, not the next one's read. */
static void copy_done(struct copy *c)
{
	int ahead = c->objs > 1;	/* the next object's line */

	c->done = ahead ? c->obj_at : c->len;
	c->objs = ahead;
}

/*
 * An mtrace log as text: a comment line with its header, then a line per
 * record (kmap_format_mtrace()). 0, 1 on a write error, -1 on a bad log.
 */
static int text_mtrace(struct output *out, struct kmap_src *src)
{
	static char buf[BUF_SIZE];
	struct kmap_mtrace_reader *r = kmap_src_mtrace(src);
	const struct mtrace_log_header *h;
	struct kmap_mtrace_rec rec;
	size_t len = 0;
	int rc;

	if (kmap_mtrace_read_header(r)) {
		error("%s", kmap_mtrace_error(r));
		return -1;
	}
	h = kmap_mtrace_header(r);
	len = (size_t)snprintf(buf, KMAP_LINE_MAX,
			       "# mtrace log version %u, mode %s, %u vCPUs, %u-byte lines\n"
			       "# access,cpu,ns,pid,ip,vaddr,paddr,size,r|w,shared|-; switch,cpu,ns,pid\n",
			       h->version,
			       h->mode == MTRACE_MODE_ALL ? "all" : "sharing",
			       h->nr_cpus, 1u << h->line_shift);
	while ((rc = kmap_mtrace_next(r, &rec)) > 0) {
		if (len > BUF_SIZE - KMAP_LINE_MAX && flush(out, buf, &len))
			return 1;
		len += kmap_format_mtrace(buf + len, &rec);
	}
	if (flush(out, buf, &len))
		return 1;
	if (rc < 0) {
		error("%s", kmap_mtrace_error(r));
		return -1;
	}
	return 0;
}

int cmd_text(int argc, char **argv)
{
	static char buf[BUF_SIZE];
	size_t len = 0;
	int copying;
	const struct kmap_object *o;
	const struct kmap_access *acc;
	struct kmap_src *src;
	char err[KMAP_ERR_MAX];
	size_t nacc, i, done;
	struct output out;
	struct copy copy = { .out = &out };
	int rc;

	if (argc != 1) {
		error(argc ? "one file at a time" : "which file?");
		cmd_usage(&cmd_text_desc, stderr);
		return 2;
	}
	if (output_open(&out, output, argv, 1))
		return 1;
	src = open_input(argv[0], err);
	if (!src) {
		error("%s", err);
		rc = -1;
		goto out;
	}
	if (kmap_src_mtrace(src)) {
		rc = text_mtrace(&out, src);
		if (rc > 0)
			error("%s: write error: %m", out.name);
		rc = rc ? -1 : 0;
		goto out;
	}
	/*
	 * A text kmap, checked, is written as it is read: the same bytes,
	 * unless its access lines are not of the kind asked for (kmap, or
	 * kmap_offsets with --offsets), which its first one tells; from
	 * then on its objects are formatted (object lines are the same).
	 */
	copying = kmap_src_text(src) != NULL;
	if (copying)
		kmap_text_tee(kmap_src_text(src), copy_line, &copy);
	while ((rc = kmap_src_next(src, &o, &acc, &nacc)) > 0) {
		if (copying && kmap_src_offsets(src) == !offsets) {
			kmap_text_tee(kmap_src_text(src), NULL, NULL);
			copying = 0;
			if (copy_stop(&copy)) {
				rc = 1;
				break;
			}
		}
		if (copying) {
			copy_done(&copy);
			if (copy.failed)
				break;
			continue;
		}
		/* Lines gathered in buf, written BUF_SIZE at a time. */
		if (len > BUF_SIZE - KMAP_LINE_MAX && flush(&out, buf, &len))
			break;
		len += offsets ? kmap_format_object_offsets(buf + len, o) :
				 kmap_format_object(buf + len, o);
		for (i = 0; i < nacc; i += done) {
			if (len > BUF_SIZE - KMAP_LINE_MAX &&
			    flush(&out, buf, &len))
				break;
			len += kmap_format_accesses(buf + len, BUF_SIZE - len,
						    acc + i, nacc - i, offsets,
						    &done);
		}
		if (i < nacc)
			break;
	}
	/* What was read before an error goes out too, as it was read. */
	if (copying) {
		if (rc <= 0 && copy_flush(&copy) && !rc)
			rc = 1;
		if (copy.failed < 0) {
			error("out of memory");
			rc = -2;
		} else if (copy.failed) {
			rc = 1;
		}
	} else if (rc <= 0 && flush(&out, buf, &len) && !rc) {
		rc = 1;
	}
	free(copy.buf);
	if (rc > 0) {
		error("%s: write error: %m", out.name);
		rc = -1;
	} else if (rc == -1) {
		error("%s", kmap_src_error(src));
	}
out:
	/* A kmap cut short by a bad line is not written over FILE. */
	if (output_close(&out, rc == 0))
		rc = -1;
	if (!rc && kmap_src_lost(src))
		warning("%s: the stream lost %llu %s (its LOST records): counts are low",
			kmap_src_name(src), (unsigned long long)kmap_src_lost(src),
			plural(kmap_src_lost(src), "record", "records"));
	if (!rc && kmap_src_orphans(src))
		warning("%s: %llu %s without an ALLOC record (allocated before the stream began) left out",
			kmap_src_name(src), (unsigned long long)kmap_src_orphans(src),
			plural(kmap_src_orphans(src), "object", "objects"));
	kmap_src_close(src);
	return rc < 0 ? 1 : 0;
}

const struct cmd cmd_text_desc = {
	.name = "text",
	.summary = "print a binary stream as a text kmap, or an mtrace log as text",
	.synopsis = "[--offsets] [-o FILE] FILE",
	.description =
"Reads FILE (- for standard input), a binary stream from memorizer stream "
"--binary (zstd-compressed or not), and writes it as a kmap in the "
"kernel's text format (kernel Documentation/dev-tools/memorizer.rst), "
"through the same libkmap code every other command uses. An object is "
"written when its FREE record is read, with the counters of its ACCESS "
"records merged per (ip, pid) (the kernel's counters are 32-bit and "
"reset by sweeps, so merged counts may pass 4294967295; they stop at "
"2^64 - 1 rather than wrap); objects still live at the end of the "
"stream follow, with free_jiffies and free_ip 0. The executable is the "
"allocating pid's command from the newest TASK record on the allocating "
"CPU, hardirq or softirq outside task context, ? when unknown. An object "
"Memorizer found when it was first accessed, no allocation of it seen, "
"has its own address as alloc_ip and pid 0, and for executable a word "
"of its kind: global (a kernel or module data symbol), percpu (a "
"per-CPU variable or an alloc_percpu() area), irq_stack (a CPU's IRQ "
"stack), unseen (a slab object) or page; a found task's stack has its "
"task's pid and command. The kernel's globals and per-CPU variables are "
"never freed; alloc_percpu() areas are, by free_percpu() (free api 5, "
"new in stream version 3), and a module's globals when it is unloaded "
"(free api 6, module, new in stream version 4): their lines have the "
"unload's free_jiffies and free_ip. Version 1 to 5 streams are "
"read; others are refused. Objects "
"allocated before the stream began (FREE or ACCESS records without an "
"ALLOC) are left out, and lost records reported, on standard error.\n"
"\n"
"A text kmap as input is checked and written back unchanged (a "
"kmap_offsets too, with --offsets; see below).\n"
"\n"
"With --offsets the output is a kmap_offsets (the kernel's debugfs "
"memorizer/kmap_offsets): each access line has two more fields, "
"access_ip,access_pid,write_count,read_count,offset,offset_end, the first "
"byte of the object its instruction touched and one past the last, in "
"decimal; for a stream, the union of the ranges of the (id, ip, pid)'s "
"ACCESS records (the least range that holds them all; 0,0 ones, none "
"known, left out). An input with no offsets (a version 1 to 4 stream, a "
"kmap) gives 0,0 on every line: not known. A stream's object lines have "
"two more fields too, as the kernel's kmap_offsets: "
"alloc_ip,pid,obj_va_ptr,size,alloc_jiffies,free_jiffies,free_ip,"
"executable,kind,cache, the allocator kind (kmalloc, kmem_cache, "
"kmalloc_large, vmalloc, pages, global, percpu or stack) and the slab "
"cache's name from its CACHE record (commas and control characters as "
"?, empty for an object in no cache or a cache with no CACHE record); a "
"kmap's objects have neither to give and keep their 8 fields. Without "
"--offsets the output is a kmap, whatever the input: a kmap_offsets loses "
"its offsets, kinds and caches. A text input of the kind asked for is "
"copied unchanged.\n"
"\n"
"An mtrace log (the QEMU plugin's, vm/run --mtrace) is checked and "
"printed a record a line, after two comment lines (its header, and the "
"columns): access,CPU,NS,PID,IP,VADDR,PADDR,SIZE,r|w,shared|- and "
"switch,CPU,NS,PID, addresses in hexadecimal, ? for a pid or physical "
"address not known.\n"
"\n"
"With -o, FILE is replaced only when the whole input was read and written: "
"on any error it is left as it was. FILE may not be the input.",
	.opts = opts,
	.files_desc = "stream",
	.examples =
"  $ memorizer stream --binary -o run.bin   # in the guest, until Ctrl-C\n"
"  $ memorizer text run.bin > run.kmap\n"
"  $ memorizer text --offsets run.bin > run.kmap_offsets\n"
"  $ memorizer check run.kmap",
	.run = cmd_text,
};
