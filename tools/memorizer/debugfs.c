// SPDX-License-Identifier: GPL-2.0
/* debugfs: where Memorizer's files are, writing its controls, its stats. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"

const char *debugfs_dir(const char *opt)
{
	const char *env = getenv("MEMORIZER_DEBUGFS");

	if (opt)
		return opt;
	if (env && *env)
		return env;
	return "/sys/kernel/debug/memorizer";
}

int debugfs_write(const char *dir, const char *name, const char *s)
{
	char path[4096];
	int fd;
	ssize_t n, len = strlen(s);

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		error("%s: %s%s", path, strerror(errno),
		      errno == ENOENT ? " (debugfs not mounted, or not a Memorizer kernel?)" : "");
		return -1;
	}
	do
		n = write(fd, s, len);
	while (n < 0 && errno == EINTR);
	if (n != len) {
		error("writing '%.*s' to %s: %s", (int)strcspn(s, "\n"), s, path,
		      n < 0 ? strerror(errno) : "short write");
		close(fd);
		return -1;
	}
	if (close(fd)) {
		error("%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int debugfs_open(const char *dir, const char *name, char *path, size_t size)
{
	int fd;

	snprintf(path, size, "%s/%s", dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		error("%s: %m", path);
	return fd;
}

ssize_t read_retry(int fd, void *buf, size_t len)
{
	ssize_t n;

	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n;
}

long long stat_value(const char *dir, const char *key)
{
	char path[4096], err[KMAP_ERR_MAX];
	struct kmap_stats st;
	const uint64_t *v;
	long long value = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/stats", dir);
	f = kmap_fopen(path, err);
	if (!f)
		return -1;
	if (!kmap_stats_read(f, path, &st, err) &&
	    (v = kmap_stats_find(&st, key)) && *v <= INT64_MAX)
		value = (long long)*v;
	kmap_stats_free(&st);
	fclose(f);
	return value;
}
