// SPDX-License-Identifier: GPL-2.0
/* memorizer stream: collect kmap_stream or the binary channel until a signal. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/vfs.h>

#include <linux/memorizer.h>

#include "builtin.h"

#ifdef KMAP_ZSTD
#include <zstd.h>
#endif

static const char *output, *debugfs;
static int binary, zstd, quiet;

static const struct opt opts[] = {
	OPT__OUTPUT(&output, "Write to FILE (default: standard output)."),
	OPT_BOOLEAN('b', "binary", &binary, "Collect the binary stream: memorizer/binary/header, then the records of every memorizer/binary/cpuN."),
	OPT_BOOLEAN('z', "zstd", &zstd, "Compress the binary stream with zstd as it is written (memorizer text and report read it back)."),
	OPT__DEBUGFS(&debugfs),
	OPT__QUIET(&quiet, "No progress line, even on a terminal."),
	OPT_END(),
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	if (sig != SIGALRM)
		stop = sig;
}

/* The output: a file descriptor, optionally through zstd. */
struct sink {
	int fd;
	const char *name;
	uint64_t bytes_in;
	int closed;			/* its reader went away (EPIPE) */
#ifdef KMAP_ZSTD
	ZSTD_CStream *z;
	unsigned char *zbuf;
	size_t zcap;
#endif
};

static int write_all(struct sink *s, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(s->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EPIPE) {
			/* stream | head: the reader has all it wants. */
			s->closed = 1;
			return -1;
		}
		if (n < 0) {
			error("%s: write error: %m", s->name);
			return -1;
		}
		p += n;
		len -= n;
	}
	return 0;
}

static int sink_write(struct sink *s, const void *buf, size_t len)
{
	s->bytes_in += len;
#ifdef KMAP_ZSTD
	if (s->z) {
		ZSTD_inBuffer in = { buf, len, 0 };

		while (in.pos < in.size) {
			ZSTD_outBuffer out = { s->zbuf, s->zcap, 0 };
			size_t r = ZSTD_compressStream(s->z, &out, &in);

			if (ZSTD_isError(r)) {
				error("zstd: %s", ZSTD_getErrorName(r));
				return -1;
			}
			if (write_all(s, s->zbuf, out.pos))
				return -1;
		}
		return 0;
	}
#endif
	return write_all(s, buf, len);
}

static int sink_close(struct sink *s)
{
	int rc = 0;

#ifdef KMAP_ZSTD
	if (s->z && !s->closed) {
		size_t r;

		do {
			ZSTD_outBuffer out = { s->zbuf, s->zcap, 0 };

			r = ZSTD_endStream(s->z, &out);
			if (ZSTD_isError(r)) {
				error("zstd: %s", ZSTD_getErrorName(r));
				rc = -1;
				break;
			}
			if (write_all(s, s->zbuf, out.pos)) {
				rc = -1;
				break;
			}
		} while (r);
	}
	ZSTD_freeCStream(s->z);
	free(s->zbuf);
#endif
	return s->closed ? 0 : rc;
}

/* Compress what goes to s with zstd: 0, or -1 after a message. */
static int sink_zstd(struct sink *s)
{
#ifdef KMAP_ZSTD
	s->z = ZSTD_createCStream();
	s->zcap = ZSTD_CStreamOutSize();
	s->zbuf = malloc(s->zcap);
	if (!s->z || !s->zbuf) {
		error("out of memory");
		ZSTD_freeCStream(s->z);
		free(s->zbuf);
		s->z = NULL;
		s->zbuf = NULL;
		return -1;
	}
	ZSTD_initCStream(s->z, 3);
#else
	(void)s;
#endif
	return 0;
}

/* kmap_stream: blocking reads, never EOF; until a signal. */
static int stream_text(const char *dir, struct sink *out, int tty)
{
	char path[4096], buf[65536];
	uint64_t lines = 0;
	struct progress pg;
	int fd, rc = 0, last_nl = 1, draining = 0;
	long long obj0 = stat_value(dir, "objects_dropped");
	long long acc0 = stat_value(dir, "accesses_dropped");

	progress_init(&pg, tty, "stream");
	snprintf(path, sizeof(path), "%s/kmap_stream", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		error("%s: %m", path);
		return 1;
	}
	for (;;) {
		ssize_t n, i;

		if (stop && !draining) {
			/* Take what the kernel already has, without blocking;
			 * should a read block anyway, SIGALRM ends it. */
			fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
			draining = 1;
		}
		if (draining)
			alarm(1);
		n = read(fd, buf, sizeof(buf));
		if (draining)
			alarm(0);
		if (n < 0 && errno == EINTR) {
			if (draining)
				break;
			continue;
		}
		if (n < 0 && errno == EAGAIN)
			break;
		if (n < 0) {
			error("%s: %m", path);
			rc = 1;
			break;
		}
		if (n == 0)
			break;	/* a file or pipe standing in for the kernel */
		for (i = 0; i < n; i++)
			lines += buf[i] == '\n';
		last_nl = buf[n - 1] == '\n';
		if (sink_write(out, buf, n)) {
			rc = !out->closed;
			break;
		}
		progress_count(&pg, out->bytes_in, lines, "lines", 0);
	}
	close(fd);
	progress_count(&pg, out->bytes_in, lines, "lines", 1);
	if (!last_nl && !out->closed)
		warning("the stream ended inside a line: the last line is incomplete");
	{
		long long obj1 = stat_value(dir, "objects_dropped");
		long long acc1 = stat_value(dir, "accesses_dropped");

		if (obj0 >= 0 && obj1 >= 0 && acc0 >= 0 && acc1 >= 0)
			fprintf(stderr, "memorizer stream: %llu bytes, %llu lines; lost while streaming: %lld objects, %lld accesses (stats)\n",
				(unsigned long long)out->bytes_in,
				(unsigned long long)lines, obj1 - obj0, acc1 - acc0);
		else
			fprintf(stderr, "memorizer stream: %llu bytes, %llu lines; lost records unknown (no figures from %s/stats)\n",
				(unsigned long long)out->bytes_in,
				(unsigned long long)lines, dir);
	}
	return rc;
}

struct cpu_buf {
	int fd, cpu;
	int debugfs;			/* the kernel's (not a stand-in file) */
	unsigned char *buf;		/* a partial record carried over */
	size_t len;
	uint64_t offset;		/* bytes read from this CPU */
};

#define CPU_BUF (256 * 1024)

/* Write cb's whole records, keep a partial one. */
static int drain_records(struct cpu_buf *cb, struct sink *out, uint64_t *records,
			 uint64_t *lost)
{
	size_t pos = 0;

	while (cb->len - pos >= sizeof(struct memorizer_rec_hdr)) {
		struct memorizer_rec_hdr h;

		memcpy(&h, cb->buf + pos, sizeof(h));
		if (h.size < sizeof(h) || h.size % 8) {
			error("binary/cpu%d: byte %llu: record size %u: not a multiple of 8 of at least 16",
			      cb->cpu, (unsigned long long)(cb->offset - cb->len + pos),
			      h.size);
			return -1;
		}
		if (cb->len - pos < h.size)
			break;
		if (h.type == MEMORIZER_REC_LOST &&
		    h.size >= sizeof(struct memorizer_rec_lost)) {
			struct memorizer_rec_lost l;

			memcpy(&l, cb->buf + pos, sizeof(l));
			*lost += l.records;
		}
		(*records)++;
		pos += h.size;
	}
	if (pos && sink_write(out, cb->buf, pos))
		return -1;
	memmove(cb->buf, cb->buf + pos, cb->len - pos);
	cb->len -= pos;
	return 0;
}

/*
 * Read what cb's CPU has: one read, or with @all until there is nothing
 * (EAGAIN). A stand-in file that ends is closed (fd -1).
 */
static int read_cpu(struct cpu_buf *cb, struct sink *out, int all,
		    uint64_t *records, uint64_t *lost)
{
	ssize_t n;

	for (;;) {
		n = read_retry(cb->fd, cb->buf + cb->len, CPU_BUF - cb->len);
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n < 0) {
			error("binary/cpu%d: %m", cb->cpu);
			return -1;
		}
		if (n == 0) {	/* a stand-in file ended */
			close(cb->fd);
			cb->fd = -1;
			return 0;
		}
		cb->len += n;
		cb->offset += n;
		if (drain_records(cb, out, records, lost))
			return -1;
		if (!all)
			return 0;
	}
}

/*
 * The stream header: checked and written to out first (its struct in
 * *h). Returns 0, 1 on an error, -1 when out could not be written.
 */
static int copy_header(const char *dir, struct sink *out,
		       struct memorizer_stream_header *hp)
{
	char path[4096], err[KMAP_ERR_MAX];
	unsigned char hdr[65536];
	struct memorizer_stream_header h;
	size_t len = 0;
	ssize_t n;
	int fd;

	fd = debugfs_open(dir, "binary/header", path, sizeof(path));
	if (fd < 0)
		return 1;
	while ((n = read_retry(fd, hdr + len, sizeof(hdr) - len)) != 0) {
		if (n < 0) {
			error("%s: %m", path);
			close(fd);
			return 1;
		}
		len += n;
		if (len == sizeof(hdr))
			break;
	}
	close(fd);
	if (kmap_bin_check_header(hdr, len, err)) {
		error("%s: %s", path, err);
		return 1;
	}
	memcpy(&h, hdr, sizeof(h));
	if (len != h.header_size) {
		error("%s: %zu bytes, but header_size says %u", path, len,
		      h.header_size);
		return 1;
	}
	*hp = h;
	return sink_write(out, hdr, len) ? -1 : 0;
}

/* Open DIR/binary/cpuN of every CPU present into cpus[], *ncpu of them. */
static int open_cpus_of(const char *dir, unsigned int nr_cpus,
			struct cpu_buf *cpus, unsigned int *ncpu)
{
	char path[4096];
	unsigned int i;
	int fd;

	for (i = 0; i < nr_cpus; i++) {
		snprintf(path, sizeof(path), "%s/binary/cpu%u", dir, i);
		fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0) {
			if (errno == ENOENT)
				continue;	/* a possible CPU not present */
			error("%s: %m", path);
			return -1;
		}
		cpus[*ncpu].fd = fd;
		cpus[*ncpu].cpu = i;
		{
			struct statfs sfs;

			cpus[*ncpu].debugfs = !fstatfs(fd, &sfs) &&
					   sfs.f_type == 0x64626720; /* DEBUGFS_MAGIC */
		}
		cpus[*ncpu].buf = malloc(CPU_BUF);
		if (!cpus[*ncpu].buf) {
			close(fd);
			error("out of memory");
			return -1;
		}
		(*ncpu)++;
	}
	return 0;
}

/*
 * The collector runs in the guest it traces, beside the workload. At nice
 * 0 it gets as little of the CPUs as any of the workload's tasks, and
 * woken for every record, it spends that on poll() and read() calls of a
 * few records each, all of them traced, while the rings fill: most of a
 * busy workload's records were lost so. It runs at nice -20, and takes
 * its records in batches (nap() below).
 */
#define COLLECTOR_NICE	(-20)

/*
 * After a pass that brought less than NAP_BELOW bytes, wait NAP_NS before
 * polling again, so that each wake-up takes a batch: a nap fills a small
 * part of each CPU's ring, and a record waits at most that long more to
 * be written.
 */
#define NAP_BELOW	(64 * 1024)
#define NAP_NS		(20 * 1000 * 1000)

static void nap(void)
{
	struct timespec ts = { 0, NAP_NS };

	nanosleep(&ts, NULL);	/* a signal ends it early: stop is set */
}

static int stream_binary(const char *dir, struct sink *out, int tty)
{
	char path[4096];
	struct memorizer_stream_header h;
	struct cpu_buf *cpus = NULL;
	struct pollfd *pfd = NULL;
	uint64_t records = 0, lost = 0;
	struct progress pg;
	int fd, open_cpus, rc = 0;
	unsigned int i;
	unsigned int ncpu = 0;

	progress_init(&pg, tty, "stream");
	rc = copy_header(dir, out, &h);
	if (rc)
		return rc < 0 ? !out->closed : rc;
	cpus = calloc(h.nr_cpus, sizeof(*cpus));
	pfd = calloc(h.nr_cpus, sizeof(*pfd));
	if (!cpus || !pfd) {
		error("out of memory");
		rc = 1;
		goto out;
	}
	if (open_cpus_of(dir, h.nr_cpus, cpus, &ncpu)) {
		rc = 1;
		goto out;
	}
	if (!ncpu) {
		error("%s/binary: no cpuN files", dir);
		rc = 1;
		goto out;
	}
	open_cpus = ncpu;
	while (open_cpus > 0) {
		uint64_t pass_start = out->bytes_in;
		int ready, pass;

		for (i = 0; i < ncpu; i++) {
			pfd[i].fd = cpus[i].fd;	/* -1 once closed: ignored */
			pfd[i].events = POLLIN;
			pfd[i].revents = 0;
		}
		if (!stop) {
			ready = poll(pfd, (nfds_t)(unsigned int)ncpu, 500);
			if (ready < 0 && errno != EINTR) {
				error("poll: %m");
				rc = 1;
				break;
			}
		}
		/*
		 * After a signal: one last non-blocking pass over every CPU,
		 * which makes room for the LOST records the kernel still
		 * owes; it writes them (binary/flush), and a second pass
		 * reads them.
		 */
		for (pass = 0; pass < (stop ? 2 : 1); pass++) {
			if (pass == 1 && cpus[0].debugfs) {
				snprintf(path, sizeof(path), "%s/binary/flush", dir);
				fd = open(path, O_WRONLY | O_CLOEXEC);
				if (fd < 0 || write(fd, "1\n", 2) != 2)
					warning("%s: %m: lost records not yet reported may be missing", path);
				if (fd >= 0)
					close(fd);
			}
			for (i = 0; i < ncpu; i++) {
				if (cpus[i].fd < 0 ||
				    (!stop && !(pfd[i].revents & (POLLIN | POLLHUP | POLLERR))))
					continue;
				if (read_cpu(&cpus[i], out, stop, &records, &lost)) {
					rc = !out->closed;
					goto out;
				}
				if (cpus[i].fd < 0)
					open_cpus--;
			}
		}
		progress_count(&pg, out->bytes_in, records, "records", 0);
		if (stop)
			break;
		if (open_cpus > 0 && out->bytes_in - pass_start < NAP_BELOW)
			nap();
	}
out:
	pg.on = pg.on && !rc;
	progress_count(&pg, out->bytes_in, records, "records", 1);
	for (i = 0; cpus && i < ncpu; i++) {
		if (cpus[i].len && !out->closed)
			warning("binary/cpu%d: %zu bytes of an incomplete record at the end, not written",
				cpus[i].cpu, cpus[i].len);
		if (cpus[i].fd >= 0)
			close(cpus[i].fd);
		free(cpus[i].buf);
	}
	free(cpus);
	free(pfd);
	fprintf(stderr, "memorizer stream: %llu records from %u CPUs, %llu bytes; lost records: %llu%s\n",
		(unsigned long long)records, ncpu,
		(unsigned long long)out->bytes_in, (unsigned long long)lost,
		lost ? " (the kernel's buffers were full)" : "");
	return rc;
}

int cmd_stream(int argc, char **argv)
{
	const char *dir;
	struct sink out = { 0 };
	struct output file;
	struct sigaction sa;
	int rc;

	(void)argv;
	if (argc) {
		error("no operands: memorizer stream [OPTIONS]");
		return 2;
	}
	if (zstd && !binary) {
		error("--zstd compresses the binary stream: add --binary");
		return 2;
	}
#ifndef KMAP_ZSTD
	if (zstd) {
		error("this memorizer was built without zstd");
		return 2;
	}
#endif
	if ((!output || !strcmp(output, "-")) && isatty(1)) {
		error("will not write a stream to a terminal: give -o FILE or redirect");
		return 2;
	}
	dir = debugfs_dir(debugfs);
	if (output_open(&file, output, NULL, 0))
		return 1;
	out.fd = file.fd;
	out.name = file.name;
	if (zstd && sink_zstd(&out)) {
		rc = 1;
		goto out;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: reads return EINTR */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* Not permitted (not root): the kernel's LOST records still tell. */
	setpriority(PRIO_PROCESS, 0, COLLECTOR_NICE);
	rc = binary ? stream_binary(dir, &out, !quiet && isatty(2))
		    : stream_text(dir, &out, !quiet && isatty(2));
	if (sink_close(&out))
		rc = 1;
	if (out.closed)
		fprintf(stderr, "memorizer stream: %s was closed by its reader: stopped\n",
			out.name);
out:
	/* What was collected is kept, even when collecting failed later. */
	if (output_close(&file, !rc || out.bytes_in))
		rc = 1;
	return rc;
}

const struct cmd cmd_stream_desc = {
	.name = "stream",
	.summary = "collect kmap_stream or the binary stream until interrupted",
	.synopsis = "[-o FILE] [--binary [--zstd]] [--debugfs DIR] [-q]",
	.description =
"Collects what Memorizer streams until SIGINT or SIGTERM (kmemtraced's "
"job). Without --binary it reads memorizer/kmap_stream, whose reads block "
"and never end, and writes the kmap text as read: the records of objects "
"whose life is over, each handed out once. With --binary it writes the "
"stream header of memorizer/binary/header once and then, waiting on all "
"CPUs' memorizer/binary/cpuN files with poll(), every whole record each "
"CPU gives, optionally compressed with zstd (--zstd).\n"
"\n"
"It runs at nice -20 when permitted (as root): in the guest it traces it "
"competes with the workload for the CPUs, and the kernel's per-CPU "
"buffers fill while it waits. For the same reason, after a wake-up that "
"brought less than 64 KiB it waits 20 ms before it polls again, so that "
"each wake-up takes a batch of records.\n"
"\n"
"On a signal it stops waiting, takes without blocking what the kernel "
"already has, writes it, and exits 0: nothing already read is lost. On a "
"terminal it shows progress (bytes, lines or records, seconds) on "
"standard error. At the end it reports lost records: the LOST records of "
"the binary stream, or for kmap_stream the objects and accesses dropped "
"while it ran (objects_dropped and accesses_dropped in memorizer/stats). "
"A file or pipe standing in for a debugfs file (--debugfs) ends the "
"collection at its end. When "
"standard output is a pipe whose reader goes away (stream | head), the "
"collection stops there and exits 0.\n"
"\n"
"With -o, FILE is written beside it and renamed over it when the "
"collection ends, so a collection that fails to start leaves an older "
"FILE as it was; what was collected is kept, even after a later error.",
	.opts = opts,
	.examples =
"  # memorizer stream -o /tmp/run.kmap &\n"
"  # sh -c 'echo 3 > /sys/kernel/debug/memorizer/memorizer_enabled && test-program'\n"
"  # kill -INT %1\n"
"  # memorizer stream --binary --zstd -o /tmp/run.bin.zst",
	.run = cmd_stream,
};
