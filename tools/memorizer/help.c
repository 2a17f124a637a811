// SPDX-License-Identifier: GPL-2.0
/*
 * Help, usage, man pages and bash completion: all from each subcommand's
 * struct cmd (one source for the text a user reads wherever it is read).
 */
#include <string.h>

#include "builtin.h"

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
	int pre = 0, i;

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
			/* The block's own indent goes; deeper lines keep theirs. */
			for (i = 0; i < 2 && len && *p == ' '; i++) {
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
	fputs(".SH DESCRIPTION\nMemorizer records kernel objects and the accesses to them; its kmap is read through debugfs. This command records and collects kmaps, checks them and reports on them. See the kernel's Documentation/dev\\-tools/memorizer.rst for the kmap format. Every command that reads a kmap also reads kmap_offsets (debugfs memorizer/kmap_offsets: each access line with two more fields, offset,offset_end, the bytes of the object its instruction touched) and binary streams of versions 1 to 5 (version 5's ACCESS records carry the same range); text \\-\\-offsets writes them, export has them as the accesses' offset and offset_end columns, capmap \\-\\-fields splits its cells by them.\n", f);
	fputs(".SH COMMANDS\n", f);
	for (i = 0; commands[i]; i++) {
		fprintf(f, ".TP\n.BR memorizer\\-%s (1)\n", commands[i]->name);
		man_text(f, commands[i]->summary, strlen(commands[i]->summary));
		fputc('\n', f);
	}
	fputs(".SH ENVIRONMENT\n.TP\n.B MEMORIZER_PROGRESS\n"
	      "Every command that reads a kmap, a stream, an mtrace log, function_calls or stack_frames shows on standard error how far it is: \\(lqFILE: P% of M MB, N records, S s\\(rq, rewritten at most twice a second, and at the end \\(lqFILE: N records, M MB, S s\\(rq (lines for text input), by default when standard error is a terminal and the input a file of 100 MB or more. 1 shows it for every input, wherever standard error goes (a line each off a terminal); 0 never.\n", f);
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
			if (o->values)
				fprintf(f, ")\n\t\t\tCOMPREPLY=($(compgen -W '%s' -- \"$cur\"))\n\t\t\treturn ;;\n",
					o->values);
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

const struct cmd *find_cmd(const char *name)
{
	int i;

	for (i = 0; commands[i]; i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

void main_usage(FILE *f)
{
	int i, w = 0;

	fprintf(f, "usage: memorizer [--version] [--help] COMMAND [ARGS]\n\n"
		   "Record, collect, check and analyse Memorizer's kernel memory access patterns (kmaps).\n\n"
		   "Commands:\n");
	/* The summaries in one column, after the longest name. */
	for (i = 0; commands[i]; i++)
		if ((int)strlen(commands[i]->name) > w)
			w = (int)strlen(commands[i]->name);
	for (i = 0; commands[i]; i++)
		fprintf(f, "  %-*s %s\n", w, commands[i]->name,
			commands[i]->summary);
	fprintf(f, "\n'memorizer help COMMAND' or 'memorizer COMMAND --help' tells more.\n");
}

int cmd_help_main(int argc, char **argv)
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
