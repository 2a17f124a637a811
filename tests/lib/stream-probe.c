/*
 * Guest-side probe of kmap_stream's file semantics, for tests/vm/stream-*.sh.
 *
 *   stream-probe eagain FILE       O_NONBLOCK read of an empty stream: exit 0
 *                                  if it fails with EAGAIN
 *   stream-probe poll FILE MS      exit 0 if poll() says readable within MS
 *   stream-probe drain FILE BYTES [READS]
 *                                  O_NONBLOCK reads of at most BYTES each
 *                                  until EAGAIN, the data to stdout; with
 *                                  READS, at most READS reads, each after
 *                                  waiting up to 100 ms for data
 *   stream-probe records FILE BYTES N
 *                                  N blocking reads of at most BYTES each
 *                                  of a binary/cpuN file: exit 0 if every
 *                                  read gave whole records (sizes from
 *                                  their headers), 1 at the first that
 *                                  did not
 *   stream-probe einval FILE BYTES once FILE is readable, a read of
 *                                  BYTES (less than a record): exit 0 if
 *                                  it fails with EINVAL
 *   stream-probe count FILE        FILE holds whole records, as reads of
 *                                  binary/cpuN gave them (no header):
 *                                  print "N records, M LOST"; exit 1 at
 *                                  a record cut short, of a size no
 *                                  record has, or of no known type
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/memorizer.h>

static int open_or_die(const char *path, int flags)
{
	int fd = open(path, flags);

	if (fd < 0) {
		fprintf(stderr, "stream-probe: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	return fd;
}

int main(int argc, char **argv)
{
	char buf[65536];
	ssize_t n;
	int fd;

	if (argc == 3 && !strcmp(argv[1], "eagain")) {
		fd = open_or_die(argv[2], O_RDONLY | O_NONBLOCK);
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EAGAIN)
			return 0;
		fprintf(stderr, "stream-probe: read gave %zd (%s), not EAGAIN\n",
			n, n < 0 ? strerror(errno) : "data");
		return 1;
	}
	if (argc == 4 && !strcmp(argv[1], "poll")) {
		struct pollfd p = { .events = POLLIN };
		int r;

		p.fd = open_or_die(argv[2], O_RDONLY);
		r = poll(&p, 1, atoi(argv[3]));
		if (r == 1 && (p.revents & POLLIN))
			return 0;
		fprintf(stderr, "stream-probe: poll gave %d, revents %#x\n", r,
			p.revents);
		return 1;
	}
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "drain")) {
		size_t max = strtoul(argv[3], NULL, 0);
		long reads = argc == 5 ? atol(argv[4]) : -1;

		if (!max || max > sizeof(buf) || !reads)
			return 2;
		fd = open_or_die(argv[2], O_RDONLY | O_NONBLOCK);
		for (;;) {
			struct pollfd p = { .fd = fd, .events = POLLIN };

			if (reads > 0 && poll(&p, 1, 100) < 0) {
				perror("stream-probe: poll");
				return 1;
			}
			n = read(fd, buf, max);
			if (n <= 0)
				break;
			if (write(1, buf, n) != n)
				return 2;
			if (reads > 0 && !--reads)
				return 0;
		}
		if (n < 0 && errno == EAGAIN)
			return 0;
		fprintf(stderr, "stream-probe: read gave %zd (%s)\n", n,
			n < 0 ? strerror(errno) : "end of file");
		return 1;
	}
	if (argc == 5 && !strcmp(argv[1], "records")) {
		size_t max = strtoul(argv[3], NULL, 0), pos;
		long reads = atol(argv[4]), i;
		unsigned long long bytes = 0, records = 0;

		if (!max || max > sizeof(buf))
			return 2;
		fd = open_or_die(argv[2], O_RDONLY);
		for (i = 0; i < reads; i++) {
			n = read(fd, buf, max);
			if (n <= 0) {
				fprintf(stderr, "stream-probe: read %ld gave %zd (%s)\n",
					i, n, n < 0 ? strerror(errno) : "end of file");
				return 1;
			}
			/* struct memorizer_rec_hdr: u16 type, u16 size, ... */
			for (pos = 0; pos + 16 <= (size_t)n; records++) {
				unsigned short size;

				memcpy(&size, buf + pos + 2, sizeof(size));
				if (size < 16 || size % 8)
					break;
				pos += size;
			}
			if (pos != (size_t)n) {
				fprintf(stderr, "stream-probe: read %ld: %zd bytes, whole records end at %zu\n",
					i, n, pos);
				return 1;
			}
			bytes += n;
		}
		printf("%ld reads of at most %zu bytes: %llu records, %llu bytes\n",
		       reads, max, records, bytes);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "count")) {
		unsigned long long records = 0, lost = 0;
		struct memorizer_rec_hdr h;
		long whole = 0;
		FILE *f = fopen(argv[2], "r");

		if (!f) {
			fprintf(stderr, "stream-probe: %s: %s\n", argv[2], strerror(errno));
			return 2;
		}
		while (fread(&h, sizeof(h), 1, f) == 1) {
			size_t body = h.size - sizeof(h);

			if (h.size < sizeof(h) || h.size % 8 || !h.type ||
			    h.type >= MEMORIZER_REC_NR_TYPES ||
			    (body && fread(buf, body, 1, f) != 1)) {
				fprintf(stderr, "stream-probe: %s: record %llu: type %u, size %u: not a whole record\n",
					argv[2], records + lost, h.type, h.size);
				return 1;
			}
			whole += h.size;
			if (h.type == MEMORIZER_REC_LOST)
				lost++;
			else
				records++;
		}
		if (ferror(f) || ftell(f) != whole) {
			fprintf(stderr, "stream-probe: %s: ends inside a record\n", argv[2]);
			return 1;
		}
		printf("%llu records, %llu LOST\n", records, lost);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "einval")) {
		struct pollfd p = { .events = POLLIN };

		p.fd = open_or_die(argv[2], O_RDONLY | O_NONBLOCK);
		if (poll(&p, 1, 10000) != 1)
			return 1;
		n = read(p.fd, buf, strtoul(argv[3], NULL, 0));
		if (n < 0 && errno == EINVAL)
			return 0;
		fprintf(stderr, "stream-probe: read gave %zd (%s), not EINVAL\n",
			n, n < 0 ? strerror(errno) : "data");
		return 1;
	}
	fprintf(stderr, "usage: stream-probe eagain FILE | poll FILE MS | drain FILE BYTES [READS] | records FILE BYTES N | einval FILE BYTES | count FILE\n");
	return 2;
}
