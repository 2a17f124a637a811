// SPDX-License-Identifier: GPL-2.0
/*
 * btime: run a command and append its wall time, from CLOCK_MONOTONIC in
 * nanoseconds, to a file as seconds with 6 decimals. Built static by
 * bench/run and copied into the guest (busybox's date has no %N, and
 * /proc/uptime ticks in 10 ms).
 *
 *   btime OUT_FILE COMMAND [ARGS...]
 *
 * Exits with the command's status; 127 when it cannot be run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long long start, end;
	int status;
	pid_t pid;
	FILE *f;

	if (argc < 3) {
		fprintf(stderr, "usage: btime OUT_FILE COMMAND [ARGS...]\n");
		return 2;
	}
	start = now_ns();
	pid = fork();
	if (pid < 0) {
		perror("btime: fork");
		return 127;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror("btime: exec");
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0) {
		perror("btime: waitpid");
		return 127;
	}
	end = now_ns();
	f = fopen(argv[1], "a");
	if (!f) {
		perror(argv[1]);
		return 127;
	}
	fprintf(f, "%lld.%06lld\n", (end - start) / 1000000000LL,
		(end - start) % 1000000000LL / 1000);
	if (fclose(f))
		return 127;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
