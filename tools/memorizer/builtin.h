/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The memorizer command: one file per subcommand (builtin-*.c), one
 * dispatcher (memorizer.c). A subcommand's struct cmd is the single source
 * of its usage text, its --help, its man page (memorizer help --man) and
 * its bash completion (memorizer help --completion).
 */
#ifndef MEMORIZER_BUILTIN_H
#define MEMORIZER_BUILTIN_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "kmap.h"

/*
 * Options (options.c), in the manner of perf's parse-options: each entry
 * of a command's table names the variable the option sets, typed, and the
 * text its help, man page and completion show. The variables are the
 * command's file-scope statics, their initial values the defaults (one
 * command line is parsed per process). The dispatcher parses; a command's
 * cmd_NAME() is given the operands only.
 */
enum opt_type {
	OPTION_END,
	OPTION_BOOLEAN,		/* int: set to 1 */
	OPTION_BIT,		/* unsigned: bit ORed in */
	OPTION_STRING,		/* const char *: the argument */
	OPTION_U64,		/* uint64_t: the argument, a decimal number */
	OPTION_CALLBACK,	/* callback(opt, argument) */
};

struct opt {
	const char *name;		/* long name, without -- */
	char short_name;		/* 0: none */
	const char *arg;		/* argument's name, NULL: a flag */
	const char *help;
	enum opt_type type;
	void *value;			/* what the option sets */
	/* OPTION_CALLBACK: 0, or -1 after a message (a usage error). */
	int (*callback)(const struct opt *opt, const char *arg);
	unsigned int bit;		/* OPTION_BIT */
	const char *values;		/* what the argument completes to */
};

/* v's type must be t: a compile-time error otherwise. */
#define OPT_CHECK(v, t)	_Generic((v), t: (v))

#define OPT_END()	{ .type = OPTION_END }
#define OPT_BOOLEAN(s, l, v, h) \
	{ .type = OPTION_BOOLEAN, .short_name = (s), .name = (l), \
	  .value = OPT_CHECK(v, int *), .help = (h) }
#define OPT_BIT(s, l, v, h, b) \
	{ .type = OPTION_BIT, .short_name = (s), .name = (l), \
	  .value = OPT_CHECK(v, unsigned int *), .help = (h), .bit = (b) }
#define OPT_STRING(s, l, v, a, h) \
	{ .type = OPTION_STRING, .short_name = (s), .name = (l), \
	  .value = OPT_CHECK(v, const char **), .arg = (a), .help = (h) }
#define OPT_U64(s, l, v, a, h) \
	{ .type = OPTION_U64, .short_name = (s), .name = (l), \
	  .value = OPT_CHECK(v, uint64_t *), .arg = (a), .help = (h) }
/* a NULL: a flag, the callback given a NULL argument. */
#define OPT_CALLBACK(s, l, v, a, h, f) \
	{ .type = OPTION_CALLBACK, .short_name = (s), .name = (l), \
	  .value = (v), .arg = (a), .help = (h), .callback = (f) }
/* One of the words w (bash completion offers them). */
#define OPT_CALLBACK_VALUES(s, l, v, a, h, f, w) \
	{ .type = OPTION_CALLBACK, .short_name = (s), .name = (l), \
	  .value = (v), .arg = (a), .help = (h), .callback = (f), \
	  .values = (w) }

/*
 * The options several commands take, declared here once: their names,
 * short names, argument names and types; each command says in its help
 * what the option does there. --csv and --json set their bit of a mask
 * (FORMAT_CSV, FORMAT_JSON), so that a command can tell "both" apart.
 */
#define FORMAT_CSV	(1u << 1)
#define FORMAT_JSON	(1u << 2)
#define OPT__VMLINUX(v, h)	OPT_STRING(0, "vmlinux", v, "FILE", h)
#define OPT__SYSTEM_MAP(v, h)	OPT_STRING(0, "system-map", v, "FILE", h)
#define OPT__BTF(v, h)		OPT_STRING(0, "btf", v, "FILE", h)
/* What --btf gives wherever it is taken: struct types, nothing else. */
#define OPT_BTF_HELP "Struct types from this BTF instead of --vmlinux's DWARF: a kernel's raw BTF (/sys/kernel/btf/vmlinux; make stock leaves Debian's in out/stock/vmlinux.btf) or an ELF file with a .BTF section. Members and slab caches' types only: no call site's or global's type."
#define OPT__OUTPUT(v, h)	OPT_STRING('o', "output", v, "FILE", h)
#define OPT__CSV(v, h)		OPT_BIT(0, "csv", v, h, FORMAT_CSV)
#define OPT__JSON(v, h)		OPT_BIT(0, "json", v, h, FORMAT_JSON)
#define OPT__QUIET(v, h)	OPT_BOOLEAN('q', "quiet", v, h)
#define OPT__DEBUGFS(v) \
	OPT_STRING(0, "debugfs", v, "DIR", "Memorizer's debugfs directory (default $MEMORIZER_DEBUGFS, else /sys/kernel/debug/memorizer).")
/* The help of -o for a command that writes to standard output by default. */
#define OPT_OUTPUT_HELP		"Write to FILE instead of standard output."

struct cmd {
	const char *name;
	const char *summary;		/* one line, no period */
	const char *synopsis;		/* after "memorizer NAME " */
	const char *description;	/* paragraphs apart by blank lines */
	const struct opt *opts;		/* ended by OPT_END() */
	const char *files_desc;		/* what FILE arguments complete to */
	const char *examples;		/* "$ command" lines and comments */
	int stop_at_nonopt;		/* options end at the first operand */
	/* argv[0 .. argc - 1]: the operands, argv[argc] NULL. */
	int (*run)(int argc, char **argv);
};

/*
 * Each command: its description (help text, options) and its entry
 * point, given the operands once the options are parsed.
 */
extern const struct cmd cmd_record_desc, cmd_stream_desc, cmd_check_desc,
	cmd_report_desc, cmd_text_desc, cmd_symbolize_desc, cmd_capmap_desc,
	cmd_diff_desc, cmd_export_desc, cmd_sharing_desc, cmd_crosscheck_desc,
	cmd_compartments_desc;
extern const struct cmd *const commands[];
int cmd_record(int argc, char **argv);
int cmd_stream(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_text(int argc, char **argv);
int cmd_symbolize(int argc, char **argv);
int cmd_capmap(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_sharing(int argc, char **argv);
int cmd_crosscheck(int argc, char **argv);
int cmd_compartments(int argc, char **argv);

/*
 * Parse c's options in argv[1 .. argc - 1] (argv[0] is the command's
 * name; argv[argc] is NULL) with getopt_long, filling their variables in
 * the order given. Options and operands may mix, except after "--", and
 * after the first operand when c->stop_at_nonopt is set. Returns the
 * number of operands, moved to argv[0 ..] (NULL-ended); PARSE_OPT_HELP
 * after printing --help (-h) to standard output (the command exits 0); or
 * PARSE_OPT_ERROR after a message (the command exits 2). One command line
 * at a time (getopt's state).
 */
#define PARSE_OPT_HELP		(-1)
#define PARSE_OPT_ERROR		(-2)
int parse_options(const struct cmd *c, int argc, char **argv);

void cmd_usage(const struct cmd *c, FILE *f);
void cmd_help(const struct cmd *c, FILE *f);
void cmd_man(const struct cmd *c, FILE *f);
void print_completion(FILE *f);
const struct cmd *find_cmd(const char *name);
/* help.c: the main usage, and memorizer help [--man|--completion] [CMD]. */
void main_usage(FILE *f);
int cmd_help_main(int argc, char **argv);

#ifndef MEMORIZER_VERSION
#define MEMORIZER_VERSION "0.1"
#endif

/* Messages: "memorizer CMD: ..." on stderr. */
void error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern const char *progname;
/* one when n is 1, else many: "1 error", "2 errors". */
const char *plural(uint64_t n, const char *one, const char *many);

/*
 * An output file (output.c): -o FILE, or standard output for NULL or "-".
 * A regular FILE is written as a temporary beside it, renamed over it by
 * output_close() with keep set and removed without; FILE being one of
 * inputs[0 .. ninputs - 1] is refused. Both return 0, or -1 with a message
 * (output_close(): a write error, errno's, or the rename's).
 */
struct output {
	FILE *f;
	int fd;			/* f's descriptor, for write(2) */
	const char *name;	/* for messages: as given, or <stdout> */
	char *path;		/* a regular file's real path */
	char *tmp;		/* the temporary file being written */
	int failed;		/* output_flush() failed */
};
int output_open(struct output *o, const char *path, char *const *inputs,
		int ninputs);
int output_close(struct output *o, int keep);
/*
 * Flush, sync and close o's file, its temporary one not renamed yet: a
 * command whose outputs go together (export's tables) flushes all of them
 * before output_close() renames any. 0, or -1 with a message (then
 * output_close() fails too, and removes the temporary file).
 */
int output_flush(struct output *o);

/*
 * Progress on a terminal (progress.c): stream's collection, and every
 * input of at least PROGRESS_MIN_BYTES a command reads (open_input()).
 * $MEMORIZER_PROGRESS: 1 shows it for every input whatever its size and
 * wherever standard error goes (a line each off a terminal), 0 never.
 */
#define PROGRESS_MIN_BYTES	(100ull * 1000 * 1000)
struct progress {
	int on, shown, tty;
	const char *name;
	double t0, last;
};
double now(void);
void progress_init(struct progress *p, int on, const char *name);
/* "NAME: 12.3 MB, N WHAT, S s"; last ends the line. */
void progress_count(struct progress *p, uint64_t bytes, uint64_t n,
		    const char *what, int last);
/*
 * Whether src's reading shows progress: as $MEMORIZER_PROGRESS says, else
 * when src is a regular file of PROGRESS_MIN_BYTES and stderr a tty.
 */
int progress_wanted(const struct kmap_src *src);
/*
 * kmap_src_open(), and progress while the input is read (whichever way
 * the command reads it) when progress_wanted(): "NAME: P% of M MB, N
 * records, S s", and at the end "NAME: N records, M MB, S s" (lines for
 * a text input).
 */
struct kmap_src *open_input(const char *path, char *err);

/*
 * Every object of src, in order, through each(ctx, object, its accesses):
 * 0, or -1 after a message (each's own when it returns non-zero, else
 * src's error).
 */
typedef int (*read_object_fn)(void *ctx, const struct kmap_object *o,
			      const struct kmap_access *acc, size_t nacc);
int read_objects(struct kmap_src *src, read_object_fn each, void *ctx);

/* Numbers from the command line; -1 with a message when not one. */
int parse_u64_arg(const char *opt, const char *s, uint64_t *v);

/*
 * Struct types from --btf's file, else from --vmlinux's DWARF (or .BTF);
 * NULL when neither is given. A --btf file that gives none is an error:
 * a message, *failed set. A vmlinux that gives none still names
 * functions: NULL, err says why, for a caller that needs types.
 */
struct kmap_types;
struct kmap_types *open_types(const char *vmlinux, const char *btf,
			      char *err, int *failed);
/* Symbols from --vmlinux or --system-map (NULL, no error, when neither). */
struct kmap_sym *open_symbols(const char *vmlinux, const char *system_map,
			      int *failed);

/* debugfs: where Memorizer's files are (--debugfs, $MEMORIZER_DEBUGFS). */
const char *debugfs_dir(const char *opt);
/* Write s to DIR/name; -1 with a message on failure. */
int debugfs_write(const char *dir, const char *name, const char *s);
/* Open DIR/name to read (its path in path, for messages); -1 with a message. */
int debugfs_open(const char *dir, const char *name, char *path, size_t size);
/* read(2), again when a signal interrupted it. */
ssize_t read_retry(int fd, void *buf, size_t len);
/*
 * A figure from DIR/stats, whose lines are "key value" (like /proc/vmstat;
 * libkmap's kmap_stats_read() reads them): the value of key, found by
 * name; -1 when the file cannot be read, is not all "key value" lines or
 * has no such key.
 */
long long stat_value(const char *dir, const char *key);

#endif
