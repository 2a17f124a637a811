/*
 * Guest-side probe of kmap_stream's file semantics, for tests/vm/stream-*.sh.
 *
 *   stream-probe eagain FILE       O_NONBLOCK read of an empty stream: exit 0
 *                                  if it fails with EAGAIN
 *   stream-probe poll FILE MS      exit 0 if poll() says readable within MS
 *   stream-probe drain FILE BYTES  O_NONBLOCK reads of at most BYTES each
 *                                  until EAGAIN, the data to stdout
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	if (argc == 4 && !strcmp(argv[1], "drain")) {
		size_t max = strtoul(argv[3], NULL, 0);

		if (!max || max > sizeof(buf))
			return 2;
		fd = open_or_die(argv[2], O_RDONLY | O_NONBLOCK);
		while ((n = read(fd, buf, max)) > 0)
			if (write(1, buf, n) != n)
				return 2;
		if (n < 0 && errno == EAGAIN)
			return 0;
		fprintf(stderr, "stream-probe: read gave %zd (%s)\n", n,
			n < 0 ? strerror(errno) : "end of file");
		return 1;
	}
	fprintf(stderr, "usage: stream-probe eagain FILE | poll FILE MS | drain FILE BYTES\n");
	return 2;
}
