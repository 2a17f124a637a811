// SPDX-License-Identifier: GPL-2.0
/*
 * Command-line options: getopt_long over a command's struct opt table
 * (the table its help, man page and completion come from too), each
 * option setting its variable; numbers given as options, and the symbol
 * files --vmlinux and --system-map name.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "kmap_types.h"

/* getopt_long's val for opts[i]: past every char, so never a short name. */
#define OPT_VAL(i)	(256 + (i))
#define OPT_HELP	'h'

/* The option whose short name is ch, or NULL. */
static const struct opt *short_opt(const struct cmd *c, int ch)
{
	const struct opt *o;

	for (o = c->opts; o->name; o++)
		if (o->short_name && o->short_name == ch)
			return o;
	return NULL;
}

/* getopt_long's tables: one command line is parsed at a time. */
#define OPT_MAX		32
static struct option longopts[OPT_MAX + 2];
static char shortopts[3 * OPT_MAX + 4];

/* Build getopt_long's tables from c->opts; -1 with a message. */
static int build(const struct cmd *c)
{
	const struct opt *o = c->opts;
	size_t n, i;
	char *s = shortopts;

	for (n = 0; o[n].name; n++)
		;
	if (n > OPT_MAX) {
		error("%s: more than %d options", c->name, OPT_MAX);
		return -1;
	}
	/* "+" (stop at the first operand), ":" (report errors here), -h. */
	if (c->stop_at_nonopt)
		*s++ = '+';
	*s++ = ':';
	*s++ = 'h';
	for (i = 0; i < n; i++) {
		longopts[i] = (struct option){ o[i].name,
			o[i].arg ? required_argument : no_argument, NULL,
			OPT_VAL(i) };
		if (o[i].short_name) {
			*s++ = o[i].short_name;
			if (o[i].arg)
				*s++ = ':';
		}
	}
	*s = 0;
	longopts[n] = (struct option){ "help", no_argument, NULL, OPT_HELP };
	longopts[n + 1] = (struct option){ 0 };
	optind = 0;		/* glibc: a fresh scan */
	opterr = 0;
	return 0;
}

/* The option argv[optind - 1] named, for messages: "--name" or "-c". */
static void opt_shown(const struct cmd *c, char **argv, int val, char *buf,
		      size_t len)
{
	const char *a = argv[optind - 1];

	if (val >= OPT_VAL(0))
		snprintf(buf, len, "--%s", c->opts[val - OPT_VAL(0)].name);
	else if (val > 0 && a[0] == '-' && a[1] != '-')
		snprintf(buf, len, "-%c", val);
	else
		snprintf(buf, len, "%.*s", (int)strcspn(a, "="), a);
}

/* Set o's variable from arg: 0, or -1 after a message. */
static int apply(const struct opt *o, const char *arg)
{
	char label[64];

	switch (o->type) {
	case OPTION_BOOLEAN:
		*(int *)o->value = 1;
		return 0;
	case OPTION_BIT:
		*(unsigned int *)o->value |= o->bit;
		return 0;
	case OPTION_STRING:
		*(const char **)o->value = arg;
		return 0;
	case OPTION_U64:
		snprintf(label, sizeof(label), "--%s", o->name);
		return parse_u64_arg(label, arg, o->value);
	case OPTION_CALLBACK:
		return o->callback(o, arg);
	case OPTION_END:
		break;
	}
	error("--%s: an option of no known type", o->name);
	return -1;
}

/*
 * getopt_long's answer val: the option given (with its argument in
 * optarg), or NULL after a message; *help set for --help.
 */
static const struct opt *which(const struct cmd *c, char **argv, int val,
			       int *help)
{
	const struct opt *o;
	char shown[128];

	if (val >= OPT_VAL(0))
		return &c->opts[val - OPT_VAL(0)];
	switch (val) {
	case OPT_HELP:
		*help = 1;
		return NULL;
	case ':':
		opt_shown(c, argv, optopt, shown, sizeof(shown));
		o = optopt >= OPT_VAL(0) ? &c->opts[optopt - OPT_VAL(0)] :
		    short_opt(c, optopt);
		error("%s needs %s", shown, o ? o->arg : "an argument");
		return NULL;
	case '?':
		/* A flag given an argument (--quiet=x) sets optopt to it. */
		opt_shown(c, argv, optopt, shown, sizeof(shown));
		if (optopt >= OPT_VAL(0))
			error("%s takes no argument", shown);
		else
			error("unknown option %s", shown);
		break;
	default:
		o = short_opt(c, val);
		if (o)
			return o;
		error("unknown option -%c", val);
		break;
	}
	cmd_usage(c, stderr);
	return NULL;
}

int parse_options(const struct cmd *c, int argc, char **argv)
{
	const struct opt *o;
	int val, help = 0, n;

	if (build(c))
		return PARSE_OPT_ERROR;
	while ((val = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		o = which(c, argv, val, &help);
		if (help) {
			cmd_help(c, stdout);
			return PARSE_OPT_HELP;
		}
		if (!o || apply(o, optarg))
			return PARSE_OPT_ERROR;
	}
	n = argc - optind;
	memmove(argv, argv + optind, (n + 1) * sizeof(*argv));
	return n;
}

int parse_u64_arg(const char *opt, const char *s, uint64_t *v)
{
	if (kmap_parse_dec(s, strlen(s), v)) {
		error("%s: '%s' is not a number", opt, s);
		return -1;
	}
	return 0;
}

struct kmap_types *open_types(const char *vmlinux, const char *btf,
			      char *err, int *failed)
{
	struct kmap_types *t = NULL;

	*failed = 0;
	err[0] = '\0';
	if (btf) {
		t = kmap_types_open(btf, err);
		if (!t) {
			error("%s", err);
			*failed = 1;
		}
	} else if (vmlinux) {
		t = kmap_types_open(vmlinux, err);
	}
	return t;
}

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
