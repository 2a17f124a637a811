// SPDX-License-Identifier: GPL-2.0
/*
 * memorizer: record, collect, check and analyse Memorizer's kmaps.
 * The dispatcher, help, man pages and completion from each subcommand's
 * struct cmd, and helpers the subcommands share.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"

const char *progname = "memorizer";

const struct cmd *const commands[] = {
	&cmd_record_desc, &cmd_stream_desc, &cmd_check_desc, &cmd_report_desc,
	&cmd_text_desc, &cmd_symbolize_desc, &cmd_capmap_desc, &cmd_diff_desc,
	&cmd_export_desc, &cmd_sharing_desc, &cmd_crosscheck_desc,
	&cmd_compartments_desc, NULL,
};

static void vmsg(const char *kind, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: %s", progname, kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

const char *plural(uint64_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/*
 * Every command's standard output is checked once more at exit: a write
 * error (> /dev/full) is an error, with errno's reason, whichever command
 * wrote, unless the command already failed.
 */
static int finish(int rc)
{
	errno = 0;
	if ((fflush(stdout) || ferror(stdout)) && !rc) {
		if (!errno)
			errno = EIO;
		error("<stdout>: write error: %m");
		rc = 1;
	}
	return rc;
}

int main(int argc, char **argv)
{
	static char name[64];
	const struct cmd *c;

	if (argc < 2) {
		main_usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		main_usage(stdout);
		return finish(0);
	}
	if (!strcmp(argv[1], "--version")) {
		printf("memorizer %s\n", MEMORIZER_VERSION);
		return finish(0);
	}
	if (!strcmp(argv[1], "help"))
		return finish(cmd_help_main(argc - 1, argv + 1));
	c = find_cmd(argv[1]);
	if (!c) {
		error("no command '%s'", argv[1]);
		main_usage(stderr);
		return 2;
	}
	snprintf(name, sizeof(name), "memorizer %s", c->name);
	progname = name;
	/* Every command's options, --help and usage errors: here. */
	argc = parse_options(c, argc - 1, argv + 1);
	if (argc == PARSE_OPT_HELP)
		return finish(0);
	if (argc < 0)
		return 2;
	return finish(c->run(argc, argv + 1));
}
