// SPDX-License-Identifier: GPL-2.0
/*
 * Output files. A regular file given with -o is written as a temporary
 * file beside it and renamed over it only when complete, so a failed or
 * interrupted command never leaves a truncated file, nor destroys the one
 * it would have replaced. A device, FIFO or terminal is written in place.
 * An output that is also one of the command's inputs is refused. Write
 * errors are errors everywhere, standard output included.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin.h"

/* An input "-" is standard input: compare with fd 0. */
static int stat_input(const char *path, struct stat *st)
{
	return strcmp(path, "-") ? stat(path, st) : fstat(0, st);
}

/* Output in large writes, but to a terminal (line by line there). */
static void big_buffer(struct output *o)
{
	if (!isatty(o->fd))
		setvbuf(o->f, NULL, _IOFBF, 1 << 20);
}

int output_open(struct output *o, const char *path, char *const *inputs,
		int ninputs)
{
	struct stat st, in;
	mode_t mode, mask;
	const char *slash;
	char *real = NULL;
	int i, fd, exists;

	memset(o, 0, sizeof(*o));
	if (!path || !strcmp(path, "-")) {
		o->f = stdout;
		o->fd = 1;
		o->name = "<stdout>";
		big_buffer(o);
		return 0;
	}
	o->name = path;
	exists = !stat(path, &st);
	if (!exists && errno != ENOENT) {
		error("%s: %m", path);
		return -1;
	}
	if (exists && S_ISDIR(st.st_mode)) {
		error("%s: is a directory", path);
		return -1;
	}
	for (i = 0; exists && i < ninputs; i++)
		if (!stat_input(inputs[i], &in) && in.st_dev == st.st_dev &&
		    in.st_ino == st.st_ino) {
			error("%s: is also the input: write the output to another file",
			      path);
			return -1;
		}
	if (exists && !S_ISREG(st.st_mode)) {
		o->fd = open(path, O_WRONLY | O_CLOEXEC);
		if (o->fd < 0 || !(o->f = fdopen(o->fd, "w"))) {
			error("%s: %m", path);
			if (o->fd >= 0)
				close(o->fd);
			return -1;
		}
		big_buffer(o);
		return 0;
	}
	/* Through a symlink, replace what it points to, not the link. */
	if (exists) {
		real = realpath(path, NULL);
		if (!real) {
			error("%s: %m", path);
			return -1;
		}
		mode = st.st_mode & 07777;
	} else {
		mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	o->path = real ? real : strdup(path);
	if (!o->path)
		goto nomem;
	slash = strrchr(o->path, '/');
	if (asprintf(&o->tmp, "%.*s.%s.XXXXXX",
		     slash ? (int)(slash - o->path + 1) : 0, o->path,
		     slash ? slash + 1 : o->path) < 0) {
		o->tmp = NULL;
		goto nomem;
	}
	fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd < 0) {
		error("%s: cannot write beside it: %m", path);
		goto fail;
	}
	o->fd = fd;
	if (fchmod(fd, mode) || !(o->f = fdopen(fd, "w"))) {
		error("%s: %m", o->tmp);
		close(fd);
		unlink(o->tmp);
		goto fail;
	}
	big_buffer(o);
	return 0;
nomem:
	error("out of memory");
fail:
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
	return -1;
}

int output_flush(struct output *o)
{
	int err = 0;

	if (!o->f)
		return o->failed ? -1 : 0;
	errno = 0;
	if (fflush(o->f))
		err = errno ? errno : EIO;
	else if (ferror(o->f))
		err = EIO;
	if (!err && o->tmp && fsync(o->fd))
		err = errno;
	if (o->f != stdout && fclose(o->f) && !err)
		err = errno;
	o->f = NULL;
	if (err) {
		errno = err;
		error("%s: write error: %m", o->name);
		o->failed = 1;
		return -1;
	}
	return 0;
}

int output_close(struct output *o, int keep)
{
	int rc = 0;

	if (keep)
		rc = output_flush(o);
	else if (o->f && o->f != stdout)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp) {
		if (keep && !rc && rename(o->tmp, o->path)) {
			error("%s: %m", o->name);
			rc = -1;
		}
		if (!keep || rc)
			unlink(o->tmp);
	}
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
	return rc;
}
