/*
 * load-module FILE [PARAMS]: one finit_module(2) of FILE with PARAMS, for
 * guest tests (tests/vm/peer-suites.sh). busybox's insmod and modprobe
 * try init_module(2) when finit_module(2) fails, so a module whose init
 * runs its tests and then refuses to stay (test_vmalloc) would run twice.
 * Exit 0 when the module loaded; 1, and the error, when it did not.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int fd;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: load-module FILE [PARAMS]\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "load-module: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	if (syscall(SYS_finit_module, fd, argc == 3 ? argv[2] : "", 0)) {
		fprintf(stderr, "load-module: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	return 0;
}
