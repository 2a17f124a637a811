// SPDX-License-Identifier: GPL-2.0
/* memorizer record: trace one command's process tree, save its kmap. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "builtin.h"

static const char *output = "memorizer.kmap", *debugfs;
static uint64_t mode = 3;
static int no_access, offsets;

/* --mode: 1, 2 or 3. */
static int mode_cb(const struct opt *opt, const char *arg)
{
	uint64_t *v = opt->value;

	if (parse_u64_arg("--mode", arg, v))
		return -1;
	if (*v < 1 || *v > 3) {
		error("--mode %s: 1, 2 or 3", arg);
		return -1;
	}
	return 0;
}

static const struct opt opts[] = {
	OPT__OUTPUT(&output, "Save the kmap to FILE (default memorizer.kmap)."),
	OPT_CALLBACK_VALUES('m', "mode", &mode, "MODE", "What to trace, as memorizer_enabled takes it: 3 (the default) CMD and the processes it creates; 2 the same and all interrupt contexts; 1 the whole system.", mode_cb,
			    "1 2 3"),
	OPT_BOOLEAN(0, "no-access", &no_access, "Record objects only, not accesses (memorizer_log_access stays 0)."),
	OPT_BOOLEAN(0, "offsets", &offsets, "Save kmap_offsets instead of kmap: the same lines, each access line with the bytes of the object it touched (for capmap --fields and the report's bytes view)."),
	OPT__DEBUGFS(&debugfs),
	OPT_END(),
};

static volatile sig_atomic_t got_signal;
static volatile pid_t child;

static void on_signal(int sig)
{
	got_signal = sig;
	if (child > 0)
		kill(child, sig);
}

/* Copy DIR/name (kmap, kmap_offsets) to out; 0, or -1 with a message. */
static int save_kmap(const char *dir, const char *name, struct output *out)
{
	char src[4096], buf[65536];
	int in;
	ssize_t n;

	in = debugfs_open(dir, name, src, sizeof(src));
	if (in < 0)
		return -1;
	for (;;) {
		char *p = buf;

		n = read_retry(in, buf, sizeof(buf));
		if (n < 0) {
			error("%s: %m", src);
			goto fail;
		}
		if (n == 0)
			break;
		while (n > 0) {
			ssize_t w = write(out->fd, p, n);

			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0) {
				error("%s: write error: %m", out->name);
				goto fail;
			}
			p += w;
			n -= w;
		}
	}
	close(in);
	return 0;
fail:
	close(in);
	return -1;
}

/* Count objects, access lines and accesses of the saved kmap (libkmap). */
static int count(const char *path, uint64_t *objects, uint64_t *lines,
		 uint64_t *accesses)
{
	char err[KMAP_ERR_MAX];
	struct kmap_src *s = open_input(path, err);
	const struct kmap_object *o;
	const struct kmap_access *a;
	size_t n, i;
	int rc;

	if (!s) {
		error("%s", err);
		return -1;
	}
	while ((rc = kmap_src_next(s, &o, &a, &n)) > 0) {
		(*objects)++;
		*lines += n;
		for (i = 0; i < n; i++)
			*accesses = kmap_add_sat(*accesses, kmap_add_sat(a[i].reads, a[i].writes));
	}
	if (rc < 0)
		error("the kernel's kmap does not parse: %s", kmap_src_error(s));
	kmap_src_close(s);
	return rc;
}

/*
 * Run ops[] traced: the child turns Memorizer on in mode modestr and execs
 * it (SIGINT, SIGTERM and SIGHUP passed on to it), then Memorizer goes off
 * whatever happened. Returns 0 (*status is the child's) or 1.
 */
static int trace(const char *dir, const char *modestr, char **ops,
		 int *status)
{
	struct sigaction sa, old_int, old_term, old_hup;
	sigset_t forwarded, old_mask;
	int rc = 0, pipefd[2];
	pid_t pid;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);

	/* The child tells the parent through a close-on-exec pipe whether
	 * enabling failed (a byte) or the exec happened (EOF). */
	if (pipe2(pipefd, O_CLOEXEC)) {
		error("pipe: %m");
		rc = 1;
		goto off;
	}
	fflush(NULL);
	/* A signal that comes before child is set would not be passed on:
	 * hold them until it is. */
	sigemptyset(&forwarded);
	sigaddset(&forwarded, SIGINT);
	sigaddset(&forwarded, SIGTERM);
	sigaddset(&forwarded, SIGHUP);
	sigprocmask(SIG_BLOCK, &forwarded, &old_mask);
	pid = fork();
	if (pid > 0)
		child = pid;
	if (pid != 0)
		sigprocmask(SIG_SETMASK, &old_mask, NULL);
	if (pid < 0) {
		error("fork: %m");
		rc = 1;
		close(pipefd[0]);
		close(pipefd[1]);
		goto off;
	}
	if (pid == 0) {
		char what = 'e';

		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
		sigaction(SIGHUP, &old_hup, NULL);
		sigprocmask(SIG_SETMASK, &old_mask, NULL);
		close(pipefd[0]);
		/* Mode 3 and 2 mark the writer: this process, then CMD. */
		if (debugfs_write(dir, "memorizer_enabled", modestr)) {
			if (write(pipefd[1], &what, 1) < 0)
				_exit(126);
			_exit(126);
		}
		execvp(ops[0], ops);
		error("%s: %m", ops[0]);
		what = 'x';
		if (write(pipefd[1], &what, 1) < 0)
			_exit(127);
		_exit(127);
	}
	close(pipefd[1]);
	{
		char what = 0;
		ssize_t n;

		n = read_retry(pipefd[0], &what, 1);
		close(pipefd[0]);
		if (n == 1 && what == 'e')
			rc = 1;	/* enabling failed: the child said why */
	}
	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR) {
			error("waitpid: %m");
			rc = 1;
			break;
		}
	}
	child = 0;
off:
	/* Off whatever happened. */
	if (debugfs_write(dir, "memorizer_enabled", "0\n"))
		rc = 1;
	if (debugfs_write(dir, "memorizer_log_access", "0\n"))
		rc = 1;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	return rc;
}

int cmd_record(int argc, char **argv)
{
	uint64_t objects = 0, lines = 0, accesses = 0;
	long long drop_obj0, drop_acc0, drop_obj, drop_acc;
	int status = 0, rc = 0;
	const char *dir;
	struct output out;
	char modestr[16];

	if (argc < 1) {
		error("which command? memorizer record [OPTIONS] -- CMD [ARGS]");
		return 2;
	}
	dir = debugfs_dir(debugfs);
	snprintf(modestr, sizeof(modestr), "%llu\n", (unsigned long long)mode);
	if (!strcmp(output, "-")) {
		error("-o -: the kmap is saved to a file, which record then counts");
		return 2;
	}
	/* Before the workload runs: its trace must have somewhere to go. */
	if (output_open(&out, output, NULL, 0))
		return 1;

	/* Start clean: off, freed records dropped, accesses as asked. */
	if (debugfs_write(dir, "memorizer_enabled", "0\n") ||
	    debugfs_write(dir, "clear_dead_objects", "1\n") ||
	    debugfs_write(dir, "memorizer_log_access", no_access ? "0\n" : "1\n")) {
		debugfs_write(dir, "memorizer_log_access", "0\n");
		rc = 1;
		goto out;
	}
	drop_obj0 = stat_value(dir, "objects_dropped");
	drop_acc0 = stat_value(dir, "accesses_dropped");

	rc = trace(dir, modestr, argv, &status);
	if (rc)
		goto out;
	if (save_kmap(dir, offsets ? "kmap_offsets" : "kmap", &out)) {
		rc = 1;
		goto out;
	}
	if (output_close(&out, 1))
		return 1;
	if (count(output, &objects, &lines, &accesses))
		rc = 1;
	drop_obj = stat_value(dir, "objects_dropped");
	drop_acc = stat_value(dir, "accesses_dropped");
	printf("memorizer record: %s: %llu objects, %llu access lines (%llu accesses)",
	       output, (unsigned long long)objects, (unsigned long long)lines,
	       (unsigned long long)accesses);
	if (drop_obj >= 0 && drop_acc >= 0 && drop_obj0 >= 0 && drop_acc0 >= 0)
		printf(", dropped %lld objects and %lld accesses",
		       drop_obj - drop_obj0, drop_acc - drop_acc0);
	else
		printf(", drops unknown (no figures from %s/stats)", dir);
	if (WIFEXITED(status))
		printf("; %s exited %d\n", argv[0], WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		printf("; %s killed by signal %d\n", argv[0], WTERMSIG(status));
	fflush(stdout);
	if (got_signal)
		warning("interrupted by signal %d: Memorizer is off, the kmap saved",
			(int)got_signal);
	if (rc)
		return rc;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
out:
	output_close(&out, 0);
	return rc;
}

const struct cmd cmd_record_desc = {
	.name = "record",
	.summary = "trace a command's process tree and save its kmap",
	.synopsis = "[-o FILE] [--mode 1|2|3] [--no-access] [--offsets] [--debugfs DIR] -- CMD [ARGS]",
	.description =
"Runs CMD with Memorizer tracing it and saves the kmap, as seed 003's "
"process-specific experiment does by hand: writes 0 to memorizer_enabled, "
"1 to clear_dead_objects (dropping freed objects' records), and 1 to "
"memorizer_log_access (0 with --no-access); forks; the child writes the "
"mode to memorizer_enabled, which in modes 3 and 2 marks it so that CMD, "
"which it then executes, and every process CMD creates are traced; after "
"CMD exits, writes 0 to memorizer_enabled and memorizer_log_access, copies "
"the kmap (with --offsets, kmap_offsets: the kmap with each access line's "
"byte range) to FILE and prints one line: objects, access lines, accesses, and "
"the objects and accesses dropped for lack of pool memory meanwhile "
"(objects_dropped and accesses_dropped in memorizer/stats).\n"
"\n"
"FILE is opened before CMD runs, so that a trace is never lost to an "
"unwritable path after the experiment; it is written beside FILE and "
"renamed over it once complete, so a failed record leaves an older FILE "
"as it was.\n"
"\n"
"Memorizer is left off whatever happens: when CMD fails, cannot be "
"executed, or record is interrupted (SIGINT, SIGTERM and SIGHUP are passed "
"on to CMD, then the kmap is saved). Needs root and a Memorizer kernel. "
"Exits with CMD's status (128 + the signal when killed), 1 when tracing "
"could not be set up or the kmap not saved, 2 on bad usage.",
	.opts = opts,
	.stop_at_nonopt = 1,
	.examples =
"  # memorizer record -o /tmp/tar.kmap -- tar zcf /tmp/etc.tgz /etc\n"
"  memorizer record: /tmp/tar.kmap: 365 objects, 16582 access lines (512879 accesses), dropped 0 objects and 0 accesses; tar exited 0",
	.run = cmd_record,
};
