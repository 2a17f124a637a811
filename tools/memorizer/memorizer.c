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

#ifndef MEMORIZER_VERSION
#define MEMORIZER_VERSION "0.1"
#endif

const char *progname = "memorizer";

const struct cmd *const commands[] = {
	&cmd_record, &cmd_stream, &cmd_check, &cmd_report, &cmd_text,
	&cmd_symbolize, NULL,
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

const struct cmd *find_cmd(const char *name)
{
	int i;

	for (i = 0; commands[i]; i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

int parse_u64_arg(const char *opt, const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	if (*s < '0' || *s > '9') {
		error("%s: '%s' is not a number", opt, s);
		return -1;
	}
	*v = strtoull(s, &end, 10);
	if (errno || *end) {
		error("%s: '%s' is not a number", opt, s);
		return -1;
	}
	return 0;
}

/* Options. */

/* The operand list of the (one) command line parsed, freed by main(). */
static char **operands;

void optparse_init(struct optparse *p, const struct cmd *c, int argc,
		   char **argv)
{
	memset(p, 0, sizeof(*p));
	p->ops = calloc(argc + 1, sizeof(*p->ops));
	if (!p->ops) {
		error("out of memory");
		exit(1);
	}
	free(operands);
	operands = p->ops;
	p->cmd = c;
	p->argc = argc;
	p->argv = argv;
	p->ind = 1;
}

int opt_is(const struct optparse *p, int idx, const char *name)
{
	return idx >= 0 && !strcmp(p->cmd->opts[idx].name, name);
}

static int short_pending_idx(const struct cmd *c, char ch)
{
	int i;

	for (i = 0; c->opts[i].name; i++)
		if (c->opts[i].short_name == ch)
			return i;
	return -1;
}

int opt_next(struct optparse *p)
{
	static char *cluster;		/* rest of "-abc" after "-a" */
	const struct cmd *c = p->cmd;
	const char *a;
	int i;

	if (cluster && *cluster) {
		char ch = *cluster++;

		i = short_pending_idx(c, ch);
		if (i < 0) {
			error("%s: unknown option -%c", c->name, ch);
			cmd_usage(c, stderr);
			cluster = NULL;
			return -3;
		}
		goto found_short;
	}
	cluster = NULL;
	for (;;) {
		if (p->ind >= p->argc)
			return -1;
		a = p->argv[p->ind];
		if (!strcmp(a, "--")) {
			p->ind++;
			while (p->ind < p->argc)
				p->ops[p->nops++] = p->argv[p->ind++];
			return -1;
		}
		if (a[0] == '-' && a[1])
			break;
		/* An operand: record stops at its CMD, others go on. */
		if (p->stop_at_nonopt) {
			while (p->ind < p->argc)
				p->ops[p->nops++] = p->argv[p->ind++];
			return -1;
		}
		p->ops[p->nops++] = p->argv[p->ind++];
	}
	p->ind++;
	if (a[1] == '-') {
		const char *name = a + 2, *eq = strchr(name, '=');
		size_t len = eq ? (size_t)(eq - name) : strlen(name);

		if (len == 4 && !strncmp(name, "help", 4)) {
			cmd_help(c, stdout);
			return -2;
		}
		for (i = 0; c->opts[i].name; i++)
			if (strlen(c->opts[i].name) == len &&
			    !strncmp(c->opts[i].name, name, len))
				break;
		if (!c->opts[i].name) {
			error("%s: unknown option --%.*s", c->name, (int)len, name);
			cmd_usage(c, stderr);
			return -3;
		}
		if (!c->opts[i].arg) {
			if (eq) {
				error("%s: --%s takes no argument", c->name,
				      c->opts[i].name);
				return -3;
			}
			p->arg = NULL;
			return i;
		}
		if (eq) {
			p->arg = eq + 1;
		} else {
			if (p->ind >= p->argc) {
				error("%s: --%s needs %s", c->name,
				      c->opts[i].name, c->opts[i].arg);
				return -3;
			}
			p->arg = p->argv[p->ind++];
		}
		return i;
	}
	if (a[1] == 'h' && !a[2]) {
		cmd_help(c, stdout);
		return -2;
	}
	i = short_pending_idx(c, a[1]);
	if (i < 0) {
		error("%s: unknown option -%c", c->name, a[1]);
		cmd_usage(c, stderr);
		return -3;
	}
	cluster = (char *)a + 2;
found_short:
	if (!c->opts[i].arg) {
		p->arg = NULL;
		return i;
	}
	if (*cluster) {
		p->arg = cluster;
	} else if (p->ind < p->argc) {
		p->arg = p->argv[p->ind++];
	} else {
		error("%s: -%c needs %s", c->name, c->opts[i].short_name,
		      c->opts[i].arg);
		cluster = NULL;
		return -3;
	}
	cluster = NULL;
	return i;
}

/* Help, man pages, completion: all from struct cmd. */

static void opt_label(const struct opt *o, char *buf, size_t len)
{
	if (o->short_name)
		snprintf(buf, len, "-%c, --%s%s%s", o->short_name, o->name,
			 o->arg ? " " : "", o->arg ? o->arg : "");
	else
		snprintf(buf, len, "--%s%s%s", o->name, o->arg ? " " : "",
			 o->arg ? o->arg : "");
}

void cmd_usage(const struct cmd *c, FILE *f)
{
	fprintf(f, "usage: memorizer %s %s\n", c->name, c->synopsis);
	fprintf(f, "Try 'memorizer help %s'.\n", c->name);
}

/* Print text wrapped at 76 columns with indent. */
static void wrap(FILE *f, const char *text, int indent)
{
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (len == 0) {
			fputc('\n', f);
		} else if (*p == ' ') {	/* preformatted */
			fprintf(f, "%*s%.*s\n", indent, "", (int)len, p);
		} else {
			const char *s = p, *e = p + len;
			int col = indent;

			fprintf(f, "%*s", indent, "");
			while (s < e) {
				const char *w = s;
				size_t wl;

				while (w < e && *w != ' ')
					w++;
				wl = w - s;
				if (col > indent && col + 1 + (int)wl > 76) {
					fprintf(f, "\n%*s", indent, "");
					col = indent;
				} else if (col > indent) {
					fputc(' ', f);
					col++;
				}
				fwrite(s, 1, wl, f);
				col += wl;
				s = w;
				while (s < e && *s == ' ')
					s++;
			}
			fputc('\n', f);
		}
		p += len;
		if (*p)
			p++;
	}
}

void cmd_help(const struct cmd *c, FILE *f)
{
	const struct opt *o;
	char label[128];

	fprintf(f, "memorizer %s - %s\n\n", c->name, c->summary);
	fprintf(f, "usage: memorizer %s %s\n\n", c->name, c->synopsis);
	wrap(f, c->description, 2);
	if (c->opts[0].name) {
		fprintf(f, "\nOptions:\n");
		for (o = c->opts; o->name; o++) {
			opt_label(o, label, sizeof(label));
			fprintf(f, "  %s\n", label);
			wrap(f, o->help, 8);
		}
		fprintf(f, "  -h, --help\n        Show this help.\n");
	}
	if (c->examples) {
		fprintf(f, "\nExamples:\n");
		wrap(f, c->examples, 2);
	}
}

/* troff: escape backslashes and leading dots/quotes. */
static void man_text(FILE *f, const char *s, size_t len)
{
	size_t i;

	if (len && (s[0] == '.' || s[0] == '\''))
		fputs("\\&", f);
	for (i = 0; i < len; i++) {
		if (s[i] == '\\')
			fputs("\\e", f);
		else if (s[i] == '-')
			fputs("\\-", f);
		else
			fputc(s[i], f);
	}
}

static void man_paras(FILE *f, const char *text)
{
	const char *p = text;
	int pre = 0;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (len == 0) {
			if (pre) {
				fputs(".fi\n.RE\n", f);
				pre = 0;
			}
			fputs(".PP\n", f);
		} else if (*p == ' ') {
			if (!pre) {
				fputs(".RS 4\n.nf\n", f);
				pre = 1;
			}
			while (len && *p == ' ') {
				p++;
				len--;
			}
			man_text(f, p, len);
			fputc('\n', f);
		} else {
			if (pre) {
				fputs(".fi\n.RE\n", f);
				pre = 0;
			}
			man_text(f, p, len);
			fputc('\n', f);
		}
		p += len;
		if (*p)
			p++;
	}
	if (pre)
		fputs(".fi\n.RE\n", f);
}

void cmd_man(const struct cmd *c, FILE *f)
{
	const struct opt *o;
	char label[128];
	int i;

	fprintf(f, ".TH MEMORIZER\\-%s 1 \"\" \"memorizer %s\" \"Memorizer Manual\"\n",
		c->name, MEMORIZER_VERSION);
	for (i = 0; c->name[i]; i++)
		;
	fputs(".SH NAME\nmemorizer\\-", f);
	man_text(f, c->name, strlen(c->name));
	fputs(" \\- ", f);
	man_text(f, c->summary, strlen(c->summary));
	fputs("\n.SH SYNOPSIS\n.B memorizer ", f);
	man_text(f, c->name, strlen(c->name));
	fputc(' ', f);
	man_text(f, c->synopsis, strlen(c->synopsis));
	fputs("\n.SH DESCRIPTION\n", f);
	man_paras(f, c->description);
	fputs(".SH OPTIONS\n", f);
	for (o = c->opts; o->name; o++) {
		opt_label(o, label, sizeof(label));
		fputs(".TP\n.B ", f);
		man_text(f, label, strlen(label));
		fputc('\n', f);
		man_paras(f, o->help);
	}
	fputs(".TP\n.B \\-h, \\-\\-help\nShow the help text.\n", f);
	if (c->examples) {
		fputs(".SH EXAMPLES\n", f);
		man_paras(f, c->examples);
	}
	fputs(".SH SEE ALSO\n.BR memorizer (1)\n", f);
}

static void man_main(FILE *f)
{
	int i;

	fprintf(f, ".TH MEMORIZER 1 \"\" \"memorizer %s\" \"Memorizer Manual\"\n",
		MEMORIZER_VERSION);
	fputs(".SH NAME\nmemorizer \\- record and analyse Memorizer's kernel memory access patterns\n", f);
	fputs(".SH SYNOPSIS\n.B memorizer\n.I COMMAND\n[\\fIARGS\\fR]\n", f);
	fputs(".SH DESCRIPTION\nMemorizer records kernel objects and the accesses to them; its kmap is read through debugfs. This command records and collects kmaps, checks them and reports on them. See the kernel's Documentation/dev\\-tools/memorizer.rst for the kmap format.\n", f);
	fputs(".SH COMMANDS\n", f);
	for (i = 0; commands[i]; i++) {
		fprintf(f, ".TP\n.BR memorizer\\-%s (1)\n", commands[i]->name);
		man_text(f, commands[i]->summary, strlen(commands[i]->summary));
		fputc('\n', f);
	}
	fputs(".SH SEE ALSO\n", f);
	for (i = 0; commands[i]; i++)
		fprintf(f, ".BR memorizer\\-%s (1)%s\n", commands[i]->name,
			commands[i + 1] ? "," : "");
}

void print_completion(FILE *f)
{
	const struct opt *o;
	int i;

	fputs("# bash completion for memorizer (memorizer help --completion)\n", f);
	fputs("_memorizer()\n{\n\tlocal cur prev words cword cmd i\n", f);
	fputs("\t_init_completion || return\n", f);
	fputs("\tcmd=\n\tfor ((i = 1; i < cword; i++)); do\n", f);
	fputs("\t\tcase ${words[i]} in -*) ;; *) cmd=${words[i]}; break ;; esac\n\tdone\n", f);
	fputs("\tif [[ -z $cmd ]]; then\n\t\tCOMPREPLY=($(compgen -W '", f);
	for (i = 0; commands[i]; i++)
		fprintf(f, "%s ", commands[i]->name);
	fputs("help --help --version' -- \"$cur\"))\n\t\treturn\n\tfi\n", f);
	fputs("\tcase $cmd in\n\thelp)\n\t\tCOMPREPLY=($(compgen -W '", f);
	for (i = 0; commands[i]; i++)
		fprintf(f, "%s%s", commands[i]->name, commands[i + 1] ? " " : "");
	fputs("' -- \"$cur\"))\n\t\treturn ;;\n", f);
	for (i = 0; commands[i]; i++) {
		const struct cmd *c = commands[i];

		fprintf(f, "\t%s)\n\t\tcase $prev in\n", c->name);
		for (o = c->opts; o->name; o++) {
			if (!o->arg)
				continue;
			fprintf(f, "\t\t--%s", o->name);
			if (o->short_name)
				fprintf(f, "|-%c", o->short_name);
			if (!strcmp(o->name, "by"))
				fputs(")\n\t\t\tCOMPREPLY=($(compgen -W 'callsite cache kind function pid object' -- \"$cur\"))\n\t\t\treturn ;;\n", f);
			else if (!strcmp(o->name, "mode"))
				fputs(")\n\t\t\tCOMPREPLY=($(compgen -W '1 2 3' -- \"$cur\"))\n\t\t\treturn ;;\n", f);
			else if (!strcmp(o->arg, "FILE") || !strcmp(o->arg, "DIR"))
				fputs(")\n\t\t\t_filedir\n\t\t\treturn ;;\n", f);
			else
				fputs(")\n\t\t\treturn ;;\n", f);
		}
		fputs("\t\tesac\n", f);
		if (!strcmp(c->name, "record")) {
			fputs("\t\tfor ((i = 2; i < cword; i++)); do\n"
			      "\t\t\tif [[ ${words[i]} == -- ]]; then\n"
			      "\t\t\t\t_command_offset $((i + 1))\n"
			      "\t\t\t\treturn\n\t\t\tfi\n\t\tdone\n", f);
		}
		fputs("\t\tif [[ $cur == -* ]]; then\n\t\t\tCOMPREPLY=($(compgen -W '", f);
		for (o = c->opts; o->name; o++)
			fprintf(f, "--%s ", o->name);
		fputs("--help' -- \"$cur\"))\n\t\telse\n", f);
		if (c->files_desc)
			fputs("\t\t\t_filedir\n", f);
		else
			fputs("\t\t\tCOMPREPLY=()\n", f);
		fputs("\t\tfi\n\t\t;;\n", f);
	}
	fputs("\tesac\n}\ncomplete -F _memorizer memorizer\n", f);
}

static void main_usage(FILE *f)
{
	int i;

	fprintf(f, "usage: memorizer [--version] [--help] COMMAND [ARGS]\n\n"
		   "Record, collect, check and analyse Memorizer's kernel memory access patterns (kmaps).\n\n"
		   "Commands:\n");
	for (i = 0; commands[i]; i++)
		fprintf(f, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(f, "\n'memorizer help COMMAND' or 'memorizer COMMAND --help' tells more.\n");
}

static int cmd_help_main(int argc, char **argv)
{
	const struct cmd *c;

	if (argc < 2) {
		main_usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--completion")) {
		print_completion(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--man")) {
		if (argc < 3) {
			error("help --man: which command? (memorizer for the main page)");
			return 2;
		}
		if (!strcmp(argv[2], "memorizer")) {
			man_main(stdout);
			return 0;
		}
		c = find_cmd(argv[2]);
		if (!c) {
			error("help: no command '%s'", argv[2]);
			return 2;
		}
		cmd_man(c, stdout);
		return 0;
	}
	c = find_cmd(argv[1]);
	if (!c) {
		error("help: no command '%s'", argv[1]);
		main_usage(stderr);
		return 2;
	}
	cmd_help(c, stdout);
	return 0;
}

/* Shared helpers. */

struct kmap_sym *open_symbols(const char *vmlinux, const char *system_map,
			      int *failed)
{
	char err[KMAP_ERR_MAX];
	struct kmap_sym *s = NULL;

	*failed = 0;
	if (vmlinux && system_map) {
		error("give --vmlinux or --system-map, not both");
		*failed = 1;
		return NULL;
	}
	if (vmlinux)
		s = kmap_sym_open_elf(vmlinux, err);
	else if (system_map)
		s = kmap_sym_open_map(system_map, err);
	else
		return NULL;
	if (!s) {
		error("%s", err);
		*failed = 1;
	}
	return s;
}

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

long long stat_value(const char *dir, const char *key)
{
	char path[4096], line[512];
	FILE *f;
	long long v = -1;
	size_t kl = strlen(key);
	int bol = 1;			/* line holds a line's start */

	snprintf(path, sizeof(path), "%s/stats", dir);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		int at_bol = bol;

		bol = strchr(line, '\n') != NULL;
		if (at_bol && !strncmp(line, key, kl) && line[kl] == ' ') {
			const char *p = line + kl + 1;
			char *end;

			if (*p < '0' || *p > '9')
				break;
			errno = 0;
			v = strtoll(p, &end, 10);
			if (errno || (*end != '\n' && *end))
				v = -1;
			break;
		}
	}
	fclose(f);
	return v;
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
	int rc;

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
	rc = c->run(argc - 1, argv + 1);
	free(operands);
	return finish(rc);
}
